//! Round-3.1 batches: many signatures verified side by side (any keys, any of
//! the 36 sets) and many messages signed under one key, on the shared
//! scheduler, with exactly the one-by-one answers.

use crate::prelude::*;
use core::sync::atomic::AtomicBool;

use super::{SpxAlgorithm, SpxSignOptions, SpxSigningKey, SpxVerifyingKey};
use crate::error::Error;
use crate::schedule::{by_key, sign_many};
use crate::slh_dsa::VERIFY_LANES;

/// One round-3.1 signature to check in [`verify_batch`].
#[derive(Clone, Copy, Debug)]
pub struct SpxVerifyItem<'a> {
    /// The public key (any of the 36 sets).
    pub key: &'a SpxVerifyingKey,
    /// The message.
    pub message: &'a [u8],
    /// The detached signature.
    pub signature: &'a [u8],
}

/// Verifies every item over up to `threads` threads, as
/// [`crate::verify_batch`] does for FIPS 205: one result per item, in order.
pub fn verify_batch(items: &[SpxVerifyItem<'_>], threads: usize) -> Vec<Result<(), Error>> {
    verify_batch_until(items, threads, &AtomicBool::new(false))
        .expect("a batch nobody stops runs to the end")
}

/// [`verify_batch`] that another thread can stop, as
/// [`crate::verify_batch_until`]: [`Error::Cancelled`] once `stop` is set.
pub fn verify_batch_until(
    items: &[SpxVerifyItem<'_>],
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<Result<(), Error>>, Error> {
    let keys: Vec<(SpxAlgorithm, Vec<u8>)> = items
        .iter()
        .map(|it| (it.key.algorithm(), it.key.to_bytes()))
        .collect();
    by_key(&keys, threads, VERIFY_LANES, stop, |group, out| {
        let group: Vec<SpxVerifyItem> = group.iter().map(|&i| items[i]).collect();
        group[0].key.verify_same_key(&group, out);
    })
}

impl SpxSigningKey {
    /// [`DynSigningKey::sign_batch`](crate::DynSigningKey::sign_batch) for a round-3.1 key.
    pub fn sign_batch(
        &self,
        messages: &[&[u8]],
        opts: &SpxSignOptions<'_>,
    ) -> Result<Vec<Vec<u8>>, Error> {
        self.sign_batch_until(messages, opts, &AtomicBool::new(false))
    }

    /// [`SpxSigningKey::sign_batch`] that another thread can stop:
    /// [`Error::Cancelled`] once `stop` is set.
    pub fn sign_batch_until(
        &self,
        messages: &[&[u8]],
        opts: &SpxSignOptions<'_>,
        stop: &AtomicBool,
    ) -> Result<Vec<Vec<u8>>, Error> {
        sign_many(messages.len(), opts.threads, stop, |i, threads| {
            self.sign(messages[i], &SpxSignOptions { threads, ..*opts })
        })
    }
}
