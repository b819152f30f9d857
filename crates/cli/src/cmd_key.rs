//! `sphincs key encrypt|decrypt`: add or remove a passphrase on a PKCS#8
//! private key (the encryption is `sphincs::encoding::encrypted`). The
//! output is written atomically with mode 0600 and never replaces a file
//! without --force.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use sphincs::encoding::encrypted;
use sphincs::DynSigningKey;
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{check_writable, read_capped, write_output, Cap};
use crate::keyfile::{decrypt, is_encrypted};
use crate::passphrase;

#[derive(Subcommand)]
pub enum KeyCommand {
    /// Encrypt a PKCS#8 private key with a passphrase (PBES2: scrypt
    /// N=2^14 r=8 p=1, AES-256-CBC), as PEM "ENCRYPTED PRIVATE KEY".
    Encrypt(KeyArgs),
    /// Remove the passphrase of an encrypted private key (PEM "PRIVATE KEY").
    Decrypt(KeyArgs),
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
    write_output(&args.out, &out, true, args.force)
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
