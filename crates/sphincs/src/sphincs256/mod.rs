//! SPHINCS-256, the original stateless hash-based signature scheme
//! (Bernstein, Hopwood, Hülsing, Lange, Niederhagen, Papachristodoulou,
//! Schneider, Schwabe, Wilcox-O'Hearn, "SPHINCS: practical stateless
//! hash-based signatures", EUROCRYPT 2015), byte for byte as the SUPERCOP
//! reference `crypto_sign/sphincs256/ref` (keys, deterministic signatures,
//! `crypto_sign` = signature ‖ message).
//!
//! F and H are built from the ChaCha12 permutation, G is ChaCha12 as a
//! stream cipher (kernels in `hash::backend::chacha12*`, chosen at run time
//! like the others), the seeds BLAKE-256 and the message hashes BLAKE-512.
//!
//! ```
//! use sphincs::sphincs256::Sphincs256SigningKey;
//! let sk = Sphincs256SigningKey::generate()?;
//! let sig = sk.sign(b"archive.tar");
//! sk.verifying_key().verify(b"archive.tar", &sig)?;
//! # Ok::<(), sphincs::Error>(())
//! ```

pub mod calls;
mod hash;
mod horst;
mod ltree;
mod masks;
pub mod params;
mod seed;
mod sign;
mod subtree;
mod wots;

use crate::prelude::*;
use zeroize::Zeroizing;

use crate::error::Error;
use crate::message::{MessageVerifier, PendingVerify};
use hash::Hasher;
use params::{PK_BYTES, SIG_BYTES, SK_BYTES};
use subtree::SubtreeNodes;

/// The name errors and the CLI use.
pub const ALGORITHM: &str = "sphincs-256";

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<(), Error> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::InvalidLength {
            what,
            algorithm: ALGORITHM,
            expected,
            got,
        })
    }
}

/// A SPHINCS-256 secret key: the 1088 bytes `SK1 ‖ Q ‖ SK2`, with the
/// public key and the top subtree derived from them when it is made.
#[derive(Clone)]
pub struct Sphincs256SigningKey {
    sk: Box<Zeroizing<[u8; SK_BYTES]>>,
    pk: Box<[u8; PK_BYTES]>,
    top: Box<SubtreeNodes>,
}

/// A SPHINCS-256 public key: `Q ‖ PK1`, 1056 bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Sphincs256VerifyingKey {
    pk: Box<[u8; PK_BYTES]>,
}

/// Whether this build has SPHINCS-256 (feature `sphincs256`): without it the
/// family's code is not compiled and its keys cannot be made.
const COMPILED: bool = cfg!(feature = "sphincs256");

/// The error of a call on SPHINCS-256 in a build without it.
fn not_compiled() -> Error {
    Error::Unsupported {
        family: "this build (its cargo features leave SPHINCS-256 out)",
        what: "SPHINCS-256",
    }
}

impl Sphincs256SigningKey {
    /// `crypto_sign_keypair` with the operating system's randomness: the
    /// secret key is 1088 random bytes.
    pub fn generate() -> Result<Self, Error> {
        let mut sk = Box::new(Zeroizing::new([0u8; SK_BYTES]));
        crate::rand::fill_random(&mut sk[..])?;
        Self::from_bytes(&sk[..])
    }

    /// The key of the 1088 bytes `SK1 ‖ Q ‖ SK2` (what `crypto_sign_keypair`
    /// draws from `randombytes` and stores verbatim): any 1088 bytes are a
    /// key. Builds the top subtree (the cost of key generation).
    pub fn from_bytes(sk: &[u8]) -> Result<Self, Error> {
        if !COMPILED {
            return Err(not_compiled());
        }
        check_len("secret key", SK_BYTES, sk.len())?;
        let mut key = Box::new(Zeroizing::new([0u8; SK_BYTES]));
        key.copy_from_slice(sk);
        let top = sign::top_subtree(&Hasher::current(), &key);
        let mut pk = Box::new([0u8; PK_BYTES]);
        pk[..PK_BYTES - params::N].copy_from_slice(sign::q(&key[..]));
        // Public: PK1, the root of the top subtree, is the public key.
        let mut root = subtree::root(&top);
        crate::ct_check::declassify(&mut root);
        pk[PK_BYTES - params::N..].copy_from_slice(&root);
        Ok(Sphincs256SigningKey { sk: key, pk, top })
    }

