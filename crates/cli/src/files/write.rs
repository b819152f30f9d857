//! Outputs: staged in a temporary file beside the target, synced, then moved
//! into place, so a target is either complete or absent; an existing file is
//! only replaced when asked, and never when it is one of the command's inputs
//! (files/read.rs reads those). SIGINT, SIGTERM and SIGHUP remove the
//! temporary files before the process ends.

use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

use crate::error::CliError;
use crate::files::quote;

/// A complete output, written and synced under a temporary name, waiting to
/// be moved to its target. Dropping it uncommitted removes the temporary file.
/// (For a device or FIFO target there is no temporary file: see [`stage`].)
pub struct Staged {
    temp: Option<PathBuf>,
    target: PathBuf,
}

/// Fails if `target` exists and `force` is not set: checked before any work,
/// so nothing is computed for an output that would be refused.
pub fn check_writable(target: &Path, force: bool) -> Result<(), CliError> {
    if target.is_dir() {
        return Err(CliError::file(target, "is a directory"));
    }
    refuse_input(target)?;
    match special_file(target) {
        Some(Special::Stream) => return Ok(()),
        Some(Special::Block) => {
            return Err(CliError::file(
                target,
                "is a block device; refusing to write to it",
            ))
        }
        None => {}
    }
    if !force && fs::symlink_metadata(target).is_ok() {
        return Err(CliError::file(
            target,
            "already exists; use --force to replace it",
        ));
    }
    Ok(())
}

/// An existing target that is not a regular file (nor a directory).
enum Special {
    /// A character device or FIFO (`/dev/null`, `/dev/stdout` on a pipe):
    /// written in place, since there is no file to replace atomically, and
    /// renaming a temporary file over it would destroy the device node.
    Stream,
    /// A block device: never written.
    Block,
}

fn special_file(target: &Path) -> Option<Special> {
    let kind = fs::metadata(target).ok()?.file_type();
    if kind.is_char_device() || kind.is_fifo() {
        Some(Special::Stream)
    } else if kind.is_block_device() {
        Some(Special::Block)
    } else {
        None
    }
}

/// The directory and name `path` refers to, with the directory resolved.
fn resolved(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(name))
}

/// What tells files apart without comparing every pair: the path with its
/// directory resolved (each directory canonicalised once) and, for a file
/// that exists, its device and inode. Two paths name the same file, as
/// [`same_file`] says, when either of their keys is equal.
#[derive(Default)]
pub struct FileKeys {
    dirs: std::collections::HashMap<PathBuf, Option<PathBuf>>,
}

impl FileKeys {
    /// The resolved path (or the path itself if its directory cannot be
    /// resolved) and the (device, inode) of what it names, if anything.
    pub fn of(&mut self, path: &Path) -> (PathBuf, Option<(u64, u64)>) {
        let id = fs::metadata(path).ok().map(|m| (m.dev(), m.ino()));
        let resolved = path.file_name().and_then(|name| {
            let dir = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            let dir = self
                .dirs
                .entry(dir.to_path_buf())
                .or_insert_with(|| fs::canonicalize(dir).ok());
            dir.as_ref().map(|d| d.join(name))
        });
        (resolved.unwrap_or_else(|| path.to_path_buf()), id)
    }
}

/// Whether two output paths name the same file: equal, equal once their
/// directories are resolved (`a/k` and `a/../a/k`), or links to one file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
        if (x.dev(), x.ino()) == (y.dev(), y.ino()) {
            return true;
        }
    }
    matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
}

/// Writes `data` to a new temporary file in `target`'s directory (mode 0600
/// if `private`, else 0666 less the umask) and syncs it.
///
/// A character device or FIFO is written directly instead (nothing to stage).
pub fn stage(target: &Path, data: &[u8], private: bool) -> Result<Staged, CliError> {
    stage_with(
        target,
        private,
        std::str::from_utf8(data).is_err(),
        &mut |w| w.write_all(data),
    )
}

