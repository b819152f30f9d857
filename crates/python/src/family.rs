//! What each signature family is called in Python: its key classes and the
//! enum of its parameter sets. The one table a new family adds a row to;
//! everything else goes through the core's front door (`sphincs::any`).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};
use sphincs::any::{AnyAlgorithm, Family};

/// One family's Python names.
pub struct Names {
    /// Its classes, as messages name them: "SpxPrivateKey / SpxPublicKey".
    pub classes: &'static str,
    /// The classes' common prefix as messages write it: "Spx*".
    pub prefix: &'static str,
    /// What its classes take, for messages: "round-3.1 sets".
    pub sets: &'static str,
    /// The `sphincs` enum of its parameter sets; `None` for a family of one
    /// set, whose classes name it with a plain string.
    pub algorithm_enum: Option<&'static str>,
}

/// The Python names of `family`.
pub const fn names(family: Family) -> Names {
    match family {
        Family::SlhDsa => Names {
            classes: "SLHDSAPrivateKey / SLHDSAPublicKey",
            prefix: "SLHDSA*",
            sets: "FIPS 205 sets",
            algorithm_enum: Some("Algorithm"),
        },
        Family::SphincsPlus => Names {
            classes: "SpxPrivateKey / SpxPublicKey",
            prefix: "Spx*",
            sets: "round-3.1 sets",
            algorithm_enum: Some("SpxAlgorithm"),
        },
        Family::Sphincs256 => Names {
            classes: "Sphincs256PrivateKey / Sphincs256PublicKey",
            prefix: "Sphincs256*",
            sets: "SPHINCS-256",
            algorithm_enum: None,
        },
    }
}

/// A key's `algorithm`: the member of its family's enum (built in Python
/// from the core's table), or the set's name for a family without one.
pub fn algorithm_member(py: Python<'_>, alg: AnyAlgorithm) -> PyResult<Bound<'_, PyAny>> {
    // One cached class per family that has an enum (imported on first use).
    static ENUMS: [PyOnceLock<Py<PyType>>; 3] = [const { PyOnceLock::new() }; 3];
    let family = alg.family();
    match names(family).algorithm_enum {
        Some(name) => ENUMS[family as usize]
            .import(py, "sphincs", name)?
            .call1((alg.name(),)),
        None => Ok(PyString::new(py, alg.name()).into_any()),
    }
}
