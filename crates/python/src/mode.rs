//! The core's `KeyMode` as Python sees it: one string, `"unrestricted"` (a
//! raw key, no OID), `"pure"` (the pure OID) or the pre-hash name of a
//! HashSLH-DSA key (its OID `.35`–`.46`). The binding only names the modes;
//! which pre-hash a set may carry is checked by the core (`with_mode`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sphincs::any::AnyAlgorithm;
use sphincs::{KeyMode, PreHash};

use crate::errors::to_py;

pub const UNRESTRICTED: &str = "unrestricted";
pub const PURE: &str = "pure";

/// The Python name of a mode.
pub fn name(mode: KeyMode) -> &'static str {
    match mode {
        KeyMode::Unrestricted => UNRESTRICTED,
        KeyMode::Pure => PURE,
        KeyMode::HashSlhDsa(ph) => ph.name(),
    }
}

/// A mode from its Python name (any case; pre-hash names as `prehash=` takes them).
pub fn parse(text: &str) -> PyResult<KeyMode> {
    match text.trim().to_ascii_lowercase().as_str() {
        UNRESTRICTED => Ok(KeyMode::Unrestricted),
        PURE => Ok(KeyMode::Pure),
        _ => text.parse::<PreHash>().map(KeyMode::HashSlhDsa).map_err(|e| {
            PyValueError::new_err(format!(
                "mode must be \"unrestricted\", \"pure\" or a HashSLH-DSA pre-hash name (sphincs.PREHASHES): {e}"
            ))
        }),
    }
}

/// The Python name of a key's mode; a key of a family without modes reads
/// as "unrestricted" (it signs however its family signs).
pub fn of(mode: Option<KeyMode>) -> &'static str {
    name(mode.unwrap_or(KeyMode::Unrestricted))
}

/// The RFC 9909 OID a key of `alg` in `mode` is written under; `None` for a
/// set without one (draft SP 800-230, the other families).
pub fn oid(mode: Option<KeyMode>, alg: AnyAlgorithm) -> Option<String> {
    mode?.oid(alg.slh_dsa()?)
}

/// `mode` if a key of `alg` may take it (only the pre-hash RFC 9909 pairs
/// with a FIPS 205 set); checked before a key is made, which can take
/// minutes. Another family's key refuses modes when it is given one.
pub fn checked(mode: KeyMode, alg: AnyAlgorithm) -> PyResult<KeyMode> {
    match alg.slh_dsa() {
        Some(a) => mode.validate(a).map_err(to_py),
        None => Ok(mode),
    }
}
