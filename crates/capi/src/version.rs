//! The library's version at run time. The header's `SPHINCS_VERSION*`
//! macros, its version at compile time, are written into `sphincs.h` from
//! the same Cargo package version by `tests/headers.rs`, so the two agree
//! unless a program runs against another build than it was compiled with:
//! what comparing them is for.

use core::ffi::c_char;

/// This library's version, `"MAJOR.MINOR.PATCH"` (Cargo's package version),
/// a static NUL-terminated string: compare it with `SPHINCS_VERSION`, the
/// version of the header a program was compiled against, to see that the
/// library it runs with is the same. Never NULL; do not free.
#[no_mangle]
pub extern "C" fn sphincs_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
