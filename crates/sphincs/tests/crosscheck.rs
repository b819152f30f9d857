//! Cross-checks against two independent SLH-DSA crates, `fips205` and
//! RustCrypto's `slh-dsa`, on random inputs for all twelve parameter sets:
//!
//! - key generation from the same seeds gives the same key bytes;
//! - deterministic signatures (internal, external pure with a random context
//!   of random length, external pre-hash with a random function) are
//!   byte-equal;
//! - each side verifies the other's hedged signatures, and signatures with
//!   the same given `opt_rand` are byte-equal;
//! - a signature with one flipped bit is rejected by all three.
//!
//! The 'f' sets do all of this for all three interfaces. Signing an 's' set
//! takes seconds, so each 's' set checks one interface against one peer,
//! and the six of them cover every (interface, peer) pair once; sphincs's
//! hedged 's' signatures are still verified by both peers.
//!
//! The inputs come from a splitmix64 stream. Its seed is printed; set
//! `CROSSCHECK_SEED` (decimal or 0x-hex) to rerun with another one.

mod common;

use common::SplitMix64;
use fips205::traits::{KeyGen, SerDes, Signer, Verifier};
use sha2::Digest;
use shake::ExtendableOutput;
use sphincs::{
    Algorithm, DynSigningKey, DynVerifyingKey, ParameterSet, PreHash, Randomness, SignOptions,
};

// ---------------------------------------------------------------------------
// Deterministic input stream.

/// The splitmix64 stream (tests/common), read eight bytes at a time: test
/// inputs reproducible from one printed seed.
struct TestRng(SplitMix64);

impl TestRng {
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A value in `0..bound`.
    fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.fill(&mut out);
        out
    }

    fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

/// The seed for one test: `CROSSCHECK_SEED` if set, else a fixed value
/// derived from the test's name (FNV-1a), so runs are repeatable.
fn seed_for(name: &str) -> u64 {
    if let Ok(s) = std::env::var("CROSSCHECK_SEED") {
        let s = s.trim();
        let parsed = match s.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16),
            None => s.parse(),
        };
        return parsed.unwrap_or_else(|e| panic!("CROSSCHECK_SEED={s:?}: {e}"));
    }
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// Hands out exactly the bytes it was given, so that `fips205`'s hedged
/// signing uses a chosen `opt_rand`. Panics if asked for more.
struct FixedRng {
    data: Vec<u8>,
    pos: usize,
}

impl FixedRng {
    /// The bytes of `addrnd` (none if `None`).
    fn given(addrnd: Option<&[u8]>) -> FixedRng {
        FixedRng {
            data: addrnd.unwrap_or_default().to_vec(),
            pos: 0,
        }
    }
}

