//! `sign_many` / `verify_many`: Python batches handed to the core's batch
//! API in one call, without the GIL, on a thread of their own while the
//! calling thread watches for signals (Ctrl-C stops the batch within about
//! a signature's time and raises `KeyboardInterrupt`).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use sphincs::any::{self, AnyVerifyItem, AnyVerifyingKey};
use sphincs::PreHash;

use crate::args;
use crate::errors::is_invalid_signature;
use crate::interrupt::interruptible;
use crate::key_base::public_key_of;

struct Item {
    key: AnyVerifyingKey,
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
    let key = public_key_of(&fields[0]).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "items[{i}][0] must be an SLHDSAPublicKey, SpxPublicKey or Sphincs256PublicKey"
        ))
    })?;
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
/// invalid one (wrong length included), in order. Items may mix keys,
/// families and parameter sets (SLH-DSA, SPHINCS+ round 3.1 and SPHINCS-256
/// alike: the core's `any::verify_batch_until`). An item that is malformed
/// (wrong types, a context over 255 bytes, a context or pre-hash its family
/// lacks) raises instead. Runs without the GIL on `threads` threads
/// (default: every core).
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
    let batch: Vec<AnyVerifyItem<'_>> = items
        .iter()
        .map(|it| AnyVerifyItem {
            key: &it.key,
            message: &it.data,
            signature: &it.signature,
            context: it.context.as_deref().unwrap_or_default(),
            prehash: it.prehash,
        })
        .collect();
    let results = interruptible(py, |stop| any::verify_batch_until(&batch, threads, stop))?;
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
