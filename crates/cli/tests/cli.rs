//! The `sphincs` binary end to end: every parameter set, keys in every form,
//! contexts, pre-hash, the exit codes, file safety, and ACVP answers.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use common::{assert_pem, key_pair, run, sphincs, sphincs_command, sphincs_in, stdout_of, Scratch};

const NAMES: [&str; 12] = [
    "SLH-DSA-SHA2-128s",
    "SLH-DSA-SHA2-128f",
    "SLH-DSA-SHA2-192s",
    "SLH-DSA-SHA2-192f",
    "SLH-DSA-SHA2-256s",
    "SLH-DSA-SHA2-256f",
    "SLH-DSA-SHAKE-128s",
    "SLH-DSA-SHAKE-128f",
    "SLH-DSA-SHAKE-192s",
    "SLH-DSA-SHAKE-192f",
    "SLH-DSA-SHAKE-256s",
    "SLH-DSA-SHAKE-256f",
];

/// keygen, sign, verify and a tampered message for all twelve sets (one
/// signature each: the "s" sets are slow to sign).
#[test]
fn every_set_keygen_sign_verify() {
    let s = Scratch::new("every-set");
    let msg = s.write("msg", b"every set");
    let bad = s.write("bad", b"every sex");
    for name in NAMES {
        let (k, p, sig) = (
            s.p(&format!("{name}.key")),
            s.p(&format!("{name}.pub")),
            s.p(&format!("{name}.sig")),
        );
        sphincs(&["keygen", "-a", name, "-o", &k, "--pub", &p]).ok();
        sphincs(&["sign", "-k", &k, "--deterministic", "-o", &sig, &msg]).ok();
        let out = sphincs(&["verify", "-p", &p, "-s", &sig, &msg]).ok();
        assert_eq!(out.stdout, b"valid signature\n");
        let out = sphincs(&["verify", "-p", &p, "-s", &sig, &bad]).code(1);
        assert_eq!(out.stderr, "sphincs: invalid signature\n");
        assert!(String::from_utf8(s.read(&format!("{name}.pub")))
            .unwrap()
            .starts_with("-----BEGIN PUBLIC KEY-----\n"));
    }
}

#[test]
fn list_and_demo() {
    let out = sphincs(&["list"]).ok();
    let text = String::from_utf8(out.stdout).unwrap();
    for name in NAMES {
        assert!(text.contains(name), "{text}");
    }
    assert!(text.contains("SLH-DSA-SHAKE-256f") && text.contains("49856"));
    assert!(text.contains("2.16.840.1.101.3.4.3.31"));
    assert!(
        text.contains("2.16.840.1.101.3.4.3.46 (SHAKE-256)"),
        "{text}"
    );
    let out = sphincs(&["demo"]).ok();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("SLH-DSA-SHAKE-128f") && text.contains("rejected"),
        "{text}"
    );
    sphincs(&["demo", "-a", "sha2-128f"]).ok();
}

#[test]
fn stdin_and_file_give_the_same_signature() {
    let s = Scratch::new("stdin");
    let (k, p) = key_pair(&s, "shake-128f");
    // A message larger than the 64 KiB read buffer, to exercise streaming.
    let data: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    let msg = s.write("msg", &data);
    let from_file = sphincs(&["sign", "-k", &k, "--deterministic", "-o", "-", &msg])
        .ok()
        .stdout;
    let from_dash = sphincs_in(&["sign", "-k", &k, "--deterministic", "-"], Some(&data))
        .ok()
        .stdout;
    let from_none = sphincs_in(&["sign", "-k", &k, "--deterministic"], Some(&data))
        .ok()
        .stdout;
    assert_eq!(from_file.len(), 17088);
    assert_eq!(from_file, from_dash);
    assert_eq!(from_file, from_none);
    // A named pipe cannot be rewound; it is read once into memory.
    let fifo = s.p("fifo");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|st| st.success())
    {
        let (path, bytes) = (fifo.clone(), data.clone());
        let writer = std::thread::spawn(move || fs::write(path, bytes).unwrap());
        let from_fifo = sphincs(&["sign", "-k", &k, "--deterministic", "-o", "-", &fifo])
            .ok()
            .stdout;
        writer.join().unwrap();
        assert_eq!(from_file, from_fifo);
    }
    let sig = s.write("sig", &from_file);
    sphincs_in(&["verify", "-p", &p, "-s", &sig, "-"], Some(&data)).ok();
    sphincs_in(&["verify", "-p", &p, "-s", &sig], Some(&data[1..])).code(1);
    // Hedged signatures differ from run to run but verify.
    let h1 = sphincs(&["sign", "-k", &k, "-o", "-", &msg]).ok().stdout;
    let h2 = sphincs(&["sign", "-k", &k, "-o", "-", &msg]).ok().stdout;
    assert_ne!(h1, h2);
    let sig = s.write("hedged", &h1);
    sphincs(&["verify", "-p", &p, "-s", &sig, &msg]).ok();
}

