//! Batch verification against one-by-one verification, side by side in one
//! process (alternating rounds, so machine load hits both alike): per-signature
//! time and their ratio, for each set named (default: all twelve).
//!
//! `cargo run --release -p sphincs --example batch_vs_single -- [BATCH] [ROUNDS] [SET...]`

use std::time::Instant;

use sphincs::{verify_batch, Algorithm, DynSigningKey, Randomness, SignOptions, VerifyItem};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), sphincs::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let batch: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(32);
    let rounds: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    let sets: Vec<Algorithm> = if args.len() > 2 {
        args[2..]
            .iter()
            .map(|a| a.parse())
            .collect::<Result<_, _>>()?
    } else {
        Algorithm::ALL.to_vec()
    };
    println!("set                  single us/sig  batch us/sig  batch/single  (batch {batch}, 1 thread, {rounds} rounds)");
    for alg in sets {
        let n = alg.params().n;
        let sk = DynSigningKey::from_seeds(alg, &vec![1; n], &vec![2; n], &vec![3; n])?;
        let pk = sk.verifying_key();
        let msgs: Vec<Vec<u8>> = (0..batch)
            .map(|i| format!("message {i}").into_bytes())
            .collect();
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        let opts = SignOptions {
            randomness: Randomness::Deterministic,
            threads: 2,
            ..Default::default()
        };
        let sigs = sk.sign_batch(&refs, &opts)?;
        let items: Vec<VerifyItem> = refs
            .iter()
            .zip(&sigs)
            .map(|(m, s)| VerifyItem {
                key: &pk,
                message: m,
                signature: s,
                context: b"",
                prehash: None,
            })
            .collect();
        let (mut single, mut batched) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let t = Instant::now();
            for it in &items {
                pk.verify(it.message, it.signature, b"", None)?;
            }
            single.push(t.elapsed().as_secs_f64() * 1e6 / batch as f64);
            let t = Instant::now();
            let r = verify_batch(std::hint::black_box(&items), 1);
            batched.push(t.elapsed().as_secs_f64() * 1e6 / batch as f64);
            assert!(r.iter().all(Result::is_ok));
        }
        let (s, b) = (median(&mut single), median(&mut batched));
        println!(
            "{:<20} {:>14.1} {:>13.1} {:>13.3}",
            alg.name().trim_start_matches("SLH-DSA-"),
            s,
            b,
            b / s
        );
    }
    Ok(())
}
