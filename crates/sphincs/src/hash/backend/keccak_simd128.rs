//! Keccak-f\[1600\] on WebAssembly SIMD128: two independent states per
//! 128-bit vector (`i64x2`), one vector per state word; the 4-lane driver in
//! `lanes` runs two pairs. The round body is the one of `keccak_rounds`;
//! SIMD128 has no vector rotate, so a rotation is two shifts and an or, and
//! chi is an and-not and an xor (`v128_andnot`).
//!
//! Compiled only for wasm32 with `target_feature = "simd128"` (the engine
//! validates the whole module before it runs, so there is nothing to detect
//! at run time). The intrinsics used are safe functions there.

use core::arch::wasm32::{
    i64x2_shl, u64x2, u64x2_extract_lane, u64x2_shr, u64x2_splat, v128, v128_andnot, v128_or,
    v128_xor,
};

use super::keccak_rounds::keccak_rounds;

macro_rules! xor_v {
    ($a:expr, $b:expr) => {
        v128_xor($a, $b)
    };
}

macro_rules! iota_v {
    ($a:expr, $rc:expr) => {
        v128_xor($a, u64x2_splat($rc))
    };
}

macro_rules! xor5_v {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        v128_xor(v128_xor(v128_xor($a, $b), v128_xor($c, $d)), $e)
    };
}

macro_rules! rol_v {
    ($a:expr, $n:tt) => {{
        let a = $a;
        v128_or(i64x2_shl(a, $n), u64x2_shr(a, 64 - $n))
    }};
}

macro_rules! xrol_v {
    ($a:expr, $b:expr, $n:tt) => {
        rol_v!(v128_xor($a, $b), $n)
    };
}

/// a ^ (!b & c)
macro_rules! chi_v {
    ($a:expr, $b:expr, $c:expr) => {
        v128_xor($a, v128_andnot($c, $b))
    };
}

/// Keccak-f\[1600\] on 2 interleaved states (`s[i][lane]` is word i of
/// state `lane`).
pub fn f1600_x2(s: &mut [[u64; 2]; 25]) {
    let mut a: [v128; 25] = [u64x2_splat(0); 25];
    for (v, w) in a.iter_mut().zip(s.iter()) {
        *v = u64x2(w[0], w[1]);
    }
    keccak_rounds!(a, xor_v, xor5_v, rol_v, xrol_v, chi_v, iota_v);
    for (v, w) in a.iter().zip(s.iter_mut()) {
        *w = [u64x2_extract_lane::<0>(*v), u64x2_extract_lane::<1>(*v)];
    }
}

/// Keccak-f\[1600\] on 4 interleaved states, as two pairs.
pub fn f1600_x4(s: &mut [[u64; 4]; 25]) {
    for half in [0usize, 2] {
        let mut pair = [[0u64; 2]; 25];
        for (p, w) in pair.iter_mut().zip(s.iter()) {
            *p = [w[half], w[half + 1]];
        }
        f1600_x2(&mut pair);
        for (p, w) in pair.iter().zip(s.iter_mut()) {
            w[half] = p[0];
            w[half + 1] = p[1];
        }
    }
}
