//! Data safety against hostile or mistaken input: an output never replaces
//! one of the command's inputs (through any link, with or without --force);
//! keys, signatures, certificates and CMS are read with a size cap
//! (`/dev/zero` and endless FIFOs refused quickly in little memory); an
//! interrupt removes the staged temporary files.

mod common;

use std::fs;
use std::os::unix::fs::symlink;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    args_of, first_stderr_line, key_and_cert, run, spawn_sphincs, sphincs, sphincs_command,
    wait_exit_and_peak_rss, Out, Scratch,
};

const SAME: &str = "is the same file as the input";

/// A key pair, a self-signed certificate, a request and a message.
fn setup(s: &Scratch) {
    run(&format!(
        "keygen -a shake-128f -o {} --pub {}",
        s.p("k.pem"),
        s.p("pub.pem")
    ))
    .ok();
    sphincs(&[
        "cert",
        "self-signed",
        "-k",
        &s.p("k.pem"),
        "--subject",
        "CN=Robust CA",
        "--ca",
        "-o",
        &s.p("c.pem"),
    ])
    .ok();
    run(&format!(
        "cert request -k {} --subject CN=Leaf -o {}",
        s.p("k.pem"),
        s.p("r.csr")
    ))
    .ok();
    s.write("doc", b"the document, which must survive");
}

/// Runs `args` and checks the refusal: exit 2, one line naming the clash,
/// and every file of the scratch directory as it was (no temporary left).
fn refused(s: &Scratch, args: &[&str]) {
    let before = snapshot(s);
    sphincs(args).usage_error(SAME);
    assert_eq!(snapshot(s), before, "{args:?} changed the directory");
}

/// `refused` with the arguments split on spaces (none of ours have one).
fn refused_line(s: &Scratch, line: &str) {
    refused(s, &line.split(' ').collect::<Vec<_>>());
}

fn snapshot(s: &Scratch) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = fs::read_dir(&s.0)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = fs::read(e.path()).unwrap_or_default();
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn no_command_writes_over_one_of_its_inputs() {
    let s = Scratch::new("robust-same-file");
    setup(&s);
    let (k, c, r, doc) = (s.p("k.pem"), s.p("c.pem"), s.p("r.csr"), s.p("doc"));
    fs::create_dir(s.path("sub")).unwrap();
    symlink(s.path("k.pem"), s.path("k-link")).unwrap();
    fs::hard_link(s.path("doc"), s.path("doc-hard")).unwrap();
    let (k_link, doc_hard, k_dotdot) = (s.p("k-link"), s.p("doc-hard"), s.p("sub/../k.pem"));
    for out in [&k, &k_link, &k_dotdot] {
        refused(&s, &["pubkey", &k, "-o", out, "--force"]);
        refused(&s, &["pubkey", &k, "-o", out]);
    }
    // A single signature over the message or the key, with or without --force.
    for out in [&doc, &doc_hard, &k] {
        refused(&s, &["sign", "-k", &k, &doc, "-o", out, "--force"]);
    }
    refused(&s, &["sign", "-k", &k, &doc, "-o", &doc]);
    refused_line(
        &s,
        &format!("sign -k {k} --prehash SHA2-256 {doc} -o {doc} --force"),
    );
    // Many files: a FILE.sig that is the key.
    s.write("a", b"a");
    fs::copy(s.path("k.pem"), s.path("a.sig")).unwrap();
    refused(
        &s,
        &["sign", "-k", &s.p("a.sig"), &s.p("a"), &doc, "--force"],
    );
    fs::remove_file(s.path("a.sig")).unwrap();
    // CMS, detached (in memory) and attached (streamed into the output), and PEM.
    for extra in [&["--detached"][..], &[], &["--pem"]] {
        for out in [&doc, &c, &k] {
            let mut args = vec![
                "cms", "sign", "-k", &k, "--cert", &c, &doc, "-o", out, "--force",
            ];
            args.extend_from_slice(extra);
            refused(&s, &args);
        }
    }
    // Certificates and requests.
    for out in [&k, &k_link] {
        for cmd in ["self-signed", "request"] {
            refused_line(
                &s,
                &format!("cert {cmd} -k {k} --subject CN=x -o {out} --force"),
            );
        }
    }
    for out in [&r, &c, &k] {
        refused_line(
            &s,
            &format!("cert issue --ca-key {k} --ca-cert {c} {r} -o {out} --force"),
        );
    }
    // ACVP: the answer over its prompt.
    let prompt = s.write(
        "prompt.json",
        br#"{"vsId": 1, "algorithm": "SLH-DSA", "mode": "keyGen", "revision": "FIPS205",
            "testGroups": [{"tgId": 1, "testType": "AFT", "parameterSet": "SLH-DSA-SHAKE-128f",
            "tests": [{"tcId": 1, "skSeed": "173D04C938C1C36BF289C3C022D04B14",
            "skPrf": "63AE23C41AA546DA589774AC20B745C4", "pkSeed": "0D794777914C99766827F0F09CA972BE"}]}]}"#,
    );
    refused(&s, &["acvp", &prompt, "-o", &prompt, "--force"]);
    // Round 3.1 and SPHINCS-256 raw keys.
    for (alg, name) in [
        ("sphincs-shake-128f-simple", "spx.key"),
        ("sphincs-256", "s256.key"),
    ] {
        let key = s.p(name);
        sphincs(&["keygen", "-a", alg, "-o", &key]).ok();
        refused(&s, &["pubkey", "-a", alg, &key, "-o", &key, "--force"]);
        refused(
            &s,
            &["sign", "-a", alg, "-k", &key, &doc, "-o", &doc, "--force"],
        );
    }
    // Standard input redirected from the output file.
    let before = snapshot(&s);
    let out = sphincs_command()
        .args(["sign", "-k", &k, "-o", &doc, "--force"])
        .stdin(fs::File::open(s.path("doc")).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(SAME) && err.contains("standard input"),
        "{err}"
    );
    assert_eq!(snapshot(&s), before);
    // Control: distinct files are written as before.
    sphincs(&["sign", "-k", &k, &doc, "-o", &s.p("doc.sig")]).ok();
    sphincs(&["pubkey", &k, "-o", &s.p("pub.pem"), "--force"]).ok();
    sphincs(&["verify", "-p", &s.p("pub.pem"), "-s", &s.p("doc.sig"), &doc]).ok();
}

