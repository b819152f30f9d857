//! `sign_many` / `verify_many`: Python batches handed to the core's batch
//! API in one call, without the GIL.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use sphincs::sphincsplus::{SpxSignOptions, SpxSigningKey, SpxVerifyingKey};
use sphincs::{DynSigningKey, DynVerifyingKey, Error, SignOptions};

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

/// Signs every message with `opts`.
// TODO(batch API): call DynSigningKey::sign_batch once it is on main.
pub fn sign_many(
    key: &DynSigningKey,
    msgs: &[PyBackedBytes],
    opts: &SignOptions<'_>,
) -> Result<Vec<Vec<u8>>, Error> {
    msgs.iter().map(|m| key.sign(m, opts)).collect()
}

/// Signs every message with `opts` (SPHINCS+ round 3.1).
pub fn spx_sign_many(
    key: &SpxSigningKey,
    msgs: &[PyBackedBytes],
    opts: &SpxSignOptions<'_>,
) -> Result<Vec<Vec<u8>>, Error> {
    msgs.iter().map(|m| key.sign(m, opts)).collect()
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
}

fn item(i: usize, obj: &Bound<'_, PyAny>) -> PyResult<Item> {
    let fields: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .and_then(|it| it.collect::<PyResult<_>>())
        .ok()
        .filter(|f: &Vec<_>| f.len() == 3 || f.len() == 4)
        .ok_or_else(|| {
            PyTypeError::new_err(format!(
                "items[{i}] must be a (public_key, signature, data, context) tuple (context may be left out)"
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
    if matches!(key, Key::Spx(_)) && context.as_ref().is_some_and(|c| !c.is_empty()) {
        return Err(PyValueError::new_err(format!(
            "items[{i}]: SPHINCS+ round 3.1 has no context string; pass None"
        )));
    }
    Ok(Item {
        key,
        signature: args::bytes(&fields[1], &format!("items[{i}] signature"))?,
        data: args::bytes(&fields[2], &format!("items[{i}] data"))?,
        context,
    })
}

/// Verifies a batch: `True` for each valid signature, `False` for each
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
    let results = py.detach(|| no_panic(|| Ok(verify_items(&items, threads))))?;
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            Ok(()) => Ok(true),
            Err(e) if is_invalid_signature(&e) => Ok(false),
            Err(e) => Err(PyValueError::new_err(format!("items[{i}]: {}", to_py(e)))),
        })
        .collect()
}

// TODO(batch API): sphincs::verify_batch / sphincsplus::verify_batch once on main.
fn verify_items(items: &[Item], _threads: usize) -> Vec<Result<(), Error>> {
    items
        .iter()
        .map(|it| match &it.key {
            Key::Slh(k) => k.verify(
                &it.data,
                &it.signature,
                it.context.as_deref().unwrap_or_default(),
                None,
            ),
            Key::Spx(k) => k.verify(&it.data, &it.signature),
        })
        .collect()
}
