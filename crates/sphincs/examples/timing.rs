//! Rough one-shot timings of keygen, sign and verify for every parameter set:
//! `cargo run --release -p sphincs --example timing [ALG ...]`.
//! Criterion benchmarks and `sphincs bench` are the measured figures; this is
//! a quick look while developing.

use std::time::Instant;

use sphincs::{Algorithm, DynSigningKey, Randomness, SignOptions};

fn main() -> Result<(), sphincs::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let algs: Vec<Algorithm> = if args.is_empty() {
        Algorithm::ALL.to_vec()
    } else {
        args.iter().map(|a| a.parse()).collect::<Result<_, _>>()?
    };
    println!(
        "{:<20} {:>12} {:>12} {:>12}",
        "algorithm", "keygen ms", "sign ms", "verify ms"
    );
    for alg in algs {
        let t = Instant::now();
        let sk = DynSigningKey::generate(alg)?;
        let keygen = t.elapsed();
        let opts = SignOptions {
            randomness: Randomness::Deterministic,
            ..Default::default()
        };
        let t = Instant::now();
        let sig = sk.sign(b"timing", &opts)?;
        let sign = t.elapsed();
        let t = Instant::now();
        sk.verifying_key().verify(b"timing", &sig, b"", None)?;
        let verify = t.elapsed();
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        println!(
            "{:<20} {:>12.2} {:>12.2} {:>12.2}",
            alg.name(),
            ms(keygen),
            ms(sign),
            ms(verify)
        );
    }
    Ok(())
}
