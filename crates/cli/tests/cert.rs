//! `sphincs cert …` end to end: self-signed, request, issue, verify, show,
//! PEM and DER, exit codes, and no output left behind on an error.

mod pki_common;
use pki_common::{sphincs, Scratch};

#[test]
fn ca_request_issue_verify() {
    let s = Scratch::new("cert-chain");
    let (ca_key, ca, leaf_key, csr, leaf) = (
        s.p("ca.key"),
        s.p("ca.pem"),
        s.p("leaf.key"),
        s.p("leaf.csr"),
        s.p("leaf.der"),
    );
    sphincs(&["keygen", "-a", "sha2-128f", "-o", &ca_key]).ok();
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &ca_key,
        "--subject",
        "CN=Test CA,O=Example",
        "--ca",
        "--days",
        "10",
        "-o",
        &ca,
    ])
    .ok();
    assert!(s
        .read("ca.pem")
        .starts_with(b"-----BEGIN CERTIFICATE-----\n"));
    let out = sphincs(&["cert", "verify", &ca]).ok().text();
    assert!(
        out.contains("certificate OK: CN=Test CA,O=Example (self-signed)"),
        "{out}"
    );
    assert!(out.contains("within its validity period"), "{out}");
    assert!(out.contains("not checked: revocation"), "{out}");

    sphincs(&[
        "keygen",
        "-a",
        "shake-128f",
        "--prehash",
        "shake-128",
        "-o",
        &leaf_key,
    ])
    .ok();
    sphincs(&[
        "cert",
        "request",
        "-k",
        &leaf_key,
        "--subject",
        "CN=Leaf",
        "-o",
        &csr,
    ])
    .ok();
    assert!(s
        .read("leaf.csr")
        .starts_with(b"-----BEGIN CERTIFICATE REQUEST-----\n"));
    let out = sphincs(&["cert", "verify", &csr]).ok().text();
    assert!(out.contains("request OK: CN=Leaf"), "{out}");

    sphincs(&[
        "cert",
        "issue",
        "--ca-key",
        &ca_key,
        "--ca-cert",
        &ca,
        &csr,
        "--der",
        "-o",
        &leaf,
    ])
    .ok();
    assert_eq!(s.read("leaf.der")[0], 0x30);
    let out = sphincs(&["cert", "verify", &leaf, "--issuer", &ca])
        .ok()
        .text();
    assert!(out.contains("issuer is a CA"), "{out}");
    let show = sphincs(&["cert", "show", &leaf]).ok().text();
    assert!(show.contains("Subject:    CN=Leaf"), "{show}");
    assert!(show.contains("HashSLH-DSA with SHAKE-128"), "{show}");
    assert!(show.contains("2.16.840.1.101.3.4.3.42"), "{show}");
    assert!(
        show.contains("Signature:  SLH-DSA-SHA2-128f, OID 2.16.840.1.101.3.4.3.21"),
        "{show}"
    );

    // Cannot be checked, exit 2: not self-signed and no issuer; the leaf as
    // its own issuer (not the issuer); a missing or unreadable issuer file;
    // an issuer whose key is of another family (the CA's SPKI OID made
    // ML-DSA-44's, 2.16.840.1.101.3.4.3.17).
    sphincs(&["cert", "verify", &leaf])
        .usage_error("cannot check: ")
        .usage_error("not self-signed");
    sphincs(&["cert", "verify", &leaf, "--issuer", &leaf]).usage_error("cannot check: ");
    let missing = s.p("no-such-ca.pem");
    sphincs(&["cert", "verify", &leaf, "--issuer", &missing]).usage_error("cannot check: ");
    let not_cert = s.write("not-cert.pem", b"hello");
    sphincs(&["cert", "verify", &leaf, "--issuer", &not_cert]).usage_error("cannot check: ");
    // The same CA (key and name) in DER, to patch.
    let ca_der_path = s.p("ca.der");
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &ca_key,
        "--subject",
        "CN=Test CA,O=Example",
        "--ca",
        "--der",
        "-o",
        &ca_der_path,
    ])
    .ok();
    sphincs(&["cert", "verify", &leaf, "--issuer", &ca_der_path]).ok();
    let mut ca_der = s.read("ca.der");
    let slh21 = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 21,
    ];
    // Occurrences: the signed part's signature algorithm, the SPKI, the outer one.
    let spki_at = ca_der
        .windows(11)
        .enumerate()
        .filter(|(_, w)| *w == slh21)
        .map(|(i, _)| i)
        .nth(1)
        .unwrap();
    ca_der[spki_at + 10] = 17;
    let mldsa_ca = s.write("mldsa-ca.der", &ca_der);
    sphincs(&["cert", "verify", &leaf, "--issuer", &mldsa_ca])
        .usage_error("cannot check: ")
        .usage_error("issuer's key");
    // Invalid stays exit 1: the leaf's signature flipped.
    let mut bad_leaf = s.read("leaf.der");
    *bad_leaf.last_mut().unwrap() ^= 1;
    let bad_leaf = s.write("bad-leaf.der", &bad_leaf);
    sphincs(&["cert", "verify", &bad_leaf, "--issuer", &ca]).invalid("does not verify");
    // A leaf certificate cannot issue.
    let leaf_cert_pem = s.p("leaf.pem");
    sphincs(&[
        "cert",
        "issue",
        "--ca-key",
        &ca_key,
        "--ca-cert",
        &ca,
        &csr,
        "-o",
        &leaf_cert_pem,
    ])
    .ok();
    let x = s.p("x");
    sphincs(&[
        "cert",
        "issue",
        "--ca-key",
        &leaf_key,
        "--ca-cert",
        &leaf_cert_pem,
        &csr,
        "-o",
        &x,
    ])
    .usage_error("not a CA");
    // The CA key must match the CA certificate.
    sphincs(&[
        "cert",
        "issue",
        "--ca-key",
        &leaf_key,
        "--ca-cert",
        &ca,
        &csr,
        "-o",
        &x,
    ])
    .usage_error("not the key of the CA certificate");
    assert!(!s.path("x").exists());
    // Existing output is not replaced without --force.
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &ca_key,
        "--subject",
        "CN=x",
        "-o",
        &ca,
    ])
    .usage_error("exists");
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &ca_key,
        "--subject",
        "CN=x",
        "-o",
        &ca,
        "--force",
    ])
    .ok();
}

