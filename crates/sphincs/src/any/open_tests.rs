//! The opener's unit tests: each kind of key file, each error, and the
//! tree cache's paths. A draft SP 800-230 tree takes minutes to compute,
//! so the paths that compute one are in one `#[ignore]`d test.

use super::*;
use crate::any::AnyAlgorithm;
use crate::params::Algorithm;

const FIPS: Algorithm = Algorithm::Shake128f;
const ONE_TREE: Algorithm = Algorithm::Sha2_128_24;

fn fips() -> AnyAlgorithm {
    AnyAlgorithm::SlhDsa(FIPS)
}

fn one_tree() -> AnyAlgorithm {
    AnyAlgorithm::SlhDsa(ONE_TREE)
}

fn key() -> AnySigningKey {
    AnySigningKey::from_seed(fips(), &[7; 48], 1).unwrap()
}

fn pass() -> Result<Zeroizing<Vec<u8>>, Error> {
    Ok(Zeroizing::new(b"pw".to_vec()))
}

/// Asserts that `file` opens to `vk`'s bytes (in the mode of the file's
/// OID) both for verifying and as a public half.
fn assert_public_half(opener: &mut KeyOpener<'_>, file: &[u8], vk: &AnyVerifyingKey) {
    assert_eq!(
        opener.open_verifying_key(file).unwrap().to_bytes(),
        vk.to_bytes()
    );
    assert_eq!(
        opener.open_public_half(file).unwrap().to_bytes(),
        vk.to_bytes()
    );
}

/// Asserts that `file` (a public key file of `kind`) opens as
/// [`assert_public_half`] says, and is refused for signing as not private.
fn assert_public_only(
    opener: &mut KeyOpener<'_>,
    file: &[u8],
    vk: &AnyVerifyingKey,
    kind: KeyFileKind,
) {
    assert_public_half(opener, file, vk);
    assert_eq!(
        opener.open_signing_key(file).unwrap_err(),
        OpenError::NotPrivate(kind)
    );
}

/// A raw key of `FIPS` whose first byte is 0x30, as one in 256 are.
fn raw_starting_with_0x30() -> Vec<u8> {
    (0u8..)
        .map(|i| AnySigningKey::from_seed(fips(), &[i; 48], 1).unwrap())
        .map(|k| k.to_bytes().to_vec())
        .find(|b| b[0] == 0x30)
        .unwrap()
}

#[test]
fn each_kind_of_key_file() {
    let sk = key();
    let vk = sk.verifying_key();
    let kind = KeyFileKind::of;
    assert_eq!(
        kind(sk.to_pkcs8_pem().unwrap().as_bytes()),
        KeyFileKind::Private
    );
    assert_eq!(kind(&sk.to_pkcs8_der().unwrap()), KeyFileKind::Private);
    assert_eq!(
        kind(vk.to_spki_pem().unwrap().as_bytes()),
        KeyFileKind::Public
    );
    assert_eq!(kind(&vk.to_spki_der().unwrap()), KeyFileKind::Public);
    let locked = sk.to_encrypted_pkcs8_der(b"pw").unwrap();
    assert_eq!(kind(&locked), KeyFileKind::EncryptedPrivate);
    let limited = crate::encoding::limited::encrypt_limited_key(ONE_TREE, &[9; 64], b"pw").unwrap();
    assert_eq!(kind(limited.as_bytes()), KeyFileKind::EncryptedLimited);
    assert_eq!(kind(&sk.to_bytes()), KeyFileKind::Raw);
    assert_eq!(kind(&vk.to_bytes()), KeyFileKind::Raw);
    // Bytes of a raw key's length that start as DER does stay raw.
    assert_eq!(kind(&raw_starting_with_0x30()), KeyFileKind::Raw);
    assert_eq!(kind(&[0x30; 70]), KeyFileKind::Unknown);
    assert_eq!(
        kind(b"-----BEGIN CERTIFICATE REQUEST-----\nAA==\n-----END CERTIFICATE REQUEST-----\n"),
        KeyFileKind::Unknown
    );
    #[cfg(feature = "pki")]
    {
        let name = crate::pki::cert::parse_name("CN=test").unwrap();
        let dyn_key = sk.as_slh_dsa().unwrap();
        let cert = crate::pki::cert::self_signed(dyn_key, &name, Default::default()).unwrap();
        for pem in [false, true] {
            let bytes = crate::pki::cert::encode_certificate(&cert, pem).unwrap();
            assert_eq!(kind(&bytes), KeyFileKind::Certificate);
            assert_public_only(
                &mut KeyOpener::new(None),
                &bytes,
                &vk,
                KeyFileKind::Certificate,
            );
        }
    }
    assert!(KeyFileKind::EncryptedLimited.is_private() && KeyFileKind::Raw.is_private());
    assert!(!KeyFileKind::Public.is_private() && !KeyFileKind::Certificate.is_private());
    assert!(KeyFileKind::EncryptedPrivate.is_encrypted() && !KeyFileKind::Private.is_encrypted());
}

