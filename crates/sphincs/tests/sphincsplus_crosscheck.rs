//! SPHINCS+ round 3.1 against PQClean (through `pqcrypto-sphincsplus`, its 12
//! "simple" SHA-2 and SHAKE sets) on random keys and messages: PQClean's
//! keys load here with the same public key (so PK.root agrees), and each
//! side verifies the other's signatures and rejects a tampered one.

use pqcrypto_traits::sign::{DetachedSignature, PublicKey, SecretKey, SignedMessage};
use sphincs::sphincsplus::{SpxAlgorithm, SpxSignOptions, SpxSigningKey, SpxVerifyingKey};

/// One set's PQClean functions, as byte-level closures.
struct Peer {
    name: &'static str,
    keypair: fn() -> (Vec<u8>, Vec<u8>),
    sign: fn(&[u8], &[u8]) -> Vec<u8>,
    verify: fn(&[u8], &[u8], &[u8]) -> bool,
    open: fn(&[u8], &[u8]) -> Option<Vec<u8>>,
}

macro_rules! peer {
    ($m:ident, $name:literal) => {
        Peer {
            name: $name,
            keypair: || {
                let (pk, sk) = pqcrypto_sphincsplus::$m::keypair();
                (pk.as_bytes().to_vec(), sk.as_bytes().to_vec())
            },
            sign: |msg, sk| {
                let sk = pqcrypto_sphincsplus::$m::SecretKey::from_bytes(sk).unwrap();
                pqcrypto_sphincsplus::$m::detached_sign(msg, &sk)
                    .as_bytes()
                    .to_vec()
            },
            verify: |msg, sig, pk| {
                let pk = pqcrypto_sphincsplus::$m::PublicKey::from_bytes(pk).unwrap();
                let Ok(sig) = pqcrypto_sphincsplus::$m::DetachedSignature::from_bytes(sig) else {
                    return false;
                };
                pqcrypto_sphincsplus::$m::verify_detached_signature(&sig, msg, &pk).is_ok()
            },
            open: |sm, pk| {
                let pk = pqcrypto_sphincsplus::$m::PublicKey::from_bytes(pk).unwrap();
                let sm = pqcrypto_sphincsplus::$m::SignedMessage::from_bytes(sm).ok()?;
                pqcrypto_sphincsplus::$m::open(&sm, &pk).ok()
            },
        }
    };
}

fn peers() -> Vec<Peer> {
    vec![
        peer!(sphincssha2128fsimple, "sphincs-sha2-128f-simple"),
        peer!(sphincssha2128ssimple, "sphincs-sha2-128s-simple"),
        peer!(sphincssha2192fsimple, "sphincs-sha2-192f-simple"),
        peer!(sphincssha2192ssimple, "sphincs-sha2-192s-simple"),
        peer!(sphincssha2256fsimple, "sphincs-sha2-256f-simple"),
        peer!(sphincssha2256ssimple, "sphincs-sha2-256s-simple"),
        peer!(sphincsshake128fsimple, "sphincs-shake-128f-simple"),
        peer!(sphincsshake128ssimple, "sphincs-shake-128s-simple"),
        peer!(sphincsshake192fsimple, "sphincs-shake-192f-simple"),
        peer!(sphincsshake192ssimple, "sphincs-shake-192s-simple"),
        peer!(sphincsshake256fsimple, "sphincs-shake-256f-simple"),
        peer!(sphincsshake256ssimple, "sphincs-shake-256s-simple"),
    ]
}

/// A message of random length and content from the OS RNG.
fn random_message() -> Vec<u8> {
    let mut len = [0u8; 2];
    getrandom::fill(&mut len).unwrap();
    let mut msg = vec![0u8; usize::from(u16::from_le_bytes(len)) % 3000];
    getrandom::fill(&mut msg).unwrap();
    msg
}

#[test]
fn pqclean_simple_sets_agree() {
    for p in peers() {
        let alg: SpxAlgorithm = p.name.parse().unwrap();
        let rounds = if alg.params().d >= 17 { 3 } else { 1 };
        for _ in 0..rounds {
            // PQClean's key: ours recomputes PK.root from its seeds on load.
            let (pk, sk) = (p.keypair)();
            let ours = SpxSigningKey::from_bytes(alg, &sk)
                .unwrap_or_else(|e| panic!("{}: PQClean key rejected: {e}", p.name));
            assert_eq!(ours.verifying_key().to_bytes(), pk, "{}", p.name);
            assert_eq!(ours.to_bytes().as_slice(), sk.as_slice(), "{}", p.name);
            let vk = SpxVerifyingKey::from_bytes(alg, &pk).unwrap();

            let msg = random_message();
            // Theirs → ours.
            let sig = (p.sign)(&msg, &sk);
            assert_eq!(sig.len(), alg.signature_len(), "{}", p.name);
            vk.verify(&msg, &sig)
                .unwrap_or_else(|e| panic!("{}: PQClean signature: {e}", p.name));
            // Ours → theirs, hedged and deterministic, detached and attached.
            for opts in [
                SpxSignOptions::default(),
                SpxSignOptions {
                    randomness: sphincs::Randomness::Deterministic,
                    threads: 2,
                    ..Default::default()
                },
            ] {
                let mine = ours.sign(&msg, &opts).unwrap();
                assert!((p.verify)(&msg, &mine, &pk), "{}: ours rejected", p.name);
                let sm = ours.sign_attached(&msg, &opts).unwrap();
                assert_eq!((p.open)(&sm, &pk), Some(msg.clone()), "{}", p.name);
            }
            // A flipped bit fails on both sides.
            let mut bad = sig.clone();
            bad[sig.len() / 2] ^= 4;
            assert!(vk.verify(&msg, &bad).is_err(), "{}", p.name);
            assert!(!(p.verify)(&msg, &bad, &pk), "{}", p.name);
            let mut other = msg.clone();
            other.push(1);
            assert!(vk.verify(&other, &sig).is_err(), "{}", p.name);
        }
    }
}
