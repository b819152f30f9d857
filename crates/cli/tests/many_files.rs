//! `sphincs sign -k KEY FILE...` and `sphincs verify -p PUB FILE...`: a
//! signature file per file, through the batch APIs; one line per file; exit 1
//! if any signature is invalid, 2 if any file could not be checked; no output
//! left behind after an error, nothing replaced without --force.

mod common;

use std::fs;
use std::path::Path;

use common::{sphincs, Scratch};

/// `count` message files m0..m{count-1} of different lengths.
fn messages(d: &Scratch, count: usize) -> Vec<String> {
    (0..count)
        .map(|i| d.write(&format!("m{i}"), &vec![i as u8; 100 * i + 1]))
        .collect()
}

/// Runs `sphincs ARGS` (no panic): exit status, standard output and error.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = sphincs(args);
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    (out.code, out.text(), out.stderr)
}

fn with<'a>(head: &[&'a str], files: &'a [String]) -> Vec<&'a str> {
    head.iter()
        .copied()
        .chain(files.iter().map(String::as_str))
        .collect()
}

#[test]
fn sign_and_verify_many_files_fips205() {
    let d = Scratch::new("fips");
    let (key, public) = (d.p("k.pem"), d.p("k.pub"));
    let (code, _, e) = run(&["keygen", "-a", "shake-128f", "-o", &key, "--pub", &public]);
    assert_eq!(code, 0, "{e}");
    let files = messages(&d, 6);
    let sign = ["sign", "-k", &key, "--context", "rel", "--deterministic"];
    let (code, out, e) = run(&with(&[&sign[..], &["--threads", "2"]].concat(), &files));
    assert_eq!(code, 0, "{e}");
    assert_eq!(out.lines().count(), 6, "{out}");
    // No progress bar when standard error is not a terminal.
    assert!(e.is_empty(), "{e}");
    // Each FILE.sig equals the one-file deterministic signature.
    for f in &files {
        let one = format!("{f}.one");
        let (code, _, e) = run(&[&sign[..], &["-o", &one, f]].concat());
        assert_eq!(code, 0, "{e}");
        assert_eq!(
            fs::read(format!("{f}.sig")).unwrap(),
            fs::read(format!("{f}.one")).unwrap()
        );
        fs::remove_file(format!("{f}.one")).unwrap();
    }
    let (code, out, e) = run(&with(
        &["verify", "-p", &public, "--context", "rel"],
        &files,
    ));
    assert_eq!(code, 0, "{e}");
    assert_eq!(out.matches(": valid signature").count(), 6, "{out}");
    // Without the context every signature is invalid: exit 1.
    let (code, out, _) = run(&with(&["verify", "-p", &public], &files));
    assert_eq!(code, 1);
    assert_eq!(out.matches("invalid signature").count(), 6, "{out}");
    // One tampered file, one truncated signature, one missing: 2 (an error wins).
    fs::write(&files[1], b"tampered").unwrap();
    let sig2 = fs::read(format!("{}.sig", files[2])).unwrap();
    fs::write(format!("{}.sig", files[2]), &sig2[1..]).unwrap();
    let (code, out, _) = run(&with(
        &["verify", "-p", &public, "--context", "rel"],
        &files,
    ));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("{}: invalid signature", files[1])),
        "{out}"
    );
    assert!(
        out.contains(&format!("{}: invalid signature: signature is", files[2])),
        "{out}"
    );
    assert_eq!(out.matches(": valid signature").count(), 4, "{out}");
    fs::remove_file(format!("{}.sig", files[3])).unwrap();
    let (code, out, e) = run(&with(
        &["verify", "-p", &public, "--context", "rel"],
        &files,
    ));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains(&format!("{}: error: ", files[3])), "{out}");
    assert!(e.contains("could not be checked"), "{e}");
}

