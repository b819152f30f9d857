//! Bad input, table-driven: every case names the exit status it expects (2
//! for an error, 1 for a signature that does not verify, 0 for the few inputs
//! that look odd but are fine), a substring of its one-line message, and which
//! files the output directory may hold afterwards. No case may panic, and no
//! output or temporary file may be left behind.

mod common;

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;

use common::{sphincs_command, Out};

/// The scratch directory: `in/` holds the inputs, `out/` receives outputs.
struct Scratch(common::Scratch);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let s = common::Scratch::new(name);
        fs::create_dir_all(s.path("in")).unwrap();
        fs::create_dir_all(s.path("out")).unwrap();
        Scratch(s)
    }
    /// `in/NAME`.
    fn i(&self, name: &str) -> String {
        self.0.p(&format!("in/{name}"))
    }
    /// `out/NAME`.
    fn o(&self, name: &str) -> String {
        self.0.p(&format!("out/{name}"))
    }
    fn put(&self, name: &str, data: &[u8]) -> String {
        self.0.write(&format!("in/{name}"), data)
    }
    fn get(&self, name: &str) -> Vec<u8> {
        self.0.read(&format!("in/{name}"))
    }
    /// Every name in `out/`, sorted: catches outputs and temporary files.
    fn out_names(&self) -> Vec<String> {
        self.0.names_in("out")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Readable again before the common scratch directory removes itself.
        let _ = fs::set_permissions(
            self.0.path("in/unreadable"),
            fs::Permissions::from_mode(0o600),
        );
    }
}

