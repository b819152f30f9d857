//! Haraka v2 (Kölbl, Lauridsen, Mendel, Rechberger, "Haraka v2 – Efficient
//! Short-Input Hashing for Post-Quantum Applications", ePrint 2016/098) and
//! the sponge Haraka-S that SPHINCS+ round 3.1 builds on its 512-bit
//! permutation.
//!
//! Haraka is AES rounds with fixed round constants in place of a key
//! schedule, plus a word shuffle between rounds (MIX). SPHINCS+ replaces the
//! standard constants by ones derived from `PK.seed` ([`tweak_constants`]),
//! so every function here takes the constant table to use.
//!
//! Every entry point works on many independent instances at once: one AES
//! round has a latency of several cycles but issues every cycle or two, so
//! the kernels interleave instances to keep the AES unit busy. The portable
//! code does the same through `aes::hazmat::cipher_round_par`, whose
//! bitsliced fallback costs the same for eight blocks as for four.

use aes::hazmat::{cipher_round_par, Block, Block8};

use super::lanes::{copy_block, total_len, Parts};
pub(crate) use super::select::HarakaKernel;
use crate::hash::common::wipe;

/// A table of 40 round constants, constant k in bytes `16k..16k + 16` of the
/// table (the byte order of a `__m128i` loaded from memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HarakaRc(pub(crate) [[u8; 16]; 40]);

/// Haraka-S absorbs and squeezes 32 bytes per permutation.
pub(crate) const RATE: usize = 32;

/// Builds a table from constants written as the reference code's
/// `_mm_set_epi32(e3, e2, e1, e0)` arguments, e0 the least significant word.
const fn rc_from_set_epi32(words: [[u32; 4]; 40]) -> HarakaRc {
    let mut rc = [[0u8; 16]; 40];
    let mut k = 0;
    while k < 40 {
        let mut w = 0;
        while w < 4 {
            let bytes = words[k][3 - w].to_le_bytes();
            let mut b = 0;
            while b < 4 {
                rc[k][4 * w + b] = bytes[b];
                b += 1;
            }
            w += 1;
        }
        k += 1;
    }
    HarakaRc(rc)
}

/// The standard Haraka v2 round constants (ePrint 2016/098, Appendix A).
pub(crate) const STANDARD_RC: HarakaRc = rc_from_set_epi32([
    [0x0684704c, 0xe620c00a, 0xb2c5fef0, 0x75817b9d],
    [0x8b66b4e1, 0x88f3a06b, 0x640f6ba4, 0x2f08f717],
    [0x3402de2d, 0x53f28498, 0xcf029d60, 0x9f029114],
    [0x0ed6eae6, 0x2e7b4f08, 0xbbf3bcaf, 0xfd5b4f79],
    [0xcbcfb0cb, 0x4872448b, 0x79eecd1c, 0xbe397044],
    [0x7eeacdee, 0x6e9032b7, 0x8d5335ed, 0x2b8a057b],
    [0x67c28f43, 0x5e2e7cd0, 0xe2412761, 0xda4fef1b],
    [0x2924d9b0, 0xafcacc07, 0x675ffde2, 0x1fc70b3b],
    [0xab4d63f1, 0xe6867fe9, 0xecdb8fca, 0xb9d465ee],
    [0x1c30bf84, 0xd4b7cd64, 0x5b2a404f, 0xad037e33],
    [0xb2cc0bb9, 0x941723bf, 0x69028b2e, 0x8df69800],
    [0xfa0478a6, 0xde6f5572, 0x4aaa9ec8, 0x5c9d2d8a],
    [0xdfb49f2b, 0x6b772a12, 0x0efa4f2e, 0x29129fd4],
    [0x1ea10344, 0xf449a236, 0x32d611ae, 0xbb6a12ee],
    [0xaf044988, 0x4b050084, 0x5f9600c9, 0x9ca8eca6],
    [0x21025ed8, 0x9d199c4f, 0x78a2c7e3, 0x27e593ec],
    [0xbf3aaaf8, 0xa759c9b7, 0xb9282ecd, 0x82d40173],
    [0x6260700d, 0x6186b017, 0x37f2efd9, 0x10307d6b],
    [0x5aca45c2, 0x21300443, 0x81c29153, 0xf6fc9ac6],
    [0x9223973c, 0x226b68bb, 0x2caf92e8, 0x36d1943a],
    [0xd3bf9238, 0x225886eb, 0x6cbab958, 0xe51071b4],
    [0xdb863ce5, 0xaef0c677, 0x933dfddd, 0x24e1128d],
    [0xbb606268, 0xffeba09c, 0x83e48de3, 0xcb2212b1],
    [0x734bd3dc, 0xe2e4d19c, 0x2db91a4e, 0xc72bf77d],
    [0x43bb47c3, 0x61301b43, 0x4b1415c4, 0x2cb3924e],
    [0xdba775a8, 0xe707eff6, 0x03b231dd, 0x16eb6899],
    [0x6df3614b, 0x3c755977, 0x8e5e2302, 0x7eca472c],
    [0xcda75a17, 0xd6de7d77, 0x6d1be5b9, 0xb88617f9],
    [0xec6b43f0, 0x6ba8e9aa, 0x9d6c069d, 0xa946ee5d],
    [0xcb1e6950, 0xf957332b, 0xa2531159, 0x3bf327c1],
    [0x2cee0c75, 0x00da619c, 0xe4ed0353, 0x600ed0d9],
    [0xf0b1a5a1, 0x96e90cab, 0x80bbbabc, 0x63a4a350],
    [0xae3db102, 0x5e962988, 0xab0dde30, 0x938dca39],
    [0x17bb8f38, 0xd554a40b, 0x8814f3a8, 0x2e75b442],
    [0x34bb8a5b, 0x5f427fd7, 0xaeb6b779, 0x360a16f6],
    [0x26f65241, 0xcbe55438, 0x43ce5918, 0xffbaafde],
    [0x4ce99a54, 0xb9f3026a, 0xa2ca9cf7, 0x839ec978],
    [0xae51a51a, 0x1bdff7be, 0x40c06e28, 0x22901235],
    [0xa0c1613c, 0xba7ed22b, 0xc173bc0f, 0x48a659cf],
    [0x756acc03, 0x02288288, 0x4ad6bdfd, 0xe9c59da1],
]);

