//! Key files of the sets that have no OID (SPHINCS+ round 3.1 and
//! SPHINCS-256): the raw bytes their reference code writes, made and read
//! through `sphincs::any`, so one set of rules serves both. The FIPS 205 and
//! draft SP 800-230 sets have their own reader (`keyfile`: PEM, DER, raw
//! keys and tree caches).

use std::path::Path;

use sphincs::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey};
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{
    check_key_outputs, check_writable, read_capped, refuse_binary_terminal, write_key_pair,
    write_output, write_stdout, Cap,
};

/// The set `-a` names if its keys are read here (no FIPS 205 encoding);
/// `None` for anything `keyfile` reads, or reports as unknown.
pub fn parse(name: Option<&str>) -> Option<AnyAlgorithm> {
    name.and_then(|n| n.parse::<AnyAlgorithm>().ok())
        .filter(|a| a.slh_dsa().is_none())
}

/// Generates a raw key pair (see [`write_key_pair`]) and prints its
/// fingerprint; `threads` builds the top tree where the set has one.
pub fn keygen(
    alg: AnyAlgorithm,
    out: &Path,
    public: Option<&Path>,
    force: bool,
    threads: usize,
) -> Result<(), CliError> {
    check_key_outputs(out, public, force)?;
    let key = AnySigningKey::generate(alg, threads)?;
    let vk = key.verifying_key();
    let public_key = vk.to_bytes();
    write_key_pair(
        out,
        &key.to_bytes(),
        public.map(|p| (p, &public_key[..])),
        force,
    )?;
    let fp = vk.fingerprint()?;
    crate::say::status(&crate::cmd_fingerprint::line(&fp, out))
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
    AnySigningKey::from_bytes(alg, &bytes).map_err(|e| CliError::file(path, e))
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

/// `pubkey`'s output: the raw public key that `load` reads, to `out` or
/// standard output; `load` runs once the output is known to be writable.
pub fn write_public(
    out: Option<&Path>,
    force: bool,
    load: impl FnOnce() -> Result<AnyVerifyingKey, CliError>,
) -> Result<(), CliError> {
    match out {
        Some(o) => check_writable(o, force)?,
        None => refuse_binary_terminal()?,
    }
    let vk = load()?.to_bytes();
    match out {
        Some(o) => write_output(o, &vk, false, force),
        None => write_stdout(&vk, true),
    }
}
