//! `sphincs bench`: times keygen, sign and verify, with cycles (rdtsc), peak
//! heap per operation (the counting allocator that main.rs installs) and,
//! with `--stack`, the smallest thread stack each operation completes on.

pub mod calls;

use std::hint::black_box;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::json;
use sphincs::any::{self, AnyAlgorithm, AnySigningKey, AnyVerifyItem, AnyVerifyingKey, Family};
use sphincs::hash::backend::{cycle_counter, heap_in_use, heap_peak, reset_heap_peak, Backend};
use sphincs::{Algorithm, Randomness, SignOptions};

use crate::error::CliError;

/// The message every benchmark signs.
const MSG: &[u8] = b"sphincs bench: a 32-byte message";
/// FIPS 205's M' for it: 0x00 ‖ |ctx| = 0 ‖ MSG.
const MSG_PRIME_LEN: usize = 2 + MSG.len();
/// Time budget per operation when `--runs` is not given.
const BUDGET_NS: f64 = 1e9;
const MAX_RUNS: u32 = 100_000;
/// glibc's smallest thread stack; smaller requests are rounded up to it.
const MIN_STACK_KIB: usize = 16;
const MAX_STACK_KIB: usize = 1024;

const OPS: [&str; 3] = ["keygen", "sign", "verify"];

/// `sphincs bench`'s options, already checked by clap where clap can.
pub struct BenchArgs {
    pub algorithms: Vec<String>,
    pub op: String,
    pub threads: usize,
    pub backend: Option<String>,
    pub runs: Option<u32>,
    pub json: bool,
    pub stack: bool,
    pub calls: bool,
    /// `--batch N`: time batch signing and verification of N messages.
    pub batch: Option<usize>,
}

/// The table's name: without the `SLH-DSA-` prefix; round-3.1 names stay whole.
fn short(alg: AnyAlgorithm) -> &'static str {
    alg.name().trim_start_matches("SLH-DSA-")
}

/// Whether keygen and signing are slow (an 's' set: few, tall layers).
fn is_s(alg: AnyAlgorithm) -> bool {
    alg.params().is_some_and(|p| p.d < 17)
}

/// Parses `-a` values: none or `all` means the twelve FIPS 205 sets, `r31`
/// the 36 SPHINCS+ round-3.1 sets; single names of either kind.
fn parse_algorithms(names: &[String]) -> Result<Vec<AnyAlgorithm>, CliError> {
    let mut sets = Vec::new();
    let mut add = |s: AnyAlgorithm| {
        if !sets.contains(&s) {
            sets.push(s);
        }
    };
    if names.is_empty() {
        Algorithm::ALL.into_iter().for_each(|a| add(a.into()));
    }
    for name in names {
        if name.eq_ignore_ascii_case("all") {
            Algorithm::ALL.into_iter().for_each(|a| add(a.into()));
        } else if name.eq_ignore_ascii_case("r31") {
            AnyAlgorithm::of_family(Family::SphincsPlus).for_each(&mut add);
        } else {
            add(parse_one(name)?);
        }
    }
    Ok(sets)
}

/// One set of any family by name.
fn parse_one(name: &str) -> Result<AnyAlgorithm, CliError> {
    Ok(name.parse::<AnyAlgorithm>()?)
}

fn parse_ops(op: &str) -> Result<Vec<&'static str>, CliError> {
    let op = op.trim().to_ascii_lowercase();
    if op == "all" {
        return Ok(OPS.to_vec());
    }
    OPS.into_iter()
        .find(|o| *o == op)
        .map(|o| vec![o])
        .ok_or_else(|| {
            CliError::Failed(format!(
                "unknown operation {op:?}: expected keygen, sign, verify or all"
            ))
        })
}

/// `--backend NAME`, checked against this CPU.
pub fn parse_backend(name: Option<&str>) -> Result<Option<Backend>, CliError> {
    let Some(name) = name else { return Ok(None) };
    let b: Backend = name.parse()?;
    if !b.is_available() {
        return Err(sphincs::Error::BackendUnavailable(b.name()).into());
    }
    Ok(Some(b))
}

/// Runs `f` under the forced backend, if any.
fn on_backend<R>(backend: Option<Backend>, f: impl FnOnce() -> R) -> Result<R, CliError> {
    match backend {
        Some(b) => Ok(sphincs::with_backend(b, f)?),
        None => Ok(f()),
    }
}

fn deterministic(threads: usize) -> SignOptions<'static> {
    SignOptions {
        randomness: Randomness::Deterministic,
        threads,
        ..Default::default()
    }
}

