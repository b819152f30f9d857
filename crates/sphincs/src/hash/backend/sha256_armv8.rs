//! SHA-256 compression of several independent streams at once with the
//! Armv8 SHA-2 extension (`sha256h`, `sha256h2`, `sha256su0`, `sha256su1`).
//!
//! As with SHA-NI (see `sha256_shani`), one stream is latency-bound: each
//! four-round step waits for the previous one. The tweakable hashes always
//! have independent calls at hand, so these kernels run two or four streams
//! with their instruction sequences interleaved; the round sequence is
//! written once over arrays of per-stream registers.
//!
//! Register layout: the state as `ABCD` and `EFGH` (word a in element 0), the
//! message as four registers of four schedule words each.

use core::arch::aarch64::{
    vaddq_u32, vdupq_n_u32, vld1q_u32, vld1q_u8, vreinterpretq_u32_u8, vrev32q_u8, vsha256h2q_u32,
    vsha256hq_u32, vsha256su0q_u32, vsha256su1q_u32, vst1q_u32,
};

use super::sha2::K256 as K;

/// Compresses `blocks[i]` into `states[i]` for four independent streams.
///
/// # Safety
/// The CPU must support the SHA-2 extension (`is_aarch64_feature_detected!("sha2")`).
#[target_feature(enable = "neon,sha2")]
pub unsafe fn compress256_armv8_x4(states: &mut [[u32; 8]; 4], blocks: &[[u8; 64]; 4]) {
    compress_streams(states, blocks);
}

/// Compresses `blocks[i]` into `states[i]` for two independent streams.
///
/// # Safety
/// The CPU must support the SHA-2 extension.
#[target_feature(enable = "neon,sha2")]
pub unsafe fn compress256_armv8_x2(states: &mut [[u32; 8]; 2], blocks: &[[u8; 64]; 2]) {
    compress_streams(states, blocks);
}

/// The kernel for `L` streams; every step loops over the streams so that
/// their independent instructions sit next to each other.
#[target_feature(enable = "neon,sha2")]
#[inline]
fn compress_streams<const L: usize>(states: &mut [[u32; 8]; L], blocks: &[[u8; 64]; L]) {
    let zero = vdupq_n_u32(0);
    let mut abcd = [zero; L];
    let mut efgh = [zero; L];
    let mut msg = [[zero; 4]; L];
    for s in 0..L {
        // SAFETY: each pointer is to 4 words inside `states[s]` or 16 bytes
        // inside `blocks[s]` (both borrowed for the whole call); the loads need
        // no alignment beyond the element type's.
        unsafe {
            abcd[s] = vld1q_u32(states[s][..4].as_ptr());
            efgh[s] = vld1q_u32(states[s][4..].as_ptr());
            for (j, m) in msg[s].iter_mut().enumerate() {
                // The message words are big-endian.
                *m = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks[s][16 * j..].as_ptr())));
            }
        }
    }
    let (abcd0, efgh0) = (abcd, efgh);

    // Four rounds per step; step g uses schedule words W[4g..4g + 4], held
    // in msg[s][g % 4], and then (g < 12) replaces them with W[4g + 16..]:
    // the four registers always hold the next sixteen words. Unrolled by a
    // macro so that every register index is a constant.
    macro_rules! step {
        ($($g:literal)*) => {$({
            // SAFETY: `K[4g..4g + 4]` is 4 readable words (g < 16).
            let k = unsafe { vld1q_u32(K[4 * $g..].as_ptr()) };
            for s in 0..L {
                let m = &mut msg[s];
                let wk = vaddq_u32(m[$g % 4], k);
                let prev = abcd[s];
                abcd[s] = vsha256hq_u32(abcd[s], efgh[s], wk);
                efgh[s] = vsha256h2q_u32(efgh[s], prev, wk);
                if $g < 12 {
                    m[$g % 4] = vsha256su1q_u32(
                        vsha256su0q_u32(m[$g % 4], m[($g + 1) % 4]),
                        m[($g + 2) % 4],
                        m[($g + 3) % 4],
                    );
                }
            }
        })*};
    }
    step!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);

    for s in 0..L {
        // SAFETY: each pointer is to 4 words inside `states[s]`, borrowed
        // mutably for the whole call.
        unsafe {
            vst1q_u32(states[s][..4].as_mut_ptr(), vaddq_u32(abcd[s], abcd0[s]));
            vst1q_u32(states[s][4..].as_mut_ptr(), vaddq_u32(efgh[s], efgh0[s]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::sha2::block_api::compress256;

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// Chains eight random blocks through the kernel and through `sha2`,
    /// stream by stream, comparing after every block.
    fn check<const L: usize>(kernel: unsafe fn(&mut [[u32; 8]; L], &[[u8; 64]; L]), mut seed: u64) {
        let mut states: [[u32; 8]; L] =
            core::array::from_fn(|_| core::array::from_fn(|_| xorshift(&mut seed) as u32));
        let mut expect = states;
        for _ in 0..8 {
            let blocks: [[u8; 64]; L] =
                core::array::from_fn(|_| core::array::from_fn(|_| xorshift(&mut seed) as u8));
            // SAFETY: the caller checked the CPU features.
            unsafe { kernel(&mut states, &blocks) };
            for (st, block) in expect.iter_mut().zip(&blocks) {
                compress256(st, &[*block]);
            }
            assert_eq!(states, expect);
        }
    }

    fn has_sha2() -> bool {
        let ok = std::arch::is_aarch64_feature_detected!("sha2");
        if !ok {
            eprintln!("skipped: CPU lacks the SHA-2 extension");
        }
        ok
    }

    #[test]
    fn armv8_x4_matches_sha2() {
        if has_sha2() {
            check(compress256_armv8_x4, 0x9e37_79b9_7f4a_7c15);
        }
    }

    #[test]
    fn armv8_x2_matches_sha2() {
        if has_sha2() {
            check(compress256_armv8_x2, 0x2545_f491_4f6c_dd1d);
        }
    }
}
