//! Persistence: one directory per token, named by `SPHINCS_PKCS11_DIR` (or
//! by the `directory` line of the file `SPHINCS_PKCS11_CONF` names).
//! `token.bin` holds the label, the two PIN verifiers and their retry
//! counters; each token object is one `obj-<id>.bin`: its attributes, and
//! for a private key the key encrypted under the user PIN with the core's
//! encrypted PKCS#8 (PBES2: scrypt, AES-256-CBC). Every write goes to a
//! temporary file that is synced and renamed over the old one, then the
//! directory is synced: a crash leaves the old file or the new, never half;
//! a write that fails (a full disk) removes its temporary file.
//!
//! C_SetPIN changes several files: it first writes each private key,
//! re-encrypted under the new PIN, as a staged `new-<id>.bin`, then
//! `token.bin` with the new PIN (the change is made or not by this one
//! rename), then renames each staged file over its object's. A crash
//! between leaves either PIN able to reach every key: a key whose object
//! file the PIN does not decrypt is tried in its staged file, which then
//! takes the object file's place.
//!
//! The files are a small length-prefixed format of this crate (magic,
//! version, fields), not a PKCS#11 interchange format.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use cryptoki_sys::CK_ULONG;

/// The directory of the one token, if `SPHINCS_PKCS11_DIR` names one.
pub(crate) struct Store {
    dir: PathBuf,
}

const TOKEN_FILE: &str = "token.bin";
const OBJECT_PREFIX: &str = "obj-";
const STAGED_PREFIX: &str = "new-";
const SUFFIX: &str = ".bin";

impl Store {
    /// The store `SPHINCS_PKCS11_DIR` names, or else the `directory` of
    /// the configuration file `SPHINCS_PKCS11_CONF` names (created,
    /// owner-only, if missing); `None` with neither: the token lives in
    /// memory. A configuration file that cannot be read or has a line it
    /// does not know is an error.
    pub(crate) fn from_env() -> Result<Option<Store>, std::io::Error> {
        let dir = match std::env::var_os("SPHINCS_PKCS11_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => match std::env::var_os("SPHINCS_PKCS11_CONF") {
                Some(conf) => match directory_of(&fs::read_to_string(conf)?)? {
                    Some(dir) => dir,
                    None => return Ok(None),
                },
                None => return Ok(None),
            },
        };
        if !dir.exists() {
            fs::create_dir_all(&dir)?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                fs::set_permissions(&dir, fs::Permissions::from_mode(0o700))?;
            }
        }
        Ok(Some(Store { dir }))
    }

    /// Writes `bytes` as `name`: temporary file, fsync, rename, fsync of
    /// the directory. A write that fails before the rename (a full disk)
    /// removes its temporary file.
    fn write_atomic(&self, name: &str, bytes: &[u8]) -> Result<(), std::io::Error> {
        let tmp = self.dir.join(format!(".{name}.tmp"));
        let written = (|| {
            let mut opts = OpenOptions::new();
            opts.write(true).create(true).truncate(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                opts.mode(0o600);
            }
            let mut f = opts.open(&tmp)?;
            f.write_all(bytes)?;
            f.sync_all()?;
            fs::rename(&tmp, self.dir.join(name))
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        sync_dir(&self.dir)
    }

    pub(crate) fn save_token(&self, bytes: &[u8]) -> Result<(), std::io::Error> {
        self.write_atomic(TOKEN_FILE, bytes)
    }

    pub(crate) fn load_token(&self) -> Result<Option<Vec<u8>>, std::io::Error> {
        read_if_present(&self.dir.join(TOKEN_FILE))
    }

    fn object_name(id: u64) -> String {
        format!("{OBJECT_PREFIX}{id:016x}{SUFFIX}")
    }

    pub(crate) fn save_object(&self, id: u64, bytes: &[u8]) -> Result<(), std::io::Error> {
        self.write_atomic(&Self::object_name(id), bytes)
    }

    fn staged_name(id: u64) -> String {
        format!("{STAGED_PREFIX}{id:016x}{SUFFIX}")
    }

    /// Writes an object's staged file (C_SetPIN, before `token.bin`).
    pub(crate) fn save_staged(&self, id: u64, bytes: &[u8]) -> Result<(), std::io::Error> {
        self.write_atomic(&Self::staged_name(id), bytes)
    }

    /// An object's staged file, if it has one.
    pub(crate) fn load_staged(&self, id: u64) -> Result<Option<Vec<u8>>, std::io::Error> {
        read_if_present(&self.dir.join(Self::staged_name(id)))
    }

    /// Renames an object's staged file over its object file.
    pub(crate) fn commit_staged(&self, id: u64) -> Result<(), std::io::Error> {
        fs::rename(
            self.dir.join(Self::staged_name(id)),
            self.dir.join(Self::object_name(id)),
        )?;
        sync_dir(&self.dir)
    }

    /// Removes an object's staged file, if it has one.
    pub(crate) fn remove_staged(&self, id: u64) -> Result<(), std::io::Error> {
        match fs::remove_file(self.dir.join(Self::staged_name(id))) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => sync_dir(&self.dir),
        }
    }

    /// Removes an object's staged file, then its file.
    pub(crate) fn remove_object(&self, id: u64) -> Result<(), std::io::Error> {
        for name in [Self::staged_name(id), Self::object_name(id)] {
            match fs::remove_file(self.dir.join(name)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        sync_dir(&self.dir)
    }

    /// Every object file: its id and bytes.
    pub(crate) fn load_objects(&self) -> Result<Vec<(u64, Vec<u8>)>, std::io::Error> {
        let mut out = Vec::new();
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let Some(hex) = name
                .strip_prefix(OBJECT_PREFIX)
                .and_then(|n| n.strip_suffix(SUFFIX))
            else {
                continue;
            };
            let Ok(id) = u64::from_str_radix(hex, 16) else {
                continue;
            };
            out.push((id, fs::read(entry.path())?));
        }
        out.sort_by_key(|(id, _)| *id);
        Ok(out)
    }

    /// Removes every object file (C_InitToken).
    pub(crate) fn clear_objects(&self) -> Result<(), std::io::Error> {
        for (id, _) in self.load_objects()? {
            self.remove_object(id)?;
        }
        Ok(())
    }
}

/// The `directory = <path>` of a configuration file: one `key = value` a
/// line, `#` comments and blank lines ignored, `directory` the one key.
fn directory_of(conf: &str) -> Result<Option<PathBuf>, std::io::Error> {
    let mut dir = None;
    for (n, line) in conf.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
            Some(("directory", v)) if !v.is_empty() => dir = Some(PathBuf::from(v)),
            _ => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "SPHINCS_PKCS11_CONF line {}: expected `directory = <path>`",
                        n + 1
                    ),
                ))
            }
        }
    }
    Ok(dir)
}

