//! Reading keys: the file is read here (with its size cap) and opened by
//! the core's one routine (`sphincs::any::KeyOpener`), which tells PEM,
//! DER and raw bytes apart, asks for the passphrase of an encrypted file
//! and loads a draft SP 800-230 key's tree cache from `KEY.tree`
//! (`tree_file`). Raw bytes need `-a` to name the parameter set, since
//! SHA2 and SHAKE keys of a security level have the same length; the
//! core's errors get the file's name and `-a` here.

use std::cell::RefCell;
use std::path::Path;
use std::sync::OnceLock;

use sphincs::any::{
    AnyAlgorithm, AnySigningKey, AnyVerifyingKey, KeyFileKind, KeyOpener, OpenError,
};
use sphincs::encoding;
use sphincs::encoding::limited::{DecryptedLimitedKey, LIMITED_KEY_LABEL};
use sphincs::Algorithm;
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::files::passphrase;
use crate::files::read;
use crate::files::read::{read_capped, Cap};
use crate::keys::raw_files;
use crate::keys::tree_file;

/// Parses `-a ALG`: a FIPS 205 set or a draft SP 800-230 set (both run on
/// the FIPS 205 engine, `Algorithm`); any other family's name gets
/// `fips205_algorithm`'s answer, which says where that family goes.
pub fn parse_algorithm(name: Option<&str>) -> Result<Option<Algorithm>, CliError> {
    name.map(|n| {
        n.parse::<Algorithm>()
            .or_else(|_| sphincs::fips205_algorithm(n))
            .map_err(CliError::from)
    })
    .transpose()
}

/// Parses `-a ALG` of any family for `sign` and `verify`: a set whose keys
/// are raw bytes only (round 3.1, SPHINCS-256) is read by `rawkey`, any
/// other name by [`parse_algorithm`] (with its errors).
pub fn parse_any(name: Option<&str>) -> Result<Option<AnyAlgorithm>, CliError> {
    match raw_files::parse(name) {
        Some(alg) => Ok(Some(alg)),
        None => Ok(parse_algorithm(name)?.map(AnyAlgorithm::from)),
    }
}

/// A set read by `rawkey`: one without a FIPS 205 key file format.
fn raw_only(alg: Option<AnyAlgorithm>) -> Option<AnyAlgorithm> {
    alg.filter(|a| a.slh_dsa().is_none())
}

/// [`load_signing_key`] for a key of any family (see [`parse_any`]).
pub fn load_any_signing_key(
    path: &Path,
    alg: Option<AnyAlgorithm>,
) -> Result<AnySigningKey, CliError> {
    by_reader(path, alg, raw_files::load_secret, load_signing_key)
}

/// [`load_verifying_key`] for a key of any family (see [`parse_any`]).
pub fn load_any_verifying_key(
    path: &Path,
    alg: Option<AnyAlgorithm>,
) -> Result<AnyVerifyingKey, CliError> {
    by_reader(path, alg, raw_files::load_public, load_verifying_key)
}

/// [`load_public_half`] for a key of any family (see [`parse_any`]).
pub fn load_any_public_half(
    path: &Path,
    alg: Option<AnyAlgorithm>,
) -> Result<AnyVerifyingKey, CliError> {
    by_reader(path, alg, raw_files::load_public_half, load_public_half)
}

/// Sends a key to the reader of its set: `rawkey` for a set without a FIPS
/// 205 key file format, the core's opener for the rest.
fn by_reader<T>(
    path: &Path,
    alg: Option<AnyAlgorithm>,
    raw: fn(&Path, AnyAlgorithm) -> Result<T, CliError>,
    fips: fn(&Path, Option<Algorithm>) -> Result<T, CliError>,
) -> Result<T, CliError> {
    match raw_only(alg) {
        Some(set) => raw(path, set),
        None => fips(path, alg.and_then(AnyAlgorithm::slh_dsa)),
    }
}

/// Loads a private key for signing: PK.root checked, the passphrase asked
/// only for an encrypted file, a draft SP 800-230 key's tree from
/// `KEY.tree` (recomputed and rewritten when that cannot be used).
pub fn load_signing_key(path: &Path, alg: Option<Algorithm>) -> Result<AnySigningKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    let key = opened(path, &bytes, alg, |opener| {
        opener.open_signing_key(&bytes).map(|o| o.key)
    })?;
    // Only once it is known to be a private key.
    read::warn_if_readable_by_others(path, "a private key");
    Ok(key)
}

/// Loads a public key, a certificate's subject key, or the public half of a
/// private key.
pub fn load_verifying_key(
    path: &Path,
    alg: Option<Algorithm>,
) -> Result<AnyVerifyingKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    opened(path, &bytes, alg, |opener| {
        opener.open_verifying_key(&bytes)
    })
}

