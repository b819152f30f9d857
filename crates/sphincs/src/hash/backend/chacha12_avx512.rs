//! The ChaCha12 permutation on sixteen states at once, one 512-bit vector per
//! state word: every rotation is a single `vprold`, and the sixteen state
//! words stay in registers for all twelve rounds.

use core::arch::x86_64::{
    __m256i, __m512i, _mm256_add_epi32, _mm256_cmpgt_epu32_mask, _mm256_cmple_epu32_mask,
    _mm256_cvtepu8_epi32, _mm256_loadu_si256, _mm256_mask_mov_epi32, _mm256_rol_epi32,
    _mm256_set1_epi32, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_xor_si256,
    _mm512_add_epi32, _mm512_cmpgt_epu32_mask, _mm512_cmple_epu32_mask, _mm512_cvtepu8_epi32,
    _mm512_loadu_si512, _mm512_mask_mov_epi32, _mm512_rol_epi32, _mm512_set1_epi32,
    _mm512_setzero_si512, _mm512_storeu_si512, _mm512_xor_si512, _mm_loadl_epi64, _mm_loadu_si128,
};

use super::chacha12::{chacha12_rounds, Half, Soa, LANES, SPHINCS_C};

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
    ($a:expr, $n:literal) => {
        _mm256_rol_epi32::<$n>($a)
    };
}

/// Loads eight words of sixteen lanes.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn load_half(h: &Half) -> [__m512i; 8] {
    // SAFETY: each `h[w]` is a valid, readable `[u32; 16]` (64 bytes);
    // unaligned loads have no alignment requirement.
    core::array::from_fn(|w| unsafe { _mm512_loadu_si512(h[w].as_ptr().cast()) })
}

/// F chains of sixteen lanes (see `chacha12::chains_x16_portable`): the
/// chain values stay in registers for all steps; a lane outside its range
/// of steps keeps its value (a masked move).
///
/// # Safety
/// The CPU must support AVX-512F, and `masks` must have an entry for every
/// step below the largest `end`.
#[target_feature(enable = "avx512f")]
pub unsafe fn chains_x16(
    cur: &mut Half,
    masks: &[[u32; 8]],
    start: &[u8; LANES],
    end: &[u8; LANES],
) {
    let lo = *start.iter().min().expect("16 lanes");
    let hi = *end.iter().max().expect("16 lanes");
    // SAFETY: AVX-512F is enabled (function attribute).
    let mut c = unsafe { load_half(cur) };
    // SAFETY: `start` and `end` are 16 readable bytes; unaligned loads.
    let (st, en) = unsafe {
        (
            _mm512_cvtepu8_epi32(_mm_loadu_si128(start.as_ptr().cast())),
            _mm512_cvtepu8_epi32(_mm_loadu_si128(end.as_ptr().cast())),
        )
    };
    for step in lo..hi {
        let s = _mm512_set1_epi32(step as i32);
        let active = _mm512_cmple_epu32_mask(st, s) & _mm512_cmpgt_epu32_mask(en, s);
        let m = &masks[step as usize];
        let mut x: [__m512i; 16] = [_mm512_setzero_si512(); 16];
        for w in 0..8 {
            x[w] = _mm512_xor_si512(c[w], _mm512_set1_epi32(m[w] as i32));
            x[8 + w] = _mm512_set1_epi32(SPHINCS_C[w] as i32);
        }
        chacha12_rounds!(x, add_zmm, xor_zmm, rol_zmm);
        for w in 0..8 {
            c[w] = _mm512_mask_mov_epi32(c[w], active, x[w]);
        }
    }
    for (v, w) in c.iter().zip(cur.iter_mut()) {
        // SAFETY: `w` is a valid, writable `[u32; 16]` (64 bytes); unaligned store.
        unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), *v) };
    }
}

/// H of sixteen lanes (see `chacha12::h_x16_portable`), both permutations
/// in registers.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub unsafe fn h_x16(io: &mut Half, right: &Half, masks: &[[u32; 8]; 2]) {
    // SAFETY: AVX-512F is enabled (function attribute).
    let (l, r) = unsafe { (load_half(io), load_half(right)) };
    let mut x: [__m512i; 16] = [_mm512_setzero_si512(); 16];
    for w in 0..8 {
        x[w] = _mm512_xor_si512(l[w], _mm512_set1_epi32(masks[0][w] as i32));
        x[8 + w] = _mm512_set1_epi32(SPHINCS_C[w] as i32);
    }
    chacha12_rounds!(x, add_zmm, xor_zmm, rol_zmm);
    for w in 0..8 {
        x[w] = _mm512_xor_si512(
            x[w],
            _mm512_xor_si512(r[w], _mm512_set1_epi32(masks[1][w] as i32)),
        );
    }
    chacha12_rounds!(x, add_zmm, xor_zmm, rol_zmm);
    for (v, w) in x.iter().zip(io.iter_mut()) {
        // SAFETY: `w` is a valid, writable `[u32; 16]` (64 bytes); unaligned store.
        unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), *v) };
    }
}

