//! Opening a key file: the one routine every front end calls to turn the
//! bytes of a key file into a key. It tells the file's kind from its bytes
//! (PKCS#8, encrypted PKCS#8, the draft SP 800-230 PEM of
//! `encoding::limited`, SPKI, an X.509 certificate, raw bytes), asks for a
//! passphrase only when the file is encrypted, and for a draft SP 800-230
//! key loads its tree cache from a [`TreeCacheStore`] the caller supplies
//! (a file beside the key for the CLI, bytes in memory for the C library),
//! recomputing the tree and storing a fresh cache when the saved one cannot
//! be used. No file system here: the caller reads the key file and owns the
//! store.

use crate::prelude::*;

use core::sync::atomic::AtomicBool;
use zeroize::Zeroizing;

use super::algorithm::AnyAlgorithm;
use super::key_file::{is_raw_len, raw_len_problem, KeyFileKind, OpenError};
use super::keys::{no_tree_cache, AnySigningKey, AnyVerifyingKey};
use crate::dynamic::{DynSigningKey, DynVerifyingKey};
use crate::encoding::{self, encrypted, limited};
use crate::error::Error;
use crate::params::Algorithm;

/// Why a saved tree cache is not used, told to the store before the tree
/// is recomputed (which takes minutes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheProblem {
    /// The store has no cache.
    Absent,
    /// The store could not read its cache (the store's words).
    Unreadable(String),
    /// The cache was read, and the core's checks refused it (not a cache,
    /// damaged, another key's or set's).
    Unusable(Error),
}

/// Where a draft SP 800-230 key's tree cache lives (public data: the nodes
/// its signatures need). [`KeyOpener`] loads it, and stores a fresh one
/// after recomputing the tree.
pub trait TreeCacheStore {
    /// The saved cache: `Ok(None)` if there is none, `Err` (in the store's
    /// words) if there is one that cannot be read.
    fn load(&mut self) -> Result<Option<Vec<u8>>, String>;

    /// Saves a fresh cache; `Err` (in the store's words) if it could not.
    fn store(&mut self, cache: &[u8]) -> Result<(), String>;

    /// Called before the tree of `alg` is recomputed, with why the saved
    /// cache is not used, so that a front end can say so (the work takes
    /// minutes). `Err` stops the load with that error instead.
    fn recomputing(&mut self, alg: AnyAlgorithm, why: &CacheProblem) -> Result<(), Error> {
        let _ = (alg, why);
        Ok(())
    }

    /// Whether a key that keeps no tree is refused (a caller that gives a
    /// cache for a key of any set). By default such keys ignore the store.
    fn required(&self) -> bool {
        false
    }
}

/// A tree cache held in memory, for bindings that hand bytes in and take
/// fresh bytes out (the C library, Python).
#[derive(Clone, Debug, Default)]
pub struct MemoryTreeCache {
    given: Option<Vec<u8>>,
    fresh: Option<Vec<u8>>,
    strict: bool,
}

impl MemoryTreeCache {
    /// A store holding `given` (or nothing): a missing or unusable cache
    /// is recomputed, and the fresh one kept for [`MemoryTreeCache::fresh`].
    pub fn new(given: Option<Vec<u8>>) -> Self {
        MemoryTreeCache {
            given,
            fresh: None,
            strict: false,
        }
    }

    /// A store holding `given` that must be used: a cache the core refuses
    /// is the error of the load (no recomputation), and a key of a set that
    /// keeps no tree is [`Error::Unsupported`].
    pub fn required(given: Vec<u8>) -> Self {
        MemoryTreeCache {
            given: Some(given),
            fresh: None,
            strict: true,
        }
    }

    /// The cache stored after a recomputation, if there was one.
    pub fn fresh(&self) -> Option<&[u8]> {
        self.fresh.as_deref()
    }
}

impl TreeCacheStore for MemoryTreeCache {
    fn load(&mut self) -> Result<Option<Vec<u8>>, String> {
        Ok(self.given.clone())
    }

