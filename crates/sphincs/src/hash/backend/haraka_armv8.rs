//! Haraka-512 and Haraka-256 of several independent instances at once with
//! the Armv8 AES instructions, the AArch64 counterpart of `haraka_aesni`.
//!
//! Arm splits an AES round differently from x86: `aese` is AddRoundKey,
//! SubBytes and ShiftRows (the key is xored *before* the S-boxes), `aesmc` is
//! MixColumns, while x86's `aesenc` (Haraka's round) adds the key *after*
//! MixColumns. Haraka runs two AES rounds back to back on each state, so
//! `aesenc(aesenc(x, k0), k1)` becomes `aesmc(aese(aesmc(aese(x, 0)), k0)) ^ k1`:
//! the first key moves into the second `aese`, the second stays an `eor`.
//! As on x86, the rounds are written over arrays of instances so that their
//! independent instructions interleave and hide the AES latency.

use core::arch::aarch64::{
    uint8x16_t, vaeseq_u8, vaesmcq_u8, vdupq_n_u8, veorq_u8, vld1q_u8, vreinterpretq_u32_u8,
    vreinterpretq_u64_u8, vreinterpretq_u8_u32, vreinterpretq_u8_u64, vst1q_u8, vzip1q_u32,
    vzip1q_u64, vzip2q_u32, vzip2q_u64,
};

use super::haraka::HarakaRc;

#[inline]
#[target_feature(enable = "neon,aes")]
fn rc_at(rc: &HarakaRc, k: usize) -> uint8x16_t {
    // SAFETY: `rc.0[k]` is 16 readable bytes.
    unsafe { vld1q_u8(rc.0[k].as_ptr()) }
}

/// Two x86-style AES rounds, keys `k0` then `k1` (see the module comment).
#[inline]
#[target_feature(enable = "neon,aes")]
fn aes2(x: uint8x16_t, k0: uint8x16_t, k1: uint8x16_t) -> uint8x16_t {
    let once = vaesmcq_u8(vaeseq_u8(x, vdupq_n_u8(0)));
    veorq_u8(vaesmcq_u8(vaeseq_u8(once, k0)), k1)
}

/// x86's `unpacklo_epi32`: 32-bit words a0 b0 a1 b1.
#[inline]
#[target_feature(enable = "neon")]
fn lo32(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    vreinterpretq_u8_u32(vzip1q_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)))
}

/// x86's `unpackhi_epi32`: 32-bit words a2 b2 a3 b3.
#[inline]
#[target_feature(enable = "neon")]
fn hi32(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    vreinterpretq_u8_u32(vzip2q_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)))
}

/// MIX4 of Haraka-512 (the reference code's eight 32-bit unpacks).
#[inline]
#[target_feature(enable = "neon")]
fn mix4(s: &mut [uint8x16_t; 4]) {
    let tmp = lo32(s[0], s[1]);
    let a = hi32(s[0], s[1]);
    let b = lo32(s[2], s[3]);
    let c = hi32(s[2], s[3]);
    *s = [hi32(a, c), lo32(b, tmp), hi32(b, tmp), lo32(a, c)];
}

#[inline]
#[target_feature(enable = "neon,aes")]
fn rounds512<const L: usize>(rc: &HarakaRc, s: &mut [[uint8x16_t; 4]; L]) {
    for r in 0..5 {
        for x in s.iter_mut() {
            for (i, v) in x.iter_mut().enumerate() {
                *v = aes2(*v, rc_at(rc, 8 * r + i), rc_at(rc, 8 * r + 4 + i));
            }
        }
        for x in s.iter_mut() {
            mix4(x);
        }
    }
}

#[inline]
#[target_feature(enable = "neon")]
fn load<const N: usize, const V: usize, const L: usize>(
    blocks: &[[u8; N]; L],
) -> [[uint8x16_t; V]; L] {
    let mut s = [[vdupq_n_u8(0); V]; L];
    for (x, b) in s.iter_mut().zip(blocks) {
        for (i, v) in x.iter_mut().enumerate() {
            // SAFETY: bytes 16i..16i + 16 lie within the N = 16·V bytes of `b`.
            *v = unsafe { vld1q_u8(b[16 * i..].as_ptr()) };
        }
    }
    s
}

/// The Haraka-512 permutation of `L` states in place.
///
/// # Safety
/// The CPU must support the Armv8 AES instructions.
#[target_feature(enable = "neon,aes")]
pub(crate) unsafe fn perm512<const L: usize>(rc: &HarakaRc, states: &mut [[u8; 64]; L]) {
    let mut s = load::<64, 4, L>(states);
    rounds512(rc, &mut s);
    for (x, st) in s.iter().zip(states.iter_mut()) {
        for (i, v) in x.iter().enumerate() {
            // SAFETY: bytes 16i..16i + 16 lie within the 64-byte state.
            unsafe { vst1q_u8(st[16 * i..].as_mut_ptr(), *v) };
        }
    }
}

/// Haraka-512 of `L` inputs: permutation, feed-forward, truncation.
///
/// # Safety
/// The CPU must support the Armv8 AES instructions.
#[target_feature(enable = "neon,aes")]
pub(crate) unsafe fn hash512<const L: usize>(
    rc: &HarakaRc,
    inputs: &[[u8; 64]; L],
    out: &mut [[u8; 32]; L],
) {
    let mut s = load::<64, 4, L>(inputs);
    rounds512(rc, &mut s);
    let inp = load::<64, 4, L>(inputs);
    for ((x, y), o) in s.iter().zip(&inp).zip(out.iter_mut()) {
        let f: [uint8x16_t; 4] = core::array::from_fn(|i| veorq_u8(x[i], y[i]));
        // Bytes 8..16 and 24..32, then 32..40 and 48..56.
        let lo = vzip2q_u64(vreinterpretq_u64_u8(f[0]), vreinterpretq_u64_u8(f[1]));
        let hi = vzip1q_u64(vreinterpretq_u64_u8(f[2]), vreinterpretq_u64_u8(f[3]));
        // SAFETY: `o` is 32 bytes.
        unsafe {
            vst1q_u8(o.as_mut_ptr(), vreinterpretq_u8_u64(lo));
            vst1q_u8(o[16..].as_mut_ptr(), vreinterpretq_u8_u64(hi));
        }
    }
}

/// Haraka-256 of `L` inputs: five rounds of two AES rounds and MIX2, then
/// feed-forward.
///
/// # Safety
/// The CPU must support the Armv8 AES instructions.
#[target_feature(enable = "neon,aes")]
pub(crate) unsafe fn hash256<const L: usize>(
    rc: &HarakaRc,
    inputs: &[[u8; 32]; L],
    out: &mut [[u8; 32]; L],
) {
    let mut s = load::<32, 2, L>(inputs);
    for r in 0..5 {
        for x in s.iter_mut() {
            for (i, v) in x.iter_mut().enumerate() {
                *v = aes2(*v, rc_at(rc, 4 * r + i), rc_at(rc, 4 * r + 2 + i));
            }
        }
        for x in s.iter_mut() {
            *x = [lo32(x[0], x[1]), hi32(x[0], x[1])];
        }
    }
    let inp = load::<32, 2, L>(inputs);
    for ((x, y), o) in s.iter().zip(&inp).zip(out.iter_mut()) {
        for (i, (v, w)) in x.iter().zip(y).enumerate() {
            // SAFETY: bytes 16i..16i + 16 lie within the 32-byte output.
            unsafe { vst1q_u8(o[16 * i..].as_mut_ptr(), veorq_u8(*v, *w)) };
        }
    }
}
