//! `sphincs gpg`'s home directory: `--homedir DIR`, else `$GNUPGHOME`,
//! else `~/.gnupg`, as gpg finds its own. This tool keeps its files in a
//! `sphincs/` directory inside it, apart from GnuPG's (a job that runs
//! both in one home finds each program's keys where it put them):
//!
//! - `sphincs/private/FINGERPRINT.pgp`: each secret key imported, as it
//!   was given (armored; a passphrase's protection kept), mode 0600 in a
//!   0700 directory;
//! - `sphincs/pubring.pgp`: the certificates imported, binary, one per
//!   fingerprint (a later import of the same certificate replaces it),
//!   rewritten whole and atomically.
//!
//! Not the shared certificate directory of draft-nwjw-openpgp-cert-d
//! (Sequoia's `pgp.cert.d`): gpg's callers give a home per job
//! (`--homedir`, `GNUPGHOME`), and a user-wide store written by several
//! programs needs that draft's locking and merging; it is noted in
//! docs/gpg.md as not done.

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use sphincs::openpgp::{self, armor, Cert};

use super::argv::Line;
use crate::error::CliError;
use crate::files::quote;
use crate::files::read::{read_capped, Cap};
use crate::files::write;
use crate::git::openpgp_sign;

/// GnuPG's home directory, as gpg finds it: `--homedir`, else
/// `$GNUPGHOME`, else `~/.gnupg`.
pub fn gnupg_home(line: &Line) -> Option<PathBuf> {
    if let Some(d) = line.value("homedir") {
        return Some(PathBuf::from(d));
    }
    if let Some(d) = std::env::var_os("GNUPGHOME").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(d));
    }
    std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .map(|h| PathBuf::from(h).join(".gnupg"))
}

/// The directory and what it holds.
pub struct Home {
    pub dir: PathBuf,
}

/// What an import did.
#[derive(Default)]
pub struct Imported {
    pub secret: Vec<Cert>,
    pub public: Vec<Cert>,
}

impl Home {
    /// The home the command line (or the environment) names.
    pub fn locate(line: &Line) -> Result<Home, CliError> {
        let base = gnupg_home(line).ok_or_else(|| {
            CliError::Failed("no home directory: give --homedir or set GNUPGHOME".into())
        })?;
        Ok(Home {
            dir: base.join("sphincs"),
        })
    }

    fn private_dir(&self) -> PathBuf {
        self.dir.join("private")
    }

    fn pubring(&self) -> PathBuf {
        self.dir.join("pubring.pgp")
    }

    /// The secret keys, with their files.
    pub fn secret_keys(&self) -> Result<Vec<(PathBuf, Cert)>, CliError> {
        let dir = self.private_dir();
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(CliError::file(&dir, e)),
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pgp"))
            .collect();
        paths.sort();
        let mut out = Vec::new();
        for p in paths {
            let certs = openpgp::read_certs(&read_capped(&p, Cap::Key)?)
                .map_err(|e| CliError::file(&p, e))?;
            out.extend(certs.into_iter().map(|c| (p.clone(), c)));
        }
        Ok(out)
    }

