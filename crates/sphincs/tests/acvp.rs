//! NIST ACVP vectors for FIPS 205 (keyGen, sigGen, sigVer) run through the
//! dynamic API. The data and its provenance are in `tests/data/`.
//!
//! Each test runs every case of its file, collects all failures, and checks
//! that the number of cases run equals the number in the file.

mod common;

use std::str::FromStr;

use common::{
    backends_for, hex_upper, load, run_cases, run_cases_all_backends, test_threads, Case,
};
use sha2::{Digest, Sha256};
use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey, Error, PreHash, Randomness, SignOptions};

fn algorithm(case: &Case) -> Result<Algorithm, String> {
    let name = case.str("parameterSet");
    Algorithm::from_str(name).map_err(|e| format!("parameterSet {name:?}: {e}"))
}

/// `None` for "pure", the parsed function otherwise.
fn prehash(case: &Case) -> Result<Option<PreHash>, String> {
    match case.str("preHash") {
        "pure" => Ok(None),
        name => PreHash::from_str(name)
            .map(Some)
            .map_err(|e| format!("preHash {name:?}: {e}")),
    }
}

/// Checks that every parameter set has cases in the file, so a filter or
/// parsing mistake cannot silently skip one.
/// Every case runs once on each backend whose kernels it exercises.
fn expected_runs(cases: &[Case]) -> usize {
    cases.iter().map(|c| backends_for(c).len()).sum()
}

/// 1, 2 or 3 threads by case, so every thread count meets the vectors:
/// the output must not depend on it.
fn case_threads(case: &Case) -> usize {
    1 + (case.tc_id() % 3) as usize
}

fn assert_all_sets_present(cases: &[Case]) {
    for alg in Algorithm::ALL {
        assert!(
            cases.iter().any(|c| c.str("parameterSet") == alg.name()),
            "no cases for {}",
            alg.name()
        );
    }
}

