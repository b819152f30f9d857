//! `-a sphincs-256` on the command line: the SUPERCOP known answer of a
//! vector case through keygen-less files (raw keys), the round trip, and bad
//! input rows (exit status, one line, no file left behind).

mod common;

use std::fs;
use std::io::Read;

use common::{run, sphincs, Scratch};

/// A scratch directory with an empty `out/` for the outputs.
fn scratch(name: &str) -> Scratch {
    let s = Scratch::new(name);
    fs::create_dir_all(s.path("out")).unwrap();
    s
}

/// Case 1 of the vectors (1-byte message): sk, pk, message, signature SHA-256.
fn kat_case(id: usize) -> (Vec<u8>, Vec<u8>, Vec<u8>, String) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sphincs/tests/data/sphincs256/sphincs256_kat.json.gz"
    );
    let mut text = String::new();
    flate2::read::GzDecoder::new(fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let field = |key: &str| -> String {
        // The file is one JSON object; find case `id`'s field without a JSON parser.
        let at = text.find(&format!("\"id\": {id},")).expect("case present");
        let rest = &text[at..];
        let k = rest.find(&format!("\"{key}\": \"")).unwrap() + key.len() + 5;
        rest[k..k + rest[k..].find('"').unwrap()].to_string()
    };
    (
        hex::decode(field("sk")).unwrap(),
        hex::decode(field("pk")).unwrap(),
        hex::decode(field("msg")).unwrap(),
        field("sig_sha256"),
    )
}

/// Known-answer case `id` in a scratch directory `name` (with `out/`): the
/// paths of its key and public key files, its message and the SHA-256 of
/// its signature.
fn kat_files(name: &str, id: usize) -> (Scratch, String, String, Vec<u8>, String) {
    let s = scratch(name);
    let (sk, pk, msg, sig_sha) = kat_case(id);
    let (key, public) = (s.write("key", &sk), s.write("pub", &pk));
    (s, key, public, msg, sig_sha)
}

fn sha256_hex(b: &[u8]) -> String {
    hex::encode(<sha2::Sha256 as sha2::Digest>::digest(b))
}

#[test]
fn known_answer_and_round_trip() {
    let s = scratch("kat");
    let (sk, pk, msg, sig_sha) = kat_case(1);
    let key = s.write("key", &sk);
    let m = s.write("msg", &msg);
    let pub_out = s.p("out/pub");
    let r = sphincs(&["pubkey", "-a", "sphincs-256", &key, "-o", &pub_out]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(fs::read(&pub_out).unwrap(), pk);
    let sig = s.p("out/sig");
    for threads in ["1", "2", "3"] {
        let _ = fs::remove_file(&sig);
        let r = run(&format!(
            "sign -a sphincs-256 -k {key} -o {sig} --threads {threads} {m}"
        ));
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            sha256_hex(&fs::read(&sig).unwrap()),
            sig_sha,
            "{threads} threads"
        );
    }
    let r = run(&format!("verify -a sphincs-256 -p {pub_out} -s {sig} {m}"));
    assert_eq!(
        (r.code, r.stdout.as_slice()),
        (0, &b"valid signature\n"[..])
    );
    // A private key verifies too; a changed message does not.
    assert_eq!(
        sphincs(&["verify", "-a", "SPHINCS-256", "-p", &key, "-s", &sig, &m]).code,
        0
    );
    let other = s.write("other", b"another message");
    let r = run(&format!(
        "verify -a sphincs-256 -p {pub_out} -s {sig} {other}"
    ));
    assert_eq!(r.code, 1);
    // `other` was written after the signature: the data is named as the cause.
    assert_eq!(
        r.stderr.trim_end(),
        format!("sphincs: invalid signature; {other} was changed after {sig} was written, so a change to the data is the likely cause")
    );

    // keygen: raw files of the reference's sizes, private key mode 0600.
    let (k2, p2) = (s.p("out/k2"), s.p("out/p2"));
    let r = sphincs(&["keygen", "-a", "sphincs-256", "-o", &k2, "--pub", &p2]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(fs::read(&k2).unwrap().len(), 1088);
    assert_eq!(fs::read(&p2).unwrap().len(), 1056);
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        fs::metadata(&k2).unwrap().permissions().mode() & 0o777,
        0o600
    );

    let demo = sphincs(&["demo", "-a", "sphincs-256"]);
    let text = String::from_utf8(demo.stdout).unwrap();
    assert!(text.starts_with("sphincs-256"), "{text}");
    assert!(text.contains("rejected, as it should be"), "{text}");
    let list = String::from_utf8(sphincs(&["list"]).stdout).unwrap();
    assert!(
        list.contains("sphincs-256") && list.contains("41000"),
        "{list}"
    );
    let help = String::from_utf8(sphincs(&["keygen", "--help"]).stdout).unwrap();
    assert!(help.contains("sphincs-256"), "{help}");
}

