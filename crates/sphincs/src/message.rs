//! Messages as streams: SLH-DSA hashes the message twice when signing
//! (PRF_msg, then H_msg), so a large file is read twice rather than held in memory.

use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::prehash::{PreHash, MAX_PREHASH_LEN};

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
        fn fixed<D: Digest>(msg: &mut dyn MessageSource, out: &mut [u8]) -> Result<(), Error> {
            let mut h = D::new();
            msg.feed(&mut |b| Digest::update(&mut h, b))?;
            out.copy_from_slice(&h.finalize());
            Ok(())
        }
        fn xof<X: Default + shake::Update + shake::ExtendableOutput>(
            msg: &mut dyn MessageSource,
            out: &mut [u8],
        ) -> Result<(), Error> {
            use shake::XofReader;
            let mut h = X::default();
            msg.feed(&mut |b| h.update(b))?;
            h.finalize_xof().read(out);
            Ok(())
        }
        let mut buf = [0u8; MAX_PREHASH_LEN];
        let len = self.output_len();
        let out = &mut buf[..len];
        match self {
            PreHash::Sha2_224 => fixed::<sha2::Sha224>(msg, out)?,
            PreHash::Sha2_256 => fixed::<sha2::Sha256>(msg, out)?,
            PreHash::Sha2_384 => fixed::<sha2::Sha384>(msg, out)?,
            PreHash::Sha2_512 => fixed::<sha2::Sha512>(msg, out)?,
            PreHash::Sha2_512_224 => fixed::<sha2::Sha512_224>(msg, out)?,
            PreHash::Sha2_512_256 => fixed::<sha2::Sha512_256>(msg, out)?,
            PreHash::Sha3_224 => fixed::<sha3::Sha3_224>(msg, out)?,
            PreHash::Sha3_256 => fixed::<sha3::Sha3_256>(msg, out)?,
            PreHash::Sha3_384 => fixed::<sha3::Sha3_384>(msg, out)?,
            PreHash::Sha3_512 => fixed::<sha3::Sha3_512>(msg, out)?,
            PreHash::Shake128 => xof::<shake::Shake128>(msg, out)?,
            PreHash::Shake256 => xof::<shake::Shake256>(msg, out)?,
        }
        Ok((buf, len))
    }
}
