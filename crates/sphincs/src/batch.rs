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

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::dynamic::{DynSigningKey, DynVerifyingKey};
use crate::error::Error;
use crate::hash::backend::forced_backend;
use crate::keys::SignOptions;
use crate::params::Algorithm;
use crate::prehash::PreHash;
use crate::slh_dsa::VERIFY_LANES;
use crate::sphincsplus::{SpxAlgorithm, SpxSignOptions, SpxSigningKey, SpxVerifyingKey};
use crate::with_backend;

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
    by_key(&keys, threads, stop, |group, out| {
        let group: Vec<VerifyItem> = group.iter().map(|&i| items[i]).collect();
        group[0].key.verify_same_key(&group, out);
    })
}

/// Runs `verify(indices, out)` over runs of items whose `keys` are equal
/// (their hash calls share the key's PK.seed, so they go side by side), runs
/// small enough that every thread gets work, and returns the results in the
/// items' order.
fn by_key<K: Ord + Sync>(
    keys: &[K],
    threads: usize,
    stop: &AtomicBool,
    verify: impl Fn(&[usize], &mut [Result<(), Error>]) + Sync,
) -> Result<Vec<Result<(), Error>>, Error> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    let threads = threads.max(1);
    let mut tasks: Vec<&[usize]> = Vec::new();
    for group in order.chunk_by(|&a, &b| keys[a] == keys[b]) {
        let per_thread = group.len().div_ceil(threads);
        tasks.extend(group.chunks(per_thread.clamp(1, VERIFY_LANES)));
    }
    let done = parallel_map_until(tasks.len(), threads, stop, |t| {
        let mut out = vec![Ok(()); tasks[t].len()];
        verify(tasks[t], &mut out);
        out
    })
    .ok_or(Error::Cancelled)?;
    let mut results = vec![Ok(()); keys.len()];
    for (task, out) in tasks.iter().zip(done) {
        for (&i, r) in task.iter().zip(out) {
            results[i] = r;
        }
    }
    Ok(results)
}

/// One round-3.1 signature to check in [`sphincsplus::verify_batch`](crate::sphincsplus::verify_batch).
#[derive(Clone, Copy, Debug)]
pub struct SpxVerifyItem<'a> {
    /// The public key (any of the 36 sets).
    pub key: &'a SpxVerifyingKey,
    /// The message.
    pub message: &'a [u8],
    /// The detached signature.
    pub signature: &'a [u8],
}

/// [`verify_batch`] for SPHINCS+ round-3.1 signatures; public as
/// `sphincs::sphincsplus::verify_batch`.
pub fn verify_batch_spx(items: &[SpxVerifyItem<'_>], threads: usize) -> Vec<Result<(), Error>> {
    verify_batch_spx_until(items, threads, &AtomicBool::new(false))
        .expect("a batch nobody stops runs to the end")
}

/// [`verify_batch_until`] for SPHINCS+ round-3.1 signatures; public as
/// `sphincs::sphincsplus::verify_batch_until`.
pub fn verify_batch_spx_until(
    items: &[SpxVerifyItem<'_>],
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<Result<(), Error>>, Error> {
    let keys: Vec<(SpxAlgorithm, Vec<u8>)> = items
        .iter()
        .map(|it| (it.key.algorithm(), it.key.to_bytes()))
        .collect();
    by_key(&keys, threads, stop, |group, out| {
        let group: Vec<SpxVerifyItem> = group.iter().map(|&i| items[i]).collect();
        group[0].key.verify_same_key(&group, out);
    })
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

impl SpxSigningKey {
    /// [`DynSigningKey::sign_batch`] for a round-3.1 key.
    pub fn sign_batch(
        &self,
        messages: &[&[u8]],
        opts: &SpxSignOptions<'_>,
    ) -> Result<Vec<Vec<u8>>, Error> {
        self.sign_batch_until(messages, opts, &AtomicBool::new(false))
    }

    /// [`DynSigningKey::sign_batch_until`] for a round-3.1 key.
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

/// Signs `count` messages with `sign(index, threads_for_that_signature)`,
/// choosing between signatures side by side and threads inside each.
fn sign_many(
    count: usize,
    threads: usize,
    stop: &AtomicBool,
    sign: impl Fn(usize, usize) -> Result<Vec<u8>, Error> + Sync,
) -> Result<Vec<Vec<u8>>, Error> {
    let threads = threads.max(1);
    let results = if count >= threads {
        parallel_map_until(count, threads, stop, |i| sign(i, 1))
    } else {
        // Fewer messages than threads: every signature at once, the threads
        // shared out as evenly as they go (the first ones get the remainder).
        parallel_map_until(count, count, stop, |i| {
            sign(i, threads / count + usize::from(i < threads % count))
        })
    };
    results.ok_or(Error::Cancelled)?.into_iter().collect()
}

/// `f(0..count)` over up to `threads` scoped threads (the caller is one of
/// them), each taking the next index from a shared counter. A forced hash
/// backend ([`with_backend`]) carries over to the spawned threads.
pub(crate) fn parallel_map<T: Send>(
    count: usize,
    threads: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    parallel_map_until(count, threads, &AtomicBool::new(false), f)
        .expect("a map nobody stops runs to the end")
}

/// [`parallel_map`] that stops taking indices once `stop` is set: `None`
/// if it was set before every index was taken.
pub(crate) fn parallel_map_until<T: Send>(
    count: usize,
    threads: usize,
    stop: &AtomicBool,
    f: impl Fn(usize) -> T + Sync,
) -> Option<Vec<T>> {
    let threads = threads.clamp(1, count.max(1));
    if threads == 1 {
        return (0..count)
            .map(|i| (!stop.load(Ordering::Relaxed)).then(|| f(i)))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<T>>> = (0..count).map(|_| Mutex::new(None)).collect();
    let work = || loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= count {
            break;
        }
        let out = f(i);
        *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(out);
    };
    let backend = forced_backend();
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(|| match backend {
                // The caller's forced backend was available there, so it is here.
                Some(b) => with_backend(b, work).unwrap_or(()),
                None => work(),
            });
        }
        work();
    });
    // Every slot is filled unless `stop` ended the loop early.
    slots
        .into_iter()
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}
