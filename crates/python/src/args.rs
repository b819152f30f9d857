//! Python arguments to core types: parameter-set and pre-hash names (parsed by
//! the core, as the CLI parses them), byte strings, thread counts, and the
//! signing options every key class shares.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyMemoryView, PyString};
use sphincs::any::{AnyAlgorithm, Family};
use sphincs::{Error, PreHash, Randomness, SignOptions};

use crate::errors::to_py;
use crate::family;

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A parameter set of `family` from its name (any case and spelling the
/// core's parser takes) or a member of the family's enum (a `str` subclass
/// whose value is the name). A name of another family says so (the core's
/// words) and which Python classes take it.
pub fn algorithm(obj: &Bound<'_, PyAny>, family: Family) -> PyResult<AnyAlgorithm> {
    let own = family::names(family);
    let name = match obj.cast::<PyString>() {
        Ok(s) => s.to_cow()?.into_owned(),
        Err(_) => {
            return Err(PyTypeError::new_err(format!(
                "algorithm must be a str or sphincs.{}, not {}",
                own.algorithm_enum.unwrap_or("Algorithm"),
                type_name(obj)
            )))
        }
    };
    AnyAlgorithm::parse_for(&name, family).map_err(|e| match (&e, name.parse::<AnyAlgorithm>()) {
        (Error::WrongScheme { .. }, Ok(other)) => PyValueError::new_err(format!(
            "{e}; in Python, the {} classes take {} and sphincs.{} take this one",
            own.prefix,
            own.sets,
            family::names(other.family()).classes
        )),
        _ => to_py(e),
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

/// The signing arguments of every key class (a family's class offers the
/// ones its family has), held without the GIL. What the key's family lacks
/// is refused by the core when it signs.
pub struct SignArgs {
    context: Option<PyBackedBytes>,
    prehash: Option<PreHash>,
    deterministic: bool,
    randomness: Option<PyBackedBytes>,
    threads: usize,
    fault_hardened: bool,
}

impl SignArgs {
    /// Checks and holds the arguments; `threads` is already resolved
    /// ([`threads`] or [`batch_threads`]).
    pub fn new(
        context: Option<&Bound<'_, PyAny>>,
        prehash: Option<&str>,
        deterministic: bool,
        randomness: Option<&Bound<'_, PyAny>>,
        threads: usize,
        fault_hardened: bool,
    ) -> PyResult<Self> {
        let a = SignArgs {
            context: opt_bytes(context, "context")?,
            prehash: self::prehash(prehash)?,
            deterministic,
            randomness: opt_bytes(randomness, "randomness")?,
            threads,
            fault_hardened,
        };
        self::randomness(a.deterministic, a.randomness.as_ref())?;
        Ok(a)
    }

    /// Only a thread count: the family's defaults for everything else.
    pub fn threads_only(threads: usize) -> Self {
        SignArgs {
            context: None,
            prehash: None,
            deterministic: false,
            randomness: None,
            threads,
            fault_hardened: false,
        }
    }

    /// The core's options, borrowing the held bytes.
    pub fn options(&self) -> SignOptions<'_> {
        SignOptions {
            context: self.context.as_deref().unwrap_or_default(),
            prehash: self.prehash,
            // The combination was checked in `new`.
            randomness: randomness(self.deterministic, self.randomness.as_ref())
                .unwrap_or_default(),
            threads: self.threads,
            fault_hardened: self.fault_hardened,
        }
    }
}
