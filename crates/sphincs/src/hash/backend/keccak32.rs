//! Keccak-f\[1600\] for 32-bit cores (a Cortex-M; not wasm32, which has
//! 64-bit integer operations): each 64-bit lane is held bit-interleaved as
//! two `u32` words, the even-numbered bits in one and the odd-numbered bits
//! in the other, so that a 64-bit rotation is two 32-bit rotations (no
//! carries between halves) and every other step is plain 32-bit logic.
//!
//! The state stays interleaved from absorbing to squeezing ([`Interleaved`]
//! implements the sponge's lane interface): a lane is converted only when
//! bytes go in or come out, so a one-block F or H converts the dozen lanes
//! it touches, not all 25 on every permutation. [`f1600`] keeps the `u64`
//! interface for the callers that hold plain lanes (the multi-lane drivers'
//! one-state fallback), converting on the way in and out.
//!
//! The round works in place on the 50 words, in three passes: the column
//! parities and theta's terms (a function of its own, see
//! [`theta_terms`]); theta, rho and pi together along the one 24-lane cycle
//! of pi (a lane is read, has its column's theta term added, and is rotated
//! into the slot it moves to, whose old lane is carried to the next step);
//! then chi, five consecutive words (half a row) at a time, and iota. No
//! second state is needed: the embedded verifier's stack is held to
//! 2.5 KiB for the 128-bit sets, and a round out of place into a copy on
//! the stack measured 2 724 bytes on the Cortex-M4 (and only 10 % fewer
//! instructions than this in-place round in its first form).
//!
//! Compiled for the targets that select it (see `keccak::Native`) and for
//! the tests on every host.

/// A Keccak-f\[1600\] state, bit-interleaved: lane `i` (x + 5y) is words
/// `i` (bits 0, 2, …, 62 of the lane) and `25 + i` (bits 1, 3, …, 63), so
/// that each half of a row is five consecutive words.
#[derive(Clone, Copy)]
pub(crate) struct Interleaved(pub(crate) [u32; 50]);

/// Splits a lane into its even and odd bits: `(even, odd)`, bit k of each
/// being bit 2k (2k + 1) of the lane.
#[inline(always)]
pub(crate) const fn interleave(lane: u64) -> (u32, u32) {
    let lo = unshuffle(lane as u32);
    let hi = unshuffle((lane >> 32) as u32);
    ((lo & 0xffff) | (hi << 16), (lo >> 16) | (hi & 0xffff_0000))
}

/// The inverse of [`interleave`].
#[inline(always)]
pub(crate) const fn deinterleave(even: u32, odd: u32) -> u64 {
    let lo = shuffle((even & 0xffff) | (odd << 16));
    let hi = shuffle((even >> 16) | (odd & 0xffff_0000));
    (lo as u64) | ((hi as u64) << 32)
}

/// Swaps the bits of `x` selected by `mask` with those `shift` places up.
#[inline(always)]
const fn delta_swap(x: u32, mask: u32, shift: u32) -> u32 {
    let t = (x ^ (x >> shift)) & mask;
    x ^ t ^ (t << shift)
}

/// Gathers the even bits of a word into its low half and the odd bits into
/// its high half, order kept.
#[inline(always)]
const fn unshuffle(x: u32) -> u32 {
    let x = delta_swap(x, 0x2222_2222, 1);
    let x = delta_swap(x, 0x0c0c_0c0c, 2);
    let x = delta_swap(x, 0x00f0_00f0, 4);
    delta_swap(x, 0x0000_ff00, 8)
}

/// The inverse of [`unshuffle`]: the same swaps in reverse order.
#[inline(always)]
const fn shuffle(x: u32) -> u32 {
    let x = delta_swap(x, 0x0000_ff00, 8);
    let x = delta_swap(x, 0x00f0_00f0, 4);
    let x = delta_swap(x, 0x0c0c_0c0c, 2);
    delta_swap(x, 0x2222_2222, 1)
}