/// The 256-bit Haraka-512 output: bytes 8..16, 24..32, 32..40 and 48..56 of
/// the 512-bit result (the truncation of ePrint 2016/098 §4.2).
fn truncate512(full: &[u8; 64]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (o, start) in out.chunks_exact_mut(8).zip([8, 24, 32, 48]) {
        o.copy_from_slice(&full[start..start + 8]);
    }
    out
}

/// The portable code, written after the reference's SSE macros: states as
/// AES blocks, MIX as the same 32-bit unpack steps.
mod portable {
    use super::*;

    type Words = [u32; 4];

    fn words(b: &[u8]) -> Words {
        core::array::from_fn(|i| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().expect("4")))
    }

    fn put(b: &mut [u8], w: Words) {
        for (chunk, x) in b.chunks_exact_mut(4).zip(w) {
            chunk.copy_from_slice(&x.to_le_bytes());
        }
    }

    /// `_mm_unpacklo_epi32`.
    fn lo(a: Words, b: Words) -> Words {
        [a[0], b[0], a[1], b[1]]
    }

    /// `_mm_unpackhi_epi32`.
    fn hi(a: Words, b: Words) -> Words {
        [a[2], b[2], a[3], b[3]]
    }

    /// MIX4 of Haraka-512 on the four AES blocks of one state.
    fn mix4(s: &mut [Block]) {
        let [s0, s1, s2, s3] = core::array::from_fn(|i| words(&s[i]));
        let tmp = lo(s0, s1);
        let s0 = hi(s0, s1);
        let s1 = lo(s2, s3);
        let s2 = hi(s2, s3);
        let new = [hi(s0, s2), lo(s1, tmp), hi(s1, tmp), lo(s0, s2)];
        for (b, w) in s.iter_mut().zip(new) {
            put(b, w);
        }
    }

    /// MIX2 of Haraka-256 on the two AES blocks of one state.
    fn mix2(s: &mut [Block]) {
        let (s0, s1) = (words(&s[0]), words(&s[1]));
        put(&mut s[0], lo(s0, s1));
        put(&mut s[1], hi(s0, s1));
    }

    /// Five rounds of `per_state` AES blocks per instance (4 for
    /// Haraka-512, 2 for Haraka-256) on the eight blocks of `b`: round r,
    /// half h uses constants `2r·per_state + h·per_state + i` for block i of
    /// an instance.
    fn rounds(rc: &HarakaRc, b: &mut Block8, per_state: usize, mix: fn(&mut [Block])) {
        let mut keys = Block8::default();
        for r in 0..5 {
            for h in 0..2 {
                for (j, k) in keys.iter_mut().enumerate() {
                    k.copy_from_slice(&rc.0[(2 * r + h) * per_state + j % per_state]);
                }
                cipher_round_par(b, &keys);
            }
            for s in b.chunks_exact_mut(per_state) {
                mix(s);
            }
        }
    }

    /// The Haraka-512 permutation of two states (the eight AES blocks of one
    /// `cipher_round_par` call).
    pub(super) fn perm512_x2(rc: &HarakaRc, states: &mut [[u8; 64]; 2]) {
        let mut b = Block8::default();
        for (blk, src) in b.iter_mut().zip(states.as_flattened().chunks_exact(16)) {
            blk.copy_from_slice(src);
        }
        rounds(rc, &mut b, 4, mix4);
        for (blk, dst) in b.iter().zip(states.as_flattened_mut().chunks_exact_mut(16)) {
            dst.copy_from_slice(blk);
        }
        wipe(&mut b[..]);
    }

    /// Haraka-512 of two inputs.
    pub(super) fn hash512_x2(rc: &HarakaRc, inputs: &[[u8; 64]; 2], out: &mut [[u8; 32]; 2]) {
        let mut s = *inputs;
        perm512_x2(rc, &mut s);
        for ((st, inp), o) in s.iter_mut().zip(inputs).zip(out.iter_mut()) {
            for (x, y) in st.iter_mut().zip(inp) {
                *x ^= y;
            }
            *o = truncate512(st);
        }
        wipe(s.as_flattened_mut());
    }

    /// Haraka-256 of four inputs (eight AES blocks).
    pub(super) fn hash256_x4(rc: &HarakaRc, inputs: &[[u8; 32]; 4], out: &mut [[u8; 32]; 4]) {
        let mut b = Block8::default();
        for (blk, src) in b.iter_mut().zip(inputs.as_flattened().chunks_exact(16)) {
            blk.copy_from_slice(src);
        }
        rounds(rc, &mut b, 2, mix2);
        let ins = inputs.as_flattened().chunks_exact(16);
        for ((blk, src), dst) in b
            .iter()
            .zip(ins)
            .zip(out.as_flattened_mut().chunks_exact_mut(16))
        {
            for ((d, x), y) in dst.iter_mut().zip(blk.iter()).zip(src) {
                *d = x ^ y;
            }
        }
        wipe(&mut b[..]);
    }
}

