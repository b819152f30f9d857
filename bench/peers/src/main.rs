//! Times sphincs against other SLH-DSA / SPHINCS+ implementations, and lists
//! reference signature schemes for scale.
//!
//! `cargo run --release --manifest-path bench/peers/Cargo.toml -- [--quick] [--json] [--vs NAME,...] [ALG ...]`
//!
//! `--vs pqclean-spx` (names as in the table's header, comma-separated)
//! times sphincs against those peers only and skips the reference schemes:
//! minutes instead of the full run's ten.
//!
//! Every implementation of one parameter set and operation is timed in the
//! same loop, one call each per iteration in turn (round-robin), so that drift
//! on a shared machine (other jobs, clock changes) hits all of them alike.
//! The figure is the median over the iterations, on one thread.
//!
//! - sphincs: this workspace's library, default (best) backend, one thread;
//!   keygen from fixed seeds, deterministic signing.
//! - sphincs-r31: the same library's SPHINCS+ round-3.1 "simple" set of the
//!   same numbers and hash (raw keys from fixed seeds, deterministic signing):
//!   the like-for-like row against PQClean's round-3.1 code.
//! - slh-dsa (RustCrypto, =0.2.0-rc.5): keygen from fixed seeds
//!   (`slh_keygen_internal`), deterministic signing.
//! - fips205 (0.5): keygen from fixed seeds, deterministic signing (`hedged = false`).
//! - pqcrypto-sphincsplus (PQClean's SPHINCS+ round 3.1 "simple", AVX2 code
//!   where the CPU has it): keygen draws its seeds from the OS, signing is
//!   randomized (PQClean always draws optrand); same number of hash calls as
//!   SLH-DSA, the message and address encodings differ slightly.
//! - reference rows: Ed25519 (ed25519-dalek 2, keygen = public key from a seed,
//!   deterministic), ML-DSA-44/65 (pqcrypto-mldsa, PQClean AVX2; hedged signing,
//!   random keygen), Falcon-512 (pqcrypto-falcon, PQClean AVX2; randomized).

use std::hint::black_box;
use std::time::Instant;

use fips205::traits::{KeyGen, Signer as _, Verifier as _};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _};
use sphincs::sphincsplus::{SpxAlgorithm, SpxSignOptions, SpxSigningKey, SpxVerifyingKey};
use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey, Randomness, SignOptions};

const MSG: &[u8] = b"peer comparison: a 32-byte text.";
const OPS: [&str; 3] = ["keygen", "sign", "verify"];

/// One implementation of one scheme, holding its key and a signature.
trait Impl {
    fn name(&self) -> &'static str;
    fn keygen(&mut self);
    fn sign(&mut self);
    /// Verifies the held signature; panics if it does not verify.
    fn verify(&mut self);
    /// Public key and signature sizes in bytes.
    fn sizes(&self) -> (usize, usize);
}

fn run(imp: &mut dyn Impl, op: &str) {
    match op {
        "keygen" => imp.keygen(),
        "sign" => imp.sign(),
        _ => imp.verify(),
    }
}

fn seed(n: usize, salt: u8) -> Vec<u8> {
    (0..n as u8).map(|i| i.wrapping_mul(41) ^ salt).collect()
}

// ---------------------------------------------------------------------------
// sphincs

struct Ours {
    alg: Algorithm,
    seeds: [Vec<u8>; 3],
    sk: DynSigningKey,
    vk: DynVerifyingKey,
    sig: Vec<u8>,
}

const DET: SignOptions<'static> = SignOptions {
    context: b"",
    prehash: None,
    randomness: Randomness::Deterministic,
    threads: 1,
    fault_hardened: false,
};

impl Ours {
    fn new(alg: Algorithm) -> Ours {
        let n = alg.params().n;
        let seeds = [seed(n, 1), seed(n, 2), seed(n, 3)];
        let sk = DynSigningKey::from_seeds(alg, &seeds[0], &seeds[1], &seeds[2]).unwrap();
        let sig = sk.sign(MSG, &DET).unwrap();
        let vk = sk.verifying_key();
        Ours {
            alg,
            seeds,
            sk,
            vk,
            sig,
        }
    }
}

