//! The ChaCha12 permutation on eight states at once, one 256-bit vector per
//! state word, run twice for the sixteen lanes of a [`Soa`] batch. The
//! rotations by 16 and 8 are byte shuffles (`vpshufb`), those by 12 and 7
//! two shifts and an or.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_or_si256, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_storeu_si256, _mm256_xor_si256,
};

use super::chacha12::{chacha12_rounds, Soa};

macro_rules! add_ymm {
    ($a:expr, $b:expr) => {
        _mm256_add_epi32($a, $b)
    };
}
macro_rules! xor_ymm {
    ($a:expr, $b:expr) => {
        _mm256_xor_si256($a, $b)
    };
}
macro_rules! rol_ymm {
    ($a:expr, 16) => {
        _mm256_shuffle_epi8(
            $a,
            _mm256_setr_epi8(
                2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10,
                11, 8, 9, 14, 15, 12, 13,
            ),
        )
    };
    ($a:expr, 8) => {
        _mm256_shuffle_epi8(
            $a,
            _mm256_setr_epi8(
                3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11,
                8, 9, 10, 15, 12, 13, 14,
            ),
        )
    };
    ($a:expr, $n:literal) => {{
        let a = $a;
        _mm256_or_si256(
            _mm256_slli_epi32::<$n>(a),
            _mm256_srli_epi32::<{ 32 - $n }>(a),
        )
    }};
}

/// The ChaCha12 permutation of the sixteen word-sliced states of `s`, as two
/// batches of eight.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn permute_x16(s: &mut Soa) {
    for half in 0..2 {
        let mut x: [__m256i; 16] = [_mm256_setzero_si256(); 16];
        for (v, w) in x.iter_mut().zip(s.iter()) {
            // SAFETY: `w[8 * half..]` holds at least 8 readable u32 (32
            // bytes); the unaligned load has no alignment requirement.
            *v = unsafe { _mm256_loadu_si256(w[8 * half..].as_ptr().cast()) };
        }
        chacha12_rounds!(x, add_ymm, xor_ymm, rol_ymm);
        for (v, w) in x.iter().zip(s.iter_mut()) {
            // SAFETY: `w[8 * half..]` holds at least 8 writable u32 (32
            // bytes); the unaligned store has no alignment requirement.
            unsafe { _mm256_storeu_si256(w[8 * half..].as_mut_ptr().cast(), *v) };
        }
    }
}
