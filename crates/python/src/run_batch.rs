//! A batch run without the GIL, on a thread of its own while the calling
//! thread watches for signals (Ctrl-C stops the batch within about a
//! signature's time and raises `KeyboardInterrupt`); and `sign_many` of the
//! key classes on top of it. `verify_many`, which takes any key class, is
//! `batch.rs`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use sphincs::any::AnySigningKey;
use sphincs::{Error, SignOptions};

use crate::args;
use crate::errors::{no_panic, to_py};

/// Every message of an iterable, held without the GIL.
pub fn messages(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PyBackedBytes>> {
    obj.try_iter()?
        .enumerate()
        .map(|(i, m)| args::bytes(&m?, &format!("messages[{i}]")))
        .collect()
}

pub fn slices(msgs: &[PyBackedBytes]) -> Vec<&[u8]> {
    msgs.iter().map(|m| &m[..]).collect()
}

/// How often the calling thread looks for a signal while a batch runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `job` without the GIL on a thread of its own, while this thread
/// runs Python's signal handlers every [`SIGNAL_POLL`]. If one raises (Ctrl-C:
/// `KeyboardInterrupt`), the job's `stop` flag is set, so that it starts no
/// further item, and once the items under way are done the handler's
/// exception is raised. Nothing is returned half-done.
pub fn interruptible<T: Send>(
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

/// Signs every message with `opts` through the core's front door
/// (`AnySigningKey::sign_batch_until`, any family; `opts.threads` is the
/// budget of the whole batch), stopping on Ctrl-C.
pub fn sign_many(
    py: Python<'_>,
    key: &AnySigningKey,
    msgs: &[PyBackedBytes],
    opts: &SignOptions<'_>,
) -> PyResult<Vec<Vec<u8>>> {
    let msgs = slices(msgs);
    interruptible(py, |stop| key.sign_batch_until(&msgs, opts, stop))
}
