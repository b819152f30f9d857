//! Keccak-f\[1600\] on AArch64 NEON: two independent states per 128-bit
//! vector, one vector per state word. The 25 words of a pair of states and
//! the theta temporaries fit the 32 vector registers, so a permutation runs
//! without touching memory; the 4-lane driver in `lanes` runs two pairs.
//!
//! The hybrid kernels (`f1600_x3_hybrid_*`, after Becker and Kannwischer's
//! scalar+vector Keccak for Armv8) run three states: a NEON pair and a third
//! state in `u64` words, one round of each per loop iteration. The pair keeps
//! the vector pipes busy and the third state the integer pipes, which the
//! 2-way kernels leave idle, so an out-of-order core gets a third state for
//! less than half the cost of a second pair (whether it does on a given core
//! is what `scripts/arm-mca.py` models; `select` picks by that).
//!
//! Two kernels share the round body of `keccak_rounds`:
//! - plain NEON (every AArch64 CPU, e.g. Cortex-A72): a rotation is a shift
//!   and a shift-right-insert, chi an and-not and an xor;
//! - the Armv8.2 SHA-3 extension (Apple M1, Neoverse-V1, `qemu -cpu max`):
//!   `xar` xors and rotates in one instruction (rho), `eor3` xors three
//!   vectors (theta), `bcax` is chi in one instruction.

use core::arch::aarch64::{
    uint64x2_t, vbcaxq_u64, vbicq_u64, vdupq_n_u64, veor3q_u64, veorq_u64, vld1q_u64, vshlq_n_u64,
    vsriq_n_u64, vst1q_u64, vxarq_u64,
};

use super::keccak_rounds::{
    chi_u64, iota_u64, keccak_round, keccak_rounds, rol_u64, xor5_u64, xor_u64, xrol_u64, RC,
};

macro_rules! xor_q {
    ($a:expr, $b:expr) => {
        veorq_u64($a, $b)
    };
}

macro_rules! iota_q {
    ($a:expr, $rc:expr) => {
        veorq_u64($a, vdupq_n_u64($rc))
    };
}

macro_rules! xor5_neon {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        veorq_u64(veorq_u64(veorq_u64($a, $b), veorq_u64($c, $d)), $e)
    };
}

// Rotate left by n: shift left by n, then insert the top n bits shifted
// right by 64 - n into the low bits.
macro_rules! rol_neon {
    ($a:expr, $n:tt) => {{
        let a = $a;
        vsriq_n_u64::<{ 64 - $n }>(vshlq_n_u64::<$n>(a), a)
    }};
}

macro_rules! xrol_neon {
    ($a:expr, $b:expr, $n:tt) => {
        rol_neon!(veorq_u64($a, $b), $n)
    };
}

// a ^ (!b & c); `vbicq_u64(c, b)` is c & !b.
macro_rules! chi_neon {
    ($a:expr, $b:expr, $c:expr) => {
        veorq_u64($a, vbicq_u64($c, $b))
    };
}

macro_rules! xor5_sha3 {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        veor3q_u64(veor3q_u64($a, $b, $c), $d, $e)
    };
}

// `xar` rotates right, so a left rotation by n is a right one by 64 - n; with
// a zero second operand it is a plain rotation.
macro_rules! rol_sha3 {
    ($a:expr, $n:tt) => {
        vxarq_u64::<{ 64 - $n }>($a, vdupq_n_u64(0))
    };
}

macro_rules! xrol_sha3 {
    ($a:expr, $b:expr, $n:tt) => {
        vxarq_u64::<{ 64 - $n }>($a, $b)
    };
}

// `bcax(a, b, c)` is a ^ (b & !c).
macro_rules! chi_sha3 {
    ($a:expr, $b:expr, $c:expr) => {
        vbcaxq_u64($a, $c, $b)
    };
}

