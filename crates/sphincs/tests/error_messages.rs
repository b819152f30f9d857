//! Errors that say what is wrong: a public key where a private key was
//! expected, a DER length beyond the input, a PEM without its END line, and
//! a certificate whose two signature AlgorithmIdentifiers differ only in
//! their parameters.

use std::time::SystemTime;

use sphincs::pki::cert::{self, CertOptions};
use sphincs::pki::Certificate;
use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey, Error};

fn key() -> DynSigningKey {
    DynSigningKey::from_seeds(Algorithm::Shake128f, &[1; 16], &[2; 16], &[3; 16]).unwrap()
}

/// A one-day self-signed CA certificate of `key()`, CN=x.
fn ca_certificate() -> Certificate {
    let name = cert::parse_name("CN=x").unwrap();
    let opts = CertOptions {
        days: 1,
        ca: true,
        ..Default::default()
    };
    cert::self_signed(&key(), &name, opts).unwrap()
}

fn text(e: Error) -> String {
    e.to_string()
}

#[test]
fn a_public_key_read_as_a_private_key_is_named() {
    let spki = key().verifying_key().to_spki_der().unwrap();
    // The same SubjectPublicKeyInfo with a 48-byte key in its BIT STRING.
    let alg_id = &spki[2..15];
    let mut long = vec![0x30, (alg_id.len() + 3 + 48) as u8];
    long.extend_from_slice(alg_id);
    long.extend_from_slice(&[0x03, 49, 0x00]);
    long.extend_from_slice(&[7; 48]);
    let msg = text(DynSigningKey::from_pkcs8(&long).unwrap_err());
    assert!(msg.contains("this is a public key"), "{msg}");
    assert!(msg.contains("is 48 bytes; expected 32"), "{msg}");
    assert!(!msg.contains("expected INTEGER"), "{msg}");
    // A valid one says it is a public key.
    let msg = text(DynSigningKey::from_pkcs8(&spki).unwrap_err());
    assert!(msg.contains("this is a public key"), "{msg}");
}

#[test]
fn a_length_beyond_the_input_is_said_so() {
    let huge = [0x30, 0x84, 0xff, 0xff, 0xff, 0xff];
    for msg in [
        text(DynVerifyingKey::from_spki(&huge).unwrap_err()),
        text(DynSigningKey::from_pkcs8(&huge).unwrap_err()),
        text(cert::parse_certificate(&huge).unwrap_err()),
    ] {
        assert!(msg.contains("length field exceeds the input"), "{msg}");
        assert!(!msg.contains("overflow"), "{msg}");
    }
    let short = [0x30, 0x83, 0x10, 0x00, 0x00, 0x02];
    let msg = text(DynVerifyingKey::from_spki(&short).unwrap_err());
    assert!(msg.contains("length field needs"), "{msg}");
}

#[test]
fn a_pem_without_its_end_line_is_said_to_be_cut_short() {
    let pem = key().verifying_key().to_spki_pem().unwrap();
    let cut = &pem[..pem.find("-----END").unwrap()];
    let msg = text(DynVerifyingKey::from_spki(cut.as_bytes()).unwrap_err());
    assert!(
        msg.contains("\"-----END ...-----\" line is missing"),
        "{msg}"
    );
    assert!(!msg.contains("pre-encapsulation"), "{msg}");
    let c = ca_certificate();
    let pem = cert::encode_certificate(&c, true).unwrap();
    let cut = &pem[..pem.windows(8).position(|w| w == b"-----END").unwrap()];
    let msg = text(cert::parse_certificate(cut).unwrap_err());
    assert!(msg.contains("line is missing"), "{msg}");
}

#[test]
fn signature_algorithms_differing_in_parameters_are_named() {
    let c = ca_certificate();
    let der = cert::encode_certificate(&c, false).unwrap();
    // Certificate ::= SEQUENCE { tbs, signatureAlgorithm, signature }: give
    // the outer AlgorithmIdentifier NULL parameters (the OID unchanged) and
    // fix the outer length, kept in its two-byte form.
    assert_eq!((der[0], der[1]), (0x30, 0x82));
    let (tbs_head, tbs_len) = header(&der[4..]);
    let tbs_end = 4 + tbs_head + tbs_len;
    let alg_len = 2 + usize::from(der[tbs_end + 1]);
    let mut patched = der[..tbs_end].to_vec();
    patched.extend_from_slice(&[0x30, der[tbs_end + 1] + 2]);
    patched.extend_from_slice(&der[tbs_end + 2..tbs_end + alg_len]);
    patched.extend_from_slice(&[0x05, 0x00]);
    patched.extend_from_slice(&der[tbs_end + alg_len..]);
    let outer = u16::from_be_bytes([der[2], der[3]]) + 2;
    patched[2..4].copy_from_slice(&outer.to_be_bytes());
    let patched = cert::parse_certificate(&patched).unwrap();
    let msg = text(cert::verify_certificate(&patched, None, SystemTime::now()).unwrap_err());
    assert!(msg.contains("differ in their parameters"), "{msg}");
    assert!(!msg.contains("names two signature algorithms"), "{msg}");
}

/// The header length and content length of the DER element at `der[0]`.
fn header(der: &[u8]) -> (usize, usize) {
    match der[1] {
        n if n < 0x80 => (2, usize::from(n)),
        0x81 => (3, usize::from(der[2])),
        0x82 => (4, usize::from(u16::from_be_bytes([der[2], der[3]]))),
        other => panic!("length form {other:#x}"),
    }
}
