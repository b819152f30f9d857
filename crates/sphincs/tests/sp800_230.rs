//! The six limited-signature sets of draft SP 800-230 (ipd): our own
//! known-answer file (`tests/data/sp800-230-kat.json.gz`: fixed seeds, the
//! public key, a deterministic signature and its SHA-256), made by
//! `generate_kat` below and cross-checked against the PyPI `slh-dsa`
//! package (`scripts/sp800-230-crosscheck`). Every set is verify-tested
//! here; a full keygen and sign (a 2^21–2^22-leaf tree, 2^24–2^25-leaf FORS
//! trees) takes minutes per set, so those tests are #[ignore]d, run with
//! `cargo test --release -p sphincs --test sp800_230 -- --ignored`.

use std::io::Read;

use sha2::{Digest, Sha256};
use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey, Error, Randomness, SignOptions};

const KAT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/sp800-230-kat.json.gz"
);
const MESSAGE: &[u8] = b"SP 800-230 known-answer message";
const CONTEXT: &[u8] = b"sphincs kat";

/// The fixed seeds of a set: SK.seed = 0x01.., SK.prf = 0x02.., PK.seed = 0x03.. (n bytes each).
fn seeds(alg: Algorithm) -> [Vec<u8>; 3] {
    let n = alg.params().n;
    [vec![1; n], vec![2; n], vec![3; n]]
}

fn opts() -> SignOptions<'static> {
    SignOptions {
        context: CONTEXT,
        randomness: Randomness::Deterministic,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ..Default::default()
    }
}

struct Entry {
    alg: Algorithm,
    pk: Vec<u8>,
    sig: Vec<u8>,
    sig_sha256: Vec<u8>,
}

fn load() -> Vec<Entry> {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(KAT).expect("KAT file"))
        .read_to_string(&mut text)
        .expect("gzip");
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    v.as_array()
        .expect("array")
        .iter()
        .map(|e| {
            let hex = |k: &str| hex::decode(e[k].as_str().expect(k)).expect(k);
            Entry {
                alg: e["algorithm"].as_str().unwrap().parse().unwrap(),
                pk: hex("pk"),
                sig: hex("sig"),
                sig_sha256: hex("sig_sha256"),
            }
        })
        .collect()
}

/// Every set's signature in the file verifies, its hash and length are as
/// recorded, and damaged copies (a bit of R, of the FORS part, of the WOTS+
/// part, of the authentication path; a short or long signature; another
/// message or context) are refused.
#[test]
fn kat_signatures_verify_and_tampering_fails() {
    let entries = load();
    // The file holds the sets generate_kat has finished (SHA2 first); each
    // set at most once, and every one present is checked below.
    assert!(!entries.is_empty());
    for alg in Algorithm::SP800_230 {
        let count = entries.iter().filter(|e| e.alg == alg).count();
        assert!(count <= 1, "{alg}: one entry per set");
        if count == 0 {
            eprintln!("{alg}: not in the KAT file yet (run generate_kat)");
        }
    }
    for e in &entries {
        let alg = e.alg;
        assert_eq!(e.sig.len(), alg.signature_len(), "{alg}");
        assert_eq!(
            Sha256::digest(&e.sig).as_slice(),
            &e.sig_sha256[..],
            "{alg}"
        );
        let vk = DynVerifyingKey::from_bytes(alg, &e.pk).unwrap();
        vk.verify(MESSAGE, &e.sig, CONTEXT, None)
            .unwrap_or_else(|err| panic!("{alg}: {err}"));
        let p = alg.params();
        let fors_end = p.n + p.fors_sig_bytes();
        let wots_end = fors_end + p.wots_len() * p.n;
        for at in [
            0,
            p.n + 3,
            fors_end - 1,
            fors_end + 5,
            wots_end + 1,
            e.sig.len() - 1,
        ] {
            let mut bad = e.sig.clone();
            bad[at] ^= 0x10;
            assert_eq!(
                vk.verify(MESSAGE, &bad, CONTEXT, None),
                Err(Error::InvalidSignature),
                "{alg} byte {at}"
            );
        }
        assert!(matches!(
            vk.verify(MESSAGE, &e.sig[1..], CONTEXT, None),
            Err(Error::InvalidSignatureLength { .. })
        ));
        let mut long = e.sig.clone();
        long.push(0);
        assert!(vk.verify(MESSAGE, &long, CONTEXT, None).is_err());
        assert!(vk
            .verify(b"another message", &e.sig, CONTEXT, None)
            .is_err());
        assert!(vk.verify(MESSAGE, &e.sig, b"", None).is_err());
        assert!(vk.verify(MESSAGE, &e.sig, &[0; 256], None).is_err());
    }
}

