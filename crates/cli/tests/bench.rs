//! `sphincs bench`: JSON lines with the documented keys, `--calls`, and
//! one-line usage errors (exit 2) for an unknown backend or operation.

mod common;

use serde_json::Value;

/// Runs `sphincs ARGS`: exit status, standard output and error (both UTF-8).
fn sphincs(args: &[&str]) -> (i32, String, String) {
    let out = common::sphincs(args);
    assert!(
        !out.stderr.contains(char::REPLACEMENT_CHARACTER),
        "{}",
        out.stderr
    );
    (out.code, String::from_utf8(out.stdout).unwrap(), out.stderr)
}

/// Runs `sphincs` with the arguments split on spaces, which must exit 0;
/// its standard output, and that output's lines parsed as JSON.
fn json_rows(line: &str) -> (String, Vec<Value>) {
    let (code, stdout, stderr) = sphincs(&line.split(' ').collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    let rows = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (stdout, rows)
}

#[test]
fn json_lines_have_the_documented_keys() {
    let (stdout, rows) = json_rows("bench -a shake-128f --op verify --runs 3 --json");
    assert_eq!(rows.len(), 1, "{stdout}");
    let v = &rows[0];
    for key in [
        "algorithm",
        "op",
        "threads",
        "backend",
        "runs",
        "median_ns",
        "min_ns",
        "median_cycles",
        "ops_per_s",
        "peak_heap_bytes",
        "pk_bytes",
        "sk_bytes",
        "sig_bytes",
    ] {
        assert!(v.get(key).is_some(), "no {key} in {v}");
    }
    assert_eq!(v["algorithm"], "SLH-DSA-SHAKE-128f");
    assert_eq!(v["op"], "verify");
    assert_eq!(v["runs"], 3);
    assert_eq!(v["sig_bytes"], 17088);
    assert!(v["min_ns"].as_u64().unwrap() <= v["median_ns"].as_u64().unwrap());
    // Verification allocates nothing (tests/no_alloc.rs in the library says so too).
    assert_eq!(v["peak_heap_bytes"], 0);
}

#[test]
fn sign_and_keygen_rows_with_a_forced_backend() {
    let (_, rows) =
        json_rows("bench -a sha2-128f --op all --runs 1 --threads 1 --backend scalar --json");
    let ops: Vec<&str> = rows.iter().map(|r| r["op"].as_str().unwrap()).collect();
    assert_eq!(ops, ["keygen", "sign", "verify"]);
    for r in &rows {
        assert_eq!(r["backend"], "sha256-scalar");
        assert_eq!(r["threads"], 1);
    }
    // Signing allocates the signature.
    assert!(rows[1]["peak_heap_bytes"].as_u64().unwrap() >= 17088);
}

#[test]
fn calls_reproduce_the_shake_128f_floor() {
    let (_, rows) = json_rows("bench --calls -a shake-128f --op keygen --json");
    let [v] = &rows[..] else { panic!("{rows:?}") };
    // 2^3 leaves of 35 chains: 280 PRF, 280 * 15 F, 8 T_len of 5 permutations, 7 H.
    assert_eq!(v["f"], 4200.0);
    assert_eq!(v["keccak_f1600"], 4527.0);
    // The floor is the calls times the costs measured on this CPU just now,
    // and the row says which those were.
    let cost = &v["cost_ns"];
    let keccak = cost["keccak_f1600"].as_f64().unwrap();
    assert!(keccak > 1.0 && keccak < 100_000.0, "{cost}");
    let floor = v["floor_ns"].as_f64().unwrap();
    assert!((floor - 4527.0 * keccak).abs() < 1e-6 * floor, "{v}");
    assert!(v["kernels"].as_str().unwrap().contains("keccak-"), "{v}");
}

/// A draft SP 800-230 signature with a loaded tree cache: k FORS trees, one
/// subtree of 2^7 leaves and the 2^15 kept nodes' upper tree, not the whole
/// 2^22-leaf tree, plus the verification before release.
#[test]
fn calls_of_a_cached_one_tree_signature() {
    let (_, rows) = json_rows("bench --calls -a sha2-128-24 --op sign --json");
    let [v] = &rows[..] else { panic!("{rows:?}") };
    // FORS: 6 trees of 2^24 leaves (2^24 - 1 H each); subtree 2^7 - 1 H;
    // upper tree 2^15 - 1 H; verification k·a + h' = 6·24 + 22 H.
    let fors = 6.0 * ((1u64 << 24) - 1) as f64;
    let h = fors + 127.0 + 32767.0 + 166.0;
    assert_eq!(v["h"], h);
    // PRF: a FORS leaf each, and 128 leaves of 68 chains (lg_w = 2, n = 16).
    assert_eq!(v["prf"], 6.0 * (1u64 << 24) as f64 + 128.0 * 68.0);
}

fn usage_error(args: &[&str], needle: &str) {
    let (code, stdout, stderr) = sphincs(args);
    assert_eq!(code, 2, "stdout {stdout} stderr {stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.starts_with("sphincs: error: "), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(needle), "want {needle:?} in {stderr}");
}

#[test]
fn unknown_backend_or_op_is_a_usage_error() {
    usage_error(
        &["bench", "-a", "shake-128f", "--backend", "quantum"],
        "unknown hash backend \"quantum\"",
    );
    usage_error(
        &["bench", "-a", "shake-128f", "--op", "encrypt"],
        "unknown operation \"encrypt\"",
    );
    usage_error(&["bench", "-a", "shake-129f"], "unknown algorithm");
}

/// Round-3.1 sets: by name, with their kernels and sizes; `--stack` probes
/// them too; `--calls` counts FIPS 205 sets only and says so.
#[test]
fn round31_sets() {
    let (stdout, rows) = json_rows(
        "bench -a sphincs-haraka-128f-robust SPHINCS+-SHA2-128f-simple --op verify --runs 2 --threads 1 --stack --json",
    );
    assert_eq!(rows.len(), 2, "{stdout}");
    assert_eq!(rows[0]["algorithm"], "sphincs-haraka-128f-robust");
    assert!(rows[0]["backend"].as_str().unwrap().starts_with("haraka-"));
    assert_eq!(rows[1]["algorithm"], "sphincs-sha2-128f-simple");
    assert!(rows[1]["backend"].as_str().unwrap().starts_with("sha256-"));
    for r in &rows {
        assert_eq!(r["sig_bytes"], 17088);
        assert_eq!(r["peak_heap_bytes"], 0);
        let kib = r["stack_kib_max"].as_u64().expect("a measured stack");
        assert!((16..=1024).contains(&kib), "{r}");
    }
    let (code, _, stderr) = sphincs(&["bench", "--calls", "-a", "sphincs-shake-128f-simple"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("FIPS 205 sets only"), "{stderr}");
}

#[test]
fn batch_rows_for_one_thread_and_all_threads() {
    let (stdout, rows) = json_rows("bench -a shake-128f --batch 4 --threads 2 --runs 1 --json");
    let seen: Vec<(String, u64)> = rows
        .iter()
        .map(|v| {
            (
                v["op"].as_str().unwrap().to_string(),
                v["threads"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("sign_batch", 1),
        ("sign_batch", 2),
        ("verify_batch", 1),
        ("verify_batch", 2),
    ];
    assert_eq!(
        seen,
        want.map(|(o, t)| (o.to_string(), t)).to_vec(),
        "{stdout}"
    );
    for v in &rows {
        assert_eq!(v["batch"], 4);
        let median = v["median_ns"].as_f64().unwrap();
        let per_sig = v["per_sig_ns"].as_f64().unwrap();
        assert!((per_sig * 4.0 - median).abs() < 1.0, "{v}");
        let sps = v["sigs_per_s"].as_f64().unwrap();
        assert!((sps - 4e9 / median).abs() / sps < 1e-6, "{v}");
    }
    let (code, _, stderr) = sphincs(&["bench", "--batch", "4", "--calls"]);
    assert_eq!(code, 2, "{stderr}");
}