#[test]
fn opens_every_form_of_a_private_key() {
    let sk = key();
    let vk = sk.verifying_key();
    let pem = sk.to_pkcs8_pem().unwrap();
    let locked = sk.to_encrypted_pkcs8_pem(b"pw").unwrap();
    let mut asked = 0;
    let mut opener = KeyOpener::new(Some(fips())).with_passphrase(|| {
        asked += 1;
        pass()
    });
    for file in [pem.as_bytes(), &sk.to_pkcs8_der().unwrap(), &sk.to_bytes()] {
        let opened = opener.open_signing_key(file).unwrap();
        assert_eq!(opened.key.verifying_key().to_bytes(), vk.to_bytes());
        assert_eq!(opened.tree_cache, CacheOutcome::NotKept);
        assert_public_half(&mut opener, file, &vk);
    }
    let opened = opener.open_signing_key(locked.as_bytes()).unwrap();
    assert_eq!(opened.key.verifying_key().to_bytes(), vk.to_bytes());
    let public = opener.open_verifying_key(locked.as_bytes()).unwrap();
    assert_eq!(public.to_bytes(), vk.to_bytes());
    drop(opener);
    assert_eq!(
        asked, 2,
        "asked once per encrypted file opened, never for the others"
    );
    // A public key, raw or SPKI, opens for verifying only.
    let mut opener = KeyOpener::new(Some(fips()));
    assert_eq!(opener.open_verifying_key(&vk.to_bytes()).unwrap(), vk);
    assert_eq!(opener.open_public_half(&vk.to_bytes()).unwrap(), vk);
    let spki = vk.to_spki_der().unwrap();
    assert_public_only(&mut opener, &spki, &vk, KeyFileKind::Public);
    // A raw key starting with 0x30 opens as raw.
    let raw = raw_starting_with_0x30();
    let opened = opener.open_signing_key(&raw).unwrap();
    assert_eq!(&opened.key.to_bytes()[..], &raw[..]);
}

#[test]
fn raw_only_families_read_every_file_as_raw() {
    let spx: AnyAlgorithm = "sphincs-shake-128f-simple".parse().unwrap();
    let sk = AnySigningKey::from_seed(spx, &[0x30; 48], 1).unwrap();
    let mut opener = KeyOpener::new(Some(spx));
    let opened = opener.open_signing_key(&sk.to_bytes()).unwrap();
    assert_eq!(opened.key.verifying_key(), sk.verifying_key());
    let vk = sk.verifying_key().to_bytes();
    assert_eq!(opener.open_public_half(&vk).unwrap(), sk.verifying_key());
    assert!(matches!(
        opener.open_signing_key(&vk).unwrap_err(),
        OpenError::RawLength {
            secret_only: true,
            ..
        }
    ));
}