impl Impl for Ours {
    fn name(&self) -> &'static str {
        "sphincs"
    }
    fn keygen(&mut self) {
        let [a, b, c] = &self.seeds;
        black_box(DynSigningKey::from_seeds(self.alg, black_box(a), b, c).unwrap());
    }
    fn sign(&mut self) {
        self.sig = self.sk.sign(black_box(MSG), &DET).unwrap();
    }
    fn verify(&mut self) {
        self.vk
            .verify(black_box(MSG), &self.sig, b"", None)
            .unwrap();
    }
    fn sizes(&self) -> (usize, usize) {
        (self.alg.public_key_len(), self.alg.signature_len())
    }
}

// ---------------------------------------------------------------------------
// RustCrypto slh-dsa

struct RustCrypto<P: slh_dsa::ParameterSet> {
    seeds: [Vec<u8>; 3],
    sk: slh_dsa::SigningKey<P>,
    vk: slh_dsa::VerifyingKey<P>,
    sig: slh_dsa::Signature<P>,
}

impl<P: slh_dsa::ParameterSet> RustCrypto<P> {
    fn new(n: usize) -> Self {
        let seeds = [seed(n, 1), seed(n, 2), seed(n, 3)];
        let sk = slh_dsa::SigningKey::<P>::slh_keygen_internal(&seeds[0], &seeds[1], &seeds[2]);
        let sig = sk.try_sign_with_context(MSG, b"", None).unwrap();
        let vk: &slh_dsa::VerifyingKey<P> = sk.as_ref();
        let vk = vk.clone();
        RustCrypto { seeds, sk, vk, sig }
    }
}

impl<P: slh_dsa::ParameterSet> Impl for RustCrypto<P> {
    fn name(&self) -> &'static str {
        "slh-dsa"
    }
    fn keygen(&mut self) {
        let [a, b, c] = &self.seeds;
        black_box(slh_dsa::SigningKey::<P>::slh_keygen_internal(
            black_box(a),
            b,
            c,
        ));
    }
    fn sign(&mut self) {
        self.sig = self
            .sk
            .try_sign_with_context(black_box(MSG), b"", None)
            .unwrap();
    }
    fn verify(&mut self) {
        self.vk
            .try_verify_with_context(black_box(MSG), b"", &self.sig)
            .unwrap();
    }
    fn sizes(&self) -> (usize, usize) {
        (self.vk.to_vec().len(), self.sig.to_vec().len())
    }
}

// ---------------------------------------------------------------------------
// fips205, one module per set

macro_rules! fips205_impl {
    ($ty:ident, $module:ident) => {
        struct $ty {
            seeds: [[u8; fips205::$module::N]; 3],
            sk: fips205::$module::PrivateKey,
            pk: fips205::$module::PublicKey,
            sig: [u8; fips205::$module::SIG_LEN],
        }

        impl $ty {
            fn new() -> Self {
                let n = fips205::$module::N;
                let s = |salt| seed(n, salt).try_into().unwrap();
                let seeds = [s(1), s(2), s(3)];
                let (pk, sk) =
                    fips205::$module::KG::keygen_from_seed(&seeds[0], &seeds[1], &seeds[2]);
                let sig = sk.try_sign(MSG, b"", false).unwrap();
                $ty { seeds, sk, pk, sig }
            }
        }

        impl Impl for $ty {
            fn name(&self) -> &'static str {
                "fips205"
            }
            fn keygen(&mut self) {
                let [a, b, c] = &self.seeds;
                black_box(fips205::$module::KG::keygen_from_seed(black_box(a), b, c));
            }
            fn sign(&mut self) {
                self.sig = self.sk.try_sign(black_box(MSG), b"", false).unwrap();
            }
            fn verify(&mut self) {
                assert!(self.pk.verify(black_box(MSG), &self.sig, b""));
            }
            fn sizes(&self) -> (usize, usize) {
                (fips205::$module::PK_LEN, fips205::$module::SIG_LEN)
            }
        }
    };
}