#[test]
fn contexts() {
    let s = Scratch::new("context");
    let (k, p, sig) = (s.p("k"), s.p("p"), s.p("sig"));
    let msg = s.write("msg", b"with context");
    sphincs(&["keygen", "-a", "sha2-128f", "-o", &k, "--pub", &p]).ok();
    sphincs(&["sign", "-k", &k, "--context", "Grüße", "-o", &sig, &msg]).ok();
    let hex_ctx = "4772c3bc c39f65".replace(' ', "");
    run(&format!(
        "verify -p {p} -s {sig} --context-hex {hex_ctx} {msg}"
    ))
    .ok();
    sphincs(&["verify", "-p", &p, "-s", &sig, "--context", "Grüße", &msg]).ok();
    sphincs(&["verify", "-p", &p, "-s", &sig, &msg]).code(1);
    sphincs(&["verify", "-p", &p, "-s", &sig, "--context", "Gruse", &msg]).code(1);

    let long = "ab".repeat(256);
    run(&format!(
        "sign -k {k} --context-hex {long} -o {} {msg}",
        s.p("x")
    ))
    .usage_error("context string is 256 bytes");
    sphincs(&[
        "verify",
        "-p",
        &p,
        "-s",
        &sig,
        "--context",
        &"c".repeat(256),
        &msg,
    ])
    .usage_error("at most 255");
    sphincs(&[
        "sign",
        "-k",
        &k,
        "--context-hex",
        &"ab".repeat(255),
        "-o",
        &s.p("y"),
        &msg,
    ])
    .ok();
    run(&format!(
        "sign -k {k} --context-hex abc -o {} {msg}",
        s.p("z")
    ))
    .usage_error("--context-hex");
    run(&format!("sign -k {k} --context a --context-hex 61 {msg}")).code(2);
    assert!(!s.path("x").exists() && !s.path("z").exists());
}

#[test]
fn prehash() {
    let s = Scratch::new("prehash");
    let (kd, sig) = (s.p("k.der"), s.p("sig"));
    let msg = s.write("msg", b"pre-hashed");
    sphincs(&["keygen", "-a", "shake-192f", "--der", "-o", &kd]).ok();
    // A raw key has no OID, so it may use any pre-hash (FIPS 205); the last
    // 96 bytes of the PKCS#8 v1 DER are the raw SHAKE-192f secret key.
    let der = s.read("k.der");
    let k = s.write("k.raw", &der[der.len() - 96..]);
    let a = ["-a", "shake-192f"];
    sphincs(
        &[
            &["sign", "-k", &k][..],
            &a,
            &["--prehash", "SHA2-512", "--context", "c", "-o", &sig, &msg],
        ]
        .concat(),
    )
    .ok();
    let verify = |extra: &[&str]| {
        sphincs(
            &[
                &["verify", "-p", &k, "-s", &sig, "--context", "c"][..],
                &a,
                extra,
                &[&msg],
            ]
            .concat(),
        )
    };
    verify(&["--prehash", "sha512"]).ok();
    verify(&[]).code(1);
    verify(&["--prehash", "SHA3-512"]).code(1);
    sphincs(&["sign", "-k", &k, "--prehash", "md5", "-o", &s.p("x"), &msg])
        .usage_error("unknown pre-hash function \"md5\"");
    // The PKCS#8 key is bound to pure SLH-DSA by its OID (RFC 9909).
    let x = s.p("x");
    let line = format!("sign -k {kd} --prehash SHA2-512 -o {x} {msg}");
    s.refused_without(&line, "x", "bound to pure SLH-DSA");
}

