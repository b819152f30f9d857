//! Keccak-f\[1600\] on eight independent states at once, one 512-bit vector per
//! state word. With AVX-512 every rotation is a single `vprolq`, chi and the
//! five-way xor of theta are `vpternlogq`, and the 25 state words plus the
//! theta temporaries fit in the 32 zmm registers, so the whole permutation
//! runs without touching memory. The round body is shared with the 4-lane
//! kernels (see `keccak_x4`); only the vector operations differ.

use core::arch::x86_64::{
    __m512i, _mm512_i64gather_epi64, _mm512_i64scatter_epi64, _mm512_loadu_si512, _mm512_rol_epi64,
    _mm512_set1_epi64, _mm512_setr_epi64, _mm512_setzero_si512, _mm512_storeu_si512,
    _mm512_ternarylogic_epi64, _mm512_xor_si512,
};

use super::keccak_rounds::keccak_rounds;

// Ternary-logic truth tables, indexed by (a << 2) | (b << 1) | c.
/// a ^ b ^ c
const XOR3: i32 = 0x96;
/// a ^ (!b & c)
const CHI: i32 = 0xd2;

macro_rules! xor_zmm {
    ($a:expr, $b:expr) => {
        _mm512_xor_si512($a, $b)
    };
}

macro_rules! xor5_zmm {
    ($a:expr, $b:expr, $c:expr, $d:expr, $e:expr) => {
        _mm512_ternarylogic_epi64::<XOR3>(_mm512_ternarylogic_epi64::<XOR3>($a, $b, $c), $d, $e)
    };
}

macro_rules! rol_zmm {
    ($a:expr, $n:literal) => {
        _mm512_rol_epi64::<$n>($a)
    };
}

macro_rules! xrol_zmm {
    ($a:expr, $b:expr, $n:tt) => {
        rol_zmm!(xor_zmm!($a, $b), $n)
    };
}

macro_rules! chi_zmm {
    ($a:expr, $b:expr, $c:expr) => {
        _mm512_ternarylogic_epi64::<CHI>($a, $b, $c)
    };
}

macro_rules! iota_zmm {
    ($a:expr, $rc:expr) => {
        _mm512_xor_si512($a, _mm512_set1_epi64($rc as i64))
    };
}

/// Keccak-f\[1600\] on 8 interleaved states: `s[i][lane]` is word i of state
/// `lane`.
///
/// # Safety
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub unsafe fn f1600_x8(s: &mut [[u64; 8]; 25]) {
    let mut a: [__m512i; 25] = [_mm512_set1_epi64(0); 25];
    for (v, w) in a.iter_mut().zip(s.iter()) {
        // SAFETY: `w` is a valid, readable `[u64; 8]`, exactly 64 bytes, and
        // the unaligned load has no alignment requirement.
        *v = unsafe { _mm512_loadu_si512(w.as_ptr().cast()) };
    }
    keccak_rounds!(a, xor_zmm, xor5_zmm, rol_zmm, xrol_zmm, chi_zmm, iota_zmm);
    for (v, w) in a.iter().zip(s.iter_mut()) {
        // SAFETY: `w` is a valid, writable `[u64; 8]`, exactly 64 bytes, and
        // the unaligned store has no alignment requirement.
        unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), *v) };
    }
}

/// SHAKE256 rate in bytes.
const RATE: usize = 136;

/// SHAKE256 of eight pre-padded single blocks, straight from the calls'
/// blocks to their outputs: lane `l`'s state starts as `blocks[l]` (capacity
/// zero), is permuted once, and its first `words` 64-bit words are written to
/// `outs[l]`, the rest of `outs[l]` zeroed. The blocks are gathered into the
/// lanes and the outputs scattered from them by the vector unit, with no
/// interleaved copy of the states in memory.
///
/// # Safety
/// The CPU must support AVX-512F. `words` ≤ 4.
#[target_feature(enable = "avx512f")]
pub unsafe fn shake256_blocks_x8(blocks: &[[u8; RATE]; 8], outs: &mut [[u8; 32]; 8], words: usize) {
    let stride = RATE as i64;
    let from = _mm512_setr_epi64(
        0,
        stride,
        2 * stride,
        3 * stride,
        4 * stride,
        5 * stride,
        6 * stride,
        7 * stride,
    );
    let mut a: [__m512i; 25] = [_mm512_setzero_si512(); 25];
    let base = blocks.as_ptr().cast::<u8>();
    for (w, v) in a.iter_mut().enumerate().take(RATE / 8) {
        // SAFETY: lane l reads bytes 136·l + 8w .. +8 of the 8 · 136 bytes
        // `blocks` spans (w < 17), all readable.
        *v = unsafe { _mm512_i64gather_epi64::<1>(from, base.add(8 * w).cast()) };
    }
    keccak_rounds!(a, xor_zmm, xor5_zmm, rol_zmm, xrol_zmm, chi_zmm, iota_zmm);
    let to = _mm512_setr_epi64(0, 32, 64, 96, 128, 160, 192, 224);
    let out = outs.as_mut_ptr().cast::<u8>();
    for (w, v) in a.iter().enumerate().take(4) {
        let v = if w < words {
            *v
        } else {
            _mm512_setzero_si512()
        };
        // SAFETY: lane l writes bytes 32·l + 8w .. +8 of the 8 · 32 bytes
        // `outs` spans (w < 4), all writable and borrowed exclusively.
        unsafe { _mm512_i64scatter_epi64::<1>(out.add(8 * w).cast(), to, v) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_data::{
        cpu_has, keccak_lanes_match_scalar, keccak_zero_state_known_answer,
    };
    use super::*;
    use std::hint::black_box;
    use std::time::Instant;

    fn have_avx512f() -> bool {
        cpu_has(&[is_x86_feature_detected!("avx512f")], "AVX-512F")
    }

    #[test]
    fn matches_scalar() {
        if !have_avx512f() {
            return;
        }
        keccak_lanes_match_scalar(f1600_x8);
    }

    #[test]
    fn zero_state_known_answer() {
        // First word of Keccak-f[1600] applied to the all-zero state (the
        // published KeccakF-1600 intermediate values).
        if !have_avx512f() {
            return;
        }
        keccak_zero_state_known_answer(f1600_x8);
    }

    #[test]
    #[ignore = "micro-benchmark; run with --ignored --nocapture"]
    fn bench_x8() {
        if !have_avx512f() {
            return;
        }
        const ITERS: u32 = 200_000;
        let mut s = [[0u64; 8]; 25];
        for _ in 0..ITERS / 10 {
            // SAFETY: AVX-512F was detected above.
            unsafe { f1600_x8(&mut s) };
        }
        let start = Instant::now();
        for _ in 0..ITERS {
            // SAFETY: AVX-512F was detected above.
            unsafe { f1600_x8(black_box(&mut s)) };
        }
        let ns = start.elapsed().as_nanos() as f64 / f64::from(ITERS) / 8.0;
        black_box(s);
        eprintln!("f1600_x8 (avx512f): {ns:.1} ns/permutation/lane");
    }
}
