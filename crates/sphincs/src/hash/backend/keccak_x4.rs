//! Keccak-f\[1600\] on four independent states at once, one 256-bit vector per
//! state word. SLH-DSA spends nearly all of its time in short SHAKE256 calls
//! whose inputs do not depend on each other (WOTS+ chains, tree leaves), so
//! running four permutations side by side turns one scalar lane into four SIMD
//! lanes for about the cost of one.
//!
//! The round body is written once, as `keccak_rounds!`, over a handful of
//! vector operations; each kernel (AVX2, AVX-512VL here and the 8-lane AVX-512
//! one in `keccak_x8`) supplies those operations, so the step mappings and
//! their offset tables exist in one place only.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_rol_epi64, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_epi64,
    _mm256_srli_epi64, _mm256_storeu_si256, _mm256_ternarylogic_epi64, _mm256_xor_si256,
};

/// The iota round constants of Keccak-f\[1600\], in round order.
pub(super) const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// The 24 rounds of Keccak-f\[1600\] on `$a`, an array of 25 vectors where
/// `$a[x + 5 * y]` holds word (x, y) of every lane.
///
/// The operations are passed as macro names rather than functions because a
/// rotation amount has to reach the instruction as an immediate, and AVX2's
/// shift pair needs `64 - n` as a second one, which a const generic function
/// cannot compute on stable Rust:
/// - `$xor!(a, b)`: a ^ b
/// - `$xor5!(a, b, c, d, e)`: a ^ b ^ c ^ d ^ e
/// - `$rol!(a, n)`: a rotated left by the literal n (1..=63)
/// - `$chi!(a, b, c)`: a ^ (!b & c)
/// - `$iota!(a, rc)`: a ^ rc, with rc a `u64` broadcast to every lane
///
/// The round body is fully unrolled with constant indices so that the state
/// stays in registers; only the loop over the round constants remains.
macro_rules! keccak_rounds {
    ($a:ident, $xor:ident, $xor5:ident, $rol:ident, $chi:ident, $iota:ident) => {
        for &rc in $crate::hash::backend::keccak_x4::RC.iter() {
            // theta
            let c0 = $xor5!($a[0], $a[5], $a[10], $a[15], $a[20]);
            let c1 = $xor5!($a[1], $a[6], $a[11], $a[16], $a[21]);
            let c2 = $xor5!($a[2], $a[7], $a[12], $a[17], $a[22]);
            let c3 = $xor5!($a[3], $a[8], $a[13], $a[18], $a[23]);
            let c4 = $xor5!($a[4], $a[9], $a[14], $a[19], $a[24]);
            let d0 = $xor!(c4, $rol!(c1, 1));
            let d1 = $xor!(c0, $rol!(c2, 1));
            let d2 = $xor!(c1, $rol!(c3, 1));
            let d3 = $xor!(c2, $rol!(c4, 1));
            let d4 = $xor!(c3, $rol!(c0, 1));

            // rho and pi: output row y gathers the words whose pi image lands in
            // it, each with its own rho offset; chi and iota then finish the row.
            // Every row is built into a fresh array because later rows still
            // read words of the old state that chi on earlier rows replaces.
            let b0 = $xor!($a[0], d0);
            let b1 = $rol!($xor!($a[6], d1), 44);
            let b2 = $rol!($xor!($a[12], d2), 43);
            let b3 = $rol!($xor!($a[18], d3), 21);
            let b4 = $rol!($xor!($a[24], d4), 14);
            let r0 = [
                $iota!($chi!(b0, b1, b2), rc),
                $chi!(b1, b2, b3),
                $chi!(b2, b3, b4),
                $chi!(b3, b4, b0),
                $chi!(b4, b0, b1),
            ];

            let b0 = $rol!($xor!($a[3], d3), 28);
            let b1 = $rol!($xor!($a[9], d4), 20);
            let b2 = $rol!($xor!($a[10], d0), 3);
            let b3 = $rol!($xor!($a[16], d1), 45);
            let b4 = $rol!($xor!($a[22], d2), 61);
            let r1 = [
                $chi!(b0, b1, b2),
                $chi!(b1, b2, b3),
                $chi!(b2, b3, b4),
                $chi!(b3, b4, b0),
                $chi!(b4, b0, b1),
            ];

            let b0 = $rol!($xor!($a[1], d1), 1);
            let b1 = $rol!($xor!($a[7], d2), 6);
            let b2 = $rol!($xor!($a[13], d3), 25);
            let b3 = $rol!($xor!($a[19], d4), 8);
            let b4 = $rol!($xor!($a[20], d0), 18);
            let r2 = [
                $chi!(b0, b1, b2),
                $chi!(b1, b2, b3),
                $chi!(b2, b3, b4),
                $chi!(b3, b4, b0),
                $chi!(b4, b0, b1),
            ];

            let b0 = $rol!($xor!($a[4], d4), 27);
            let b1 = $rol!($xor!($a[5], d0), 36);
            let b2 = $rol!($xor!($a[11], d1), 10);
            let b3 = $rol!($xor!($a[17], d2), 15);
            let b4 = $rol!($xor!($a[23], d3), 56);
            let r3 = [
                $chi!(b0, b1, b2),
                $chi!(b1, b2, b3),
                $chi!(b2, b3, b4),
                $chi!(b3, b4, b0),
                $chi!(b4, b0, b1),
            ];

            let b0 = $rol!($xor!($a[2], d2), 62);
            let b1 = $rol!($xor!($a[8], d3), 55);
            let b2 = $rol!($xor!($a[14], d4), 39);
            let b3 = $rol!($xor!($a[15], d0), 41);
            let b4 = $rol!($xor!($a[21], d1), 2);
            let r4 = [
                $chi!(b0, b1, b2),
                $chi!(b1, b2, b3),
                $chi!(b2, b3, b4),
                $chi!(b3, b4, b0),
                $chi!(b4, b0, b1),
            ];

            $a = [
                r0[0], r0[1], r0[2], r0[3], r0[4], r1[0], r1[1], r1[2], r1[3], r1[4], r2[0], r2[1],
                r2[2], r2[3], r2[4], r3[0], r3[1], r3[2], r3[3], r3[4], r4[0], r4[1], r4[2], r4[3],
                r4[4],
            ];
        }
    };
}
pub(super) use keccak_rounds;

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

