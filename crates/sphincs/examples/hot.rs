//! Repeats one operation for a profiler (`perf record`):
//! `cargo run --release -p sphincs --example hot -- ALG keygen|sign|verify COUNT [THREADS]`.

use std::time::Instant;

use sphincs::{Algorithm, DynSigningKey, Randomness, SignOptions};

fn main() -> Result<(), sphincs::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let alg: Algorithm = args.first().map_or("shake-128f", String::as_str).parse()?;
    let op = args.get(1).map_or("sign", String::as_str);
    let count: usize = args.get(2).and_then(|c| c.parse().ok()).unwrap_or(20);
    let threads: usize = args.get(3).and_then(|c| c.parse().ok()).unwrap_or(1);
    let n = alg.params().n;
    let sk = DynSigningKey::from_seeds(alg, &vec![1; n], &vec![2; n], &vec![3; n])?;
    let opts = SignOptions {
        randomness: Randomness::Deterministic,
        threads,
        ..Default::default()
    };
    let sig = sk.sign(b"hot", &opts)?;
    let vk = sk.verifying_key();
    let mut times = Vec::with_capacity(count);
    for _ in 0..count {
        let t = Instant::now();
        match op {
            "keygen" => {
                DynSigningKey::from_seeds_with_threads(
                    alg,
                    &vec![1; n],
                    &vec![2; n],
                    &vec![3; n],
                    threads,
                )?;
            }
            "sign" => {
                sk.sign(b"hot", &opts)?;
            }
            _ => vk.verify(b"hot", &sig, b"", None)?,
        }
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{} {op} x{count} threads {threads}: median {:.3} ms, min {:.3} ms",
        alg.name(),
        times[count / 2],
        times[0]
    );
    Ok(())
}
