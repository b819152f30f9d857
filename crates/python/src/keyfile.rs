//! Key files in the shape pyca/cryptography users know: the
//! `load_{pem,der}_{private,public}_key` functions (a private key may be
//! encrypted, PKCS#8 `EncryptedPrivateKeyInfo`, read with `password=`) and
//! `private_bytes(encoding, format, encryption_algorithm)`. All encoding and
//! cryptography is the core's (`sphincs::encoding`); this file only maps the
//! arguments. The binding's copy of a password is wiped after use.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use sphincs::any::{AnyVerifyingKey, KeyFileKind, KeyOpener};
use sphincs::encoding;

use crate::args::{self, password};
use crate::errors::{detached, to_py};
use crate::interrupt::interruptible;
use crate::key_base::{new_private, new_public};
use crate::slh_dsa::{SLHDSAPrivateKey, SLHDSAPublicKey};

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
/// `data` and `password` are the Python arguments; `form` checks the bytes
/// are in the loader's form (PEM or DER).
fn load_private<'py>(
    data: &Bound<'py, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
    form: impl FnOnce(&[u8]) -> PyResult<()>,
) -> PyResult<Bound<'py, SLHDSAPrivateKey>> {
    let py = data.py();
    let data = args::bytes(data, "data")?;
    let password = self::password(password)?;
    form(&data)?;
    let data = &data[..];
    let is_encrypted = matches!(
        KeyFileKind::of(data),
        KeyFileKind::EncryptedPrivate | KeyFileKind::EncryptedLimited
    );
    // Opening checks PK.root (about one key generation; a draft SP 800-230
    // key recomputes its tree, which Ctrl-C stops) and decrypting runs the
    // key derivation: both without the GIL.
    let inner = match password {
        None if is_encrypted => {
            return Err(PyTypeError::new_err(
                "the private key is encrypted (ENCRYPTED PRIVATE KEY) but no password was given; pass password=b\"...\"",
            ))
        }
        Some(_) if !is_encrypted => {
            // Not an encrypted key: a plain one (then the password is a
            // mistake) or garbage (then say what is wrong with it).
            detached(py, || {
                KeyOpener::new(None).trusting_root().open_signing_key(data)?;
                Ok(())
            })?;
            return Err(PyTypeError::new_err(
                "a password was given but the private key is not encrypted; pass password=None",
            ));
        }
        password => interruptible(py, |stop| {
            // A draft SP 800-230 key (its own encrypted PEM) recomputes its
            // tree: on every core, as no `threads=` argument exists here.
            let cores = std::thread::available_parallelism().map_or(1, usize::from);
            let mut opener = KeyOpener::new(None).with_stop(stop).with_threads(cores);
            if let Some(pw) = password {
                opener = opener.with_passphrase(move || Ok(pw.clone()));
            }
            Ok(opener.open_signing_key(data)?.key)
        })?,
    };
    new_private(py, inner)
}

/// Reads a SubjectPublicKeyInfo key in the mode of its OID, once `form`
/// has checked the bytes are in the loader's form (PEM or DER).
fn load_public<'py>(
    data: &Bound<'py, PyAny>,
    form: impl FnOnce(&[u8]) -> PyResult<()>,
) -> PyResult<Bound<'py, SLHDSAPublicKey>> {
    let bytes = args::bytes(data, "data")?;
    form(&bytes)?;
    let inner = AnyVerifyingKey::from_spki(&bytes).map_err(to_py)?;
    new_public(data.py(), inner)
}

/// Reads a PEM PKCS#8 SLH-DSA private key (RFC 9909): "PRIVATE KEY", or
/// "ENCRYPTED PRIVATE KEY" with `password` (PBES2: scrypt or PBKDF2, AES).
/// The key pair is checked; the key has the mode of its OID. `backend` and
/// `unsafe_skip_rsa_key_validation` are pyca/cryptography's parameters,
/// accepted so that calls written for it run unchanged, and not used.
#[pyfunction]
#[pyo3(signature = (data, password=None, backend=None, *, unsafe_skip_rsa_key_validation=false))]
pub fn load_pem_private_key<'py>(
    data: &Bound<'py, PyAny>,
    password: Option<&Bound<'py, PyAny>>,
    backend: Option<&Bound<'py, PyAny>>,
    unsafe_skip_rsa_key_validation: bool,
) -> PyResult<Bound<'py, SLHDSAPrivateKey>> {
    let _ = (backend, unsafe_skip_rsa_key_validation);
    load_private(data, password, |d| {
        require_pem(d, encoding::PRIVATE_KEY_LABEL)
    })
}

/// Reads a DER PKCS#8 SLH-DSA private key (RFC 9909), plain or encrypted
/// (with `password`), as `load_pem_private_key`.
#[pyfunction]
#[pyo3(signature = (data, password=None, backend=None, *, unsafe_skip_rsa_key_validation=false))]
pub fn load_der_private_key<'py>(
    data: &Bound<'py, PyAny>,
    password: Option<&Bound<'py, PyAny>>,
    backend: Option<&Bound<'py, PyAny>>,
    unsafe_skip_rsa_key_validation: bool,
) -> PyResult<Bound<'py, SLHDSAPrivateKey>> {
    let _ = (backend, unsafe_skip_rsa_key_validation);
    load_private(data, password, |d| require_der(d, "private"))
}

/// Reads a PEM ("PUBLIC KEY") SubjectPublicKeyInfo SLH-DSA key (RFC 9909),
/// in the mode of its OID. `backend` (pyca's) is accepted and not used.
#[pyfunction]
#[pyo3(signature = (data, backend=None))]
pub fn load_pem_public_key<'py>(
    data: &Bound<'py, PyAny>,
    backend: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, SLHDSAPublicKey>> {
    let _ = backend;
    load_public(data, |d| require_pem(d, encoding::PUBLIC_KEY_LABEL))
}

/// Reads a DER SubjectPublicKeyInfo SLH-DSA key (RFC 9909), in the mode of
/// its OID. `backend` (pyca's) is accepted and not used.
#[pyfunction]
#[pyo3(signature = (data, backend=None))]
pub fn load_der_public_key<'py>(
    data: &Bound<'py, PyAny>,
    backend: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, SLHDSAPublicKey>> {
    let _ = backend;
    load_public(data, |d| require_der(d, "public"))
}
