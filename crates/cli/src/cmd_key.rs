//! `sphincs key encrypt|decrypt|passwd`: add, remove or change the
//! passphrase of a PKCS#8 private key (the encryption is
//! `sphincs::encoding::encrypted`), and `key show`, which describes a key
//! file. encrypt and decrypt write atomically with mode 0600 and never
//! replace a file without --force; passwd replaces its key atomically,
//! keeping its permissions.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use sphincs::encoding::encrypted;
use sphincs::DynSigningKey;
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{check_writable, read_capped, replace_in_place, write_output, Cap};
use crate::keyfile::{decrypt, inspect, is_encrypted, parse_any};
use crate::{passphrase, say};

#[derive(Subcommand)]
pub enum KeyCommand {
    /// Encrypt a PKCS#8 private key with a passphrase (PBES2: scrypt
    /// N=2^14 r=8 p=1, AES-256-CBC), as PEM "ENCRYPTED PRIVATE KEY".
    Encrypt(KeyArgs),
    /// Remove the passphrase of an encrypted private key (PEM "PRIVATE KEY").
    Decrypt(KeyArgs),
    /// Change the passphrase of an encrypted private key in place: the old
    /// one from --passphrase-file / --passphrase-fd or the terminal, the new
    /// one from --new-passphrase-file / --new-passphrase-fd or the terminal
    /// (twice). The key is re-encrypted as `key encrypt` does, in its own
    /// format (PEM or DER), and replaces the file atomically with the same
    /// permissions.
    Passwd(PasswdArgs),
    /// Describe a key file: private or public key (or certificate),
    /// encrypted or not, parameter set, mode (pure or HashSLH-DSA),
    /// fingerprint, and for a draft SP 800-230 private key its tree cache
    /// KEY.tree. An encrypted key is decrypted only with --passphrase-file
    /// or --passphrase-fd (never asked for): without, only that it is
    /// encrypted is shown, as the format tells nothing more.
    Show(ShowArgs),
}

#[derive(clap::Args)]
pub struct PasswdArgs {
    /// The encrypted private key (PEM or DER), replaced in place.
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// Read the new passphrase from the first line of FILE.
    #[arg(long, value_name = "FILE")]
    new_passphrase_file: Option<PathBuf>,
    /// Read the new passphrase from the open file descriptor N (its next
    /// line: with --passphrase-fd N too, the old passphrase is the first
    /// line and the new one the second).
    #[arg(long, value_name = "N", conflicts_with = "new_passphrase_file")]
    new_passphrase_fd: Option<u32>,
}

#[derive(clap::Args)]
pub struct ShowArgs {
    /// The key: PEM, DER, raw bytes (raw needs -a), or an X.509 certificate.
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// Parameter set of a raw key (required for raw keys, whose length does
    /// not tell their set).
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    algorithm: Option<String>,
}

