//! `SpxPrivateKey` and `SpxPublicKey`: SPHINCS+ round 3.1 (the 36 sets of
//! the NIST submission), the core's `SpxSigningKey` and `SpxVerifyingKey`.
//! Raw keys only (no OID exists for these sets) and no context string.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyType};
use sphincs::any::AnySigningKey;
use sphincs::sphincsplus::{SpxAlgorithm, SpxSignOptions, SpxSigningKey, SpxVerifyingKey};
use sphincs::SignOptions;

use crate::args;
use crate::errors::{detached, to_py};
use crate::stream::Streamed;

fn algorithm_member(py: Python<'_>, alg: SpxAlgorithm) -> PyResult<Bound<'_, PyAny>> {
    static ENUM: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    ENUM.import(py, "sphincs", "SpxAlgorithm")?
        .call1((alg.name(),))
}

struct SpxArgs {
    deterministic: bool,
    randomness: Option<PyBackedBytes>,
    threads: usize,
    fault_hardened: bool,
}

impl SpxArgs {
    fn new(
        deterministic: bool,
        randomness: Option<&Bound<'_, PyAny>>,
        threads: usize,
        fault_hardened: bool,
    ) -> PyResult<Self> {
        let a = SpxArgs {
            deterministic,
            randomness: args::opt_bytes(randomness, "randomness")?,
            threads,
            fault_hardened,
        };
        args::randomness(a.deterministic, a.randomness.as_ref())?;
        Ok(a)
    }

    fn options(&self) -> SpxSignOptions<'_> {
        SpxSignOptions {
            // The combination was checked in `new`.
            randomness: args::randomness(self.deterministic, self.randomness.as_ref())
                .unwrap_or_default(),
            threads: self.threads,
            fault_hardened: self.fault_hardened,
        }
    }
}

/// A SPHINCS+ round-3.1 private key, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`
/// as the reference code, PQClean, liboqs and PySPX store it.
#[pyclass(module = "sphincs", frozen)]
pub struct SpxPrivateKey {
    pub inner: SpxSigningKey,
}

/// A SPHINCS+ round-3.1 public key, `PK.seed ‖ PK.root`.
#[pyclass(module = "sphincs", frozen)]
pub struct SpxPublicKey {
    pub inner: SpxVerifyingKey,
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
        let alg = args::spx_algorithm(algorithm)?;
        let threads = args::threads(threads)?;
        let inner = detached(py, || SpxSigningKey::generate_with_threads(alg, threads))?;
        Ok(SpxPrivateKey { inner })
    }

    /// Loads a raw private key (4n bytes), checking PK.root against the seeds.
    #[staticmethod]
    fn from_private_bytes(
        py: Python<'_>,
        algorithm: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let alg = args::spx_algorithm(algorithm)?;
        let data = args::bytes(data, "data")?;
        let inner = detached(py, || SpxSigningKey::from_bytes(alg, &data))?;
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
        let alg = args::spx_algorithm(algorithm)?;
        let seed = args::bytes(seed, "seed")?;
        let threads = args::threads(threads)?;
        let inner = detached(py, || {
            SpxSigningKey::from_seed_with_threads(alg, &seed, threads)
        })?;
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
        let data = args::bytes(data, "data")?;
        let a = SpxArgs::new(
            deterministic,
            randomness,
            args::threads(threads)?,
            fault_hardened,
        )?;
        let sig = detached(py, || self.inner.sign(&data, &a.options()))?;
        Ok(PyBytes::new(py, &sig))
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
        let a = SpxArgs::new(
            deterministic,
            randomness,
            args::threads(threads)?,
            fault_hardened,
        )?;
        let sig = Streamed::run(py, file, |src| self.inner.sign_stream(src, &a.options()))?;
        Ok(PyBytes::new(py, &sig))
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
        let msgs = crate::run_batch::messages(messages)?;
        let a = SpxArgs::new(
            deterministic,
            None,
            args::batch_threads(threads)?,
            fault_hardened,
        )?;
        let o = a.options();
        let opts = SignOptions {
            randomness: o.randomness,
            threads: o.threads,
            fault_hardened: o.fault_hardened,
            ..SignOptions::default()
        };
        let key = AnySigningKey::from(self.inner.clone());
        let sigs = crate::run_batch::sign_many(py, &key, &msgs, &opts)?;
        Ok(sigs.iter().map(|s| PyBytes::new(py, s)).collect())
    }

    /// The public key.
    fn public_key(&self) -> SpxPublicKey {
        SpxPublicKey {
            inner: self.inner.verifying_key(),
        }
    }

    /// The raw private key (4n bytes).
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
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
        let alg = args::spx_algorithm(algorithm)?;
        let data = args::bytes(data, "data")?;
        let inner = SpxVerifyingKey::from_bytes(alg, &data).map_err(to_py)?;
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
        let sig = args::bytes(signature, "signature")?;
        let data = args::bytes(data, "data")?;
        detached(py, || self.inner.verify(&data, &sig))
    }

    /// Verifies a signature of a file (a path or a binary file object).
    fn verify_file(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        file: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let sig = args::bytes(signature, "signature")?;
        Streamed::run(py, file, |src| self.inner.verify_stream(src, &sig))
    }

    /// The key's fingerprint, `SHA256:` and 64 hex digits: the SHA-256 of
    /// the raw public key (as `sphincs fingerprint -a ALG` prints it).
    fn fingerprint(&self) -> String {
        self.inner.fingerprint()
    }

    /// The raw public key (2n bytes).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<SpxPublicKey>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        Hash::hash(&self.inner.algorithm(), &mut h);
        self.inner.to_bytes().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!("<SpxPublicKey {}>", self.inner.algorithm())
    }
}
