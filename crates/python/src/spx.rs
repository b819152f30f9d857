//! `SpxPrivateKey` and `SpxPublicKey`: SPHINCS+ round 3.1 (the 36 sets of
//! the NIST submission), shells over the core's `AnySigningKey` /
//! `AnyVerifyingKey` (the shared bodies are `key_base.rs` and `keys.rs`).
//! Raw keys only (no OID exists for these sets) and no context string.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sphincs::any::{AnyAlgorithm, Family};

use crate::args::{self, SignArgs};
use crate::key_base::{new_private, new_public, signing_key, verifying_key};
use crate::key_base::{PrivateKey, PublicKey};
use crate::keys::{self, Message};

/// The round-3.1 set an argument names.
fn round3(obj: &Bound<'_, PyAny>) -> PyResult<AnyAlgorithm> {
    args::algorithm(obj, Family::SphincsPlus)
}

/// The signing arguments round 3.1 has: no context, no pre-hash.
fn sign_args(
    deterministic: bool,
    randomness: Option<&Bound<'_, PyAny>>,
    threads: usize,
    fault_hardened: bool,
) -> PyResult<SignArgs> {
    SignArgs::new(
        None,
        None,
        deterministic,
        randomness,
        threads,
        fault_hardened,
    )
}

/// A SPHINCS+ round-3.1 private key, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`
/// as the reference code, PQClean, liboqs and PySPX store it.
#[pyclass(module = "sphincs", extends = PrivateKey, frozen)]
#[derive(Default)]
pub struct SpxPrivateKey;

/// A SPHINCS+ round-3.1 public key, `PK.seed ‖ PK.root`.
#[pyclass(module = "sphincs", extends = PublicKey, frozen)]
#[derive(Default)]
pub struct SpxPublicKey;

#[pymethods]
impl SpxPrivateKey {
    /// A fresh key from the operating system's randomness (`crypto_sign_keypair`).
    #[staticmethod]
    #[pyo3(signature = (algorithm, *, threads=None))]
    fn generate<'py>(
        py: Python<'py>,
        algorithm: &Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, Self>> {
        let inner = keys::generate(py, round3(algorithm)?, args::threads(threads)?)?;
        new_private(py, inner)
    }

    /// Loads a raw private key (4n bytes), checking PK.root against the seeds.
    #[staticmethod]
    fn from_private_bytes<'py>(
        py: Python<'py>,
        algorithm: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let inner = keys::from_private_bytes(py, round3(algorithm)?, data, None, 1)?;
        new_private(py, inner)
    }

    /// The reference code's `crypto_sign_seed_keypair`: the key of the 3n
    /// bytes `SK.seed ‖ SK.prf ‖ PK.seed`.
    #[staticmethod]
    #[pyo3(signature = (algorithm, seed, *, threads=None))]
    fn from_seed<'py>(
        py: Python<'py>,
        algorithm: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, Self>> {
        let alg = round3(algorithm)?;
        new_private(py, keys::from_seed(py, alg, seed, args::threads(threads)?)?)
    }

    /// Signs `data` (the reference code's `crypto_sign_signature`): a detached
    /// signature. Options as `SLHDSAPrivateKey.sign` (no context or pre-hash
    /// in round 3.1).
    #[pyo3(signature = (data, *, deterministic=false, threads=None, randomness=None, fault_hardened=false))]
    fn sign<'py>(
        slf: &Bound<'py, Self>,
        data: &Bound<'py, PyAny>,
        deterministic: bool,
        threads: Option<i64>,
        randomness: Option<&Bound<'py, PyAny>>,
        fault_hardened: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let threads = args::threads(threads)?;
        let a = sign_args(deterministic, randomness, threads, fault_hardened)?;
        keys::sign(slf.py(), signing_key(slf), Message::Bytes(data), &a)
    }

    /// Signs a file (a path or a binary file object) in bounded memory.
    #[pyo3(signature = (file, *, deterministic=false, threads=None, randomness=None, fault_hardened=false))]
    fn sign_file<'py>(
        slf: &Bound<'py, Self>,
        file: &Bound<'py, PyAny>,
        deterministic: bool,
        threads: Option<i64>,
        randomness: Option<&Bound<'py, PyAny>>,
        fault_hardened: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let threads = args::threads(threads)?;
        let a = sign_args(deterministic, randomness, threads, fault_hardened)?;
        keys::sign(slf.py(), signing_key(slf), Message::File(file), &a)
    }

    /// Signs each message; the batch runs in Rust without the GIL on
    /// `threads` threads (default: every core).
    #[pyo3(signature = (messages, *, deterministic=false, threads=None, fault_hardened=false))]
    fn sign_many<'py>(
        slf: &Bound<'py, Self>,
        messages: &Bound<'py, PyAny>,
        deterministic: bool,
        threads: Option<i64>,
        fault_hardened: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let threads = args::batch_threads(threads)?;
        let a = sign_args(deterministic, None, threads, fault_hardened)?;
        keys::sign_many(slf.py(), signing_key(slf), messages, &a)
    }

    /// The public key.
    fn public_key<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, SpxPublicKey>> {
        new_public(slf.py(), signing_key(slf).verifying_key())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        format!("<SpxPrivateKey {}>", signing_key(slf).algorithm())
    }
}

#[pymethods]
impl SpxPublicKey {
    /// Loads a raw public key, `PK.seed ‖ PK.root` (2n bytes).
    #[staticmethod]
    fn from_public_bytes<'py>(
        algorithm: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        new_public(
            data.py(),
            keys::from_public_bytes(round3(algorithm)?, data)?,
        )
    }

    /// Verifies a signature of a file (a path or a binary file object).
    fn verify_file(
        slf: &Bound<'_, Self>,
        signature: &Bound<'_, PyAny>,
        file: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        keys::verify(
            slf.py(),
            verifying_key(slf),
            signature,
            Message::File(file),
            None,
            None,
        )
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        format!("<SpxPublicKey {}>", verifying_key(slf).algorithm())
    }
}
