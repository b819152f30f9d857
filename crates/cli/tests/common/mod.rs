//! Helpers shared by every test binary of the CLI: a scratch directory, a run
//! of the binary with its exit status and output, and the checks made of it.
//!
//! Each file under tests/ is its own crate that includes this module with
//! `mod common;` and uses only part of it; `dead_code` is allowed so that the
//! parts one binary leaves unused do not warn there.
#![allow(dead_code)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A fresh scratch directory per test, removed at the end. Its name starts
/// with the test binary's, so that binaries running at once never share one.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
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
    /// Writes `name` as PEM: `body` (one line, any bytes the test wants
    /// the reader to meet) between BEGIN and END lines of `label`.
    pub fn write_pem(&self, name: &str, label: &str, body: &str) -> String {
        let pem = format!("-----BEGIN {label}-----\n{body}\n-----END {label}-----\n");
        self.write(name, pem.as_bytes())
    }
    pub fn read(&self, name: &str) -> Vec<u8> {
        fs::read(self.path(name)).unwrap()
    }
    /// Every name in the subdirectory `sub` ("" for the directory itself),
    /// sorted: catches stray outputs and temporary files.
    pub fn names_in(&self, sub: &str) -> Vec<String> {
        let mut v: Vec<_> = fs::read_dir(self.path(sub))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
    /// Runs `sphincs LINE` (split on spaces): a usage error containing
    /// `needle` that leaves the output `out`, a name in this directory,
    /// unwritten.
    pub fn refused_without(&self, line: &str, out: &str, needle: &str) {
        run(line).usage_error(needle);
        assert!(!self.path(out).exists(), "{out} was written: {line}");
    }
    /// Every name in the directory.
    pub fn names(&self) -> Vec<String> {
        self.names_in("")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// What a run of `sphincs` did.
pub struct Out {
    /// The command line, for the failure messages (empty if not known).
    pub args: String,
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    /// What a finished run reported, from std's own record of it.
    pub fn of(out: Output) -> Out {
        Out {
            args: String::new(),
            code: out.status.code().expect("exited, not killed"),
            stdout: out.stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
    pub fn ok(self) -> Out {
        self.code(0)
    }
    pub fn code(self, want: i32) -> Out {
        assert_eq!(
            self.code,
            want,
            "sphincs {}\nstderr: {} stdout: {}",
            self.args,
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
        out.one_line(needle)
    }
    /// Exit 1 with a one-line message containing `needle`.
    pub fn invalid(self, needle: &str) -> Out {
        self.code(1).one_line(needle)
    }
    /// Standard error is one line, containing `needle`.
    pub fn one_line(self, needle: &str) -> Out {
        assert_eq!(self.stderr.trim_end().lines().count(), 1, "{}", self.stderr);
        assert!(
            self.stderr.contains(needle),
            "want {needle:?} in {}",
            self.stderr
        );
        self
    }
    /// Standard error contains `needle` (any number of lines).
    pub fn says(self, needle: &str) -> Out {
        assert!(
            self.stderr.contains(needle),
            "want {needle:?} in {}",
            self.stderr
        );
        self
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs `sphincs ARGS` with standard input closed.
pub fn sphincs(args: &[&str]) -> Out {
    sphincs_with(args, None, &[])
}

/// Runs `sphincs ARGS` with `stdin` on standard input (closed if None).
pub fn sphincs_in(args: &[&str], stdin: Option<&[u8]>) -> Out {
    sphincs_with(args, stdin, &[])
}

/// Runs `sphincs ARGS` with these environment variables added.
pub fn sphincs_env(args: &[&str], env: &[(&str, &str)]) -> Out {
    sphincs_with(args, None, env)
}

/// Runs `sphincs` with the arguments split on spaces (none of ours have one).
pub fn run(line: &str) -> Out {
    sphincs(&args_of(line))
}

/// A command line's arguments, split on spaces (none of ours have one).
pub fn args_of(line: &str) -> Vec<&str> {
    line.split(' ').collect()
}

/// Runs `sphincs ARGS` with `stdin` and these environment variables added.
pub fn sphincs_with(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sphincs"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(data) = stdin {
        // A run that fails before reading its input closes the pipe first.
        if let Err(e) = child.stdin.take().unwrap().write_all(data) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
    }
    Out {
        args: args.join(" "),
        ..Out::of(child.wait_with_output().unwrap())
    }
}

/// Starts `sphincs ARGS` with its standard output discarded and its standard
/// input and error as given (`Stdio::piped()` to feed or read them), for the
/// tests that watch a run while it goes on.
pub fn spawn_sphincs(args: &[&str], stdin: Stdio, stderr: Stdio) -> Child {
    sphincs_command()
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("spawn sphincs")
}

/// A new key of `alg` at `key` and a certificate for it at `cert` from
/// `cert self-signed`, given `extra` arguments (the subject and any more).
pub fn key_and_cert(alg: &str, key: &str, cert: &str, extra: &[&str]) {
    sphincs(&["keygen", "-a", alg, "-o", key]).ok();
    let mut args = vec!["cert", "self-signed", "-k", key, "-o", cert];
    args.extend_from_slice(extra);
    sphincs(&args).ok();
}

/// A new key pair of `alg` in `s`: `k.pem` and `k.pub` (keygen must succeed).
pub fn key_pair(s: &Scratch, alg: &str) -> (String, String) {
    let (k, p) = (s.p("k.pem"), s.p("k.pub"));
    sphincs(&["keygen", "-q", "-a", alg, "-o", &k, "--pub", &p]).ok();
    (k, p)
}

/// Asserts that `text` begins `-----BEGIN LABEL-----` and a newline.
pub fn assert_pem(text: &[u8], label: &str) {
    let head = format!("-----BEGIN {label}-----\n");
    assert!(
        text.starts_with(head.as_bytes()),
        "want {head:?} first in {}",
        String::from_utf8_lossy(&text[..text.len().min(80)])
    );
}

/// Asserts that `text` contains each of `needles`, showing `text` if not.
pub fn assert_has_all(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "want {needle:?} in {text}");
    }
}

/// Starts `sphincs ARGS`, waits up to `wait` for its first line on standard
/// error, then stops it (for commands that would go on for minutes). Returns
/// that line (None if none came in time) and the process's peak resident
/// memory so far in KiB (0 if /proc could not say).
pub fn first_stderr_line(args: &[&str], wait: std::time::Duration) -> (Option<String>, i64) {
    use std::io::BufRead;
    let mut child = spawn_sphincs(args, Stdio::null(), Stdio::piped());
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

/// The `sphincs` binary as a `Command`, for the runs `sphincs()` does not
/// cover (another working directory, a file on standard input or output).
pub fn sphincs_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sphincs"))
}

/// Runs `cmd` to the end; it must exit 0 (its standard error is shown if
/// not). Returns its standard output.
pub fn stdout_of(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Waits for `child` with wait4, which std's `Child` cannot do: its exit
/// status (it must have exited, not been killed) and its peak resident set in
/// KiB, from the kernel's own accounting.
pub fn wait_exit_and_peak_rss(child: &std::process::Child) -> (i32, i64) {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: plain zeroed C struct, filled in by wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own un-reaped child; both pointers are valid for writes.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 failed");
    assert!(
        libc::WIFEXITED(status),
        "sphincs was killed (status {status})"
    );
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

/// `sphincs sop ARGS` in `dir` with `stdin` on standard input (one
/// thread): its exit code, standard output and standard error.
pub fn sop_in(dir: &Scratch, args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sphincs"));
    cmd.arg("sop")
        .args(args)
        .current_dir(&dir.0)
        .env("SPHINCS_THREADS", "1");
    run_piped(&mut cmd, stdin)
}

/// Runs `cmd` with `stdin` on its standard input, its output captured: the
/// exit code (-1 if killed), standard output and standard error, which
/// must not report a panic.
pub fn run_piped(cmd: &mut Command, stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The program may refuse before reading all of it.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code().unwrap_or(-1), out.stdout, err)
}

/// Runs `sphincs ARGS` with `stdin`, git's configuration limited to the
/// given settings (no system or user files), and `extra` environment.
pub fn as_git(
    s: &Scratch,
    args: &[&str],
    stdin: &[u8],
    settings: &[(&str, &str)],
) -> (i32, Vec<u8>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sphincs"));
    cmd.args(args)
        .current_dir(&s.0)
        .env("HOME", &s.0)
        .env("XDG_CONFIG_HOME", s.path("xdg"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", s.path("no-global"))
        .env("GIT_CEILING_DIRECTORIES", &s.0)
        .env_remove("SPHINCS_PASSPHRASE_FILE")
        .env("GIT_CONFIG_COUNT", settings.len().to_string());
    for (i, (k, v)) in settings.iter().enumerate() {
        cmd.env(format!("GIT_CONFIG_KEY_{i}"), k)
            .env(format!("GIT_CONFIG_VALUE_{i}"), v);
    }
    run_piped(&mut cmd, stdin)
}
