//! `MessageVerifier`: a verification whose message is fed in pieces after
//! the signature (`AnyVerifyingKey::verifier`), as an OpenSSL provider's
//! `verify_message_update` feeds it. For sets of every family it must
//! agree with the one-shot `verify` on the same inputs: valid for the
//! message signed however it is cut, invalid for a changed message, a
//! truncated one, a longer one or a changed signature; clones verify
//! independently; bad options and lengths are refused before any message.

use sphincs::any::{AnyAlgorithm, AnySigningKey};
use sphincs::{Error, PreHash, Randomness, SignOptions};

/// A message of `len` bytes that is not all one value.
fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 + (i >> 7)) as u8).collect()
}

/// Piece lengths 0, 1, 2, … cycling up to 97: pieces that split every
/// hash block boundary somewhere.
fn pieces(msg: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut at, mut len) = (0, 0);
    while at < msg.len() {
        let end = (at + len).min(msg.len());
        out.push(&msg[at..end]);
        at = end;
        len = (len + 1) % 98;
    }
    out
}

/// The sets checked: every set of each family whose name says `f` at the
/// smallest security level, one s set, and every n for SLH-DSA (the
/// engine is one generic code path; these cover each hash family, each n
/// and each message-hash construction).
fn sets() -> Vec<AnyAlgorithm> {
    AnyAlgorithm::all()
        .filter(|a| {
            let name = a.name().to_ascii_lowercase();
            match a {
                AnyAlgorithm::SlhDsa(_) => name.ends_with('f') || name.ends_with("sha2-128s"),
                AnyAlgorithm::SphincsPlus(_) => name.contains("-128f-"),
                AnyAlgorithm::Sphincs256 => true,
            }
        })
        .collect()
}

fn key(alg: AnyAlgorithm) -> AnySigningKey {
    let seed: Vec<u8> = (0..alg.seed_len()).map(|i| i as u8).collect();
    AnySigningKey::from_seed(alg, &seed, 1).unwrap()
}

#[test]
fn agrees_with_verify_on_every_family() {
    let sets = sets();
    assert!(sets.len() >= 14, "{} sets", sets.len());
    let msg = message(3001);
    for alg in sets {
        let sk = key(alg);
        let pk = sk.verifying_key();
        let sig = sk.sign(&msg, &SignOptions::default()).unwrap();
        assert_eq!(pk.verify(&msg, &sig, &[], None), Ok(()), "{alg}");

        // Valid however the message is cut, and with no pieces but one.
        let mut v = pk.verifier(&sig, &[], None).unwrap();
        for p in pieces(&msg) {
            v.update(p);
        }
        assert_eq!(v.finish(), Ok(()), "{alg}: pieces");
        let mut v = pk.verifier(&sig, &[], None).unwrap();
        v.update(&msg);
        assert_eq!(v.finish(), Ok(()), "{alg}: one piece");

        // A clone taken halfway verifies on its own: the original given the
        // signed tail, the clone another tail.
        let mut v = pk.verifier(&sig, &[], None).unwrap();
        v.update(&msg[..1500]);
        let mut other = v.clone();
        v.update(&msg[1500..]);
        let mut tail = msg[1500..].to_vec();
        tail[700] ^= 1;
        other.update(&tail);
        assert_eq!(other.finish(), Err(Error::InvalidSignature), "{alg}: clone");
        assert_eq!(v.finish(), Ok(()), "{alg}: original after the clone");

        // Invalid: a changed byte, a truncated message, one byte more.
        let mut changed = msg.clone();
        changed[2999] ^= 0x80;
        let mut longer = msg.clone();
        longer.push(0);
        for (what, m) in [
            ("changed", &changed[..]),
            ("truncated", &msg[..3000]),
            ("longer", &longer[..]),
        ] {
            let mut v = pk.verifier(&sig, &[], None).unwrap();
            for p in pieces(m) {
                v.update(p);
            }
            assert_eq!(v.finish(), Err(Error::InvalidSignature), "{alg}: {what}");
            assert_eq!(pk.verify(m, &sig, &[], None), Err(Error::InvalidSignature));
        }
        // A changed signature (in R, so in H_msg; and in the last layer).
        for at in [0, sig.len() - 1] {
            let mut bad = sig.clone();
            bad[at] ^= 1;
            let mut v = pk.verifier(&bad, &[], None).unwrap();
            v.update(&msg);
            assert_eq!(v.finish(), Err(Error::InvalidSignature), "{alg}: sig[{at}]");
        }
        // A signature of the wrong length: the error verify gives, up front.
        let short = &sig[..sig.len() - 1];
        assert_eq!(
            pk.verifier(short, &[], None).unwrap_err(),
            pk.verify(&msg, short, &[], None).unwrap_err(),
            "{alg}"
        );
        // Options the family lacks: the error verify gives.
        if !matches!(alg, AnyAlgorithm::SlhDsa(_)) {
            assert_eq!(
                pk.verifier(&sig, b"ctx", None).unwrap_err(),
                pk.verify(&msg, &sig, b"ctx", None).unwrap_err(),
                "{alg}"
            );
        }
    }
}

