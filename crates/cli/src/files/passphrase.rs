//! Passphrases for encrypted private keys: from `--passphrase-file FILE`,
//! `--passphrase-fd N`, or asked on the terminal without echo (twice when a
//! new key is encrypted). Without a terminal and without a source, a clear
//! error. The passphrase is read once per run and wiped at its end.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use zeroize::Zeroizing;

use crate::error::CliError;
use crate::files::quote;
use crate::files::read;

/// Where the passphrase comes from (the global options).
#[derive(Clone, Debug, Default)]
pub struct Source {
    pub file: Option<PathBuf>,
    pub fd: Option<u32>,
    /// Ask on the controlling terminal (`/dev/tty`) even when standard
    /// input is not one: as git's signing program, standard input is the
    /// payload.
    pub tty: bool,
}

static SOURCE: Mutex<Option<Source>> = Mutex::new(None);
static CACHED: Mutex<Option<Zeroizing<Vec<u8>>>> = Mutex::new(None);

/// Most bytes read from a passphrase file or descriptor.
const MAX_LEN: u64 = 4096;

/// Records the options; called once by `main`.
pub fn set_source(source: Source) {
    *SOURCE.lock().unwrap_or_else(|e| e.into_inner()) = Some(source);
}

/// The user PIN of the token labelled `token`: from the passphrase options,
/// else asked (once per run, as a passphrase is).
pub fn pin_for(token: &str) -> Result<Zeroizing<Vec<u8>>, CliError> {
    get(&format!("PIN for token {}: ", quote::text(token)), false)
}

/// A PIN from a file (a PKCS#11 URI's `pin-source`): its first line.
pub fn pin_from_file(file: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let source = Source {
        file: Some(file.to_path_buf()),
        ..Source::default()
    };
    read_from(&source, "", false)
}

/// Whether a passphrase was read during this run (an encrypted key was opened).
pub fn was_read() -> bool {
    CACHED.lock().unwrap_or_else(|e| e.into_inner()).is_some()
}

/// Wipes the passphrase read during this run.
pub fn forget() {
    CACHED.lock().unwrap_or_else(|e| e.into_inner()).take();
}

/// The passphrase to decrypt `key`: from the source, else asked once.
pub fn for_reading(key: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
    get(&format!("Passphrase for {}: ", quote::name(&key)), false)
}

/// The passphrase to encrypt a new key: from the source, else asked twice.
pub fn for_writing(key: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
    get(&format!("New passphrase for {}: ", quote::name(&key)), true)
}

/// Whether `--passphrase-file` or `--passphrase-fd` was given (`key show`
/// decrypts only then, and never asks).
pub fn given() -> bool {
    SOURCE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .is_some_and(|s| s.file.is_some() || s.fd.is_some())
}

/// The new passphrase of `key passwd`, from its own options (`source`), or
/// asked twice on the terminal; not the run's cached passphrase, which is
/// the old one.
pub fn new_from(source: &Source, key: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
    if source.file.is_none() && source.fd.is_none() && !std::io::stdin().is_terminal() {
        return Err(CliError::Failed(
            "no terminal can ask for the new passphrase; give --new-passphrase-file FILE or --new-passphrase-fd N".into(),
        ));
    }
    read_from(
        source,
        &format!("New passphrase for {}: ", quote::name(&key)),
        true,
    )
}

fn get(prompt: &str, confirm: bool) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let mut cached = CACHED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = cached.as_ref() {
        return Ok(p.clone());
    }
    let source = SOURCE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_default();
    let pass = read_from(&source, prompt, confirm)?;
    *cached = Some(pass.clone());
    Ok(pass)
}

/// A passphrase from `source` (a file, a descriptor, else the terminal);
/// an empty one is refused.
fn read_from(source: &Source, prompt: &str, confirm: bool) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let pass = match (&source.file, source.fd) {
        (Some(f), _) => {
            read::warn_if_readable_by_others(f, "a passphrase");
            first_line(
                std::fs::File::open(f)
                    .map_err(|e| CliError::file(f, format!("cannot read the passphrase: {e}")))?,
                &quote::name(&f),
            )?
        }
        (None, Some(fd)) => from_descriptor(fd)?,
        (None, None) => ask(prompt, confirm, source.tty)?,
    };
    if pass.is_empty() {
        return Err(CliError::Failed("the passphrase is empty".into()));
    }
    Ok(pass)
}

