//! The SPHINCS+ round-3.1 sets (`-a sphincs-shake-128f-simple` etc.): what
//! the command line refuses for them (no OID exists for them; keys are made,
//! read, signed and verified through `cmd_keys`, `rawkey` and
//! `sphincs::any`), `list`'s rows, and `kat`, NIST's known-answer file.

use std::path::{Path, PathBuf};

use sphincs::sphincsplus::kat::{rsp_file_name, write_rsp};
use sphincs::sphincsplus::SpxAlgorithm;

use crate::error::CliError;
use crate::io::{check_writable, write_output, write_stdout};

/// The round-3.1 set `-a` must name (for `kat`).
pub fn require(name: &str) -> Result<SpxAlgorithm, CliError> {
    name.parse::<SpxAlgorithm>().map_err(|_| {
        CliError::Failed(format!(
            "unknown SPHINCS+ round-3.1 set {name:?}: expected a name such as sphincs-shake-128f-simple (see `sphincs list`)"
        ))
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
