//! A message read once, as it arrives, from standard input or a pipe:
//! verification hashes the message once (H_msg), so it needs neither a
//! rewind nor a copy in memory (`cat big | sphincs verify …`). Signing reads
//! a pure message twice and still buffers such input (`io::Message`).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use sphincs::{Error, MessageSource};

use crate::error::CliError;
use crate::files::quote;
use crate::signing::batch;

/// Standard input or a pipe, fed once in 64 KiB pieces.
pub struct OnePass {
    input: Box<dyn Read>,
    name: String,
    fed: bool,
}

impl OnePass {
    /// `None` or `-` is standard input, a path naming a pipe or device is
    /// that; a regular file is `None` (it is streamed with rewinds instead).
    pub fn open(path: Option<&Path>) -> Result<Option<OnePass>, CliError> {
        let path = match path {
            Some(p) if p.as_os_str() != "-" => p,
            _ => {
                return Ok(Some(OnePass {
                    input: Box::new(io::stdin()),
                    name: "standard input".into(),
                    fed: false,
                }))
            }
        };
        let file =
            File::open(path).map_err(|e| CliError::file(path, format!("cannot read: {e}")))?;
        let meta = file
            .metadata()
            .map_err(|e| CliError::file(path, format!("cannot read: {e}")))?;
        if meta.is_file() || meta.is_dir() {
            return Ok(None);
        }
        // A device may never end (/dev/zero): hashed up to a cap. A pipe
        // or FIFO ends when its writer does, as standard input.
        let device = {
            use std::os::unix::fs::FileTypeExt;
            meta.file_type().is_char_device() || meta.file_type().is_block_device()
        };
        let name = quote::name(&path);
        let input: Box<dyn Read> = if device {
            Box::new(Capped {
                inner: file.take(crate::files::read::MAX_BUFFERED_MESSAGE + 1),
                left: crate::files::read::MAX_BUFFERED_MESSAGE,
            })
        } else {
            Box::new(file)
        };
        Ok(Some(OnePass {
            input,
            name,
            fed: false,
        }))
    }
}

/// A device read up to [`crate::files::read::MAX_BUFFERED_MESSAGE`]: one byte more
/// is an error, not a silently shortened message.
struct Capped {
    inner: io::Take<File>,
    left: u64,
}

impl Read for Capped {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(io::Error::other(format!(
                "a device is read up to {} MiB, and this one goes on; refusing to read more",
                crate::files::read::MAX_BUFFERED_MESSAGE >> 20
            )));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

impl MessageSource for OnePass {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        if std::mem::replace(&mut self.fed, true) {
            return Err(Error::Io(format!(
                "{}: can be read only once, and this operation reads the message twice",
                self.name
            )));
        }
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match self.input.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => sink(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::Io(format!("cannot read {}: {e}", self.name))),
            }
        }
    }
}

/// Runs a verification `f` over FILE (streamed from disk, with a byte
/// progress bar) or over standard input or a pipe (read once as it arrives).
pub fn verify_input<R>(
    file: Option<&Path>,
    f: impl FnOnce(&mut dyn MessageSource) -> R,
) -> Result<R, CliError> {
    if let Some(mut once) = OnePass::open(file)? {
        return Ok(f(&mut once));
    }
    let mut message = crate::files::read::Message::open(file)?;
    Ok(batch::with_progress(
        &mut message,
        file,
        batch::VERIFY_PASSES,
        f,
    ))
}
