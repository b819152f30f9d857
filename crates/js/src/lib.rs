//! The WebAssembly module under the npm package `slh-dsa-wasm`: SLH-DSA
//! (FIPS 205) for JavaScript. Plain C-ABI exports over `sphincs::any`, read
//! by the hand-written glue in `crates/js/npm/` (no wasm-bindgen).
//!
//! The contract with the glue: arguments are byte strings the glue copies
//! into buffers from [`memory::slhjs_alloc`] and releases with
//! [`memory::slhjs_free`] (which wipes them); every call answers with one
//! reply block (`memory::reply`: its length, a status, then the output or
//! the core's error text), which the glue copies out and releases with
//! [`memory::slhjs_reply_free`] (wiped too). Lengths are checked by the core
//! before anything is read, so bad input is an error reply, never a trap.
//! No scheme logic lives here: sizes, names, errors, encodings and batches
//! all come from the core.
//!
//! On the host this crate builds as an ordinary library (for clippy and the
//! layer tests); on wasm32 it is `no_std` with dlmalloc as its heap and a
//! panic handler that traps (a panic is a bug: every input is checked first).
#![cfg_attr(target_arch = "wasm32", no_std)]
// `unsafe` is the point of this boundary, but each use is commented.
#![deny(clippy::undocumented_unsafe_blocks)]
#![allow(clippy::missing_safety_doc)]
// The verify-only module (no `sign` feature) leaves some helpers unused.
#![cfg_attr(not(feature = "sign"), allow(unused_imports, dead_code))]

extern crate alloc;

mod batch;
mod calls;
mod kernels;
mod keys;
pub mod memory;
#[cfg(feature = "sign")]
mod spread;

pub use batch::*;
pub use calls::*;
pub use kernels::*;
pub use keys::*;
#[cfg(feature = "sign")]
pub use spread::*;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static HEAP: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}
