//! Everyday use of keys and certificates (issue 30): a certificate as the
//! public key of `verify` and `fingerprint`, `cert show`'s fingerprint,
//! `verify --fingerprint`, `key show`, `key passwd`, and the wording and
//! confirmations of the common commands.

mod common;

use common::{sphincs, Out, Scratch};

fn ok(args: &[&str]) -> Out {
    sphincs(args).ok()
}

/// The `SHA256:…` of `fingerprint KEY`.
fn fingerprint_of(key: &str) -> String {
    ok(&["fingerprint", key])
        .text()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_certificate_is_a_public_key() {
    let d = Scratch::new("cert-as-key");
    let (k, p) = (d.p("k.pem"), d.p("k.pub"));
    ok(&["keygen", "-a", "shake-128f", "-o", &k, "--pub", &p]);
    let (c, cd) = (d.p("c.pem"), d.p("c.der"));
    ok(&[
        "cert",
        "self-signed",
        "-k",
        &k,
        "--subject",
        "CN=x",
        "-o",
        &c,
    ]);
    ok(&[
        "cert",
        "self-signed",
        "-k",
        &k,
        "--subject",
        "CN=x",
        "--der",
        "-o",
        &cd,
    ]);
    let m = d.write("m", b"message");
    ok(&["sign", "-q", "-k", &k, &m]);
    let sig = format!("{m}.sig");
    for cert in [&c, &cd] {
        ok(&["verify", "-p", cert, "-s", &sig, &m]);
        ok(&["verify", "-p", cert, &m]);
    }
    let want = fingerprint_of(&p);
    assert_eq!(fingerprint_of(&c), want);
    assert_eq!(fingerprint_of(&cd), want);
    let show = ok(&["cert", "show", &c]).text();
    assert!(show.contains(&format!("\nFingerprint: {want}\n")), "{show}");
    // A certificate signs nothing.
    sphincs(&["sign", "-k", &c, "-o", &d.p("x.sig"), &m])
        .usage_error("is an X.509 certificate; signing needs the private key");
    assert!(!d.path("x.sig").exists());
    // Another PEM block given as -p: the error speaks of what -p takes.
    let csr = d.p("r.csr");
    ok(&["cert", "request", "-k", &k, "--subject", "CN=y", "-o", &csr]);
    for args in [
        &["verify", "-p", &csr, "-s", &sig, &m][..],
        &["fingerprint", &csr][..],
    ] {
        let out =
            sphincs(args).usage_error("is a PEM \"CERTIFICATE REQUEST\"; expected a public key");
        assert!(out.stderr.contains("X.509 certificate"), "{}", out.stderr);
        assert!(
            !out.stderr.contains("expected \"PRIVATE KEY\""),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn verify_fingerprint_pins_the_public_key() {
    let d = Scratch::new("pin");
    let (k, p) = (d.p("k.pem"), d.p("k.pub"));
    ok(&["keygen", "-a", "sha2-128f", "-o", &k, "--pub", &p]);
    let c = d.p("c.pem");
    ok(&[
        "cert",
        "self-signed",
        "-k",
        &k,
        "--subject",
        "CN=x",
        "-o",
        &c,
    ]);
    let m = d.write("m", b"message");
    ok(&["sign", "-q", "-k", &k, &m]);
    let sig = format!("{m}.sig");
    let fp = fingerprint_of(&p);
    for key in [&p, &k, &c] {
        ok(&["verify", "-p", key, "--fingerprint", &fp, "-s", &sig, &m]);
        ok(&["verify", "-p", key, "--fingerprint", &fp, &m]);
    }
    // Hex in capitals is the same fingerprint.
    let upper = format!("SHA256:{}", fp["SHA256:".len()..].to_uppercase());
    ok(&["verify", "-p", &p, "--fingerprint", &upper, "-s", &sig, &m]);
    // Another key's fingerprint: exit 2 before any signature is checked,
    // even a bad one (which alone would exit 1).
    let other = d.p("o.pub");
    ok(&[
        "keygen",
        "-a",
        "sha2-128f",
        "-o",
        &d.p("o.pem"),
        "--pub",
        &other,
    ]);
    let wrong = fingerprint_of(&other);
    let bad = d.write("bad.sig", &[0u8; 17088]);
    for args in [
        &["verify", "-p", &p, "--fingerprint", &wrong, "-s", &sig, &m][..],
        &["verify", "-p", &p, "--fingerprint", &wrong, "-s", &bad, &m][..],
        &["verify", "-p", &c, "--fingerprint", &wrong, &m][..],
    ] {
        let out = sphincs(args).usage_error("no signature was checked");
        assert!(out.stderr.contains(&wrong) && out.stderr.contains(&fp));
        assert!(out.stdout.is_empty());
    }
    // Not a fingerprint at all.
    sphincs(&["verify", "-p", &p, "--fingerprint", "abcd", "-s", &sig, &m])
        .usage_error("--fingerprint: \"abcd\" is not a key fingerprint");
    sphincs(&[
        "verify",
        "-p",
        &p,
        "--fingerprint",
        &fp[..70],
        "-s",
        &sig,
        &m,
    ])
    .usage_error("is not a key fingerprint");
}
