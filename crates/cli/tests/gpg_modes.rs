//! `sphincs gpg`, `sphincs gpgv` and `sphincs cosign` without GnuPG (the
//! system verifier switched off with SPHINCS_SYSTEM_GPGV=''): what
//! `scripts/test-all` checks before the interop suites run the real apt,
//! debsign, dpkg-source and GnuPG (tests/interop/apt.sh, gpg.sh).

mod common;

use common::{sphincs_env, Out, Scratch};

const NO_GNUPG: (&str, &str) = ("SPHINCS_SYSTEM_GPGV", "");

/// An OpenPGP key NAME.key with its certificate NAME.asc.
fn keygen(d: &Scratch, set: &str, user_id: &str, name: &str) {
    let (key, cert) = (d.p(&format!("{name}.key")), d.p(&format!("{name}.asc")));
    sphincs_env(
        &[
            "keygen",
            "-a",
            set,
            "--openpgp",
            user_id,
            "-o",
            &key,
            "--pub",
            &cert,
        ],
        &[],
    )
    .ok();
}

/// A home with one SLH-DSA-SHAKE-128f key (repo.key, repo.asc).
fn home(d: &Scratch) -> String {
    keygen(d, "SLH-DSA-SHAKE-128f", "Repo <repo@example.org>", "repo");
    sphincs_env(
        &["gpg", "--homedir", &d.p("h"), "--import", &d.p("repo.key")],
        &[],
    )
    .ok();
    d.p("h")
}

/// `sphincs gpgv --keyring KEYRING --status-fd 1 ARGS…` without GnuPG.
fn gpgv(keyring: &str, args: &[&str]) -> Out {
    let mut all = vec!["gpgv", "--keyring", keyring, "--status-fd", "1"];
    all.extend_from_slice(args);
    sphincs_env(&all, &[NO_GNUPG])
}

fn status_words(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .filter_map(|l| l.strip_prefix("[GNUPG:] "))
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect()
}

#[test]
fn a_clearsigned_release_verifies_and_a_changed_one_does_not() {
    let d = Scratch::new("gpg-modes-clear");
    let h = home(&d);
    d.write("Release", b"Origin: test\nSuite: stable\n");
    let out = sphincs_env(
        &[
            "gpg",
            "--homedir",
            &h,
            "--batch",
            "-u",
            "repo@example.org",
            "--status-fd",
            "1",
            "--clearsign",
            "-o",
            &d.p("InRelease"),
            &d.p("Release"),
        ],
        &[],
    )
    .ok();
    assert_eq!(status_words(&out.stdout), ["BEGIN_SIGNING", "SIG_CREATED"]);
    let out = gpgv(&d.p("repo.asc"), &[&d.p("InRelease")]).ok();
    assert_eq!(
        status_words(&out.stdout),
        ["NEWSIG", "KEY_CONSIDERED", "GOODSIG", "VALIDSIG"]
    );
    // apt matches GOODSIG's key against VALIDSIG's fingerprint by its
    // first 40 digits (docs/gpg.md).
    let text = out.text();
    let good = text.lines().find(|l| l.contains(" GOODSIG ")).unwrap();
    let valid = text.lines().find(|l| l.contains(" VALIDSIG ")).unwrap();
    let key = good.split(' ').nth(2).unwrap();
    let fpr = valid.split(' ').nth(2).unwrap();
    assert_eq!((key.len(), fpr.len()), (40, 64));
    assert!(fpr.starts_with(key));
    let changed = String::from_utf8(d.read("InRelease"))
        .unwrap()
        .replace("Suite: stable", "Suite: stab1e");
    d.write("Changed", changed.as_bytes());
    let out = gpgv(
        &d.p("repo.asc"),
        &["--output", &d.p("text"), &d.p("Changed")],
    )
    .code(1);
    assert_eq!(status_words(&out.stdout), ["NEWSIG", "BADSIG"]);
    assert!(
        !d.path("text").exists(),
        "--output written for a bad signature"
    );
    // No certificate: ERRSIG and NO_PUBKEY, status 2.
    let out = gpgv("/dev/null", &[&d.p("InRelease")]).code(2);
    assert_eq!(status_words(&out.stdout), ["NEWSIG", "ERRSIG", "NO_PUBKEY"]);
}

#[test]
fn cosign_adds_one_signature_and_only_once() {
    let d = Scratch::new("gpg-modes-cosign");
    let h = home(&d);
    d.write("Release", b"Origin: test\n");
    sphincs_env(
        &[
            "gpg",
            "--homedir",
            &h,
            "-abs",
            "-o",
            &d.p("Release.gpg"),
            &d.p("Release"),
        ],
        &[],
    )
    .ok();
    // A second key cosigns; the same key again is refused.
    keygen(&d, "SLH-DSA-SHAKE-128s", "Two <two@example.org>", "two");
    sphincs_env(
        &[
            "-q",
            "cosign",
            "-k",
            &d.p("two.key"),
            "-s",
            &d.p("Release.gpg"),
            &d.p("Release"),
        ],
        &[],
    )
    .ok();
    sphincs_env(
        &[
            "cosign",
            "-k",
            &d.p("two.key"),
            "-s",
            &d.p("Release.gpg"),
            &d.p("Release"),
        ],
        &[],
    )
    .code(2)
    .says("already holds a signature by");
    let both = [d.read("repo.asc"), d.read("two.asc")].concat();
    d.write("both.asc", &both);
    let out = gpgv(&d.p("both.asc"), &[&d.p("Release.gpg"), &d.p("Release")]).ok();
    let goods = status_words(&out.stdout)
        .iter()
        .filter(|w| *w == "GOODSIG")
        .count();
    assert_eq!(goods, 2, "{}", out.text());
}

#[test]
fn refused_options_are_named() {
    let d = Scratch::new("gpg-modes-refused");
    for (args, needle) in [
        (&["gpg", "--encrypt", "x"][..], "--encrypt"),
        (&["gpg", "--sign-key", "x"], "--sign-key"),
        (&["gpgv", "--detach-sign", "x"], "--detach-sign"),
        (&["gpg", "--passphrase", "pw", "-abs"], "--passphrase-file"),
        (
            &["gpg", "--clearsign", "--verify", "x"],
            "one command at a time",
        ),
    ] {
        let out = sphincs_env(args, &[("GNUPGHOME", &d.p("h"))]).code(2);
        assert!(out.stderr.contains(needle), "{args:?}: {}", out.stderr);
    }
}
