//! Reading keys: PEM and DER (RFC 9909) are recognised by their shape; raw
//! bytes need `-a` to name the parameter set, since SHA2 and SHAKE keys of a
//! security level have the same length.

use std::path::Path;

use sphincs::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey};
use sphincs::encoding::limited::{DecryptedLimitedKey, LIMITED_KEY_LABEL};
use sphincs::encoding::{self, PRIVATE_KEY_LABEL, PUBLIC_KEY_LABEL};
use sphincs::pki::cert::{self, CERTIFICATE_LABEL};
use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey};
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{read_capped, Cap};

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
    match crate::rawkey::parse(name) {
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
    by_reader(path, alg, crate::rawkey::load_secret, load_signing_key)
}

/// [`load_verifying_key`] for a key of any family (see [`parse_any`]).
pub fn load_any_verifying_key(
    path: &Path,
    alg: Option<AnyAlgorithm>,
) -> Result<AnyVerifyingKey, CliError> {
    by_reader(path, alg, crate::rawkey::load_public, load_verifying_key)
}

/// [`load_public_half`] for a key of any family (see [`parse_any`]).
pub fn load_any_public_half(
    path: &Path,
    alg: Option<AnyAlgorithm>,
) -> Result<AnyVerifyingKey, CliError> {
    by_reader(path, alg, crate::rawkey::load_public_half, load_public_half)
}

/// Sends a key to the reader of its set: `rawkey` for a set without a FIPS
/// 205 key file format, this module's `fips` loader for the rest.
fn by_reader<T, F: Into<T>>(
    path: &Path,
    alg: Option<AnyAlgorithm>,
    raw: fn(&Path, AnyAlgorithm) -> Result<T, CliError>,
    fips: fn(&Path, Option<Algorithm>) -> Result<F, CliError>,
) -> Result<T, CliError> {
    match raw_only(alg) {
        Some(set) => raw(path, set),
        None => Ok(fips(path, alg.and_then(AnyAlgorithm::slh_dsa))?.into()),
    }
}

/// What a key file turned out to hold.
enum Kind {
    Private,
    /// An encrypted PKCS#8 private key: decrypted with the passphrase.
    Encrypted,
    /// An encrypted draft SP 800-230 private key (the core's own PEM,
    /// `encoding::limited`): decrypted with the passphrase to its raw key.
    EncryptedLimited,
    Public,
    /// An X.509 certificate (PEM or DER): its subject public key is read.
    Certificate,
    Raw,
    /// PEM or DER that is neither key: the loader reports why.
    Malformed,
}

fn classify(bytes: &[u8]) -> Kind {
    if encoding::encrypted::is_encrypted_private_key(bytes) {
        return Kind::Encrypted;
    }
    if encoding::limited::is_encrypted_limited_key(bytes) {
        return Kind::EncryptedLimited;
    }
    if let Some(label) = encoding::pem_label(bytes) {
        return match label {
            PRIVATE_KEY_LABEL => Kind::Private,
            PUBLIC_KEY_LABEL => Kind::Public,
            CERTIFICATE_LABEL => Kind::Certificate,
            _ => Kind::Malformed,
        };
    }
    if bytes.first() == Some(&0x30) {
        // DER adds headers to a raw key, so no DER key has a raw key's
        // length: a raw key that happens to start with 0x30 stays raw.
        if encoding::decode_public_key(bytes).is_ok() {
            return Kind::Public;
        }
        if encoding::decode_private_key(bytes).is_ok() {
            return Kind::Private;
        }
        if cert::parse_certificate(bytes).is_ok() {
            return Kind::Certificate;
        }
        return if is_raw_len(bytes.len()) {
            Kind::Raw
        } else {
            Kind::Malformed
        };
    }
    if bytes.windows(11).any(|w| w == b"-----BEGIN ") {
        Kind::Malformed
    } else {
        Kind::Raw
    }
}

fn is_raw_len(len: usize) -> bool {
    Algorithm::ALL
        .iter()
        .any(|a| a.public_key_len() == len || a.secret_key_len() == len)
}

