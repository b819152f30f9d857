//! The system's own verifier, for what this tool does not check: apt's
//! `APT::Key::GPGVCommand` is global and Debian's archive is signed with
//! RSA and Ed25519, so every signature that is not RFC 9980 SLH-DSA is
//! handed to GnuPG's `gpgv` (or `gpg` for `sphincs gpg --verify`) with the
//! caller's own options and its status descriptor, and its lines and exit
//! status are the caller's answer for those signatures.
//!
//! Found as `SPHINCS_SYSTEM_GPGV` / `SPHINCS_SYSTEM_GPG` name it (an
//! empty value: none), else the first `gpgv` / `gpg` on `PATH` that is not
//! this program (a link named `gpgv` to `sphincs` ahead of GnuPG's on
//! `PATH` must not find itself). A child started from here carries
//! [`DEPTH_ENV`]; a fallback that leads back here is refused instead of
//! looping. Sequoia's `sqv` is not used: it writes no status lines, and
//! apt reads the verdict from them.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set in the environment of the system verifier this tool starts.
pub const DEPTH_ENV: &str = "SPHINCS_GPG_FALLBACK";

/// Which of GnuPG's programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    Gpgv,
    Gpg,
}

impl Program {
    pub fn name(self) -> &'static str {
        match self {
            Program::Gpgv => "gpgv",
            Program::Gpg => "gpg",
        }
    }

    fn env(self) -> &'static str {
        match self {
            Program::Gpgv => "SPHINCS_SYSTEM_GPGV",
            Program::Gpg => "SPHINCS_SYSTEM_GPG",
        }
    }
}

/// True if this process was started by this tool as a fallback (a loop).
pub fn is_nested() -> bool {
    std::env::var_os(DEPTH_ENV).is_some()
}

/// The system's program, if there is one that is not this one.
pub fn find(program: Program) -> Option<PathBuf> {
    if let Some(v) = std::env::var_os(program.env()) {
        return (!v.is_empty()).then(|| PathBuf::from(v));
    }
    let me = std::env::current_exe()
        .ok()
        .and_then(|p| std::fs::canonicalize(p).ok());
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program.name()))
        .filter(|c| is_executable(c))
        .find(|c| std::fs::canonicalize(c).ok() != me)
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Runs the system's program with `args`; its standard streams and
/// every descriptor this process inherited (the status descriptor) are
/// its own. Returns its exit status (2 if it could not run or ended by a
/// signal).
pub fn run(exe: &Path, args: &[OsString]) -> u8 {
    match Command::new(exe).args(args).env(DEPTH_ENV, "1").status() {
        Ok(s) => s.code().map_or(2, |c| u8::try_from(c).unwrap_or(2)),
        Err(e) => {
            eprintln!("sphincs: cannot run {}: {e}", exe.display());
            2
        }
    }
}

/// Replaces this process with the system's program (everything it was
/// given is for that program); returns only if that failed.
pub fn exec(exe: &Path, args: &[OsString]) -> u8 {
    use std::os::unix::process::CommandExt;
    let e = Command::new(exe).args(args).env(DEPTH_ENV, "1").exec();
    eprintln!("sphincs: cannot run {}: {e}", exe.display());
    2
}

/// Whether `exe --dump-options` lists `option` (apt asks gpgv the same
/// way before it passes `--assert-pubkey-algo`).
pub fn supports(exe: &Path, option: &str) -> bool {
    Command::new(exe)
        .arg("--dump-options")
        .env(DEPTH_ENV, "1")
        .output()
        .is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == option)
        })
}
