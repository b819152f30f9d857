//! Status codes: every entry point returns one, and `sphincs_strerror` says it in words.
//! Each core [`Error`] maps to exactly one code.

use core::ffi::{c_char, c_int};

use sphincs_core::Error;

use crate::last_error;

/// What a `sphincs_*` call did. `SPHINCS_OK` is 0; every failure is a
/// distinct positive value, stable across releases.
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum sphincs_status {
    /// Success (for a verification: the signature is valid).
    SPHINCS_OK = 0,
    /// The signature does not verify, or has the wrong length for its set
    /// (or a batch item did not verify).
    SPHINCS_ERR_INVALID_SIGNATURE = 1,
    /// A required pointer argument was NULL.
    SPHINCS_ERR_NULL_POINTER = 2,
    /// The output buffer is too small; the length written to the `*_len`
    /// out-argument is the size needed.
    SPHINCS_ERR_BUFFER_TOO_SMALL = 3,
    /// A name that is no parameter set this library knows.
    SPHINCS_ERR_UNKNOWN_ALGORITHM = 4,
    /// A pre-hash name or `SPHINCS_PREHASH_*` value that does not exist.
    SPHINCS_ERR_UNKNOWN_PREHASH = 5,
    /// A key, seed, signature buffer or randomness of the wrong length for
    /// its set (a signature to verify of the wrong length is
    /// `SPHINCS_ERR_INVALID_SIGNATURE`).
    SPHINCS_ERR_INVALID_LENGTH = 6,
    /// A context string longer than 255 bytes.
    SPHINCS_ERR_CONTEXT_TOO_LONG = 7,
    /// A secret key whose public half does not match its seeds.
    SPHINCS_ERR_KEY_MISMATCH = 8,
    /// Malformed PEM or DER (a key or certificate), or a key of another kind or algorithm.
    SPHINCS_ERR_ENCODING = 9,
    /// The operating system's random number generator failed.
    SPHINCS_ERR_RNG = 10,
    /// A message callback reported an error, or a stream was abandoned.
    SPHINCS_ERR_IO = 11,
    /// Fault-hardened signing computed two different signatures; none was released.
    SPHINCS_ERR_FAULT_DETECTED = 12,
    /// Not available for this parameter set: a context string, pre-hash,
    /// PEM/DER or key mode with a SPHINCS+ round-3.1 set or SPHINCS-256,
    /// which have none of them; given randomness or fault-hardened signing
    /// with SPHINCS-256, whose signatures are deterministic.
    SPHINCS_ERR_UNSUPPORTED = 13,
    /// An argument out of range (an unknown `SPHINCS_RANDOMNESS_*` or
    /// `SPHINCS_FORMAT_*` value, or a handle not made by this library).
    SPHINCS_ERR_INVALID_ARGUMENT = 14,
    /// A stream used after its `_final` call, or after a failure.
    SPHINCS_ERR_BAD_STATE = 15,
    /// An internal error (a bug): caught before it could reach the caller's code.
    SPHINCS_ERR_INTERNAL = 16,
    /// A key bound to one mode by its RFC 9909 OID (pure SLH-DSA, or
    /// HashSLH-DSA with its pre-hash) asked to sign or verify in another.
    SPHINCS_ERR_WRONG_KEY_MODE = 17,
    /// A HashSLH-DSA key mode with a pre-hash that RFC 9909 does not pair
    /// with the parameter set (no OID names that pairing).
    SPHINCS_ERR_PREHASH_NOT_BOUND = 18,
    /// The message read through `sphincs_sign_reader` was not the same on
    /// each pass (pure signing reads it twice): its length or SHA-256
    /// differ. Nothing was signed.
    SPHINCS_ERR_MESSAGE_CHANGED = 19,
    /// An encrypted private key that does not decrypt with the passphrase
    /// given: a wrong passphrase (or a corrupted key; the two cannot be
    /// told apart).
    SPHINCS_ERR_WRONG_PASSPHRASE = 20,
    /// An encrypted private key whose scrypt or PBKDF2 parameters ask more
    /// memory or work than the library accepts (64 MiB, N·r·p ≤ 2^22,
    /// 5 000 000 PBKDF2 iterations); refused before any of it is done.
    SPHINCS_ERR_KDF_TOO_COSTLY = 21,
}

pub use sphincs_status::*;

