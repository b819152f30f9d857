//! Long core calls that Ctrl-C can stop: a batch, or the tree of a draft
//! SP 800-230 key (a minute or more). The call runs without the GIL on a
//! thread of its own while the calling thread runs Python's signal
//! handlers; a raised `KeyboardInterrupt` sets the core call's `stop` flag
//! (the core checks it between messages and between rounds of tree nodes)
//! and is raised once the core call has returned, so no thread is left
//! running behind Python's back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use sphincs::Error;

use crate::errors::{no_panic, to_py};

/// How often the calling thread looks for a signal while the call runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `job` without the GIL on a thread of its own, while this thread
/// runs Python's signal handlers every [`SIGNAL_POLL`]. If one raises (Ctrl-C:
/// `KeyboardInterrupt`), the job's `stop` flag is set, so that it starts no
/// further item (a batch's message, a round of a key's tree), and once the
/// work under way is done the handler's exception is raised. Nothing is
/// returned half-done.
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
    result.unwrap_or_else(|_| Err(PyRuntimeError::new_err("internal error: the call panicked")))
}
