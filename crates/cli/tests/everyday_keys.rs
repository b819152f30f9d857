//! Everyday use of keys and certificates (issue 30): a certificate as the
//! public key of `verify` and `fingerprint`, `cert show`'s fingerprint,
//! `verify --fingerprint`, `key show`, `key passwd`, and the wording and
//! confirmations of the common commands.

mod common;

use std::fs;

use common::{assert_has_all, key_pair, run, sphincs, sphincs_env, Out, Scratch};

fn ok(args: &[&str]) -> Out {
    sphincs(args).ok()
}

/// `keygen -q -a ALG -o KEY --pub PUB`, which must succeed.
fn keygen(alg: &str, key: &str, public: &str) {
    ok(&["keygen", "-q", "-a", alg, "-o", key, "--pub", public]);
}

/// `cert self-signed -k KEY --subject CN=x -o OUT` (DER with `der`).
fn self_signed(key: &str, out: &str, der: bool) -> Out {
    let mut args = vec![
        "cert",
        "self-signed",
        "-k",
        key,
        "--subject",
        "CN=x",
        "-o",
        out,
    ];
    if der {
        args.push("--der");
    }
    ok(&args)
}

/// The fingerprint `sphincs fingerprint ARGS` prints (its first word).
fn fingerprint(args: &[&str]) -> String {
    let mut all = vec!["fingerprint"];
    all.extend_from_slice(args);
    let text = ok(&all).text();
    text.split_whitespace().next().unwrap().to_string()
}

fn fingerprint_of(key: &str) -> String {
    fingerprint(&[key])
}

#[test]
fn a_certificate_is_a_public_key() {
    let d = Scratch::new("cert-as-key");
    let (k, p) = key_pair(&d, "shake-128f");
    let (c, cd) = (d.p("c.pem"), d.p("c.der"));
    self_signed(&k, &c, false);
    self_signed(&k, &cd, true);
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
    // Nor does it become git's signing key (GIT_DIR points nowhere, so
    // that nothing could touch a real repository's configuration).
    let nowhere = d.p("no-repo");
    for key in [&c, &p] {
        sphincs_env(
            &["git", "setup", "--key", key, "--cert", &c],
            &[("GIT_DIR", &nowhere)],
        )
        .usage_error("is not a private key; --key needs the signing key");
    }
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
    let (k, p) = key_pair(&d, "sha2-128f");
    let c = d.p("c.pem");
    self_signed(&k, &c, false);
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
    keygen("sha2-128f", &d.p("o.pem"), &other);
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
    let cut = &fp[..70];
    run(&format!("verify -p {p} --fingerprint {cut} -s {sig} {m}"))
        .usage_error("is not a key fingerprint");
}

