//! `SpxPrivateKey` and `SpxPublicKey`: SPHINCS+ round 3.1 (the 36 sets of
//! the NIST submission), shells over the core's `AnySigningKey` /
//! `AnyVerifyingKey` (the shared body is `keys.rs`). Raw keys only (no OID
//! exists for these sets) and no context string.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sphincs::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey, Family};

use crate::args::{self, SignArgs};
use crate::errors::to_py;
use crate::family::algorithm_member;
use crate::keys::{self, py_bytes, PublicKeyClass};

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
#[pyclass(module = "sphincs", frozen)]
pub struct SpxPrivateKey {
    pub inner: AnySigningKey,
}

/// A SPHINCS+ round-3.1 public key, `PK.seed ‖ PK.root`.
#[pyclass(module = "sphincs", frozen)]
pub struct SpxPublicKey {
    pub inner: AnyVerifyingKey,
}

impl PublicKeyClass for SpxPublicKey {
    fn key(&self) -> &AnyVerifyingKey {
        &self.inner
    }
}

#[pymethods]
impl SpxPrivateKey {
    /// A fresh key from the operating system's randomness (`crypto_sign_keypair`).
    #[staticmethod]
    #[pyo3(signature = (algorithm, *, threads=None))]
    fn generate(
        py: Python<'_>,
        algorithm: &Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Self> {
        let inner = keys::generate(py, round3(algorithm)?, args::threads(threads)?)?;
        Ok(SpxPrivateKey { inner })
    }

    /// Loads a raw private key (4n bytes), checking PK.root against the seeds.
    #[staticmethod]
    fn from_private_bytes(
        py: Python<'_>,
        algorithm: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let inner = keys::from_private_bytes(py, round3(algorithm)?, data, None, 1)?;
        Ok(SpxPrivateKey { inner })
    }

    /// The reference code's `crypto_sign_seed_keypair`: the key of the 3n
    /// bytes `SK.seed ‖ SK.prf ‖ PK.seed`.
    #[staticmethod]
    #[pyo3(signature = (algorithm, seed, *, threads=None))]
    fn from_seed(
        py: Python<'_>,
        algorithm: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Self> {
        let alg = round3(algorithm)?;
        let inner = keys::from_seed(py, alg, seed, args::threads(threads)?)?;
        Ok(SpxPrivateKey { inner })
    }

    /// The parameter set, a `sphincs.SpxAlgorithm`.
    #[getter]
    fn algorithm<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        algorithm_member(py, self.inner.algorithm())
    }

    /// Signs `data` (the reference code's `crypto_sign_signature`): a detached
    /// signature. Options as `SLHDSAPrivateKey.sign` (no context or pre-hash
    /// in round 3.1).
    #[pyo3(signature = (data, *, deterministic=false, threads=None, randomness=None, fault_hardened=false))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        deterministic: bool,
        threads: Option<i64>,
        randomness: Option<&Bound<'py, PyAny>>,
        fault_hardened: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let threads = args::threads(threads)?;
        let a = sign_args(deterministic, randomness, threads, fault_hardened)?;
        keys::sign(py, &self.inner, data, &a)
    }

    /// Signs a file (a path or a binary file object) in bounded memory.
    #[pyo3(signature = (file, *, deterministic=false, threads=None, randomness=None, fault_hardened=false))]
    fn sign_file<'py>(
        &self,
        py: Python<'py>,
        file: &Bound<'py, PyAny>,
        deterministic: bool,
        threads: Option<i64>,
        randomness: Option<&Bound<'py, PyAny>>,
        fault_hardened: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let threads = args::threads(threads)?;
        let a = sign_args(deterministic, randomness, threads, fault_hardened)?;
        keys::sign_file(py, &self.inner, file, &a)
    }

    /// Signs each message; the batch runs in Rust without the GIL on
    /// `threads` threads (default: every core).
    #[pyo3(signature = (messages, *, deterministic=false, threads=None, fault_hardened=false))]
    fn sign_many<'py>(
        &self,
        py: Python<'py>,
        messages: &Bound<'py, PyAny>,
        deterministic: bool,
        threads: Option<i64>,
        fault_hardened: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let threads = args::batch_threads(threads)?;
        let a = sign_args(deterministic, None, threads, fault_hardened)?;
        keys::sign_many(py, &self.inner, messages, &a)
    }

    /// The public key.
    fn public_key(&self) -> SpxPublicKey {
        SpxPublicKey {
            inner: self.inner.verifying_key(),
        }
    }

    /// The raw private key (4n bytes).
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        py_bytes(py, &self.inner.to_bytes())
    }

    fn __repr__(&self) -> String {
        format!("<SpxPrivateKey {}>", self.inner.algorithm())
    }
}

#[pymethods]
impl SpxPublicKey {
    /// Loads a raw public key, `PK.seed ‖ PK.root` (2n bytes).
    #[staticmethod]
    fn from_public_bytes(algorithm: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let inner = keys::from_public_bytes(round3(algorithm)?, data)?;
        Ok(SpxPublicKey { inner })
    }

    /// The parameter set, a `sphincs.SpxAlgorithm`.
    #[getter]
    fn algorithm<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        algorithm_member(py, self.inner.algorithm())
    }

    /// Verifies a detached signature: None, or `sphincs.InvalidSignature`.
    fn verify(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        keys::verify(py, &self.inner, signature, data, None, None)
    }

    /// Verifies a signature of a file (a path or a binary file object).
    fn verify_file(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        file: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        keys::verify_file(py, &self.inner, signature, file, None, None)
    }

    /// The key's fingerprint, `SHA256:` and 64 hex digits: the SHA-256 of
    /// the raw public key (as `sphincs fingerprint -a ALG` prints it).
    fn fingerprint(&self) -> PyResult<String> {
        self.inner.fingerprint().map_err(to_py)
    }

    /// The raw public key (2n bytes).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        py_bytes(py, &self.inner.to_bytes())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        keys::equal::<Self>(&self.inner, other)
    }

    fn __hash__(&self) -> u64 {
        keys::hash(&self.inner)
    }

    fn __repr__(&self) -> String {
        format!("<SpxPublicKey {}>", self.inner.algorithm())
    }
}