impl fips205::RngCore for FixedRng {
    fn next_u32(&mut self) -> u32 {
        unimplemented!("FixedRng only fills byte slices")
    }
    fn next_u64(&mut self) -> u64 {
        unimplemented!("FixedRng only fills byte slices")
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        let end = self.pos + dest.len();
        assert!(
            end <= self.data.len(),
            "FixedRng: asked for more randomness than given"
        );
        dest.copy_from_slice(&self.data[self.pos..end]);
        self.pos = end;
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), fips205::RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl fips205::CryptoRng for FixedRng {}

// ---------------------------------------------------------------------------
// Pre-hash functions, computed here for the peers (which take the digest).

/// The DER encoding of the hash function's OID (as in FIPS 205 Algorithm 23)
/// and PH(M), computed with the RustCrypto hash crates.
fn prehash_for_peer(ph: PreHash, m: &[u8]) -> (&'static [u8], Vec<u8>) {
    use fips205::pre_hash as oid;
    let shake = |out_len: usize, is_128: bool| {
        let mut out = vec![0u8; out_len];
        if is_128 {
            shake::Shake128::digest_xof(m, &mut out);
        } else {
            shake::Shake256::digest_xof(m, &mut out);
        }
        out
    };
    match ph.name() {
        "SHA2-224" => (&oid::SHA2_224, sha2::Sha224::digest(m).to_vec()),
        "SHA2-256" => (&oid::SHA2_256, sha2::Sha256::digest(m).to_vec()),
        "SHA2-384" => (&oid::SHA2_384, sha2::Sha384::digest(m).to_vec()),
        "SHA2-512" => (&oid::SHA2_512, sha2::Sha512::digest(m).to_vec()),
        "SHA2-512/224" => (&oid::SHA2_512_224, sha2::Sha512_224::digest(m).to_vec()),
        "SHA2-512/256" => (&oid::SHA2_512_256, sha2::Sha512_256::digest(m).to_vec()),
        "SHA3-224" => (&oid::SHA3_224, sha3::Sha3_224::digest(m).to_vec()),
        "SHA3-256" => (&oid::SHA3_256, sha3::Sha3_256::digest(m).to_vec()),
        "SHA3-384" => (&oid::SHA3_384, sha3::Sha3_384::digest(m).to_vec()),
        "SHA3-512" => (&oid::SHA3_512, sha3::Sha3_512::digest(m).to_vec()),
        "SHAKE-128" => (&oid::SHAKE_128, shake(32, true)),
        "SHAKE-256" => (&oid::SHAKE_256, shake(64, false)),
        other => panic!("no peer mapping for pre-hash {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// The two peer implementations behind one interface.

/// What the cross-check needs from another SLH-DSA implementation. `addrnd`
/// is `opt_rand`: `None` signs deterministically.
trait Peer {
    const NAME: &'static str;
    type Sk;
    type Pk;
    fn keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Self::Sk, Self::Pk);
    fn sk_bytes(sk: &Self::Sk) -> Vec<u8>;
    fn pk_bytes(pk: &Self::Pk) -> Vec<u8>;
    fn sign_internal(sk: &Self::Sk, m: &[u8], addrnd: Option<&[u8]>) -> Result<Vec<u8>, String>;
    fn sign(sk: &Self::Sk, m: &[u8], ctx: &[u8], addrnd: Option<&[u8]>) -> Result<Vec<u8>, String>;
    fn hash_sign(
        sk: &Self::Sk,
        m: &[u8],
        ctx: &[u8],
        ph: PreHash,
        addrnd: Option<&[u8]>,
    ) -> Result<Vec<u8>, String>;
    fn verify_internal(pk: &Self::Pk, m: &[u8], sig: &[u8]) -> bool;
    fn verify(pk: &Self::Pk, m: &[u8], sig: &[u8], ctx: &[u8]) -> bool;
    fn hash_verify(pk: &Self::Pk, m: &[u8], sig: &[u8], ctx: &[u8], ph: PreHash) -> bool;
}

/// `fips205` for one parameter set (its API is a module per set).
macro_rules! fips205_peer {
    ($peer:ident, $module:ident) => {
        struct $peer;

        impl Peer for $peer {
            const NAME: &'static str = "fips205";
            type Sk = fips205::$module::PrivateKey;
            type Pk = fips205::$module::PublicKey;

            fn keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Self::Sk, Self::Pk) {
                let arr = |s: &[u8]| -> [u8; fips205::$module::N] { s.try_into().unwrap() };
                let (pk, sk) = <fips205::$module::KG as KeyGen>::keygen_from_seed(
                    &arr(sk_seed),
                    &arr(sk_prf),
                    &arr(pk_seed),
                );
                (sk, pk)
            }
            fn sk_bytes(sk: &Self::Sk) -> Vec<u8> {
                sk.clone().into_bytes().to_vec()
            }
            fn pk_bytes(pk: &Self::Pk) -> Vec<u8> {
                pk.clone().into_bytes().to_vec()
            }
            fn sign_internal(
                sk: &Self::Sk,
                m: &[u8],
                addrnd: Option<&[u8]>,
            ) -> Result<Vec<u8>, String> {
                let mut rng = FixedRng::given(addrnd);
                #[allow(deprecated)] // the crate's hook for ACVP's internal groups
                let sig = sk.sign_internal(&mut rng, m, addrnd.is_some());
                sig.map(|s| s.to_vec()).map_err(str::to_owned)
            }
            fn sign(
                sk: &Self::Sk,
                m: &[u8],
                ctx: &[u8],
                addrnd: Option<&[u8]>,
            ) -> Result<Vec<u8>, String> {
                let mut rng = FixedRng::given(addrnd);
                sk.try_sign_with_rng(&mut rng, m, ctx, addrnd.is_some())
                    .map(|s| s.to_vec())
                    .map_err(str::to_owned)
            }
            fn hash_sign(
                sk: &Self::Sk,
                m: &[u8],
                ctx: &[u8],
                ph: PreHash,
                addrnd: Option<&[u8]>,
            ) -> Result<Vec<u8>, String> {
                let (oid, digest) = prehash_for_peer(ph, m);
                let mut rng = FixedRng::given(addrnd);
                sk.try_hash_sign_with_rng(&mut rng, &digest, ctx, oid, addrnd.is_some())
                    .map(|s| s.to_vec())
                    .map_err(str::to_owned)
            }
            fn verify_internal(pk: &Self::Pk, m: &[u8], sig: &[u8]) -> bool {
                #[allow(deprecated)] // the crate's hook for ACVP's internal groups
                sig.try_into().is_ok_and(|s| pk.verify_internal(m, &s))
            }
            fn verify(pk: &Self::Pk, m: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
                sig.try_into()
                    .is_ok_and(|s| Verifier::verify(pk, m, &s, ctx))
            }
            fn hash_verify(pk: &Self::Pk, m: &[u8], sig: &[u8], ctx: &[u8], ph: PreHash) -> bool {
                let (oid, digest) = prehash_for_peer(ph, m);
                sig.try_into()
                    .is_ok_and(|s| pk.hash_verify(&digest, &s, ctx, oid))
            }
        }
    };
}

fips205_peer!(Fips205Sha2_128s, slh_dsa_sha2_128s);
fips205_peer!(Fips205Sha2_128f, slh_dsa_sha2_128f);
fips205_peer!(Fips205Sha2_192s, slh_dsa_sha2_192s);
fips205_peer!(Fips205Sha2_192f, slh_dsa_sha2_192f);
fips205_peer!(Fips205Sha2_256s, slh_dsa_sha2_256s);
fips205_peer!(Fips205Sha2_256f, slh_dsa_sha2_256f);
fips205_peer!(Fips205Shake128s, slh_dsa_shake_128s);
fips205_peer!(Fips205Shake128f, slh_dsa_shake_128f);
fips205_peer!(Fips205Shake192s, slh_dsa_shake_192s);
fips205_peer!(Fips205Shake192f, slh_dsa_shake_192f);
fips205_peer!(Fips205Shake256s, slh_dsa_shake_256s);
fips205_peer!(Fips205Shake256f, slh_dsa_shake_256f);

/// RustCrypto `slh-dsa`. It has no HashSLH-DSA, so the pre-hash cases build
/// M' = 0x01 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M) (FIPS 205 Algorithm 23) here and use
/// its `slh_sign_internal` / `slh_verify_internal`.
struct RustCrypto<P>(std::marker::PhantomData<P>);

impl<P: slh_dsa::ParameterSet> Peer for RustCrypto<P> {
    const NAME: &'static str = "slh-dsa";
    type Sk = slh_dsa::SigningKey<P>;
    type Pk = slh_dsa::VerifyingKey<P>;

    fn keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Self::Sk, Self::Pk) {
        let sk = slh_dsa::SigningKey::<P>::slh_keygen_internal(sk_seed, sk_prf, pk_seed);
        let pk: &slh_dsa::VerifyingKey<P> = sk.as_ref();
        let pk = pk.clone();
        (sk, pk)
    }
    fn sk_bytes(sk: &Self::Sk) -> Vec<u8> {
        sk.to_vec()
    }
    fn pk_bytes(pk: &Self::Pk) -> Vec<u8> {
        pk.to_vec()
    }
    fn sign_internal(sk: &Self::Sk, m: &[u8], addrnd: Option<&[u8]>) -> Result<Vec<u8>, String> {
        Ok(sk.slh_sign_internal(&[m], addrnd).to_vec())
    }
    fn sign(sk: &Self::Sk, m: &[u8], ctx: &[u8], addrnd: Option<&[u8]>) -> Result<Vec<u8>, String> {
        sk.try_sign_with_context(m, ctx, addrnd)
            .map(|s| s.to_vec())
            .map_err(|e| e.to_string())
    }
    fn hash_sign(
        sk: &Self::Sk,
        m: &[u8],
        ctx: &[u8],
        ph: PreHash,
        addrnd: Option<&[u8]>,
    ) -> Result<Vec<u8>, String> {
        let (oid, digest) = prehash_for_peer(ph, m);
        let ctx_len = [u8::try_from(ctx.len()).map_err(|e| e.to_string())?];
        let parts: [&[u8]; 5] = [&[1], &ctx_len, ctx, oid, &digest];
        Ok(sk.slh_sign_internal(&parts, addrnd).to_vec())
    }
    fn verify_internal(pk: &Self::Pk, m: &[u8], sig: &[u8]) -> bool {
        slh_dsa::Signature::<P>::try_from(sig)
            .is_ok_and(|s| pk.slh_verify_internal(&[m], &s).is_ok())
    }
    fn verify(pk: &Self::Pk, m: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
        slh_dsa::Signature::<P>::try_from(sig)
            .is_ok_and(|s| pk.try_verify_with_context(m, ctx, &s).is_ok())
    }
    fn hash_verify(pk: &Self::Pk, m: &[u8], sig: &[u8], ctx: &[u8], ph: PreHash) -> bool {
        let (oid, digest) = prehash_for_peer(ph, m);
        let Ok(ctx_len) = u8::try_from(ctx.len()) else {
            return false;
        };
        let parts: [&[u8]; 5] = [&[1], &[ctx_len], ctx, oid, &digest];
        slh_dsa::Signature::<P>::try_from(sig)
            .is_ok_and(|s| pk.slh_verify_internal(&parts, &s).is_ok())
    }
}

// ---------------------------------------------------------------------------
// The checks.

/// Which signing interface a signature is for.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Internal,
    Pure,
    PreHash,
}

