//! Haraka-512 and Haraka-256 of several independent instances at once with
//! AES-NI.
//!
//! One instance is latency-bound: each state's next `aesenc` waits for its
//! previous one, four cycles or so, while the AES units could start one or
//! two per cycle. The rounds are written over arrays of instances, and the
//! compiler lays the instances' independent instructions side by side. Four
//! Haraka-512 instances (sixteen states) fill the sixteen vector registers;
//! more spill. The VEX encoding (AVX) lets `vaesenc` read its round constant
//! from unaligned memory and avoids SSE/AVX transition stalls.

use core::arch::x86_64::{
    __m128i, _mm_aesenc_si128, _mm_loadu_si128, _mm_setzero_si128, _mm_storeu_si128,
    _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi32, _mm_unpacklo_epi64, _mm_xor_si128,
};

use super::haraka::HarakaRc;

/// Round constant `k`. Read where it is used, so that `vaesenc` takes it as
/// a memory operand: copying the table to the stack first cost more than a
/// one-instance call's rounds.
#[inline]
#[target_feature(enable = "aes,avx")]
fn rc_at(rc: &HarakaRc, k: usize) -> __m128i {
    // SAFETY: `rc.0[k]` is 16 bytes and `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(rc.0[k].as_ptr().cast()) }
}

/// MIX4 of Haraka-512: the reference code's eight 32-bit unpacks.
#[inline]
#[target_feature(enable = "aes,avx")]
fn mix4(s: &mut [__m128i; 4]) {
    let tmp = _mm_unpacklo_epi32(s[0], s[1]);
    let a = _mm_unpackhi_epi32(s[0], s[1]);
    let b = _mm_unpacklo_epi32(s[2], s[3]);
    let c = _mm_unpackhi_epi32(s[2], s[3]);
    *s = [
        _mm_unpackhi_epi32(a, c),
        _mm_unpacklo_epi32(b, tmp),
        _mm_unpackhi_epi32(b, tmp),
        _mm_unpacklo_epi32(a, c),
    ];
}

/// The five rounds of the Haraka-512 permutation on `L` instances.
#[inline]
#[target_feature(enable = "aes,avx")]
fn rounds512<const L: usize>(rc: &HarakaRc, s: &mut [[__m128i; 4]; L]) {
    for r in 0..5 {
        for half in 0..2 {
            for x in s.iter_mut() {
                for (i, v) in x.iter_mut().enumerate() {
                    *v = _mm_aesenc_si128(*v, rc_at(rc, 8 * r + 4 * half + i));
                }
            }
        }
        for x in s.iter_mut() {
            mix4(x);
        }
    }
}

#[inline]
#[target_feature(enable = "aes,avx")]
fn load512<const L: usize>(states: &[[u8; 64]; L]) -> [[__m128i; 4]; L] {
    let mut s = [[_mm_setzero_si128(); 4]; L];
    for (x, st) in s.iter_mut().zip(states) {
        for (i, v) in x.iter_mut().enumerate() {
            // SAFETY: bytes 16i..16i + 16 lie within the 64-byte state and
            // `loadu` has no alignment requirement.
            *v = unsafe { _mm_loadu_si128(st[16 * i..].as_ptr().cast()) };
        }
    }
    s
}

/// The Haraka-512 permutation of `L` states in place.
///
/// # Safety
/// The CPU must support AES-NI and AVX.
#[target_feature(enable = "aes,avx")]
pub(crate) unsafe fn perm512<const L: usize>(rc: &HarakaRc, states: &mut [[u8; 64]; L]) {
    let mut s = load512(states);
    rounds512(rc, &mut s);
    for (x, st) in s.iter().zip(states.iter_mut()) {
        for (i, v) in x.iter().enumerate() {
            // SAFETY: bytes 16i..16i + 16 lie within the 64-byte state and
            // `storeu` has no alignment requirement.
            unsafe { _mm_storeu_si128(st[16 * i..].as_mut_ptr().cast(), *v) };
        }
    }
}

/// Haraka-512 of `L` inputs: permutation, feed-forward, truncation.
///
/// # Safety
/// The CPU must support AES-NI and AVX.
#[target_feature(enable = "aes,avx")]
pub(crate) unsafe fn hash512<const L: usize>(
    rc: &HarakaRc,
    inputs: &[[u8; 64]; L],
    out: &mut [[u8; 32]; L],
) {
    let mut s = load512(inputs);
    rounds512(rc, &mut s);
    // The inputs again from memory: kept in registers they would spill.
    let inp = load512(inputs);
    for ((x, y), o) in s.iter().zip(&inp).zip(out.iter_mut()) {
        let f: [__m128i; 4] = [
            _mm_xor_si128(x[0], y[0]),
            _mm_xor_si128(x[1], y[1]),
            _mm_xor_si128(x[2], y[2]),
            _mm_xor_si128(x[3], y[3]),
        ];
        // Bytes 8..16 and 24..32, then 32..40 and 48..56.
        let lo = _mm_unpackhi_epi64(f[0], f[1]);
        let hi = _mm_unpacklo_epi64(f[2], f[3]);
        // SAFETY: `o` is 32 bytes and `storeu` has no alignment requirement.
        unsafe {
            _mm_storeu_si128(o.as_mut_ptr().cast(), lo);
            _mm_storeu_si128(o[16..].as_mut_ptr().cast(), hi);
        }
    }
}

/// Haraka-256 of `L` inputs: five rounds of two AES rounds and MIX2, then
/// feed-forward.
///
/// # Safety
/// The CPU must support AES-NI and AVX.
#[target_feature(enable = "aes,avx")]
pub(crate) unsafe fn hash256<const L: usize>(
    rc: &HarakaRc,
    inputs: &[[u8; 32]; L],
    out: &mut [[u8; 32]; L],
) {
    let mut s = [[_mm_setzero_si128(); 2]; L];
    for (x, inp) in s.iter_mut().zip(inputs) {
        for (i, v) in x.iter_mut().enumerate() {
            // SAFETY: bytes 16i..16i + 16 lie within the 32-byte input and
            // `loadu` has no alignment requirement.
            *v = unsafe { _mm_loadu_si128(inp[16 * i..].as_ptr().cast()) };
        }
    }
    for r in 0..5 {
        for half in 0..2 {
            for x in s.iter_mut() {
                for (i, v) in x.iter_mut().enumerate() {
                    *v = _mm_aesenc_si128(*v, rc_at(rc, 4 * r + 2 * half + i));
                }
            }
        }
        for x in s.iter_mut() {
            *x = [
                _mm_unpacklo_epi32(x[0], x[1]),
                _mm_unpackhi_epi32(x[0], x[1]),
            ];
        }
    }
    for ((x, inp), o) in s.iter().zip(inputs).zip(out.iter_mut()) {
        for (i, v) in x.iter().enumerate() {
            // SAFETY: bytes 16i..16i + 16 lie within the 32-byte input and
            // output, and `loadu`/`storeu` have no alignment requirement.
            unsafe {
                let y = _mm_loadu_si128(inp[16 * i..].as_ptr().cast());
                _mm_storeu_si128(o[16 * i..].as_mut_ptr().cast(), _mm_xor_si128(*v, y));
            }
        }
    }
}
