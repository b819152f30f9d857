//! CMS SignedData with SLH-DSA (RFC 9814): attached and detached, the digest
//! pairing, and what verification must refuse.

use std::time::SystemTime;

use sphincs::pki::cert::{parse_name, self_signed, CertOptions};
use sphincs::pki::cms::{
    digest_allowed, paired_digest, parse_signed_data, sign, verify, CmsSignOptions,
};
use sphincs::pki::Certificate;
use sphincs::{Algorithm, DynSigningKey, Error, KeyMode, PreHash};

fn signer(alg: Algorithm, seed: u8) -> (DynSigningKey, Certificate) {
    let n = alg.params().n;
    let k = DynSigningKey::from_seeds(alg, &vec![seed; n], &vec![seed ^ 1; n], &vec![seed ^ 2; n])
        .unwrap();
    let c = self_signed(
        &k,
        &parse_name("CN=Signer").unwrap(),
        CertOptions::default(),
    )
    .unwrap();
    (k, c)
}

/// Why signing `content` with `k` and `c` is refused (it must be).
fn sign_error(k: &DynSigningKey, c: &Certificate, content: &[u8], opts: CmsSignOptions) -> Error {
    sign(k, c, &mut &content[..], opts, SystemTime::now()).unwrap_err()
}

fn signed(k: &DynSigningKey, c: &Certificate, content: &[u8], opts: CmsSignOptions) -> Vec<u8> {
    sign(k, c, &mut &content[..], opts, SystemTime::now())
        .unwrap()
        .assemble(content)
}

#[test]
fn pairing_follows_rfc9814() {
    use PreHash::*;
    for (alg, d) in [
        (Algorithm::Sha2_128s, Sha2_256),
        (Algorithm::Sha2_192f, Sha2_512),
        (Algorithm::Sha2_256s, Sha2_512),
        (Algorithm::Shake128f, Shake128),
        (Algorithm::Shake192s, Shake256),
        (Algorithm::Shake256f, Shake256),
    ] {
        assert_eq!(paired_digest(alg), d, "{alg}");
        assert!(digest_allowed(alg, d));
    }
    assert!(!digest_allowed(Algorithm::Shake192f, Sha3_256));
    assert!(!digest_allowed(Algorithm::Shake256f, Sha2_384));
    assert!(!digest_allowed(Algorithm::Sha2_256f, Shake128));
    assert!(!digest_allowed(Algorithm::Sha2_128f, Sha2_224));
    assert!(digest_allowed(Algorithm::Shake128f, Sha3_256));
}

#[test]
fn attached_and_detached_round_trip() {
    let content: Vec<u8> = (0..5000u32).map(|i| (i * 7) as u8).collect();
    for alg in [
        Algorithm::Sha2_128f,
        Algorithm::Shake128f,
        Algorithm::Shake192f,
    ] {
        let (k, c) = signer(alg, 1);
        let digests = [
            None,
            Some(PreHash::Sha3_512),
            Some(PreHash::Sha2_512),
            Some(PreHash::Shake256),
        ];
        for digest in digests {
            let opts = |detached| CmsSignOptions { digest, detached };
            let der = signed(&k, &c, &content, opts(false));
            let sd = parse_signed_data(&der).unwrap();
            let check = verify(&sd, None, None).unwrap();
            assert!(check.attached);
            assert_eq!(check.digest, digest.unwrap_or(paired_digest(alg)));
            assert_eq!(check.signer, "CN=Signer");
            verify(&sd, Some(&c), None).unwrap();

            let der = signed(&k, &c, &content, opts(true));
            let sd = parse_signed_data(&der).unwrap();
            let check = verify(&sd, None, Some(&mut &content[..])).unwrap();
            assert!(!check.attached);
            // A detached SignedData needs its content; other content fails the digest.
            assert!(matches!(verify(&sd, None, None), Err(Error::Pki(_))));
            let mut other = content.clone();
            other[10] ^= 1;
            assert!(matches!(
                verify(&sd, None, Some(&mut &other[..])),
                Err(Error::VerificationFailed(m)) if m.contains("message digest")
            ));
        }
    }
}

