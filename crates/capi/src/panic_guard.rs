//! The panic guard of the entry points that return a plain value (a size,
//! a name, a handle) rather than a status: it knows no status codes, so the
//! status module's own entry point (`sphincs_strerror`) can use it. The
//! status-returning guard is `ffi::guard`.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `body`, which returns a plain value, with a panic turned into `fallback`
/// (for the accessors that return a size, a name or a handle rather than a status).
pub(crate) fn guard_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}
