//! `sphincs sop`, the Stateless OpenPGP interface, driven as SOP clients
//! drive it: every verb, the VERIFICATIONS lines, and the draft's exit codes
//! for each failure. Cross-checks with other OpenPGP implementations are in
//! tests/interop/openpgp.sh.

mod common;
use common::Scratch;

use std::process::{Command, Stdio};

/// Runs `sphincs sop ARGS` in `dir` with `stdin`: exit code, stdout, stderr.
fn sop(dir: &Scratch, args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    common::sop_in(dir, args, stdin)
}

fn ok(dir: &Scratch, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let (code, out, err) = sop(dir, args, stdin);
    assert_eq!(code, 0, "sop {args:?}: {err}");
    out
}

fn code(dir: &Scratch, args: &[&str], stdin: &[u8]) -> i32 {
    let (code, _, err) = sop(dir, args, stdin);
    assert!(
        code == 0 || !err.is_empty(),
        "a failure says why: sop {args:?}"
    );
    code
}

/// A VERIFICATIONS line: date, signing key, primary key, mode.
fn check_line(line: &str, mode: &str) {
    let f: Vec<&str> = line.split(' ').collect();
    assert!(f.len() >= 4, "{line}");
    assert!(
        f[0].len() == 20 && f[0].ends_with('Z') && f[0].as_bytes()[10] == b'T',
        "{line}"
    );
    for fp in &f[1..3] {
        assert!(
            fp.len() == 64
                && fp
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b)),
            "{line}"
        );
    }
    assert_eq!(f[3], format!("mode:{mode}"), "{line}");
}

#[test]
fn every_profile_signs_and_verifies_every_form() {
    let s = Scratch::new("profiles");
    for profile in [
        "slh-dsa-shake-128f",
        "slh-dsa-shake-128s",
        "slh-dsa-shake-256s",
    ] {
        let key = ok(
            &s,
            &[
                "generate-key",
                &format!("--profile={profile}"),
                "Alice <alice@example.org>",
            ],
            b"",
        );
        assert!(key.starts_with(b"-----BEGIN PGP PRIVATE KEY BLOCK-----"));
        let key = s.write("k", &key);
        let cert = ok(&s, &["extract-cert"], &std::fs::read(&key).unwrap());
        assert!(cert.starts_with(b"-----BEGIN PGP PUBLIC KEY BLOCK-----"));
        let cert = s.write("c", &cert);
        for mode in ["binary", "text"] {
            let sig = s.write(
                "sig",
                &ok(
                    &s,
                    &["sign", &format!("--as={mode}"), &key],
                    b"hello\nworld\n",
                ),
            );
            let out =
                String::from_utf8(ok(&s, &["verify", &sig, &cert], b"hello\nworld\n")).unwrap();
            assert_eq!(out.lines().count(), 1);
            check_line(out.lines().next().unwrap(), mode);
            assert!(out.contains("Alice"), "{out}");
            assert_eq!(
                code(&s, &["verify", &sig, &cert], b"hello\nworld!\n"),
                3,
                "{profile} {mode}: tampered data"
            );
            // Text signatures do not depend on the line-ending convention.
            let crlf = code(&s, &["verify", &sig, &cert], b"hello\r\nworld\r\n");
            assert_eq!(crlf, if mode == "text" { 0 } else { 3 });
        }
        for mode in ["binary", "text", "clearsigned"] {
            let msg = ok(
                &s,
                &["inline-sign", &format!("--as={mode}"), &key],
                b"Package: x\n-dash\n",
            );
            let m = s.write("msg", &msg);
            let data = ok(
                &s,
                &["inline-verify", "--verifications-out=v.txt", &cert],
                &msg,
            );
            assert_eq!(data, b"Package: x\n-dash\n", "{profile} {mode}");
            check_line(
                &String::from_utf8(s.read("v.txt")).unwrap(),
                if mode == "binary" { "binary" } else { "text" },
            );
            std::fs::remove_file(s.path("v.txt")).unwrap();
            let detached = ok(
                &s,
                &["inline-detach", "--signatures-out=d.sig"],
                &std::fs::read(&m).unwrap(),
            );
            let sig = s.p("d.sig");
            ok(&s, &["verify", &sig, &cert], &detached);
            std::fs::remove_file(&sig).unwrap();
        }
    }
}

