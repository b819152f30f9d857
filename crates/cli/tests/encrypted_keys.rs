//! Passphrase-protected keys end to end: `keygen --encrypt`, `key
//! encrypt|decrypt`, every key-reading command with --passphrase-file or
//! --passphrase-fd, and the errors (no terminal, wrong passphrase).

mod common;
use common::{run, sphincs, sphincs_command, stdout_of, Scratch};

#[test]
fn encrypted_keys_sign_verify_and_convert() {
    let s = Scratch::new("enc-keys");
    let pass = s.write("pass", b"s3cret phrase\n");
    let wrong = s.write("wrong", b"nope\n");
    let msg = s.write("msg", b"release 1.0");
    let (key, pubk, sig) = (s.p("k.pem"), s.p("k.pub"), s.p("m.sig"));
    // A HashSLH-DSA key, encrypted at birth.
    run(&format!("keygen -a shake-128f --prehash shake-128 --encrypt --passphrase-file {pass} -o {key} --pub {pubk}"))
    .ok();
    assert!(s
        .read("k.pem")
        .starts_with(b"-----BEGIN ENCRYPTED PRIVATE KEY-----\n"));
    // No passphrase source and no terminal: a clear error, exit 2.
    sphincs(&["sign", "-k", &key, "-o", &sig, &msg]).usage_error("--passphrase-file");
    run(&format!(
        "sign --passphrase-file {wrong} -k {key} -o {sig} {msg}"
    ))
    .usage_error("wrong passphrase");
    assert!(!s.path("m.sig").exists(), "no output left on an error");
    run(&format!(
        "sign --passphrase-file {pass} -k {key} -o {sig} {msg}"
    ))
    .ok();
    sphincs(&["verify", "-p", &pubk, "-s", &sig, &msg]).ok();
    // pubkey of the encrypted key equals the written public key.
    let out = sphincs(&["pubkey", "--passphrase-file", &pass, &key]).ok();
    assert_eq!(out.stdout, s.read("k.pub"));

    // key decrypt / encrypt round trip, never clobbering.
    let plain = s.p("plain.pem");
    run(&format!(
        "key decrypt --passphrase-file {pass} {key} -o {plain}"
    ))
    .ok();
    assert!(s
        .read("plain.pem")
        .starts_with(b"-----BEGIN PRIVATE KEY-----\n"));
    let before = s.read("plain.pem");
    run(&format!(
        "key decrypt --passphrase-file {pass} {key} -o {plain}"
    ))
    .usage_error("exists");
    assert_eq!(s.read("plain.pem"), before);
    run(&format!(
        "key decrypt --passphrase-file {pass} {plain} -o {}",
        s.p("x")
    ))
    .usage_error("is not encrypted");
    let again = s.p("again.der");
    // Re-encrypted as DER (--passphrase-fd is tested below).
    run(&format!(
        "key encrypt --passphrase-file {pass} --der {plain} -o {again}"
    ))
    .ok();
    run(&format!(
        "key encrypt --passphrase-file {pass} {again} -o {}",
        s.p("y")
    ))
    .usage_error("already encrypted");
    let out = sphincs(&["pubkey", "--passphrase-file", &pass, &again]).ok();
    assert_eq!(out.stdout, s.read("k.pub"));
    // An empty passphrase is refused.
    let empty = s.write("empty", b"\n");
    run(&format!(
        "key encrypt --passphrase-file {empty} {plain} -o {}",
        s.p("z")
    ))
    .usage_error("empty");
    assert!(!s.path("z").exists());
}

#[test]
fn passphrase_from_a_descriptor() {
    use std::process::Stdio;
    let s = Scratch::new("enc-fd");
    let pass = s.write("pass", b"fd phrase\n");
    let key = s.p("k.pem");
    run(&format!(
        "keygen -a sha2-128f --encrypt --passphrase-file {pass} -o {key}"
    ))
    .ok();
    // The passphrase on standard input, named as descriptor 0.
    let stdout = stdout_of(
        sphincs_command()
            .args(["pubkey", "--passphrase-fd", "0", &key])
            .stdin(Stdio::from(std::fs::File::open(s.path("pass")).unwrap())),
    );
    assert!(stdout.starts_with(b"-----BEGIN PUBLIC KEY-----\n"));
}
