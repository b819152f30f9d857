//! `sphincs agent`: unlock a key once. The agent holds decrypted FIPS 205
//! keys in locked memory for a time the user sets and signs for git and the
//! command line, so that `git rebase -S` over many commits asks for the
//! passphrase once. `agent add KEY` unlocks a key into it; while an agent
//! runs, a signing command that asked for a key's passphrase hands the
//! unlocked key to it, and a signing command whose key file the agent holds
//! asks for nothing. `lock` wipes the keys, `stop` ends the agent; keys are
//! also wiped when their time runs out and when the agent ends. No key or
//! passphrase is written to disk; a client of another user is refused
//! ([`socket`]). A key in a PKCS#11 token is held as the agent's own
//! logged-in session (`agent add 'pkcs11:…'` sends it the PIN).
//! `SPHINCS_AGENT=off` makes the signing commands ignore a running agent.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Subcommand;
use sphincs::any::AnySigningKey;

use crate::error::CliError;
use crate::files::quote;
use crate::files::write;
use crate::keys::load;
use crate::keys::token;
use crate::keys::token_uri::{is_token_uri, shown, TokenUri};
use crate::openpgp::verbs;

pub mod client;
mod identity;
mod locked;
pub mod server;
pub mod signing;
pub mod socket;
mod wire;

use client::Agent;
pub use identity::FileId;

/// How long a key is held when neither `start --ttl` nor `add --ttl` says.
const DEFAULT_TTL: &str = "10m";

#[derive(Subcommand)]
pub enum AgentCommand {
    /// Start the agent in the background (or, with --foreground, in this
    /// process until it is stopped); it listens on $SPHINCS_AGENT_SOCK, else
    /// $XDG_RUNTIME_DIR/sphincs-agent/socket, else
    /// /tmp/sphincs-agent-UID/socket.
    Start {
        /// How long each key is held after it is added, e.g. 30s, 10m,
        /// 2h (at most 7 days).
        #[arg(long, value_name = "TIME", default_value = DEFAULT_TTL)]
        ttl: String,
        /// Run in this process (for a service manager, or to watch it);
        /// SIGINT, SIGTERM and SIGHUP wipe the keys and end it.
        #[arg(long)]
        foreground: bool,
    },
    /// Unlock a private key (PEM or DER, or an OpenPGP secret key) into the
    /// agent: its passphrase is asked here, once. A key in a PKCS#11 token
    /// (a `pkcs11:` URI): the agent loads the token's module, logs in with
    /// the PIN asked here, and keeps the session for the key's time.
    Add {
        /// The private key file, or a token key's `pkcs11:` URI.
        #[arg(value_name = "KEY")]
        key: PathBuf,
        /// How long the agent holds it (default: the agent's --ttl).
        #[arg(long, value_name = "TIME")]
        ttl: Option<String>,
    },
    /// List the keys the agent holds, with the time each has left.
    List,
    /// Wipe every key the agent holds; it keeps running.
    Lock,
    /// Wipe every key and end the agent.
    Stop,
}

pub fn run(command: AgentCommand) -> Result<(), CliError> {
    match command {
        AgentCommand::Start { ttl, foreground } => start(parse_time(&ttl)?, foreground),
        AgentCommand::Add { key, ttl } if is_token_uri(&key) => {
            let ttl = ttl.as_deref().map(parse_time).transpose()?;
            let mut agent = Agent::required()?;
            let uri = TokenUri::parse(&key)?;
            let pin = token::pin_of(&uri, uri.token.as_deref().unwrap_or("(the only one)"))?;
            let held = agent.add_token(
                key.to_str().unwrap_or_default(),
                &uri.module()?,
                &pin,
                &FileId::token(token::agent_id(&uri)?),
                &shown(&key),
                ttl,
            )?;
            crate::say::status(&format!(
                "the agent is logged in to the token and holds {} for {}\n",
                shown(&key),
                say_time(held)
            ))
        }
        AgentCommand::Add { key, ttl } => {
            let ttl = ttl.as_deref().map(parse_time).transpose()?;
            let mut agent = Agent::required()?;
            let unlocked = open_for_agent(&key)?;
            let held = agent.add(
                &unlocked,
                &FileId::of_key(&key)?,
                &identity::display(&key),
                ttl,
            )?;
            crate::say::status(&format!(
                "the agent holds {} for {}\n",
                quote::name(&key),
                say_time(held)
            ))
        }
        AgentCommand::List => {
            let keys = Agent::required()?.list()?;
            let mut out = String::new();
            for k in &keys {
                out += &format!(
                    "{}  {}  {}  {} left\n",
                    k.fingerprint,
                    k.algorithm,
                    k.name,
                    say_time(Duration::from_secs(k.seconds_left))
                );
            }
            if keys.is_empty() {
                crate::say::status("the agent holds no keys\n")?;
            }
            write::write_stdout(out.as_bytes(), false)
        }
        AgentCommand::Lock => {
            let n = Agent::required()?.lock()?;
            crate::say::status(&format!("wiped {n} key(s); the agent still runs\n"))
        }
        AgentCommand::Stop => {
            Agent::required()?.stop()?;
            crate::say::status("the agent wiped its keys and ended\n")
        }
    }
}

