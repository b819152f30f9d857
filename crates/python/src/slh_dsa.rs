//! `SLHDSAPrivateKey` and `SLHDSAPublicKey`: the FIPS 205 family's classes,
//! shells over the core's `AnySigningKey` / `AnyVerifyingKey` (the shared
//! bodies are `key_base.rs` and `keys.rs`), with RFC 9909 modes and PEM/DER.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sphincs::any::Family;
use sphincs::KeyMode;

use crate::args::{self, SignArgs};
use crate::errors::to_py;
use crate::key_base::{new_private, new_public, signing_key, verifying_key};
use crate::key_base::{PrivateKey, PublicKey};
use crate::keys::{self, py_bytes, Message};
use crate::{key_bytes, mode};

/// The FIPS 205 set an argument names.
fn fips205(obj: &Bound<'_, PyAny>) -> PyResult<sphincs::any::AnyAlgorithm> {
    args::algorithm(obj, Family::SlhDsa)
}

/// An SLH-DSA (FIPS 205) private key, `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`.
///
/// Make one with `generate`, `from_private_bytes`, `from_seeds` or the
/// `load_*_private_key` functions. Signing releases the GIL.
#[pyclass(module = "sphincs", extends = PrivateKey, frozen)]
#[derive(Default)]
pub struct SLHDSAPrivateKey;

/// An SLH-DSA (FIPS 205) public key, `PK.seed ‖ PK.root`.
///
/// Verification releases the GIL. Keys compare and hash by their parameter
/// set and bytes (not their mode).
#[pyclass(module = "sphincs", extends = PublicKey, frozen)]
#[derive(Default)]
pub struct SLHDSAPublicKey;

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
    fn generate<'py>(
        py: Python<'py>,
        algorithm: &Bound<'_, PyAny>,
        prehash: Option<&str>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, Self>> {
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
        new_private(py, inner)
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
    fn from_private_bytes<'py>(
        py: Python<'py>,
        algorithm: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tree_cache: Option<&Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, Self>> {
        let threads = args::threads(threads)?;
        let inner = keys::from_private_bytes(py, fips205(algorithm)?, data, tree_cache, threads)?;
        new_private(py, inner)
    }

    /// The key's tree cache (public data, under 1 MiB) for a draft SP 800-230
    /// set, to save beside the key and pass to `from_private_bytes` so that
    /// loading does not rebuild the tree; `None` for every other set. Every
    /// signature of these sets is verified before it is returned, so a bad
    /// cache can never yield a wrong signature.
    fn tree_cache<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        signing_key(slf).tree_cache().map(|c| py_bytes(py, &c))
    }

    /// The key `slh_keygen_internal` (FIPS 205 Algorithm 18) makes from three
    /// n-byte seeds (a draft SP 800-230 set's tree: as `generate`).
    #[staticmethod]
    #[pyo3(signature = (algorithm, sk_seed, sk_prf, pk_seed, *, threads=None))]
    fn from_seeds<'py>(
        py: Python<'py>,
        algorithm: &Bound<'_, PyAny>,
        sk_seed: &Bound<'_, PyAny>,
        sk_prf: &Bound<'_, PyAny>,
        pk_seed: &Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, Self>> {
        let seeds = [sk_seed, sk_prf, pk_seed];
        let inner = keys::from_seeds(py, fips205(algorithm)?, seeds, args::threads(threads)?)?;
        new_private(py, inner)
    }

    /// The key's mode: "unrestricted" (a raw key: pure or any pre-hash),
    /// "pure" (read under the pure OID), or the pre-hash name of a
    /// HashSLH-DSA key (RFC 9909 OIDs .35-.46), which it signs with.
    #[getter]
    fn mode(slf: &Bound<'_, Self>) -> &'static str {
        mode::of(signing_key(slf).mode())
    }

    /// The RFC 9909 OID the key is written under (dotted): its HashSLH-DSA
    /// OID, or the pure one for a pure or raw key.
    /// `None` for the draft SP 800-230 sets, which have no OID yet.
    #[getter]
    fn oid(slf: &Bound<'_, Self>) -> Option<String> {
        mode::oid(signing_key(slf).mode(), signing_key(slf).algorithm())
    }

    /// This key in another mode (see `mode`): "unrestricted", "pure", or a
    /// pre-hash name (only the one RFC 9909 pairs with the set).
    fn with_mode<'py>(slf: &Bound<'py, Self>, mode: &str) -> PyResult<Bound<'py, Self>> {
        let m = crate::mode::parse(mode)?;
        let inner = signing_key(slf).clone().with_mode(m).map_err(to_py)?;
        new_private(slf.py(), inner)
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
        slf: &Bound<'py, Self>,
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
        keys::sign(py, signing_key(slf), Message::Bytes(data), &a)
    }

    /// Signs a file (a path or a binary file object) in bounded memory; the
    /// file is read twice (once with `prehash`). Options as `sign`.
    #[pyo3(signature = (file, context=None, *, prehash=None, deterministic=false, threads=None, randomness=None, fault_hardened=false))]
    #[allow(clippy::too_many_arguments)]
    fn sign_file<'py>(
        slf: &Bound<'py, Self>,
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
        keys::sign(py, signing_key(slf), Message::File(file), &a)
    }

    /// Signs each message with the same options; the whole batch runs in
    /// Rust with the GIL released, on `threads` threads (default: every core).
    /// Returns the signatures in order, equal to signing one by one.
    #[pyo3(signature = (messages, context=None, *, prehash=None, deterministic=false, threads=None, fault_hardened=false))]
    #[allow(clippy::too_many_arguments)]
    fn sign_many<'py>(
        slf: &Bound<'py, Self>,
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
        keys::sign_many(py, signing_key(slf), messages, &a)
    }

    /// `slh_sign_internal` (FIPS 205 Algorithm 19) on M' as given, for test
    /// vectors: `randomness` is `addrnd` (None: deterministic).
    #[pyo3(signature = (message, randomness=None))]
    fn sign_internal<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        message: &Bound<'py, PyAny>,
        randomness: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        keys::sign_internal(py, signing_key(slf), message, randomness)
    }

    /// The public key (in this key's mode).
    fn public_key<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, SLHDSAPublicKey>> {
        new_public(slf.py(), signing_key(slf).verifying_key())
    }

    /// PKCS#8 DER (RFC 9909) under the OID of the key's mode, unencrypted.
    fn private_bytes_der<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        key_bytes::pkcs8(slf.py(), signing_key(slf), false)
    }

    /// PKCS#8 PEM ("PRIVATE KEY", RFC 9909) under the OID of the key's mode, unencrypted.
    fn private_bytes_pem<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        key_bytes::pkcs8(slf.py(), signing_key(slf), true)
    }

    /// pyca/cryptography's `private_bytes`: `encoding` PEM or DER with
    /// `format` PKCS8, and `encryption_algorithm` `NoEncryption()` or
    /// `BestAvailableEncryption(password)` (PKCS#8 `EncryptedPrivateKeyInfo`:
    /// scrypt, AES-256-CBC); or Raw, Raw, `NoEncryption()` for the raw key.
    /// pyca's own `serialization` enums and classes are taken too.
    fn private_bytes<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        encoding: &Bound<'py, PyAny>,
        format: &Bound<'py, PyAny>,
        encryption_algorithm: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        key_bytes::private_bytes(py, signing_key(slf), encoding, format, encryption_algorithm)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        format!(
            "<SLHDSAPrivateKey {} mode={}>",
            signing_key(slf).algorithm(),
            mode::of(signing_key(slf).mode())
        )
    }
}