#[test]
fn bad_inputs_fail_cleanly() {
    let (s, key, public, msg, _) = kat_files("bad", 0);
    let (sk, pk) = (fs::read(&key).unwrap(), fs::read(&public).unwrap());
    let m = s.write("msg", &msg);
    let short_key = s.write("short-key", &sk[..1000]);
    let long_pub = s.write("long-pub", &[pk.clone(), vec![0]].concat());
    let short_sig = s.write("short-sig", &[0u8; 100]);
    let noise_sig = s.write("noise-sig", &vec![0xa5u8; 41000]);
    let out = s.p("out/x");
    let missing = s.p("missing");
    let a = "-a sphincs-256";
    // (arguments, split on spaces; exit status; substring of the one stderr line)
    let rows: Vec<(String, i32, &str)> = vec![
        (format!("keygen {a} -o {out} --der"), 2, "no OID"),
        (format!("pubkey {a} {key} -o {out} --der"), 2, "no OID"),
        (
            format!("sign {a} -k {key} -o {out} --context x {m}"),
            2,
            "--context",
        ),
        (
            format!("sign {a} -k {key} -o {out} --context-hex 00 {m}"),
            2,
            "--context",
        ),
        (
            format!("sign {a} -k {key} -o {out} --prehash SHA2-256 {m}"),
            2,
            "--prehash",
        ),
        (
            format!("sign {a} -k {key} -o {out} --fault-hardened {m}"),
            2,
            "--fault-hardened",
        ),
        (
            format!("sign {a} -k {public} -o {out} {m}"),
            2,
            "is a public key",
        ),
        (
            format!("sign {a} -k {short_key} -o {out} {m}"),
            2,
            "secret key is 1000 bytes; sphincs-256 needs 1088",
        ),
        (format!("sign {a} -k {missing} -o {out} {m}"), 2, "missing"),
        (
            format!("sign {a} -k {key} -o {out} {missing}"),
            2,
            "missing",
        ),
        (
            format!("verify {a} -p {long_pub} -s {noise_sig} {m}"),
            2,
            "public key is 1057 bytes",
        ),
        (
            format!("verify {a} -p {public} -s {short_sig} {m}"),
            1,
            "signature is 100 bytes",
        ),
        (
            format!("verify {a} -p {public} -s {noise_sig} {m}"),
            1,
            "invalid signature",
        ),
        (
            format!("verify {a} -p {public} -s {noise_sig} --context x {m}"),
            2,
            "--context",
        ),
        (format!("pubkey {a} {short_key} -o {out}"), 2, "1000 bytes"),
        (format!("bench {a} --op nope"), 2, "unknown operation"),
    ];
    for (line, code, needle) in rows {
        // Exit status, no panic, one line containing the needle, and nothing in out/.
        run(&line).code(code).one_line(needle);
        let ctx = format!("sphincs {line}");
        assert!(s.names_in("out").is_empty(), "left behind: {ctx}");
    }
}

/// Several files signed and verified in one call, each signature in
/// FILE.sig: the known answer's key signs the same bytes as a one-file call
/// (deterministic signatures), and a changed file fails alone.
#[test]
fn many_files_sign_and_verify() {
    let (s, key, public, msg, sig_sha) = kat_files("many", 1);
    let a = s.write("a", &msg);
    let b = s.write("b", b"a second file");
    let r = sphincs(&["sign", "-a", "sphincs-256", "-k", &key, &a, &b]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(sha256_hex(&fs::read(format!("{a}.sig")).unwrap()), sig_sha);
    assert_eq!(fs::read(format!("{b}.sig")).unwrap().len(), 41000);
    let r = sphincs(&["verify", "-a", "sphincs-256", "-p", &public, &a, &b]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    fs::write(&b, b"a changed file").unwrap();
    let r = sphincs(&["verify", "-a", "sphincs-256", "-p", &public, &a, &b]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(out.contains("valid"), "{out}");
}
