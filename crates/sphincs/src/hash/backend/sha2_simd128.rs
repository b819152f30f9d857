//! SHA-256 ×4 and SHA-512 ×2 on WebAssembly SIMD128: one stream per vector
//! lane (`i32x4` words for SHA-256, `i64x2` for SHA-512), the message
//! schedule and the rounds computed for every stream at once (FIPS 180-4
//! §6.2.2 and §6.4.2, written once over a word type). SIMD128 has no
//! rotate, so a rotation is two shifts and an or; Ch and Maj are
//! `v128_bitselect`.
//!
//! Compiled only for wasm32 with `target_feature = "simd128"`; the
//! intrinsics used are safe functions there.

use core::arch::wasm32::{
    i32x4_add, i32x4_shl, i32x4_splat, i64x2_add, i64x2_shl, u32x4, u32x4_extract_lane, u32x4_shr,
    u32x4_splat, u64x2, u64x2_extract_lane, u64x2_shr, u64x2_splat, v128, v128_and, v128_bitselect,
    v128_load, v128_or, v128_store, v128_xor,
};

use super::sha2::{K256, K512};
use super::sha256_chain::sha256_chain_steps;

/// The operations one SHA-2 size needs on a vector of its words.
trait Words {
    type Word: Copy;
    fn splat(x: Self::Word) -> v128;
    fn add(a: v128, b: v128) -> v128;
    fn rotr(a: v128, n: u32) -> v128;
    fn shr(a: v128, n: u32) -> v128;
}

struct W32;
impl Words for W32 {
    type Word = u32;
    fn splat(x: u32) -> v128 {
        u32x4_splat(x)
    }
    fn add(a: v128, b: v128) -> v128 {
        i32x4_add(a, b)
    }
    fn rotr(a: v128, n: u32) -> v128 {
        v128_or(u32x4_shr(a, n), i32x4_shl(a, 32 - n))
    }
    fn shr(a: v128, n: u32) -> v128 {
        u32x4_shr(a, n)
    }
}

struct W64;
impl Words for W64 {
    type Word = u64;
    fn splat(x: u64) -> v128 {
        u64x2_splat(x)
    }
    fn add(a: v128, b: v128) -> v128 {
        i64x2_add(a, b)
    }
    fn rotr(a: v128, n: u32) -> v128 {
        v128_or(u64x2_shr(a, n), i64x2_shl(a, 64 - n))
    }
    fn shr(a: v128, n: u32) -> v128 {
        u64x2_shr(a, n)
    }
}

/// Rotation and shift amounts of one SHA-2 size: Σ0, Σ1, σ0, σ1 (the last
/// of σ0 and σ1 a shift).
struct Amounts {
    big0: [u32; 3],
    big1: [u32; 3],
    small0: [u32; 3],
    small1: [u32; 3],
}

const A256: Amounts = Amounts {
    big0: [2, 13, 22],
    big1: [6, 11, 25],
    small0: [7, 18, 3],
    small1: [17, 19, 10],
};

const A512: Amounts = Amounts {
    big0: [28, 34, 39],
    big1: [14, 18, 41],
    small0: [1, 8, 7],
    small1: [19, 61, 6],
};

#[inline(always)]
fn rot3<W: Words>(x: v128, r: [u32; 3]) -> v128 {
    v128_xor(
        v128_xor(W::rotr(x, r[0]), W::rotr(x, r[1])),
        W::rotr(x, r[2]),
    )
}

#[inline(always)]
fn sigma<W: Words>(x: v128, r: [u32; 3]) -> v128 {
    v128_xor(
        v128_xor(W::rotr(x, r[0]), W::rotr(x, r[1])),
        W::shr(x, r[2]),
    )
}

/// The compression function on `ROUNDS` rounds: `state` and `w` (the first
/// 16 schedule words) hold one stream per lane.
#[inline(always)]
fn compress<W: Words, const ROUNDS: usize>(
    state: &mut [v128; 8],
    w: [v128; 16],
    k: impl Fn(usize) -> v128,
    amounts: &Amounts,
) {
    let out = rounds::<W, ROUNDS>(*state, w, k, amounts);
    for (s, v) in state.iter_mut().zip(out) {
        *s = W::add(*s, v);
    }
}

