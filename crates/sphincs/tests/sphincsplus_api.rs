//! The round-3.1 API: names, lengths, bad input (errors, never panics), and
//! that threads, backends and fault hardening never change a signature.

use sphincs::sphincsplus::{SpxAlgorithm, SpxHash, SpxSignOptions, SpxSigningKey, SpxVerifyingKey};
use sphincs::{Backend, Error, Randomness};

fn seed(alg: SpxAlgorithm, salt: u8) -> Vec<u8> {
    (0..alg.seed_len() as u8)
        .map(|i| i.wrapping_mul(29) ^ salt)
        .collect()
}

fn det(threads: usize) -> SpxSignOptions<'static> {
    SpxSignOptions {
        randomness: Randomness::Deterministic,
        threads,
        fault_hardened: false,
    }
}

#[test]
fn names() {
    assert_eq!(SpxAlgorithm::ALL.len(), 36);
    for &alg in SpxAlgorithm::ALL {
        assert_eq!(alg.name().parse::<SpxAlgorithm>().unwrap(), alg);
        let upper = alg.name().to_uppercase();
        assert_eq!(upper.parse::<SpxAlgorithm>().unwrap(), alg);
        let plus = alg.name().replacen("sphincs-", "SPHINCS+-", 1);
        assert_eq!(plus.parse::<SpxAlgorithm>().unwrap(), alg);
        assert_eq!(alg.name().ends_with("-robust"), alg.is_robust());
        let p = alg.params();
        assert_eq!(alg.secret_key_len(), 4 * p.n);
        assert_eq!(alg.seed_len(), 3 * p.n);
    }
    let hashes = [SpxHash::Shake, SpxHash::Sha2, SpxHash::Haraka];
    for h in hashes {
        assert_eq!(
            SpxAlgorithm::ALL.iter().filter(|a| a.hash() == h).count(),
            12
        );
    }
    for bad in ["", "sphincs-shake-128f", "shake-128f-simple-x"] {
        assert!(
            matches!(bad.parse::<SpxAlgorithm>(), Err(Error::UnknownAlgorithm(_))),
            "{bad:?}"
        );
    }
    // A FIPS 205 name says what it is and where it goes, and the reverse.
    let e = "SLH-DSA-SHAKE-128f".parse::<SpxAlgorithm>().unwrap_err();
    assert!(matches!(e, Error::WrongScheme { .. }), "{e:?}");
    assert!(e.to_string().contains("is a FIPS 205"), "{e}");
    let e = sphincs::fips205_algorithm("sphincs-shake-128f-simple").unwrap_err();
    assert!(matches!(e, Error::WrongScheme { .. }), "{e:?}");
    assert!(
        e.to_string()
            .contains("round-3.1 set, but this call takes FIPS 205"),
        "{e}"
    );
    // Which keys take it, in words every binding's user reads (no Rust path).
    assert!(
        e.to_string()
            .contains("the SPHINCS+ round-3.1 API takes it"),
        "{e}"
    );
    assert!(!e.to_string().contains("::"), "{e}");
    let e = sphincs::fips205_algorithm("SPHINCS-256").unwrap_err();
    assert!(e.to_string().contains("SPHINCS-256 (2015)"), "{e}");
    assert!(matches!(
        sphincs::fips205_algorithm("shake-129f"),
        Err(Error::UnknownAlgorithm(_))
    ));
    assert_eq!(
        sphincs::fips205_algorithm("shake-128f"),
        Ok(sphincs::Algorithm::Shake128f)
    );
    assert_eq!(
        "shake-256s-robust".parse::<SpxAlgorithm>().unwrap().name(),
        "sphincs-shake-256s-robust"
    );
}

