//! One signature split into tree tasks (`AnySigningKey::sign_plan`,
//! `sign_task`, `sign_finish`), as the npm package spreads it over Web
//! Workers: the finished signature is `sign`'s, byte for byte, for every
//! FIPS 205 set and every way of signing; bad input is an error, never a
//! panic; and the other families refuse it.

use sphincs::any::{AnyAlgorithm, AnySigningKey};
use sphincs::{Algorithm, Error, KeyMode, PreHash, Randomness, SignOptions};

fn key(alg: Algorithm) -> AnySigningKey {
    let any = AnyAlgorithm::SlhDsa(alg);
    let seed: Vec<u8> = (0..any.seed_len()).map(|i| (i as u8) ^ 0x5a).collect();
    AnySigningKey::from_seed(any, &seed, 1).unwrap()
}

/// Every task of `plan`, computed in reverse order (each is on its own).
fn tasks(sk: &AnySigningKey, plan: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<_> = (0..sk.sign_task_count())
        .rev()
        .map(|i| sk.sign_task(plan, i).unwrap())
        .collect();
    out.reverse();
    out
}

fn split_sign(sk: &AnySigningKey, msg: &[u8], opts: &SignOptions<'_>) -> Vec<u8> {
    let plan = sk.sign_plan(msg, opts).unwrap();
    let outputs = tasks(sk, &plan);
    let parts: Vec<&[u8]> = outputs.iter().map(Vec::as_slice).collect();
    sk.sign_finish(&plan, &parts).unwrap()
}

const CTX: &[u8] = b"split across workers";
const RAND: [u8; 32] = [0xa5; 32];

/// Deterministic and given randomness, pure and HashSLH-DSA, each with a
/// context (and deterministic pure without one).
fn option_sets(alg: Algorithm) -> Vec<SignOptions<'static>> {
    let n = alg.params().n;
    let det = SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    let given = SignOptions {
        randomness: Randomness::Given(&RAND[..n]),
        ..det
    };
    vec![
        det,
        SignOptions {
            context: CTX,
            ..det
        },
        SignOptions {
            context: CTX,
            ..given
        },
        SignOptions {
            context: CTX,
            prehash: Some(PreHash::Sha2_256),
            ..det
        },
        SignOptions {
            context: CTX,
            prehash: Some(PreHash::Shake256),
            ..given
        },
    ]
}

/// `sign_finish` equals `sign` under every option set (`all`) or the last
/// two (given randomness, pure and pre-hash), and the signature verifies.
fn split_equals_sign(alg: Algorithm, all: bool) {
    let sk = key(alg);
    let p = alg.params();
    assert_eq!(sk.sign_task_count(), p.d + p.k, "{alg}");
    let msg = b"one signature, many workers";
    let sets = option_sets(alg);
    let sets = if all { &sets[..] } else { &sets[2..] };
    for opts in sets {
        let plan = sk.sign_plan(msg, opts).unwrap();
        assert_eq!(plan.len(), p.n + p.m, "{alg}");
        for i in [0, p.d - 1, p.d, p.d + p.k - 1] {
            let len = sk.sign_task(&plan, i).unwrap().len();
            let part = if i < p.d { p.hp } else { p.a + 1 };
            assert_eq!(len, (part + 1) * p.n, "{alg} task {i}");
        }
        let sig = split_sign(&sk, msg, opts);
        assert_eq!(sig, sk.sign(msg, opts).unwrap(), "{alg} {opts:?}");
        sk.verifying_key()
            .verify(msg, &sig, opts.context, opts.prehash)
            .unwrap();
    }
}

/// An `s` set (small signatures, slow signing).
fn small(alg: Algorithm) -> bool {
    alg.to_string().ends_with('s')
}

#[test]
fn sign_split_equals_sign_for_the_f_sets() {
    for alg in Algorithm::ALL.into_iter().filter(|a| !small(*a)) {
        split_equals_sign(alg, true);
    }
}

