//! X.509 certificates and PKCS#10 requests signed per RFC 9909: round trips,
//! the checks of `verify_certificate`, and malformed input.

mod common;

use std::time::{Duration, SystemTime};

use sphincs::pki::cert::{
    encode_certificate, encode_request, issue, parse_certificate, parse_name, parse_request,
    request, self_signed, verify_certificate, verify_request, CertOptions,
};
use sphincs::pki::Certificate;
use sphincs::{Algorithm, DynSigningKey, Error};

use common::keys::{find_all, seeded_key as key};

/// A self-signed CA certificate (30 days) for `k` named `name`.
fn ca_cert(k: &DynSigningKey, name: &str) -> Certificate {
    self_signed(k, &parse_name(name).unwrap(), ca_opts()).unwrap()
}

/// [`ca_cert`] for a SHA2-128f key of `seed` (HashSLH-DSA if `hashed`):
/// the key and the certificate's DER.
fn sha2_128f_ca(seed: u8, hashed: bool, name: &str) -> (DynSigningKey, Vec<u8>) {
    let k = key(Algorithm::Sha2_128f, seed, hashed);
    let der = encode_certificate(&ca_cert(&k, name), false).unwrap();
    (k, der)
}

/// Why `verify_certificate` refuses the certificate `der` (self-signed,
/// checked now); it must parse.
fn refusal(der: &[u8]) -> Error {
    verify_certificate(&parse_certificate(der).unwrap(), None, SystemTime::now()).unwrap_err()
}

fn ca_opts() -> CertOptions {
    CertOptions {
        days: 30,
        ca: true,
        ..Default::default()
    }
}

#[test]
fn self_signed_pure_and_hash_round_trip() {
    for (alg, hashed) in [
        (Algorithm::Sha2_128f, false),
        (Algorithm::Sha2_128f, true),
        (Algorithm::Shake128f, true),
        (Algorithm::Shake192f, false),
    ] {
        let k = key(alg, 1, hashed);
        let name = parse_name("CN=Root,O=Example").unwrap();
        let c = self_signed(&k, &name, ca_opts()).unwrap();
        // After the certificate exists: notBefore is its creation time, to
        // the second, so a time read before it may fall a second earlier.
        let now = SystemTime::now();
        for pem in [false, true] {
            let bytes = encode_certificate(&c, pem).unwrap();
            let back = parse_certificate(&bytes).unwrap();
            assert_eq!(back, c);
        }
        let check = verify_certificate(&c, None, now).unwrap();
        assert!(check.self_signed);
        assert_eq!(check.subject, "CN=Root,O=Example");
        // The signature algorithm is the key's, parameters absent (RFC 9909).
        let oid = k.mode().oid(alg).expect("FIPS 205 sets with OIDs");
        assert_eq!(c.signature_algorithm().oid.to_string(), oid);
        assert!(c.signature_algorithm().parameters.is_none());
        // Validity: not before now-ish, expired after 30 days.
        let later = now + Duration::from_secs(31 * 86_400);
        assert!(matches!(
            verify_certificate(&c, None, later),
            Err(Error::VerificationFailed(m)) if m.contains("expired")
        ));
        let earlier = now - Duration::from_secs(86_400);
        assert!(matches!(
            verify_certificate(&c, None, earlier),
            Err(Error::VerificationFailed(m)) if m.contains("not valid before")
        ));
    }
}

#[test]
fn tampering_is_detected() {
    let (_, der) = sha2_128f_ca(3, false, "CN=Tamper");
    // Change the name in both issuer and subject (so they still chain): the
    // DER still parses, the signature fails.
    let mut bad = der.clone();
    for at in find_all(&der, b"Tamper") {
        bad[at] ^= 0x20;
    }
    let bad = parse_certificate(&bad).unwrap();
    assert_eq!(
        verify_certificate(&bad, None, SystemTime::now()).unwrap_err(),
        Error::InvalidSignature
    );
    // Flip the last signature byte.
    let mut bad = der.clone();
    *bad.last_mut().unwrap() ^= 1;
    let bad = parse_certificate(&bad).unwrap();
    assert_eq!(
        verify_certificate(&bad, None, SystemTime::now()).unwrap_err(),
        Error::InvalidSignature
    );
}

