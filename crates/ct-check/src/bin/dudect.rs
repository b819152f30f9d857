//! dudect-style timing test (Reparaz, Balasch, Verbauwhede, "Dude, is my code
//! constant time?", 2017) with the `dudect-bencher` crate: times an operation
//! on inputs of two classes, in random order, and applies Welch's t-test to the
//! two timing distributions (also after cropping at several percentiles).
//! |t| above about 5 (4.5 in the paper) means the classes are distinguishable.
//!
//! Runs by hand, not in CI (it needs minutes of quiet CPU), e.g.:
//!
//! ```sh
//! cargo build --release --bin dudect   # in crates/ct-check
//! timeout -s INT 600 nice target/release/dudect --continuous keygen_zero_vs_random
//! ```
//!
//! Benches (SLH-DSA-SHA2-128f; PK.seed and PK.root fixed and public):
//! - `keygen_zero_vs_random`: `slh_keygen_internal` with all-zero SK.seed
//!   and SK.prf versus fresh random ones. Nothing public varies with the class.
//! - `sign_zero_vs_random`: deterministic signing of a fixed message with the
//!   all-zero SK.seed/SK.prf key versus a fresh random key per measurement.
//!   Note that signing time legitimately depends on *public* values derived
//!   from the key: the WOTS+ chain lengths are the digits of the XMSS roots and
//!   of PK_FORS, which the signature reveals. One fixed key always has the same
//!   chain lengths, random keys spread around the mean, so this test can show a
//!   large |t| that is not a secret-dependent leak.
//! - `sign_sparse_vs_random`: the same signing, both classes fresh random keys
//!   per measurement: bytes 0 or 1 only (a "low-weight" secret) versus uniform
//!   bytes. The public chain lengths have the same distribution in both
//!   classes, so a large |t| here would point at timing that depends on the
//!   secret's bit pattern.
//!
//! One bench per hash family, short enough for 10^6 measurements in minutes
//! (the SECURITY.md campaign), each with all-zero versus random secrets, on
//! the kernels the CPU picks:
//! - `{shake,sha2,haraka}_chains_zero_vs_random`: the secret-key work of one
//!   WOTS+ key in miniature through the library's tweakable hash (n = 16):
//!   16 PRF calls on SK.seed, then 15 F steps on each of the 16 secret chain
//!   values, batched as signing batches them.
//! - `chacha12_chains_zero_vs_random`: sixteen full WOTS+ chains of
//!   SPHINCS-256 (15 masked ChaCha12 permutations each) from secret start
//!   values; a whole SPHINCS-256 keygen is this 2,144 times over, too slow
//!   for 10^6 measurements.

use dudect_bencher::rand::{Rng, RngExt};
use dudect_bencher::{ctbench_main, BenchRng, Class, CtRunner};
use sphincs::address::{Adrs, AdrsType};
use sphincs::hash::backend::chacha12::{chains_x16_current, Half, LANES};
use sphincs::hash::{HarakaSimple, Node, Sha2Cat1, Shake, TweakableHash};
use sphincs::{slh_keygen_internal, slh_sign, Sha2_128f, SigningKey};

type P = Sha2_128f;
const N: usize = 16;
/// Measurements per call of a bench function (per batch of the statistics).
const BATCH: usize = 200;
const MESSAGE: &[u8] = b"dudect fixed message";
const PK_SEED: [u8; N] = [0x5a; N];
const PK_ROOT: [u8; N] = [0xa5; N];

fn random_secret(rng: &mut BenchRng, sparse: bool) -> [u8; N] {
    let mut x = [0u8; N];
    rng.fill_bytes(&mut x);
    if sparse {
        x.iter_mut().for_each(|b| *b &= 1);
    }
    x
}

/// A signing key `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` (PK.root is not the
/// seeds' root: irrelevant for timing, and loading skips the check).
fn key(sk_seed: &[u8; N], sk_prf: &[u8; N]) -> SigningKey<P> {
    let raw = [&sk_seed[..], sk_prf, &PK_SEED, &PK_ROOT].concat();
    SigningKey::<P>::from_bytes_unchecked(&raw).expect("key length")
}

/// Random class order, inputs made before timing.
fn classes(rng: &mut BenchRng) -> Vec<Class> {
    (0..BATCH)
        .map(|_| {
            if rng.random::<bool>() {
                Class::Left
            } else {
                Class::Right
            }
        })
        .collect()
}