macro_rules! chi_avx512vl {
    ($a:expr, $b:expr, $c:expr) => {
        _mm256_ternarylogic_epi64::<CHI>($a, $b, $c)
    };
}

/// Keccak-f\[1600\] on 4 states at once, interleaved: `s[i][lane]` is word i of
/// state `lane`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn f1600_x4(s: &mut [[u64; 4]; 25]) {
    with_ymm_state!(s, |a| {
        keccak_rounds!(a, xor_ymm, xor5_avx2, rol_avx2, chi_avx2, iota_ymm);
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
            chi_avx512vl,
            iota_ymm
        );
    });
}

/// A small deterministic generator, so that the tests of both kernel files
/// need no extra dependency.
#[cfg(test)]
pub(super) struct XorShift(pub(super) u64);

#[cfg(test)]
impl XorShift {
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;
    use std::time::Instant;

    type Kernel = unsafe fn(&mut [[u64; 4]; 25]);

    /// Runs `kernel` five times on four distinct pseudo-random states and checks
    /// each lane against the scalar permutation after every application.
    fn check(kernel: Kernel, seed: u64) {
        let mut rng = XorShift(seed);
        let mut lanes = [[0u64; 25]; 4];
        for lane in lanes.iter_mut() {
            lane.iter_mut().for_each(|w| *w = rng.next_u64());
        }
        let mut s = [[0u64; 4]; 25];
        for (i, word) in s.iter_mut().enumerate() {
            for (l, lane) in lanes.iter().enumerate() {
                word[l] = lane[i];
            }
        }
        for iteration in 0..5 {
            // SAFETY: callers check the CPU features the kernel needs first.
            unsafe { kernel(&mut s) };
            for (l, lane) in lanes.iter_mut().enumerate() {
                ::keccak::Keccak::new().with_f1600(|f| f(lane));
                for (i, word) in s.iter().enumerate() {
                    assert_eq!(
                        word[l], lane[i],
                        "iteration {iteration}, lane {l}, word {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn avx2_matches_scalar() {
        if !is_x86_feature_detected!("avx2") {
            eprintln!("skipping: CPU lacks AVX2");
            return;
        }
        for seed in [1, 0x9e37_79b9_7f4a_7c15, 0xdead_beef] {
            check(f1600_x4, seed);
        }
    }

    #[test]
    fn avx512vl_matches_scalar() {
        if !(is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vl"))
        {
            eprintln!("skipping: CPU lacks AVX-512F/VL");
            return;
        }
        for seed in [1, 0x9e37_79b9_7f4a_7c15, 0xdead_beef] {
            check(f1600_x4_avx512vl, seed);
        }
    }

    #[test]
    fn zero_state_known_answer() {
        // First word of Keccak-f[1600] applied to the all-zero state (the
        // published KeccakF-1600 intermediate values).
        if !is_x86_feature_detected!("avx2") {
            eprintln!("skipping: CPU lacks AVX2");
            return;
        }
        let mut s = [[0u64; 4]; 25];
        // SAFETY: AVX2 was detected above.
        unsafe { f1600_x4(&mut s) };
        assert_eq!(s[0], [0xf125_8f79_40e1_dde7; 4]);
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
