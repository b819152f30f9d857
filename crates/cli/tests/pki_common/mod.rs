//! Helpers shared by the HashSLH-DSA, certificate and CMS tests of the CLI:
//! a scratch directory and a run of the binary with its exit status.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A fresh scratch directory per test, removed at the end.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pki-{name}"));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
    pub fn p(&self, name: &str) -> String {
        self.path(name).to_str().unwrap().to_string()
    }
    pub fn write(&self, name: &str, data: &[u8]) -> String {
        fs::write(self.path(name), data).unwrap();
        self.p(name)
    }
    pub fn read(&self, name: &str) -> Vec<u8> {
        fs::read(self.path(name)).unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// What a run of `sphincs` did.
pub struct Out {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    pub fn ok(self) -> Out {
        self.code(0)
    }
    pub fn code(self, want: i32) -> Out {
        assert_eq!(
            self.code,
            want,
            "stderr: {} stdout: {}",
            self.stderr,
            String::from_utf8_lossy(&self.stdout)
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        self
    }
    /// Exit 2 with the one-line error format, containing `needle`.
    pub fn usage_error(self, needle: &str) -> Out {
        let out = self.code(2);
        assert!(out.stderr.starts_with("sphincs: error: "), "{}", out.stderr);
        assert_eq!(out.stderr.trim_end().lines().count(), 1, "{}", out.stderr);
        assert!(
            out.stderr.contains(needle),
            "want {needle:?} in {}",
            out.stderr
        );
        out
    }
    /// Exit 1 with a one-line message containing `needle`.
    pub fn invalid(self, needle: &str) -> Out {
        let out = self.code(1);
        assert_eq!(out.stderr.trim_end().lines().count(), 1, "{}", out.stderr);
        assert!(
            out.stderr.contains(needle),
            "want {needle:?} in {}",
            out.stderr
        );
        out
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs `sphincs ARGS` with standard input closed.
pub fn sphincs(args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_sphincs"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Out {
        code: out.status.code().expect("exited, not killed"),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Starts `sphincs ARGS`, waits up to `wait` for its first line on standard
/// error, then stops it (for commands that would go on for minutes). Returns
/// that line (None if none came in time) and the process's peak resident
/// memory so far in KiB (0 if /proc could not say).
pub fn first_stderr_line(args: &[&str], wait: std::time::Duration) -> (Option<String>, i64) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sphincs"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stderr).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(wait).ok();
    let status = fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let peak_kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    let _ = child.kill();
    child.wait().unwrap();
    (line, peak_kib)
}
