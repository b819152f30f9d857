//! The cost of fault-hardened signing: deterministic signatures with and
//! without `SignOptions::fault_hardened`, interleaved, median of N runs:
//! `cargo run --release -p sphincs --example fault_cost [RUNS [ALG ...]]`
//! (default 15 runs of SLH-DSA-SHAKE-128f and SLH-DSA-SHA2-128f).

use std::time::{Duration, Instant};

use sphincs::{Algorithm, DynSigningKey, Randomness, SignOptions};

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

fn main() -> Result<(), sphincs::Error> {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().map_or(15, |r| r.parse().expect("RUNS"));
    let mut algs: Vec<Algorithm> = args.map(|a| a.parse()).collect::<Result<_, _>>()?;
    if algs.is_empty() {
        algs = vec![Algorithm::Shake128f, Algorithm::Sha2_128f];
    }
    println!(
        "{:<20} {:>5} {:>11} {:>13} {:>6}",
        "algorithm", "runs", "normal ms", "hardened ms", "ratio"
    );
    for alg in algs {
        let sk = DynSigningKey::generate(alg)?;
        let normal = SignOptions {
            randomness: Randomness::Deterministic,
            ..Default::default()
        };
        let hardened = SignOptions {
            fault_hardened: true,
            ..normal
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        sk.sign(b"warm-up", &normal)?;
        for _ in 0..runs {
            let t = Instant::now();
            let s1 = sk.sign(b"fault cost", &normal)?;
            a.push(t.elapsed());
            let t = Instant::now();
            let s2 = sk.sign(b"fault cost", &hardened)?;
            b.push(t.elapsed());
            assert_eq!(s1, s2);
        }
        let (a, b) = (median(a), median(b));
        println!(
            "{:<20} {:>5} {:>11.2} {:>13.2} {:>6.2}",
            alg.name(),
            runs,
            a,
            b,
            b / a
        );
    }
    Ok(())
}
