//! The SPHINCS+ round-3.1 sets (`-a sphincs-shake-128f-simple` etc.): what
//! the command line says about their raw keys (no OID exists for them; keys
//! are made, read, signed and verified through `rawkey` and `sphincs::any`),
//! `pubkey`, `list`'s rows, and `kat`, NIST's known-answer file.

use std::path::{Path, PathBuf};

use sphincs::any::AnyAlgorithm;
use sphincs::sphincsplus::kat::{rsp_file_name, write_rsp};
use sphincs::sphincsplus::SpxAlgorithm;
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{check_writable, read_capped, write_output, write_stdout, Cap};
use crate::rawkey::{load_public, load_secret};

/// The round-3.1 set `-a` must name (for `kat`).
pub fn require(name: &str) -> Result<SpxAlgorithm, CliError> {
    name.parse::<SpxAlgorithm>().map_err(|_| {
        CliError::Failed(format!(
            "unknown SPHINCS+ round-3.1 set {name:?}: expected a name such as sphincs-shake-128f-simple (see `sphincs list`)"
        ))
    })
}

/// Refuses `--der`: these keys are raw bytes only.
pub fn no_der(der: bool) -> Result<(), CliError> {
    if der {
        return Err(CliError::Failed(
            "SPHINCS+ round-3.1 keys have no OID, so no DER or PEM form; they are written as raw bytes (drop --der)".into(),
        ));
    }
    Ok(())
}

/// Writes the raw public key of a raw secret key (PK.root checked).
pub fn pubkey(
    alg: AnyAlgorithm,
    key: &Path,
    out: Option<&Path>,
    der: bool,
    force: bool,
) -> Result<(), CliError> {
    no_der(der)?;
    crate::rawkey::write_public(out, force, || {
        let bytes = Zeroizing::new(read_capped(key, Cap::Key)?);
        if bytes.len() == alg.public_key_len() {
            load_public(key, alg)
        } else {
            Ok(load_secret(key, alg)?.verifying_key())
        }
    })
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