#[test]
fn key_show_describes_every_kind_of_key_file() {
    let d = Scratch::new("key-show");
    let (k, p) = key_pair(&d, "shake-128f");
    let fp = fingerprint_of(&p);
    let show = |args: &[&str]| {
        let mut all = vec!["key", "show"];
        all.extend_from_slice(args);
        ok(&all).text()
    };
    assert_eq!(
        show(&[&k]),
        format!(
            "File:        {k}\nContents:    private key, PEM (PKCS#8), not encrypted\nAlgorithm:   SLH-DSA-SHAKE-128f\nMode:        pure SLH-DSA\nFingerprint: {fp}\n"
        )
    );
    let der = d.p("k.der");
    ok(&["pubkey", "--der", &k, "-o", &der]);
    let fp_line = format!("Fingerprint: {fp}\n");
    let spki = "Contents:    public key, DER (SubjectPublicKeyInfo)\n";
    assert_has_all(&show(&[&der]), &[spki, &fp_line]);
    let c = d.p("c.pem");
    self_signed(&k, &c, false);
    let cert = "Contents:    X.509 certificate, PEM";
    assert_has_all(&show(&[&c]), &[cert, &fp_line]);
    // A HashSLH-DSA key shows its pre-hash.
    let h = d.p("h.pem");
    run(&format!("keygen -a shake-128f --prehash shake-128 -o {h}")).ok();
    assert!(show(&[&h]).contains("Mode:        HashSLH-DSA with SHAKE-128\n"));
    // Encrypted: without a passphrase only that it is encrypted (and
    // nothing is asked: standard input is closed, the run succeeds).
    let pass = secret(&d, "pass", b"secret\n");
    let e = d.p("e.pem");
    ok(&["--passphrase-file", &pass, "key", "encrypt", &k, "-o", &e]);
    let text = show(&[&e]);
    assert!(
        text.contains(
            "Contents:    private key, PEM (PKCS#8 EncryptedPrivateKeyInfo), encrypted\n"
        ),
        "{text}"
    );
    assert!(
        !text.contains("Algorithm:") && !text.contains("SHA256:"),
        "{text}"
    );
    assert!(text.contains("--passphrase-file"), "{text}");
    let text = ok(&["--passphrase-file", &pass, "key", "show", &e]).text();
    assert!(text.contains("Algorithm:   SLH-DSA-SHAKE-128f\n"), "{text}");
    assert!(text.contains(&format!("Fingerprint: {fp}\n")), "{text}");
    // Raw keys: -a names the set; round 3.1 has no pre-hash mode.
    let (rk, rp) = (d.p("r.key"), d.p("r.pub"));
    let alg = "sphincs-shake-128f-simple";
    ok(&["keygen", "-a", alg, "-o", &rk, "--pub", &rp]);
    let text = show(&["-a", alg, &rk]);
    assert!(
        text.contains("Contents:    private key, raw (64 bytes), not encrypted\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!("Fingerprint: {}\n", fingerprint_of_raw(alg, &rp))),
        "{text}"
    );
    assert!(show(&["-a", alg, &rp]).contains("Contents:    public key, raw (32 bytes)\n"));
    sphincs(&["key", "show", &rk]).usage_error("-a ALG");
    sphincs(&["key", "show", "-a", "sha2-128f", &k])
        .usage_error("is an SLH-DSA-SHAKE-128f key, but -a says SLH-DSA-SHA2-128f");
    // A draft SP 800-230 private key: the state of KEY.tree (a real cache
    // is checked in sp800_230.rs, where a key is made).
    let raw = d.write("l.key", &[7u8; 64]);
    let text = show(&["-a", "sha2-128-24", &raw]);
    assert!(
        text.contains(&format!("Tree cache:  absent ({raw}.tree)")),
        "{text}"
    );
    // Its fingerprint: SHA-256 over the set's name, a zero byte and the
    // public half (the last 32 bytes), computed here with sha2.
    let mut input = b"SLH-DSA-SHA2-128-24\0".to_vec();
    input.extend_from_slice(&[7u8; 32]);
    let want: String = <sha2::Sha256 as sha2::Digest>::digest(&input)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(
        text.contains(&format!("Fingerprint: SHA256:{want}\n")),
        "{text}"
    );
    d.write("l.key.tree", b"not a cache");
    let text = show(&["-a", "sha2-128-24", &raw]);
    assert!(
        text.contains("Tree cache:  present but not usable: "),
        "{text}"
    );
}

/// A passphrase file, mode 0600 (else each run warns that others can read it).
fn secret(d: &Scratch, name: &str, data: &[u8]) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = d.write(name, data);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    path
}

fn fingerprint_of_raw(alg: &str, key: &str) -> String {
    fingerprint(&["-a", alg, key])
}

