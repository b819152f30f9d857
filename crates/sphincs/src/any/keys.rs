//! One secret-key and one public-key type over every family. Each call
//! resolves the family once and hands over to that family's typed keys;
//! options a family lacks are refused here, in one place.

use crate::prelude::*;
use core::sync::atomic::AtomicBool;

use zeroize::Zeroizing;

use super::algorithm::{AnyAlgorithm, Family};
use crate::dynamic::{DynSigningKey, DynVerifyingKey};
use crate::error::Error;
use crate::keys::SignOptions;
use crate::message::{MessageSource, MessageVerifier};
use crate::mode::KeyMode;
use crate::prehash::PreHash;
use crate::schedule::sign_many;
use crate::sphincs256::{Sphincs256SigningKey, Sphincs256VerifyingKey};
use crate::sphincsplus::{SpxSignOptions, SpxSigningKey, SpxVerifyingKey};

/// A secret key of any family (see [`AnyAlgorithm`]).
#[derive(Clone)]
pub struct AnySigningKey(Secret);

#[derive(Clone)]
enum Secret {
    SlhDsa(DynSigningKey),
    SphincsPlus(SpxSigningKey),
    Sphincs256(Box<Sphincs256SigningKey>),
}

/// A public key of any family (see [`AnyAlgorithm`]).
#[derive(Clone, PartialEq, Eq)]
pub struct AnyVerifyingKey(pub(super) Public);

#[derive(Clone, PartialEq, Eq)]
pub(super) enum Public {
    SlhDsa(DynVerifyingKey),
    SphincsPlus(SpxVerifyingKey),
    Sphincs256(Box<Sphincs256VerifyingKey>),
}

const ENCODING: &str = "PKCS#8/SPKI (PEM/DER) encodings: no OID is assigned, use raw bytes";
const MODES: &str = "RFC 9909 key modes";
const SPLIT: &str = "a signature split into tree tasks (sign_plan, sign_task, sign_finish)";

/// [`Error::Unsupported`] for a tree cache asked of a key of `alg`, a set
/// that keeps no tree.
pub(super) fn no_tree_cache(alg: AnyAlgorithm) -> Error {
    Error::Unsupported {
        family: alg.family().name(),
        what: "tree caches (only the draft SP 800-230 sets keep one)",
    }
}

/// Reads a streamed message whole, for SPHINCS-256, whose signing and
/// verification take the message as one byte string.
fn read_all(msg: &mut dyn MessageSource) -> Result<Vec<u8>, Error> {
    let mut all = Vec::new();
    msg.feed(&mut |piece| all.extend_from_slice(piece))?;
    Ok(all)
}

impl AnySigningKey {
    /// A fresh key from the operating system's RNG (FIPS 205 Algorithm 21,
    /// or the family's `crypto_sign_keypair`), its top tree built on up to
    /// `threads` threads (0 or 1: the calling thread).
    pub fn generate(alg: AnyAlgorithm, threads: usize) -> Result<Self, Error> {
        Ok(AnySigningKey(match alg {
            AnyAlgorithm::SlhDsa(a) => {
                Secret::SlhDsa(DynSigningKey::generate_with_threads(a, threads)?)
            }
            AnyAlgorithm::SphincsPlus(a) => {
                Secret::SphincsPlus(SpxSigningKey::generate_with_threads(a, threads)?)
            }
            AnyAlgorithm::Sphincs256 => {
                Secret::Sphincs256(Box::new(Sphincs256SigningKey::generate()?))
            }
        }))
    }

    /// The key of a seed of [`AnyAlgorithm::seed_len`] bytes:
    /// `SK.seed ‖ SK.prf ‖ PK.seed` (FIPS 205 Algorithm 18, or the reference
    /// code's `crypto_sign_seed_keypair`), or the SPHINCS-256 secret key.
    pub fn from_seed(alg: AnyAlgorithm, seed: &[u8], threads: usize) -> Result<Self, Error> {
        if seed.len() != alg.seed_len() {
            return Err(Error::InvalidLength {
                what: "seed",
                algorithm: alg.name(),
                expected: alg.seed_len(),
                got: seed.len(),
            });
        }
        Ok(AnySigningKey(match alg {
            AnyAlgorithm::SlhDsa(a) => {
                let n = a.params().n;
                let (sk_seed, rest) = seed.split_at(n);
                let (sk_prf, pk_seed) = rest.split_at(n);
                Secret::SlhDsa(DynSigningKey::from_seeds_with_threads(
                    a, sk_seed, sk_prf, pk_seed, threads,
                )?)
            }
            AnyAlgorithm::SphincsPlus(a) => {
                Secret::SphincsPlus(SpxSigningKey::from_seed_with_threads(a, seed, threads)?)
            }
            AnyAlgorithm::Sphincs256 => {
                Secret::Sphincs256(Box::new(Sphincs256SigningKey::from_bytes(seed)?))
            }
        }))
    }

