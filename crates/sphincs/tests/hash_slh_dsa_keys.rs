//! HashSLH-DSA keys (RFC 9909 OIDs `.35`–`.46`): encodings, round trips and
//! the key modes the OIDs bind keys to.

use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use sphincs::encoding::{
    algorithm_from_oid, algorithm_oid, decode_private_key, decode_spki,
    private_key_to_der_with_mode, public_key_to_der_with_mode,
};
use sphincs::{
    hash_slh_sign, hash_slh_verify, slh_sign, slh_verify, Algorithm, DynSigningKey,
    DynVerifyingKey, Error, KeyMode, PreHash, Randomness, Sha2_128f, SignOptions, SigningKey,
    VerifyingKey,
};
use spki::{DecodePublicKey, EncodePublicKey};

fn det() -> SignOptions<'static> {
    SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    }
}

/// A recognisable byte pattern.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(seed))
        .collect()
}

/// `head ‖ oid ‖ tag ‖ body`: DER written out by hand.
fn der_of(head: &[u8], oid: &[u8], tag: &[u8], body: &[u8]) -> Vec<u8> {
    [head, oid, tag, body].concat()
}

/// The HashSLH-DSA DER of SHA2-128s and SHAKE-256f keys, written out byte by
/// byte from the ASN.1 (checked by hand, and the same bytes fed to OpenSSL
/// 3.5's `openssl asn1parse -inform DER`, which parses them whole and names the
/// OIDs SLH-DSA-SHA2-128s-WITH-SHA256 and SLH-DSA-SHAKE-256f-WITH-SHAKE256):
/// SubjectPublicKeyInfo = SEQUENCE { SEQUENCE { OID }, BIT STRING { 00, pk } },
/// OneAsymmetricKey v1 = SEQUENCE { INTEGER 0, SEQUENCE { OID }, OCTET STRING { sk } }.
/// The OID 2.16.840.1.101.3.4.3.35 is 06 09 60 86 48 01 65 03 04 03 23:
/// 2.16 → 2·40+16 = 96 = 0x60; 840 → 0x86 0x48; 1, 101 = 0x65, 3, 4, 3; 35 = 0x23
/// (.46 = 0x2e).
#[test]
fn hand_checked_der() {
    let oid35 = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x23,
    ];
    let oid46 = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x2e,
    ];
    let sha2_128s = KeyMode::hash_slh_dsa(Algorithm::Sha2_128s);
    let shake_256f = KeyMode::hash_slh_dsa(Algorithm::Shake256f);

    // SHA2-128s: SEQUENCE 48 { SEQUENCE 11 { OID }, BIT STRING 33 { 00, 32 bytes } }.
    let pk = pattern(32, 1);
    let want = der_of(&[0x30, 0x30, 0x30, 0x0b], &oid35, &[0x03, 0x21, 0x00], &pk);
    let der = public_key_to_der_with_mode(Algorithm::Sha2_128s, sha2_128s, &pk).unwrap();
    assert_eq!(der, want);
    let decoded = decode_spki(&want).unwrap();
    assert_eq!(
        (decoded.algorithm, decoded.mode, decoded.public),
        (
            Algorithm::Sha2_128s,
            KeyMode::HashSlhDsa(PreHash::Sha2_256),
            pk
        )
    );

    // SHA2-128s: SEQUENCE 82 { INTEGER 0, SEQUENCE 11 { OID }, OCTET STRING 64 }.
    let sk = pattern(64, 2);
    let want = der_of(
        &[0x30, 0x52, 0x02, 0x01, 0x00, 0x30, 0x0b],
        &oid35,
        &[0x04, 0x40],
        &sk,
    );
    let der = private_key_to_der_with_mode(Algorithm::Sha2_128s, sha2_128s, &sk).unwrap();
    assert_eq!(der.as_slice(), want.as_slice());
    let decoded = decode_private_key(&want).unwrap();
    assert_eq!(decoded.mode, KeyMode::HashSlhDsa(PreHash::Sha2_256));
    assert_eq!(decoded.secret.as_slice(), sk.as_slice());

    // SHAKE-256f: SEQUENCE 80 { SEQUENCE 11 { OID }, BIT STRING 65 { 00, 64 bytes } }.
    let pk = pattern(64, 3);
    let want = der_of(&[0x30, 0x50, 0x30, 0x0b], &oid46, &[0x03, 0x41, 0x00], &pk);
    let der = public_key_to_der_with_mode(Algorithm::Shake256f, shake_256f, &pk).unwrap();
    assert_eq!(der, want);
    assert_eq!(
        decode_spki(&want).unwrap().mode,
        KeyMode::HashSlhDsa(PreHash::Shake256)
    );

    // SHAKE-256f: SEQUENCE 147 { INTEGER 0, SEQUENCE 11 { OID }, OCTET STRING 128 }.
    let sk = pattern(128, 4);
    let want = der_of(
        &[0x30, 0x81, 0x93, 0x02, 0x01, 0x00, 0x30, 0x0b],
        &oid46,
        &[0x04, 0x81, 0x80],
        &sk,
    );
    let der = private_key_to_der_with_mode(Algorithm::Shake256f, shake_256f, &sk).unwrap();
    assert_eq!(der.as_slice(), want.as_slice());
}

