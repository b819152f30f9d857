//! What can go wrong with OpenPGP data, sorted so that a front end can map
//! each kind onto its own vocabulary (the SOP exit codes, Python's and C's
//! errors) without reading the text.

use std::fmt;

/// An OpenPGP error: its kind, and a sentence that names the packet and the
/// rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgpError {
    /// What kind of failure this is.
    pub kind: ErrorKind,
    /// What was wrong, in words a user can act on.
    pub message: String,
}

/// The kinds of [`PgpError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is not well-formed OpenPGP (or armor), or exceeds a bound.
    Malformed,
    /// Well-formed, but uses something this implementation does not do
    /// (v4 keys, encryption, an unknown algorithm, a compressed message).
    Unsupported,
    /// No signature checked out (bad, missing, expired, by an unknown key).
    BadSignature,
    /// A secret key is passphrase-protected and no passphrase was given.
    KeyIsProtected,
    /// No given passphrase unlocks the key.
    WrongPassphrase,
    /// The key cannot make signatures (no signing-capable key with its
    /// secret, or the key has expired or was revoked).
    KeyCannotSign,
    /// Text was expected (the data is not UTF-8).
    ExpectedText,
    /// A failure beneath OpenPGP (randomness, the signature engine).
    Other,
}

impl PgpError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        PgpError {
            kind,
            message: message.into(),
        }
    }
    pub(crate) fn malformed(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Malformed, message)
    }
    pub(crate) fn unsupported(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported, message)
    }
    pub(crate) fn bad_signature(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::BadSignature, message)
    }
}

impl fmt::Display for PgpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PgpError {}

impl From<crate::Error> for PgpError {
    fn from(e: crate::Error) -> Self {
        let kind = match e {
            crate::Error::InvalidSignature | crate::Error::InvalidSignatureLength { .. } => {
                ErrorKind::BadSignature
            }
            crate::Error::WrongPassphrase => ErrorKind::WrongPassphrase,
            _ => ErrorKind::Other,
        };
        PgpError::new(kind, e.to_string())
    }
}

impl From<PgpError> for crate::Error {
    fn from(e: PgpError) -> Self {
        match e.kind {
            ErrorKind::WrongPassphrase => crate::Error::WrongPassphrase,
            ErrorKind::BadSignature => crate::Error::VerificationFailed(e.message),
            _ => crate::Error::Encoding(format!("OpenPGP: {}", e.message)),
        }
    }
}

/// Results of this module.
pub type Result<T> = core::result::Result<T, PgpError>;
