//! SPHINCS-256, the 2015 scheme (`-a sphincs-256`): what the command line
//! refuses for it (keys are made, read, signed and verified through
//! `cmd_keys`, `rawkey` and `sphincs::any`), `list`'s row and `bench`. No
//! OID exists for it: keys are the raw bytes of the SUPERCOP reference (secret key
//! SK1 ‖ Q ‖ SK2, 1088 bytes; public key Q ‖ root, 1056 bytes); signatures
//! are detached raw bytes (41000), deterministic as in the reference.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::json;
use sphincs::hash::backend::{cycle_counter, Kernels};
use sphincs::sphincs256::{params, Sphincs256SigningKey, ALGORITHM};

use crate::error::CliError;
use crate::io::write_stdout;

/// Whether `-a` names SPHINCS-256 (`sphincs-256`, any case, or `sphincs256`).
pub fn is(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    n == ALGORITHM || n == "sphincs256"
}

/// Refuses the FIPS 205 signing options SPHINCS-256 does not have, in one line.
fn refuse(context: bool, prehash: bool) -> Result<(), CliError> {
    if context || prehash {
        return Err(CliError::Failed(
            "sphincs-256 signs the message as given: --context, --context-hex and --prehash are FIPS 205 only".into(),
        ));
    }
    Ok(())
}

/// What `sign` refuses for SPHINCS-256 before reading anything: the FIPS 205
/// options, and several files (the command signs and verifies this scheme
/// one file at a time, without FILE.sig batches).
pub fn refuse_sign(
    context: bool,
    prehash: bool,
    files: &[PathBuf],
    dir: bool,
) -> Result<(), CliError> {
    refuse(context, prehash)?;
    if files.len() > 1 || dir {
        return Err(CliError::Failed(
            "sphincs-256 signs and verifies one file at a time (no FILE.sig batches)".into(),
        ));
    }
    Ok(())
}

/// What `verify` refuses for SPHINCS-256: as [`refuse_sign`], and a missing
/// `-s SIG` (no FILE.sig batches).
pub fn refuse_verify(
    context: bool,
    prehash: bool,
    files: &[PathBuf],
    dir: bool,
    signature: bool,
) -> Result<(), CliError> {
    refuse_sign(context, prehash, files, dir)?;
    if !signature {
        return Err(CliError::Failed(
            "sphincs-256 verifies one file at a time: give the signature with -s SIG".into(),
        ));
    }
    Ok(())
}

/// Refuses `--fault-hardened`, in the command line's words: the scheme's
/// signatures are deterministic, so comparing two is the user's check.
pub fn no_fault_hardening(fault_hardened: bool) -> Result<(), CliError> {
    if fault_hardened {
        return Err(CliError::Failed(
            "--fault-hardened is for SLH-DSA and SPHINCS+; sphincs-256 signing is deterministic: sign twice and compare".into(),
        ));
    }
    Ok(())
}

/// `list`'s row.
pub fn list_row() -> String {
    format!(
        "{:<27} {:>8} {:>6} {:>6} {:>7}  raw (SPHINCS 2015)\n",
        ALGORITHM,
        "-",
        params::PK_BYTES,
        params::SK_BYTES,
        params::SIG_BYTES,
    )
}

/// The message every benchmark signs (as `bench` for the other sets).
const MSG: &[u8] = b"sphincs bench: a 32-byte message";

/// `sphincs bench -a sphincs-256`: median and minimum time, median cycles
/// (time-stamp counter) per operation, on one key made from fixed bytes.
pub fn bench(
    ops: &str,
    threads: usize,
    runs: Option<u32>,
    json_out: bool,
    backend: Option<&str>,
) -> Result<(), CliError> {
    let backend = crate::bench::parse_backend(backend)?;
    let run = || bench_on_backend(ops, threads, runs, json_out);
    match backend {
        Some(b) => sphincs::with_backend(b, run)?,
        None => run(),
    }
}