#[test]
fn der_keys_and_pubkey() {
    let s = Scratch::new("der");
    let (kd, pd) = (s.p("k.der"), s.p("p.der"));
    run(&format!("keygen -a shake-128f --der -o {kd} --pub {pd}")).ok();
    let key_der = s.read("k.der");
    let pub_der = s.read("p.der");
    assert_eq!(key_der[0], 0x30);
    assert_eq!(key_der.len(), 84);
    assert_eq!(pub_der.len(), 50);
    assert_eq!(
        fs::metadata(&kd).unwrap().permissions().mode() & 0o777,
        0o600
    );

    // pubkey: DER key -> PEM and DER, to a file and to standard output.
    sphincs(&["pubkey", &kd, "--der", "-o", &s.p("p2.der")]).ok();
    assert_eq!(s.read("p2.der"), pub_der);
    let pem = sphincs(&["pubkey", &kd]).ok().stdout;
    assert_pem(&pem, "PUBLIC KEY");
    // ... and from the public key itself, PEM or DER.
    let p_pem = s.write("p.pem", &pem);
    assert_eq!(sphincs(&["pubkey", &pd]).ok().stdout, pem);
    assert_eq!(sphincs(&["pubkey", &p_pem, "--der"]).ok().stdout, pub_der);

    let msg = s.write("msg", b"der");
    let sig = s.p("sig");
    sphincs(&["sign", "-k", &kd, "-o", &sig, &msg]).ok();
    sphincs(&["verify", "-p", &pd, "-s", &sig, &msg]).ok();
    sphincs(&["verify", "-p", &p_pem, "-s", &sig, &msg]).ok();
    // verify -p also takes the private key.
    sphincs(&["verify", "-p", &kd, "-s", &sig, &msg]).ok();
    // A public key cannot sign.
    sphincs(&["sign", "-k", &pd, &msg]).usage_error("is a public key");
}

#[test]
fn raw_keys_need_an_algorithm() {
    let s = Scratch::new("raw");
    let kd = s.p("k.der");
    sphincs(&["keygen", "-a", "sha2-128f", "--der", "-o", &kd]).ok();
    let der = s.read("k.der");
    let raw_sk = s.write("k.raw", &der[der.len() - 64..]);
    let raw_pk = s.write("p.raw", &der[der.len() - 32..]);
    let msg = s.write("msg", b"raw");
    let sig = s.p("sig");
    sphincs(&["sign", "-k", &raw_sk, "-o", &sig, &msg]).usage_error("-a ALG");
    assert!(!s.path("sig").exists());
    run(&format!(
        "sign -k {raw_sk} -a sha2-128f --deterministic -o {sig} {msg}"
    ))
    .ok();
    let via_der = sphincs(&["sign", "-k", &kd, "--deterministic", "-o", "-", &msg])
        .ok()
        .stdout;
    assert_eq!(s.read("sig"), via_der);
    sphincs(&["verify", "-p", &raw_pk, "-a", "sha2-128f", "-s", &sig, &msg]).ok();
    sphincs(&["verify", "-p", &raw_sk, "-a", "sha2-128f", "-s", &sig, &msg]).ok();
    sphincs(&["verify", "-p", &raw_pk, "-s", &sig, &msg]).usage_error("-a ALG");
    // The same raw bytes read as the SHAKE set do not verify.
    run(&format!("verify -p {raw_pk} -a shake-128f -s {sig} {msg}")).code(1);
    // -a disagreeing with a DER key's OID.
    sphincs(&["sign", "-k", &kd, "-a", "shake-128f", &msg]).usage_error("but -a says");
    // A raw key with the wrong length for the named set.
    sphincs(&["sign", "-k", &raw_pk, "-a", "sha2-128f", &msg]).usage_error("expected 64");
    // A raw key with a corrupted PK.root is refused.
    let mut bad = der[der.len() - 64..].to_vec();
    bad[63] ^= 1;
    let bad = s.write("bad.raw", &bad);
    sphincs(&["sign", "-k", &bad, "-a", "sha2-128f", &msg]).usage_error("mismatch");
}

#[test]
fn refuses_to_overwrite_without_force() {
    let s = Scratch::new("force");
    let k = s.p("k");
    sphincs(&["keygen", "-a", "shake-128f", "-o", &k]).ok();
    let first = s.read("k");
    sphincs(&["keygen", "-a", "shake-128f", "-o", &k]).usage_error("already exists; use --force");
    assert_eq!(s.read("k"), first);
    sphincs(&["keygen", "-a", "shake-128f", "-o", &k, "--force"]).ok();
    assert_ne!(s.read("k"), first);
    assert_eq!(
        fs::metadata(&k).unwrap().permissions().mode() & 0o777,
        0o600
    );

    let msg = s.write("msg", b"m");
    let sig = s.write("sig", b"old");
    sphincs(&["sign", "-k", &k, "-o", &sig, &msg]).usage_error("already exists");
    assert_eq!(s.read("sig"), b"old");
    sphincs(&["sign", "-k", &k, "-o", &sig, "--force", &msg]).ok();
    assert_eq!(s.read("sig").len(), 17088);
    let p = s.write("p", b"old");
    sphincs(&["pubkey", &k, "-o", &p]).usage_error("already exists");
    sphincs(&["pubkey", &k, "-o", &p, "--force"]).ok();
    // The existing --pub target stops keygen before it writes the key.
    sphincs(&["keygen", "-a", "shake-128f", "-o", &s.p("k2"), "--pub", &p])
        .usage_error("already exists");
    assert!(!s.path("k2").exists());
    assert_eq!(s.names(), ["k", "msg", "p", "sig"]);
}