fn keygen_zero_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    for (class, sk_seed, sk_prf) in secret_inputs(rng) {
        runner.run_one(class, || {
            slh_keygen_internal::<P>(&sk_seed, &sk_prf, &PK_SEED).expect("keygen")
        });
    }
}

/// All-zero or random secrets, one per measurement, in random class order.
fn secret_inputs(rng: &mut BenchRng) -> Vec<(Class, [u8; N], [u8; N])> {
    classes(rng)
        .into_iter()
        .map(|c| match c {
            Class::Left => (c, [0u8; N], [0u8; N]),
            Class::Right => (c, random_secret(rng, false), random_secret(rng, false)),
        })
        .collect()
}

/// 16 PRF calls on SK.seed, then 15 F steps on the 16 secret values.
fn prf_and_chains<H: TweakableHash>(sk_seed: &[u8; N]) -> Node {
    let t = H::new(N, &PK_SEED, Some(sk_seed));
    let mut adrs = [Adrs::new(); 16];
    for (i, a) in adrs.iter_mut().enumerate() {
        a.set_type_and_clear(AdrsType::WotsPrf);
        a.set_chain_address(i as u32);
    }
    let mut vals = [[0u8; sphincs::params::MAX_N]; 16];
    t.prf_batch(&adrs, &mut vals);
    for a in &mut adrs {
        a.set_type_and_clear(AdrsType::WotsHash);
    }
    for step in 0..15 {
        for (i, a) in adrs.iter_mut().enumerate() {
            a.set_chain_address(i as u32);
            a.set_hash_address(step);
        }
        t.f_batch(&adrs, &mut vals);
    }
    vals[0]
}

fn chains_zero_vs_random<H: TweakableHash>(runner: &mut CtRunner, rng: &mut BenchRng) {
    for (class, sk_seed, _) in secret_inputs(rng) {
        runner.run_one(class, || prf_and_chains::<H>(&sk_seed));
    }
}

fn shake_chains_zero_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    chains_zero_vs_random::<Shake>(runner, rng);
}

fn sha2_chains_zero_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    chains_zero_vs_random::<Sha2Cat1>(runner, rng);
}

fn haraka_chains_zero_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    chains_zero_vs_random::<HarakaSimple>(runner, rng);
}

fn chacha12_chains_zero_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    // SPHINCS-256's Q: public, fixed.
    let masks: Vec<[u32; 8]> = (0..15u32)
        .map(|i| [i.wrapping_mul(0x9e37_79b9); 8])
        .collect();
    let (start, end) = ([0u8; LANES], [15u8; LANES]);
    let inputs: Vec<(Class, Half)> = classes(rng)
        .into_iter()
        .map(|c| {
            let mut cur: Half = [[0u32; LANES]; 8];
            if matches!(c, Class::Right) {
                cur.iter_mut().flatten().for_each(|w| *w = rng.random());
            }
            (c, cur)
        })
        .collect();
    for (class, cur) in inputs {
        runner.run_one(class, || {
            // A copy per run (`run_one` takes a shared closure); 512 bytes,
            // the same for both classes.
            let mut x = cur;
            chains_x16_current(&mut x, &masks, &start, &end);
            x[0][0]
        });
    }
}

fn sign_inputs(rng: &mut BenchRng, left_sparse: bool) -> Vec<(Class, SigningKey<P>)> {
    classes(rng)
        .into_iter()
        .map(|c| {
            let k = match c {
                Class::Left if left_sparse => {
                    key(&random_secret(rng, true), &random_secret(rng, true))
                }
                Class::Left => key(&[0u8; N], &[0u8; N]),
                Class::Right => key(&random_secret(rng, false), &random_secret(rng, false)),
            };
            (c, k)
        })
        .collect()
}

fn sign_batch(runner: &mut CtRunner, inputs: Vec<(Class, SigningKey<P>)>) {
    for (class, sk) in inputs {
        runner.run_one(class, || {
            slh_sign::<P>(MESSAGE, b"", &sk, None).expect("sign")
        });
    }
}

fn sign_zero_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    let inputs = sign_inputs(rng, false);
    sign_batch(runner, inputs);
}

fn sign_sparse_vs_random(runner: &mut CtRunner, rng: &mut BenchRng) {
    let inputs = sign_inputs(rng, true);
    sign_batch(runner, inputs);
}

ctbench_main!(
    chacha12_chains_zero_vs_random,
    haraka_chains_zero_vs_random,
    keygen_zero_vs_random,
    sha2_chains_zero_vs_random,
    shake_chains_zero_vs_random,
    sign_sparse_vs_random,
    sign_zero_vs_random
);
