//! SHA-256 compression of sixteen independent lanes with AVX-512F
//! (multi-buffer).
//!
//! The same scheme as the AVX2 kernel at twice the width: each `__m512i`
//! holds one 32-bit word of sixteen lanes. AVX-512F makes the round cheaper
//! too: rotations are single instructions (`vprord`), and every three-input
//! Boolean function (Ch, Maj, the three-way xors of the Σ and σ functions) is
//! one `vpternlogd`. Lane-major states and blocks are gathered into
//! word-major vectors and the result scattered back; the big-endian message
//! words are byte-swapped with two rotations and a bitwise select, which
//! needs no AVX-512BW.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_i32gather_epi32, _mm512_i32scatter_epi32,
    _mm512_loadu_epi32, _mm512_or_si512, _mm512_rol_epi32, _mm512_ror_epi32, _mm512_set1_epi32,
    _mm512_set_epi32, _mm512_slli_epi32, _mm512_srli_epi32, _mm512_storeu_epi32,
    _mm512_ternarylogic_epi32,
};

use super::sha256_chain::sha256_chain_steps;
use super::sha256_shani::K;

/// `vpternlogd` truth tables for inputs (A, B, C) = (0xf0, 0xcc, 0xaa).
/// A ⊕ B ⊕ C.
const XOR3: i32 = 0x96;
/// A ? B : C, which is Ch(A, B, C).
const CH: i32 = 0xca;
/// Majority of A, B, C, which is Maj(A, B, C).
const MAJ: i32 = 0xe8;

/// Compresses `blocks[i]` into `states[i]` for sixteen independent lanes.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub unsafe fn compress256_avx512_x16(states: &mut [[u32; 8]; 16], blocks: &[[u8; 64]; 16]) {
    let lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    // Offsets, in 32-bit words, of word 0 of each lane's state and block.
    let state_idx = _mm512_slli_epi32::<3>(lane);
    let block_idx = _mm512_slli_epi32::<4>(lane);
    let state_base: *mut i32 = states.as_mut_ptr().cast();
    let block_base: *const i32 = blocks.as_ptr().cast();

    let mut v = [_mm512_set1_epi32(0); 8];
    for (j, r) in v.iter_mut().enumerate() {
        // SAFETY: `states` is 16 × 8 contiguous u32s, so word j < 8 of lane
        // l < 16 is at offset 8·l + j < 128 words from `state_base`; the
        // gather reads only those, with scale 4 bytes per index.
        *r = unsafe {
            _mm512_i32gather_epi32::<4>(
                _mm512_add_epi32(state_idx, _mm512_set1_epi32(j as i32)),
                state_base.cast_const(),
            )
        };
    }
    let init = v;

    let mut w = [_mm512_set1_epi32(0); 16];
    for (j, word) in w.iter_mut().enumerate() {
        // SAFETY: `blocks` is 16 × 64 contiguous bytes, so 32-bit word
        // j < 16 of lane l < 16 is at word offset 16·l + j < 256 from
        // `block_base`; gathers need no alignment beyond the element's.
        let raw = unsafe {
            _mm512_i32gather_epi32::<4>(
                _mm512_add_epi32(block_idx, _mm512_set1_epi32(j as i32)),
                block_base,
            )
        };
        *word = bswap32(raw);
    }

    let out = rounds(v, w);
    for (j, (r, i)) in out.into_iter().zip(init).enumerate() {
        // SAFETY: the same 16 in-bounds words per j as the gather above,
        // each written once; `states` is borrowed mutably for the whole call.
        unsafe {
            _mm512_i32scatter_epi32::<4>(
                state_base,
                _mm512_add_epi32(state_idx, _mm512_set1_epi32(j as i32)),
                _mm512_add_epi32(r, i),
            )
        };
    }
}

/// Runs `steps` steps of sixteen WOTS+ chains under the SHA-2 families' F
/// (FIPS 205 §11.2.1, used by Algorithm 5 `chain`): SHA-256 resumed from
/// `seed`, the state after `PK.seed`'s block, over one block of ADRSc ‖
/// value ‖ padding. Lane l's block is built in registers at each step, with
/// no transposition and no memory in between: ADRSc's words 0–4 from
/// `head[..][l]` (word 4's low half, the hash address's high half, from
/// `hash[l]`), word 5 the hash address's low half and the value's first two
/// bytes, the value's `NW` big-endian words `vals[..][l]` shifted by two
/// bytes, then `tmpl`'s padding and length words. Each step's value is the
/// first `NW` digest words, and the hash address goes up by one; `vals`
/// holds the values after the last step.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub unsafe fn f_chains_avx512_x16<const NW: usize>(
    seed: &[u32; 8],
    tmpl: &[u32; 16],
    head: &[[u32; 16]; 5],
    hash: &[u32; 16],
    vals: &mut [[u32; 16]; NW],
    steps: u32,
) {
    sha256_chain_steps!(
        seed, tmpl, head, hash, vals, steps, NW;
        _mm512_set1_epi32, _mm512_loadu_epi32, _mm512_storeu_epi32, _mm512_and_si512, _mm512_or_si512, _mm512_add_epi32,
        _mm512_srli_epi32, _mm512_slli_epi32, rounds
    );
}

