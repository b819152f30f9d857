//! OpenPGP keys after their first day, through the CLI (issue 49): a pin
//! that pins over a keyring, expired keys at git's and `verify`'s clock, a
//! subkey bounded by its primary, `sop revoke-key`, `key expire`,
//! `add-subkey`, `retire-subkey` and `revoke`, User IDs escaped wherever
//! they are printed (once in git's status lines), SOP's exit codes for bad
//! dates and keys that cannot sign. Keys with a past are made with the
//! core library (the CLI signs only at this machine's clock).

mod common;
use common::{sphincs, Scratch};

use sphincs::openpgp::{self, armor, Cert, DetachedSigner, Mode, UnlockedKey};
use std::process::Command;

const DAY: u64 = 86_400;

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn key_made(days_ago: u64, uids: &[&str]) -> Cert {
    let uids: Vec<String> = uids.iter().map(|u| u.to_string()).collect();
    let created = (now() - days_ago * DAY) as u32;
    openpgp::generate("SLH-DSA-SHAKE-128f".parse().unwrap(), &uids, created, None).unwrap()
}

/// Sets a file's permission bits.
fn chmod(path: &str, mode: u32) {
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
}

fn write_key(s: &Scratch, name: &str, c: &Cert) -> String {
    let text = armor::encode(armor::Kind::PrivateKey, &c.to_bytes(true));
    let p = s.write(name, text.as_bytes());
    chmod(&p, 0o600);
    p
}

/// A key made by `sop generate-key USERID`, written as `name` with mode
/// 0600: its bytes and its path.
fn sop_key(s: &Scratch, name: &str, uid: &str) -> (Vec<u8>, String) {
    let (code, key, err) = sop(s, &["generate-key", uid], b"");
    assert_eq!(code, 0, "{err}");
    let path = s.write(name, &key);
    chmod(&path, 0o600);
    (key, path)
}

fn write_cert(s: &Scratch, name: &str, c: &Cert) -> String {
    s.write(
        name,
        armor::encode(armor::Kind::PublicKey, &c.to_bytes(false)).as_bytes(),
    )
}

/// An armored detached signature over `data` by `key`'s signing key (the
/// primary, or the `sub`th subkey), dated `created`.
fn sign_dated(c: &Cert, sub: Option<usize>, data: &[u8], created: u64) -> Vec<u8> {
    let (public, secret, tag) = match sub {
        None => (
            &c.primary.public,
            c.primary.secret.as_ref(),
            openpgp::packet::tag::SECRET_KEY,
        ),
        Some(i) => (
            &c.subkeys[i].key.public,
            c.subkeys[i].key.secret.as_ref(),
            openpgp::packet::tag::SECRET_SUBKEY,
        ),
    };
    let key = secret.unwrap().signing_key(tag, &[]).unwrap();
    let mut s = DetachedSigner::new(
        vec![UnlockedKey {
            public: public.clone(),
            key: Box::new(key),
        }],
        Mode::Binary,
        created as u32,
    )
    .unwrap();
    s.update(data);
    let sigs = s.finish(1).unwrap();
    armor::encode(armor::Kind::Signature, &openpgp::signatures_to_bytes(&sigs)).into_bytes()
}

fn sop(s: &Scratch, args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    common::sop_in(s, args, stdin)
}

