//! `sign_many` of the key classes: the batch runs without the GIL through
//! [`interruptible`] (Ctrl-C stops it within about a signature's time and
//! raises `KeyboardInterrupt`). `verify_many`, which takes any key class, is
//! `batch.rs`.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use sphincs::any::AnySigningKey;
use sphincs::SignOptions;

use crate::args;
use crate::interrupt::interruptible;

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