/// How much to do for one parameter set. Each mode gets fresh keys and
/// inputs. The peers take 0.7 s for one SHAKE-256f signature and up to 8 s
/// for an 's' one, so they sign as little as still covers every pairing.
struct Plan {
    /// Interfaces to check, each signed deterministically by sphincs and
    /// compared with a peer's signature.
    modes: &'static [Mode],
    /// 'f' sets: both peers sign each deterministic case, and one peer
    /// (alternating) signs with a random opt_rand, which sphincs must
    /// reproduce with `Randomness::Given` and must verify. Otherwise only
    /// `peer` signs, deterministically.
    full: bool,
    /// Without `full`: 0 = fips205 signs the deterministic case, 1 = slh-dsa.
    peer: usize,
}

/// 'f' sets: every interface, both peers.
const FAST: Plan = Plan {
    modes: &[Mode::Internal, Mode::Pure, Mode::PreHash],
    full: true,
    peer: 0,
};

/// Collects mismatches so that one run reports all of them.
struct Report {
    set: &'static str,
    errors: Vec<String>,
}

impl Report {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.errors.push(format!("{}: {}", self.set, what()));
        }
    }

    fn same(&mut self, what: &str, ours: &[u8], theirs: &[u8], peer: &str) {
        self.check(ours == theirs, || {
            let at = ours.iter().zip(theirs).position(|(a, b)| a != b);
            format!(
                "{what}: sphincs and {peer} differ (lengths {} and {}, first difference at {at:?})",
                ours.len(),
                theirs.len()
            )
        });
    }
}

