//! Signatures are checked over the bytes as received: a certificate, request
//! or set of signed attributes whose encoding was altered (without changing
//! what it decodes to) is refused. And CMS SignedData in BER (Bouncy
//! Castle's default) verifies, with a bounded number of SignerInfos.

use std::time::SystemTime;

use sphincs::pki::cert::{
    encode_certificate, encode_request, parse_certificate, parse_name, parse_request, request,
    self_signed, CertOptions,
};
use sphincs::pki::cms::{
    parse_signed_data, sign, verify, verify_signers, CmsSignOptions, SignedDataParts,
    MAX_SIGNER_INFOS,
};
use sphincs::pki::Certificate;
use sphincs::{Algorithm, DynSigningKey, Error};

fn key(seed: u8) -> DynSigningKey {
    let alg = Algorithm::Sha2_128f;
    DynSigningKey::from_seeds(alg, &[seed; 16], &[seed ^ 1; 16], &[seed ^ 2; 16]).unwrap()
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("pattern present")
}

/// The header and total length of the DER element at the start of `b`.
fn tlv(b: &[u8]) -> (usize, usize) {
    match b[1] {
        n if n < 0x80 => (2, 2 + n as usize),
        n => {
            let k = (n & 0x7f) as usize;
            let len = b[2..2 + k]
                .iter()
                .fold(0usize, |a, &x| (a << 8) | x as usize);
            (2 + k, 2 + k + len)
        }
    }
}

/// Swaps the two adjacent DER elements starting at `at`.
fn swap_adjacent(der: &mut [u8], at: usize) {
    let (_, a) = tlv(&der[at..]);
    let (_, b) = tlv(&der[at + a..]);
    let first = der[at..at + a].to_vec();
    der.copy_within(at + a..at + a + b, at);
    der[at + b..at + a + b].copy_from_slice(&first);
}

#[test]
fn multi_valued_rdn_swapped_is_refused() {
    let k = key(1);
    let name = parse_name("CN=zz+O=aa,C=US").unwrap();
    let cert = self_signed(&k, &name, CertOptions::default()).unwrap();
    let der = encode_certificate(&cert, false).unwrap();
    parse_certificate(&der).unwrap();
    // The SET of the first RDN holds CN=zz then O=aa (DER order); swap them
    // in the issuer name (the first occurrence, inside the signed part).
    let cn = [0x06, 0x03, 0x55, 0x04, 0x03];
    let at = find(&der, &cn) - 2; // the AttributeTypeAndValue SEQUENCE
    let mut bad = der.clone();
    swap_adjacent(&mut bad, at);
    assert_ne!(bad, der);
    let e = parse_certificate(&bad).unwrap_err();
    assert!(
        matches!(&e, Error::Pki(m) if m.contains("canonical DER")),
        "{e}"
    );

    // The same in a request.
    let csr = encode_request(&request(&k, &name).unwrap(), false).unwrap();
    parse_request(&csr).unwrap();
    let mut bad = csr.clone();
    swap_adjacent(&mut bad, find(&csr, &cn) - 2);
    let e = parse_request(&bad).unwrap_err();
    assert!(
        matches!(&e, Error::Pki(m) if m.contains("canonical DER")),
        "{e}"
    );
}

#[test]
fn explicit_default_is_refused() {
    // basicConstraints is critical (`critical BOOLEAN DEFAULT FALSE` spelled
    // out as TRUE); flipped to an explicit FALSE it is the DEFAULT encoded,
    // which DER forbids and which would re-encode as absent.
    let k = key(2);
    let cert = self_signed(&k, &parse_name("CN=d").unwrap(), CertOptions::default()).unwrap();
    let der = encode_certificate(&cert, false).unwrap();
    // basicConstraints: 06 03 55 1d 13 01 01 ff
    let at = find(&der, &[0x06, 0x03, 0x55, 0x1d, 0x13, 0x01, 0x01, 0xff]);
    let mut bad = der.clone();
    bad[at + 7] = 0x00;
    let e = parse_certificate(&bad).unwrap_err();
    assert!(matches!(&e, Error::Pki(m) if m.contains("DER")), "{e}");
}

fn signed(k: &DynSigningKey, c: &Certificate, content: &[u8], detached: bool) -> SignedDataParts {
    let opts = CmsSignOptions {
        digest: None,
        detached,
    };
    sign(k, c, &mut &content[..], opts, SystemTime::now()).unwrap()
}

