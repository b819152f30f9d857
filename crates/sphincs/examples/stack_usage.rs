//! Measures the stack each operation needs: the smallest thread stack (to 1 KiB)
//! on which keygen, sign, verify and a batch verification (eight signatures
//! under one key, one thread) of each parameter set complete.
//!
//! `cargo run --release -p sphincs --example stack_usage [ALG ...]`
//!
//! A stack overflow aborts the whole process, so every probe runs in a child
//! process (this same binary, `probe ALG OP KIB`) and the parent binary-searches
//! on its exit status. The figure is an upper bound on the operation's own peak:
//! it includes the thread's start-up frames and whatever the platform keeps on
//! a thread stack (glibc places TLS there).

use std::process::{Command, Stdio};

use sphincs::{
    verify_batch, Algorithm, DynSigningKey, DynVerifyingKey, Randomness, SignOptions, VerifyItem,
};

const OPS: [&str; 4] = ["keygen", "sign", "verify", "verify_batch"];
/// glibc's PTHREAD_STACK_MIN: smaller requests are rounded up to it.
const MIN_KIB: usize = 16;

/// Fixed, arbitrary key material: the stack profile does not depend on its value.
fn bytes(len: usize, salt: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt))
        .collect()
}

fn probe(alg: Algorithm, op: &str, kib: usize) {
    let n = alg.params().n;
    let sk = DynSigningKey::from_bytes_unchecked(alg, &bytes(4 * n, 1)).expect("key length");
    let vk = DynVerifyingKey::from_bytes(alg, &bytes(2 * n, 2)).expect("key length");
    let sig = bytes(alg.signature_len(), 3);
    let op = op.to_string();
    let worker = std::thread::Builder::new()
        .stack_size(kib * 1024)
        .spawn(move || match op.as_str() {
            "keygen" => {
                let seeds = bytes(n, 4);
                DynSigningKey::from_seeds(alg, &seeds, &seeds, &seeds).expect("keygen");
            }
            "sign" => {
                let opts = SignOptions {
                    randomness: Randomness::Deterministic,
                    ..Default::default()
                };
                sk.sign(b"stack", &opts).expect("sign");
            }
            "verify" => {
                // A random signature walks the same code path as a valid one.
                let _ = vk.verify(b"stack", &sig, b"", None);
            }
            "verify_batch" => {
                // Eight items under one key on the calling thread: the
                // widest group verify_batch climbs side by side.
                let items: Vec<VerifyItem> = (0..8)
                    .map(|_| VerifyItem {
                        key: &vk,
                        message: b"stack",
                        signature: &sig,
                        context: b"",
                        prehash: None,
                    })
                    .collect();
                let _ = verify_batch(&items, 1);
            }
            other => panic!("unknown op {other}"),
        });
    worker.expect("spawn").join().expect("worker");
}

fn fits(exe: &str, alg: Algorithm, op: &str, kib: usize) -> bool {
    Command::new(exe)
        .args(["probe", alg.name(), op, &kib.to_string()])
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("probe") {
        let alg: Algorithm = args[2].parse().expect("algorithm");
        probe(alg, &args[3], args[4].parse().expect("KiB"));
        return;
    }
    let algs: Vec<Algorithm> = if args.len() > 1 {
        args[1..]
            .iter()
            .map(|a| a.parse().expect("algorithm"))
            .collect()
    } else {
        Algorithm::ALL.to_vec()
    };
    let exe = &args[0];
    println!("| set | keygen KiB | sign KiB | verify KiB | verify_batch KiB |");
    println!("|---|---|---|---|---|");
    for alg in algs {
        let mut row = Vec::new();
        for op in OPS {
            let (mut lo, mut hi) = (MIN_KIB, 1024usize);
            assert!(
                fits(exe, alg, op, hi),
                "{alg} {op} needs more than {hi} KiB"
            );
            while lo < hi {
                let mid = (lo + hi) / 2;
                if fits(exe, alg, op, mid) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            row.push(if hi == MIN_KIB {
                format!("≤ {hi}")
            } else {
                hi.to_string()
            });
        }
        println!("| {} | {} |", alg.name(), row.join(" | "));
    }
}
