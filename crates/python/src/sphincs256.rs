//! `Sphincs256PrivateKey` and `Sphincs256PublicKey`: SPHINCS-256, the 2015
//! scheme, the core's `Sphincs256SigningKey` and `Sphincs256VerifyingKey`.
//! Raw SUPERCOP keys only (no OID exists), deterministic signatures, no
//! context or pre-hash.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sphincs::any::AnySigningKey;
use sphincs::sphincs256::{params, Sphincs256SigningKey, Sphincs256VerifyingKey, ALGORITHM};
use sphincs::SignOptions;

use crate::args;
use crate::errors::{detached, to_py};

/// A SPHINCS-256 private key: the 1088 bytes `SK1 ‖ Q ‖ SK2` of the SUPERCOP
/// reference (any 1088 bytes are a key). Signing releases the GIL.
#[pyclass(module = "sphincs", frozen)]
pub struct Sphincs256PrivateKey {
    inner: Sphincs256SigningKey,
}

/// A SPHINCS-256 public key: the 1056 bytes `Q ‖ PK1`. Verification
/// releases the GIL. Keys compare and hash by their bytes.
#[pyclass(module = "sphincs", frozen)]
pub struct Sphincs256PublicKey {
    pub inner: Sphincs256VerifyingKey,
}

#[pymethods]
impl Sphincs256PrivateKey {
    /// The scheme's name, "sphincs-256" (as the CLI's `-a`).
    #[classattr]
    fn algorithm() -> &'static str {
        ALGORITHM
    }

    /// Public key bytes (1056), from the core's parameters.
    #[classattr]
    fn public_key_size() -> usize {
        params::PK_BYTES
    }

    /// Private key bytes (1088).
    #[classattr]
    fn private_key_size() -> usize {
        params::SK_BYTES
    }

    /// Signature bytes (41000).
    #[classattr]
    fn signature_size() -> usize {
        params::SIG_BYTES
    }

    /// A fresh key: 1088 bytes of the operating system's randomness, as
    /// `crypto_sign_keypair` (building its top subtree, without the GIL).
    #[staticmethod]
    fn generate(py: Python<'_>) -> PyResult<Self> {
        let inner = detached(py, Sphincs256SigningKey::generate)?;
        Ok(Sphincs256PrivateKey { inner })
    }

    /// The key of the 1088 bytes `SK1 ‖ Q ‖ SK2`; `ValueError` for another length.
    #[staticmethod]
    fn from_private_bytes(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = args::bytes(data, "data")?;
        let inner = detached(py, || Sphincs256SigningKey::from_bytes(&data))?;
        Ok(Sphincs256PrivateKey { inner })
    }

    /// The 41000-byte detached signature of `data`, deterministic as the
    /// reference; `threads` spreads it over that many threads (default: the
    /// calling thread), the same bytes for any count.
    #[pyo3(signature = (data, *, threads=None))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let data = args::bytes(data, "data")?;
        let threads = args::threads(threads)?;
        let sig = detached(py, || Ok(self.inner.sign_with_threads(&data, threads)))?;
        Ok(PyBytes::new(py, &sig))
    }

    /// SUPERCOP's `crypto_sign`: signature ‖ data. Options as `sign`.
    #[pyo3(signature = (data, *, threads=None))]
    fn sign_attached<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let data = args::bytes(data, "data")?;
        let threads = args::threads(threads)?;
        let sm = detached(py, || Ok(self.inner.sign_attached(&data, threads)))?;
        Ok(PyBytes::new(py, &sm))
    }

    /// Signs each message (deterministic, as `sign`); the batch runs in
    /// Rust without the GIL on `threads` threads (default: every core) and
    /// Ctrl-C stops it. The signatures equal signing one by one.
    #[pyo3(signature = (messages, *, threads=None))]
    fn sign_many<'py>(
        &self,
        py: Python<'py>,
        messages: &Bound<'py, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let msgs = crate::run_batch::messages(messages)?;
        let opts = SignOptions {
            threads: args::batch_threads(threads)?,
            ..SignOptions::default()
        };
        let key = AnySigningKey::from(self.inner.clone());
        let sigs = crate::run_batch::sign_many(py, &key, &msgs, &opts)?;
        Ok(sigs.iter().map(|s| PyBytes::new(py, s)).collect())
    }

    /// The public key.
    fn public_key(&self) -> Sphincs256PublicKey {
        Sphincs256PublicKey {
            inner: self.inner.verifying_key(),
        }
    }

    /// The 1088 private-key bytes.
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    fn __repr__(&self) -> &'static str {
        "<Sphincs256PrivateKey>"
    }
}

#[pymethods]
impl Sphincs256PublicKey {
    /// The scheme's name, "sphincs-256" (as the CLI's `-a`).
    #[classattr]
    fn algorithm() -> &'static str {
        ALGORITHM
    }

    /// Public key bytes (1056), from the core's parameters.
    #[classattr]
    fn public_key_size() -> usize {
        params::PK_BYTES
    }

    /// Private key bytes (1088).
    #[classattr]
    fn private_key_size() -> usize {
        params::SK_BYTES
    }

    /// Signature bytes (41000).
    #[classattr]
    fn signature_size() -> usize {
        params::SIG_BYTES
    }

    /// Loads the 1056 bytes `Q ‖ PK1`; `ValueError` for another length.
    #[staticmethod]
    fn from_public_bytes(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = args::bytes(data, "data")?;
        let inner = Sphincs256VerifyingKey::from_bytes(&data).map_err(to_py)?;
        Ok(Sphincs256PublicKey { inner })
    }

    /// Verifies a detached signature: None, or `sphincs.InvalidSignature`
    /// (also for one that is not 41000 bytes). As in the reference, bits
    /// 60..63 of the signature's index field take no part.
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

    /// SUPERCOP's `crypto_sign_open`: checks `signed` = signature ‖ message
    /// and returns the message, or raises `sphincs.InvalidSignature`.
    fn open<'py>(
        &self,
        py: Python<'py>,
        signed: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let sm = args::bytes(signed, "signed")?;
        let msg_at = detached(py, || self.inner.open(&sm).map(|m| sm.len() - m.len()))?;
        Ok(PyBytes::new(py, &sm[msg_at..]))
    }

    /// The 1056 public-key bytes.
    /// The key's fingerprint, `SHA256:` and 64 hex digits: the SHA-256 of
    /// the raw public key (as `sphincs fingerprint -a sphincs-256` prints it).
    fn fingerprint(&self) -> String {
        self.inner.fingerprint()
    }

    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Sphincs256PublicKey>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.to_bytes().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> &'static str {
        "<Sphincs256PublicKey>"
    }
}
