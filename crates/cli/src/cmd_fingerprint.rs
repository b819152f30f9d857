//! `fingerprint`: the library's key fingerprint (`sphincs::fingerprint`) of
//! public or private keys of any scheme, one line per key.

use std::path::{Path, PathBuf};

use crate::error::CliError;

/// The fingerprint of the public key in (or of) `key`: `-a` names the set of
/// a raw key, as for `verify`.
pub fn of_file(key: &Path, alg: Option<&str>) -> Result<String, CliError> {
    let alg = crate::keyfile::parse_any(alg)?;
    Ok(crate::keyfile::load_any_public_half(key, alg)?.fingerprint()?)
}

/// The line printed for one key: `SHA256:<hex>  NAME`, as `sha256sum` lays
/// out a digest and its file.
pub fn line(fingerprint: &str, key: &Path) -> String {
    format!("{fingerprint}  {}\n", crate::quote::name(&key))
}

/// `sphincs fingerprint KEY...`.
pub fn run(keys: &[PathBuf], alg: Option<&str>) -> Result<(), CliError> {
    let mut out = String::new();
    for k in keys {
        out += &line(&of_file(k, alg)?, k);
    }
    crate::io::write_stdout(out.as_bytes(), false)
}