/// One timed call: wall time, cycles, and heap bytes above the level before.
struct Sample {
    ns: u64,
    cycles: Option<u64>,
    heap: usize,
}

fn sample(op: &mut dyn FnMut() -> Result<(), sphincs::Error>) -> Result<Sample, CliError> {
    reset_heap_peak();
    let base = heap_in_use();
    let c0 = cycle_counter();
    let t0 = Instant::now();
    op()?;
    let ns = t0.elapsed().as_nanos() as u64;
    let c1 = cycle_counter();
    Ok(Sample {
        ns,
        cycles: c0.zip(c1).map(|(a, b)| b.wrapping_sub(a)),
        heap: heap_peak().saturating_sub(base),
    })
}

/// One table row.
struct Row {
    alg: AnyAlgorithm,
    op: &'static str,
    threads: usize,
    backend: String,
    runs: u32,
    median_ns: u64,
    min_ns: u64,
    median_cycles: Option<u64>,
    peak_heap: usize,
    stack_kib: Option<Result<usize, String>>,
    /// Signatures per timed call (batch rows), else 1.
    batch: Option<usize>,
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2
    }
}

/// Times `op` of `alg`: one warm-up call (not counted), then `runs` calls,
/// or as many as fit in about a second (at least 3; at least 1 for the slow
/// 's'-set keygen and sign). Keys come from a fixed seed; timing does not
/// depend on its value.
fn measure(
    alg: AnyAlgorithm,
    op: &'static str,
    threads: usize,
    runs: Option<u32>,
) -> Result<Row, CliError> {
    let seed = filler(alg.seed_len(), 5);
    let sk = AnySigningKey::from_seed(alg, &seed, threads)?;
    let opts = deterministic(threads);
    let sig = sk.sign(MSG, &opts)?;
    let vk = sk.verifying_key();
    let mut f: Box<dyn FnMut() -> Result<(), sphincs::Error>> = match op {
        "keygen" => Box::new(|| {
            black_box(AnySigningKey::from_seed(alg, black_box(&seed), threads)?);
            Ok(())
        }),
        "sign" => Box::new(|| {
            black_box(sk.sign(black_box(MSG), &opts)?);
            Ok(())
        }),
        _ => Box::new(|| vk.verify(black_box(MSG), &sig, b"", None)),
    };
    timed_row(alg, op, threads, runs, &mut *f)
}

fn timed_row(
    set: AnyAlgorithm,
    op: &'static str,
    threads: usize,
    runs: Option<u32>,
    f: &mut dyn FnMut() -> Result<(), sphincs::Error>,
) -> Result<Row, CliError> {
    let warm = sample(&mut *f)?;
    let slow = is_s(set) && op != "verify";
    let runs = runs.unwrap_or_else(|| {
        let fit = (BUDGET_NS / warm.ns.max(1) as f64) as u32;
        fit.clamp(if slow { 1 } else { 3 }, MAX_RUNS)
    });
    let mut samples = Vec::with_capacity(runs as usize);
    for _ in 0..runs {
        samples.push(sample(&mut *f)?);
    }
    let mut ns: Vec<u64> = samples.iter().map(|s| s.ns).collect();
    let min_ns = *ns.iter().min().expect("runs >= 1");
    let median_ns = median(&mut ns);
    let median_cycles = samples
        .iter()
        .map(|s| s.cycles)
        .collect::<Option<Vec<u64>>>()
        .map(|mut v| median(&mut v));
    Ok(Row {
        alg: set,
        op,
        threads,
        backend: set.kernels(),
        runs,
        median_ns,
        min_ns,
        median_cycles,
        peak_heap: samples.iter().map(|s| s.heap).max().unwrap_or(0),
        stack_kib: None,
        batch: None,
    })
}

const HEADER: [&str; 14] = [
    "algorithm",
    "op",
    "thr",
    "backend",
    "runs",
    "median ms",
    "min ms",
    "median cycles",
    "ops/s",
    "heap B",
    "pk B",
    "sk B",
    "sig B",
    "stack KiB",
];

fn table_line(cells: &[String]) -> String {
    let widths = [25, 12, 3, 33, 6, 11, 11, 14, 10, 8, 5, 5, 6, 9];
    let mut line = String::new();
    for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
        if i < 2 || i == 3 {
            line += &format!("{cell:<w$} ");
        } else {
            line += &format!("{cell:>w$} ");
        }
    }
    line.trim_end().to_string() + "\n"
}

fn stack_text(s: &Option<Result<usize, String>>) -> String {
    match s {
        None => String::new(),
        Some(Ok(kib)) if *kib <= MIN_STACK_KIB => format!("<={kib}"),
        Some(Ok(kib)) => kib.to_string(),
        Some(Err(why)) => why.clone(),
    }
}

