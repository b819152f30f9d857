//! `sphincs key encrypt|decrypt|passwd` (and, for OpenPGP keys, the
//! verbs of `pgp_life`: expire, revoke, add-subkey, retire-subkey): add, remove or change the
//! passphrase of a PKCS#8 private key (the encryption is
//! `sphincs::encoding::encrypted`) or of a draft SP 800-230 key (the core's
//! own PEM, `sphincs::encoding::limited`, whose tree cache OUT.tree is
//! written beside the output), and `key show`, which describes a key file. encrypt and decrypt write atomically with mode 0600 and never
//! replace a file without --force; passwd replaces its key atomically,
//! keeping its permissions.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use sphincs::any::{AnyAlgorithm, AnySigningKey, KeyFormat};
use sphincs::encoding::{encrypted, limited as limited_key};
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::files::passphrase;
use crate::files::quote;
use crate::files::read::{read_capped, Cap};
use crate::files::write;
use crate::files::write::{check_writable, replace_in_place, write_output};
use crate::keys::load::{
    decrypt, decrypt_limited, inspect, is_encrypted, is_encrypted_limited, load_signing_key,
    parse_any,
};
use crate::keys::tree_file;
use crate::openpgp::life;
use crate::openpgp::verbs;
use crate::say;

#[derive(Subcommand)]
pub enum KeyCommand {
    /// Encrypt a PKCS#8 private key with a passphrase (PBES2: scrypt
    /// N=2^14 r=8 p=1, AES-256-CBC), as PEM "ENCRYPTED PRIVATE KEY". A raw
    /// draft SP 800-230 key (-a *-24) is encrypted the same way but in this
    /// library's own format, PEM "SPHINCS DRAFT SP 800-230 ENCRYPTED PRIVATE
    /// KEY" (not PKCS#8: no OID is assigned), its tree cache copied to OUT.tree.
    Encrypt(KeyArgs),
    /// Remove the passphrase of an encrypted private key (PEM "PRIVATE KEY";
    /// a draft SP 800-230 key: its raw bytes, and its tree cache OUT.tree).
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
    /// Change when an OpenPGP key expires (a new self-signature; the key
    /// file is replaced in place). Publish the certificate again afterwards.
    Expire(life::ExpireArgs),
    /// Revoke an OpenPGP key: print the revoked certificate to publish, or
    /// with --signature-only a revocation certificate to keep apart (made
    /// on the day the key is made, it revokes the key if the key is lost).
    Revoke(life::RevokeArgs),
    /// Add a signing subkey to an OpenPGP key (the key file is replaced in
    /// place): day-to-day signing then uses the newest signing subkey, and
    /// the primary key can be kept offline.
    AddSubkey(life::AddSubkeyArgs),
    /// Revoke a subkey of an OpenPGP key (retired by default: its earlier
    /// signatures stay good where validity is judged at signing time).
    RetireSubkey(life::RetireSubkeyArgs),
    /// Write an OpenPGP key without its primary key's secret, for the
    /// machine that signs day to day: the subkeys sign, the primary key
    /// (which changes expiry, adds and revokes subkeys) stays offline.
    ExportSubkeys(life::ExportSubkeysArgs),
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
    /// The private key (PEM or DER; raw for a draft SP 800-230 key).
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// The set of a raw draft SP 800-230 key (e.g. sha2-128-24), which its
    /// bytes do not tell; PEM and DER keys name their own set.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    algorithm: Option<String>,
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
        KeyCommand::Expire(a) => return life::expire(&a),
        KeyCommand::Revoke(a) => return life::revoke(&a),
        KeyCommand::AddSubkey(a) => return life::add_subkey(&a),
        KeyCommand::RetireSubkey(a) => return life::retire_subkey(&a),
        KeyCommand::ExportSubkeys(a) => return life::export_subkeys(&a),
    };
    check_writable(&args.out, args.force)?;
    let bytes = Zeroizing::new(read_capped(&args.key, Cap::Key)?);
    let alg = parse_any(args.algorithm.as_deref())?;
    if is_encrypted_limited(&bytes) || alg.is_some_and(AnyAlgorithm::is_limited) {
        return limited(&args, alg, &bytes, encrypt);
    }
    if alg.is_some() {
        return Err(CliError::Failed(
            "-a names the set of a raw draft SP 800-230 key; PEM and DER keys name their own"
                .into(),
        ));
    }
    let plain = plain_pkcs8(&args.key, &bytes, encrypt)?;
    let out: Zeroizing<Vec<u8>> = if encrypt {
        let pass = passphrase::for_writing(&args.out)?;
        Zeroizing::new(if args.der {
            encrypted::encrypt_private_key_der(&plain, &pass)?
        } else {
            encrypted::encrypt_private_key_pem(&plain, &pass)?.into_bytes()
        })
    } else {
        let key = AnySigningKey::from_pkcs8(&plain).map_err(|e| CliError::file(&args.key, e))?;
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
        quote::name(&args.key),
        if encrypt { "encrypted" } else { "decrypted" },
        quote::name(&args.out)
    ))
}

