//! `sign` and `verify` of one message, for keys of every family: the core's
//! `sphincs::any` refuses what a family lacks; the caller has loaded the key.

use std::path::Path;

use sphincs::any::{AnySigner, AnyVerifyingKey};
use sphincs::{Error, PreHash, SignOptions};

use crate::error::CliError;
use crate::files::quote;
use crate::files::read;
use crate::files::read::Message;
use crate::files::read_once;
use crate::files::write::{check_writable, refuse_binary_terminal, write_output, write_stdout};
use crate::signing::batch::{sign_passes, with_progress};
use crate::signing::likely_cause;

/// Parses `--prehash HASH`.
pub fn parse_prehash(name: Option<&str>) -> Result<Option<PreHash>, CliError> {
    name.map(|n| n.parse::<PreHash>().map_err(CliError::from))
        .transpose()
}

/// Where `sign` writes, and what it reads.
pub struct SignArgs<'a> {
    pub opts: SignOptions<'a>,
    pub out: Option<&'a Path>,
    pub force: bool,
    pub file: Option<&'a Path>,
}

/// Signs FILE (streamed) or standard input (buffered). The key is loaded by
/// `load` (from its file, or the agent's) once the output is known to be
/// writable, so that a refused output is reported before a slow key load.
pub fn sign(
    args: SignArgs<'_>,
    load: impl FnOnce() -> Result<Box<dyn AnySigner>, CliError>,
) -> Result<(), CliError> {
    match args.out {
        Some(out) => check_writable(out, args.force)?,
        None => refuse_binary_terminal()?,
    }
    let key = load()?;
    let mut message = Message::open(args.file)?;
    let passes = sign_passes(&*key, &args.opts);
    let sig = with_progress(&mut message, args.file, passes, |m| {
        key.sign_stream(m, &args.opts)
    })?;
    match args.out {
        Some(out) => write_output(out, &sig, false, args.force),
        None => write_stdout(&sig, true),
    }
}

/// Verifies `signature` over FILE or standard input; a signature that does
/// not verify (or has the wrong length) is [`CliError::InvalidSignature`],
/// exit status 1.
pub fn verify(
    key: &AnyVerifyingKey,
    signature: &Path,
    context: &[u8],
    prehash: Option<PreHash>,
    file: Option<&Path>,
) -> Result<(), CliError> {
    let sig = read::read_signature(signature)?;
    let result = read_once::verify_input(file, |m| key.verify_stream(m, &sig, context, prehash))?;
    match result {
        Ok(()) => crate::say::status("valid signature\n"),
        Err(Error::InvalidSignature) => {
            let cause = likely_cause::likely_cause(1, 1, file.map(|f| (f, signature)))
                .map_or(String::new(), |c| format!("; {c}"));
            Err(CliError::InvalidSignature(format!(
                "invalid signature{cause}"
            )))
        }
        Err(
            e @ (Error::InvalidSignatureLength { .. }
            | Error::InvalidLength {
                what: "signature", ..
            }),
        ) => Err(CliError::InvalidSignature(format!(
            "invalid signature: {}: {e}",
            quote::name(&signature)
        ))),
        Err(e) => Err(e.into()),
    }
}
