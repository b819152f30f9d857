//! `sphincs cert` (X.509 certificates and requests) and `sphincs cms`
//! (CMS SignedData).

pub mod cert;
pub mod cms;

use std::path::Path;

use sphincs::any::AnySigner;

use crate::error::CliError;
use crate::keys::load::{load_signing_key, not_fips205, parse_algorithm};

/// The FIPS 205 key `key` names, to sign a certificate, a request or a CMS
/// message with: a key file (the running agent's copy, or opened here,
/// asking its passphrase) or a key in a PKCS#11 token (a `pkcs11:` URI).
/// `algorithm` is a raw key file's set.
pub(crate) fn fips205_signer(
    key: &Path,
    algorithm: Option<&str>,
) -> Result<Box<dyn AnySigner>, CliError> {
    let alg = parse_algorithm(algorithm)?;
    let signer = crate::agent::signing::signing_key(key, || load_signing_key(key, alg))?;
    if signer.verifying_key().as_slh_dsa().is_none() {
        return Err(not_fips205(key));
    }
    Ok(signer)
}
