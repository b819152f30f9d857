//! What each [`Error`] says (its `Display`): the sets' names, OIDs and
//! bound pre-hashes, the backends' names and the key modes' advice, which
//! the error type itself (on the bottom rung) does not know.

use core::fmt;

use crate::error::Error;
use crate::hash::backend::Backend;
use crate::mode::wrong_mode_message;
#[cfg(feature = "alloc")]
use crate::params::Algorithm;
use crate::params::DottedOid;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownAlgorithm(name) => write!(
                f,
                "unknown algorithm {name:?}: expected an SLH-DSA parameter set such as SLH-DSA-SHA2-128s or shake-256f, or a SPHINCS+ round-3.1 set such as sphincs-shake-128f-simple"
            ),
            Error::WrongScheme {
                name,
                is,
                takes,
                instead,
            } => write!(
                f,
                "{name:?} is {is}, but this call takes {takes}; {instead} takes it"
            ),
            Error::UnknownPreHash(name) => write!(
                f,
                "unknown pre-hash function {name:?}: expected one of SHA2-224, SHA2-256, SHA2-384, SHA2-512, SHA2-512/224, SHA2-512/256, SHA3-224, SHA3-256, SHA3-384, SHA3-512, SHAKE-128, SHAKE-256"
            ),
            Error::InvalidKeyLength { what, algorithm, expected, got } => {
                write!(f, "{what} is {got} bytes; {algorithm} needs {expected}")
            }
            Error::InvalidLength { what, algorithm, expected, got } => {
                write!(f, "{what} is {got} bytes; {algorithm} needs {expected}")
            }
            Error::InvalidSignatureLength { algorithm, expected, got } => {
                write!(f, "signature is {got} bytes; {algorithm} signatures are {expected} bytes")
            }
            Error::InvalidTask { what, algorithm, tasks, got } => write!(
                f,
                "{what} is {got}; {algorithm} signatures have {tasks} tree tasks, numbered 0 to {}",
                tasks.saturating_sub(1)
            ),
            Error::ContextTooLong(len) => {
                write!(f, "context string is {len} bytes; at most 255 are allowed")
            }
            Error::InvalidRandomnessLength { expected, got } => {
                write!(f, "signing randomness is {got} bytes; this parameter set needs {expected}")
            }
            Error::KeyMismatch => f.write_str(
                "key pair mismatch: the public key stored with the secret key does not belong to it (PK.root is not the root of SK.seed, or a PKCS#8 publicKey differs)",
            ),
            Error::InvalidSignature => f.write_str("invalid signature"),
            Error::Encoding(msg) => write!(f, "malformed key: {msg}"),
            Error::TreeCache(msg) => write!(f, "unusable tree cache: {msg}"),
            Error::WrongPassphrase => f.write_str(
                "cannot decrypt the private key: wrong passphrase (or a corrupt key)",
            ),
            Error::KdfTooCostly(msg) => write!(f, "encrypted private key refused: {msg}"),
            Error::Rng(msg) => write!(f, "random number generator failed: {msg}"),
            Error::Io(msg) => write!(f, "reading the message failed: {msg}"),
            Error::Signer(msg) => write!(f, "the key's holder did not sign: {msg}"),
            Error::UnknownBackend(name) => {
                write!(f, "unknown hash backend {name:?}: expected one of")?;
                for (i, b) in Backend::ALL.iter().enumerate() {
                    write!(f, "{}{b}", if i == 0 { " " } else { ", " })?;
                }
                Ok(())
            }
            Error::BackendUnavailable(name) => {
                write!(f, "hash backend {name} needs CPU features this machine lacks")
            }
            Error::FaultDetected => f.write_str(
                "fault detected: the two computations of the signature differ (hardware fault or fault attack); no signature was released",
            ),
            Error::Cancelled => f.write_str("stopped by the caller before it finished"),
            Error::MessageChanged => f.write_str(
                "the message changed while it was being signed (signing reads it twice, and the two reads differ in length or content); nothing was signed",
            ),
            Error::WrongKeyMode { algorithm, key_mode, requested } => {
                wrong_mode_message(f, *algorithm, *key_mode, *requested)
            }
            Error::Pki(msg) => f.write_str(msg),
            Error::Unsupported { family, what } => write!(f, "{family} does not support {what}"),
            Error::VerificationFailed(msg) => write!(f, "verification failed: {msg}"),
            Error::CannotCheck(msg) => write!(f, "cannot check: {msg}"),
            Error::PreHashNotBound { algorithm, prehash } => write!(
                f,
                "{algorithm} HashSLH-DSA keys use {} (RFC 9909 OID {}); no OID pairs {algorithm} with {prehash}. Bind the key to {} for HashSLH-DSA, or sign with {prehash} through a raw key (no OID)",
                algorithm.bound_prehash(),
                DottedOid(algorithm.hash_oid_arc()),
                algorithm.bound_prehash()
            ),
        }
    }
}

impl Error {
    /// The error of a call on a set this build does not dispatch to (its
    /// cargo features leave it out: [`crate::params::dispatched`]).
    #[cfg(feature = "alloc")]
    pub(crate) fn not_dispatched(alg: Algorithm) -> Error {
        Error::Unsupported {
            family: "this build (its cargo features leave the set out)",
            what: alg.name(),
        }
    }
}
