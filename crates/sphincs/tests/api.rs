//! The public API's promises: round trips, typed/dynamic agreement, the
//! `signature` traits, and clear errors (never panics) on bad input.

mod common;

use signature::{Keypair, RandomizedSigner, Signer, Verifier};
use sphincs::{
    hash_slh_sign, hash_slh_verify, slh_sign, slh_sign_internal, slh_verify, slh_verify_internal,
    Algorithm, DynSigningKey, DynVerifyingKey, Error, MessageSource, PreHash, Randomness,
    Sha2_128f, Shake128f, SignOptions, Signature, SigningKey, VerifyingKey,
};

// A small deterministic byte stream (splitmix64) so failures reproduce; the
// `signature` crate's RNG traits are implemented for it below.
use common::SplitMix64 as Rng;

impl signature::rand_core::TryRng for Rng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.next_u64() as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.iter_mut().for_each(|b| *b = self.next_u64() as u8);
        Ok(())
    }
}
impl signature::rand_core::TryCryptoRng for Rng {}

fn det() -> SignOptions<'static> {
    SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    }
}

/// Deterministic signing with context `ctx`.
fn det_with_context(ctx: &[u8]) -> SignOptions<'_> {
    SignOptions {
        context: ctx,
        ..det()
    }
}

#[test]
fn typed_and_dynamic_agree() {
    let mut rng = Rng(1);
    let (a, b, c) = (rng.bytes(16), rng.bytes(16), rng.bytes(16));
    let typed = SigningKey::<Shake128f>::from_seeds(&a, &b, &c).unwrap();
    let dynamic = DynSigningKey::from_seeds(Algorithm::Shake128f, &a, &b, &c).unwrap();
    assert_eq!(typed.to_bytes(), dynamic.to_bytes());
    assert_eq!(
        typed.verifying_key().to_bytes(),
        dynamic.verifying_key().to_bytes()
    );
    let ctx = rng.bytes(17);
    let opts = det_with_context(&ctx);
    let s1 = typed.sign(b"msg", &opts).unwrap();
    let s2 = dynamic.sign(b"msg", &opts).unwrap();
    assert_eq!(s1.as_bytes(), &s2[..]);
    // The FIPS-named functions give the same bytes.
    let s3 = slh_sign(b"msg", &ctx, &typed, None).unwrap();
    assert_eq!(s1, s3);
    assert!(slh_verify(
        b"msg",
        s3.as_bytes(),
        &ctx,
        &typed.verifying_key()
    ));
    assert!(!slh_verify(
        b"msh",
        s3.as_bytes(),
        &ctx,
        &typed.verifying_key()
    ));
    assert!(!slh_verify(
        b"msg",
        s3.as_bytes(),
        b"other",
        &typed.verifying_key()
    ));
}

#[test]
fn hedged_differs_deterministic_repeats() {
    let sk = DynSigningKey::generate(Algorithm::Sha2_128f).unwrap();
    let vk = sk.verifying_key();
    let h1 = sk.sign(b"m", &SignOptions::default()).unwrap();
    let h2 = sk.sign(b"m", &SignOptions::default()).unwrap();
    assert_ne!(h1, h2, "hedged signatures must use fresh randomness");
    let d1 = sk.sign(b"m", &det()).unwrap();
    let d2 = sk.sign(b"m", &det()).unwrap();
    assert_eq!(d1, d2);
    for s in [&h1, &h2, &d1] {
        vk.verify(b"m", s, b"", None).unwrap();
    }
    // Given randomness equal to PK.seed is the deterministic signature.
    let pk_seed = &vk.to_bytes()[..16];
    let given = SignOptions {
        randomness: Randomness::Given(pk_seed),
        ..Default::default()
    };
    assert_eq!(sk.sign(b"m", &given).unwrap(), d1);
}

#[test]
fn prehash_and_context_bind() {
    let sk = SigningKey::<Sha2_128f>::generate().unwrap();
    let vk = sk.verifying_key();
    for ph in PreHash::ALL {
        let sig = hash_slh_sign(b"data", b"ctx", ph, &sk, None).unwrap();
        assert!(
            hash_slh_verify(b"data", sig.as_bytes(), b"ctx", ph, &vk),
            "{ph}"
        );
        assert!(
            !hash_slh_verify(b"data", sig.as_bytes(), b"ctx2", ph, &vk),
            "{ph}"
        );
        assert!(
            !slh_verify(b"data", sig.as_bytes(), b"ctx", &vk),
            "{ph} must not verify as pure"
        );
        let other = if ph == PreHash::Sha2_256 {
            PreHash::Sha2_512
        } else {
            PreHash::Sha2_256
        };
        assert!(
            !hash_slh_verify(b"data", sig.as_bytes(), b"ctx", other, &vk),
            "{ph}"
        );
    }
}