#[test]
fn all_oids_round_trip() {
    // The draft SP 800-230 sets have no OID (raw keys only).
    for alg in Algorithm::ALL.into_iter().filter(|a| a.oid().is_some()) {
        for mode in [KeyMode::Pure, KeyMode::hash_slh_dsa(alg)] {
            let oid = algorithm_oid(alg, mode).unwrap();
            assert_eq!(Some(oid.to_string()), mode.oid(alg));
            assert_eq!(algorithm_from_oid(&oid), Some((alg, mode)));
            let pk = pattern(alg.public_key_len(), 5);
            let der = public_key_to_der_with_mode(alg, mode, &pk).unwrap();
            let back = decode_spki(&der).unwrap();
            assert_eq!((back.algorithm, back.mode, back.public), (alg, mode, pk));
            let sk = pattern(alg.secret_key_len(), 6);
            let der = private_key_to_der_with_mode(alg, mode, &sk).unwrap();
            let back = decode_private_key(&der).unwrap();
            assert_eq!((back.algorithm, back.mode), (alg, mode));
        }
        // No OID pairs a set with another pre-hash.
        let other = if alg.bound_prehash() == PreHash::Sha3_256 {
            PreHash::Sha2_256
        } else {
            PreHash::Sha3_256
        };
        let err = public_key_to_der_with_mode(
            alg,
            KeyMode::HashSlhDsa(other),
            &pattern(alg.public_key_len(), 0),
        )
        .unwrap_err();
        assert!(matches!(err, Error::PreHashNotBound { .. }), "{err}");
    }
}

#[test]
fn dynamic_keys_carry_their_mode() {
    let alg = Algorithm::Shake128f;
    let raw = DynSigningKey::from_seeds(alg, &[1; 16], &[2; 16], &[3; 16]).unwrap();
    assert_eq!(raw.mode(), KeyMode::Unrestricted);
    let hashed = raw.clone().with_mode(KeyMode::hash_slh_dsa(alg)).unwrap();
    assert!(matches!(
        raw.clone()
            .with_mode(KeyMode::HashSlhDsa(PreHash::Sha2_256)),
        Err(Error::PreHashNotBound { .. })
    ));

    // PKCS#8 and SPKI round trips keep the mode; a raw key is written under the pure OID.
    let back = DynSigningKey::from_pkcs8(&hashed.to_pkcs8_der().unwrap()).unwrap();
    assert_eq!(back.mode(), KeyMode::HashSlhDsa(PreHash::Shake128));
    assert_eq!(back.to_bytes(), raw.to_bytes());
    let pem = hashed.verifying_key().to_spki_pem().unwrap();
    let vk = DynVerifyingKey::from_spki(pem.as_bytes()).unwrap();
    assert_eq!(vk.mode(), KeyMode::HashSlhDsa(PreHash::Shake128));
    let pure = DynSigningKey::from_pkcs8(raw.to_pkcs8_pem().unwrap().as_bytes()).unwrap();
    assert_eq!(pure.mode(), KeyMode::Pure);

    // A HashSLH-DSA key signs with its pre-hash when none is given: the
    // signature is the raw key's HashSLH-DSA signature with SHAKE128.
    let sig = back.sign(b"m", &det()).unwrap();
    let explicit = SignOptions {
        prehash: Some(PreHash::Shake128),
        ..det()
    };
    assert_eq!(sig, raw.sign(b"m", &explicit).unwrap());
    assert_eq!(sig, back.sign(b"m", &explicit).unwrap());
    vk.verify(b"m", &sig, b"", None).unwrap();
    vk.verify(b"m", &sig, b"", Some(PreHash::Shake128)).unwrap();
    raw.verifying_key()
        .verify(b"m", &sig, b"", Some(PreHash::Shake128))
        .unwrap();
    assert_eq!(
        raw.verifying_key().verify(b"m", &sig, b"", None),
        Err(Error::InvalidSignature)
    );

    // Wrong mode: a HashSLH-DSA key with another pre-hash, a pure key with any.
    let sha512 = SignOptions {
        prehash: Some(PreHash::Sha2_512),
        ..det()
    };
    for e in [
        back.sign(b"m", &sha512).unwrap_err(),
        vk.verify(b"m", &sig, b"", Some(PreHash::Sha2_512))
            .unwrap_err(),
        pure.sign(b"m", &explicit).unwrap_err(),
        pure.verifying_key()
            .verify(b"m", &sig, b"", Some(PreHash::Shake128))
            .unwrap_err(),
    ] {
        assert!(matches!(e, Error::WrongKeyMode { .. }), "{e}");
        // The library says what is wrong in its own terms; the CLI adds
        // its `sphincs keygen` hint (crates/cli/tests/hash_keys.rs).
        assert!(
            e.to_string().contains("RFC 9909 allows one mode per key"),
            "{e}"
        );
        assert!(!e.to_string().contains("sphincs keygen"), "{e}");
    }
    // The raw key takes any pre-hash and pure signing.
    let s = raw.sign(b"m", &sha512).unwrap();
    raw.verifying_key()
        .verify(b"m", &s, b"", Some(PreHash::Sha2_512))
        .unwrap();
}

