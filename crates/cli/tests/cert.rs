//! `sphincs cert …` end to end: self-signed, request, issue, verify, show,
//! PEM and DER, exit codes, and no output left behind on an error.

mod common;
use common::{assert_has_all, assert_pem, key_and_cert, run, sphincs, Scratch};

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
    let ca_args = ["--subject", "CN=Test CA,O=Example", "--ca", "--days", "10"];
    key_and_cert("sha2-128f", &ca_key, &ca, &ca_args);
    assert_pem(&s.read("ca.pem"), "CERTIFICATE");
    let out = sphincs(&["cert", "verify", &ca]).ok().text();
    assert_has_all(
        &out,
        &[
            "certificate OK: CN=Test CA,O=Example (self-signed)",
            "within its validity period",
            "not checked: revocation",
        ],
    );

    run(&format!(
        "keygen -a shake-128f --prehash shake-128 -o {leaf_key}"
    ))
    .ok();
    run(&format!(
        "cert request -k {leaf_key} --subject CN=Leaf -o {csr}"
    ))
    .ok();
    assert_pem(&s.read("leaf.csr"), "CERTIFICATE REQUEST");
    let out = sphincs(&["cert", "verify", &csr]).ok().text();
    assert!(out.contains("request OK: CN=Leaf"), "{out}");

    run(&format!(
        "cert issue --ca-key {ca_key} --ca-cert {ca} {csr} --der -o {leaf}"
    ))
    .ok();
    assert_eq!(s.read("leaf.der")[0], 0x30);
    let out = sphincs(&["cert", "verify", &leaf, "--issuer", &ca])
        .ok()
        .text();
    assert!(out.contains("issuer is a CA"), "{out}");
    let show = sphincs(&["cert", "show", &leaf]).ok().text();
    assert_has_all(
        &show,
        &[
            "Subject:    CN=Leaf",
            "HashSLH-DSA with SHAKE-128",
            "2.16.840.1.101.3.4.3.42",
            "Signature:  SLH-DSA-SHA2-128f, OID 2.16.840.1.101.3.4.3.21",
        ],
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
    run(&format!(
        "cert issue --ca-key {ca_key} --ca-cert {ca} {csr} -o {leaf_cert_pem}"
    ))
    .ok();
    let x = s.p("x");
    run(&format!(
        "cert issue --ca-key {leaf_key} --ca-cert {leaf_cert_pem} {csr} -o {x}"
    ))
    .usage_error("not a CA");
    // The CA key must match the CA certificate.
    s.refused_without(
        &format!("cert issue --ca-key {leaf_key} --ca-cert {ca} {csr} -o {x}"),
        "x",
        "not the key of the CA certificate",
    );
    // Existing output is not replaced without --force.
    run(&format!(
        "cert self-signed -k {ca_key} --subject CN=x -o {ca}"
    ))
    .usage_error("exists");
    run(&format!(
        "cert self-signed -k {ca_key} --subject CN=x -o {ca} --force"
    ))
    .ok();
}

