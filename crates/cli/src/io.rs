//! Files in and out: outputs are staged in a temporary file beside the target,
//! synced, then moved into place, so a target is either complete or absent;
//! an existing file is only replaced when asked, and never when it is one of
//! the command's inputs; keys, signatures, certificates and CMS are read with
//! a size cap; messages are streamed. SIGINT, SIGTERM and SIGHUP remove the
//! temporary files before the process ends.

use std::fs::{self, File, OpenOptions};
use std::io::{self, IsTerminal, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};
use std::time::SystemTime;

use sphincs::MessageSource;

use crate::error::CliError;

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
            crate::quote::name(&input)
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

/// Reads a whole message file (small ones, signed or verified in batches):
/// a regular file, as the opened descriptor says.
pub fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    let cannot = |e: io::Error| CliError::file(path, format!("cannot read: {e}"));
    let mut file = File::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(not_regular_in_batch(path));
    }
    let mut buf = Vec::new();
    file.read_to_end(&mut buf).map_err(cannot)?;
    Ok(buf)
}

/// A FIFO, device or directory among several files to sign or verify.
pub fn not_regular_in_batch(path: &Path) -> CliError {
    CliError::file(
        path,
        "is not a regular file (a FIFO, device or directory); several files are read as regular files only (sign or verify it alone)",
    )
}

/// A structured input, read whole into memory with a size cap, so that
/// `/dev/zero`, a FIFO or a huge file is refused in bounded time and memory.
#[derive(Clone, Copy, Debug)]
pub enum Cap {
    /// A private or public key: PEM, DER or raw (real ones are under 2 KiB).
    Key,
    /// A raw signature: at most [`sphincs::MAX_SIGNATURE_LEN`] bytes.
    Signature,
    /// A certificate or certification request, PEM or DER (one signature
    /// and one key: under 100 KiB).
    Certificate,
    /// A CMS SignedData, PEM or DER, with its content when attached.
    SignedData,
    /// An ACVP prompt (JSON; NIST's largest is about 26 MB).
    Prompt,
    /// OpenPGP certificates or keys: one, or a keyring (a `KEYS` file of
    /// many armored certificates; an SLH-DSA-SHAKE-256s certificate with a
    /// few signatures is about 100 KiB armored).
    Keyring,
    /// A cleartext-signed file (`SHA256SUMS.asc`, InRelease), read whole.
    ClearSigned,
    /// A draft SP 800-230 key's tree cache (`KEY.tree`: the 2^15 nodes of
    /// level 7 of a 2^22-leaf tree at most, about 1 MiB).
    TreeCache,
}

/// The most bytes `cap` accepts.
pub fn cap_bytes(cap: Cap) -> u64 {
    cap.limit().0
}

impl Cap {
    /// The most bytes accepted, and the words for the error.
    fn limit(self) -> (u64, &'static str) {
        const MIB: u64 = 1 << 20;
        match self {
            Cap::Key => (MIB, "key file"),
            Cap::Signature => (sphincs::MAX_SIGNATURE_LEN as u64, "signature"),
            Cap::Certificate => (MIB, "certificate or request"),
            Cap::SignedData => (256 * MIB, "CMS SignedData this tool reads"),
            Cap::Prompt => (256 * MIB, "ACVP prompt this tool reads"),
            Cap::TreeCache => (4 * MIB, "tree cache"),
            Cap::Keyring => (64 * MIB, "keyring"),
            Cap::ClearSigned => (64 * MIB, "cleartext-signed file"),
        }
    }

    /// Whether the input is PEM, DER or JSON, so binary junk (such as
    /// `/dev/zero`) can be refused at its first bytes.
    fn structured(self) -> bool {
        matches!(self, Cap::Certificate | Cap::SignedData | Cap::Prompt)
    }
}

/// Reads a key, signature, certificate, request, CMS SignedData or prompt,
/// refusing one longer than `cap` allows (having read at most one byte more).
pub fn read_capped(path: &Path, cap: Cap) -> Result<Vec<u8>, CliError> {
    read_within(path, cap)?.map_err(|(limit, what)| {
        CliError::file(
            path,
            format!(
                "is larger than any {what} (at most {}); refusing to read more",
                size_words(limit)
            ),
        )
    })
}

/// Reads standard input whole, at most `cap`'s bytes.
pub fn read_stdin(cap: Cap) -> Result<Vec<u8>, CliError> {
    let (limit, what) = cap.limit();
    let mut out = Vec::new();
    io::stdin()
        .lock()
        .take(limit + 1)
        .read_to_end(&mut out)
        .map_err(|e| CliError::Failed(format!("cannot read standard input: {e}")))?;
    if out.len() as u64 > limit {
        return Err(CliError::Failed(format!(
            "standard input is larger than any {what} (at most {}); refusing to read more",
            size_words(limit)
        )));
    }
    Ok(out)
}