#[test]
fn key_passwd_changes_the_passphrase_in_place() {
    use std::os::unix::fs::PermissionsExt;
    let d = Scratch::new("passwd");
    let k = d.p("k.pem");
    ok(&["keygen", "-a", "sha2-128f", "-o", &k]);
    let (old, new) = (
        secret(&d, "old", b"old pass\n"),
        secret(&d, "new", b"new pass\n"),
    );
    // `key passwd KEY` from the passphrase in file `old` to the one in `new`.
    let passwd = |old: &str, key: &str, new: &str| {
        format!("--passphrase-file {old} key passwd {key} --new-passphrase-file {new}")
    };
    for (name, der) in [("e.pem", false), ("e.der", true)] {
        let e = d.p(name);
        let mut args = vec!["--passphrase-file", &old, "key", "encrypt", &k, "-o", &e];
        if der {
            args.push("--der");
        }
        ok(&args);
        fs::set_permissions(&e, fs::Permissions::from_mode(0o640)).unwrap();
        let before = fs::read(&e).unwrap();
        let out = run(&passwd(&old, &e, &new)).ok();
        assert_eq!(out.text(), format!("{e}: passphrase changed\n"));
        let after = fs::read(&e).unwrap();
        assert_ne!(before, after);
        assert_eq!(after.starts_with(b"-----BEGIN"), !der, "the format is kept");
        assert_eq!(
            fs::metadata(&e).unwrap().permissions().mode() & 0o777,
            0o640,
            "the permissions are kept"
        );
        // The old passphrase no longer opens it; the new one does.
        sphincs(&["--passphrase-file", &old, "key", "show", &e]).usage_error("wrong passphrase");
        let text = ok(&["--passphrase-file", &new, "key", "show", &e]).text();
        assert!(text.contains("SLH-DSA-SHA2-128f"), "{text}");
    }
    let e = d.p("e.pem");
    // Both passphrases on one descriptor: the old on the first line, the new on the second.
    let out = common::sphincs_in(
        &[
            "--passphrase-fd",
            "0",
            "key",
            "passwd",
            &e,
            "--new-passphrase-fd",
            "0",
        ],
        Some(b"new pass\nthird pass\n"),
    );
    out.ok();
    let third = secret(&d, "third", b"third pass\n");
    ok(&["--passphrase-file", &third, "key", "show", &e]);
    // Refusals leave the file as it was: a wrong old passphrase, the same
    // passphrase again, a key without one, no new passphrase source.
    let before = fs::read(&e).unwrap();
    for (line, needle) in [
        (passwd(&old, &e, &new), "wrong passphrase"),
        (
            passwd(&third, &e, &third),
            "the new passphrase is the old one",
        ),
        (
            format!("--passphrase-file {third} key passwd {e}"),
            "--new-passphrase-file FILE or --new-passphrase-fd N",
        ),
        (passwd(&old, &k, &new), "is not encrypted"),
    ] {
        run(&line).usage_error(needle);
        assert_eq!(fs::read(&e).unwrap(), before);
    }
    // Through a symlink: the key it names is replaced, the link stays.
    let link = d.p("link.pem");
    std::os::unix::fs::symlink(&e, &link).unwrap();
    run(&passwd(&third, &link, &new)).ok();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    ok(&["--passphrase-file", &new, "key", "show", &e]);
    // No temporary file is left behind.
    assert!(
        d.names().iter().all(|n| !n.ends_with(".tmp")),
        "{:?}",
        d.names()
    );
}

#[test]
fn a_raw_key_under_another_set_names_both_sets() {
    let d = Scratch::new("wrong-set");
    let (k, p) = (d.p("k.key"), d.p("k.pub"));
    // Round-3.1 SHAKE simple and SLH-DSA-SHAKE make the same keys.
    keygen("sphincs-shake-128f-simple", &k, &p);
    let m = d.write("m", b"message");
    for (asked, shown) in [
        ("sha2-128f", "SLH-DSA-SHA2-128f"),
        ("sphincs-shake-128f-robust", "sphincs-shake-128f-robust"),
    ] {
        let out = sphincs(&["sign", "-a", asked, "-k", &k, "-o", &d.p("m.sig"), &m]).usage_error(
            "is a key of SLH-DSA-SHAKE-128f or sphincs-shake-128f-simple, but -a says ",
        );
        assert!(
            out.stderr.contains(&format!("-a says {shown} (")),
            "{}",
            out.stderr
        );
        assert!(!out.stderr.contains("key pair mismatch"), "{}", out.stderr);
        assert!(!d.path("m.sig").exists());
    }
    // A key that no set makes whole is still a key pair mismatch.
    let broken = d.write("broken.key", &[1u8; 64]);
    let out = d.p("m.sig");
    run(&format!("sign -a sha2-128f -k {broken} -o {out} {m}")).usage_error("key pair mismatch");
}