/// [`stage`] for an output written in pieces by `fill` (a large CMS
/// SignedData around streamed content); `binary` refuses a terminal target.
pub fn stage_with(
    target: &Path,
    private: bool,
    binary: bool,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> Result<Staged, CliError> {
    // Checked here, where every output passes once the inputs are open.
    refuse_input(target)?;
    stage_over(target, private, binary, fill)
}

/// [`stage_with`] without the check that `target` is no input: for
/// [`replace_in_place`] alone, whose output is meant to replace its input.
fn stage_over(
    target: &Path,
    private: bool,
    binary: bool,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> Result<Staged, CliError> {
    if let Some(Special::Stream) = special_file(target) {
        let mut file = OpenOptions::new()
            .write(true)
            .open(target)
            .map_err(|e| CliError::file(target, format!("cannot open: {e}")))?;
        if file.is_terminal() && binary {
            return Err(CliError::file(
                target,
                "is a terminal; refusing to write binary data to it",
            ));
        }
        let mut out = io::BufWriter::new(&mut file);
        fill(&mut out)
            .and_then(|()| out.flush())
            .map_err(|e| CliError::file(target, format!("cannot write: {e}")))?;
        return Ok(Staged {
            temp: None,
            target: target.to_path_buf(),
        });
    }
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let name = target
        .file_name()
        .ok_or_else(|| CliError::file(target, "is not a file name"))?;
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let temp = dir.join(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let mut file = {
        // Created and recorded under one lock, so a signal's clean-up sees it.
        let mut temps = temp_files();
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if private { 0o600 } else { 0o666 })
            .open(&temp)
            .map_err(|e| CliError::file(target, format!("cannot create: {e}")))?;
        temps.push(temp.clone());
        file
    };
    let staged = Staged {
        temp: Some(temp),
        target: target.to_path_buf(),
    };
    let mut out = io::BufWriter::new(&mut file);
    fill(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| CliError::file(target, format!("cannot write: {e}")))?;
    drop(out);
    file.sync_all()
        .map_err(|e| CliError::file(target, format!("cannot write: {e}")))?;
    Ok(staged)
}

impl Staged {
    /// Moves the file into place: with `force` by `rename` (replacing any old
    /// file atomically), else by `link`, which fails rather than replace a file
    /// that appeared since [`check_writable`]. Then syncs the directory.
    pub fn commit(mut self, force: bool) -> Result<(), CliError> {
        let Some(temp) = self.temp.take() else {
            // A device or FIFO, already written by `stage`.
            return Ok(());
        };
        let mut temps = temp_files();
        let moved = if force {
            fs::rename(&temp, &self.target)
        } else {
            fs::hard_link(&temp, &self.target).and_then(|()| fs::remove_file(&temp))
        };
        temps.retain(|t| *t != temp);
        drop(temps);
        if let Err(e) = moved {
            let _ = fs::remove_file(&temp);
            return Err(if e.kind() == io::ErrorKind::AlreadyExists {
                CliError::file(&self.target, "already exists; use --force to replace it")
            } else {
                CliError::file(&self.target, format!("cannot write: {e}"))
            });
        }
        if let Some(dir) = self.target.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let mut temps = temp_files();
            let _ = fs::remove_file(&temp);
            temps.retain(|t| *t != temp);
        }
    }
}

/// The temporary files that exist now. The first call starts a thread that,
/// on SIGINT, SIGTERM or SIGHUP, removes them and ends the process as the
/// signal would have (SIGKILL cannot be caught: it can leave a hidden
/// temporary file, never a partial target).
fn temp_files() -> MutexGuard<'static, Vec<PathBuf>> {
    static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("sphincs-signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    // The lock is held to the end: no temporary file is
                    // created or renamed after these removals.
                    let temps = TEMPS.lock().unwrap_or_else(PoisonError::into_inner);
                    for t in temps.iter() {
                        let _ = fs::remove_file(t);
                    }
                    let _ = signal_hook::low_level::emulate_default_handler(sig);
                    std::process::exit(128 + sig);
                }
            });
    });
    TEMPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Fails if `target` is one of the command's inputs: a file another
/// command-line argument names (any argument but the value of `-o`,
/// `--out` or `--pub`: the key file, messages, signatures, certificates,
/// passphrase files), or standard input redirected from a file, through
/// any symlink, hard link or `..`: replacing an input with its output
/// would lose it, so `--force` does not allow it either. Checked before
/// the inputs are opened (so that the error says so rather than "already
/// exists") and again when the output is staged.
fn refuse_input(target: &Path) -> Result<(), CliError> {
    let Ok(meta) = fs::metadata(target) else {
        return Ok(());
    };
    if !meta.is_file() {
        return Ok(());
    }
    match named_inputs().get(&(meta.dev(), meta.ino())) {
        Some(input) => Err(same_as_input(target, input)),
        None => Ok(()),
    }
}