#[test]
fn rfc9980_sample_signatures_verify_through_sop() {
    let s = Scratch::new("rfc9980");
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sphincs/tests/data/openpgp-rfc9980/"
    );
    for set in ["128s", "128f", "256s"] {
        let sig = format!("{data}v6-slhdsa-{set}-sample-signature.asc");
        let cert = format!("{data}v6-slhdsa-{set}-sample-pk.asc");
        let out = String::from_utf8(ok(
            &s,
            &["verify", "--not-after=-", &sig, &cert],
            b"Testing\n",
        ))
        .unwrap();
        check_line(out.trim_end(), "text");
        assert_eq!(code(&s, &["verify", &sig, &cert], b"Testing"), 3);
        // The sample secret key signs, and extract-cert gives the sample certificate.
        let key = format!("{data}v6-slhdsa-{set}-sample-sk.asc");
        let sig2 = s.write("s", &ok(&s, &["sign", &key], b"x"));
        ok(&s, &["verify", &sig2, &cert], b"x");
        let extracted = ok(
            &s,
            &["extract-cert", "--no-armor"],
            &std::fs::read(&key).unwrap(),
        );
        let dearmored = ok(&s, &["dearmor"], &std::fs::read(&cert).unwrap());
        assert_eq!(extracted, dearmored);
    }
}