fn sphincs(args: &[String]) -> Out {
    common::sphincs(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn sv(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// The arguments of `line`, split on spaces (none of ours have one).
fn words(line: &str) -> Vec<String> {
    line.split(' ').map(String::from).collect()
}

/// What a case must do.
enum Want {
    /// Exit 2, `sphincs: error: ` and this substring on one line.
    Error(&'static str),
    /// Exit 1, `invalid signature` and this substring on one line.
    Invalid(&'static str),
    /// Exit 0.
    Ok,
}

struct Case {
    name: &'static str,
    args: Vec<String>,
    want: Want,
    /// What `out/` holds afterwards (it held these before, too, unless the case succeeds).
    out_after: &'static [&'static str],
}

fn case(name: &'static str, args: Vec<String>, want: Want) -> Case {
    Case {
        name,
        args,
        want,
        out_after: &[],
    }
}

fn check(s: &Scratch, c: &Case) -> Out {
    let run = sphincs(&c.args);
    let ctx = format!(
        "case {:?}: sphincs {}\nstatus {}\nstderr: {}",
        c.name,
        c.args.join(" "),
        run.code,
        run.stderr
    );
    // Shown with --nocapture, to read the messages.
    println!("{:<48} {} {}", c.name, run.code, run.stderr.trim_end());
    assert_ne!(run.code, 101, "{ctx}");
    assert!(!run.stderr.contains("panicked"), "{ctx}");
    let line = run.stderr.trim_end();
    match c.want {
        Want::Error(needle) => {
            assert_eq!(run.code, 2, "{ctx}");
            assert!(line.starts_with("sphincs: error: "), "{ctx}");
            assert_eq!(line.lines().count(), 1, "one line: {ctx}");
            assert!(line.contains(needle), "want {needle:?}: {ctx}");
        }
        Want::Invalid(needle) => {
            assert_eq!(run.code, 1, "{ctx}");
            assert!(line.starts_with("sphincs: invalid signature"), "{ctx}");
            assert_eq!(line.lines().count(), 1, "one line: {ctx}");
            assert!(line.contains(needle), "want {needle:?}: {ctx}");
        }
        Want::Ok => assert_eq!(run.code, 0, "{ctx}"),
    }
    assert_eq!(s.out_names(), c.out_after, "files left in out/: {ctx}");
    run
}

/// A DER length: short form, or 0x81 / 0x82 and one or two bytes.
fn der_len(len: usize) -> Vec<u8> {
    match len {
        0..=127 => vec![len as u8],
        128..=255 => vec![0x81, len as u8],
        _ => vec![0x82, (len >> 8) as u8, len as u8],
    }
}

fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut v = vec![tag];
    v.extend(der_len(body.len()));
    v.extend(body);
    v
}

/// PKCS#8 with version 1 (v2, RFC 5958) carrying `pk` as its `[1] publicKey`,
/// built by hand from the parts of a version 0 key.
fn pkcs8_v2(oid_tlv: &[u8], sk: &[u8], pk: &[u8]) -> Vec<u8> {
    let mut body = tlv(0x02, &[1]);
    body.extend(tlv(0x30, oid_tlv));
    body.extend(tlv(0x04, sk));
    let mut bits = vec![0u8];
    bits.extend(pk);
    body.extend(tlv(0x81, &bits));
    tlv(0x30, &body)
}

#[test]
fn bad_inputs_fail_cleanly() {
    let s = Scratch::new("table");
    let ok = |r: Out| assert_eq!(r.code, 0, "setup: {}", r.stderr);
    // Keys: SHAKE-128f in PEM and DER, SHA2-128f (same sizes, other set), SHA2-256f.
    let (k, p) = (s.i("k.pem"), s.i("p.pem"));
    ok(sphincs(&words(&format!(
        "keygen -a shake-128f -o {k} --pub {p}"
    ))));
    ok(sphincs(&sv(&["pubkey", &k, "--der", "-o", &s.i("p.der")])));
    let k_der = s.i("k.der");
    ok(sphincs(&words(&format!(
        "keygen -a shake-128f --der -o {k_der}"
    ))));
    let (k2, p2) = (s.i("k2.pem"), s.i("p2.pem"));
    ok(sphincs(&words(&format!(
        "keygen -a sha2-128f -o {k2} --pub {p2}"
    ))));
    let k3 = s.i("k3.pem");
    ok(sphincs(&sv(&["keygen", "-a", "sha2-256f", "-o", &k3])));
    let msg = s.put("msg", b"the message");
    let tampered = s.put("tampered", b"the massage");
    let sig = s.i("sig");
    ok(sphincs(&sv(&["sign", "-k", &k, "-o", &sig, &msg])));
    let sig_ctx = s.i("sig-ctx");
    ok(sphincs(&words(&format!(
        "sign -k {k} --context A -o {sig_ctx} {msg}"
    ))));
    let sig2 = s.i("sig2");
    ok(sphincs(&sv(&["sign", "-k", &k2, "-o", &sig2, &msg])));
    let sig3 = s.i("sig3");
    ok(sphincs(&sv(&["sign", "-k", &k3, "-o", &sig3, &msg])));

    let full = s.get("sig");
    assert_eq!(full.len(), 17088);
    let short = s.put("sig-short", &full[..full.len() - 1]);
    let long = s.put("sig-long", &[&full[..], &[0]].concat());
    let empty_sig = s.put("sig-empty", b"");

    let pem = String::from_utf8(s.get("k.pem")).unwrap();
    let garbage_pem = s.put(
        "garbage.pem",
        b"-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n",
    );
    let cert = s.put(
        "cert.pem",
        b"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n",
    );
    let encrypted = s.put(
        "enc.pem",
        b"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMDAw\n-----END ENCRYPTED PRIVATE KEY-----\n",
    );
    // The PEM body with its last Base64 line cut off.
    let mut lines: Vec<&str> = pem.lines().collect();
    lines.remove(lines.len() - 2);
    let truncated_pem = s.put("trunc.pem", (lines.join("\n") + "\n").as_bytes());

    let der = s.get("k.der");
    let trailing = s.put("trailing.der", &[&der[..], &[0]].concat());
    // The SPKI of the SHAKE-128f key with its OID's last arc (byte 14) made 32, unassigned.
    let mut pub_der = s.get("p.der");
    assert_eq!(pub_der[14], 0x1b, "OID arc of SHAKE-128f");
    pub_der[14] = 32;
    let unknown_oid = s.put("unknown-oid.der", &pub_der);

    // Raw keys: the secret key is the last 64 bytes of the PKCS#8 DER.
    let raw_sk = &der[der.len() - 64..];
    let raw = s.put("k.raw", raw_sk);
    let raw_short = s.put("k-short.raw", &raw_sk[..63]);
    // A public key of the wrong length for its set, as raw bytes with -a.
    let raw_pk_short = s.put("p-short.raw", &raw_sk[32..63]);
    // The same two starting with 0x30, as DER does (one raw key in 256).
    let mut as_der = raw_sk[32..].to_vec();
    as_der[0] = 0x30;
    let raw_pk_30 = s.put("p-30.raw", &as_der);
    let raw_pk_short_30 = s.put("p-short-30.raw", &as_der[..31]);

    // PKCS#8 version 1 (v2) whose [1] publicKey is not the key's.
    assert_eq!(&der[..7], [0x30, 0x52, 0x02, 0x01, 0x00, 0x30, 0x0b]);
    let oid_tlv = &der[7..18];
    let mut other_pk = raw_sk[32..].to_vec();
    other_pk[31] ^= 1;
    let v2_mismatch = s.put("v2-mismatch.der", &pkcs8_v2(oid_tlv, raw_sk, &other_pk));
    // The same with the right public key loads: the mismatch is what is refused.
    let v2_good = s.put("v2-good.der", &pkcs8_v2(oid_tlv, raw_sk, &raw_sk[32..]));
    ok(sphincs(&sv(&["pubkey", &v2_good])));

    let empty_msg = s.put("empty-msg", b"");
    let in_dir = s.0.p("in");
    let ctx256 = "x".repeat(256);
    let ctx256_hex = "ab".repeat(256);
    let out_sig = s.o("sig");

    let mut cases = vec![
        // Signatures.
        case(
            "truncated signature",
            sv(&["verify", "-p", &p, "-s", &short, &msg]),
            Want::Invalid("17087 bytes"),
        ),
        case(
            "overlong signature",
            sv(&["verify", "-p", &p, "-s", &long, &msg]),
            Want::Invalid("17089 bytes"),
        ),
        case(
            "empty signature file",
            sv(&["verify", "-p", &p, "-s", &empty_sig, &msg]),
            Want::Invalid("0 bytes"),
        ),
        case(
            "signature of another set, same length",
            sv(&["verify", "-p", &p, "-s", &sig2, &msg]),
            Want::Invalid("invalid signature"),
        ),
        case(
            "signature of another set, other length",
            sv(&["verify", "-p", &p, "-s", &sig3, &msg]),
            Want::Invalid("SLH-DSA-SHAKE-128f signatures are 17088 bytes"),
        ),
        case(
            "verify with another set's key",
            sv(&["verify", "-p", &p2, "-s", &sig, &msg]),
            Want::Invalid("invalid signature"),
        ),
        case(
            "tampered message",
            sv(&["verify", "-p", &p, "-s", &sig, &tampered]),
            Want::Invalid("invalid signature"),
        ),
        case(
            "context at verify but not at sign",
            sv(&["verify", "-p", &p, "-s", &sig, "--context", "A", &msg]),
            Want::Invalid("invalid signature"),
        ),
        case(
            "other context at verify",
            sv(&["verify", "-p", &p, "-s", &sig_ctx, "--context", "B", &msg]),
            Want::Invalid("invalid signature"),
        ),
        case(
            "pre-hash with a key bound to pure SLH-DSA by its OID",
            words(&format!("verify -p {p} -s {sig} --prehash sha2-256 {msg}")),
            Want::Error("bound to pure SLH-DSA by its OID"),
        ),
        case(
            "signature file is a directory",
            sv(&["verify", "-p", &p, "-s", &in_dir, &msg]),
            Want::Error("cannot read"),
        ),
        case(
            "missing signature file",
            sv(&["verify", "-p", &p, "-s", &s.i("nope"), &msg]),
            Want::Error("cannot read"),
        ),
        // Keys.
        case(
            "key of another set than -a",
            sv(&["sign", "-k", &k, "-a", "sha2-128f", "-o", &out_sig, &msg]),
            Want::Error("is an SLH-DSA-SHAKE-128f key, but -a says SLH-DSA-SHA2-128f"),
        ),
        case(
            "public key given to sign",
            sv(&["sign", "-k", &p, "-o", &out_sig, &msg]),
            Want::Error("is a public key; signing needs the private key"),
        ),
        case(
            "public DER key given to sign",
            sv(&["sign", "-k", &s.i("p.der"), "-o", &out_sig, &msg]),
            Want::Error("is a public key"),
        ),
        case(
            "missing key file",
            sv(&["sign", "-k", &s.i("nope"), "-o", &out_sig, &msg]),
            Want::Error("cannot read"),
        ),
        case(
            "key file is a directory",
            sv(&["sign", "-k", &in_dir, "-o", &out_sig, &msg]),
            Want::Error("cannot read"),
        ),
        case(
            "garbage PEM",
            sv(&["sign", "-k", &garbage_pem, "-o", &out_sig, &msg]),
            Want::Error("invalid PEM"),
        ),
        case(
            "PEM labelled CERTIFICATE",
            sv(&["sign", "-k", &cert, "-o", &out_sig, &msg]),
            Want::Error("is an X.509 certificate; signing needs the private key"),
        ),
        case(
            "PEM labelled CERTIFICATE as public key",
            sv(&["verify", "-p", &cert, "-s", &sig, &msg]),
            Want::Error("cert.pem: as an X.509 certificate: "),
        ),
        case(
            "encrypted PKCS#8",
            sv(&["sign", "-k", &encrypted, "-o", &out_sig, &msg]),
            Want::Error("no terminal can ask for its passphrase"),
        ),
        // Encrypting asks for a new passphrase: no key is encrypted yet
        // (keygen has not made one), so the message says what it is for.
        case(
            "keygen --encrypt with no terminal",
            sv(&["keygen", "-a", "shake-128f", "--encrypt", "-o", &s.o("k")]),
            Want::Error(
                "no terminal can ask for a passphrase to encrypt the new key with; give --passphrase-file FILE or --passphrase-fd N",
            ),
        ),
        case(
            "key encrypt with no terminal",
            sv(&["key", "encrypt", &k, "-o", &s.o("k")]),
            Want::Error("no terminal can ask for a passphrase to encrypt the new key with"),
        ),
        case(
            "truncated PEM Base64",
            sv(&["sign", "-k", &truncated_pem, "-o", &out_sig, &msg]),
            Want::Error("malformed key"),
        ),
        case(
            "DER with a trailing byte",
            sv(&["sign", "-k", &trailing, "-o", &out_sig, &msg]),
            Want::Error("1 byte of trailing data"),
        ),
        case(
            "DER of an unknown OID",
            sv(&["verify", "-p", &unknown_oid, "-s", &sig, &msg]),
            Want::Error("2.16.840.1.101.3.4.3.32 is not SLH-DSA"),
        ),
        case(
            "raw key without -a",
            sv(&["sign", "-k", &raw, "-o", &out_sig, &msg]),
            Want::Error("say which parameter set it is with -a ALG"),
        ),
        case(
            "raw key of the wrong length",
            words(&format!(
                "sign -k {raw_short} -a shake-128f -o {out_sig} {msg}"
            )),
            Want::Error("it is 63 bytes; expected 64"),
        ),
        case(
            "raw public key of the wrong length",
            words(&format!(
                "verify -p {raw_pk_short} -a shake-128f -s {sig} {msg}"
            )),
            Want::Error("expected 32 or 64"),
        ),
        case(
            "raw public key of the wrong length, starting with 0x30",
            words(&format!(
                "verify -p {raw_pk_short_30} -a shake-128f -s {sig} {msg}"
            )),
            Want::Error("it is 31 bytes; expected 32 or 64"),
        ),
        case(
            "raw public key starting with 0x30 (not the signer's)",
            words(&format!(
                "verify -p {raw_pk_30} -a shake-128f -s {sig} {msg}"
            )),
            Want::Invalid(""),
        ),
        case(
            "PKCS#8 v2 whose publicKey does not match",
            sv(&["sign", "-k", &v2_mismatch, "-o", &out_sig, &msg]),
            Want::Error("key pair mismatch"),
        ),
        case(
            "PKCS#8 v2 mismatch, verify -p",
            sv(&["verify", "-p", &v2_mismatch, "-s", &sig, &msg]),
            Want::Error("key pair mismatch"),
        ),
        case(
            "empty key file",
            sv(&["sign", "-k", &empty_msg, "-o", &out_sig, &msg]),
            Want::Error("(0 bytes)"),
        ),
        // Names and contexts.
        case(
            "unknown algorithm",
            sv(&["keygen", "-a", "sha2-512s", "-o", &s.o("k")]),
            Want::Error("unknown algorithm \"sha2-512s\""),
        ),
        case(
            "unknown pre-hash",
            sv(&["sign", "-k", &k, "--prehash", "md5", "-o", &out_sig, &msg]),
            Want::Error("unknown pre-hash function \"md5\""),
        ),
        case(
            "256-byte context",
            sv(&["sign", "-k", &k, "--context", &ctx256, "-o", &out_sig, &msg]),
            Want::Error("context string is 256 bytes; at most 255"),
        ),
        case(
            "256-byte context, hex, verify",
            words(&format!(
                "verify -p {p} -s {sig} --context-hex {ctx256_hex} {msg}"
            )),
            Want::Error("256 bytes"),
        ),
        case(
            "context-hex of odd length",
            words(&format!("sign -k {k} --context-hex abc -o {out_sig} {msg}")),
            Want::Error("--context-hex: odd number of hex digits"),
        ),
        case(
            "context-hex not hex",
            words(&format!("sign -k {k} --context-hex zz -o {out_sig} {msg}")),
            Want::Error("--context-hex: not a hex digit"),
        ),
        case(
            "both --context and --context-hex",
            words(&format!(
                "sign -k {k} --context a --context-hex 61 -o {out_sig} {msg}"
            )),
            Want::Error("cannot be used with"),
        ),
        case(
            "unknown option",
            sv(&["sign", "-k", &k, "--frobnicate", &msg]),
            Want::Error("--frobnicate"),
        ),
        // Messages.
        case(
            "missing message file",
            sv(&["sign", "-k", &k, "-o", &out_sig, &s.i("nope")]),
            Want::Error("cannot read"),
        ),
        case(
            "message is a directory",
            sv(&["sign", "-k", &k, "-o", &out_sig, &in_dir]),
            Want::Error("is a directory"),
        ),
        case(
            "message is a directory, verify",
            sv(&["verify", "-p", &p, "-s", &sig, &in_dir]),
            Want::Error("is a directory"),
        ),
        // /proc/self/mem opens as a 0-byte regular file, but reading it at
        // offset 0 fails (EIO) even for root: an unreadable source anywhere.
        case(
            "unreadable message",
            sv(&["sign", "-k", &k, "-o", &out_sig, "/proc/self/mem"]),
            Want::Error("reading the message failed: /proc/self/mem"),
        ),
        case(
            "unreadable key",
            sv(&["sign", "-k", "/proc/self/mem", "-o", &out_sig, &msg]),
            Want::Error("/proc/self/mem: cannot read"),
        ),
        // Outputs.
        case(
            "output in a missing directory",
            sv(&["sign", "-k", &k, "-o", &s.o("nodir/sig"), &msg]),
            Want::Error("cannot create"),
        ),
        case(
            "keygen into a missing directory",
            sv(&["keygen", "-a", "shake-128f", "-o", &s.o("nodir/k")]),
            Want::Error("cannot create"),
        ),
        case(
            "keygen -o and --pub the same",
            words(&format!(
                "keygen -a shake-128f -o {} --pub {}",
                s.o("k"),
                s.o("k")
            )),
            Want::Error("must differ"),
        ),
        case(
            "keygen -o and --pub the same, spelled differently",
            words(&format!(
                "keygen -a shake-128f -o {} --pub {} --force",
                s.o("k"),
                s.o("../out/./k")
            )),
            Want::Error("must differ"),
        ),
    ];

    // An existing output: refused without --force, and left unchanged.
    fs::write(s.o("existing"), b"keep me").unwrap();
    fs::create_dir(s.o("adir")).unwrap();
    let existing = [
        case(
            "existing output without --force",
            sv(&["sign", "-k", &k, "-o", &s.o("existing"), &msg]),
            Want::Error("already exists; use --force"),
        ),
        case(
            "existing key output without --force",
            sv(&["keygen", "-a", "shake-128f", "-o", &s.o("existing")]),
            Want::Error("already exists; use --force"),
        ),
        case(
            "existing --pub output without --force",
            words(&format!(
                "keygen -a shake-128f -o {} --pub {}",
                s.o("new"),
                s.o("existing")
            )),
            Want::Error("already exists; use --force"),
        ),
        case(
            "output is a directory",
            sv(&["sign", "-k", &k, "-o", &s.o("adir"), &msg]),
            Want::Error("is a directory"),
        ),
        case(
            "output is a directory, --force",
            sv(&["sign", "-k", &k, "-o", &s.o("adir"), "--force", &msg]),
            Want::Error("is a directory"),
        ),
        case(
            "pubkey output is a directory",
            sv(&["pubkey", &k, "-o", &s.o("adir")]),
            Want::Error("is a directory"),
        ),
    ];
    for mut c in existing {
        c.out_after = &["adir", "existing"];
        check(&s, &c);
        assert_eq!(fs::read(s.o("existing")).unwrap(), b"keep me", "{}", c.name);
        assert_eq!(fs::read_dir(s.o("adir")).unwrap().count(), 0, "{}", c.name);
    }
    fs::remove_file(s.o("existing")).unwrap();
    fs::remove_dir(s.o("adir")).unwrap();

    // An empty message is a message: it signs and verifies.
    let mut sign_empty = case(
        "empty message file",
        sv(&["sign", "-k", &k, "-o", &out_sig, &empty_msg]),
        Want::Ok,
    );
    sign_empty.out_after = &["sig"];
    cases.push(sign_empty);
    let mut verify_empty = case(
        "empty message verifies",
        sv(&["verify", "-p", &p, "-s", &out_sig, &empty_msg]),
        Want::Ok,
    );
    verify_empty.out_after = &["sig"];
    cases.push(verify_empty);
    let mut not_other = case(
        "empty message's signature is not msg's",
        sv(&["verify", "-p", &p, "-s", &out_sig, &msg]),
        Want::Invalid("invalid signature"),
    );
    not_other.out_after = &["sig"];
    cases.push(not_other);

    assert!(cases.len() >= 30);
    println!("{} cases, and {} with an existing output", cases.len(), 6);
    for c in &cases {
        check(&s, c);
    }
    let verified = sphincs(&sv(&["verify", "-p", &p, "-s", &out_sig, &empty_msg]));
    assert_eq!(verified.stdout, b"valid signature\n");
}

/// A file with mode 000 cannot be read, unless we are root (or hold
/// CAP_DAC_OVERRIDE), as CI containers often are: then the case is skipped,
/// saying why (`/proc/self/mem` in the table above covers unreadable input
/// for root too).
#[test]
fn mode_000_file() {
    let s = Scratch::new("mode-000");
    let k = s.i("k");
    let r = sphincs(&sv(&["keygen", "-a", "shake-128f", "-o", &k]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let unreadable = s.put("unreadable", b"secret message");
    fs::set_permissions(&unreadable, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(&unreadable).is_ok() {
        println!("skipped: mode 000 does not stop this user (root?) from reading; /proc/self/mem is the unreadable case");
        return;
    }
    let out = s.o("sig");
    check(
        &s,
        &case(
            "mode 000 message",
            sv(&["sign", "-k", &k, "-o", &out, &unreadable]),
            Want::Error("cannot read: Permission denied"),
        ),
    );
    check(
        &s,
        &case(
            "mode 000 key",
            sv(&["sign", "-k", &unreadable, "-o", &out, &k]),
            Want::Error("cannot read: Permission denied"),
        ),
    );
}

/// A full disk: `/dev/full` takes no data (ENOSPC). Outputs are normally
/// staged in a temporary file beside the target and renamed into place, which
/// /dev/full cannot exercise (its directory, /dev, is not full); a character
/// device or FIFO is instead written in place, so this tests the write error
/// path, and that the device node is still there afterwards (a rename over it
/// would have replaced /dev/full for root). A real full file system during
/// staging takes the same path: "cannot write", and the temporary file is removed.
#[test]
fn full_disk() {
    let full = Path::new("/dev/full");
    let Ok(meta) = fs::metadata(full) else {
        println!("skipped: no /dev/full on this system");
        return;
    };
    assert!(meta.file_type().is_char_device());
    let s = Scratch::new("full");
    let k = s.i("k");
    let r = sphincs(&sv(&["keygen", "-a", "shake-128f", "-o", &k]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let msg = s.put("msg", b"m");
    for args in [
        sv(&["sign", "-k", &k, "-o", "/dev/full", &msg]),
        sv(&["sign", "-k", &k, "-o", "/dev/full", "--force", &msg]),
        sv(&["pubkey", &k, "-o", "/dev/full"]),
        sv(&["keygen", "-a", "shake-128f", "-o", "/dev/full"]),
    ] {
        check(
            &s,
            &Case {
                name: "output to /dev/full",
                args,
                want: Want::Error("/dev/full: cannot write: No space left on device"),
                out_after: &[],
            },
        );
        let meta = fs::metadata(full).unwrap();
        assert!(
            meta.file_type().is_char_device(),
            "/dev/full is still a device"
        );
    }
    // Standard output on /dev/full fails the same way.
    let out = sphincs_command()
        .args(["sign", "-k", &k, "-o", "-", &msg])
        .stdout(fs::OpenOptions::new().write(true).open(full).unwrap())
        .output()
        .unwrap();
    Out::of(out)
        .code(2)
        .says("cannot write to standard output: No space left on device");
    // And a device that takes data works as an output, without --force.
    let r = sphincs(&sv(&["sign", "-k", &k, "-o", "/dev/null", &msg]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
}