/// One signed message with what it takes to verify it.
struct Signed<'a> {
    mode: Mode,
    m: &'a [u8],
    ctx: &'a [u8],
    ph: PreHash,
}

impl Signed<'_> {
    fn ours_verify(&self, vk: &DynVerifyingKey, sig: &[u8]) -> bool {
        match self.mode {
            Mode::Internal => vk.verify_internal(self.m, sig),
            Mode::Pure => vk.verify(self.m, sig, self.ctx, None).is_ok(),
            Mode::PreHash => vk.verify(self.m, sig, self.ctx, Some(self.ph)).is_ok(),
        }
    }

    fn peer_verify<X: Peer>(&self, pk: &X::Pk, sig: &[u8]) -> bool {
        match self.mode {
            Mode::Internal => X::verify_internal(pk, self.m, sig),
            Mode::Pure => X::verify(pk, self.m, sig, self.ctx),
            Mode::PreHash => X::hash_verify(pk, self.m, sig, self.ctx, self.ph),
        }
    }

    fn peer_sign<X: Peer>(&self, sk: &X::Sk, addrnd: Option<&[u8]>) -> Result<Vec<u8>, String> {
        match self.mode {
            Mode::Internal => X::sign_internal(sk, self.m, addrnd),
            Mode::Pure => X::sign(sk, self.m, self.ctx, addrnd),
            Mode::PreHash => X::hash_sign(sk, self.m, self.ctx, self.ph, addrnd),
        }
    }

    fn ours_sign(&self, sk: &DynSigningKey, randomness: Randomness<'_>) -> Vec<u8> {
        let result = match (self.mode, randomness) {
            (Mode::Internal, Randomness::Deterministic) => sk.sign_internal(self.m, None),
            (Mode::Internal, Randomness::Given(r)) => sk.sign_internal(self.m, Some(r)),
            (Mode::Internal, _) => panic!("internal signing needs chosen randomness"),
            (mode, randomness) => sk.sign(
                self.m,
                &SignOptions {
                    context: self.ctx,
                    prehash: matches!(mode, Mode::PreHash).then_some(self.ph),
                    randomness,
                    // Output must not depend on the thread count.
                    threads: 2,
                    ..Default::default()
                },
            ),
        };
        result.unwrap_or_else(|e| panic!("sphincs {:?} signing failed: {e}", self.mode))
    }

    fn label(&self) -> String {
        match self.mode {
            Mode::Internal => format!("internal, |m| = {}", self.m.len()),
            Mode::Pure => format!("pure, |m| = {}, |ctx| = {}", self.m.len(), self.ctx.len()),
            Mode::PreHash => format!(
                "pre-hash {}, |m| = {}, |ctx| = {}",
                self.ph.name(),
                self.m.len(),
                self.ctx.len()
            ),
        }
    }
}

