//! What a key file is, told from its bytes alone ([`KeyFileKind`]), and
//! why one did not open ([`OpenError`]): the vocabulary of `any::open`.

use crate::prelude::*;

use super::algorithm::AnyAlgorithm;
use crate::encoding::{self, encrypted, limited, PRIVATE_KEY_LABEL, PUBLIC_KEY_LABEL};
use crate::error::Error;
use crate::params::Algorithm;

/// What a key file holds, told from its bytes alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFileKind {
    /// A PKCS#8 `PrivateKeyInfo`, PEM or DER.
    Private,
    /// A PKCS#8 `EncryptedPrivateKeyInfo`, PEM or DER: needs a passphrase.
    EncryptedPrivate,
    /// A draft SP 800-230 private key in this library's own encrypted PEM
    /// (`encoding::limited`): needs a passphrase.
    EncryptedLimited,
    /// A SubjectPublicKeyInfo, PEM or DER.
    Public,
    /// An X.509 certificate, PEM or DER (its subject key is the key).
    Certificate,
    /// Bytes that are no PEM or DER: a raw key, whose set must be named.
    Raw,
    /// PEM of another label, or DER that parses as none of the above.
    Unknown,
}

impl KeyFileKind {
    /// The kind of the key file `bytes`. DER adds headers to a raw key, so
    /// no DER key has a raw key's length: bytes of a raw key's length that
    /// start with 0x30 (one raw key in 256 does) and parse as no DER stay
    /// raw.
    pub fn of(bytes: &[u8]) -> KeyFileKind {
        if encrypted::is_encrypted_private_key(bytes) {
            return KeyFileKind::EncryptedPrivate;
        }
        if limited::is_encrypted_limited_key(bytes) {
            return KeyFileKind::EncryptedLimited;
        }
        if let Some(label) = encoding::pem_label(bytes) {
            return match label {
                PRIVATE_KEY_LABEL => KeyFileKind::Private,
                PUBLIC_KEY_LABEL => KeyFileKind::Public,
                l if is_certificate_label(l) => KeyFileKind::Certificate,
                _ => KeyFileKind::Unknown,
            };
        }
        if bytes.first() == Some(&0x30) {
            if encoding::decode_public_key(bytes).is_ok() {
                return KeyFileKind::Public;
            }
            if encoding::decode_private_key(bytes).is_ok() {
                return KeyFileKind::Private;
            }
            if is_der_certificate(bytes) {
                return KeyFileKind::Certificate;
            }
            return match is_raw_len(bytes.len()) {
                true => KeyFileKind::Raw,
                false => KeyFileKind::Unknown,
            };
        }
        match bytes.windows(11).any(|w| w == b"-----BEGIN ") {
            true => KeyFileKind::Unknown,
            false => KeyFileKind::Raw,
        }
    }

    /// Whether the file holds a private key (encrypted or not, or raw bytes,
    /// which may be one).
    pub fn is_private(self) -> bool {
        matches!(
            self,
            KeyFileKind::Private
                | KeyFileKind::EncryptedPrivate
                | KeyFileKind::EncryptedLimited
                | KeyFileKind::Raw
        )
    }

    /// Whether the file is encrypted (opening it needs a passphrase).
    pub fn is_encrypted(self) -> bool {
        matches!(
            self,
            KeyFileKind::EncryptedPrivate | KeyFileKind::EncryptedLimited
        )
    }
}

#[cfg(feature = "pki")]
fn is_certificate_label(label: &str) -> bool {
    label == crate::pki::cert::CERTIFICATE_LABEL
}

/// Without `pki` no certificate can be read, so none is told apart.
#[cfg(not(feature = "pki"))]
fn is_certificate_label(_: &str) -> bool {
    false
}

#[cfg(feature = "pki")]
fn is_der_certificate(bytes: &[u8]) -> bool {
    crate::pki::cert::parse_certificate(bytes).is_ok()
}

#[cfg(not(feature = "pki"))]
fn is_der_certificate(_: &[u8]) -> bool {
    false
}

/// Whether `len` is the length of a raw public or secret key of a set with
/// a key file format (FIPS 205 and the draft SP 800-230 sets).
pub(super) fn is_raw_len(len: usize) -> bool {
    Algorithm::ALL
        .iter()
        .any(|a| a.public_key_len() == len || a.secret_key_len() == len)
}

