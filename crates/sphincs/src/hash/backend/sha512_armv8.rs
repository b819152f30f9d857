//! SHA-512 compression of several independent streams at once with the
//! Armv8.2 SHA-512 extension (`sha512h`, `sha512h2`, `sha512su0`,
//! `sha512su1`), for the SHA-2 sets of categories 3 and 5.
//!
//! Each `sha512h`/`sha512h2` pair does two rounds and waits for the previous
//! pair, so one stream is latency-bound; as in `sha256_armv8`, the kernels
//! run several streams with their steps interleaved.
//!
//! Register layout: the state as `ab`, `cd`, `ef`, `gh` (two words each, the
//! first word in element 0), the message as eight registers of two schedule
//! words. Every two-round step moves the roles on by one register (the
//! register that was `gh` becomes the next step's `ab`, and so on), so the
//! steps below index the state by `(role - step) mod 4`.

use core::arch::aarch64::{
    vaddq_u64, vdupq_n_u64, vextq_u64, vld1q_u64, vld1q_u8, vreinterpretq_u64_u8, vrev64q_u8,
    vsha512h2q_u64, vsha512hq_u64, vsha512su0q_u64, vsha512su1q_u64, vst1q_u64,
};

use super::sha2::K512;

/// Compresses `blocks[i]` into `states[i]` for four independent streams.
///
/// # Safety
/// The CPU must support the SHA-512 extension (`is_aarch64_feature_detected!("sha3")`,
/// which Rust reports only where both SHA-3 and SHA-512 are present).
#[target_feature(enable = "neon,sha3")]
pub unsafe fn compress512_armv8_x4(states: &mut [[u64; 8]; 4], blocks: &[[u8; 128]; 4]) {
    compress_streams(states, blocks);
}

/// Compresses `blocks[i]` into `states[i]` for two independent streams.
///
/// # Safety
/// As [`compress512_armv8_x4`].
#[target_feature(enable = "neon,sha3")]
pub unsafe fn compress512_armv8_x2(states: &mut [[u64; 8]; 2], blocks: &[[u8; 128]; 2]) {
    compress_streams(states, blocks);
}

#[target_feature(enable = "neon,sha3")]
#[inline]
fn compress_streams<const L: usize>(states: &mut [[u64; 8]; L], blocks: &[[u8; 128]; L]) {
    let zero = vdupq_n_u64(0);
    let mut v = [[zero; 4]; L];
    let mut w = [[zero; 8]; L];
    for s in 0..L {
        // SAFETY: each pointer is to 2 words inside `states[s]` or 16 bytes
        // inside `blocks[s]`, both borrowed for the whole call.
        unsafe {
            for (i, r) in v[s].iter_mut().enumerate() {
                *r = vld1q_u64(states[s][2 * i..].as_ptr());
            }
            for (i, r) in w[s].iter_mut().enumerate() {
                // The message words are big-endian.
                *r = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(blocks[s][16 * i..].as_ptr())));
            }
        }
    }
    let v0 = v;

    // Step j of a group of eight (two rounds each): with the message words
    // of rounds 16g + 2j and 16g + 2j + 1 in w[j], computed from the older
    // ones first when g > 0.
    macro_rules! step {
        ($g:expr, $($j:literal)*) => {$({
            let (a, c, e, gg) = ((4 - $j % 4) % 4, (5 - $j % 4) % 4, (6 - $j % 4) % 4, (7 - $j % 4) % 4);
            // SAFETY: K512[16g + 2j ..][..2] is in bounds (g < 5, j < 8).
            let k = unsafe { vld1q_u64(K512[16 * $g + 2 * $j..].as_ptr()) };
            for s in 0..L {
                let m = &mut w[s];
                if $g > 0 {
                    m[$j] = vsha512su1q_u64(
                        vsha512su0q_u64(m[$j], m[($j + 1) % 8]),
                        m[($j + 7) % 8],
                        vextq_u64::<1>(m[($j + 4) % 8], m[($j + 5) % 8]),
                    );
                }
                let st = &mut v[s];
                let wk = vaddq_u64(m[$j], k);
                let sum = vaddq_u64(vextq_u64::<1>(wk, wk), st[gg]);
                let t = vsha512hq_u64(sum, vextq_u64::<1>(st[e], st[gg]), vextq_u64::<1>(st[c], st[e]));
                st[gg] = vsha512h2q_u64(t, st[c], st[a]);
                st[c] = vaddq_u64(st[c], t);
            }
        })*};
    }
    for g in 0..5 {
        step!(g, 0 1 2 3 4 5 6 7);
    }

    for s in 0..L {
        for (i, (r, r0)) in v[s].iter().zip(&v0[s]).enumerate() {
            // SAFETY: 2 words inside `states[s]`, borrowed mutably.
            unsafe { vst1q_u64(states[s][2 * i..].as_mut_ptr(), vaddq_u64(*r, *r0)) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::sha2::block_api::compress512;

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// Chains eight random blocks through the kernel and through `sha2`,
    /// stream by stream, comparing after every block.
    fn check<const L: usize>(
        kernel: unsafe fn(&mut [[u64; 8]; L], &[[u8; 128]; L]),
        mut seed: u64,
    ) {
        let mut states: [[u64; 8]; L] =
            core::array::from_fn(|_| core::array::from_fn(|_| xorshift(&mut seed)));
        let mut expect = states;
        for _ in 0..8 {
            let blocks: [[u8; 128]; L] =
                core::array::from_fn(|_| core::array::from_fn(|_| xorshift(&mut seed) as u8));
            // SAFETY: the caller checked the CPU features.
            unsafe { kernel(&mut states, &blocks) };
            for (st, block) in expect.iter_mut().zip(&blocks) {
                compress512(st, &[*block]);
            }
            assert_eq!(states, expect);
        }
    }

    fn has_sha512() -> bool {
        let ok = std::arch::is_aarch64_feature_detected!("sha3");
        if !ok {
            eprintln!("skipped: CPU lacks the SHA-512 extension");
        }
        ok
    }

    #[test]
    fn armv8_x4_matches_sha2() {
        if has_sha512() {
            check(compress512_armv8_x4, 0x9e37_79b9_7f4a_7c15);
        }
    }

    #[test]
    fn armv8_x2_matches_sha2() {
        if has_sha512() {
            check(compress512_armv8_x2, 0x2545_f491_4f6c_dd1d);
        }
    }
}