/// No OID exists for these sets: every encoding to SPKI, PKCS#8 or PEM is
/// refused with an error that says so, and raw keys of a wrong length are refused.
#[test]
fn no_oid_and_bad_keys() {
    for e in load() {
        let vk = DynVerifyingKey::from_bytes(e.alg, &e.pk).unwrap();
        let err = vk.to_spki_der().unwrap_err().to_string();
        assert!(
            err.contains("SP 800-230") && err.contains("no OID"),
            "{err}"
        );
        assert!(vk.to_spki_pem().is_err());
        assert!(DynVerifyingKey::from_bytes(e.alg, &e.pk[1..]).is_err());
        assert!(DynSigningKey::from_bytes_unchecked(e.alg, &e.pk).is_err());
        assert!(e.alg.oid().is_none() && e.alg.hash_oid().is_none());
    }
}

/// A key generation stopped from another thread (a binding's Ctrl-C) ends
/// within a second or two with `Error::Cancelled`, on one thread and on
/// two, instead of building its whole tree (a minute or more); a flag set
/// before the call stops it before any work. The progress callback shows
/// that the build had started and that it had not finished.
#[test]
fn keygen_stops_when_asked() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::{Duration, Instant};
    let alg = Algorithm::Sha2_128_24;
    for threads in [1, 2] {
        let stop = AtomicBool::new(false);
        let done = AtomicUsize::new(0);
        let total = AtomicUsize::new(0);
        let progress = |d: usize, t: usize| {
            done.fetch_max(d, Ordering::Relaxed);
            total.store(t, Ordering::Relaxed);
        };
        let (result, stopped_at) = std::thread::scope(|s| {
            let run = s.spawn(|| DynSigningKey::generate_until(alg, threads, &progress, &stop));
            std::thread::sleep(Duration::from_millis(500));
            stop.store(true, Ordering::Relaxed);
            let at = Instant::now();
            (run.join().unwrap(), at)
        });
        let waited = stopped_at.elapsed();
        assert!(matches!(result, Err(Error::Cancelled)), "threads {threads}");
        assert!(
            waited < Duration::from_secs(3),
            "threads {threads}: {waited:?}"
        );
        let (done, total) = (done.into_inner(), total.into_inner());
        assert!(
            done > 0 && done < total,
            "threads {threads}: {done} of {total}"
        );
    }
    let set = AtomicBool::new(true);
    let [s, p, k] = seeds(alg);
    let at = Instant::now();
    let r = DynSigningKey::from_seeds_until(alg, [&s, &p, &k], 1, &|_, _| (), &set);
    assert!(matches!(r, Err(Error::Cancelled)));
    let r = DynSigningKey::from_bytes_until(alg, &[0u8; 64], 1, &|_, _| (), &set);
    assert!(matches!(r, Err(Error::Cancelled)));
    assert!(at.elapsed() < Duration::from_secs(1), "{:?}", at.elapsed());
    // A set without the one tree takes milliseconds and is not stopped.
    assert!(DynSigningKey::generate_until(Algorithm::Shake128f, 1, &|_, _| (), &set).is_ok());
}

