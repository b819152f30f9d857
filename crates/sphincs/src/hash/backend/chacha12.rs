//! ChaCha12 for SPHINCS-256: the bare permutation (12 rounds, no
//! feed-forward) that F and H are built from, and the stream cipher of
//! SUPERCOP's `crypto_stream_chacha12` (Bernstein's original layout: 64-bit
//! block counter in words 12–13, 64-bit nonce in words 14–15) that is the PRG G.
//!
//! Every kernel works on [`LANES`] states side by side in word-sliced form
//! ([`Soa`]: `s[word][lane]`), so the scheme code can lay out a batch once
//! and the portable, AVX2 ×8 (two halves), AVX-512 ×16 and NEON ×4 (four
//! quarters) kernels agree on the layout.

use super::select::ChaChaKernel;

/// States per kernel call.
pub const LANES: usize = 16;

/// Sixteen ChaCha states, word-sliced: `s[i][lane]` is word i of state `lane`.
pub type Soa = [[u32; LANES]; 16];

/// "expand 32-byte k", the stream cipher's constant words 0–3.
pub const SIGMA: [u32; 4] = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

/// "expand 32-byte to 64-byte state!" as little-endian words: the second
/// half of the state SPHINCS-256's F and H start from.
pub const SPHINCS_C: [u32; 8] = {
    let c = b"expand 32-byte to 64-byte state!";
    let mut w = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        w[i] = u32::from_le_bytes([c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]]);
        i += 1;
    }
    w
};

/// Eight words of each of the sixteen lanes: one 32-byte value per lane.
pub type Half = [[u32; LANES]; 8];

/// One ChaCha quarter round on the words a, b, c, d of `$x`, with vector
/// operations given as macros (add, xor, rotate left).
macro_rules! quarter_round {
    ($x:ident, $add:ident, $xor:ident, $rol:ident, $a:literal, $b:literal, $c:literal, $d:literal) => {
        $x[$a] = $add!($x[$a], $x[$b]);
        $x[$d] = $rol!($xor!($x[$d], $x[$a]), 16);
        $x[$c] = $add!($x[$c], $x[$d]);
        $x[$b] = $rol!($xor!($x[$b], $x[$c]), 12);
        $x[$a] = $add!($x[$a], $x[$b]);
        $x[$d] = $rol!($xor!($x[$d], $x[$a]), 8);
        $x[$c] = $add!($x[$c], $x[$d]);
        $x[$b] = $rol!($xor!($x[$b], $x[$c]), 7);
    };
}
pub(crate) use quarter_round;

/// Twelve ChaCha rounds (six column-and-diagonal double rounds) on `$x`.
macro_rules! chacha12_rounds {
    ($x:ident, $add:ident, $xor:ident, $rol:ident) => {
        for _ in 0..6 {
            $crate::hash::backend::chacha12::quarter_round!($x, $add, $xor, $rol, 0, 4, 8, 12);
            $crate::hash::backend::chacha12::quarter_round!($x, $add, $xor, $rol, 1, 5, 9, 13);
            $crate::hash::backend::chacha12::quarter_round!($x, $add, $xor, $rol, 2, 6, 10, 14);
            $crate::hash::backend::chacha12::quarter_round!($x, $add, $xor, $rol, 3, 7, 11, 15);
            $crate::hash::backend::chacha12::quarter_round!($x, $add, $xor, $rol, 0, 5, 10, 15);
            $crate::hash::backend::chacha12::quarter_round!($x, $add, $xor, $rol, 1, 6, 11, 12);
            $crate::hash::backend::chacha12::quarter_round!($x, $add, $xor, $rol, 2, 7, 8, 13);
            $crate::hash::backend::chacha12::quarter_round!($x, $add, $xor, $rol, 3, 4, 9, 14);
        }
    };
}
// Re-exported for the SIMD kernels (x86-64, AArch64); the portable code
// above uses the macro by its local name.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use chacha12_rounds;

macro_rules! add_u32 {
    ($a:expr, $b:expr) => {
        $a.wrapping_add($b)
    };
}
macro_rules! xor_u32 {
    ($a:expr, $b:expr) => {
        $a ^ $b
    };
}
macro_rules! rol_u32 {
    ($a:expr, $n:literal) => {
        $a.rotate_left($n)
    };
}

/// The ChaCha12 permutation of one state, portable (12 rounds, no feed-forward).
pub fn permute(x: &mut [u32; 16]) {
    chacha12_rounds!(x, add_u32, xor_u32, rol_u32);
}

