//! HashSLH-DSA keys from the command line: `keygen --prehash`, signing and
//! verifying in the key's mode, and the refusals RFC 9909 asks for.

mod common;
use common::{run, sphincs, Scratch};

/// (set, its bound pre-hash, last arc of its HashSLH-DSA OID), per RFC 9909.
const BOUND: [(&str, &str, u8); 12] = [
    ("SHA2-128s", "SHA2-256", 35),
    ("SHA2-128f", "SHA2-256", 36),
    ("SHA2-192s", "SHA2-512", 37),
    ("SHA2-192f", "SHA2-512", 38),
    ("SHA2-256s", "SHA2-512", 39),
    ("SHA2-256f", "SHA2-512", 40),
    ("SHAKE-128s", "SHAKE-128", 41),
    ("SHAKE-128f", "SHAKE-128", 42),
    ("SHAKE-192s", "SHAKE-256", 43),
    ("SHAKE-192f", "SHAKE-256", 44),
    ("SHAKE-256s", "SHAKE-256", 45),
    ("SHAKE-256f", "SHAKE-256", 46),
];

#[test]
fn keygen_prehash_writes_the_hash_oid() {
    let s = Scratch::new("hash-keygen");
    for (set, ph, arc) in BOUND {
        let (k, p) = (s.p(&format!("{set}.der")), s.p(&format!("{set}.pub")));
        run(&format!(
            "keygen -a {set} --prehash {ph} --der -o {k} --pub {p}"
        ))
        .ok();
        // SPKI: 30 LL 30 0b 06 09 <8 prefix bytes> <arc>; PKCS#8: three more header bytes
        // (02 01 00), and one more length byte for the SEQUENCE when it is over 127 bytes.
        let spki = s.read(&format!("{set}.pub"));
        let oid_at = if spki[1] == 0x81 { 15 } else { 14 };
        assert_eq!(spki[oid_at], arc, "{set} SPKI");
        let pkcs8 = s.read(&format!("{set}.der"));
        let oid_at = if pkcs8[1] == 0x81 { 18 } else { 17 };
        assert_eq!(pkcs8[oid_at], arc, "{set} PKCS#8");
        // pubkey keeps the mode.
        let out = sphincs(&["pubkey", &k, "--der"]).ok();
        assert_eq!(out.stdout, spki, "{set}");
    }
}

#[test]
fn sign_and_verify_take_the_mode_from_the_key() {
    let s = Scratch::new("hash-sign");
    let (k, p, sig) = (s.p("k.pem"), s.p("p.pem"), s.p("sig"));
    let msg = s.write("msg", b"firmware");
    run(&format!(
        "keygen -a shake-128f --prehash shake128 -o {k} --pub {p}"
    ))
    .ok();
    sphincs(&["sign", "-k", &k, "--deterministic", "-o", &sig, &msg]).ok();
    sphincs(&["verify", "-p", &p, "-s", &sig, &msg]).ok();
    run(&format!("verify -p {p} -s {sig} --prehash SHAKE-128 {msg}")).ok();
    // The same signature with --prehash given explicitly: equal bytes.
    let again = run(&format!(
        "sign -k {k} --deterministic --prehash shake-128 -o - {msg}"
    ))
    .ok()
    .stdout;
    assert_eq!(again, s.read("sig"));
    // As a raw key (no OID) the key checks it as HashSLH-DSA with SHAKE128, not as pure.
    let der = sphincs(&["pubkey", &p, "--der"]).ok().stdout;
    let raw = s.write("p.raw", &der[der.len() - 32..]);
    let a = ["-a", "shake-128f"];
    sphincs(
        &[
            &["verify", "-p", &raw, "-s", &sig, "--prehash", "SHAKE-128"][..],
            &a,
            &[&msg],
        ]
        .concat(),
    )
    .ok();
    sphincs(&[&["verify", "-p", &raw, "-s", &sig][..], &a, &[&msg]].concat()).code(1);
    // Tampered message.
    let other = s.write("other", b"firmwarE");
    sphincs(&["verify", "-p", &p, "-s", &sig, &other]).code(1);
}

#[test]
fn wrong_modes_are_refused() {
    let s = Scratch::new("hash-refusals");
    let (hk, hp, pk, pp) = (s.p("h.pem"), s.p("h.pub"), s.p("p.pem"), s.p("p.pub"));
    let msg = s.write("msg", b"m");
    let x = s.p("x");
    run(&format!(
        "keygen -a sha2-128f --prehash sha2-256 -o {hk} --pub {hp}"
    ))
    .ok();
    sphincs(&["keygen", "-a", "sha2-128f", "-o", &pk, "--pub", &pp]).ok();
    let sig = s.p("sig");
    sphincs(&["sign", "-k", &pk, "-o", &sig, &msg]).ok();

    // keygen only with the bound pairing, and never for a round-3.1 set.
    run(&format!("keygen -a sha2-128f --prehash sha2-512 -o {x}"))
        .usage_error("SLH-DSA-SHA2-128f HashSLH-DSA keys use SHA2-256");
    run(&format!("keygen -a shake-256f --prehash sha3-512 -o {x}")).usage_error("use SHAKE-256");
    sphincs(&["keygen", "-a", "sha2-128f", "--prehash", "md5", "-o", &x])
        .usage_error("unknown pre-hash");
    run(&format!(
        "keygen -a sphincs-sha2-128f-simple --prehash sha2-256 -o {x}"
    ))
    .usage_error("FIPS 205 only");
    // A HashSLH-DSA key with another pre-hash; a pure key with one.
    sphincs(&["sign", "-k", &hk, "--prehash", "sha2-512", "-o", &x, &msg])
        .usage_error("sphincs keygen -a SHA2-128f` for pure SLH-DSA");
    run(&format!("verify -p {hp} -s {sig} --prehash sha3-256 {msg}"))
        .usage_error("bound to HashSLH-DSA with SHA2-256");
    sphincs(&["sign", "-k", &pk, "--prehash", "sha2-256", "-o", &x, &msg])
        .usage_error("sphincs keygen -a SHA2-128f --prehash SHA2-256");
    run(&format!("verify -p {pp} -s {sig} --prehash sha2-256 {msg}"))
        .usage_error("bound to pure SLH-DSA");
    assert!(!s.path("x").exists());
    // The pure key's signature under the HashSLH-DSA key (another key and
    // another mode): invalid, exit 1, not an error.
    sphincs(&["verify", "-p", &hp, "-s", &sig, &msg]).code(1);
}

#[test]
fn list_shows_both_oids() {
    let text = sphincs(&["list"]).ok().text();
    for (set, ph, arc) in BOUND {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("SLH-DSA-{set} ")))
            .unwrap_or_else(|| panic!("{set} in {text}"));
        assert!(
            line.contains(&format!("2.16.840.1.101.3.4.3.{} ", arc - 15)),
            "{line}"
        );
        assert!(
            line.ends_with(&format!("2.16.840.1.101.3.4.3.{arc} ({ph})")),
            "{line}"
        );
    }
}
