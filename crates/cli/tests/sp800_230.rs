//! The draft SP 800-230 sets on the command line: one key of the lightest
//! set (SLH-DSA-SHA2-128-24: the key generation computes its 2^22-leaf tree,
//! about a minute of CPU), made once and encrypted, its tree cache, its
//! fingerprint, signing with it encrypted and decrypted, a changed
//! passphrase, verification, and a damaged cache refused without harm.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use common::{first_stderr_line, sphincs, Scratch};

const SET: &str = "sha2-128-24";
const LABEL: &str = "-----BEGIN SPHINCS DRAFT SP 800 230 ENCRYPTED PRIVATE KEY-----\n";

/// `SHA256:` and the hex SHA-256 of the set's name, a zero byte and the
/// raw public key: the fingerprint docs/sp800-230.md defines, computed here.
fn fingerprint(name: &str, pk: &[u8]) -> String {
    let mut input = name.as_bytes().to_vec();
    input.push(0);
    input.extend_from_slice(pk);
    let digest = <sha2::Sha256 as sha2::Digest>::digest(&input);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("SHA256:{hex}")
}

#[test]
fn keygen_sign_verify_and_the_tree_cache() {
    let s = Scratch::new("sp800-230");
    let (k, pubk, doc, sig) = (s.p("k.key"), s.p("k.pub"), s.p("doc"), s.p("doc.sig"));
    s.write("doc", b"firmware image");
    let pass = s.write("pass", b"correct horse\n");
    let new_pass = s.write("new-pass", b"battery staple\n");
    for f in [&pass, &new_pass] {
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let with = |file: &str, args: &[&str]| {
        let mut all = vec!["--passphrase-file", file];
        all.extend_from_slice(args);
        sphincs(&all)
    };

    // The one key generation, encrypted: the library's own PEM (not an
    // "ENCRYPTED PRIVATE KEY"), its public key, its cache, its fingerprint.
    let locked = s.p("locked.key");
    let args = [
        "keygen",
        "-a",
        SET,
        "--encrypt",
        "-o",
        &locked,
        "--pub",
        &pubk,
    ];
    let out = with(&pass, &args).ok();
    assert!(out.stderr.contains("2^24 signatures"), "{}", out.stderr);
    let pem = String::from_utf8(s.read("locked.key")).unwrap();
    assert!(pem.starts_with(LABEL), "{pem}");
    let mode = std::fs::metadata(&locked).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(s.read("k.pub").len(), 32);
    let cache = s.read("locked.key.tree");
    assert!(!cache.is_empty(), "keygen writes KEY.tree");
    let fp = fingerprint("SLH-DSA-SHA2-128-24", &s.read("k.pub"));
    assert_eq!(out.text(), format!("{fp}  {locked}\n"));
    let printed = sphincs(&["fingerprint", "-a", SET, &pubk]).ok().text();
    assert_eq!(printed, format!("{fp}  {pubk}\n"));
    // The same bytes as a SHAKE key are another key.
    let shake = sphincs(&["fingerprint", "-a", "shake-128-24", &pubk])
        .ok()
        .text();
    assert!(!shake.contains(&fp), "{shake}");

    // key show: without the passphrase only that it is encrypted, in a
    // format of this library's own; with it, the set, fingerprint, cache.
    let shown = sphincs(&["key", "show", &locked]).ok().text();
    assert!(
        shown.contains("private key, PEM \"SPHINCS DRAFT SP 800 230 ENCRYPTED PRIVATE KEY\""),
        "{shown}"
    );
    assert!(shown.contains("not PKCS#8"), "{shown}");
    assert!(shown.contains(", encrypted\n"), "{shown}");
    let shown = with(&pass, &["key", "show", &locked]).ok().text();
    assert!(
        shown.contains("Algorithm:   SLH-DSA-SHA2-128-24\n"),
        "{shown}"
    );
    assert!(shown.contains(&format!("Fingerprint: {fp}\n")), "{shown}");
    assert!(
        shown.contains(&format!(
            "Tree cache:  present ({locked}.tree), matches the key\n"
        )),
        "{shown}"
    );

    // Signing with the encrypted key decrypts it and signs from its cache.
    let locked_sig = s.p("locked.sig");
    let out = with(&pass, &["sign", "-k", &locked, &doc, "-o", &locked_sig]).ok();
    assert!(!out.stderr.contains("recomputing"), "{}", out.stderr);
    sphincs(&["verify", "-a", SET, "-p", &pubk, "-s", &locked_sig, &doc]).ok();
    with(
        &new_pass,
        &["sign", "-k", &locked, &doc, "-o", &s.p("no.sig")],
    )
    .usage_error("passphrase");
    assert!(!s.path("no.sig").exists());

    // A new passphrase, in place; the old one no longer opens the key, the
    // new one does (and its cache still matches).
    let out = with(
        &pass,
        &["key", "passwd", &locked, "--new-passphrase-file", &new_pass],
    )
    .ok();
    assert!(out.text().contains("passphrase changed"), "{}", out.text());
    assert!(String::from_utf8(s.read("locked.key"))
        .unwrap()
        .starts_with(LABEL));
    with(&pass, &["key", "show", &locked]).usage_error("passphrase");
    let shown = with(&new_pass, &["key", "show", &locked]).ok().text();
    assert!(shown.contains("matches the key\n"), "{shown}");

    // Decrypted: the raw key (64 bytes) and its cache beside it; encrypted
    // again from raw bytes (-a names the set), the cache follows too, and
    // decrypting that gives the same key back.
    with(&new_pass, &["key", "decrypt", &locked, "-o", &k]).ok();
    assert_eq!(s.read("k.key").len(), 64);
    assert_eq!(s.read("k.key.tree"), cache);
    let again = s.p("again.key");
    sphincs(&["key", "encrypt", "-a", SET, "--der", &k, "-o", &again]).usage_error("PEM only");
    with(&pass, &["key", "encrypt", "-a", SET, &k, "-o", &again]).ok();
    assert!(String::from_utf8(s.read("again.key"))
        .unwrap()
        .starts_with(LABEL));
    assert_eq!(s.read("again.key.tree"), cache);
    with(&pass, &["key", "decrypt", &again, "-o", &s.p("back.key")]).ok();
    assert_eq!(s.read("back.key"), s.read("k.key"));
    // `key show` finds the cache and the core accepts it for this key.
    let shown = sphincs(&["key", "show", "-a", SET, &k]).ok().text();
    assert!(
        shown.contains(&format!(
            "Tree cache:  present ({k}.tree), matches the key\n"
        )),
        "{shown}"
    );

    // Signing uses the cache (no "recomputing" notice) and writes FILE.sig.
    let out = sphincs(&["sign", "-a", SET, "-k", &k, &doc]).ok();
    assert!(!out.stderr.contains("recomputing"), "{}", out.stderr);
    assert_eq!(s.read("doc.sig").len(), 3856);
    sphincs(&["verify", "-a", SET, "-p", &pubk, "-s", &sig, &doc]).ok();
    // Another message under the same signature: invalid (exit 1).
    s.write("other", b"firmware imagf");
    sphincs(&["verify", "-a", SET, "-p", &pubk, "-s", &sig, &s.p("other")]).code(1);

    // A damaged cache (its last byte, part of the checksum, flipped) is
    // refused by the core's checks before any signing: the message says so. The recomputation that follows is not waited for here
    // (the robustness tests stop it the same way); the cache file is left as
    // it was.
    let mut bad = cache.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    s.write("k.key.tree", &bad);
    let args = ["sign", "-a", SET, "-k", &k, &doc, "-o", &s.p("x.sig")];
    let (line, _) = first_stderr_line(&args, Duration::from_secs(10));
    let line = line.expect("a line on standard error within 10 s");
    assert!(line.contains("not using it"), "{line}");
    assert!(!s.path("x.sig").exists());
    assert!(
        !line.contains("malformed key"),
        "the key is not at fault: {line}"
    );

    // Waited for, the recomputation replaces the damaged cache (it was once
    // refused as "the same file as the input", so every later signature
    // recomputed the tree), and the next signature uses the cache again.
    let out = sphincs(&args).ok();
    assert!(
        out.stderr.contains("wrote a fresh tree cache"),
        "{}",
        out.stderr
    );
    assert_eq!(s.read("k.key.tree"), cache);
    let out = sphincs(&["sign", "-a", SET, "-k", &k, &doc, "-o", &s.p("y.sig")]).ok();
    assert!(!out.stderr.contains("recomputing"), "{}", out.stderr);

    // A key whose SK.seed is damaged, beside its (valid) cache: the cache
    // checks against PK.root, and one subtree recomputed from SK.seed shows
    // the key is not the cache's; pubkey fails at once (it exited 0).
    let mut bad_key = s.read("k.key");
    bad_key[0] ^= 1;
    let bad = s.write("bad.key", &bad_key);
    s.write("bad.key.tree", &cache);
    let start = std::time::Instant::now();
    sphincs(&["pubkey", "-a", SET, &bad]).usage_error("mismatch");
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(s.read("bad.key.tree"), cache);

    // A FIFO at KEY.tree would block the read forever, a symlink to
    // /dev/zero never end: neither is opened as a cache, at once.
    let tree = s.path("k.key.tree");
    std::fs::remove_file(&tree).unwrap();
    std::fs::remove_file(s.path("x.sig")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&tree)
        .status()
        .unwrap();
    assert!(made.success());
    let (line, _) = first_stderr_line(&args, Duration::from_secs(10));
    let line = line.expect("a line on standard error within 10 s, not a read blocked on the FIFO");
    assert!(line.contains("is not a regular file"), "{line}");
    std::fs::remove_file(&tree).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &tree).unwrap();
    let (line, _) = first_stderr_line(&args, Duration::from_secs(10));
    let line = line.expect("a line on standard error within 10 s");
    assert!(line.contains("is not a regular file"), "{line}");
}
