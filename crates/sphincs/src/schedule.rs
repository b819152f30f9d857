//! The thread scheduler every family shares: `parallel_map` hands out
//! indices from a shared counter to scoped threads, `sign_many` chooses between
//! signatures side by side and threads inside each, and `by_key` groups batch
//! items under one key into runs that can be hashed side by side. It knows
//! nothing of keys or parameter sets; callers pass closures.

use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::prelude::*;
use crate::sync::{scope, Mutex};

use crate::error::Error;
use crate::hash::backend::{forced_backend, with_backend};

/// Runs `verify(indices, out)` over runs of items whose `keys` are equal
/// (their hash calls share the key's PK.seed, so they go side by side), runs
/// small enough that every thread gets work and at most `lanes` long, and returns the results in the
/// items' order.
/// [`Error::Cancelled`] if `stop` is raised before every run is done.
pub(crate) fn by_key<K: Ord + Sync>(
    keys: &[K],
    threads: usize,
    lanes: usize,
    stop: &AtomicBool,
    verify: impl Fn(&[usize], &mut [Result<(), Error>]) + Sync,
) -> Result<Vec<Result<(), Error>>, Error> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    let threads = threads.max(1);
    let mut tasks: Vec<&[usize]> = Vec::new();
    for group in order.chunk_by(|&a, &b| keys[a] == keys[b]) {
        let per_thread = group.len().div_ceil(threads);
        tasks.extend(group.chunks(per_thread.clamp(1, lanes)));
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

/// Signs `count` messages with `sign(index, threads_for_that_signature)`,
/// choosing between signatures side by side and threads inside each.
pub(crate) fn sign_many(
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
    scope(|s| {
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