impl Row {
    /// Operations per second; signatures per second for a batch row.
    fn per_second(&self) -> f64 {
        self.batch.unwrap_or(1) as f64 * 1e9 / self.median_ns.max(1) as f64
    }

    fn cells(&self) -> Vec<String> {
        let ms = |ns: u64| format!("{:.3}", ns as f64 / 1e6);
        let mut v = vec![
            short(self.alg).to_string(),
            self.op.to_string(),
            self.threads.to_string(),
            self.backend.clone(),
            self.runs.to_string(),
            ms(self.median_ns),
            ms(self.min_ns),
            self.median_cycles.map_or("-".into(), |c| c.to_string()),
            format!("{:.1}", self.per_second()),
            self.peak_heap.to_string(),
            self.alg.public_key_len().to_string(),
            self.alg.secret_key_len().to_string(),
            self.alg.signature_len().to_string(),
        ];
        if self.stack_kib.is_some() {
            v.push(stack_text(&self.stack_kib));
        }
        v
    }

    fn json(&self) -> String {
        let mut o = json!({
            "algorithm": self.alg.name(),
            "op": self.op,
            "threads": self.threads,
            "backend": self.backend,
            "runs": self.runs,
            "median_ns": self.median_ns,
            "min_ns": self.min_ns,
            "median_cycles": self.median_cycles,
            "ops_per_s": self.per_second(),
            "peak_heap_bytes": self.peak_heap,
            "pk_bytes": self.alg.public_key_len(),
            "sk_bytes": self.alg.secret_key_len(),
            "sig_bytes": self.alg.signature_len(),
        });
        if let Some(n) = self.batch {
            o["batch"] = json!(n);
            o["sigs_per_s"] = json!(self.per_second());
            o["per_sig_ns"] = json!(self.median_ns as f64 / n as f64);
        }
        match &self.stack_kib {
            None => {}
            // An upper bound: the smallest stack tried on which the operation completed.
            Some(Ok(kib)) => o["stack_kib_max"] = json!(kib),
            Some(Err(why)) => o["stack_kib_max"] = json!(why),
        }
        o.to_string() + "\n"
    }
}

fn emit(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failed(format!("cannot write to standard output: {e}")))
}

/// `sphincs bench`.
pub fn run(args: BenchArgs) -> Result<(), CliError> {
    let algs = parse_algorithms(&args.algorithms)?;
    let ops = parse_ops(&args.op)?;
    let backend = parse_backend(args.backend.as_deref())?;
    if args.calls {
        if algs == [AnyAlgorithm::Sphincs256] {
            let msg = MSG;
            return on_backend(backend, || calls::print_sphincs256(msg))?;
        }
        let fips: Vec<Algorithm> = algs
            .iter()
            .map(|a| {
                a.slh_dsa().ok_or_else(|| {
                    CliError::Failed(format!("--calls counts the FIPS 205 sets only, not {a}"))
                })
            })
            .collect::<Result<_, _>>()?;
        return on_backend(backend, || print_calls(&fips, &ops, args.json))?;
    }
    if !args.json {
        let mut head: Vec<String> = HEADER.iter().map(|s| s.to_string()).collect();
        if !args.stack {
            head.pop();
        }
        emit(&table_line(&head))?;
    }
    if let Some(n) = args.batch {
        // One thread, then every thread asked for: the throughput side by side.
        let mut counts = vec![1];
        if args.threads > 1 {
            counts.push(args.threads);
        }
        for &alg in &algs {
            for &op in ops.iter().filter(|o| **o != "keygen") {
                for &threads in &counts {
                    let row =
                        on_backend(backend, || measure_batch(alg, op, n, threads, args.runs))??;
                    emit(&if args.json {
                        row.json()
                    } else {
                        table_line(&row.cells())
                    })?;
                }
            }
        }
        return emit_notes(&args);
    }
    for &alg in &algs {
        for &op in &ops {
            let mut row = on_backend(backend, || measure(alg, op, args.threads, args.runs))??;
            if args.stack {
                row.stack_kib = Some(stack_kib(alg, op, backend));
            }
            emit(&if args.json {
                row.json()
            } else {
                table_line(&row.cells())
            })?;
        }
    }
    emit_notes(&args)
}

