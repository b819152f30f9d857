//! The one implementation behind every key class. The per-family classes
//! (`SLHDSAPrivateKey`, `SpxPrivateKey`, `Sphincs256PrivateKey` and their
//! public keys) extend the bases of `key_base.rs`, which hold the core's
//! `AnySigningKey` / `AnyVerifyingKey`; their own methods keep each
//! family's Python signatures and hand every call here. What a family
//! lacks is the core's `Error::Unsupported`.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;
use sphincs::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey, KeyOpener, MemoryTreeCache};
use sphincs::{Error, MessageSource, PreHash};

use crate::args::{self, SignArgs};
use crate::errors::{detached, to_py};
use crate::interrupt::interruptible;
use crate::stream::Streamed;

/// A key build reports no progress to Python.
fn quiet(_: usize, _: usize) {}

/// A fresh key from the operating system's randomness; Ctrl-C stops the
/// tree build of a draft SP 800-230 set.
pub fn generate(py: Python<'_>, alg: AnyAlgorithm, threads: usize) -> PyResult<AnySigningKey> {
    interruptible(py, |stop| {
        AnySigningKey::generate_until(alg, threads, &quiet, stop)
    })
}

/// A raw private key, its public half checked against its seeds: with a
/// draft SP 800-230 key's saved tree cache at once, else by recomputing
/// (Ctrl-C stops that).
pub fn from_private_bytes(
    py: Python<'_>,
    alg: AnyAlgorithm,
    data: &Bound<'_, PyAny>,
    tree_cache: Option<&Bound<'_, PyAny>>,
    threads: usize,
) -> PyResult<AnySigningKey> {
    let data = args::bytes(data, "data")?;
    // Given, a cache must serve: it is used or refused, never recomputed.
    let mut store = args::opt_bytes(tree_cache, "tree_cache")?
        .map(|cache| MemoryTreeCache::required(cache.to_vec()));
    interruptible(py, |stop| {
        let mut opener = KeyOpener::new(Some(alg))
            .with_threads(threads)
            .with_stop(stop);
        if let Some(store) = store.as_mut() {
            opener = opener.with_tree_cache(store);
        }
        Ok(opener.open_raw_signing_key(&data)?.key)
    })
}

/// The key of three seeds `SK.seed`, `SK.prf`, `PK.seed`, each checked.
pub fn from_seeds(
    py: Python<'_>,
    alg: AnyAlgorithm,
    seeds: [&Bound<'_, PyAny>; 3],
    threads: usize,
) -> PyResult<AnySigningKey> {
    let [a, b, c] = seeds;
    let (a, b, c) = (
        args::bytes(a, "sk_seed")?,
        args::bytes(b, "sk_prf")?,
        args::bytes(c, "pk_seed")?,
    );
    interruptible(py, |stop| {
        AnySigningKey::from_seeds_until(alg, [&a, &b, &c], threads, &quiet, stop)
    })
}

/// The key of one joined seed (the reference code's `crypto_sign_seed_keypair`).
pub fn from_seed(
    py: Python<'_>,
    alg: AnyAlgorithm,
    seed: &Bound<'_, PyAny>,
    threads: usize,
) -> PyResult<AnySigningKey> {
    let seed = args::bytes(seed, "seed")?;
    detached(py, || AnySigningKey::from_seed(alg, &seed, threads))
}

/// A raw public key.
pub fn from_public_bytes(alg: AnyAlgorithm, data: &Bound<'_, PyAny>) -> PyResult<AnyVerifyingKey> {
    let data = args::bytes(data, "data")?;
    AnyVerifyingKey::from_bytes(alg, &data).map_err(to_py)
}

/// Bytes for Python.
pub fn py_bytes<'py>(py: Python<'py>, b: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, b)
}

/// What a signing or verifying call reads: a byte string, a file (a path
/// or a binary file object, read in bounded memory), or a byte string to
/// sign attached (SUPERCOP's `crypto_sign`: signature ‖ data).
pub enum Message<'a, 'py> {
    Bytes(&'a Bound<'py, PyAny>),
    File(&'a Bound<'py, PyAny>),
    Attached(&'a Bound<'py, PyAny>),
}

