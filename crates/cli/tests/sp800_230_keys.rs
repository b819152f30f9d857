//! The draft SP 800-230 sets' keys where no key generation is needed (any
//! 4n bytes are a raw secret key, any 2n a public key): their fingerprint,
//! `list`'s signature budget and cost columns, and the refusals of the
//! encrypted format that come before any tree is computed. The key made
//! once, encrypted, signed with and decrypted is in sp800_230.rs.

mod common;

use common::{run, sphincs, Scratch};

/// `SHA256:` and the hex SHA-256 of `input`, computed here with sha2.
fn sha256(input: &[u8]) -> String {
    let digest = <sha2::Sha256 as sha2::Digest>::digest(input);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("SHA256:{hex}")
}

#[test]
fn fingerprint_is_over_the_set_name_and_raw_key() {
    let s = Scratch::new("fp");
    for (set, name, n) in [
        ("sha2-128-24", "SLH-DSA-SHA2-128-24", 16),
        ("shake-192-24", "SLH-DSA-SHAKE-192-24", 24),
        ("sha2-256-24", "SLH-DSA-SHA2-256-24", 32),
    ] {
        let pk: Vec<u8> = (0..2 * n).map(|i| (i * 7 + 1) as u8).collect();
        let path = s.write("k.pub", &pk);
        let mut input = name.as_bytes().to_vec();
        input.push(0);
        input.extend_from_slice(&pk);
        let want = format!("{}  {path}\n", sha256(&input));
        assert_eq!(
            sphincs(&["fingerprint", "-a", set, &path]).ok().text(),
            want
        );
        // `key show` of the public key says the same.
        let shown = sphincs(&["key", "show", "-a", set, &path]).ok().text();
        assert!(
            shown.contains(&format!("Fingerprint: {}\n", sha256(&input))),
            "{shown}"
        );
    }
    // The same 32 bytes as a round-3.1 key (digest over the raw key alone),
    // a FIPS 205 key (over its SPKI DER) and the SHAKE twin: four keys, four
    // fingerprints.
    let pk = s.write("same.pub", &[5u8; 32]);
    let mut seen: Vec<String> = [
        "sha2-128-24",
        "shake-128-24",
        "sphincs-sha2-128s-simple",
        "sha2-128s",
    ]
    .iter()
    .map(|set| sphincs(&["fingerprint", "-a", set, &pk]).ok().text())
    .collect();
    assert_eq!(seen[2], format!("{}  {pk}\n", sha256(&[5u8; 32])));
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 4, "{seen:?}");
}

#[test]
fn list_shows_the_budget_and_cost_of_each_set() {
    let text = sphincs(&["list"]).ok().text();
    let header = text.lines().next().unwrap();
    assert!(
        header.contains(" MAX SIGS ") && header.contains("COST (ONE THREAD)"),
        "{header}"
    );
    let line = |set: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(set))
            .unwrap_or_else(|| panic!("{set} in {text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    for set in [
        "SHA2-128-24",
        "SHA2-192-24",
        "SHA2-256-24",
        "SHAKE-128-24",
        "SHAKE-192-24",
        "SHAKE-256-24",
    ] {
        let l = line(&format!("SLH-DSA-{set}"));
        assert!(l.contains(" 2^24 limited: keygen ~"), "{l}");
        assert!(l.contains(" s, sign ~"), "{l}");
    }
    // The figures are BENCHMARKS.md's, rounded: SHA2-128-24's keygen took
    // 33.8 s and its signature 8.42 s of CPU on one thread.
    assert!(line("SLH-DSA-SHA2-128-24").contains("keygen ~35 s, sign ~8 s"));
    assert!(line("SLH-DSA-SHA2-128s").contains(" - small: sign ~0.1 s "));
    assert!(line("SLH-DSA-SHAKE-256f").contains(" - fast: sign ms "));
    assert!(line("sphincs-haraka-192s-robust").contains(" - small: sign ~0.1 s "));
    assert!(line("sphincs-256").contains(" - fast: sign ms "));
    assert!(
        text.contains("MAX SIGS: signatures one key may make"),
        "{text}"
    );
    // Where a set is chosen: keygen's and sign's help give the times too.
    let help = sphincs(&["keygen", "--help"]).ok().text();
    assert!(help.contains("Their keygen took 31-74 s of CPU"), "{help}");
    let help = sphincs(&["sign", "--help"]).ok().text();
    assert!(help.contains("8-78 s of CPU on one thread"), "{help}");
}

#[test]
fn encryption_refusals_come_before_any_tree_work() {
    let s = Scratch::new("enc-refusals");
    let key = s.write("k.key", &[7u8; 64]);
    let pass = s.write("pass", b"pw\n");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&pass, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let start = std::time::Instant::now();
    // DER would carry no label to tell it from a standard key.
    sphincs(&[
        "keygen",
        "-a",
        "sha2-128-24",
        "--encrypt",
        "--der",
        "-o",
        &s.p("n.key"),
    ])
    .usage_error("--der");
    sphincs(&[
        "--passphrase-file",
        &pass,
        "key",
        "encrypt",
        "-a",
        "sha2-128-24",
        "--der",
        &key,
        "-o",
        &s.p("e.key"),
    ])
    .usage_error("PEM only");
    // A raw key is not encrypted; an encrypted one is not encrypted twice.
    sphincs(&[
        "key",
        "decrypt",
        "-a",
        "sha2-128-24",
        &key,
        "-o",
        &s.p("d.key"),
    ])
    .usage_error("is not encrypted");
    let fake = s.write_pem(
        "fake.key",
        "SPHINCS DRAFT SP 800 230 ENCRYPTED PRIVATE KEY",
        "MAA=",
    );
    sphincs(&[
        "key",
        "encrypt",
        "-a",
        "sha2-128-24",
        &fake,
        "-o",
        &s.p("e.key"),
    ])
    .usage_error("already encrypted");
    // A damaged one is an error naming the file, not a panic.
    sphincs(&[
        "--passphrase-file",
        &pass,
        "key",
        "decrypt",
        &fake,
        "-o",
        &s.p("d.key"),
    ])
    .usage_error("fake.key");
    // -a for a PEM or DER key, which names its own set.
    sphincs(&["keygen", "-a", "sha2-128f", "-o", &s.p("f.key")]).ok();
    let (f, e) = (s.p("f.key"), s.p("e.key"));
    run(&format!("key encrypt -a sha2-128f {f} -o {e}"))
        .usage_error("-a names the set of a raw draft SP 800-230 key");
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    for f in ["n.key", "e.key", "d.key", "n.key.tree", "e.key.tree"] {
        assert!(!s.path(f).exists(), "{f}");
    }
}