fn bench_on_backend(
    ops: &str,
    threads: usize,
    runs: Option<u32>,
    json_out: bool,
) -> Result<(), CliError> {
    let ops: Vec<&str> = match ops.trim().to_ascii_lowercase().as_str() {
        "all" => vec!["keygen", "sign", "verify"],
        "keygen" => vec!["keygen"],
        "sign" => vec!["sign"],
        "verify" => vec!["verify"],
        other => {
            return Err(CliError::Failed(format!(
                "unknown operation {other:?}: expected keygen, sign, verify or all"
            )))
        }
    };
    let sk_bytes: Vec<u8> = (0..params::SK_BYTES).map(|i| (i * 7 + 5) as u8).collect();
    let sk = Sphincs256SigningKey::from_bytes(&sk_bytes)?;
    let vk = sk.verifying_key();
    let sig = sk.sign_with_threads(MSG, threads);
    let kernel = Kernels::current().describe_chacha();
    let mut out = String::new();
    if !json_out {
        out += &format!(
            "{:<12} {:<6} {:>3} {:<20} {:>5} {:>10} {:>10} {:>13} {:>9}\n",
            "algorithm",
            "op",
            "thr",
            "backend",
            "runs",
            "median ms",
            "min ms",
            "median cycles",
            "ops/s"
        );
    }
    for op in ops {
        let mut f: Box<dyn FnMut()> = match op {
            "keygen" => Box::new(|| {
                black_box(Sphincs256SigningKey::from_bytes(black_box(&sk_bytes)).ok());
            }),
            "sign" => Box::new(|| {
                black_box(sk.sign_with_threads(black_box(MSG), threads));
            }),
            _ => Box::new(|| {
                black_box(vk.verify(black_box(MSG), &sig).ok());
            }),
        };
        let time = |f: &mut dyn FnMut()| {
            let c0 = cycle_counter();
            let t0 = Instant::now();
            f();
            let ns = t0.elapsed().as_nanos() as u64;
            (ns, c0.zip(cycle_counter()).map(|(a, b)| b.wrapping_sub(a)))
        };
        let (warm, _) = time(&mut *f);
        let runs = runs.unwrap_or_else(|| (1e9 / warm.max(1) as f64).clamp(3.0, 10_000.0) as u32);
        let mut ns = Vec::with_capacity(runs as usize);
        let mut cycles = Vec::with_capacity(runs as usize);
        for _ in 0..runs {
            let (t, c) = time(&mut *f);
            ns.push(t);
            cycles.extend(c);
        }
        ns.sort_unstable();
        cycles.sort_unstable();
        let (median, min) = (ns[ns.len() / 2], ns[0]);
        let median_cycles = cycles.get(cycles.len() / 2).copied();
        // Keygen runs on the calling thread only.
        let thr = if op == "sign" { threads } else { 1 };
        if json_out {
            out += &(json!({
                "algorithm": ALGORITHM,
                "op": op,
                "threads": thr,
                "backend": kernel,
                "runs": runs,
                "median_ns": median,
                "min_ns": min,
                "median_cycles": median_cycles,
                "ops_per_s": 1e9 / median.max(1) as f64,
                "pk_bytes": params::PK_BYTES,
                "sk_bytes": params::SK_BYTES,
                "sig_bytes": params::SIG_BYTES,
            })
            .to_string()
                + "\n");
        } else {
            out += &format!(
                "{:<12} {:<6} {:>3} {:<20} {:>5} {:>10.3} {:>10.3} {:>13} {:>9.1}\n",
                ALGORITHM,
                op,
                thr,
                kernel,
                runs,
                median as f64 / 1e6,
                min as f64 / 1e6,
                median_cycles.map_or("-".into(), |c| c.to_string()),
                1e9 / median.max(1) as f64
            );
        }
    }
    if !json_out {
        out += "Times: median and minimum over the runs, after one warm-up run. Cycles: the time-stamp counter.\n\
                Keygen is loading the 1088-byte secret key (it builds the top subtree), on one thread.\n";
    }
    write_stdout(out.as_bytes(), false)
}

