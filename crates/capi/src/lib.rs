//! libsphincs: the C library over the `sphincs` core (SLH-DSA, FIPS 205,
//! SPHINCS+ round 3.1 and SPHINCS-256). The C API is documented in `include/sphincs.h`,
//! generated from this crate by cbindgen (`tests/headers.rs` keeps it in step).
//!
//! Rules at this boundary: every entry point runs inside `ffi::guard` or `panic_guard::guard_value` (a
//! panic becomes `SPHINCS_ERR_INTERNAL`, never an unwind into C); every
//! pointer and length is checked before use (NULL or a short buffer is a
//! status code); no mutable state shared between threads (each thread has
//! its own last error message), so every function is safe to call
//! from any thread (a stream or key object used by one thread at a time, or
//! shared read-only). No scheme logic lives here: sizes, names, errors,
//! encodings and batching all come from the core.
// `unsafe` is the point of this crate, but each use is commented.
#![deny(clippy::undocumented_unsafe_blocks)]
#![allow(clippy::missing_safety_doc)]

mod ffi;
mod panic_guard;

// The header lists the API in this order (cbindgen follows the modules):
// the version, status codes and the last error message, algorithm handles, keys, encrypted keys,
// key modes, options, one-shot signing and verification, streams, batches, OpenPGP, then the
// NIST-API entry points.
mod version;

mod status;

mod last_error;

mod alg;

mod keys;

mod encrypted;

mod mode;

mod options;

mod sign;

mod stream;

mod batch;

mod openpgp;

mod nist;

pub use alg::*;
pub use batch::*;
pub use encrypted::*;
pub use keys::*;
pub use last_error::*;
pub use mode::*;
pub use nist::*;
pub use options::*;
pub use sign::*;
pub use status::*;
pub use stream::*;
pub use version::*;
