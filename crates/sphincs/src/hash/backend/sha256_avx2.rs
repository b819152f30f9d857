//! SHA-256 compression of eight independent lanes with AVX2 (multi-buffer).
//!
//! For CPUs without the SHA extensions, and as a throughput kernel when
//! many independent calls are ready: each `__m256i` holds the same 32-bit
//! word (`a`, …, `h` or one schedule word) of eight lanes, so the 64 rounds
//! run once, in plain 32-bit vector arithmetic, for all eight lanes. States
//! and message blocks come in lane-major and are turned word-major by an 8×8
//! transpose of 32-bit elements (the message also byte-swapped, as SHA-256
//! reads it big-endian); the schedule is computed on the fly in a 16-word ring.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi32, _mm256_set_epi64x,
    _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_storeu_si256,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    _mm256_xor_si256,
};

use super::sha256_chain::sha256_chain_steps;
use super::sha256_shani::K;

/// Compresses `blocks[i]` into `states[i]` for eight independent lanes.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn compress256_avx2_x8(states: &mut [[u32; 8]; 8], blocks: &[[u8; 64]; 8]) {
    let mut v = [_mm256_set1_epi32(0); 8];
    for (r, st) in v.iter_mut().zip(states.iter()) {
        // SAFETY: `st` is 32 readable bytes; loadu needs no alignment.
        *r = unsafe { _mm256_loadu_si256(st.as_ptr().cast()) };
    }
    transpose8(&mut v);
    let init = v;

    // Byte order within each 32-bit word reversed: the message is big-endian.
    let bswap = _mm256_set_epi64x(
        0x0c0d_0e0f_0809_0a0b,
        0x0405_0607_0001_0203,
        0x0c0d_0e0f_0809_0a0b,
        0x0405_0607_0001_0203,
    );
    let mut w = [_mm256_set1_epi32(0); 16];
    for (half, words) in w.chunks_exact_mut(8).enumerate() {
        let mut rows = [_mm256_set1_epi32(0); 8];
        for (r, block) in rows.iter_mut().zip(blocks.iter()) {
            // SAFETY: 32 bytes at offset 32·half ≤ 32 of a 64-byte block.
            *r = unsafe { _mm256_loadu_si256(block[32 * half..].as_ptr().cast()) };
        }
        transpose8(&mut rows);
        for (word, r) in words.iter_mut().zip(rows) {
            *word = _mm256_shuffle_epi8(r, bswap);
        }
    }

    let mut v = rounds(v, w);
    for (r, i) in v.iter_mut().zip(init) {
        *r = _mm256_add_epi32(*r, i);
    }
    transpose8(&mut v);
    for (st, r) in states.iter_mut().zip(v) {
        // SAFETY: `st` is 32 writable bytes; storeu needs no alignment.
        unsafe { _mm256_storeu_si256(st.as_mut_ptr().cast(), r) };
    }
}

/// Runs `steps` steps of eight WOTS+ chains under the SHA-2 families' F,
/// blocks built in registers: the eight-lane AVX2 form of
/// [`f_chains_avx512_x16`](super::sha256_avx512::f_chains_avx512_x16), with
/// the same arguments and layout.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn f_chains_avx2_x8<const NW: usize>(
    seed: &[u32; 8],
    tmpl: &[u32; 16],
    head: &[[u32; 8]; 5],
    hash: &[u32; 8],
    vals: &mut [[u32; 8]; NW],
    steps: u32,
) {
    sha256_chain_steps!(
        seed, tmpl, head, hash, vals, steps, NW;
        _mm256_set1_epi32, _mm256_loadu_si256, _mm256_storeu_si256, _mm256_and_si256, _mm256_or_si256, _mm256_add_epi32,
        _mm256_srli_epi32, _mm256_slli_epi32, rounds
    );
}

/// The 64 rounds of one compression on word-major vectors: `v` the eight
/// working variables (the chaining value), `w` the sixteen message words
/// (host order). Returns the working variables after round 63, without the
/// final feed-forward addition.
#[target_feature(enable = "avx2")]
#[inline]
fn rounds(v: [__m256i; 8], mut w: [__m256i; 16]) -> [__m256i; 8] {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v;
    for t in 0..64 {
        if t >= 16 {
            // W[t] = σ1(W[t−2]) + W[t−7] + σ0(W[t−15]) + W[t−16], in place of
            // W[t−16] in the ring.
            let s1 = small_sigma1(w[(t - 2) % 16]);
            let s0 = small_sigma0(w[(t - 15) % 16]);
            let sum = _mm256_add_epi32(_mm256_add_epi32(s1, w[(t - 7) % 16]), s0);
            w[t % 16] = _mm256_add_epi32(sum, w[t % 16]);
        }
        let kw = _mm256_add_epi32(_mm256_set1_epi32(K[t] as i32), w[t % 16]);
        let t1 = _mm256_add_epi32(_mm256_add_epi32(h, kw), big_sigma1(e));
        let t1 = _mm256_add_epi32(t1, ch(e, f, g));
        let t2 = _mm256_add_epi32(big_sigma0(a), maj(a, b, c));
        h = g;
        g = f;
        f = e;
        e = _mm256_add_epi32(d, t1);
        d = c;
        c = b;
        b = a;
        a = _mm256_add_epi32(t1, t2);
    }

    [a, b, c, d, e, f, g, h]
}