#[test]
fn each_error_says_what_the_file_is() {
    let sk = key();
    let raw = sk.to_bytes();
    let mut anyset = KeyOpener::new(None);
    assert_eq!(
        anyset.open_signing_key(&raw).unwrap_err(),
        OpenError::RawNeedsSet {
            len: 64,
            fits: true
        }
    );
    let e = anyset.open_signing_key(&[1; 5]).unwrap_err();
    assert_eq!(
        e,
        OpenError::RawNeedsSet {
            len: 5,
            fits: false
        }
    );
    assert!(
        e.to_string()
            .contains("nor a raw key of any parameter set's length (5 bytes)"),
        "{e}"
    );
    let e = KeyOpener::new(Some(fips()))
        .open_signing_key(&raw[..63])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "is not a PEM or DER key, and as a raw SLH-DSA-SHAKE-128f secret key it is 63 bytes; expected 64"
    );
    assert!(matches!(
        Error::from(e),
        Error::InvalidKeyLength {
            got: 63,
            expected: 64,
            ..
        }
    ));
    // 0x30 and no DER key, with a set named: both readings.
    let e = KeyOpener::new(Some(fips()))
        .open_signing_key(&[0x30; 70])
        .unwrap_err();
    let OpenError::NotDerNorRaw {
        der: Some(_),
        raw: why,
    } = &e
    else {
        panic!("{e:?}")
    };
    assert!(why.contains("it is 70 bytes; expected 64"), "{why}");
    assert!(e.to_string().starts_with("is not a DER key ("), "{e}");
    let e = KeyOpener::new(Some(fips()))
        .open_verifying_key(&[0x30; 70])
        .unwrap_err();
    assert!(e.to_string().contains("expected 32 or 64"), "{e}");
    // Another set than the one named.
    let other = AnyAlgorithm::SlhDsa(Algorithm::Sha2_128f);
    let e = KeyOpener::new(Some(other)).open_signing_key(sk.to_pkcs8_pem().unwrap().as_bytes());
    assert_eq!(
        e.unwrap_err(),
        OpenError::WrongSet {
            found: fips(),
            expected: other
        }
    );
    // A raw key whose PK.root is not its seeds'.
    let mut bad = raw.to_vec();
    bad[63] ^= 1;
    assert_eq!(
        KeyOpener::new(Some(fips()))
            .open_signing_key(&bad)
            .unwrap_err(),
        OpenError::Key(Error::KeyMismatch)
    );
    // Unchecked, it opens (a caller that checks later).
    assert!(KeyOpener::new(Some(fips()))
        .trusting_root()
        .open_signing_key(&bad)
        .is_ok());
    // Encrypted: no source, a wrong passphrase, a source that fails.
    let locked = sk.to_encrypted_pkcs8_der(b"pw").unwrap();
    assert_eq!(
        anyset.open_signing_key(&locked).unwrap_err(),
        OpenError::NeedsPassphrase
    );
    let wrong = || Ok(Zeroizing::new(b"no".to_vec()));
    let mut opener = KeyOpener::new(None).with_passphrase(wrong);
    assert_eq!(
        opener.open_signing_key(&locked).unwrap_err(),
        OpenError::Key(Error::WrongPassphrase)
    );
    let failing = || Err(Error::Cancelled);
    let mut opener = KeyOpener::new(None).with_passphrase(failing);
    assert_eq!(
        opener.open_verifying_key(&locked).unwrap_err(),
        OpenError::Key(Error::Cancelled)
    );
    // Not a public key: another PEM block, or DER that is none.
    let csr = b"-----BEGIN CERTIFICATE REQUEST-----\nAA==\n-----END CERTIFICATE REQUEST-----\n";
    let e = anyset.open_verifying_key(csr).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("is a PEM \"CERTIFICATE REQUEST\"; expected a public key"),
        "{e}"
    );
    assert_eq!(anyset.open_public_half(csr).unwrap_err(), e);
    let e = anyset.open_verifying_key(&[0x30; 70]).unwrap_err();
    assert!(
        matches!(
            e,
            OpenError::NotPublic {
                label: None,
                spki: Some(_)
            }
        ),
        "{e:?}"
    );
    // No text names a front end's option.
    for e in [
        OpenError::RawNeedsSet {
            len: 64,
            fits: true,
        },
        OpenError::NeedsPassphrase,
    ] {
        assert!(!e.to_string().contains("-a "), "{e}");
        assert!(matches!(Error::from(e), Error::Encoding(_)));
    }
}

/// A store that records what it is told, and fails to store if asked to.
#[derive(Default)]
struct Recorder {
    given: Option<Vec<u8>>,
    unreadable: bool,
    refuse: bool,
    fail_store: bool,
    told: Vec<CacheProblem>,
    stored: Option<Vec<u8>>,
}

impl Recorder {
    /// A store holding `given` that refuses every recomputation, so a test
    /// that should need none fails fast instead of building a tree.
    fn refusing(given: Option<Vec<u8>>) -> Self {
        Recorder {
            given,
            refuse: true,
            ..Recorder::default()
        }
    }
}

impl TreeCacheStore for Recorder {
    fn load(&mut self) -> Result<Option<Vec<u8>>, String> {
        match self.unreadable {
            true => Err("cannot read it".into()),
            false => Ok(self.given.clone()),
        }
    }

    fn store(&mut self, cache: &[u8]) -> Result<(), String> {
        if self.fail_store {
            return Err("disk full".into());
        }
        self.stored = Some(cache.to_vec());
        Ok(())
    }

    fn recomputing(&mut self, _: AnyAlgorithm, why: &CacheProblem) -> Result<(), Error> {
        self.told.push(why.clone());
        match self.refuse {
            true => Err(Error::Cancelled),
            false => Ok(()),
        }
    }
}

