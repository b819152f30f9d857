//! Messages as streams: SLH-DSA hashes the message twice when signing
//! (PRF_msg, then H_msg), so a large file is read twice rather than held in memory.

use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::prehash::{PreHash, MAX_PREHASH_LEN};
#[cfg(feature = "alloc")]
use crate::prelude::*;

/// A message that can be streamed, start to end, as many times as asked.
pub trait MessageSource {
    /// Feeds the whole message to `sink`, in pieces of any size.
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error>;

    /// Whether the message cannot change between two `feed` calls (bytes
    /// borrowed in memory): then signing need not check that its passes
    /// read the same message. `false` unless a source knows better.
    fn immutable(&self) -> bool {
        false
    }
}

impl MessageSource for &[u8] {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        sink(self);
        Ok(())
    }

    fn immutable(&self) -> bool {
        true
    }
}

/// A message that signing reads more than once (FIPS 205 Algorithm 19 reads
/// M for R = PRF_msg, then for H_msg): every pass after the first must give
/// the first pass's length and SHA-256, else [`Error::MessageChanged`].
/// Without this, a file changed between the passes would be signed under an
/// R made from another message (with deterministic signing, a known R for a
/// message of the changer's choice). Checked at the end of each pass, before
/// anything is computed from it.
pub(crate) struct SamePasses<'a> {
    inner: &'a mut dyn MessageSource,
    first: Option<(u64, [u8; 32])>,
}

impl<'a> SamePasses<'a> {
    pub fn new(inner: &'a mut dyn MessageSource) -> Self {
        SamePasses { inner, first: None }
    }
}

impl MessageSource for SamePasses<'_> {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        if self.inner.immutable() {
            return self.inner.feed(sink);
        }
        let mut hash = Sha256::new();
        let mut len = 0u64;
        self.inner.feed(&mut |b| {
            hash.update(b);
            len += b.len() as u64;
            sink(b)
        })?;
        let seen = (len, <[u8; 32]>::from(hash.finalize()));
        match self.first {
            None => self.first = Some(seen),
            Some(first) if first == seen => {}
            Some(_) => return Err(Error::MessageChanged),
        }
        Ok(())
    }

    fn immutable(&self) -> bool {
        self.inner.immutable()
    }
}

/// `M' = prefix ‖ M`: the domain-separated message of FIPS 205 Algorithms 22–25.
pub(crate) struct Prefixed<'a> {
    pub prefix: &'a [u8],
    pub inner: &'a mut dyn MessageSource,
}

impl MessageSource for Prefixed<'_> {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        sink(self.prefix);
        self.inner.feed(sink)
    }

    fn immutable(&self) -> bool {
        self.inner.immutable()
    }
}

impl PreHash {
    /// `PH(M)` of a streamed message; returns the buffer and the output length.
    pub fn digest(
        self,
        msg: &mut dyn MessageSource,
    ) -> Result<([u8; MAX_PREHASH_LEN], usize), Error> {
        let mut h = PreHasher::new(self);
        msg.feed(&mut |b| h.update(b))?;
        Ok(h.finish())
    }
}

impl PreHash {
    /// An incremental `PH(M)`: feed M in pieces with
    /// [`PreHashState::update`], take the digest with
    /// [`PreHashState::finish`] and sign or verify it with
    /// `sign_digest` / `verify_digest` under the same pre-hash. Memory stays
    /// constant however long M is.
    pub fn hasher(self) -> PreHashState {
        PreHashState {
            prehash: self,
            inner: PreHasher::new(self),
        }
    }
}

/// The state of an incremental `PH(M)` (FIPS 205 §10.2.2), made by
/// [`PreHash::hasher`]. `Clone` copies the state so far.
#[derive(Clone)]
pub struct PreHashState {
    prehash: PreHash,
    inner: PreHasher,
}

impl PreHashState {
    /// The pre-hash this state computes.
    pub fn prehash(&self) -> PreHash {
        self.prehash
    }

