//! Certificate options (subjectAltName, extendedKeyUsage, keyUsage, serial,
//! not-before/not-after, path length), requests that ask for extensions,
//! `issue` copying them under `copy_extensions`, and certificate paths to a
//! trust anchor (`pki::chain`).

mod common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sphincs::pki::cert::{
    describe, describe_request, encode_certificate, encode_request, issue, parse_certificate,
    parse_name, parse_request, request_with, self_signed, verify_certificate, verify_request,
    CertOptions,
};
use sphincs::pki::chain::{parse_certificates, verify_chain};
use sphincs::pki::extensions::{
    parse_eku, parse_key_usage, parse_san, parse_serial, parse_time, requested_extensions, Eku,
    ExtensionOptions, SanEntry, Usage,
};
use sphincs::pki::Certificate;
use sphincs::{Algorithm, DynSigningKey, Error};

use common::keys::{assert_has_all, seeded_key};

fn key(seed: u8) -> DynSigningKey {
    seeded_key(Algorithm::Shake128f, seed, false)
}

fn pki_err(r: Result<impl std::fmt::Debug, Error>, needle: &str) {
    match r {
        Err(Error::Pki(m)) => assert!(m.contains(needle), "want {needle:?} in {m:?}"),
        other => panic!("want Error::Pki({needle:?}), got {other:?}"),
    }
}

fn ca_opts() -> CertOptions {
    CertOptions {
        ca: true,
        days: 30,
        ..Default::default()
    }
}

#[test]
fn san_parsing() {
    let dns = |name: &str| SanEntry::Dns(name.into());
    for (text, want) in [
        ("dns:example.org", dns("example.org")),
        ("DNS:*.example.org", dns("*.example.org")),
        (
            "email:release@example.org",
            SanEntry::Email("release@example.org".into()),
        ),
        (
            "uri:https://example.org/a?b=c",
            SanEntry::Uri("https://example.org/a?b=c".into()),
        ),
    ] {
        assert_eq!(parse_san(text).unwrap(), want, "{text}");
    }
    for bad in [
        "example.org",
        "dns:",
        "dns:a..b",
        "dns:-a.org",
        "dns:exa mple.org",
        "dns:a.*.org",
        "dns:bücher.de",
        "email:nobody",
        "email:@example.org",
        "email:a@",
        "email:a@b@c",
        "uri:noscheme",
        "uri:1http://x",
        "uri:http://a b",
        "ip:127.0.0.1",
    ] {
        pki_err(parse_san(bad), "subject alternative name");
    }
}

#[test]
fn eku_and_key_usage_parsing() {
    use Eku::*;
    let (eku, usage) = (|s| parse_eku(s).unwrap(), |s| parse_key_usage(s).unwrap());
    assert_eq!(
        eku("codeSigning, EMAILPROTECTION,codeSigning"),
        [CodeSigning, EmailProtection]
    );
    assert_eq!(
        eku("serverAuth,clientAuth,timeStamping"),
        [ServerAuth, ClientAuth, TimeStamping]
    );
    assert_eq!(CodeSigning.oid().to_string(), "1.3.6.1.5.5.7.3.3");
    pki_err(
        parse_eku("codesign"),
        "unknown extended key usage \"codesign\"",
    );
    pki_err(parse_eku(""), "unknown extended key usage");
    let (sign, commit) = (Usage::DigitalSignature, Usage::NonRepudiation);
    assert_eq!(usage("digitalSignature,contentCommitment"), [sign, commit]);
    let ca = [Usage::KeyCertSign, Usage::CrlSign, commit];
    assert_eq!(usage("keyCertSign,crlsign,nonRepudiation"), ca);
    pki_err(parse_key_usage("keyEncipherment"), "unknown key usage");
}

