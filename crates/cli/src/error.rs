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
        match e {
            // The library says what the name is; say which commands take it.
            sphincs::Error::WrongScheme { takes, .. } if takes.starts_with("FIPS") => {
                CliError::Failed(format!(
                    "{e}; in this tool `keygen`, `sign` and `verify` take it with -a (raw keys), but certificates and CMS need a FIPS 205 key"
                ))
            }
            _ => CliError::Failed(e.to_string()),
        }
    }
}