/// The tree cache: a key made from the KAT seeds keeps one; the cache
/// round-trips; a truncated, corrupted, foreign or wrong-set cache is
/// refused with a reason; a key without a cache still signs (recomputing
/// the tree) the same signature. Slow: one full keygen of SHAKE-128-24.
#[test]
#[ignore = "a 2^22-leaf keygen and 2^24-leaf FORS signing: minutes"]
fn tree_cache_is_checked_and_optional() {
    let alg = Algorithm::Shake128_24;
    let [s, p, k] = seeds(alg);
    let key = DynSigningKey::from_seeds_with_threads(alg, &s, &p, &k, opts().threads).unwrap();
    let cache = key.tree_cache().expect("a one-tree set keeps its cache");
    assert!(cache.len() <= 1 << 20, "cache {} bytes", cache.len());
    let kat = load().into_iter().find(|e| e.alg == alg).unwrap();
    assert_eq!(key.verifying_key().to_bytes(), kat.pk);

    let sk = key.to_bytes();
    let mut loaded = DynSigningKey::from_bytes_unchecked(alg, &sk).unwrap();
    loaded.load_tree_cache(&cache).unwrap();
    assert_eq!(loaded.sign(MESSAGE, &opts()).unwrap(), kat.sig);

    let mut damaged = cache.clone();
    damaged[100] ^= 1;
    let mut foreign_key = sk.to_vec();
    foreign_key[2 * 16] ^= 1; // PK.seed
    let foreign = DynSigningKey::from_bytes_unchecked(alg, &foreign_key).unwrap();
    for (bytes, why) in [
        (&cache[..cache.len() - 1], "truncated"),
        (&damaged[..], "checksum"),
        (&b"not a cache"[..], "magic"),
    ] {
        let mut k = DynSigningKey::from_bytes_unchecked(alg, &sk).unwrap();
        let err = k.load_tree_cache(bytes).unwrap_err().to_string();
        assert!(err.contains("tree cache"), "{why}: {err}");
    }
    let mut f = foreign;
    assert!(f
        .load_tree_cache(&cache)
        .unwrap_err()
        .to_string()
        .contains("another key"));
    let mut wrong_set = DynSigningKey::from_bytes_unchecked(Algorithm::Sha2_128_24, &sk).unwrap();
    assert!(wrong_set.load_tree_cache(&cache).is_err());

    // Without a cache the key recomputes its tree and signs the same.
    let bare = DynSigningKey::from_bytes_unchecked(alg, &sk).unwrap();
    assert!(bare.tree_cache().is_none());
    assert_eq!(bare.sign(MESSAGE, &opts()).unwrap(), kat.sig);
}

/// Regenerates every entry from the fixed seeds and compares it with the
/// file (or, with SP800_230_KAT_WRITE=1, writes the file; with
/// SP800_230_KAT_WRITE=missing, keeps the file's entries and adds the sets it
/// lacks). Slow: six full keygens and signatures.
#[test]
#[ignore = "six full keygens and signatures of 2^24-2^25-leaf FORS trees: many minutes"]
fn generate_kat() {
    let only_missing = std::env::var("SP800_230_KAT_WRITE").is_ok_and(|v| v == "missing");
    let mut out: Vec<serde_json::Value> = Vec::new();
    if only_missing {
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(KAT).expect("KAT file"))
            .read_to_string(&mut text)
            .expect("gzip");
        out = serde_json::from_str(&text).expect("JSON");
    }
    // SHA2 first: the quicker family on SHA-NI machines.
    let mut sets = Algorithm::SP800_230;
    sets.sort_by_key(|a| (a.is_shake(), a.params().n));
    for alg in sets {
        if out.iter().any(|e| e["algorithm"] == alg.name()) {
            continue;
        }
        let [s, p, k] = seeds(alg);
        let key = DynSigningKey::from_seeds_with_threads(alg, &s, &p, &k, opts().threads).unwrap();
        let sig = key.sign(MESSAGE, &opts()).unwrap();
        let pk = key.verifying_key().to_bytes();
        eprintln!("{alg}: done");
        out.push(serde_json::json!({
            "algorithm": alg.name(),
            "sk_seed": hex::encode(&s), "sk_prf": hex::encode(&p), "pk_seed": hex::encode(&k),
            "message": hex::encode(MESSAGE), "context": hex::encode(CONTEXT),
            "deterministic": true,
            "pk": hex::encode(&pk),
            "sig": hex::encode(&sig),
            "sig_sha256": hex::encode(Sha256::digest(&sig)),
        }));
        if std::env::var_os("SP800_230_KAT_WRITE").is_some() {
            // Written after every set, so a long run keeps what it finished.
            let text = serde_json::to_string_pretty(&out).unwrap();
            let f = std::fs::File::create(KAT).unwrap();
            let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::best());
            std::io::Write::write_all(&mut gz, text.as_bytes()).unwrap();
            gz.finish().unwrap();
        }
    }
    if std::env::var_os("SP800_230_KAT_WRITE").is_none() {
        for fresh in &out {
            let e = load()
                .into_iter()
                .find(|e| e.alg.name() == fresh["algorithm"].as_str().unwrap())
                .expect("entry");
            assert_eq!(
                hex::encode(&e.pk),
                fresh["pk"].as_str().unwrap(),
                "{}",
                e.alg
            );
            assert_eq!(
                hex::encode(&e.sig),
                fresh["sig"].as_str().unwrap(),
                "{}",
                e.alg
            );
        }
    }
}