/// The lines under the table.
fn emit_notes(args: &BenchArgs) -> Result<(), CliError> {
    if args.json {
        return Ok(());
    }
    emit(
        "Times: median and minimum over the runs, after one warm-up run. Cycles: the time-stamp counter.\n\
         Heap: the most bytes allocated at once during one operation.\n",
    )?;
    if args.batch.is_some() {
        emit("Batch rows: times are for the whole batch; ops/s counts signatures.\n")?;
    }
    if args.stack {
        emit("Stack: the smallest thread stack on which the operation completes on one thread.\n")?;
    }
    Ok(())
}

/// Times `sign_batch` or `verify_batch` over `n` distinct messages under one
/// key (deterministic signatures), on `threads` threads.
fn measure_batch(
    alg: AnyAlgorithm,
    op: &'static str,
    n: usize,
    threads: usize,
    runs: Option<u32>,
) -> Result<Row, CliError> {
    let msgs: Vec<Vec<u8>> = (0..n)
        .map(|i| [MSG, &(i as u64).to_le_bytes()].concat())
        .collect();
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let sk = AnySigningKey::from_seed(alg, &filler(alg.seed_len(), 5), threads)?;
    let opts = deterministic(threads);
    let sigs = sk.sign_batch(&refs, &opts)?;
    let vk = sk.verifying_key();
    let mut f: Box<dyn FnMut() -> Result<(), sphincs::Error>> = if op == "sign" {
        Box::new(|| {
            black_box(sk.sign_batch(black_box(&refs), &opts)?);
            Ok(())
        })
    } else {
        Box::new(|| {
            let items: Vec<AnyVerifyItem> = refs
                .iter()
                .zip(&sigs)
                .map(|(m, s)| AnyVerifyItem {
                    key: &vk,
                    message: m,
                    signature: s,
                    context: b"",
                    prehash: None,
                })
                .collect();
            any::verify_batch(black_box(&items), threads)
                .into_iter()
                .collect()
        })
    };
    let op = if op == "sign" {
        "sign_batch"
    } else {
        "verify_batch"
    };
    let mut row = timed_row(alg, op, threads, runs, &mut *f)?;
    row.batch = Some(n);
    Ok(row)
}

/// Rounds of the kernels' calibration behind `--calls`' floors.
const CALIBRATION_RUNS: usize = 20;

fn print_calls(algs: &[Algorithm], ops: &[&str], json: bool) -> Result<(), CliError> {
    // The floors use this CPU's costs, measured now with the kernels the
    // backend in force (`--backend`, else `SPHINCS_BACKEND`, else the best)
    // selects: the bare kernels, the fastest of 20 rounds (about 0.15 s).
    let kernels = sphincs::hash::backend::Kernels::current();
    let cost = sphincs::hash::backend::calibrate::measure_call_costs(kernels, CALIBRATION_RUNS);
    let kernel_names = format!(
        "{}, {}",
        kernels.describe(false, false),
        kernels.describe(true, true)
    );
    let mut out = String::new();
    if !json {
        out +=
            &format!(
            "{:<12} {:<6} {:>8} {:>9} {:>7} {:>6} {:>4} {:>7} {:>5} | {:>9} {:>9} {:>8} | {:>9}\n",
            "set", "op", "PRF", "F", "H", "T_len", "T_k", "PRF_msg", "H_msg", "keccak-f",
            "sha256", "sha512", "floor ms"
        );
    }
    for &alg in algs {
        for &op in ops {
            let c = calls::calls(alg, op, MSG_PRIME_LEN);
            if json {
                out += &(json!({
                    "algorithm": alg.name(),
                    "op": op,
                    "prf": c.prf, "f": c.f, "h": c.h, "t_len": c.t_len, "t_k": c.t_k,
                    "prf_msg": c.prf_msg, "h_msg": c.h_msg,
                    "keccak_f1600": c.keccak, "sha256_blocks": c.sha256, "sha512_blocks": c.sha512,
                    "sha256_chain_blocks": c.sha256_chain,
                    "floor_ns": c.floor_ns(&cost),
                    "cost_ns": {
                        "keccak_f1600": cost.keccak_ns,
                        "sha256_block": cost.sha256_ns,
                        "sha512_block": cost.sha512_ns,
                        "sha256_chain_step": cost.sha256_chain_ns,
                        "measured": "at run time on this CPU: the bare kernels, per lane, lanes full",
                        "rounds": CALIBRATION_RUNS,
                    },
                    "kernels": kernel_names,
                })
                .to_string()
                    + "\n");
            } else {
                out += &format!(
                    "{:<12} {:<6} {:>8} {:>9} {:>7} {:>6} {:>4} {:>7} {:>5} | {:>9} {:>9} {:>8} | {:>9.3}\n",
                    alg.name().trim_start_matches("SLH-DSA-"),
                    op,
                    c.prf,
                    c.f,
                    c.h,
                    c.t_len,
                    c.t_k,
                    c.prf_msg,
                    c.h_msg,
                    c.keccak,
                    c.sha256,
                    c.sha512,
                    c.floor_ns(&cost) / 1e6
                );
            }
        }
    }
    if !json {
        out += &format!(
            "Verify's F count is the average (half of each chain). Floor: one core at {:.1} ns per\n\
             Keccak-f[1600], {:.1} ns per SHA-256 block ({:.1} ns per WOTS+ chain step, the SHA-2 sets'\n\
             F calls in chains, the PRF calls starting them, FORS leaves), {:.1} ns per SHA-512 block, per lane with the lanes full: the bare\n\
             kernels ({kernel_names}), measured just now on this CPU (the fastest of {CALIBRATION_RUNS}\n\
             rounds of about 2 ms each).\n",
            cost.keccak_ns,
            cost.sha256_ns,
            cost.sha256_chain_ns,
            cost.sha512_ns
        );
    }
    emit(&out)
}

