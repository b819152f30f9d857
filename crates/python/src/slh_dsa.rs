//! `SLHDSAPrivateKey` and `SLHDSAPublicKey`: the FIPS 205 family's classes,
//! shells over the core's `AnySigningKey` / `AnyVerifyingKey` (the shared
//! body is `keys.rs`), with RFC 9909 modes and PEM/DER.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sphincs::any::{AnySigningKey, AnyVerifyingKey, Family};
use sphincs::KeyMode;

use crate::args::{self, SignArgs};
use crate::errors::to_py;
use crate::family::algorithm_member;
use crate::keys::{self, py_bytes, PublicKeyClass};
use crate::mode;

/// The FIPS 205 set an argument names.
fn fips205(obj: &Bound<'_, PyAny>) -> PyResult<sphincs::any::AnyAlgorithm> {
    args::algorithm(obj, Family::SlhDsa)
}

/// An SLH-DSA (FIPS 205) private key, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`.
///
/// Make one with `generate`, `from_private_bytes`, `from_seeds` or the
/// `load_*_private_key` functions. Signing releases the GIL.
#[pyclass(module = "sphincs", frozen)]
pub struct SLHDSAPrivateKey {
    pub inner: AnySigningKey,
}

/// An SLH-DSA (FIPS 205) public key, `PK.seed ‖ PK.root`.
///
/// Verification releases the GIL. Keys compare and hash by their parameter
/// set and bytes (not their mode).
#[pyclass(module = "sphincs", frozen)]
pub struct SLHDSAPublicKey {
    pub inner: AnyVerifyingKey,
}

impl PublicKeyClass for SLHDSAPublicKey {
    fn key(&self) -> &AnyVerifyingKey {
        &self.inner
    }
}

#[pymethods]
impl SLHDSAPrivateKey {
    /// A fresh key from the operating system's randomness (FIPS 205 Algorithm 21).
    ///
    /// Without `prehash` the key is raw (mode "unrestricted": pure or any
    /// pre-hash; written under the pure OID). With `prehash` it is a
    /// HashSLH-DSA key bound to that pre-hash, which must be the one RFC 9909
    /// pairs with the set (`ValueError` otherwise), as `sphincs keygen --prehash`.
    /// A draft SP 800-230 set builds its one tree (a minute or more, on
    /// `threads` threads); Ctrl-C stops it (`KeyboardInterrupt`).
    #[staticmethod]
    #[pyo3(signature = (algorithm, *, prehash=None, threads=None))]
    fn generate(
        py: Python<'_>,
        algorithm: &Bound<'_, PyAny>,
        prehash: Option<&str>,
        threads: Option<i64>,
    ) -> PyResult<Self> {
        let alg = fips205(algorithm)?;
        // The pairing is checked before the key is made (which can take minutes).
        let mode = match args::prehash(prehash)? {
            Some(ph) => Some(mode::checked(KeyMode::HashSlhDsa(ph), alg)?),
            None => None,
        };
        let key = keys::generate(py, alg, args::threads(threads)?)?;
        let inner = match mode {
            Some(m) => key.with_mode(m).map_err(to_py)?,
            None => key,
        };
        Ok(SLHDSAPrivateKey { inner })
    }

    /// Loads a raw private key (4n bytes), checking that its PK.root is the
    /// root its seeds give (`ValueError` if not).
    ///
    /// A draft SP 800-230 key recomputes its one tree for that (a minute or
    /// more, on `threads` threads; Ctrl-C stops it); given the `tree_cache`
    /// that `tree_cache()` returned for this key, it loads at once instead. A
    /// cache that is not this key's is a `ValueError` (load without it).
    #[staticmethod]
    #[pyo3(signature = (algorithm, data, *, tree_cache=None, threads=None))]
    fn from_private_bytes(
        py: Python<'_>,
        algorithm: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tree_cache: Option<&Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Self> {
        let threads = args::threads(threads)?;
        let inner = keys::from_private_bytes(py, fips205(algorithm)?, data, tree_cache, threads)?;
        Ok(SLHDSAPrivateKey { inner })
    }

    /// The key's tree cache (public data, under 1 MiB) for a draft SP 800-230
    /// set, to save beside the key and pass to `from_private_bytes` so that
    /// loading does not rebuild the tree; `None` for every other set. Every
    /// signature of these sets is verified before it is returned, so a bad
    /// cache can never yield a wrong signature.
    fn tree_cache<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.inner.tree_cache().map(|c| py_bytes(py, &c))
    }

