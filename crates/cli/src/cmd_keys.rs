//! `list`, `keygen` and `pubkey`.

use std::path::Path;

use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey};
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{check_writable, same_file, stage, write_output, write_stdout};
use crate::keyfile::{load_public_half, parse_algorithm};

/// Prints the twelve FIPS 205 sets and the 36 round-3.1 sets.
pub fn list() -> Result<(), CliError> {
    let mut out = format!(
        "{:<27} {:>8} {:>6} {:>6} {:>7}  {}\n",
        "ALGORITHM", "CATEGORY", "PK", "SK", "SIG", "OID"
    );
    for alg in Algorithm::ALL {
        out += &format!(
            "{:<27} {:>8} {:>6} {:>6} {:>7}  {}\n",
            alg.name(),
            alg.security_category(),
            alg.public_key_len(),
            alg.secret_key_len(),
            alg.signature_len(),
            alg.oid()
        );
    }
    out += &crate::cmd_spx::list_rows();
    out +=
        "Sizes in bytes. FIPS 205 keys are written as PKCS#8 / SubjectPublicKeyInfo (RFC 9909);\n\
            SPHINCS+ round-3.1 keys (sphincs-*) have no OID and are raw bytes.\n";
    write_stdout(out.as_bytes(), false)
}

fn private_bytes(key: &DynSigningKey, der: bool) -> Result<Zeroizing<Vec<u8>>, CliError> {
    Ok(if der {
        key.to_pkcs8_der()?
    } else {
        let pem = key.to_pkcs8_pem()?;
        Zeroizing::new(pem.as_bytes().to_vec())
    })
}

fn public_bytes(key: &DynVerifyingKey, der: bool) -> Result<Vec<u8>, CliError> {
    Ok(if der {
        key.to_spki_der()?
    } else {
        key.to_spki_pem()?.into_bytes()
    })
}

/// Generates a key pair; the private key file gets mode 0600. Both files are
/// staged before either is moved into place, so an error leaves neither.
pub fn keygen(
    alg: &str,
    out: &Path,
    public: Option<&Path>,
    der: bool,
    force: bool,
    threads: usize,
) -> Result<(), CliError> {
    let alg = parse_algorithm(Some(alg))?.expect("given");
    if public.is_some_and(|p| same_file(p, out)) {
        return Err(CliError::Failed(
            "the private and public key files must differ".into(),
        ));
    }
    check_writable(out, force)?;
    if let Some(p) = public {
        check_writable(p, force)?;
    }
    let key = DynSigningKey::generate_with_threads(alg, threads)?;
    let private = stage(out, &private_bytes(&key, der)?, true)?;
    let public = match public {
        Some(p) => Some(stage(p, &public_bytes(&key.verifying_key(), der)?, false)?),
        None => None,
    };
    private.commit(force)?;
    if let Some(p) = public {
        if let Err(e) = p.commit(force) {
            let _ = std::fs::remove_file(out);
            return Err(e);
        }
    }
    Ok(())
}

/// Writes the public key of KEY, PEM or DER, to a file or standard output.
pub fn pubkey(
    key: &Path,
    out: Option<&Path>,
    der: bool,
    alg: Option<&str>,
    force: bool,
) -> Result<(), CliError> {
    let alg = parse_algorithm(alg)?;
    match out {
        Some(o) => check_writable(o, force)?,
        None if der => crate::io::refuse_binary_terminal()?,
        None => {}
    }
    let vk = load_public_half(key, alg)?;
    let bytes = public_bytes(&vk, der)?;
    match out {
        Some(o) => write_output(o, &bytes, false, force),
        None => write_stdout(&bytes, der),
    }
}
