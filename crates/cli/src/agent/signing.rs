//! The signing commands' use of the agent: the key of a key file from a
//! running agent that holds it, else opened here and handed to the agent.

use std::path::Path;

use sphincs::any::{AnySigner, AnySigningKey};

use super::client::{self, Agent};
use super::identity::{display, FileId};
use crate::error::CliError;
use crate::files::passphrase;
use crate::keys::token::{agent_id, TokenKey};
use crate::keys::token_uri::{is_token_uri, TokenUri};

/// The running agent; one that cannot be used safely is passed over, said
/// once.
fn connect() -> Option<Agent> {
    Agent::connect().unwrap_or_else(|e| {
        eprintln!(
            "sphincs: warning: not using the agent: {}",
            e.into_message()
        );
        None
    })
}

/// A key in a PKCS#11 token, which signs there: through the agent's
/// session when `agent add` logged it in, else through one opened here.
pub fn token_key(path: &Path) -> Result<Box<dyn AnySigner>, CliError> {
    let file = FileId::token(agent_id(&TokenUri::parse(path)?)?);
    if let Some(agent) = connect() {
        if let client::Found::Held(key) = agent.find(&file)? {
            return Ok(Box::new(key));
        }
    }
    Ok(Box::new(TokenKey::open(path)?))
}

/// The key of `path` to sign with: the agent's, if one runs and holds the
/// key of that file (nothing is asked then); else `open`'s, which an agent
/// that runs is handed when opening it asked for a passphrase, so that the
/// next signature asks for nothing.
pub fn signing_key(
    path: &Path,
    open: impl FnOnce() -> Result<AnySigningKey, CliError>,
) -> Result<Box<dyn AnySigner>, CliError> {
    if is_token_uri(path) {
        return token_key(path);
    }
    let agent = connect();
    let found = match (agent, FileId::of_key(path)) {
        (Some(a), Ok(file)) => Some((a.find(&file)?, file)),
        _ => None,
    };
    let (agent, file) = match found {
        Some((client::Found::Held(key), _)) => return Ok(Box::new(key)),
        Some((client::Found::NotHeld(a), file)) => (Some(a), Some(file)),
        None => (None, None),
    };
    let key = open()?;
    // Silently, as gpg-agent caches: a signing program's standard output
    // is the signature, and its standard error git's status lines.
    if let (Some(mut agent), Some(file)) = (agent, file) {
        if passphrase::was_read() && key.as_slh_dsa().is_some() {
            if let Err(e) = agent.add(&key, &file, &display(path), None) {
                eprintln!(
                    "sphincs: warning: the agent did not take the key: {}",
                    e.into_message()
                );
            }
        }
    }
    Ok(Box::new(key))
}