    fn store(&mut self, cache: &[u8]) -> Result<(), String> {
        self.fresh = Some(cache.to_vec());
        Ok(())
    }

    fn recomputing(&mut self, _: AnyAlgorithm, why: &CacheProblem) -> Result<(), Error> {
        match (self.strict, why) {
            (false, _) => Ok(()),
            (true, CacheProblem::Unusable(e)) => Err(e.clone()),
            (true, CacheProblem::Absent) => Err(Error::TreeCache("no tree cache was given".into())),
            (true, CacheProblem::Unreadable(why)) => Err(Error::TreeCache(why.clone())),
        }
    }

    fn required(&self) -> bool {
        self.strict
    }
}

/// What became of a draft SP 800-230 key's tree cache while its key was
/// opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheOutcome {
    /// The key keeps no tree (another set), or no store was given.
    NotKept,
    /// The saved cache was used: nothing was recomputed.
    Loaded,
    /// The tree was recomputed and a fresh cache stored.
    Stored,
    /// The tree was recomputed, but storing the fresh cache failed (the
    /// store's words); the key is opened all the same.
    NotStored(String),
}

/// A private key opened by [`KeyOpener::open_signing_key`], with what
/// became of its tree cache.
#[derive(Debug)]
pub struct OpenedKey {
    /// The key.
    pub key: AnySigningKey,
    /// What became of its tree cache.
    pub tree_cache: CacheOutcome,
}

/// The passphrase of an encrypted key file, asked for only when one is met.
pub type PassphraseSource<'a> = dyn FnMut() -> Result<Zeroizing<Vec<u8>>, Error> + 'a;

/// Opens key files: the set expected (required for raw keys, checked for
/// the others), where a passphrase comes from, where a draft SP 800-230
/// key's tree cache lives, and the threads and progress callback of a tree
/// recomputation.
pub struct KeyOpener<'a> {
    expected: Option<AnyAlgorithm>,
    passphrase: Option<Box<PassphraseSource<'a>>>,
    cache: Option<&'a mut dyn TreeCacheStore>,
    threads: usize,
    progress: Option<&'a (dyn Fn(usize, usize) + Sync)>,
    stop: Option<&'a AtomicBool>,
    check_root: bool,
}

impl<'a> KeyOpener<'a> {
    /// An opener for keys of `expected` (any set if `None`): no passphrase,
    /// no tree cache store, one thread, PK.root checked.
    pub fn new(expected: Option<AnyAlgorithm>) -> Self {
        KeyOpener {
            expected,
            passphrase: None,
            cache: None,
            threads: 1,
            progress: None,
            stop: None,
            check_root: true,
        }
    }

    /// Asks `source` for the passphrase of an encrypted file (only then).
    pub fn with_passphrase(
        mut self,
        source: impl FnMut() -> Result<Zeroizing<Vec<u8>>, Error> + 'a,
    ) -> Self {
        self.passphrase = Some(Box::new(source));
        self
    }

    /// Loads and stores a draft SP 800-230 key's tree cache in `store`.
    pub fn with_tree_cache(mut self, store: &'a mut dyn TreeCacheStore) -> Self {
        self.cache = Some(store);
        self
    }

    /// Recomputes a tree on up to `threads` threads (0 or 1: the caller's).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Calls `progress(done, total)` while a tree is recomputed.
    pub fn with_progress(mut self, progress: &'a (dyn Fn(usize, usize) + Sync)) -> Self {
        self.progress = Some(progress);
        self
    }