fn read_if_present(p: &Path) -> Result<Option<Vec<u8>>, std::io::Error> {
    match fs::read(p) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

fn sync_dir(dir: &Path) -> Result<(), std::io::Error> {
    File::open(dir)?.sync_all()
}

/// Writes the length-prefixed fields of the files.
#[derive(Default)]
pub(crate) struct Writer(pub(crate) Vec<u8>);

impl Writer {
    pub(crate) fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    pub(crate) fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
}

/// Reads them back; any shortfall is `None` (a damaged file).
pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Some(a)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        self.take(4)?.try_into().ok().map(u32::from_le_bytes)
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        self.take(8)?.try_into().ok().map(u64::from_le_bytes)
    }

    /// A 64-bit field as a CK_ULONG (refused if it does not fit).
    pub(crate) fn ulong(&mut self) -> Option<CK_ULONG> {
        self.u64().and_then(|v| CK_ULONG::try_from(v).ok())
    }

    pub(crate) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    pub(crate) fn done(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip_and_short_input_is_refused() {
        let mut w = Writer::default();
        w.u8(7);
        w.u32(9);
        w.u64(1 << 40);
        w.bytes(b"abc");
        let mut r = Reader(&w.0);
        assert_eq!(r.u8(), Some(7));
        assert_eq!(r.u32(), Some(9));
        assert_eq!(r.u64(), Some(1 << 40));
        assert_eq!(r.bytes(), Some(&b"abc"[..]));
        assert!(r.done());
        let mut short = Reader(&w.0[..w.0.len() - 1]);
        short.u8();
        short.u32();
        short.u64();
        assert_eq!(short.bytes(), None);
    }

    #[test]
    fn configuration_files() {
        let conf = "# the token\n\ndirectory = /var/lib/sphincs-token\n";
        assert_eq!(
            directory_of(conf).unwrap(),
            Some(PathBuf::from("/var/lib/sphincs-token"))
        );
        assert_eq!(directory_of("# nothing\n").unwrap(), None);
        assert!(directory_of("dir = /x\n").is_err());
        assert!(directory_of("directory =\n").is_err());
        assert!(directory_of("directory /x\n").is_err());
    }

    /// A write cut short leaves the old state whole: a crash mid-write
    /// leaves a partial temporary file, which loading passes over; a write
    /// that fails before its rename (as a full disk fails, at the write or
    /// the fsync of the temporary file; here its name is taken by a
    /// directory) is an error and replaces nothing.
    #[test]
    fn a_failed_or_interrupted_write_keeps_the_old_state() {
        let dir = std::env::temp_dir().join(format!("sphincs-p11-fault-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let s = Store { dir: dir.clone() };
        s.save_object(7, b"old object").unwrap();
        s.save_token(b"old token").unwrap();
        let tmp = |name: &str| dir.join(format!(".{name}.tmp"));
        let object = tmp(&Store::object_name(7));
        fs::write(&object, b"new obj").unwrap();
        fs::write(tmp(TOKEN_FILE), b"new").unwrap();
        assert_eq!(s.load_objects().unwrap(), vec![(7, b"old object".to_vec())]);
        assert_eq!(s.load_token().unwrap(), Some(b"old token".to_vec()));
        fs::remove_file(&object).unwrap();
        fs::create_dir(&object).unwrap();
        assert!(s.save_object(7, b"new object").is_err());
        assert_eq!(s.load_objects().unwrap(), vec![(7, b"old object".to_vec())]);
        fs::remove_dir(&object).unwrap();
        s.save_object(7, b"new object").unwrap();
        assert_eq!(s.load_objects().unwrap(), vec![(7, b"new object".to_vec())]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_are_atomic_replacements() {
        let dir = std::env::temp_dir().join(format!("sphincs-p11-store-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let s = Store { dir: dir.clone() };
        s.save_object(5, b"one").unwrap();
        s.save_object(5, b"two").unwrap();
        s.save_token(b"t").unwrap();
        assert_eq!(s.load_objects().unwrap(), vec![(5, b"two".to_vec())]);
        assert_eq!(s.load_token().unwrap(), Some(b"t".to_vec()));
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        s.clear_objects().unwrap();
        assert!(s.load_objects().unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