/// `sphincs --status-fd=1 --verify SIG -` as git runs it, trusting `trust`.
fn git_verify(s: &Scratch, sig: &str, payload: &[u8], trust: &str) -> (i32, String, String) {
    let args = ["--status-fd=1", "--verify", sig, "-"];
    let (code, out, err) = common::as_git(s, &args, payload, &[("sphincs.openpgpTrust", trust)]);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

fn git_present() -> bool {
    Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_fingerprint_pin_restricts_which_certificate_of_a_keyring_may_sign() {
    let s = Scratch::new("pin");
    let alice = key_made(1, &["Alice <alice@example.org>"]);
    let bob = key_made(1, &["Bob <bob@example.org>"]);
    let bob_key = write_key(&s, "bob.key", &bob);
    // ring.asc: Alice's and Bob's certificates, concatenated armor.
    let ring = format!(
        "{}{}",
        armor::encode(armor::Kind::PublicKey, &alice.to_bytes(false)),
        armor::encode(armor::Kind::PublicKey, &bob.to_bytes(false))
    );
    let ring = s.write("ring.asc", ring.as_bytes());
    let file = s.write("release.tar", b"release");
    sphincs(&["sign", "-k", &bob_key, &file]).ok();
    let pin_alice = format!("openpgp4fpr:{}", alice.fingerprint());
    // A binary keyring (read whole before this round too): the pin to
    // Alice must refuse Bob's signature.
    let mut bin = alice.to_bytes(false).to_vec();
    bin.extend_from_slice(&bob.to_bytes(false));
    let ring_bin = s.write("ring.bin", &bin);
    let out = sphincs(&[
        "verify",
        "-p",
        &ring_bin,
        "--fingerprint",
        &pin_alice,
        &file,
    ]);
    assert_ne!(
        out.code,
        0,
        "a pin to Alice accepted Bob's signature: {}",
        out.text()
    );
    // The keyring is read whole: Bob's signature verifies against it.
    sphincs(&["verify", "-p", &ring, &file]).ok();
    // Pinned to Alice: Bob's signature is not hers.
    let out = sphincs(&["verify", "-p", &ring, "--fingerprint", &pin_alice, &file]);
    assert_ne!(
        out.code, 0,
        "a pin to Alice accepted Bob's signature: {}",
        out.stderr
    );
    assert!(out.stderr.contains("invalid signature"), "{}", out.stderr);
    let pin_bob = format!("openpgp4fpr:{}", bob.fingerprint().to_hex().to_lowercase());
    sphincs(&["verify", "-p", &ring, "--fingerprint", &pin_bob, &file]).ok();
    // A pin no certificate has: refused before any signature is checked.
    let other = format!("openpgp4fpr:{}", "AB".repeat(32));
    let out = sphincs(&["verify", "-p", &ring, "--fingerprint", &other, &file]);
    assert_ne!(out.code, 0);
    assert!(
        out.stderr.contains("no signature was checked"),
        "{}",
        out.stderr
    );
}

#[test]
fn an_expired_key_makes_no_good_signature_by_back_dating() {
    let s = Scratch::new("backdate");
    // Made 30 days ago, expired yesterday; signs today, dated 10 days ago.
    let key = key_made(30, &["Alice <alice@example.org>"]);
    let p = openpgp::unlock_primary(&key, &[]).unwrap();
    let key = key
        .with_expiry(&p, Some(now() - DAY), (now() - 29 * DAY) as u32)
        .unwrap();
    let cert = write_cert(&s, "alice.cert", &key);
    let payload = b"tree 0000\n\ncommit\n";
    let sig = s.write("c.sig", &sign_dated(&key, None, payload, now() - 10 * DAY));
    let file = s.write("c.txt", payload);
    // sphincs verify judges at this machine's clock.
    let out = sphincs(&["verify", "-p", &cert, "-s", &sig, &file]);
    assert_ne!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("expired"), "{}", out.stderr);
    // git: EXPKEYSIG (Y), never GOODSIG / TRUST_FULLY.
    if git_present() {
        let (code, status, _) = git_verify(&s, &sig, payload, &cert);
        assert_eq!(code, 1, "{status}");
        assert!(status.contains("[GNUPG:] EXPKEYSIG "), "{status}");
        assert!(
            !status.contains("GOODSIG") && !status.contains("TRUST_FULLY"),
            "{status}"
        );
    }
    // sop keeps RFC 9580's reading: the key was valid when it signed.
    let (code, out, err) = sop(&s, &["verify", "c.sig", "alice.cert"], payload);
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8_lossy(&out).contains("mode:binary"));
    // And an expired key cannot sign: KEY_CANNOT_SIGN (79).
    write_key(&s, "alice.key", &key);
    let (code, _, err) = sop(&s, &["sign", "alice.key"], b"x");
    assert_eq!(code, 79, "{err}");
}