/// The iota round constants, interleaved: `[even, odd]` per round. The
/// constants come from the LFSR of FIPS 202 (Algorithm 5), evaluated here
/// at compile time.
const RC: [[u32; 2]; 24] = {
    let mut out = [[0u32; 2]; 24];
    let mut lfsr: u8 = 1;
    let mut round = 0;
    while round < 24 {
        let mut rc = 0u64;
        let mut j = 0;
        while j < 7 {
            if lfsr & 1 != 0 {
                rc |= 1 << ((1u32 << j) - 1);
            }
            // x^8 + x^6 + x^5 + x^4 + 1
            lfsr = if lfsr & 0x80 != 0 {
                (lfsr << 1) ^ 0x71
            } else {
                lfsr << 1
            };
            j += 1;
        }
        let (e, o) = interleave(rc);
        out[round] = [e, o];
        round += 1;
    }
    out
};

/// The pi cycle: pi moves the lane at `PI_CYCLE[k]` to `PI_CYCLE[k + 1]`
/// (and the last back to the first), rotating it by the rho offset of the
/// slot it leaves, `RHO_ON_CYCLE[k]`. Lane 0 is pi's fixed point (offset 0).
#[cfg(test)]
const PI_CYCLE: [usize; 24] = [
    1, 10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6,
];
#[cfg(test)]
const RHO_ON_CYCLE: [u32; 24] = [
    1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
];

/// A lane rotated left by the constant `R` (0..64), interleaved: an even
/// rotation turns both words by R/2; an odd one also swaps them.
#[inline(always)]
fn rol<const R: u32>(l: [u32; 2]) -> [u32; 2] {
    if R & 1 == 0 {
        [l[0].rotate_left(R / 2), l[1].rotate_left(R / 2)]
    } else {
        [l[1].rotate_left(R.div_ceil(2)), l[0].rotate_left(R / 2)]
    }
}

#[inline(always)]
pub(crate) fn get(a: &[u32; 50], i: usize) -> [u32; 2] {
    [a[i], a[25 + i]]
}

#[inline(always)]
pub(crate) fn put(a: &mut [u32; 50], i: usize, l: [u32; 2]) {
    a[i] = l[0];
    a[25 + i] = l[1];
}

/// The parity of column `x`.
#[inline(always)]
fn col(a: &[u32; 50], x: usize) -> [u32; 2] {
    xor(
        xor(
            xor(get(a, x), get(a, x + 5)),
            xor(get(a, x + 10), get(a, x + 15)),
        ),
        get(a, x + 20),
    )
}

#[inline(always)]
fn xor(x: [u32; 2], y: [u32; 2]) -> [u32; 2] {
    [x[0] ^ y[0], x[1] ^ y[1]]
}

/// One step along the pi cycle: the lane carried in `$last` (theta added),
/// rotated by `$r`, goes to slot `$dst`, whose lane (theta added) is
/// carried on. The last step (`$dst` = 1) has nothing to carry.
macro_rules! pi_step {
    ($a:ident, $d:ident, $last:ident, $dst:literal, $r:literal) => {{
        let next = xor(get($a, $dst), $d[$dst % 5]);
        put($a, $dst, rol::<$r>($last));
        $last = next;
    }};
}

/// theta's term of each column: the parities of its neighbours, the
/// right-hand one rotated by 1. A function of its own: inlined, its loads
/// of the state would be kept for the cycle below (spilled to the stack,
/// which costs more than loading the state again).
#[inline(never)]
fn theta_terms(a: &[u32; 50]) -> [[u32; 2]; 5] {
    let c = [col(a, 0), col(a, 1), col(a, 2), col(a, 3), col(a, 4)];
    [
        xor(c[4], rol::<1>(c[1])),
        xor(c[0], rol::<1>(c[2])),
        xor(c[1], rol::<1>(c[3])),
        xor(c[2], rol::<1>(c[4])),
        xor(c[3], rol::<1>(c[0])),
    ]
}