/// Transposes the 8×8 matrix of 32-bit elements whose rows are `m[0..8]`.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose8(m: &mut [__m256i; 8]) {
    // Pairs of rows interleaved by 32 bits, then by 64 bits: each 128-bit half
    // then holds four elements of one column, low halves from columns 0..4 and
    // high halves from columns 4..8.
    let t: [__m256i; 8] = [
        _mm256_unpacklo_epi32(m[0], m[1]),
        _mm256_unpackhi_epi32(m[0], m[1]),
        _mm256_unpacklo_epi32(m[2], m[3]),
        _mm256_unpackhi_epi32(m[2], m[3]),
        _mm256_unpacklo_epi32(m[4], m[5]),
        _mm256_unpackhi_epi32(m[4], m[5]),
        _mm256_unpacklo_epi32(m[6], m[7]),
        _mm256_unpackhi_epi32(m[6], m[7]),
    ];
    // u[j] holds column j of rows 0..4 (low) and column j + 4 (high); u[j + 4]
    // the same for rows 4..8.
    let u: [__m256i; 8] = [
        _mm256_unpacklo_epi64(t[0], t[2]),
        _mm256_unpackhi_epi64(t[0], t[2]),
        _mm256_unpacklo_epi64(t[1], t[3]),
        _mm256_unpackhi_epi64(t[1], t[3]),
        _mm256_unpacklo_epi64(t[4], t[6]),
        _mm256_unpackhi_epi64(t[4], t[6]),
        _mm256_unpacklo_epi64(t[5], t[7]),
        _mm256_unpackhi_epi64(t[5], t[7]),
    ];
    for j in 0..4 {
        m[j] = _mm256_permute2x128_si256::<0x20>(u[j], u[j + 4]);
        m[j + 4] = _mm256_permute2x128_si256::<0x31>(u[j], u[j + 4]);
    }
}

/// Rotation right by `R` bits; `L` must be `32 − R`.
#[target_feature(enable = "avx2")]
#[inline]
fn ror<const R: i32, const L: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi32::<R>(x), _mm256_slli_epi32::<L>(x))
}

/// Σ0(x) = ROTR²(x) ⊕ ROTR¹³(x) ⊕ ROTR²²(x).
#[target_feature(enable = "avx2")]
#[inline]
fn big_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(ror::<2, 30>(x), ror::<13, 19>(x)),
        ror::<22, 10>(x),
    )
}

/// Σ1(x) = ROTR⁶(x) ⊕ ROTR¹¹(x) ⊕ ROTR²⁵(x).
#[target_feature(enable = "avx2")]
#[inline]
fn big_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(ror::<6, 26>(x), ror::<11, 21>(x)),
        ror::<25, 7>(x),
    )
}

/// σ0(x) = ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x).
#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(ror::<7, 25>(x), ror::<18, 14>(x)),
        _mm256_srli_epi32::<3>(x),
    )
}

/// σ1(x) = ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x).
#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(ror::<17, 15>(x), ror::<19, 13>(x)),
        _mm256_srli_epi32::<10>(x),
    )
}

/// Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g).
#[target_feature(enable = "avx2")]
#[inline]
fn ch(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_and_si256(e, f), _mm256_andnot_si256(e, g))
}

/// Maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), as (a ∧ b) ∨ (c ∧ (a ∨ b)).
#[target_feature(enable = "avx2")]
#[inline]
fn maj(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_or_si256(
        _mm256_and_si256(a, b),
        _mm256_and_si256(c, _mm256_or_si256(a, b)),
    )
}

#[cfg(test)]
mod tests {
    use super::super::sha256_shani::tests::{check, ns_per_block};
    use super::super::test_data::cpu_has;
    use super::*;

    fn has_avx2() -> bool {
        cpu_has(&[is_x86_feature_detected!("avx2")], "AVX2")
    }

    #[test]
    fn avx2_x8_matches_sha2() {
        if has_avx2() {
            check(compress256_avx2_x8, 0x6a09_e667_f3bc_c908);
        }
    }

    #[test]
    #[ignore = "timing; run by hand with --ignored --nocapture"]
    fn sha256_avx2_timing() {
        if has_avx2() {
            let ns = ns_per_block(compress256_avx2_x8);
            eprintln!("compress256_avx2_x8: {ns:.1} ns/block/lane");
        }
    }
}