/// Runs the CLI, returning what it did, its wall time and its peak RSS (KiB).
fn measured(args: &[&str]) -> (Out, Duration, i64) {
    measured_with(args, false)
}

/// [`measured`] with standard input a pipe fed `A`s until the command
/// stops reading.
fn measured_fed(args: &[&str]) -> (Out, Duration, i64) {
    measured_with(args, true)
}

// The child is reaped by wait4 below, which std's Child cannot do itself.
#[allow(clippy::zombie_processes)]
fn measured_with(args: &[&str], fed: bool) -> (Out, Duration, i64) {
    let start = Instant::now();
    let stdin = if fed { Stdio::piped() } else { Stdio::null() };
    let mut child = spawn_sphincs(args, stdin, Stdio::piped());
    let feeder = child.stdin.take().map(|mut stdin| {
        std::thread::spawn(move || {
            use std::io::Write;
            let line = [b'A'; 4096];
            // Ends when the reader goes away (EPIPE).
            while stdin.write_all(&line).is_ok() {}
        })
    });
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut s).unwrap();
        s
    });
    let (code, peak_rss) = wait_exit_and_peak_rss(&child);
    let took = start.elapsed();
    if let Some(f) = feeder {
        f.join().unwrap();
    }
    let out = Out {
        args: String::new(),
        code,
        stdout: Vec::new(),
        stderr: reader.join().unwrap(),
    };
    (out, took, peak_rss)
}

fn bounded(args: &[&str], needle: &str) {
    let (out, took, rss) = measured(args);
    out.usage_error(needle);
    assert!(took < Duration::from_secs(1), "{args:?} took {took:?}");
    assert!(rss < 64 * 1024, "{args:?} peaked at {rss} KiB");
}