/// Runs `$rounds` on lanes 0–1 and then on lanes 2–3 of a 4-lane state.
macro_rules! with_q_pairs {
    ($s:ident, |$a:ident| $rounds:block) => {{
        for half in [0usize, 2] {
            let mut $a: [uint64x2_t; 25] = [vdupq_n_u64(0); 25];
            for (v, w) in $a.iter_mut().zip($s.iter()) {
                // SAFETY: `w[half..half + 2]` is two readable u64 inside
                // `s` (half ≤ 2); vld1q has no alignment requirement beyond u64's.
                *v = unsafe { vld1q_u64(w[half..half + 2].as_ptr()) };
            }
            $rounds
            for (v, w) in $a.iter().zip($s.iter_mut()) {
                // SAFETY: as above, two writable u64 borrowed exclusively.
                unsafe { vst1q_u64(w[half..half + 2].as_mut_ptr(), *v) };
            }
        }
    }};
}

/// Keccak-f\[1600\] on 4 interleaved states (`s[i][lane]` is word i of state
/// `lane`), two at a time on plain NEON. NEON is part of every AArch64 target
/// Rust supports, so this needs no run-time check (a call is `unsafe` only
/// because every `#[target_feature]` function's is).
///
/// # Safety
/// The CPU must support NEON, which every AArch64 CPU does.
#[target_feature(enable = "neon")]
pub fn f1600_x4_neon(s: &mut [[u64; 4]; 25]) {
    with_q_pairs!(s, |a| {
        keccak_rounds!(a, xor_q, xor5_neon, rol_neon, xrol_neon, chi_neon, iota_q);
    });
}

/// [`f1600_x4_neon`] on the SHA-3 extension (`eor3`, `xar`, `bcax`).
///
/// # Safety
/// The CPU must support the SHA-3 extension (`is_aarch64_feature_detected!("sha3")`).
#[target_feature(enable = "neon,sha3")]
pub unsafe fn f1600_x4_sha3(s: &mut [[u64; 4]; 25]) {
    with_q_pairs!(s, |a| {
        keccak_rounds!(a, xor_q, xor5_sha3, rol_sha3, xrol_sha3, chi_sha3, iota_q);
    });
}

/// Loads lanes 0–1 of a 3-lane state into a NEON pair `$a` and lane 2 into
/// the `u64` words `$b`, runs `$round` once per round constant `$rc` (one
/// round of each state per iteration, so both sit in one loop body for the
/// scheduler and the out-of-order core to interleave), and stores both back.
macro_rules! with_hybrid_state {
    ($s:ident, |$a:ident, $b:ident, $rc:ident| $round:block) => {{
        let mut $a: [uint64x2_t; 25] = [vdupq_n_u64(0); 25];
        let mut $b: [u64; 25] = [0; 25];
        for ((v, x), w) in $a.iter_mut().zip($b.iter_mut()).zip($s.iter()) {
            // SAFETY: `w[0..2]` is two readable u64 inside `s`; vld1q has no
            // alignment requirement beyond u64's.
            *v = unsafe { vld1q_u64(w[0..2].as_ptr()) };
            *x = w[2];
        }
        for &$rc in RC.iter() $round
        for ((v, x), w) in $a.iter().zip($b.iter()).zip($s.iter_mut()) {
            // SAFETY: as above, two writable u64 borrowed exclusively.
            unsafe { vst1q_u64(w[0..2].as_mut_ptr(), *v) };
            w[2] = *x;
        }
    }};
}

/// Keccak-f\[1600\] on 3 interleaved states (`s[i][lane]`): lanes 0–1 as a
/// plain NEON pair, lane 2 in general registers, round by round together.
///
/// # Safety
/// The CPU must support NEON, which every AArch64 CPU does.
#[target_feature(enable = "neon")]
pub fn f1600_x3_hybrid_neon(s: &mut [[u64; 3]; 25]) {
    with_hybrid_state!(s, |a, b, rc| {
        keccak_round!(a, rc, xor_q, xor5_neon, rol_neon, xrol_neon, chi_neon, iota_q);
        keccak_round!(b, rc, xor_u64, xor5_u64, rol_u64, xrol_u64, chi_u64, iota_u64);
    });
}