    /// Loads a raw secret key, checking that its public half belongs to it
    /// ([`Error::KeyMismatch`] if not; SPHINCS-256 derives its public key).
    pub fn from_bytes(alg: AnyAlgorithm, sk: &[u8]) -> Result<Self, Error> {
        Ok(AnySigningKey(match alg {
            AnyAlgorithm::SlhDsa(a) => Secret::SlhDsa(DynSigningKey::from_bytes(a, sk)?),
            AnyAlgorithm::SphincsPlus(a) => Secret::SphincsPlus(SpxSigningKey::from_bytes(a, sk)?),
            AnyAlgorithm::Sphincs256 => {
                Secret::Sphincs256(Box::new(Sphincs256SigningKey::from_bytes(sk)?))
            }
        }))
    }

    /// Loads a raw secret key without recomputing its public root (for
    /// callers that trust the bytes, such as the NIST API's `crypto_sign`,
    /// which is handed the secret key on every call). SPHINCS-256 derives
    /// its public key either way.
    pub fn from_bytes_unchecked(alg: AnyAlgorithm, sk: &[u8]) -> Result<Self, Error> {
        Ok(AnySigningKey(match alg {
            AnyAlgorithm::SlhDsa(a) => Secret::SlhDsa(DynSigningKey::from_bytes_unchecked(a, sk)?),
            AnyAlgorithm::SphincsPlus(a) => {
                Secret::SphincsPlus(SpxSigningKey::from_bytes_unchecked(a, sk)?)
            }
            AnyAlgorithm::Sphincs256 => {
                Secret::Sphincs256(Box::new(Sphincs256SigningKey::from_bytes(sk)?))
            }
        }))
    }

