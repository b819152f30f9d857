//! The ChaCha12 permutation on AArch64 NEON: four states per 128-bit vector,
//! one vector per state word, run four times for the sixteen lanes of a
//! [`Soa`] batch (16 state vectors plus temporaries fit the 32 registers).
//! The rotation by 16 is a half-word reversal (`rev32`), the others a shift
//! and a shift-left-insert (`sli`).

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vandq_u32, vbslq_u32, vcleq_u32, vcltq_u32, vdupq_n_u32, veorq_u32,
    vld1q_u32, vreinterpretq_u16_u32, vreinterpretq_u32_u16, vrev32q_u16, vshrq_n_u32, vsliq_n_u32,
    vst1q_u32,
};

use super::chacha12::{chacha12_rounds, Half, Soa, LANES, SPHINCS_C};

/// Lanes per vector.
const W: usize = 4;

macro_rules! add_q {
    ($a:expr, $b:expr) => {
        vaddq_u32($a, $b)
    };
}
macro_rules! xor_q {
    ($a:expr, $b:expr) => {
        veorq_u32($a, $b)
    };
}
macro_rules! rol_q {
    ($a:expr, 16) => {
        vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32($a)))
    };
    ($a:expr, $n:literal) => {{
        let a = $a;
        vsliq_n_u32::<$n>(vshrq_n_u32::<{ 32 - $n }>(a), a)
    }};
}

/// Eight words of lanes `4q .. 4q + 4`.
#[inline]
#[target_feature(enable = "neon")]
fn load_quarter(h: &Half, q: usize) -> [uint32x4_t; 8] {
    // SAFETY: `h[w][4q..]` holds at least 4 readable u32 (q < 4).
    core::array::from_fn(|w| unsafe { vld1q_u32(h[w][W * q..].as_ptr()) })
}

/// Stores eight words into lanes `4q .. 4q + 4`.
#[inline]
#[target_feature(enable = "neon")]
fn store_quarter(h: &mut Half, q: usize, v: &[uint32x4_t]) {
    for (x, w) in v.iter().zip(h.iter_mut()) {
        // SAFETY: `w[4q..]` holds at least 4 writable u32 (q < 4).
        unsafe { vst1q_u32(w[W * q..].as_mut_ptr(), *x) };
    }
}

/// The ChaCha12 permutation of the sixteen word-sliced states of `s`, as four
/// batches of four. NEON is part of every AArch64 target Rust supports; a
/// call is still `unsafe` outside NEON-enabled functions (Rust requires it
/// for any `#[target_feature]` function), and always sound.
#[target_feature(enable = "neon")]
pub fn permute_x16(s: &mut Soa) {
    for q in 0..LANES / W {
        let mut x: [uint32x4_t; 16] = [vdupq_n_u32(0); 16];
        for (v, w) in x.iter_mut().zip(s.iter()) {
            // SAFETY: `w[4q..]` holds at least 4 readable u32.
            *v = unsafe { vld1q_u32(w[W * q..].as_ptr()) };
        }
        chacha12_rounds!(x, add_q, xor_q, rol_q);
        for (v, w) in x.iter().zip(s.iter_mut()) {
            // SAFETY: `w[4q..]` holds at least 4 writable u32.
            unsafe { vst1q_u32(w[W * q..].as_mut_ptr(), *v) };
        }
    }
}

/// F chains of sixteen lanes as four batches of four (see
/// `chacha12::chains_x16_portable`); inactive lanes keep their value (a
/// bit select). `masks` must have an entry for every step below the largest
/// `end` (indexing checks it).
#[target_feature(enable = "neon")]
pub fn chains_x16(cur: &mut Half, masks: &[[u32; 8]], start: &[u8; LANES], end: &[u8; LANES]) {
    for q in 0..LANES / W {
        let lanes = W * q..W * q + W;
        let lo = *start[lanes.clone()].iter().min().expect("4 lanes");
        let hi = *end[lanes.clone()].iter().max().expect("4 lanes");
        if lo >= hi {
            continue;
        }
        let mut c = load_quarter(cur, q);
        let widen = |b: &[u8]| -> [u32; W] { core::array::from_fn(|i| u32::from(b[i])) };
        let (st, en) = (widen(&start[lanes.clone()]), widen(&end[lanes]));
        // SAFETY: `st` and `en` are 4 readable u32 each.
        let (st, en) = unsafe { (vld1q_u32(st.as_ptr()), vld1q_u32(en.as_ptr())) };
        for step in lo..hi {
            let s = vdupq_n_u32(u32::from(step));
            // start <= step < end
            let active = vandq_u32(vcleq_u32(st, s), vcltq_u32(s, en));
            let m = &masks[step as usize];
            let mut x: [uint32x4_t; 16] = [vdupq_n_u32(0); 16];
            for w in 0..8 {
                x[w] = veorq_u32(c[w], vdupq_n_u32(m[w]));
                x[8 + w] = vdupq_n_u32(SPHINCS_C[w]);
            }
            chacha12_rounds!(x, add_q, xor_q, rol_q);
            for w in 0..8 {
                c[w] = vbslq_u32(active, x[w], c[w]);
            }
        }
        store_quarter(cur, q, &c);
    }
}

/// H of the first `used` lanes (rounded up to a multiple of four; see
/// `chacha12::h_x16_portable`); the other lanes are left as they are.
#[target_feature(enable = "neon")]
pub fn h_x16(io: &mut Half, right: &Half, masks: &[[u32; 8]; 2], used: usize) {
    for q in 0..used.min(LANES).div_ceil(W) {
        let (l, r) = (load_quarter(io, q), load_quarter(right, q));
        let mut x: [uint32x4_t; 16] = [vdupq_n_u32(0); 16];
        for w in 0..8 {
            x[w] = veorq_u32(l[w], vdupq_n_u32(masks[0][w]));
            x[8 + w] = vdupq_n_u32(SPHINCS_C[w]);
        }
        chacha12_rounds!(x, add_q, xor_q, rol_q);
        for w in 0..8 {
            x[w] = veorq_u32(x[w], veorq_u32(r[w], vdupq_n_u32(masks[1][w])));
        }
        chacha12_rounds!(x, add_q, xor_q, rol_q);
        store_quarter(io, q, &x[..8]);
    }
}