/// The 64 rounds of one compression on word-major vectors: `v` the eight
/// working variables (the chaining value), `w` the sixteen message words
/// (host order). Returns the working variables after round 63, without the
/// final feed-forward addition.
#[target_feature(enable = "avx512f")]
#[inline]
fn rounds(v: [__m512i; 8], mut w: [__m512i; 16]) -> [__m512i; 8] {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v;
    // The 64 rounds written out with constant indices (a macro over the
    // round numbers): as a loop, LLVM kept it rolled and indexed the
    // schedule ring through the stack with scalar address arithmetic, a
    // third of the instructions of a call. Unrolled, the ring and the state
    // stay in the 32 zmm registers.
    macro_rules! rounds {
        (schedule $($t:literal)*) => {$(
            // W[t] = σ1(W[t−2]) + W[t−7] + σ0(W[t−15]) + W[t−16], in place of
            // W[t−16] in the ring.
            let s1 = small_sigma1(w[($t - 2) % 16]);
            let s0 = small_sigma0(w[($t - 15) % 16]);
            let sum = _mm512_add_epi32(_mm512_add_epi32(s1, w[($t - 7) % 16]), s0);
            w[$t % 16] = _mm512_add_epi32(sum, w[$t % 16]);
            rounds!($t);
        )*};
        ($($t:literal)*) => {$(
            let kw = _mm512_add_epi32(_mm512_set1_epi32(K[$t] as i32), w[$t % 16]);
            let t1 = _mm512_add_epi32(_mm512_add_epi32(h, kw), big_sigma1(e));
            let t1 = _mm512_add_epi32(t1, _mm512_ternarylogic_epi32::<CH>(e, f, g));
            let t2 = _mm512_add_epi32(big_sigma0(a), _mm512_ternarylogic_epi32::<MAJ>(a, b, c));
            h = g;
            g = f;
            f = e;
            e = _mm512_add_epi32(d, t1);
            d = c;
            c = b;
            b = a;
            a = _mm512_add_epi32(t1, t2);
        )*};
    }
    rounds!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
    rounds!(schedule 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);
    rounds!(schedule 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47);
    rounds!(schedule 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);

    [a, b, c, d, e, f, g, h]
}

/// Reverses the bytes of each 32-bit element: rotating by 8 either way puts
/// bytes 0 and 2, respectively 1 and 3, in their swapped places, and a
/// select keyed on the byte position takes each from the right rotation.
#[target_feature(enable = "avx512f")]
#[inline]
fn bswap32(x: __m512i) -> __m512i {
    const SELECT: i32 = 0xe4; // C ? A : B
    _mm512_ternarylogic_epi32::<SELECT>(
        _mm512_ror_epi32::<8>(x),
        _mm512_rol_epi32::<8>(x),
        _mm512_set1_epi32(0xff00_ff00_u32 as i32),
    )
}

/// Σ0(x) = ROTR²(x) ⊕ ROTR¹³(x) ⊕ ROTR²²(x).
#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma0(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(
        _mm512_ror_epi32::<2>(x),
        _mm512_ror_epi32::<13>(x),
        _mm512_ror_epi32::<22>(x),
    )
}

/// Σ1(x) = ROTR⁶(x) ⊕ ROTR¹¹(x) ⊕ ROTR²⁵(x).
#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma1(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(
        _mm512_ror_epi32::<6>(x),
        _mm512_ror_epi32::<11>(x),
        _mm512_ror_epi32::<25>(x),
    )
}

/// σ0(x) = ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x).
#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma0(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(
        _mm512_ror_epi32::<7>(x),
        _mm512_ror_epi32::<18>(x),
        _mm512_srli_epi32::<3>(x),
    )
}

/// σ1(x) = ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x).
#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma1(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(
        _mm512_ror_epi32::<17>(x),
        _mm512_ror_epi32::<19>(x),
        _mm512_srli_epi32::<10>(x),
    )
}

#[cfg(test)]
mod tests {
    use super::super::sha256_shani::tests::{check, ns_per_block};
    use super::super::test_data::cpu_has;
    use super::*;

    fn has_avx512f() -> bool {
        cpu_has(&[is_x86_feature_detected!("avx512f")], "AVX-512F")
    }

    #[test]
    fn avx512_x16_matches_sha2() {
        if has_avx512f() {
            check(compress256_avx512_x16, 0xbb67_ae85_84ca_a73b);
        }
    }

    #[test]
    #[ignore = "timing; run by hand with --ignored --nocapture"]
    fn sha256_avx512_timing() {
        if has_avx512f() {
            let ns = ns_per_block(compress256_avx512_x16);
            eprintln!("compress256_avx512_x16: {ns:.1} ns/block/lane");
        }
    }
}