    /// [`AnySigningKey::generate`], calling `progress(done, total)` while a
    /// draft SP 800-230 set builds its one tree (2^21–2^22 leaves: a minute
    /// or more); the other sets do not call it.
    pub fn generate_with_progress(
        alg: AnyAlgorithm,
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Self, Error> {
        match alg {
            AnyAlgorithm::SlhDsa(a) => Ok(AnySigningKey(Secret::SlhDsa(
                DynSigningKey::generate_with_progress(a, threads, progress)?,
            ))),
            _ => Self::generate(alg, threads),
        }
    }

    /// [`AnySigningKey::from_bytes`], recomputing the tree of a draft SP
    /// 800-230 key on `threads` threads with `progress(done, total)` (the
    /// key then keeps it as its tree cache; load a saved cache instead with
    /// [`AnySigningKey::from_bytes_unchecked`] and
    /// [`AnySigningKey::load_tree_cache`]).
    pub fn from_bytes_with_progress(
        alg: AnyAlgorithm,
        sk: &[u8],
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Self, Error> {
        match alg {
            AnyAlgorithm::SlhDsa(a) => Ok(AnySigningKey(Secret::SlhDsa(
                DynSigningKey::from_bytes_with_progress(a, sk, threads, progress)?,
            ))),
            _ => Self::from_bytes(alg, sk),
        }
    }

    /// The serialized tree cache of a draft SP 800-230 key (public data: the
    /// nodes its signatures need, see [`DynSigningKey::tree_cache`]); `None`
    /// for every other set, and for such a key loaded without its tree.
    pub fn tree_cache(&self) -> Option<Vec<u8>> {
        match &self.0 {
            Secret::SlhDsa(k) => k.tree_cache(),
            _ => None,
        }
    }

    /// Adopts a saved tree cache after checking it belongs to this key and
    /// set ([`DynSigningKey::load_tree_cache`]); on an error the key is
    /// unchanged and still signs (recomputing its tree). Other sets keep no
    /// tree: [`Error::Unsupported`] naming the family.
    pub fn load_tree_cache(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let alg = self.algorithm();
        match &mut self.0 {
            Secret::SlhDsa(k) if alg.is_limited() => k.load_tree_cache(bytes),
            _ => Err(no_tree_cache(alg)),
        }
    }

    /// Reads a PKCS#8 `PrivateKeyInfo`, DER or PEM (FIPS 205 keys only: the
    /// other families have no OID).
    pub fn from_pkcs8(input: &[u8]) -> Result<Self, Error> {
        DynSigningKey::from_pkcs8(input).map(Self::from)
    }

    /// [`AnySigningKey::from_pkcs8`] without recomputing PK.root (which
    /// costs about one key generation); a v2 key's `publicKey` is still
    /// compared with the public half.
    pub fn from_pkcs8_unchecked(input: &[u8]) -> Result<Self, Error> {
        DynSigningKey::from_pkcs8_unchecked(input).map(Self::from)
    }

    /// Reads a PKCS#8 private key that may be encrypted (FIPS 205 keys only):
    /// [`DynSigningKey::from_pkcs8_with_passphrase`].
    pub fn from_pkcs8_with_passphrase(input: &[u8], passphrase: &[u8]) -> Result<Self, Error> {
        DynSigningKey::from_pkcs8_with_passphrase(input, passphrase).map(Self::from)
    }

    /// The parameter set.
    pub fn algorithm(&self) -> AnyAlgorithm {
        match &self.0 {
            Secret::SlhDsa(k) => AnyAlgorithm::SlhDsa(k.algorithm()),
            Secret::SphincsPlus(k) => AnyAlgorithm::SphincsPlus(k.algorithm()),
            Secret::Sphincs256(_) => AnyAlgorithm::Sphincs256,
        }
    }

    /// The FIPS 205 key, if this is one (for PKI, which is FIPS 205 only).
    pub fn as_slh_dsa(&self) -> Option<&DynSigningKey> {
        match &self.0 {
            Secret::SlhDsa(k) => Some(k),
            _ => None,
        }
    }

    /// The RFC 9909 mode of a FIPS 205 key; `None` for families without modes.
    pub fn mode(&self) -> Option<KeyMode> {
        self.as_slh_dsa().map(DynSigningKey::mode)
    }

    /// This key bound to `mode` (FIPS 205 keys only).
    pub fn with_mode(self, mode: KeyMode) -> Result<Self, Error> {
        match self.0 {
            Secret::SlhDsa(k) => k.with_mode(mode).map(Self::from),
            _ => Err(self.unsupported(MODES)),
        }
    }

    /// The raw secret key, wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        match &self.0 {
            Secret::SlhDsa(k) => k.to_bytes(),
            Secret::SphincsPlus(k) => k.to_bytes(),
            Secret::Sphincs256(k) => k.to_bytes(),
        }
    }

