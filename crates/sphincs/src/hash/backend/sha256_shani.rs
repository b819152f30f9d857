//! SHA-256 compression of several independent streams at once with the x86
//! SHA extensions (SHA-NI).
//!
//! One stream is latency-bound: every `sha256rnds2` (two rounds) waits for the
//! previous one, so the SHA unit idles most of the time. The tweakable hashes
//! always have many independent calls at hand, so these kernels run two or
//! four streams with their instruction sequences interleaved: while one
//! stream's `sha256rnds2` is in flight, the others' issue. The round sequence
//! is written once, over arrays of per-stream registers, and the compiler lays
//! the streams side by side.
//!
//! Register layout is the usual one for SHA-NI: the state is held as
//! `ABEF` and `CDGH` (word `A` in the top 32-bit element), the message as four
//! registers of four schedule words each.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_blend_epi16, _mm_loadu_si128, _mm_set_epi64x,
    _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi32,
    _mm_shuffle_epi8, _mm_storeu_si128,
};

/// The SHA-256 round constants, shared by the x86 SHA-256 kernels.
pub(super) use super::sha2::K256 as K;

/// Compresses `blocks[i]` into `states[i]` for four independent streams.
///
/// # Safety
/// The CPU must support SHA-NI, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub unsafe fn compress256_shani_x4(states: &mut [[u32; 8]; 4], blocks: &[[u8; 64]; 4]) {
    compress_streams(states, blocks);
}

/// Compresses `blocks[i]` into `states[i]` for two independent streams.
///
/// # Safety
/// The CPU must support SHA-NI, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub unsafe fn compress256_shani_x2(states: &mut [[u32; 8]; 2], blocks: &[[u8; 64]; 2]) {
    compress_streams(states, blocks);
}

/// The kernel for `L` streams; every step below loops over the streams so
/// that their independent instructions sit next to each other.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
#[inline]
fn compress_streams<const L: usize>(states: &mut [[u32; 8]; L], blocks: &[[u8; 64]; L]) {
    // Byte order within each 32-bit word reversed: the message is big-endian.
    let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);

    let mut abef = [_mm_set_epi64x(0, 0); L];
    let mut cdgh = [_mm_set_epi64x(0, 0); L];
    let mut msg = [[_mm_set_epi64x(0, 0); 4]; L];
    for s in 0..L {
        let st = &states[s];
        // SAFETY: each pointer is to 16 bytes inside `states[s]` or
        // `blocks[s]` (both borrowed for the whole call); loadu needs no
        // alignment.
        let (abcd, efgh) = unsafe {
            (
                _mm_loadu_si128(st[..4].as_ptr().cast()),
                _mm_loadu_si128(st[4..].as_ptr().cast()),
            )
        };
        // Elements (low to high) a b c d and e f g h, to ABEF and CDGH.
        let badc = _mm_shuffle_epi32::<0xb1>(abcd);
        let hgfe = _mm_shuffle_epi32::<0x1b>(efgh);
        abef[s] = _mm_alignr_epi8::<8>(badc, hgfe);
        cdgh[s] = _mm_blend_epi16::<0xf0>(hgfe, badc);
        for (j, m) in msg[s].iter_mut().enumerate() {
            // SAFETY: as above, 16 bytes at offset 16·j < 64 of `blocks[s]`.
            let raw = unsafe { _mm_loadu_si128(blocks[s][16 * j..].as_ptr().cast()) };
            *m = _mm_shuffle_epi8(raw, bswap);
        }
    }
    let (abef0, cdgh0) = (abef, cdgh);

    // Rounds 0..16 use the message words as loaded.
    for (g, k) in K[..16].chunks_exact(4).enumerate() {
        let w = core::array::from_fn(|s| msg[s][g]);
        quad_round(&mut abef, &mut cdgh, &w, k);
    }
    // Rounds 16..64: msg[s] always holds the last 16 schedule words, oldest
    // first, and each step appends the next four. Unrolled by hand: as a loop
    // LLVM kept it rolled, and the register shuffling at the loop edge cost
    // about a fifth of the x4 throughput.
    macro_rules! step {
        ($($g:literal)*) => {$(
        for m in msg.iter_mut() {
            let next = schedule(m);
            *m = [m[1], m[2], m[3], next];
        }
        let w = core::array::from_fn(|s| msg[s][3]);
        quad_round(&mut abef, &mut cdgh, &w, &K[4 * $g..4 * $g + 4]);
        )*};
    }
    step!(4 5 6 7 8 9 10 11 12 13 14 15);

    for s in 0..L {
        let abef = _mm_add_epi32(abef[s], abef0[s]);
        let cdgh = _mm_add_epi32(cdgh[s], cdgh0[s]);
        // Back from ABEF and CDGH to a b c d and e f g h.
        let feba = _mm_shuffle_epi32::<0x1b>(abef);
        let dchg = _mm_shuffle_epi32::<0xb1>(cdgh);
        let abcd = _mm_blend_epi16::<0xf0>(feba, dchg);
        let efgh = _mm_alignr_epi8::<8>(dchg, feba);
        let st = &mut states[s];
        // SAFETY: each pointer is to 16 bytes inside `states[s]`, borrowed
        // mutably for the whole call; storeu needs no alignment.
        unsafe {
            _mm_storeu_si128(st[..4].as_mut_ptr().cast(), abcd);
            _mm_storeu_si128(st[4..].as_mut_ptr().cast(), efgh);
        }
    }
}