#[test]
fn tampering_and_wrong_signers() {
    let content = b"firmware image v1".to_vec();
    let (k, c) = signer(Algorithm::Sha2_128f, 3);
    let der = signed(&k, &c, &content, CmsSignOptions::default());
    // The content inside: change one byte → message digest mismatch.
    let at = der
        .windows(content.len())
        .position(|w| w == content)
        .unwrap();
    let mut bad = der.clone();
    bad[at] ^= 1;
    assert!(matches!(
        verify(&parse_signed_data(&bad).unwrap(), None, None),
        Err(Error::VerificationFailed(m)) if m.contains("message digest")
    ));
    // The last signature byte is near the end of the DER: change it.
    let mut bad = der.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert_eq!(
        verify(&parse_signed_data(&bad).unwrap(), None, None).unwrap_err(),
        Error::InvalidSignature
    );
    // Another certificate given: not the one the SignerInfo names.
    let (_, other) = signer(Algorithm::Sha2_128f, 9);
    assert!(matches!(
        verify(&parse_signed_data(&der).unwrap(), Some(&other), None),
        Err(Error::CannotCheck(_))
    ));
    // Signing with a key that is not the certificate's, or a HashSLH-DSA key.
    let (k2, _) = signer(Algorithm::Sha2_128f, 11);
    let e = sign_error(&k2, &c, &content, CmsSignOptions::default());
    assert!(matches!(e, Error::Pki(m) if m.contains("not the key of the certificate")));
    let hk = k
        .clone()
        .with_mode(KeyMode::hash_slh_dsa(Algorithm::Sha2_128f))
        .unwrap();
    let e = sign_error(&hk, &c, &content, CmsSignOptions::default());
    assert!(e.to_string().contains("pure SLH-DSA"), "{e}");
    // A digest too weak for the set.
    let e = sign_error(
        &k,
        &c,
        &content,
        CmsSignOptions {
            digest: Some(PreHash::Sha2_224),
            detached: false,
        },
    );
    assert!(e.to_string().contains("too weak"), "{e}");
}

#[test]
fn digest_algorithm_fields_are_checked() {
    // SHA2-128f signs with SHA-256 (2.16.840.1.101.3.4.2.1), named three
    // times: digestAlgorithms, the SignerInfo's digestAlgorithm, and inside
    // the signed CMSAlgorithmProtection attribute.
    let (k, c) = signer(Algorithm::Sha2_128f, 21);
    let der = signed(&k, &c, b"payload", CmsSignOptions::default());
    let sha256 = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01,
    ];
    let at: Vec<usize> = der
        .windows(sha256.len())
        .enumerate()
        .filter(|(_, w)| *w == sha256)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(at.len(), 3, "{at:?}");
    // The SignerInfo says SHA3-256 (arc 8): the message digest no longer
    // matches, and the protected algorithms differ from the SignerInfo's.
    let mut bad = der.clone();
    bad[at[1] + 10] = 8;
    // Not listed in the SignedData's digestAlgorithms (RFC 5652 §5.1).
    let e = verify(&parse_signed_data(&bad).unwrap(), None, None).unwrap_err();
    assert!(
        matches!(&e, Error::Pki(m) if m.contains("digestAlgorithms does not list")),
        "{e}"
    );
    bad[at[0] + 10] = 8;
    let e = verify(&parse_signed_data(&bad).unwrap(), None, None).unwrap_err();
    assert!(
        matches!(&e, Error::VerificationFailed(m) if m.contains("CMSAlgorithmProtection")),
        "{e}"
    );
    // An unknown digest OID (arc 99).
    bad[at[1] + 10] = 99;
    let e = verify(&parse_signed_data(&bad).unwrap(), None, None).unwrap_err();
    assert!(
        matches!(&e, Error::Pki(m) if m.contains("unknown digest algorithm")),
        "{e}"
    );
}

#[test]
fn malformed_input_is_an_error() {
    let (k, c) = signer(Algorithm::Sha2_128f, 5);
    let der = signed(&k, &c, b"x", CmsSignOptions::default());
    for len in (0..der.len()).step_by(5) {
        assert!(
            matches!(parse_signed_data(&der[..len]), Err(Error::Pki(_))),
            "{len}"
        );
    }
    assert!(matches!(parse_signed_data(b"junk"), Err(Error::Pki(_))));
    // A certificate is not a SignedData.
    let cert_der = sphincs::pki::cert::encode_certificate(&c, false).unwrap();
    assert!(matches!(parse_signed_data(&cert_der), Err(Error::Pki(_))));
}

/// Signing refuses to embed more certificates than verification reads (a
/// SignedData the library itself would refuse); 64 are written and read.
#[test]
fn sign_with_chain_stays_within_what_verify_reads() {
    use sphincs::pki::cms::{sign_with_chain, verify_trusted, CmsTrust};
    let (k, c) = signer(Algorithm::Shake128f, 91);
    let extra: Vec<Certificate> = (0..64)
        .map(|_| self_signed(&k, &parse_name("CN=Extra").unwrap(), CertOptions::default()).unwrap())
        .collect();
    let content = b"content";
    let opts = CmsSignOptions::default();
    match sign_with_chain(&k, &c, &extra, &mut &content[..], opts, SystemTime::now()) {
        Err(Error::Pki(m)) => assert!(m.contains("at most 64 certificates"), "{m}"),
        other => panic!("want Error::Pki, got {other:?}"),
    }
    let parts = sign_with_chain(
        &k,
        &c,
        &extra[..63],
        &mut &content[..],
        opts,
        SystemTime::now(),
    )
    .unwrap();
    let sd = parse_signed_data(&parts.assemble(content)).unwrap();
    let trust = CmsTrust {
        pinned: Some(&c),
        ..Default::default()
    };
    verify_trusted(&sd, &trust, None, SystemTime::now()).unwrap();
    // Trust is never implied.
    assert!(matches!(
        verify_trusted(&sd, &CmsTrust::default(), None, SystemTime::now()),
        Err(Error::CannotCheck(m)) if m.contains("no trust")
    ));
}
