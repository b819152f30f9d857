//! Many signatures at once: [`verify_batch`] checks independent items (any
//! keys, any parameter sets) and [`DynSigningKey::sign_batch`] signs many
//! messages under one key, both spread over a thread budget.
//!
//! Results equal one-by-one calls: each item is the same FIPS 205 computation
//! (Algorithms 22–25), only scheduled differently. Threads take the next
//! unstarted item from a shared counter (dynamic scheduling), so a batch of
//! mixed sets or message lengths keeps every thread busy to the end.
//!
//! ```
//! use sphincs::{verify_batch, Algorithm, DynSigningKey, SignOptions, VerifyItem};
//! let sk = DynSigningKey::generate(Algorithm::Shake128f)?;
//! let msgs: [&[u8]; 3] = [b"a.tar", b"b.tar", b"c.tar"];
//! let sigs = sk.sign_batch(&msgs, &SignOptions { threads: 2, ..Default::default() })?;
//! let pk = sk.verifying_key();
//! let items: Vec<VerifyItem> = msgs.iter().zip(&sigs).map(|(m, s)| VerifyItem {
//!     key: &pk, message: m, signature: s, context: b"", prehash: None,
//! }).collect();
//! assert!(verify_batch(&items, 2).iter().all(Result::is_ok));
//! # Ok::<(), sphincs::Error>(())
//! ```

use crate::prelude::*;
use core::sync::atomic::AtomicBool;

use crate::dynamic::{DynSigningKey, DynVerifyingKey};
use crate::error::Error;
use crate::keys::SignOptions;
use crate::params::Algorithm;
use crate::parts::PublicParts;
use crate::prehash::PreHash;
use crate::schedule::{by_key, sign_many};
use crate::slh_dsa::{h_msg, verify_many, with_m_prime, VERIFY_LANES};
use crate::with_parameter_set;
use crate::ParameterSet;

/// One signature to check in [`verify_batch`].
#[derive(Clone, Copy, Debug)]
pub struct VerifyItem<'a> {
    /// The public key (any parameter set).
    pub key: &'a DynVerifyingKey,
    /// The message as signed (pure), or the message whose pre-hash was signed.
    pub message: &'a [u8],
    /// The signature, of any length (a wrong length fails this item alone).
    pub signature: &'a [u8],
    /// The context string (empty for none).
    pub context: &'a [u8],
    /// `None` for pure SLH-DSA, or the pre-hash of HashSLH-DSA.
    pub prehash: Option<PreHash>,
}

/// Verifies every item (FIPS 205 Algorithms 24 and 25) over up to `threads`
/// threads (0 or 1: the calling thread alone). One result per item, in
/// order: `Ok(())` if valid, [`Error::InvalidSignature`] if not, or the
/// item's own error (a signature of the wrong length, a context over 255
/// bytes), exactly as [`DynVerifyingKey::verify`] answers for it alone.
pub fn verify_batch(items: &[VerifyItem<'_>], threads: usize) -> Vec<Result<(), Error>> {
    verify_batch_until(items, threads, &AtomicBool::new(false))
        .expect("a batch nobody stops runs to the end")
}

/// [`verify_batch`] that another thread can stop (a binding that checks for
/// Ctrl-C while the batch runs): once `stop` is set no further item is
/// started, and when those under way are done the batch returns
/// [`Error::Cancelled`] instead of its results.
pub fn verify_batch_until(
    items: &[VerifyItem<'_>],
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<Result<(), Error>>, Error> {
    let keys: Vec<(Algorithm, Vec<u8>)> = items
        .iter()
        .map(|it| (it.key.algorithm(), it.key.to_bytes()))
        .collect();
    by_key(&keys, threads, VERIFY_LANES, stop, |group, out| {
        let group: Vec<VerifyItem> = group.iter().map(|&i| items[i]).collect();
        verify_same_key(&group, out);
    })
}

/// Verifies items that all carry one key (they may differ in its mode),
/// up to [`VERIFY_LANES`] side by side; `out[i]` is
/// [`DynVerifyingKey::verify`]'s answer for `items[i]`.
pub(crate) fn verify_same_key(items: &[VerifyItem<'_>], out: &mut [Result<(), Error>]) {
    let key = items[0].key;
    with_parameter_set!(key.algorithm(), P => verify_external_many::<P>(key.parts(), items, out), else => {
        out.fill_with(|| Err(Error::not_dispatched(key.algorithm())));
    });
}

impl DynSigningKey {
    /// Signs each message with `opts` (FIPS 205 Algorithms 22 and 23).
    /// `opts.threads` is the thread budget of the whole batch (0 or 1: the
    /// calling thread alone): with at least as many messages as threads the
    /// signatures run side by side, one thread each; with fewer, each
    /// signature's trees are split over its share of the threads. The
    /// signatures are byte-identical to signing one by one (deterministic, or
    /// the same given randomness); hedged signing draws fresh randomness for
    /// each. Fails with the first message's error if any fails.
    pub fn sign_batch(
        &self,
        messages: &[&[u8]],
        opts: &SignOptions<'_>,
    ) -> Result<Vec<Vec<u8>>, Error> {
        self.sign_batch_until(messages, opts, &AtomicBool::new(false))
    }

    /// [`sign_batch`](Self::sign_batch) that another thread can stop: once
    /// `stop` is set no further signature is started, and when those under
    /// way are done the batch returns [`Error::Cancelled`].
    pub fn sign_batch_until(
        &self,
        messages: &[&[u8]],
        opts: &SignOptions<'_>,
        stop: &AtomicBool,
    ) -> Result<Vec<Vec<u8>>, Error> {
        sign_many(messages.len(), opts.threads, stop, |i, threads| {
            self.sign(messages[i], &SignOptions { threads, ..*opts })
        })
    }
}

/// Algorithms 24/25 for many items under the key `pk` of set `P`:
/// `out[i]` is what [`DynVerifyingKey::verify`] answers for `items[i]` alone.
pub(crate) fn verify_external_many<P: ParameterSet>(
    pk: &PublicParts,
    items: &[VerifyItem<'_>],
    out: &mut [Result<(), Error>],
) {
    let p = P::PARAMS;
    verify_many::<P>(pk, items.len(), out, |i, t| {
        let it = &items[i];
        // As `DynVerifyingKey::verify`: the key's mode first (items of one
        // key may differ in mode only), then the length.
        let prehash = it.key.mode().resolve(P::ALGORITHM, it.prehash)?;
        if it.signature.len() != p.sig_bytes() {
            return Err(Error::InvalidSignatureLength {
                algorithm: P::ALGORITHM,
                expected: p.sig_bytes(),
                got: it.signature.len(),
            });
        }
        let mut msg = it.message;
        let d = with_m_prime(it.context, prehash, &mut msg, |m| {
            h_msg::<P>(t, &it.signature[..p.n], &pk.pk_root[..p.n], m)
        })?;
        Ok((it.signature, d))
    });
}