#[test]
fn bad_input() {
    let s = Scratch::new("cert-bad");
    let (k, c) = (s.p("k.pem"), s.p("c.der"));
    sphincs(&["keygen", "-a", "sha2-128f", "-o", &k]).ok();
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &k,
        "--subject",
        "CN=Bad",
        "--der",
        "-o",
        &c,
    ])
    .ok();
    let der = s.read("c.der");
    let cut = s.write("cut.der", &der[..der.len() / 2]);
    sphincs(&["cert", "verify", &cut]).usage_error("not a valid DER");
    sphincs(&["cert", "show", &cut]).usage_error("not a valid DER");
    let mut flipped = der.clone();
    *flipped.last_mut().unwrap() ^= 1;
    let flipped = s.write("flipped.der", &flipped);
    sphincs(&["cert", "verify", &flipped]).invalid("signature does not verify");
    let text = s.write("text", b"not a certificate");
    sphincs(&["cert", "verify", &text]).usage_error("neither PEM");
    sphincs(&["cert", "verify", &k]).usage_error("expected \"CERTIFICATE\"");
    let x = s.p("x");
    sphincs(&["cert", "self-signed", "-k", &k, "--subject", "", "-o", &x])
        .usage_error("subject is empty");
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &k,
        "--subject",
        "nonsense",
        "-o",
        &x,
    ])
    .usage_error("RFC 4514");
    sphincs(&["cert", "request", "-k", &c, "--subject", "CN=x", "-o", &x]).usage_error("");
    sphincs(&[
        "cert",
        "issue",
        "--ca-key",
        &k,
        "--ca-cert",
        &c,
        &cut,
        "-o",
        &x,
    ])
    .usage_error("not a valid DER");
    assert!(!s.path("x").exists());

    // A HashSLH-DSA key's certificate with its outer signature OID made pure
    // (.36 → .21): the certificate's two algorithm fields disagree, exit 2.
    let (hk, hc) = (s.p("h.pem"), s.p("h.der"));
    sphincs(&[
        "keygen",
        "-a",
        "sha2-128f",
        "--prehash",
        "sha2-256",
        "-o",
        &hk,
    ])
    .ok();
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &hk,
        "--subject",
        "CN=h",
        "--der",
        "-o",
        &hc,
    ])
    .ok();
    let mut der = s.read("h.der");
    let oid36 = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 36,
    ];
    let last = der.windows(11).rposition(|w| w == oid36).unwrap();
    der[last + 10] = 21;
    let mixed = s.write("mixed.der", &der);
    sphincs(&["cert", "verify", &mixed]).usage_error("two signature algorithms");
}

/// The signature covers the bytes as received: a multi-valued RDN whose two
/// attributes were swapped in the file (same name once sorted) is refused.
#[test]
fn swapped_multi_valued_rdn_is_refused() {
    let s = Scratch::new("cert-mvrdn");
    let (key, der) = (s.p("k.key"), s.p("c.der"));
    sphincs(&["keygen", "-a", "sha2-128f", "-o", &key]).ok();
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &key,
        "--subject",
        "CN=zz+O=aa,C=US",
        "--der",
        "-o",
        &der,
    ])
    .ok();
    sphincs(&["cert", "verify", &der]).ok();
    let mut bytes = s.read("c.der");
    // CN=zz then O=aa, each `30 09 06 03 55 04 0x 0c 02 ..`: swap the first pair.
    let cn = [0x30, 0x09, 0x06, 0x03, 0x55, 0x04, 0x03];
    let at = bytes.windows(7).position(|w| w == cn).unwrap();
    assert_eq!(
        bytes[at + 11..at + 18],
        [0x30, 0x09, 0x06, 0x03, 0x55, 0x04, 0x0a]
    );
    let (a, b) = (
        bytes[at..at + 11].to_vec(),
        bytes[at + 11..at + 22].to_vec(),
    );
    bytes[at..at + 11].copy_from_slice(&b);
    bytes[at + 11..at + 22].copy_from_slice(&a);
    let bad = s.write("bad.der", &bytes);
    sphincs(&["cert", "verify", &bad]).usage_error("canonical DER");
}