    /// The 1088 secret-key bytes.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        Zeroizing::new(self.sk.to_vec())
    }

    /// The public key.
    pub fn verifying_key(&self) -> Sphincs256VerifyingKey {
        Sphincs256VerifyingKey {
            pk: self.pk.clone(),
        }
    }

    /// The 41000-byte signature of `msg` (deterministic, as the reference),
    /// on one thread.
    pub fn sign(&self, msg: &[u8]) -> Vec<u8> {
        self.sign_with_threads(msg, 1)
    }

    /// [`Self::sign`] with the HORST chunks and subtrees spread over
    /// `threads` threads (0 or 1: the calling thread only); the signature is
    /// the same for any count.
    pub fn sign_with_threads(&self, msg: &[u8], threads: usize) -> Vec<u8> {
        if !COMPILED {
            // No key of a family left out can be made (`from_bytes`).
            return Vec::new();
        }
        sign::sign(
            &Hasher::current(),
            &self.sk,
            &self.pk,
            &self.top,
            msg,
            threads,
        )
    }

    /// SUPERCOP's `crypto_sign`: signature ‖ message.
    pub fn sign_attached(&self, msg: &[u8], threads: usize) -> Vec<u8> {
        let mut sm = self.sign_with_threads(msg, threads);
        sm.extend_from_slice(msg);
        sm
    }
}

impl core::fmt::Debug for Sphincs256SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sphincs256SigningKey")
            .finish_non_exhaustive()
    }
}

impl Sphincs256VerifyingKey {
    /// Loads the 1056 bytes `Q ‖ PK1`.
    pub fn from_bytes(pk: &[u8]) -> Result<Self, Error> {
        check_len("public key", PK_BYTES, pk.len())?;
        let mut key = Box::new([0u8; PK_BYTES]);
        key.copy_from_slice(pk);
        Ok(Sphincs256VerifyingKey { pk: key })
    }

    /// The 1056 public-key bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.pk.to_vec()
    }

    /// Verifies: `Ok(())` if `sig` is a valid signature of `msg`,
    /// [`Error::InvalidSignature`] if not, [`Error::InvalidLength`] if `sig`
    /// is not 41000 bytes. As in the reference, bits 60..63 of the index
    /// field do not take part.
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        if !COMPILED {
            return Err(not_compiled());
        }
        check_len("signature", SIG_BYTES, sig.len())?;
        if sign::verify(&Hasher::current(), &self.pk, msg, sig) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// [`Self::verify`] with the message fed in pieces afterwards
    /// ([`MessageVerifier`]); a signature of the wrong length is refused
    /// here. SPHINCS-256's verification reads its message whole, so this
    /// one keeps the pieces in memory until `finish`.
    pub fn verifier(&self, sig: &[u8]) -> Result<MessageVerifier, Error> {
        check_len("signature", SIG_BYTES, sig.len())?;
        Ok(MessageVerifier::new(Box::new(Pending {
            key: self.clone(),
            sig: sig.to_vec(),
            msg: Vec::new(),
        })))
    }

    /// SUPERCOP's `crypto_sign_open`: checks `sm` = signature ‖ message and
    /// returns the message.
    pub fn open<'s>(&self, sm: &'s [u8]) -> Result<&'s [u8], Error> {
        if sm.len() < SIG_BYTES {
            return Err(Error::InvalidLength {
                what: "signed message",
                algorithm: ALGORITHM,
                expected: SIG_BYTES,
                got: sm.len(),
            });
        }
        let (sig, msg) = sm.split_at(SIG_BYTES);
        self.verify(msg, sig)?;
        Ok(msg)
    }
}

impl core::fmt::Debug for Sphincs256VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sphincs256VerifyingKey")
            .finish_non_exhaustive()
    }
}

/// [`Sphincs256VerifyingKey::verifier`]'s state: the message so far.
#[derive(Clone)]
struct Pending {
    key: Sphincs256VerifyingKey,
    sig: Vec<u8>,
    msg: Vec<u8>,
}

impl PendingVerify for Pending {
    fn absorb(&mut self, piece: &[u8]) {
        self.msg.extend_from_slice(piece);
    }

    fn finish(self: Box<Self>) -> bool {
        self.key.verify(&self.msg, &self.sig).is_ok()
    }

    fn clone_box(&self) -> Box<dyn PendingVerify> {
        Box::new(self.clone())
    }
}