#[test]
fn no_output_left_after_an_error() {
    let s = Scratch::new("no-partial");
    let garbage = s.write_pem("garbage.pem", "PRIVATE KEY", "not base64!");
    let msg = s.write("msg", b"m");
    sphincs(&["sign", "-k", &garbage, "-o", &s.p("sig"), &msg]).usage_error("invalid PEM");
    // Missing message file.
    let k = s.p("k");
    sphincs(&["keygen", "-a", "shake-128f", "-o", &k]).ok();
    sphincs(&["sign", "-k", &k, "-o", &s.p("sig"), &s.p("nope")]).usage_error("cannot read");
    // The public key cannot be written (no such directory): no private key either.
    let nodir = s.p("nodir/p.pem");
    run(&format!(
        "keygen -a shake-128f -o {} --pub {nodir}",
        s.p("k2")
    ))
    .usage_error("cannot create");
    // An unknown algorithm.
    sphincs(&["keygen", "-a", "sha2-512s", "-o", &s.p("k3")])
        .usage_error("unknown algorithm \"sha2-512s\"");
    assert_eq!(s.names(), ["garbage.pem", "k", "msg"]);
}

#[test]
fn bad_inputs_exit_2() {
    let s = Scratch::new("bad-inputs");
    let (k, p) = key_pair(&s, "shake-128f");
    let msg = s.write("msg", b"m");
    let sig = s.p("sig");
    sphincs(&["sign", "-k", &k, "-o", &sig, &msg]).ok();
    let garbage = s.write_pem("garbage", "PUBLIC KEY", "!!!!");
    sphincs(&["verify", "-p", &garbage, "-s", &sig, &msg]).usage_error("invalid PEM");
    let text = s.write("text", b"hello, world");
    sphincs(&["verify", "-p", &text, "-s", &sig, &msg]).usage_error("not a PEM or DER key");
    let cert = s.write_pem("cert", "CERTIFICATE", "MDAw");
    // A certificate is read as one (its subject key), and a damaged one
    // is named as a certificate.
    sphincs(&["verify", "-p", &cert, "-s", &sig, &msg])
        .usage_error("as an X.509 certificate: not a valid DER X.509 certificate");
    sphincs(&["verify", "-p", &s.p("missing"), "-s", &sig, &msg]).usage_error("cannot read");
    sphincs(&["verify", "-p", &p, "-s", &s.p("missing"), &msg]).usage_error("cannot read");

    // Truncated and overlong signatures: exit 1, saying why.
    let full = s.read("sig");
    let short = s.write("short", &full[..full.len() - 1]);
    let out = sphincs(&["verify", "-p", &p, "-s", &short, &msg]).code(1);
    assert!(
        out.stderr.starts_with("sphincs: invalid signature: "),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("17087 bytes") && out.stderr.contains("17088"),
        "{}",
        out.stderr
    );
    let mut longer = full.clone();
    longer.push(0);
    let long = s.write("long", &longer);
    let out = sphincs(&["verify", "-p", &p, "-s", &long, &msg]).code(1);
    assert!(out.stderr.contains("17089 bytes"), "{}", out.stderr);
    let empty = s.write("empty", b"");
    sphincs(&["verify", "-p", &p, "-s", &empty, &msg]).code(1);

    // Usage errors from the argument parser also exit 2; help exits 0.
    sphincs(&[]).code(2);
    sphincs(&["sign"]).code(2);
    sphincs(&["frobnicate"]).code(2);
    sphincs(&["keygen", "-o", &s.p("x")]).code(2);
    sphincs(&["--help"]).ok();
    sphincs(&["verify", "--help"]).ok();
}

