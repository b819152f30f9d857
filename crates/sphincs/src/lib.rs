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
// `unsafe` is allowed only in `hash::backend` (the SIMD kernels).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod address;
pub mod any;
mod backend;
mod batch;
mod bits;
#[cfg(feature = "ct-check")]
#[doc(hidden)]
pub mod ct_check;
#[cfg(not(feature = "ct-check"))]
mod ct_check;
mod dynamic;
pub mod encoding;
mod error;
pub mod fingerprint;
mod fors;
mod functions;
pub mod hash;
mod hypertree;
mod keys;
mod limits;
mod merkle;
mod message;
mod mode;
pub mod params;
pub mod pki;
mod prehash;
mod rand;
mod schedule;
mod sign_trees;
mod slh_dsa;
pub mod sphincs256;
pub mod sphincsplus;
mod threads;
mod tree_cache;
mod wots;
mod xmss;

pub use backend::with_backend;
pub use batch::{verify_batch, verify_batch_until, VerifyItem};
pub use dynamic::{DynSigningKey, DynVerifyingKey};
pub use error::Error;
pub use functions::{
    hash_slh_sign, hash_slh_verify, slh_keygen, slh_keygen_internal, slh_sign, slh_sign_internal,
    slh_verify, slh_verify_internal,
};
pub use hash::backend::Backend;
pub use keys::{SignOptions, Signature, SigningKey, VerifyingKey};
pub use message::MessageSource;
pub use mode::{KeyMode, RequestedMode};
pub use params::{
    Algorithm, IndexOrder, Instance, ParameterSet, Params, Sha2_128_24, Sha2_128f, Sha2_128s,
    Sha2_192_24, Sha2_192f, Sha2_192s, Sha2_256_24, Sha2_256f, Sha2_256s, Shake128_24, Shake128f,
    Shake128s, Shake192_24, Shake192f, Shake192s, Shake256_24, Shake256f, Shake256s,
    MAX_SIGNATURE_LEN,
};
pub use prehash::PreHash;
pub use rand::Randomness;
pub use sphincsplus::fips205_algorithm;
pub use threads::resolve_threads;
pub use tree_cache::{TreeCache, CACHE_LEVEL};

/// The README's examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