/// Loads any key and returns its public half: `pubkey` checks PK.root of a
/// private key, so that what it writes is the key's real public key.
pub fn load_public_half(path: &Path, alg: Option<Algorithm>) -> Result<AnyVerifyingKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    let key = opened(path, &bytes, alg, |opener| opener.open_public_half(&bytes))?;
    let private = match KeyFileKind::of(&bytes) {
        KeyFileKind::Raw => alg.map(Algorithm::public_key_len) != Some(bytes.len()),
        kind => kind.is_private(),
    };
    if private {
        read::warn_if_readable_by_others(path, "a private key");
    }
    Ok(key)
}

/// The error for a key the certificate and CMS commands cannot use (their
/// core calls take FIPS 205 keys; every key [`load_signing_key`] opens is
/// one, so this is a guard, not a path).
pub fn not_fips205(path: &Path) -> CliError {
    CliError::file(
        path,
        "is not a FIPS 205 key; certificates and CMS are signed with FIPS 205 keys",
    )
}

/// Runs `open` on an opener for the key file `path` (the run's passphrase,
/// `KEY.tree`, every CPU, a progress bar on a terminal) and words its
/// errors as the command line does: with the file's name, and `-a` where
/// the set is named.
fn opened<T>(
    path: &Path,
    bytes: &[u8],
    alg: Option<Algorithm>,
    open: impl FnOnce(&mut KeyOpener<'_>) -> Result<T, OpenError>,
) -> Result<T, CliError> {
    // The passphrase reader's own error (no terminal, an empty file) is
    // the command's, kept here while the core sees a stop.
    let asked: RefCell<Option<CliError>> = RefCell::new(None);
    let bar = OnceLock::new();
    let mut store = tree_file::FileStore::new(path, &bar);
    let progress = |done: usize, total: usize| {
        if let Some(bar) = bar.get() {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let mut opener = KeyOpener::new(alg.map(AnyAlgorithm::from))
        .with_passphrase(|| {
            passphrase::for_reading(path).map_err(|e| {
                *asked.borrow_mut() = Some(e);
                sphincs::Error::Cancelled
            })
        })
        .with_tree_cache(&mut store)
        .with_threads(tree_file::threads())
        .with_progress(&progress);
    let result = open(&mut opener);
    drop(opener);
    if let Some(bar) = bar.get() {
        bar.finish_and_clear();
    }
    result.map_err(|e| match asked.take() {
        Some(failed) => failed,
        None => open_error(path, bytes, alg, e),
    })
}

/// The core's refusal of a key file, worded for the command line.
fn open_error(path: &Path, bytes: &[u8], alg: Option<Algorithm>, e: OpenError) -> CliError {
    match (e, alg) {
        (OpenError::RawNeedsSet { len, fits: true }, _) => CliError::file(
            path,
            format!("looks like a raw {len}-byte key; say which parameter set it is with -a ALG (see `sphincs list`)"),
        ),
        (OpenError::WrongSet { found, expected }, _) => {
            CliError::file(path, format!("is an {found} key, but -a says {expected}"))
        }
        // Raw bytes do not name their set: the sets of that length under
        // which they are a whole key are told (not the draft SP 800-230
        // sets, whose check takes minutes; theirs is against the cache).
        (OpenError::Key(sphincs::Error::KeyMismatch), Some(a))
            if !a.is_sp800_230() && KeyFileKind::of(bytes) == KeyFileKind::Raw =>
        {
            raw_files::raw_mismatch(path, a.into(), bytes)
        }
        (e, _) => CliError::file(path, e),
    }
}

/// What `key show` tells of a key file, read without checking PK.root
/// (nothing is signed) and without recomputing a tree.
pub struct KeyInfo {
    /// "private key", "public key" or "X.509 certificate".
    pub what: &'static str,
    /// How it is stored: "PEM (PKCS#8)", "DER (SubjectPublicKeyInfo)", "raw (64 bytes)"...
    pub format: String,
    pub encrypted: bool,
    /// The public key (of a private key, of a certificate's subject); `None`
    /// for an encrypted key read without its passphrase.
    pub key: Option<AnyVerifyingKey>,
    /// Whether the key is bound to a mode by an OID (PEM and DER keys).
    pub has_oid: bool,
    /// A draft SP 800-230 raw private key: its tree cache's state.
    pub tree_cache: Option<String>,
}

/// Reads any key file for `key show`; an encrypted private key is
/// decrypted only when `decrypt_it` (a passphrase source was given).
/// Nothing is checked or recomputed: the public half is read as it stands.
pub fn inspect(
    path: &Path,
    alg: Option<AnyAlgorithm>,
    decrypt_it: bool,
) -> Result<KeyInfo, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    let info = |what, format: String, key: Option<AnyVerifyingKey>, has_oid| KeyInfo {
        what,
        format,
        encrypted: false,
        key,
        has_oid,
        tree_cache: None,
    };
    let pem = encoding::pem_label(&bytes).is_some();
    let coded = |inner: &str| format!("{} ({inner})", if pem { "PEM" } else { "DER" });
    if let Some(set) = raw_only(alg) {
        let raw = format!("raw ({} bytes)", bytes.len());
        return if bytes.len() == set.secret_key_len() {
            let key = AnySigningKey::from_bytes_unchecked(set, &bytes)
                .map_err(|e| CliError::file(path, e))?;
            Ok(info("private key", raw, Some(key.verifying_key()), false))
        } else {
            Ok(info(
                "public key",
                raw,
                Some(raw_files::load_public(path, set)?),
                false,
            ))
        };
    }
    let fips = alg.and_then(AnyAlgorithm::slh_dsa);
    let public = |expected| {
        opened(path, &bytes, expected, |opener| {
            opener.open_verifying_key(&bytes)
        })
    };
    Ok(match KeyFileKind::of(&bytes) {
        KeyFileKind::Private => info("private key", coded("PKCS#8"), Some(public(fips)?), true),
        KeyFileKind::EncryptedPrivate => KeyInfo {
            encrypted: true,
            ..info(
                "private key",
                coded("PKCS#8 EncryptedPrivateKeyInfo"),
                decrypt_it.then(|| public(fips)).transpose()?,
                true,
            )
        },
        KeyFileKind::EncryptedLimited => {
            let mut shown = KeyInfo {
                encrypted: true,
                ..info(
                    "private key",
                    format!("PEM \"{LIMITED_KEY_LABEL}\" (this library's own format for draft SP 800-230 keys, not PKCS#8: no OID is assigned)"),
                    None,
                    false,
                )
            };
            if decrypt_it {
                let plain = decrypt_limited(path, &bytes)?;
                if let Some(asked) = fips.filter(|a| *a != plain.algorithm) {
                    let found = AnyAlgorithm::from(plain.algorithm);
                    return Err(open_error(
                        path,
                        &bytes,
                        fips,
                        OpenError::WrongSet {
                            found,
                            expected: asked.into(),
                        },
                    ));
                }
                let key =
                    AnySigningKey::from_bytes_unchecked(plain.algorithm.into(), &plain.secret)
                        .map_err(|e| CliError::file(path, e))?;
                shown.key = Some(key.verifying_key());
                shown.tree_cache = Some(tree_file::cache_state(path, key));
            }
            shown
        }
        KeyFileKind::Public => info(
            "public key",
            coded("SubjectPublicKeyInfo"),
            Some(public(fips)?),
            true,
        ),
        KeyFileKind::Certificate => info(
            "X.509 certificate",
            coded("its subject public key below"),
            Some(public(fips)?),
            true,
        ),
        // None of the files read as a key: the core's error says what is
        // read (were it to read the file after all, it is shown as read).
        KeyFileKind::Unknown => {
            let key = public(None)?;
            info("public key", coded("SubjectPublicKeyInfo"), Some(key), true)
        }
        KeyFileKind::Raw => {
            let key = public(fips)?;
            let set = key.algorithm();
            let raw = format!("raw ({} bytes)", bytes.len());
            if bytes.len() != set.secret_key_len() {
                return Ok(info("public key", raw, Some(key), false));
            }
            let mut shown = info("private key", raw, Some(key), false);
            if set.is_limited() {
                let secret = AnySigningKey::from_bytes_unchecked(set, &bytes)
                    .map_err(|e| CliError::file(path, e))?;
                shown.tree_cache = Some(tree_file::cache_state(path, secret));
            }
            shown
        }
    })
}

/// The plain PKCS#8 of an encrypted key, with the run's passphrase.
pub fn decrypt(path: &Path, bytes: &[u8]) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let pass = passphrase::for_reading(path)?;
    encoding::encrypted::decrypt_private_key(bytes, &pass).map_err(|e| CliError::file(path, e))
}

/// The set and raw secret key of an encrypted draft SP 800-230 key, with
/// the run's passphrase (PK.root unchecked: the tree cache checks it).
pub fn decrypt_limited(path: &Path, bytes: &[u8]) -> Result<DecryptedLimitedKey, CliError> {
    let pass = passphrase::for_reading(path)?;
    encoding::limited::decrypt_limited_key(bytes, &pass).map_err(|e| CliError::file(path, e))
}

/// Whether the key file holds a private key (PEM, DER, encrypted, or raw:
/// not a public key, a certificate or another PEM block).
pub fn is_private_key(bytes: &[u8]) -> bool {
    KeyFileKind::of(bytes).is_private()
}

/// Whether the key file holds an encrypted private key (PKCS#8, or a draft
/// SP 800-230 key's own format).
pub fn is_encrypted(bytes: &[u8]) -> bool {
    KeyFileKind::of(bytes).is_encrypted()
}

/// Whether the key file holds an encrypted draft SP 800-230 key.
pub fn is_encrypted_limited(bytes: &[u8]) -> bool {
    KeyFileKind::of(bytes) == KeyFileKind::EncryptedLimited
}