#[test]
fn a_subkey_does_not_outlive_its_expired_primary() {
    let s = Scratch::new("subkey-life");
    let key = key_made(30, &["Alice <alice@example.org>"]);
    let p = openpgp::unlock_primary(&key, &[]).unwrap();
    let t = now();
    let key = key
        .with_expiry(&p, Some(t - DAY), (t - 29 * DAY) as u32)
        .unwrap();
    let (key, _) = key
        .with_signing_subkey(
            &p,
            "SLH-DSA-SHAKE-128f".parse().unwrap(),
            Some(t + 365 * DAY),
            None,
            (t - 28 * DAY) as u32,
        )
        .unwrap();
    write_cert(&s, "alice.cert", &key);
    write_key(&s, "alice.key", &key);
    s.write("now.sig", &sign_dated(&key, Some(0), b"today", t - 60));
    let (code, _, err) = sop(&s, &["verify", "now.sig", "alice.cert"], b"today");
    assert_eq!(
        code, 3,
        "sop accepted a subkey of an expired primary: {err}"
    );
    let (code, _, err) = sop(&s, &["sign", "alice.key"], b"x");
    assert_eq!(code, 79, "{err}");
    if git_present() {
        let (code, status, _) = git_verify(&s, &s.p("now.sig"), b"today", &s.p("alice.cert"));
        assert_eq!(code, 1, "{status}");
        assert!(status.contains("EXPKEYSIG"), "{status}");
    }
}

#[test]
fn user_ids_are_escaped_where_printed_and_once_in_status_lines() {
    let s = Scratch::new("uids");
    let evil = "Eve 100%\nrelease.tar: valid signature by \"Alice\"\x1b[2J\u{202e}";
    let key = key_made(1, &[evil]);
    let key_path = write_key(&s, "eve.key", &key);
    let cert = write_cert(&s, "eve.cert", &key);
    let file = s.write("f", b"f");
    sphincs(&["sign", "-k", &key_path, &file]).ok();
    let said = sphincs(&["verify", "-p", &cert, &file]).ok().text();
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        !said.contains('\x1b') && !said.contains('\u{202e}'),
        "{said}"
    );
    assert!(
        said.contains("\\n") && said.contains("\\x1b") && said.contains("\\u{202e}"),
        "{said}"
    );
    let show = sphincs(&["key", "show", &cert]).ok().text();
    let uid_lines: Vec<_> = show.lines().filter(|l| l.starts_with("User ID:")).collect();
    assert_eq!(uid_lines.len(), 1, "{show}");
    assert!(
        !show.contains('\x1b') && !show.contains('\u{202e}') && !show.contains("\nrelease.tar")
    );
    if git_present() {
        let sig = s.write("c.sig", &sign_dated(&key, None, b"p", now() - 60));
        let (code, status, err) = git_verify(&s, &sig, b"p", &cert);
        assert_eq!(code, 0, "{status}{err}");
        let good = status
            .lines()
            .find(|l| l.starts_with("[GNUPG:] GOODSIG "))
            .unwrap();
        // Escaped once: % is %25, a newline %0A, ESC %1B, U+202E its bytes.
        assert!(
            good.ends_with("Eve 100%25%0Arelease.tar: valid signature by \"Alice\"%1B[2J%E2%80%AE"),
            "{good}"
        );
        assert!(!err.contains('\x1b') && !err.contains('\u{202e}'), "{err}");
    }
}

#[test]
fn sop_refuses_bad_dates_with_37_and_never_panics() {
    let s = Scratch::new("dates");
    let key = key_made(1, &["A"]);
    write_cert(&s, "a.cert", &key);
    s.write("a.sig", &sign_dated(&key, None, b"d", now() - 60));
    for bad in [
        "--not-before=202é123",
        "--not-after=2025-11-2é",
        "--not-before=2025-11-27T0é:00:00Z",
    ] {
        let (code, _, err) = sop(&s, &["verify", bad, "a.sig", "a.cert"], b"d");
        assert_eq!(code, 37, "{bad}: {err}");
    }
}

