//! The core's `KeyMode` as Python sees it: one string, `"unrestricted"` (a
//! raw key, no OID), `"pure"` (the pure OID) or the pre-hash name of a
//! HashSLH-DSA key (its OID `.35`–`.46`). The binding only names the modes;
//! which pre-hash a set may carry is checked by the core (`with_mode`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use sphincs::{KeyMode, PreHash};

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
