//! The measured side of the kernel bounds in BENCHMARKS.md ("Round three:
//! kernel bounds"): the core's clock under load and every x86 kernel's time
//! per call per lane, in ns and in core cycles at that clock. The model side
//! (instruction mix and llvm-mca port-pressure bounds) is
//! `scripts/kernel-bounds`, which runs this test with `--measure`.
//!
//! By hand, on an idle machine:
//! `cargo test --release -p sphincs --lib kernel_bounds -- --ignored --nocapture --test-threads=1`.

use core::arch::asm;
use core::hint::black_box;
use std::time::Instant;

use super::sha256_shani::tests::ns_per_block;
use super::test_data::XorShift;
use super::{keccak_x4, keccak_x8, sha256_avx2, sha256_avx512, sha256_shani};
use super::{sha512_avx2, sha512_avx512};

/// Dependent operations per pass of the timed loops below.
const CHAIN: u64 = 16;

/// Runs `passes` × [`CHAIN`] register-to-register adds, each waiting for
/// the one before, and returns their sum. An integer add has a latency of
/// one core cycle on every x86 core of the last decade, so this takes
/// `passes · CHAIN` cycles of the core's real clock (not the time-stamp
/// counter's fixed rate). The addend is a register: newer Intel cores
/// (Golden Cove on) can fold adds of small immediates at rename, which made
/// an immediate chain read as a 20 GHz clock here. The loop counter is a
/// separate chain that runs alongside.
fn add_chain(passes: u64) -> u64 {
    let mut x = 0u64;
    // SAFETY: register arithmetic only: the block reads and writes the
    // named registers and the flags, touches no memory and no stack.
    unsafe {
        asm!(
            "2:",
            "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
            "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
            "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
            "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
            "dec {n}",
            "jnz 2b",
            x = inout(reg) x,
            n = inout(reg) passes => _,
            one = in(reg) 1u64,
            options(nomem, nostack),
        );
    }
    x
}

/// As [`add_chain`] with 64-bit multiplies (latency three cycles on Intel
/// and AMD cores alike): a cross-check of the clock that rename tricks on
/// adds could not fool.
fn mul_chain(passes: u64) {
    // SAFETY: as in `add_chain`: registers and flags only.
    unsafe {
        asm!(
            "2:",
            "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}",
            "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}",
            "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}",
            "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}",
            "dec {n}",
            "jnz 2b",
            x = inout(reg) 3u64 => _,
            n = inout(reg) passes => _,
            options(nomem, nostack),
        );
    }
}

/// Cycles per pass of each chain (one per add, three per multiply).
const ADD_CYCLES: u64 = CHAIN;
const MUL_CYCLES: u64 = 3 * CHAIN;

/// The core clock in GHz while busy, from the add chain and from the
/// multiply chain: the best of many short timed runs each (the machine is
/// shared; a short run often goes undisturbed).
fn core_clock_ghz() -> (f64, f64) {
    const PASSES: u64 = 100_000;
    let (mut add, mut mul) = (0f64, 0f64);
    for _ in 0..100 {
        let start = Instant::now();
        let sum = add_chain(black_box(PASSES));
        let ns = start.elapsed().as_nanos() as f64;
        assert_eq!(sum, PASSES * CHAIN, "the add chain ran short");
        add = add.max((PASSES * ADD_CYCLES) as f64 / ns);
        let start = Instant::now();
        mul_chain(black_box(PASSES));
        let ns = start.elapsed().as_nanos() as f64;
        mul = mul.max((PASSES * MUL_CYCLES) as f64 / ns);
    }
    (add, mul)
}

