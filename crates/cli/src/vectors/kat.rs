//! `sphincs kat`: NIST's known-answer file of a SPHINCS+ round-3.1 set (the
//! `PQCsignKAT_*.rsp` the reference code's PQCgenKAT_sign writes; FIPS 205
//! has ACVP vectors instead, see `acvp`).

use std::path::{Path, PathBuf};

use sphincs::sphincsplus::kat::{rsp_file_name, write_rsp};
use sphincs::sphincsplus::SpxAlgorithm;

use crate::error::CliError;
use crate::files::quote;
use crate::files::write::{check_writable, write_output, write_stdout};

/// The round-3.1 set `-a` must name (for `kat`).
pub fn require(name: &str) -> Result<SpxAlgorithm, CliError> {
    name.parse::<SpxAlgorithm>().map_err(|_| {
        CliError::Failed(format!(
            "unknown SPHINCS+ round-3.1 set {name:?}: expected a name such as sphincs-shake-128f-simple (see `sphincs list`)"
        ))
    })
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
        eprintln!("wrote {} ({count} entries)", quote::name(&target));
        Ok(())
    }
}
