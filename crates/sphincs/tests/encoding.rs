//! Keys as PKCS#8 and SubjectPublicKeyInfo against OpenSSL 3.5's own files
//! (tests/data/openssl) and the RFC 9909 example key: byte-identical
//! re-encoding, the PK.root and public-key checks, and the pkcs8/spki traits.

use std::fs;
use std::path::PathBuf;

use pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use sphincs::encoding::{decode_private_key, private_key_to_der};
use sphincs::{
    Algorithm, DynSigningKey, DynVerifyingKey, Error, Sha2_128f, Sha2_128s, Shake128f, SigningKey,
    VerifyingKey,
};
use spki::{DecodePublicKey, EncodePublicKey};

fn fixture(alg: Algorithm, file: &str) -> Vec<u8> {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests/data/openssl",
        alg.name(),
        file,
    ]
    .iter()
    .collect();
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn hex(s: &[u8]) -> Vec<u8> {
    hex::decode(String::from_utf8_lossy(s).trim()).unwrap()
}

#[test]
fn openssl_keys_round_trip_byte_for_byte() {
    for alg in Algorithm::ALL {
        let key_pem = fixture(alg, "key.pem");
        let key_der = fixture(alg, "key.der");
        let pub_pem = fixture(alg, "pub.pem");
        let pub_der = fixture(alg, "pub.der");

        let sk = DynSigningKey::from_pkcs8(&key_pem).unwrap();
        assert_eq!(sk.algorithm(), alg);
        assert_eq!(sk.to_pkcs8_pem().unwrap().as_bytes(), &key_pem[..], "{alg}");
        assert_eq!(sk.to_pkcs8_der().unwrap().as_slice(), &key_der[..], "{alg}");
        let from_der = DynSigningKey::from_pkcs8(&key_der).unwrap();
        assert_eq!(from_der.to_bytes(), sk.to_bytes(), "{alg}");

        let vk = sk.verifying_key();
        assert_eq!(vk.to_spki_pem().unwrap().as_bytes(), &pub_pem[..], "{alg}");
        assert_eq!(vk.to_spki_der().unwrap(), pub_der, "{alg}");
        assert_eq!(DynVerifyingKey::from_spki(&pub_pem).unwrap(), vk, "{alg}");
        assert_eq!(DynVerifyingKey::from_spki(&pub_der).unwrap(), vk, "{alg}");

        // The key OpenSSL made from the seed is the one FIPS 205 keygen makes.
        let seed = hex(&fixture(alg, "seed.hex"));
        let n = alg.params().n;
        let regen =
            DynSigningKey::from_seeds(alg, &seed[..n], &seed[n..2 * n], &seed[2 * n..]).unwrap();
        assert_eq!(regen.to_bytes(), sk.to_bytes(), "{alg}");
    }
}

#[test]
fn rfc9909_example_key_is_consistent() {
    let pem = b"-----BEGIN PRIVATE KEY-----
MFICAQAwCwYJYIZIAWUDBAMUBECiJjvKRYYINlIxYASVI9YhZ3+tkNUetgZ6Mn4N
HmSlASuBCex3fKpOHwJMz8+Ul9mRgFCSgPQlavKwevgCibSU
-----END PRIVATE KEY-----
";
    let sk = DynSigningKey::from_pkcs8(pem).unwrap();
    assert_eq!(sk.algorithm(), Algorithm::Sha2_128s);
    let typed =
        SigningKey::<Sha2_128s>::from_pkcs8_pem(core::str::from_utf8(pem).unwrap()).unwrap();
    assert_eq!(typed.to_bytes(), sk.to_bytes());
}

/// PKCS#8 v2 (version 1) of the SHA2-128f fixture with `pk` as its `[1] publicKey`.
fn v2_der(pk: &[u8]) -> Vec<u8> {
    let v1 = fixture(Algorithm::Sha2_128f, "key.der");
    let mut body = v1[2..].to_vec();
    body[2] = 1; // version
    sequence_with_key(body, 0x81, pk)
}

/// A SEQUENCE of `body` and then `pk` under `tag` (a BIT STRING or `[1]`,
/// with its leading 0x00); short-form lengths only.
fn sequence_with_key(mut body: Vec<u8>, tag: u8, pk: &[u8]) -> Vec<u8> {
    body.extend([tag, pk.len() as u8 + 1, 0x00]);
    body.extend(pk);
    let mut der = vec![0x30, body.len() as u8];
    der.extend(body);
    der
}

