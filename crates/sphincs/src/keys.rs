//! The typed API: keys and signatures bound to one parameter set, and the
//! `signature` crate's traits.

#[cfg(feature = "alloc")]
use crate::prelude::*;
use core::fmt;
use core::marker::PhantomData;
use core::sync::atomic::AtomicBool;

#[cfg(feature = "alloc")]
use signature::rand_core::TryCryptoRng;
use zeroize::Zeroizing;

use crate::error::Error;
use crate::message::MessageSource;
#[cfg(feature = "alloc")]
use crate::message::MessageVerifier;
use crate::mode::KeyMode;
use crate::params::ParameterSet;
#[cfg(feature = "alloc")]
use crate::params::MAX_N;
use crate::parts::PublicParts;
use crate::prehash::PreHash;
use crate::rand::{addrnd, os_random, Randomness};
#[cfg(feature = "alloc")]
use crate::slh_dsa::{check_signature_len, pending_external, plan_external, sign_external};
use crate::slh_dsa::{
    keygen_parts_with_progress, root_matches, sign_external_into, verify_external, SecretParts,
};
#[cfg(feature = "alloc")]
use crate::tree_cache::TreeCache;

/// How to sign: context string, pure or pre-hash, and randomness.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SignOptions<'a> {
    /// Context string, at most 255 bytes.
    pub context: &'a [u8],
    /// `None` for pure SLH-DSA, or the pre-hash of HashSLH-DSA.
    pub prehash: Option<PreHash>,
    /// Source of `addrnd`.
    pub randomness: Randomness<'a>,
    /// Threads to spread the signature's trees over; 0 and 1 both sign on
    /// the calling thread alone. The signature is the same for any count.
    pub threads: usize,
    /// Fault-attack countermeasure: compute the whole signature twice (same
    /// opt_rand and R) and release it only if both computations agree, in
    /// constant time; otherwise [`Error::FaultDetected`] and no signature.
    /// Twice the signing time and one more signature-sized allocation.
    /// Default `false`.
    pub fault_hardened: bool,
}

/// What `opts` and the key's `mode` make of a signature's inputs for set
/// `P`: the pre-hash (the mode decides when `opts.prehash` is `None`) and
/// `addrnd` (n bytes, or `None` for the deterministic variant), handed to
/// `f`.
#[cfg(feature = "alloc")]
fn with_inputs<P: ParameterSet, T>(
    mode: KeyMode,
    opts: &SignOptions<'_>,
    f: impl FnOnce(Option<PreHash>, Option<&[u8]>) -> Result<T, Error>,
) -> Result<T, Error> {
    let prehash = mode.resolve(P::ALGORITHM, opts.prehash)?;
    let n = P::PARAMS.n;
    let rnd = addrnd(opts.randomness, n)?;
    f(prehash, rnd.as_ref().map(|r| &r[..n]))
}

/// Signs a streamed message per `opts` with the key parts of set `P`, in the
/// key's `mode`.
#[cfg(feature = "alloc")]
pub(crate) fn sign_with_options<P: ParameterSet>(
    sk: &SecretParts,
    mode: KeyMode,
    msg: &mut dyn MessageSource,
    opts: &SignOptions<'_>,
) -> Result<Vec<u8>, Error> {
    with_inputs::<P, _>(mode, opts, |prehash, rnd| {
        let (threads, hardened) = (opts.threads, opts.fault_hardened);
        sign_external::<P>(sk, msg, opts.context, prehash, rnd, threads, hardened)
    })
}

/// The first step of a signature split into tree tasks: `R ‖ digest`, made
/// from a streamed message, `opts` and the key's `mode` as
/// [`sign_with_options`] makes them (`opts.threads` unused).
#[cfg(feature = "alloc")]
pub(crate) fn plan_with_options<P: ParameterSet>(
    sk: &SecretParts,
    mode: KeyMode,
    msg: &mut dyn MessageSource,
    opts: &SignOptions<'_>,
) -> Result<Vec<u8>, Error> {
    with_inputs::<P, _>(mode, opts, |prehash, rnd| {
        plan_external::<P>(sk, msg, opts.context, prehash, rnd, opts.fault_hardened)
    })
}

