//! The SPHINCS+ round-3.1 sets (`-a sphincs-shake-128f-simple` etc.):
//! `keygen`, `pubkey` and the raw key files `sign` and `verify` load (no OID
//! exists for them; they sign and verify through `sphincs::any`), and `kat`,
//! NIST's known-answer file.

use std::path::{Path, PathBuf};

use sphincs::sphincsplus::kat::{rsp_file_name, write_rsp};
use sphincs::sphincsplus::{SpxAlgorithm, SpxSigningKey, SpxVerifyingKey};
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{
    check_key_outputs, check_writable, read_capped, refuse_binary_terminal, write_key_pair,
    write_output, write_stdout, Cap,
};

/// The round-3.1 set `-a` names, if it names one.
pub fn parse(name: Option<&str>) -> Option<SpxAlgorithm> {
    name.and_then(|n| n.parse::<SpxAlgorithm>().ok())
}

/// The round-3.1 set `-a` must name (for `kat`).
pub fn require(name: &str) -> Result<SpxAlgorithm, CliError> {
    name.parse::<SpxAlgorithm>().map_err(|_| {
        CliError::Failed(format!(
            "unknown SPHINCS+ round-3.1 set {name:?}: expected a name such as sphincs-shake-128f-simple (see `sphincs list`)"
        ))
    })
}

fn no_der(der: bool) -> Result<(), CliError> {
    if der {
        return Err(CliError::Failed(
            "SPHINCS+ round-3.1 keys have no OID, so no DER or PEM form; they are written as raw bytes (drop --der)".into(),
        ));
    }
    Ok(())
}

/// Generates a raw key pair (see [`write_key_pair`]).
pub fn keygen(
    alg: SpxAlgorithm,
    out: &Path,
    public: Option<&Path>,
    der: bool,
    force: bool,
    threads: usize,
) -> Result<(), CliError> {
    no_der(der)?;
    check_key_outputs(out, public, force)?;
    let key = SpxSigningKey::generate_with_threads(alg, threads)?;
    let public_key = key.verifying_key().to_bytes();
    write_key_pair(
        out,
        &key.to_bytes(),
        public.map(|p| (p, &public_key[..])),
        force,
    )?;
    let fp = key.verifying_key().fingerprint();
    crate::say::status(&crate::cmd_fingerprint::line(&fp, out))
}

pub(crate) fn load_secret(path: &Path, alg: SpxAlgorithm) -> Result<SpxSigningKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    if bytes.len() == alg.public_key_len() {
        return Err(CliError::file(
            path,
            "is a public key; signing needs the private key",
        ));
    }
    SpxSigningKey::from_bytes(alg, &bytes).map_err(|e| CliError::file(path, e))
}

pub(crate) fn load_public(path: &Path, alg: SpxAlgorithm) -> Result<SpxVerifyingKey, CliError> {
    let bytes = Zeroizing::new(read_capped(path, Cap::Key)?);
    if bytes.len() == alg.secret_key_len() {
        return SpxSigningKey::from_bytes_unchecked(alg, &bytes)
            .map(|k| k.verifying_key())
            .map_err(|e| CliError::file(path, e));
    }
    SpxVerifyingKey::from_bytes(alg, &bytes).map_err(|e| {
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

/// Writes the raw public key of a raw secret key (PK.root checked).
pub fn pubkey(
    alg: SpxAlgorithm,
    key: &Path,
    out: Option<&Path>,
    der: bool,
    force: bool,
) -> Result<(), CliError> {
    no_der(der)?;
    match out {
        Some(o) => check_writable(o, force)?,
        None => refuse_binary_terminal()?,
    }
    let bytes = Zeroizing::new(read_capped(key, Cap::Key)?);
    let vk = if bytes.len() == alg.public_key_len() {
        load_public(key, alg)?
    } else {
        load_secret(key, alg)?.verifying_key()
    };
    match out {
        Some(o) => write_output(o, &vk.to_bytes(), false, force),
        None => write_stdout(&vk.to_bytes(), true),
    }
}

/// Refuses the FIPS 205 options round 3.1 does not have.
pub fn no_context(context: &[u8], prehash: bool) -> Result<(), CliError> {
    if !context.is_empty() || prehash {
        return Err(CliError::Failed(
            "SPHINCS+ round 3.1 signs the message as given: --context, --context-hex and --prehash are FIPS 205 only".into(),
        ));
    }
    Ok(())
}

/// Writes NIST's `PQCsignKAT_<sk bytes>.rsp` for `alg`: to `out`, `-` for
/// standard output, or by default that file name in the current directory.
pub fn kat(
    alg: SpxAlgorithm,
    out: Option<&Path>,
    count: usize,
    force: bool,
    threads: usize,
) -> Result<(), CliError> {
    let default = PathBuf::from(rsp_file_name(alg));
    let target = out.unwrap_or(&default);
    let to_stdout = target == Path::new("-");
    if !to_stdout {
        check_writable(target, force)?;
    }
    let mut text = String::new();
    write_rsp(alg, count, threads, &mut |s| {
        text.push_str(s);
        Ok(())
    })?;
    if to_stdout {
        write_stdout(text.as_bytes(), false)
    } else {
        write_output(target, text.as_bytes(), false, force)?;
        eprintln!("wrote {} ({count} entries)", target.display());
        Ok(())
    }
}

/// The `list` rows of the round-3.1 sets.
pub fn list_rows() -> String {
    let mut out = String::new();
    for alg in SpxAlgorithm::ALL {
        out += &format!(
            "{:<27} {:>8} {:>6} {:>6} {:>7}  raw\n",
            alg.name(),
            alg.security_category(),
            alg.public_key_len(),
            alg.secret_key_len(),
            alg.signature_len(),
        );
    }
    out
}
