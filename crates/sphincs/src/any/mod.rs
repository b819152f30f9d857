//! One front door for every signature family: FIPS 205 SLH-DSA, SPHINCS+
//! round 3.1 and SPHINCS-256. A name of any family parses to one
//! [`AnyAlgorithm`]; one [`AnySigningKey`] / [`AnyVerifyingKey`] pair signs,
//! verifies, batches and encodes for all of them; what a family lacks (a
//! context string, a pre-hash, an OID) is one clear [`Error::Unsupported`]
//! naming the family. The CLI, the Python package and the C library resolve
//! the family here, once, and nowhere else. Adding a family means new files
//! below this module and one variant in [`AnyAlgorithm`].
//!
//! ```
//! use sphincs::any::{AnyAlgorithm, AnySigningKey};
//! use sphincs::SignOptions;
//! for name in ["SLH-DSA-SHAKE-128f", "sphincs-shake-128f-simple"] {
//!     let alg: AnyAlgorithm = name.parse()?;
//!     let sk = AnySigningKey::generate(alg, 1)?;
//!     let sig = sk.sign(b"firmware.bin", &SignOptions::default())?;
//!     sk.verifying_key().verify(b"firmware.bin", &sig, b"", None)?;
//! }
//! # Ok::<(), sphincs::Error>(())
//! ```
//!
//! [`Error::Unsupported`]: crate::Error::Unsupported

mod algorithm;
mod batch;
mod binding_calls;
mod files;
mod key_file;
mod keys;
mod open;
mod signer;

pub use algorithm::{AnyAlgorithm, Family, CONTEXT, FAULT_HARDENED, GIVEN_RANDOMNESS, PREHASH};
pub use batch::{verify_batch, verify_batch_until, AnyVerifyItem};
pub use files::KeyFormat;
pub use key_file::{KeyFileKind, OpenError};
pub use keys::{AnySigningKey, AnyVerifyingKey};
pub use open::{
    CacheOutcome, CacheProblem, KeyOpener, MemoryTreeCache, OpenedKey, PassphraseSource,
    TreeCacheStore,
};
pub use signer::AnySigner;