/// An SLH-DSA secret key of parameter set `P`: SK.seed, SK.prf and the
/// public key, and the [`KeyMode`] it may sign in (a key made here or loaded
/// from raw bytes is [`KeyMode::Unrestricted`]; one read from PKCS#8 has the
/// mode of its OID).
#[derive(Clone)]
pub struct SigningKey<P: ParameterSet> {
    parts: SecretParts,
    mode: KeyMode,
    _p: PhantomData<P>,
}

/// An SLH-DSA public key of parameter set `P`: PK.seed and PK.root, and the
/// [`KeyMode`] it may verify in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct VerifyingKey<P: ParameterSet> {
    parts: PublicParts,
    mode: KeyMode,
    _p: PhantomData<P>,
}

/// An SLH-DSA signature of parameter set `P`, always of the set's length
/// (needs the `alloc` feature; without it, sign with [`SigningKey::sign_into`]
/// into a buffer and verify byte slices).
#[cfg(feature = "alloc")]
#[derive(Clone, PartialEq, Eq)]
pub struct Signature<P: ParameterSet> {
    bytes: Vec<u8>,
    _p: PhantomData<P>,
}

impl<P: ParameterSet> SigningKey<P> {
    /// `slh_keygen_internal` (FIPS 205 Algorithm 18) from n-byte seeds.
    pub fn from_seeds(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> Result<Self, Error> {
        Self::from_seeds_with_threads(sk_seed, sk_prf, pk_seed, 1)
    }

    /// [`SigningKey::from_seeds`] with the top tree's leaves spread over
    /// `threads` threads (the s sets gain; their top tree has 256 or 512 leaves).
    pub fn from_seeds_with_threads(
        sk_seed: &[u8],
        sk_prf: &[u8],
        pk_seed: &[u8],
        threads: usize,
    ) -> Result<Self, Error> {
        Self::from_seeds_with_progress(sk_seed, sk_prf, pk_seed, threads, &|_, _| {})
    }

    /// [`SigningKey::from_seeds_with_threads`], calling `progress(done,
    /// total)` as the tree of a one-tree set (draft SP 800-230) is computed
    /// (never called for the other sets).
    pub fn from_seeds_with_progress(
        sk_seed: &[u8],
        sk_prf: &[u8],
        pk_seed: &[u8],
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Self, Error> {
        let never = AtomicBool::new(false);
        Self::from_seeds_until(sk_seed, sk_prf, pk_seed, threads, progress, &never)
    }

    /// [`SigningKey::from_seeds_with_progress`] that another thread can
    /// stop (a binding watching for Ctrl-C): once `stop` is set, the tree of
    /// a one-tree set (draft SP 800-230, a minute or more) is left within a
    /// fraction of a second and the call returns [`Error::Cancelled`]. The
    /// other sets' keys take milliseconds and are not stopped.
    pub fn from_seeds_until(
        sk_seed: &[u8],
        sk_prf: &[u8],
        pk_seed: &[u8],
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        stop: &AtomicBool,
    ) -> Result<Self, Error> {
        Ok(Self::wrap(keygen_parts_with_progress::<P>(
            sk_seed, sk_prf, pk_seed, threads, progress, stop,
        )?))
    }

    /// The serialized tree cache of a one-tree set's key (draft SP 800-230:
    /// public data, kept beside the key so that loading it need not recompute
    /// the tree); `None` for the other sets, or a key loaded without it.
    #[cfg(feature = "alloc")]
    pub fn tree_cache(&self) -> Option<Vec<u8>> {
        self.parts.cache.as_ref().map(|c| c.to_bytes(&P::PARAMS))
    }

    /// Adopts a serialized tree cache ([`SigningKey::tree_cache`]) after
    /// checking it: a truncated, corrupted, foreign or stale cache is an
    /// [`Error::TreeCache`] saying which, and the key keeps signing without it
    /// (recomputing its tree each time). A cache that belongs to PK.root
    /// while SK.seed does not give its nodes (one subtree is recomputed to
    /// see) is [`Error::KeyMismatch`]: the secret key is damaged, as loading
    /// it with its PK.root check would find. Signatures are verified before
    /// release either way.
    #[cfg(feature = "alloc")]
    pub fn load_tree_cache(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let cache = TreeCache::from_bytes::<P>(bytes, &self.parts.pk)?;
        cache.check_secret::<P>(&self.parts.sk_seed, &self.parts.pk.pk_seed)?;
        self.parts.cache = Some(alloc::sync::Arc::new(cache));
        Ok(())
    }

    /// `slh_keygen` (Algorithm 21): a fresh key from the operating system's RNG.
    pub fn generate() -> Result<Self, Error> {
        Self::generate_with_threads(1)
    }

    /// [`SigningKey::generate`] on `threads` threads.
    pub fn generate_with_threads(threads: usize) -> Result<Self, Error> {
        Self::generate_with_progress(threads, &|_, _| {})
    }

    /// [`SigningKey::generate_with_threads`], calling `progress(done, total)`
    /// as the tree of a one-tree set (draft SP 800-230) is computed.
    pub fn generate_with_progress(
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Self, Error> {
        Self::generate_until(threads, progress, &AtomicBool::new(false))
    }

    /// [`SigningKey::generate_with_progress`] that another thread can stop
    /// ([`Error::Cancelled`]), as [`SigningKey::from_seeds_until`].
    pub fn generate_until(
        threads: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        stop: &AtomicBool,
    ) -> Result<Self, Error> {
        let n = P::PARAMS.n;
        let seeds = [os_random(n)?, os_random(n)?, os_random(n)?].map(Zeroizing::new);
        Self::from_seeds_until(
            &seeds[0][..n],
            &seeds[1][..n],
            &seeds[2][..n],
            threads,
            progress,
            stop,
        )
    }

    /// Loads `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`, recomputing PK.root from
    /// the seeds and comparing in constant time ([`Error::KeyMismatch`] if it differs).
    pub fn from_bytes(sk: &[u8]) -> Result<Self, Error> {
        let mut key = Self::from_bytes_unchecked(sk)?;
        if root_matches::<P>(&mut key.parts, 1) {
            Ok(key)
        } else {
            Err(Error::KeyMismatch)
        }
    }

    /// Loads a secret key without recomputing PK.root: faster, but a corrupted
    /// key then yields signatures that do not verify.
    pub fn from_bytes_unchecked(sk: &[u8]) -> Result<Self, Error> {
        let expected = P::PARAMS.sk_bytes();
        if sk.len() != expected {
            return Err(Error::InvalidKeyLength {
                what: "secret key",
                algorithm: P::ALGORITHM,
                expected,
                got: sk.len(),
            });
        }
        Ok(Self::wrap(SecretParts::from_raw(sk)))
    }

    pub(crate) fn wrap(parts: SecretParts) -> Self {
        SigningKey {
            parts,
            mode: KeyMode::Unrestricted,
            _p: PhantomData,
        }
    }

    /// The mode this key may sign in.
    pub fn mode(&self) -> KeyMode {
        self.mode
    }

    /// This key bound to `mode` (its SPKI / PKCS#8 then carry that mode's
    /// OID); [`Error::PreHashNotBound`] for a HashSLH-DSA mode with a
    /// pre-hash RFC 9909 does not pair with `P`.
    pub fn with_mode(mut self, mode: KeyMode) -> Result<Self, Error> {
        self.mode = mode.validate(P::ALGORITHM)?;
        Ok(self)
    }

    #[cfg(feature = "alloc")]
    pub(crate) fn parts(&self) -> &SecretParts {
        &self.parts
    }

    /// `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`, wiped when dropped.
    #[cfg(feature = "alloc")]
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.parts.to_raw(P::PARAMS.n)
    }

    /// The public half.
    pub fn verifying_key(&self) -> VerifyingKey<P> {
        VerifyingKey {
            parts: self.parts.pk,
            mode: self.mode,
            _p: PhantomData,
        }
    }

    /// Signs `msg` per `opts` (pure or pre-hash, context, randomness). The
    /// key's mode decides when `opts.prehash` is `None` (a HashSLH-DSA key
    /// uses its pre-hash); a request against the mode is [`Error::WrongKeyMode`].
    #[cfg(feature = "alloc")]
    pub fn sign(&self, msg: &[u8], opts: &SignOptions<'_>) -> Result<Signature<P>, Error> {
        self.sign_stream(&mut &msg[..], opts)
    }

    /// Signs a streamed message (read twice for pure signing, once with a pre-hash).
    #[cfg(feature = "alloc")]
    pub fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Signature<P>, Error> {
        sign_with_options::<P>(&self.parts, self.mode, msg, opts).map(Signature::from_vec_unchecked)
    }

    /// Signs `msg` per `opts` into `sig`, which must be exactly the set's
    /// signature length ([`Error::InvalidSignatureLength`] otherwise): no
    /// heap, so it works without the `alloc` feature. On error `sig` is
    /// wiped. Without `std` there is no OS randomness: pass
    /// [`Randomness::Given`] or [`Randomness::Deterministic`]; and without
    /// `alloc`, `fault_hardened` is [`Error::Unsupported`] (it needs a second
    /// signature buffer), and so is signing with a draft SP 800-230 set (its
    /// tree cache needs a heap; verification works without one).
    pub fn sign_into(
        &self,
        msg: &[u8],
        opts: &SignOptions<'_>,
        sig: &mut [u8],
    ) -> Result<(), Error> {
        // Without a heap a one-tree set keeps no tree cache: each signature
        // would rebuild its 2^21–2^22-leaf tree, which is not offered.
        #[cfg(not(feature = "alloc"))]
        if crate::tree_cache::uses_cache(&P::PARAMS) {
            zeroize::Zeroize::zeroize(sig);
            return Err(Error::Unsupported {
                family: "SLH-DSA draft SP 800-230 (ipd)",
                what: "signing without the `alloc` feature (their tree cache needs a heap)",
            });
        }
        let prehash = self.mode.resolve(P::ALGORITHM, opts.prehash)?;
        let n = P::PARAMS.n;
        let rnd = addrnd(opts.randomness, n)?;
        let r = sign_external_into::<P>(
            &self.parts,
            &mut &msg[..],
            opts.context,
            prehash,
            rnd.as_ref().map(|r| &r[..n]),
            opts.threads,
            opts.fault_hardened,
            sig,
        );
        if r.is_err() {
            zeroize::Zeroize::zeroize(sig);
        }
        r
    }
}

impl<P: ParameterSet> fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("algorithm", &P::ALGORITHM)
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// Loads `PK.seed ‖ PK.root`.
    pub fn from_bytes(pk: &[u8]) -> Result<Self, Error> {
        let expected = P::PARAMS.pk_bytes();
        if pk.len() != expected {
            return Err(Error::InvalidKeyLength {
                what: "public key",
                algorithm: P::ALGORITHM,
                expected,
                got: pk.len(),
            });
        }
        Ok(VerifyingKey {
            parts: PublicParts::from_raw(pk),
            mode: KeyMode::Unrestricted,
            _p: PhantomData,
        })
    }

    #[cfg(feature = "alloc")]
    pub(crate) fn parts(&self) -> &PublicParts {
        &self.parts
    }

    /// The mode this key may verify in.
    pub fn mode(&self) -> KeyMode {
        self.mode
    }

    /// This key bound to `mode`; see [`SigningKey::with_mode`].
    pub fn with_mode(mut self, mode: KeyMode) -> Result<Self, Error> {
        self.mode = mode.validate(P::ALGORITHM)?;
        Ok(self)
    }

    /// `PK.seed ‖ PK.root`.
    #[cfg(feature = "alloc")]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.parts.to_raw(P::PARAMS.n)
    }