    /// Feeds the next bytes of M (pieces of any size).
    pub fn update(&mut self, piece: &[u8]) {
        self.inner.update(piece);
    }

    /// `PH(M)` of everything fed: [`PreHash::output_len`] bytes (SHAKE128
    /// squeezed to 256 bits, SHAKE256 to 512).
    pub fn finish(self) -> PreHashDigest {
        let (bytes, len) = self.inner.finish();
        PreHashDigest { bytes, len }
    }
}

impl core::fmt::Debug for PreHashState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PreHashState")
            .field("prehash", &self.prehash)
            .finish_non_exhaustive()
    }
}

/// A digest `PH(M)` from [`PreHashState::finish`]; its bytes by
/// [`as_bytes`](Self::as_bytes) or `AsRef<[u8]>`.
#[derive(Clone, PartialEq, Eq)]
pub struct PreHashDigest {
    bytes: [u8; MAX_PREHASH_LEN],
    len: usize,
}

impl PreHashDigest {
    /// The digest's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl AsRef<[u8]> for PreHashDigest {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl core::fmt::Debug for PreHashDigest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("PreHashDigest")
            .field(&self.as_bytes())
            .finish()
    }
}

/// `PH(M)` (FIPS 205 §10.2.2) computed as M arrives: the state of one of
/// the twelve pre-hash functions.
#[derive(Clone)]
pub(crate) enum PreHasher {
    Sha2_224(sha2::Sha224),
    Sha2_256(sha2::Sha256),
    Sha2_384(sha2::Sha384),
    Sha2_512(sha2::Sha512),
    Sha2_512_224(sha2::Sha512_224),
    Sha2_512_256(sha2::Sha512_256),
    Sha3_224(sha3::Sha3_224),
    Sha3_256(sha3::Sha3_256),
    Sha3_384(sha3::Sha3_384),
    Sha3_512(sha3::Sha3_512),
    Shake128(shake::Shake128),
    Shake256(shake::Shake256),
}

impl PreHasher {
    pub fn new(ph: PreHash) -> Self {
        match ph {
            PreHash::Sha2_224 => PreHasher::Sha2_224(Digest::new()),
            PreHash::Sha2_256 => PreHasher::Sha2_256(Digest::new()),
            PreHash::Sha2_384 => PreHasher::Sha2_384(Digest::new()),
            PreHash::Sha2_512 => PreHasher::Sha2_512(Digest::new()),
            PreHash::Sha2_512_224 => PreHasher::Sha2_512_224(Digest::new()),
            PreHash::Sha2_512_256 => PreHasher::Sha2_512_256(Digest::new()),
            PreHash::Sha3_224 => PreHasher::Sha3_224(Digest::new()),
            PreHash::Sha3_256 => PreHasher::Sha3_256(Digest::new()),
            PreHash::Sha3_384 => PreHasher::Sha3_384(Digest::new()),
            PreHash::Sha3_512 => PreHasher::Sha3_512(Digest::new()),
            PreHash::Shake128 => PreHasher::Shake128(Default::default()),
            PreHash::Shake256 => PreHasher::Shake256(Default::default()),
        }
    }

    /// Feeds the next bytes of M.
    pub fn update(&mut self, b: &[u8]) {
        use shake::Update;
        match self {
            PreHasher::Sha2_224(h) => Digest::update(h, b),
            PreHasher::Sha2_256(h) => Digest::update(h, b),
            PreHasher::Sha2_384(h) => Digest::update(h, b),
            PreHasher::Sha2_512(h) => Digest::update(h, b),
            PreHasher::Sha2_512_224(h) => Digest::update(h, b),
            PreHasher::Sha2_512_256(h) => Digest::update(h, b),
            PreHasher::Sha3_224(h) => Digest::update(h, b),
            PreHasher::Sha3_256(h) => Digest::update(h, b),
            PreHasher::Sha3_384(h) => Digest::update(h, b),
            PreHasher::Sha3_512(h) => Digest::update(h, b),
            PreHasher::Shake128(h) => h.update(b),
            PreHasher::Shake256(h) => h.update(b),
        }
    }

