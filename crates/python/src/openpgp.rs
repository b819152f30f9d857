//! OpenPGP (RFC 9580 v6 keys, RFC 9980 SLH-DSA) from Python, thin over the
//! core's `sphincs::openpgp::one_shot`: make a key, extract its
//! certificate, sign and verify detached and cleartext signatures. Keys,
//! certificates and signatures go in armored or binary and come out
//! armored (`str`, which the functions also take back); a signature that
//! does not check out raises
//! `InvalidSignature`, anything else `ValueError`.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use sphincs::openpgp::{one_shot, ErrorKind, PgpError, Verification};

use crate::args;
use crate::errors::{invalid_signature, no_panic};

/// A key, certificate or signature argument: bytes-like, or the armored
/// text (`str`) the functions here return.
fn object(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(text) = obj.cast::<pyo3::types::PyString>() {
        return Ok(text.to_cow()?.as_bytes().to_vec());
    }
    Ok(args::bytes(obj, what)?.to_vec())
}

fn to_py(e: PgpError) -> PyErr {
    match e.kind {
        ErrorKind::BadSignature => invalid_signature(e.message),
        ErrorKind::Other => PyRuntimeError::new_err(e.message),
        _ => PyValueError::new_err(e.message),
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Runs `f` without the GIL; panics become `RuntimeError`, errors their
/// Python exception.
fn run<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, PgpError> + Send) -> PyResult<T> {
    py.detach(|| no_panic(|| f().map_err(to_py)))
}

fn verification<'py>(py: Python<'py>, v: &Verification) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("fingerprint", v.signing_key.to_hex())?;
    d.set_item("primary_fingerprint", v.primary.to_hex())?;
    d.set_item("created", v.created)?;
    d.set_item("mode", v.mode.name())?;
    d.set_item("user_id", v.user_id.clone())?;
    Ok(d)
}

/// A new OpenPGP secret key (armored): an SLH-DSA primary key of `profile`
/// ("slh-dsa-shake-128s", "slh-dsa-shake-128f" or "slh-dsa-shake-256s")
/// that certifies and signs, with `user_ids`; protected with `passphrase`
/// (Argon2id + AES-256-OCB) if given.
#[pyfunction]
#[pyo3(signature = (profile="slh-dsa-shake-128s", user_ids=Vec::new(), *, passphrase=None))]
pub fn openpgp_generate_key(
    py: Python<'_>,
    profile: &str,
    user_ids: Vec<String>,
    passphrase: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let pass = args::opt_bytes(passphrase, "passphrase")?;
    let key = run(py, || {
        one_shot::generate_key(profile, &user_ids, now() as u32, pass.as_deref())
    })?;
    Ok(key.to_string())
}

/// The certificate (public key, armored) of an OpenPGP key.
#[pyfunction]
pub fn openpgp_extract_cert(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<String> {
    let key = object(key, "key")?;
    run(py, || one_shot::extract_cert(&key))
}

/// A detached signature (armored) of `data`: binary, or canonical text
/// with `text=True`. `passphrase` unlocks a protected key.
#[pyfunction]
#[pyo3(signature = (key, data, *, passphrase=None, text=false, threads=None))]
pub fn openpgp_sign(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    passphrase: Option<&Bound<'_, PyAny>>,
    text: bool,
    threads: Option<i64>,
) -> PyResult<String> {
    let (key, data) = (object(key, "key")?, args::bytes(data, "data")?);
    let pass = args::opt_bytes(passphrase, "passphrase")?;
    let threads = args::threads(threads)?;
    run(py, || {
        one_shot::sign_detached(&key, pass.as_deref(), &data, text, now(), threads)
    })
}

/// Checks a detached signature over `data` with `certs` (one or more
/// certificates, armored or binary): a dict of the good signature
/// (fingerprint, primary_fingerprint, created, mode, user_id), or
/// `InvalidSignature`.
#[pyfunction]
pub fn openpgp_verify<'py>(
    py: Python<'py>,
    certs: &Bound<'py, PyAny>,
    signature: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (certs, sig, data) = (
        object(certs, "certs")?,
        object(signature, "signature")?,
        args::bytes(data, "data")?,
    );
    let v = run(py, || one_shot::verify_detached(&certs, &sig, &data, now()))?;
    verification(py, &v)
}

/// Clear-signs UTF-8 `text` (the cleartext signature framework, as Debian's
/// InRelease files use it).
#[pyfunction]
#[pyo3(signature = (key, text, *, passphrase=None, threads=None))]
pub fn openpgp_clearsign<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    text: &Bound<'py, PyAny>,
    passphrase: Option<&Bound<'py, PyAny>>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (key, text) = (object(key, "key")?, args::bytes(text, "text")?);
    let pass = args::opt_bytes(passphrase, "passphrase")?;
    let threads = args::threads(threads)?;
    let out = run(py, || {
        one_shot::clearsign(&key, pass.as_deref(), &text, now(), threads)
    })?;
    Ok(PyBytes::new(py, &out))
}

/// Checks a cleartext-signed message with `certs`: `(text, verification)`,
/// or `InvalidSignature`.
#[pyfunction]
pub fn openpgp_verify_cleartext<'py>(
    py: Python<'py>,
    certs: &Bound<'py, PyAny>,
    signed: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyDict>)> {
    let (certs, signed) = (object(certs, "certs")?, object(signed, "signed")?);
    let (text, v) = run(py, || one_shot::verify_cleartext(&certs, &signed, now()))?;
    Ok((PyBytes::new(py, &text), verification(py, &v)?))
}
