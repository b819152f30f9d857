//! Shared helpers for the integration tests: reading the packed ACVP vector
//! files in `tests/data/` and running cases on a few threads; `keys` holds
//! the seeded keys and checks of the key and PKI tests.

#![allow(dead_code)] // each test binary uses a different part of this module

use std::fs::File;
use std::io::{BufReader, Read};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use flate2::read::GzDecoder;
use serde_json::Value;

pub mod keys;

/// The format tag every vector file carries (see `tests/data/README.md`).
pub const FORMAT: &str = "slh-dsa-acvp-cases/1";

/// One vector file: its header and its cases, each a JSON object.
pub struct VectorFile {
    /// "keygen", "siggen" or "sigver".
    pub operation: String,
    /// The `count` field of the header, checked against `cases.len()`.
    pub count: usize,
    /// The cases in file order.
    pub cases: Vec<Case>,
}

/// `tests/data/<name>`.
fn data_path(name: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "tests", "data", name]
        .iter()
        .collect()
}

/// Reads `tests/data/<name>`, a gzip-compressed JSON file.
pub fn data_json_gz(name: &str) -> Value {
    let path = data_path(name);
    let file = File::open(&path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    let mut text = String::new();
    GzDecoder::new(BufReader::new(file))
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("gunzip {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parse {}: {e}", path.display()))
}

/// Reads `tests/data/<name>`, a gzip-compressed JSON vector file, and checks
/// its header: format tag, operation and case count.
pub fn load(name: &str, operation: &str) -> VectorFile {
    let path = data_path(name);
    let doc = data_json_gz(name);

    let header = |key: &str| {
        doc.get(key)
            .unwrap_or_else(|| panic!("{}: header has no {key:?}", path.display()))
    };
    assert_eq!(
        header("format").as_str(),
        Some(FORMAT),
        "{}: format",
        path.display()
    );
    assert_eq!(
        header("operation").as_str(),
        Some(operation),
        "{}: operation",
        path.display()
    );
    let count = header("count")
        .as_u64()
        .unwrap_or_else(|| panic!("{}: count is not a number", path.display()))
        as usize;
    let cases: Vec<Case> = header("cases")
        .as_array()
        .unwrap_or_else(|| panic!("{}: cases is not an array", path.display()))
        .iter()
        .map(|v| Case(v.clone()))
        .collect();
    assert_eq!(count, cases.len(), "{}: header count", path.display());
    assert!(count > 0, "{}: no cases", path.display());
    VectorFile {
        operation: operation.to_owned(),
        count,
        cases,
    }
}

/// One test case: a JSON object with typed accessors that panic with the
/// case's tcId when a field is missing or has the wrong type.
#[derive(Clone)]
pub struct Case(pub Value);

impl Case {
    /// ACVP's test case id.
    pub fn tc_id(&self) -> u64 {
        self.0
            .get("tcId")
            .and_then(Value::as_u64)
            .expect("case without a numeric tcId")
    }

    fn field(&self, key: &str) -> &Value {
        self.0
            .get(key)
            .unwrap_or_else(|| panic!("tcId {}: no field {key:?}", self.tc_id()))
    }

    /// A string field.
    pub fn str(&self, key: &str) -> &str {
        self.field(key)
            .as_str()
            .unwrap_or_else(|| panic!("tcId {}: {key:?} is not a string", self.tc_id()))
    }

    /// A string field that may be `null`.
    pub fn opt_str(&self, key: &str) -> Option<&str> {
        match self.field(key) {
            Value::Null => None,
            v => Some(
                v.as_str()
                    .unwrap_or_else(|| panic!("tcId {}: {key:?} is not a string", self.tc_id())),
            ),
        }
    }

    /// A boolean field.
    pub fn bool(&self, key: &str) -> bool {
        self.field(key)
            .as_bool()
            .unwrap_or_else(|| panic!("tcId {}: {key:?} is not a boolean", self.tc_id()))
    }

    /// A hex byte-string field.
    pub fn bytes(&self, key: &str) -> Vec<u8> {
        let s = self.str(key);
        hex::decode(s).unwrap_or_else(|e| panic!("tcId {}: {key:?} is not hex: {e}", self.tc_id()))
    }

    /// A hex byte-string field that may be `null`.
    pub fn opt_bytes(&self, key: &str) -> Option<Vec<u8>> {
        self.opt_str(key).map(|s| {
            hex::decode(s)
                .unwrap_or_else(|e| panic!("tcId {}: {key:?} is not hex: {e}", self.tc_id()))
        })
    }

    /// "tcId 12 (SLH-DSA-SHA2-128f external/pure)": a label for failure messages.
    pub fn label(&self) -> String {
        let mut s = format!("tcId {} ({}", self.tc_id(), self.str("parameterSet"));
        if let Some(interface) = self.0.get("interface").and_then(Value::as_str) {
            s.push_str(&format!(" {interface}"));
            if let Some(ph) = self.0.get("preHash").and_then(Value::as_str) {
                s.push_str(&format!("/{ph}"));
            }
        }
        if let Some(det) = self.0.get("deterministic").and_then(Value::as_bool) {
            s.push_str(if det { " deterministic" } else { " randomized" });
        }
        s.push(')');
        s
    }

    /// Whether the case is for a small-signature ('s') parameter set, which
    /// is slow to sign.
    pub fn is_small_set(&self) -> bool {
        self.str("parameterSet").ends_with('s')
    }
}