fn cert_of(k: &DynSigningKey, cn: &str) -> Certificate {
    self_signed(k, &parse_name(cn).unwrap(), CertOptions::default()).unwrap()
}

#[test]
fn reordered_signed_attributes_fail() {
    let k = key(3);
    let c = cert_of(&k, "CN=Signer");
    let der = signed(&k, &c, b"payload", false).assemble(b"payload");
    verify(&parse_signed_data(&der).unwrap(), None, None).unwrap();
    // id-contentType attribute, the first of the SET (DER order): swap it
    // with the next one.
    let ct = [
        0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x03,
    ];
    let mut bad = der.clone();
    swap_adjacent(&mut bad, find(&der, &ct) - 2);
    assert_ne!(bad, der);
    // Refused before any signature check: attributes out of DER order are
    // malformed (RFC 5652 §5.4), not a signature that happens to fail.
    let e = verify(&parse_signed_data(&bad).unwrap(), None, None).unwrap_err();
    assert!(
        matches!(&e, Error::Pki(m) if m.contains("canonical DER")),
        "{e}"
    );
}

/// Splits our DER SignedData parts into the pieces a BER writer needs:
/// the content type and SignedData fields before the content, the
/// certificate and the SignerInfo.
struct Pieces {
    oid: Vec<u8>,
    version: Vec<u8>,
    digests: Vec<u8>,
    data_oid: Vec<u8>,
    cert: Vec<u8>,
    signer_info: Vec<u8>,
}

fn pieces(p: &SignedDataParts) -> Pieces {
    let b = &p.prefix;
    let mut at = tlv(b).0; // ContentInfo header
    let mut take = |b: &[u8], whole: bool| {
        let (h, t) = tlv(&b[at..]);
        let out = if whole {
            b[at..at + t].to_vec()
        } else {
            Vec::new()
        };
        at += if whole { t } else { h };
        out
    };
    let oid = take(b, true);
    take(b, false); // [0]
    take(b, false); // SignedData
    let version = take(b, true);
    let digests = take(b, true);
    take(b, false); // encapContentInfo
    let data_oid = take(b, true);
    let s = &p.suffix;
    let (ch, ct) = tlv(s);
    let cert = s[ch..ct].to_vec();
    let (ih, _) = tlv(&s[ct..]);
    let signer_info = s[ct + ih..].to_vec();
    Pieces {
        oid,
        version,
        digests,
        data_oid,
        cert,
        signer_info,
    }
}

/// A BER SignedData as Bouncy Castle writes it: indefinite lengths
/// throughout and the content as a constructed OCTET STRING of `chunk`-byte
/// pieces; certificates and SignerInfos from `signers`.
fn ber(signers: &[SignedDataParts], content: Option<&[u8]>, chunk: usize) -> Vec<u8> {
    let all: Vec<Pieces> = signers.iter().map(pieces).collect();
    let p = &all[0];
    let mut out = vec![0x30, 0x80];
    out.extend_from_slice(&p.oid);
    out.extend_from_slice(&[0xa0, 0x80, 0x30, 0x80]);
    out.extend_from_slice(&p.version);
    out.extend_from_slice(&p.digests);
    out.extend_from_slice(&[0x30, 0x80]);
    out.extend_from_slice(&p.data_oid);
    if let Some(content) = content {
        out.extend_from_slice(&[0xa0, 0x80, 0x24, 0x80]);
        for piece in content.chunks(chunk) {
            out.push(0x04);
            out.push(piece.len() as u8);
            out.extend_from_slice(piece);
        }
        out.extend_from_slice(&[0, 0, 0, 0]);
    }
    out.extend_from_slice(&[0, 0]); // encapContentInfo
    out.extend_from_slice(&[0xa0, 0x80]);
    for s in &all {
        out.extend_from_slice(&s.cert);
    }
    out.extend_from_slice(&[0, 0, 0x31, 0x80]);
    for s in &all {
        out.extend_from_slice(&s.signer_info);
    }
    out.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]); // SET, SignedData, [0], ContentInfo
    out
}