/// The first line of descriptor `fd`, read a byte at a time so that
/// nothing beyond it is consumed: what follows (a message on the same
/// standard input) is left for the command. Descriptor 0 is read through a
/// duplicate, which shares its offset, so `< FILE` works as a pipe does.
/// Another descriptor is reopened through /dev/fd/N, which for a regular
/// file has an offset of its own: one that is standard input again is
/// refused (its passphrase line would be read as message too).
fn from_descriptor(fd: u32) -> Result<Zeroizing<Vec<u8>>, CliError> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let what = format!("descriptor {fd}");
    let cannot = |e: std::io::Error| {
        CliError::Failed(format!("cannot read the passphrase from {what}: {e}"))
    };
    let file = if fd == 0 {
        std::fs::File::from(
            std::io::stdin()
                .as_fd()
                .try_clone_to_owned()
                .map_err(cannot)?,
        )
    } else {
        // /dev/fd/N reopens the descriptor without unsafe code.
        let file = std::fs::File::open(format!("/dev/fd/{fd}")).map_err(cannot)?;
        let stdin = std::fs::File::from(
            std::io::stdin()
                .as_fd()
                .try_clone_to_owned()
                .map_err(cannot)?,
        );
        if let (Ok(a), Ok(b)) = (file.metadata(), stdin.metadata()) {
            if a.is_file() && (a.dev(), a.ino()) == (b.dev(), b.ino()) {
                return Err(CliError::Failed(format!(
                    "--passphrase-fd {fd} is standard input again; give --passphrase-fd 0 (the first line is the passphrase, the rest the message)"
                )));
            }
        }
        file
    };
    let mut line = Zeroizing::new(Vec::new());
    let mut byte = [0u8; 1];
    let mut reader = &file;
    loop {
        match reader.read(&mut byte) {
            Ok(0) => break,
            Ok(_) if byte[0] == b'\n' => break,
            Ok(_) => {
                if line.len() as u64 == MAX_LEN {
                    return Err(CliError::Failed(format!(
                        "the passphrase in {what} is longer than {MAX_LEN} bytes"
                    )));
                }
                line.push(byte[0]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(cannot(e)),
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(line)
}

/// The first line of a passphrase file (as `openssl -passin file:` reads it).
fn first_line(file: std::fs::File, what: &str) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let mut all = Zeroizing::new(Vec::new());
    file.take(MAX_LEN + 1)
        .read_to_end(&mut all)
        .map_err(|e| CliError::Failed(format!("cannot read the passphrase from {what}: {e}")))?;
    if all.len() as u64 > MAX_LEN {
        return Err(CliError::Failed(format!(
            "the passphrase in {what} is longer than {MAX_LEN} bytes"
        )));
    }
    let end = all.iter().position(|&b| b == b'\n').unwrap_or(all.len());
    let end = if end > 0 && all[end - 1] == b'\r' {
        end - 1
    } else {
        end
    };
    Ok(Zeroizing::new(all[..end].to_vec()))
}

/// Why nothing can ask for the passphrase, and how to give it instead. A
/// confirmed passphrase encrypts a key, which may not exist yet (`keygen
/// --encrypt`); an unconfirmed one decrypts a key that is encrypted.
/// `tty`: asked on /dev/tty because standard input is the payload (git).
fn no_terminal(confirm: bool, tty: bool) -> &'static str {
    match (confirm, tty) {
        (true, false) => "no terminal can ask for a passphrase to encrypt the new key with; give --passphrase-file FILE or --passphrase-fd N",
        (true, true) => "there is no terminal (/dev/tty) to ask for a passphrase to encrypt the new key with; set SPHINCS_PASSPHRASE_FILE to a file holding it",
        (false, false) => "the key is encrypted and no terminal can ask for its passphrase; give --passphrase-file FILE or --passphrase-fd N",
        (false, true) => "the key is encrypted and there is no terminal (/dev/tty) to ask for its passphrase; set SPHINCS_PASSPHRASE_FILE to a file holding it",
    }
}

fn ask(prompt: &str, confirm: bool, tty: bool) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let can_ask = if tty {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .is_ok()
    } else {
        std::io::stdin().is_terminal()
    };
    if !can_ask {
        return Err(CliError::Failed(no_terminal(confirm, tty).into()));
    }
    let read = |p: &str| {
        rpassword::prompt_password(p)
            .map(|s| Zeroizing::new(s.into_bytes()))
            .map_err(|e| CliError::Failed(format!("cannot read the passphrase: {e}")))
    };
    let first = read(prompt)?;
    if confirm {
        let again = read("Repeat the passphrase: ")?;
        if *again != *first {
            return Err(CliError::Failed("the passphrases differ".into()));
        }
    }
    Ok(first)
}
