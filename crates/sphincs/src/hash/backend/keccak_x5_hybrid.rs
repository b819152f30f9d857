//! Keccak-f\[1600\] on AVX2 plus general registers: four states in 256-bit
//! vectors and one or two more as plain `u64` words, one round of each per
//! loop iteration. On CPUs without AVX-512 the 4-way AVX2 kernel keeps the
//! vector pipes busy while the integer ALUs idle; the scalar states give
//! those ALUs work in the same loop body, so an out-of-order core can run
//! both at once (the x86 counterpart of the AArch64 hybrids in `keccak_neon`).
//! Whether that pays on a given core is what `scripts/x86-mca.py` models and
//! the timing test below measures; `select` decides by both. So far it does
//! not: on Zen 3/4, Alder Lake and Sapphire Rapids (modelled) and on this
//! project's Sapphire-Rapids-class Xeon (measured) the front end, not the
//! vector pipes, is the limit, and the scalar round with its spills costs
//! more than the state it adds (BENCHMARKS.md, "Round three: hybrid AVX2 +
//! scalar Keccak"). No backend runs it by default; the tests do.
//!
//! The vector round is `keccak_x4`'s `round_avx2`, the scalar one the shared
//! round body of `keccak_rounds` on `u64` words; nothing of the step mappings
//! is repeated here.

use core::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_setzero_si256, _mm256_storeu_si256};

use super::keccak_rounds::{
    chi_u64, iota_u64, keccak_round, rol_u64, xor5_u64, xor_u64, xrol_u64, RC,
};
use super::keccak_x4::round_avx2;

/// Keccak-f\[1600\] on `L` = 4 + `G` interleaved states (`s[i][lane]` is word
/// i of state `lane`): lanes 0–3 in AVX2 vectors, lanes 4.. in general
/// registers, a round of each per iteration of the round loop.
///
/// # Safety
/// The CPU must support AVX2, BMI1 and BMI2, and the caller must be compiled
/// with them (it is inlined into the `#[target_feature]` wrappers below).
#[inline(always)]
unsafe fn f1600_hybrid<const L: usize, const G: usize>(s: &mut [[u64; L]; 25]) {
    const {
        assert!(
            L == 4 + G && (G == 1 || G == 2),
            "four vector lanes plus one or two"
        )
    };
    // SAFETY: the caller guarantees AVX2.
    let mut a: [__m256i; 25] = [unsafe { _mm256_setzero_si256() }; 25];
    let mut b = [[0u64; 25]; G];
    for (i, (v, w)) in a.iter_mut().zip(s.iter()).enumerate() {
        // SAFETY: `w[..4]` is four readable u64 (L ≥ 4), exactly 32 bytes;
        // the unaligned load has no alignment requirement; AVX2 as above.
        *v = unsafe { _mm256_loadu_si256(w[..4].as_ptr().cast()) };
        for (g, st) in b.iter_mut().enumerate() {
            st[i] = w[4 + g];
        }
    }
    for &rc in RC.iter() {
        // SAFETY: the caller guarantees AVX2 and is compiled for it.
        unsafe { round_avx2(&mut a, rc) };
        // Written out per state rather than as a loop over `b`, which rustc
        // left rolled for G = 2: a loop inside the round loop would put a
        // branch between the two scalar rounds.
        round_u64(&mut b[0], rc);
        if G == 2 {
            round_u64(&mut b[G - 1], rc);
        }
    }
    for (i, (v, w)) in a.iter().zip(s.iter_mut()).enumerate() {
        // SAFETY: `w[..4]` is four writable u64, borrowed exclusively, 32
        // bytes; the unaligned store has no alignment requirement.
        unsafe { _mm256_storeu_si256(w[..4].as_mut_ptr().cast(), *v) };
        for (g, st) in b.iter().enumerate() {
            w[4 + g] = st[i];
        }
    }
}

/// One round on a state of `u64` words, the shared round body on the
/// scalar operations (with BMI1's `andn` and BMI2's `rorx` once inlined into
/// a caller compiled for them).
#[inline(always)]
fn round_u64(st: &mut [u64; 25], rc: u64) {
    let mut x = *st;
    keccak_round!(x, rc, xor_u64, xor5_u64, rol_u64, xrol_u64, chi_u64, iota_u64);
    *st = x;
}