/// Core cycles, at `ghz`, of the SHA-NI instructions the SHA-256 kernel is
/// made of, on this CPU: `sha256rnds2` eight independent at a time (its
/// issue rate), `sha256rnds2` each waiting for the last (its latency),
/// `sha256msg2` eight independent at a time, each per instruction; and one
/// block's worth of independent SHA-NI instructions (32 `sha256rnds2`, 12
/// `sha256msg1`, 12 `sha256msg2`, in the kernel's proportions), which shows
/// whether they share a unit. The caller checked that the CPU has SHA-NI.
fn sha_ni_rates(ghz: f64) -> [f64; 4] {
    const PASSES: u64 = 20_000;
    let time = |run: &dyn Fn(u64)| {
        let mut best = f64::INFINITY;
        for _ in 0..50 {
            let start = Instant::now();
            run(black_box(PASSES));
            best = best.min(start.elapsed().as_nanos() as f64);
        }
        best * ghz / (PASSES * 8) as f64
    };
    let rnds2 = |passes: u64| {
        // SAFETY: the caller checked SHA-NI; the block works on the named
        // xmm registers (declared clobbered) and the loop counter only,
        // touching no memory and no stack.
        unsafe {
            asm!(
                "2:",
                "sha256rnds2 xmm1, xmm9, xmm0", "sha256rnds2 xmm2, xmm9, xmm0",
                "sha256rnds2 xmm3, xmm9, xmm0", "sha256rnds2 xmm4, xmm9, xmm0",
                "sha256rnds2 xmm5, xmm9, xmm0", "sha256rnds2 xmm6, xmm9, xmm0",
                "sha256rnds2 xmm7, xmm9, xmm0", "sha256rnds2 xmm8, xmm9, xmm0",
                "dec {n}",
                "jnz 2b",
                n = inout(reg) passes => _,
                out("xmm1") _, out("xmm2") _, out("xmm3") _, out("xmm4") _,
                out("xmm5") _, out("xmm6") _, out("xmm7") _, out("xmm8") _,
                options(nomem, nostack),
            );
        }
    };
    let chain = |passes: u64| {
        // SAFETY: as in `rnds2`.
        unsafe {
            asm!(
                "2:",
                "sha256rnds2 xmm1, xmm9, xmm0", "sha256rnds2 xmm1, xmm9, xmm0",
                "sha256rnds2 xmm1, xmm9, xmm0", "sha256rnds2 xmm1, xmm9, xmm0",
                "sha256rnds2 xmm1, xmm9, xmm0", "sha256rnds2 xmm1, xmm9, xmm0",
                "sha256rnds2 xmm1, xmm9, xmm0", "sha256rnds2 xmm1, xmm9, xmm0",
                "dec {n}",
                "jnz 2b",
                n = inout(reg) passes => _,
                out("xmm1") _,
                options(nomem, nostack),
            );
        }
    };
    let msg2 = |passes: u64| {
        // SAFETY: as in `rnds2`.
        unsafe {
            asm!(
                "2:",
                "sha256msg2 xmm1, xmm9", "sha256msg2 xmm2, xmm9",
                "sha256msg2 xmm3, xmm9", "sha256msg2 xmm4, xmm9",
                "sha256msg2 xmm5, xmm9", "sha256msg2 xmm6, xmm9",
                "sha256msg2 xmm7, xmm9", "sha256msg2 xmm8, xmm9",
                "dec {n}",
                "jnz 2b",
                n = inout(reg) passes => _,
                out("xmm1") _, out("xmm2") _, out("xmm3") _, out("xmm4") _,
                out("xmm5") _, out("xmm6") _, out("xmm7") _, out("xmm8") _,
                options(nomem, nostack),
            );
        }
    };
    let block = |passes: u64| {
        // SAFETY: as in `rnds2`.
        unsafe {
            asm!(
                "2:",
                "sha256rnds2 xmm1, xmm9, xmm0", "sha256msg1 xmm10, xmm9",
                "sha256rnds2 xmm2, xmm9, xmm0", "sha256msg2 xmm11, xmm9",
                "sha256rnds2 xmm3, xmm9, xmm0", "sha256msg1 xmm12, xmm9",
                "sha256rnds2 xmm4, xmm9, xmm0", "sha256msg2 xmm13, xmm9",
                "sha256rnds2 xmm5, xmm9, xmm0", "sha256msg1 xmm14, xmm9",
                "sha256rnds2 xmm6, xmm9, xmm0", "sha256msg2 xmm15, xmm9",
                "sha256rnds2 xmm7, xmm9, xmm0",
                "sha256rnds2 xmm8, xmm9, xmm0",
                "dec {n}",
                "jnz 2b",
                n = inout(reg) passes => _,
                out("xmm1") _, out("xmm2") _, out("xmm3") _, out("xmm4") _,
                out("xmm5") _, out("xmm6") _, out("xmm7") _, out("xmm8") _,
                out("xmm10") _, out("xmm11") _, out("xmm12") _, out("xmm13") _,
                out("xmm14") _, out("xmm15") _,
                options(nomem, nostack),
            );
        }
    };
    // A pass of `block` is a quarter block's SHA-NI instructions; `time`
    // divides by 8 instructions, so ×8 ×4 is one block.
    let block = time(&block) * 32.0;
    [time(&rnds2), time(&chain), time(&msg2), block]
}

