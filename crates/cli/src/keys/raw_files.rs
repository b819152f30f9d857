//! Key files of the sets that have no OID (SPHINCS+ round 3.1 and
//! SPHINCS-256): the raw bytes their reference code writes, read through
//! `sphincs::any`, so one set of rules serves both (`cmd_keys` makes them).
//! The FIPS 205 and draft SP 800-230 sets have their own reader (`keyfile`:
//! PEM, DER, raw keys and tree caches).

use std::path::Path;

use sphincs::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey};
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::files::read::{read_capped, Cap};

/// The set `-a` names if its keys are read here (no FIPS 205 encoding);
/// `None` for anything `keyfile` reads, or reports as unknown.
pub fn parse(name: Option<&str>) -> Option<AnyAlgorithm> {
    name.and_then(|n| n.parse::<AnyAlgorithm>().ok())
        .filter(|a| a.slh_dsa().is_none())
}

/// A raw secret key, its public half checked where the set has a root to
/// check (SPHINCS-256 derives it).
pub fn load_secret(path: &Path, alg: AnyAlgorithm) -> Result<AnySigningKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    if bytes.len() == alg.public_key_len() {
        return Err(CliError::file(
            path,
            "is a public key; signing needs the private key",
        ));
    }
    AnySigningKey::from_bytes(alg, &bytes).map_err(|e| match e {
        sphincs::Error::KeyMismatch => raw_mismatch(path, alg, &bytes),
        e => CliError::file(path, e),
    })
}

/// A raw public key, or the public half of a raw secret key (taken as it
/// stands: verification needs no check of the secret half).
pub fn load_public(path: &Path, alg: AnyAlgorithm) -> Result<AnyVerifyingKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    if bytes.len() == alg.secret_key_len() {
        return AnySigningKey::from_bytes_unchecked(alg, &bytes)
            .map(|k| k.verifying_key())
            .map_err(|e| CliError::file(path, e));
    }
    AnyVerifyingKey::from_bytes(alg, &bytes).map_err(|e| {
        CliError::file(
            path,
            format!(
                "{e} (a raw {alg} key is {} bytes public or {} bytes secret)",
                alg.public_key_len(),
                alg.secret_key_len()
            ),
        )
    })
}

/// The public half `pubkey` writes: of a secret key loaded with its check
/// (so that it is the key's real public key), or the public key itself.
pub fn load_public_half(path: &Path, alg: AnyAlgorithm) -> Result<AnyVerifyingKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    if bytes.len() == alg.secret_key_len() {
        Ok(load_secret(path, alg)?.verifying_key())
    } else {
        load_public(path, alg)
    }
}

/// The error for a raw secret key whose public root is not the one the set
/// `-a` names derives from its seeds: most often `-a` names another set
/// than the key's, so the sets of the same key length under which it is a
/// whole key are named too (each checked by the core as `-a` was; a draft
/// SP 800-230 set, whose check takes minutes, is not tried).
pub fn raw_mismatch(path: &Path, asked: AnyAlgorithm, bytes: &[u8]) -> CliError {
    let fits: Vec<String> = AnyAlgorithm::all()
        .filter(|a| *a != asked && a.secret_key_len() == bytes.len())
        .filter(|a| a.slh_dsa().is_none_or(|s| !s.is_sp800_230()))
        .filter(|a| AnySigningKey::from_bytes(*a, bytes).is_ok())
        .map(|a| a.to_string())
        .collect();
    if fits.is_empty() {
        return CliError::file(path, sphincs::Error::KeyMismatch);
    }
    CliError::file(
        path,
        format!(
            "is a key of {}, but -a says {asked} (under {asked} its public root does not match its seeds; raw bytes do not name their set)",
            fits.join(" or ")
        ),
    )
}