    /// Verifies `sig` over `msg`: `Ok(())` if valid, [`Error::InvalidSignature`] if not.
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
        let prehash = self.mode.resolve(P::ALGORITHM, prehash)?;
        verify_external::<P>(&self.parts, msg, sig, context, prehash)
    }

    /// [`Self::verify`] with the message fed in pieces afterwards
    /// ([`MessageVerifier`]): a signature of the wrong length or an oversize
    /// context is refused here, before any of the message.
    #[cfg(feature = "alloc")]
    pub fn verifier(
        &self,
        sig: &[u8],
        context: &[u8],
        prehash: Option<PreHash>,
    ) -> Result<MessageVerifier, Error> {
        let prehash = self.mode.resolve(P::ALGORITHM, prehash)?;
        pending_external::<P>(&self.parts, sig, context, prehash).map(MessageVerifier::new)
    }
}

impl<P: ParameterSet> fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifyingKey")
            .field("algorithm", &P::ALGORITHM)
            .field("mode", &self.mode)
            .field("bytes", &HexBytes(&self.parts, P::PARAMS.n))
            .finish()
    }
}

/// `PK.seed ‖ PK.root` of n bytes each, in hex.
struct HexBytes<'a>(&'a PublicParts, usize);

impl fmt::Debug for HexBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let HexBytes(pk, n) = *self;
        (pk.pk_seed[..n].iter())
            .chain(&pk.pk_root[..n])
            .try_for_each(|b| write!(f, "{b:02x}"))
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> Signature<P> {
    pub(crate) fn from_vec_unchecked(bytes: Vec<u8>) -> Self {
        debug_assert_eq!(bytes.len(), P::PARAMS.sig_bytes());
        Signature {
            bytes,
            _p: PhantomData,
        }
    }

    /// The signature bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The signature bytes, copied.
    pub fn to_vec(&self) -> Vec<u8> {
        self.bytes.clone()
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature<{}>({} bytes)", P::ALGORITHM, self.bytes.len())
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> AsRef<[u8]> for Signature<P> {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;

    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        check_signature_len(P::ALGORITHM, bytes.len())?;
        Ok(Signature::from_vec_unchecked(bytes.to_vec()))
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> From<Signature<P>> for Vec<u8> {
    fn from(sig: Signature<P>) -> Vec<u8> {
        sig.bytes
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSet> signature::SignatureEncoding for Signature<P> {
    type Repr = Vec<u8>;
}

#[cfg(feature = "alloc")]
/// Hedged: each call draws a fresh `addrnd` from the operating system.
/// Empty context, in the key's mode (pure, or HashSLH-DSA with its
/// pre-hash); use [`SigningKey::sign`] for more.
impl<P: ParameterSet> signature::Signer<Signature<P>> for SigningKey<P> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
        Ok(self.sign(msg, &SignOptions::default())?)
    }
}

#[cfg(feature = "alloc")]
/// Hedged with `addrnd` drawn from the caller's RNG; empty context, the key's mode.
impl<P: ParameterSet> signature::RandomizedSigner<Signature<P>> for SigningKey<P> {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<P>, signature::Error> {
        let n = P::PARAMS.n;
        let mut r = Zeroizing::new([0u8; MAX_N]);
        rng.try_fill_bytes(&mut r[..n])
            .map_err(|_| signature::Error::new())?;
        let opts = SignOptions {
            randomness: Randomness::Given(&r[..n]),
            ..Default::default()
        };
        Ok(self.sign(msg, &opts)?)
    }
}

impl<P: ParameterSet> signature::Keypair for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;

    fn verifying_key(&self) -> VerifyingKey<P> {
        SigningKey::verifying_key(self)
    }
}

/// Empty context, in the key's mode (pure, or HashSLH-DSA with its pre-hash).
#[cfg(feature = "alloc")]
impl<P: ParameterSet> signature::Verifier<Signature<P>> for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        Ok(VerifyingKey::verify(self, msg, sig.as_bytes(), &[], None)?)
    }
}
