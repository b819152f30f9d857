//! Keys made from fixed seeds and the checks the key and PKI tests share.

use sphincs::{Algorithm, DynSigningKey, KeyMode};

/// The key of `alg` whose three seeds are `seed`, `seed + 1` and `seed + 2`
/// repeated, in HashSLH-DSA mode if `hashed`: the same key on every run, so
/// a test can make it again.
pub fn seeded_key(alg: Algorithm, seed: u8, hashed: bool) -> DynSigningKey {
    let n = alg.params().n;
    let k = DynSigningKey::from_seeds(alg, &vec![seed; n], &vec![seed + 1; n], &vec![seed + 2; n])
        .unwrap();
    if hashed {
        k.with_mode(KeyMode::hash_slh_dsa(alg)).unwrap()
    } else {
        k
    }
}

/// Every position of `needle` in `hay`.
pub fn find_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    hay.windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect()
}

/// Asserts that `text` contains each of `needles`, showing `text` if not.
pub fn assert_has_all(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "want {needle:?} in {text}");
    }
}