#[test]
fn key_and_signature_algorithms_must_agree() {
    // A HashSLH-DSA key (OID .36) self-signs; the certificate's OIDs are
    // tbs.signature, the SPKI and the outer signatureAlgorithm, in that order.
    let (_, der) = sha2_128f_ca(5, true, "CN=Mixed");
    let hash_oid = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 36,
    ];
    let at = find_all(&der, &hash_oid);
    assert_eq!(at.len(), 3, "{at:?}");
    // Outer algorithm alone says pure: the two fields disagree.
    let mut bad = der.clone();
    bad[at[2] + 10] = 21;
    let e = refusal(&bad);
    assert!(
        matches!(&e, Error::Pki(m) if m.contains("two signature algorithms")),
        "{e}"
    );
    // Both say pure, the key is HashSLH-DSA: refused before any signature check.
    bad[at[0] + 10] = 21;
    let e = refusal(&bad);
    assert!(
        matches!(&e, Error::Pki(m) if m.contains("is not the signer's key")),
        "{e}"
    );
    // Another parameter set's OID (SHAKE-128f, .27) for a SHA2-128f key.
    bad[at[0] + 10] = 27;
    bad[at[2] + 10] = 27;
    let e = refusal(&bad);
    assert!(matches!(&e, Error::Pki(_)), "{e}");
    // An OID that is no SLH-DSA at all (.47).
    bad[at[0] + 10] = 47;
    bad[at[2] + 10] = 47;
    let e = refusal(&bad);
    assert!(
        matches!(&e, Error::Pki(m) if m.contains("not SLH-DSA")),
        "{e}"
    );
}

#[test]
fn request_issue_and_chain() {
    let ca_key = key(Algorithm::Sha2_128f, 7, false);
    let ca = ca_cert(&ca_key, "CN=CA");
    let leaf_key = key(Algorithm::Shake128f, 9, true);
    let csr = request(&leaf_key, &parse_name("CN=Leaf").unwrap()).unwrap();
    for pem in [false, true] {
        let back = parse_request(&encode_request(&csr, pem).unwrap()).unwrap();
        assert_eq!(back, csr);
    }
    verify_request(&csr).unwrap();
    let leaf = issue(&ca_key, &ca, &csr, CertOptions::default()).unwrap();
    // Read after both certificates exist (notBefore is their creation time).
    let now = SystemTime::now();
    let check = verify_certificate(&leaf, Some(&ca), now).unwrap();
    assert!(!check.self_signed);
    assert_eq!(check.issuer, "CN=CA");
    // The leaf's key keeps its HashSLH-DSA OID; the CA signed pure.
    assert_eq!(
        leaf.tbs_certificate()
            .subject_public_key_info()
            .algorithm
            .oid
            .to_string(),
        "2.16.840.1.101.3.4.3.42"
    );
    assert_eq!(
        leaf.signature_algorithm().oid.to_string(),
        "2.16.840.1.101.3.4.3.21"
    );
    // Not self-signed; a wrong issuer; an issuer that is not a CA.
    assert!(matches!(
        verify_certificate(&leaf, None, now),
        Err(Error::CannotCheck(m)) if m.contains("not self-signed")
    ));
    let other_key = key(Algorithm::Sha2_128f, 11, false);
    let other = ca_cert(&other_key, "CN=CA");
    assert_eq!(
        verify_certificate(&leaf, Some(&other), now).unwrap_err(),
        Error::InvalidSignature
    );
    let not_ca = self_signed(
        &other_key,
        &parse_name("CN=CA").unwrap(),
        CertOptions::default(),
    )
    .unwrap();
    assert!(matches!(
        issue(&other_key, &not_ca, &csr, CertOptions::default()),
        Err(Error::VerificationFailed(m)) if m.contains("not a CA")
    ));
    // The CA key must be the CA certificate's.
    assert!(matches!(
        issue(&other_key, &ca, &csr, CertOptions::default()),
        Err(Error::Pki(_))
    ));
    // A request whose signature was tampered with is not issued.
    let mut der = encode_request(&csr, false).unwrap();
    *der.last_mut().unwrap() ^= 1;
    let bad = parse_request(&der).unwrap();
    assert_eq!(verify_request(&bad).unwrap_err(), Error::InvalidSignature);
    assert_eq!(
        issue(&ca_key, &ca, &bad, ca_opts()).unwrap_err(),
        Error::InvalidSignature
    );
}

#[test]
fn malformed_input_is_an_error() {
    let (k, der) = sha2_128f_ca(13, false, "CN=Cut");
    // Every truncation (step 7 to keep it quick: a 17 KB certificate).
    for len in (0..der.len()).step_by(7) {
        assert!(
            matches!(parse_certificate(&der[..len]), Err(Error::Pki(_))),
            "{len}"
        );
    }
    let mut long = der.clone();
    long.push(0);
    assert!(matches!(parse_certificate(&long), Err(Error::Pki(_))));
    assert!(matches!(parse_certificate(b"hello"), Err(Error::Pki(_))));
    assert!(matches!(parse_certificate(b""), Err(Error::Pki(_))));
    let pem = encode_request(&request(&k, &parse_name("CN=x").unwrap()).unwrap(), true).unwrap();
    let e = parse_certificate(&pem).unwrap_err();
    assert!(e.to_string().contains("CERTIFICATE REQUEST"), "{e}");
    assert!(parse_name("").is_err());
    assert!(parse_name("no equals sign").is_err());
}
