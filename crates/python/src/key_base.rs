//! The two base classes every family's key classes extend
//! (`sphincs._native._PrivateKey` and `_PublicKey`, not exported by
//! `sphincs`): each holds the core's key of any family and carries the
//! methods every family has, written once. A family's class adds only the
//! calls whose Python signature is its own.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::prelude::*;
use pyo3::pyclass::boolean_struct::True;
use pyo3::types::PyBytes;
use pyo3::PyClass;
use sphincs::any::{AnySigningKey, AnyVerifyingKey};

use crate::errors::to_py;
use crate::family::algorithm_member;
use crate::keys::{self, py_bytes, Message};

/// A private key of any family.
#[pyclass(module = "sphincs._native", name = "_PrivateKey", subclass, frozen)]
pub struct PrivateKey {
    inner: AnySigningKey,
}

/// A public key of any family. Keys compare and hash by their parameter set
/// and bytes (a FIPS 205 key's mode is not compared, so a key read back
/// from PEM equals the raw key; compare `mode` as well for that).
#[pyclass(module = "sphincs._native", name = "_PublicKey", subclass, frozen)]
pub struct PublicKey {
    inner: AnyVerifyingKey,
}

/// A family's private-key class.
pub trait PrivateClass: PyClass<BaseType = PrivateKey, Frozen = True> + Default + Sync {}
impl<T: PyClass<BaseType = PrivateKey, Frozen = True> + Default + Sync> PrivateClass for T {}

/// A family's public-key class.
pub trait PublicClass: PyClass<BaseType = PublicKey, Frozen = True> + Default + Sync {}
impl<T: PyClass<BaseType = PublicKey, Frozen = True> + Default + Sync> PublicClass for T {}

/// A new object of the private-key class `T` holding `inner`.
pub fn new_private<T: PrivateClass>(
    py: Python<'_>,
    inner: AnySigningKey,
) -> PyResult<Bound<'_, T>> {
    Bound::new(py, (T::default(), PrivateKey { inner }))
}

/// A new object of the public-key class `T` holding `inner`.
pub fn new_public<T: PublicClass>(
    py: Python<'_>,
    inner: AnyVerifyingKey,
) -> PyResult<Bound<'_, T>> {
    Bound::new(py, (T::default(), PublicKey { inner }))
}

/// The core key a private-key object holds.
pub fn signing_key<'a, T: PrivateClass>(key: &'a Bound<'_, T>) -> &'a AnySigningKey {
    &key.as_super().get().inner
}

/// The core key a public-key object holds.
pub fn verifying_key<'a, T: PublicClass>(key: &'a Bound<'_, T>) -> &'a AnyVerifyingKey {
    &key.as_super().get().inner
}

/// The core key behind `obj` if it is any family's public key.
pub fn public_key_of(obj: &Bound<'_, PyAny>) -> Option<AnyVerifyingKey> {
    obj.cast::<PublicKey>().ok().map(|k| k.get().inner.clone())
}

#[pymethods]
impl PrivateKey {
    /// The parameter set: a member of the family's enum (`sphincs.Algorithm`,
    /// `sphincs.SpxAlgorithm`), or the set's name for a family of one set.
    #[getter]
    fn algorithm<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        algorithm_member(py, self.inner.algorithm())
    }

    /// The raw private key, as the family's reference code stores it
    /// (`SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`, 4n bytes; SPHINCS-256's 1088).
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        py_bytes(py, &self.inner.to_bytes())
    }
}

#[pymethods]
impl PublicKey {
    /// The parameter set, as `_PrivateKey.algorithm`.
    #[getter]
    fn algorithm<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        algorithm_member(py, self.inner.algorithm())
    }

    /// Verifies a detached signature of `data`: None, or
    /// `sphincs.InvalidSignature` (also for a signature of the wrong
    /// length). `SLHDSAPublicKey.verify` adds a context and a pre-hash. As in
    /// SPHINCS-256's reference, bits 60..63 of its index field take no part.
    fn verify(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        keys::verify(py, &self.inner, signature, Message::Bytes(data), None, None)
    }

    /// The key's fingerprint, `SHA256:` and 64 hex digits, as `sphincs
    /// fingerprint` prints it (the core computes it): the SHA-256 of a FIPS
    /// 205 key's SubjectPublicKeyInfo DER, of a draft SP 800-230 key's set
    /// name, a zero byte and raw key, or of another family's raw key.
    fn fingerprint(&self) -> PyResult<String> {
        self.inner.fingerprint().map_err(to_py)
    }

    /// The raw public key (`PK.seed ‖ PK.root`, 2n bytes; SPHINCS-256's 1056).
    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        py_bytes(py, &self.inner.to_bytes())
    }

    /// Any family's public key with the same parameter set and bytes.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        public_key_of(other).is_some_and(|o| {
            o.algorithm() == self.inner.algorithm() && o.to_bytes() == self.inner.to_bytes()
        })
    }

    /// Agrees with `__eq__`: the parameter set and bytes.
    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.algorithm().hash(&mut h);
        self.inner.to_bytes().hash(&mut h);
        h.finish()
    }
}