/// Every verifier must reject `sig` with one random bit flipped.
#[allow(clippy::too_many_arguments)]
fn check_flipped<A: Peer, B: Peer>(
    report: &mut Report,
    rng: &mut TestRng,
    what: &str,
    s: &Signed<'_>,
    sig: &[u8],
    vk: &DynVerifyingKey,
    a_pk: &A::Pk,
    b_pk: &B::Pk,
) {
    let mut bad = sig.to_vec();
    let bit = rng.below(bad.len() * 8);
    bad[bit / 8] ^= 1 << (bit % 8);
    let what = format!("{what} with bit {bit} flipped");
    report.check(!s.ours_verify(vk, &bad), || {
        format!("{what}: sphincs accepts it")
    });
    report.check(!s.peer_verify::<A>(a_pk, &bad), || {
        format!("{what}: {} accepts it", A::NAME)
    });
    report.check(!s.peer_verify::<B>(b_pk, &bad), || {
        format!("{what}: {} accepts it", B::NAME)
    });
}

/// Both peers must accept `sig`, named `what` in a failure.
fn check_peers_verify<A: Peer, B: Peer>(
    report: &mut Report,
    what: &str,
    s: &Signed<'_>,
    sig: &[u8],
    a_pk: &A::Pk,
    b_pk: &B::Pk,
) {
    report.check(s.peer_verify::<A>(a_pk, sig), || {
        format!("{what}: {} rejects it", A::NAME)
    });
    report.check(s.peer_verify::<B>(b_pk, sig), || {
        format!("{what}: {} rejects it", B::NAME)
    });
}

/// Signs with one peer; `which` is 0 for `A`, 1 for `B`.
fn peer_sign<A: Peer, B: Peer>(
    which: usize,
    s: &Signed<'_>,
    a_sk: &A::Sk,
    b_sk: &B::Sk,
    addrnd: Option<&[u8]>,
) -> (&'static str, Result<Vec<u8>, String>) {
    if which == 0 {
        (A::NAME, s.peer_sign::<A>(a_sk, addrnd))
    } else {
        (B::NAME, s.peer_sign::<B>(b_sk, addrnd))
    }
}