#[test]
fn serial_parsing() {
    assert_eq!(parse_serial("01ff").unwrap().as_bytes(), &[0x01, 0xff]);
    assert_eq!(parse_serial("0x1:FF").unwrap().as_bytes(), &[0x01, 0xff]);
    assert_eq!(parse_serial("000abc").unwrap().as_bytes(), &[0x0a, 0xbc]);
    // 20 octets with the high bit clear fit; with it set DER needs 21.
    assert!(parse_serial(&"7f".repeat(20)).is_ok());
    pki_err(parse_serial(&"ff".repeat(20)), "21 octets");
    pki_err(parse_serial(&"01".repeat(21)), "at most 20");
    pki_err(parse_serial("0"), "positive");
    pki_err(parse_serial("0000"), "positive");
    pki_err(parse_serial("-1"), "not hexadecimal");
    pki_err(parse_serial("xyz"), "not hexadecimal");
    pki_err(parse_serial(""), "not hexadecimal");
}

#[test]
fn time_parsing() {
    let at = |s| {
        parse_time(s)
            .unwrap()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    assert_eq!(at("2026-01-31"), 1_769_817_600);
    assert_eq!(at("2026-01-31T12:00:00Z"), 1_769_817_600 + 43_200);
    assert_eq!(at("2026-01-31t12:00:00.999z"), 1_769_817_600 + 43_200);
    assert_eq!(at("2026-01-31T14:30:00+02:30"), 1_769_817_600 + 43_200);
    assert_eq!(at("2026-01-31T10:00:00-02:00"), 1_769_817_600 + 43_200);
    for bad in [
        "",
        "2026",
        "2026-1-31",
        "2026-13-01",
        "2026-02-30",
        "2026-01-31T25:00:00Z",
        "2026-01-31T12:00Z",
        "2026-01-31T12:00:00",
        "2026-01-31T12:00:00+2",
        "31/01/2026",
        "1969-12-31",
    ] {
        pki_err(parse_time(bad), "RFC 3339");
    }
}

#[test]
fn self_signed_with_every_option() {
    let k = key(1);
    let nb = parse_time("2025-06-01T00:00:00Z").unwrap();
    let opts = CertOptions {
        days: 10,
        not_before: Some(nb),
        serial: Some(parse_serial("0a0b0c").unwrap()),
        extensions: ExtensionOptions {
            san: vec![
                parse_san("dns:example.org").unwrap(),
                parse_san("email:a@example.org").unwrap(),
                parse_san("uri:https://example.org/").unwrap(),
            ],
            eku: vec![Eku::CodeSigning, Eku::TimeStamping],
            key_usage: Some(vec![Usage::DigitalSignature]),
        },
        ..Default::default()
    };
    let c = self_signed(&k, &parse_name("CN=Opt").unwrap(), opts).unwrap();
    let tbs = c.tbs_certificate();
    assert_eq!(tbs.serial_number().as_bytes(), &[0x0a, 0x0b, 0x0c]);
    assert_eq!(tbs.validity().not_before.to_system_time(), nb);
    assert_eq!(
        tbs.validity().not_after.to_system_time(),
        nb + Duration::from_secs(10 * 86_400)
    );
    let text = describe(&c);
    let san = "dns:example.org, email:a@example.org, uri:https://example.org/";
    assert_has_all(
        &text,
        &[
            "Serial:     0a0b0c",
            "Not before: 2025-06-01T00:00:00Z",
            &format!("Subject alternative names: {san}"),
            "Extended key usage: codeSigning, timeStamping",
            "Key usage:  DigitalSignature (critical)",
            "Basic constraints: CA false (critical)",
        ],
    );
    // Round trip through DER, and the signature still checks (within its period).
    let back = parse_certificate(&encode_certificate(&c, false).unwrap()).unwrap();
    assert_eq!(back, c);
    verify_certificate(&c, None, nb + Duration::from_secs(3600)).unwrap();
    match verify_certificate(&c, None, nb - Duration::from_secs(1)) {
        Err(Error::VerificationFailed(m)) => assert!(m.contains("not valid before"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn defaults_are_unchanged() {
    let c = self_signed(
        &key(1),
        &parse_name("CN=D").unwrap(),
        CertOptions::default(),
    )
    .unwrap();
    let text = describe(&c);
    assert!(
        text.contains("Key usage:  DigitalSignature, NonRepudiation (critical)"),
        "{text}"
    );
    assert!(!text.contains("Extended key usage"), "{text}");
    assert!(!text.contains("Subject alternative"), "{text}");
    assert_eq!(c.tbs_certificate().serial_number().as_bytes().len(), 16);
    let ca = self_signed(&key(1), &parse_name("CN=D").unwrap(), ca_opts()).unwrap();
    assert!(describe(&ca).contains("Key usage:  DigitalSignature, KeyCertSign, CRLSign"));
}

#[test]
fn bad_option_combinations_are_errors() {
    let k = key(1);
    let name = parse_name("CN=Bad").unwrap();
    let at = |s| Some(parse_time(s).unwrap());
    let dates = |nb, na| CertOptions {
        not_before: at(nb),
        not_after: at(na),
        ..Default::default()
    };
    let usage = |ca, u| CertOptions {
        ca,
        extensions: ExtensionOptions {
            key_usage: Some(vec![u]),
            ..Default::default()
        },
        ..Default::default()
    };
    let late = CertOptions {
        not_before: at("9999-12-01"),
        days: 365,
        ..Default::default()
    };
    let path_len = CertOptions {
        path_len: Some(0),
        ..Default::default()
    };
    let cases = [
        (dates("2030-01-01", "2029-01-01"), "is not before notAfter"),
        (dates("2030-01-01", "2030-01-01"), "is not before notAfter"),
        (late, "notAfter cannot be written"),
        (
            usage(false, Usage::KeyCertSign),
            "keyCertSign is for CA certificates",
        ),
        (usage(true, Usage::DigitalSignature), "needs keyCertSign"),
        (path_len, "path length constraint is for CA"),
    ];
    for (opts, needle) in cases {
        pki_err(self_signed(&k, &name, opts), needle);
    }
}

fn leaf_request(ext: &ExtensionOptions, ca: bool) -> sphincs::pki::CertReq {
    request_with(&key(5), &parse_name("CN=Leaf").unwrap(), ext, ca).unwrap()
}

fn wanted() -> ExtensionOptions {
    ExtensionOptions {
        san: vec![SanEntry::Dns("leaf.example".into())],
        eku: vec![Eku::CodeSigning],
        key_usage: Some(vec![Usage::DigitalSignature]),
    }
}

#[test]
fn request_carries_extension_request() {
    let csr = leaf_request(&wanted(), false);
    verify_request(&csr).unwrap();
    let back = parse_request(&encode_request(&csr, true).unwrap()).unwrap();
    let asked = requested_extensions(&back).unwrap();
    assert_eq!(asked.options, wanted());
    assert!(!asked.ca);
    assert!(asked.others.is_empty());
    let text = describe_request(&back);
    assert!(
        text.starts_with("Certificate request (PKCS#10)\n"),
        "{text}"
    );
    assert_has_all(
        &text,
        &[
            "Subject:    CN=Leaf",
            "SLH-DSA-SHAKE-128f",
            "  Subject alternative names: dns:leaf.example",
            "  Extended key usage: codeSigning",
            "  Key usage:  DigitalSignature (critical)",
            "Self-signature: verifies with the request's own key",
        ],
    );
    // A request with nothing asked says so; a CA request asks for cA.
    let plain = leaf_request(&ExtensionOptions::default(), false);
    assert!(describe_request(&plain).contains("Requested extensions: none"));
    assert!(
        requested_extensions(&leaf_request(&ExtensionOptions::default(), true))
            .unwrap()
            .ca
    );
    // A tampered request is described as not verifying.
    let mut der = encode_request(&csr, false).unwrap();
    let n = der.len();
    der[n - 1] ^= 1;
    let bad = parse_request(&der).unwrap();
    assert!(describe_request(&bad).contains("Self-signature: DOES NOT VERIFY"));
}

fn ca() -> (DynSigningKey, Certificate) {
    let k = key(9);
    let c = self_signed(&k, &parse_name("CN=Root").unwrap(), ca_opts()).unwrap();
    (k, c)
}

#[test]
fn issue_copies_only_with_the_flag() {
    let (ca_key, ca_cert) = ca();
    let csr = leaf_request(&wanted(), false);
    let plain = issue(&ca_key, &ca_cert, &csr, CertOptions::default()).unwrap();
    let text = describe(&plain);
    assert!(!text.contains("Subject alternative"), "{text}");
    assert!(!text.contains("Extended key usage"), "{text}");
    assert!(text.contains("DigitalSignature, NonRepudiation"), "{text}");

    let copied = issue(
        &ca_key,
        &ca_cert,
        &csr,
        CertOptions {
            copy_extensions: true,
            ..Default::default()
        },
    )
    .unwrap();
    let text = describe(&copied);
    assert_has_all(
        &text,
        &[
            "Subject alternative names: dns:leaf.example",
            "Extended key usage: codeSigning",
            "Key usage:  DigitalSignature (critical)",
        ],
    );
    verify_certificate(&copied, Some(&ca_cert), SystemTime::now()).unwrap();

    // The issuer's own choices win over the request's.
    let mine = issue(
        &ca_key,
        &ca_cert,
        &csr,
        CertOptions {
            copy_extensions: true,
            extensions: ExtensionOptions {
                eku: vec![Eku::EmailProtection],
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap();
    let text = describe(&mine);
    assert_has_all(
        &text,
        &["Extended key usage: emailProtection", "dns:leaf.example"],
    );
}

#[test]
fn a_ca_request_needs_the_issuer_to_say_so() {
    let (ca_key, ca_cert) = ca();
    let csr = leaf_request(&ExtensionOptions::default(), true);
    let copy = CertOptions {
        copy_extensions: true,
        ..Default::default()
    };
    pki_err(
        issue(&ca_key, &ca_cert, &csr, copy.clone()),
        "asks for a CA certificate",
    );
    // Without copying, the request's wish is ignored: a non-CA certificate.
    let leaf = issue(&ca_key, &ca_cert, &csr, CertOptions::default()).unwrap();
    assert!(describe(&leaf).contains("CA false"));
    let sub = issue(&ca_key, &ca_cert, &csr, CertOptions { ca: true, ..copy }).unwrap();
    assert!(describe(&sub).contains("Basic constraints: CA true"));
}

// --- chains ---

struct Pki {
    root: Certificate,
    int: Certificate,
    leaf: Certificate,
}

/// A request for `key` named `name` that asks for no extensions.
fn plain_request(key: &DynSigningKey, name: &str, ca: bool) -> sphincs::pki::CertReq {
    let none = ExtensionOptions::default();
    request_with(key, &parse_name(name).unwrap(), &none, ca).unwrap()
}

fn chain_with(root_opts: CertOptions, int_opts: CertOptions) -> Pki {
    let (root_key, int_key, leaf_key) = (key(20), key(30), key(40));
    let root = self_signed(&root_key, &parse_name("CN=Root").unwrap(), root_opts).unwrap();
    let int_csr = plain_request(&int_key, "CN=Intermediate", true);
    let int = issue(&root_key, &root, &int_csr, int_opts).unwrap();
    let leaf_csr = plain_request(&leaf_key, "CN=Signer", false);
    let leaf = issue(&int_key, &int, &leaf_csr, CertOptions::default()).unwrap();
    Pki { root, int, leaf }
}

fn good_chain() -> Pki {
    chain_with(ca_opts(), ca_opts())
}

#[test]
fn chain_to_the_anchor() {
    let p = good_chain();
    let now = SystemTime::now();
    let check = verify_chain(
        &p.leaf,
        std::slice::from_ref(&p.int),
        std::slice::from_ref(&p.root),
        now,
    )
    .unwrap();
    assert_eq!(check.anchor, "CN=Root");
    assert_eq!(check.path, vec!["CN=Signer", "CN=Intermediate"]);
    // Unrelated intermediates and anchors are ignored, order does not matter.
    let other = self_signed(&key(60), &parse_name("CN=Other").unwrap(), ca_opts()).unwrap();
    let check = verify_chain(
        &p.leaf,
        &[other.clone(), p.leaf.clone(), p.int.clone()],
        &[other.clone(), p.root.clone()],
        now,
    )
    .unwrap();
    assert_eq!(check.anchor, "CN=Root");
    // The intermediate as the anchor; the certificate itself as the anchor.
    let check = verify_chain(&p.leaf, &[], std::slice::from_ref(&p.int), now).unwrap();
    assert_eq!(check.anchor, "CN=Intermediate");
    assert_eq!(check.path, vec!["CN=Signer"]);
    let check = verify_chain(&p.root, &[], std::slice::from_ref(&p.root), now).unwrap();
    assert_eq!(check.anchor, "CN=Root");
    // ... but not outside its validity period.
    let later = now + Duration::from_secs(400 * 86_400);
    failed(
        verify_chain(&p.leaf, &[], std::slice::from_ref(&p.leaf), later),
        "trust anchor \"CN=Signer\": the trust anchor expired",
    );
}

fn cannot(r: Result<impl std::fmt::Debug, Error>, needle: &str) {
    match r {
        Err(Error::CannotCheck(m)) => assert!(m.contains(needle), "want {needle:?} in {m:?}"),
        other => panic!("want CannotCheck({needle:?}), got {other:?}"),
    }
}

fn failed(r: Result<impl std::fmt::Debug, Error>, needle: &str) {
    match r {
        Err(Error::VerificationFailed(m)) => {
            assert!(m.contains(needle), "want {needle:?} in {m:?}")
        }
        other => panic!("want VerificationFailed({needle:?}), got {other:?}"),
    }
}

#[test]
fn no_path_cannot_be_checked() {
    let p = good_chain();
    let now = SystemTime::now();
    cannot(
        verify_chain(&p.leaf, &[], std::slice::from_ref(&p.root), now),
        "the issuer \"CN=Intermediate\" of \"CN=Signer\"",
    );
    cannot(
        verify_chain(&p.leaf, std::slice::from_ref(&p.int), &[], now),
        "no trust anchor",
    );
    let other = self_signed(&key(60), &parse_name("CN=Other").unwrap(), ca_opts()).unwrap();
    cannot(
        verify_chain(&p.leaf, std::slice::from_ref(&p.int), &[other], now),
        "no chain to a trust anchor",
    );
    // An impostor anchor with the root's name but another key: its key
    // cannot have made the signature, so the path fails (invalid).
    let impostor = self_signed(&key(70), &parse_name("CN=Root").unwrap(), ca_opts()).unwrap();
    failed(
        verify_chain(&p.leaf, std::slice::from_ref(&p.int), &[impostor], now),
        "its signature does not verify",
    );
}

#[test]
fn failing_links_are_invalid() {
    let p = good_chain();
    // A changed signature on the intermediate.
    let mut der = encode_certificate(&p.int, false).unwrap();
    let n = der.len();
    der[n - 1] ^= 1;
    let bad_int = parse_certificate(&der).unwrap();
    failed(
        verify_chain(
            &p.leaf,
            &[bad_int],
            std::slice::from_ref(&p.root),
            SystemTime::now(),
        ),
        "certificate \"CN=Intermediate\" (issued by \"CN=Root\"): its signature does not verify",
    );
    // Out of the validity period (the leaf, at a time after it expired).
    let later = SystemTime::now() + Duration::from_secs(400 * 86_400);
    failed(
        verify_chain(
            &p.leaf,
            std::slice::from_ref(&p.int),
            std::slice::from_ref(&p.root),
            later,
        ),
        "expired",
    );
    // An anchor out of its validity period.
    let old_root = self_signed(
        &key(20),
        &parse_name("CN=Root").unwrap(),
        CertOptions {
            ca: true,
            not_before: Some(parse_time("2020-01-01").unwrap()),
            not_after: Some(parse_time("2021-01-01").unwrap()),
            ..Default::default()
        },
    )
    .unwrap();
    failed(
        verify_chain(
            &p.leaf,
            std::slice::from_ref(&p.int),
            &[old_root],
            SystemTime::now(),
        ),
        "expired",
    );
}

#[test]
fn issuer_constraints() {
    // The root allows no intermediate CA below it.
    let p = chain_with(
        CertOptions {
            path_len: Some(0),
            ..ca_opts()
        },
        ca_opts(),
    );
    failed(
        verify_chain(
            &p.leaf,
            std::slice::from_ref(&p.int),
            std::slice::from_ref(&p.root),
            SystemTime::now(),
        ),
        "allows 0 intermediate CA certificate(s) below it; the path has 1",
    );
    // pathLen 1 is enough; the intermediate's own pathLen 0 allows the leaf.
    let p = chain_with(
        CertOptions {
            path_len: Some(1),
            ..ca_opts()
        },
        CertOptions {
            path_len: Some(0),
            ..ca_opts()
        },
    );
    verify_chain(
        &p.leaf,
        std::slice::from_ref(&p.int),
        std::slice::from_ref(&p.root),
        SystemTime::now(),
    )
    .unwrap();

    // A certificate that is not a CA cannot issue, even when its key made
    // the signature (here through a CA "twin" with the same key and name).
    let not_ca_key = key(30);
    let not_ca = self_signed(
        &not_ca_key,
        &parse_name("CN=NotCA").unwrap(),
        CertOptions::default(),
    )
    .unwrap();
    let ca_twin = self_signed(&not_ca_key, &parse_name("CN=NotCA").unwrap(), ca_opts()).unwrap();
    let leaf_csr = plain_request(&key(40), "CN=Signer", false);
    let leaf = issue(&not_ca_key, &ca_twin, &leaf_csr, CertOptions::default()).unwrap();
    failed(
        verify_chain(&leaf, &[], &[not_ca], SystemTime::now()),
        "is not a CA",
    );
}

#[test]
fn bundles() {
    let p = good_chain();
    let mut bundle = b"# a comment\n".to_vec();
    bundle.extend(encode_certificate(&p.root, true).unwrap());
    bundle.extend(b"text between\n");
    bundle.extend(encode_certificate(&p.int, true).unwrap());
    let certs = parse_certificates(&bundle).unwrap();
    assert_eq!(certs, vec![p.root.clone(), p.int.clone()]);
    let der = encode_certificate(&p.leaf, false).unwrap();
    assert_eq!(parse_certificates(&der).unwrap(), vec![p.leaf.clone()]);
    pki_err(parse_certificates(b"nothing here"), "no certificate found");
    pki_err(parse_certificates(b""), "no certificate found");
    let mut cut = encode_certificate(&p.root, true).unwrap();
    cut.truncate(cut.len() - 30);
    pki_err(
        parse_certificates(&cut),
        "has no \"-----END CERTIFICATE-----\" line",
    );
    let mut broken = encode_certificate(&p.root, true).unwrap();
    broken[40] = b'!';
    pki_err(parse_certificates(&broken), "certificate 1 of the bundle");
}

#[test]
fn signed_data_with_chain_verifies_to_the_root() {
    use sphincs::pki::cms::{parse_signed_data, sign_with_chain, verify, CmsSignOptions};
    let p = good_chain();
    let leaf_key = key(40);
    let content = b"release 3.0".to_vec();
    let parts = sign_with_chain(
        &leaf_key,
        &p.leaf,
        &[p.int.clone(), p.leaf.clone(), p.int.clone()],
        &mut &content[..],
        CmsSignOptions::default(),
        SystemTime::now(),
    )
    .unwrap();
    let sd = parse_signed_data(&parts.assemble(&content)).unwrap();
    // The signer's certificate and the intermediate, once each.
    let certs = sd.certificates();
    assert_eq!(certs.len(), 2);
    assert!(certs.contains(&p.int) && certs.contains(&p.leaf));
    let check = verify(&sd, None, None).unwrap();
    let signer = check.signers[0].certificate.as_ref().unwrap();
    assert_eq!(signer, &p.leaf);
    let chain = verify_chain(
        signer,
        &certs,
        std::slice::from_ref(&p.root),
        SystemTime::now(),
    )
    .unwrap();
    assert_eq!(chain.path, vec!["CN=Signer", "CN=Intermediate"]);
    assert_eq!(chain.anchor, "CN=Root");
}

/// Certificates named alike: each (certificate, issuer) pair is checked
/// once, a path holds one certificate per subject and key, and the search
/// stops at its bounds, so the answer comes in milliseconds, not minutes.
#[test]
fn look_alike_bundles_are_searched_in_bounded_work() {
    let name = parse_name("CN=Look").unwrap();
    let root = self_signed(&key(20), &parse_name("CN=Root").unwrap(), ca_opts()).unwrap();
    let leaf_csr = plain_request(&key(40), "CN=Signer", false);
    // 8 self-issued CA certificates with one name and one key, each of
    // which verifies under every other one (8! paths before).
    let k = key(50);
    let looks: Vec<Certificate> = (0..8)
        .map(|_| self_signed(&k, &name, ca_opts()).unwrap())
        .collect();
    let leaf = issue(&k, &looks[0], &leaf_csr, CertOptions::default()).unwrap();
    let start = std::time::Instant::now();
    let r = verify_chain(
        &leaf,
        &looks,
        std::slice::from_ref(&root),
        SystemTime::now(),
    );
    let took = start.elapsed();
    // The issuer is present but does not chain: not "missing".
    cannot(r, "8 certificate(s) named \"CN=Look\"");
    assert!(took < Duration::from_secs(2), "{took:?}");

    // 64 certificates named alike over 8 keys, each signed by another key:
    // many paths, each link valid; the bounds stop the search.
    let keys: Vec<DynSigningKey> = (0..8).map(|i| key(60 + 3 * i)).collect();
    let own: Vec<Certificate> = keys
        .iter()
        .map(|k| self_signed(k, &name, ca_opts()).unwrap())
        .collect();
    let mut many = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let csr = request_with(k, &name, &ExtensionOptions::default(), true).unwrap();
        for j in 0..8 {
            let by = (i + j) % 8;
            let opts = CertOptions {
                ca: true,
                days: 30,
                ..Default::default()
            };
            many.push(issue(&keys[by], &own[by], &csr, opts).unwrap());
        }
    }
    let leaf = issue(&keys[0], &own[0], &leaf_csr, CertOptions::default()).unwrap();
    let start = std::time::Instant::now();
    let r = verify_chain(&leaf, &many, std::slice::from_ref(&root), SystemTime::now());
    let took = start.elapsed();
    cannot(r, "within the search's bounds");
    assert!(took < Duration::from_secs(5), "{took:?}");
    eprintln!("64 look-alikes: {took:?}");
    // A real path among the look-alikes is still found.
    let leaf = issue(&key(20), &root, &leaf_csr, CertOptions::default()).unwrap();
    verify_chain(&leaf, &many, std::slice::from_ref(&root), SystemTime::now()).unwrap();
}
