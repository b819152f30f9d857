//! Which hash kernels the module's calls run on: the SIMD128 kernels
//! compiled in (the default), or the portable code, so that the benchmark
//! (`scripts/js-bench.mjs`) can measure what each kernel gains in one run.

use core::sync::atomic::{AtomicBool, Ordering};
use sphincs_core::{with_backend, Backend, Error};

static PORTABLE: AtomicBool = AtomicBool::new(false);

/// Non-zero: later calls run the portable kernels; zero: the default ones.
#[no_mangle]
pub extern "C" fn slhjs_portable_kernels(on: u32) {
    PORTABLE.store(on != 0, Ordering::Relaxed);
}

/// Runs `f` (a call that binds its keys inside) on the kernels chosen above.
pub(crate) fn run<R>(f: impl FnOnce() -> Result<R, Error>) -> Result<R, Error> {
    if PORTABLE.load(Ordering::Relaxed) {
        with_backend(Backend::Scalar, f)?
    } else {
        f()
    }
}
