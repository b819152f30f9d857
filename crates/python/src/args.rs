//! Python arguments to core types: parameter-set and pre-hash names (parsed by
//! the core, as the CLI parses them), byte strings, thread counts.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyMemoryView, PyString};
use sphincs::sphincsplus::SpxAlgorithm;
use sphincs::{Algorithm, Error, PreHash, Randomness};

use crate::errors::to_py;

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// The text of a name argument: a `str`, or a member of the `Algorithm` /
/// `SpxAlgorithm` enums (a `str` subclass whose value is the name).
fn name_arg(obj: &Bound<'_, PyAny>, what: &str, enum_name: &str) -> PyResult<String> {
    match obj.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} must be a str or sphincs.{enum_name}, not {}",
            type_name(obj)
        ))),
    }
}

/// A FIPS 205 parameter set from its name ("SLH-DSA-SHAKE-128f", "shake-128f",
/// any case) or an `Algorithm` member.
/// A round-3.1 or SPHINCS-256 name says so (the core's words) and which
/// class takes it.
pub fn algorithm(obj: &Bound<'_, PyAny>) -> PyResult<Algorithm> {
    let name = name_arg(obj, "algorithm", "Algorithm")?;
    sphincs::fips205_algorithm(&name).map_err(|e| match e {
        Error::WrongScheme { instead, .. } => {
            let class = if instead.contains("SPHINCS-256") {
                "Sphincs256PrivateKey / Sphincs256PublicKey"
            } else {
                "SpxPrivateKey / SpxPublicKey"
            };
            PyValueError::new_err(format!(
                "{e}; in Python, the SLHDSA* classes take FIPS 205 sets and sphincs.{class} take this one"
            ))
        }
        e => to_py(e),
    })
}

/// A SPHINCS+ round-3.1 set from its name ("sphincs-shake-128f-simple", any
/// case) or an `SpxAlgorithm` member.
pub fn spx_algorithm(obj: &Bound<'_, PyAny>) -> PyResult<SpxAlgorithm> {
    name_arg(obj, "algorithm", "SpxAlgorithm")?
        .parse()
        .map_err(|e| match e {
            Error::WrongScheme { .. } => PyValueError::new_err(format!(
                "{e}; in Python, the Spx* classes take round-3.1 sets and sphincs.SLHDSAPrivateKey / SLHDSAPublicKey take this one"
            )),
            e => to_py(e),
        })
}

/// `None` (pure SLH-DSA) or a pre-hash name as the CLI takes it ("SHA2-256", …).
pub fn prehash(name: Option<&str>) -> PyResult<Option<PreHash>> {
    name.map(|n| n.parse().map_err(to_py)).transpose()
}

/// A byte-string argument, held without the GIL: `bytes` as it is, any
/// other object with the buffer protocol (`bytearray`, `memoryview`,
/// `array.array`, `mmap`, a NumPy array) copied through a `memoryview`
/// (another thread could change it while the GIL is released).
pub fn bytes(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<PyBackedBytes> {
    if let Ok(b) = obj.extract::<PyBackedBytes>() {
        return Ok(b);
    }
    // str has no buffer, so text is refused here rather than encoded.
    if let Ok(view) = PyMemoryView::from(obj) {
        let copy = view.call_method0("tobytes")?;
        return Ok(copy.extract::<PyBackedBytes>()?);
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be bytes-like (bytes, bytearray, memoryview or another object with the buffer protocol), not {}",
        type_name(obj)
    )))
}

/// An optional byte string (`None` is empty, as FIPS 205's default context).
pub fn opt_bytes(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<PyBackedBytes>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => bytes(o, what).map(Some),
    }
}

/// Threads for one operation: `None` is the calling thread alone, 0 every
/// core (as `--threads 0` and C's `threads = 0`).
pub fn threads(n: Option<i64>) -> PyResult<usize> {
    match n {
        None => Ok(1),
        Some(n) if n >= 0 => usize::try_from(n)
            .map(sphincs::resolve_threads)
            .map_err(|_| PyValueError::new_err("threads is too large")),
        Some(n) => Err(PyValueError::new_err(format!(
            "threads must be 0 (every core) or more, got {n}"
        ))),
    }
}

/// Threads for a batch: `None` (or 0) is every core of the machine.
pub fn batch_threads(n: Option<i64>) -> PyResult<usize> {
    threads(Some(n.unwrap_or(0)))
}

/// Where `addrnd` comes from: hedged by default, or deterministic, or given
/// (known-answer tests). Both `deterministic` and `randomness` is an error.
pub fn randomness<'a>(
    deterministic: bool,
    given: Option<&'a PyBackedBytes>,
) -> PyResult<Randomness<'a>> {
    match (deterministic, given) {
        (true, Some(_)) => Err(PyValueError::new_err(
            "deterministic=True and randomness=... exclude each other: deterministic signing uses no randomness",
        )),
        (true, None) => Ok(Randomness::Deterministic),
        (false, Some(r)) => Ok(Randomness::Given(r)),
        (false, None) => Ok(Randomness::Hedged),
    }
}

/// A password argument (bytes-like, or None), copied into a buffer wiped on
/// drop. (The caller's own Python object cannot be wiped from here.)
pub fn password(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<zeroize::Zeroizing<Vec<u8>>>> {
    Ok(opt_bytes(obj, "password")?.map(|b| zeroize::Zeroizing::new(b.to_vec())))
}