/// [`permute`] on each of the sixteen word-sliced states, one at a time.
pub fn permute_soa_portable(s: &mut Soa) {
    for lane in 0..LANES {
        let mut x: [u32; 16] = core::array::from_fn(|i| s[i][lane]);
        permute(&mut x);
        for (w, v) in s.iter_mut().zip(x) {
            w[lane] = v;
        }
    }
}

/// The permutation of all sixteen states of `s` on `kernel`.
pub(crate) fn permute_soa(kernel: ChaChaKernel, s: &mut Soa) {
    match kernel {
        ChaChaKernel::Portable => permute_soa_portable(s),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernels` hands out X8Avx2 only after checking AVX2.
        ChaChaKernel::X8Avx2 => unsafe { super::chacha12_avx2::permute_x16(s) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernels` hands out X16Avx512 only after checking AVX-512F.
        ChaChaKernel::X16Avx512 => unsafe { super::chacha12_avx512::permute_x16(s) },
        // SAFETY: NEON is part of every AArch64 target.
        #[cfg(target_arch = "aarch64")]
        ChaChaKernel::X4Neon => unsafe { super::chacha12_neon::permute_x16(s) },
        #[allow(unreachable_patterns)]
        _ => permute_soa_portable(s),
    }
}

/// F chains of sixteen lanes, portable: lane i steps from chain position
/// `start[i]` to `end[i]`, the step from position s computing
/// `π((cur ⊕ masks[s]) ‖ C)[0..8]`.
pub fn chains_x16_portable(
    cur: &mut Half,
    masks: &[[u32; 8]],
    start: &[u8; LANES],
    end: &[u8; LANES],
) {
    for lane in 0..LANES {
        let mut v: [u32; 8] = core::array::from_fn(|w| cur[w][lane]);
        for step in start[lane]..end[lane] {
            let m = &masks[step as usize];
            let mut x = [0u32; 16];
            for w in 0..8 {
                x[w] = v[w] ^ m[w];
                x[8 + w] = SPHINCS_C[w];
            }
            permute(&mut x);
            v.copy_from_slice(&x[..8]);
        }
        for (w, c) in cur.iter_mut().zip(v) {
            w[lane] = c;
        }
    }
}

/// H of sixteen lanes, portable: `io = π(π((io ⊕ m0) ‖ C) ⊕ ((right ⊕ m1) ‖ 0))[0..8]`.
pub fn h_x16_portable(io: &mut Half, right: &Half, masks: &[[u32; 8]; 2]) {
    for lane in 0..LANES {
        let mut x = [0u32; 16];
        for w in 0..8 {
            x[w] = io[w][lane] ^ masks[0][w];
            x[8 + w] = SPHINCS_C[w];
        }
        permute(&mut x);
        for w in 0..8 {
            x[w] ^= right[w][lane] ^ masks[1][w];
        }
        permute(&mut x);
        for w in 0..8 {
            io[w][lane] = x[w];
        }
    }
}

