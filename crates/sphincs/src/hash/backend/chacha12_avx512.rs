//! The ChaCha12 permutation on sixteen states at once, one 512-bit vector per
//! state word: every rotation is a single `vprold`, and the sixteen state
//! words stay in registers for all twelve rounds.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_loadu_si512, _mm512_rol_epi32, _mm512_setzero_si512,
    _mm512_storeu_si512, _mm512_xor_si512,
};

use super::chacha12::{chacha12_rounds, Soa};

macro_rules! add_zmm {
    ($a:expr, $b:expr) => {
        _mm512_add_epi32($a, $b)
    };
}
macro_rules! xor_zmm {
    ($a:expr, $b:expr) => {
        _mm512_xor_si512($a, $b)
    };
}
macro_rules! rol_zmm {
    ($a:expr, $n:literal) => {
        _mm512_rol_epi32::<$n>($a)
    };
}

/// The ChaCha12 permutation of the sixteen word-sliced states of `s`.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub unsafe fn permute_x16(s: &mut Soa) {
    let mut x: [__m512i; 16] = [_mm512_setzero_si512(); 16];
    for (v, w) in x.iter_mut().zip(s.iter()) {
        // SAFETY: `w` is a valid, readable `[u32; 16]`, exactly 64 bytes, and
        // the unaligned load has no alignment requirement.
        *v = unsafe { _mm512_loadu_si512(w.as_ptr().cast()) };
    }
    chacha12_rounds!(x, add_zmm, xor_zmm, rol_zmm);
    for (v, w) in x.iter().zip(s.iter_mut()) {
        // SAFETY: `w` is a valid, writable `[u32; 16]`, exactly 64 bytes, and
        // the unaligned store has no alignment requirement.
        unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), *v) };
    }
}
