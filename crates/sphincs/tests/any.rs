//! The front door (`sphincs::any`): one key type over every family gives the
//! same keys and signatures as each family's typed API, refuses what a family
//! lacks with `Error::Unsupported` naming it, and its one batch verifier
//! answers as one-by-one calls for a batch that mixes all three families.

use sphincs::any::{verify_batch, AnyAlgorithm, AnySigningKey, AnyVerifyItem, Family};
use sphincs::sphincs256::Sphincs256SigningKey;
use sphincs::sphincsplus::{SpxSignOptions, SpxSigningKey};
use sphincs::{Algorithm, DynSigningKey, Error, KeyMode, PreHash, Randomness, SignOptions};

fn seed(alg: AnyAlgorithm, tag: u8) -> Vec<u8> {
    (0..alg.seed_len())
        .map(|i| (i as u8).wrapping_mul(31) ^ tag)
        .collect()
}

const DET: SignOptions = SignOptions {
    context: b"",
    prehash: None,
    randomness: Randomness::Deterministic,
    threads: 1,
    fault_hardened: false,
};

fn algs() -> [AnyAlgorithm; 3] {
    [
        "SLH-DSA-SHAKE-128f".parse().unwrap(),
        "sphincs-sha2-128f-simple".parse().unwrap(),
        "sphincs-256".parse().unwrap(),
    ]
}

#[test]
fn same_keys_and_signatures_as_the_typed_apis() {
    let msg = b"release-1.2.tar.gz";
    let [fips, spx, s256] = algs();

    let sk = AnySigningKey::from_seed(fips, &seed(fips, 1), 2).unwrap();
    let s = seed(fips, 1);
    let typed =
        DynSigningKey::from_seeds(Algorithm::Shake128f, &s[..16], &s[16..32], &s[32..]).unwrap();
    assert_eq!(*sk.to_bytes(), *typed.to_bytes());
    assert_eq!(sk.sign(msg, &DET).unwrap(), typed.sign(msg, &DET).unwrap());

    let sk = AnySigningKey::from_seed(spx, &seed(spx, 2), 1).unwrap();
    let typed = SpxSigningKey::from_seed(spx_alg(spx), &seed(spx, 2)).unwrap();
    assert_eq!(*sk.to_bytes(), *typed.to_bytes());
    let spx_det = SpxSignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    assert_eq!(
        sk.sign(msg, &DET).unwrap(),
        typed.sign(msg, &spx_det).unwrap()
    );

    let sk = AnySigningKey::from_seed(s256, &seed(s256, 3), 1).unwrap();
    let typed = Sphincs256SigningKey::from_bytes(&seed(s256, 3)).unwrap();
    assert_eq!(
        sk.verifying_key().to_bytes(),
        typed.verifying_key().to_bytes()
    );
    assert_eq!(sk.sign(msg, &DET).unwrap(), typed.sign(msg));
}

fn spx_alg(a: AnyAlgorithm) -> sphincs::sphincsplus::SpxAlgorithm {
    match a {
        AnyAlgorithm::SphincsPlus(s) => s,
        other => panic!("{other} is not a round-3.1 set"),
    }
}

#[test]
fn every_family_signs_verifies_and_round_trips_its_bytes() {
    for alg in algs() {
        let sk = AnySigningKey::from_seed(alg, &seed(alg, 9), 1).unwrap();
        assert_eq!(sk.algorithm(), alg);
        let pk = sk.verifying_key();
        let sig = sk.sign(b"m", &SignOptions::default()).unwrap();
        assert_eq!(sig.len(), alg.signature_len());
        assert_eq!(pk.verify(b"m", &sig, b"", None), Ok(()));
        assert_eq!(
            pk.verify(b"x", &sig, b"", None),
            Err(Error::InvalidSignature)
        );
        // Streamed signing and verification give the same answers.
        let streamed = sk.sign_stream(&mut &b"m"[..], &DET).unwrap();
        assert_eq!(streamed, sk.sign(b"m", &DET).unwrap());
        assert_eq!(
            pk.verify_stream(&mut &b"m"[..], &streamed, b"", None),
            Ok(())
        );
        // Raw bytes round-trip.
        let back = AnySigningKey::from_bytes(alg, &sk.to_bytes()).unwrap();
        assert_eq!(back.verifying_key(), pk);
        let pk2 = sphincs::any::AnyVerifyingKey::from_bytes(alg, &pk.to_bytes()).unwrap();
        assert_eq!(pk2, pk);
        // Batch signing equals one by one.
        let msgs: [&[u8]; 3] = [b"a", b"bb", b"ccc"];
        let batch = sk
            .sign_batch(&msgs, &SignOptions { threads: 2, ..DET })
            .unwrap();
        for (m, s) in msgs.iter().zip(&batch) {
            assert_eq!(*s, sk.sign(m, &DET).unwrap());
        }
    }
}