#[test]
fn endless_inputs_are_refused_in_bounded_time_and_memory() {
    let s = Scratch::new("robust-bounded");
    setup(&s);
    let (k, c, pubk, doc) = (s.p("k.pem"), s.p("c.pem"), s.p("pub.pem"), s.p("doc"));
    let z = "/dev/zero";
    bounded(
        &["sign", "-k", z, &doc, "-o", &s.p("x")],
        "larger than any key file",
    );
    bounded(&["pubkey", z], "larger than any key file");
    bounded(
        &["sign", "-a", "sphincs-256", "-k", z, &doc, "-o", &s.p("x")],
        "larger than any key file",
    );
    bounded(
        &["verify", "-p", z, "-s", z, &doc],
        "larger than any key file",
    );
    // A signature longer than any is an invalid signature (exit 1), read
    // no further than one byte past the largest.
    let (out, took, rss) = measured(&["verify", "-p", &pubk, "-s", z, &doc]);
    out.invalid("longer than any signature (at most 49856 bytes)");
    assert!(
        took < Duration::from_secs(1) && rss < 64 * 1024,
        "{took:?} {rss}"
    );
    bounded(&["cert", "show", z], "neither DER nor text");
    bounded(&["cert", "verify", z], "neither DER nor text");
    bounded(
        &["cms", "verify", "--signature-only", z],
        "neither DER nor text",
    );
    bounded(
        &["cms", "sign", "-k", &k, "--cert", z, &doc],
        "neither DER nor text",
    );
    bounded(
        &["acvp", z],
        "neither DER nor text (PEM or JSON): not an ACVP prompt",
    );
    // A FILE.sig that is a symlink to /dev/zero fails its file alone: a
    // signature longer than any, so invalid (exit 1).
    symlink(z, s.path("doc.sig")).unwrap();
    let (out, took, rss) = measured(&["verify", "-p", &pubk, &doc]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        took < Duration::from_secs(1) && rss < 64 * 1024,
        "{took:?} {rss}"
    );
    let text = sphincs(&["verify", "-p", &pubk, &doc]).code(1).text();
    assert!(text.contains("longer than any signature"), "{text}");
    // Text that never ends (a pipe fed forever, named as /dev/stdin) as a
    // certificate and a key.
    for (args, needle) in [
        (
            vec!["cert", "show", "/dev/stdin"],
            "larger than any certificate or request (at most 1 MiB)",
        ),
        (
            vec!["pubkey", "/dev/stdin"],
            "larger than any key file (at most 1 MiB)",
        ),
    ] {
        let (out, took, rss) = measured_fed(&args);
        out.usage_error(needle);
        assert!(took < Duration::from_secs(1), "{args:?} took {took:?}");
        assert!(rss < 64 * 1024, "{args:?} peaked at {rss} KiB");
    }
    // A named pipe (FIFO) no one writes to: refused before it is opened
    // (opening it would wait for a writer forever), by every command that
    // reads a key or certificate file.
    let fifo = s.p("nobody.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let f = fifo.as_str();
    for args in [
        vec!["key", "show", f],
        vec!["key", "passwd", f],
        vec!["fingerprint", f],
        vec!["pubkey", f],
        vec!["cert", "show", f],
        vec!["sign", "-k", f, &doc, "-o", &s.p("x")],
        vec!["verify", "-p", f, &doc],
    ] {
        bounded(&args, "is a named pipe (FIFO)");
    }
    // Control: the real files still read.
    sphincs(&["cert", "show", &c]).ok();
    sphincs(&["sign", "-k", &k, &doc, "-o", &s.p("doc2.sig")]).ok();
}

/// Hidden temporary files (`.NAME.PID-K.tmp`) in the directory.
fn temps(s: &Scratch) -> Vec<String> {
    fs::read_dir(&s.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && n.ends_with(".tmp"))
        .collect()
}

/// Starts `args`, waits until it has a temporary file, sends SIGINT, and
/// checks that it died of it leaving no temporary file and no `target`s.
fn interrupted(s: &Scratch, args: &[&str], targets: &[&str]) {
    let mut child = spawn_sphincs(args, Stdio::null(), Stdio::null());
    let deadline = Instant::now() + Duration::from_secs(120);
    while temps(s).is_empty() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before it staged anything"
        );
        assert!(Instant::now() < deadline, "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(2));
    }
    // SAFETY: kill(2) on our own running child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    assert_eq!(temps(s), Vec::<String>::new(), "{args:?}");
    for t in targets {
        assert!(!s.path(t).exists(), "{t} was written");
    }
}