#[test]
fn acvp_keygen() {
    let file = load("keygen.json.gz", "keygen");
    assert_all_sets_present(&file.cases);
    let outcome = run_cases_all_backends(&file.cases, test_threads(), |case| {
        let alg = algorithm(case)?;
        let sk = DynSigningKey::from_seeds_with_threads(
            alg,
            &case.bytes("skSeed"),
            &case.bytes("skPrf"),
            &case.bytes("pkSeed"),
            case_threads(case),
        )
        .map_err(|e| format!("from_seeds: {e}"))?;
        let mut errors = Vec::new();
        if sk.algorithm() != alg {
            errors.push(format!("algorithm() is {:?}", sk.algorithm()));
        }
        let got_sk = sk.to_bytes();
        if got_sk[..] != case.bytes("sk")[..] {
            errors.push(format!(
                "sk differs:\n    got      {}\n    expected {}",
                hex_upper(&got_sk),
                case.str("sk")
            ));
        }
        let got_pk = sk.verifying_key().to_bytes();
        if got_pk != case.bytes("pk") {
            errors.push(format!(
                "pk differs:\n    got      {}\n    expected {}",
                hex_upper(&got_pk),
                case.str("pk")
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    });
    outcome.assert_all_passed("keyGen", expected_runs(&file.cases));
    eprintln!("keyGen: {} cases passed", outcome.ran);
}

fn siggen_case(case: &Case) -> Result<(), String> {
    let alg = algorithm(case)?;
    let sk_bytes = case.bytes("sk");
    let sk =
        DynSigningKey::from_bytes(alg, &sk_bytes).map_err(|e| format!("sk from_bytes: {e}"))?;
    let vk = sk.verifying_key();
    let message = case.bytes("message");
    let deterministic = case.bool("deterministic");
    let addrnd = case.opt_bytes("additionalRandomness");
    let addrnd = match (deterministic, &addrnd) {
        (true, None) => None,
        (false, Some(r)) => Some(r.as_slice()),
        _ => return Err("deterministic and additionalRandomness disagree".into()),
    };

    let signature;
    let verified;
    match case.str("interface") {
        "internal" => {
            signature = sk
                .sign_internal(&message, addrnd)
                .map_err(|e| format!("sign_internal: {e}"))?;
            verified = vk.verify_internal(&message, &signature);
        }
        "external" => {
            let context = case
                .opt_bytes("context")
                .ok_or("external case without context")?;
            let prehash = prehash(case)?;
            let options = SignOptions {
                context: &context,
                prehash,
                randomness: match addrnd {
                    None => Randomness::Deterministic,
                    Some(r) => Randomness::Given(r),
                },
                threads: case_threads(case),
                ..SignOptions::default()
            };
            signature = sk
                .sign(&message, &options)
                .map_err(|e| format!("sign: {e}"))?;
            verified = match vk.verify(&message, &signature, &context, prehash) {
                Ok(()) => true,
                Err(Error::InvalidSignature) => false,
                Err(e) => return Err(format!("verify of own signature: {e}")),
            };
        }
        other => return Err(format!("unknown interface {other:?}")),
    }

    if signature.len() != alg.signature_len() {
        return Err(format!(
            "signature is {} bytes, expected {}",
            signature.len(),
            alg.signature_len()
        ));
    }
    let got = hex_upper(&Sha256::digest(&signature));
    let expected = case.str("signatureSha256");
    if !got.eq_ignore_ascii_case(expected) {
        return Err(format!(
            "signature SHA-256 {got}, expected {expected}; signature starts {}",
            hex_upper(&signature[..alg.params().n.min(signature.len())])
        ));
    }
    if !verified {
        return Err("signature matches the vector but does not verify".into());
    }
    Ok(())
}

#[test]
fn acvp_siggen() {
    let file = load("siggen.json.gz", "siggen");
    assert_all_sets_present(&file.cases);
    // SPHINCS_ACVP_SIGGEN_F_ONLY=1: the f sets' cases only (the emulated
    // AArch64 run in CI, where signing with the s sets would take most of an
    // hour; `AARCH64_FULL=1 .ci/aarch64.sh` runs them all).
    let f_only = std::env::var("SPHINCS_ACVP_SIGGEN_F_ONLY").is_ok_and(|v| v == "1");
    let cases: Vec<Case> = file
        .cases
        .iter()
        .filter(|c| !f_only || c.str("parameterSet").ends_with('f'))
        .cloned()
        .collect();
    // The f sets' cases on every backend whose kernels they exercise: the s
    // sets have the same n, so the same kernels, as the f set of their
    // security level; their (slow) cases run once, on the kernels this CPU
    // selects by itself, which is what a user's signature runs on.
    let (small, fast): (Vec<Case>, Vec<Case>) = cases.into_iter().partition(Case::is_small_set);
    let start = std::time::Instant::now();
    let mut outcome = run_cases_all_backends(&fast, test_threads(), siggen_case);
    let selected = run_cases(&small, test_threads(), siggen_case);
    eprintln!(
        "  s sets, the backend this CPU selects: {} cases",
        selected.ran
    );
    outcome.ran += selected.ran;
    outcome.failures.extend(selected.failures);
    outcome.assert_all_passed("sigGen", expected_runs(&fast) + small.len());
    eprintln!(
        "sigGen: {} cases passed in {:.1?}{}",
        outcome.ran,
        start.elapsed(),
        if f_only { " (f sets only)" } else { "" }
    );
}

fn sigver_case(case: &Case) -> Result<(), String> {
    let alg = algorithm(case)?;
    let vk = DynVerifyingKey::from_bytes(alg, &case.bytes("pk"))
        .map_err(|e| format!("pk from_bytes: {e}"))?;
    let message = case.bytes("message");
    let signature = case.bytes("signature");
    let expected = case.bool("testPassed");
    let right_length = signature.len() == alg.signature_len();

    let got = match case.str("interface") {
        "internal" => vk.verify_internal(&message, &signature),
        "external" => {
            let context = case
                .opt_bytes("context")
                .ok_or("external case without context")?;
            match vk.verify(&message, &signature, &context, prehash(case)?) {
                Ok(()) => true,
                Err(Error::InvalidSignature) if right_length => false,
                Err(Error::InvalidSignatureLength { .. }) if !right_length => false,
                Err(e) => {
                    return Err(format!(
                        "verify gave an unexpected error for a {}-byte signature: {e}",
                        signature.len()
                    ))
                }
            }
        }
        other => return Err(format!("unknown interface {other:?}")),
    };
    if got != expected {
        return Err(format!(
            "verify says {got}, expected testPassed {expected} (signature {} bytes, {} expected)",
            signature.len(),
            alg.signature_len()
        ));
    }
    Ok(())
}

#[test]
fn acvp_sigver() {
    let file = load("sigver.json.gz", "sigver");
    assert_all_sets_present(&file.cases);
    let valid = file.cases.iter().filter(|c| c.bool("testPassed")).count();
    assert!(
        valid > 0 && valid < file.count,
        "sigVer file should hold both valid and invalid cases"
    );
    let outcome = run_cases_all_backends(&file.cases, test_threads(), sigver_case);
    outcome.assert_all_passed("sigVer", expected_runs(&file.cases));
    eprintln!(
        "sigVer: {} case runs passed ({valid} valid cases, {} invalid)",
        outcome.ran,
        file.count - valid
    );
}