/// Reads a file the command may replace afterwards (a key's tree cache):
/// a regular file only, as the opened descriptor says (a FIFO would block,
/// a device never end).
pub fn read_replaceable(path: &Path, cap: Cap) -> Result<Vec<u8>, CliError> {
    let (limit, what) = cap.limit();
    let cannot = |e: io::Error| CliError::file(path, format!("cannot read: {e}"));
    let not_regular = || CliError::file(path, format!("is not a regular file; not a {what}"));
    // Checked before opening too: opening a FIFO for reading blocks.
    if !fs::metadata(path).map_err(cannot)?.is_file() {
        return Err(not_regular());
    }
    let file = File::open(path).map_err(cannot)?;
    if !file.metadata().map_err(cannot)?.is_file() {
        return Err(not_regular());
    }
    let mut buf = Vec::new();
    file.take(limit + 1).read_to_end(&mut buf).map_err(cannot)?;
    if buf.len() as u64 > limit {
        return Err(CliError::file(
            path,
            format!("is larger than any {what} (at most {})", size_words(limit)),
        ));
    }
    Ok(buf)
}

/// Reads a signature file: one longer than any signature (read up to one
/// byte more than the largest) is an invalid signature of the wrong length,
/// exit 1, as one that is too short is.
pub fn read_signature(path: &Path) -> Result<Vec<u8>, CliError> {
    read_within(path, Cap::Signature)?.map_err(|(limit, _)| {
        CliError::InvalidSignature(format!(
            "invalid signature: {}: longer than any signature (at most {limit} bytes)",
            crate::quote::name(path)
        ))
    })
}

/// [`read_capped`]'s work: `Ok(Err((limit, what)))` when the input is
/// longer than `cap` allows.
#[allow(clippy::type_complexity)]
/// Refuses a named pipe (FIFO) before it is opened: opening one blocks
/// until a writer comes, forever if none does. A descriptor already open
/// (`/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`: a shell's `<(…)`) has its
/// writer and is read as given.
fn refuse_named_pipe(path: &Path, what: &str) -> Result<(), CliError> {
    let descriptor = ["/dev/stdin", "/dev/fd/", "/proc/self/fd/"]
        .iter()
        .any(|p| path.to_str().is_some_and(|s| s.starts_with(p)));
    match fs::metadata(path) {
        Ok(m) if m.file_type().is_fifo() && !descriptor => Err(CliError::file(
            path,
            format!("is a named pipe (FIFO), not a {what}; opening it would wait for a writer (give a regular file, or the pipe as standard input)"),
        )),
        _ => Ok(()),
    }
}

fn read_within(path: &Path, cap: Cap) -> Result<Result<Vec<u8>, (u64, &'static str)>, CliError> {
    let (limit, what) = cap.limit();
    let cannot = |e: io::Error| CliError::file(path, format!("cannot read: {e}"));
    refuse_named_pipe(path, what)?;
    let file = File::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if meta.is_dir() {
        return Err(CliError::file(path, "cannot read: is a directory"));
    }
    // Sized once from the file's length where there is one, so that a key
    // is not left behind, unwiped, by a reallocation.
    let hint = if meta.is_file() { meta.len() } else { 4096 };
    let mut buf = Vec::with_capacity(hint.min(limit) as usize + 1);
    let mut input = file.take(limit + 1);
    if cap.structured() {
        let mut head = [0u8; 4096];
        let n = read_some(&mut input, &mut head).map_err(cannot)?;
        let head = &head[..n];
        if n > 0 && head[0] != 0x30 && head.contains(&0) {
            return Err(CliError::file(
                path,
                format!(
                    "is neither DER nor text (PEM or JSON): not {} {what}",
                    if what.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
                        "an"
                    } else {
                        "a"
                    }
                ),
            ));
        }
        buf.extend_from_slice(head);
    }
    input.read_to_end(&mut buf).map_err(cannot)?;
    if buf.len() as u64 > limit {
        return Ok(Err((limit, what)));
    }
    Ok(Ok(buf))
}

