//! SPHINCS+ round 3.1 against the reference code's known answers: the count-0
//! entry of every set byte for byte, and the sha256 of the whole 100-entry
//! `PQCsignKAT_*.rsp` file against the reference repository's `SHA256SUMS`
//! for every f set and every 128-bit s set; the 192- and 256-bit s sets'
//! whole files on demand (`-- --ignored`). Data: `tests/data/sphincsplus-r31/`,
//! see its README.

mod common;

use sha2::{Digest, Sha256};
use sphincs::sphincsplus::kat::write_rsp;
use sphincs::sphincsplus::SpxAlgorithm;

struct Expected {
    name: String,
    rsp_sha256: String,
    count0: String,
}

fn field(v: &serde_json::Value, k: &str) -> String {
    match &v[k] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn expected() -> Vec<Expected> {
    let sums = include_str!("data/sphincsplus-r31/SHA256SUMS");
    let list = common::data_json_gz("sphincsplus-r31/first-entries.json.gz");
    list.as_array()
        .expect("list")
        .iter()
        .map(|e| {
            let name = field(e, "name");
            let sum = sums
                .lines()
                .find_map(|l| l.strip_suffix(&format!(" {name}")))
                .expect("every set in SHA256SUMS")
                .to_string();
            assert_eq!(sum, field(e, "rspSha256"), "{name}");
            let c = &e["count0"];
            let mut count0 = String::new();
            for k in ["count", "seed", "mlen", "msg", "pk", "sk", "smlen", "sm"] {
                count0 += &format!("{k} = {}\n", field(c, k));
            }
            count0.push('\n');
            Expected {
                name,
                rsp_sha256: sum,
                count0,
            }
        })
        .collect()
}

fn rsp(alg: SpxAlgorithm, count: usize, threads: usize) -> String {
    let mut out = String::new();
    write_rsp(alg, count, threads, &mut |s| {
        out.push_str(s);
        Ok(())
    })
    .expect("KAT generation");
    out
}

/// SPHINCS_KAT_F_ONLY=1: the f sets' entries only (the emulated AArch64 run
/// in CI: every kernel and every n, without the s sets' minutes under qemu).
#[test]
fn first_entry_of_every_set() {
    let want = expected();
    assert_eq!(want.len(), 36);
    let f_only = std::env::var("SPHINCS_KAT_F_ONLY").is_ok_and(|v| v == "1");
    let mut ran = 0;
    for e in &want {
        let alg: SpxAlgorithm = e.name.parse().expect("every set is supported");
        if f_only && !is_f(&alg) {
            continue;
        }
        ran += 1;
        let got = rsp(alg, 1, 2);
        let got = got.strip_prefix("# SPHINCS+\n\n").expect("header");
        assert!(got == e.count0, "{}: count-0 entry differs", e.name);
    }
    assert_eq!(ran, if f_only { 18 } else { 36 });
}

fn full_file(filter: impl Fn(&SpxAlgorithm) -> bool) {
    for e in expected() {
        let alg: SpxAlgorithm = e.name.parse().expect("every set is supported");
        if !filter(&alg) {
            continue;
        }
        let t = std::time::Instant::now();
        let file = rsp(alg, 100, 2);
        let sum = hex::encode(Sha256::digest(file.as_bytes()));
        assert_eq!(sum, e.rsp_sha256, "{}: PQCsignKAT file hash", e.name);
        eprintln!("{}: 100 entries match in {:.1?}", e.name, t.elapsed());
    }
}

/// The "fast" sets: 17 or more hypertree layers.
fn is_f(a: &SpxAlgorithm) -> bool {
    a.params().d >= 17
}

/// The f sets' full files.
#[test]
fn full_rsp_files_f_sets() {
    full_file(is_f);
}

/// The 128-bit s sets' full files (SHA2, SHAKE and Haraka, simple and
/// robust): slow (100 keys and signatures each), so run in release mode,
/// as CI does.
#[test]
fn full_rsp_files_s_sets_128() {
    full_file(|a| !is_f(a) && a.params().n == 16);
}

/// The 192- and 256-bit s sets' full files: the slowest of all, and
/// repetition of what runs above (each of these sets' count-0 entry byte
/// for byte; the same code at n = 24 and 32 through the f sets' full
/// files). Run on demand: `cargo test
/// --release -p sphincs --test sphincsplus_kat -- --ignored`.
#[test]
#[ignore = "run on demand (--ignored): the slowest files, repetition of the tests above"]
fn full_rsp_files_s_sets_192_256() {
    full_file(|a| !is_f(a) && a.params().n > 16);
}