/// A set of kernels of one instruction set, each for exactly `L` instances.
/// Implemented only by the private markers below, which [`with_kernel`]
/// hands out after matching the [`HarakaKernel`] that selected them.
trait Kernel {
    fn perm512<const L: usize>(rc: &HarakaRc, states: &mut [[u8; 64]; L]);
    fn hash512<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 64]; L], out: &mut [[u8; 32]; L]);
    fn hash256<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 32]; L], out: &mut [[u8; 32]; L]);
}

/// Runs a portable kernel of width `W` over `L` instances, `L` a multiple of
/// `W` or smaller (then padded with zeros).
fn portable_chunks<T: Copy, U: Copy, const L: usize, const W: usize>(
    inputs: &[T; L],
    out: &mut [U; L],
    zero: (T, U),
    f: impl Fn(&[T; W], &mut [U; W]),
) {
    let mut i = [zero.0; W];
    let mut o = [zero.1; W];
    for (ic, oc) in inputs.chunks(W).zip(out.chunks_mut(W)) {
        i[..ic.len()].copy_from_slice(ic);
        f(&i, &mut o);
        oc.copy_from_slice(&o[..oc.len()]);
    }
    // As `wipe`, for element types without `Default`.
    i.fill(zero.0);
    o.fill(zero.1);
    core::hint::black_box((&mut i, &mut o));
}

struct Portable;

