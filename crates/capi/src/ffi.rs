//! The boundary helpers: every entry point runs its body through [`guard`]
//! (a Rust panic becomes `SPHINCS_ERR_INTERNAL` instead of unwinding into C),
//! and reads its pointer arguments only through the checked functions here.

use std::panic::{catch_unwind, AssertUnwindSafe};

use core::ffi::c_int;

use crate::last_error;
use crate::status::*;

/// The result type of an entry point's body.
pub(crate) type Res<T = ()> = Result<T, sphincs_status>;

/// Runs `body`, turning its error or a panic into a status code, and sets
/// this thread's last error message from the outcome (`last_error`).
pub(crate) fn guard(body: impl FnOnce() -> Res) -> sphincs_status {
    last_error::begin();
    let status = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => SPHINCS_OK,
        Ok(Err(status)) => status,
        Err(_) => SPHINCS_ERR_INTERNAL,
    };
    last_error::finish(status as c_int, crate::status::message(status as c_int));
    status
}

/// `len` bytes at `ptr`; NULL is allowed only for an empty buffer.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` readable bytes that stay
/// unchanged for `'a` (the C caller's promise for the duration of the call).
pub(crate) unsafe fn input<'a>(ptr: *const u8, len: usize) -> Res<&'a [u8]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(SPHINCS_ERR_NULL_POINTER);
    }
    if len > isize::MAX as usize {
        return Err(SPHINCS_ERR_INVALID_ARGUMENT);
    }
    // SAFETY: non-NULL and, by the caller's contract, `len` readable bytes.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// A required pointer, checked for NULL.
pub(crate) fn non_null<T>(ptr: *const T) -> Res<*const T> {
    if ptr.is_null() {
        Err(SPHINCS_ERR_NULL_POINTER)
    } else {
        Ok(ptr)
    }
}

/// Writes `value` to the out-argument `ptr`.
///
/// # Safety
/// `ptr`, if not NULL, must be valid for a write of `T`.
pub(crate) unsafe fn set<T>(ptr: *mut T, value: T) -> Res {
    if ptr.is_null() {
        return Err(SPHINCS_ERR_NULL_POINTER);
    }
    // SAFETY: non-NULL and writable by the caller's contract; `write` does not
    // drop whatever (possibly uninitialised) value was there.
    unsafe { ptr.write(value) };
    Ok(())
}

/// Copies `data` to the caller's buffer `out` of `cap` bytes and its length to
/// `*out_len`. The length is written even when `cap` is too small, so a
/// caller can ask for the size with a NULL buffer and a capacity of 0.
///
/// # Safety
/// `out` must be valid for `cap` bytes of writes (or NULL), `out_len` for a
/// `usize` write (or NULL).
pub(crate) unsafe fn output(out: *mut u8, cap: usize, out_len: *mut usize, data: &[u8]) -> Res {
    // SAFETY: forwarded contract of `out_len`.
    unsafe { set(out_len, data.len())? };
    if cap < data.len() {
        return Err(SPHINCS_ERR_BUFFER_TOO_SMALL);
    }
    if data.is_empty() {
        return Ok(());
    }
    if out.is_null() {
        return Err(SPHINCS_ERR_NULL_POINTER);
    }
    // SAFETY: `out` holds `cap >= data.len()` writable bytes; `data` is Rust
    // memory, so the two cannot overlap unless the caller passed our own
    // buffer back, which no entry point exposes.
    unsafe { core::ptr::copy_nonoverlapping(data.as_ptr(), out, data.len()) };
    Ok(())
}

/// A NUL-terminated C string as UTF-8 (a name); invalid UTF-8 is no name we know.
///
/// # Safety
/// `ptr`, if not NULL, must point to a NUL-terminated string.
pub(crate) unsafe fn c_str<'a>(
    ptr: *const core::ffi::c_char,
    unknown: sphincs_status,
) -> Res<&'a str> {
    non_null(ptr)?;
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let s = unsafe { core::ffi::CStr::from_ptr(ptr) };
    s.to_str().map_err(|_| unknown)
}

/// `n` threads, with 0 meaning every core this process may use.
pub(crate) fn threads(n: usize) -> usize {
    sphincs_core::resolve_threads(n)
}
