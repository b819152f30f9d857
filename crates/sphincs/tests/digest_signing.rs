//! HashSLH-DSA of a caller-made digest (`sign_digest` / `verify_digest`,
//! what PKCS#11's `CKM_HASH_SLH_DSA` needs) against the core's own
//! pre-hash signing of the message.

use sphincs::any::{AnyAlgorithm, AnySigningKey};
use sphincs::{Algorithm, Error, PreHash, Randomness, SignOptions};

fn digest_of(ph: PreHash, msg: &[u8]) -> Vec<u8> {
    let (d, len) = ph.digest(&mut &msg[..]).unwrap();
    d[..len].to_vec()
}

#[test]
fn digest_signatures_are_the_prehash_signatures_of_the_message() {
    let msg = b"the message the caller hashed";
    for alg in [Algorithm::Sha2_128f, Algorithm::Shake128f] {
        let sk = AnySigningKey::generate(AnyAlgorithm::SlhDsa(alg), 1).unwrap();
        let vk = sk.verifying_key();
        for ph in PreHash::ALL {
            for ctx in [&b""[..], &b"ctx"[..]] {
                let opts = SignOptions {
                    context: ctx,
                    prehash: Some(ph),
                    randomness: Randomness::Deterministic,
                    ..SignOptions::default()
                };
                let digest = digest_of(ph, msg);
                let got = sk.sign_digest(&digest, ph, &opts).unwrap();
                assert_eq!(got, sk.sign(msg, &opts).unwrap(), "{alg:?} {ph}");
                vk.verify_digest(&digest, &got, ctx, ph).unwrap();
                vk.verify(msg, &got, ctx, Some(ph)).unwrap();
                let hedged = SignOptions {
                    randomness: Randomness::Hedged,
                    ..opts
                };
                let sig = sk.sign_digest(&digest, ph, &hedged).unwrap();
                vk.verify(msg, &sig, ctx, Some(ph)).unwrap();
                let mut bad = digest.clone();
                bad[0] ^= 1;
                assert_eq!(
                    vk.verify_digest(&bad, &got, ctx, ph),
                    Err(Error::InvalidSignature)
                );
            }
        }
    }
}

#[test]
fn digest_of_the_wrong_length_and_long_contexts_are_refused() {
    let sk = AnySigningKey::generate(AnyAlgorithm::SlhDsa(Algorithm::Sha2_128f), 1).unwrap();
    let vk = sk.verifying_key();
    let opts = SignOptions::default();
    let short = [0u8; 31];
    assert!(matches!(
        sk.sign_digest(&short, PreHash::Sha2_256, &opts),
        Err(Error::InvalidLength { .. })
    ));
    let digest = [0u8; 32];
    let long = [0u8; 256];
    let too_long = SignOptions {
        context: &long,
        ..opts
    };
    assert_eq!(
        sk.sign_digest(&digest, PreHash::Sha2_256, &too_long),
        Err(Error::ContextTooLong(256))
    );
    let sig = sk.sign_digest(&digest, PreHash::Sha2_256, &opts).unwrap();
    assert!(matches!(
        vk.verify_digest(&short, &sig, b"", PreHash::Sha2_256),
        Err(Error::InvalidLength { .. })
    ));
    assert!(matches!(
        vk.verify_digest(&digest, &sig[1..], b"", PreHash::Sha2_256),
        Err(Error::InvalidSignatureLength { .. })
    ));
}

#[test]
fn other_families_say_they_lack_it() {
    let alg: AnyAlgorithm = "sphincs-shake-128f-simple".parse().unwrap();
    let sk = AnySigningKey::generate(alg, 1).unwrap();
    let r = sk.sign_digest(&[0u8; 32], PreHash::Sha2_256, &SignOptions::default());
    assert!(matches!(r, Err(Error::Unsupported { .. })));
}

#[test]
fn incremental_prehash_equals_the_one_shot_digest() {
    let msg: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
    for ph in PreHash::ALL {
        let whole = digest_of(ph, &msg);
        assert_eq!(whole.len(), ph.output_len(), "{ph}");
        for piece in [1, 7, 64, 999, 1000] {
            let mut h = ph.hasher();
            assert_eq!(h.prehash(), ph);
            for chunk in msg.chunks(piece) {
                h.update(chunk);
            }
            // A clone taken before the end goes on independently.
            let mut fork = h.clone();
            fork.update(b"tail");
            assert_eq!(h.finish().as_bytes(), &whole[..], "{ph} pieces of {piece}");
            let mut with_tail = msg.clone();
            with_tail.extend_from_slice(b"tail");
            assert_eq!(fork.finish().as_ref(), &digest_of(ph, &with_tail)[..]);
        }
        let empty = ph.hasher().finish();
        assert_eq!(empty.as_bytes(), &digest_of(ph, b"")[..], "{ph} empty");
    }
}

#[test]
fn incremental_prehash_digest_signs_as_the_message() {
    let msg = b"a message fed to the pre-hash in pieces";
    let alg = Algorithm::Sha2_128f;
    let sk = AnySigningKey::generate(AnyAlgorithm::SlhDsa(alg), 1).unwrap();
    let vk = sk.verifying_key();
    let ph = PreHash::Sha2_256;
    let opts = SignOptions {
        context: b"ctx",
        prehash: Some(ph),
        randomness: Randomness::Deterministic,
        ..SignOptions::default()
    };
    let mut h = ph.hasher();
    for chunk in msg.chunks(5) {
        h.update(chunk);
    }
    let digest = h.finish();
    let sig = sk.sign_digest(digest.as_bytes(), ph, &opts).unwrap();
    assert_eq!(sig, sk.sign(msg, &opts).unwrap());
    vk.verify(msg, &sig, b"ctx", Some(ph)).unwrap();
}
