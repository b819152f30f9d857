//! Criterion benchmarks: keygen (from fixed seeds), deterministic signing and
//! verification for all twelve parameter sets on one thread with the default
//! backend, and signing SHAKE-128f and SHA2-128f on one and two threads.
//!
//! `cargo bench -p sphincs --bench slh_dsa [FILTER]`, e.g. `-- 'sign/SLH-DSA-SHAKE-128f'`.
//! `SPHINCS_BACKEND=scalar|avx2|avx512|sha-ni` forces a backend.
//!
//! The 's' sets take around a second per signature, so they run ten flat
//! samples with no warm-up beyond one call: the whole run takes a few minutes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use sphincs::hash::backend::Kernels;
use sphincs::{Algorithm, DynSigningKey, Randomness, SignOptions};

const MSG: &[u8] = b"criterion benchmark message";

/// Fixed, arbitrary n-byte seeds: timing does not depend on their value.
fn seeds(alg: Algorithm) -> [Vec<u8>; 3] {
    let n = alg.params().n;
    [1u8, 2, 3].map(|salt| (0..n as u8).map(|i| i.wrapping_mul(29) ^ salt).collect())
}

fn key(alg: Algorithm, threads: usize) -> DynSigningKey {
    let [a, b, c] = seeds(alg);
    DynSigningKey::from_seeds_with_threads(alg, &a, &b, &c, threads).expect("keygen")
}

fn deterministic(threads: usize) -> SignOptions<'static> {
    SignOptions {
        randomness: Randomness::Deterministic,
        threads,
        ..Default::default()
    }
}

/// An 's' set (small signatures, slow signing)?
fn is_small(alg: Algorithm) -> bool {
    alg.name().ends_with('s')
}

/// Sampling for one benchmark: the defaults shortened for the 'f' sets and
/// verification, ten flat samples for the slow 's' keygen and sign.
fn tune<M: criterion::measurement::Measurement>(g: &mut BenchmarkGroup<'_, M>, slow: bool) {
    if slow {
        g.sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(1))
            .measurement_time(Duration::from_secs(5));
    } else {
        g.sampling_mode(SamplingMode::Auto)
            .sample_size(20)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
    }
}

fn kernels(alg: Algorithm) -> String {
    let sha2 = alg.name().contains("SHA2");
    Kernels::current().describe(sha2, sha2 && alg.security_category() >= 3)
}

fn one_thread(c: &mut Criterion) {
    for alg in Algorithm::ALL {
        eprintln!("{}: kernels {}", alg.name(), kernels(alg));
    }
    let mut g = c.benchmark_group("keygen");
    for alg in Algorithm::ALL {
        tune(&mut g, is_small(alg));
        let [a, b, cc] = seeds(alg);
        g.bench_function(alg.name(), |bench| {
            bench.iter(|| {
                DynSigningKey::from_seeds_with_threads(alg, black_box(&a), &b, &cc, 1)
                    .expect("keygen")
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("sign");
    for alg in Algorithm::ALL {
        tune(&mut g, is_small(alg));
        let sk = key(alg, 1);
        let opts = deterministic(1);
        g.bench_function(alg.name(), |bench| {
            bench.iter(|| sk.sign(black_box(MSG), &opts).expect("sign"))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("verify");
    for alg in Algorithm::ALL {
        tune(&mut g, false);
        let sk = key(alg, 1);
        let sig = sk.sign(MSG, &deterministic(1)).expect("sign");
        let vk = sk.verifying_key();
        g.bench_function(alg.name(), |bench| {
            bench.iter(|| vk.verify(black_box(MSG), &sig, b"", None).expect("valid"))
        });
    }
    g.finish();
}

fn threads(c: &mut Criterion) {
    let mut g = c.benchmark_group("sign-threads");
    tune(&mut g, false);
    for alg in [Algorithm::Shake128f, Algorithm::Sha2_128f] {
        let sk = key(alg, 1);
        for t in [1usize, 2] {
            let opts = deterministic(t);
            g.bench_function(format!("{}/{t}", alg.name()), |bench| {
                bench.iter(|| sk.sign(black_box(MSG), &opts).expect("sign"))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, one_thread, threads);
criterion_main!(benches);
