//! One batch verifier for every family: items under one key go side by side
//! through their family's batch code; SPHINCS-256 items are checked one by
//! one (its scheme has no lane-parallel verifier), on the same threads.

use crate::prelude::*;
use core::sync::atomic::AtomicBool;

use super::algorithm::AnyAlgorithm;
use super::keys::{AnyVerifyingKey, Public};
use crate::batch::{verify_same_key, VerifyItem};
use crate::error::Error;
use crate::prehash::PreHash;
use crate::schedule::by_key;
use crate::slh_dsa::VERIFY_LANES;
use crate::sphincsplus::SpxVerifyItem;

/// One signature to check in [`verify_batch`].
#[derive(Clone, Copy, Debug)]
pub struct AnyVerifyItem<'a> {
    /// The public key (any family, any set).
    pub key: &'a AnyVerifyingKey,
    /// The message.
    pub message: &'a [u8],
    /// The signature, of any length (a wrong length fails this item alone).
    pub signature: &'a [u8],
    /// The context string (empty for none; FIPS 205 only).
    pub context: &'a [u8],
    /// `None` for pure signing, or the pre-hash of HashSLH-DSA (FIPS 205 only).
    pub prehash: Option<PreHash>,
}

/// Verifies every item over up to `threads` threads (0 or 1: the calling
/// thread). One result per item, in order, exactly as
/// [`AnyVerifyingKey::verify`] answers for it alone.
pub fn verify_batch(items: &[AnyVerifyItem<'_>], threads: usize) -> Vec<Result<(), Error>> {
    verify_batch_until(items, threads, &AtomicBool::new(false))
        .expect("a batch nobody stops runs to the end")
}

/// [`verify_batch`] that another thread can stop (a binding watching for
/// Ctrl-C): once `stop` is set no further item is started, and the batch
/// returns [`Error::Cancelled`].
pub fn verify_batch_until(
    items: &[AnyVerifyItem<'_>],
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<Result<(), Error>>, Error> {
    let keys: Vec<(AnyAlgorithm, Vec<u8>)> = items
        .iter()
        .map(|it| (it.key.algorithm(), it.key.to_bytes()))
        .collect();
    by_key(&keys, threads, VERIFY_LANES, stop, |group, out| {
        let group: Vec<AnyVerifyItem> = group.iter().map(|&i| items[i]).collect();
        verify_group(&group, out);
    })
}

/// Items whose keys are equal: one family, one key.
fn verify_group(items: &[AnyVerifyItem<'_>], out: &mut [Result<(), Error>]) {
    match &items[0].key.0 {
        Public::SlhDsa(_) => {
            let fips: Vec<VerifyItem> = items
                .iter()
                .filter_map(|it| {
                    let key = it.key.as_slh_dsa()?;
                    Some(VerifyItem {
                        key,
                        message: it.message,
                        signature: it.signature,
                        context: it.context,
                        prehash: it.prehash,
                    })
                })
                .collect();
            verify_same_key(&fips, out);
        }
        Public::SphincsPlus(key) => {
            // Options the family lacks fail their own item; the rest go side by side.
            let mut ok_items = Vec::with_capacity(items.len());
            let mut which = Vec::with_capacity(items.len());
            for (i, it) in items.iter().enumerate() {
                match check(it) {
                    Ok(()) => {
                        ok_items.push(SpxVerifyItem {
                            key,
                            message: it.message,
                            signature: it.signature,
                        });
                        which.push(i);
                    }
                    Err(e) => out[i] = Err(e),
                }
            }
            if !ok_items.is_empty() {
                let mut res = vec![Ok(()); ok_items.len()];
                key.verify_same_key(&ok_items, &mut res);
                for (i, r) in which.into_iter().zip(res) {
                    out[i] = r;
                }
            }
        }
        Public::Sphincs256(_) => {
            for (it, o) in items.iter().zip(out.iter_mut()) {
                *o = it
                    .key
                    .verify(it.message, it.signature, it.context, it.prehash);
            }
        }
    }
}

/// A round-3.1 item's options: no context, no pre-hash.
fn check(it: &AnyVerifyItem<'_>) -> Result<(), Error> {
    let alg = it.key.algorithm();
    alg.require("context strings", !it.context.is_empty())?;
    alg.require("pre-hash signing (HashSLH-DSA)", it.prehash.is_some())
}
