//! The conformance matrix through the C ABI (cryptoki loads the .so):
//! every set × mechanism × hedge variant × context length × single/multi
//! part, each signature checked against the core (`sphincs::any`):
//! deterministic signatures byte for byte, every signature verified by the
//! core and by the module (C_Verify, C_VerifyUpdate/Final where allowed,
//! C_VerifySignature and its multi-part form where allowed).
//!
//! Full matrix on the six f sets; the s sets (100–500 ms a signature) sign
//! a subset. CKM_HASH_SLH_DSA runs here with the four hashes cryptoki can
//! name (SHA-224/256/384/512); tests/raw.rs covers the other eight.

mod common;

use common::matrix::{all_cases, digest, rv, Case, HEDGES, SETS};

use std::collections::BTreeMap;
use std::sync::Mutex;

use cryptoki::context::Pkcs11;
use cryptoki::error::RvError;
use cryptoki::mechanism::dsa::HedgeType;
use cryptoki::mechanism::Mechanism;
use cryptoki::object::{
    Attribute, AttributeType, ObjectHandle, ParameterSetType, SlhDsaParameterSetType,
};
use cryptoki::session::Session;
use sphincs::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey};
use sphincs::{Algorithm, PreHash, Randomness, SignOptions};

/// Signatures made and checked, by mechanism.
static COUNTS: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());

fn count(case: Case) {
    *COUNTS.lock().unwrap().entry(case.name()).or_default() += 1;
}

/// A key pair on the module whose private half can be read (to compare
/// with the core), and the core's keys of the same bytes.
fn key_pair(
    s: &Session,
    set: SlhDsaParameterSetType,
    alg: Algorithm,
) -> (ObjectHandle, ObjectHandle, AnySigningKey, AnyVerifyingKey) {
    let public = [
        Attribute::Token(false),
        Attribute::ParameterSet(ParameterSetType::from(set)),
        Attribute::Verify(true),
    ];
    let private = [
        Attribute::Token(false),
        Attribute::Private(true),
        Attribute::Sign(true),
        Attribute::Sensitive(false),
        Attribute::Extractable(true),
    ];
    let (hp, hs) = s
        .generate_key_pair(&Mechanism::SlhDsaKeyPairGen, &public, &private)
        .expect("C_GenerateKeyPair");
    let value = |h| match s.get_attributes(h, &[AttributeType::Value]).unwrap().pop() {
        Some(Attribute::Value(v)) => v,
        other => panic!("CKA_VALUE: {other:?}"),
    };
    let any = AnyAlgorithm::SlhDsa(alg);
    let sk = AnySigningKey::from_bytes(any, &value(hs)).expect("private CKA_VALUE");
    let vk = AnyVerifyingKey::from_bytes(any, &value(hp)).expect("public CKA_VALUE");
    assert_eq!(sk.verifying_key(), vk);
    (hp, hs, sk, vk)
}

/// Signs on the module, one part or several.
fn module_sign(
    s: &Session,
    mech: &Mechanism,
    key: ObjectHandle,
    data: &[u8],
    multi: bool,
) -> Vec<u8> {
    if !multi {
        return s.sign(mech, key, data).expect("C_Sign");
    }
    s.sign_init(mech, key).expect("C_SignInit");
    s.sign_update(&[]).expect("C_SignUpdate (empty)");
    for chunk in data.chunks(97) {
        s.sign_update(chunk).expect("C_SignUpdate");
    }
    s.sign_final().expect("C_SignFinal")
}

/// Verifies on the module every way the mechanism allows.
fn module_verify(
    s: &Session,
    case: Case,
    mech: &Mechanism,
    key: ObjectHandle,
    data: &[u8],
    sig: &[u8],
) {
    s.verify(mech, key, data, sig).expect("C_Verify");
    s.verify_signature_init(mech, key, sig)
        .expect("C_VerifySignatureInit");
    s.verify_signature(data).expect("C_VerifySignature");
    if case.multi_verify() {
        s.verify_init(mech, key).expect("C_VerifyInit");
        for chunk in data.chunks(101) {
            s.verify_update(chunk).expect("C_VerifyUpdate");
        }
        s.verify_final(sig).expect("C_VerifyFinal");
    }
    if case.multi_sign() {
        s.verify_signature_init(mech, key, sig)
            .expect("C_VerifySignatureInit");
        for chunk in data.chunks(89) {
            s.verify_signature_update(chunk)
                .expect("C_VerifySignatureUpdate");
        }
        s.verify_signature_final().expect("C_VerifySignatureFinal");
    }
}