#[test]
fn internal_interface_is_raw() {
    let sk = SigningKey::<Sha2_128f>::generate().unwrap();
    let vk = sk.verifying_key();
    let sig = slh_sign_internal(b"M-prime", &sk, None).unwrap();
    assert!(slh_verify_internal(b"M-prime", sig.as_bytes(), &vk));
    // External pure signing with an empty context is internal signing of 0 ‖ 0 ‖ M.
    let ext = slh_sign(b"M", b"", &sk, None).unwrap();
    assert!(slh_verify_internal(b"\x00\x00M", ext.as_bytes(), &vk));
}

struct Chunks<'a>(&'a [u8], usize);

impl MessageSource for Chunks<'_> {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        self.0.chunks(self.1).for_each(sink);
        Ok(())
    }
}

#[test]
fn streamed_equals_in_memory() {
    let sk = DynSigningKey::generate(Algorithm::Shake128f).unwrap();
    let msg = Rng(7).bytes(10_000);
    for prehash in [None, Some(PreHash::Shake256)] {
        let opts = SignOptions { prehash, ..det() };
        let whole = sk.sign(&msg, &opts).unwrap();
        let streamed = sk.sign_stream(&mut Chunks(&msg, 333), &opts).unwrap();
        assert_eq!(whole, streamed);
        sk.verifying_key()
            .verify_stream(&mut Chunks(&msg, 1000), &whole, b"", prehash)
            .unwrap();
    }
}

#[test]
fn signature_traits() {
    let sk = SigningKey::<Shake128f>::generate().unwrap();
    let vk = sk.verifying_key();
    let sig: Signature<Shake128f> = sk.try_sign(b"trait").unwrap();
    Verifier::verify(&vk, b"trait", &sig).unwrap();
    let sig2 = sk.try_sign_with_rng(&mut Rng(3), b"trait").unwrap();
    let sig3 = sk.try_sign_with_rng(&mut Rng(3), b"trait").unwrap();
    assert_eq!(sig2, sig3, "same RNG stream, same signature");
    assert!(Verifier::verify(&vk, b"trait", &sig2).is_ok());
    assert!(Verifier::verify(&vk, b"trajt", &sig2).is_err());
    assert_eq!(Keypair::verifying_key(&sk), vk);
    let parsed = Signature::<Shake128f>::try_from(sig.as_bytes()).unwrap();
    assert_eq!(parsed, sig);
}

#[test]
fn key_lengths_are_checked() {
    for alg in Algorithm::ALL {
        let (pk, sk) = (alg.public_key_len(), alg.secret_key_len());
        for len in [0, pk - 1, pk + 1] {
            match DynVerifyingKey::from_bytes(alg, &vec![0; len]) {
                Err(Error::InvalidKeyLength {
                    what: "public key",
                    expected,
                    got,
                    ..
                }) => {
                    assert_eq!((expected, got), (pk, len))
                }
                other => panic!("{alg}: {other:?}"),
            }
        }
        for len in [0, sk - 1, sk + 1, pk] {
            let err = DynSigningKey::from_bytes(alg, &vec![0; len]).unwrap_err();
            assert!(
                matches!(
                    err,
                    Error::InvalidKeyLength {
                        what: "secret key",
                        ..
                    }
                ),
                "{alg}: {err}"
            );
        }
        let err = DynSigningKey::from_seeds(alg, &[0; 3], &[0; 3], &[0; 3]).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidLength {
                    what: "SK.seed",
                    ..
                }
            ),
            "{alg}: {err}"
        );
    }
}

#[test]
fn mismatched_key_pair_is_refused() {
    let sk = DynSigningKey::generate(Algorithm::Sha2_128f).unwrap();
    let mut raw = sk.to_bytes().to_vec();
    DynSigningKey::from_bytes(Algorithm::Sha2_128f, &raw).unwrap();
    let last = raw.len() - 1;
    raw[last] ^= 1;
    assert_eq!(
        DynSigningKey::from_bytes(Algorithm::Sha2_128f, &raw).unwrap_err(),
        Error::KeyMismatch
    );
    // Explicitly skipping the check loads it, and its signatures then fail.
    let bad = DynSigningKey::from_bytes_unchecked(Algorithm::Sha2_128f, &raw).unwrap();
    let sig = bad.sign(b"x", &det()).unwrap();
    assert_eq!(
        bad.verifying_key().verify(b"x", &sig, b"", None),
        Err(Error::InvalidSignature)
    );
    // Typed keys check too; the error names the problem.
    let err = SigningKey::<Sha2_128f>::from_bytes(&raw).unwrap_err();
    assert!(err.to_string().contains("mismatch"), "{err}");
}