    /// `PH(M)` in a buffer of the longest output, and its length (SHAKE128
    /// squeezed to 256 bits, SHAKE256 to 512).
    pub fn finish(self) -> ([u8; MAX_PREHASH_LEN], usize) {
        fn fixed<D: Digest>(h: D, out: &mut [u8; MAX_PREHASH_LEN]) -> usize {
            let d = h.finalize();
            out[..d.len()].copy_from_slice(&d);
            d.len()
        }
        fn xof(h: impl shake::ExtendableOutput, out: &mut [u8]) -> usize {
            use shake::XofReader;
            h.finalize_xof().read(out);
            out.len()
        }
        let mut out = [0u8; MAX_PREHASH_LEN];
        let len = match self {
            PreHasher::Sha2_224(h) => fixed(h, &mut out),
            PreHasher::Sha2_256(h) => fixed(h, &mut out),
            PreHasher::Sha2_384(h) => fixed(h, &mut out),
            PreHasher::Sha2_512(h) => fixed(h, &mut out),
            PreHasher::Sha2_512_224(h) => fixed(h, &mut out),
            PreHasher::Sha2_512_256(h) => fixed(h, &mut out),
            PreHasher::Sha3_224(h) => fixed(h, &mut out),
            PreHasher::Sha3_256(h) => fixed(h, &mut out),
            PreHasher::Sha3_384(h) => fixed(h, &mut out),
            PreHasher::Sha3_512(h) => fixed(h, &mut out),
            PreHasher::Shake128(h) => xof(h, &mut out[..32]),
            PreHasher::Shake256(h) => xof(h, &mut out[..64]),
        };
        (out, len)
    }
}

/// One verification whose message is pushed in pieces after the signature
/// is known: each family's engine absorbs the pieces into its message hash
/// and checks the trees at the end (see [`MessageVerifier`]).
#[cfg(feature = "alloc")]
pub(crate) trait PendingVerify: Send + Sync {
    /// Feeds the next bytes of the message.
    fn absorb(&mut self, piece: &[u8]);
    /// Whether the signature is valid for everything absorbed.
    fn finish(self: Box<Self>) -> bool;
    /// An independent copy of the state so far.
    fn clone_box(&self) -> Box<dyn PendingVerify>;
}

/// A verification that takes the message in pieces, once the signature is
/// known: made by `AnyVerifyingKey::verifier` (or a family key's
/// `verifier`), fed with [`update`](Self::update) and ended with
/// [`finish`](Self::finish). The message is never held: SLH-DSA and
/// SPHINCS+ read it once when verifying (`H_msg(R, PK.seed, PK.root, M)`,
/// with R the signature's first n bytes), so each piece goes straight into
/// the message hash, and memory stays constant however long the message.
/// (SPHINCS-256, whose verification reads its message whole, keeps it in
/// memory.) Holds a copy of the signature. `Clone` copies the state so far:
/// two clones fed different tails verify different messages.
#[cfg(feature = "alloc")]
pub struct MessageVerifier(Box<dyn PendingVerify>);

#[cfg(feature = "alloc")]
impl MessageVerifier {
    pub(crate) fn new(pending: Box<dyn PendingVerify>) -> Self {
        MessageVerifier(pending)
    }

    /// Feeds the next bytes of the message (pieces of any size).
    pub fn update(&mut self, piece: &[u8]) {
        self.0.absorb(piece);
    }

    /// `Ok(())` if the signature is valid for the message fed, else
    /// [`Error::InvalidSignature`].
    pub fn finish(self) -> Result<(), Error> {
        if self.0.finish() {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }
}

#[cfg(feature = "alloc")]
impl Clone for MessageVerifier {
    fn clone(&self) -> Self {
        MessageVerifier(self.0.clone_box())
    }
}

#[cfg(feature = "alloc")]
impl core::fmt::Debug for MessageVerifier {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MessageVerifier").finish_non_exhaustive()
    }
}
