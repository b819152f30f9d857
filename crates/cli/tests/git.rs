//! `sphincs` run as git runs its X.509 signing program (gpg's argument
//! shape), without a repository: the settings come from git's environment
//! configuration (GIT_CONFIG_COUNT). The end-to-end suite with git itself
//! is tests/interop/git.sh.

mod common;
use common::{as_git, assert_pem, key_and_cert, sphincs, Scratch};

use std::process::Command;

/// True, with a note that the test is skipped, where git is not installed.
fn no_git() -> bool {
    let missing = !Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if missing {
        eprintln!("git not installed: skipped");
    }
    missing
}

/// Where git is installed: a scratch directory `name` with a key and its
/// certificate (e-mail signer@example.org); None (the test is skipped) where not.
fn git_signer(name: &str) -> Option<(Scratch, String, String)> {
    if no_git() {
        return None;
    }
    let s = Scratch::new(name);
    let (k, c) = signer(&s);
    Some((s, k, c))
}

fn signer(s: &Scratch) -> (String, String) {
    let (k, c) = (s.p("k.pem"), s.p("c.pem"));
    let names = [
        "--subject",
        "CN=Git signer",
        "--san",
        "email:signer@example.org",
    ];
    key_and_cert("sha2-128f", &k, &c, &names);
    (k, c)
}

#[test]
fn sign_then_verify_as_git_does() {
    let Some((s, k, c)) = git_signer("round-trip") else {
        return;
    };
    let settings = [("sphincs.key", k.as_str()), ("sphincs.cert", c.as_str())];
    let payload = b"tree 0000\nauthor A <signer@example.org> 0 +0000\n\nmessage\n";
    for args in [
        &["--status-fd=2", "-bsau", "A U Thor <signer@example.org>"][..],
        &[
            "--status-fd",
            "2",
            "-b",
            "-s",
            "-a",
            "-u",
            "signer@example.org",
        ],
        &[
            "--status-fd=2",
            "--detach-sign",
            "--armor",
            "--local-user=signer@example.org",
        ],
    ] {
        let (code, sig, status) = as_git(&s, args, payload, &settings);
        assert_eq!(code, 0, "{args:?}: {status}");
        assert_pem(&sig, "SIGNED MESSAGE");
        assert!(sig.ends_with(b"-----END SIGNED MESSAGE-----\n"));
        let begin = status
            .find("[GNUPG:] BEGIN_SIGNING")
            .expect("BEGIN_SIGNING");
        let created = status
            .find("\n[GNUPG:] SIG_CREATED D ")
            .expect("SIG_CREATED");
        assert!(begin < created, "{status}");
    }
    let (_, sig, _) = as_git(
        &s,
        &["--status-fd=2", "-bsau", "signer@example.org"],
        payload,
        &settings,
    );
    let sig_path = s.write("sig.pem", &sig);
    let verify = ["--status-fd=1", "--verify", sig_path.as_str(), "-"];

    // Not trusted: good, TRUST_UNDEFINED.
    let (code, status, _) = as_git(&s, &verify, payload, &settings);
    let status = String::from_utf8(status).unwrap();
    let lines: Vec<&str> = status.lines().collect();
    assert_eq!(code, 0, "{status}");
    assert_eq!(lines[0], "[GNUPG:] NEWSIG");
    assert!(lines[1].starts_with("[GNUPG:] GOODSIG ") && lines[1].ends_with(" CN=Git signer"));
    assert!(lines[2].starts_with("[GNUPG:] VALIDSIG "));
    assert_eq!(lines[3], "[GNUPG:] TRUST_UNDEFINED 0 pgp");

    // Trusted as itself: TRUST_FULLY.
    let trusted = [settings[0], settings[1], ("sphincs.trust", c.as_str())];
    let (code, status, _) = as_git(&s, &verify, payload, &trusted);
    let status = String::from_utf8(status).unwrap();
    assert_eq!(code, 0);
    assert!(status.contains("\n[GNUPG:] TRUST_FULLY"), "{status}");

    // Another payload: BADSIG, exit 1, no GOODSIG.
    let (code, status, _) = as_git(&s, &verify, b"other", &trusted);
    let status = String::from_utf8(status).unwrap();
    assert_eq!(code, 1);
    assert!(status.contains("\n[GNUPG:] BADSIG "), "{status}");
    assert!(!status.contains("GOODSIG"), "{status}");
}

#[test]
fn failures_write_no_signature_and_no_sig_created() {
    let Some((s, k, c)) = git_signer("failures") else {
        return;
    };
    let (other, _) = {
        let o = s.p("other.pem");
        sphincs(&["keygen", "-a", "sha2-128f", "-o", &o]).ok();
        (o, ())
    };
    let missing = s.p("missing.pem");
    for (why, settings) in [
        ("nothing configured", vec![]),
        (
            "the key missing",
            vec![
                ("sphincs.key", missing.as_str()),
                ("sphincs.cert", c.as_str()),
            ],
        ),
        (
            "not the certificate's key",
            vec![
                ("sphincs.key", other.as_str()),
                ("sphincs.cert", c.as_str()),
            ],
        ),
    ] {
        let (code, sig, status) = as_git(
            &s,
            &["--status-fd=2", "-bsau", "signer@example.org"],
            b"x",
            &settings,
        );
        assert_ne!(code, 0, "{why}");
        assert!(sig.is_empty(), "{why}");
        assert!(!status.contains("SIG_CREATED"), "{why}: {status}");
    }
    // An address the certificate does not name.
    let settings = [("sphincs.key", k.as_str()), ("sphincs.cert", c.as_str())];
    let (code, sig, status) = as_git(
        &s,
        &["--status-fd=2", "-bsau", "someone@example.org"],
        b"x",
        &settings,
    );
    assert_eq!(code, 2);
    assert!(
        sig.is_empty() && !status.contains("SIG_CREATED"),
        "{status}"
    );
}

#[test]
fn unreadable_signature_is_errsig() {
    let s = Scratch::new("errsig");
    let sig = s.write_pem("sig", "SIGNED MESSAGE", "AAAA");
    let (code, status, _) = as_git(&s, &["--status-fd=1", "--verify", &sig, "-"], b"x", &[]);
    assert_eq!(code, 2);
    assert_eq!(
        String::from_utf8(status).unwrap(),
        "[GNUPG:] NEWSIG\n[GNUPG:] ERRSIG 0000000000000000 0 0 00 0 4\n"
    );
}

#[test]
fn gpg_usage_errors_and_the_normal_grammar() {
    let s = Scratch::new("usage");
    for args in [
        &["--status-fd=2", "-bsxu", "K"][..],
        &["--status-fd=2", "-su", "K"],
        &["--verify"],
    ] {
        let (code, out, err) = as_git(&s, args, b"", &[]);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert!(err.starts_with("sphincs: error: "), "{err}");
    }
    // The normal grammar is untouched.
    sphincs(&["-q", "list"]).ok();
    sphincs(&["git", "setup", "--help"]).ok();
}