#[test]
fn what_a_family_lacks_is_unsupported_and_named() {
    let [fips, spx, s256] = algs();
    for alg in [spx, s256] {
        let sk = AnySigningKey::from_seed(alg, &seed(alg, 4), 1).unwrap();
        let family = alg.family().name();
        let ctx = SignOptions {
            context: b"ctx",
            ..DET
        };
        let ph = SignOptions {
            prehash: Some(PreHash::Sha2_256),
            ..DET
        };
        for opts in [ctx, ph] {
            match sk.sign(b"m", &opts) {
                Err(Error::Unsupported { family: f, .. }) => assert_eq!(f, family),
                other => panic!("{alg}: {other:?}"),
            }
        }
        let e = sk.to_pkcs8_der().unwrap_err();
        assert!(e.to_string().starts_with(family), "{e}");
        assert!(matches!(
            sk.clone().with_mode(KeyMode::Pure),
            Err(Error::Unsupported { .. })
        ));
        assert_eq!(sk.mode(), None);
        let pk = sk.verifying_key();
        let sig = sk.sign(b"m", &DET).unwrap();
        assert!(matches!(
            pk.verify(b"m", &sig, b"c", None),
            Err(Error::Unsupported { .. })
        ));
        assert!(matches!(pk.to_spki_pem(), Err(Error::Unsupported { .. })));
    }
    let s256_sk = AnySigningKey::from_seed(s256, &seed(s256, 5), 1).unwrap();
    for opts in [
        SignOptions {
            randomness: Randomness::Given(&[0; 32]),
            ..DET
        },
        SignOptions {
            fault_hardened: true,
            ..DET
        },
    ] {
        let e = s256_sk.sign(b"m", &opts).unwrap_err();
        assert!(
            e.to_string().starts_with("SPHINCS-256 does not support"),
            "{e}"
        );
    }
    // FIPS 205 keys have all of it, and PKCS#8/SPKI round-trip through the front door.
    let sk = AnySigningKey::from_seed(fips, &seed(fips, 6), 1).unwrap();
    assert_eq!(sk.mode(), Some(KeyMode::Unrestricted));
    let back = AnySigningKey::from_pkcs8(sk.to_pkcs8_pem().unwrap().as_bytes()).unwrap();
    assert_eq!(
        back.verifying_key(),
        sk.verifying_key().with_mode(KeyMode::Pure).unwrap()
    );
    let pem = sk.verifying_key().to_spki_pem().unwrap();
    let pk = sphincs::any::AnyVerifyingKey::from_spki(pem.as_bytes()).unwrap();
    let sig = sk
        .sign(
            b"m",
            &SignOptions {
                context: b"c",
                ..DET
            },
        )
        .unwrap();
    assert_eq!(pk.verify(b"m", &sig, b"c", None), Ok(()));
    assert_eq!(fips.family(), Family::SlhDsa);
}

#[test]
fn one_batch_over_all_families_answers_as_one_by_one() {
    let keys: Vec<AnySigningKey> = algs()
        .into_iter()
        .chain(["sphincs-sha2-128f-simple".parse().unwrap()])
        .enumerate()
        .map(|(i, a)| AnySigningKey::from_seed(a, &seed(a, 20 + i as u8), 1).unwrap())
        .collect();
    let pks: Vec<_> = keys.iter().map(AnySigningKey::verifying_key).collect();
    let mut owned = Vec::new();
    for (k, sk) in keys.iter().enumerate() {
        for j in 0..5u8 {
            let msg = vec![j; 10 + j as usize];
            let mut sig = sk.sign(&msg, &DET).unwrap();
            match j {
                1 => sig[7] ^= 1,
                2 => sig.truncate(sig.len() - 1),
                _ => {}
            }
            let context: &[u8] = if j == 3 { b"ctx" } else { b"" };
            owned.push((k, msg, sig, context));
        }
    }
    let items: Vec<AnyVerifyItem> = owned
        .iter()
        .map(|(k, msg, sig, context)| AnyVerifyItem {
            key: &pks[*k],
            message: msg,
            signature: sig,
            context,
            prehash: None,
        })
        .collect();
    for threads in [0, 1, 3] {
        let got = verify_batch(&items, threads);
        assert_eq!(got.len(), items.len());
        let mut valid = 0;
        for (it, r) in items.iter().zip(&got) {
            let alone = it
                .key
                .verify(it.message, it.signature, it.context, it.prehash);
            assert_eq!(*r, alone, "{} threads, {:?}", threads, it.key);
            valid += usize::from(r.is_ok());
        }
        // Per key j = 0 and 4 are valid; j = 3 asks for a context the
        // signature was not made with (FIPS 205) or that the family lacks.
        assert_eq!(valid, 4 * 2, "{threads} threads");
    }
}

/// Whether signing reads the message twice (so a streamed message must be
/// rewindable): pure FIPS 205 and round 3.1 do, a pre-hash, a HashSLH-DSA
/// key and SPHINCS-256 do not; the secret and the public half agree.
#[test]
fn which_signing_reads_the_message_twice() {
    let prehashed = SignOptions {
        prehash: Some(PreHash::Sha2_256),
        ..DET
    };
    let [fips, spx, s256] = algs();
    let cases = [
        (
            AnySigningKey::from_seed(fips, &seed(fips, 1), 1).unwrap(),
            &DET,
            true,
        ),
        (
            AnySigningKey::from_seed(fips, &seed(fips, 1), 1).unwrap(),
            &prehashed,
            false,
        ),
        (
            AnySigningKey::from_seed(fips, &seed(fips, 1), 1)
                .unwrap()
                .with_mode(KeyMode::hash_slh_dsa(Algorithm::Shake128f))
                .unwrap(),
            &DET,
            false,
        ),
        (
            AnySigningKey::from_seed(spx, &seed(spx, 1), 1).unwrap(),
            &DET,
            true,
        ),
        (
            AnySigningKey::from_seed(s256, &seed(s256, 1), 1).unwrap(),
            &DET,
            false,
        ),
    ];
    for (key, opts, twice) in cases {
        let alg = key.algorithm();
        assert_eq!(key.reads_message_twice(opts), twice, "{alg} {opts:?}");
        let public = key.verifying_key();
        assert_eq!(public.signing_reads_message_twice(opts), twice, "{alg}");
    }
}
