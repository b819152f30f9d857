//! Haraka-512 and Haraka-256 of several independent instances at once with
//! VAES on 512-bit vectors.
//!
//! Layout: one `__m512i` holds one whole Haraka-512 state, its four AES
//! blocks in the four 128-bit lanes, exactly as the 64 bytes lie in memory.
//! The four AES rounds of a half-round then are one `vaesenc`, whose round
//! keys are four consecutive constants (one 64-byte load of the table), and
//! MIX4, a fixed permutation of the sixteen 32-bit words, is one `vpermd`.
//! Loading and storing need no transposition, and any number of instances
//! fits. (The alternative, lane j of register i holding state i of instance
//! j, keeps MIX4 as eight unpacks per four instances but needs a 4×4
//! transposition of 128-bit lanes on the way in and out.) Haraka-256 puts two
//! instances in each register the same way, with MIX2 as one `vpermd`.
//!
//! Up to sixteen instances are interleaved, as in [`super::haraka_aesni`],
//! to hide the latency of `vaesenc`: sixteen states, ten round keys and the
//! MIX index fit the thirty-two registers.

use core::arch::x86_64::{
    __m512i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_aesenc_epi128, _mm512_broadcast_i64x4,
    _mm512_castsi512_si256, _mm512_loadu_si512, _mm512_mask_storeu_epi64, _mm512_maskz_loadu_epi64,
    _mm512_permutexvar_epi32, _mm512_permutexvar_epi64, _mm512_setr_epi32, _mm512_setr_epi64,
    _mm512_setzero_si512, _mm512_storeu_si512, _mm512_xor_si512,
};

use super::haraka::HarakaRc;

/// The ten round keys of Haraka-512: `k[2r + h]` = constants `8r + 4h ..
/// 8r + 4h + 4`, one per AES block of the state.
#[inline]
#[target_feature(enable = "avx512f,vaes")]
fn keys512(rc: &HarakaRc) -> [__m512i; 10] {
    let mut k = [_mm512_setzero_si512(); 10];
    for (j, x) in k.iter_mut().enumerate() {
        // SAFETY: constants 4j..4j + 4 are 64 bytes within the 640-byte
        // table, and `loadu` has no alignment requirement.
        *x = unsafe { _mm512_loadu_si512(rc.0[4 * j..].as_ptr().cast()) };
    }
    k
}

/// The five rounds of the Haraka-512 permutation on `L` states.
#[inline]
#[target_feature(enable = "avx512f,vaes")]
fn rounds512<const L: usize>(k: &[__m512i; 10], s: &mut [__m512i; L]) {
    // MIX4 as a word permutation: new word p is old word idx[p], with words
    // numbered 4 × state + word within the state.
    let idx = _mm512_setr_epi32(3, 11, 7, 15, 8, 0, 12, 4, 9, 1, 13, 5, 2, 10, 6, 14);
    for r in 0..5 {
        for h in 0..2 {
            for x in s.iter_mut() {
                *x = _mm512_aesenc_epi128(*x, k[2 * r + h]);
            }
        }
        for x in s.iter_mut() {
            *x = _mm512_permutexvar_epi32(idx, *x);
        }
    }
}

#[inline]
#[target_feature(enable = "avx512f,vaes")]
fn load512<const L: usize>(states: &[[u8; 64]; L]) -> [__m512i; L] {
    let mut s = [_mm512_setzero_si512(); L];
    for (x, st) in s.iter_mut().zip(states) {
        // SAFETY: `st` is 64 bytes and `loadu` has no alignment requirement.
        *x = unsafe { _mm512_loadu_si512(st.as_ptr().cast()) };
    }
    s
}

/// The Haraka-512 permutation of `L` states in place.
///
/// # Safety
/// The CPU must support AVX-512F and VAES.
#[target_feature(enable = "avx512f,vaes")]
pub(crate) unsafe fn perm512<const L: usize>(rc: &HarakaRc, states: &mut [[u8; 64]; L]) {
    let k = keys512(rc);
    let mut s = load512(states);
    rounds512(&k, &mut s);
    for (x, st) in s.iter().zip(states.iter_mut()) {
        // SAFETY: `st` is 64 bytes and `storeu` has no alignment requirement.
        unsafe { _mm512_storeu_si512(st.as_mut_ptr().cast(), *x) };
    }
}