    /// PKCS#8 DER under the key mode's OID (FIPS 205 keys only).
    pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.fips(ENCODING)?.to_pkcs8_der()
    }

    /// PKCS#8 PEM (`PRIVATE KEY`) under the key mode's OID (FIPS 205 keys only).
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>, Error> {
        self.fips(ENCODING)?.to_pkcs8_pem()
    }

    /// Encrypted PKCS#8 DER under `passphrase` (FIPS 205 keys only):
    /// [`DynSigningKey::to_encrypted_pkcs8_der`].
    pub fn to_encrypted_pkcs8_der(&self, passphrase: &[u8]) -> Result<Vec<u8>, Error> {
        self.fips(ENCODING)?.to_encrypted_pkcs8_der(passphrase)
    }

    /// Encrypted PKCS#8 PEM (`ENCRYPTED PRIVATE KEY`) under `passphrase`
    /// (FIPS 205 keys only): [`DynSigningKey::to_encrypted_pkcs8_pem`].
    pub fn to_encrypted_pkcs8_pem(&self, passphrase: &[u8]) -> Result<String, Error> {
        self.fips(ENCODING)?.to_encrypted_pkcs8_pem(passphrase)
    }

    /// The public half.
    pub fn verifying_key(&self) -> AnyVerifyingKey {
        AnyVerifyingKey(match &self.0 {
            Secret::SlhDsa(k) => Public::SlhDsa(k.verifying_key()),
            Secret::SphincsPlus(k) => Public::SphincsPlus(k.verifying_key()),
            Secret::Sphincs256(k) => Public::Sphincs256(Box::new(k.verifying_key())),
        })
    }

    /// Signs `msg` per `opts`: FIPS 205 Algorithms 22/23 (the key's mode
    /// decides the pre-hash when `opts.prehash` is `None`), the round-3.1
    /// `crypto_sign_signature`, or SPHINCS-256. A context, pre-hash, given
    /// randomness or fault hardening that the family lacks is
    /// [`Error::Unsupported`].
    pub fn sign(&self, msg: &[u8], opts: &SignOptions<'_>) -> Result<Vec<u8>, Error> {
        self.sign_stream(&mut &msg[..], opts)
    }

    /// [`AnySigningKey::sign`] over a streamed message (read twice for pure
    /// signing, once with a pre-hash; SPHINCS-256 reads it into memory).
    pub fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        self.check_options(opts)?;
        match &self.0 {
            Secret::SlhDsa(k) => k.sign_stream(msg, opts),
            Secret::SphincsPlus(k) => k.sign_stream(msg, &spx_options(opts)),
            Secret::Sphincs256(k) => Ok(k.sign_with_threads(&read_all(msg)?, opts.threads)),
        }
    }

    /// Step 1 of one signature split into tree tasks that processes sharing
    /// no memory (Web Workers) compute: `R ‖ digest` (n + m bytes), made
    /// from `msg` and `opts` as [`AnySigningKey::sign`] makes them. FIPS 205
    /// and draft SP 800-230 keys only ([`DynSigningKey::sign_plan`]); the
    /// other families are [`Error::Unsupported`].
    pub fn sign_plan(&self, msg: &[u8], opts: &SignOptions<'_>) -> Result<Vec<u8>, Error> {
        self.check_options(opts)?;
        self.fips(SPLIT)?.sign_plan(msg, opts)
    }

    /// How many tree tasks a signature has: d (the XMSS trees, layer 0
    /// first) + k (the FORS trees); 0 for a family without split signing.
    pub fn sign_task_count(&self) -> usize {
        self.as_slh_dsa().map_or(0, DynSigningKey::sign_task_count)
    }

    /// Step 2: task `i` of `plan`, the tree's part of the signature then its
    /// root ([`DynSigningKey::sign_task`]).
    pub fn sign_task(&self, plan: &[u8], i: usize) -> Result<Vec<u8>, Error> {
        self.fips(SPLIT)?.sign_task(plan, i)
    }

    /// Step 3: the signature from `plan` and every task's output in task
    /// order, verified before it is returned; byte for byte what
    /// [`AnySigningKey::sign`] gives ([`DynSigningKey::sign_finish`]).
    pub fn sign_finish(&self, plan: &[u8], parts: &[&[u8]]) -> Result<Vec<u8>, Error> {
        self.fips(SPLIT)?.sign_finish(plan, parts)
    }

    /// Signs each message with `opts`, `opts.threads` being the budget of the
    /// whole batch (signatures side by side, or threads inside each); the
    /// signatures are those of signing one by one.
    pub fn sign_batch(
        &self,
        messages: &[&[u8]],
        opts: &SignOptions<'_>,
    ) -> Result<Vec<Vec<u8>>, Error> {
        self.sign_batch_until(messages, opts, &AtomicBool::new(false))
    }

    /// [`AnySigningKey::sign_batch`] that another thread can stop:
    /// [`Error::Cancelled`] once `stop` is set.
    pub fn sign_batch_until(
        &self,
        messages: &[&[u8]],
        opts: &SignOptions<'_>,
        stop: &AtomicBool,
    ) -> Result<Vec<Vec<u8>>, Error> {
        self.check_options(opts)?;
        match &self.0 {
            Secret::SlhDsa(k) => k.sign_batch_until(messages, opts, stop),
            Secret::SphincsPlus(k) => k.sign_batch_until(messages, &spx_options(opts), stop),
            Secret::Sphincs256(k) => sign_many(messages.len(), opts.threads, stop, |i, threads| {
                Ok(k.sign_with_threads(messages[i], threads))
            }),
        }
    }

    /// Whether signing with `opts` reads the message twice (pure FIPS 205
    /// signing and round 3.1: R, then the digest), so that a streamed message
    /// must be rewindable; once for a pre-hash, and for SPHINCS-256, which
    /// takes the message whole.
    pub fn reads_message_twice(&self, opts: &SignOptions<'_>) -> bool {
        reads_message_twice(self.algorithm(), self.mode(), opts)
    }

    /// Checks `opts` against what this key's family has, as signing does
    /// first ([`Error::Unsupported`]); for callers that stream a message in
    /// later and want the refusal up front.
    pub fn check_options(&self, opts: &SignOptions<'_>) -> Result<(), Error> {
        self.algorithm().check_sign_options(opts)
    }

    fn fips(&self, what: &'static str) -> Result<&DynSigningKey, Error> {
        self.as_slh_dsa().ok_or_else(|| self.unsupported(what))
    }

    fn unsupported(&self, what: &'static str) -> Error {
        Error::Unsupported {
            family: self.algorithm().family().name(),
            what,
        }
    }
}