#[test]
fn sop_revoke_key_and_the_key_verbs_live_a_keys_life() {
    let s = Scratch::new("verbs");
    let (_, key_path) = sop_key(&s, "rel.key", "Rel <rel@example.org>");
    let file = s.write("dist.tar", b"dist");
    // A revocation certificate on day one, kept apart.
    let rev = s.p("rel.rev");
    sphincs(&["key", "revoke", &key_path, "--signature-only", "-o", &rev]).ok();
    assert!(s
        .read("rel.rev")
        .starts_with(b"-----BEGIN PGP SIGNATURE-----"));
    // A signing subkey: signatures are made with it from now on.
    let said = sphincs(&["key", "add-subkey", &key_path, "--expires", "1y"])
        .ok()
        .text();
    assert!(said.contains("signing subkey openpgp4fpr:"), "{said}");
    let sub = said.split("openpgp4fpr:").nth(1).unwrap()[..64].to_string();
    let cert = sop(&s, &["extract-cert"], &s.read("rel.key")).1;
    let cert_path = s.write("rel.cert", &cert);
    sphincs(&["sign", "-k", &key_path, &file]).ok();
    let (code, out, err) = sop(&s, &["verify", "dist.tar.asc", "rel.cert"], b"dist");
    assert_eq!(code, 0, "{err}");
    assert!(
        String::from_utf8_lossy(&out).contains(&sub),
        "signed by the subkey"
    );
    sphincs(&["verify", "-p", &cert_path, &file]).ok();
    let show = sphincs(&["key", "show", &cert_path]).ok().text();
    assert!(
        show.contains(&format!("openpgp4fpr:{sub} (signs: yes")),
        "{show}"
    );
    // Expiry: set, then shown.
    sphincs(&["key", "expire", &key_path, "2y"]).ok();
    let show = sphincs(&["key", "show", &key_path]).ok().text();
    assert!(!show.contains("Expires:     never"), "{show}");
    sphincs(&["key", "expire", &key_path, "never"]).ok();
    assert!(sphincs(&["key", "show", &key_path])
        .ok()
        .text()
        .contains("Expires:     never"));
    assert_ne!(sphincs(&["key", "expire", &key_path, "yesterday"]).code, 0);
    // Retiring the subkey: signing falls back to the primary key.
    sphincs(&[
        "key",
        "retire-subkey",
        &key_path,
        &format!("openpgp4fpr:{sub}"),
    ])
    .ok();
    let file2 = s.write("dist2.tar", b"dist2");
    sphincs(&["sign", "-k", &key_path, &file2]).ok();
    let cert2 = sop(&s, &["extract-cert"], &s.read("rel.key")).1;
    s.write("rel2.cert", &cert2);
    let (code, out, err) = sop(&s, &["verify", "dist2.tar.asc", "rel2.cert"], b"dist2");
    assert_eq!(code, 0, "{err}");
    assert!(!String::from_utf8_lossy(&out).contains(&sub));
    // sop revoke-key: the revoked certificate; nothing verifies with it.
    let (code, revoked, err) = sop(&s, &["revoke-key"], &s.read("rel.key"));
    assert_eq!(code, 0, "{err}");
    s.write("revoked.cert", &revoked);
    let (code, _, _) = sop(&s, &["verify", "dist2.tar.asc", "revoked.cert"], b"dist2");
    assert_eq!(code, 3);
    let out = sphincs(&["key", "show", &s.p("revoked.cert")]).ok().text();
    assert!(out.contains("Revoked:     yes"), "{out}");
    // A certificate is not a key to revoke with.
    let (code, _, _) = sop(&s, &["revoke-key"], &cert2);
    assert_ne!(code, 0);
}

