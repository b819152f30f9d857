//! The draft SP 800-230 sets on the command line: one key of the lightest
//! set (SLH-DSA-SHA2-128-24: the key generation computes its 2^22-leaf tree,
//! about a minute of CPU), its tree cache, signing with it, verification,
//! and a damaged cache refused without harm.

mod common;

use std::time::Duration;

use common::{first_stderr_line, sphincs, Scratch};

const SET: &str = "sha2-128-24";

#[test]
fn keygen_sign_verify_and_the_tree_cache() {
    let s = Scratch::new("sp800-230");
    let (k, pubk, doc, sig) = (s.p("k.key"), s.p("k.pub"), s.p("doc"), s.p("doc.sig"));
    s.write("doc", b"firmware image");
    let out = sphincs(&["keygen", "-a", SET, "-o", &k, "--pub", &pubk]).ok();
    assert!(out.stderr.contains("2^24 signatures"), "{}", out.stderr);
    assert_eq!(s.read("k.key").len(), 64);
    assert_eq!(s.read("k.pub").len(), 32);
    let cache = s.read("k.key.tree");
    assert!(!cache.is_empty(), "keygen writes KEY.tree");
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