/// `agent start`: in this process, or a background copy of this program
/// waited for until it answers.
fn start(ttl: Duration, foreground: bool) -> Result<(), CliError> {
    let path = socket::path();
    if foreground {
        return server::serve(&path, ttl);
    }
    socket::prepare_dir(&path)?;
    if Agent::connect_to(&path)?.is_some() {
        return Err(CliError::file(&path, "an agent already listens there"));
    }
    let exe = std::env::current_exe()
        .map_err(|e| CliError::Failed(format!("cannot find this program to start it: {e}")))?;
    let mut child = Command::new(exe)
        .args(["agent", "start", "--foreground", "--ttl"])
        .arg(format!("{}s", ttl.as_secs()))
        .env("SPHINCS_AGENT_SOCK", &path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| CliError::Failed(format!("cannot start the agent: {e}")))?;
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().ok().flatten() {
            return Err(CliError::Failed(format!(
                "the agent ended at once ({status}); run `sphincs agent start --foreground` to see why"
            )));
        }
        if Agent::connect_to(&path)?.is_some() {
            return crate::say::status(&format!(
                "agent started (keys held for {}); it listens on {}\n",
                say_time(ttl),
                path.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err(CliError::Failed(format!(
        "the agent did not answer on {} within 10 s",
        path.display()
    )))
}

/// A private key unlocked for the agent: an OpenPGP secret key's signing
/// key, or a key file's key (the passphrase asked as for signing).
fn open_for_agent(path: &Path) -> Result<AnySigningKey, CliError> {
    let key = if verbs::is_openpgp_file(path) {
        verbs::unlock_signing_key(path)?
    } else {
        load::load_signing_key(path, None)?
    };
    if key.as_slh_dsa().is_none() {
        return Err(CliError::file(
            path,
            "is not a FIPS 205 key; the agent holds FIPS 205 keys",
        ));
    }
    Ok(key)
}

/// `30s`, `10m`, `2h`, `1d` or plain seconds, at most [`server::MAX_TTL`].
pub fn parse_time(text: &str) -> Result<Duration, CliError> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, "s"),
    };
    let scale = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86400,
        _ => 0,
    };
    let n: u64 = digits.parse().unwrap_or(0);
    match n.checked_mul(scale) {
        Some(secs) if secs > 0 && Duration::from_secs(secs) <= server::MAX_TTL => {
            Ok(Duration::from_secs(secs))
        }
        _ => Err(CliError::Failed(format!(
            "{text:?} is not a time from 1s to 7d (a number and s, m, h or d: 30s, 10m, 2h)"
        ))),
    }
}

fn say_time(t: Duration) -> String {
    let s = t.as_secs();
    match s {
        s if s >= 3600 && s % 3600 == 0 => format!("{}h", s / 3600),
        s if s >= 60 && s % 60 == 0 => format!("{}m", s / 60),
        s => format!("{s}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(parse_time("30s").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_time("10m").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_time("2h").unwrap(), Duration::from_secs(7200));
        assert_eq!(parse_time("45").unwrap(), Duration::from_secs(45));
        for bad in ["", "0s", "8d", "10x", "m", "-5s", "99999999999999999999d"] {
            assert!(parse_time(bad).is_err(), "{bad:?}");
        }
        assert_eq!(say_time(Duration::from_secs(600)), "10m");
        assert_eq!(say_time(Duration::from_secs(61)), "61s");
    }
}