impl Kernel for Portable {
    fn perm512<const L: usize>(rc: &HarakaRc, states: &mut [[u8; 64]; L]) {
        for chunk in states.chunks_mut(2) {
            let mut s = [[0u8; 64]; 2];
            s[..chunk.len()].copy_from_slice(chunk);
            portable::perm512_x2(rc, &mut s);
            chunk.copy_from_slice(&s[..chunk.len()]);
            wipe(s.as_flattened_mut());
        }
    }
    fn hash512<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 64]; L], out: &mut [[u8; 32]; L]) {
        portable_chunks::<_, _, L, 2>(inputs, out, ([0; 64], [0; 32]), |i, o| {
            portable::hash512_x2(rc, i, o)
        });
    }
    fn hash256<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 32]; L], out: &mut [[u8; 32]; L]) {
        portable_chunks::<_, _, L, 4>(inputs, out, ([0; 32], [0; 32]), |i, o| {
            portable::hash256_x4(rc, i, o)
        });
    }
}

#[cfg(target_arch = "x86_64")]
struct AesNi;

// SAFETY (for the three blocks below): `AesNi` is only used by
// `with_kernel` for `HarakaKernel::X4AesNi`, which `Kernels::forced`
// chooses only where AES-NI and AVX were detected.
#[cfg(target_arch = "x86_64")]
impl Kernel for AesNi {
    fn perm512<const L: usize>(rc: &HarakaRc, states: &mut [[u8; 64]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_aesni::perm512(rc, states) }
    }
    fn hash512<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 64]; L], out: &mut [[u8; 32]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_aesni::hash512(rc, inputs, out) }
    }
    fn hash256<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 32]; L], out: &mut [[u8; 32]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_aesni::hash256(rc, inputs, out) }
    }
}

#[cfg(target_arch = "x86_64")]
struct Vaes;

// SAFETY (for the three blocks below): `Vaes` is only used by `with_kernel`
// for `HarakaKernel::X16Vaes`, which `Kernels::forced` chooses only where
// AVX-512F and VAES were detected.
#[cfg(target_arch = "x86_64")]
impl Kernel for Vaes {
    fn perm512<const L: usize>(rc: &HarakaRc, states: &mut [[u8; 64]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_vaes::perm512(rc, states) }
    }
    fn hash512<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 64]; L], out: &mut [[u8; 32]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_vaes::hash512(rc, inputs, out) }
    }
    fn hash256<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 32]; L], out: &mut [[u8; 32]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_vaes::hash256(rc, inputs, out) }
    }
}

#[cfg(target_arch = "aarch64")]
struct ArmAes;

// SAFETY (for the three blocks below): `ArmAes` is only used by `with_kernel`
// for `HarakaKernel::X4Armv8`, which `Kernels::forced` and `Kernels::best`
// choose only where the Armv8 AES instructions were detected.
#[cfg(target_arch = "aarch64")]
impl Kernel for ArmAes {
    fn perm512<const L: usize>(rc: &HarakaRc, states: &mut [[u8; 64]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_armv8::perm512(rc, states) }
    }
    fn hash512<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 64]; L], out: &mut [[u8; 32]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_armv8::hash512(rc, inputs, out) }
    }
    fn hash256<const L: usize>(rc: &HarakaRc, inputs: &[[u8; 32]; L], out: &mut [[u8; 32]; L]) {
        // SAFETY: see the impl.
        unsafe { super::haraka_armv8::hash256(rc, inputs, out) }
    }
}

/// The most Haraka-512 instances a kernel call takes, all run side by side.
/// Measured with the timing test on Zen 4: AES-NI is slower with 8 than with
/// 4 (whose sixteen states already fill the sixteen registers), VAES faster
/// with 16 than with 8 (one register per instance, of thirty-two).
fn width(k: HarakaKernel) -> usize {
    match k {
        HarakaKernel::Portable => 8,
        HarakaKernel::X4AesNi => 4,
        HarakaKernel::X16Vaes => 16,
        HarakaKernel::X4Armv8 => 4,
    }
}

/// Something to run on a [`Kernel`] chosen at run time.
trait WithKernel {
    fn run<K: Kernel>(self);
}

/// Calls `job` with the marker type of kernel `k`.
fn with_kernel(k: HarakaKernel, job: impl WithKernel) {
    match k {
        #[cfg(target_arch = "x86_64")]
        HarakaKernel::X4AesNi => job.run::<AesNi>(),
        #[cfg(target_arch = "x86_64")]
        HarakaKernel::X16Vaes => job.run::<Vaes>(),
        #[cfg(target_arch = "aarch64")]
        HarakaKernel::X4Armv8 => job.run::<ArmAes>(),
        _ => job.run::<Portable>(),
    }
}