/// The signature of `msg` (for [`Message::Attached`], signature ‖ data),
/// made without the GIL.
pub fn sign<'py>(
    py: Python<'py>,
    key: &AnySigningKey,
    msg: Message<'_, 'py>,
    a: &SignArgs,
) -> PyResult<Bound<'py, PyBytes>> {
    let opts = a.options();
    let out = match msg {
        Message::File(file) => Streamed::run(py, file, |src| key.sign_stream(src, &opts))?,
        Message::Bytes(data) | Message::Attached(data) => {
            let attached = matches!(msg, Message::Attached(_));
            let data = args::bytes(data, "data")?;
            detached(py, || {
                if attached {
                    key.sign_attached(&data, &opts)
                } else {
                    key.sign(&data, &opts)
                }
            })?
        }
    };
    Ok(py_bytes(py, &out))
}

/// The signatures of every message, in order ([`crate::run_batch`]).
pub fn sign_many<'py>(
    py: Python<'py>,
    key: &AnySigningKey,
    messages: &Bound<'py, PyAny>,
    a: &SignArgs,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let msgs = crate::run_batch::messages(messages)?;
    let sigs = crate::run_batch::sign_many(py, key, &msgs, &a.options())?;
    Ok(sigs.iter().map(|s| py_bytes(py, s)).collect())
}

/// `slh_sign_internal` on M' as given (`randomness`: `addrnd`, or None).
pub fn sign_internal<'py>(
    py: Python<'py>,
    key: &AnySigningKey,
    message: &Bound<'py, PyAny>,
    randomness: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let m = args::bytes(message, "message")?;
    let r = args::opt_bytes(randomness, "randomness")?;
    let sig = detached(py, || key.sign_internal(&m, r.as_deref()))?;
    Ok(py_bytes(py, &sig))
}

/// The arguments every verification shares, held without the GIL.
struct VerifyArgs {
    signature: PyBackedBytes,
    context: Option<PyBackedBytes>,
    prehash: Option<PreHash>,
}

impl VerifyArgs {
    fn new(
        signature: &Bound<'_, PyAny>,
        context: Option<&Bound<'_, PyAny>>,
        prehash: Option<&str>,
    ) -> PyResult<Self> {
        Ok(VerifyArgs {
            signature: args::bytes(signature, "signature")?,
            context: args::opt_bytes(context, "context")?,
            prehash: args::prehash(prehash)?,
        })
    }

    fn check(&self, key: &AnyVerifyingKey, msg: &mut dyn MessageSource) -> Result<(), Error> {
        let ctx = self.context.as_deref().unwrap_or_default();
        key.verify_stream(msg, &self.signature, ctx, self.prehash)
    }
}

/// Checks a signature of `msg` (bytes or a file, read once): None, or
/// `InvalidSignature`.
pub fn verify(
    py: Python<'_>,
    key: &AnyVerifyingKey,
    signature: &Bound<'_, PyAny>,
    msg: Message<'_, '_>,
    context: Option<&Bound<'_, PyAny>>,
    prehash: Option<&str>,
) -> PyResult<()> {
    let a = VerifyArgs::new(signature, context, prehash)?;
    match msg {
        Message::File(file) => Streamed::run(py, file, |src| a.check(key, src)),
        Message::Bytes(data) | Message::Attached(data) => {
            let data = args::bytes(data, "data")?;
            detached(py, || a.check(key, &mut &data[..]))
        }
    }
}

/// SUPERCOP's `crypto_sign_open`: the message of `signed` once it checks out.
pub fn open<'py>(
    py: Python<'py>,
    key: &AnyVerifyingKey,
    signed: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let sm = args::bytes(signed, "signed")?;
    let msg_at = detached(py, || key.open(&sm).map(|m| sm.len() - m.len()))?;
    Ok(py_bytes(py, &sm[msg_at..]))
}

/// `slh_verify_internal` on M' as given: True or False.
pub fn verify_internal(
    py: Python<'_>,
    key: &AnyVerifyingKey,
    message: &Bound<'_, PyAny>,
    signature: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    let m = args::bytes(message, "message")?;
    let sig = args::bytes(signature, "signature")?;
    detached(py, || key.verify_internal(&m, &sig))
}
