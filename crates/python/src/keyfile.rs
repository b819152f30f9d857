//! Key files in the shape pyca/cryptography users know: the
//! `load_{pem,der}_{private,public}_key` functions (a private key may be
//! encrypted, PKCS#8 `EncryptedPrivateKeyInfo`, read with `password=`) and
//! `private_bytes(encoding, format, encryption_algorithm)`. All encoding and
//! cryptography is the core's (`sphincs::encoding`); this file only maps the
//! arguments. The binding's copy of a password is wiped after use.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use sphincs::encoding::{self, encrypted};
use sphincs::{DynSigningKey, DynVerifyingKey};
use zeroize::Zeroizing;

use crate::args;
use crate::errors::{detached, to_py};
use crate::slh_dsa::{SLHDSAPrivateKey, SLHDSAPublicKey};

/// A password argument (bytes-like, or None), copied into a buffer wiped on
/// drop. (The caller's own Python object cannot be wiped from here.)
fn password(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Zeroizing<Vec<u8>>>> {
    Ok(args::opt_bytes(obj, "password")?.map(|b| Zeroizing::new(b.to_vec())))
}

/// The bytes of `data` if it is PEM, else a `ValueError` pointing to the DER loader.
fn require_pem(data: &[u8], what: &str) -> PyResult<()> {
    if encoding::pem_label(data).is_some() {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "not PEM (no \"-----BEGIN {what}-----\" line); for DER use load_der_{}_key",
            if what == encoding::PUBLIC_KEY_LABEL {
                "public"
            } else {
                "private"
            }
        )))
    }
}

fn require_der(data: &[u8], kind: &str) -> PyResult<()> {
    if data.first() == Some(&0x30) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "not DER (a DER key starts with a SEQUENCE, byte 0x30); for PEM use load_pem_{kind}_key"
        )))
    }
}

/// Reads a plain or encrypted PKCS#8 key. As pyca/cryptography: an
/// encrypted key without a password, or a password for a plain key, is a
/// `TypeError`; a wrong password or a damaged key is a `ValueError`.
fn load_private(
    py: Python<'_>,
    data: &[u8],
    password: Option<Zeroizing<Vec<u8>>>,
) -> PyResult<SLHDSAPrivateKey> {
    let is_encrypted = encrypted::is_encrypted_private_key(data);
    // Loading recomputes PK.root (about one key generation) and decrypting
    // runs the key derivation: both without the GIL.
    let inner = match password {
        None if is_encrypted => {
            return Err(PyTypeError::new_err(
                "the private key is encrypted (ENCRYPTED PRIVATE KEY) but no password was given; pass password=b\"...\"",
            ))
        }
        None => detached(py, || DynSigningKey::from_pkcs8(data))?,
        Some(pw) if is_encrypted => {
            detached(py, || DynSigningKey::from_pkcs8_with_passphrase(data, &pw))?
        }
        Some(_) => {
            // Not an encrypted key: a plain one (then the password is a
            // mistake) or garbage (then say what is wrong with it).
            detached(py, || DynSigningKey::from_pkcs8_unchecked(data))?;
            return Err(PyTypeError::new_err(
                "a password was given but the private key is not encrypted; pass password=None",
            ));
        }
    };
    Ok(SLHDSAPrivateKey { inner })
}

/// Reads a PEM PKCS#8 SLH-DSA private key (RFC 9909): "PRIVATE KEY", or
/// "ENCRYPTED PRIVATE KEY" with `password` (PBES2: scrypt or PBKDF2, AES).
/// The key pair is checked; the key has the mode of its OID.
#[pyfunction]
#[pyo3(signature = (data, password=None))]
pub fn load_pem_private_key(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
) -> PyResult<SLHDSAPrivateKey> {
    let data = args::bytes(data, "data")?;
    let password = self::password(password)?;
    require_pem(&data, encoding::PRIVATE_KEY_LABEL)?;
    load_private(py, &data, password)
}

/// Reads a DER PKCS#8 SLH-DSA private key (RFC 9909), plain or encrypted
/// (with `password`), as `load_pem_private_key`.
#[pyfunction]
#[pyo3(signature = (data, password=None))]
pub fn load_der_private_key(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
) -> PyResult<SLHDSAPrivateKey> {
    let data = args::bytes(data, "data")?;
    let password = self::password(password)?;
    require_der(&data, "private")?;
    load_private(py, &data, password)
}

/// Reads a PEM ("PUBLIC KEY") SubjectPublicKeyInfo SLH-DSA key (RFC 9909),
/// in the mode of its OID.
#[pyfunction]
pub fn load_pem_public_key(data: &Bound<'_, PyAny>) -> PyResult<SLHDSAPublicKey> {
    let data = args::bytes(data, "data")?;
    require_pem(&data, encoding::PUBLIC_KEY_LABEL)?;
    let inner = DynVerifyingKey::from_spki(&data).map_err(to_py)?;
    Ok(SLHDSAPublicKey { inner })
}

/// Reads a DER SubjectPublicKeyInfo SLH-DSA key (RFC 9909), in the mode of its OID.
#[pyfunction]
pub fn load_der_public_key(data: &Bound<'_, PyAny>) -> PyResult<SLHDSAPublicKey> {
    let data = args::bytes(data, "data")?;
    require_der(&data, "public")?;
    let inner = DynVerifyingKey::from_spki(&data).map_err(to_py)?;
    Ok(SLHDSAPublicKey { inner })
}