/// `key encrypt|decrypt` of a draft SP 800-230 key: read as `sign` reads it
/// (its tree from KEY.tree, checked against the key's seeds, or recomputed),
/// written encrypted in the core's own PEM or as raw bytes, with its tree
/// cache beside the output so that the new file signs at once.
fn limited(
    args: &KeyArgs,
    alg: Option<AnyAlgorithm>,
    bytes: &[u8],
    encrypt: bool,
) -> Result<(), CliError> {
    match (is_encrypted(bytes), encrypt) {
        (true, true) => return Err(CliError::file(&args.key, "is already encrypted")),
        (false, false) => return Err(CliError::file(&args.key, "is not encrypted")),
        _ => {}
    }
    if args.der {
        return Err(CliError::Failed(
            "--der: an encrypted draft SP 800-230 key is PEM only (its label tells it from a standard key), and a decrypted one raw bytes".into(),
        ));
    }
    let cache = tree_file::cache_path(&args.out);
    check_writable(&cache, args.force)?;
    // Asked before the key's tree is loaded, which may take minutes.
    let pass = match encrypt {
        true => Some(passphrase::for_writing(&args.out)?),
        false => None,
    };
    let key = load_signing_key(&args.key, alg.and_then(AnyAlgorithm::slh_dsa))?;
    let out = key.to_key_file(KeyFormat::Raw, pass.as_ref().map(|p| &p[..]))?;
    write_output(&args.out, &out, true, args.force)?;
    tree_file::write_cache(&args.out, key.tree_cache())?;
    say::status(&format!(
        "{}: {}, {} (tree cache {})\n",
        quote::name(&args.key),
        if encrypt { "encrypted" } else { "decrypted" },
        quote::name(&args.out),
        quote::name(&cache)
    ))
}

/// The key's plain PKCS#8 DER, checked to be a key we read.
fn plain_pkcs8(path: &Path, bytes: &[u8], encrypt: bool) -> Result<Zeroizing<Vec<u8>>, CliError> {
    match (is_encrypted(bytes), encrypt) {
        (true, true) => Err(CliError::file(path, "is already encrypted")),
        (false, false) => Err(CliError::file(path, "is not encrypted")),
        (true, false) => decrypt(path, bytes),
        (false, true) => AnySigningKey::from_pkcs8(bytes)
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
    if is_encrypted_limited(&bytes) {
        return passwd_limited(args, &bytes, &old);
    }
    let plain = decrypt(path, &bytes)?;
    // A key we read, before it is written again.
    AnySigningKey::from_pkcs8_unchecked(&plain).map_err(|e| CliError::file(path, e))?;
    let new = new_passphrase(args)?;
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
    say::status(&format!("{}: passphrase changed\n", quote::name(path)))
}

/// `key passwd` of a draft SP 800-230 key: the same set and raw key under
/// the new passphrase (its tree cache, public, stays as it is).
fn passwd_limited(args: &PasswdArgs, bytes: &[u8], old: &[u8]) -> Result<(), CliError> {
    let path = &args.key;
    let key = decrypt_limited(path, bytes)?;
    let new = new_passphrase(args)?;
    if *new == *old {
        return Err(CliError::file(
            path,
            "the new passphrase is the old one; nothing changed",
        ));
    }
    let pem = limited_key::encrypt_limited_key(key.algorithm, &key.secret, &new)?;
    replace_in_place(path, pem.as_bytes())?;
    say::status(&format!("{}: passphrase changed\n", quote::name(path)))
}

/// The new passphrase of `key passwd`, from its own options or the terminal.
fn new_passphrase(args: &PasswdArgs) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let source = passphrase::Source {
        file: args.new_passphrase_file.clone(),
        fd: args.new_passphrase_fd,
        tty: false,
    };
    passphrase::new_from(&source, &args.key)
}

/// `key show KEY`: what the file is and holds, one `Name: value` per line.
fn show(args: &ShowArgs) -> Result<(), CliError> {
    if verbs::is_openpgp_file(&args.key) {
        return verbs::show(&args.key);
    }
    let alg = parse_any(args.algorithm.as_deref())?;
    let info = inspect(&args.key, alg, passphrase::given())?;
    let mut text = format!("File:        {}\n", quote::name(&args.key));
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
            // Every set has one today; should the library ever refuse, the
            // rest of the description is still worth printing.
            text += &match key.fingerprint() {
                Ok(f) => format!("Fingerprint: {f}\n"),
                Err(e) => format!("Fingerprint: none ({e})\n"),
            };
        }
    }
    if let Some(state) = &info.tree_cache {
        text += &format!("Tree cache:  {state}\n");
    }
    write::write_stdout(text.as_bytes(), false)
}
