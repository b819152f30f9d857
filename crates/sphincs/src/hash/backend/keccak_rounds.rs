//! The round body of Keccak-f\[1600\] on vectors of independent states,
//! shared by every SIMD kernel (x86 AVX2/AVX-512 in `keccak_x4`/`keccak_x8`
//! and the hybrid in `keccak_x5_hybrid`, AArch64 NEON in `keccak_neon`): the
//! step mappings and their offset tables exist in one place only; each
//! kernel supplies the vector operations.
// The one-state operations serve the hybrid kernels, which wasm32 has none of.
#![cfg_attr(target_arch = "wasm32", allow(unused_macros))]

/// The iota round constants of Keccak-f\[1600\], in round order.
pub(super) const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// One round of Keccak-f\[1600\] with round constant `$rc` on `$a`, an
/// array of 25 words where `$a[x + 5 * y]` holds word (x, y). A "word" is
/// whatever the operations act on: a vector holding that word of several
/// states, or a plain `u64` of one state (the `*_u64` operations below).
///
/// The operations are passed as macro names rather than functions because a
/// rotation amount has to reach the instruction as an immediate, and AVX2's
/// shift pair needs `64 - n` as a second one, which a const generic function
/// cannot compute on stable Rust:
/// - `$xor!(a, b)`: a ^ b
/// - `$xor5!(a, b, c, d, e)`: a ^ b ^ c ^ d ^ e
/// - `$rol!(a, n)`: a rotated left by the literal n (1..=63)
/// - `$xrol!(a, b, n)`: (a ^ b) rotated left by n (one `xar` with the Arm
///   SHA-3 extension; `$rol!($xor!(a, b), n)` elsewhere)
/// - `$chi!(a, b, c)`: a ^ (!b & c)
/// - `$iota!(a, rc)`: a ^ rc, with rc a `u64` broadcast to every lane
///
/// The round is fully unrolled with constant indices so that the state stays
/// in registers. It is a macro of its own so that a kernel can put rounds of
/// different state kinds side by side in one loop (the hybrid kernels,
/// scalar+NEON in `keccak_neon` and scalar+AVX2 in `keccak_x5_hybrid`).
macro_rules! keccak_round {
    ($a:ident, $rc:expr, $xor:ident, $xor5:ident, $rol:ident, $xrol:ident, $chi:ident, $iota:ident) => {{
        let rc: u64 = $rc;
        // theta
        let c0 = $xor5!($a[0], $a[5], $a[10], $a[15], $a[20]);
        let c1 = $xor5!($a[1], $a[6], $a[11], $a[16], $a[21]);
        let c2 = $xor5!($a[2], $a[7], $a[12], $a[17], $a[22]);
        let c3 = $xor5!($a[3], $a[8], $a[13], $a[18], $a[23]);
        let c4 = $xor5!($a[4], $a[9], $a[14], $a[19], $a[24]);
        let d0 = $xor!(c4, $rol!(c1, 1));
        let d1 = $xor!(c0, $rol!(c2, 1));
        let d2 = $xor!(c1, $rol!(c3, 1));
        let d3 = $xor!(c2, $rol!(c4, 1));
        let d4 = $xor!(c3, $rol!(c0, 1));

        // rho and pi: output row y gathers the words whose pi image lands in
        // it, each with its own rho offset; chi and iota then finish the row.
        // Every row is built into a fresh array because later rows still
        // read words of the old state that chi on earlier rows replaces.
        let b0 = $xor!($a[0], d0);
        let b1 = $xrol!($a[6], d1, 44);
        let b2 = $xrol!($a[12], d2, 43);
        let b3 = $xrol!($a[18], d3, 21);
        let b4 = $xrol!($a[24], d4, 14);
        let r0 = [
            $iota!($chi!(b0, b1, b2), rc),
            $chi!(b1, b2, b3),
            $chi!(b2, b3, b4),
            $chi!(b3, b4, b0),
            $chi!(b4, b0, b1),
        ];

        let b0 = $xrol!($a[3], d3, 28);
        let b1 = $xrol!($a[9], d4, 20);
        let b2 = $xrol!($a[10], d0, 3);
        let b3 = $xrol!($a[16], d1, 45);
        let b4 = $xrol!($a[22], d2, 61);
        let r1 = [
            $chi!(b0, b1, b2),
            $chi!(b1, b2, b3),
            $chi!(b2, b3, b4),
            $chi!(b3, b4, b0),
            $chi!(b4, b0, b1),
        ];

        let b0 = $xrol!($a[1], d1, 1);
        let b1 = $xrol!($a[7], d2, 6);
        let b2 = $xrol!($a[13], d3, 25);
        let b3 = $xrol!($a[19], d4, 8);
        let b4 = $xrol!($a[20], d0, 18);
        let r2 = [
            $chi!(b0, b1, b2),
            $chi!(b1, b2, b3),
            $chi!(b2, b3, b4),
            $chi!(b3, b4, b0),
            $chi!(b4, b0, b1),
        ];

        let b0 = $xrol!($a[4], d4, 27);
        let b1 = $xrol!($a[5], d0, 36);
        let b2 = $xrol!($a[11], d1, 10);
        let b3 = $xrol!($a[17], d2, 15);
        let b4 = $xrol!($a[23], d3, 56);
        let r3 = [
            $chi!(b0, b1, b2),
            $chi!(b1, b2, b3),
            $chi!(b2, b3, b4),
            $chi!(b3, b4, b0),
            $chi!(b4, b0, b1),
        ];

        let b0 = $xrol!($a[2], d2, 62);
        let b1 = $xrol!($a[8], d3, 55);
        let b2 = $xrol!($a[14], d4, 39);
        let b3 = $xrol!($a[15], d0, 41);
        let b4 = $xrol!($a[21], d1, 2);
        let r4 = [
            $chi!(b0, b1, b2),
            $chi!(b1, b2, b3),
            $chi!(b2, b3, b4),
            $chi!(b3, b4, b0),
            $chi!(b4, b0, b1),
        ];

        $a = [
            r0[0], r0[1], r0[2], r0[3], r0[4], r1[0], r1[1], r1[2], r1[3], r1[4], r2[0], r2[1],
            r2[2], r2[3], r2[4], r3[0], r3[1], r3[2], r3[3], r3[4], r4[0], r4[1], r4[2], r4[3],
            r4[4],
        ];
    }};
}
#[allow(unused_imports)]
pub(super) use keccak_round;