/// The name of an `Encoding` / `PrivateFormat` / `PublicFormat` argument: a
/// `str`, or an enum member whose value is one (ours, or pyca/cryptography's
/// up to 49), or a member of pyca/cryptography's own class of that name
/// (from 50 on implemented in Rust, with no `value`: its str is
/// `"Encoding.PEM"`).
fn choice(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let wrong = || PyTypeError::new_err(format!("{what} must be a sphincs.{what} member or a str"));
    let text = if let Ok(s) = obj.cast::<PyString>() {
        // Our enums are str subclasses: their text is the value.
        s.to_cow()?.into_owned()
    } else if let Some(value) = obj.getattr_opt("value")? {
        value.extract::<String>().map_err(|_| wrong())?
    } else if obj.get_type().name()?.to_cow()? == what {
        let full = obj.str()?.to_cow()?.into_owned();
        match full.split_once('.') {
            Some((class, member)) if class == what => member.to_string(),
            _ => return Err(wrong()),
        }
    } else {
        return Err(wrong());
    };
    Ok(text.to_ascii_lowercase())
}

/// The password of an `encryption_algorithm`: None for `NoEncryption()`
/// (or None), the bytes of `BestAvailableEncryption(password)` (ours or
/// pyca/cryptography's: anything with a `password` attribute).
fn encryption(obj: &Bound<'_, PyAny>) -> PyResult<Option<Zeroizing<Vec<u8>>>> {
    if obj.is_none() || obj.get_type().name()?.to_cow()? == "NoEncryption" {
        return Ok(None);
    }
    match obj.getattr_opt("password")? {
        Some(pw) => password(Some(&pw)),
        None => Err(PyTypeError::new_err(
            "encryption_algorithm must be sphincs.NoEncryption() or sphincs.BestAvailableEncryption(password)",
        )),
    }
}

/// `public_bytes(encoding, format)`: SubjectPublicKeyInfo PEM or DER (RFC
/// 9909), or the raw key (Raw, Raw), as pyca/cryptography's.
pub fn public_bytes<'py>(
    py: Python<'py>,
    key: &DynVerifyingKey,
    encoding: &Bound<'py, PyAny>,
    format: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (enc, fmt) = (
        choice(encoding, "Encoding")?,
        choice(format, "PublicFormat")?,
    );
    let out = match (enc.as_str(), fmt.as_str()) {
        ("raw", "raw") => key.to_bytes().to_vec(),
        ("raw", _) | (_, "raw") => {
            return Err(PyValueError::new_err(
                "Raw encoding goes with PublicFormat.Raw only",
            ))
        }
        ("pem", "subjectpublickeyinfo") => key.to_spki_pem().map_err(to_py)?.into_bytes(),
        ("der", "subjectpublickeyinfo") => key.to_spki_der().map_err(to_py)?,
        ("pem" | "der", other) => {
            return Err(PyValueError::new_err(format!(
                "format {other:?} is not supported: SLH-DSA public keys are written as PublicFormat.SubjectPublicKeyInfo or Raw"
            )))
        }
        (other, _) => {
            return Err(PyValueError::new_err(format!(
                "encoding {other:?} is not supported: use Encoding.PEM, DER or Raw"
            )))
        }
    };
    Ok(PyBytes::new(py, &out))
}

/// `private_bytes(encoding, format, encryption_algorithm)`: PEM or DER
/// PKCS#8, encrypted under a password (scrypt, AES-256-CBC: the core's
/// `to_encrypted_pkcs8_*`) or not; or the raw key (Raw, Raw, NoEncryption).
pub fn private_bytes<'py>(
    py: Python<'py>,
    key: &DynSigningKey,
    encoding: &Bound<'py, PyAny>,
    format: &Bound<'py, PyAny>,
    encryption_algorithm: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (enc, fmt) = (
        choice(encoding, "Encoding")?,
        choice(format, "PrivateFormat")?,
    );
    let password = encryption(encryption_algorithm)?;
    let out: Zeroizing<Vec<u8>> = match (enc.as_str(), fmt.as_str(), password) {
        ("raw", "raw", None) => key.to_bytes().to_vec().into(),
        ("raw", _, _) | (_, "raw", _) => {
            return Err(PyValueError::new_err(
                "Raw encoding goes with PrivateFormat.Raw and NoEncryption() only",
            ))
        }
        ("pem", "pkcs8", None) => key.to_pkcs8_pem().map_err(to_py)?.as_bytes().to_vec().into(),
        ("der", "pkcs8", None) => key.to_pkcs8_der().map_err(to_py)?,
        ("pem", "pkcs8", Some(pw)) => detached(py, || key.to_encrypted_pkcs8_pem(&pw))?
            .into_bytes()
            .into(),
        ("der", "pkcs8", Some(pw)) => detached(py, || key.to_encrypted_pkcs8_der(&pw))?.into(),
        ("pem" | "der", other, _) => {
            return Err(PyValueError::new_err(format!(
                "format {other:?} is not supported: SLH-DSA keys are written as PrivateFormat.PKCS8 or Raw"
            )))
        }
        (other, _, _) => {
            return Err(PyValueError::new_err(format!(
                "encoding {other:?} is not supported: use Encoding.PEM, DER or Raw"
            )))
        }
    };
    Ok(PyBytes::new(py, &out))
}