/// Calls `$f::<L>` on `$len` instances with `L` the smallest power of two
/// that holds them (at most 16): a tail group is padded rather than split,
/// since a call on fewer instances is latency-bound and costs about the same.
macro_rules! padded_width {
    ($len:expr, $L:ident => $body:expr) => {
        match $len {
            1 => {
                const $L: usize = 1;
                $body
            }
            2 => {
                const $L: usize = 2;
                $body
            }
            3..=4 => {
                const $L: usize = 4;
                $body
            }
            5..=8 => {
                const $L: usize = 8;
                $body
            }
            _ => {
                const $L: usize = 16;
                $body
            }
        }
    };
}

/// The Haraka-512 permutation (no feed-forward) of every state in place.
pub(crate) fn haraka512_perm_many(k: HarakaKernel, rc: &HarakaRc, states: &mut [[u8; 64]]) {
    struct Job<'a>(&'a HarakaRc, &'a mut [[u8; 64]], usize);
    impl WithKernel for Job<'_> {
        fn run<K: Kernel>(self) {
            let Job(rc, states, w) = self;
            for chunk in states.chunks_mut(w) {
                padded_width!(chunk.len(), L => {
                    match <&mut [[u8; 64]; L]>::try_from(&mut *chunk) {
                        Ok(full) => K::perm512::<L>(rc, full),
                        Err(_) => {
                            let mut s = [[0u8; 64]; L];
                            s[..chunk.len()].copy_from_slice(chunk);
                            K::perm512::<L>(rc, &mut s);
                            chunk.copy_from_slice(&s[..chunk.len()]);
                            wipe(s.as_flattened_mut());
                        }
                    }
                });
            }
        }
    }
    with_kernel(k, Job(rc, states, width(k)));
}

/// `out[i] = Haraka-512(inputs[i])`.
pub(crate) fn haraka512_many(
    k: HarakaKernel,
    rc: &HarakaRc,
    inputs: &[[u8; 64]],
    out: &mut [[u8; 32]],
) {
    debug_assert_eq!(inputs.len(), out.len());
    struct Job<'a>(&'a HarakaRc, &'a [[u8; 64]], &'a mut [[u8; 32]], usize);
    impl WithKernel for Job<'_> {
        fn run<K: Kernel>(self) {
            let Job(rc, inputs, out, w) = self;
            for (ic, oc) in inputs.chunks(w).zip(out.chunks_mut(w)) {
                padded_width!(ic.len(), L => {
                    match (<&[[u8; 64]; L]>::try_from(ic), <&mut [[u8; 32]; L]>::try_from(&mut *oc)) {
                        (Ok(i), Ok(o)) => K::hash512::<L>(rc, i, o),
                        _ => {
                            let mut i = [[0u8; 64]; L];
                            let mut o = [[0u8; 32]; L];
                            i[..ic.len()].copy_from_slice(ic);
                            K::hash512::<L>(rc, &i, &mut o);
                            oc.copy_from_slice(&o[..oc.len()]);
                            wipe(i.as_flattened_mut());
                            wipe(o.as_flattened_mut());
                        }
                    }
                });
            }
        }
    }
    with_kernel(k, Job(rc, inputs, out, width(k)));
}

/// `out[i] = Haraka-256(inputs[i])`.
pub(crate) fn haraka256_many(
    k: HarakaKernel,
    rc: &HarakaRc,
    inputs: &[[u8; 32]],
    out: &mut [[u8; 32]],
) {
    debug_assert_eq!(inputs.len(), out.len());
    struct Job<'a>(&'a HarakaRc, &'a [[u8; 32]], &'a mut [[u8; 32]], usize);
    impl WithKernel for Job<'_> {
        fn run<K: Kernel>(self) {
            let Job(rc, inputs, out, w) = self;
            for (ic, oc) in inputs.chunks(w).zip(out.chunks_mut(w)) {
                padded_width!(ic.len(), L => {
                    match (<&[[u8; 32]; L]>::try_from(ic), <&mut [[u8; 32]; L]>::try_from(&mut *oc)) {
                        (Ok(i), Ok(o)) => K::hash256::<L>(rc, i, o),
                        _ => {
                            let mut i = [[0u8; 32]; L];
                            let mut o = [[0u8; 32]; L];
                            i[..ic.len()].copy_from_slice(ic);
                            K::hash256::<L>(rc, &i, &mut o);
                            oc.copy_from_slice(&o[..oc.len()]);
                            wipe(i.as_flattened_mut());
                            wipe(o.as_flattened_mut());
                        }
                    }
                });
            }
        }
    }
    // Haraka-256 has two AES blocks per instance where Haraka-512 has four:
    // twice the instances fill the same registers (up to the 16 that
    // `padded_width` knows).
    with_kernel(k, Job(rc, inputs, out, (2 * width(k)).min(16)));
}

