//! The two ways a command fails: a signature that does not verify (exit 1),
//! and everything else (exit 2, one line on stderr). The library's errors
//! speak in library terms; this is where the command line adds its own hints
//! (which `sphincs` command makes the key that is needed).

use std::fmt::Display;
use std::path::Path;

use crate::files::quote;

use sphincs::any;
use sphincs::{Error, KeyMode, RequestedMode};

/// Why a command did not succeed.
#[derive(Debug)]
pub enum CliError {
    /// The signature does not verify; the text starts with "invalid signature".
    InvalidSignature(String),
    /// A usage or input error, said in one line.
    Failed(String),
}

impl CliError {
    /// The one-line text of the error, whatever its kind.
    pub fn into_message(self) -> String {
        match self {
            CliError::Failed(m) | CliError::InvalidSignature(m) => m,
        }
    }

    /// A certificate or CMS signer that could not be checked with what was
    /// given (exit 2, not 1: it is neither valid nor shown invalid).
    pub fn cannot_check(path: &Path, why: &str) -> Self {
        CliError::Failed(format!("cannot check: {}: {why}", quote::name(&path)))
    }

    /// The core's refusal of what a set lacks ([`Error::Unsupported`]: an
    /// OID, for `--der`, `--prehash` on keygen, `--encrypt`), naming the
    /// option that asked for it; any other error as usual.
    pub fn refused(option: &'static str) -> impl Fn(Error) -> CliError {
        move |e| match e {
            Error::Unsupported { .. } => CliError::Failed(format!(
                "{e}. On the command line: {option} is FIPS 205 only (keys with an OID); drop it"
            )),
            e => e.into(),
        }
    }

    /// The core's refusal of a signing or verification option the set's
    /// family lacks ([`Error::Unsupported`]), naming the command line's
    /// option that asked for it; any other error as usual.
    pub fn option_refused(e: Error) -> CliError {
        let Error::Unsupported { what, .. } = e else {
            return e.into();
        };
        let option = match what {
            any::CONTEXT => "--context and --context-hex are FIPS 205 only; drop them",
            any::PREHASH => "--prehash is FIPS 205 only; drop it",
            any::FAULT_HARDENED => {
                "drop --fault-hardened (compare two signatures instead: they are deterministic)"
            }
            _ => return e.into(),
        };
        CliError::Failed(format!("{e}. On the command line: {option}"))
    }

    /// An error about a file, prefixed with its name.
    pub fn file(path: &Path, what: impl Display) -> Self {
        CliError::Failed(format!("{}: {what}", quote::name(&path)))
    }
}

impl From<Error> for CliError {
    fn from(e: Error) -> Self {
        match hint(&e) {
            Some(h) => CliError::Failed(format!("{e}. On the command line: {h}")),
            None => CliError::Failed(e.to_string()),
        }
    }
}

/// The `sphincs` command that makes the key an error asks for, if any.
fn hint(e: &Error) -> Option<String> {
    let (alg, key_mode, requested) = match e {
        Error::WrongKeyMode {
            algorithm,
            key_mode,
            requested,
        } => (*algorithm, *key_mode, *requested),
        // The library says what the name is; say which commands take it.
        Error::WrongScheme { takes, .. } if takes.starts_with("FIPS") => {
            return Some(
                "`keygen`, `sign` and `verify` take it with -a (raw keys), but certificates and CMS need a FIPS 205 key"
                    .into(),
            )
        }
        Error::PreHashNotBound { algorithm, .. } => {
            return Some(format!(
                "use --prehash {} for a HashSLH-DSA key, or a raw key (-a) for any pre-hash",
                algorithm.bound_prehash()
            ))
        }
        _ => return None,
    };
    let short = &alg.name()["SLH-DSA-".len()..];
    let raw = "a raw key, used with -a, takes any pre-hash";
    Some(match (key_mode, requested) {
        (KeyMode::HashSlhDsa(_), RequestedMode::HashSlhDsa(_)) => format!(
            "omit --prehash, or make a key for pure SLH-DSA: `sphincs keygen -a {short}` for pure SLH-DSA ({raw})"
        ),
        (KeyMode::HashSlhDsa(_), RequestedMode::Pure) => {
            format!("make a pure key: `sphincs keygen -a {short}`")
        }
        _ => format!(
            "omit --prehash, or make a HashSLH-DSA key: `sphincs keygen -a {short} --prehash {}` ({raw})",
            alg.bound_prehash()
        ),
    })
}