/// Why a key file did not open. [`OpenError::Key`] is the core's refusal of
/// the key itself; the other cases are about what the file is, and their
/// text (from "is …", so that a caller can put the file's name before it)
/// names no option of any front end. A binding that only needs an
/// [`Error`] converts with `From`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// Decoding, decrypting or checking the key failed (a wrong passphrase,
    /// a PK.root that is not the seeds', a cache that shows the key damaged).
    Key(Error),
    /// A public key or a certificate where a private key is needed.
    NotPrivate(KeyFileKind),
    /// A file that is no public key, certificate or private key, where one
    /// of those is needed: its PEM label, or why it is no SPKI DER.
    NotPublic {
        /// The PEM label of a PEM file of another kind.
        label: Option<String>,
        /// Why DER input does not parse as a public key.
        spki: Option<Error>,
    },
    /// An X.509 certificate whose subject key cannot be read.
    Certificate(Error),
    /// Raw bytes, and no parameter set named (raw keys do not say theirs):
    /// `fits` when some set has keys of that length.
    RawNeedsSet {
        /// The file's length.
        len: usize,
        /// Whether some set's raw keys have that length.
        fits: bool,
    },
    /// Raw bytes of the wrong length for the set named.
    RawLength {
        /// The set named.
        algorithm: AnyAlgorithm,
        /// The file's length.
        len: usize,
        /// Whether only a secret key was wanted (else public or secret).
        secret_only: bool,
    },
    /// Bytes that start as DER does (0x30) but parse as no DER key, with a
    /// set named: they may be a raw key that happens to start with 0x30, so
    /// both readings are told.
    NotDerNorRaw {
        /// Why they are no DER key of the kind wanted.
        der: Option<Error>,
        /// Why they are no raw key of the set named.
        raw: String,
    },
    /// A key of another set than the one named.
    WrongSet {
        /// The key's set.
        found: AnyAlgorithm,
        /// The set named.
        expected: AnyAlgorithm,
    },
    /// An encrypted key, and no passphrase source was given.
    NeedsPassphrase,
}

const EXPECTED_PUBLIC: &str = "expected a public key (PEM \"PUBLIC KEY\" or DER SubjectPublicKeyInfo), an X.509 certificate (PEM \"CERTIFICATE\" or DER) or a private key";

impl core::fmt::Display for OpenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            OpenError::Key(e) => write!(f, "{e}"),
            OpenError::NotPrivate(KeyFileKind::Certificate) => {
                f.write_str("is an X.509 certificate; signing needs the private key")
            }
            OpenError::NotPrivate(_) => {
                f.write_str("is a public key; signing needs the private key")
            }
            OpenError::NotPublic { label: Some(l), .. } => {
                write!(f, "is a PEM \"{l}\"; {EXPECTED_PUBLIC}")
            }
            OpenError::NotPublic { spki: Some(e), .. } => {
                write!(f, "{EXPECTED_PUBLIC}; as a public key: {e}")
            }
            OpenError::NotPublic { .. } => f.write_str(EXPECTED_PUBLIC),
            OpenError::Certificate(e) => write!(f, "as an X.509 certificate: {e}"),
            OpenError::RawNeedsSet { len, fits: true } => write!(
                f,
                "looks like a raw {len}-byte key; its parameter set must be named"
            ),
            OpenError::RawNeedsSet { len, fits: false } => write!(
                f,
                "is not a PEM or DER key, nor a raw key of any parameter set's length ({len} bytes)"
            ),
            OpenError::RawLength { .. } => {
                write!(f, "is not a PEM or DER key, and {}", self.raw_problem())
            }
            OpenError::NotDerNorRaw { der: Some(e), raw } => {
                write!(f, "is not a DER key ({e}), and {raw}")
            }
            OpenError::NotDerNorRaw { der: None, raw } => {
                write!(f, "is not a PEM or DER key, and {raw}")
            }
            OpenError::WrongSet { found, expected } => {
                write!(f, "is an {found} key, but {expected} was named")
            }
            OpenError::NeedsPassphrase => {
                f.write_str("is an encrypted private key; opening it needs a passphrase")
            }
        }
    }
}

impl OpenError {
    /// What is wrong with raw bytes of the wrong length (the
    /// [`OpenError::RawLength`] case; empty for the others).
    fn raw_problem(&self) -> String {
        match self {
            OpenError::RawLength {
                algorithm,
                len,
                secret_only,
            } => raw_len_problem(*algorithm, *len, *secret_only).unwrap_or_default(),
            _ => String::new(),
        }
    }
}

impl From<Error> for OpenError {
    fn from(e: Error) -> Self {
        OpenError::Key(e)
    }
}

impl From<OpenError> for Error {
    /// The core's error for a binding: the key's own error as it is, a raw
    /// key of the wrong length as a length error, anything else about the
    /// file as [`Error::Encoding`] with the text above.
    fn from(e: OpenError) -> Self {
        match e {
            OpenError::Key(e) | OpenError::Certificate(e) => e,
            OpenError::RawLength {
                algorithm: AnyAlgorithm::SlhDsa(a),
                len,
                ..
            } => Error::InvalidKeyLength {
                what: "secret key",
                algorithm: a,
                expected: a.secret_key_len(),
                got: len,
            },
            OpenError::RawLength { algorithm, len, .. } => Error::InvalidLength {
                what: "secret key",
                algorithm: algorithm.name(),
                expected: algorithm.secret_key_len(),
                got: len,
            },
            other => Error::Encoding(format!("the key file {other}")),
        }
    }
}

/// Why `len` bytes are no raw key of `alg` (a secret key if `secret_only`,
/// else public or secret); `None` if they can be.
pub(super) fn raw_len_problem(alg: AnyAlgorithm, len: usize, secret_only: bool) -> Option<String> {
    let (sk, pk) = (alg.secret_key_len(), alg.public_key_len());
    let (fits, what, expected) = match secret_only {
        true => (len == sk, "secret", sk.to_string()),
        false => (
            len == sk || len == pk,
            "public or secret",
            format!("{pk} or {sk}"),
        ),
    };
    (!fits).then(|| format!("as a raw {alg} {what} key it is {len} bytes; expected {expected}"))
}