/// [`f1600_x3_hybrid_neon`] with the pair on the SHA-3 extension (`eor3`,
/// `xar`, `bcax`); the scalar state is the same.
///
/// # Safety
/// The CPU must support the SHA-3 extension (`is_aarch64_feature_detected!("sha3")`).
#[target_feature(enable = "neon,sha3")]
pub unsafe fn f1600_x3_hybrid_sha3(s: &mut [[u64; 3]; 25]) {
    with_hybrid_state!(s, |a, b, rc| {
        keccak_round!(a, rc, xor_q, xor5_sha3, rol_sha3, xrol_sha3, chi_sha3, iota_q);
        keccak_round!(b, rc, xor_u64, xor5_u64, rol_u64, xrol_u64, chi_u64, iota_u64);
    });
}

#[cfg(test)]
mod tests {
    use super::super::keccak_rounds::XorShift;
    use super::*;

    /// Applies `kernel` five times to L random states and checks every lane
    /// against the scalar permutation after each application.
    fn check<const L: usize>(kernel: impl Fn(&mut [[u64; L]; 25]), seed: u64) {
        let mut rng = XorShift(seed);
        let mut lanes = [[0u64; 25]; L];
        for lane in lanes.iter_mut() {
            lane.iter_mut().for_each(|w| *w = rng.next_u64());
        }
        let mut s = [[0u64; L]; 25];
        for (i, word) in s.iter_mut().enumerate() {
            for (l, lane) in lanes.iter().enumerate() {
                word[l] = lane[i];
            }
        }
        for iteration in 0..5 {
            kernel(&mut s);
            for (l, lane) in lanes.iter_mut().enumerate() {
                crate::hash::backend::keccak::f1600(lane);
                for (i, word) in s.iter().enumerate() {
                    assert_eq!(
                        word[l], lane[i],
                        "iteration {iteration}, lane {l}, word {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn neon_matches_scalar() {
        for seed in [1, 0x9e37_79b9_7f4a_7c15, 0xdead_beef] {
            // SAFETY: NEON is a baseline feature of every AArch64 Rust target.
            check(|s| unsafe { f1600_x4_neon(s) }, seed);
        }
    }

    #[test]
    fn sha3_matches_scalar() {
        if !std::arch::is_aarch64_feature_detected!("sha3") {
            eprintln!("skipping: CPU lacks the SHA-3 extension");
            return;
        }
        for seed in [1, 0x9e37_79b9_7f4a_7c15, 0xdead_beef] {
            // SAFETY: the SHA-3 extension was detected above.
            check(|s| unsafe { f1600_x4_sha3(s) }, seed);
        }
    }

    /// The hybrid kernels are called directly so that both run on every CPU
    /// model the tests meet, whichever kernel `select` makes the default.
    #[test]
    fn hybrid_neon_matches_scalar() {
        for seed in [1, 0x9e37_79b9_7f4a_7c15, 0xdead_beef] {
            // SAFETY: NEON is a baseline feature of every AArch64 Rust target.
            check(|s| unsafe { f1600_x3_hybrid_neon(s) }, seed);
        }
    }

    #[test]
    fn hybrid_sha3_matches_scalar() {
        if !std::arch::is_aarch64_feature_detected!("sha3") {
            eprintln!("skipping: CPU lacks the SHA-3 extension");
            return;
        }
        for seed in [1, 0x9e37_79b9_7f4a_7c15, 0xdead_beef] {
            // SAFETY: the SHA-3 extension was detected above.
            check(|s| unsafe { f1600_x3_hybrid_sha3(s) }, seed);
        }
    }
}
