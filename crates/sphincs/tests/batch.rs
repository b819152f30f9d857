//! Batch verification and batch signing give exactly the answers of one-by-one
//! calls, on every backend this CPU has and for several thread counts: mixed
//! keys and sets, valid and invalid items, wrong lengths, oversize contexts.

mod common;

use common::splitmix_bytes as bytes;
use sphincs::sphincsplus::{self, SpxAlgorithm, SpxSignOptions, SpxSigningKey, SpxVerifyItem};
use sphincs::{
    verify_batch, with_backend, Algorithm, Backend, DynSigningKey, Error, PreHash, Randomness,
    SignOptions, VerifyItem,
};

fn key(alg: Algorithm, seed: u64) -> DynSigningKey {
    let n = alg.params().n;
    DynSigningKey::from_seeds(
        alg,
        &bytes(seed, n),
        &bytes(seed + 1, n),
        &bytes(seed + 2, n),
    )
    .unwrap()
}

/// An owned batch item, and what it should be.
struct Owned {
    key: sphincs::DynVerifyingKey,
    message: Vec<u8>,
    signature: Vec<u8>,
    context: Vec<u8>,
    prehash: Option<PreHash>,
}

/// Items over three keys of two sets: valid ones (pure, context, pre-hash),
/// tampered messages and signatures, a signature under the wrong key, the
/// wrong length, an empty signature, an oversize context.
fn mixed_items() -> Vec<Owned> {
    let keys = [
        key(Algorithm::Shake128f, 1),
        key(Algorithm::Sha2_128f, 2),
        key(Algorithm::Shake128f, 3),
    ];
    let mut items = Vec::new();
    for (i, sk) in keys.iter().enumerate() {
        for j in 0..4u64 {
            let message = bytes(10 * i as u64 + j, 40 + 7 * j as usize);
            let context = if j % 2 == 1 { b"ctx".to_vec() } else { vec![] };
            let prehash = (j == 3).then_some(PreHash::Sha2_256);
            let opts = SignOptions {
                context: &context,
                prehash,
                randomness: Randomness::Deterministic,
                ..Default::default()
            };
            let signature = sk.sign(&message, &opts).unwrap();
            items.push(Owned {
                key: sk.verifying_key(),
                message,
                signature,
                context,
                prehash,
            });
        }
    }
    let base = |k: usize| Owned {
        key: items[k].key,
        message: items[k].message.clone(),
        signature: items[k].signature.clone(),
        context: items[k].context.clone(),
        prehash: items[k].prehash,
    };
    let mut bad = Vec::new();
    let mut m = base(0);
    m.message.push(0);
    bad.push(m);
    let mut s = base(1);
    s.signature[100] ^= 1;
    bad.push(s);
    let mut k = base(4);
    k.key = items[0].key; // a SHAKE key for a SHA-2 signature: wrong length
    bad.push(k);
    let mut other = base(8);
    other.key = items[0].key; // same set, other key
    bad.push(other);
    let mut short = base(2);
    short.signature.pop();
    bad.push(short);
    let mut empty = base(3);
    empty.signature.clear();
    bad.push(empty);
    let mut ctx = base(5);
    ctx.context = vec![7; 256];
    bad.push(ctx);
    let mut ph = base(7);
    ph.prehash = Some(PreHash::Sha2_512);
    bad.push(ph);
    // Interleave the bad ones with the good ones.
    let mut out = Vec::new();
    let mut bad = bad.into_iter();
    for it in items {
        out.push(it);
        if let Some(b) = bad.next() {
            out.push(b);
        }
    }
    out.extend(bad);
    out
}

fn as_items(owned: &[Owned]) -> Vec<VerifyItem<'_>> {
    owned
        .iter()
        .map(|o| VerifyItem {
            key: &o.key,
            message: &o.message,
            signature: &o.signature,
            context: &o.context,
            prehash: o.prehash,
        })
        .collect()
}

#[test]
fn verify_batch_equals_one_by_one_on_every_backend_and_thread_count() {
    let owned = mixed_items();
    let items = as_items(&owned);
    let one_by_one: Vec<Result<(), Error>> = items
        .iter()
        .map(|it| {
            it.key
                .verify(it.message, it.signature, it.context, it.prehash)
        })
        .collect();
    let valid = one_by_one.iter().filter(|r| r.is_ok()).count();
    assert_eq!(valid, 12, "the 12 untampered items are valid");
    assert_eq!(one_by_one.len(), 20);
    assert!(one_by_one.contains(&Err(Error::InvalidSignature)));
    assert!(one_by_one.contains(&Err(Error::ContextTooLong(256))));
    assert!(one_by_one
        .iter()
        .any(|r| matches!(r, Err(Error::InvalidSignatureLength { .. }))));
    for backend in Backend::available() {
        for threads in [0, 1, 2, 3, 7] {
            let batch = with_backend(backend, || verify_batch(&items, threads)).unwrap();
            assert_eq!(
                batch,
                one_by_one,
                "backend {}, {threads} threads",
                backend.name()
            );
        }
    }
    assert!(verify_batch(&[], 4).is_empty());
}

