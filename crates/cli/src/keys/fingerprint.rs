//! `fingerprint`: the library's key fingerprint (`sphincs::fingerprint`) of
//! public or private keys of any scheme, one line per key.

use std::path::{Path, PathBuf};

use crate::error::CliError;
use crate::files::quote;
use crate::files::write;
use crate::keys::load;
use crate::openpgp::verbs;

/// The fingerprint of the public key in (or of) `key`: `-a` names the set of
/// a raw key, as for `verify`.
pub fn of_file(key: &Path, alg: Option<&str>) -> Result<String, CliError> {
    if verbs::is_openpgp_file(key) {
        return verbs::fingerprint(key);
    }
    let alg = load::parse_any(alg)?;
    Ok(load::load_any_public_half(key, alg)?.fingerprint()?)
}

/// The line printed for one key: `SHA256:<hex>  NAME`, as `sha256sum` lays
/// out a digest and its file.
pub fn line(fingerprint: &str, key: &Path) -> String {
    format!("{fingerprint}  {}\n", quote::name(&key))
}

/// `sphincs fingerprint KEY...`.
pub fn run(keys: &[PathBuf], alg: Option<&str>) -> Result<(), CliError> {
    let mut out = String::new();
    for k in keys {
        out += &line(&of_file(k, alg)?, k);
    }
    write::write_stdout(out.as_bytes(), false)
}

/// `verify --fingerprint SHA256:<hex>`: the form `fingerprint` prints (hex
/// in either case), checked before any key is read.
pub fn parse_pin(pin: Option<&str>) -> Result<Option<String>, CliError> {
    let Some(pin) = pin else {
        return Ok(None);
    };
    let prefix = sphincs::fingerprint::FINGERPRINT_PREFIX;
    let hex = pin
        .get(..prefix.len())
        .filter(|p| p.eq_ignore_ascii_case(prefix))
        .map(|_| &pin[prefix.len()..]);
    match hex {
        Some(h) if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Ok(Some(format!("{prefix}{}", h.to_ascii_lowercase())))
        }
        _ => Err(CliError::Failed(format!(
            "--fingerprint: {:?} is not a key fingerprint; expected {prefix} and 64 hex digits, as `sphincs fingerprint KEY` prints",
            pin
        ))),
    }
}

/// Fails unless the public key read from `path` has the pinned fingerprint.
pub fn check_pin(
    path: &Path,
    key: &sphincs::any::AnyVerifyingKey,
    pin: Option<&str>,
) -> Result<(), CliError> {
    let Some(pin) = pin else {
        return Ok(());
    };
    let found = key.fingerprint()?;
    if found == pin {
        return Ok(());
    }
    Err(CliError::file(
        path,
        format!("the public key's fingerprint is {found}, not the {pin} that --fingerprint expects; no signature was checked"),
    ))
}