#[test]
fn slh_dsa_context_pre_hash_and_internal() {
    let alg: AnyAlgorithm = "SLH-DSA-SHAKE-128f".parse().unwrap();
    let sk = key(alg);
    let pk = sk.verifying_key();
    let msg = message(777);

    // A context: the right one verifies, another or none does not.
    let opts = SignOptions {
        context: b"release",
        randomness: Randomness::Deterministic,
        ..Default::default()
    };
    let sig = sk.sign(&msg, &opts).unwrap();
    for (ctx, want) in [
        (&b"release"[..], Ok(())),
        (b"releasE", Err(Error::InvalidSignature)),
        (b"", Err(Error::InvalidSignature)),
    ] {
        let mut v = pk.verifier(&sig, ctx, None).unwrap();
        for p in pieces(&msg) {
            v.update(p);
        }
        assert_eq!(v.finish(), want, "context {ctx:?}");
    }
    assert!(matches!(
        pk.verifier(&sig, &[0; 256], None),
        Err(Error::ContextTooLong(256))
    ));

    // HashSLH-DSA with each of the twelve pre-hashes: valid for the
    // message, invalid for a changed one and for another pre-hash.
    for ph in PreHash::ALL {
        let opts = SignOptions {
            context: b"c",
            prehash: Some(ph),
            ..Default::default()
        };
        let sig = sk.sign(&msg, &opts).unwrap();
        let other = if ph == PreHash::Sha2_256 {
            PreHash::Sha2_512
        } else {
            PreHash::Sha2_256
        };
        for (m, p, want) in [
            (&msg[..], ph, Ok(())),
            (&msg[1..], ph, Err(Error::InvalidSignature)),
            (&msg[..], other, Err(Error::InvalidSignature)),
        ] {
            let mut v = pk.verifier(&sig, b"c", Some(p)).unwrap();
            for piece in pieces(m) {
                v.update(piece);
            }
            let mut copy = v.clone();
            copy.update(b"x");
            assert_eq!(copy.finish(), Err(Error::InvalidSignature), "{ph:?} clone");
            assert_eq!(v.finish(), want, "{ph:?} verified as {p:?}");
        }
    }

    // The internal function (Algorithm 20) over M' as given.
    let sig = sk.sign_internal(&msg, None).unwrap();
    let mut v = pk.verifier_internal(&sig).unwrap();
    for p in pieces(&msg) {
        v.update(p);
    }
    assert_eq!(v.finish(), Ok(()));
    let mut v = pk.verifier_internal(&sig).unwrap();
    v.update(&msg[..776]);
    assert_eq!(v.finish(), Err(Error::InvalidSignature));
    assert!(pk.verifier_internal(&sig[1..]).is_err());
    // Other families have no internal function.
    let spx = key(AnyAlgorithm::all()
        .find(|a| matches!(a, AnyAlgorithm::SphincsPlus(_)))
        .unwrap());
    assert!(matches!(
        spx.verifying_key().verifier_internal(&[]),
        Err(Error::Unsupported { .. })
    ));
}
