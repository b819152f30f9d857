//! OpenSSL 3.5's deterministic signatures (tests/data/openssl) are reproduced
//! byte for byte from the same keys, and verify, for all twelve sets.

use std::fs;
use std::path::PathBuf;

use sphincs::{Algorithm, DynSigningKey, Randomness, SignOptions};

fn read(parts: &[&str]) -> Vec<u8> {
    let mut path = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    path.push("tests/data/openssl");
    parts.iter().for_each(|p| path.push(p));
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn check(alg: Algorithm) {
    let message = read(&["message.txt"]);
    let context = read(&["context.txt"]);
    let sk = DynSigningKey::from_pkcs8(&read(&[alg.name(), "key.pem"])).unwrap();
    let vk = sk.verifying_key();
    for (file, ctx) in [("sig-ctx.bin", &context[..]), ("sig.bin", &[][..])] {
        let theirs = read(&[alg.name(), file]);
        vk.verify(&message, &theirs, ctx, None)
            .unwrap_or_else(|e| panic!("{alg} {file}: {e}"));
        // Signing is what takes time; the slow "s" sets reproduce one of the two.
        if alg.name().ends_with('s') && ctx.is_empty() {
            continue;
        }
        let opts = SignOptions {
            context: ctx,
            prehash: None,
            randomness: Randomness::Deterministic,
            ..Default::default()
        };
        let ours = sk.sign(&message, &opts).unwrap();
        assert!(
            ours == theirs,
            "{alg} {file}: our deterministic signature differs from OpenSSL's"
        );
    }
}

#[test]
fn reproduces_openssl_deterministic_signatures() {
    let (odd, even): (Vec<_>, Vec<_>) = Algorithm::ALL
        .iter()
        .enumerate()
        .partition(|(i, _)| i % 2 == 1);
    std::thread::scope(|s| {
        for half in [odd, even] {
            s.spawn(move || half.into_iter().for_each(|(_, alg)| check(*alg)));
        }
    });
}