/// ns per call per lane of `call` on `state` (chained from call to call):
/// the best of many short batches, as in the SHA kernels' timing tests.
fn best_ns<S>(mut state: S, lanes: usize, mut call: impl FnMut(&mut S)) -> f64 {
    const CALLS: u32 = 2_000;
    let mut best = f64::INFINITY;
    for _ in 0..300 {
        let start = Instant::now();
        for _ in 0..CALLS {
            call(black_box(&mut state));
        }
        let ns = start.elapsed().as_nanos() as f64 / f64::from(CALLS) / lanes as f64;
        best = best.min(ns);
    }
    black_box(state);
    best
}

/// ns per block per lane of a SHA-512 kernel with `L` lanes.
fn sha512_ns<const L: usize>(kernel: unsafe fn(&mut [[u64; 8]; L], &[[u8; 128]; L])) -> f64 {
    let mut rng = XorShift(3);
    let blocks: [[u8; 128]; L] = core::array::from_fn(|_| rng.bytes_le64());
    let states: [[u64; 8]; L] = core::array::from_fn(|_| rng.state64());
    // SAFETY: every caller checked the kernel's CPU features first.
    best_ns(states, L, |st| unsafe { kernel(st, black_box(&blocks)) })
}

#[test]
fn add_chain_adds_every_step() {
    assert_eq!(add_chain(3), 3 * CHAIN);
    let (add, mul) = core_clock_ghz();
    assert!(add > 0.1 && mul > 0.1, "clock {add} / {mul} GHz");
}

#[test]
#[ignore = "timing; run by hand with --release --ignored --nocapture"]
fn kernel_speeds() {
    let has = |f: &[bool]| f.iter().all(|&b| b);
    let avx2 = is_x86_feature_detected!("avx2");
    let avx512 = has(&[
        is_x86_feature_detected!("avx512f"),
        is_x86_feature_detected!("avx512bw"),
        is_x86_feature_detected!("avx512vl"),
    ]);
    let shani = has(&[
        is_x86_feature_detected!("sha"),
        is_x86_feature_detected!("ssse3"),
        is_x86_feature_detected!("sse4.1"),
    ]);
    let (ghz, mul) = core_clock_ghz();
    eprintln!("kernel-bounds clock_ghz {ghz:.3}");
    eprintln!("kernel-bounds clock_ghz_imul {mul:.3}");
    let print = |name: &str, ns: f64| {
        eprintln!(
            "kernel-bounds {name} ns_per_lane {ns:.2} cycles_per_lane {:.1}",
            ns * ghz
        );
    };
    let keccak8 = [[0u64; 8]; 25];
    let keccak4 = [[0u64; 4]; 25];
    if avx512 && avx2 {
        // SAFETY: AVX-512F was detected above.
        let x8 = best_ns(keccak8, 8, |s| unsafe { keccak_x8::f1600_x8(s) });
        print("f1600_x8", x8);
        // SAFETY: AVX-512F/VL (and so AVX2) were detected above.
        let x4 = best_ns(keccak4, 4, |s| unsafe { keccak_x4::f1600_x4_avx512vl(s) });
        print("f1600_x4_avx512vl", x4);
    }
    if avx2 {
        // SAFETY: AVX2 was detected above.
        let x4 = best_ns(keccak4, 4, |s| unsafe { keccak_x4::f1600_x4(s) });
        print("f1600_x4", x4);
    }
    // The SHA kernels' own timing helpers check nothing: each runs only
    // under the feature test above it.
    if shani {
        let [rnds2, latency, msg2, block] = sha_ni_rates(ghz);
        eprintln!(
            "kernel-bounds sha_ni_cycles rnds2 {rnds2:.2} rnds2_latency {latency:.2} \
             msg2 {msg2:.2} one_block {block:.1}"
        );
        print(
            "compress256_shani_x2",
            ns_per_block(sha256_shani::compress256_shani_x2),
        );
        print(
            "compress256_shani_x4",
            ns_per_block(sha256_shani::compress256_shani_x4),
        );
    }
    if avx2 {
        print(
            "compress256_avx2_x8",
            ns_per_block(sha256_avx2::compress256_avx2_x8),
        );
        print(
            "compress512_avx2_x4",
            sha512_ns(sha512_avx2::compress512_avx2_x4),
        );
    }
    if avx512 {
        let x16 = ns_per_block(sha256_avx512::compress256_avx512_x16);
        print("compress256_avx512_x16", x16);
        print(
            "compress512_avx512_x8",
            sha512_ns(sha512_avx512::compress512_avx512_x8),
        );
    }
    // The clock again, to show whether it moved during the run.
    eprintln!("kernel-bounds clock_ghz_after {:.3}", core_clock_ghz().0);
}
