//! `private_bytes(encoding, format, encryption_algorithm)` of a private key
//! and `public_bytes(encoding, format)` of a public key,
//! in the shape pyca/cryptography users know: PEM or DER PKCS#8, encrypted
//! or not, or raw. The key classes call it; the loaders, which make key
//! classes, are `keyfile.rs`. All encoding and cryptography is the core's.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use sphincs::any::{AnySigningKey, AnyVerifyingKey};
use zeroize::Zeroizing;

use crate::args::password;
use crate::errors::{detached, to_py};

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

/// The `encoding` and `format` arguments' names ([`choice`]); `format_what`
/// names the format's enum.
fn choices(
    encoding: &Bound<'_, PyAny>,
    format: &Bound<'_, PyAny>,
    format_what: &str,
) -> PyResult<(String, String)> {
    Ok((choice(encoding, "Encoding")?, choice(format, format_what)?))
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

/// A public key's SubjectPublicKeyInfo (RFC 9909) under the OID of its
/// mode: PEM ("PUBLIC KEY") or DER.
pub fn spki<'py>(
    py: Python<'py>,
    key: &AnyVerifyingKey,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let out = match pem {
        true => key.to_spki_pem().map(String::into_bytes),
        false => key.to_spki_der(),
    };
    Ok(PyBytes::new(py, &out.map_err(to_py)?))
}

/// A private key's unencrypted PKCS#8 (RFC 9909) under the OID of its mode:
/// PEM ("PRIVATE KEY") or DER.
pub fn pkcs8<'py>(
    py: Python<'py>,
    key: &AnySigningKey,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let out: Zeroizing<Vec<u8>> = match pem {
        true => key
            .to_pkcs8_pem()
            .map_err(to_py)?
            .as_bytes()
            .to_vec()
            .into(),
        false => key.to_pkcs8_der().map_err(to_py)?,
    };
    Ok(PyBytes::new(py, &out))
}

/// `public_bytes(encoding, format)`: SubjectPublicKeyInfo PEM or DER (RFC
/// 9909), or the raw key (Raw, Raw), as pyca/cryptography's.
pub fn public_bytes<'py>(
    py: Python<'py>,
    key: &AnyVerifyingKey,
    encoding: &Bound<'py, PyAny>,
    format: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (enc, fmt) = choices(encoding, format, "PublicFormat")?;
    let out = match (enc.as_str(), fmt.as_str()) {
        ("raw", "raw") => key.to_bytes().to_vec(),
        ("raw", _) | (_, "raw") => {
            return Err(PyValueError::new_err(
                "Raw encoding goes with PublicFormat.Raw only",
            ))
        }
        ("pem", "subjectpublickeyinfo") => return spki(py, key, true),
        ("der", "subjectpublickeyinfo") => return spki(py, key, false),
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
    key: &AnySigningKey,
    encoding: &Bound<'py, PyAny>,
    format: &Bound<'py, PyAny>,
    encryption_algorithm: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (enc, fmt) = choices(encoding, format, "PrivateFormat")?;
    let password = encryption(encryption_algorithm)?;
    let out: Zeroizing<Vec<u8>> = match (enc.as_str(), fmt.as_str(), password) {
        ("raw", "raw", None) => key.to_bytes().to_vec().into(),
        ("raw", _, _) | (_, "raw", _) => {
            return Err(PyValueError::new_err(
                "Raw encoding goes with PrivateFormat.Raw and NoEncryption() only",
            ))
        }
        ("pem", "pkcs8", None) => return pkcs8(py, key, true),
        ("der", "pkcs8", None) => return pkcs8(py, key, false),
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