/// Loads a private key for signing; PK.root is recomputed and checked.
pub fn load_signing_key(path: &Path, alg: Option<Algorithm>) -> Result<DynSigningKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    let key = match classify(&bytes) {
        Kind::Malformed if alg.is_some() && encoding::pem_label(&bytes).is_none() => {
            return Err(not_der_nor_raw(path, alg, &bytes, "secret"))
        }
        Kind::Private | Kind::Malformed => {
            DynSigningKey::from_pkcs8(&bytes).map_err(|e| CliError::file(path, e))?
        }
        Kind::Encrypted => {
            let plain = decrypt(path, &bytes)?;
            DynSigningKey::from_pkcs8(&plain).map_err(|e| CliError::file(path, e))?
        }
        Kind::EncryptedLimited => {
            // Checked before the key's tree is loaded (or recomputed).
            let plain = decrypt_limited(path, &bytes)?;
            check_algorithm(path, alg, plain.algorithm)?;
            crate::tree_file::load_limited(path, plain.algorithm, &plain.secret)?
        }
        Kind::Public => {
            return Err(CliError::file(
                path,
                "is a public key; signing needs the private key",
            ))
        }
        Kind::Certificate => {
            return Err(CliError::file(
                path,
                "is an X.509 certificate; signing needs the private key",
            ))
        }
        Kind::Raw => {
            let alg = raw_algorithm(path, alg, bytes.len(), "secret")?;
            if alg.is_sp800_230() && bytes.len() == alg.secret_key_len() {
                crate::tree_file::load_limited(path, alg, &bytes)?
            } else {
                DynSigningKey::from_bytes(alg, &bytes).map_err(|e| match e {
                    sphincs::Error::KeyMismatch => {
                        crate::rawkey::raw_mismatch(path, alg.into(), &bytes)
                    }
                    e => CliError::file(path, e),
                })?
            }
        }
    };
    check_algorithm(path, alg, key.algorithm())?;
    // Only once it is known to be a private key.
    crate::io::warn_if_readable_by_others(path, "a private key");
    Ok(key)
}

/// Loads a public key, or the public half of a private key.
pub fn load_verifying_key(
    path: &Path,
    alg: Option<Algorithm>,
) -> Result<DynVerifyingKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    let key = match classify(&bytes) {
        Kind::Public => DynVerifyingKey::from_spki(&bytes).map_err(|e| CliError::file(path, e))?,
        Kind::Malformed if alg.is_some() && encoding::pem_label(&bytes).is_none() => {
            return Err(not_der_nor_raw(path, alg, &bytes, "public or secret"))
        }
        Kind::Malformed => return Err(not_a_public_key(path, &bytes)),
        Kind::Certificate => certificate_key(path, &bytes)?,
        Kind::Private => DynSigningKey::from_pkcs8_unchecked(&bytes)
            .map_err(|e| CliError::file(path, e))?
            .verifying_key(),
        Kind::Encrypted => DynSigningKey::from_pkcs8_unchecked(&decrypt(path, &bytes)?)
            .map_err(|e| CliError::file(path, e))?
            .verifying_key(),
        Kind::EncryptedLimited => {
            let plain = decrypt_limited(path, &bytes)?;
            DynSigningKey::from_bytes_unchecked(plain.algorithm, &plain.secret)
                .map_err(|e| CliError::file(path, e))?
                .verifying_key()
        }
        Kind::Raw => {
            let alg = raw_algorithm(path, alg, bytes.len(), "public or secret")?;
            if bytes.len() == alg.secret_key_len() {
                DynSigningKey::from_bytes_unchecked(alg, &bytes)
                    .map_err(|e| CliError::file(path, e))?
                    .verifying_key()
            } else {
                DynVerifyingKey::from_bytes(alg, &bytes).map_err(|e| CliError::file(path, e))?
            }
        }
    };
    check_algorithm(path, alg, key.algorithm())?;
    Ok(key)
}

/// Loads any key and returns its public half: `pubkey` checks PK.root of a
/// private key, so that what it writes is the key's real public key.
pub fn load_public_half(path: &Path, alg: Option<Algorithm>) -> Result<DynVerifyingKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    match classify(&bytes) {
        Kind::Public | Kind::Certificate => load_verifying_key(path, alg),
        // A PEM block of another kind (a certificate request, a CMS
        // message): the error names every kind of file read here.
        Kind::Malformed if encoding::pem_label(&bytes).is_some() => {
            Err(not_a_public_key(path, &bytes))
        }
        Kind::Raw if alg.is_some_and(|a| bytes.len() == a.public_key_len()) => {
            load_verifying_key(path, alg)
        }
        _ => load_signing_key(path, alg).map(|k| k.verifying_key()),
    }
}