/// The smallest thread stack (KiB) on which `op` completes on one thread:
/// a binary search over child processes (`sphincs bench-stack-probe`), since
/// a stack overflow aborts the process.
fn stack_kib(alg: AnyAlgorithm, op: &str, backend: Option<Backend>) -> Result<usize, String> {
    let exe = std::env::current_exe().map_err(|e| format!("no exe: {e}"))?;
    let fits = |kib: usize| {
        let mut cmd = Command::new(&exe);
        cmd.args(["bench-stack-probe", alg.name(), op, &kib.to_string()]);
        if let Some(b) = backend {
            cmd.args(["--backend", b.name()]);
        }
        cmd.stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !fits(MAX_STACK_KIB) {
        return Err(format!(">{MAX_STACK_KIB}"));
    }
    let (mut lo, mut hi) = (MIN_STACK_KIB, MAX_STACK_KIB);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(hi)
}

/// Fixed, arbitrary bytes for the stack probe's keys and signature.
fn filler(len: usize, salt: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt))
        .collect()
}

/// `sphincs bench-stack-probe ALG OP KIB`: runs `op` once on a thread with a
/// `kib` KiB stack. Exits 0 if it completes; a stack overflow kills the process.
pub fn stack_probe(alg: &str, op: &str, kib: usize, backend: Option<&str>) -> Result<(), CliError> {
    let set = parse_one(alg)?;
    let op = parse_ops(op)?;
    let [op] = op[..] else {
        return Err(CliError::Failed("probe one operation at a time".into()));
    };
    let backend = parse_backend(backend)?;
    let sig = filler(set.signature_len(), 3);
    let worker = std::thread::Builder::new()
        .stack_size(kib * 1024)
        .spawn(move || {
            on_backend(backend, || -> Result<(), CliError> {
                probe_once(set, op, &sig)
            })?
        })
        .map_err(|e| CliError::Failed(format!("cannot start a thread: {e}")))?;
    worker
        .join()
        .map_err(|_| CliError::Failed("probe thread panicked".into()))?
}

/// One operation of `set` on fixed bytes, for the stack probe.
fn probe_once(set: AnyAlgorithm, op: &str, sig: &[u8]) -> Result<(), CliError> {
    match op {
        "keygen" => {
            AnySigningKey::from_seed(set, &filler(set.seed_len(), 4), 1)?;
        }
        "sign" => {
            let sk = AnySigningKey::from_bytes_unchecked(set, &filler(set.secret_key_len(), 1))?;
            sk.sign(MSG, &deterministic(1))?;
        }
        _ => {
            // A random signature walks the same code path as a valid one.
            let vk = AnyVerifyingKey::from_bytes(set, &filler(set.public_key_len(), 2))?;
            let _ = vk.verify(MSG, sig, b"", None);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn groups_list_their_family_once() {
        let r31 = parse_algorithms(&names(&["r31"])).unwrap();
        // The round-3.1 submission has 36 sets, all from the core's list.
        assert_eq!(r31.len(), 36);
        assert!(r31.iter().all(|a| a.family() == Family::SphincsPlus));
        let mixed = parse_algorithms(&names(&["all", "r31", "sphincs-shake-128f-simple"])).unwrap();
        assert_eq!(
            mixed.len(),
            Algorithm::ALL.len() + r31.len(),
            "no set twice"
        );
        assert_eq!(&mixed[Algorithm::ALL.len()..], &r31[..]);
        assert_eq!(parse_algorithms(&[]).unwrap().len(), Algorithm::ALL.len());
    }
}
