//! What names a key between the agent and its clients: the file it was
//! read from ([`FileId`]; for an OpenPGP key, its signing key's
//! fingerprint) and its RFC 9909 mode, as the protocol's fields
//! (`wire.rs`).

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use sphincs::KeyMode;

use super::wire::{Fields, Reader};
use crate::error::CliError;
use crate::openpgp::kind;

/// Which file a key came from: its canonical path, device, inode, size and
/// modification time (a file replaced or rewritten is another file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileId {
    path: String,
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
}

impl FileId {
    pub fn of(path: &Path) -> Result<FileId, CliError> {
        let canonical = std::fs::canonicalize(path).map_err(|e| CliError::file(path, e))?;
        let m = std::fs::metadata(&canonical).map_err(|e| CliError::file(path, e))?;
        Ok(FileId {
            path: canonical.to_string_lossy().into_owned(),
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
        })
    }

    /// The identity of an OpenPGP secret key: its signing key's v6
    /// fingerprint, wherever the file is and however often it is rewritten
    /// (`key expire` and `add-subkey` replace it in place; a copy in another
    /// place is the same key).
    pub fn openpgp(signing_key: &sphincs::openpgp::Fingerprint) -> FileId {
        FileId {
            path: format!("{}{signing_key}", kind::FPR_PREFIX),
            dev: 0,
            ino: 0,
            size: 0,
            mtime: (0, 0),
        }
    }

    /// A key in a PKCS#11 token, by [`crate::keys::token::agent_id`]
    /// (never a file's path: those are absolute).
    pub fn token(id: String) -> FileId {
        FileId {
            path: id,
            dev: 0,
            ino: 0,
            size: 0,
            mtime: (0, 0),
        }
    }

    /// The identity of the key in `path`: an OpenPGP secret key's signing
    /// key fingerprint ([`FileId::openpgp`]), any other key file's file.
    pub fn of_key(path: &Path) -> Result<FileId, CliError> {
        match kind::signing_fingerprint(path) {
            Some(fpr) => Ok(FileId::openpgp(&fpr)),
            None => FileId::of(path),
        }
    }

    pub fn write(&self, f: Fields) -> Fields {
        f.text(&self.path)
            .number(self.dev)
            .number(self.ino)
            .number(self.size)
            .number(self.mtime.0 as u64)
            .number(self.mtime.1 as u64)
    }

    pub fn read(r: &mut Reader<'_>) -> io::Result<FileId> {
        Ok(FileId {
            path: r.text()?.to_string(),
            dev: r.number()?,
            ino: r.number()?,
            size: r.number()?,
            mtime: (r.number()? as i64, r.number()? as i64),
        })
    }
}

/// A key's mode on the wire: 0 raw, 1 pure, 2 HashSLH-DSA and its pre-hash.
pub fn write_mode(f: Fields, mode: KeyMode) -> Fields {
    match mode {
        KeyMode::Unrestricted => f.number(0).text(""),
        KeyMode::Pure => f.number(1).text(""),
        KeyMode::HashSlhDsa(p) => f.number(2).text(p.name()),
    }
}

pub fn read_mode(r: &mut Reader<'_>) -> io::Result<KeyMode> {
    let tag = r.number()?;
    let prehash = r.text()?;
    let invalid = |what: String| io::Error::new(io::ErrorKind::InvalidData, what);
    Ok(match tag {
        0 => KeyMode::Unrestricted,
        1 => KeyMode::Pure,
        2 => KeyMode::HashSlhDsa(prehash.parse().map_err(|e| invalid(format!("{e}")))?),
        t => return Err(invalid(format!("unknown key mode {t}"))),
    })
}

/// A key file's name as the agent lists it: its canonical path; for an
/// OpenPGP key, `openpgp4fpr:HEX` of its signing key, then the path.
pub fn display(path: &Path) -> String {
    let file = std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string();
    match kind::signing_fingerprint(path) {
        Some(fpr) => format!("{}{fpr} ({file})", kind::FPR_PREFIX),
        None => file,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_round_trip() {
        for mode in [
            KeyMode::Unrestricted,
            KeyMode::Pure,
            KeyMode::HashSlhDsa(sphincs::PreHash::Sha2_512_256),
        ] {
            let f = write_mode(Fields::new(), mode);
            assert_eq!(read_mode(&mut Reader::new(f.body())).unwrap(), mode);
        }
    }
}
