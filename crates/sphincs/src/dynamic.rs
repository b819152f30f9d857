//! The dynamic API: keys whose parameter set is chosen at run time (CLI,
//! bindings). Each call dispatches once to the generic engine.

use crate::prelude::*;
use core::sync::atomic::AtomicBool;
use zeroize::Zeroizing;

use crate::error::Error;
use crate::keys::{plan_with_options, sign_with_options, SignOptions, SigningKey, VerifyingKey};
use crate::message::{MessageSource, MessageVerifier};
use crate::mode::KeyMode;
use crate::params::Algorithm;
use crate::parts::PublicParts;
use crate::prehash::PreHash;
use crate::sign_trees::task_count;
use crate::slh_dsa::{
    check_signature_len, pending_external, pending_internal, sign_digest, sign_finish,
    sign_internal_vec, sign_task, verify_digest, verify_external, verify_parts, SecretParts,
};
use crate::with_parameter_set;

/// A secret key of any parameter set.
#[derive(Clone)]
pub struct DynSigningKey {
    alg: Algorithm,
    parts: SecretParts,
    mode: KeyMode,
}

/// A public key of any parameter set.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DynVerifyingKey {
    alg: Algorithm,
    parts: PublicParts,
    mode: KeyMode,
}

impl DynSigningKey {
    fn from_typed<P: crate::ParameterSet>(k: SigningKey<P>) -> Self {
        DynSigningKey {
            alg: P::ALGORITHM,
            parts: k.parts().clone(),
            mode: k.mode(),
        }
    }

    /// A fresh key from the operating system's RNG (FIPS 205 Algorithm 21).
    pub fn generate(alg: Algorithm) -> Result<Self, Error> {
        Self::generate_with_threads(alg, 1)
    }

    /// [`DynSigningKey::generate`] with the top tree spread over `threads` threads.
    pub fn generate_with_threads(alg: Algorithm, threads: usize) -> Result<Self, Error> {
        with_parameter_set!(alg, P => SigningKey::<P>::generate_with_threads(threads).map(Self::from_typed), else => Err(Error::not_dispatched(alg)))
    }

    /// `slh_keygen_internal` (Algorithm 18) from n-byte seeds.
    pub fn from_seeds(
        alg: Algorithm,
        sk_seed: &[u8],
        sk_prf: &[u8],
        pk_seed: &[u8],
    ) -> Result<Self, Error> {
        Self::from_seeds_with_threads(alg, sk_seed, sk_prf, pk_seed, 1)
    }

    /// [`DynSigningKey::from_seeds`] with the top tree spread over `threads` threads.
    pub fn from_seeds_with_threads(
        alg: Algorithm,
        sk_seed: &[u8],
        sk_prf: &[u8],
        pk_seed: &[u8],
        threads: usize,
    ) -> Result<Self, Error> {
        with_parameter_set!(alg, P => SigningKey::<P>::from_seeds_with_threads(sk_seed, sk_prf, pk_seed, threads).map(Self::from_typed), else => Err(Error::not_dispatched(alg)))
    }

