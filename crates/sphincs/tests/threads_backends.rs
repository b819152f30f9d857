//! Speed must not change results: every thread count and every hash backend
//! this CPU has give the same keys and signatures, for every parameter set.

mod common;

use common::splitmix_bytes as bytes;
use sphincs::{Algorithm, Backend, DynSigningKey, Randomness, SignOptions};

/// Key and a randomized signature with caller-given addrnd, on `threads` threads.
fn key_and_signature(alg: Algorithm, threads: usize) -> (Vec<u8>, Vec<u8>) {
    let n = alg.params().n;
    let seed = alg as u64;
    let sk = DynSigningKey::from_seeds_with_threads(
        alg,
        &bytes(seed, n),
        &bytes(seed + 100, n),
        &bytes(seed + 200, n),
        threads,
    )
    .unwrap();
    let addrnd = bytes(seed + 300, n);
    let opts = SignOptions {
        context: b"threads",
        randomness: Randomness::Given(&addrnd),
        threads,
        ..Default::default()
    };
    let msg = bytes(seed + 400, 1000);
    let sig = sk.sign(&msg, &opts).unwrap();
    sk.verifying_key()
        .verify(&msg, &sig, b"threads", None)
        .expect("own signature verifies");
    (sk.to_bytes().to_vec(), sig)
}

#[test]
fn thread_counts_give_identical_keys_and_signatures() {
    for alg in Algorithm::ALL {
        let one = key_and_signature(alg, 1);
        for threads in 2..=4 {
            let many = key_and_signature(alg, threads);
            assert!(
                one.0 == many.0,
                "{}: key differs with {threads} threads",
                alg.name()
            );
            assert!(
                one.1 == many.1,
                "{}: signature differs with {threads} threads",
                alg.name()
            );
        }
    }
}

#[test]
fn backends_give_identical_keys_and_signatures() {
    let available: Vec<Backend> = Backend::available().collect();
    for b in Backend::ALL {
        if !available.contains(&b) {
            eprintln!("skipping backend {b}: this CPU lacks its features");
        }
    }
    for alg in Algorithm::ALL {
        let scalar = sphincs::with_backend(Backend::Scalar, || key_and_signature(alg, 1)).unwrap();
        for &b in &available {
            let got = sphincs::with_backend(b, || key_and_signature(alg, 2)).unwrap();
            assert!(
                scalar == got,
                "{}: backend {b} differs from scalar",
                alg.name()
            );
        }
    }
}

#[test]
fn unavailable_or_unknown_backends_are_errors() {
    assert!("avx-9000".parse::<Backend>().is_err());
    for b in Backend::ALL {
        assert_eq!(b.name().parse::<Backend>().unwrap(), b);
        let r = sphincs::with_backend(b, || 7);
        assert_eq!(r.is_ok(), b.is_available(), "{b}");
    }
}
