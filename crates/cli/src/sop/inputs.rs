//! SOP's inputs and outputs: standard input, and the "indirect" arguments
//! that name a file or a special designator (`@ENV:VAR`, `@FD:N`; the
//! draft's §3.5). Reads are bounded; an output file is made new (never an
//! existing one overwritten) and removed again if writing it fails.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

use super::{Exit, Result, SopError};

/// The most octets read from a KEYS, CERTS or SIGNATURES input (a
/// certificate of RFC 9980's samples is under 100 KiB).
pub const MAX_OBJECT: u64 = 64 << 20;
/// The most octets of data buffered whole (inline signing and verifying;
/// detached signing and verifying stream any length).
pub const MAX_BUFFERED: u64 = 1 << 30;

fn fd_path(spec: &str, n: &str) -> Result<String> {
    n.parse::<u32>()
        .map(|n| format!("/dev/fd/{n}"))
        .map_err(|_| {
            SopError::new(
                Exit::UnsupportedSpecialPrefix,
                format!("{spec}: @FD: takes a descriptor number"),
            )
        })
}

fn read_capped(mut r: impl Read, cap: u64, what: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    r.by_ref()
        .take(cap + 1)
        .read_to_end(&mut out)
        .map_err(|e| SopError::new(Exit::Other, format!("cannot read {what}: {e}")))?;
    if out.len() as u64 > cap {
        return Err(SopError::new(
            Exit::BadData,
            format!("{what} is larger than {cap} octets; refusing to read more"),
        ));
    }
    Ok(out)
}

/// Reads an indirect input: a file, `@ENV:VAR` or `@FD:N`.
pub fn read_indirect(spec: &str, cap: u64) -> Result<Vec<u8>> {
    if let Some(rest) = spec.strip_prefix('@') {
        if Path::new(spec).exists() {
            return Err(SopError::new(
                Exit::AmbiguousInput,
                format!("{spec}: both a special designator and an existing file; rename the file"),
            ));
        }
        if let Some(var) = rest.strip_prefix("ENV:") {
            return std::env::var_os(var)
                .map(|v| v.into_encoded_bytes())
                .ok_or_else(|| {
                    SopError::new(
                        Exit::MissingInput,
                        format!("{spec}: the environment has no {var}"),
                    )
                });
        }
        if let Some(n) = rest.strip_prefix("FD:") {
            let path = fd_path(spec, n)?;
            let f = File::open(&path)
                .map_err(|e| SopError::new(Exit::MissingInput, format!("{spec}: {e}")))?;
            return read_capped(f, cap, spec);
        }
        return Err(SopError::new(
            Exit::UnsupportedSpecialPrefix,
            format!("{spec}: unknown special designator"),
        ));
    }
    let f = File::open(spec).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => {
            SopError::new(Exit::MissingInput, format!("{spec}: no such file"))
        }
        _ => SopError::new(Exit::MissingInput, format!("{spec}: {e}")),
    })?;
    read_capped(f, cap, spec)
}

/// Writes an indirect output: a new file (an existing one is refused) or
/// `@FD:N`.
pub fn write_indirect(spec: &str, data: &[u8]) -> Result<()> {
    if let Some(rest) = spec.strip_prefix('@') {
        let n = rest.strip_prefix("FD:").ok_or_else(|| {
            SopError::new(
                Exit::UnsupportedSpecialPrefix,
                format!("{spec}: only @FD:N can take output"),
            )
        })?;
        let mut f = OpenOptions::new()
            .write(true)
            .open(fd_path(spec, n)?)
            .map_err(|e| SopError::new(Exit::Other, format!("{spec}: {e}")))?;
        return f
            .write_all(data)
            .map_err(|e| SopError::new(Exit::Other, format!("{spec}: {e}")));
    }
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(spec)
        .map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => {
                SopError::new(Exit::OutputExists, format!("{spec}: already exists"))
            }
            _ => SopError::new(Exit::Other, format!("{spec}: {e}")),
        })?;
    if let Err(e) = f.write_all(data).and_then(|()| f.sync_all()) {
        let _ = std::fs::remove_file(spec);
        return Err(SopError::new(Exit::Other, format!("{spec}: {e}")));
    }
    Ok(())
}

/// Refuses an indirect output that exists already, before any work.
pub fn check_output(spec: &str) -> Result<()> {
    if !spec.starts_with('@') && Path::new(spec).exists() {
        return Err(SopError::new(
            Exit::OutputExists,
            format!("{spec}: already exists"),
        ));
    }
    Ok(())
}

/// Reads all of standard input, up to `cap` octets.
pub fn read_stdin(cap: u64) -> Result<Vec<u8>> {
    read_capped(io::stdin().lock(), cap, "standard input")
}

/// Passes standard input to `f` in chunks (any length, bounded memory).
pub fn stream_stdin(mut f: impl FnMut(&[u8])) -> Result<()> {
    let mut stdin = io::stdin().lock();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match stdin.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => f(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(SopError::new(
                    Exit::Other,
                    format!("cannot read standard input: {e}"),
                ))
            }
        }
    }
}

/// Writes to standard output.
pub fn write_stdout(data: &[u8]) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(data)
        .and_then(|()| out.flush())
        .map_err(|e| SopError::new(Exit::Other, format!("cannot write to standard output: {e}")))
}

/// Passwords from indirect inputs: each as given and, if different, with
/// its trailing white space removed (the draft's §9.1: a password read from
/// a file often ends in a newline).
pub fn passwords(specs: &[String]) -> Result<Vec<zeroize::Zeroizing<Vec<u8>>>> {
    let mut out = Vec::new();
    for spec in specs {
        let p = zeroize::Zeroizing::new(read_indirect(spec, 1 << 16)?);
        let trimmed = p.trim_ascii_end().to_vec();
        if trimmed.len() != p.len() {
            out.push(zeroize::Zeroizing::new(trimmed));
        }
        out.push(p);
    }
    Ok(out)
}

/// A new password (for protecting a key): UTF-8, trailing white space
/// removed (the draft: PASSWORD_NOT_HUMAN_READABLE otherwise).
pub fn new_password(spec: &str) -> Result<zeroize::Zeroizing<Vec<u8>>> {
    let p = zeroize::Zeroizing::new(read_indirect(spec, 1 << 16)?);
    let trimmed = zeroize::Zeroizing::new(p.trim_ascii_end().to_vec());
    if std::str::from_utf8(&trimmed).is_err() {
        return Err(SopError::new(
            Exit::PasswordNotHumanReadable,
            format!("{spec}: the password is not UTF-8"),
        ));
    }
    Ok(trimmed)
}