    /// The key `slh_keygen_internal` (FIPS 205 Algorithm 18) makes from three
    /// n-byte seeds (a draft SP 800-230 set's tree: as `generate`).
    #[staticmethod]
    #[pyo3(signature = (algorithm, sk_seed, sk_prf, pk_seed, *, threads=None))]
    fn from_seeds(
        py: Python<'_>,
        algorithm: &Bound<'_, PyAny>,
        sk_seed: &Bound<'_, PyAny>,
        sk_prf: &Bound<'_, PyAny>,
        pk_seed: &Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Self> {
        let seeds = [sk_seed, sk_prf, pk_seed];
        let inner = keys::from_seeds(py, fips205(algorithm)?, seeds, args::threads(threads)?)?;
        Ok(SLHDSAPrivateKey { inner })
    }

    /// The parameter set, a `sphincs.Algorithm`.
    #[getter]
    fn algorithm<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        algorithm_member(py, self.inner.algorithm())
    }

    /// The key's mode: "unrestricted" (a raw key: pure or any pre-hash),
    /// "pure" (read under the pure OID), or the pre-hash name of a
    /// HashSLH-DSA key (RFC 9909 OIDs .35-.46), which it signs with.
    #[getter]
    fn mode(&self) -> &'static str {
        mode::of(self.inner.mode())
    }

    /// The RFC 9909 OID the key is written under (dotted): its HashSLH-DSA
    /// OID, or the pure one for a pure or raw key.
    /// `None` for the draft SP 800-230 sets, which have no OID yet.
    #[getter]
    fn oid(&self) -> Option<String> {
        mode::oid(self.inner.mode(), self.inner.algorithm())
    }

    /// This key in another mode (see `mode`): "unrestricted", "pure", or a
    /// pre-hash name (only the one RFC 9909 pairs with the set).
    fn with_mode(&self, mode: &str) -> PyResult<Self> {
        let m = crate::mode::parse(mode)?;
        let inner = self.inner.clone().with_mode(m).map_err(to_py)?;
        Ok(SLHDSAPrivateKey { inner })
    }

    /// Signs `data` (FIPS 205 Algorithm 22, or 23 with `prehash`).
    ///
    /// `context`: at most 255 bytes. `prehash`: a HashSLH-DSA function name
    /// ("SHA2-256", …); None signs in the key's mode (a HashSLH-DSA key uses
    /// its pre-hash), and a request against the mode is a `ValueError`. `deterministic`: no fresh randomness. `randomness`:
    /// n bytes of `addrnd` instead of fresh ones (known-answer tests).
    /// `threads`: threads for this signature (default: the calling thread).
    /// `fault_hardened`: compute twice, release only if both agree.
    #[pyo3(signature = (data, context=None, *, prehash=None, deterministic=false, threads=None, randomness=None, fault_hardened=false))]
    #[allow(clippy::too_many_arguments)]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        context: Option<&Bound<'py, PyAny>>,
        prehash: Option<&str>,
        deterministic: bool,
        threads: Option<i64>,
        randomness: Option<&Bound<'py, PyAny>>,
        fault_hardened: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let threads = args::threads(threads)?;
        let a = SignArgs::new(
            context,
            prehash,
            deterministic,
            randomness,
            threads,
            fault_hardened,
        )?;
        keys::sign(py, &self.inner, data, &a)
    }

    /// Signs a file (a path or a binary file object) in bounded memory; the
    /// file is read twice (once with `prehash`). Options as `sign`.
    #[pyo3(signature = (file, context=None, *, prehash=None, deterministic=false, threads=None, randomness=None, fault_hardened=false))]
    #[allow(clippy::too_many_arguments)]
    fn sign_file<'py>(
        &self,
        py: Python<'py>,
        file: &Bound<'py, PyAny>,
        context: Option<&Bound<'py, PyAny>>,
        prehash: Option<&str>,
        deterministic: bool,
        threads: Option<i64>,
        randomness: Option<&Bound<'py, PyAny>>,
        fault_hardened: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let threads = args::threads(threads)?;
        let a = SignArgs::new(
            context,
            prehash,
            deterministic,
            randomness,
            threads,
            fault_hardened,
        )?;
        keys::sign_file(py, &self.inner, file, &a)
    }

    /// Signs each message with the same options; the whole batch runs in
    /// Rust with the GIL released, on `threads` threads (default: every core).
    /// Returns the signatures in order, equal to signing one by one.
    #[pyo3(signature = (messages, context=None, *, prehash=None, deterministic=false, threads=None, fault_hardened=false))]
    #[allow(clippy::too_many_arguments)]
    fn sign_many<'py>(
        &self,
        py: Python<'py>,
        messages: &Bound<'py, PyAny>,
        context: Option<&Bound<'py, PyAny>>,
        prehash: Option<&str>,
        deterministic: bool,
        threads: Option<i64>,
        fault_hardened: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let threads = args::batch_threads(threads)?;
        let a = SignArgs::new(
            context,
            prehash,
            deterministic,
            None,
            threads,
            fault_hardened,
        )?;
        keys::sign_many(py, &self.inner, messages, &a)
    }

    /// `slh_sign_internal` (FIPS 205 Algorithm 19) on M' as given, for test
    /// vectors: `randomness` is `addrnd` (None: deterministic).
    #[pyo3(signature = (message, randomness=None))]
    fn sign_internal<'py>(
        &self,
        py: Python<'py>,
        message: &Bound<'py, PyAny>,
        randomness: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        keys::sign_internal(py, &self.inner, message, randomness)
    }

    /// The public key (in this key's mode).
    fn public_key(&self) -> SLHDSAPublicKey {
        SLHDSAPublicKey {
            inner: self.inner.verifying_key(),
        }
    }

    /// The raw private key, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` (4n bytes).
    fn private_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        py_bytes(py, &self.inner.to_bytes())
    }

    /// PKCS#8 DER (RFC 9909) under the OID of the key's mode, unencrypted.
    fn private_bytes_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(py_bytes(py, &self.inner.to_pkcs8_der().map_err(to_py)?))
    }

    /// PKCS#8 PEM ("PRIVATE KEY", RFC 9909) under the OID of the key's mode, unencrypted.
    fn private_bytes_pem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(py_bytes(
            py,
            self.inner.to_pkcs8_pem().map_err(to_py)?.as_bytes(),
        ))
    }

    /// pyca/cryptography's `private_bytes`: `encoding` PEM or DER with
    /// `format` PKCS8, and `encryption_algorithm` `NoEncryption()` or
    /// `BestAvailableEncryption(password)` (PKCS#8 `EncryptedPrivateKeyInfo`:
    /// scrypt, AES-256-CBC); or Raw, Raw, `NoEncryption()` for the raw key.
    /// pyca's own `serialization` enums and classes are taken too.
    fn private_bytes<'py>(
        &self,
        py: Python<'py>,
        encoding: &Bound<'py, PyAny>,
        format: &Bound<'py, PyAny>,
        encryption_algorithm: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        crate::key_bytes::private_bytes(py, &self.inner, encoding, format, encryption_algorithm)
    }

    fn __repr__(&self) -> String {
        format!(
            "<SLHDSAPrivateKey {} mode={}>",
            self.inner.algorithm(),
            mode::of(self.inner.mode())
        )
    }
}

