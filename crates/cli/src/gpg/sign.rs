//! `sphincs gpg`'s signing commands, as signing tools run them:
//! `--detach-sign` (`-b`, `-bsau KEY`), `--clearsign`, `--sign` (an
//! inline-signed message), with `--armor`, `--textmode`, `--local-user`,
//! `--output`, `--yes`, `--status-fd`, `--digest-algo` and the passphrase
//! options. The key is the home's (`home.rs`) or a key file `-u` names;
//! a running agent that holds it signs without a passphrase.
//!
//! Outputs as gpg names them: `FILE.sig` (binary) or `FILE.asc` (armored,
//! and every cleartext signature), `FILE.gpg` for `--sign`; standard output
//! for standard input or `-o -`. An existing output is replaced only with
//! `--yes`, and every output is written whole or not at all.

use std::path::{Path, PathBuf};

use sphincs::openpgp::{self, armor, DetachedSigner, Mode, UnlockedKey};

use super::argv::Line;
use super::home::Home;
use super::status::{SigFacts, Status};
use crate::error::CliError;
use crate::files::passphrase;
use crate::files::quote;
use crate::files::read;
use crate::files::write;
use crate::openpgp::verbs;

/// Hashes `--digest-algo` may name: OpenPGP's of 256 bits and more.
const STRONG: [&str; 5] = ["SHA256", "SHA384", "SHA512", "SHA3-256", "SHA3-512"];

/// Checks `--digest-algo`: under 256 bits is refused (RFC 9980 §6.2.1
/// forbids it for SLH-DSA); a strong one is accepted, and the key's own
/// hash is used (this tool signs SLH-DSA-SHAKE-128s/f with SHA2-256 and
/// 256s with SHA2-512), said on standard error when it differs.
fn check_digest(line: &Line, key_algo: u8) -> Result<(), CliError> {
    let Some(asked) = line.value("digest-algo") else {
        return Ok(());
    };
    let name = asked.to_ascii_uppercase().replace("SHA-", "SHA");
    if !STRONG.contains(&name.as_str()) {
        return Err(CliError::Failed(format!(
            "--digest-algo {}: an SLH-DSA signature needs a digest of at least 256 bits (RFC 9980); SHA256, SHA384, SHA512, SHA3-256 or SHA3-512",
            quote::text(asked)
        )));
    }
    let used = openpgp::signing_hash(key_algo).name();
    if used != name {
        eprintln!("gpg: note: --digest-algo {name}: this key signs with {used}");
    }
    Ok(())
}

fn set_passphrase_source(line: &Line) -> Result<(), CliError> {
    let fd = line
        .value("passphrase-fd")
        .map(|v| super::argv::fd("passphrase-fd", v))
        .transpose()
        .map_err(CliError::Failed)?;
    passphrase::set_source(passphrase::Source {
        file: line.value("passphrase-file").map(PathBuf::from),
        fd,
        // In --batch a missing passphrase is an error, never a prompt.
        tty: !line.has("batch"),
    });
    Ok(())
}

/// The file operand, if any (none, or `-`: standard input).
fn data_file(line: &Line) -> Result<Option<String>, CliError> {
    match line.operands.as_slice() {
        [] => Ok(None),
        [f] if f == "-" => Ok(None),
        [f] => Ok(Some(f.clone())),
        _ => Err(CliError::Failed(
            "signing takes one file (or standard input); gpg --detach-sign FILE".into(),
        )),
    }
}

/// The whole data, for the signatures that hold it (cleartext, inline):
/// at most a cleartext-signed file's 64 MiB.
fn read_whole(file: Option<&str>) -> Result<Vec<u8>, CliError> {
    match file {
        Some(f) => read::read_capped(Path::new(f), read::Cap::ClearSigned),
        None => read::read_stdin(read::Cap::ClearSigned),
    }
}

