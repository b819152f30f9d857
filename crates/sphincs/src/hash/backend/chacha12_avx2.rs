//! The ChaCha12 permutation on eight states at once, one 256-bit vector per
//! state word, run twice for the sixteen lanes of a [`Soa`] batch. The
//! rotations by 16 and 8 are byte shuffles (`vpshufb`), those by 12 and 7
//! two shifts and an or.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpgt_epi32,
    _mm256_cvtepu8_epi32, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi32, _mm256_setr_epi8,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_storeu_si256, _mm256_xor_si256, _mm_loadl_epi64,
};

use super::chacha12::{chacha12_rounds, Half, Soa, LANES, SPHINCS_C};

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

/// Loads eight words of lanes `8 * half .. 8 * half + 8`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn load_half(h: &Half, half: usize) -> [__m256i; 8] {
    // SAFETY: `h[w][8 * half..]` holds at least 8 readable u32 (32 bytes);
    // unaligned loads have no alignment requirement.
    core::array::from_fn(|w| unsafe { _mm256_loadu_si256(h[w][8 * half..].as_ptr().cast()) })
}

/// Stores eight words into lanes `8 * half .. 8 * half + 8`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn store_half(h: &mut Half, half: usize, v: &[__m256i]) {
    for (x, w) in v.iter().zip(h.iter_mut()) {
        // SAFETY: `w[8 * half..]` holds at least 8 writable u32 (32 bytes);
        // unaligned stores have no alignment requirement.
        unsafe { _mm256_storeu_si256(w[8 * half..].as_mut_ptr().cast(), *x) };
    }
}

/// F chains of sixteen lanes as two batches of eight (see
/// `chacha12::chains_x16_portable`); inactive lanes keep their value (a blend).
///
/// # Safety
/// The CPU must support AVX2, and `masks` must have an entry for every step
/// below the largest `end`.
#[target_feature(enable = "avx2")]
pub unsafe fn chains_x16(
    cur: &mut Half,
    masks: &[[u32; 8]],
    start: &[u8; LANES],
    end: &[u8; LANES],
) {
    for half in 0..2 {
        let lanes = 8 * half..8 * half + 8;
        let lo = *start[lanes.clone()].iter().min().expect("8 lanes");
        let hi = *end[lanes].iter().max().expect("8 lanes");
        // SAFETY: AVX2 is enabled (function attribute).
        let mut c = unsafe { load_half(cur, half) };
        // SAFETY: `start[8 * half..]` and `end[8 * half..]` hold 8 readable bytes.
        let (st, en) = unsafe {
            (
                _mm256_cvtepu8_epi32(_mm_loadl_epi64(start[8 * half..].as_ptr().cast())),
                _mm256_cvtepu8_epi32(_mm_loadl_epi64(end[8 * half..].as_ptr().cast())),
            )
        };
        for step in lo..hi {
            let s = _mm256_set1_epi32(step as i32);
            let s1 = _mm256_set1_epi32(step as i32 + 1);
            // start <= step < end; all values are small, so signed compares work.
            let active = _mm256_and_si256(_mm256_cmpgt_epi32(s1, st), _mm256_cmpgt_epi32(en, s));
            let m = &masks[step as usize];
            let mut x: [__m256i; 16] = [_mm256_setzero_si256(); 16];
            for w in 0..8 {
                x[w] = _mm256_xor_si256(c[w], _mm256_set1_epi32(m[w] as i32));
                x[8 + w] = _mm256_set1_epi32(SPHINCS_C[w] as i32);
            }
            chacha12_rounds!(x, add_ymm, xor_ymm, rol_ymm);
            for w in 0..8 {
                c[w] = _mm256_blendv_epi8(c[w], x[w], active);
            }
        }
        // SAFETY: AVX2 is enabled (function attribute).
        unsafe { store_half(cur, half, &c) };
    }
}

/// H of sixteen lanes as two batches of eight (see `chacha12::h_x16_portable`).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn h_x16(io: &mut Half, right: &Half, masks: &[[u32; 8]; 2]) {
    for half in 0..2 {
        // SAFETY: AVX2 is enabled (function attribute).
        let (l, r) = unsafe { (load_half(io, half), load_half(right, half)) };
        let mut x: [__m256i; 16] = [_mm256_setzero_si256(); 16];
        for w in 0..8 {
            x[w] = _mm256_xor_si256(l[w], _mm256_set1_epi32(masks[0][w] as i32));
            x[8 + w] = _mm256_set1_epi32(SPHINCS_C[w] as i32);
        }
        chacha12_rounds!(x, add_ymm, xor_ymm, rol_ymm);
        for w in 0..8 {
            x[w] = _mm256_xor_si256(
                x[w],
                _mm256_xor_si256(r[w], _mm256_set1_epi32(masks[1][w] as i32)),
            );
        }
        chacha12_rounds!(x, add_ymm, xor_ymm, rol_ymm);
        // SAFETY: AVX2 is enabled (function attribute).
        unsafe { store_half(io, half, &x[..8]) };
    }
}