/// One round of Keccak-f\[1600\] in place, with the interleaved round
/// constant `rc`. Inlined into the one loop of [`permute`] (a call per
/// round cost 1.5 % more instructions on the Cortex-M4, for no less stack).
#[inline(always)]
fn round(a: &mut [u32; 50], rc: [u32; 2]) {
    let d = theta_terms(a);

    // theta, rho and pi along the cycle: the literals below are PI_CYCLE
    // and RHO_ON_CYCLE, which a test derives from FIPS 202 (and the
    // permutation test checks the literals themselves).
    put(a, 0, xor(get(a, 0), d[0]));
    let mut last = xor(get(a, 1), d[1]);
    pi_step!(a, d, last, 10, 1);
    pi_step!(a, d, last, 7, 3);
    pi_step!(a, d, last, 11, 6);
    pi_step!(a, d, last, 17, 10);
    pi_step!(a, d, last, 18, 15);
    pi_step!(a, d, last, 3, 21);
    pi_step!(a, d, last, 5, 28);
    pi_step!(a, d, last, 16, 36);
    pi_step!(a, d, last, 8, 45);
    pi_step!(a, d, last, 21, 55);
    pi_step!(a, d, last, 24, 2);
    pi_step!(a, d, last, 4, 14);
    pi_step!(a, d, last, 15, 27);
    pi_step!(a, d, last, 23, 41);
    pi_step!(a, d, last, 19, 56);
    pi_step!(a, d, last, 13, 8);
    pi_step!(a, d, last, 12, 25);
    pi_step!(a, d, last, 2, 43);
    pi_step!(a, d, last, 20, 62);
    pi_step!(a, d, last, 14, 18);
    pi_step!(a, d, last, 22, 39);
    pi_step!(a, d, last, 9, 61);
    pi_step!(a, d, last, 6, 20);
    put(a, 1, rol::<44>(last));

    // chi, a half row (five consecutive words) at a time, then iota.
    for half_row in a.chunks_exact_mut(5) {
        let half_row: &mut [u32; 5] = half_row.try_into().expect("5 words");
        let [w0, w1, w2, w3, w4] = *half_row;
        *half_row = [
            w0 ^ (!w1 & w2),
            w1 ^ (!w2 & w3),
            w2 ^ (!w3 & w4),
            w3 ^ (!w4 & w0),
            w4 ^ (!w0 & w1),
        ];
    }
    a[0] ^= rc[0];
    a[25] ^= rc[1];
}

/// Keccak-f\[1600\] on an interleaved state: on an ARMv7-M core (a
/// Cortex-M3/M4/M7: M-profile with Thumb-2) the assembly of
/// `keccak32_armv7m.s`, elsewhere [`permute_portable`].
pub(crate) fn permute(s: &mut Interleaved) {
    #[cfg(all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    ))]
    // SAFETY: the function reads and writes the 50 words of the state and
    // reads the 48 words of RC (both borrowed for the call, aligned u32
    // arrays), touches no other memory but its own 288 bytes of stack, and
    // keeps the AAPCS's callee-saved registers (it pushes r4-r11 and lr).
    unsafe {
        sphincs_keccak_f1600_armv7m(s.0.as_mut_ptr(), RC.as_ptr().cast());
    }
    #[cfg(not(all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    )))]
    permute_portable(s);
}

// The ARMv7-M permutation, written by scripts/gen-keccak-armv7m (which
// says how it works); `raw`: the text is assembly as it stands, its braces
// (register lists) not format arguments.
#[cfg(all(
    target_arch = "arm",
    target_feature = "mclass",
    target_feature = "thumb2"
))]
core::arch::global_asm!(include_str!("keccak32_armv7m.s"), options(raw));

#[cfg(all(
    target_arch = "arm",
    target_feature = "mclass",
    target_feature = "thumb2"
))]
extern "C" {
    /// Keccak-f\[1600\] on `state` (an [`Interleaved`]'s 50 words) with the
    /// round constants `rc` (RC's 48 words).
    fn sphincs_keccak_f1600_armv7m(state: *mut u32, rc: *const u32);
}

/// Keccak-f\[1600\] in Rust. The 24 rounds stay a loop: unrolled,
/// SHAKE-128s verification took 2.1 % fewer instructions on the Cortex-M4
/// (32 762 120 against 33 451 360) for 20 KB more code (one-set image
/// `.text` 27 478 bytes against 7 382).
#[cfg_attr(
    all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    ),
    allow(dead_code)
)]
fn permute_portable(s: &mut Interleaved) {
    for &rc in RC.iter() {
        round(&mut s.0, rc);
    }
}

