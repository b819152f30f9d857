//! git's signing program end to end: gpg's arguments read by `mod.rs`, then
//! the request run in the format it is in: verification by the signature
//! (an OpenPGP signature, else CMS), signing by the configuration
//! (`gpg.format`, and an OpenPGP key configured): `openpgp_sign.rs` /
//! `openpgp_verify.rs` or `x509_sign.rs` / `x509_verify.rs`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::error::CliError;
use crate::files::passphrase;
use crate::git::openpgp_sign;
use crate::git::openpgp_verify;
use crate::git::{parse, Request, PASSPHRASE_ENV};
use crate::gpg::status::Status;

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
    passphrase::set_source(passphrase::Source {
        file: std::env::var_os(PASSPHRASE_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from),
        fd: None,
        tty: true,
    });
    let code = match parsed.request {
        Request::Sign { key } => match sign(&key, &mut status) {
            Ok(()) => ExitCode::SUCCESS,
            Err(CliError::InvalidSignature(m) | CliError::Failed(m)) => {
                eprintln!("sphincs: error: {m}");
                ExitCode::from(2)
            }
        },
        Request::Verify { signature, data } => {
            ExitCode::from(verify(&signature, data.as_deref(), &mut status))
        }
    };
    passphrase::forget();
    code
}

/// Signs in OpenPGP when git's format is OpenPGP (`gpg.format` openpgp, or
/// unset with `sphincs.openpgpKey` configured), else as X.509 CMS.
fn sign(key: &str, status: &mut Status) -> Result<(), CliError> {
    let format = crate::git::config_value("gpg.format")?;
    let openpgp = match format.as_deref() {
        Some("openpgp") => true,
        Some(_) => false,
        None => crate::git::config_value("sphincs.openpgpKey")?.is_some(),
    };
    if openpgp {
        openpgp_sign::sign(key, status)
    } else {
        crate::git::x509_sign::sign(key, status)
    }
}

/// Verifies in the signature's own format.
fn verify(signature: &std::path::Path, data: Option<&std::path::Path>, status: &mut Status) -> u8 {
    use std::io::Read;
    let mut head = Vec::new();
    let read = std::fs::File::open(signature).and_then(|f| {
        f.take(crate::git::MAX_SIGNATURE_FILE + 1)
            .read_to_end(&mut head)
    });
    match read {
        Ok(_)
            if head.len() as u64 <= crate::git::MAX_SIGNATURE_FILE
                && openpgp_verify::is_openpgp(&head) =>
        {
            openpgp_verify::verify(&head, data, status)
        }
        _ => crate::git::x509_verify::verify(signature, data, status),
    }
}