fn crosscheck<P: ParameterSet, A: Peer, B: Peer>(plan: &Plan) {
    let alg: Algorithm = P::ALGORITHM;
    let n = alg.params().n;
    let seed = seed_for(alg.name());
    eprintln!(
        "{}: seed {seed:#018x} (CROSSCHECK_SEED to override)",
        alg.name()
    );
    let start = std::time::Instant::now();
    let mut rng = TestRng(SplitMix64(seed));
    let mut report = Report {
        set: alg.name(),
        errors: Vec::new(),
    };
    let mut signatures = 0usize;

    for (round, &mode) in plan.modes.iter().enumerate() {
        // Key generation from the same seeds: typed and dynamic API, both peers.
        let (sk_seed, sk_prf, pk_seed) = (rng.bytes(n), rng.bytes(n), rng.bytes(n));
        let typed = sphincs::SigningKey::<P>::from_seeds(&sk_seed, &sk_prf, &pk_seed)
            .expect("typed from_seeds");
        let sk = DynSigningKey::from_seeds(alg, &sk_seed, &sk_prf, &pk_seed)
            .expect("dynamic from_seeds");
        let vk = sk.verifying_key();
        let typed_vk = typed.verifying_key();
        let (a_sk, a_pk) = A::keygen(&sk_seed, &sk_prf, &pk_seed);
        let (b_sk, b_pk) = B::keygen(&sk_seed, &sk_prf, &pk_seed);
        let ours_sk = sk.to_bytes().to_vec();
        let ours_pk = vk.to_bytes();
        report.same("keygen sk", &ours_sk, &typed.to_bytes(), "the typed API");
        report.same("keygen pk", &ours_pk, &typed_vk.to_bytes(), "the typed API");
        report.same("keygen sk", &ours_sk, &A::sk_bytes(&a_sk), A::NAME);
        report.same("keygen pk", &ours_pk, &A::pk_bytes(&a_pk), A::NAME);
        report.same("keygen sk", &ours_sk, &B::sk_bytes(&b_sk), B::NAME);
        report.same("keygen pk", &ours_pk, &B::pk_bytes(&b_pk), B::NAME);
        report.check(ours_sk.len() == alg.secret_key_len(), || "sk length".into());
        report.check(ours_pk.len() == alg.public_key_len(), || "pk length".into());

        let m = {
            let len = rng.below(1025);
            rng.bytes(len)
        };
        let ctx = {
            let len = rng.below(256);
            rng.bytes(len)
        };
        let ph = PreHash::ALL[rng.below(PreHash::ALL.len())];
        let s = Signed {
            mode,
            m: &m,
            ctx: &ctx,
            ph,
        };
        let what = s.label();

        // Deterministic: byte-equal. The typed API signs the internal and
        // pure cases, the dynamic API the pre-hash ones.
        let ours = match mode {
            Mode::Internal => sphincs::slh_sign_internal::<P>(&m, &typed, None)
                .expect("typed slh_sign_internal")
                .to_vec(),
            Mode::Pure => typed
                .sign(
                    &m,
                    &SignOptions {
                        context: &ctx,
                        prehash: None,
                        randomness: Randomness::Deterministic,
                        threads: 3,
                        ..Default::default()
                    },
                )
                .expect("typed sign")
                .to_vec(),
            Mode::PreHash => s.ours_sign(&sk, Randomness::Deterministic),
        };
        signatures += 1;
        report.check(ours.len() == alg.signature_len(), || {
            format!("{what}: signature is {} bytes", ours.len())
        });
        let det = format!("{what}, deterministic");
        for which in 0..2 {
            if plan.full || plan.peer == which {
                let (name, sig) = peer_sign::<A, B>(which, &s, &a_sk, &b_sk, None);
                match sig {
                    Ok(sig) => report.same(&det, &ours, &sig, name),
                    Err(e) => report.check(false, || format!("{det}: {name} failed: {e}")),
                }
            }
        }
        report.check(s.ours_verify(&vk, &ours), || {
            format!("{det}: sphincs rejects its own")
        });
        let typed_ok = match mode {
            Mode::Internal => sphincs::slh_verify_internal::<P>(&m, &ours, &typed_vk),
            Mode::Pure => typed_vk.verify(&m, &ours, &ctx, None).is_ok(),
            Mode::PreHash => typed_vk.verify(&m, &ours, &ctx, Some(ph)).is_ok(),
        };
        report.check(typed_ok, || {
            format!("{det}: the typed VerifyingKey rejects it")
        });
        check_peers_verify::<A, B>(&mut report, &det, &s, &ours, &a_pk, &b_pk);
        check_flipped::<A, B>(&mut report, &mut rng, &det, &s, &ours, &vk, &a_pk, &b_pk);

        // Hedged by sphincs: opt_rand from the OS (internal interface: from
        // the test stream, as it takes no RNG); both peers must verify.
        let r = rng.bytes(n);
        let hedged = match mode {
            Mode::Internal => s.ours_sign(&sk, Randomness::Given(&r)),
            _ => s.ours_sign(&sk, Randomness::Hedged),
        };
        signatures += 1;
        let hw = format!("{what}, hedged by sphincs");
        report.check(hedged != ours, || format!("{hw}: same as deterministic"));
        report.check(s.ours_verify(&vk, &hedged), || {
            format!("{hw}: sphincs rejects it")
        });
        check_peers_verify::<A, B>(&mut report, &hw, &s, &hedged, &a_pk, &b_pk);
        check_flipped::<A, B>(&mut report, &mut rng, &hw, &s, &hedged, &vk, &a_pk, &b_pk);

        // Hedged by a peer with a random opt_rand: sphincs must verify it and
        // give the same bytes with that opt_rand ('f' sets only).
        if plan.full {
            let r = rng.bytes(n);
            let (name, theirs) = peer_sign::<A, B>(round % 2, &s, &a_sk, &b_sk, Some(&r));
            let pw = format!("{what}, hedged by {name}");
            match theirs {
                Ok(theirs) => {
                    report.check(s.ours_verify(&vk, &theirs), || {
                        format!("{pw}: sphincs rejects it")
                    });
                    let given = s.ours_sign(&sk, Randomness::Given(&r));
                    signatures += 1;
                    report.same(&format!("{pw}, same opt_rand"), &given, &theirs, name);
                    check_flipped::<A, B>(
                        &mut report,
                        &mut rng,
                        &pw,
                        &s,
                        &theirs,
                        &vk,
                        &a_pk,
                        &b_pk,
                    );
                }
                Err(e) => report.check(false, || format!("{pw}: {name} failed: {e}")),
            }
        }
    }

    assert!(signatures > 0, "{}: nothing was signed", alg.name());
    assert!(
        report.errors.is_empty(),
        "{} mismatches (seed {seed:#018x}):\n  {}",
        report.errors.len(),
        report.errors.join("\n  ")
    );
    eprintln!(
        "{}: {} interface(s), {signatures} sphincs signatures, all agree ({:.1?})",
        alg.name(),
        plan.modes.len(),
        start.elapsed()
    );
}