#[test]
fn passphrase_work_is_bounded_per_command_not_per_attempt() {
    let s = Scratch::new("argon2");
    s.write("pw", b"correct horse");
    let key = sop(
        &s,
        &["generate-key", "--no-armor", "--with-key-password=pw", "A"],
        b"",
    )
    .1;
    // The key's Argon2 parameters (t = 3, p = 4, 2^16 KiB) raised to the
    // per-derivation maxima (t = 16, 2^21 KiB): 2 GiB × 16 passes.
    let at = (0..key.len() - 20)
        .find(|&i| key[i] == 4 && key[i + 17..i + 20] == [3, 4, 16])
        .expect("the S2K specifier");
    let mut hostile = key.clone();
    hostile[at + 17..at + 20].copy_from_slice(&[16, 4, 21]);
    s.write("hostile.key", &hostile);
    let t = std::time::Instant::now();
    let (code, _, err) = sop(
        &s,
        &[
            "sign",
            "--with-key-password=pw",
            "--with-key-password=pw",
            "hostile.key",
        ],
        b"x",
    );
    assert_ne!(code, 0);
    assert!(err.contains("Argon2 work refused"), "{err}");
    assert!(
        t.elapsed().as_secs() < 10,
        "refused before the work: {:?}",
        t.elapsed()
    );
    // The key as made still unlocks (and its subkeys would, within the budget).
    s.write("good.key", &key);
    let (code, _, err) = sop(&s, &["sign", "--with-key-password=pw", "good.key"], b"x");
    assert_eq!(code, 0, "{err}");
}