/// Most Haraka-S sponges [`haraka_s_parts_many`] runs side by side.
const SPONGE_LANES: usize = 16;

/// Haraka-S of up to [`SPONGE_LANES`] inputs of one length, side by side:
/// `emit(lane, offset, bytes)` receives each lane's output piece by piece.
fn sponge_group(
    k: HarakaKernel,
    rc: &HarakaRc,
    inputs: &[Parts<'_>],
    out_len: usize,
    mut emit: impl FnMut(usize, usize, &[u8]),
) {
    let g = inputs.len();
    debug_assert!(g <= SPONGE_LANES);
    let len = total_len(inputs[0]);
    let blocks = len / RATE + 1;
    let mut st = [[0u8; 64]; SPONGE_LANES];
    let mut blk = [0u8; RATE];
    for b in 0..blocks {
        for (s, parts) in st.iter_mut().zip(inputs) {
            debug_assert_eq!(total_len(parts), len, "a batch has equal input lengths");
            copy_block(parts, b * RATE, &mut blk);
            if b + 1 == blocks {
                blk[len - b * RATE] ^= 0x1f;
                blk[RATE - 1] ^= 0x80;
            }
            for (x, y) in s.iter_mut().zip(&blk) {
                *x ^= y;
            }
        }
        // The last block's permutation is the first squeeze's.
        if b + 1 < blocks {
            haraka512_perm_many(k, rc, &mut st[..g]);
        }
    }
    for off in (0..out_len).step_by(RATE) {
        haraka512_perm_many(k, rc, &mut st[..g]);
        let take = RATE.min(out_len - off);
        for (lane, s) in st[..g].iter().enumerate() {
            emit(lane, off, &s[..take]);
        }
    }
    wipe(st.as_flattened_mut());
    wipe(&mut blk);
}

/// `outs[i] = Haraka-S(inputs[i])` squeezed to `outs[i].len()` bytes, every
/// input (a list of parts) of one length and every output of one length.
pub(crate) fn haraka_s_parts_many(
    k: HarakaKernel,
    rc: &HarakaRc,
    inputs: &[Parts<'_>],
    outs: &mut [&mut [u8]],
) {
    debug_assert_eq!(inputs.len(), outs.len());
    for (ins, os) in inputs
        .chunks(SPONGE_LANES)
        .zip(outs.chunks_mut(SPONGE_LANES))
    {
        let out_len = os[0].len();
        sponge_group(k, rc, ins, out_len, |lane, off, bytes| {
            os[lane][off..off + bytes.len()].copy_from_slice(bytes);
        });
    }
}

/// `outs[i] = Haraka-S(inputs[i])`, inputs of one length, outputs of one length.
pub(crate) fn haraka_s_many(
    k: HarakaKernel,
    rc: &HarakaRc,
    inputs: &[&[u8]],
    outs: &mut [&mut [u8]],
) {
    debug_assert_eq!(inputs.len(), outs.len());
    for (ins, os) in inputs
        .chunks(SPONGE_LANES)
        .zip(outs.chunks_mut(SPONGE_LANES))
    {
        let mut parts: [Parts<'_>; SPONGE_LANES] = [&[]; SPONGE_LANES];
        for (p, i) in parts.iter_mut().zip(ins) {
            *p = core::slice::from_ref(i);
        }
        haraka_s_parts_many(k, rc, &parts[..ins.len()], os);
    }
}

/// Streaming Haraka-S of one message, for inputs of any length (`PRF_msg`,
/// `H_msg`). Wiped on drop: `PRF_msg` absorbs `SK.prf` into it.
#[derive(Clone, zeroize::Zeroize, zeroize::ZeroizeOnDrop)]
pub(crate) struct HarakaS {
    #[zeroize(skip)]
    k: HarakaKernel,
    #[zeroize(skip)]
    rc: HarakaRc,
    state: [u8; 64],
    /// Bytes of the current block already absorbed (< RATE).
    pos: usize,
}

impl HarakaS {
    /// An empty sponge using round constants `rc`.
    pub(crate) fn new(k: HarakaKernel, rc: &HarakaRc) -> Self {
        HarakaS {
            k,
            rc: *rc,
            state: [0; 64],
            pos: 0,
        }
    }

    fn permute(&mut self) {
        haraka512_perm_many(self.k, &self.rc, core::slice::from_mut(&mut self.state));
    }

    /// Feeds the next bytes of the message.
    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (RATE - self.pos).min(data.len());
            for (x, y) in self.state[self.pos..self.pos + take].iter_mut().zip(data) {
                *x ^= y;
            }
            self.pos += take;
            data = &data[take..];
            if self.pos == RATE {
                self.permute();
                self.pos = 0;
            }
        }
    }

    /// Pads the message and squeezes `out.len()` bytes.
    pub(crate) fn finish(mut self, out: &mut [u8]) {
        self.state[self.pos] ^= 0x1f;
        self.state[RATE - 1] ^= 0x80;
        for chunk in out.chunks_mut(RATE) {
            self.permute();
            chunk.copy_from_slice(&self.state[..chunk.len()]);
        }
    }
}

/// The constants SPHINCS+ uses under `pk_seed`: the first 640 bytes of
/// Haraka-S(`pk_seed`) computed with the standard constants.
pub(crate) fn tweak_constants(k: HarakaKernel, pk_seed: &[u8]) -> HarakaRc {
    let mut rc = HarakaRc([[0u8; 16]; 40]);
    haraka_s_many(k, &STANDARD_RC, &[pk_seed], &mut [rc.0.as_flattened_mut()]);
    rc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::backend::select::{Backend, Kernels};

    use crate::hash::backend::test_data::XorShift;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    fn kernels() -> Vec<HarakaKernel> {
        let mut ks = vec![HarakaKernel::Portable];
        for b in Backend::available() {
            let k = crate::hash::backend::with_backend(b, Kernels::current)
                .unwrap()
                .haraka;
            if !ks.contains(&k) {
                ks.push(k);
            }
        }
        ks
    }

    /// Haraka v2 known answers (ePrint 2016/098, Appendix B): the inputs are
    /// the bytes 0, 1, 2, …
    #[test]
    fn known_answers() {
        let in512: [u8; 64] = core::array::from_fn(|i| i as u8);
        let in256: [u8; 32] = core::array::from_fn(|i| i as u8);
        let want512 = hex("be7f723b4e80a99813b292287f306f625a6d57331cae5f34dd9277b0945be2aa");
        let want256 = hex("8027ccb87949774b78d0545fb72bf70c695c2a0923cbd47bba1159efbf2b2c1c");
        // The first 48 bytes of the permutation xored with its input, before
        // truncation, as published with the same vector.
        let want_ff = hex(concat!(
            "c7cbf1d9dc9ed9e9be7f723b4e80a998add793d8870e2cc2",
            "13b292287f306f625a6d57331cae5f34166f22b85b2b7cf3"
        ));
        for k in kernels() {
            let mut o = [[0u8; 32]; 1];
            haraka512_many(k, &STANDARD_RC, &[in512], &mut o);
            assert_eq!(o[0][..], want512[..], "Haraka-512 {k:?}");
            haraka256_many(k, &STANDARD_RC, &[in256], &mut o);
            assert_eq!(o[0][..], want256[..], "Haraka-256 {k:?}");
            let mut s = [in512];
            haraka512_perm_many(k, &STANDARD_RC, &mut s);
            let ff: Vec<u8> = s[0].iter().zip(&in512).map(|(a, b)| a ^ b).collect();
            assert_eq!(ff[..48], want_ff[..], "Haraka-512 permutation {k:?}");
        }
    }

    /// Every kernel against the portable code, for every group size up to 37,
    /// with tweaked constants.
    #[test]
    fn kernels_match_portable() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let rc = tweak_constants(HarakaKernel::Portable, &rng.bytes::<32>());
        for k in kernels() {
            for count in 1..=37 {
                let in512: Vec<[u8; 64]> = (0..count).map(|_| rng.bytes()).collect();
                let in256: Vec<[u8; 32]> = (0..count).map(|_| rng.bytes()).collect();

                let mut want = vec![[0u8; 32]; count];
                let mut got = vec![[0u8; 32]; count];
                haraka512_many(HarakaKernel::Portable, &rc, &in512, &mut want);
                haraka512_many(k, &rc, &in512, &mut got);
                assert_eq!(got, want, "Haraka-512 {k:?} count {count}");

                haraka256_many(HarakaKernel::Portable, &rc, &in256, &mut want);
                haraka256_many(k, &rc, &in256, &mut got);
                assert_eq!(got, want, "Haraka-256 {k:?} count {count}");

                let mut want = in512.clone();
                let mut got = in512.clone();
                haraka512_perm_many(HarakaKernel::Portable, &rc, &mut want);
                haraka512_perm_many(k, &rc, &mut got);
                assert_eq!(got, want, "permutation {k:?} count {count}");
            }
            let seed = rng.bytes::<24>();
            assert_eq!(
                tweak_constants(k, &seed),
                tweak_constants(HarakaKernel::Portable, &seed),
                "tweak {k:?}"
            );
        }
    }

    /// The batched sponge against the streaming one, around the block
    /// boundaries, absorbing in uneven pieces and squeezing several blocks.
    #[test]
    fn sponge_batch_matches_stream() {
        let mut rng = XorShift(7);
        let rc = tweak_constants(HarakaKernel::Portable, &rng.bytes::<16>());
        for k in kernels() {
            for len in [0, 1, 30, 31, 32, 33, 63, 64, 65, 96, 100] {
                for out_len in [16, 32, 33, 70] {
                    let count = 1 + (len + out_len) % 19;
                    let msgs: Vec<Vec<u8>> = (0..count)
                        .map(|_| {
                            let mut m = vec![0u8; len];
                            rng.fill(&mut m);
                            m
                        })
                        .collect();
                    let ins: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
                    let mut got = vec![vec![0u8; out_len]; count];
                    let mut refs: Vec<&mut [u8]> = got.iter_mut().map(|o| &mut o[..]).collect();
                    haraka_s_many(k, &rc, &ins, &mut refs);
                    for (m, g) in msgs.iter().zip(&got) {
                        let mut s = HarakaS::new(HarakaKernel::Portable, &rc);
                        let (a, b) = m.split_at(len / 3);
                        s.absorb(a);
                        s.absorb(b);
                        let mut want = vec![0u8; out_len];
                        s.finish(&mut want);
                        assert_eq!(*g, want, "{k:?} len {len} out {out_len}");
                    }
                }
            }
        }
    }

    #[test]
    #[ignore = "timing; run by hand with --release --ignored --nocapture"]
    fn timing() {
        use core::hint::black_box;
        use std::time::Instant;

        const ITERS: u32 = 2_000;
        const COUNT: usize = 32;
        let mut rng = XorShift(1);
        let rc = tweak_constants(HarakaKernel::Portable, &rng.bytes::<32>());
        let in512: [[u8; 64]; COUNT] = core::array::from_fn(|_| rng.bytes());
        let in256: [[u8; 32]; COUNT] = core::array::from_fn(|_| rng.bytes());
        let mut out = [[0u8; 32]; COUNT];
        let time = |f: &mut dyn FnMut()| {
            let mut best = f64::MAX;
            for _ in 0..30 {
                let start = Instant::now();
                for _ in 0..ITERS {
                    f();
                }
                best = best.min(start.elapsed().as_nanos() as f64 / f64::from(ITERS));
            }
            best / COUNT as f64
        };
        for k in kernels() {
            let t512 = time(&mut || haraka512_many(k, &rc, black_box(&in512), &mut out));
            let t256 = time(&mut || haraka256_many(k, &rc, black_box(&in256), &mut out));
            let mut one = [in512[0]];
            let t1 = time(&mut || {
                for _ in 0..COUNT {
                    haraka512_perm_many(k, &rc, black_box(&mut one))
                }
            });
            black_box(out);
            eprintln!(
                "{k:?}: Haraka-512 {t512:.2} ns/call/lane, Haraka-256 {t256:.2} ns/call/lane, \
                 one permutation alone {t1:.2} ns"
            );
        }
    }
}