#[test]
fn v2_public_key_must_match() {
    let alg = Algorithm::Sha2_128f;
    let pk = fixture(alg, "pub.der")[18..].to_vec();
    let good = v2_der(&pk);
    let decoded = decode_private_key(&good).unwrap();
    assert_eq!(decoded.public.as_deref(), Some(&pk[..]));
    let sk = DynSigningKey::from_pkcs8(&good).unwrap();
    assert_eq!(sk.verifying_key().to_bytes(), pk);
    SigningKey::<Sha2_128f>::from_pkcs8_der(&good).unwrap();

    let mut other = pk.clone();
    other[0] ^= 1;
    let bad = v2_der(&other);
    assert_eq!(
        DynSigningKey::from_pkcs8(&bad).unwrap_err(),
        Error::KeyMismatch
    );
    assert_eq!(
        DynSigningKey::from_pkcs8_unchecked(&bad).unwrap_err(),
        Error::KeyMismatch
    );
    assert!(SigningKey::<Sha2_128f>::from_pkcs8_der(&bad).is_err());
}

#[test]
fn corrupted_root_is_caught_unless_unchecked() {
    let alg = Algorithm::Shake128f;
    let sk = DynSigningKey::from_pkcs8(&fixture(alg, "key.der")).unwrap();
    let mut raw = sk.to_bytes();
    let last = raw.len() - 1;
    raw[last] ^= 0x80;
    let der = private_key_to_der(alg, &raw).unwrap();
    assert_eq!(
        DynSigningKey::from_pkcs8(&der).unwrap_err(),
        Error::KeyMismatch
    );
    let unchecked = DynSigningKey::from_pkcs8_unchecked(&der).unwrap();
    assert_eq!(unchecked.to_bytes(), raw);
    assert!(SigningKey::<Shake128f>::from_pkcs8_der(&der).is_err());
}

#[test]
fn typed_traits() {
    let alg = Algorithm::Sha2_128f;
    let key_pem = String::from_utf8(fixture(alg, "key.pem")).unwrap();
    let pub_pem = String::from_utf8(fixture(alg, "pub.pem")).unwrap();

    let sk = SigningKey::<Sha2_128f>::from_pkcs8_pem(&key_pem).unwrap();
    assert_eq!(sk.to_pkcs8_pem(LineEnding::LF).unwrap().as_str(), key_pem);
    assert_eq!(
        sk.to_pkcs8_der().unwrap().as_bytes(),
        fixture(alg, "key.der")
    );

    let vk = VerifyingKey::<Sha2_128f>::from_public_key_pem(&pub_pem).unwrap();
    assert_eq!(vk, sk.verifying_key());
    assert_eq!(vk.to_public_key_pem(LineEnding::LF).unwrap(), pub_pem);
    assert_eq!(
        vk.to_public_key_der().unwrap().as_bytes(),
        fixture(alg, "pub.der")
    );

    // The other sets' OIDs are refused by a typed key.
    let shake = String::from_utf8(fixture(Algorithm::Shake128f, "key.pem")).unwrap();
    assert!(matches!(
        SigningKey::<Sha2_128f>::from_pkcs8_pem(&shake),
        Err(pkcs8::Error::PublicKey(spki::Error::OidUnknown { .. }))
    ));
    let shake = fixture(Algorithm::Shake128f, "pub.der");
    assert!(matches!(
        VerifyingKey::<Sha2_128f>::from_public_key_der(&shake),
        Err(spki::Error::OidUnknown { .. })
    ));
    // And a public key is not a private key.
    assert!(SigningKey::<Sha2_128f>::from_pkcs8_pem(&pub_pem).is_err());
}

#[test]
fn dynamic_errors_say_what_is_wrong() {
    let alg = Algorithm::Sha2_128f;
    let err = DynVerifyingKey::from_spki(&fixture(alg, "key.pem")).unwrap_err();
    assert!(err.to_string().contains("this is a private key"), "{err}");
    let err = DynSigningKey::from_pkcs8(&fixture(alg, "pub.der")).unwrap_err();
    assert!(matches!(err, Error::Encoding(_)), "{err}");
}