/// Four rounds of every stream, with schedule words `w[s]` and constants `k`.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
#[inline]
fn quad_round<const L: usize>(
    abef: &mut [__m128i; L],
    cdgh: &mut [__m128i; L],
    w: &[__m128i; L],
    k: &[u32],
) {
    // SAFETY: `k` is a 4-element chunk of `K`, so 16 readable bytes.
    let k = unsafe { _mm_loadu_si128(k.as_ptr().cast()) };
    for s in 0..L {
        let wk = _mm_add_epi32(w[s], k);
        cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], wk);
        // The next two rounds take the upper two words.
        let hi = _mm_shuffle_epi32::<0x0e>(wk);
        abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s], hi);
    }
}

/// Schedule words W[t..t+4] from `m` = W[t−16..t] in four registers.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
#[inline]
fn schedule(m: &[__m128i; 4]) -> __m128i {
    // W[t−16] + σ0(W[t−15]) for four words, then + W[t−7..t−3].
    let part = _mm_sha256msg1_epu32(m[0], m[1]);
    let part = _mm_add_epi32(part, _mm_alignr_epi8::<4>(m[3], m[2]));
    // + σ1(W[t−2]), where the last two words depend on the first two.
    _mm_sha256msg2_epu32(part, m[3])
}

#[cfg(test)]
pub(super) mod tests {
    //! Also the test helpers of the other SHA-256 kernels in this module.

    use super::*;
    use ::sha2::block_api::compress256;
    use std::time::Instant;

    use crate::hash::backend::test_data::{cpu_has, lanes_match_reference, XorShift};

    fn has_shani() -> bool {
        let features = [
            is_x86_feature_detected!("sha"),
            is_x86_feature_detected!("sse2"),
            is_x86_feature_detected!("ssse3"),
            is_x86_feature_detected!("sse4.1"),
        ];
        cpu_has(&features, "SHA-NI/SSSE3/SSE4.1")
    }

    /// Chains eight blocks through the kernel and through `sha2`, lane by
    /// lane, and compares after every block (the caller checked the CPU
    /// features).
    pub(crate) fn check<const L: usize>(
        kernel: unsafe fn(&mut [[u32; 8]; L], &[[u8; 64]; L]),
        seed: u64,
    ) {
        let data = (XorShift::state32 as _, XorShift::bytes::<64> as _);
        lanes_match_reference(kernel, |st, b| compress256(st, &[*b]), data, seed, 8);
    }

    #[test]
    fn shani_x4_matches_sha2() {
        if has_shani() {
            check(compress256_shani_x4, 0x9e37_79b9_7f4a_7c15);
        }
    }

    #[test]
    fn shani_x2_matches_sha2() {
        if has_shani() {
            check(compress256_shani_x2, 0x2545_f491_4f6c_dd1d);
        }
    }

    /// ns per block per lane of `kernel`, chaining each lane's state: the
    /// best of many short batches, since the machine is shared and a batch
    /// shorter than a scheduler slice often runs undisturbed.
    pub(crate) fn ns_per_block<const L: usize>(
        kernel: unsafe fn(&mut [[u32; 8]; L], &[[u8; 64]; L]),
    ) -> f64 {
        let mut rng = XorShift(1);
        let mut states: [[u32; 8]; L] = core::array::from_fn(|_| rng.state32());
        let blocks: [[u8; 64]; L] = core::array::from_fn(|_| rng.bytes());
        let iters = 16_384 / L;
        let mut best = f64::INFINITY;
        for _ in 0..400 {
            let start = Instant::now();
            for _ in 0..iters {
                // SAFETY: the caller checked the CPU features.
                unsafe { kernel(&mut states, std::hint::black_box(&blocks)) };
            }
            let ns = start.elapsed().as_nanos() as f64 / (iters * L) as f64;
            best = best.min(ns);
        }
        std::hint::black_box(states);
        best
    }

    #[test]
    #[ignore = "timing; run by hand with --ignored --nocapture"]
    fn sha256_shani_timing() {
        if !has_shani() {
            return;
        }
        let reference = ns_per_block::<1>(|st, b| compress256(&mut st[0], &[b[0]]));
        eprintln!("sha2::block_api::compress256: {reference:.1} ns/block");
        let x2 = ns_per_block(compress256_shani_x2);
        eprintln!("compress256_shani_x2: {x2:.1} ns/block/lane");
        let x4 = ns_per_block(compress256_shani_x4);
        eprintln!("compress256_shani_x4: {x4:.1} ns/block/lane");
    }
}