#[test]
fn typed_keys_carry_their_mode() {
    let raw = SigningKey::<Sha2_128f>::from_seeds(&[4; 16], &[5; 16], &[6; 16]).unwrap();
    let hashed = raw
        .clone()
        .with_mode(KeyMode::hash_slh_dsa(Algorithm::Sha2_128f))
        .unwrap();
    // The pkcs8 / spki traits read and write both OIDs.
    let doc = hashed.to_pkcs8_der().unwrap();
    let back = SigningKey::<Sha2_128f>::from_pkcs8_der(doc.as_bytes()).unwrap();
    assert_eq!(back.mode(), KeyMode::HashSlhDsa(PreHash::Sha2_256));
    let vdoc = hashed.verifying_key().to_public_key_der().unwrap();
    let vk = VerifyingKey::<Sha2_128f>::from_public_key_der(vdoc.as_bytes()).unwrap();
    assert_eq!(vk.mode(), KeyMode::HashSlhDsa(PreHash::Sha2_256));
    assert_eq!(vdoc.as_bytes()[14], 36, "OID arc .36");

    // FIPS 205's named functions respect the mode.
    let sig = hash_slh_sign(b"x", b"", PreHash::Sha2_256, &back, None).unwrap();
    assert!(hash_slh_verify(
        b"x",
        sig.as_bytes(),
        b"",
        PreHash::Sha2_256,
        &vk
    ));
    assert!(!hash_slh_verify(
        b"x",
        sig.as_bytes(),
        b"",
        PreHash::Sha2_512,
        &vk
    ));
    assert!(matches!(
        slh_sign(b"x", b"", &back, None),
        Err(Error::WrongKeyMode { .. })
    ));
    assert!(matches!(
        hash_slh_sign(b"x", b"", PreHash::Sha2_512, &back, None),
        Err(Error::WrongKeyMode { .. })
    ));
    let pure_sig = slh_sign(b"x", b"", &raw, None).unwrap();
    assert!(!slh_verify(b"x", pure_sig.as_bytes(), b"", &vk));
    assert!(slh_verify(
        b"x",
        pure_sig.as_bytes(),
        b"",
        &raw.verifying_key()
    ));

    // The signature crate's Signer/Verifier use the key's mode.
    use signature::{Signer, Verifier};
    let s: sphincs::Signature<Sha2_128f> = back.try_sign(b"y").unwrap();
    Verifier::verify(&vk, b"y", &s).unwrap();
    assert!(hash_slh_verify(
        b"y",
        s.as_bytes(),
        b"",
        PreHash::Sha2_256,
        &vk
    ));
}