#[test]
fn outputs_are_all_or_nothing_and_never_clobbered() {
    let d = Scratch::new("safety");
    let key = d.p("k.pem");
    assert_eq!(run(&["keygen", "-a", "sha2-128f", "-o", &key]).0, 0);
    let mut files = messages(&d, 3);
    let before = d.names();
    // A missing file among them: nothing is written.
    files.push(d.p("absent"));
    let (code, _, e) = run(&with(&["sign", "-k", &key], &files));
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("absent"), "{e}");
    assert_eq!(d.names(), before, "no signature or temporary file left");
    files.pop();
    // An existing m1.sig is not replaced, and no other signature is written.
    fs::write(format!("{}.sig", files[1]), b"keep").unwrap();
    let (code, _, e) = run(&with(&["sign", "-k", &key], &files));
    assert_eq!(code, 2);
    assert!(e.contains("already exists; use --force"), "{e}");
    assert_eq!(fs::read(format!("{}.sig", files[1])).unwrap(), b"keep");
    assert!(!Path::new(&format!("{}.sig", files[0])).exists());
    let (code, _, e) = run(&with(&["sign", "-k", &key, "--force"], &files));
    assert_eq!(code, 0, "{e}");
    assert_ne!(fs::read(format!("{}.sig", files[1])).unwrap(), b"keep");
    // -o with several files, standard input among several, two files of one
    // name into one --out-dir: refused before any work.
    let (code, _, e) = run(&with(&["sign", "-k", &key, "-o", &d.p("x")], &files));
    assert_eq!(code, 2);
    assert!(e.contains("-o names one signature file"), "{e}");
    let (code, _, e) = run(&["sign", "-k", &key, &files[0], "-"]);
    assert_eq!(code, 2);
    assert!(e.contains("standard input"), "{e}");
    fs::create_dir_all(d.p("sub")).unwrap();
    fs::write(d.p("sub/m0"), b"other").unwrap();
    fs::create_dir_all(d.p("sigs")).unwrap();
    let (code, _, e) = run(&[
        "sign",
        "-k",
        &key,
        "--out-dir",
        &d.p("sigs"),
        &files[0],
        &d.p("sub/m0"),
    ]);
    assert_eq!(code, 2);
    assert!(e.contains("written twice"), "{e}");
    assert!(fs::read_dir(d.p("sigs")).unwrap().next().is_none());
    // --out-dir and --sig-dir.
    let (code, _, e) = run(&with(
        &["sign", "-k", &key, "--out-dir", &d.p("sigs")],
        &files,
    ));
    assert_eq!(code, 0, "{e}");
    let (code, out, e) = run(&with(
        &["verify", "-p", &key, "--sig-dir", &d.p("sigs")],
        &files,
    ));
    assert_eq!(code, 0, "{e}");
    assert_eq!(out.matches(": valid signature").count(), 3, "{out}");
}

#[test]
fn round31_and_streamed_large_file() {
    let d = Scratch::new("r31");
    let (key, public) = (d.p("k"), d.p("k.pub"));
    let alg = "sphincs-haraka-128f-simple";
    assert_eq!(
        run(&["keygen", "-a", alg, "-o", &key, "--pub", &public]).0,
        0
    );
    let mut files = messages(&d, 3);
    // Over the in-memory limit: streamed on its own (a sparse file, quick to read).
    let big = d.p("big");
    fs::File::create(&big)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    files.insert(1, big);
    let (code, _, e) = run(&with(&["sign", "-a", alg, "-k", &key], &files));
    assert_eq!(code, 0, "{e}");
    let (code, out, e) = run(&with(&["verify", "-a", alg, "-p", &public], &files));
    assert_eq!(code, 0, "{e}");
    assert_eq!(out.matches(": valid signature").count(), 4, "{out}");
    // The big file's signature is the one-file signature's kind: it verifies alone.
    let (code, _, e) = run(&[
        "verify",
        "-a",
        alg,
        "-p",
        &public,
        "-s",
        &format!("{}.sig", files[1]),
        &files[1],
    ]);
    assert_eq!(code, 0, "{e}");
    let (code, _, e) = run(&with(
        &["verify", "-a", alg, "-p", &public, "--context", "x"],
        &files,
    ));
    assert_eq!(code, 2);
    assert!(e.contains("round 3.1"), "{e}");
    // verify with no -s and no file: an error naming -s.
    let (code, _, e) = run(&["verify", "-a", alg, "-p", &public]);
    assert_eq!(code, 2);
    assert!(e.contains("-s SIG"), "{e}");
}

/// The targets of a batch are checked in linear time: 2000 files whose last
/// one clashes with the first (same name, another directory) are refused in
/// well under a second (comparing every pair through path-resolving system
/// calls took over a minute for 1000).
#[test]
fn many_targets_are_checked_in_linear_time() {
    let d = Scratch::new("linear");
    fs::create_dir(d.path("a")).unwrap();
    fs::create_dir(d.path("b")).unwrap();
    let key = d.p("k.pem");
    let (code, _, e) = run(&["keygen", "-a", "sha2-128f", "-o", &key]);
    assert_eq!(code, 0, "{e}");
    let mut files: Vec<String> = (0..1999)
        .map(|i| d.write(&format!("a/f{i}"), b"x"))
        .collect();
    files.push(d.write("b/f0", b"y"));
    let out = d.p("out");
    let args = with(&["sign", "-k", &key, "--out-dir", &out], &files);
    let start = std::time::Instant::now();
    let (code, _, e) = run(&args);
    let took = start.elapsed();
    assert_eq!(code, 2, "{e}");
    assert!(e.contains("f0.sig") && e.contains("written twice"), "{e}");
    assert!(took < std::time::Duration::from_secs(3), "{took:?}");
    eprintln!("2000 targets checked in {took:?}");
}