#[pymethods]
impl SLHDSAPublicKey {
    /// Loads a raw public key, `PK.seed ‖ PK.root` (2n bytes).
    #[staticmethod]
    fn from_public_bytes(algorithm: &Bound<'_, PyAny>, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let inner = keys::from_public_bytes(fips205(algorithm)?, data)?;
        Ok(SLHDSAPublicKey { inner })
    }

    /// The parameter set, a `sphincs.Algorithm`.
    #[getter]
    fn algorithm<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        algorithm_member(py, self.inner.algorithm())
    }

    /// The key's mode, as `SLHDSAPrivateKey.mode`.
    #[getter]
    fn mode(&self) -> &'static str {
        mode::of(self.inner.mode())
    }

    /// The RFC 9909 OID the key is written under, as `SLHDSAPrivateKey.oid`.
    /// `None` for the draft SP 800-230 sets, which have no OID yet.
    #[getter]
    fn oid(&self) -> Option<String> {
        mode::oid(self.inner.mode(), self.inner.algorithm())
    }

    /// This key in another mode, as `SLHDSAPrivateKey.with_mode`.
    fn with_mode(&self, mode: &str) -> PyResult<Self> {
        let m = crate::mode::parse(mode)?;
        let inner = self.inner.clone().with_mode(m).map_err(to_py)?;
        Ok(SLHDSAPublicKey { inner })
    }

    /// Verifies a signature of `data` (FIPS 205 Algorithm 24, or 25 with
    /// `prehash`): returns None, or raises `sphincs.InvalidSignature`
    /// (also for a signature of the wrong length). `prehash` None verifies in
    /// the key's mode; a request against the mode is a `ValueError`.
    #[pyo3(signature = (signature, data, context=None, *, prehash=None))]
    fn verify(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        context: Option<&Bound<'_, PyAny>>,
        prehash: Option<&str>,
    ) -> PyResult<()> {
        keys::verify(py, &self.inner, signature, data, context, prehash)
    }

    /// Verifies a signature of a file (a path or a binary file object), read
    /// once in bounded memory. As `verify`.
    #[pyo3(signature = (signature, file, context=None, *, prehash=None))]
    fn verify_file(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        file: &Bound<'_, PyAny>,
        context: Option<&Bound<'_, PyAny>>,
        prehash: Option<&str>,
    ) -> PyResult<()> {
        keys::verify_file(py, &self.inner, signature, file, context, prehash)
    }

    /// `slh_verify_internal` (FIPS 205 Algorithm 20) on M' as given, for test
    /// vectors: True or False.
    fn verify_internal(
        &self,
        py: Python<'_>,
        message: &Bound<'_, PyAny>,
        signature: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        keys::verify_internal(py, &self.inner, message, signature)
    }

    /// The raw public key, `PK.seed ‖ PK.root` (2n bytes).
    /// The key's fingerprint, `SHA256:` and 64 hex digits: the SHA-256 of
    /// its SubjectPublicKeyInfo DER, or for a draft SP 800-230 key of its
    /// set's name, a zero byte and the raw key (as `sphincs fingerprint`
    /// prints it; the core computes it).
    fn fingerprint(&self) -> PyResult<String> {
        self.inner.fingerprint().map_err(to_py)
    }

    fn public_bytes_raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        py_bytes(py, &self.inner.to_bytes())
    }

    /// SubjectPublicKeyInfo DER (RFC 9909) under the OID of the key's mode.
    fn public_bytes_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(py_bytes(py, &self.inner.to_spki_der().map_err(to_py)?))
    }

    /// SubjectPublicKeyInfo PEM ("PUBLIC KEY", RFC 9909) under the OID of the key's mode.
    fn public_bytes_pem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(py_bytes(
            py,
            self.inner.to_spki_pem().map_err(to_py)?.as_bytes(),
        ))
    }

    /// pyca/cryptography's `public_bytes`: `encoding` PEM or DER with
    /// `format` SubjectPublicKeyInfo, or Raw with Raw. pyca's own
    /// `serialization` enums are taken too.
    fn public_bytes<'py>(
        &self,
        py: Python<'py>,
        encoding: &Bound<'py, PyAny>,
        format: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        crate::key_bytes::public_bytes(py, &self.inner, encoding, format)
    }

    /// Equal parameter set and bytes; the mode is not compared (compare
    /// `mode` as well for that), so a key read back from PEM equals the raw key.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        keys::equal::<Self>(&self.inner, other)
    }

    fn __hash__(&self) -> u64 {
        keys::hash(&self.inner)
    }

    fn __repr__(&self) -> String {
        format!(
            "<SLHDSAPublicKey {} mode={}>",
            self.inner.algorithm(),
            mode::of(self.inner.mode())
        )
    }
}