#[test]
fn bad_input() {
    let s = Scratch::new("cert-bad");
    let (k, c) = (s.p("k.pem"), s.p("c.der"));
    key_and_cert("sha2-128f", &k, &c, &["--subject", "CN=Bad", "--der"]);
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
    run(&format!(
        "cert self-signed -k {k} --subject nonsense -o {x}"
    ))
    .usage_error("RFC 4514");
    sphincs(&["cert", "request", "-k", &c, "--subject", "CN=x", "-o", &x]).usage_error("");
    s.refused_without(
        &format!("cert issue --ca-key {k} --ca-cert {c} {cut} -o {x}"),
        "x",
        "not a valid DER",
    );

    // A HashSLH-DSA key's certificate with its outer signature OID made pure
    // (.36 → .21): the certificate's two algorithm fields disagree, exit 2.
    let (hk, hc) = (s.p("h.pem"), s.p("h.der"));
    run(&format!("keygen -a sha2-128f --prehash sha2-256 -o {hk}")).ok();
    run(&format!(
        "cert self-signed -k {hk} --subject CN=h --der -o {hc}"
    ))
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
    let subject = ["--subject", "CN=zz+O=aa,C=US", "--der"];
    key_and_cert("sha2-128f", &key, &der, &subject);
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

#[test]
fn certificate_options() {
    let s = Scratch::new("cert-options");
    let d = s.p("");
    run(&format!("keygen -a shake-128f -o {d}/ca.key")).ok();
    run(&format!("keygen -a shake-128f -o {d}/leaf.key")).ok();
    run(&format!(
        "cert self-signed -k {d}/ca.key --subject CN=Opt-CA --ca --path-len 0 --serial 0x01:FF --not-before 2025-01-01T00:00:00Z --days 3650 -o {d}/ca.pem"
    ))
    .ok();
    let show = cert_show(&d, "ca.pem");
    assert_has_all(
        &show,
        &[
            "Serial:     01ff",
            "Not before: 2025-01-01T00:00:00Z",
            "Not after:  2034-12-30T00:00:00Z",
            "Basic constraints: CA true, path length 0 (critical)",
        ],
    );

    // A request asking for SAN, EKU and key usage; `cert show` reads it.
    run(&format!(
        "cert request -k {d}/leaf.key --subject CN=Leaf --san dns:leaf.example --san email:me@leaf.example --san uri:https://leaf.example/ --eku codeSigning --eku emailProtection,codeSigning --key-usage digitalSignature,contentCommitment --der -o {d}/leaf.csr"
    ))
    .ok();
    let show = cert_show(&d, "leaf.csr");
    assert!(
        show.starts_with("Certificate request (PKCS#10)\n"),
        "{show}"
    );
    let san = "dns:leaf.example, email:me@leaf.example, uri:https://leaf.example/";
    assert_has_all(
        &show,
        &[
            "Subject:    CN=Leaf",
            "Public key: SLH-DSA-SHAKE-128f",
            &format!("  Subject alternative names: {san}"),
            "  Extended key usage: codeSigning, emailProtection",
            "  Key usage:  DigitalSignature, NonRepudiation (critical)",
            "Self-signature: verifies with the request's own key",
        ],
    );

    // Without --copy-extensions nothing is copied; with it all three are.
    let issue = format!("cert issue --ca-key {d}/ca.key --ca-cert {d}/ca.pem {d}/leaf.csr");
    let out = run(&format!("{issue} -o {d}/plain.pem")).ok();
    assert!(
        out.stderr
            .contains("the request asks for extensions, not copied without --copy-extensions"),
        "{}",
        out.stderr
    );
    let show = cert_show(&d, "plain.pem");
    assert!(!show.contains("Subject alternative"), "{show}");
    assert!(!show.contains("Extended key usage"), "{show}");
    let out = run(&format!("{issue} --copy-extensions -o {d}/leaf.pem")).ok();
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let show = cert_show(&d, "leaf.pem");
    assert_has_all(
        &show,
        &[
            "Subject alternative names: dns:leaf.example",
            "Extended key usage: codeSigning, emailProtection",
            "Issuer:     CN=Opt-CA",
        ],
    );
    run(&format!("cert verify {d}/leaf.pem --issuer {d}/ca.pem")).ok();
    // The issuer's own --eku wins over the request's.
    run(&format!(
        "{issue} --copy-extensions --eku serverAuth --serial 1234 -o {d}/mine.pem"
    ))
    .ok();
    let show = cert_show(&d, "mine.pem");
    assert_has_all(
        &show,
        &["Extended key usage: serverAuth\n", "Serial:     1234"],
    );

    // A request for a CA certificate: refused when copying unless --ca.
    run(&format!(
        "cert request -k {d}/leaf.key --subject CN=Sub --ca -o {d}/sub.csr"
    ))
    .ok();
    let show = cert_show(&d, "sub.csr");
    assert!(
        show.contains("  Basic constraints: CA true (critical)"),
        "{show}"
    );
    let sub = format!("cert issue --ca-key {d}/ca.key --ca-cert {d}/ca.pem {d}/sub.csr");
    let line = format!("{sub} --copy-extensions -o {d}/sub.pem");
    s.refused_without(&line, "sub.pem", "the request asks for a CA certificate");
    run(&format!("{sub} --copy-extensions --ca -o {d}/sub.pem")).ok();
    assert!(cert_show(&d, "sub.pem").contains("Basic constraints: CA true"));
}

/// What `cert show DIR/NAME` prints (it must succeed).
fn cert_show(dir: &str, name: &str) -> String {
    run(&format!("cert show {dir}/{name}")).ok().text()
}

#[test]
fn certificate_option_errors() {
    let s = Scratch::new("cert-option-errors");
    let d = s.p("");
    run(&format!("keygen -a shake-128f -o {d}/k")).ok();
    let base = format!("cert self-signed -k {d}/k --subject CN=x -o {d}/out.pem");
    for (args, needle) in [
        ("--eku codeSign", "unknown extended key usage \"codeSign\""),
        ("--eku codeSigning,", "unknown extended key usage \"\""),
        ("--san dns:", "is not a DNS name"),
        (
            "--san example.org",
            "expected dns:NAME, email:ADDR or uri:URI",
        ),
        ("--san ip:10.0.0.1", "unknown kind \"ip\""),
        ("--san email:nobody", "is not an email address"),
        ("--san uri:nowhere", "is not an absolute URI"),
        ("--key-usage keyEncipherment", "unknown key usage"),
        (
            "--key-usage keyCertSign",
            "keyCertSign is for CA certificates",
        ),
        ("--ca --key-usage digitalSignature", "needs keyCertSign"),
        ("--serial 0", "positive serial number"),
        ("--serial 00:00", "positive serial number"),
        (
            "--serial 0102030405060708090a0b0c0d0e0f101112131415",
            "21 octets; RFC 5280 allows at most 20",
        ),
        ("--serial 12g4", "not hexadecimal"),
        (
            "--not-before 2030-01-01 --not-after 2029-12-31",
            "is not before notAfter",
        ),
        (
            "--not-before 2026-02-30",
            "--not-before: \"2026-02-30\" is not an RFC 3339",
        ),
        (
            "--not-after tomorrow",
            "--not-after: \"tomorrow\" is not an RFC 3339",
        ),
        ("--not-before 9999-12-31", "notAfter cannot be written"),
    ] {
        run(&format!("{base} {args}")).usage_error(needle);
        assert!(!s.path("out.pem").exists(), "{args}");
    }
    // Flags clap refuses: --path-len without --ca, --days with --not-after.
    for args in [
        "--path-len 1",
        "--days 3 --not-after 2030-01-01",
        "--path-len 300 --ca",
    ] {
        let out = run(&format!("{base} {args}")).code(2);
        assert!(out.stderr.contains("error"), "{}", out.stderr);
        assert!(!s.path("out.pem").exists(), "{args}");
    }
    // The same checks on a request.
    run(&format!(
        "cert request -k {d}/k --subject CN=x --eku nope -o {d}/out.csr"
    ))
    .usage_error("unknown extended key usage");
    s.refused_without(
        &format!("cert request -k {d}/k --subject CN=x --san dns:a_b..c -o {d}/out.csr"),
        "out.csr",
        "is not a DNS name",
    );
}
