//! `sign_many` / `verify_many`: Python batches handed to the core's batch
//! API in one call, without the GIL, on a thread of their own while the
//! calling thread watches for signals (Ctrl-C stops the batch within about
//! a signature's time and raises `KeyboardInterrupt`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use sphincs::sphincsplus::{self, SpxSignOptions, SpxSigningKey, SpxVerifyItem, SpxVerifyingKey};
use sphincs::{
    verify_batch_until, DynSigningKey, DynVerifyingKey, Error, PreHash, SignOptions, VerifyItem,
};

use crate::args;
use crate::errors::{is_invalid_signature, no_panic, to_py};
use crate::slh_dsa::SLHDSAPublicKey;
use crate::spx::SpxPublicKey;

/// Every message of an iterable, held without the GIL.
pub fn messages(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PyBackedBytes>> {
    obj.try_iter()?
        .enumerate()
        .map(|(i, m)| args::bytes(&m?, &format!("messages[{i}]")))
        .collect()
}

fn slices(msgs: &[PyBackedBytes]) -> Vec<&[u8]> {
    msgs.iter().map(|m| &m[..]).collect()
}

/// How often the calling thread looks for a signal while a batch runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `job` without the GIL on a thread of its own, while this thread
/// runs Python's signal handlers every [`SIGNAL_POLL`]. If one raises (Ctrl-C:
/// `KeyboardInterrupt`), the job's `stop` flag is set, so that it starts no
/// further item, and once the items under way are done the handler's
/// exception is raised. Nothing is returned half-done.
fn interruptible<T: Send>(
    py: Python<'_>,
    job: impl FnOnce(&AtomicBool) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let mut raised: Option<PyErr> = None;
    let result = py.detach(|| {
        std::thread::scope(|s| {
            let (done_tx, done_rx) = mpsc::channel::<()>();
            let stop = &stop;
            let worker = s.spawn(move || {
                let r = no_panic(|| job(stop).map_err(to_py));
                let _ = done_tx.send(());
                r
            });
            loop {
                match done_rx.recv_timeout(SIGNAL_POLL) {
                    Err(mpsc::RecvTimeoutError::Timeout) if raised.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            raised = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => break,
                }
            }
            worker.join()
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    result.unwrap_or_else(|_| {
        Err(PyRuntimeError::new_err(
            "internal error: the batch panicked",
        ))
    })
}

/// Signs every message with `opts` through the core's batch API
/// (`opts.threads` is the budget of the whole batch), stopping on Ctrl-C.
pub fn sign_many(
    py: Python<'_>,
    key: &DynSigningKey,
    msgs: &[PyBackedBytes],
    opts: &SignOptions<'_>,
) -> PyResult<Vec<Vec<u8>>> {
    let msgs = slices(msgs);
    interruptible(py, |stop| key.sign_batch_until(&msgs, opts, stop))
}

/// [`sign_many`] for a SPHINCS+ round-3.1 key.
pub fn spx_sign_many(
    py: Python<'_>,
    key: &SpxSigningKey,
    msgs: &[PyBackedBytes],
    opts: &SpxSignOptions<'_>,
) -> PyResult<Vec<Vec<u8>>> {
    let msgs = slices(msgs);
    interruptible(py, |stop| key.sign_batch_until(&msgs, opts, stop))
}

enum Key {
    Slh(DynVerifyingKey),
    Spx(SpxVerifyingKey),
}

struct Item {
    key: Key,
    signature: PyBackedBytes,
    data: PyBackedBytes,
    context: Option<PyBackedBytes>,
    prehash: Option<PreHash>,
}

fn item(i: usize, obj: &Bound<'_, PyAny>) -> PyResult<Item> {
    let fields: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .and_then(|it| it.collect::<PyResult<_>>())
        .ok()
        .filter(|f: &Vec<_>| (3..=5).contains(&f.len()))
        .ok_or_else(|| {
            PyTypeError::new_err(format!(
                "items[{i}] must be a (public_key, signature, data[, context[, prehash]]) tuple"
            ))
        })?;
    let key = if let Ok(k) = fields[0].cast::<SLHDSAPublicKey>() {
        Key::Slh(k.get().inner)
    } else if let Ok(k) = fields[0].cast::<SpxPublicKey>() {
        Key::Spx(k.get().inner)
    } else {
        return Err(PyTypeError::new_err(format!(
            "items[{i}][0] must be an SLHDSAPublicKey or SpxPublicKey"
        )));
    };
    let context = args::opt_bytes(fields.get(3), &format!("items[{i}] context"))?;
    let prehash = match fields.get(4) {
        Some(p) if !p.is_none() => {
            let name: String = p.extract().map_err(|_| {
                PyTypeError::new_err(format!("items[{i}] prehash must be a str or None"))
            })?;
            args::prehash(Some(&name))?
        }
        _ => None,
    };
    if matches!(key, Key::Spx(_))
        && (context.as_ref().is_some_and(|c| !c.is_empty()) || prehash.is_some())
    {
        return Err(PyValueError::new_err(format!(
            "items[{i}]: SPHINCS+ round 3.1 has no context string or pre-hash; pass None"
        )));
    }
    Ok(Item {
        key,
        signature: args::bytes(&fields[1], &format!("items[{i}] signature"))?,
        data: args::bytes(&fields[2], &format!("items[{i}] data"))?,
        context,
        prehash,
    })
}

/// Verifies a batch of `(public_key, signature, data, context)` tuples
/// (`context` may be left out or None; a fifth element may name a pre-hash):
/// `True` for each valid signature, `False` for each
/// invalid one (wrong length included), in order. Items may mix keys and
/// parameter sets (SLH-DSA and SPHINCS+ round 3.1 alike). An item that is
/// malformed (wrong types, a context over 255 bytes) raises instead.
/// Runs without the GIL on `threads` threads (default: every core).
#[pyfunction]
#[pyo3(signature = (items, *, threads=None))]
pub fn verify_many(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    threads: Option<i64>,
) -> PyResult<Vec<bool>> {
    let items: Vec<Item> = items
        .try_iter()?
        .enumerate()
        .map(|(i, o)| item(i, &o?))
        .collect::<PyResult<_>>()?;
    let threads = args::batch_threads(threads)?;
    let results = interruptible(py, |stop| verify_items(&items, threads, stop))?;
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            Ok(()) => Ok(true),
            Err(e) if is_invalid_signature(&e) => Ok(false),
            Err(e) => Err(PyValueError::new_err(format!("items[{i}]: {e}"))),
        })
        .collect()
}

/// The items through the core's two batch verifiers (FIPS 205 and round
/// 3.1), results put back in the items' order.
fn verify_items(
    items: &[Item],
    threads: usize,
    stop: &AtomicBool,
) -> Result<Vec<Result<(), Error>>, Error> {
    let (mut slh, mut slh_at, mut spx, mut spx_at) = (vec![], vec![], vec![], vec![]);
    for (i, it) in items.iter().enumerate() {
        match &it.key {
            Key::Slh(key) => {
                slh_at.push(i);
                slh.push(VerifyItem {
                    key,
                    message: &it.data,
                    signature: &it.signature,
                    context: it.context.as_deref().unwrap_or_default(),
                    prehash: it.prehash,
                });
            }
            Key::Spx(key) => {
                spx_at.push(i);
                spx.push(SpxVerifyItem {
                    key,
                    message: &it.data,
                    signature: &it.signature,
                });
            }
        }
    }
    let mut out: Vec<Result<(), Error>> = vec![Ok(()); items.len()];
    let slh_results = if slh.is_empty() {
        vec![]
    } else {
        verify_batch_until(&slh, threads, stop)?
    };
    let spx_results = if spx.is_empty() {
        vec![]
    } else {
        sphincsplus::verify_batch_until(&spx, threads, stop)?
    };
    for (i, r) in slh_at
        .into_iter()
        .zip(slh_results)
        .chain(spx_at.into_iter().zip(spx_results))
    {
        out[i] = r;
    }
    Ok(out)
}