/// The status of a core error; its text becomes this thread's last error
/// message if the call fails with that status (`last_error`).
impl From<Error> for sphincs_status {
    fn from(e: Error) -> Self {
        let status = match e {
            Error::UnknownAlgorithm(_) | Error::WrongScheme { .. } => SPHINCS_ERR_UNKNOWN_ALGORITHM,
            Error::UnknownPreHash(_) => SPHINCS_ERR_UNKNOWN_PREHASH,
            Error::InvalidKeyLength { .. }
            | Error::InvalidLength { .. }
            | Error::InvalidSignatureLength { .. }
            | Error::InvalidRandomnessLength { .. } => SPHINCS_ERR_INVALID_LENGTH,
            Error::ContextTooLong(_) => SPHINCS_ERR_CONTEXT_TOO_LONG,
            Error::KeyMismatch => SPHINCS_ERR_KEY_MISMATCH,
            Error::InvalidSignature => SPHINCS_ERR_INVALID_SIGNATURE,
            // A malformed certificate (`sphincs_public_key_from_certificate`) is
            // bad input as a malformed key is.
            Error::Encoding(_) | Error::TreeCache(_) | Error::Pki(_) => SPHINCS_ERR_ENCODING,
            Error::Rng(_) => SPHINCS_ERR_RNG,
            Error::Io(_) => SPHINCS_ERR_IO,
            Error::FaultDetected => SPHINCS_ERR_FAULT_DETECTED,
            Error::WrongKeyMode { .. } => SPHINCS_ERR_WRONG_KEY_MODE,
            Error::PreHashNotBound { .. } => SPHINCS_ERR_PREHASH_NOT_BOUND,
            Error::Unsupported { .. } => SPHINCS_ERR_UNSUPPORTED,
            Error::MessageChanged => SPHINCS_ERR_MESSAGE_CHANGED,
            Error::WrongPassphrase => SPHINCS_ERR_WRONG_PASSPHRASE,
            Error::KdfTooCostly(_) => SPHINCS_ERR_KDF_TOO_COSTLY,
            // Backends are never forced through the C API; anything newer is a bug here.
            _ => SPHINCS_ERR_INTERNAL,
        };
        last_error::note(status as c_int, e.to_string());
        status
    }
}

/// The status of a verification that failed: a signature of the wrong
/// length is an invalid signature, as the CLI (exit 1) and Python
/// (`InvalidSignature`) say; other errors as [`From`] maps them.
pub(crate) fn verification(e: Error) -> sphincs_status {
    match e {
        Error::InvalidSignatureLength { .. }
        | Error::InvalidLength {
            what: "signature" | "signed message",
            ..
        } => {
            last_error::note(SPHINCS_ERR_INVALID_SIGNATURE as c_int, e.to_string());
            SPHINCS_ERR_INVALID_SIGNATURE
        }
        e => e.into(),
    }
}

/// One sentence per status, NUL-terminated for C.
pub(crate) fn message(status: c_int) -> &'static str {
    match status {
        0 => "success\0",
        1 => "invalid signature\0",
        2 => "a required pointer argument is NULL\0",
        3 => "output buffer too small\0",
        4 => "unknown algorithm: expected an SLH-DSA set such as SLH-DSA-SHA2-128s or a SPHINCS+ round-3.1 set such as sphincs-shake-128f-simple\0",
        5 => "unknown pre-hash function\0",
        6 => "key, seed, signature or randomness of the wrong length for this parameter set\0",
        7 => "context string longer than 255 bytes\0",
        8 => "key mismatch: the public half of the secret key does not belong to its seeds\0",
        9 => "malformed PEM or DER key, or a key of another kind\0",
        10 => "the operating system's random number generator failed\0",
        11 => "reading the message failed (callback error or abandoned stream)\0",
        12 => "fault detected: the two computations of the signature differ; no signature was released\0",
        13 => "not supported for this parameter set (SPHINCS+ round 3.1 and SPHINCS-256 have no context, pre-hash, PEM/DER or key mode; SPHINCS-256 signs deterministically only)\0",
        14 => "invalid argument\0",
        15 => "stream already finished or failed\0",
        16 => "internal error\0",
        17 => "wrong key mode: the key's OID binds it to pure SLH-DSA or to HashSLH-DSA with one pre-hash, and another mode was asked for (RFC 9909 allows one mode per key)\0",
        18 => "this pre-hash is not the one RFC 9909 binds to the parameter set's HashSLH-DSA OID\0",
        19 => "the message changed between the two reads of signing (length or content differ); nothing was signed\0",
        20 => "cannot decrypt the private key: wrong passphrase (or a corrupt key)\0",
        21 => "the encrypted private key's scrypt or PBKDF2 parameters are too costly; refused before any work\0",
        _ => "unknown status code\0",
    }
}

/// A static, NUL-terminated English description of `status` (any value; an
/// unknown one gives "unknown status code"). Never NULL; do not free.
#[no_mangle]
pub extern "C" fn sphincs_strerror(status: c_int) -> *const c_char {
    // `message` cannot panic; the guard keeps the rule without exception.
    crate::panic_guard::guard_value("internal error\0", || message(status))
        .as_ptr()
        .cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_its_own_message() {
        let mut seen = std::collections::HashSet::new();
        for s in 0..=21 {
            let m = message(s);
            assert!(m.ends_with('\0') && !m[..m.len() - 1].contains('\0'));
            assert!(seen.insert(m), "{s}");
        }
        assert_eq!(message(22), "unknown status code\0");
        assert_eq!(message(-1), "unknown status code\0");
        assert_eq!(SPHINCS_ERR_INTERNAL as c_int, 16);
        assert_eq!(SPHINCS_ERR_PREHASH_NOT_BOUND as c_int, 18);
        assert_eq!(SPHINCS_ERR_MESSAGE_CHANGED as c_int, 19);
        assert_eq!(SPHINCS_ERR_WRONG_PASSPHRASE as c_int, 20);
        assert_eq!(SPHINCS_ERR_KDF_TOO_COSTLY as c_int, 21);
    }
}