    /// [`DynSigningKey::generate_with_threads`], calling `progress(done,
    /// total)` while a one-tree set (draft SP 800-230) computes its tree.
    pub fn generate_with_progress(
        alg: Algorithm,
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Self, Error> {
        Self::generate_until(alg, threads, progress, &AtomicBool::new(false))
    }

    /// [`DynSigningKey::generate_with_progress`] that another thread can
    /// stop (a binding watching for Ctrl-C): once `stop` is set, a one-tree
    /// set (draft SP 800-230) leaves its tree within a fraction of a second
    /// and the call returns [`Error::Cancelled`] (see
    /// [`SigningKey::from_seeds_until`]).
    pub fn generate_until(
        alg: Algorithm,
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        stop: &AtomicBool,
    ) -> Result<Self, Error> {
        with_parameter_set!(alg, P => SigningKey::<P>::generate_until(threads, progress, stop).map(Self::from_typed), else => Err(Error::not_dispatched(alg)))
    }

    /// [`DynSigningKey::from_bytes`] with the seeds' tree recomputed on
    /// `threads` threads and `progress(done, total)` called as it goes (a
    /// one-tree set, draft SP 800-230, then keeps the tree as its cache).
    pub fn from_bytes_with_progress(
        alg: Algorithm,
        sk: &[u8],
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Self, Error> {
        Self::from_bytes_until(alg, sk, threads, progress, &AtomicBool::new(false))
    }

    /// [`DynSigningKey::from_bytes_with_progress`] that another thread can
    /// stop ([`Error::Cancelled`]), as [`DynSigningKey::generate_until`].
    pub fn from_bytes_until(
        alg: Algorithm,
        sk: &[u8],
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        stop: &AtomicBool,
    ) -> Result<Self, Error> {
        let raw = Self::from_bytes_unchecked(alg, sk)?;
        let n = alg.params().n;
        let fresh = Self::from_seeds_until(
            alg,
            [&sk[..n], &sk[n..2 * n], &sk[2 * n..3 * n]],
            threads,
            progress,
            stop,
        )?;
        // PK.root is public: comparing it is no leak.
        if fresh.verifying_key() == raw.verifying_key() {
            Ok(fresh)
        } else {
            Err(Error::KeyMismatch)
        }
    }

    /// [`DynSigningKey::from_seeds_with_threads`], calling `progress(done,
    /// total)` while a one-tree set (draft SP 800-230) computes its tree.
    pub fn from_seeds_with_progress(
        alg: Algorithm,
        seeds: [&[u8]; 3],
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Self, Error> {
        Self::from_seeds_until(alg, seeds, threads, progress, &AtomicBool::new(false))
    }

    /// [`DynSigningKey::from_seeds_with_progress`] that another thread can
    /// stop ([`Error::Cancelled`]), as [`DynSigningKey::generate_until`].
    pub fn from_seeds_until(
        alg: Algorithm,
        seeds: [&[u8]; 3],
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        stop: &AtomicBool,
    ) -> Result<Self, Error> {
        let [s, p, k] = seeds;
        with_parameter_set!(alg, P => SigningKey::<P>::from_seeds_until(s, p, k, threads, progress, stop).map(Self::from_typed), else => Err(Error::not_dispatched(alg)))
    }

    /// The serialized tree cache of a one-tree set's key (see
    /// [`SigningKey::tree_cache`]); `None` for the other sets.
    pub fn tree_cache(&self) -> Option<Vec<u8>> {
        self.parts
            .cache
            .as_ref()
            .map(|c| c.to_bytes(&self.alg.params()))
    }

    /// Adopts a serialized tree cache after checking it (see
    /// [`SigningKey::load_tree_cache`]); on an error the key is unchanged.
    pub fn load_tree_cache(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let parts = &mut self.parts;
        with_parameter_set!(self.alg, P => {
            let cache = crate::tree_cache::TreeCache::from_bytes::<P>(bytes, &parts.pk)?;
            cache.check_secret::<P>(&parts.sk_seed, &parts.pk.pk_seed)?;
            parts.cache = Some(alloc::sync::Arc::new(cache));
            Ok(())
        }, else => Err(Error::not_dispatched(self.alg)))
    }

    /// Loads a raw secret key, checking that PK.root matches the seeds.
    pub fn from_bytes(alg: Algorithm, sk: &[u8]) -> Result<Self, Error> {
        with_parameter_set!(alg, P => SigningKey::<P>::from_bytes(sk).map(Self::from_typed), else => Err(Error::not_dispatched(alg)))
    }

    /// Loads a raw secret key without the PK.root check.
    pub fn from_bytes_unchecked(alg: Algorithm, sk: &[u8]) -> Result<Self, Error> {
        with_parameter_set!(alg, P => SigningKey::<P>::from_bytes_unchecked(sk).map(Self::from_typed), else => Err(Error::not_dispatched(alg)))
    }

    /// The parameter set.
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// The mode this key may sign in: [`KeyMode::Unrestricted`] for a key
    /// generated or loaded from raw bytes, the mode of its OID for one read
    /// from PKCS#8.
    pub fn mode(&self) -> KeyMode {
        self.mode
    }

    /// This key bound to `mode` (its PKCS#8 and SPKI then carry that mode's
    /// OID); [`Error::PreHashNotBound`] for a HashSLH-DSA mode with a pre-hash
    /// RFC 9909 does not pair with the set.
    pub fn with_mode(mut self, mode: KeyMode) -> Result<Self, Error> {
        self.mode = mode.validate(self.alg)?;
        Ok(self)
    }

    /// `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`, wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.parts.to_raw(self.alg.params().n)
    }

    /// The public half.
    pub fn verifying_key(&self) -> DynVerifyingKey {
        DynVerifyingKey {
            alg: self.alg,
            parts: self.parts.pk,
            mode: self.mode,
        }
    }

    /// Signs `msg` per `opts` (FIPS 205 Algorithms 22 and 23). With
    /// `opts.prehash` `None` the key's mode decides (a HashSLH-DSA key uses
    /// its pre-hash); a request against the mode is [`Error::WrongKeyMode`].
    pub fn sign(&self, msg: &[u8], opts: &SignOptions<'_>) -> Result<Vec<u8>, Error> {
        self.sign_stream(&mut &msg[..], opts)
    }

    /// Signs a streamed message (read twice for pure signing, once with a pre-hash).
    pub fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        with_parameter_set!(self.alg, P => sign_with_options::<P>(&self.parts, self.mode, msg, opts), else => Err(Error::not_dispatched(self.alg)))
    }

    /// Step 1 of one signature split into tree tasks, for processes that
    /// share no memory (Web Workers) to compute its trees: `R ‖ digest`
    /// (n + m bytes), the randomizer and `H_msg`'s output, made from `msg`
    /// and `opts` exactly as [`sign`](Self::sign) makes them (context,
    /// pre-hash, the key's mode, deterministic or given randomness): one pass
    /// over `msg`, or two for pure signing. Then [`sign_task`](Self::sign_task)
    /// for each of the [`sign_task_count`](Self::sign_task_count) tasks, in
    /// any order and anywhere this key is, and
    /// [`sign_finish`](Self::sign_finish). `opts.threads` is unused; with
    /// `opts.fault_hardened` the plan is computed twice and compared
    /// ([`Error::FaultDetected`]), and to harden the trees as `sign` does
    /// the caller computes each task twice (on different workers) and
    /// compares the outputs before finishing.
    pub fn sign_plan(&self, msg: &[u8], opts: &SignOptions<'_>) -> Result<Vec<u8>, Error> {
        with_parameter_set!(self.alg, P => plan_with_options::<P>(&self.parts, self.mode, &mut &msg[..], opts), else => Err(Error::not_dispatched(self.alg)))
    }

    /// How many tree tasks a signature of this set has: d (the XMSS trees,
    /// layer 0 first) + k (the FORS trees).
    pub fn sign_task_count(&self) -> usize {
        task_count(&self.alg.params())
    }

    /// Step 2: task `i` of `plan` ([`sign_plan`](Self::sign_plan)): the
    /// tree's part of the signature (an XMSS tree's authentication path, hp·n
    /// bytes; a FORS tree's (a+1)·n bytes of `SIG_FORS`), then its root (n
    /// bytes). A plan of the wrong length is [`Error::InvalidLength`], an `i`
    /// past the last task [`Error::InvalidTask`]. A draft SP 800-230 key
    /// without its tree cache recomputes its tree in task 0, as `sign` does.
    pub fn sign_task(&self, plan: &[u8], i: usize) -> Result<Vec<u8>, Error> {
        with_parameter_set!(self.alg, P => sign_task::<P>(&self.parts, plan, i), else => Err(Error::not_dispatched(self.alg)))
    }

    /// Step 3: the signature from `plan` and every task's output in task
    /// order: the FORS key and each layer's WOTS+ signature are computed
    /// here. It is the signature [`sign`](Self::sign) makes from the same
    /// message and options, byte for byte. It is verified before it is
    /// returned (a fraction of the cost of signing): outputs of another
    /// plan or key, a wrong root, or a secret key loaded unchecked that
    /// does not match its public key are [`Error::InvalidSignature`] and no
    /// signature. A wrong number of outputs is [`Error::InvalidTask`], an
    /// output of the wrong length [`Error::InvalidLength`].
    pub fn sign_finish(&self, plan: &[u8], parts: &[&[u8]]) -> Result<Vec<u8>, Error> {
        with_parameter_set!(self.alg, P => sign_finish::<P>(&self.parts, plan, parts), else => Err(Error::not_dispatched(self.alg)))
    }

    /// HashSLH-DSA (Algorithm 23) of a digest `digest` the caller computed
    /// with `prehash` (PKCS#11's `CKM_HASH_SLH_DSA`): the signature
    /// [`sign`](Self::sign) with `opts.prehash = Some(prehash)` makes of the
    /// message itself. `opts.prehash` is ignored; `opts.context`,
    /// `opts.randomness`, `opts.threads` and `opts.fault_hardened` apply. A
    /// digest of the wrong length is [`Error::InvalidLength`], a pre-hash
    /// against the key's mode [`Error::WrongKeyMode`].
    pub fn sign_digest(
        &self,
        digest: &[u8],
        prehash: PreHash,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        self.mode.require(self.alg, Some(prehash))?;
        let n = self.alg.params().n;
        let rnd = crate::rand::addrnd(opts.randomness, n)?;
        let rnd = rnd.as_ref().map(|r| &r[..n]);
        with_parameter_set!(self.alg, P => sign_digest::<P>(&self.parts, digest, opts.context, prehash, rnd, opts.threads, opts.fault_hardened), else => Err(Error::not_dispatched(self.alg)))
    }

    /// `slh_sign_internal` (Algorithm 19) on M' as given; `None` is deterministic.
    pub fn sign_internal(&self, m: &[u8], addrnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        with_parameter_set!(self.alg, P => sign_internal_vec::<P>(&self.parts, m, addrnd), else => Err(Error::not_dispatched(self.alg)))
    }
}

impl core::fmt::Debug for DynSigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynSigningKey")
            .field("algorithm", &self.alg)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl DynVerifyingKey {
    /// Loads a raw public key `PK.seed ‖ PK.root`.
    pub fn from_bytes(alg: Algorithm, pk: &[u8]) -> Result<Self, Error> {
        with_parameter_set!(alg, P => VerifyingKey::<P>::from_bytes(pk).map(|k| DynVerifyingKey { alg, parts: *k.parts(), mode: KeyMode::Unrestricted }), else => Err(Error::not_dispatched(alg)))
    }

    /// The parameter set.
    pub fn algorithm(&self) -> Algorithm {
        self.alg
    }

    /// The mode this key may verify in (see [`DynSigningKey::mode`]).
    pub fn mode(&self) -> KeyMode {
        self.mode
    }

    /// This key bound to `mode`; see [`DynSigningKey::with_mode`].
    pub fn with_mode(mut self, mode: KeyMode) -> Result<Self, Error> {
        self.mode = mode.validate(self.alg)?;
        Ok(self)
    }

    /// `PK.seed ‖ PK.root`.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.parts.to_raw(self.alg.params().n)
    }

