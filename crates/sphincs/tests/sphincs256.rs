//! SPHINCS-256 against the SUPERCOP reference's known answers (11 cases, see
//! `../shared/vectors/sphincs256/README.md`; copied to tests/data/sphincs256):
//! public keys and full signatures byte for byte on every hash backend this
//! CPU has and 1–3 signing threads, the reference's verification outcomes
//! for each mutation, and bad input rejected without a panic.

mod common;

use serde_json::Value;
use sha2::{Digest, Sha256};
use sphincs::sphincs256::{params, Sphincs256SigningKey, Sphincs256VerifyingKey};
use sphincs::{with_backend, Backend, Error};

fn kat() -> Value {
    common::data_json_gz("sphincs256/sphincs256_kat.json.gz")
}

fn hex_field(v: &Value, key: &str) -> Vec<u8> {
    hex::decode(v[key].as_str().unwrap_or_else(|| panic!("field {key}"))).expect("hex")
}

fn sha256_hex(b: &[u8]) -> String {
    hex::encode(Sha256::digest(b))
}

#[test]
fn known_answers_on_every_backend_and_thread_count() {
    let kat = kat();
    let cases = kat["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 11);
    for backend in Backend::available() {
        with_backend(backend, || {
            for (n, case) in cases.iter().enumerate() {
                let id = case["id"].as_u64().unwrap();
                let sk = Sphincs256SigningKey::from_bytes(&hex_field(case, "sk")).unwrap();
                assert_eq!(
                    sk.verifying_key().to_bytes(),
                    hex_field(case, "pk"),
                    "{backend} case {id}: public key"
                );
                let msg = hex_field(case, "msg");
                let threads = 1 + n % 3;
                let sig = sk.sign_with_threads(&msg, threads);
                assert_eq!(sig.len(), params::SIG_BYTES);
                assert_eq!(
                    sha256_hex(&sig),
                    case["sig_sha256"].as_str().unwrap(),
                    "{backend} case {id} threads {threads}: signature"
                );
                if case.get("sig").is_some() {
                    assert!(sig == hex_field(case, "sig"), "{backend} case {id}");
                }
                let index = u64::from_le_bytes(sig[32..40].try_into().unwrap());
                assert_eq!(index, case["leafidx"].as_u64().unwrap(), "case {id}");
                let vk = Sphincs256VerifyingKey::from_bytes(&hex_field(case, "pk")).unwrap();
                vk.verify(&msg, &sig).expect("verifies");
                let sm = sk.sign_attached(&msg, 1);
                assert_eq!(&sm[..params::SIG_BYTES], &sig[..]);
                assert_eq!(vk.open(&sm).unwrap(), &msg[..]);
            }
        })
        .unwrap();
    }
}

#[test]
fn signatures_identical_for_any_thread_count() {
    let kat = kat();
    let case = &kat["cases"][4];
    let sk = Sphincs256SigningKey::from_bytes(&hex_field(case, "sk")).unwrap();
    let msg = hex_field(case, "msg");
    let one = sk.sign_with_threads(&msg, 1);
    for threads in [0, 2, 3, 4, 7, 64] {
        assert!(one == sk.sign_with_threads(&msg, threads), "{threads}");
    }
}

/// Applies a mutation as the vector file words it.
fn mutate(what: &str, sig: &mut [u8], msg: &mut Vec<u8>, pk: &mut [u8]) {
    let what = what.split(" (").next().unwrap().trim();
    if what == "msg = msg || 0x00" {
        msg.push(0);
        return;
    }
    let (target, rest) = what.split_once('[').expect("indexed mutation");
    let (index, rest) = rest.split_once("] ^= 0x").expect("xor mutation");
    let index: usize = index.parse().unwrap();
    let mask = u8::from_str_radix(rest.trim(), 16).unwrap();
    match target {
        "sig" => sig[index] ^= mask,
        "pk" => pk[index] ^= mask,
        other => panic!("unknown mutation target {other}"),
    }
}

#[test]
fn verification_mutations_on_every_backend() {
    let kat = kat();
    let mutations = kat["verify_mutations"].as_array().unwrap();
    assert!(mutations.len() >= 9);
    let mut accepts = 0;
    for backend in Backend::available() {
        with_backend(backend, || {
            for m in mutations {
                let case = &kat["cases"][m["case"].as_u64().unwrap() as usize];
                let (mut sig, mut msg, mut pk) = (
                    hex_field(case, "sig"),
                    hex_field(case, "msg"),
                    hex_field(case, "pk"),
                );
                let what = m["mutation"].as_str().unwrap();
                mutate(what, &mut sig, &mut msg, &mut pk);
                let vk = Sphincs256VerifyingKey::from_bytes(&pk).unwrap();
                let got = vk.verify(&msg, &sig);
                match m["expected"].as_str().unwrap() {
                    "accept" => {
                        accepts += 1;
                        assert_eq!(got, Ok(()), "{backend}: {what}")
                    }
                    "reject" => assert_eq!(got, Err(Error::InvalidSignature), "{backend}: {what}"),
                    other => panic!("expected {other}"),
                }
            }
        })
        .unwrap();
    }
    assert!(accepts > 0, "the index-bits quirk case is in the file");
}

#[test]
fn every_single_bit_flip_of_the_first_bytes() {
    let kat = kat();
    let case = &kat["cases"][0];
    let (sig, msg) = (hex_field(case, "sig"), hex_field(case, "msg"));
    let vk = Sphincs256VerifyingKey::from_bytes(&hex_field(case, "pk")).unwrap();
    // R1, the index field and the first HORST node.
    for byte in 0..72 {
        for bit in 0..8 {
            let mut s = sig.clone();
            s[byte] ^= 1 << bit;
            let got = vk.verify(&msg, &s);
            // Bits 60..63 of the little-endian index: byte 39, high nibble.
            if byte == 39 && bit >= 4 {
                assert_eq!(got, Ok(()), "index bit {}", 56 + bit);
            } else {
                assert_eq!(got, Err(Error::InvalidSignature), "byte {byte} bit {bit}");
            }
        }
    }
}

#[test]
fn wrong_lengths_and_noise_are_errors() {
    let kat = kat();
    let case = &kat["cases"][1];
    let sk_bytes = hex_field(case, "sk");
    let pk_bytes = hex_field(case, "pk");
    for len in [0, 1, 1055, 1057, 1087, 1089, 4096] {
        if len != params::PK_BYTES {
            assert!(matches!(
                Sphincs256VerifyingKey::from_bytes(&vec![0; len]),
                Err(Error::InvalidLength { what: "public key", algorithm: "sphincs-256", expected: 1056, got }) if got == len
            ));
        }
        if len != params::SK_BYTES {
            assert!(matches!(
                Sphincs256SigningKey::from_bytes(&vec![0; len]),
                Err(Error::InvalidLength {
                    what: "secret key",
                    expected: 1088,
                    ..
                })
            ));
        }
    }
    let vk = Sphincs256VerifyingKey::from_bytes(&pk_bytes).unwrap();
    let sig = Sphincs256SigningKey::from_bytes(&sk_bytes)
        .unwrap()
        .sign(b"m");
    for len in [0, 1, 40, 40999, 41001, 82000] {
        let mut s = sig.clone();
        s.resize(len, 0);
        assert!(matches!(
            vk.verify(b"m", &s),
            Err(Error::InvalidLength {
                what: "signature",
                expected: 41000,
                ..
            })
        ));
    }
    assert!(matches!(
        vk.open(&sig[..100]),
        Err(Error::InvalidLength {
            what: "signed message",
            ..
        })
    ));
    // Noise: splitmix64 bytes as signatures, and as public keys.
    let mut rng = common::SplitMix64(7);
    let mut noise = |len: usize| rng.bytes(len);
    for _ in 0..8 {
        assert_eq!(vk.verify(b"m", &noise(41000)), Err(Error::InvalidSignature));
        let other = Sphincs256VerifyingKey::from_bytes(&noise(1056)).unwrap();
        assert_eq!(other.verify(b"m", &sig), Err(Error::InvalidSignature));
    }
    assert_eq!(vk.verify(b"m", &[0u8; 41000]), Err(Error::InvalidSignature));
    assert_eq!(
        vk.verify(b"m", &[0xffu8; 41000]),
        Err(Error::InvalidSignature)
    );
    vk.verify(b"m", &sig).unwrap();
}

#[test]
fn generated_keys_sign_and_verify() {
    let sk = Sphincs256SigningKey::generate().unwrap();
    let again = Sphincs256SigningKey::from_bytes(&sk.to_bytes()).unwrap();
    assert_eq!(sk.verifying_key(), again.verifying_key());
    let sig = sk.sign(b"hello");
    sk.verifying_key().verify(b"hello", &sig).unwrap();
    assert_eq!(
        sk.verifying_key().verify(b"hellO", &sig),
        Err(Error::InvalidSignature)
    );
}

/// G is SUPERCOP's crypto_stream_chacha12: RustCrypto's ChaCha12 RNG with a
/// 64-bit block counter and a 64-bit nonce (stream) gives the same bytes.
#[test]
fn stream_matches_rustcrypto_chacha12() {
    use chacha20::rand_core::{Rng, SeedableRng};
    use sphincs::hash::backend::chacha12::stream_portable;
    for (k, nonce) in [(0u8, 0u64), (1, 0), (0x5a, 0x0102030405060708)] {
        let key: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(k));
        let mut ours = vec![0u8; 64 * 9 + 13];
        stream_portable(&key, nonce, &mut ours);
        let mut rng = chacha20::ChaCha12Rng::from_seed(key);
        rng.set_stream(nonce);
        let mut theirs = vec![0u8; ours.len()];
        rng.fill_bytes(&mut theirs);
        assert_eq!(ours, theirs, "key byte {k} nonce {nonce:#x}");
    }
    // draft-strombergson-chacha-test-vectors, TC1 (256-bit all-zero key and IV), 12 rounds.
    let mut zero = [0u8; 64];
    stream_portable(&[0; 32], 0, &mut zero);
    assert_eq!(
        hex::encode(zero),
        "9bf49a6a0755f953811fce125f2683d50429c3bb49e074147e0089a52eae155f\
         0564f879d27ae3c02ce82834acfa8c793a629f2ca0de6919610be82f411326be"
    );
}