#[test]
fn an_interrupt_leaves_no_temporary_file() {
    let s = Scratch::new("robust-sigint");
    sphincs(&["keygen", "-a", "shake-128s", "-o", &s.p("k.pem")]).ok();
    // Many files on one thread: signatures are staged four at a time and
    // committed only when all 40 are done.
    let mut names = Vec::new();
    for i in 0..40 {
        names.push(s.write(&format!("m{i}"), format!("message {i}").as_bytes()));
    }
    let mut args = vec!["sign", "-k", "k.pem", "--threads", "1"];
    let k = s.p("k.pem");
    args[2] = &k;
    args.extend(names.iter().map(String::as_str));
    let sigs: Vec<String> = (0..40).map(|i| format!("m{i}.sig")).collect();
    let sig_refs: Vec<&str> = sigs.iter().map(String::as_str).collect();
    interrupted(&s, &args, &sig_refs);
    // A large attached CMS SignedData, interrupted while its content streams
    // into the temporary file (a sparse file: no disk used for the input).
    let (f, big) = (s.p("f"), s.p("big"));
    let (f_key, f_cert) = (format!("{f}.pem"), format!("{f}.crt"));
    key_and_cert("shake-128f", &f_key, &f_cert, &["--subject", "CN=x"]);
    let file = fs::File::create(&big).unwrap();
    file.set_len(1 << 30).unwrap();
    drop(file);
    let cms = format!("cms sign -k {f_key} --cert {f_cert} {big} -o {big}.p7s");
    interrupted(&s, &args_of(&cms), &["big.p7s"]);
}

/// A draft SP 800-230 key's tree cache (`KEY.tree`) is read with a cap too:
/// `/dev/zero` there is refused at once (in little memory) and the key's tree
/// recomputed from the seeds, which this test does not wait for.
#[test]
fn an_endless_tree_cache_is_refused() {
    let s = Scratch::new("robust-tree");
    // Any 4n bytes are a raw key of the set; the cache is checked against
    // the key only after it has been read.
    fs::write(s.path("k.key"), [7u8; 64]).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(s.path("k.key"), fs::Permissions::from_mode(0o600)).unwrap();
    fs::write(s.path("doc"), b"firmware").unwrap();
    symlink("/dev/zero", s.path("k.key.tree")).unwrap();
    let (k, doc, out) = (s.p("k.key"), s.p("doc"), s.p("doc.sig"));
    let args = [
        "sign",
        "-a",
        "SLH-DSA-SHA2-128-24",
        "-k",
        &k,
        &doc,
        "-o",
        &out,
    ];
    // Its first message, and its peak memory until then; then it is stopped.
    let (line, hwm_kib) = first_stderr_line(&args, Duration::from_secs(5));
    let line = line.expect("a message about the tree cache within 5 s");
    assert!(
        line.contains("is not a regular file") && line.contains("not using it"),
        "{line}"
    );
    assert!(hwm_kib < 64 * 1024, "peaked at {hwm_kib} KiB");
    assert!(!s.path("doc.sig").exists());
}

/// Names are data: a file name holding a newline or a terminal escape
/// cannot forge a status line nor reach the terminal; it is quoted and
/// escaped, as git quotes paths.
#[test]
fn names_are_quoted_in_status_and_error_lines() {
    let s = Scratch::new("names");
    setup(&s);
    let evil = s.write("evil\ngood: valid signature", b"tampered later\n");
    let esc = s.write("\x1b[2Jred", b"escape\n");
    let (k, p) = (s.p("k.pem"), s.p("pub.pem"));
    let out = sphincs(&["sign", "-k", &k, &evil, &esc]).ok().text();
    assert!(!out.contains('\x1b'), "{out:?}");
    assert_eq!(out.lines().count(), 2, "{out:?}");
    fs::write(&evil, b"tampered\n").unwrap();
    let out = sphincs(&["verify", "-p", &p, &evil, &esc]);
    let text = out.text();
    assert_eq!(out.code, 1, "{text:?}");
    assert!(
        !text.lines().any(|l| l.starts_with("good: valid")),
        "{text:?}"
    );
    assert!(
        text.contains("evil\\ngood: valid signature\": invalid signature"),
        "{text:?}"
    );
    assert!(text.contains("\\x1b[2Jred\": valid signature"), "{text:?}");
    assert!(
        !text.contains('\x1b') && !out.stderr.contains('\x1b'),
        "{text:?}"
    );
    // An error line about such a file: one line, escaped.
    let missing = s.p("gone\nsphincs: all good");
    sphincs(&["verify", "-p", &p, "-s", &missing, &esc]).usage_error("gone\\nsphincs: all good");
}