#[test]
fn bad_lengths_are_errors() {
    for &alg in SpxAlgorithm::ALL.iter().filter(|a| a.params().d >= 17) {
        let n = alg.params().n;
        let err = SpxSigningKey::from_seed(alg, &[0; 5]).unwrap_err();
        assert!(
            matches!(err, Error::InvalidLength { what: "seed", .. }),
            "{err}"
        );
        let err = SpxSigningKey::from_bytes(alg, &[0; 7]).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidLength {
                    what: "secret key",
                    ..
                }
            ),
            "{err}"
        );
        let err = SpxVerifyingKey::from_bytes(alg, &vec![0; 4 * n]).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidLength {
                    what: "public key",
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains(alg.name()), "{err}");

        let sk = SpxSigningKey::from_seed(alg, &seed(alg, 1)).unwrap();
        let vk = sk.verifying_key();
        let sig = sk.sign(b"m", &det(1)).unwrap();
        assert_eq!(sig.len(), alg.signature_len());
        // Wrong lengths, empty, and random bytes of the right length.
        for len in [0, 1, sig.len() - 1, sig.len() + 1] {
            let err = vk.verify(b"m", &vec![0x5a; len]).unwrap_err();
            assert!(
                matches!(err, Error::InvalidLength { .. }),
                "{alg} {len}: {err}"
            );
        }
        let noise: Vec<u8> = (0..sig.len()).map(|i| (i * 131 % 251) as u8).collect();
        assert_eq!(vk.verify(b"m", &noise), Err(Error::InvalidSignature));
        assert!(vk.open(&sig[..10]).is_err());
        // A secret key whose PK.root does not match its seeds.
        let mut bytes = sk.to_bytes().to_vec();
        bytes[4 * n - 1] ^= 1;
        assert_eq!(
            SpxSigningKey::from_bytes(alg, &bytes).unwrap_err(),
            Error::KeyMismatch
        );
        SpxSigningKey::from_bytes_unchecked(alg, &bytes).unwrap();
        let given = SpxSignOptions {
            randomness: Randomness::Given(&[1; 3]),
            ..det(1)
        };
        assert!(matches!(
            sk.sign(b"m", &given),
            Err(Error::InvalidRandomnessLength { .. })
        ));
    }
}

/// Threads, every backend and fault hardening give the same keys and
/// deterministic signatures; hedged signatures differ and verify.
#[test]
fn threads_backends_and_hardening_agree() {
    for &alg in SpxAlgorithm::ALL.iter().filter(|a| a.params().d >= 17) {
        let s = seed(alg, 9);
        let sk = SpxSigningKey::from_seed(alg, &s).unwrap();
        let want = sk.sign(b"agree", &det(1)).unwrap();
        let sk3 = SpxSigningKey::from_seed_with_threads(alg, &s, 3).unwrap();
        assert_eq!(sk3.to_bytes(), sk.to_bytes(), "{alg}");
        assert_eq!(sk.sign(b"agree", &det(3)).unwrap(), want, "{alg}");
        let hardened = SpxSignOptions {
            fault_hardened: true,
            ..det(2)
        };
        assert_eq!(sk.sign(b"agree", &hardened).unwrap(), want, "{alg}");
        for b in Backend::available() {
            let (k, sig) = sphincs::with_backend(b, || {
                let k = SpxSigningKey::from_seed(alg, &s).unwrap();
                let sig = k.sign(b"agree", &det(2)).unwrap();
                (k, sig)
            })
            .unwrap();
            assert_eq!(k.to_bytes(), sk.to_bytes(), "{alg} on {b}");
            assert_eq!(sig, want, "{alg} on {b}");
            sphincs::with_backend(b, || sk.verifying_key().verify(b"agree", &want))
                .unwrap()
                .unwrap();
        }
        let hedged = sk.sign(b"agree", &SpxSignOptions::default()).unwrap();
        assert_ne!(hedged, want);
        sk.verifying_key().verify(b"agree", &hedged).unwrap();
        let sm = sk.sign_attached(b"agree", &det(1)).unwrap();
        assert_eq!(sk.verifying_key().open(&sm).unwrap(), b"agree");
    }
}