#[test]
fn sign_batch_equals_one_by_one() {
    for alg in [Algorithm::Shake128f, Algorithm::Sha2_192f] {
        let sk = key(alg, alg as u64);
        let messages: Vec<Vec<u8>> = (0..5).map(|i| bytes(100 + i, 33 * i as usize)).collect();
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        let addrnd = bytes(7, alg.params().n);
        for randomness in [Randomness::Deterministic, Randomness::Given(&addrnd)] {
            let opts = SignOptions {
                context: b"batch",
                randomness,
                ..Default::default()
            };
            let expected: Vec<Vec<u8>> = refs.iter().map(|m| sk.sign(m, &opts).unwrap()).collect();
            for backend in Backend::available() {
                // 1..5 messages against 1..6 threads: side by side, split, and mixed.
                for count in [1, 2, 5] {
                    for threads in [0, 1, 2, 3, 6] {
                        let got = with_backend(backend, || {
                            sk.sign_batch(&refs[..count], &SignOptions { threads, ..opts })
                        })
                        .unwrap()
                        .unwrap();
                        assert!(
                            got == expected[..count],
                            "{} backend {} count {count} threads {threads}",
                            alg.name(),
                            backend.name()
                        );
                    }
                }
            }
        }
        // Hedged: fresh randomness per signature, each verifies.
        let hedged = sk
            .sign_batch(
                &refs,
                &SignOptions {
                    threads: 2,
                    ..Default::default()
                },
            )
            .unwrap();
        assert_ne!(
            hedged[0],
            sk.sign(refs[0], &SignOptions::default()).unwrap()
        );
        let pk = sk.verifying_key();
        for (m, s) in refs.iter().zip(&hedged) {
            pk.verify(m, s, b"", None).unwrap();
        }
    }
}

#[test]
fn sign_batch_reports_bad_options() {
    let sk = key(Algorithm::Shake128f, 9);
    let long = [0u8; 256];
    let msgs: [&[u8]; 2] = [b"a", b"b"];
    let opts = SignOptions {
        context: &long,
        threads: 2,
        ..Default::default()
    };
    assert_eq!(sk.sign_batch(&msgs, &opts), Err(Error::ContextTooLong(256)));
    assert_eq!(sk.sign_batch(&[], &SignOptions::default()), Ok(Vec::new()));
}

#[test]
fn round31_batches_equal_one_by_one() {
    let algs: [SpxAlgorithm; 3] = [
        "sphincs-shake-128f-simple".parse().unwrap(),
        "sphincs-sha2-128f-robust".parse().unwrap(),
        "sphincs-haraka-128f-simple".parse().unwrap(),
    ];
    let mut keys = Vec::new();
    let mut messages = Vec::new();
    let mut sigs = Vec::new();
    for (i, alg) in algs.iter().enumerate() {
        let sk = SpxSigningKey::from_seed(*alg, &bytes(i as u64, 3 * alg.params().n)).unwrap();
        let msgs: Vec<Vec<u8>> = (0..3).map(|j| bytes(50 + j, 20)).collect();
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        let opts = SpxSignOptions {
            randomness: Randomness::Deterministic,
            ..Default::default()
        };
        let one: Vec<Vec<u8>> = refs.iter().map(|m| sk.sign(m, &opts).unwrap()).collect();
        for threads in [1, 2, 4] {
            let batch = sk
                .sign_batch(&refs, &SpxSignOptions { threads, ..opts })
                .unwrap();
            assert!(batch == one, "{} threads {threads}", alg.name());
        }
        keys.push(sk.verifying_key());
        messages.push(msgs);
        sigs.push(one);
    }
    let mut items = Vec::new();
    for (k, key) in keys.iter().enumerate() {
        for j in 0..3 {
            items.push(SpxVerifyItem {
                key,
                message: &messages[k][j],
                // Item (k, 2) carries the signature of (k, 1): invalid.
                signature: &sigs[k][j.min(1)],
            });
        }
    }
    let truncated = &sigs[0][0][1..];
    items.push(SpxVerifyItem {
        key: &keys[0],
        message: &messages[0][0],
        signature: truncated,
    });
    let one: Vec<_> = items
        .iter()
        .map(|it| it.key.verify(it.message, it.signature))
        .collect();
    assert_eq!(one.iter().filter(|r| r.is_ok()).count(), 6);
    for backend in Backend::available() {
        for threads in [1, 3] {
            let batch =
                with_backend(backend, || sphincsplus::verify_batch(&items, threads)).unwrap();
            assert_eq!(batch, one, "backend {} threads {threads}", backend.name());
        }
    }
}