#[test]
fn everyday_verbs_skip_asc_inputs_check_cleartext_and_warn_of_open_keys() {
    let s = Scratch::new("everyday");
    let key = sop(&s, &["generate-key", "Rel <rel@example.org>"], b"").1;
    let key_path = s.write("rel.key", &key);
    // Unprotected and readable by others: signing warns, as for PEM keys.
    chmod(&key_path, 0o644);
    let a = s.write("a.tar", b"a");
    let b = s.write("b.tar", b"b");
    let out = sphincs(&["sign", "-k", &key_path, &a, &b]).ok();
    assert!(
        out.stderr.contains("readable by") && out.stderr.contains("OpenPGP secret key"),
        "{}",
        out.stderr
    );
    chmod(&key_path, 0o600);
    assert!(!sphincs(&["sign", "-k", &key_path, "--force", &a])
        .ok()
        .stderr
        .contains("readable by"));
    let cert = sop(&s, &["extract-cert"], &key).1;
    let cert_path = s.write("rel.cert", &cert);
    // `verify -p CERT dist/*`: the .asc files are skipped, not checked.
    let (aa, ba) = (s.p("a.tar.asc"), s.p("b.tar.asc"));
    let out = sphincs(&["verify", "-p", &cert_path, &a, &aa, &b, &ba]).ok();
    assert!(
        out.stderr
            .contains("skipped 2 inputs that are the signature files"),
        "{}",
        out.stderr
    );
    assert_eq!(out.text().lines().count(), 2, "{}", out.text());
    // A cleartext-signed SHA256SUMS.asc: checked, its text written out.
    let sums = "0123abcd  a.tar\n4567ef01  b.tar\n";
    let signed = sop(
        &s,
        &["inline-sign", "--as=clearsigned", "rel.key"],
        sums.as_bytes(),
    )
    .1;
    let asc = s.write("SHA256SUMS.asc", &signed);
    let text = s.p("SHA256SUMS");
    let out = sphincs(&["verify", "-p", &cert_path, &asc, "-o", &text]).ok();
    assert!(
        out.text()
            .contains("valid signature by \"Rel <rel@example.org>\""),
        "{}",
        out.text()
    );
    assert_eq!(s.read("SHA256SUMS"), sums.as_bytes());
    // -o is never replaced without --force; a changed line is invalid and
    // writes nothing.
    assert_ne!(
        sphincs(&["verify", "-p", &cert_path, &asc, "-o", &text]).code,
        0
    );
    let tampered = String::from_utf8(signed)
        .unwrap()
        .replace("4567ef01", "4567ef02");
    let bad = s.write("bad.asc", tampered.as_bytes());
    let out = sphincs(&["verify", "-p", &cert_path, &bad, "-o", &s.p("bad.txt")]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(!s.path("bad.txt").exists());
    // -o with a detached signature: refused.
    assert_ne!(
        sphincs(&["verify", "-p", &cert_path, &a, "-o", &s.p("x")]).code,
        0
    );
}

#[test]
fn a_kept_revocation_certificate_revokes_without_the_key_and_the_daily_key_cannot_change_the_key() {
    let s = Scratch::new("kept-rev");
    let (key, key_path) = sop_key(&s, "k.key", "K <k@example.org>");
    sphincs(&[
        "key",
        "revoke",
        &key_path,
        "--signature-only",
        "-o",
        &s.p("k.rev"),
    ])
    .ok();
    sphincs(&["key", "add-subkey", &key_path]).ok();
    sphincs(&["key", "export-subkeys", &key_path, "-o", &s.p("daily.key")]).ok();
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(s.path("daily.key"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    // The daily key signs, and cannot change the key's life.
    let file = s.write("f", b"f");
    sphincs(&["sign", "-k", &s.p("daily.key"), &file]).ok();
    let out = sphincs(&["key", "expire", &s.p("daily.key"), "1y"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("primary key"), "{}", out.stderr);
    let cert = sop(&s, &["extract-cert"], &key).1;
    let cert_path = s.write("k.cert", &cert);
    let cert2 = sop(&s, &["extract-cert"], &s.read("k.key")).1;
    let cert2_path = s.write("k2.cert", &cert2);
    sphincs(&["verify", "-p", &cert2_path, &file]).ok();
    // The key is lost: the kept revocation certificate is merged.
    sphincs(&[
        "key",
        "revoke",
        &cert2_path,
        "--revocation",
        &s.p("k.rev"),
        "-o",
        &s.p("revoked.cert"),
    ])
    .ok();
    let out = sphincs(&["verify", "-p", &s.p("revoked.cert"), &file]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("revoked"), "{}", out.stderr);
    // Another key's revocation is refused, and nothing is written.
    let (_, other_path) = sop_key(&s, "o.key", "O");
    sphincs(&[
        "key",
        "revoke",
        &other_path,
        "--signature-only",
        "-o",
        &s.p("o.rev"),
    ])
    .ok();
    let out = sphincs(&[
        "key",
        "revoke",
        &cert_path,
        "--revocation",
        &s.p("o.rev"),
        "-o",
        &s.p("wrong.cert"),
    ]);
    assert_ne!(out.code, 0);
    assert!(!s.path("wrong.cert").exists());
}

#[test]
fn keygen_openpgp_writes_a_private_key_with_its_expiry_and_a_revocation_certificate() {
    let s = Scratch::new("keygen");
    let (key, cert, rev) = (s.p("a.key"), s.p("a.cert"), s.p("a.rev"));
    let out = sphincs(&[
        "keygen",
        "-a",
        "SLH-DSA-SHAKE-128f",
        "--openpgp",
        "A <a@example.org>",
        "--openpgp",
        "A2",
        "--expires",
        "2030-01-01",
        "--revocation",
        &rev,
        "-o",
        &key,
        "--pub",
        &cert,
    ])
    .ok();
    assert!(
        out.text().starts_with("openpgp4fpr:") && out.text().contains("expires 2030-01-01"),
        "{}",
        out.text()
    );
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&key).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
    let show = sphincs(&["key", "show", &cert]).ok().text();
    assert!(show.contains("Expires:     2030-01-01T00:00:00Z"), "{show}");
    assert!(
        show.contains("User ID:     \"A <a@example.org>\"") && show.contains("\"A2\""),
        "{show}"
    );
    // It signs, and the revocation certificate made with it revokes it.
    let file = s.write("f", b"f");
    sphincs(&["sign", "-k", &key, &file]).ok();
    sphincs(&["verify", "-p", &cert, &file]).ok();
    sphincs(&[
        "key",
        "revoke",
        &cert,
        "--revocation",
        &rev,
        "-o",
        &s.p("revoked.cert"),
    ])
    .ok();
    assert_eq!(
        sphincs(&["verify", "-p", &s.p("revoked.cert"), &file]).code,
        1
    );
    // Never over an existing file; options of other formats refused.
    let b = s.p("b.key");
    for (alg, extra, out) in [
        ("SLH-DSA-SHAKE-128f", None, &key),
        ("SLH-DSA-SHAKE-128f", Some("--der"), &b),
        ("SLH-DSA-SHA2-128f", None, &b),
    ] {
        let mut args = vec!["keygen", "-a", alg, "--openpgp", "B", "-o", out];
        args.extend(extra);
        assert_ne!(sphincs(&args).code, 0, "{args:?}");
    }
    assert!(!s.path("b.key").exists());
}