/// One test per parameter set: `crosscheck!(test_name, sphincs type,
/// fips205 peer, slh-dsa type, plan)`.
macro_rules! crosscheck {
    ($test:ident, $ours:ident, $fips:ident, $rc:ident, $plan:expr) => {
        #[test]
        fn $test() {
            crosscheck::<sphincs::$ours, $fips, RustCrypto<slh_dsa::$rc>>(&$plan);
        }
    };
}

/// 's' sets: one interface, two signatures by sphincs (one deterministic,
/// one hedged) and one deterministic one by `peer`. The six
/// 's' sets cover each (interface, peer) pair once.
const fn small(mode: &'static [Mode], peer: usize) -> Plan {
    Plan {
        modes: mode,
        full: false,
        peer,
    }
}

crosscheck!(sha2_128f, Sha2_128f, Fips205Sha2_128f, Sha2_128f, FAST);
crosscheck!(sha2_192f, Sha2_192f, Fips205Sha2_192f, Sha2_192f, FAST);
crosscheck!(sha2_256f, Sha2_256f, Fips205Sha2_256f, Sha2_256f, FAST);
crosscheck!(shake128f, Shake128f, Fips205Shake128f, Shake128f, FAST);
crosscheck!(shake192f, Shake192f, Fips205Shake192f, Shake192f, FAST);
crosscheck!(shake256f, Shake256f, Fips205Shake256f, Shake256f, FAST);
crosscheck!(
    sha2_128s,
    Sha2_128s,
    Fips205Sha2_128s,
    Sha2_128s,
    small(&[Mode::Pure], 0)
);
crosscheck!(
    sha2_192s,
    Sha2_192s,
    Fips205Sha2_192s,
    Sha2_192s,
    small(&[Mode::PreHash], 1)
);
crosscheck!(
    sha2_256s,
    Sha2_256s,
    Fips205Sha2_256s,
    Sha2_256s,
    small(&[Mode::Internal], 0)
);
crosscheck!(
    shake128s,
    Shake128s,
    Fips205Shake128s,
    Shake128s,
    small(&[Mode::Internal], 1)
);
crosscheck!(
    shake192s,
    Shake192s,
    Fips205Shake192s,
    Shake192s,
    small(&[Mode::Pure], 1)
);
crosscheck!(
    shake256s,
    Shake256s,
    Fips205Shake256s,
    Shake256s,
    small(&[Mode::PreHash], 0)
);