/// Fills `buf` as far as the input goes.
fn read_some(input: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

fn size_words(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The most bytes of a message read into memory (standard input, a pipe or
/// a device, which cannot be rewound for a second pass) or hashed from a
/// device (which may never end): 256 MiB.
pub const MAX_BUFFERED_MESSAGE: u64 = 256 << 20;

/// A message to sign or verify: a regular file streamed from disk, or
/// standard input (or a pipe) read into memory.
pub enum Message {
    /// A file, opened once and read from the start on each pass.
    File(FileSource),
    /// Standard input, buffered.
    Buffered(Buffered),
}

/// A message held in memory.
pub struct Buffered(Vec<u8>);

impl MessageSource for Buffered {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), sphincs::Error> {
        sink(&self.0);
        Ok(())
    }
}

impl Message {
    /// `None` or `-` is standard input; anything else is a file, opened now so
    /// that a missing file is reported before any signing work.
    pub fn open(path: Option<&Path>) -> Result<Message, CliError> {
        match path {
            None => Self::stdin(),
            Some(p) if p.as_os_str() == "-" => Self::stdin(),
            Some(p) => {
                let source = FileSource::open(p)?;
                if source.regular {
                    Ok(Message::File(source))
                } else {
                    // A pipe or device cannot be rewound: read it once.
                    let mut file = source.file;
                    Self::buffer(&mut file, &crate::quote::name(&p))
                }
            }
        }
    }

    fn stdin() -> Result<Message, CliError> {
        Self::buffer(&mut io::stdin().lock(), "standard input")
    }

    fn buffer(input: &mut dyn Read, name: &str) -> Result<Message, CliError> {
        let mut buf = Vec::new();
        input
            .take(MAX_BUFFERED_MESSAGE + 1)
            .read_to_end(&mut buf)
            .map_err(|e| CliError::Failed(format!("cannot read {name}: {e}")))?;
        if buf.len() as u64 > MAX_BUFFERED_MESSAGE {
            return Err(CliError::Failed(format!(
                "{name}: a message that is not a regular file is read into memory, and this one is longer than {}; refusing to read more (give it as a regular file)",
                size_words(MAX_BUFFERED_MESSAGE)
            )));
        }
        Ok(Message::Buffered(Buffered(buf)))
    }

    /// The length of a message read from a regular file.
    pub fn file_len(&self) -> Option<u64> {
        match self {
            Message::File(f) => Some(f.stamp.0),
            Message::Buffered(_) => None,
        }
    }

    /// The message as the library's stream.
    pub fn source(&mut self) -> &mut dyn MessageSource {
        match self {
            Message::File(f) => f,
            Message::Buffered(b) => b,
        }
    }
}

/// Streams a file in 64 KiB pieces, rewinding for each pass, and fails if the
/// file changes between passes (which would sign one message but hash another).
pub struct FileSource {
    path: PathBuf,
    file: File,
    stamp: (u64, Option<SystemTime>),
    regular: bool,
    buf: Vec<u8>,
}

impl FileSource {
    fn open(path: &Path) -> Result<Self, CliError> {
        let file =
            File::open(path).map_err(|e| CliError::file(path, format!("cannot read: {e}")))?;
        let meta = file
            .metadata()
            .map_err(|e| CliError::file(path, format!("cannot read: {e}")))?;
        if meta.is_dir() {
            return Err(CliError::file(path, "is a directory"));
        }
        Ok(FileSource {
            path: path.to_path_buf(),
            file,
            stamp: (meta.len(), meta.modified().ok()),
            regular: meta.is_file(),
            buf: vec![0; 64 * 1024],
        })
    }

    fn io_error(&self, e: impl std::fmt::Display) -> sphincs::Error {
        sphincs::Error::Io(format!("{}: {e}", crate::quote::name(&self.path)))
    }
}

impl MessageSource for FileSource {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), sphincs::Error> {
        self.file
            .seek(SeekFrom::Start(0))
            .map_err(|e| self.io_error(e))?;
        let mut total = 0u64;
        loop {
            let n = match self.file.read(&mut self.buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.io_error(e)),
            };
            total += n as u64;
            sink(&self.buf[..n]);
        }
        let meta = self.file.metadata().map_err(|e| self.io_error(e))?;
        if total != self.stamp.0 || (meta.len(), meta.modified().ok()) != self.stamp {
            return Err(self.io_error("the file changed while it was being read"));
        }
        Ok(())
    }
}

/// Warns on standard error (once per file, not a refusal, as ssh does for
/// its keys) when a file holding a secret — a private key, a passphrase —
/// is readable by its group or by others.
pub fn warn_if_readable_by_others(path: &Path, what: &str) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path) {
        let mode = meta.permissions().mode() & 0o777;
        if meta.is_file() && mode & 0o044 != 0 {
            eprintln!(
                "sphincs: warning: {} ({what}) is readable by {} (mode {mode:04o}); chmod 600 it",
                crate::quote::name(path),
                match (mode & 0o040 != 0, mode & 0o004 != 0) {
                    (true, true) => "its group and others",
                    (true, false) => "its group",
                    _ => "others",
                }
            );
        }
    }
}