/// Keccak-f\[1600\] on plain lanes: interleaved, permuted, and back.
pub fn f1600(state: &mut [u64; 25]) {
    let mut s = Interleaved([0; 50]);
    for (i, &lane) in state.iter().enumerate() {
        let (e, o) = interleave(lane);
        put(&mut s.0, i, [e, o]);
    }
    permute(&mut s);
    for (i, lane) in state.iter_mut().enumerate() {
        let [e, o] = get(&s.0, i);
        *lane = deinterleave(e, o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::backend::test_data::XorShift;

    /// Bit k of the even (odd) word is bit 2k (2k + 1) of the lane, checked
    /// bit by bit, and the conversion is undone by its inverse.
    #[test]
    fn interleave_moves_each_bit() {
        let mut rng = XorShift(0x5eed_0000_1234_5678);
        for _ in 0..1000 {
            let lane = rng.next_u64();
            let (e, o) = interleave(lane);
            for k in 0..32 {
                assert_eq!((e >> k) & 1, ((lane >> (2 * k)) & 1) as u32);
                assert_eq!((o >> k) & 1, ((lane >> (2 * k + 1)) & 1) as u32);
            }
            assert_eq!(deinterleave(e, o), lane);
        }
    }

    /// The interleaved rotation against the 64-bit one, for every amount.
    #[test]
    fn rotation_matches_u64() {
        macro_rules! check {
            ($lane:expr, $($r:literal)*) => {$({
                let (e, o) = interleave($lane);
                let [e2, o2] = rol::<$r>([e, o]);
                assert_eq!(deinterleave(e2, o2), $lane.rotate_left($r), "r {}", $r);
            })*};
        }
        let mut rng = XorShift(0x0bad_cafe_dead_beef);
        for _ in 0..50 {
            let lane = rng.next_u64();
            check!(lane, 0 1 2 3 6 10 15 21 28 36 45 55 14 27 41 56 8 25 43 62 18 39 61 20 44 63 31 32 33);
        }
    }

    /// The round constants against the table of the SIMD kernels' shared
    /// round body (where it is compiled), else against a few FIPS 202 values.
    #[test]
    fn round_constants() {
        let plain: [u64; 24] = core::array::from_fn(|i| deinterleave(RC[i][0], RC[i][1]));
        assert_eq!(plain[0], 1);
        assert_eq!(plain[1], 0x8082);
        assert_eq!(plain[2], 0x8000_0000_0000_808a);
        assert_eq!(plain[23], 0x8000_0000_8000_8008);
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        assert_eq!(plain, crate::hash::backend::keccak_rounds::RC);
    }

    /// The pi cycle and the rho offsets written into `round` against their
    /// definitions in FIPS 202 (Algorithms 2 and 3).
    #[test]
    fn pi_cycle_and_rho_offsets() {
        let mut rho = [0u32; 25];
        let (mut x, mut y) = (1usize, 0usize);
        for t in 0..24u32 {
            rho[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
            (x, y) = (y, (2 * x + 3 * y) % 5);
        }
        let mut at = 1usize;
        for k in 0..24 {
            assert_eq!(PI_CYCLE[k], at);
            assert_eq!(RHO_ON_CYCLE[k], rho[at]);
            let (x, y) = (at % 5, at / 5);
            at = y + 5 * ((2 * x + 3 * y) % 5);
        }
        assert_eq!(at, 1, "pi is one 24-cycle besides lane 0");
    }

    /// The permutation against the portable one, on many pseudo-random
    /// states and on states fed back through both several times.
    #[test]
    fn f1600_matches_portable() {
        let mut rng = XorShift(0x0123_4567_89ab_cdef);
        for _ in 0..500 {
            let mut want = [0u64; 25];
            want.iter_mut().for_each(|w| *w = rng.next_u64());
            let mut got = want;
            for _ in 0..3 {
                crate::hash::backend::keccak::portable_f1600(&mut want);
                f1600(&mut got);
                assert_eq!(got, want);
            }
        }
        let mut zero = [0u64; 25];
        f1600(&mut zero);
        // Keccak-f[1600] of the zero state (XKCP's KeccakF-1600 test value).
        assert_eq!(zero[0], 0xf125_8f79_40e1_dde7);
    }
}