#[test]
fn ber_signed_data_verifies_and_tampering_fails() {
    let k = key(4);
    let c = cert_of(&k, "CN=BER");
    let content: Vec<u8> = (0..1000u32).map(|i| (i * 13) as u8).collect();
    let parts = signed(&k, &c, &content, false);
    let input = ber(std::slice::from_ref(&parts), Some(&content), 100);
    assert_eq!(input[1], 0x80, "indefinite length");
    let check = verify(&parse_signed_data(&input).unwrap(), None, None).unwrap();
    assert!(check.attached);
    assert_eq!(check.signer, "CN=BER");
    // Detached, BER.
    let parts = signed(&k, &c, &content, true);
    let input = ber(std::slice::from_ref(&parts), None, 100);
    let sd = parse_signed_data(&input).unwrap();
    verify(&sd, None, Some(&mut &content[..])).unwrap();
    // The content changed inside a chunk: the digest no longer matches.
    let parts = signed(&k, &c, &content, false);
    let mut bad = ber(std::slice::from_ref(&parts), Some(&content), 100);
    let at = find(&bad, &content[200..232]);
    bad[at] ^= 1;
    assert!(matches!(
        verify(&parse_signed_data(&bad).unwrap(), None, None),
        Err(Error::VerificationFailed(m)) if m.contains("message digest")
    ));
    // The signature changed.
    let mut bad = ber(std::slice::from_ref(&parts), Some(&content), 100);
    let at = bad.len() - 9;
    bad[at] ^= 1;
    assert_eq!(
        verify(&parse_signed_data(&bad).unwrap(), None, None).unwrap_err(),
        Error::InvalidSignature
    );
    // A missing end-of-contents, and every truncation, are errors.
    let good = ber(std::slice::from_ref(&parts), Some(&content), 100);
    for len in (0..good.len()).step_by(97) {
        assert!(
            matches!(parse_signed_data(&good[..len]), Err(Error::Pki(_))),
            "{len}"
        );
    }
    // A certificate with an indefinite length is refused: certificates stay DER.
    let mut bad = good.clone();
    let at = find(&bad, &pieces(&parts).cert[..4]);
    bad[at + 1] = 0x80;
    let e = parse_signed_data(&bad).unwrap_err();
    assert!(e.to_string().contains("must be DER"), "{e}");
}

#[test]
fn several_signers_are_reported_and_capped() {
    let (k1, k2) = (key(5), key(6));
    let (c1, c2) = (cert_of(&k1, "CN=One"), cert_of(&k2, "CN=Two"));
    let content = b"release 1.0".to_vec();
    let p1 = signed(&k1, &c1, &content, false);
    let p2 = signed(&k2, &c2, &content, false);
    let sd = parse_signed_data(&ber(&[p1.clone(), p2.clone()], Some(&content), 5)).unwrap();
    let check = verify(&sd, None, None).unwrap();
    let names: Vec<_> = check.signers.iter().map(|s| s.signer.clone()).collect();
    assert_eq!(names, [Some("CN=One".into()), Some("CN=Two".into())]);
    // --cert picks one; the other is not checked.
    let check = verify(&sd, Some(&c2), None).unwrap();
    assert_eq!(check.signer, "CN=Two");
    assert_eq!(
        check.signers.iter().map(|s| s.checked).collect::<Vec<_>>(),
        [false, true]
    );
    // A broken second signature: verify names it, verify_signers reports both.
    let mut bad_p2 = p2.clone();
    let last = bad_p2.suffix.len() - 1;
    bad_p2.suffix[last] ^= 1;
    let sd = parse_signed_data(&ber(&[p1.clone(), bad_p2], Some(&content), 5)).unwrap();
    let e = verify(&sd, None, None).unwrap_err();
    assert!(e.to_string().contains("SignerInfo 2 of 2"), "{e}");
    let (_, each) = verify_signers(&sd, None, None).unwrap();
    assert!(each[0].result.is_ok());
    assert_eq!(each[1].result, Err(Error::InvalidSignature));
    // The first still verifies alone when picked.
    verify(&sd, Some(&c1), None).unwrap();

    // More SignerInfos than the cap: refused before any is checked.
    let many = vec![p1.clone(); MAX_SIGNER_INFOS + 1];
    let e = parse_signed_data(&ber(&many, Some(&content), 5)).unwrap_err();
    assert!(e.to_string().contains("more than 16 SignerInfos"), "{e}");
    let at_cap = vec![p1; MAX_SIGNER_INFOS];
    // At the cap (the same certificate 16 times is also within its cap).
    let sd = parse_signed_data(&ber(&at_cap, Some(&content), 5)).unwrap();
    assert_eq!(
        verify(&sd, None, None).unwrap().signers.len(),
        MAX_SIGNER_INFOS
    );
}
