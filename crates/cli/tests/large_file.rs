//! A 128 MiB file is signed and verified in bounded memory: the CLI streams
//! files (twice for pure signing) instead of reading them whole. The child's
//! peak resident set comes from the kernel's own accounting (wait4 rusage).

mod common;

use std::fs::File;
use std::io::Write;
use std::process::Stdio;

use common::{spawn_sphincs, wait_exit_and_peak_rss};

const FILE_MIB: usize = 128;
/// Far below the file size: a build that read the file whole would exceed it.
const RSS_LIMIT_KIB: i64 = 32 * 1024;

/// Runs the CLI and returns its exit code and peak RSS in KiB.
fn run_measured(args: &[&str]) -> (i32, i64) {
    run_measured_with(args, Stdio::null())
}

// The child is reaped by wait4 below, which std's Child cannot do itself.
#[allow(clippy::zombie_processes)]
fn run_measured_with(args: &[&str], stdin: Stdio) -> (i32, i64) {
    let child = spawn_sphincs(args, stdin, Stdio::inherit());
    wait_exit_and_peak_rss(&child)
}

#[test]
fn sign_and_verify_128_mib_in_bounded_memory() {
    let dir = std::env::temp_dir().join(format!("sphincs-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();

    let mut f = File::create(path("big.bin")).unwrap();
    let mut block = vec![0u8; 1 << 20];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..FILE_MIB {
        for b in block.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
        f.write_all(&block).unwrap();
    }
    drop(f);

    let (key, big, sig, sig_ph) = (
        path("k.pem"),
        path("big.bin"),
        path("s.bin"),
        path("s-ph.bin"),
    );
    let (code, _) = run_measured(&["keygen", "-a", "SLH-DSA-SHA2-128f", "-o", &key]);
    assert_eq!(code, 0);
    // A HashSLH-DSA key (RFC 9909 binds SHA2-128f to SHA-256) for the pre-hash rows.
    let key_ph = path("k-ph.pem");
    let (code, _) = run_measured(&[
        "keygen",
        "-a",
        "SLH-DSA-SHA2-128f",
        "--prehash",
        "SHA2-256",
        "-o",
        &key_ph,
    ]);
    assert_eq!(code, 0);
    let (cert, cms_att, cms_det) = (path("c.pem"), path("att.der"), path("det.der"));
    let mut report = Vec::new();
    for (what, args, want) in [
        (
            "sign (pure, two passes)",
            vec!["sign", "-k", &key, "-o", &sig, &big],
            0,
        ),
        (
            "verify (pure)",
            vec!["verify", "-p", &key, "-s", &sig, &big],
            0,
        ),
        (
            "sign (pre-hash SHA2-256)",
            vec![
                "sign",
                "-k",
                &key_ph,
                "--prehash",
                "SHA2-256",
                "-o",
                &sig_ph,
                &big,
            ],
            0,
        ),
        (
            "verify (pre-hash SHA2-256)",
            vec![
                "verify",
                "-p",
                &key_ph,
                "--prehash",
                "SHA2-256",
                "-s",
                &sig_ph,
                &big,
            ],
            0,
        ),
        (
            "verify pre-hash sig as pure",
            vec!["verify", "-p", &key, "-s", &sig_ph, &big],
            1,
        ),
        (
            "cert self-signed (for CMS)",
            vec![
                "cert",
                "self-signed",
                "-k",
                &key,
                "--subject",
                "CN=Large",
                "-o",
                &cert,
            ],
            0,
        ),
        (
            "cms sign, attached (content streamed into the output)",
            vec![
                "cms", "sign", "-k", &key, "--cert", &cert, &big, "-o", &cms_att,
            ],
            0,
        ),
        (
            "cms sign, detached",
            vec![
                "cms",
                "sign",
                "-k",
                &key,
                "--cert",
                &cert,
                "--detached",
                &big,
                "-o",
                &cms_det,
            ],
            0,
        ),
        (
            "cms verify, detached content",
            vec![
                "cms",
                "verify",
                "--cert",
                &cert,
                "--content",
                &big,
                &cms_det,
            ],
            0,
        ),
    ] {
        let (code, rss) = run_measured(&args);
        assert_eq!(code, want, "{what}");
        assert!(
            rss < RSS_LIMIT_KIB,
            "{what}: peak RSS {rss} KiB for a {FILE_MIB} MiB file"
        );
        report.push(format!("{what}: exit {code}, peak RSS {rss} KiB"));
    }
    // The attached SignedData holds the whole file between its DER parts.
    let att_len = std::fs::metadata(&cms_att).unwrap().len();
    assert!(att_len > (FILE_MIB as u64) << 20, "{att_len}");
    // Control: standard input is buffered by design, and the measurement sees it.
    let stdin = Stdio::from(File::open(&big).unwrap());
    let (code, rss) = run_measured_with(
        &["sign", "-k", &key, "-o", &path("s-stdin.bin"), "-"],
        stdin,
    );
    assert_eq!(code, 0);
    assert!(
        rss > (FILE_MIB as i64) * 1024,
        "stdin is buffered, so RSS {rss} KiB must exceed the file"
    );
    report.push(format!(
        "control, sign from stdin (buffered): peak RSS {rss} KiB"
    ));
    println!("{FILE_MIB} MiB file:\n  {}", report.join("\n  "));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cat big | sphincs verify -s SIG -`: verification reads the message once,
/// so standard input is streamed, not buffered (256 MiB through a pipe).
#[test]
#[allow(clippy::zombie_processes)] // reaped by wait4 below
fn verify_from_a_pipe_in_bounded_memory() {
    const PIPE_MIB: usize = 256;
    const PIPE_RSS_LIMIT_KIB: i64 = 64 * 1024;
    let dir = std::env::temp_dir().join(format!("sphincs-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let block = |i: usize| vec![(i % 251) as u8; 1 << 20];
    let mut f = File::create(path("big.bin")).unwrap();
    for i in 0..PIPE_MIB {
        f.write_all(&block(i)).unwrap();
    }
    drop(f);
    let (key, sig) = (path("k.pem"), path("s.bin"));
    assert_eq!(
        run_measured(&["keygen", "-a", "shake-128f", "-o", &key]).0,
        0
    );
    assert_eq!(
        run_measured(&["sign", "-k", &key, "-o", &sig, &path("big.bin")]).0,
        0
    );
    std::fs::remove_file(path("big.bin")).unwrap();
    let verify = |tamper: bool| {
        let args = ["verify", "-p", &key, "-s", &sig, "-"];
        let mut child = spawn_sphincs(&args, Stdio::piped(), Stdio::null());
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            for i in 0..PIPE_MIB {
                let mut b = block(i);
                if tamper && i == PIPE_MIB - 1 {
                    b[0] ^= 1;
                }
                stdin.write_all(&b).unwrap();
            }
        });
        let exit_and_rss = wait_exit_and_peak_rss(&child);
        writer.join().unwrap();
        exit_and_rss
    };
    let (code, rss) = verify(false);
    assert_eq!(code, 0, "valid through a pipe");
    assert!(
        rss < PIPE_RSS_LIMIT_KIB,
        "peak RSS {rss} KiB for {PIPE_MIB} MiB through standard input"
    );
    let (code, _) = verify(true);
    assert_eq!(code, 1, "a changed last byte is invalid");
    println!("verify {PIPE_MIB} MiB from a pipe: peak RSS {rss} KiB");
    std::fs::remove_dir_all(&dir).unwrap();
}