/// A signature one byte longer than the largest is an invalid signature
/// (exit 1), alone and in a batch, as one that is one byte short is.
#[test]
fn one_byte_too_long_is_an_invalid_signature() {
    let s = Scratch::new("sig-too-long");
    setup(&s);
    let (k, p, doc) = (s.p("k.pem"), s.p("pub.pem"), s.p("doc"));
    let other = s.write("other", b"another document");
    run(&format!("sign -k {k} {doc} {other}")).ok();
    let sig = s.read("doc.sig");
    let mut long = sig.clone();
    long.resize(49_857, 0);
    s.write("doc.sig", &long);
    sphincs(&["verify", "-p", &p, "-s", &s.p("doc.sig"), &doc])
        .invalid("longer than any signature");
    let out = sphincs(&["verify", "-p", &p, &doc, &other]).code(1);
    assert!(
        out.text().contains("doc: invalid signature"),
        "{}",
        out.text()
    );
    assert!(
        out.text().contains("other: valid signature"),
        "{}",
        out.text()
    );
    s.write("doc.sig", &sig[..sig.len() - 1]);
    sphincs(&["verify", "-p", &p, "-s", &s.p("doc.sig"), &doc]).invalid("invalid signature");
}

/// Messages that are not regular files: type and size from the opened
/// descriptor; read into memory or hashed from a device up to 256 MiB, then
/// refused with a clear error; in a batch, FIFOs and devices (through a
/// symlink too) are refused before they are opened.
#[test]
fn messages_that_are_not_regular_files() {
    let s = Scratch::new("robust-messages");
    setup(&s);
    let (k, c, pubk, doc) = (s.p("k.pem"), s.p("c.pem"), s.p("pub.pem"), s.p("doc"));
    run(&format!("sign -k {k} {doc}")).ok();
    let z = "/dev/zero";
    let capped = |args: &[&str], needle: &str| {
        let (out, took, _) = measured(args);
        out.usage_error(needle);
        assert!(took < Duration::from_secs(30), "{args:?} took {took:?}");
    };
    capped(
        &["sign", "-k", &k, z, "-o", &s.p("x")],
        "longer than 256 MiB",
    );
    let cms = format!("cms sign -k {k} --cert {c} --detached {z} -o {}", s.p("x"));
    capped(&args_of(&cms), "read up to 256 MiB");
    capped(
        &["verify", "-p", &pubk, "-s", &s.p("doc.sig"), z],
        "read up to 256 MiB",
    );
    assert!(!s.path("x").exists());
    // Batches: a symlink to /dev/zero and a FIFO, refused at once.
    symlink(z, s.path("zero")).unwrap();
    let made = Command::new("mkfifo").arg(s.path("fifo")).status().unwrap();
    assert!(made.success());
    for bad in ["zero", "fifo"] {
        let (out, took, _) =
            measured(&["sign", "-k", &k, &doc, &s.p(bad), "--out-dir", &s.p("sigs")]);
        out.usage_error("is not a regular file");
        assert!(took < Duration::from_secs(5), "{bad}: {took:?}");
        let start = Instant::now();
        let out = sphincs(&["verify", "-p", &pubk, &doc, &s.p(bad)]).code(2);
        let took = start.elapsed();
        assert!(
            out.text().contains("is not a regular file"),
            "{}",
            out.text()
        );
        assert!(took < Duration::from_secs(5), "{bad}: {took:?}");
    }
}

/// `cms sign --detached -` reads standard input once, as it arrives (the
/// digest is all it needs): 128 MiB through a pipe in a few MiB of memory
/// (7.7 MiB peak run alone, as for 1 MiB).
#[test]
// The child is reaped by wait4 (wait_exit_and_peak_rss), which std's Child cannot do itself.
#[allow(clippy::zombie_processes)]
fn cms_sign_detached_streams_standard_input() {
    use std::io::Write;
    let s = Scratch::new("robust-cms-pipe");
    setup(&s);
    let (k, c, out) = (s.p("k.pem"), s.p("c.pem"), s.p("out.p7s"));
    let cms = format!("cms sign -k {k} --cert {c} --detached - -o {out}");
    let mut child = spawn_sphincs(&args_of(&cms), Stdio::piped(), Stdio::null());
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..128 {
            stdin.write_all(&chunk).unwrap();
        }
    });
    let (code, rss) = wait_exit_and_peak_rss(&child);
    writer.join().unwrap();
    assert_eq!(code, 0);
    // (The bound leaves room for what the forked test process held.)
    assert!(
        rss < 64 * 1024,
        "peaked at {rss} KiB for 128 MiB of content"
    );
    // Written a MiB at a time: a forked sibling test would count a 128 MiB
    // buffer of this process in its own peak.
    let mut file = fs::File::create(s.path("content")).unwrap();
    let mib = vec![b'x'; 1 << 20];
    for _ in 0..128 {
        file.write_all(&mib).unwrap();
    }
    drop(file);
    let content = s.p("content");
    sphincs(&["cms", "verify", "--cert", &c, "--content", &content, &out]).ok();
}

