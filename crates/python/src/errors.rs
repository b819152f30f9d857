//! `sphincs::Error` as Python exceptions, and the guard that keeps Rust
//! panics from reaching Python as anything but an ordinary exception.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyException, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use pyo3::{create_exception, PyErr};
use sphincs::Error;

create_exception!(
    sphincs,
    InvalidSignature,
    PyException,
    "The signature does not verify: wrong key, message, context, pre-hash, or a corrupted or wrong-length signature."
);

/// `sphincs.InvalidSignature` with `msg`: the package's class, which is also
/// pyca/cryptography's `InvalidSignature` when `cryptography` is installed
/// (python/sphincs/__init__.py), or this module's own base class where the
/// package cannot be imported.
pub fn invalid_signature(msg: String) -> PyErr {
    static CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    Python::attach(|py| match CLASS.import(py, "sphincs", "InvalidSignature") {
        Ok(cls) => PyErr::from_type(cls.clone(), msg),
        Err(_) => InvalidSignature::new_err(msg),
    })
}

/// The Python exception of a core error. A signature that does not verify,
/// including one of the wrong length (or a signed message shorter than a
/// signature), is `InvalidSignature`; bad arguments (a key used in the other
/// mode of its OID included)
/// are `ValueError`; the OS (RNG, reading) is `OSError`. The message is the
/// core's own.
pub fn to_py(e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::InvalidSignature | Error::InvalidSignatureLength { .. } => invalid_signature(msg),
        Error::InvalidLength {
            what: "signature" | "signed message",
            ..
        } => invalid_signature(msg),
        Error::Rng(_) | Error::Io(_) | Error::MessageChanged => PyOSError::new_err(msg),
        Error::FaultDetected | Error::BackendUnavailable(_) => PyRuntimeError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// An `OSError` for a file that could not be opened, with `errno`,
/// `strerror` and `filename` (the path object as given) set as Python's own
/// `open()` sets them (so it is `FileNotFoundError`, `PermissionError`, … by
/// its errno).
pub fn os_error(e: &std::io::Error, path: &Bound<'_, PyAny>) -> PyErr {
    match e.raw_os_error() {
        Some(code) => {
            let text = e.to_string();
            let strerror = text
                .strip_suffix(&format!(" (os error {code})"))
                .unwrap_or(&text)
                .to_string();
            PyOSError::new_err((code, strerror, path.clone().unbind()))
        }
        None => PyOSError::new_err(format!("{path}: {e}")),
    }
}

/// `e` with `filename` set to `path` when it is an `OSError` that has none
/// (the core's "message changed while it was being signed" about a file).
/// Its message becomes `strerror`, which `str()` shows with the filename
/// (after "[Errno None]", as Python writes an OSError without an errno).
pub fn with_filename(py: Python<'_>, e: PyErr, path: &Bound<'_, PyAny>) -> PyErr {
    if e.is_instance_of::<PyOSError>(py) {
        let value = e.value(py);
        if value.getattr("filename").is_ok_and(|f| f.is_none()) {
            // OSError's attributes are writable; should this fail, the
            // error is still raised, only without its filename.
            if value.getattr("strerror").is_ok_and(|s| s.is_none()) {
                if let Ok(text) = value.str() {
                    let _ = value.setattr("strerror", text);
                }
            }
            let _ = value.setattr("filename", path);
        }
    }
    e
}

/// The Python exception of a CMS check: a SignedData that does not check
/// out (a signature that does not verify, content that does not match its
/// message digest, an attribute at odds with its SignerInfo, a chain that
/// fails) is `InvalidSignature`, with the core's reason, as `sphincs cms
/// verify` exits 1 for all of them; one that is malformed or cannot be
/// checked with what was given is a `ValueError` (its exit 2).
pub fn cms_to_py(e: Error) -> PyErr {
    match e {
        Error::VerificationFailed(why) => invalid_signature(why),
        e => to_py(e),
    }
}

/// Whether a core error means "this signature is not valid" (as opposed to a
/// bad argument such as an oversize context): what `verify_many` reports as `False`.
pub fn is_invalid_signature(e: &Error) -> bool {
    matches!(
        e,
        Error::InvalidSignature
            | Error::InvalidSignatureLength { .. }
            | Error::InvalidLength {
                what: "signature" | "signed message",
                ..
            }
    )
}

/// Runs `f`, turning a panic into a `RuntimeError` so that no panic unwinds
/// into Python (PyO3 would raise `PanicException`, a `BaseException` that
/// `except Exception` does not catch).
pub fn no_panic<T>(f: impl FnOnce() -> Result<T, PyErr>) -> Result<T, PyErr> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(PyRuntimeError::new_err(format!(
            "internal error in the sphincs extension (please report it): {what}"
        )))
    })
}

/// The body every native call shares: `f` (a core call) runs without the
/// GIL, a panic becomes a `RuntimeError` ([`no_panic`]) and a core error
/// its Python exception ([`to_py`]). Written once, used by every class.
pub fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, Error> + Send,
) -> PyResult<T> {
    py.detach(|| no_panic(|| f().map_err(to_py)))
}