    /// The certificates imported.
    pub fn public_certs(&self) -> Result<Vec<Cert>, CliError> {
        let p = self.pubring();
        match std::fs::metadata(&p) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(CliError::file(&p, e)),
            Ok(_) => {}
        }
        Cert::parse_all(&read_capped(&p, Cap::Keyring)?).map_err(|e| CliError::file(&p, e))
    }

    /// Every certificate known: the imported ones and the secret keys'.
    pub fn all_certs(&self) -> Result<Vec<Cert>, CliError> {
        let mut certs = self.public_certs()?;
        for (_, c) in self.secret_keys()? {
            if !certs.iter().any(|k| k.fingerprint() == c.fingerprint()) {
                certs.push(
                    Cert::parse_all(&c.to_bytes(false))
                        .map_err(|e| CliError::Failed(e.to_string()))?
                        .remove(0),
                );
            }
        }
        Ok(certs)
    }

    fn make_dirs(&self) -> Result<(), CliError> {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(self.private_dir())
            .map_err(|e| CliError::file(&self.private_dir(), e))
    }

    /// Imports keys and certificates (armored or binary, several in one
    /// input). A secret key is kept as given, with its protection.
    pub fn import(&self, bytes: &[u8]) -> Result<Imported, CliError> {
        let certs = openpgp::read_certs(bytes)
            .map_err(|e| CliError::Failed(format!("cannot import: {e}")))?;
        self.make_dirs()?;
        let mut done = Imported::default();
        let mut ring = self.public_certs()?;
        for c in certs {
            let public = Cert::parse_all(&c.to_bytes(false))
                .map_err(|e| CliError::Failed(e.to_string()))?
                .remove(0);
            if c.is_secret() {
                let path = self
                    .private_dir()
                    .join(format!("{}.pgp", c.fingerprint().to_hex()));
                let text = armor::encode(armor::Kind::PrivateKey, &c.to_bytes(true));
                if path.exists() {
                    write::replace_in_place(&path, text.as_bytes())?;
                } else {
                    write::write_output(&path, text.as_bytes(), true, false)?;
                }
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
                    .map_err(|e| CliError::file(&path, e))?;
                done.secret.push(c);
            } else {
                done.public.push(c);
            }
            ring.retain(|k| k.fingerprint() != public.fingerprint());
            ring.push(public);
        }
        let mut bytes = Vec::new();
        for c in &ring {
            bytes.extend_from_slice(&c.to_bytes(false));
        }
        let p = self.pubring();
        if p.exists() {
            write::replace_in_place(&p, &bytes)?;
        } else {
            write::write_output(&p, &bytes, false, false)?;
        }
        Ok(done)
    }

    /// The secret key `user` names (`-u`: a fingerprint or key ID, a User
    /// ID or its e-mail address, or the key file's path); the only one if
    /// `user` is `None` and there is one.
    pub fn find_secret(&self, user: Option<&str>) -> Result<(PathBuf, Cert), CliError> {
        let keys = self.secret_keys()?;
        let home = self.dir.display().to_string();
        match user {
            None => {
                let mut keys = keys;
                match keys.len() {
                    1 => Ok(keys.remove(0)),
                    0 => Err(CliError::Failed(format!(
                        "no secret key in {home}; `sphincs gpg --import KEY` first"
                    ))),
                    n => Err(CliError::Failed(format!(
                        "{n} secret keys in {home}: name one with -u (--local-user)"
                    ))),
                }
            }
            Some(u) => {
                if Path::new(u).is_file() {
                    let certs = openpgp::read_certs(&read_capped(Path::new(u), Cap::Key)?)
                        .map_err(|e| CliError::file(Path::new(u), e))?;
                    let cert = certs
                        .into_iter()
                        .next()
                        .ok_or_else(|| CliError::file(Path::new(u), "holds no key"))?;
                    return Ok((PathBuf::from(u), cert));
                }
                // A cheap look at the fingerprints and the User IDs' text
                // first: `names` checks the User IDs' self-signatures.
                let query = u.trim().trim_start_matches("0x").to_ascii_uppercase();
                let email = u
                    .rsplit_once('<')
                    .map_or(u, |(_, e)| e.trim_end_matches('>'));
                let could = |c: &Cert| {
                    std::iter::once(c.fingerprint())
                        .chain(c.subkeys.iter().map(|s| s.key.public.fingerprint()))
                        .any(|f| !query.is_empty() && f.to_hex().starts_with(&query))
                        || c.user_ids
                            .iter()
                            .any(|id| String::from_utf8_lossy(&id.value).contains(email))
                };
                keys.into_iter()
                    .filter(|(_, c)| could(c))
                    .find(|(p, c)| openpgp_sign::names(c, p, u))
                    .ok_or_else(|| {
                        CliError::Failed(format!(
                            "no secret key for {} in {home} (`sphincs gpg --list-secret-keys` lists them)",
                            quote::user_id(u)
                        ))
                    })
            }
        }
    }
}