/// A file of the OpenSSL 3.5 fixtures in the library's test data.
fn openssl_file(rel: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../sphincs/tests/data/openssl")
        .join(rel);
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

fn acvp(s: &Scratch, name: &str, prompt: &Value) -> Value {
    let file = s.write(
        name,
        serde_json::to_string_pretty(prompt).unwrap().as_bytes(),
    );
    let out = sphincs(&["acvp", &file]).ok();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// keyGen cases from NIST's ACVP-Server (SLH-DSA-keyGen-FIPS205, vsId 53).
#[test]
fn acvp_key_gen() {
    let s = Scratch::new("acvp-keygen");
    let prompt = json!({
        "vsId": 53, "algorithm": "SLH-DSA", "mode": "keyGen", "revision": "FIPS205", "isSample": true,
        "testGroups": [
            {"tgId": 1, "testType": "AFT", "parameterSet": "SLH-DSA-SHA2-128s", "tests": [
                {"tcId": 1, "skSeed": "173D04C938C1C36BF289C3C022D04B14",
                 "skPrf": "63AE23C41AA546DA589774AC20B745C4", "pkSeed": "0D794777914C99766827F0F09CA972BE"}]},
            {"tgId": 8, "testType": "AFT", "parameterSet": "SLH-DSA-SHAKE-192f", "tests": [
                {"tcId": 71, "skSeed": "FB7A2C2C75CE6C96B5F4328E0AB300476FC6F864CB5B0B99",
                 "skPrf": "990ECB726CA822A4E3652DD92EC0AAB7637EA41C0482AE28",
                 "pkSeed": "68DCC671E3534F81A352C275B6A25F906D2ED0FF62B8B4E3"}]}
        ]
    });
    let r = acvp(&s, "keygen.json", &prompt);
    assert_eq!(r["vsId"], 53);
    assert_eq!(r["algorithm"], "SLH-DSA");
    assert_eq!(r["mode"], "keyGen");
    assert_eq!(r["revision"], "FIPS205");
    let g = &r["testGroups"];
    assert_eq!(g[0]["tgId"], 1);
    assert_eq!(g[0]["tests"][0]["tcId"], 1);
    assert_eq!(
        g[0]["tests"][0]["pk"],
        "0D794777914C99766827F0F09CA972BE0162C10219D422ADBA1359E6AA65299C"
    );
    assert_eq!(
        g[0]["tests"][0]["sk"],
        "173D04C938C1C36BF289C3C022D04B1463AE23C41AA546DA589774AC20B745C4\
         0D794777914C99766827F0F09CA972BE0162C10219D422ADBA1359E6AA65299C"
    );
    assert_eq!(g[1]["tgId"], 8);
    assert_eq!(
        g[1]["tests"][0]["pk"],
        "68DCC671E3534F81A352C275B6A25F906D2ED0FF62B8B4E3\
         98F1A9876CB082A48E9AE2C862B289486A3925CEFC6FF4BE"
    );
    // Only the answer fields come back.
    let test = g[1]["tests"][0].as_object().unwrap();
    let mut keys: Vec<_> = test.keys().collect();
    keys.sort();
    assert_eq!(keys, ["pk", "sk", "tcId"]);
}

/// sigGen in the `[{"acvVersion"}, {...}]` form: two NIST cases (internal and
/// external pre-hash, deterministic; checked by R and the last 32 bytes) and
/// OpenSSL's deterministic signature with a context (checked in full).
#[test]
fn acvp_sig_gen_and_sig_ver() {
    let s = Scratch::new("acvp-sig");
    let set = "SLH-DSA-SHA2-128f";
    let key_der = openssl_file(&format!("{set}/key.der"));
    let sk = hex(&key_der[key_der.len() - 64..]);
    let pk = hex(&key_der[key_der.len() - 32..]);
    let message = hex(&openssl_file("message.txt"));
    let context = hex(&openssl_file("context.txt"));
    let prompt = json!([
        {"acvVersion": "1.0"},
        {"vsId": 7, "algorithm": "SLH-DSA", "mode": "sigGen", "revision": "FIPS205", "testGroups": [
            {"tgId": 16, "testType": "AFT", "parameterSet": "SLH-DSA-SHAKE-128f",
             "signatureInterface": "internal", "deterministic": true, "tests": [
                {"tcId": 137, "message": "8F",
                 "sk": "1DB8D66744E6BCAA551A18B9CB6DD0D1B75CD984A6735CCE2B323621C53F42CA\
                        D541850011514487EF2212E435DC16F4FF63ABCDC770B395365F2D895346773D"}]},
            {"tgId": 8, "testType": "AFT", "parameterSet": "SLH-DSA-SHAKE-128f",
             "signatureInterface": "external", "preHash": "preHash", "deterministic": true, "tests": [
                {"tcId": 71, "context": "", "hashAlg": "SHA2-512/256",
                 "message": "51432181B8E33C23412F457A9F8C1B4B0CE23486C91086C6141C52E3F5A09CECAA",
                 "sk": "8B25EC70528B0E4DC4E28491959345D4478525D14EB8AE59D1751F0739D8640B\
                        76252E8D7D432086A383C060D7EFADA72B83A56EB41157B6A6CDF15AE6FA31C7"}]},
            {"tgId": 1, "testType": "AFT", "parameterSet": set,
             "signatureInterface": "external", "preHash": "pure", "deterministic": true, "tests": [
                {"tcId": 1, "sk": sk, "message": message, "context": context}]},
            {"tgId": 2, "testType": "AFT", "parameterSet": set,
             "signatureInterface": "external", "preHash": "pure", "deterministic": false, "tests": [
                {"tcId": 2, "sk": sk, "message": message, "context": "",
                 "additionalRandomness": "000102030405060708090A0B0C0D0E0F"}]}
        ]}
    ]);
    let r = acvp(&s, "siggen.json", &prompt);
    assert_eq!(r[0]["acvVersion"], "1.0");
    let r = &r[1];
    assert_eq!(
        (r["vsId"].clone(), r["mode"].clone()),
        (json!(7), json!("sigGen"))
    );
    let sig = |g: usize| {
        r["testGroups"][g]["tests"][0]["signature"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let internal = sig(0);
    assert_eq!(internal.len(), 2 * 17088);
    assert!(
        internal.starts_with("4C19417603EBAAB13C32592134B55663AA4337F8C2292C62598EF8AE0FD99315")
    );
    assert!(internal.ends_with("5D0674C80BFA69539453EA291ACB14DCE14CD854A0678AE07CFCEB7EFBD4CC41"));
    let prehashed = sig(1);
    assert!(
        prehashed.starts_with("E144334FEF07ADB4F76BF9A4AD099E1B91546639D85097443B6871FE97AF2F47")
    );
    assert!(prehashed.ends_with("16B4379AEE820293B64FB5F32870D63069A7AB3A4C68D1D199117306D41BABF8"));
    assert_eq!(sig(2), hex(&openssl_file(&format!("{set}/sig-ctx.bin"))));
    let hedged = sig(3);
    assert_ne!(hedged, hex(&openssl_file(&format!("{set}/sig.bin"))));
    assert_eq!(r["testGroups"][2]["tgId"], 1);
    assert_eq!(r["testGroups"][3]["tests"][0]["tcId"], 2);

    // sigVer of what came back, and of tampered copies.
    let mut flipped = hedged.clone().into_bytes();
    flipped[100] = if flipped[100] == b'0' { b'1' } else { b'0' };
    let flipped = String::from_utf8(flipped).unwrap();
    let prompt = json!({
        "vsId": 8, "algorithm": "SLH-DSA", "mode": "sigVer", "revision": "FIPS205", "testGroups": [
            {"tgId": 1, "testType": "AFT", "parameterSet": set,
             "signatureInterface": "external", "preHash": "pure", "tests": [
                {"tcId": 1, "pk": pk, "message": message, "context": "", "signature": hedged},
                {"tcId": 2, "pk": pk, "message": message, "context": "", "signature": flipped},
                {"tcId": 3, "pk": pk, "message": message, "context": "", "signature": &hedged[2..]},
                {"tcId": 4, "pk": pk, "message": message, "context": context, "signature": sig(2)},
                {"tcId": 5, "pk": pk, "message": message, "context": "", "signature": sig(2)}]},
            {"tgId": 2, "testType": "AFT", "parameterSet": "SLH-DSA-SHAKE-128f",
             "signatureInterface": "internal", "tests": [
                {"tcId": 6, "message": "8F", "signature": internal.clone(),
                 "pk": "D541850011514487EF2212E435DC16F4FF63ABCDC770B395365F2D895346773D"},
                {"tcId": 7, "message": "8E", "signature": internal,
                 "pk": "D541850011514487EF2212E435DC16F4FF63ABCDC770B395365F2D895346773D"}]}
        ]
    });
    let r = acvp(&s, "sigver.json", &prompt);
    let verdicts: Vec<_> = r["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["tests"].as_array().unwrap().iter())
        .map(|t| {
            (
                t["tcId"].as_i64().unwrap(),
                t["testPassed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            (1, true),
            (2, false),
            (3, false),
            (4, true),
            (5, false),
            (6, true),
            (7, false)
        ]
    );
}

#[test]
fn acvp_errors() {
    let s = Scratch::new("acvp-errors");
    let bad = s.write("bad.json", b"{not json");
    sphincs(&["acvp", &bad]).usage_error("not valid JSON");
    let other = s.write(
        "other.json",
        br#"{"algorithm": "ML-DSA", "mode": "keyGen", "testGroups": []}"#,
    );
    sphincs(&["acvp", &other]).usage_error("\"SLH-DSA\" only");
    let prompt = json!({"vsId": 1, "algorithm": "SLH-DSA", "mode": "keyGen", "revision": "FIPS205",
        "testGroups": [{"tgId": 3, "parameterSet": "SLH-DSA-SHA2-128s", "tests": [
            {"tcId": 9, "skSeed": "00", "skPrf": "00", "pkSeed": "00"}]}]});
    let file = s.write("short.json", prompt.to_string().as_bytes());
    sphincs(&["acvp", &file, "-o", &s.p("out.json")]).usage_error("tgId 3: tcId 9");
    assert!(!s.path("out.json").exists());
    let file = s.write(
        "ok.json",
        prompt
            .to_string()
            .replace("\"00\"", "\"000102030405060708090A0B0C0D0E0F\"")
            .as_bytes(),
    );
    sphincs(&["acvp", &file, "-o", &s.p("out.json")]).ok();
    let r: Value = serde_json::from_slice(&s.read("out.json")).unwrap();
    assert_eq!(r["testGroups"][0]["tests"][0]["tcId"], 9);
    sphincs(&["acvp", &file, "-o", &s.p("out.json")]).usage_error("already exists");
}

#[test]
fn fault_hardened_signature_equals_the_normal_one() {
    let s = Scratch::new("fault-hardened");
    let (k, p) = key_pair(&s, "sha2-128f");
    let msg = s.write("msg", b"hardened");
    let normal = sphincs(&["sign", "-k", &k, "--deterministic", "-o", "-", &msg])
        .ok()
        .stdout;
    let sig = s.p("sig");
    run(&format!(
        "sign -k {k} --deterministic --fault-hardened -o {sig} {msg}"
    ))
    .ok();
    assert_eq!(s.read("sig"), normal);
    // Hedged and hardened: a fresh signature that verifies.
    run(&format!(
        "sign -k {k} --fault-hardened -o {sig} --force {msg}"
    ))
    .ok();
    sphincs(&["verify", "-p", &p, "-s", &sig, &msg]).ok();
}

/// The SPHINCS+ round-3.1 sets `sphincs list` names.
fn round31_names() -> Vec<String> {
    let out = sphincs(&["list"]).ok();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("sphincs-"))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        // SPHINCS-256, the 2015 scheme, is listed with them but is not a round-3.1 set.
        .filter(|name| name != "sphincs-256")
        .collect()
}

/// keygen, sign, verify and a tampered message for all 36 round-3.1 sets,
/// with raw key files of the reference code's sizes.
#[test]
fn every_round31_set_keygen_sign_verify() {
    let names = round31_names();
    assert_eq!(names.len(), 36, "{names:?}");
    let s = Scratch::new("every-round31-set");
    let msg = s.write("msg", b"pre-standard signature");
    let bad = s.write("bad", b"pre-standard signaturE");
    for name in &names {
        let (k, p, sig) = (
            s.p(&format!("{name}.key")),
            s.p(&format!("{name}.pub")),
            s.p(&format!("{name}.sig")),
        );
        // Names are case-insensitive, and the "SPHINCS+-" spelling is accepted.
        let upper = name.to_uppercase().replacen("SPHINCS-", "SPHINCS+-", 1);
        sphincs(&["keygen", "-a", &upper, "-o", &k, "--pub", &p]).ok();
        let (sk, pk) = (
            s.read(&format!("{name}.key")),
            s.read(&format!("{name}.pub")),
        );
        assert_eq!(sk.len(), 2 * pk.len(), "{name}");
        assert_eq!(&sk[sk.len() / 2..], &pk[..], "{name}: sk ends with pk");
        sphincs(&["sign", "-a", name, "-k", &k, "-o", &sig, &msg]).ok();
        let out = sphincs(&["verify", "-a", name, "-p", &p, "-s", &sig, &msg]).ok();
        assert_eq!(out.stdout, b"valid signature\n");
        // The secret key verifies too (its public half).
        sphincs(&["verify", "-a", name, "-p", &k, "-s", &sig, &msg]).ok();
        let out = sphincs(&["verify", "-a", name, "-p", &p, "-s", &sig, &bad]).code(1);
        assert_eq!(out.stderr, "sphincs: invalid signature\n");
    }
}

/// What round 3.1 lacks is refused in one line, and nothing is written.
#[test]
fn round31_refusals() {
    let s = Scratch::new("round31-refusals");
    let msg = s.write("msg", b"m");
    let (k, p) = (s.p("k"), s.p("p"));
    let alg = "sphincs-sha2-128f-robust";
    sphincs(&["keygen", "-a", alg, "--der", "-o", &k]).usage_error("no OID");
    assert_eq!(s.names(), ["msg"]);
    sphincs(&["keygen", "-a", alg, "-o", &k, "--pub", &p]).ok();
    let sig = s.p("sig");
    run(&format!("sign -a {alg} -k {k} --context x -o {sig} {msg}")).usage_error("FIPS 205 only");
    run(&format!(
        "sign -a {alg} -k {k} --prehash SHA2-256 -o {sig} {msg}"
    ))
    .usage_error("FIPS 205 only");
    sphincs(&["sign", "-a", alg, "-k", &p, "-o", &sig, &msg]).usage_error("public key");
    // A key of another set's length, and a key whose PK.root was altered.
    run(&format!(
        "sign -a sphincs-sha2-192f-robust -k {k} -o {sig} {msg}"
    ))
    .usage_error("needs 96");
    let mut sk = s.read("k");
    sk[63] ^= 1;
    let bad = s.write("bad-root", &sk);
    sphincs(&["sign", "-a", alg, "-k", &bad, "-o", &sig, &msg]).usage_error("mismatch");
    assert!(!s.path("sig").exists());
    sphincs(&["kat", "-a", "shake-128f"]).usage_error("round-3.1 set");
    // A signature of the wrong length is invalid (exit 1), not an error.
    let short = s.write("short", &[0u8; 100]);
    sphincs(&["verify", "-a", alg, "-p", &p, "-s", &short, &msg]).code(1);
}

/// `sphincs kat` writes NIST's file: the full 100-entry file of one set
/// hashes to the reference code's SHA256SUMS value; the default name is
/// PQCsignKAT_<sk bytes>.rsp and an existing file is not replaced.
#[test]
fn kat_file() {
    let s = Scratch::new("kat");
    let sums = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sphincs/tests/data/sphincsplus-r31/SHA256SUMS"
    ))
    .unwrap();
    let name = "sphincs-shake-128f-simple";
    let want = sums
        .lines()
        .find_map(|l| l.strip_suffix(&format!(" {name}")))
        .unwrap();
    stdout_of(
        sphincs_command()
            .args(["kat", "-a", name, "--threads", "2"])
            .current_dir(&s.0),
    );
    let file = s.read("PQCsignKAT_64.rsp");
    let got = hex(&<sha2::Sha256 as sha2::Digest>::digest(&file));
    assert_eq!(got.to_lowercase(), want);
    let again = sphincs_command()
        .args(["kat", "-a", name, "--count", "1"])
        .current_dir(&s.0)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(s.read("PQCsignKAT_64.rsp"), file, "not replaced");
    let one = sphincs(&["kat", "-a", name, "--count", "1", "-o", "-"]).ok();
    assert!(file.starts_with(&one.stdout));
    assert!(one.stdout.ends_with(b"\n\n"));
}

/// `demo` with a round-3.1 set, and into a closed pipe: an error line, no panic.
#[test]
fn demo_round31_and_closed_pipe() {
    let out = sphincs(&["demo", "-a", "sphincs-haraka-128f-robust"]).ok();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("sphincs-haraka-128f-robust (SPHINCS+ round 3.1"),
        "{text}"
    );
    assert!(text.contains("rejected, as it should be"), "{text}");

    // A pipe whose read end is closed before the child starts (a piped
    // stdout closed after spawning could still be open in another test's
    // child for a moment, which runs concurrently).
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into `fds`.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: both descriptors were just created and are owned here alone.
    let (read, write) = unsafe {
        use std::os::fd::{FromRawFd, OwnedFd};
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    };
    drop(read);
    let out = sphincs_command()
        .args(["demo", "-a", "sphincs-haraka-128f-simple"])
        .stdout(Stdio::from(write))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.starts_with("sphincs: error: cannot write to standard output"),
        "{stderr}"
    );
}