fips205_impl!(F205Sha2_128s, slh_dsa_sha2_128s);
fips205_impl!(F205Sha2_128f, slh_dsa_sha2_128f);
fips205_impl!(F205Sha2_192s, slh_dsa_sha2_192s);
fips205_impl!(F205Sha2_192f, slh_dsa_sha2_192f);
fips205_impl!(F205Sha2_256s, slh_dsa_sha2_256s);
fips205_impl!(F205Sha2_256f, slh_dsa_sha2_256f);
fips205_impl!(F205Shake128s, slh_dsa_shake_128s);
fips205_impl!(F205Shake128f, slh_dsa_shake_128f);
fips205_impl!(F205Shake192s, slh_dsa_shake_192s);
fips205_impl!(F205Shake192f, slh_dsa_shake_192f);
fips205_impl!(F205Shake256s, slh_dsa_shake_256s);
fips205_impl!(F205Shake256f, slh_dsa_shake_256f);

// ---------------------------------------------------------------------------
// PQClean through the pqcrypto crates: SPHINCS+ and the reference schemes

macro_rules! pqclean_impl {
    ($ty:ident, $krate:ident :: $module:ident, $name:expr) => {
        struct $ty {
            pk: $krate::$module::PublicKey,
            sk: $krate::$module::SecretKey,
            sig: $krate::$module::DetachedSignature,
        }

        impl $ty {
            fn new() -> Self {
                let (pk, sk) = $krate::$module::keypair();
                let sig = $krate::$module::detached_sign(MSG, &sk);
                $ty { pk, sk, sig }
            }
        }

        impl Impl for $ty {
            fn name(&self) -> &'static str {
                $name
            }
            fn keygen(&mut self) {
                black_box($krate::$module::keypair());
            }
            fn sign(&mut self) {
                self.sig = $krate::$module::detached_sign(black_box(MSG), &self.sk);
            }
            fn verify(&mut self) {
                $krate::$module::verify_detached_signature(&self.sig, black_box(MSG), &self.pk)
                    .unwrap();
            }
            fn sizes(&self) -> (usize, usize) {
                (self.pk.as_bytes().len(), self.sig.as_bytes().len())
            }
        }
    };
}

const SPX: &str = "pqclean-spx";
pqclean_impl!(
    SpxSha2_128s,
    pqcrypto_sphincsplus::sphincssha2128ssimple,
    SPX
);
pqclean_impl!(
    SpxSha2_128f,
    pqcrypto_sphincsplus::sphincssha2128fsimple,
    SPX
);
pqclean_impl!(
    SpxSha2_192s,
    pqcrypto_sphincsplus::sphincssha2192ssimple,
    SPX
);
pqclean_impl!(
    SpxSha2_192f,
    pqcrypto_sphincsplus::sphincssha2192fsimple,
    SPX
);
pqclean_impl!(
    SpxSha2_256s,
    pqcrypto_sphincsplus::sphincssha2256ssimple,
    SPX
);
pqclean_impl!(
    SpxSha2_256f,
    pqcrypto_sphincsplus::sphincssha2256fsimple,
    SPX
);
pqclean_impl!(
    SpxShake128s,
    pqcrypto_sphincsplus::sphincsshake128ssimple,
    SPX
);
pqclean_impl!(
    SpxShake128f,
    pqcrypto_sphincsplus::sphincsshake128fsimple,
    SPX
);
pqclean_impl!(
    SpxShake192s,
    pqcrypto_sphincsplus::sphincsshake192ssimple,
    SPX
);
pqclean_impl!(
    SpxShake192f,
    pqcrypto_sphincsplus::sphincsshake192fsimple,
    SPX
);
pqclean_impl!(
    SpxShake256s,
    pqcrypto_sphincsplus::sphincsshake256ssimple,
    SPX
);
pqclean_impl!(
    SpxShake256f,
    pqcrypto_sphincsplus::sphincsshake256fsimple,
    SPX
);
pqclean_impl!(MlDsa44, pqcrypto_mldsa::mldsa44, "ML-DSA-44");
pqclean_impl!(MlDsa65, pqcrypto_mldsa::mldsa65, "ML-DSA-65");
pqclean_impl!(Falcon512, pqcrypto_falcon::falcon512, "Falcon-512");

struct Ed25519 {
    seed: [u8; 32],
    sk: ed25519_dalek::SigningKey,
    sig: ed25519_dalek::Signature,
}

