//! The one error type of the crate: each variant says what was wrong, and
//! what to call instead, in the library's terms (front ends add their own
//! hints: the CLI names its commands). It names only the plain enums of
//! `vocabulary`, so it sits on the bottom rung and every layer may fail with
//! it; its text (`Display`) is `error_message`'s, a rung up, where the sets'
//! names and OIDs are known.

#[cfg(feature = "alloc")]
use crate::prelude::*;

use crate::vocabulary::{Algorithm, KeyMode, PreHash, RequestedMode};

/// The text an error carries (a name as given, a decoder's message): a
/// `String` with the `alloc` feature, a fixed `&'static str` without it.
#[cfg(feature = "alloc")]
pub type Text = String;
/// The text an error carries (a name as given, a decoder's message): a
/// `String` with the `alloc` feature, a fixed `&'static str` without it.
#[cfg(not(feature = "alloc"))]
pub type Text = &'static str;

/// Everything that can go wrong, short of a signature that does not verify
/// (that is a `false`, or [`Error::InvalidSignature`] where a `Result` is expected).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A name that is none of the twelve FIPS 205 parameter sets (or, where a
    /// round-3.1 name is expected, none of the 36 SPHINCS+ round-3.1 sets).
    UnknownAlgorithm(Text),
    /// The name of a parameter set of another scheme than the call takes: a
    /// SPHINCS+ round-3.1 or SPHINCS-256 name where FIPS 205 sets are
    /// expected, or a FIPS 205 name where round-3.1 sets are.
    WrongScheme {
        /// The name as given.
        name: Text,
        /// What it names, e.g. "a SPHINCS+ round-3.1 set".
        is: &'static str,
        /// What the call takes, e.g. "FIPS 205 (SLH-DSA) sets".
        takes: &'static str,
        /// The part of the library that takes it.
        instead: &'static str,
    },
    /// A name that is none of the pre-hash functions of FIPS 205 §10.2.2.
    UnknownPreHash(Text),
    /// A public or secret key of the wrong length for its parameter set.
    InvalidKeyLength {
        /// "public key" or "secret key".
        what: &'static str,
        /// The parameter set the key was meant for.
        algorithm: Algorithm,
        /// The length that set requires.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A seed, or a SPHINCS+ round-3.1 key or signature, of the wrong length.
    InvalidLength {
        /// "SK.seed", "public key", "secret key", "seed" or "signature".
        what: &'static str,
        /// The name of the set, e.g. `sphincs-shake-128f-simple`.
        algorithm: &'static str,
        /// The length that set requires.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A signature of the wrong length for its parameter set.
    InvalidSignatureLength {
        /// The parameter set of the verifying key.
        algorithm: Algorithm,
        /// The length that set requires.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A signature split into tree tasks (`sign_task`, `sign_finish`) given
    /// a task its set does not have: an index past the last task, or a list
    /// of task outputs of another length.
    InvalidTask {
        /// "task index" or "number of task outputs".
        what: &'static str,
        /// The key's parameter set.
        algorithm: Algorithm,
        /// How many tree tasks its signatures have (d + k).
        tasks: usize,
        /// The index, or the number of outputs, given.
        got: usize,
    },
    /// A context string longer than 255 bytes.
    ContextTooLong(usize),
    /// Caller-supplied signing randomness (`addrnd`) that is not `n` bytes.
    InvalidRandomnessLength {
        /// `n` of the parameter set.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A secret key whose `PK.root` is not the root its `SK.seed` and `PK.seed` give,
    /// or a key pair whose halves do not belong together.
    KeyMismatch,
    /// The signature does not verify.
    InvalidSignature,
    /// Malformed DER or PEM, or a key of an unexpected kind.
    Encoding(Text),
    /// A draft SP 800-230 key's tree cache that cannot be used (not a
    /// cache, truncated, corrupted, another set's or key's): the key itself
    /// is not at fault, and its tree can be recomputed.
    TreeCache(Text),
    /// An encrypted private key that does not decrypt with the passphrase
    /// given (a wrong passphrase, or a corrupted ciphertext: the two cannot
    /// be told apart).
    WrongPassphrase,
    /// An encrypted private key whose key derivation (scrypt, PBKDF2) asks
    /// more memory or work than `encoding::encrypted` accepts;
    /// refused before any of it is done.
    KdfTooCostly(Text),
    /// The operating system's random number generator failed.
    Rng(Text),
    /// Reading the message failed.
    Io(Text),
    /// The key's holder outside this process (a PKCS#11 token, the CLI's
    /// agent) did not sign: what it answered.
    Signer(Text),
    /// A hash backend name that is none of [`Backend::ALL`](crate::Backend::ALL).
    UnknownBackend(Text),
    /// A hash backend this CPU cannot run.
    BackendUnavailable(&'static str),
    /// Fault-hardened signing computed two different signatures: a hardware
    /// fault or a fault attack. Both were wiped; none is returned.
    FaultDetected,
    /// A message read more than once (pure signing reads it twice: for R,
    /// then for the digest) was not the same each time: its length or its
    /// SHA-256 differ. Nothing was signed.
    MessageChanged,
    /// A batch or a key generation stopped by its caller (through the `stop`
    /// flag of `sign_batch_until` / `verify_batch_until` /
    /// `generate_until` and the other `_until` calls) before it finished.
    Cancelled,
    /// A key bound to one mode by its RFC 9909 OID (pure SLH-DSA, or
    /// HashSLH-DSA with its pre-hash) asked to sign or verify in another.
    /// The message says how to make a key for the mode asked for.
    WrongKeyMode {
        /// The key's parameter set.
        algorithm: Algorithm,
        /// The mode the key is bound to.
        key_mode: KeyMode,
        /// What was asked of it.
        requested: RequestedMode,
    },
    /// A HashSLH-DSA key mode with a pre-hash that RFC 9909 does not pair
    /// with the parameter set (no OID names that pairing).
    PreHashNotBound {
        /// The key's parameter set.
        algorithm: Algorithm,
        /// The pre-hash asked for.
        prehash: PreHash,
    },
    /// A certificate, certification request or CMS message that is malformed,
    /// or uses something this crate does not support (an unknown OID, a
    /// signature algorithm that is not the signer key's).
    Pki(Text),
    /// Something a signature family does not have, asked of one of its keys:
    /// a context string, a pre-hash, an OID encoding or a key mode of a
    /// round-3.1 or SPHINCS-256 key, say.
    Unsupported {
        /// The family, e.g. `SPHINCS+ round 3.1`.
        family: &'static str,
        /// What was asked, e.g. `context strings`.
        what: &'static str,
    },
    /// A well-formed certificate or CMS message that does not check out: not
    /// yet or no longer valid, an issuer that is not a CA or not the issuer,
    /// a message digest that does not match the content. (A signature that
    /// does not verify is [`Error::InvalidSignature`].)
    VerificationFailed(Text),
    /// A certificate or CMS signer that cannot be checked with what was
    /// given: no issuer certificate for a certificate that is not
    /// self-signed, an issuer certificate that is not the issuer, or an
    /// issuer key this crate cannot verify with (another algorithm family).
    /// Neither valid nor invalid: the caller must supply what is missing.
    CannotCheck(Text),
}

impl core::error::Error for Error {}

impl From<Error> for signature::Error {
    /// Only RNG failures carry their source: the `signature` crate asks that
    /// cryptographic failures stay opaque.
    fn from(e: Error) -> Self {
        match e {
            #[cfg(feature = "alloc")]
            Error::Rng(_) => signature::Error::from_source(e),
            _ => signature::Error::new(),
        }
    }
}