/// What [`run_cases`] saw.
pub struct Outcome {
    /// Cases run, passed or failed.
    pub ran: usize,
    /// One message per failed case, in tcId order.
    pub failures: Vec<String>,
}

impl Outcome {
    /// Panics, listing every failure, unless all `expected` cases ran and passed.
    pub fn assert_all_passed(&self, what: &str, expected: usize) {
        assert!(expected > 0, "{what}: no cases to run");
        assert!(
            self.failures.is_empty(),
            "{what}: {} of {} cases failed:\n  {}",
            self.failures.len(),
            self.ran,
            self.failures.join("\n  ")
        );
        assert_eq!(
            self.ran, expected,
            "{what}: ran {} of {expected} cases",
            self.ran
        );
    }
}

/// Runs `check` on every case, spread over `threads` threads that take the
/// next case from a shared counter. The slow cases of the 's' sets go first
/// so that the threads finish together. A panic inside `check` counts as a
/// failure of that case. Every case runs; failures are collected, not fatal.
pub fn run_cases<F>(cases: &[Case], threads: usize, check: F) -> Outcome
where
    F: Fn(&Case) -> Result<(), String> + Sync,
{
    let mut order: Vec<&Case> = cases.iter().collect();
    order.sort_by_key(|c| (!c.is_small_set(), c.tc_id()));

    let next = AtomicUsize::new(0);
    let ran = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::<(u64, String)>::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = order.get(i) else { break };
                let result = catch_unwind(AssertUnwindSafe(|| check(case)))
                    .unwrap_or_else(|panic| Err(format!("panicked: {}", panic_message(&panic))));
                ran.fetch_add(1, Ordering::Relaxed);
                if let Err(msg) = result {
                    failures
                        .lock()
                        .unwrap()
                        .push((case.tc_id(), format!("{}: {msg}", case.label())));
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    Outcome {
        ran: ran.into_inner(),
        failures: failures.into_iter().map(|(_, m)| m).collect(),
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_owned()
    }
}

/// Number of worker threads for the vector tests: 2, or `SPHINCS_TEST_THREADS`.
pub fn test_threads() -> usize {
    std::env::var("SPHINCS_TEST_THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(2)
}

/// Upper-case hex, as in the vector files.
pub fn hex_upper(bytes: &[u8]) -> String {
    hex::encode_upper(bytes)
}

/// Whether `SPHINCS_TEST_BACKENDS` (a comma-separated list of backend names)
/// admits `b`; unset, every backend is. The emulated AArch64 CI run sets it
/// so that each CPU model runs its own SIMD backend only, the scalar code
/// having run natively.
pub fn backend_wanted(b: sphincs::Backend) -> bool {
    match std::env::var("SPHINCS_TEST_BACKENDS") {
        Ok(list) => list
            .split(',')
            .any(|n| sphincs::Backend::from_name(n) == Some(b)),
        Err(_) => true,
    }
}

/// The backends a case must run on: every backend this CPU has whose kernels
/// for the case's parameter set differ from the scalar ones (the scalar
/// backend itself always), so each kernel meets every vector once; only
/// those [`backend_wanted`] admits.
pub fn backends_for(case: &Case) -> Vec<sphincs::Backend> {
    let alg: sphincs::Algorithm = case.str("parameterSet").parse().expect("known set");
    let describe = |b| {
        sphincs::with_backend(b, || {
            sphincs::hash::backend::Kernels::current()
                .describe(alg.name().contains("SHA2"), alg.security_category() > 1)
        })
        .expect("available")
    };
    let scalar = describe(sphincs::Backend::Scalar);
    sphincs::Backend::available()
        .filter(|&b| b == sphincs::Backend::Scalar || describe(b) != scalar)
        .filter(|&b| backend_wanted(b))
        .collect()
}

/// [`run_cases`] once per backend of [`backends_for`], the check run with
/// that backend forced; returns the outcome over all (case, backend) pairs.
pub fn run_cases_all_backends<F>(cases: &[Case], threads: usize, check: F) -> Outcome
where
    F: Fn(&Case) -> Result<(), String> + Sync,
{
    let mut total: Option<Outcome> = None;
    for backend in sphincs::Backend::available() {
        let mine: Vec<Case> = cases
            .iter()
            .filter(|c| backends_for(c).contains(&backend))
            .cloned()
            .collect();
        let outcome = run_cases(&mine, threads, |case| {
            sphincs::with_backend(backend, || check(case))
                .map_err(|e| e.to_string())?
                .map_err(|e| format!("[backend {backend}] {e}"))
        });
        eprintln!("  backend {backend}: {} cases", outcome.ran);
        total = Some(match total {
            None => outcome,
            Some(mut t) => {
                t.ran += outcome.ran;
                t.failures.extend(outcome.failures);
                t
            }
        });
    }
    total.expect("the scalar backend is always available")
}

/// splitmix64: a tiny, well-mixed deterministic generator. Not for keys; it
/// makes test inputs reproducible from a seed.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// `len` bytes, the low byte of one output each.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}

/// `len` splitmix64 bytes from `seed`, so a failure reproduces.
pub fn splitmix_bytes(seed: u64, len: usize) -> Vec<u8> {
    SplitMix64(seed).bytes(len)
}