/// The 24 rounds of Keccak-f\[1600\] on `$a`: `keccak_round!` once per
/// entry of `RC`, with the same operations. Only the loop over the round
/// constants remains at run time.
macro_rules! keccak_rounds {
    ($a:ident, $xor:ident, $xor5:ident, $rol:ident, $xrol:ident, $chi:ident, $iota:ident) => {
        for &rc in $crate::hash::backend::keccak_rounds::RC.iter() {
            $crate::hash::backend::keccak_rounds::keccak_round!(
                $a, rc, $xor, $xor5, $rol, $xrol, $chi, $iota
            );
        }
    };
}
#[allow(unused_imports)]
pub(super) use keccak_rounds;

// The round operations on one state held as plain `u64` words, for the
// scalar half of the hybrid kernels (AArch64 in `keccak_neon`, x86-64 in
// `keccak_x5_hybrid`): the integer pipes run these while the vector pipes run
// the vector round. AArch64 has `ror` and `bic`, so each is one or two
// instructions (and `eor` can take a rotated operand); x86-64 has them as
// `rorx` (BMI2) and `andn` (BMI1) where the caller is compiled for those.

/// a ^ b on words of one state.
macro_rules! xor_u64 {
    ($a:expr, $b:expr) => {
        $a ^ $b
    };
}

/// The five-way xor of theta on words of one state.
macro_rules! xor5_u64 {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        $a ^ $b ^ $c ^ $d ^ $e
    };
}

/// A word of one state rotated left by n.
macro_rules! rol_u64 {
    ($a:expr, $n:tt) => {
        u64::rotate_left($a, $n)
    };
}

/// (a ^ b) rotated left by n, on words of one state.
macro_rules! xrol_u64 {
    ($a:expr, $b:expr, $n:tt) => {
        u64::rotate_left($a ^ $b, $n)
    };
}

/// chi on words of one state: a ^ (!b & c).
macro_rules! chi_u64 {
    ($a:expr, $b:expr, $c:expr) => {
        $a ^ (!$b & $c)
    };
}

/// iota on a word of one state: the round constant needs no broadcast.
macro_rules! iota_u64 {
    ($a:expr, $rc:expr) => {
        $a ^ $rc
    };
}
#[allow(unused_imports)]
pub(super) use {chi_u64, iota_u64, rol_u64, xor5_u64, xor_u64, xrol_u64};

/// The tests' generator, named here for the kernel files that take it from
/// this module.
#[cfg(test)]
pub(super) use super::test_data::XorShift;

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared round body on one `u64` state (the scalar operations)
    /// against the portable permutation: on every host, so the round body
    /// and the scalar operations are checked even where no SIMD kernel runs.
    #[test]
    fn scalar_round_body_matches_f1600() {
        let mut rng = XorShift(0x0123_4567_89ab_cdef);
        let mut want = [0u64; 25];
        want.iter_mut().for_each(|w| *w = rng.next_u64());
        let mut a = want;
        for _ in 0..3 {
            keccak_rounds!(a, xor_u64, xor5_u64, rol_u64, xrol_u64, chi_u64, iota_u64);
            crate::hash::backend::keccak::f1600(&mut want);
            assert_eq!(a, want);
        }
    }
}
