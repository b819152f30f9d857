//! `acvp`: answers a NIST ACVP prompt for SLH-DSA (FIPS 205) — keyGen, sigGen
//! or sigVer, in ACVP-Server's JSON (`gen-val/json-files/SLH-DSA-*-FIPS205`).
//!
//! The prompt is a vector set `{"vsId", "algorithm", "mode", "revision",
//! "testGroups": [...]}`, bare or as `[{"acvVersion": ...}, {vector set}]`;
//! the response has the same shape, with each test reduced to `tcId` and the
//! answer: `pk` and `sk`, `signature`, or `testPassed`. Hex is upper case.

use std::path::Path;

use serde_json::{json, Map, Value};
use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey, Error, PreHash, Randomness, SignOptions};

use crate::error::CliError;
use crate::files::read::{read_capped, Cap};
use crate::files::write::{check_writable, write_output, write_stdout};
use crate::hex;

/// Reads PROMPT, writes the response to OUT or standard output.
pub fn run(prompt: &Path, out: Option<&Path>, force: bool) -> Result<(), CliError> {
    if let Some(o) = out {
        check_writable(o, force)?;
    }
    let text = read_capped(prompt, Cap::Prompt)?;
    // A parsed JSON item costs tens of bytes however short its text: counted
    // first, so that a prompt of tiny items cannot take 17× its size.
    if json_items(&text) > MAX_JSON_ITEMS {
        return Err(CliError::file(
            prompt,
            format!(
                "has more than {MAX_JSON_ITEMS} JSON items (NIST's largest prompt has about 5000); refusing to parse it"
            ),
        ));
    }
    let json: Value = serde_json::from_slice(&text)
        .map_err(|e| CliError::file(prompt, format!("not valid JSON: {e}")))?;
    drop(text);
    let response = respond(&json).map_err(|e| CliError::file(prompt, e))?;
    let mut bytes = serde_json::to_vec_pretty(&response)
        .map_err(|e| CliError::Failed(format!("cannot write JSON: {e}")))?;
    bytes.push(b'\n');
    match out {
        Some(o) => write_output(o, &bytes, false, force),
        None => write_stdout(&bytes, false),
    }
}

/// The most JSON items (values and object members) a prompt may hold: about
/// 200 times NIST's largest, and at most ~100 MB once parsed.
const MAX_JSON_ITEMS: usize = 1_000_000;

/// The most tests one vector set may hold (NIST's largest has a few
/// hundred): the answers are held until the response is written, and a
/// signature answer is up to 100 KB of hex.
const MAX_TESTS: usize = 10_000;

/// An upper bound on the items in JSON `text`: every value or member after
/// the first in a container follows a comma, every container opens with a
/// bracket. Text inside strings is skipped.
fn json_items(text: &[u8]) -> usize {
    let (mut items, mut in_string, mut escaped) = (1, false, false);
    for &b in text {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b',' | b'[' | b'{' => items += 1,
            _ => {}
        }
    }
    items
}

/// The response to a prompt in either of ACVP's two shapes.
pub fn respond(prompt: &Value) -> Result<Value, String> {
    match prompt {
        Value::Array(items) => match items.as_slice() {
            [version, set] if version.get("acvVersion").is_some() => {
                Ok(Value::Array(vec![version.clone(), vector_set(set)?]))
            }
            _ => Err(
                "expected a vector set, or the array [{\"acvVersion\": ...}, {vector set}]".into(),
            ),
        },
        Value::Object(_) => vector_set(prompt),
        _ => Err("expected a JSON object (an ACVP vector set) or array".into()),
    }
}

#[derive(Clone, Copy)]
enum Mode {
    KeyGen,
    SigGen,
    SigVer,
}

