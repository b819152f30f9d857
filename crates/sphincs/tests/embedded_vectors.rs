//! The fixed vectors of the embedded verifier (crates/embedded-verify):
//! a public key, message and signature per set, made here by this library
//! with deterministic signing from fixed seeds. This test remakes them and
//! checks that the checked-in files are exactly what the library gives (so
//! the Cortex-M4 example verifies our own output, not foreign bytes), that
//! they verify on the host, and that `sign_into` (the heap-free signing of
//! the no_std build) writes the same signature as `sign`.
//!
//! `SPHINCS_WRITE_EMBEDDED_VECTORS=1 cargo test --release -p sphincs --test
//! embedded_vectors` rewrites the files.

use std::path::PathBuf;

use sphincs::{
    Error, Instance, ParameterSet, Randomness, Sha2_128s, Sha2_192s, Shake128f, Shake256s,
    SignOptions, SigningKey, VerifyingKey,
};

const MESSAGE: &[u8] = b"firmware image v1.2.3, verified on a Cortex-M4 without std or a heap\n";

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../embedded-verify/vectors")
}

fn check<P: ParameterSet>(stem: &str) {
    let n = P::PARAMS.n;
    let seed = |b: u8| vec![b; n];
    let sk = SigningKey::<P>::from_seeds(&seed(0x11), &seed(0x22), &seed(0x33)).unwrap();
    let opts = SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    let sig = sk.sign(MESSAGE, &opts).unwrap();
    let mut into = vec![0u8; P::PARAMS.sig_bytes()];
    sk.sign_into(MESSAGE, &opts, &mut into).unwrap();
    assert_eq!(into, sig.as_bytes(), "sign_into differs from sign");
    let pk = sk.verifying_key().to_bytes();

    let files = [
        (format!("{stem}.pk"), pk.clone()),
        (format!("{stem}.sig"), sig.to_vec()),
        ("message.txt".to_string(), MESSAGE.to_vec()),
    ];
    if std::env::var_os("SPHINCS_WRITE_EMBEDDED_VECTORS").is_some() {
        for (name, bytes) in &files {
            std::fs::write(dir().join(name), bytes).unwrap();
        }
    }
    for (name, bytes) in &files {
        let on_disk = std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            on_disk == *bytes,
            "{name} is not what the library makes now"
        );
    }

    let vk = VerifyingKey::<P>::from_bytes(&pk).unwrap();
    assert_eq!(vk.verify(MESSAGE, sig.as_bytes(), b"", None), Ok(()));
    let mut tampered = sig.to_vec();
    let mid = tampered.len() / 2;
    tampered[mid] ^= 0x01;
    assert_eq!(
        vk.verify(MESSAGE, &tampered, b"", None),
        Err(Error::InvalidSignature)
    );
}

#[test]
fn sha2_128s_vector_is_ours() {
    check::<Sha2_128s>("sha2-128s");
}

#[test]
fn shake_128f_vector_is_ours() {
    check::<Shake128f>("shake-128f");
}

#[test]
fn sha2_192s_vector_is_ours() {
    check::<Sha2_192s>("sha2-192s");
}

#[test]
fn shake_256s_vector_is_ours() {
    check::<Shake256s>("shake-256s");
}

#[test]
fn sign_into_checks_the_buffer_length() {
    let sk = SigningKey::<Shake128f>::from_seeds(&[1; 16], &[2; 16], &[3; 16]).unwrap();
    let mut short = vec![0u8; Shake128f::PARAMS.sig_bytes() - 1];
    let opts = SignOptions {
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    assert!(matches!(
        sk.sign_into(b"m", &opts, &mut short),
        Err(Error::InvalidSignatureLength { expected, got, .. })
            if expected == Shake128f::PARAMS.sig_bytes() && got == expected - 1
    ));
}

#[test]
fn sign_into_wipes_the_buffer_on_error() {
    let sk = SigningKey::<Shake128f>::from_seeds(&[1; 16], &[2; 16], &[3; 16]).unwrap();
    let mut buf = vec![0xAAu8; Shake128f::PARAMS.sig_bytes()];
    let long = [0u8; 256];
    let opts = SignOptions {
        context: &long,
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    assert_eq!(
        sk.sign_into(b"m", &opts, &mut buf),
        Err(Error::ContextTooLong(256))
    );
    assert!(buf.iter().all(|&b| b == 0), "the buffer was not wiped");
}
