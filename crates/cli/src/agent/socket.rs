//! Where the agent listens, and who may talk to it. The socket is
//! `$SPHINCS_AGENT_SOCK`, else `socket` in `$XDG_RUNTIME_DIR/sphincs-agent/`,
//! else in `/tmp/sphincs-agent-UID/`. Its directory must belong to this user
//! and be closed to everyone else (mode 0700): the agent makes it so, and
//! both sides refuse a directory another user owns or can write (a socket
//! planted by someone else). Each side also checks the other's user ID
//! through the socket itself (SO_PEERCRED): the agent refuses a client of
//! another user, and a client refuses an agent of another user.

use std::fs;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

use crate::error::CliError;

/// The socket's path (see the module's documentation).
pub fn path() -> PathBuf {
    if let Some(p) = std::env::var_os("SPHINCS_AGENT_SOCK").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let dir = match std::env::var_os("XDG_RUNTIME_DIR").filter(|p| !p.is_empty()) {
        Some(run) => PathBuf::from(run).join("sphincs-agent"),
        None => PathBuf::from(format!("/tmp/sphincs-agent-{}", uid())),
    };
    dir.join("socket")
}

/// This process's real user ID.
pub fn uid() -> u32 {
    rustix::process::getuid().as_raw()
}

/// Makes the socket's directory (mode 0700) if it is missing, then checks it.
pub fn prepare_dir(socket: &Path) -> Result<(), CliError> {
    let dir = parent(socket);
    if !dir.exists() {
        fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .map_err(|e| CliError::file(&dir, format!("cannot make the agent's directory: {e}")))?;
    }
    check_dir(socket)
}

/// Checks that the socket's directory belongs to this user and that no one
/// else can enter or write it.
pub fn check_dir(socket: &Path) -> Result<(), CliError> {
    let dir = parent(socket);
    let meta = fs::symlink_metadata(&dir)
        .map_err(|e| CliError::file(&dir, format!("cannot read the agent's directory: {e}")))?;
    if !meta.is_dir() {
        return Err(CliError::file(
            &dir,
            "is not a directory (the agent's socket goes in one)",
        ));
    }
    if meta.uid() != uid() {
        return Err(CliError::file(
            &dir,
            format!(
                "belongs to user {}, not to you ({}): refusing an agent socket there",
                meta.uid(),
                uid()
            ),
        ));
    }
    if meta.permissions().mode() & 0o077 != 0 {
        return Err(CliError::file(
            &dir,
            format!(
                "is open to other users (mode {:04o}); the agent's directory must be 0700 (chmod 700 it)",
                meta.permissions().mode() & 0o7777
            ),
        ));
    }
    Ok(())
}

/// The user ID of the process at the other end of `stream`.
pub fn peer_uid(stream: &UnixStream) -> std::io::Result<u32> {
    Ok(rustix::net::sockopt::socket_peercred(stream)?.uid.as_raw())
}

fn parent(socket: &Path) -> PathBuf {
    match socket.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}