    /// Verifies (Algorithms 24 and 25): `Ok(())` if valid, [`Error::InvalidSignature`]
    /// if not, other errors for a signature of the wrong length or an oversize context.
    /// `prehash: None` verifies in the key's mode (a HashSLH-DSA key uses its
    /// pre-hash); a request against the mode is [`Error::WrongKeyMode`].
    pub fn verify(
        &self,
        msg: &[u8],
        sig: &[u8],
        context: &[u8],
        prehash: Option<PreHash>,
    ) -> Result<(), Error> {
        self.verify_stream(&mut &msg[..], sig, context, prehash)
    }

    /// Verifies a signature over a streamed message.
    pub fn verify_stream(
        &self,
        msg: &mut dyn MessageSource,
        sig: &[u8],
        context: &[u8],
        prehash: Option<PreHash>,
    ) -> Result<(), Error> {
        let prehash = self.mode.resolve(self.alg, prehash)?;
        with_parameter_set!(self.alg, P => verify_external::<P>(&self.parts, msg, sig, context, prehash), else => Err(Error::not_dispatched(self.alg)))
    }

    /// [`Self::verify`] with the message fed in pieces afterwards
    /// ([`MessageVerifier`]): a signature of the wrong length or an oversize
    /// context is refused here, before any of the message.
    pub fn verifier(
        &self,
        sig: &[u8],
        context: &[u8],
        prehash: Option<PreHash>,
    ) -> Result<MessageVerifier, Error> {
        let prehash = self.mode.resolve(self.alg, prehash)?;
        with_parameter_set!(self.alg, P => pending_external::<P>(&self.parts, sig, context, prehash), else => Err(Error::not_dispatched(self.alg)))
            .map(MessageVerifier::new)
    }

