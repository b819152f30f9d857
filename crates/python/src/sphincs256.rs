//! `Sphincs256PrivateKey` and `Sphincs256PublicKey`: SPHINCS-256, the 2015
//! scheme, shells over the core's `AnySigningKey` / `AnyVerifyingKey` (the
//! shared bodies are `key_base.rs` and `keys.rs`). Raw SUPERCOP keys only (no OID exists),
//! deterministic signatures, no context or pre-hash.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sphincs::any::AnyAlgorithm;

use crate::args::{self, SignArgs};
use crate::key_base::{new_private, new_public, signing_key, verifying_key};
use crate::key_base::{PrivateKey, PublicKey};
use crate::keys::{self, Message};

/// The scheme's one set.
const SET: AnyAlgorithm = AnyAlgorithm::Sphincs256;

/// Adds both classes to the module, each with the set's facts as class
/// attributes (set here, once for both): `algorithm` ("sphincs-256", as the
/// CLI's `-a`), `public_key_size` (1056), `private_key_size` (1088) and
/// `signature_size` (41000), from the core's table.
pub fn add_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Sphincs256PrivateKey>()?;
    m.add_class::<Sphincs256PublicKey>()?;
    for class in [
        m.py().get_type::<Sphincs256PrivateKey>(),
        m.py().get_type::<Sphincs256PublicKey>(),
    ] {
        class.setattr("algorithm", SET.name())?;
        class.setattr("public_key_size", SET.public_key_len())?;
        class.setattr("private_key_size", SET.secret_key_len())?;
        class.setattr("signature_size", SET.signature_len())?;
    }
    Ok(())
}

/// A SPHINCS-256 private key: the 1088 bytes `SK1 ‖ Q ‖ SK2` of the SUPERCOP
/// reference (any 1088 bytes are a key). Signing releases the GIL.
#[pyclass(module = "sphincs", extends = PrivateKey, frozen)]
#[derive(Default)]
pub struct Sphincs256PrivateKey;

/// A SPHINCS-256 public key: the 1056 bytes `Q ‖ PK1`. Verification
/// releases the GIL. Keys compare and hash by their bytes.
#[pyclass(module = "sphincs", extends = PublicKey, frozen)]
#[derive(Default)]
pub struct Sphincs256PublicKey;

#[pymethods]
impl Sphincs256PrivateKey {
    /// A fresh key: 1088 bytes of the operating system's randomness, as
    /// `crypto_sign_keypair` (building its top subtree, without the GIL).
    #[staticmethod]
    fn generate(py: Python<'_>) -> PyResult<Bound<'_, Self>> {
        new_private(py, keys::generate(py, SET, 1)?)
    }

    /// The key of the 1088 bytes `SK1 ‖ Q ‖ SK2`; `ValueError` for another length.
    #[staticmethod]
    fn from_private_bytes<'py>(
        py: Python<'py>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        new_private(py, keys::from_private_bytes(py, SET, data, None, 1)?)
    }

    /// The 41000-byte detached signature of `data`, deterministic as the
    /// reference; `threads` spreads it over that many threads (default: the
    /// calling thread), the same bytes for any count.
    #[pyo3(signature = (data, *, threads=None))]
    fn sign<'py>(
        slf: &Bound<'py, Self>,
        data: &Bound<'py, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let a = SignArgs::threads_only(args::threads(threads)?);
        keys::sign(slf.py(), signing_key(slf), Message::Bytes(data), &a)
    }

    /// SUPERCOP's `crypto_sign`: signature ‖ data. Options as `sign`.
    #[pyo3(signature = (data, *, threads=None))]
    fn sign_attached<'py>(
        slf: &Bound<'py, Self>,
        data: &Bound<'py, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let a = SignArgs::threads_only(args::threads(threads)?);
        keys::sign(slf.py(), signing_key(slf), Message::Attached(data), &a)
    }

    /// Signs each message (deterministic, as `sign`); the batch runs in
    /// Rust without the GIL on `threads` threads (default: every core) and
    /// Ctrl-C stops it. The signatures equal signing one by one.
    #[pyo3(signature = (messages, *, threads=None))]
    fn sign_many<'py>(
        slf: &Bound<'py, Self>,
        messages: &Bound<'py, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let a = SignArgs::threads_only(args::batch_threads(threads)?);
        keys::sign_many(slf.py(), signing_key(slf), messages, &a)
    }

    /// The public key.
    fn public_key<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, Sphincs256PublicKey>> {
        new_public(slf.py(), signing_key(slf).verifying_key())
    }

    fn __repr__(&self) -> &'static str {
        "<Sphincs256PrivateKey>"
    }
}

#[pymethods]
impl Sphincs256PublicKey {
    /// Loads the 1056 bytes `Q ‖ PK1`; `ValueError` for another length.
    #[staticmethod]
    fn from_public_bytes<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        new_public(data.py(), keys::from_public_bytes(SET, data)?)
    }

    /// SUPERCOP's `crypto_sign_open`: checks `signed` = signature ‖ message
    /// and returns the message, or raises `sphincs.InvalidSignature`.
    fn open<'py>(
        slf: &Bound<'py, Self>,
        signed: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        keys::open(slf.py(), verifying_key(slf), signed)
    }

    fn __repr__(&self) -> &'static str {
        "<Sphincs256PublicKey>"
    }
}