/// One set: `full` runs every case, hedge, context and part count; else
/// a subset (one context, deterministic and hedged, single part).
fn run_set(p: &Pkcs11, set: SlhDsaParameterSetType, alg: Algorithm, full: bool) {
    let s = common::user_session(p);
    let (hp, hs, sk, vk) = key_pair(&s, set, alg);
    let msg: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
    let cases = if full {
        all_cases()
    } else {
        vec![
            Case::Pure,
            Case::Digest(PreHash::Sha2_256),
            Case::Token(PreHash::Sha3_256),
        ]
    };
    let lens: &[usize] = if full { &[0, 1, 255] } else { &[1] };
    let hedges: &[HedgeType] = if full {
        &HEDGES
    } else {
        &[HedgeType::DeterministicRequired, HedgeType::Required]
    };
    for &case in &cases {
        let data = match case {
            Case::Digest(ph) => digest(ph, &msg),
            _ => msg.clone(),
        };
        for &len in lens {
            let ctx_bytes: Vec<u8> = (0..len).map(|i| i as u8 ^ 0x5a).collect();
            let core_opts = SignOptions {
                context: &ctx_bytes,
                prehash: case.prehash(),
                randomness: Randomness::Deterministic,
                ..SignOptions::default()
            };
            let deterministic = sk.sign(&msg, &core_opts).unwrap();
            for &hedge in hedges {
                // Length 0 with the preferred hedge: no parameter at all.
                let ctx = if len == 0 && hedge == HedgeType::Preferred {
                    None
                } else {
                    Some(&ctx_bytes[..])
                };
                let mech = case.mechanism(hedge, ctx);
                let parts: &[bool] = if full && case.multi_sign() {
                    &[false, true]
                } else {
                    &[false]
                };
                for &multi in parts {
                    let sig = module_sign(&s, &mech, hs, &data, multi);
                    let what = format!("{alg:?} {} {hedge:?} ctx {len} multi {multi}", case.name());
                    if hedge == HedgeType::DeterministicRequired {
                        assert_eq!(sig, deterministic, "{what}");
                    } else {
                        assert_ne!(sig, deterministic, "{what}: hedged");
                    }
                    vk.verify(&msg, &sig, &ctx_bytes, case.prehash())
                        .unwrap_or_else(|e| panic!("{what}: core verify: {e}"));
                    module_verify(&s, case, &mech, hp, &data, &sig);
                    count(case);
                }
            }
            // A signature of another context, or changed, does not verify.
            let mech = case.mechanism(HedgeType::Preferred, Some(&ctx_bytes));
            let mut bad = deterministic.clone();
            bad[7] ^= 1;
            assert_eq!(
                rv(s.verify(&mech, hp, &data, &bad).unwrap_err()),
                RvError::SignatureInvalid
            );
            assert_eq!(
                rv(s.verify(&mech, hp, &data, &bad[1..]).unwrap_err()),
                RvError::SignatureLenRange
            );
            // Nor in several parts (the pre-hash state, the streaming
            // verifier), nor the right signature over a changed message.
            let mut other = data.clone();
            other[0] ^= 1;
            for (sig, msg) in [(&bad, &data), (&deterministic, &other)] {
                if case.multi_sign() {
                    s.verify_signature_init(&mech, hp, sig).unwrap();
                    for chunk in msg.chunks(89) {
                        s.verify_signature_update(chunk).unwrap();
                    }
                    assert_eq!(
                        rv(s.verify_signature_final().unwrap_err()),
                        RvError::SignatureInvalid
                    );
                }
                if case.multi_verify() {
                    s.verify_init(&mech, hp).unwrap();
                    for chunk in msg.chunks(101) {
                        s.verify_update(chunk).unwrap();
                    }
                    assert_eq!(
                        rv(s.verify_final(sig).unwrap_err()),
                        RvError::SignatureInvalid
                    );
                }
            }
        }
        // Contexts of 256 bytes are refused when the operation starts.
        let long = vec![0u8; 256];
        let mech = case.mechanism(HedgeType::Required, Some(&long));
        assert_eq!(
            rv(s.sign_init(&mech, hs).unwrap_err()),
            RvError::MechanismParamInvalid
        );
        assert_eq!(
            rv(s.verify_init(&mech, hp).unwrap_err()),
            RvError::MechanismParamInvalid
        );
    }
    s.destroy_object(hp).unwrap();
    s.destroy_object(hs).unwrap();
}

#[test]
fn conformance_matrix() {
    let p = common::load();
    common::init_token(&p);
    // Keeps the user logged in while the sets' sessions come and go.
    let _anchor = common::user_session(&p);
    std::thread::scope(|scope| {
        let p = &p;
        let (f, s) = SETS.split_at(6);
        // Two workers: the f sets' full matrix, then the s sets' subset.
        for half in [[f[0], f[1], f[2]], [f[3], f[4], f[5]]] {
            scope.spawn(move || {
                for (set, alg) in half {
                    run_set(p, set, alg, true);
                }
            });
        }
        for chunk in s.chunks(3) {
            let chunk = chunk.to_vec();
            scope.spawn(move || {
                for (set, alg) in chunk {
                    run_set(p, set, alg, false);
                }
            });
        }
    });
    let counts = COUNTS.lock().unwrap();
    let total: usize = counts.values().sum();
    for (m, n) in counts.iter() {
        println!("{m}: {n} signatures");
    }
    println!("total: {total} signatures, each checked by the core and the module");
    // 6 f sets: CKM_SLH_DSA and ten token hashes 3×3×2, four caller hashes 3×3;
    // 6 s sets: three mechanisms × 2 hedges.
    assert_eq!(total, 6 * (11 * 18 + 4 * 9) + 6 * 3 * 2);
}