/// `sphincs bench -a sphincs-256 --calls`: permutations and BLAKE blocks per
/// operation, the measured cost of one permutation per lane on the chosen
/// kernel (F chains and H timed alone) and of a BLAKE block, and the floor
/// they imply.
pub fn calls(backend: Option<&str>) -> Result<(), CliError> {
    let backend = crate::bench::parse_backend(backend)?;
    match backend {
        Some(b) => sphincs::with_backend(b, print_calls)?,
        None => print_calls(),
    }
}

/// The least of seven timings of `f`, in time-stamp-counter cycles per
/// `reps` (the machine may be shared).
fn best(f: &mut dyn FnMut(), reps: u64) -> Option<f64> {
    (0..7)
        .filter_map(|_| {
            let c0 = cycle_counter()?;
            f();
            Some(cycle_counter()?.wrapping_sub(c0))
        })
        .min()
        .map(|c| c as f64 / reps as f64)
}

fn print_calls() -> Result<(), CliError> {
    use sphincs::hash::backend::chacha12::{chains_x16_current, h_x16_current, Half, LANES};
    use sphincs::hash::blake::{blake256, blake512};
    use sphincs::sphincs256::calls;
    const REPS: u64 = 400;
    let masks = [[0x9e37_79b9u32; 8]; 15];
    let mut cur: Half = [[1; LANES]; 8];
    let (start, end) = ([0u8; LANES], [15u8; LANES]);
    let f_cost = best(
        &mut || {
            for _ in 0..REPS {
                chains_x16_current(black_box(&mut cur), &masks, &start, &end);
            }
        },
        REPS * 15 * LANES as u64,
    );
    let right: Half = [[2; LANES]; 8];
    let h_cost = best(
        &mut || {
            for _ in 0..REPS * 8 {
                h_x16_current(black_box(&mut cur), &right, &[masks[0], masks[1]]);
            }
        },
        REPS * 8 * 2 * LANES as u64,
    );
    let b256 = best(
        &mut || {
            for i in 0..REPS {
                black_box(blake256(&[&[i as u8; 40]]));
            }
        },
        REPS,
    );
    let b512 = best(
        &mut || {
            for i in 0..REPS / 10 {
                black_box(blake512(&[&[i as u8; 1120]]));
            }
        },
        REPS / 10 * 9,
    );
    let fmt = |c: Option<f64>, digits: usize| c.map_or("-".into(), |c| format!("{c:.digits$}"));
    let mut out = format!(
        "kernel {}: TSC cycles per permutation per lane: F chains {}, H {}; per block: BLAKE-256 {}, BLAKE-512 {}\n",
        Kernels::current().describe_chacha(),
        fmt(f_cost, 1),
        fmt(h_cost, 1),
        fmt(b256, 0),
        fmt(b512, 0),
    );
    out += &format!(
        "{:<7} {:>12} {:>13} {:>13} {:>14}\n",
        "op", "permutations", "BLAKE-256 blk", "BLAKE-512 blk", "floor cycles"
    );
    let perm = f_cost.zip(h_cost).map(|(f, h)| (f + h) / 2.0);
    for (op, c) in [
        ("keygen", calls::keygen()),
        ("sign", calls::sign(MSG.len())),
        ("verify", calls::verify(MSG.len())),
    ] {
        let floor = perm.zip(b256).zip(b512).map(|((p, a), b)| {
            c.permutations as f64 * p + c.blake256_blocks as f64 * a + c.blake512_blocks as f64 * b
        });
        out += &format!(
            "{op:<7} {:>12} {:>13} {:>13} {:>14}\n",
            c.permutations,
            c.blake256_blocks,
            c.blake512_blocks,
            fmt(floor, 0)
        );
    }
    out += "Floor: calls times the kernel cost per permutation per lane (mean of F and H) and per BLAKE block;\n\
            32-byte message, WOTS+ chain lengths at their expectation.\n";
    write_stdout(out.as_bytes(), false)
}