/// [`chains_x16_portable`] on `kernel`.
pub(crate) fn chains_x16(
    kernel: ChaChaKernel,
    cur: &mut Half,
    masks: &[[u32; 8]],
    start: &[u8; LANES],
    end: &[u8; LANES],
) {
    debug_assert!(end.iter().all(|&e| e as usize <= masks.len()));
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernels` hands out X8Avx2 only after checking AVX2; the
        // kernel reads masks[s] only for s < max(end) ≤ masks.len().
        ChaChaKernel::X8Avx2 => unsafe { super::chacha12_avx2::chains_x16(cur, masks, start, end) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, for AVX-512F and AVX-512VL (the Avx512 backend
        // requires both); lanes 8..16 running no steps is checked first.
        ChaChaKernel::X16Avx512 => unsafe {
            if (8..LANES).all(|i| start[i] >= end[i]) {
                super::chacha12_avx512::chains_x8(cur, masks, start, end)
            } else {
                super::chacha12_avx512::chains_x16(cur, masks, start, end)
            }
        },
        // SAFETY: NEON is part of every AArch64 target; `chains_x16` indexes
        // `masks` with bounds checks.
        #[cfg(target_arch = "aarch64")]
        ChaChaKernel::X4Neon => unsafe { super::chacha12_neon::chains_x16(cur, masks, start, end) },
        _ => chains_x16_portable(cur, masks, start, end),
    }
}

/// [`h_x16_portable`] on `kernel`, for lanes `0..used` (the others may
/// hold anything afterwards).
pub(crate) fn h_x16(
    kernel: ChaChaKernel,
    io: &mut Half,
    right: &Half,
    masks: &[[u32; 8]; 2],
    used: usize,
) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernels` hands out X8Avx2 only after checking AVX2.
        ChaChaKernel::X8Avx2 => unsafe { super::chacha12_avx2::h_x16(io, right, masks) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernels` hands out X16Avx512 only after checking AVX-512F
        // and AVX-512VL.
        ChaChaKernel::X16Avx512 => unsafe {
            if used <= 8 {
                super::chacha12_avx512::h_x8(io, right, masks)
            } else {
                super::chacha12_avx512::h_x16(io, right, masks)
            }
        },
        // SAFETY: NEON is part of every AArch64 target.
        #[cfg(target_arch = "aarch64")]
        ChaChaKernel::X4Neon => unsafe { super::chacha12_neon::h_x16(io, right, masks, used) },
        _ => {
            let _ = used;
            h_x16_portable(io, right, masks)
        }
    }
}

/// [`chains_x16_portable`] on the kernel [`Kernels::current`] picks (for
/// benchmarks: the cost of a permutation per lane).
///
/// [`Kernels::current`]: super::Kernels::current
pub fn chains_x16_current(
    cur: &mut Half,
    masks: &[[u32; 8]],
    start: &[u8; LANES],
    end: &[u8; LANES],
) {
    assert!(
        end.iter().all(|&e| e as usize <= masks.len()),
        "a mask per step"
    );
    chains_x16(super::Kernels::current().chacha, cur, masks, start, end);
}

/// [`h_x16_portable`] on the kernel [`Kernels::current`] picks (benchmarks).
///
/// [`Kernels::current`]: super::Kernels::current
pub fn h_x16_current(io: &mut Half, right: &Half, masks: &[[u32; 8]; 2]) {
    h_x16(super::Kernels::current().chacha, io, right, masks, LANES);
}

/// Keystream blocks of `crypto_stream_chacha12` with a zero nonce: lane i
/// gets the block `counters[i]` of the stream keyed with `keys[i]`
/// (word-sliced, 8 words), written word-sliced into `out`. Lanes past
/// `count` run on zeros; their output is to be ignored.
pub(crate) fn stream_blocks(
    kernel: ChaChaKernel,
    keys: &[[u32; LANES]; 8],
    counters: &[u64; LANES],
    out: &mut Soa,
) {
    for (w, c) in out.iter_mut().zip(SIGMA) {
        w.fill(c);
    }
    out[4..12].copy_from_slice(keys);
    for (lane, &c) in counters.iter().enumerate() {
        out[12][lane] = c as u32;
        out[13][lane] = (c >> 32) as u32;
    }
    out[14].fill(0);
    out[15].fill(0);
    let input = *out;
    permute_soa(kernel, out);
    for (o, i) in out.iter_mut().zip(input.iter()) {
        for (a, b) in o.iter_mut().zip(i) {
            *a = a.wrapping_add(*b);
        }
    }
}

/// `crypto_stream_chacha12` of one key: `out.len()` keystream bytes with
/// nonce `nonce` (portable, one block at a time; the tests' reference).
pub fn stream_portable(key: &[u8; 32], nonce: u64, out: &mut [u8]) {
    for (counter, chunk) in out.chunks_mut(64).enumerate() {
        let mut x = [0u32; 16];
        x[..4].copy_from_slice(&SIGMA);
        for (w, b) in x[4..12].iter_mut().zip(key.chunks_exact(4)) {
            *w = u32::from_le_bytes(b.try_into().expect("4 bytes"));
        }
        x[12] = counter as u32;
        x[13] = ((counter as u64) >> 32) as u32;
        x[14] = nonce as u32;
        x[15] = (nonce >> 32) as u32;
        let input = x;
        permute(&mut x);
        let mut block = [0u8; 64];
        for ((b, v), i) in block.chunks_exact_mut(4).zip(x).zip(input) {
            b.copy_from_slice(&v.wrapping_add(i).to_le_bytes());
        }
        chunk.copy_from_slice(&block[..chunk.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::backend::Backend;

    /// A small deterministic generator for random states.
    fn xorshift(seed: &mut u64) -> u32 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed >> 16) as u32
    }

    #[test]
    fn kernels_match_portable_on_random_states() {
        let mut seed = 0x9e3779b97f4a7c15;
        for backend in Backend::available() {
            let kernel = crate::hash::backend::Kernels::forced_for_tests(backend).chacha;
            for _ in 0..64 {
                let mut s: Soa = [[0; LANES]; 16];
                for w in s.iter_mut().flatten() {
                    *w = xorshift(&mut seed);
                }
                let mut expect = s;
                permute_soa_portable(&mut expect);
                permute_soa(kernel, &mut s);
                assert_eq!(s, expect, "{backend}");
            }
        }
    }

    /// The ChaCha block function of RFC 8439 §2.3.2 is 20 rounds; with 12 the
    /// SPHINCS-256 permutation must still satisfy the round structure, so check
    /// the quarter round against RFC 8439 §2.1.1 first.
    #[test]
    fn quarter_round_rfc8439() {
        let mut x = [0u32; 16];
        x[0] = 0x11111111;
        x[1] = 0x01020304;
        x[2] = 0x9b8d6f43;
        x[3] = 0x01234567;
        quarter_round!(x, add_u32, xor_u32, rol_u32, 0, 1, 2, 3);
        assert_eq!(x[..4], [0xea2a92f4, 0xcb1cf8ce, 0x4581472e, 0x5881c4bb]);
    }

    #[test]
    fn fused_f_and_h_kernels_match_portable() {
        let mut seed = 0x1234_5678_9abc_def1;
        let masks: Vec<[u32; 8]> = (0..15)
            .map(|_| core::array::from_fn(|_| xorshift(&mut seed)))
            .collect();
        for backend in Backend::available() {
            let kernel = crate::hash::backend::Kernels::forced_for_tests(backend).chacha;
            for round in 0..16 {
                let mut cur: Half = [[0; LANES]; 8];
                for w in cur.iter_mut().flatten() {
                    *w = xorshift(&mut seed);
                }
                let right = cur.map(|w| w.map(|x| x.rotate_left(5) ^ 0x5a5a));
                let start: [u8; LANES] = core::array::from_fn(|i| ((i * 7 + round) % 16) as u8);
                let end: [u8; LANES] =
                    core::array::from_fn(|i| (start[i] + ((i + round) % 16) as u8).min(15));
                let mut expect = cur;
                chains_x16_portable(&mut expect, &masks, &start, &end);
                let mut got = cur;
                chains_x16(kernel, &mut got, &masks, &start, &end);
                assert_eq!(got, expect, "{backend} chains");
                let pair = [masks[round % 15], masks[(round + 3) % 15]];
                let mut expect = cur;
                h_x16_portable(&mut expect, &right, &pair);
                let mut got = cur;
                h_x16(kernel, &mut got, &right, &pair, LANES);
                assert_eq!(got, expect, "{backend} H");
                // Small batches (the 8-lane kernels): lanes 0..8 only.
                let mut got = cur;
                h_x16(kernel, &mut got, &right, &pair, 8);
                for w in 0..8 {
                    assert_eq!(got[w][..8], expect[w][..8], "{backend} H x8");
                }
                let mut small_end = end;
                small_end[8..].copy_from_slice(&start[8..]);
                let mut expect = cur;
                chains_x16_portable(&mut expect, &masks, &start, &small_end);
                let mut got = cur;
                chains_x16(kernel, &mut got, &masks, &start, &small_end);
                assert_eq!(got, expect, "{backend} chains x8");
            }
        }
    }

    #[test]
    fn stream_lanes_match_portable() {
        let key: [u8; 32] = core::array::from_fn(|i| (i * 7 + 1) as u8);
        let mut expect = vec![0u8; 64 * 20];
        stream_portable(&key, 0, &mut expect);
        let kw: [u32; 8] =
            core::array::from_fn(|i| u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap()));
        for backend in Backend::available() {
            let kernel = crate::hash::backend::Kernels::forced_for_tests(backend).chacha;
            let keys: [[u32; LANES]; 8] = core::array::from_fn(|w| [kw[w]; LANES]);
            let counters: [u64; LANES] = core::array::from_fn(|i| i as u64 + 3);
            let mut out = [[0; LANES]; 16];
            stream_blocks(kernel, &keys, &counters, &mut out);
            for lane in 0..LANES {
                let block = &expect[64 * (lane + 3)..64 * (lane + 4)];
                for w in 0..16 {
                    let want = u32::from_le_bytes(block[4 * w..4 * w + 4].try_into().unwrap());
                    assert_eq!(out[w][lane], want, "{backend} lane {lane} word {w}");
                }
            }
        }
    }
}