impl Ed25519 {
    fn new() -> Self {
        use ed25519_dalek::Signer;
        let seed: [u8; 32] = seed(32, 9).try_into().unwrap();
        let sk = ed25519_dalek::SigningKey::from_bytes(&seed);
        let sig = sk.sign(MSG);
        Ed25519 { seed, sk, sig }
    }
}

impl Impl for Ed25519 {
    fn name(&self) -> &'static str {
        "Ed25519"
    }
    fn keygen(&mut self) {
        black_box(ed25519_dalek::SigningKey::from_bytes(black_box(&self.seed)).verifying_key());
    }
    fn sign(&mut self) {
        use ed25519_dalek::Signer;
        self.sig = self.sk.sign(black_box(MSG));
    }
    fn verify(&mut self) {
        use ed25519_dalek::Verifier;
        self.sk
            .verifying_key()
            .verify(black_box(MSG), &self.sig)
            .unwrap();
    }
    fn sizes(&self) -> (usize, usize) {
        (32, 64)
    }
}

/// Our SPHINCS+ round-3.1 "simple" set with the numbers and hash of `alg`.
struct OursR31 {
    alg: SpxAlgorithm,
    seed: Vec<u8>,
    sk: SpxSigningKey,
    vk: SpxVerifyingKey,
    sig: Vec<u8>,
}

const DET_R31: SpxSignOptions<'static> = SpxSignOptions {
    randomness: Randomness::Deterministic,
    threads: 1,
    fault_hardened: false,
};

impl OursR31 {
    fn new(alg: Algorithm) -> OursR31 {
        let short = alg.name().trim_start_matches("SLH-DSA-").to_lowercase();
        let alg: SpxAlgorithm = format!("sphincs-{short}-simple").parse().unwrap();
        let seed = seed(alg.seed_len(), 4);
        let sk = SpxSigningKey::from_seed(alg, &seed).unwrap();
        let sig = sk.sign(MSG, &DET_R31).unwrap();
        let vk = sk.verifying_key();
        OursR31 {
            alg,
            seed,
            sk,
            vk,
            sig,
        }
    }
}

impl Impl for OursR31 {
    fn name(&self) -> &'static str {
        "sphincs-r31"
    }
    fn keygen(&mut self) {
        black_box(SpxSigningKey::from_seed(self.alg, black_box(&self.seed)).unwrap());
    }
    fn sign(&mut self) {
        self.sig = self.sk.sign(black_box(MSG), &DET_R31).unwrap();
    }
    fn verify(&mut self) {
        self.vk.verify(black_box(MSG), &self.sig).unwrap();
    }
    fn sizes(&self) -> (usize, usize) {
        (self.alg.public_key_len(), self.alg.signature_len())
    }
}

// ---------------------------------------------------------------------------
// The SLH-DSA line-up per set

