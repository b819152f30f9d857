//! SHA-512 compression of four independent chaining states at once with AVX2.
//!
//! The SLH-DSA SHA-2 families at categories 3 and 5 hash with SHA-512 (H,
//! T_l, H_msg, PRF_msg), and the scheme hands over many independent calls at
//! a time. A single SHA-512 stream is one long dependency chain of 64-bit
//! additions; here each `__m256i` holds the same word of four streams
//! ("multi-buffer"), so one pass of the 80 rounds advances four lanes. AVX2
//! has no 64-bit rotate, so rotations are a shift pair and an or.

use core::arch::x86_64::*;

use super::sha2::K512;

/// Rotate each 64-bit element right by a literal amount.
macro_rules! rotr {
    ($x:expr, $n:literal) => {
        _mm256_or_si256(
            _mm256_srli_epi64::<$n>($x),
            _mm256_slli_epi64::<{ 64 - $n }>($x),
        )
    };
}

/// Σ0 (FIPS 180-4 (4.10)).
#[inline]
#[target_feature(enable = "avx2")]
fn big_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(rotr!(x, 28), rotr!(x, 34)), rotr!(x, 39))
}

/// Σ1 (FIPS 180-4 (4.11)).
#[inline]
#[target_feature(enable = "avx2")]
fn big_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(rotr!(x, 14), rotr!(x, 18)), rotr!(x, 41))
}

/// σ0 (FIPS 180-4 (4.12)).
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 1), rotr!(x, 8)),
        _mm256_srli_epi64::<7>(x),
    )
}

/// σ1 (FIPS 180-4 (4.13)).
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(
        _mm256_xor_si256(rotr!(x, 19), rotr!(x, 61)),
        _mm256_srli_epi64::<6>(x),
    )
}

/// Transposes a 4×4 matrix of 64-bit words: row `i` of the input (lane `i`)
/// becomes element `i` of every output vector. It is its own inverse.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose4(r: [__m256i; 4]) -> [__m256i; 4] {
    let t0 = _mm256_unpacklo_epi64(r[0], r[1]); // r0[0] r1[0] r0[2] r1[2]
    let t1 = _mm256_unpackhi_epi64(r[0], r[1]); // r0[1] r1[1] r0[3] r1[3]
    let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    [
        _mm256_permute2x128_si256::<0x20>(t0, t2),
        _mm256_permute2x128_si256::<0x20>(t1, t3),
        _mm256_permute2x128_si256::<0x31>(t0, t2),
        _mm256_permute2x128_si256::<0x31>(t1, t3),
    ]
}

