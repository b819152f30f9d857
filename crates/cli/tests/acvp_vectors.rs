//! `sphincs acvp` against NIST's expected results: prompts in the ACVP-Server
//! JSON shape are rebuilt from the packed FIPS 205 vectors
//! (crates/sphincs/tests/data), answered by the binary, and every answer is
//! compared: all keyGen and sigVer cases, and the sigGen cases of the 'f' sets
//! (the library's own tests sign the slow 's' cases).

mod common;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::PathBuf;

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use common::{sphincs_command, stdout_of};

fn cases(name: &str) -> Vec<Value> {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "sphincs",
        "tests",
        "data",
        name,
    ]
    .iter()
    .collect();
    let mut text = String::new();
    flate2::read::GzDecoder::new(File::open(&path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let cases = doc["cases"].as_array().unwrap().clone();
    assert_eq!(cases.len() as u64, doc["count"].as_u64().unwrap(), "{name}");
    cases
}

/// Groups cases by tgId into an ACVP prompt of the given mode, copying the
/// group-level fields from the first case of each group.
fn prompt(mode: &str, cases: &[Value], test_fields: &[&str]) -> Value {
    let mut groups: BTreeMap<u64, (Map<String, Value>, Vec<Value>)> = BTreeMap::new();
    for c in cases {
        let entry = groups
            .entry(c["tgId"].as_u64().unwrap())
            .or_insert_with(|| {
                let mut g = Map::new();
                g.insert("tgId".into(), c["tgId"].clone());
                g.insert("testType".into(), json!("AFT"));
                g.insert("parameterSet".into(), c["parameterSet"].clone());
                if let Some(i) = c.get("interface") {
                    g.insert("signatureInterface".into(), i.clone());
                    if i == "external" {
                        let pure = c["preHash"] == "pure";
                        g.insert(
                            "preHash".into(),
                            json!(if pure { "pure" } else { "preHash" }),
                        );
                    }
                }
                if let Some(d) = c.get("deterministic") {
                    g.insert("deterministic".into(), d.clone());
                }
                (g, Vec::new())
            });
        let mut t = Map::new();
        t.insert("tcId".into(), c["tcId"].clone());
        for f in test_fields {
            if let Some(v) = c.get(*f).filter(|v| !v.is_null()) {
                t.insert((*f).into(), v.clone());
            }
        }
        if c.get("preHash")
            .and_then(Value::as_str)
            .is_some_and(|p| p != "pure")
        {
            t.insert("hashAlg".into(), c["preHash"].clone());
        }
        entry.1.push(Value::Object(t));
    }
    let groups: Vec<Value> = groups
        .into_values()
        .map(|(mut g, tests)| {
            g.insert("tests".into(), Value::Array(tests));
            Value::Object(g)
        })
        .collect();
    json!([{"acvVersion": "1.0"}, {"vsId": 53, "algorithm": "SLH-DSA", "mode": mode,
        "revision": "FIPS205", "isSample": false, "testGroups": groups}])
}

/// Runs `sphincs acvp` on `prompt` and returns the answers by tcId.
fn answer(name: &str, prompt: &Value) -> BTreeMap<u64, Value> {
    let dir = std::env::temp_dir().join(format!("sphincs-acvp-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("prompt.json");
    std::fs::write(&file, serde_json::to_vec(prompt).unwrap()).unwrap();
    let stdout = stdout_of(sphincs_command().arg("acvp").arg(&file));
    std::fs::remove_dir_all(&dir).unwrap();
    let r: Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(r[1]["vsId"], 53);
    assert_eq!(r[1]["revision"], "FIPS205");
    let mut by_tc = BTreeMap::new();
    for g in r[1]["testGroups"].as_array().unwrap() {
        for t in g["tests"].as_array().unwrap() {
            by_tc.insert(t["tcId"].as_u64().unwrap(), t.clone());
        }
    }
    by_tc
}

#[test]
fn key_gen_all_cases() {
    let cases = cases("keygen.json.gz");
    let got = answer(
        "keygen",
        &prompt("keyGen", &cases, &["skSeed", "skPrf", "pkSeed"]),
    );
    for c in &cases {
        let t = &got[&c["tcId"].as_u64().unwrap()];
        assert_eq!(
            (&t["pk"], &t["sk"]),
            (&c["pk"], &c["sk"]),
            "tcId {}",
            c["tcId"]
        );
    }
    assert_eq!(got.len(), cases.len());
}

#[test]
fn sig_ver_all_cases() {
    let cases = cases("sigver.json.gz");
    let fields = ["pk", "message", "context", "signature"];
    let got = answer("sigver", &prompt("sigVer", &cases, &fields));
    for c in &cases {
        let t = &got[&c["tcId"].as_u64().unwrap()];
        assert_eq!(
            t["testPassed"], c["testPassed"],
            "tcId {} {}",
            c["tcId"], c["parameterSet"]
        );
    }
    assert_eq!(got.len(), cases.len());
}

#[test]
fn sig_gen_fast_sets() {
    let cases: Vec<Value> = cases("siggen.json.gz")
        .into_iter()
        .filter(|c| c["parameterSet"].as_str().unwrap().ends_with('f'))
        .collect();
    assert!(cases.len() > 200);
    let fields = ["sk", "message", "context", "additionalRandomness"];
    let got = answer("siggen", &prompt("sigGen", &cases, &fields));
    for c in &cases {
        let t = &got[&c["tcId"].as_u64().unwrap()];
        let sig = hex::decode(t["signature"].as_str().unwrap()).unwrap();
        let digest: String = Sha256::digest(&sig)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let want = c["signatureSha256"].as_str().unwrap().to_ascii_lowercase();
        assert_eq!(digest, want, "tcId {} {}", c["tcId"], c["parameterSet"]);
    }
    assert_eq!(got.len(), cases.len());
}