/// Keccak-f\[1600\] on 5 interleaved states: 4 in AVX2 vectors, 1 in
/// general registers, round by round together.
///
/// # Safety
/// The CPU must support AVX2, BMI1 and BMI2.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub unsafe fn f1600_x5_hybrid_avx2(s: &mut [[u64; 5]; 25]) {
    // SAFETY: this function is compiled for the features the caller guarantees.
    unsafe { f1600_hybrid::<5, 1>(s) }
}

/// Keccak-f\[1600\] on 6 interleaved states: 4 in AVX2 vectors, 2 in
/// general registers, round by round together. Built for the tests only: it
/// models and measures slower than the 5-state kernel (BENCHMARKS.md, "Round
/// three: hybrid AVX2 + scalar Keccak"), so no lane driver runs it; the test
/// binary keeps it for the timing test and `scripts/x86-mca.py`.
///
/// # Safety
/// The CPU must support AVX2, BMI1 and BMI2.
#[cfg(test)]
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub unsafe fn f1600_x6_hybrid_avx2(s: &mut [[u64; 6]; 25]) {
    // SAFETY: this function is compiled for the features the caller guarantees.
    unsafe { f1600_hybrid::<6, 2>(s) }
}

#[cfg(test)]
mod tests {
    use super::super::keccak_x4::f1600_x4;
    use super::super::test_data::{
        cpu_has, keccak_lanes_match_scalar as check, keccak_zero_state_known_answer,
    };
    use super::*;
    use std::hint::black_box;
    use std::time::Instant;

    fn features() -> bool {
        let f = [
            is_x86_feature_detected!("avx2"),
            is_x86_feature_detected!("bmi1"),
            is_x86_feature_detected!("bmi2"),
        ];
        cpu_has(&f, "AVX2, BMI1, BMI2")
    }

    #[test]
    fn x5_matches_scalar() {
        if features() {
            check(f1600_x5_hybrid_avx2);
            keccak_zero_state_known_answer(f1600_x5_hybrid_avx2);
        }
    }

    #[test]
    fn x6_matches_scalar() {
        if features() {
            check(f1600_x6_hybrid_avx2);
            keccak_zero_state_known_answer(f1600_x6_hybrid_avx2);
        }
    }

    /// Nanoseconds per permutation per state of `kernel` on `L` states.
    fn ns_per_state<const L: usize>(kernel: unsafe fn(&mut [[u64; L]; 25])) -> f64 {
        // Short runs, many of them: on a shared machine the minimum of many
        // short samples is the one least disturbed by other work.
        const ITERS: u32 = 20_000;
        let mut s = [[0u64; L]; 25];
        for _ in 0..ITERS / 10 {
            // SAFETY: the caller checked the CPU features.
            unsafe { kernel(&mut s) };
        }
        let start = Instant::now();
        for _ in 0..ITERS {
            // SAFETY: as above.
            unsafe { kernel(black_box(&mut s)) };
        }
        let ns = start.elapsed().as_nanos() as f64 / f64::from(ITERS) / L as f64;
        black_box(s);
        ns
    }

    /// The 4-way AVX2 kernel and the hybrids, alternating, 21 runs each (the
    /// machine may be shared): the minimum per kernel is the figure.
    /// `cargo test --release -p sphincs --lib hybrid_speed -- --ignored --nocapture`
    #[test]
    #[ignore = "micro-benchmark; run with --ignored --nocapture"]
    fn hybrid_speed() {
        if !features() {
            return;
        }
        let mut best = [f64::MAX; 3];
        for run in 0..21 {
            let t = [
                ns_per_state(f1600_x4),
                ns_per_state(f1600_x5_hybrid_avx2),
                ns_per_state(f1600_x6_hybrid_avx2),
            ];
            eprintln!(
                "run {run}: x4-avx2 {:.1}, x5-hybrid {:.1}, x6-hybrid {:.1} ns/permutation/state",
                t[0], t[1], t[2]
            );
            for (b, t) in best.iter_mut().zip(t) {
                *b = b.min(t);
            }
        }
        eprintln!(
            "min: x4-avx2 {:.1}, x5-hybrid {:.1}, x6-hybrid {:.1} ns/permutation/state",
            best[0], best[1], best[2]
        );
    }
}
