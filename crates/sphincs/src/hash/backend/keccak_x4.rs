//! Keccak-f\[1600\] on four independent states at once, one 256-bit vector per
//! state word. SLH-DSA spends nearly all of its time in short SHAKE256 calls
//! whose inputs do not depend on each other (WOTS+ chains, tree leaves), so
//! running four permutations side by side turns one scalar lane into four SIMD
//! lanes for about the cost of one.
//!
//! The round body is written once, as `keccak_rounds!`, over a handful of
//! vector operations; each kernel (AVX2, AVX-512VL here and the 8-lane AVX-512
//! one in `keccak_x8`) supplies those operations, so the step mappings and
//! their offset tables exist in one place only. The AVX2 round is also a
//! function of its own, `round_avx2`, so that the hybrid AVX2+scalar kernel
//! of `keccak_x5_hybrid` runs the very same vector round next to its scalar
//! states.

use super::keccak_rounds::{keccak_round, keccak_rounds, RC};
use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_rol_epi64, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_epi64,
    _mm256_srli_epi64, _mm256_storeu_si256, _mm256_ternarylogic_epi64, _mm256_xor_si256,
};

/// Loads the 25 interleaved words into vectors, runs `$rounds` on them and
/// stores them back; shared by both 4-lane kernels.
macro_rules! with_ymm_state {
    ($s:ident, |$a:ident| $rounds:block) => {{
        let mut $a: [__m256i; 25] = [_mm256_set1_epi64x(0); 25];
        for (v, w) in $a.iter_mut().zip($s.iter()) {
            // SAFETY: `w` is a valid, readable `[u64; 4]`, exactly 32 bytes,
            // and the unaligned load has no alignment requirement.
            *v = unsafe { _mm256_loadu_si256(w.as_ptr().cast()) };
        }
        $rounds
        for (v, w) in $a.iter().zip($s.iter_mut()) {
            // SAFETY: `w` is a valid, writable `[u64; 4]`, exactly 32 bytes,
            // and the unaligned store has no alignment requirement.
            unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), *v) };
        }
    }};
}

macro_rules! xor_ymm {
    ($a:expr, $b:expr) => {
        _mm256_xor_si256($a, $b)
    };
}

macro_rules! xor5_avx2 {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        _mm256_xor_si256(
            _mm256_xor_si256(_mm256_xor_si256($a, $b), _mm256_xor_si256($c, $d)),
            $e,
        )
    };
}

// AVX2 has no 64-bit rotate. A shift pair plus an or costs three
// instructions; rotations by whole bytes are one byte shuffle instead, and a
// left shift by one is an add, which more execution ports accept.
macro_rules! rol_avx2 {
    ($a:expr, 1) => {{
        let a = $a;
        _mm256_or_si256(_mm256_add_epi64(a, a), _mm256_srli_epi64::<63>(a))
    }};
    ($a:expr, 8) => {
        _mm256_shuffle_epi8(
            $a,
            _mm256_setr_epi8(
                7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6, 15,
                8, 9, 10, 11, 12, 13, 14,
            ),
        )
    };
    ($a:expr, 56) => {
        _mm256_shuffle_epi8(
            $a,
            _mm256_setr_epi8(
                1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9,
                10, 11, 12, 13, 14, 15, 8,
            ),
        )
    };
    ($a:expr, $n:literal) => {{
        let a = $a;
        _mm256_or_si256(
            _mm256_slli_epi64::<$n>(a),
            _mm256_srli_epi64::<{ 64 - $n }>(a),
        )
    }};
}

macro_rules! xrol_avx2 {
    ($a:expr, $b:expr, $n:tt) => {
        rol_avx2!(xor_ymm!($a, $b), $n)
    };
}

macro_rules! chi_avx2 {
    ($a:expr, $b:expr, $c:expr) => {
        _mm256_xor_si256($a, _mm256_andnot_si256($b, $c))
    };
}

macro_rules! iota_ymm {
    ($a:expr, $rc:expr) => {
        _mm256_xor_si256($a, _mm256_set1_epi64x($rc as i64))
    };
}

// Ternary-logic truth tables, indexed by (a << 2) | (b << 1) | c.
/// a ^ b ^ c
const XOR3: i32 = 0x96;
/// a ^ (!b & c)
const CHI: i32 = 0xd2;

macro_rules! xor5_avx512vl {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        _mm256_ternarylogic_epi64::<XOR3>(_mm256_ternarylogic_epi64::<XOR3>($a, $b, $c), $d, $e)
    };
}

macro_rules! rol_avx512vl {
    ($a:expr, $n:literal) => {
        _mm256_rol_epi64::<$n>($a)
    };
}