/// Batch verification reads each signature just before it is checked, a
/// chunk at a time: 1500 signatures (25 MB) cost no more memory than 10.
/// (Before, every signature was read up front: 10 000 files took 177 MB.)
#[test]
fn batch_verify_reads_signatures_as_it_goes() {
    let s = Scratch::new("robust-batch-mem");
    let (key, pubk) = (s.p("k.pem"), s.p("k.pub"));
    sphincs(&["keygen", "-a", "sha2-128f", "-o", &key, "--pub", &pubk]).ok();
    fs::create_dir(s.path("d")).unwrap();
    let junk = vec![0x5au8; 17088]; // an SLH-DSA-SHA2-128f signature's length
    let mut names = Vec::new();
    for i in 0..1500 {
        let name = s.p(&format!("d/f{i}"));
        fs::write(&name, [i as u8]).unwrap();
        fs::write(format!("{name}.sig"), &junk).unwrap();
        names.push(name);
    }
    let peak = |n: usize| {
        let mut args = vec!["verify", "-q", "-p", &pubk];
        args.extend(names[..n].iter().map(String::as_str));
        let (out, _, rss) = measured(&args);
        assert_eq!(out.code, 1, "every signature is invalid: {}", out.stderr);
        rss
    };
    let (few, many) = (peak(10), peak(1500));
    assert!(
        many < few + 8 * 1024,
        "1500 files peaked at {many} KiB, 10 files at {few} KiB"
    );
}

/// `acvp` counts a prompt's JSON items before parsing it: 1.5 million tiny
/// items (3 MB of text, which parsed would take ~17× that) are refused at
/// once, as is a vector set of more tests than it answers.
#[test]
fn acvp_prompts_of_tiny_items_are_refused_before_parsing() {
    let s = Scratch::new("robust-acvp-items");
    let mut items = b"[1".to_vec();
    items.extend(b",1".repeat(1_500_000));
    items.push(b']');
    let prompt = s.write("items.json", &items);
    let (out, _, rss) = measured(&["acvp", &prompt]);
    out.usage_error("more than 1000000 JSON items");
    assert!(rss < 32 * 1024, "peaked at {rss} KiB");
    let tests = (0..10_001)
        .map(|i| format!("{{\"tcId\":{i}}}"))
        .collect::<Vec<_>>()
        .join(",");
    let set = format!(
        "{{\"algorithm\":\"SLH-DSA\",\"mode\":\"keyGen\",\"revision\":\"FIPS205\",\
         \"testGroups\":[{{\"tgId\":1,\"parameterSet\":\"SLH-DSA-SHA2-128f\",\"tests\":[{tests}]}}]}}"
    );
    let prompt = s.write("tests.json", set.as_bytes());
    sphincs(&["acvp", &prompt]).usage_error("has 10001 tests; this answers at most 10000");
}

/// Attached `cms verify` converts and decodes the SignedData in place: a
/// 32 MiB content peaks near 3× its size (the file, its DER, the decoded
/// content), where each BER layer's copy made it 5× before.
#[test]
fn attached_cms_verify_holds_the_content_about_three_times() {
    let s = Scratch::new("robust-cms-mem");
    setup(&s);
    let content: Vec<u8> = (0..32u32 << 20).map(|i| (i * 7 + i / 977) as u8).collect();
    let doc = s.write("big", &content);
    drop(content);
    let signed = s.p("big.p7");
    let key = s.p("k.pem");
    let cert = s.p("c.pem");
    sphincs(&[
        "cms", "sign", "-k", &key, "--cert", &cert, &doc, "-o", &signed,
    ])
    .ok();
    let (out, _, rss) = measured(&["cms", "verify", "--cert", &cert, &signed]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mib = rss / 1024;
    assert!(
        mib < 4 * 32 + 8,
        "peaked at {mib} MiB for 32 MiB of content"
    );
}