fn spx_options<'a>(opts: &SignOptions<'a>) -> SpxSignOptions<'a> {
    SpxSignOptions {
        randomness: opts.randomness,
        threads: opts.threads,
        fault_hardened: opts.fault_hardened,
    }
}

impl From<DynSigningKey> for AnySigningKey {
    fn from(k: DynSigningKey) -> Self {
        AnySigningKey(Secret::SlhDsa(k))
    }
}

impl From<SpxSigningKey> for AnySigningKey {
    fn from(k: SpxSigningKey) -> Self {
        AnySigningKey(Secret::SphincsPlus(k))
    }
}

impl From<Sphincs256SigningKey> for AnySigningKey {
    fn from(k: Sphincs256SigningKey) -> Self {
        AnySigningKey(Secret::Sphincs256(Box::new(k)))
    }
}

impl core::fmt::Debug for AnySigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AnySigningKey")
            .field("algorithm", &self.algorithm())
            .field("mode", &self.mode())
            .finish_non_exhaustive()
    }
}

impl AnyVerifyingKey {
    /// Loads a raw public key.
    pub fn from_bytes(alg: AnyAlgorithm, pk: &[u8]) -> Result<Self, Error> {
        Ok(AnyVerifyingKey(match alg {
            AnyAlgorithm::SlhDsa(a) => Public::SlhDsa(DynVerifyingKey::from_bytes(a, pk)?),
            AnyAlgorithm::SphincsPlus(a) => {
                Public::SphincsPlus(SpxVerifyingKey::from_bytes(a, pk)?)
            }
            AnyAlgorithm::Sphincs256 => {
                Public::Sphincs256(Box::new(Sphincs256VerifyingKey::from_bytes(pk)?))
            }
        }))
    }

    /// Reads a SubjectPublicKeyInfo, DER or PEM (FIPS 205 keys only).
    pub fn from_spki(input: &[u8]) -> Result<Self, Error> {
        DynVerifyingKey::from_spki(input).map(Self::from)
    }

    /// Reads the subject public key of an X.509 certificate, PEM
    /// (`CERTIFICATE`) or DER, as `openssl pkeyutl -certin` does: the key in
    /// the mode its OID names (pure SLH-DSA or HashSLH-DSA, RFC 9909). The
    /// certificate's signature and validity are not checked; see
    /// [`crate::pki::cert::certificate_key`] for the errors.
    #[cfg(feature = "pki")]
    pub fn from_certificate(input: &[u8]) -> Result<Self, Error> {
        crate::pki::cert::certificate_key(input).map(Self::from)
    }

    /// The parameter set.
    pub fn algorithm(&self) -> AnyAlgorithm {
        match &self.0 {
            Public::SlhDsa(k) => AnyAlgorithm::SlhDsa(k.algorithm()),
            Public::SphincsPlus(k) => AnyAlgorithm::SphincsPlus(k.algorithm()),
            Public::Sphincs256(_) => AnyAlgorithm::Sphincs256,
        }
    }

    /// The FIPS 205 key, if this is one.
    pub fn as_slh_dsa(&self) -> Option<&DynVerifyingKey> {
        match &self.0 {
            Public::SlhDsa(k) => Some(k),
            _ => None,
        }
    }

    /// The RFC 9909 mode of a FIPS 205 key; `None` for families without modes.
    pub fn mode(&self) -> Option<KeyMode> {
        self.as_slh_dsa().map(DynVerifyingKey::mode)
    }

    /// Whether signing with this key's secret half and `opts` reads the
    /// message twice: [`AnySigningKey::reads_message_twice`], for a key held
    /// elsewhere ([`super::AnySigner`]).
    pub fn signing_reads_message_twice(&self, opts: &SignOptions<'_>) -> bool {
        reads_message_twice(self.algorithm(), self.mode(), opts)
    }

    /// This key bound to `mode` (FIPS 205 keys only).
    pub fn with_mode(self, mode: KeyMode) -> Result<Self, Error> {
        match self.0 {
            Public::SlhDsa(k) => k.with_mode(mode).map(Self::from),
            _ => Err(self.unsupported(MODES)),
        }
    }