#[test]
fn batch_verify_skips_signature_files_among_its_inputs() {
    let d = Scratch::new("skip-sigs");
    let (k, p) = key_pair(&d, "shake-128f");
    fs::create_dir(d.path("dist")).unwrap();
    let (a, b) = (d.write("dist/a", b"a"), d.write("dist/b", b"b"));
    ok(&["sign", "-q", "-k", &k, &a, &b]);
    let (a_sig, b_sig) = (format!("{a}.sig"), format!("{b}.sig"));
    // `verify dist/*`: a, a.sig, b, b.sig.
    let out = ok(&["verify", "-p", &p, &a, &a_sig, &b, &b_sig]);
    assert_eq!(
        out.text(),
        format!("{a}: valid signature\n{b}: valid signature\n")
    );
    assert!(
        out.stderr
            .contains("skipped 2 inputs that are the signature files of other inputs"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("sig.sig"), "{}", out.stderr);
    // -q: no note.
    assert_eq!(ok(&["-q", "verify", "-p", &p, &a, &a_sig]).stderr, "");
    // A .sig file whose message is not among the inputs is a message.
    let lone = d.write("lone.sig", b"not a signature file here");
    let out = sphincs(&["verify", "-p", &p, &a, &lone]).code(2);
    assert!(
        out.text()
            .starts_with(&format!("{a}: valid signature\n{lone}: error: ")),
        "{}",
        out.text()
    );
    // With -s (one file), nothing is skipped.
    sphincs(&["verify", "-p", &p, "-s", &a_sig, &a_sig]).code(1);
}

#[test]
fn cert_self_signed_and_key_encrypt_say_what_they_wrote() {
    let d = Scratch::new("confirm");
    let k = d.p("k.pem");
    ok(&["keygen", "-q", "-a", "shake-128f", "-o", &k]);
    let c = d.p("c.pem");
    let out = self_signed(&k, &c, false);
    assert_eq!(out.text(), format!("{k}: self-signed certificate, {c}\n"));
    let pass = secret(&d, "pass", b"pw\n");
    let e = d.p("e.pem");
    let out = ok(&["--passphrase-file", &pass, "key", "encrypt", &k, "-o", &e]);
    assert_eq!(out.text(), format!("{k}: encrypted, {e}\n"));
    let plain = d.p("plain.pem");
    let out = ok(&[
        "--passphrase-file",
        &pass,
        "key",
        "decrypt",
        &e,
        "-o",
        &plain,
    ]);
    assert_eq!(out.text(), format!("{e}: decrypted, {plain}\n"));
    // -q silences them; a certificate on standard output is data alone.
    let out = ok(&[
        "-q",
        "cert",
        "self-signed",
        "-k",
        &k,
        "--subject",
        "CN=x",
        "-o",
        &d.p("q.pem"),
    ]);
    assert_eq!(out.text(), "");
    let out = ok(&["cert", "self-signed", "-k", &k, "--subject", "CN=x"]);
    assert!(out.text().starts_with("-----BEGIN CERTIFICATE-----"));
    assert!(out.text().trim_end().ends_with("-----END CERTIFICATE-----"));
}

/// After a key rotation: an invalid signature says whether the key or the
/// data is the likely cause where that can be told — by the other files
/// checked with the same key, or for one file by its and its signature's
/// modification times.
#[test]
fn an_invalid_signature_names_its_likely_cause() {
    let d = Scratch::new("likely-cause");
    let (old_key, old_pub) = (d.p("old.pem"), d.p("old.pub"));
    keygen("SLH-DSA-SHA2-128f", &old_key, &old_pub);
    let (_, new_pub) = key_pair(&d, "SLH-DSA-SHA2-128f");
    let (a, b) = (d.write("a.txt", b"a\n"), d.write("b.txt", b"b\n"));
    ok(&["sign", "-q", "-k", &old_key, &a, &b]);

    // Signed before the rotation, checked with the new key: every file fails.
    sphincs(&["verify", "-p", &new_pub, &a, &b])
        .code(1)
        .one_line("none verifies with this key, so a key other than the signing one");
    // One file, not changed since it was signed: nothing can be told (it
    // may be another file than the one signed), so nothing is guessed.
    let out = sphincs(&["verify", "-p", &new_pub, &a]).code(1);
    assert_eq!(out.stderr, "sphincs: invalid signature: 1 of 1 files\n");
    let out = sphincs(&["verify", "-p", &new_pub, "-s", &format!("{a}.sig"), &a]).code(1);
    assert_eq!(out.stderr, "sphincs: invalid signature\n");

    // The right key, and one file changed after it was signed.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    fs::write(&b, b"b, changed\n").unwrap();
    fs::File::options()
        .write(true)
        .open(&b)
        .unwrap()
        .set_modified(later)
        .unwrap();
    sphincs(&["verify", "-p", &old_pub, &b])
        .invalid("was changed after")
        .one_line("a change to the data is the likely cause");
    sphincs(&["verify", "-p", &old_pub, &a, &b])
        .code(1)
        .one_line("1 of 2 verify with this key, so the data (or the signature file) of the rest, not the key, is the likely cause");
}