fn vector_set(set: &Value) -> Result<Value, String> {
    let algorithm = str_field(set, "algorithm")?;
    if algorithm != "SLH-DSA" {
        return Err(format!(
            "algorithm is {algorithm:?}; this answers \"SLH-DSA\" only"
        ));
    }
    let mode = match str_field(set, "mode")? {
        "keyGen" => Mode::KeyGen,
        "sigGen" => Mode::SigGen,
        "sigVer" => Mode::SigVer,
        other => {
            return Err(format!(
                "mode is {other:?}; expected \"keyGen\", \"sigGen\" or \"sigVer\""
            ))
        }
    };
    let groups = array_field(set, "testGroups")?;
    let tests: usize = groups
        .iter()
        .map(|g| g.get("tests").and_then(Value::as_array).map_or(0, Vec::len))
        .sum();
    if tests > MAX_TESTS {
        return Err(format!(
            "has {tests} tests; this answers at most {MAX_TESTS} in one vector set"
        ));
    }
    let groups = groups
        .iter()
        .map(|g| {
            let tg_id = field(g, "tgId")?;
            group(mode, g).map_err(|e| format!("tgId {tg_id}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Map::new();
    for key in ["vsId", "algorithm", "mode", "revision", "isSample"] {
        if let Some(v) = set.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    out.insert("testGroups".into(), Value::Array(groups));
    Ok(Value::Object(out))
}

/// How a sigGen/sigVer group calls SLH-DSA.
enum Interface {
    /// `slh_sign_internal` / `slh_verify_internal` on the message as given.
    Internal,
    /// `slh_sign` / `slh_verify`, or the HashSLH-DSA pair when `true`.
    External { prehash: bool },
}

fn interface(g: &Value) -> Result<Interface, String> {
    match str_field(g, "signatureInterface")? {
        "internal" => Ok(Interface::Internal),
        "external" => match g.get("preHash").and_then(Value::as_str).unwrap_or("pure") {
            "pure" => Ok(Interface::External { prehash: false }),
            "preHash" => Ok(Interface::External { prehash: true }),
            other => Err(format!(
                "preHash is {other:?}; expected \"pure\" or \"preHash\""
            )),
        },
        other => Err(format!(
            "signatureInterface is {other:?}; expected \"internal\" or \"external\""
        )),
    }
}

fn group(mode: Mode, g: &Value) -> Result<Value, String> {
    let name = str_field(g, "parameterSet")?;
    let alg: Algorithm = name.parse().map_err(|e: Error| e.to_string())?;
    let tests = array_field(g, "tests")?;
    let answer = |t: &Value| -> Result<Value, String> {
        let tc_id = field(t, "tcId")?;
        let result = match mode {
            Mode::KeyGen => key_gen(alg, t),
            Mode::SigGen => sig_gen(alg, g, t),
            Mode::SigVer => sig_ver(alg, g, t),
        };
        result
            .map(|mut fields| {
                fields.insert(0, ("tcId", tc_id.clone()));
                Value::Object(fields.into_iter().map(|(k, v)| (k.into(), v)).collect())
            })
            .map_err(|e| format!("tcId {tc_id}: {e}"))
    };
    let tests = tests.iter().map(answer).collect::<Result<Vec<_>, _>>()?;
    Ok(json!({ "tgId": field(g, "tgId")?, "tests": tests }))
}

type Fields = Vec<(&'static str, Value)>;

/// `slh_keygen_internal` (FIPS 205 Algorithm 18) from the given seeds.
fn key_gen(alg: Algorithm, t: &Value) -> Result<Fields, String> {
    let key = DynSigningKey::from_seeds(
        alg,
        &hex_field(t, "skSeed")?,
        &hex_field(t, "skPrf")?,
        &hex_field(t, "pkSeed")?,
    )
    .map_err(|e| e.to_string())?;
    Ok(vec![
        (
            "pk",
            hex::encode_upper(&key.verifying_key().to_bytes()).into(),
        ),
        ("sk", hex::encode_upper(&key.to_bytes()).into()),
    ])
}

fn sig_gen(alg: Algorithm, g: &Value, t: &Value) -> Result<Fields, String> {
    let key = DynSigningKey::from_bytes_unchecked(alg, &hex_field_in(t, g, "sk")?)
        .map_err(|e| e.to_string())?;
    let message = hex_field(t, "message")?;
    let deterministic = g
        .get("deterministic")
        .and_then(Value::as_bool)
        .ok_or("missing boolean \"deterministic\"")?;
    let addrnd = if deterministic {
        None
    } else {
        Some(hex_field(t, "additionalRandomness")?)
    };
    let sig = match interface(g)? {
        Interface::Internal => key.sign_internal(&message, addrnd.as_deref()),
        Interface::External { prehash } => {
            let context = hex_field(t, "context")?;
            let opts = SignOptions {
                context: &context,
                prehash: if prehash { Some(hash_alg(t)?) } else { None },
                randomness: match &addrnd {
                    None => Randomness::Deterministic,
                    Some(r) => Randomness::Given(r),
                },
                ..SignOptions::default()
            };
            key.sign(&message, &opts)
        }
    }
    .map_err(|e| e.to_string())?;
    Ok(vec![("signature", hex::encode_upper(&sig).into())])
}

fn sig_ver(alg: Algorithm, g: &Value, t: &Value) -> Result<Fields, String> {
    let key =
        DynVerifyingKey::from_bytes(alg, &hex_field_in(t, g, "pk")?).map_err(|e| e.to_string())?;
    let message = hex_field(t, "message")?;
    let signature = hex_field(t, "signature")?;
    let passed = match interface(g)? {
        Interface::Internal => key.verify_internal(&message, &signature),
        Interface::External { prehash } => {
            let context = hex_field(t, "context")?;
            let ph = if prehash { Some(hash_alg(t)?) } else { None };
            match key.verify(&message, &signature, &context, ph) {
                Ok(()) => true,
                // Each of these is a signature that does not verify.
                Err(Error::InvalidSignature)
                | Err(Error::InvalidSignatureLength { .. })
                | Err(Error::ContextTooLong(_)) => false,
                Err(e) => return Err(e.to_string()),
            }
        }
    };
    Ok(vec![("testPassed", passed.into())])
}

fn hash_alg(t: &Value) -> Result<PreHash, String> {
    str_field(t, "hashAlg")?
        .parse()
        .map_err(|e: Error| e.to_string())
}

fn field<'a>(v: &'a Value, name: &str) -> Result<&'a Value, String> {
    v.get(name).ok_or_else(|| format!("missing field {name:?}"))
}

fn str_field<'a>(v: &'a Value, name: &str) -> Result<&'a str, String> {
    field(v, name)?
        .as_str()
        .ok_or_else(|| format!("field {name:?} is not a string"))
}

fn array_field<'a>(v: &'a Value, name: &str) -> Result<&'a Vec<Value>, String> {
    field(v, name)?
        .as_array()
        .ok_or_else(|| format!("field {name:?} is not an array"))
}

fn hex_field(v: &Value, name: &str) -> Result<Vec<u8>, String> {
    hex::decode(str_field(v, name)?).map_err(|e| format!("field {name:?}: {e}"))
}

/// A hex field of the test, or else of its group (older prompts put keys there).
fn hex_field_in(t: &Value, g: &Value, name: &str) -> Result<Vec<u8>, String> {
    if t.get(name).is_some() {
        hex_field(t, name)
    } else {
        hex_field(g, name).map_err(|_| format!("missing field {name:?}"))
    }
}