/// Haraka-512 of `L` inputs: permutation, feed-forward, truncation.
///
/// # Safety
/// The CPU must support AVX-512F and VAES.
#[target_feature(enable = "avx512f,vaes")]
pub(crate) unsafe fn hash512<const L: usize>(
    rc: &HarakaRc,
    inputs: &[[u8; 64]; L],
    out: &mut [[u8; 32]; L],
) {
    let k = keys512(rc);
    let inp = load512(inputs);
    let mut s = inp;
    rounds512(&k, &mut s);
    // The output is 64-bit words 1, 3, 4 and 6 of the result.
    let pick = _mm512_setr_epi64(1, 3, 4, 6, 0, 0, 0, 0);
    for ((x, y), o) in s.iter().zip(&inp).zip(out.iter_mut()) {
        let t = _mm512_permutexvar_epi64(pick, _mm512_xor_si512(*x, *y));
        // SAFETY: `o` is 32 bytes and `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), _mm512_castsi512_si256(t)) };
    }
}

/// Haraka-256 of `L` inputs, two per register: the register holding inputs
/// 2m and 2m + 1 is the 64 bytes from input 2m on.
///
/// # Safety
/// The CPU must support AVX-512F and VAES.
#[target_feature(enable = "avx512f,vaes")]
pub(crate) unsafe fn hash256<const L: usize>(
    rc: &HarakaRc,
    inputs: &[[u8; 32]; L],
    out: &mut [[u8; 32]; L],
) {
    // Round r uses constants 4r, 4r + 1 (states 0, 1), then 4r + 2, 4r + 3,
    // the same for both instances of a register.
    let mut k = [_mm512_setzero_si512(); 10];
    for (j, x) in k.iter_mut().enumerate() {
        // SAFETY: constants 2j, 2j + 1 are 32 bytes within the table, and
        // `loadu` has no alignment requirement.
        *x = _mm512_broadcast_i64x4(unsafe { _mm256_loadu_si256(rc.0[2 * j..].as_ptr().cast()) });
    }
    // MIX2 on each instance: words (s0_0, s1_0, s0_1, s1_1), (s0_2, s1_2,
    // s0_3, s1_3).
    let idx = _mm512_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    let regs = L.div_ceil(2);
    // Odd L: the last register holds one instance, loaded and stored as
    // four 64-bit words.
    let mask = |m: usize| if 2 * m + 1 < L { 0xff } else { 0x0f };
    let src = inputs.as_flattened().as_ptr();
    let mut inp = [_mm512_setzero_si512(); L];
    for (m, x) in inp[..regs].iter_mut().enumerate() {
        // SAFETY: the mask selects bytes 64m..64m + 64, or 64m..64m + 32 for
        // the last register of an odd L, all within the 32L input bytes;
        // masked-off bytes are not read.
        *x = unsafe { _mm512_maskz_loadu_epi64(mask(m), src.add(64 * m).cast()) };
    }
    let mut s = inp;
    for r in 0..5 {
        for h in 0..2 {
            for x in s[..regs].iter_mut() {
                *x = _mm512_aesenc_epi128(*x, k[2 * r + h]);
            }
        }
        for x in s[..regs].iter_mut() {
            *x = _mm512_permutexvar_epi32(idx, *x);
        }
    }
    let dst = out.as_flattened_mut().as_mut_ptr();
    for (m, (x, y)) in s[..regs].iter().zip(&inp).enumerate() {
        // SAFETY: as for the loads, within the 32L output bytes.
        unsafe {
            _mm512_mask_storeu_epi64(dst.add(64 * m).cast(), mask(m), _mm512_xor_si512(*x, *y))
        };
    }
}