#[test]
fn key_modes_hold_in_batches() {
    use sphincs::KeyMode;
    let alg = Algorithm::Sha2_128f;
    let raw = key(alg, 77);
    let hashed = raw.clone().with_mode(KeyMode::hash_slh_dsa(alg)).unwrap();
    let pure = raw.clone().with_mode(KeyMode::Pure).unwrap();
    let opts = SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    // The HashSLH-DSA key signs with its bound pre-hash (SHA-256) by itself.
    let msg: &[u8] = b"release";
    let sig_h = hashed.sign(msg, &opts).unwrap();
    let sig_p = pure.sign(msg, &opts).unwrap();
    let (kh, kp, kr) = (
        hashed.verifying_key(),
        pure.verifying_key(),
        raw.verifying_key(),
    );
    let item = |key, signature, prehash| VerifyItem {
        key,
        message: msg,
        signature,
        context: b"",
        prehash,
    };
    // Same key bytes in three modes, side by side in one group.
    let items = [
        item(&kh, &sig_h, None),
        item(&kh, &sig_h, Some(PreHash::Sha2_256)),
        item(&kh, &sig_p, None),
        item(&kp, &sig_p, None),
        item(&kp, &sig_h, Some(PreHash::Sha2_256)),
        item(&kr, &sig_h, Some(PreHash::Sha2_256)),
        item(&kr, &sig_p, None),
        item(&kh, &sig_h, Some(PreHash::Sha2_512)),
    ];
    let one: Vec<_> = items
        .iter()
        .map(|it| {
            it.key
                .verify(it.message, it.signature, it.context, it.prehash)
        })
        .collect();
    assert_eq!(one.iter().filter(|r| r.is_ok()).count(), 5, "{one:?}");
    assert!(one
        .iter()
        .any(|r| matches!(r, Err(Error::WrongKeyMode { .. }))));
    for threads in [1, 2] {
        assert_eq!(verify_batch(&items, threads), one, "{threads} threads");
    }
}

#[test]
fn a_stopped_batch_starts_no_more_items_and_says_cancelled() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    let sk = key(Algorithm::Shake128f, 7);
    let pk = sk.verifying_key();
    let msgs: Vec<&[u8]> = vec![b"m"; 6];
    let opts = SignOptions {
        threads: 2,
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    // Not stopped: the same signatures as sign_batch.
    let running = AtomicBool::new(false);
    let sigs = sk.sign_batch_until(&msgs, &opts, &running).unwrap();
    assert_eq!(sigs, sk.sign_batch(&msgs, &opts).unwrap());
    let items: Vec<VerifyItem> = sigs
        .iter()
        .map(|s| VerifyItem {
            key: &pk,
            message: b"m",
            signature: s,
            context: b"",
            prehash: None,
        })
        .collect();
    let verified = sphincs::verify_batch_until(&items, 2, &running).unwrap();
    assert!(verified.iter().all(Result::is_ok));
    // Stopped before it starts, on one thread and on two.
    let stopped = AtomicBool::new(true);
    for threads in [1, 2] {
        let opts = SignOptions { threads, ..opts };
        assert_eq!(
            sk.sign_batch_until(&msgs, &opts, &stopped),
            Err(Error::Cancelled)
        );
        assert_eq!(
            sphincs::verify_batch_until(&items, threads, &stopped),
            Err(Error::Cancelled)
        );
    }
    let alg = SpxAlgorithm::ALL[0];
    let spx = SpxSigningKey::from_seed(alg, &bytes(1, 3 * alg.params().n)).unwrap();
    let o = SpxSignOptions {
        threads: 2,
        ..Default::default()
    };
    assert_eq!(
        spx.sign_batch_until(&msgs, &o, &stopped),
        Err(Error::Cancelled)
    );
    let spx_pk = spx.verifying_key();
    let spx_items = [SpxVerifyItem {
        key: &spx_pk,
        message: b"m",
        signature: b"short",
    }];
    assert_eq!(
        sphincsplus::verify_batch_until(&spx_items, 2, &stopped),
        Err(Error::Cancelled)
    );
    // Stopped while running: a long batch ends soon after the flag is set.
    let many: Vec<&[u8]> = vec![b"m"; 2000];
    let flag = AtomicBool::new(false);
    let started = Instant::now();
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            flag.store(true, Ordering::Relaxed);
        });
        sk.sign_batch_until(&many, &opts, &flag)
    });
    assert_eq!(r, Err(Error::Cancelled));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}