#[test]
fn passwords_protect_change_and_unlock() {
    let s = Scratch::new("passwords");
    let pw = s.write("pw", b"correct horse\n");
    let pw2 = s.write("pw2", b"battery staple");
    let key = s.write(
        "k",
        &ok(
            &s,
            &[
                "generate-key",
                "--profile=slh-dsa-shake-128f",
                "--with-key-password",
                &pw,
                "Bob",
            ],
            b"",
        ),
    );
    let cert = s.write("c", &ok(&s, &["extract-cert"], &s.read("k")));
    assert_eq!(
        code(&s, &["sign", &key], b"x"),
        67,
        "a protected key without its password"
    );
    assert_eq!(
        code(&s, &["sign", "--with-key-password", &pw2, &key], b"x"),
        67,
        "a wrong password"
    );
    let sig = s.write(
        "sig",
        &ok(&s, &["sign", "--with-key-password", &pw, &key], b"x"),
    );
    ok(&s, &["verify", &sig, &cert], b"x");
    // Change it, then remove it.
    let changed = ok(
        &s,
        &[
            "change-key-password",
            "--old-key-password",
            &pw,
            "--new-key-password",
            &pw2,
        ],
        &s.read("k"),
    );
    let k2 = s.write("k2", &changed);
    assert_eq!(
        code(&s, &["sign", "--with-key-password", &pw, &k2], b"x"),
        67
    );
    ok(&s, &["sign", "--with-key-password", &pw2, &k2], b"x");
    let open = ok(
        &s,
        &["change-key-password", "--old-key-password", &pw2],
        &changed,
    );
    let k3 = s.write("k3", &open);
    let sig = s.write("sig3", &ok(&s, &["sign", &k3], b"y"));
    ok(&s, &["verify", &sig, &cert], b"y");
    // The environment and file descriptors as password sources.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sphincs"));
    let out = child
        .args(["sop", "sign", "--with-key-password=@ENV:PW", &key])
        .env("PW", "correct horse")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn failures_have_the_drafts_exit_codes() {
    let s = Scratch::new("exits");
    let key = s.write(
        "k",
        &ok(
            &s,
            &["generate-key", "--profile=slh-dsa-shake-128f", "Carol"],
            b"",
        ),
    );
    let cert = s.write("c", &ok(&s, &["extract-cert"], &s.read("k")));
    let sig = s.write("sig", &ok(&s, &["sign", &key], b"data"));
    for verb in [
        "encrypt",
        "decrypt",
        "merge-certs",
        "certify-userid",
        "frobnicate",
    ] {
        assert_eq!(code(&s, &[verb], b""), 69, "{verb}");
    }
    assert_eq!(code(&s, &["sign"], b""), 19, "no KEYS");
    assert_eq!(code(&s, &["verify", &sig], b""), 19, "no CERTS");
    assert_eq!(code(&s, &["sign", "--frob", &key], b""), 37);
    assert_eq!(code(&s, &["generate-key", "--profile=rsa4096"], b""), 89);
    assert_eq!(code(&s, &["list-profiles", "sign"], b""), 89);
    assert_eq!(
        code(&s, &["sign", &cert], b"x"),
        41,
        "a certificate is not a key"
    );
    assert_eq!(
        code(&s, &["verify", &sig, &key], b"data"),
        0,
        "a secret key also verifies"
    );
    assert_eq!(code(&s, &["sign", "missing.key"], b"x"), 61);
    assert_eq!(code(&s, &["sign", "@FOO:bar"], b"x"), 71);
    assert_eq!(code(&s, &["sign", "--as=text", &key], b"\xff\xfe"), 53);
    assert_eq!(
        code(&s, &["inline-detach", "--signatures-out", &sig], b""),
        59
    );
    assert_eq!(
        code(
            &s,
            &["inline-sign", "--as=clearsigned", "--no-armor", &key],
            b"x"
        ),
        83
    );
    assert_eq!(
        code(&s, &["verify", &cert, &cert], b"data"),
        41,
        "a certificate is not a signature"
    );
    assert_eq!(
        code(&s, &["verify", &sig, &sig], b"data"),
        41,
        "a signature is not a certificate"
    );
    assert_eq!(code(&s, &["inline-verify", &cert], b"not signed"), 41);
    assert_eq!(
        code(
            &s,
            &["dearmor"],
            b"-----BEGIN PGP SIGNATURE-----\n\nAAA!\n-----END PGP SIGNATURE-----\n"
        ),
        41
    );
    // Time windows: a signature made now is not before tomorrow.
    assert_eq!(
        code(
            &s,
            &["verify", "--not-before=2999-01-01", &sig, &cert],
            b"data"
        ),
        3
    );
    assert_eq!(
        code(
            &s,
            &["verify", "--not-after=2000-01-01", &sig, &cert],
            b"data"
        ),
        3
    );
    assert_eq!(
        code(
            &s,
            &[
                "verify",
                "--not-before=2000-01-01T00:00:00Z",
                "--not-after=now",
                &sig,
                &cert
            ],
            b"data"
        ),
        0
    );
    assert_eq!(
        code(
            &s,
            &["verify", "--not-before=yesterday", &sig, &cert],
            b"data"
        ),
        37
    );
    // A certificate of another key: no signature.
    let other = s.write(
        "k2",
        &ok(&s, &["generate-key", "--profile=slh-dsa-shake-128f"], b""),
    );
    let other_cert = s.write(
        "c2",
        &ok(&s, &["extract-cert"], &std::fs::read(&other).unwrap()),
    );
    assert_eq!(code(&s, &["verify", &sig, &other_cert], b"data"), 3);
}

#[test]
fn armor_and_dearmor_are_inverse_and_idempotent() {
    let s = Scratch::new("armor");
    let key = ok(
        &s,
        &["generate-key", "--profile=slh-dsa-shake-128f", "--no-armor"],
        b"",
    );
    let armored = ok(&s, &["armor"], &key);
    assert!(armored.starts_with(b"-----BEGIN PGP PRIVATE KEY BLOCK-----\n"));
    assert_eq!(ok(&s, &["armor"], &armored), armored);
    assert_eq!(ok(&s, &["dearmor"], &armored), key);
    assert_eq!(ok(&s, &["dearmor"], &key), key);
    let v = String::from_utf8(ok(&s, &["version"], b"")).unwrap();
    assert!(v.starts_with("sphincs-sop "));
    let p = String::from_utf8(ok(&s, &["list-profiles", "generate-key"], b"")).unwrap();
    assert!(
        p.starts_with("slh-dsa-shake-128s: "),
        "the default comes first: {p}"
    );
    assert_eq!(p.lines().count(), 3);
}
