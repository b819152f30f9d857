//! `sign` and `verify`.

use std::path::Path;

use sphincs::{Error, PreHash, Randomness, SignOptions};

use crate::cmd_batch::{sign_passes, with_progress};
use crate::error::CliError;
use crate::io::{
    check_writable, read_capped, refuse_binary_terminal, write_output, write_stdout, Cap, Message,
};
use crate::keyfile::{load_signing_key, load_verifying_key, parse_algorithm};

/// Parses `--prehash HASH`.
pub fn parse_prehash(name: Option<&str>) -> Result<Option<PreHash>, CliError> {
    name.map(|n| n.parse::<PreHash>().map_err(CliError::from))
        .transpose()
}

/// What `sign` was asked to do.
pub struct SignArgs<'a> {
    pub key: &'a Path,
    pub context: Vec<u8>,
    pub deterministic: bool,
    pub fault_hardened: bool,
    pub prehash: Option<PreHash>,
    pub out: Option<&'a Path>,
    pub force: bool,
    pub algorithm: Option<&'a str>,
    pub file: Option<&'a Path>,
    pub threads: usize,
}

/// Signs FILE (streamed) or standard input (buffered).
pub fn sign(args: SignArgs<'_>) -> Result<(), CliError> {
    let alg = parse_algorithm(args.algorithm)?;
    match args.out {
        Some(out) => check_writable(out, args.force)?,
        None => refuse_binary_terminal()?,
    }
    let key = load_signing_key(args.key, alg)?;
    let mut message = Message::open(args.file)?;
    let opts = SignOptions {
        context: &args.context,
        prehash: args.prehash,
        randomness: if args.deterministic {
            Randomness::Deterministic
        } else {
            Randomness::Hedged
        },
        threads: args.threads,
        fault_hardened: args.fault_hardened,
    };
    let passes = sign_passes(&key, args.prehash);
    let sig = with_progress(&mut message, args.file, passes, |m| {
        key.sign_stream(m, &opts)
    })?;
    match args.out {
        Some(out) => write_output(out, &sig, false, args.force),
        None => write_stdout(&sig, true),
    }
}

/// What `verify` was asked to do.
pub struct VerifyArgs<'a> {
    pub public: &'a Path,
    pub signature: &'a Path,
    pub context: Vec<u8>,
    pub prehash: Option<PreHash>,
    pub algorithm: Option<&'a str>,
    pub file: Option<&'a Path>,
}

/// Verifies; a signature that does not verify (or has the wrong length) is
/// [`CliError::InvalidSignature`], exit status 1.
pub fn verify(args: VerifyArgs<'_>) -> Result<(), CliError> {
    let alg = parse_algorithm(args.algorithm)?;
    let key = load_verifying_key(args.public, alg)?;
    let sig = read_capped(args.signature, Cap::Signature)?;
    let result = crate::once::verify_input(args.file, |m| {
        key.verify_stream(m, &sig, &args.context, args.prehash)
    })?;
    match result {
        Ok(()) => crate::say::status("valid signature\n"),
        Err(Error::InvalidSignature) => Err(CliError::InvalidSignature("invalid signature".into())),
        Err(e @ Error::InvalidSignatureLength { .. }) => Err(CliError::InvalidSignature(format!(
            "invalid signature: {}: {e}",
            args.signature.display()
        ))),
        Err(e) => Err(e.into()),
    }
}