macro_rules! xrol_avx512vl {
    ($a:expr, $b:expr, $n:tt) => {
        rol_avx512vl!(xor_ymm!($a, $b), $n)
    };
}

macro_rules! chi_avx512vl {
    ($a:expr, $b:expr, $c:expr) => {
        _mm256_ternarylogic_epi64::<CHI>($a, $b, $c)
    };
}

/// One Keccak-f\[1600\] round with round constant `rc` on four states held
/// in AVX2 vectors (`a[i]` is word i of all four). Always inlined, so that it
/// compiles as part of its AVX2 caller: on its own it has no target feature,
/// and an out-of-line copy would call every intrinsic through a function.
///
/// # Safety
/// The CPU must support AVX2, and the caller must be compiled with it
/// (`#[target_feature(enable = "avx2")]`).
#[inline(always)]
pub(super) unsafe fn round_avx2(a: &mut [__m256i; 25], rc: u64) {
    let mut v = *a;
    // SAFETY: the caller guarantees AVX2, which is all these intrinsics need.
    unsafe {
        keccak_round!(v, rc, xor_ymm, xor5_avx2, rol_avx2, xrol_avx2, chi_avx2, iota_ymm);
    }
    *a = v;
}

/// Keccak-f\[1600\] on 4 states at once, interleaved: `s[i][lane]` is word i of
/// state `lane`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn f1600_x4(s: &mut [[u64; 4]; 25]) {
    with_ymm_state!(s, |a| {
        for &rc in RC.iter() {
            // SAFETY: this function is compiled for AVX2, which the caller
            // guarantees the CPU has.
            unsafe { round_avx2(&mut a, rc) };
        }
    });
}

/// [`f1600_x4`] for CPUs with AVX-512VL, where rotations are one `vprolq` and
/// chi and the five-way xor of theta use `vpternlogq`.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
pub unsafe fn f1600_x4_avx512vl(s: &mut [[u64; 4]; 25]) {
    with_ymm_state!(s, |a| {
        keccak_rounds!(
            a,
            xor_ymm,
            xor5_avx512vl,
            rol_avx512vl,
            xrol_avx512vl,
            chi_avx512vl,
            iota_ymm
        );
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;
    use std::time::Instant;

    use super::super::test_data::{
        cpu_has, keccak_lanes_match_scalar as check, keccak_zero_state_known_answer, KeccakLanes,
    };

    fn avx2() -> Option<KeccakLanes<4>> {
        let ok = cpu_has(&[is_x86_feature_detected!("avx2")], "AVX2");
        ok.then_some(f1600_x4 as _)
    }

    #[test]
    fn avx2_matches_scalar() {
        if let Some(kernel) = avx2() {
            check(kernel);
        }
    }

    #[test]
    fn avx512vl_matches_scalar() {
        let features = [
            is_x86_feature_detected!("avx2"),
            is_x86_feature_detected!("avx512f"),
            is_x86_feature_detected!("avx512vl"),
        ];
        if cpu_has(&features, "AVX2, AVX-512F/VL") {
            check(f1600_x4_avx512vl);
        }
    }

    /// The first word of Keccak-f[1600] applied to the all-zero state.
    #[test]
    fn zero_state_known_answer() {
        if let Some(kernel) = avx2() {
            keccak_zero_state_known_answer(kernel);
        }
    }

    /// Nanoseconds per permutation per lane for `kernel` over `lanes` lanes.
    fn time_ns<S: Copy>(mut state: S, lanes: usize, kernel: impl Fn(&mut S)) -> f64 {
        const ITERS: u32 = 200_000;
        for _ in 0..ITERS / 10 {
            kernel(&mut state);
        }
        let start = Instant::now();
        for _ in 0..ITERS {
            kernel(black_box(&mut state));
        }
        let ns = start.elapsed().as_nanos() as f64;
        black_box(state);
        ns / f64::from(ITERS) / lanes as f64
    }

    #[test]
    #[ignore = "micro-benchmark; run with --ignored --nocapture"]
    fn bench_x4() {
        let k = ::keccak::Keccak::new();
        let scalar = time_ns([0u64; 25], 1, |s| k.with_f1600(|f| f(s)));
        eprintln!("scalar keccak crate: {scalar:.1} ns/permutation/lane");
        if is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 was detected.
            let ns = time_ns([[0u64; 4]; 25], 4, |s| unsafe { f1600_x4(s) });
            eprintln!("f1600_x4 (avx2): {ns:.1} ns/permutation/lane");
        }
        if is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: AVX2, AVX-512F and AVX-512VL were detected.
            let ns = time_ns([[0u64; 4]; 25], 4, |s| unsafe { f1600_x4_avx512vl(s) });
            eprintln!("f1600_x4_avx512vl: {ns:.1} ns/permutation/lane");
        }
    }
}