#[test]
fn the_store_is_told_why_before_any_recomputation() {
    let sk = [9u8; 64];
    let cases = [
        (None, false, CacheProblem::Absent),
        (
            None,
            true,
            CacheProblem::Unreadable("cannot read it".into()),
        ),
    ];
    for (given, unreadable, why) in cases {
        let mut store = Recorder {
            unreadable,
            ..Recorder::refusing(given)
        };
        let mut opener = KeyOpener::new(Some(one_tree())).with_tree_cache(&mut store);
        // The hook's refusal stops the load before the minutes of work.
        assert_eq!(
            opener.open_signing_key(&sk).unwrap_err(),
            OpenError::Key(Error::Cancelled)
        );
        drop(opener);
        assert_eq!(store.told, [why]);
        assert_eq!(store.stored, None);
    }
    let mut store = Recorder::refusing(Some(vec![1; 100]));
    let mut opener = KeyOpener::new(Some(one_tree())).with_tree_cache(&mut store);
    assert!(opener.open_signing_key(&sk).is_err());
    drop(opener);
    assert!(
        matches!(
            store.told[..],
            [CacheProblem::Unusable(Error::TreeCache(_))]
        ),
        "{:?}",
        store.told
    );
}

#[test]
fn a_required_memory_cache_is_never_recomputed() {
    let sk = [9u8; 64];
    let mut store = MemoryTreeCache::required(vec![1; 100]);
    let e = KeyOpener::new(Some(one_tree()))
        .with_tree_cache(&mut store)
        .open_raw_signing_key(&sk);
    assert!(matches!(
        e.unwrap_err(),
        OpenError::Key(Error::TreeCache(_))
    ));
    assert_eq!(store.fresh(), None);
    // A set without a tree: refused, whatever the key bytes.
    let mut store = MemoryTreeCache::required(vec![1; 100]);
    let e = KeyOpener::new(Some(fips()))
        .with_tree_cache(&mut store)
        .open_raw_signing_key(&sk);
    assert!(matches!(
        Error::from(e.unwrap_err()),
        Error::Unsupported { .. }
    ));
    // Not required: a key without a tree ignores the store.
    let mut store = MemoryTreeCache::new(Some(vec![1; 100]));
    let raw = key().to_bytes();
    let opened = KeyOpener::new(Some(fips()))
        .with_tree_cache(&mut store)
        .open_signing_key(&raw);
    assert_eq!(opened.unwrap().tree_cache, CacheOutcome::NotKept);
}

#[test]
#[ignore = "two recomputations of a 2^22-leaf tree: minutes"]
fn tree_cache_absent_good_damaged_mismatching_and_unstorable() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let real = AnySigningKey::from_seed(one_tree(), &[9; 48], threads).unwrap();
    let raw = real.to_bytes();
    let good = real.tree_cache().unwrap();
    // Absent: recomputed, and the fresh cache stored.
    let mut store = Recorder::default();
    let mut opener = KeyOpener::new(Some(one_tree()))
        .with_threads(threads)
        .with_tree_cache(&mut store);
    let opened = opener.open_signing_key(&raw).unwrap();
    assert_eq!(opened.tree_cache, CacheOutcome::Stored);
    assert_eq!(opened.key.verifying_key(), real.verifying_key());
    drop(opener);
    assert_eq!(store.told, [CacheProblem::Absent]);
    assert_eq!(store.stored.as_deref(), Some(&good[..]));

    // Good: loaded, nothing recomputed.
    let mut store = Recorder::refusing(Some(good.clone()));
    let opened = KeyOpener::new(Some(one_tree()))
        .with_tree_cache(&mut store)
        .open_signing_key(&raw)
        .unwrap();
    assert_eq!(opened.tree_cache, CacheOutcome::Loaded);
    assert!(store.told.is_empty());

    // Mismatching: the cache is the public key's, SK.seed damaged.
    let mut bad_key = raw.to_vec();
    bad_key[0] ^= 1;
    let mut store = Recorder::refusing(Some(good.clone()));
    let e = KeyOpener::new(Some(one_tree()))
        .with_tree_cache(&mut store)
        .open_signing_key(&bad_key);
    assert_eq!(e.unwrap_err(), OpenError::Key(Error::KeyMismatch));

    // Damaged, and the store cannot keep the fresh one: recomputed, and
    // the key is opened all the same.
    let mut damaged = good.clone();
    *damaged.last_mut().unwrap() ^= 1;
    let mut store = Recorder {
        given: Some(damaged),
        fail_store: true,
        ..Recorder::default()
    };
    let mut opener = KeyOpener::new(Some(one_tree()))
        .with_threads(threads)
        .with_tree_cache(&mut store);
    let opened = opener.open_signing_key(&raw).unwrap();
    assert_eq!(
        opened.tree_cache,
        CacheOutcome::NotStored("disk full".into())
    );
    assert_eq!(opened.key.tree_cache().as_deref(), Some(&good[..]));
    drop(opener);
    assert!(matches!(
        store.told[..],
        [CacheProblem::Unusable(Error::TreeCache(_))]
    ));
}