fn slh_impls(alg: Algorithm) -> Vec<Box<dyn Impl>> {
    let n = alg.params().n;
    let ours: Box<dyn Impl> = Box::new(Ours::new(alg));
    let (rc, f205, spx): (Box<dyn Impl>, Box<dyn Impl>, Box<dyn Impl>) = match alg {
        Algorithm::Sha2_128s => (
            Box::new(RustCrypto::<slh_dsa::Sha2_128s>::new(n)),
            Box::new(F205Sha2_128s::new()),
            Box::new(SpxSha2_128s::new()),
        ),
        Algorithm::Sha2_128f => (
            Box::new(RustCrypto::<slh_dsa::Sha2_128f>::new(n)),
            Box::new(F205Sha2_128f::new()),
            Box::new(SpxSha2_128f::new()),
        ),
        Algorithm::Sha2_192s => (
            Box::new(RustCrypto::<slh_dsa::Sha2_192s>::new(n)),
            Box::new(F205Sha2_192s::new()),
            Box::new(SpxSha2_192s::new()),
        ),
        Algorithm::Sha2_192f => (
            Box::new(RustCrypto::<slh_dsa::Sha2_192f>::new(n)),
            Box::new(F205Sha2_192f::new()),
            Box::new(SpxSha2_192f::new()),
        ),
        Algorithm::Sha2_256s => (
            Box::new(RustCrypto::<slh_dsa::Sha2_256s>::new(n)),
            Box::new(F205Sha2_256s::new()),
            Box::new(SpxSha2_256s::new()),
        ),
        Algorithm::Sha2_256f => (
            Box::new(RustCrypto::<slh_dsa::Sha2_256f>::new(n)),
            Box::new(F205Sha2_256f::new()),
            Box::new(SpxSha2_256f::new()),
        ),
        Algorithm::Shake128s => (
            Box::new(RustCrypto::<slh_dsa::Shake128s>::new(n)),
            Box::new(F205Shake128s::new()),
            Box::new(SpxShake128s::new()),
        ),
        Algorithm::Shake128f => (
            Box::new(RustCrypto::<slh_dsa::Shake128f>::new(n)),
            Box::new(F205Shake128f::new()),
            Box::new(SpxShake128f::new()),
        ),
        Algorithm::Shake192s => (
            Box::new(RustCrypto::<slh_dsa::Shake192s>::new(n)),
            Box::new(F205Shake192s::new()),
            Box::new(SpxShake192s::new()),
        ),
        Algorithm::Shake192f => (
            Box::new(RustCrypto::<slh_dsa::Shake192f>::new(n)),
            Box::new(F205Shake192f::new()),
            Box::new(SpxShake192f::new()),
        ),
        Algorithm::Shake256s => (
            Box::new(RustCrypto::<slh_dsa::Shake256s>::new(n)),
            Box::new(F205Shake256s::new()),
            Box::new(SpxShake256s::new()),
        ),
        Algorithm::Shake256f => (
            Box::new(RustCrypto::<slh_dsa::Shake256f>::new(n)),
            Box::new(F205Shake256f::new()),
            Box::new(SpxShake256f::new()),
        ),
        // The draft SP 800-230 sets have no peers (`main` refuses them).
        _ => return vec![ours],
    };
    vec![ours, rc, f205, spx, Box::new(OursR31::new(alg))]
}

fn reference_impls() -> Vec<Box<dyn Impl>> {
    vec![
        Box::new(Ed25519::new()),
        Box::new(MlDsa44::new()),
        Box::new(MlDsa65::new()),
        Box::new(Falcon512::new()),
    ]
}

// ---------------------------------------------------------------------------
// Timing

/// Iterations per operation: (f sets and reference schemes, s sets).
fn iterations(op: &str, small: bool, quick: bool) -> usize {
    match (op, small, quick) {
        ("verify", _, false) => 51,
        ("verify", _, true) => 11,
        ("keygen", false, false) => 51,
        ("keygen", false, true) => 11,
        ("sign", false, false) => 15,
        ("sign", false, true) => 3,
        (_, true, false) => 3,
        (_, true, true) => 1,
        _ => unreachable!(),
    }
}

/// Median nanoseconds of each implementation, timed round-robin.
fn time_round_robin(impls: &mut [Box<dyn Impl>], op: &str, iters: usize) -> Vec<u64> {
    for imp in impls.iter_mut() {
        run(&mut **imp, op); // warm-up
    }
    let mut samples = vec![Vec::with_capacity(iters); impls.len()];
    for _ in 0..iters {
        for (imp, s) in impls.iter_mut().zip(&mut samples) {
            let t = Instant::now();
            run(&mut **imp, op);
            s.push(t.elapsed().as_nanos() as u64);
        }
    }
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_unstable();
            s[s.len() / 2]
        })
        .collect()
}

fn ms(ns: u64) -> String {
    format!("{:.3}", ns as f64 / 1e6)
}