/// The subject public key of an X.509 certificate (as `openssl pkeyutl
/// -certin` takes it), with the mode of its OID.
fn certificate_key(path: &Path, bytes: &[u8]) -> Result<DynVerifyingKey, CliError> {
    cert::certificate_key(bytes)
        .map_err(|e| CliError::file(path, format!("as an X.509 certificate: {e}")))
}

/// The error for bytes that start as DER does (0x30) but parse as no DER
/// key, given with `-a`: they may be a raw key that happens to start with
/// 0x30 (one in 256 do), so both readings are reported.
fn not_der_nor_raw(path: &Path, alg: Option<Algorithm>, bytes: &[u8], what: &str) -> CliError {
    let der = match what {
        "secret" => DynSigningKey::from_pkcs8_unchecked(bytes).err(),
        _ => DynVerifyingKey::from_spki(bytes).err(),
    };
    let raw = alg.and_then(|a| raw_len_problem(a, bytes.len(), what));
    let raw = raw.map_or_else(|| "not a raw key".to_string(), |r| r);
    match der {
        Some(e) => CliError::file(path, format!("is not a DER key ({e}), and {raw}")),
        None => CliError::file(path, format!("is not a PEM or DER key, and {raw}")),
    }
}

/// The error for a file given as a public key (`verify -p`, `fingerprint`)
/// that is none of the files read as one.
fn not_a_public_key(path: &Path, bytes: &[u8]) -> CliError {
    const EXPECTED: &str = "expected a public key (PEM \"PUBLIC KEY\" or DER SubjectPublicKeyInfo), an X.509 certificate (PEM \"CERTIFICATE\" or DER) or a private key";
    match encoding::pem_label(bytes) {
        Some(label) => CliError::file(path, format!("is a PEM \"{label}\"; {EXPECTED}")),
        None => match DynVerifyingKey::from_spki(bytes) {
            Err(e) => CliError::file(path, format!("{EXPECTED}; as a public key: {e}")),
            Ok(_) => CliError::file(path, EXPECTED),
        },
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
                Some(crate::rawkey::load_public(path, set)?),
                false,
            ))
        };
    }
    let fips = alg.and_then(AnyAlgorithm::slh_dsa);
    let unchecked = |der: &[u8]| {
        DynSigningKey::from_pkcs8_unchecked(der)
            .map(|k| k.verifying_key())
            .map_err(|e| CliError::file(path, e))
    };
    let shown = match classify(&bytes) {
        Kind::Private => info(
            "private key",
            coded("PKCS#8"),
            Some(unchecked(&bytes)?.into()),
            true,
        ),
        Kind::Encrypted => {
            let key = match decrypt_it {
                true => Some(unchecked(&decrypt(path, &bytes)?)?.into()),
                false => None,
            };
            KeyInfo {
                encrypted: true,
                ..info(
                    "private key",
                    coded("PKCS#8 EncryptedPrivateKeyInfo"),
                    key,
                    true,
                )
            }
        }
        Kind::EncryptedLimited => {
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
                let key = DynSigningKey::from_bytes_unchecked(plain.algorithm, &plain.secret)
                    .map_err(|e| CliError::file(path, e))?;
                shown.key = Some(key.verifying_key().into());
                shown.tree_cache = Some(crate::tree_file::cache_state(path, key));
            }
            shown
        }
        Kind::Public => info(
            "public key",
            coded("SubjectPublicKeyInfo"),
            Some(load_verifying_key(path, fips)?.into()),
            true,
        ),
        Kind::Certificate => info(
            "X.509 certificate",
            coded("its subject public key below"),
            Some(certificate_key(path, &bytes)?.into()),
            true,
        ),
        Kind::Malformed => return Err(not_a_public_key(path, &bytes)),
        Kind::Raw => {
            let set = raw_algorithm(path, fips, bytes.len(), "public or secret")?;
            let raw = format!("raw ({} bytes)", bytes.len());
            if bytes.len() == set.secret_key_len() {
                let key = DynSigningKey::from_bytes_unchecked(set, &bytes)
                    .map_err(|e| CliError::file(path, e))?;
                let mut shown = info("private key", raw, Some(key.verifying_key().into()), false);
                if set.is_sp800_230() {
                    shown.tree_cache = Some(crate::tree_file::cache_state(path, key));
                }
                shown
            } else {
                let key = DynVerifyingKey::from_bytes(set, &bytes)
                    .map_err(|e| CliError::file(path, e))?;
                info("public key", raw, Some(key.into()), false)
            }
        }
    };
    if let (Some(asked), Some(key)) = (fips, &shown.key) {
        if let Some(found) = key.algorithm().slh_dsa() {
            check_algorithm(path, Some(asked), found)?;
        }
    }
    Ok(shown)
}