#[test]
fn context_limits() {
    let sk = DynSigningKey::generate(Algorithm::Sha2_128f).unwrap();
    let vk = sk.verifying_key();
    let ctx255 = [7u8; 255];
    let sig = sk.sign(b"m", &det_with_context(&ctx255)).unwrap();
    vk.verify(b"m", &sig, &ctx255, None).unwrap();
    let ctx256 = [7u8; 256];
    let err = sk.sign(b"m", &det_with_context(&ctx256)).unwrap_err();
    assert_eq!(err, Error::ContextTooLong(256));
    assert!(err.to_string().contains("255"), "{err}");
    assert_eq!(
        vk.verify(b"m", &sig, &ctx256, None),
        Err(Error::ContextTooLong(256))
    );
    let typed = SigningKey::<Sha2_128f>::from_bytes(&sk.to_bytes()).unwrap();
    assert!(slh_sign(b"m", &ctx256, &typed, None).is_err());
    assert!(!slh_verify(b"m", &sig, &ctx256, &typed.verifying_key()));
}

#[test]
fn randomness_length_is_checked() {
    let sk = DynSigningKey::generate(Algorithm::Sha2_128f).unwrap();
    let opts = SignOptions {
        randomness: Randomness::Given(&[1; 15]),
        ..Default::default()
    };
    assert_eq!(
        sk.sign(b"m", &opts).unwrap_err(),
        Error::InvalidRandomnessLength {
            expected: 16,
            got: 15
        }
    );
    assert!(sk.sign_internal(b"m", Some(&[0; 17])).is_err());
}

#[test]
fn wrong_signature_lengths() {
    let sk = DynSigningKey::generate(Algorithm::Shake128f).unwrap();
    let vk = sk.verifying_key();
    let sig = sk.sign(b"m", &det()).unwrap();
    for bad in [
        &sig[..sig.len() - 1],
        &[sig.clone(), vec![0]].concat()[..],
        &[][..],
    ] {
        match vk.verify(b"m", bad, b"", None) {
            Err(Error::InvalidSignatureLength { expected, got, .. }) => {
                assert_eq!((expected, got), (sig.len(), bad.len()))
            }
            other => panic!("{other:?}"),
        }
        assert!(!vk.verify_internal(b"m", bad));
        assert!(Signature::<Shake128f>::try_from(bad).is_err());
    }
}

#[test]
fn tampering_anywhere_is_caught() {
    let sk = DynSigningKey::generate(Algorithm::Sha2_128f).unwrap();
    let vk = sk.verifying_key();
    let sig = sk.sign(b"m", &det()).unwrap();
    let mut rng = Rng(11);
    // R, inside FORS, inside the hypertree, and the last byte.
    let spots = [
        0,
        20,
        3000,
        10_000,
        sig.len() - 1,
        (rng.next_u64() as usize) % sig.len(),
    ];
    for at in spots {
        let mut bad = sig.clone();
        bad[at] ^= 0x10;
        assert_eq!(
            vk.verify(b"m", &bad, b"", None),
            Err(Error::InvalidSignature),
            "byte {at}"
        );
    }
}

#[test]
fn arbitrary_bytes_never_verify_or_panic() {
    let mut rng = Rng(5);
    for alg in Algorithm::ALL {
        let vk = DynVerifyingKey::from_bytes(alg, &rng.bytes(alg.public_key_len())).unwrap();
        for _ in 0..3 {
            let sig = rng.bytes(alg.signature_len());
            let len = (rng.next_u64() % 100) as usize;
            let msg = rng.bytes(len);
            assert_eq!(
                vk.verify(&msg, &sig, b"", None),
                Err(Error::InvalidSignature),
                "{alg}"
            );
            assert!(!vk.verify_internal(&msg, &sig), "{alg}");
        }
    }
}

#[test]
fn unknown_names_are_errors() {
    for name in ["", "SLH-DSA", "sha2-128", "SLH-DSA-SHA3-128s", "ml-dsa-44"] {
        let err = name.parse::<Algorithm>().unwrap_err();
        assert!(matches!(err, Error::UnknownAlgorithm(_)), "{name}");
        assert!(err.to_string().contains("unknown algorithm"), "{err}");
    }
    assert!(matches!(
        "md5".parse::<PreHash>(),
        Err(Error::UnknownPreHash(_))
    ));
}

#[test]
fn typed_key_round_trip() {
    let sk = SigningKey::<Sha2_128f>::generate().unwrap();
    let again = SigningKey::<Sha2_128f>::from_bytes(&sk.to_bytes()).unwrap();
    assert_eq!(again.to_bytes(), sk.to_bytes());
    let vk = VerifyingKey::<Sha2_128f>::from_bytes(&sk.verifying_key().to_bytes()).unwrap();
    assert_eq!(vk, sk.verifying_key());
    let shown = format!("{sk:?}");
    let seed_hex: String = sk.to_bytes()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(
        !shown.contains(&seed_hex)
            && !shown.contains(&format!("{:?}", sk.to_bytes()[0..3].to_vec())),
        "{shown}"
    );
}
