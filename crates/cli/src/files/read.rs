//! Inputs: message files read whole in batches, structured inputs (keys,
//! signatures, certificates, CMS) read with a size cap so that `/dev/zero`, a
//! FIFO or a huge file is refused in bounded time and memory, and messages
//! streamed or buffered for the core's two-pass signing.

use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sphincs::MessageSource;

use crate::error::CliError;
use crate::files::quote;

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
            quote::name(path)
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
                    Self::buffer(&mut file, &quote::name(&p))
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
        sphincs::Error::Io(format!("{}: {e}", quote::name(&self.path)))
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
                quote::name(path),
                match (mode & 0o040 != 0, mode & 0o004 != 0) {
                    (true, true) => "its group and others",
                    (true, false) => "its group",
                    _ => "others",
                }
            );
        }
    }
}
