//! The tree cache file of a draft SP 800-230 key: `KEY.tree` beside the
//! key, public data written by `keygen` and read by `sign`. The format and its
//! checks are the core's (`DynSigningKey::tree_cache` / `load_tree_cache`);
//! this module only reads and writes the file, and reports a cache it
//! cannot use before recomputing the tree.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sphincs::{Algorithm, DynSigningKey};

use crate::error::CliError;
use crate::io::{read_replaceable, write_output, Cap};

/// `KEY.tree` for the key file `KEY`.
pub fn cache_path(key: &Path) -> PathBuf {
    let mut name = key.as_os_str().to_owned();
    name.push(".tree");
    PathBuf::from(name)
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// A bar over the tree's kept nodes, on a terminal only.
pub fn tree_bar(alg: impl std::fmt::Display, verb: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{verb} the {alg} tree {{bar:40}} {{percent}}% {{elapsed}} (eta {{eta}})"
    )) {
        bar.set_style(style);
    }
    bar
}

/// Writes a key's cache (its `tree_cache()`, `None` for a key without one)
/// beside `key_path` (replacing any).
pub fn write_cache(key_path: &Path, cache: Option<Vec<u8>>) -> Result<(), CliError> {
    match cache {
        Some(bytes) => write_output(&cache_path(key_path), &bytes, false, true),
        None => Ok(()),
    }
}

/// Loads the raw secret key `bytes` of a draft SP 800-230 set: with its
/// cache file when that passes the core's checks (so the tree is not
/// recomputed); otherwise the problem is reported on stderr, the tree is
/// recomputed from the seeds (checking PK.root) and a fresh cache written.
pub fn load_limited(path: &Path, alg: Algorithm, bytes: &[u8]) -> Result<DynSigningKey, CliError> {
    let cache = cache_path(path);
    let problem = match std::fs::metadata(&cache) {
        Ok(_) => {
            let mut key = DynSigningKey::from_bytes_unchecked(alg, bytes)
                .map_err(|e| CliError::file(path, e))?;
            let cache_bytes = read_replaceable(&cache, Cap::TreeCache);
            match cache_bytes.map(|c| key.load_tree_cache(&c)) {
                Ok(Ok(())) => return Ok(key),
                // The cache is the public key's and SK.seed does not give
                // its nodes: the key is damaged; recomputing would only
                // come to the same answer a minute later.
                Ok(Err(e @ sphincs::Error::KeyMismatch)) => return Err(CliError::file(path, e)),
                Ok(Err(e)) => format!("{}: {e}; not using it", crate::quote::name(&cache)),
                Err(CliError::Failed(e) | CliError::InvalidSignature(e)) => {
                    format!("{e}; not using it")
                }
            }
        }
        Err(_) => format!("no tree cache at {}", crate::quote::name(&cache)),
    };
    eprintln!("sphincs: {problem}: recomputing the {alg} tree from the key (this takes a while)");
    let bar = tree_bar(alg, "recomputing");
    let key = DynSigningKey::from_bytes_with_progress(alg, bytes, threads(), &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })
    .map_err(|e| CliError::file(path, e))?;
    bar.finish_and_clear();
    // Written over nothing or a regular file only: not into a FIFO or
    // device a symlink names (which would take it and keep nothing).
    if std::fs::metadata(&cache).is_ok_and(|m| !m.is_file()) {
        eprintln!(
            "sphincs: warning: not writing the tree cache: {} is not a regular file",
            crate::quote::name(&cache)
        );
    } else if let Err(e) = write_cache(path, key.tree_cache()) {
        eprintln!(
            "sphincs: warning: could not write the tree cache: {}",
            message(&e)
        );
    } else {
        eprintln!(
            "sphincs: wrote a fresh tree cache to {}",
            crate::quote::name(&cache)
        );
    }
    Ok(key)
}

/// The state of the tree cache of the draft SP 800-230 key at `path`
/// (loaded unchecked as `key`), for `key show`: absent, present and
/// accepted by the core's checks, or present and refused (with why).
pub fn cache_state(path: &Path, mut key: DynSigningKey) -> String {
    let cache = cache_path(path);
    let name = crate::quote::name(&cache);
    if std::fs::symlink_metadata(&cache).is_err() {
        return format!("absent ({name}); `sign` recomputes the tree (minutes) and writes it");
    }
    match read_replaceable(&cache, Cap::TreeCache).and_then(|c| {
        key.load_tree_cache(&c)
            .map_err(|e| CliError::Failed(format!("{name}: {e}")))
    }) {
        Ok(()) => format!("present ({name}), matches the key"),
        Err(e) => format!(
            "present but not usable: {}; `sign` recomputes the tree",
            message(&e)
        ),
    }
}

fn message(e: &CliError) -> &str {
    match e {
        CliError::Failed(m) | CliError::InvalidSignature(m) => m,
    }
}