// Batches of at most eight lanes (verification's short steps: authentication
// paths, the top of an L-tree, a last batch of chains) run on 256-bit
// vectors with the AVX-512VL rotation: on cores that split 512-bit
// operations in two, a lane costs the same and the call half.

/// [`chains_x16`] for batches whose lanes 8..16 run no steps.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512VL, and `masks` must have an
/// entry for every step below the largest `end` of lanes 0..8.
#[target_feature(enable = "avx512f,avx512vl")]
pub unsafe fn chains_x8(
    cur: &mut Half,
    masks: &[[u32; 8]],
    start: &[u8; LANES],
    end: &[u8; LANES],
) {
    let lo = *start[..8].iter().min().expect("8 lanes");
    let hi = *end[..8].iter().max().expect("8 lanes");
    // SAFETY: each `cur[w]` holds at least 8 readable u32 (32 bytes); unaligned loads.
    let mut c: [__m256i; 8] =
        core::array::from_fn(|w| unsafe { _mm256_loadu_si256(cur[w].as_ptr().cast()) });
    // SAFETY: `start` and `end` hold at least 8 readable bytes; unaligned loads.
    let (st, en) = unsafe {
        (
            _mm256_cvtepu8_epi32(_mm_loadl_epi64(start.as_ptr().cast())),
            _mm256_cvtepu8_epi32(_mm_loadl_epi64(end.as_ptr().cast())),
        )
    };
    for step in lo..hi {
        let s = _mm256_set1_epi32(step as i32);
        let active = _mm256_cmple_epu32_mask(st, s) & _mm256_cmpgt_epu32_mask(en, s);
        let m = &masks[step as usize];
        let mut x: [__m256i; 16] = [_mm256_setzero_si256(); 16];
        for w in 0..8 {
            x[w] = _mm256_xor_si256(c[w], _mm256_set1_epi32(m[w] as i32));
            x[8 + w] = _mm256_set1_epi32(SPHINCS_C[w] as i32);
        }
        chacha12_rounds!(x, add_ymm, xor_ymm, rol_ymm);
        for w in 0..8 {
            c[w] = _mm256_mask_mov_epi32(c[w], active, x[w]);
        }
    }
    for (v, w) in c.iter().zip(cur.iter_mut()) {
        // SAFETY: `w` holds at least 8 writable u32 (32 bytes); unaligned store.
        unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), *v) };
    }
}

/// [`h_x16`] on lanes 0..8 only (lanes 8..16 of `io` are left as they are).
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub unsafe fn h_x8(io: &mut Half, right: &Half, masks: &[[u32; 8]; 2]) {
    let mut x: [__m256i; 16] = [_mm256_setzero_si256(); 16];
    for w in 0..8 {
        // SAFETY: `io[w]` holds at least 8 readable u32 (32 bytes); unaligned load.
        let l = unsafe { _mm256_loadu_si256(io[w].as_ptr().cast()) };
        x[w] = _mm256_xor_si256(l, _mm256_set1_epi32(masks[0][w] as i32));
        x[8 + w] = _mm256_set1_epi32(SPHINCS_C[w] as i32);
    }
    chacha12_rounds!(x, add_ymm, xor_ymm, rol_ymm);
    for w in 0..8 {
        // SAFETY: `right[w]` holds at least 8 readable u32 (32 bytes); unaligned load.
        let r = unsafe { _mm256_loadu_si256(right[w].as_ptr().cast()) };
        x[w] = _mm256_xor_si256(
            x[w],
            _mm256_xor_si256(r, _mm256_set1_epi32(masks[1][w] as i32)),
        );
    }
    chacha12_rounds!(x, add_ymm, xor_ymm, rol_ymm);
    for (v, w) in x.iter().zip(io.iter_mut()) {
        // SAFETY: `w` holds at least 8 writable u32 (32 bytes); unaligned store.
        unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), *v) };
    }
}