    /// `slh_verify_internal` (Algorithm 20) with M' fed in pieces afterwards.
    pub fn verifier_internal(&self, sig: &[u8]) -> Result<MessageVerifier, Error> {
        check_signature_len(self.alg, sig.len())?;
        Ok(MessageVerifier::new(
            with_parameter_set!(self.alg, P => pending_internal::<P>(&self.parts, sig), else => return Err(Error::not_dispatched(self.alg))),
        ))
    }

    /// The key's `PK.seed ‖ PK.root`, for the batch verifier.
    pub(crate) fn parts(&self) -> &PublicParts {
        &self.parts
    }

    /// HashSLH-DSA verification (Algorithm 25) of a digest the caller
    /// computed with `prehash`: `Ok(())` if `sig` signs that digest under
    /// `context`, [`Error::InvalidSignature`] if not; a signature or digest
    /// of the wrong length, an oversize context or a pre-hash against the
    /// key's mode are the errors [`verify`](Self::verify) gives.
    pub fn verify_digest(
        &self,
        digest: &[u8],
        sig: &[u8],
        context: &[u8],
        prehash: PreHash,
    ) -> Result<(), Error> {
        self.mode.require(self.alg, Some(prehash))?;
        with_parameter_set!(self.alg, P => verify_digest::<P>(&self.parts, digest, sig, context, prehash), else => Err(Error::not_dispatched(self.alg)))
    }

    /// `slh_verify_internal` (Algorithm 20) on M' as given.
    pub fn verify_internal(&self, m: &[u8], sig: &[u8]) -> bool {
        with_parameter_set!(self.alg, P => verify_parts::<P>(&self.parts, &mut &m[..], sig).unwrap_or(false), else => false)
    }
}

impl core::fmt::Debug for DynVerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynVerifyingKey")
            .field("algorithm", &self.alg)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}