/// The `ROUNDS` rounds of one compression from the chaining value `v`:
/// the working variables after the last round, without the feed-forward.
#[inline(always)]
fn rounds<W: Words, const ROUNDS: usize>(
    v: [v128; 8],
    mut w: [v128; 16],
    k: impl Fn(usize) -> v128,
    amounts: &Amounts,
) -> [v128; 8] {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v;
    for t in 0..ROUNDS {
        let wt = if t < 16 {
            w[t]
        } else {
            // W_t = σ1(W_{t-2}) + W_{t-7} + σ0(W_{t-15}) + W_{t-16}, in a ring of 16.
            let s1 = sigma::<W>(w[(t - 2) % 16], amounts.small1);
            let s0 = sigma::<W>(w[(t - 15) % 16], amounts.small0);
            let x = W::add(W::add(s1, w[(t - 7) % 16]), W::add(s0, w[t % 16]));
            w[t % 16] = x;
            x
        };
        let ch = v128_bitselect(f, g, e);
        let t1 = W::add(
            W::add(h, rot3::<W>(e, amounts.big1)),
            W::add(W::add(ch, k(t)), wt),
        );
        let maj = v128_bitselect(b, c, v128_xor(a, c));
        let t2 = W::add(rot3::<W>(a, amounts.big0), maj);
        h = g;
        g = f;
        f = e;
        e = W::add(d, t1);
        d = c;
        c = b;
        b = a;
        a = W::add(t1, t2);
    }
    [a, b, c, d, e, f, g, h]
}

/// Compresses `blocks[i]` into `states[i]` for four independent SHA-256
/// streams.
pub fn compress256_x4(states: &mut [[u32; 8]; 4], blocks: &[[u8; 64]; 4]) {
    let word = |s: usize, j: usize| {
        u32::from_be_bytes([
            blocks[s][4 * j],
            blocks[s][4 * j + 1],
            blocks[s][4 * j + 2],
            blocks[s][4 * j + 3],
        ])
    };
    let w: [v128; 16] =
        core::array::from_fn(|j| u32x4(word(0, j), word(1, j), word(2, j), word(3, j)));
    let mut st: [v128; 8] =
        core::array::from_fn(|i| u32x4(states[0][i], states[1][i], states[2][i], states[3][i]));
    compress::<W32, 64>(&mut st, w, |t| W32::splat(K256[t]), &A256);
    for (i, v) in st.iter().enumerate() {
        states[0][i] = u32x4_extract_lane::<0>(*v);
        states[1][i] = u32x4_extract_lane::<1>(*v);
        states[2][i] = u32x4_extract_lane::<2>(*v);
        states[3][i] = u32x4_extract_lane::<3>(*v);
    }
}

/// Runs `steps` steps of four WOTS+ chains under the SHA-2 families' F,
/// blocks built in vectors from word-major lanes: the SIMD128 form of
/// `sha256_avx512::f_chains_avx512_x16` (x86-64), with the same arguments,
/// layout and step loop (`sha256_chain_steps!`). Between steps the values
/// stay in vectors: no block is assembled in memory, byte-swapped or
/// transposed.
pub fn f_chains_simd128_x4<const NW: usize>(
    seed: &[u32; 8],
    tmpl: &[u32; 16],
    head: &[[u32; 4]; 5],
    hash: &[u32; 4],
    vals: &mut [[u32; 4]; NW],
    steps: u32,
) {
    sha256_chain_steps!(
        seed, tmpl, head, hash, vals, steps, NW;
        i32x4_splat, v128_load, v128_store, v128_and, v128_or, i32x4_add,
        srli, slli, rounds256
    );
}

/// SHA-256's 64 rounds on four word-major streams (no feed-forward).
#[inline(always)]
fn rounds256(v: [v128; 8], w: [v128; 16]) -> [v128; 8] {
    rounds::<W32, 64>(v, w, |t| W32::splat(K256[t]), &A256)
}

/// A logical right shift of every 32-bit lane by `N`.
#[inline(always)]
fn srli<const N: u32>(a: v128) -> v128 {
    u32x4_shr(a, N)
}

/// A left shift of every 32-bit lane by `N`.
#[inline(always)]
fn slli<const N: u32>(a: v128) -> v128 {
    i32x4_shl(a, N)
}

/// Compresses `blocks[i]` into `states[i]` for two independent SHA-512
/// streams.
pub fn compress512_x2(states: &mut [[u64; 8]; 2], blocks: &[[u8; 128]; 2]) {
    let word = |s: usize, j: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&blocks[s][8 * j..8 * j + 8]);
        u64::from_be_bytes(b)
    };
    let w: [v128; 16] = core::array::from_fn(|j| u64x2(word(0, j), word(1, j)));
    let mut st: [v128; 8] = core::array::from_fn(|i| u64x2(states[0][i], states[1][i]));
    compress::<W64, 80>(&mut st, w, |t| W64::splat(K512[t]), &A512);
    for (i, v) in st.iter().enumerate() {
        states[0][i] = u64x2_extract_lane::<0>(*v);
        states[1][i] = u64x2_extract_lane::<1>(*v);
    }
}

/// [`compress512_x2`] on four streams, as two pairs.
pub fn compress512_x4(states: &mut [[u64; 8]; 4], blocks: &[[u8; 128]; 4]) {
    for half in [0usize, 2] {
        let mut st = [states[half], states[half + 1]];
        compress512_x2(&mut st, &[blocks[half], blocks[half + 1]]);
        states[half] = st[0];
        states[half + 1] = st[1];
    }
}