/// Signs as `command` asks.
pub fn run(line: &Line, command: &str, status: &mut Status) -> Result<(), CliError> {
    set_passphrase_source(line)?;
    let home = Home::locate(line)?;
    let user = line.value("local-user").or(line.value("default-key"));
    let (path, cert) = home.find_secret(user)?;
    if !cert.is_secret() {
        return Err(CliError::file(
            &path,
            "is a certificate, not a secret key: it signs nothing",
        ));
    }
    let key: UnlockedKey = verbs::signing_key(&path, &cert)?;
    check_digest(line, key.public.algorithm)?;
    let file = data_file(line)?;
    let armored = line.last_of("armor", "no-armor");
    let now = crate::git::now();
    let digest = openpgp::signing_hash(key.public.algorithm).id();
    let fpr = key.public.fingerprint().to_hex();
    let threads = sphincs::resolve_threads(0);
    status.begin_signing(digest).map_err(status_error)?;
    let (bytes, kind, ext, class) = match command {
        "clearsign" | "clear-sign" => {
            let data = read_whole(file.as_deref())?;
            let text = std::str::from_utf8(&data).map_err(|_| {
                CliError::Failed("a cleartext signature signs text: the input is not UTF-8".into())
            })?;
            let out = openpgp::cleartext::sign(vec![key], text.as_bytes(), now as u32, threads)
                .map_err(|e| CliError::Failed(e.to_string()))?;
            (out, 'C', "asc", 1)
        }
        "detach-sign" => {
            let mode = if line.has("textmode") {
                Mode::Text
            } else {
                Mode::Binary
            };
            let mut signer = DetachedSigner::new(vec![key], mode, now as u32)
                .map_err(|e| CliError::Failed(e.to_string()))?;
            // Streamed: a release tarball of any size in bounded memory.
            verbs::stream(file.as_deref().map(Path::new), |b| signer.update(b))?;
            let sigs = signer
                .finish(threads)
                .map_err(|e| CliError::Failed(e.to_string()))?;
            let bin = openpgp::signatures_to_bytes(&sigs);
            let class = u8::from(mode == Mode::Text);
            if armored {
                (
                    armor::encode(armor::Kind::Signature, &bin).into_bytes(),
                    'D',
                    "asc",
                    class,
                )
            } else {
                (bin, 'D', "sig", class)
            }
        }
        _ => {
            let mode = if line.has("textmode") {
                Mode::Text
            } else {
                Mode::Binary
            };
            let data = read_whole(file.as_deref())?;
            let bin = openpgp::inline_sign(vec![key], &data, mode, now as u32, threads)
                .map_err(|e| CliError::Failed(e.to_string()))?;
            let class = u8::from(mode == Mode::Text);
            if armored {
                (
                    armor::encode(armor::Kind::Message, &bin).into_bytes(),
                    'S',
                    "asc",
                    class,
                )
            } else {
                (bin, 'S', "gpg", class)
            }
        }
    };
    let target = match (line.value("output"), &file) {
        (Some("-"), _) | (None, None) => None,
        (Some(o), _) => Some(PathBuf::from(o)),
        (None, Some(f)) => Some(PathBuf::from(format!("{f}.{ext}"))),
    };
    match target {
        None => write::write_stdout(&bytes, !armored && ext != "asc")?,
        Some(t) => {
            if t.exists() && !line.has("yes") {
                return Err(CliError::file(
                    &t,
                    "exists; --yes replaces it (gpg asks; in --batch it fails)",
                ));
            }
            write::write_output(&t, &bytes, false, true)?;
        }
    }
    let facts = SigFacts {
        pk_algo: cert_algo(&fpr, &cert).unwrap_or(0),
        digest,
        class,
        time: now,
    };
    status
        .sig_created_kind(kind, &facts, &fpr)
        .map_err(status_error)
}

fn cert_algo(fpr: &str, cert: &openpgp::Cert) -> Option<u8> {
    std::iter::once(&cert.primary.public)
        .chain(cert.subkeys.iter().map(|s| &s.key.public))
        .find(|k| k.fingerprint().to_hex() == fpr)
        .map(|k| k.algorithm)
}

fn status_error(e: std::io::Error) -> CliError {
    CliError::Failed(format!("cannot write to the status descriptor: {e}"))
}