fn main() {
    let mut quick = false;
    let mut json = false;
    let mut algs = Vec::new();
    let mut only: Option<Vec<String>> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--json" => json = true,
            "--vs" => {
                let Some(list) = args.next() else {
                    eprintln!("sphincs-peers: --vs needs a list of peer names");
                    std::process::exit(2);
                };
                only = Some(list.split(',').map(str::to_string).collect());
            }
            "-h" | "--help" => {
                println!("usage: sphincs-peers [--quick] [--json] [--vs NAME,...] [ALG ...]");
                return;
            }
            name => match name.parse::<Algorithm>() {
                Ok(a) if Algorithm::ALL.contains(&a) => algs.push(a),
                Ok(a) => {
                    eprintln!("sphincs-peers: {a} has no peers here (FIPS 205 sets only)");
                    std::process::exit(2);
                }
                Err(e) => {
                    eprintln!("sphincs-peers: {e}");
                    std::process::exit(2);
                }
            },
        }
    }
    if algs.is_empty() {
        algs = Algorithm::ALL.to_vec();
    }
    // The line-up: sphincs first, then every peer `--vs` keeps.
    let line_up = |alg: Algorithm| -> Vec<Box<dyn Impl>> {
        let mut impls = slh_impls(alg);
        if let Some(names) = &only {
            let mut i = 0;
            impls.retain(|imp| {
                i += 1;
                i == 1 || names.iter().any(|n| n == imp.name())
            });
        }
        impls
    };
    if let Some(names) = &only {
        let known: Vec<&str> = line_up(Algorithm::ALL[0])
            .iter()
            .map(|i| i.name())
            .collect();
        if let Some(bad) = names.iter().find(|n| !known.contains(&n.as_str())) {
            let all: Vec<&str> = slh_impls(Algorithm::ALL[0])
                .iter()
                .map(|i| i.name())
                .collect();
            eprintln!(
                "sphincs-peers: no peer named {bad}; the peers are {}",
                all[1..].join(", ")
            );
            std::process::exit(2);
        }
    }
    if !json {
        println!(
            "Medians in ms, one thread, round-robin; ratio = peer / sphincs.{}",
            if quick {
                " (--quick: few iterations)"
            } else {
                ""
            }
        );
        let mut head = format!("{:<12} {:<6} {:>5} {:>10}", "set", "op", "iters", "sphincs");
        for imp in &line_up(Algorithm::ALL[0])[1..] {
            head += &format!(" {:>18}", format!("{} (x)", imp.name()));
        }
        println!("{head}");
    }
    for alg in algs {
        let mut impls = line_up(alg);
        let small = alg.name().ends_with('s');
        for op in OPS {
            let iters = iterations(op, small, quick);
            let med = time_round_robin(&mut impls, op, iters);
            if json {
                for (imp, &m) in impls.iter().zip(&med) {
                    println!(
                        "{}",
                        serde_json::json!({
                            "algorithm": alg.name(), "op": op, "impl": imp.name(),
                            "iterations": iters, "median_ns": m,
                            "ratio_to_sphincs": m as f64 / med[0] as f64,
                        })
                    );
                }
            } else {
                let mut line = format!(
                    "{:<12} {:<6} {:>5} {:>10}",
                    alg.name().trim_start_matches("SLH-DSA-"),
                    op,
                    iters,
                    ms(med[0])
                );
                for &m in &med[1..] {
                    let cell = format!("{} ({:.1})", ms(m), m as f64 / med[0] as f64);
                    line += &format!(" {cell:>18}");
                }
                println!("{line}");
            }
        }
    }

    if only.is_some() {
        return;
    }
    let mut refs = reference_impls();
    let mut rows = vec![Vec::new(); refs.len()];
    for op in OPS {
        let iters = iterations(op, false, quick);
        for (row, m) in rows.iter_mut().zip(time_round_robin(&mut refs, op, iters)) {
            row.push(m);
        }
    }
    if !json {
        println!();
        println!(
            "{:<12} {:>10} {:>10} {:>10} {:>7} {:>6}",
            "reference", "keygen", "sign", "verify", "pk B", "sig B"
        );
    }
    for (imp, row) in refs.iter().zip(&rows) {
        let (pk, sig) = imp.sizes();
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "algorithm": imp.name(), "reference": true,
                    "keygen_ns": row[0], "sign_ns": row[1], "verify_ns": row[2],
                    "pk_bytes": pk, "sig_bytes": sig,
                })
            );
        } else {
            println!(
                "{:<12} {:>10} {:>10} {:>10} {:>7} {:>6}",
                imp.name(),
                ms(row[0]),
                ms(row[1]),
                ms(row[2]),
                pk,
                sig
            );
        }
    }
}