#[pymethods]
impl SLHDSAPublicKey {
    /// Loads a raw public key, `PK.seed ‖ PK.root` (2n bytes).
    #[staticmethod]
    fn from_public_bytes<'py>(
        algorithm: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        let inner = keys::from_public_bytes(fips205(algorithm)?, data)?;
        new_public(data.py(), inner)
    }

    /// The key's mode, as `SLHDSAPrivateKey.mode`.
    #[getter]
    fn mode(slf: &Bound<'_, Self>) -> &'static str {
        mode::of(verifying_key(slf).mode())
    }

    /// The RFC 9909 OID the key is written under, as `SLHDSAPrivateKey.oid`.
    /// `None` for the draft SP 800-230 sets, which have no OID yet.
    #[getter]
    fn oid(slf: &Bound<'_, Self>) -> Option<String> {
        mode::oid(verifying_key(slf).mode(), verifying_key(slf).algorithm())
    }

    /// This key in another mode, as `SLHDSAPrivateKey.with_mode`.
    fn with_mode<'py>(slf: &Bound<'py, Self>, mode: &str) -> PyResult<Bound<'py, Self>> {
        let m = crate::mode::parse(mode)?;
        let inner = verifying_key(slf).clone().with_mode(m).map_err(to_py)?;
        new_public(slf.py(), inner)
    }

    /// Verifies a signature of `data` (FIPS 205 Algorithm 24, or 25 with
    /// `prehash`): returns None, or raises `sphincs.InvalidSignature`
    /// (also for a signature of the wrong length). `prehash` None verifies in
    /// the key's mode; a request against the mode is a `ValueError`.
    #[pyo3(signature = (signature, data, context=None, *, prehash=None))]
    fn verify(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        context: Option<&Bound<'_, PyAny>>,
        prehash: Option<&str>,
    ) -> PyResult<()> {
        keys::verify(
            py,
            verifying_key(slf),
            signature,
            Message::Bytes(data),
            context,
            prehash,
        )
    }

    /// Verifies a signature of a file (a path or a binary file object), read
    /// once in bounded memory. As `verify`.
    #[pyo3(signature = (signature, file, context=None, *, prehash=None))]
    fn verify_file(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        file: &Bound<'_, PyAny>,
        context: Option<&Bound<'_, PyAny>>,
        prehash: Option<&str>,
    ) -> PyResult<()> {
        keys::verify(
            py,
            verifying_key(slf),
            signature,
            Message::File(file),
            context,
            prehash,
        )
    }

    /// `slh_verify_internal` (FIPS 205 Algorithm 20) on M' as given, for test
    /// vectors: True or False.
    fn verify_internal(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        message: &Bound<'_, PyAny>,
        signature: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        keys::verify_internal(py, verifying_key(slf), message, signature)
    }

    /// SubjectPublicKeyInfo DER (RFC 9909) under the OID of the key's mode.
    fn public_bytes_der<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        key_bytes::spki(slf.py(), verifying_key(slf), false)
    }

    /// SubjectPublicKeyInfo PEM ("PUBLIC KEY", RFC 9909) under the OID of the key's mode.
    fn public_bytes_pem<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        key_bytes::spki(slf.py(), verifying_key(slf), true)
    }

    /// pyca/cryptography's `public_bytes`: `encoding` PEM or DER with
    /// `format` SubjectPublicKeyInfo, or Raw with Raw. pyca's own
    /// `serialization` enums are taken too.
    fn public_bytes<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        encoding: &Bound<'py, PyAny>,
        format: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        key_bytes::public_bytes(py, verifying_key(slf), encoding, format)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        format!(
            "<SLHDSAPublicKey {} mode={}>",
            verifying_key(slf).algorithm(),
            mode::of(verifying_key(slf).mode())
        )
    }
}
