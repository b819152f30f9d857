//! Messages as streams: SLH-DSA hashes the message twice when signing
//! (PRF_msg, then H_msg), so a large file is read twice rather than held in memory.

use sha2::{Digest, Sha256};

use crate::error::Error;

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