#[derive(clap::Args)]
pub struct KeyArgs {
    /// The private key (PEM or DER).
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// Output file (required: a private key is not written to standard output).
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: PathBuf,
    /// Write DER instead of PEM.
    #[arg(long)]
    der: bool,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

pub fn run(command: KeyCommand) -> Result<(), CliError> {
    let (args, encrypt) = match command {
        KeyCommand::Encrypt(a) => (a, true),
        KeyCommand::Decrypt(a) => (a, false),
        KeyCommand::Passwd(a) => return passwd(&a),
        KeyCommand::Show(a) => return show(&a),
    };
    check_writable(&args.out, args.force)?;
    let bytes = Zeroizing::new(read_capped(&args.key, Cap::Key)?);
    let plain = plain_pkcs8(&args.key, &bytes, encrypt)?;
    let out: Zeroizing<Vec<u8>> = if encrypt {
        let pass = passphrase::for_writing(&args.out)?;
        Zeroizing::new(if args.der {
            encrypted::encrypt_private_key_der(&plain, &pass)?
        } else {
            encrypted::encrypt_private_key_pem(&plain, &pass)?.into_bytes()
        })
    } else {
        let key = DynSigningKey::from_pkcs8(&plain).map_err(|e| CliError::file(&args.key, e))?;
        if args.der {
            key.to_pkcs8_der()?
        } else {
            Zeroizing::new(key.to_pkcs8_pem()?.as_bytes().to_vec())
        }
    };
    write_output(&args.out, &out, true, args.force)?;
    // As `sign` reports FILE.sig: the key, then what was written.
    say::status(&format!(
        "{}: {}, {}\n",
        crate::quote::name(&args.key),
        if encrypt { "encrypted" } else { "decrypted" },
        crate::quote::name(&args.out)
    ))
}

/// The key's plain PKCS#8 DER, checked to be a key we read.
fn plain_pkcs8(path: &Path, bytes: &[u8], encrypt: bool) -> Result<Zeroizing<Vec<u8>>, CliError> {
    match (is_encrypted(bytes), encrypt) {
        (true, true) => Err(CliError::file(path, "is already encrypted")),
        (false, false) => Err(CliError::file(path, "is not encrypted")),
        (true, false) => decrypt(path, bytes),
        (false, true) => DynSigningKey::from_pkcs8(bytes)
            .and_then(|k| k.to_pkcs8_der())
            .map_err(|e| CliError::file(path, e)),
    }
}

/// `key passwd KEY`: decrypt with the old passphrase, encrypt with the new,
/// replace the file.
fn passwd(args: &PasswdArgs) -> Result<(), CliError> {
    let path = &args.key;
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    if !is_encrypted(&bytes) {
        return Err(CliError::file(
            path,
            "is not encrypted; `sphincs key encrypt` adds a passphrase",
        ));
    }
    let old = passphrase::for_reading(path)?;
    let plain = decrypt(path, &bytes)?;
    // A key we read, before it is written again.
    DynSigningKey::from_pkcs8_unchecked(&plain).map_err(|e| CliError::file(path, e))?;
    let source = passphrase::Source {
        file: args.new_passphrase_file.clone(),
        fd: args.new_passphrase_fd,
        tty: false,
    };
    let new = passphrase::new_from(&source, path)?;
    if *new == *old {
        return Err(CliError::file(
            path,
            "the new passphrase is the old one; nothing changed",
        ));
    }
    let out: Zeroizing<Vec<u8>> =
        Zeroizing::new(if sphincs::encoding::pem_label(&bytes).is_some() {
            encrypted::encrypt_private_key_pem(&plain, &new)?.into_bytes()
        } else {
            encrypted::encrypt_private_key_der(&plain, &new)?
        });
    replace_in_place(path, &out)?;
    say::status(&format!(
        "{}: passphrase changed\n",
        crate::quote::name(path)
    ))
}

/// `key show KEY`: what the file is and holds, one `Name: value` per line.
fn show(args: &ShowArgs) -> Result<(), CliError> {
    let alg = parse_any(args.algorithm.as_deref())?;
    let info = inspect(&args.key, alg, passphrase::given())?;
    let mut text = format!("File:        {}\n", crate::quote::name(&args.key));
    let encrypted = match (info.what, info.encrypted) {
        ("private key", true) => ", encrypted",
        ("private key", false) => ", not encrypted",
        _ => "",
    };
    text += &format!("Contents:    {}, {}{encrypted}\n", info.what, info.format);
    match &info.key {
        None => {
            text += "Key:         encrypted with the rest of the key; give --passphrase-file FILE or --passphrase-fd N to show its set, mode and fingerprint\n";
        }
        Some(key) => {
            text += &format!("Algorithm:   {}\n", key.algorithm());
            let mode = match key.mode() {
                Some(m) if info.has_oid => m.to_string(),
                Some(_) => sphincs::KeyMode::Unrestricted.to_string(),
                None => "pure (the family has no pre-hash mode)".to_string(),
            };
            text += &format!("Mode:        {mode}\n");
            // A set without an OID and without a raw fingerprint (draft
            // SP 800-230) has none: the library says why.
            text += &match key.fingerprint() {
                Ok(f) => format!("Fingerprint: {f}\n"),
                Err(e) => format!("Fingerprint: none ({e})\n"),
            };
        }
    }
    if let Some(state) = &info.tree_cache {
        text += &format!("Tree cache:  {state}\n");
    }
    crate::io::write_stdout(text.as_bytes(), false)
}
