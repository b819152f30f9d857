//! Messages as streams: SLH-DSA hashes the message twice when signing
//! (PRF_msg, then H_msg), so a large file is read twice rather than held in memory.

use crate::error::Error;

/// A message that can be streamed, start to end, as many times as asked.
pub trait MessageSource {
    /// Feeds the whole message to `sink`, in pieces of any size.
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error>;
}

impl MessageSource for &[u8] {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        sink(self);
        Ok(())
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
}