#[test]
fn sign_split_equals_sign_for_the_s_sets() {
    for alg in Algorithm::ALL.into_iter().filter(|a| small(*a)) {
        split_equals_sign(alg, false);
    }
}

#[test]
fn sign_split_follows_the_key_mode_threads_and_hardening() {
    let alg = Algorithm::Sha2_128f;
    let msg = b"mode";
    // A HashSLH-DSA key: its pre-hash is used when the options name none.
    let sk = AnySigningKey::from(
        key(alg)
            .as_slh_dsa()
            .unwrap()
            .clone()
            .with_mode(KeyMode::HashSlhDsa(alg.bound_prehash()))
            .unwrap(),
    );
    let det = SignOptions {
        context: CTX,
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    assert_eq!(split_sign(&sk, msg, &det), sk.sign(msg, &det).unwrap());
    let wrong = SignOptions {
        prehash: Some(PreHash::Sha3_256),
        ..det
    };
    assert!(matches!(
        sk.sign_plan(msg, &wrong),
        Err(Error::WrongKeyMode { .. })
    ));

    // Threads and fault hardening give `sign`'s signature too.
    let sk = key(alg);
    let plain = split_sign(&sk, msg, &det);
    for opts in [
        SignOptions { threads: 2, ..det },
        SignOptions {
            fault_hardened: true,
            ..det
        },
    ] {
        assert_eq!(sk.sign_plan(msg, &opts), sk.sign_plan(msg, &det));
        assert_eq!(split_sign(&sk, msg, &opts), sk.sign(msg, &opts).unwrap());
        assert_eq!(split_sign(&sk, msg, &opts), plain);
    }

    // Hedged: a fresh R each time, and a signature that verifies.
    let hedged = SignOptions {
        context: CTX,
        ..Default::default()
    };
    let a = split_sign(&sk, msg, &hedged);
    assert_ne!(a, split_sign(&sk, msg, &hedged));
    sk.verifying_key().verify(msg, &a, CTX, None).unwrap();
}

#[test]
fn sign_split_refuses_bad_options() {
    let sk = key(Algorithm::Shake128f);
    let long = [0u8; 256];
    let opts = SignOptions {
        context: &long,
        ..Default::default()
    };
    assert_eq!(sk.sign_plan(b"m", &opts), Err(Error::ContextTooLong(256)));
    let opts = SignOptions {
        randomness: Randomness::Given(&[1; 15]),
        ..Default::default()
    };
    assert_eq!(
        sk.sign_plan(b"m", &opts),
        Err(Error::InvalidRandomnessLength {
            expected: 16,
            got: 15
        })
    );
}

#[test]
fn sign_split_errors_on_bad_input() {
    let alg = Algorithm::Shake128f;
    let p = alg.params();
    let (d, k, n) = (p.d, p.k, p.n);
    let sk = key(alg);
    let opts = SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    let plan = sk.sign_plan(b"m", &opts).unwrap();
    let outputs = tasks(&sk, &plan);
    let parts: Vec<&[u8]> = outputs.iter().map(Vec::as_slice).collect();

    // A plan of the wrong length, to a task and to the finish.
    let bad_plan = Error::InvalidLength {
        what: "signing plan",
        algorithm: "SLH-DSA-SHAKE-128f",
        expected: n + p.m,
        got: plan.len() - 1,
    };
    let short = &plan[..plan.len() - 1];
    assert_eq!(sk.sign_task(short, 0), Err(bad_plan.clone()));
    assert_eq!(sk.sign_finish(short, &parts), Err(bad_plan));
    let mut long = plan.clone();
    long.push(0);
    assert!(matches!(
        sk.sign_task(&long, 0),
        Err(Error::InvalidLength { what: "signing plan", got, .. }) if got == n + p.m + 1
    ));

    // A task index past the last.
    for i in [d + k, usize::MAX] {
        assert_eq!(
            sk.sign_task(&plan, i),
            Err(Error::InvalidTask {
                what: "task index",
                algorithm: alg,
                tasks: d + k,
                got: i,
            })
        );
    }
    assert_eq!(
        sk.sign_task(&plan, d + k).unwrap_err().to_string(),
        "task index is 55; SLH-DSA-SHAKE-128f signatures have 55 tree tasks, numbered 0 to 54"
    );

    // Too few or too many outputs.
    for count in [0, d + k - 1, d + k + 1] {
        let mut some = parts.clone();
        some.resize(count, parts[0]);
        assert_eq!(
            sk.sign_finish(&plan, &some),
            Err(Error::InvalidTask {
                what: "number of task outputs",
                algorithm: alg,
                tasks: d + k,
                got: count,
            })
        );
    }

    // An output of the wrong length: an XMSS tree's, a FORS tree's, and the
    // two swapped.
    for (i, what) in [(0, "XMSS task output"), (d + 3, "FORS task output")] {
        let mut some = parts.clone();
        let cut = &outputs[i][..outputs[i].len() - 1];
        some[i] = cut;
        assert_eq!(
            sk.sign_finish(&plan, &some),
            Err(Error::InvalidLength {
                what,
                algorithm: "SLH-DSA-SHAKE-128f",
                expected: outputs[i].len(),
                got: cut.len(),
            })
        );
    }
    let mut swapped = parts.clone();
    swapped.swap(0, d);
    assert!(matches!(
        sk.sign_finish(&plan, &swapped),
        Err(Error::InvalidLength { .. })
    ));

    // Outputs of the right lengths but wrong: a root, a FORS secret, an
    // authentication path, or another plan's tasks. The signature is
    // verified before release.
    for (i, byte) in [(0, outputs[0].len() - 1), (d + 2, 0), (d - 1, 5)] {
        let mut bad = outputs[i].clone();
        bad[byte] ^= 1;
        let mut some = parts.clone();
        some[i] = &bad;
        assert_eq!(
            sk.sign_finish(&plan, &some),
            Err(Error::InvalidSignature),
            "task {i} byte {byte}"
        );
    }
    let other = sk.sign_plan(b"other", &opts).unwrap();
    assert_eq!(sk.sign_finish(&other, &parts), Err(Error::InvalidSignature));

    // The same parts still finish.
    assert_eq!(
        sk.sign_finish(&plan, &parts).unwrap(),
        sk.sign(b"m", &opts).unwrap()
    );
}

#[test]
fn sign_split_is_unsupported_by_the_other_families() {
    for name in ["sphincs-shake-128f-simple", "sphincs-256"] {
        let alg: AnyAlgorithm = name.parse().unwrap();
        let sk = AnySigningKey::from_seed(alg, &vec![7; alg.seed_len()], 1).unwrap();
        assert_eq!(sk.sign_task_count(), 0, "{name}");
        let unsupported = |r: Result<Vec<u8>, Error>| {
            assert!(
                matches!(r, Err(Error::Unsupported { what, .. }) if what.contains("sign_plan")),
                "{name}: {r:?}"
            );
        };
        unsupported(sk.sign_plan(b"m", &SignOptions::default()));
        unsupported(sk.sign_task(&[0; 48], 0));
        unsupported(sk.sign_finish(&[0; 48], &[]));
    }
}

/// A draft SP 800-230 set splits as the FIPS 205 sets do (its one tree in
/// task 0, from the key's tree cache). Minutes per key: run with
/// `cargo test --release -p sphincs --test sign_split -- --ignored`.
#[test]
#[ignore]
fn sign_split_equals_sign_for_a_draft_sp800_230_set() {
    let alg = Algorithm::Shake128_24;
    let any = AnyAlgorithm::SlhDsa(alg);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let sk = AnySigningKey::from_seed(any, &vec![3; any.seed_len()], threads).unwrap();
    assert!(sk.tree_cache().is_some());
    let opts = SignOptions {
        context: CTX,
        randomness: Randomness::Deterministic,
        threads,
        ..Default::default()
    };
    assert_eq!(split_sign(&sk, b"m", &opts), sk.sign(b"m", &opts).unwrap());
}