/// The regular files the command-line arguments name (any argument but the
/// value of `-o`, `--out` or `--pub`) and standard input's file, by
/// (device, inode): looked up once, so that checking many targets stays
/// linear. These are every file a command reads but a draft SP 800-230
/// key's tree cache (`KEY.tree`), which a fresh one is meant to replace.
fn named_inputs() -> &'static std::collections::HashMap<(u64, u64), PathBuf> {
    static NAMED: std::sync::OnceLock<std::collections::HashMap<(u64, u64), PathBuf>> =
        std::sync::OnceLock::new();
    NAMED.get_or_init(|| {
        let mut named = std::collections::HashMap::new();
        // Read when no message file is named (or `-` is), so counted as an
        // input whenever it is a regular file.
        if let Ok(m) = fs::metadata("/dev/stdin") {
            if m.is_file() {
                named.insert((m.dev(), m.ino()), PathBuf::from("(standard input)"));
            }
        }
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        for (i, arg) in args.iter().enumerate() {
            let after_output_flag =
                i > 0 && matches!(args[i - 1].to_str(), Some("-o" | "--out" | "--pub"));
            let value = match arg.to_str().and_then(|a| a.split_once('=')) {
                Some(("--out" | "--pub", _)) => continue,
                Some((flag, v)) if flag.starts_with("--") => std::ffi::OsString::from(v),
                _ => arg.clone(),
            };
            if after_output_flag {
                continue;
            }
            if let Ok(m) = fs::metadata(&value) {
                if m.is_file() {
                    named
                        .entry((m.dev(), m.ino()))
                        .or_insert_with(|| PathBuf::from(&value));
                }
            }
        }
        named
    })
}

fn same_as_input(target: &Path, input: &Path) -> CliError {
    CliError::file(
        target,
        format!(
            "is the same file as the input {}; refusing to overwrite an input (even with --force)",
            quote::name(&input)
        ),
    )
}

/// Checks, before the work, that a key pair can be written: two distinct
/// files, each absent or replaceable.
pub fn check_key_outputs(out: &Path, public: Option<&Path>, force: bool) -> Result<(), CliError> {
    if public.is_some_and(|p| same_file(p, out)) {
        return Err(CliError::Failed(
            "the private and public key files must differ".into(),
        ));
    }
    check_writable(out, force)?;
    if let Some(p) = public {
        check_writable(p, force)?;
    }
    Ok(())
}

/// Writes a key pair: the private key with mode 0600. Both files are staged
/// before either is moved into place, so an error leaves neither.
pub fn write_key_pair(
    out: &Path,
    private: &[u8],
    public: Option<(&Path, &[u8])>,
    force: bool,
) -> Result<(), CliError> {
    let private = stage(out, private, true)?;
    let public = match public {
        Some((p, bytes)) => Some(stage(p, bytes, false)?),
        None => None,
    };
    private.commit(force)?;
    if let Some(p) = public {
        if let Err(e) = p.commit(force) {
            let _ = fs::remove_file(out);
            return Err(e);
        }
    }
    Ok(())
}

/// Replaces the regular file `target` (through a symlink, the file it
/// names) with `data`, atomically: staged beside it, given its permission
/// bits (and, where allowed, its owner and group), then renamed over it, so
/// that the file is whole before and after, never half-written. Meant for
/// an output that is its input (`key passwd`).
pub fn replace_in_place(target: &Path, data: &[u8]) -> Result<(), CliError> {
    let cannot = |e: io::Error| CliError::file(target, format!("cannot replace: {e}"));
    let real = fs::canonicalize(target).map_err(cannot)?;
    let meta = fs::metadata(&real).map_err(cannot)?;
    if !meta.is_file() {
        return Err(CliError::file(
            target,
            "is not a regular file; it cannot be replaced",
        ));
    }
    let staged = stage_over(&real, true, false, &mut |w| w.write_all(data))?;
    if let Some(temp) = &staged.temp {
        // Best effort: only root may give a file to another owner.
        let _ = std::os::unix::fs::chown(temp, Some(meta.uid()), Some(meta.gid()));
        fs::set_permissions(temp, meta.permissions()).map_err(cannot)?;
    }
    staged.commit(true)
}

/// Writes one output atomically: `check_writable`, `stage`, `commit`.
pub fn write_output(
    target: &Path,
    data: &[u8],
    private: bool,
    force: bool,
) -> Result<(), CliError> {
    check_writable(target, force)?;
    stage(target, data, private)?.commit(force)
}

/// Fails if standard output is a terminal: checked before work whose result
/// is binary.
pub fn refuse_binary_terminal() -> Result<(), CliError> {
    if io::stdout().is_terminal() {
        return Err(CliError::Failed(
            "refusing to write binary data to a terminal; use -o FILE or redirect the output"
                .into(),
        ));
    }
    Ok(())
}

/// Writes to standard output, refusing binary data when it is a terminal.
pub fn write_stdout(data: &[u8], binary: bool) -> Result<(), CliError> {
    if binary {
        refuse_binary_terminal()?;
    }
    let mut out = io::stdout().lock();
    out.write_all(data)
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failed(format!("cannot write to standard output: {e}")))
}
