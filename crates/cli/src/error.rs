//! The two ways a command fails: a signature that does not verify (exit 1),
//! and everything else (exit 2, one line on stderr).

use std::fmt::Display;
use std::path::Path;

/// Why a command did not succeed.
#[derive(Debug)]
pub enum CliError {
    /// The signature does not verify; the text starts with "invalid signature".
    InvalidSignature(String),
    /// A usage or input error, said in one line.
    Failed(String),
}

impl CliError {
    /// An error about a file, prefixed with its name.
    pub fn file(path: &Path, what: impl Display) -> Self {
        CliError::Failed(format!("{}: {what}", path.display()))
    }
}

impl From<sphincs::Error> for CliError {
    fn from(e: sphincs::Error) -> Self {
        CliError::Failed(e.to_string())
    }
}