    /// The raw public key.
    pub fn to_bytes(&self) -> Vec<u8> {
        match &self.0 {
            Public::SlhDsa(k) => k.to_bytes(),
            Public::SphincsPlus(k) => k.to_bytes(),
            Public::Sphincs256(k) => k.to_bytes(),
        }
    }

    /// SubjectPublicKeyInfo DER under the key mode's OID (FIPS 205 keys only).
    pub fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        self.fips()?.to_spki_der()
    }

    /// SubjectPublicKeyInfo PEM (`PUBLIC KEY`) (FIPS 205 keys only).
    pub fn to_spki_pem(&self) -> Result<String, Error> {
        self.fips()?.to_spki_pem()
    }

    /// Verifies: `Ok(())` if valid, [`Error::InvalidSignature`] if not, other
    /// errors for a signature of the wrong length, an oversize context, or a
    /// context or pre-hash the family lacks ([`Error::Unsupported`]).
    /// `prehash: None` verifies a FIPS 205 key in its own mode.
    pub fn verify(
        &self,
        msg: &[u8],
        sig: &[u8],
        context: &[u8],
        prehash: Option<PreHash>,
    ) -> Result<(), Error> {
        self.verify_stream(&mut &msg[..], sig, context, prehash)
    }

    /// [`AnyVerifyingKey::verify`] over a streamed message (read once;
    /// SPHINCS-256 reads it into memory).
    pub fn verify_stream(
        &self,
        msg: &mut dyn MessageSource,
        sig: &[u8],
        context: &[u8],
        prehash: Option<PreHash>,
    ) -> Result<(), Error> {
        self.algorithm().check_verify_options(context, prehash)?;
        match &self.0 {
            Public::SlhDsa(k) => k.verify_stream(msg, sig, context, prehash),
            Public::SphincsPlus(k) => k.verify_stream(msg, sig),
            Public::Sphincs256(k) => k.verify(&read_all(msg)?, sig),
        }
    }

    /// [`AnyVerifyingKey::verify`] with the message fed in pieces
    /// afterwards, for hosts that learn the signature before the message
    /// (a streaming API, a detached signature read first): see
    /// [`MessageVerifier`]. The same options and signature length are
    /// checked here, before any of the message; memory stays constant
    /// however long the message (SPHINCS-256 excepted: it holds it).
    pub fn verifier(
        &self,
        sig: &[u8],
        context: &[u8],
        prehash: Option<PreHash>,
    ) -> Result<MessageVerifier, Error> {
        self.algorithm().check_verify_options(context, prehash)?;
        match &self.0 {
            Public::SlhDsa(k) => k.verifier(sig, context, prehash),
            Public::SphincsPlus(k) => k.verifier(sig),
            Public::Sphincs256(k) => k.verifier(sig),
        }
    }

    fn fips(&self) -> Result<&DynVerifyingKey, Error> {
        self.as_slh_dsa().ok_or_else(|| self.unsupported(ENCODING))
    }

    fn unsupported(&self, what: &'static str) -> Error {
        Error::Unsupported {
            family: self.algorithm().family().name(),
            what,
        }
    }
}

impl From<DynVerifyingKey> for AnyVerifyingKey {
    fn from(k: DynVerifyingKey) -> Self {
        AnyVerifyingKey(Public::SlhDsa(k))
    }
}

impl From<SpxVerifyingKey> for AnyVerifyingKey {
    fn from(k: SpxVerifyingKey) -> Self {
        AnyVerifyingKey(Public::SphincsPlus(k))
    }
}

impl From<Sphincs256VerifyingKey> for AnyVerifyingKey {
    fn from(k: Sphincs256VerifyingKey) -> Self {
        AnyVerifyingKey(Public::Sphincs256(Box::new(k)))
    }
}

impl core::fmt::Debug for AnyVerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AnyVerifyingKey")
            .field("algorithm", &self.algorithm())
            .field("mode", &self.mode())
            .finish_non_exhaustive()
    }
}

/// Whether signing under a key of `alg` in `mode` with `opts` reads the
/// message twice (the answer of both key halves' methods).
fn reads_message_twice(alg: AnyAlgorithm, mode: Option<KeyMode>, opts: &SignOptions<'_>) -> bool {
    match alg.family() {
        Family::SlhDsa => opts.prehash.is_none() && !matches!(mode, Some(KeyMode::HashSlhDsa(_))),
        Family::SphincsPlus => true,
        Family::Sphincs256 => false,
    }
}
