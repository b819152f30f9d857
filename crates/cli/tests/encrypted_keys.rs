//! Passphrase-protected keys end to end: `keygen --encrypt`, `key
//! encrypt|decrypt`, every key-reading command with --passphrase-file or
//! --passphrase-fd, and the errors (no terminal, wrong passphrase).

mod common;
use common::{assert_pem, run, spawn_sphincs, sphincs, sphincs_command, stdout_of, Out, Scratch};

#[test]
fn encrypted_keys_sign_verify_and_convert() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("enc-keys");
    let pass = s.write("pass", b"s3cret phrase\n");
    let wrong = s.write("wrong", b"nope\n");
    // Passphrase files as they should be (a looser mode is warned about).
    for p in [&pass, &wrong] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let msg = s.write("msg", b"release 1.0");
    let (key, pubk, sig) = (s.p("k.pem"), s.p("k.pub"), s.p("m.sig"));
    // A HashSLH-DSA key, encrypted at birth.
    run(&format!("keygen -a shake-128f --prehash shake-128 --encrypt --passphrase-file {pass} -o {key} --pub {pubk}"))
    .ok();
    assert_pem(&s.read("k.pem"), "ENCRYPTED PRIVATE KEY");
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
    assert_pem(&s.read("plain.pem"), "PRIVATE KEY");
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
    std::fs::set_permissions(&empty, std::fs::Permissions::from_mode(0o600)).unwrap();
    let line = format!(
        "key encrypt --passphrase-file {empty} {plain} -o {}",
        s.p("z")
    );
    s.refused_without(&line, "z", "empty");
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
    assert_pem(&stdout, "PUBLIC KEY");
}

/// `--passphrase-fd 0` with the message on the same standard input: the
/// first line is the passphrase and nothing beyond it is read, from a pipe
/// and from a file alike; another descriptor naming the same file as
/// standard input is refused.
#[test]
fn passphrase_fd_reads_one_line_only() {
    use std::io::Write;
    use std::process::Stdio;
    let s = Scratch::new("enc-fd-line");
    let pass = s.write("pass", b"pw\n");
    let (key, pubk, sig) = (s.p("k.pem"), s.p("k.pub"), s.p("m.sig"));
    run(&format!(
        "keygen -a shake-128f --encrypt --passphrase-file {pass} -o {key} --pub {pubk}"
    ))
    .ok();
    let msg = s.write("msg", b"msg\n");
    let empty = s.write("empty", b"");
    let both = s.write("both", b"pw\nmsg\n");
    let args = [
        "--passphrase-fd",
        "0",
        "sign",
        "-k",
        &key,
        "-o",
        &sig,
        "--force",
        "-",
    ];
    // From a pipe.
    let mut child = spawn_sphincs(&args, Stdio::piped(), Stdio::piped());
    child.stdin.take().unwrap().write_all(b"pw\nmsg\n").unwrap();
    Out::of(child.wait_with_output().unwrap()).ok();
    sphincs(&["verify", "-p", &pubk, "-s", &sig, &msg]).ok();
    sphincs(&["verify", "-p", &pubk, "-s", &sig, &empty]).code(1);
    // From a file (`< both`): the offset is shared, the message is the rest.
    std::fs::remove_file(&sig).unwrap();
    stdout_of(
        sphincs_command()
            .args(args)
            .stdin(Stdio::from(std::fs::File::open(&both).unwrap())),
    );
    sphincs(&["verify", "-p", &pubk, "-s", &sig, &msg]).ok();
    // Descriptor 3 opened on the same file as standard input (`3<&0`, as a
    // shell would): refused, and no signature is written.
    std::fs::remove_file(&sig).unwrap();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" 3<&0")
        .arg(env!("CARGO_BIN_EXE_sphincs"))
        .args(["--passphrase-fd", "3"])
        .args(&args[2..])
        .stdin(Stdio::from(std::fs::File::open(&both).unwrap()))
        .stdout(Stdio::null())
        .output()
        .unwrap();
    Out::of(out)
        .code(2)
        .says("--passphrase-fd 3 is standard input again");
    assert!(!std::path::Path::new(&sig).exists());
}

/// A private key or passphrase file readable by its group or others gets a
/// one-line warning, as ssh gives; the command still runs.
#[test]
fn secrets_readable_by_others_are_warned_about() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("enc-perms");
    let pass = s.write("pass", b"perm phrase\n");
    let msg = s.write("msg", b"m");
    let (key, plain, sig) = (s.p("k.pem"), s.p("plain.pem"), s.p("m.sig"));
    let chmod = |p: &str, mode: u32| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    chmod(&pass, 0o600);
    run(&format!(
        "keygen -a shake-128f --encrypt --passphrase-file {pass} -o {key}"
    ))
    .ok();
    run(&format!(
        "key decrypt --passphrase-file {pass} {key} -o {plain}"
    ))
    .ok();
    // Mode 0600: no warning.
    let out = run(&format!("sign -k {plain} -o {sig} {msg}")).ok();
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
    // Mode 0644 key, 0640 passphrase: one warning each, and the work done.
    chmod(&plain, 0o644);
    let out = run(&format!("sign -k {plain} -o {sig} --force {msg}")).ok();
    assert!(
        out.stderr.contains("warning: ")
            && out.stderr.contains(
                "plain.pem (a private key) is readable by its group and others (mode 0644)"
            ),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    chmod(&pass, 0o640);
    let out = run(&format!(
        "sign --passphrase-file {pass} -k {key} -o {sig} --force {msg}"
    ))
    .ok();
    assert!(
        out.stderr
            .contains("pass (a passphrase) is readable by its group (mode 0640)"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
}
