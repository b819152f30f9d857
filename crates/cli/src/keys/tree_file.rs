//! The tree cache file of a draft SP 800-230 key: `KEY.tree` beside the
//! key, public data written by `keygen` and read by `sign`. The format, its
//! checks and when to recompute are the core's (`AnySigningKey::tree_cache`,
//! `any::KeyOpener`); this module is the opener's store for the file: it
//! reads and writes it, and says why a cache is not used before the tree
//! is recomputed.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use std::sync::OnceLock;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sphincs::any::{AnyAlgorithm, AnySigningKey, CacheProblem, TreeCacheStore};

use crate::error::CliError;
use crate::files::quote;
use crate::files::read::{read_replaceable, Cap};
use crate::files::write::write_output;

/// `KEY.tree` for the key file `KEY`.
pub fn cache_path(key: &Path) -> PathBuf {
    let mut name = key.as_os_str().to_owned();
    name.push(".tree");
    PathBuf::from(name)
}

/// Threads for a tree: every CPU.
pub fn threads() -> usize {
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

/// `KEY.tree` as the core's tree cache store for the key file `KEY`: what
/// it cannot use and what it writes are said on stderr, and a progress bar
/// (in `bar`, for the opener's progress callback) is shown while the tree
/// is recomputed.
pub struct FileStore<'a> {
    cache: PathBuf,
    bar: &'a OnceLock<ProgressBar>,
}

impl<'a> FileStore<'a> {
    /// The store of the key file `key`.
    pub fn new(key: &Path, bar: &'a OnceLock<ProgressBar>) -> Self {
        FileStore {
            cache: cache_path(key),
            bar,
        }
    }
}

impl TreeCacheStore for FileStore<'_> {
    fn load(&mut self) -> Result<Option<Vec<u8>>, String> {
        if std::fs::metadata(&self.cache).is_err() {
            return Ok(None);
        }
        // Read as a file the command may replace: a regular file only.
        read_replaceable(&self.cache, Cap::TreeCache)
            .map(Some)
            .map_err(|e| message(&e).to_string())
    }

    fn recomputing(&mut self, alg: AnyAlgorithm, why: &CacheProblem) -> Result<(), sphincs::Error> {
        let name = quote::name(&self.cache);
        let problem = match why {
            CacheProblem::Absent => format!("no tree cache at {name}"),
            CacheProblem::Unreadable(e) => format!("{e}; not using it"),
            CacheProblem::Unusable(e) => format!("{name}: {e}; not using it"),
        };
        eprintln!(
            "sphincs: {problem}: recomputing the {alg} tree from the key (this takes a while)"
        );
        let _ = self.bar.set(tree_bar(alg, "recomputing"));
        Ok(())
    }

    fn store(&mut self, cache: &[u8]) -> Result<(), String> {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
        let name = quote::name(&self.cache);
        // Written over nothing or a regular file only: not into a FIFO or
        // device a symlink names (which would take it and keep nothing).
        let failed = if std::fs::metadata(&self.cache).is_ok_and(|m| !m.is_file()) {
            format!("not writing the tree cache: {name} is not a regular file")
        } else {
            match write_output(&self.cache, cache, false, true) {
                Ok(()) => {
                    eprintln!("sphincs: wrote a fresh tree cache to {name}");
                    return Ok(());
                }
                Err(e) => format!("could not write the tree cache: {}", message(&e)),
            }
        };
        eprintln!("sphincs: warning: {failed}");
        Err(failed)
    }
}

/// The state of the tree cache of the draft SP 800-230 key at `path`
/// (loaded unchecked as `key`), for `key show`: absent, present and
/// accepted by the core's checks, or present and refused (with why).
pub fn cache_state(path: &Path, mut key: AnySigningKey) -> String {
    let cache = cache_path(path);
    let name = quote::name(&cache);
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