/// Compresses `blocks[i]` into `states[i]` for each of the four lanes
/// (the SHA-512 compression function of FIPS 180-4 §6.4.2).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn compress512_avx2_x4(states: &mut [[u64; 8]; 4], blocks: &[[u8; 128]; 4]) {
    // Reverses the bytes of each 64-bit element (message words are big-endian).
    let bswap = _mm256_set_epi64x(
        0x08090a0b0c0d0e0f,
        0x0001020304050607,
        0x08090a0b0c0d0e0f,
        0x0001020304050607,
    );

    // Word-major state: s[j] holds word j of all four lanes.
    let mut s = [_mm256_setzero_si256(); 8];
    for half in 0..2 {
        let mut rows = [_mm256_setzero_si256(); 4];
        for (row, st) in rows.iter_mut().zip(states.iter()) {
            // SAFETY: `st[4 * half..]` has at least 4 u64 = 32 bytes (half < 2)
            // and `loadu` has no alignment requirement.
            *row = unsafe { _mm256_loadu_si256(st[4 * half..].as_ptr().cast()) };
        }
        s[4 * half..4 * half + 4].copy_from_slice(&transpose4(rows));
    }

    // Word-major message: w[j] holds W_j of all four lanes; later the ring
    // of the last 16 schedule words.
    let mut w = [_mm256_setzero_si256(); 16];
    for quarter in 0..4 {
        let mut rows = [_mm256_setzero_si256(); 4];
        for (row, block) in rows.iter_mut().zip(blocks.iter()) {
            // SAFETY: `block[32 * quarter..]` has at least 32 bytes
            // (quarter < 4) and `loadu` has no alignment requirement.
            *row = unsafe { _mm256_loadu_si256(block[32 * quarter..].as_ptr().cast()) };
        }
        for (k, col) in transpose4(rows).into_iter().enumerate() {
            w[4 * quarter + k] = _mm256_shuffle_epi8(col, bswap);
        }
    }

    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = s;
    // Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and this round's a ^ b is the
    // next round's b ^ c, so it is carried over in `x` / `y` alternately.
    let mut x = _mm256_xor_si256(b, c);
    let mut y;

    // One round t = 16 * group + $j. With `$sched` (rounds 16 to 79), W_t is
    // first computed in place in the ring: w[$j] still holds W_{t-16}, w[$j - 2],
    // w[$j - 7] and w[$j - 15] (mod 16) hold W_{t-2}, W_{t-7} and W_{t-15}.
    macro_rules! round {
        ($sched:literal, $group:expr, $j:expr, $a:ident, $b:ident, $c:ident, $d:ident,
         $e:ident, $f:ident, $g:ident, $h:ident, $bc:ident, $ab:ident) => {
            if $sched {
                w[$j] = _mm256_add_epi64(
                    _mm256_add_epi64(w[$j], small_sigma1(w[($j + 14) % 16])),
                    _mm256_add_epi64(w[($j + 9) % 16], small_sigma0(w[($j + 1) % 16])),
                );
            }
            let kw = _mm256_add_epi64(_mm256_set1_epi64x(K512[16 * $group + $j] as i64), w[$j]);
            let ch = _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256($f, $g), $e), $g);
            let t1 = _mm256_add_epi64(
                _mm256_add_epi64($h, big_sigma1($e)),
                _mm256_add_epi64(ch, kw),
            );
            $ab = _mm256_xor_si256($a, $b);
            let maj = _mm256_xor_si256(_mm256_and_si256($ab, $bc), $b);
            let t2 = _mm256_add_epi64(big_sigma0($a), maj);
            $d = _mm256_add_epi64($d, t1);
            $h = _mm256_add_epi64(t1, t2);
        };
    }

    // Eight rounds bring the working variables back to their own names.
    macro_rules! rounds8 {
        ($sched:literal, $group:expr, $base:expr) => {
            round!($sched, $group, $base, a, b, c, d, e, f, g, h, x, y);
            round!($sched, $group, $base + 1, h, a, b, c, d, e, f, g, y, x);
            round!($sched, $group, $base + 2, g, h, a, b, c, d, e, f, x, y);
            round!($sched, $group, $base + 3, f, g, h, a, b, c, d, e, y, x);
            round!($sched, $group, $base + 4, e, f, g, h, a, b, c, d, x, y);
            round!($sched, $group, $base + 5, d, e, f, g, h, a, b, c, y, x);
            round!($sched, $group, $base + 6, c, d, e, f, g, h, a, b, x, y);
            round!($sched, $group, $base + 7, b, c, d, e, f, g, h, a, y, x);
        };
    }

    // The first 16 rounds use the message words as loaded; the schedule is
    // extended only from round 16 on (a separate copy, so no branch per round).
    rounds8!(false, 0, 0);
    rounds8!(false, 0, 8);
    for group in 1..5 {
        rounds8!(true, group, 0);
        rounds8!(true, group, 8);
    }

    let new = [a, b, c, d, e, f, g, h];
    for half in 0..2 {
        let mut sum = [_mm256_setzero_si256(); 4];
        for (k, v) in sum.iter_mut().enumerate() {
            *v = _mm256_add_epi64(s[4 * half + k], new[4 * half + k]);
        }
        for (row, st) in transpose4(sum).into_iter().zip(states.iter_mut()) {
            // SAFETY: `st[4 * half..]` has at least 4 u64 = 32 bytes (half < 2)
            // and `storeu` has no alignment requirement.
            unsafe { _mm256_storeu_si256(st[4 * half..].as_mut_ptr().cast(), row) };
        }
    }
}

// Tested against the `sha2` crate in `test_data` (the SHA-512 kernels
// share their checks there).
