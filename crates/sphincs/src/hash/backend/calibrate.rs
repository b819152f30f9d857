//! Per-call costs of the kernels a backend uses, measured on this CPU at run
//! time: `sphincs bench --calls` multiplies them by each operation's call
//! counts for the floors it prints, so a floor a user sees is a measurement
//! of the machine in front of them, not a constant from another one.
//!
//! Each cost is the bare kernel's, per lane with the lanes full: the
//! permutation or compression run back to back on states already in the
//! kernel's layout, with no block assembly, transposition or digest copy
//! around it. That is what "the floor" means (hash calls × the kernel's
//! cost per call): everything else an operation spends is the overhead the
//! floor ratio exposes. The fastest of several runs counts, as the least
//! disturbed by other work on the machine; the runs of the kernels are
//! interleaved so that a slow phase of the machine hits all of them alike.

use std::time::Instant;

use super::lanes::{
    keccak_full_width, sha256_chain_full_width, sha256_full_width, sha512_full_width,
};
use super::select::Kernels;

/// Measured nanoseconds per primitive call, per lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallCosts {
    /// One Keccak-f\[1600\] permutation.
    pub keccak_ns: f64,
    /// One SHA-256 compression.
    pub sha256_ns: f64,
    /// One SHA-256 F call inside a WOTS+ chain: the chain kernel's step
    /// where the kernel has one (AVX-512, AVX2: it builds the blocks in registers, so it
    /// is cheaper than a compression of blocks in memory), else
    /// [`sha256_ns`](Self::sha256_ns) measured again.
    pub sha256_chain_ns: f64,
    /// One SHA-512 compression.
    pub sha512_ns: f64,
}

/// How long each timed run lasts, roughly: long enough that the timer's
/// resolution and one interrupt are noise, short enough that 20 runs of
/// four kernels take a fraction of a second.
const RUN_NS: f64 = 2.0e6;

/// A kernel runner: makes `reps` calls, returns the lanes per call.
type Runner = Box<dyn Fn(usize) -> usize>;

/// Times one run of `reps` calls: nanoseconds per call per lane.
fn per_lane_ns(run: &Runner, reps: usize) -> f64 {
    let start = Instant::now();
    let width = run(reps);
    start.elapsed().as_nanos() as f64 / (reps * width) as f64
}

/// Measures the four costs with `kernels` (e.g. [`Kernels::current`]):
/// `runs` rounds (at least 3), each timing every kernel for about 2 ms;
/// each cost is its fastest round. 20 rounds take about 0.2 s.
pub fn measure_call_costs(kernels: Kernels, runs: usize) -> CallCosts {
    let runners: [Runner; 4] = [
        Box::new(move |r| keccak_full_width(kernels.keccak, r)),
        Box::new(move |r| sha256_full_width(kernels.sha256, r)),
        Box::new(move |r| sha512_full_width(kernels.sha512, r)),
        Box::new(move |r| sha256_chain_full_width(kernels.sha256, r)),
    ];
    // Warm each kernel (caches, the clock), then size its runs.
    let reps: Vec<usize> = runners
        .iter()
        .map(|run| {
            per_lane_ns(run, 64);
            let once = per_lane_ns(run, 64) * run(0).max(1) as f64;
            (RUN_NS / once.max(1.0)).ceil().max(1.0) as usize
        })
        .collect();
    let mut best = [f64::INFINITY; 4];
    for _ in 0..runs.max(3) {
        for ((run, &r), b) in runners.iter().zip(&reps).zip(&mut best) {
            *b = b.min(per_lane_ns(run, r));
        }
    }
    CallCosts {
        keccak_ns: best[0],
        sha256_ns: best[1],
        sha512_ns: best[2],
        sha256_chain_ns: best[3],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::backend::select::{with_backend, Backend, KeccakKernel};

    /// Every backend this CPU runs gives four positive, finite costs,
    /// measured on the kernels that backend selects (its Keccak width shows
    /// which kernel ran), not on the default ones.
    #[test]
    fn costs_are_measured_per_backend() {
        for b in Backend::available() {
            let kernels = with_backend(b, Kernels::current).unwrap();
            let c = measure_call_costs(kernels, 3);
            for x in [c.keccak_ns, c.sha256_ns, c.sha512_ns, c.sha256_chain_ns] {
                assert!(x.is_finite() && x > 0.0, "{b}: {c:?}");
            }
            let width = keccak_full_width(kernels.keccak, 0);
            let expected = match kernels.keccak {
                KeccakKernel::Scalar => 1,
                KeccakKernel::X8Avx512 => 8,
                KeccakKernel::X3HybridNeon | KeccakKernel::X3HybridSha3 => 3,
                KeccakKernel::X5HybridAvx2 => 5,
                _ => 4,
            };
            assert_eq!(width, expected, "{b}: {:?}", kernels.keccak);
        }
    }
}