    /// Lets another thread stop a tree recomputation (a binding watching
    /// for Ctrl-C): once `stop` is set, a draft SP 800-230 key leaves its
    /// tree within a fraction of a second with [`Error::Cancelled`].
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Does not recompute PK.root of a private key (which costs about one
    /// key generation), for a caller that checks it later or trusts the
    /// bytes; a draft SP 800-230 key still loads its cache, whose own
    /// checks stand.
    pub fn trusting_root(mut self) -> Self {
        self.check_root = false;
        self
    }

    /// The expected set, when it is one whose keys are raw bytes only
    /// (round 3.1, SPHINCS-256): no file format, so every file is raw.
    fn raw_only(&self) -> Option<AnyAlgorithm> {
        self.expected.filter(|a| a.slh_dsa().is_none())
    }

    /// Opens a private key file for signing: PK.root checked (unless
    /// [`KeyOpener::trusting_root`]); a draft SP 800-230 key from its
    /// saved tree cache when the store has a usable one, else its tree is
    /// recomputed and a fresh cache stored (a failure to store is told in
    /// [`OpenedKey::tree_cache`], not an error). A cache that the key's own
    /// nodes contradict is [`Error::KeyMismatch`]: the key is damaged.
    pub fn open_signing_key(&mut self, bytes: &[u8]) -> Result<OpenedKey, OpenError> {
        if self.raw_only().is_some() {
            return self.open_raw_signing_key(bytes);
        }
        let kind = KeyFileKind::of(bytes);
        let opened = match kind {
            KeyFileKind::Unknown if self.expected.is_some() && no_pem(bytes) => {
                return Err(self.not_der_nor_raw(bytes, true));
            }
            KeyFileKind::Private | KeyFileKind::Unknown => self.plain(self.pkcs8(bytes)?)?,
            KeyFileKind::EncryptedPrivate => {
                let pass = self.passphrase()?;
                let der = encrypted::decrypt_private_key(bytes, &pass)?;
                self.plain(self.pkcs8(&der)?)?
            }
            KeyFileKind::EncryptedLimited => {
                let pass = self.passphrase()?;
                let plain = limited::decrypt_limited_key(bytes, &pass)?;
                // Checked before the tree is loaded or recomputed.
                self.check_set(plain.algorithm.into())?;
                self.one_tree(plain.algorithm, &plain.secret)?
            }
            KeyFileKind::Public | KeyFileKind::Certificate => {
                return Err(OpenError::NotPrivate(kind))
            }
            KeyFileKind::Raw => return self.open_raw_signing_key(bytes),
        };
        self.check_set(opened.key.algorithm())?;
        Ok(opened)
    }

    /// [`KeyOpener::open_signing_key`] for bytes known to be a raw secret
    /// key of the expected set (which must be given).
    pub fn open_raw_signing_key(&mut self, bytes: &[u8]) -> Result<OpenedKey, OpenError> {
        let alg = self.raw_set(bytes.len(), true)?;
        if self.cache.as_ref().is_some_and(|s| s.required()) && !alg.is_limited() {
            return Err(no_tree_cache(alg).into());
        }
        match alg {
            AnyAlgorithm::SlhDsa(a) if a.is_sp800_230() => self.one_tree(a, bytes),
            _ => {
                let key = match self.check_root {
                    true => AnySigningKey::from_bytes(alg, bytes)?,
                    false => AnySigningKey::from_bytes_unchecked(alg, bytes)?,
                };
                self.plain(key)
            }
        }
    }

    /// Opens a key file for verifying: a public key, a certificate's
    /// subject key, or the public half of a private key (PK.root
    /// unchecked: nothing is signed with it).
    pub fn open_verifying_key(&mut self, bytes: &[u8]) -> Result<AnyVerifyingKey, OpenError> {
        let kind = match self.raw_only() {
            Some(_) => KeyFileKind::Raw,
            None => KeyFileKind::of(bytes),
        };
        let key = match kind {
            KeyFileKind::Public => AnyVerifyingKey::from_spki(bytes)?,
            KeyFileKind::Unknown if self.expected.is_some() && no_pem(bytes) => {
                return Err(self.not_der_nor_raw(bytes, false));
            }
            KeyFileKind::Unknown => return Err(not_a_public_key(bytes)),
            KeyFileKind::Certificate => certificate_key(bytes)?,
            KeyFileKind::Private => unchecked_pkcs8(bytes)?,
            KeyFileKind::EncryptedPrivate => {
                let pass = self.passphrase()?;
                unchecked_pkcs8(&encrypted::decrypt_private_key(bytes, &pass)?)?
            }
            KeyFileKind::EncryptedLimited => {
                let pass = self.passphrase()?;
                let plain = limited::decrypt_limited_key(bytes, &pass)?;
                AnySigningKey::from_bytes_unchecked(plain.algorithm.into(), &plain.secret)?
                    .verifying_key()
            }
            KeyFileKind::Raw => {
                let alg = self.raw_set(bytes.len(), false)?;
                match bytes.len() == alg.secret_key_len() {
                    true => AnySigningKey::from_bytes_unchecked(alg, bytes)?.verifying_key(),
                    false => AnyVerifyingKey::from_bytes(alg, bytes)?,
                }
            }
        };
        self.check_set(key.algorithm())?;
        Ok(key)
    }

    /// The public half of any key file, with PK.root of a private key
    /// checked (and a draft SP 800-230 key's tree loaded or recomputed), so
    /// that what a caller writes out is the key's real public key.
    pub fn open_public_half(&mut self, bytes: &[u8]) -> Result<AnyVerifyingKey, OpenError> {
        let public_len = self.expected.map(AnyAlgorithm::public_key_len);
        match KeyFileKind::of(bytes) {
            _ if self.raw_only().is_some() && public_len == Some(bytes.len()) => {
                self.open_verifying_key(bytes)
            }
            _ if self.raw_only().is_some() => {
                self.open_signing_key(bytes).map(|o| o.key.verifying_key())
            }
            KeyFileKind::Public | KeyFileKind::Certificate => self.open_verifying_key(bytes),
            // A PEM block of another kind (a certificate request, a CMS
            // message): the error names every kind of file read here.
            KeyFileKind::Unknown if !no_pem(bytes) => Err(not_a_public_key(bytes)),
            KeyFileKind::Raw if public_len == Some(bytes.len()) => self.open_verifying_key(bytes),
            _ => self.open_signing_key(bytes).map(|o| o.key.verifying_key()),
        }
    }

    /// A PKCS#8 private key, PK.root checked unless trusted.
    fn pkcs8(&self, der: &[u8]) -> Result<AnySigningKey, OpenError> {
        Ok(match self.check_root {
            true => AnySigningKey::from_pkcs8(der)?,
            false => AnySigningKey::from_pkcs8_unchecked(der)?,
        })
    }

    /// A key without a tree cache of its own.
    fn plain(&self, key: AnySigningKey) -> Result<OpenedKey, OpenError> {
        Ok(OpenedKey {
            key,
            tree_cache: CacheOutcome::NotKept,
        })
    }

    /// The passphrase, from the source given.
    fn passphrase(&mut self) -> Result<Zeroizing<Vec<u8>>, OpenError> {
        match self.passphrase.as_mut() {
            Some(source) => source().map_err(OpenError::Key),
            None => Err(OpenError::NeedsPassphrase),
        }
    }

    /// A draft SP 800-230 key from its raw secret key: from the store's
    /// cache when the core accepts it, else recomputed (and stored).
    fn one_tree(&mut self, alg: Algorithm, secret: &[u8]) -> Result<OpenedKey, OpenError> {
        let any = AnyAlgorithm::SlhDsa(alg);
        let none = |_: usize, _: usize| {};
        let progress = self.progress.unwrap_or(&none);
        let never = AtomicBool::new(false);
        let stop = self.stop.unwrap_or(&never);
        let threads = self.threads;
        let recompute = || AnySigningKey::from_bytes_until(any, secret, threads, progress, stop);
        let Some(store) = self.cache.as_deref_mut() else {
            let key = match self.check_root {
                true => recompute()?,
                false => AnySigningKey::from_bytes_unchecked(any, secret)?,
            };
            return self.plain(key);
        };
        let problem = match store.load() {
            Ok(Some(cache)) => {
                let mut key = AnySigningKey::from_bytes_unchecked(any, secret)?;
                match key.load_tree_cache(&cache) {
                    Ok(()) => {
                        return Ok(OpenedKey {
                            key,
                            tree_cache: CacheOutcome::Loaded,
                        })
                    }
                    // The cache is the public key's, and SK.seed does not
                    // give its nodes: the key is damaged; recomputing would
                    // come to the same answer minutes later.
                    Err(e @ Error::KeyMismatch) => return Err(e.into()),
                    Err(e) => CacheProblem::Unusable(e),
                }
            }
            Ok(None) => CacheProblem::Absent,
            Err(why) => CacheProblem::Unreadable(why),
        };
        store.recomputing(any, &problem)?;
        let key = recompute()?;
        let tree_cache = match key.tree_cache() {
            Some(fresh) => match store.store(&fresh) {
                Ok(()) => CacheOutcome::Stored,
                Err(why) => CacheOutcome::NotStored(why),
            },
            None => CacheOutcome::NotKept,
        };
        Ok(OpenedKey { key, tree_cache })
    }

    /// The set of a raw key of `len` bytes: it must be named, and the
    /// length must fit it.
    fn raw_set(&self, len: usize, secret_only: bool) -> Result<AnyAlgorithm, OpenError> {
        let Some(alg) = self.expected else {
            return Err(OpenError::RawNeedsSet {
                len,
                fits: is_raw_len(len),
            });
        };
        match raw_len_problem(alg, len, secret_only) {
            Some(_) => Err(OpenError::RawLength {
                algorithm: alg,
                len,
                secret_only,
            }),
            None => Ok(alg),
        }
    }

    /// The error for bytes that start as DER does but parse as no DER key,
    /// with a set named: both readings are told.
    fn not_der_nor_raw(&self, bytes: &[u8], secret_only: bool) -> OpenError {
        let der = match secret_only {
            true => DynSigningKey::from_pkcs8_unchecked(bytes).err(),
            false => DynVerifyingKey::from_spki(bytes).err(),
        };
        let raw = self
            .expected
            .and_then(|a| raw_len_problem(a, bytes.len(), secret_only))
            .unwrap_or_else(|| "not a raw key".into());
        OpenError::NotDerNorRaw { der, raw }
    }

    /// Fails if a set was named and the key is of another.
    fn check_set(&self, found: AnyAlgorithm) -> Result<(), OpenError> {
        match self.expected {
            Some(expected) if expected != found => Err(OpenError::WrongSet { found, expected }),
            _ => Ok(()),
        }
    }
}

/// Whether `bytes` are no PEM block.
fn no_pem(bytes: &[u8]) -> bool {
    encoding::pem_label(bytes).is_none()
}

/// The public half of a PKCS#8 private key, PK.root unchecked.
fn unchecked_pkcs8(der: &[u8]) -> Result<AnyVerifyingKey, Error> {
    AnySigningKey::from_pkcs8_unchecked(der).map(|k| k.verifying_key())
}

/// The error for a file read as a public key that is none of the files
/// read as one.
fn not_a_public_key(bytes: &[u8]) -> OpenError {
    match encoding::pem_label(bytes) {
        Some(label) => OpenError::NotPublic {
            label: Some(label.into()),
            spki: None,
        },
        None => OpenError::NotPublic {
            label: None,
            spki: DynVerifyingKey::from_spki(bytes).err(),
        },
    }
}

/// The subject public key of an X.509 certificate (as `openssl pkeyutl
/// -certin` takes it), with the mode of its OID.
#[cfg(feature = "pki")]
fn certificate_key(bytes: &[u8]) -> Result<AnyVerifyingKey, OpenError> {
    AnyVerifyingKey::from_certificate(bytes).map_err(OpenError::Certificate)
}

#[cfg(not(feature = "pki"))]
fn certificate_key(bytes: &[u8]) -> Result<AnyVerifyingKey, OpenError> {
    Err(not_a_public_key(bytes))
}

#[cfg(test)]
#[path = "open_tests.rs"]
mod tests;
