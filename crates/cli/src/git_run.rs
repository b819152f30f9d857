//! git's signing program end to end: gpg's arguments read by `git.rs`, then
//! the request run by `git_sign.rs` or `git_verify.rs`, which take their
//! helpers from `git.rs` (so the dispatch is not there).

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::error::CliError;
use crate::git::{parse, Request, PASSPHRASE_ENV};
use crate::git_status::Status;

/// Runs as git's signing program; `args` are gpg's (without the program
/// name). Exit 0 only on success: git takes any exit 0 after SIG_CREATED as
/// a signature.
pub fn main(args: &[OsString]) -> ExitCode {
    let parsed = match parse(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sphincs: error: {e} (as git's signing program: `--status-fd=N -bsau KEY` or `--status-fd=N --verify SIGFILE -`)");
            return ExitCode::from(2);
        }
    };
    let mut status = match Status::open(parsed.status_fd) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("sphincs: error: cannot open the status descriptor: {e}");
            return ExitCode::from(2);
        }
    };
    crate::passphrase::set_source(crate::passphrase::Source {
        file: std::env::var_os(PASSPHRASE_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
        fd: None,
        tty: true,
    });
    let code = match parsed.request {
        Request::Sign { key } => match crate::git_sign::sign(&key, &mut status) {
            Ok(()) => ExitCode::SUCCESS,
            Err(CliError::InvalidSignature(m) | CliError::Failed(m)) => {
                eprintln!("sphincs: error: {m}");
                ExitCode::from(2)
            }
        },
        Request::Verify { signature, data } => ExitCode::from(crate::git_verify::verify(
            &signature,
            data.as_deref(),
            &mut status,
        )),
    };
    crate::passphrase::forget();
    code
}