/// The plain PKCS#8 of an encrypted key, with the run's passphrase.
pub fn decrypt(path: &Path, bytes: &[u8]) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let pass = crate::passphrase::for_reading(path)?;
    encoding::encrypted::decrypt_private_key(bytes, &pass).map_err(|e| CliError::file(path, e))
}

/// The set and raw secret key of an encrypted draft SP 800-230 key, with
/// the run's passphrase (PK.root unchecked: the tree cache checks it).
pub fn decrypt_limited(path: &Path, bytes: &[u8]) -> Result<DecryptedLimitedKey, CliError> {
    let pass = crate::passphrase::for_reading(path)?;
    encoding::limited::decrypt_limited_key(bytes, &pass).map_err(|e| CliError::file(path, e))
}

/// Whether the key file holds a private key (PEM, DER, encrypted, or raw:
/// not a public key, a certificate or another PEM block).
pub fn is_private_key(bytes: &[u8]) -> bool {
    matches!(
        classify(bytes),
        Kind::Private | Kind::Encrypted | Kind::EncryptedLimited | Kind::Raw
    )
}

/// Whether the key file holds an encrypted private key (PKCS#8, or a draft
/// SP 800-230 key's own format).
pub fn is_encrypted(bytes: &[u8]) -> bool {
    matches!(classify(bytes), Kind::Encrypted | Kind::EncryptedLimited)
}

/// Whether the key file holds an encrypted draft SP 800-230 key.
pub fn is_encrypted_limited(bytes: &[u8]) -> bool {
    matches!(classify(bytes), Kind::EncryptedLimited)
}

/// The set of a raw key: `-a` is required, and the length must fit it.
fn raw_algorithm(
    path: &Path,
    alg: Option<Algorithm>,
    len: usize,
    what: &str,
) -> Result<Algorithm, CliError> {
    let Some(alg) = alg else {
        return Err(CliError::file(
            path,
            if is_raw_len(len) {
                format!("looks like a raw {len}-byte key; say which parameter set it is with -a ALG (see `sphincs list`)")
            } else {
                format!("is not a PEM or DER key, nor a raw key of any parameter set's length ({len} bytes)")
            },
        ));
    };
    match raw_len_problem(alg, len, what) {
        Some(problem) => Err(CliError::file(
            path,
            format!("is not a PEM or DER key, and {problem}"),
        )),
        None => Ok(alg),
    }
}

/// Why `len` bytes are no raw `what` key of `alg` (`None` if they can be).
fn raw_len_problem(alg: Algorithm, len: usize, what: &str) -> Option<String> {
    let (fits, expected) = match what {
        "secret" => (
            len == alg.secret_key_len(),
            alg.secret_key_len().to_string(),
        ),
        _ => (
            len == alg.secret_key_len() || len == alg.public_key_len(),
            format!("{} or {}", alg.public_key_len(), alg.secret_key_len()),
        ),
    };
    (!fits).then(|| format!("as a raw {alg} {what} key it is {len} bytes; expected {expected}"))
}

fn check_algorithm(
    path: &Path,
    asked: Option<Algorithm>,
    found: Algorithm,
) -> Result<(), CliError> {
    match asked {
        Some(a) if a != found => Err(CliError::file(
            path,
            format!("is an {found} key, but -a says {a}"),
        )),
        _ => Ok(()),
    }
}
