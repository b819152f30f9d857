//! SLH-DSA, the stateless hash-based signature scheme of FIPS 205: all twelve
//! parameter sets, pure and pre-hash signing, context strings, hedged and
//! deterministic signing.
//!
//! ```
//! use sphincs::{SigningKey, Shake128f, SignOptions};
//! let sk = SigningKey::<Shake128f>::generate()?;
//! let sig = sk.sign(b"release.tar.gz", &SignOptions::default())?;
//! sk.verifying_key().verify(b"release.tar.gz", sig.as_bytes(), b"", None)?;
//! # Ok::<(), sphincs::Error>(())
//! ```
//!
//! Features (see `ARCHITECTURE.md`): without any (`default-features = false`)
//! the crate is `no_std` and uses no heap: [`VerifyingKey::verify`] and
//! [`SigningKey::sign_into`] over byte slices, every FIPS 205 and SP 800-230
//! set, one thread. `alloc` adds the Vec-returning APIs, `any`, batches,
//! the other families and the encodings; `std` (default) OS threads, OS
//! randomness and run-time CPU detection; `pki` (default) X.509 and CMS.
// `unsafe` is allowed only in `hash::backend` (the SIMD kernels).
#![deny(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "alloc")]
extern crate alloc;

/// The heap types that `std`'s prelude names, for the modules that use them
/// when the crate is built `no_std` with `alloc`.
#[cfg(feature = "alloc")]
#[allow(unused_imports)]
mod prelude {
    pub(crate) use alloc::borrow::ToOwned;
    pub(crate) use alloc::boxed::Box;
    pub(crate) use alloc::string::{String, ToString};
    pub(crate) use alloc::vec::Vec;
    pub(crate) use alloc::{format, vec};
}

pub mod address;
#[cfg(feature = "alloc")]
pub mod any;
mod backend;
#[cfg(feature = "alloc")]
mod batch;
mod bits;
mod checks;
#[cfg(feature = "ct-check")]
#[doc(hidden)]
pub mod ct_check;
#[cfg(not(feature = "ct-check"))]
mod ct_check;
#[cfg(feature = "alloc")]
mod dynamic;
#[cfg(feature = "alloc")]
pub mod encoding;
mod error;
mod error_message;
#[cfg(feature = "alloc")]
pub mod fingerprint;
mod fors;
#[cfg(feature = "alloc")]
mod functions;
pub mod hash;
mod hypertree;
mod keys;
mod limits;
mod merkle;
mod message;
mod mode;
#[cfg(feature = "alloc")]
mod names;
#[cfg(feature = "openpgp")]
pub mod openpgp;
pub mod params;
mod parts;
#[cfg(feature = "pki")]
pub mod pki;
mod prehash;
mod rand;
#[cfg(feature = "alloc")]
mod schedule;
mod sign_trees;
mod slh_dsa;
#[cfg(feature = "alloc")]
pub mod sphincs256;
#[cfg(feature = "alloc")]
pub mod sphincsplus;
mod sync;
mod threads;
mod tree_cache;
mod vocabulary;
mod wots;
mod xmss;

pub use backend::with_backend;
#[cfg(feature = "alloc")]
pub use batch::{verify_batch, verify_batch_until, VerifyItem};
#[cfg(feature = "alloc")]
pub use dynamic::{DynSigningKey, DynVerifyingKey};
pub use error::Error;
#[cfg(feature = "alloc")]
pub use functions::{
    hash_slh_sign, hash_slh_verify, slh_keygen, slh_keygen_internal, slh_sign, slh_sign_internal,
    slh_verify, slh_verify_internal,
};
pub use hash::backend::Backend;
#[cfg(feature = "alloc")]
pub use keys::Signature;
pub use keys::{SignOptions, SigningKey, VerifyingKey};
pub use message::MessageSource;
#[cfg(feature = "alloc")]
pub use message::MessageVerifier;
pub use message::{PreHashDigest, PreHashState};
pub use mode::{KeyMode, RequestedMode};
#[cfg(feature = "alloc")]
pub use names::fips205_algorithm;
pub use params::{
    Algorithm, IndexOrder, Instance, ParameterSet, Params, Sha2_128_24, Sha2_128f, Sha2_128s,
    Sha2_192_24, Sha2_192f, Sha2_192s, Sha2_256_24, Sha2_256f, Sha2_256s, Shake128_24, Shake128f,
    Shake128s, Shake192_24, Shake192f, Shake192s, Shake256_24, Shake256f, Shake256s,
    MAX_SIGNATURE_LEN,
};
pub use prehash::PreHash;
pub use rand::Randomness;
pub use threads::resolve_threads;
#[cfg(feature = "alloc")]
pub use tree_cache::TreeCache;
pub use tree_cache::CACHE_LEVEL;

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of docs/library.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryDocDoctests;

/// The Rust example of docs/sphincs256.md, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/sphincs256.md")]
pub struct Sphincs256DocDoctests;