/// SubjectPublicKeyInfo of `alg_id` (the whole AlgorithmIdentifier TLV) with
/// `pk` in its BIT STRING; short-form lengths only.
fn spki_der(alg_id: &[u8], pk: &[u8]) -> Vec<u8> {
    sequence_with_key(alg_id.to_vec(), 0x03, pk)
}

#[test]
fn public_keys_of_wrong_length_or_oid_are_refused() {
    let alg = Algorithm::Sha2_128f;
    let good = fixture(alg, "pub.der");
    let (alg_id, pk) = (&good[2..15], &good[18..]);
    assert_eq!(
        spki_der(alg_id, pk),
        good,
        "the builder reproduces OpenSSL's file"
    );

    // Raw bytes: typed and dynamic, one byte short or long, or a secret key's length.
    for len in [31, 33, 64] {
        let bytes = vec![7u8; len];
        let err = VerifyingKey::<Sha2_128f>::from_bytes(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("public key is {len} bytes; SLH-DSA-SHA2-128f needs 32")
        );
        assert_eq!(DynVerifyingKey::from_bytes(alg, &bytes).unwrap_err(), err);
    }

    // SPKI with a 31- or 33-byte key under the 128f OID.
    for len in [31, 33] {
        let der = spki_der(alg_id, &vec![7u8; len]);
        let err = DynVerifyingKey::from_spki(&der).unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("subjectPublicKey is {len} bytes; expected 32")),
            "{err}"
        );
        assert!(matches!(
            VerifyingKey::<Sha2_128f>::from_public_key_der(&der),
            Err(spki::Error::KeyMalformed)
        ));
    }

    // A 32-byte key under an OID that is not SLH-DSA (ML-DSA-44, arc 17), and
    // under another set's OID (SHAKE-128f) for a typed SHA2-128f key.
    let mut other = alg_id.to_vec();
    *other.last_mut().unwrap() = 17;
    let err = DynVerifyingKey::from_spki(&spki_der(&other, pk)).unwrap_err();
    assert!(
        err.to_string()
            .contains("2.16.840.1.101.3.4.3.17 is not SLH-DSA"),
        "{err}"
    );
    *other.last_mut().unwrap() = Algorithm::Shake128f.oid_arc().unwrap() as u8;
    let shake = spki_der(&other, pk);
    assert_eq!(
        DynVerifyingKey::from_spki(&shake).unwrap().algorithm(),
        Algorithm::Shake128f
    );
    assert!(matches!(
        VerifyingKey::<Sha2_128f>::from_public_key_der(&shake),
        Err(spki::Error::OidUnknown { .. })
    ));
}

/// Loading a secret key recomputes PK.root: every route refuses a key whose
/// PK.root was changed, and the unchecked routes are the only ones that load it.
#[test]
fn every_secret_key_route_checks_the_root() {
    let alg = Algorithm::Sha2_128f;
    let sk = DynSigningKey::from_pkcs8(&fixture(alg, "key.der")).unwrap();
    let mut raw = sk.to_bytes();
    raw[63] ^= 1;
    let der = private_key_to_der(alg, &raw).unwrap();
    assert_eq!(
        DynSigningKey::from_bytes(alg, &raw).unwrap_err(),
        Error::KeyMismatch
    );
    assert_eq!(
        DynSigningKey::from_pkcs8(&der).unwrap_err(),
        Error::KeyMismatch
    );
    assert_eq!(
        SigningKey::<Sha2_128f>::from_bytes(&raw).unwrap_err(),
        Error::KeyMismatch
    );
    assert!(SigningKey::<Sha2_128f>::from_pkcs8_der(&der).is_err());
    assert!(
        sphincs::slh_keygen_internal::<Sha2_128f>(&raw[..16], &raw[16..32], &raw[32..48])
            .is_ok_and(|k| k.to_bytes()[..] != raw[..])
    );
    DynSigningKey::from_bytes_unchecked(alg, &raw).unwrap();
    DynSigningKey::from_pkcs8_unchecked(&der).unwrap();
    SigningKey::<Sha2_128f>::from_bytes_unchecked(&raw).unwrap();
}
