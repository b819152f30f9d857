//! SHA-256's rounds for 32-bit cores without SIMD (a Cortex-M; not
//! wasm32, which has its own kernels). On an ARMv7-M core (M-profile with
//! Thumb-2: a Cortex-M3/M4/M7) [`rounds`] is the assembly of
//! `sha256_armv7m.s` (written by scripts/gen-sha256-armv7m, which says how
//! it works) in one of two shapes: the small one (a loop of sixteen rounds)
//! by default, the fast one (the last sixteen rounds out of the loop) with
//! the crate feature `fast-sha256`. Elsewhere it is [`rounds_portable`],
//! the same rounds in Rust, used with `fast-sha256` (without it, those
//! targets keep the sha2 crate's compact rounds: `sha2::compress256`).
//!
//! [`compress`] is the compression function on [`rounds`], and
//! [`f_chains_x1`] (with `fast-sha256`) runs a WOTS+ chain on them with each
//! step's block built from words.
//!
//! The Rust rounds keep the eight working variables in locals renamed from
//! round to round instead of moved; the tests check them, and the compression
//! function, against the sha2 crate on every host. The assembly is checked
//! on the emulated Cortex-M4 (.ci/embedded.sh: every SHA-2 set's signatures
//! verify and tampered copies fail, in both builds).

/// SHA-256 round constants, in memory once (the assembly reads them
/// through a pointer).
static K: [u32; 64] = super::sha2::K256;

/// One round: `$t` is the round's constant plus message word. The caller
/// renames the working variables instead of moving them: round i + 1 passes
/// (h, a, b, c, d, e, f, g) where round i passed (a, b, …, h). (Written
/// with the Sigmas' common rotation taken out, or Maj reusing the previous
/// round's a ^ b, the rounds measured slower on the Cortex-M4: LLVM kept
/// the instruction count and spilled more.)
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {{
        let s1 = $e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25);
        let ch = (($f ^ $g) & $e) ^ $g;
        let t1 = $h.wrapping_add(s1).wrapping_add(ch).wrapping_add($t);
        let s0 = $a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22);
        let maj = (($a ^ $b) & $c) ^ ($a & $b);
        $d = $d.wrapping_add(t1);
        $h = t1.wrapping_add(s0).wrapping_add(maj);
    }};
}

/// Eight rounds, the working variables renamed back to where they started:
/// `w(i)` gives the message word of the block's i-th round of these eight.
#[inline(always)]
fn rounds8(v: &mut [u32; 8], k: &[u32], mut w: impl FnMut(usize) -> u32) {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *v;
    round!(a, b, c, d, e, f, g, h, k[0].wrapping_add(w(0)));
    round!(h, a, b, c, d, e, f, g, k[1].wrapping_add(w(1)));
    round!(g, h, a, b, c, d, e, f, k[2].wrapping_add(w(2)));
    round!(f, g, h, a, b, c, d, e, k[3].wrapping_add(w(3)));
    round!(e, f, g, h, a, b, c, d, k[4].wrapping_add(w(4)));
    round!(d, e, f, g, h, a, b, c, k[5].wrapping_add(w(5)));
    round!(c, d, e, f, g, h, a, b, k[6].wrapping_add(w(6)));
    round!(b, c, d, e, f, g, h, a, k[7].wrapping_add(w(7)));
    *v = [a, b, c, d, e, f, g, h];
}

/// The message words of a block (big-endian).
#[inline(always)]
fn load_block(block: &[u8; 64]) -> [u32; 16] {
    core::array::from_fn(|i| {
        let word: &[u8; 4] = block[4 * i..][..4].try_into().expect("4 bytes");
        u32::from_be_bytes(*word)
    })
}

/// The next message word in the 16-word ring: word `t` (≥ 16) replaces word
/// `t − 16` at slot `i = t mod 16`.
#[inline(always)]
fn schedule(w: &mut [u32; 16], i: usize) -> u32 {
    let w15 = w[(i + 1) & 15];
    let w2 = w[(i + 14) & 15];
    let s0 = w15.rotate_right(7) ^ w15.rotate_right(18) ^ (w15 >> 3);
    let s1 = w2.rotate_right(17) ^ w2.rotate_right(19) ^ (w2 >> 10);
    let next = w[i & 15]
        .wrapping_add(s0)
        .wrapping_add(w[(i + 9) & 15])
        .wrapping_add(s1);
    w[i & 15] = next;
    next
}

/// The 64 rounds from the working variables `v` over the message words `w`
/// (no feed-forward), in Rust: the first sixteen in line, then sixteen in a
/// loop run three times, the message schedule computed in the 16-word ring
/// as it goes. (The 64 in line measured 6 % fewer cycles on the Cortex-M4
/// for 3.7 KB more code.)
#[cfg_attr(
    all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    ),
    allow(dead_code)
)]
#[inline(never)]
pub(crate) fn rounds_portable(mut v: [u32; 8], mut w: [u32; 16]) -> [u32; 8] {
    rounds8(&mut v, &K[0..8], |i| w[i]);
    rounds8(&mut v, &K[8..16], |i| w[8 + i]);
    for k in K[16..].chunks_exact(16) {
        rounds8(&mut v, &k[..8], |i| schedule(&mut w, i));
        rounds8(&mut v, &k[8..], |i| schedule(&mut w, 8 + i));
    }
    v
}

/// The 64 rounds of this target and build (see the module's text); the
/// chain kernel's (`fast-sha256`).
#[cfg_attr(not(feature = "fast-sha256"), allow(dead_code))]
#[inline(always)]
pub(crate) fn rounds(v: [u32; 8], w: [u32; 16]) -> [u32; 8] {
    #[cfg(all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    ))]
    {
        let mut w = w;
        let mut out = core::mem::MaybeUninit::<[u32; 8]>::uninit();
        // SAFETY: the function reads the 8 words of `v` and the 64 of K,
        // reads and writes the 16 of `w`, writes the 8 of `out` (all
        // borrowed for the call, aligned u32 arrays), touches no other
        // memory but 52 bytes of its own stack, and keeps the AAPCS's
        // callee-saved registers (it pushes r4-r11 and lr).
        unsafe {
            ROUNDS_ARMV7M(
                v.as_ptr(),
                w.as_mut_ptr(),
                out.as_mut_ptr().cast(),
                K.as_ptr(),
            );
            // SAFETY: the function wrote all 8 words of `out`.
            out.assume_init()
        }
    }
    #[cfg(not(all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    )))]
    rounds_portable(v, w)
}

// The ARMv7-M rounds, written by scripts/gen-sha256-armv7m; `raw`: the text
// is assembly as it stands, its braces (register lists) not format
// arguments. Each shape is in a section of its own: the linker keeps the
// one called.
#[cfg(all(
    target_arch = "arm",
    target_feature = "mclass",
    target_feature = "thumb2"
))]
core::arch::global_asm!(include_str!("sha256_armv7m.s"), options(raw));

#[cfg(all(
    target_arch = "arm",
    target_feature = "mclass",
    target_feature = "thumb2"
))]
#[allow(dead_code)] // A build calls one shape, and `rounds` only with `fast-sha256`.
extern "C" {
    /// The 64 rounds from `v` over `w` (the ring, overwritten) into `out`,
    /// with the round constants `k`: the small shape.
    fn sphincs_sha256_rounds_armv7m_small(v: *const u32, w: *mut u32, out: *mut u32, k: *const u32);
    /// The same, the fast shape.
    fn sphincs_sha256_rounds_armv7m_fast(v: *const u32, w: *mut u32, out: *mut u32, k: *const u32);
    /// `out` = `v` + the rounds (`v` and `out` may be one array): the
    /// compression function, small shape.
    fn sphincs_sha256_compress_armv7m_small(
        v: *const u32,
        w: *mut u32,
        out: *mut u32,
        k: *const u32,
    );
    /// The same, the fast shape.
    fn sphincs_sha256_compress_armv7m_fast(
        v: *const u32,
        w: *mut u32,
        out: *mut u32,
        k: *const u32,
    );
}

/// The ARMv7-M functions' type.
#[cfg(all(
    target_arch = "arm",
    target_feature = "mclass",
    target_feature = "thumb2"
))]
type Armv7m = unsafe extern "C" fn(*const u32, *mut u32, *mut u32, *const u32);

/// This build's shape of the ARMv7-M rounds and compression function.
#[cfg_attr(not(feature = "fast-sha256"), allow(dead_code))]
#[cfg(all(
    target_arch = "arm",
    target_feature = "mclass",
    target_feature = "thumb2"
))]
const ROUNDS_ARMV7M: Armv7m = if cfg!(feature = "fast-sha256") {
    sphincs_sha256_rounds_armv7m_fast
} else {
    sphincs_sha256_rounds_armv7m_small
};
#[cfg(all(
    target_arch = "arm",
    target_feature = "mclass",
    target_feature = "thumb2"
))]
const COMPRESS_ARMV7M: Armv7m = if cfg!(feature = "fast-sha256") {
    sphincs_sha256_compress_armv7m_fast
} else {
    sphincs_sha256_compress_armv7m_small
};

/// The compression function: `state` += the rounds over `block`.
pub(crate) fn compress(state: &mut [u32; 8], block: &[u8; 64]) {
    #[cfg(all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    ))]
    {
        let mut w = load_block(block);
        let st = state.as_mut_ptr();
        // SAFETY: as in `rounds`, with `st` both the input and the output
        // (the function reads all of its input before it writes).
        unsafe { COMPRESS_ARMV7M(st, w.as_mut_ptr(), st, K.as_ptr()) }
    }
    #[cfg(not(all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    )))]
    {
        let out = rounds(*state, load_block(block));
        for (s, x) in state.iter_mut().zip(out) {
            *s = s.wrapping_add(x);
        }
    }
}

/// Runs `steps` steps of one WOTS+ chain under the SHA-2 families' F, its
/// blocks built from words (`sha256_chain_steps!`, as the SIMD kernels
/// build theirs): no block is assembled in bytes, byte-swapped or cleared
/// between steps. Arguments as `sha256_avx512::f_chains_avx512_x16`, with
/// one lane.
#[cfg(any(test, feature = "fast-sha256"))]
pub(crate) fn f_chains_x1<const NW: usize>(
    seed: &[u32; 8],
    tmpl: &[u32; 16],
    head: &[[u32; 1]; 5],
    hash: &[u32; 1],
    vals: &mut [[u32; 1]; NW],
    steps: u32,
) {
    super::sha256_chain::sha256_chain_steps!(
        seed, tmpl, head, hash, vals, steps, NW;
        splat, load, store, and, or, add, srli, slli, rounds
    );
}

// The chain macro's operations on a "vector" of one 32-bit lane.
#[cfg(any(test, feature = "fast-sha256"))]
#[inline(always)]
fn splat(x: i32) -> u32 {
    x as u32
}
#[cfg(any(test, feature = "fast-sha256"))]
/// # Safety
/// `p` is readable for 4 bytes.
#[inline(always)]
unsafe fn load(p: *const u32) -> u32 {
    // SAFETY: the caller's promise; unaligned reads are allowed.
    unsafe { p.read_unaligned() }
}
#[cfg(any(test, feature = "fast-sha256"))]
/// # Safety
/// `p` is writable for 4 bytes.
#[inline(always)]
unsafe fn store(p: *mut u32, x: u32) {
    // SAFETY: the caller's promise; unaligned writes are allowed.
    unsafe { p.write_unaligned(x) }
}
#[cfg(any(test, feature = "fast-sha256"))]
#[inline(always)]
fn and(x: u32, y: u32) -> u32 {
    x & y
}
#[cfg(any(test, feature = "fast-sha256"))]
#[inline(always)]
fn or(x: u32, y: u32) -> u32 {
    x | y
}
#[cfg(any(test, feature = "fast-sha256"))]
#[inline(always)]
fn add(x: u32, y: u32) -> u32 {
    x.wrapping_add(y)
}
#[cfg(any(test, feature = "fast-sha256"))]
#[inline(always)]
fn srli<const S: u32>(x: u32) -> u32 {
    x >> S
}
#[cfg(any(test, feature = "fast-sha256"))]
#[inline(always)]
fn slli<const S: u32>(x: u32) -> u32 {
    x << S
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compression function and the Rust rounds against the sha2
    /// crate, on blocks and states from a simple generator (every bit
    /// pattern class: zeros, ones, mixed). On a host both run the Rust
    /// rounds; the assembly is checked on the emulated Cortex-M4.
    #[test]
    fn rust_rounds_match_the_sha2_crate() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut cases = vec![
            ([0u8; 64], super::super::sha2::IV256),
            ([0xff; 64], [u32::MAX; 8]),
        ];
        for _ in 0..200 {
            let block: [u8; 64] = core::array::from_fn(|_| next() as u8);
            let state: [u32; 8] = core::array::from_fn(|_| next() as u32);
            cases.push((block, state));
        }
        for (block, state) in cases {
            let mut want = state;
            sha2::block_api::compress256(&mut want, &[block]);
            let mut got = state;
            compress(&mut got, &block);
            assert_eq!(got, want);
            let out = rounds_portable(state, load_block(&block));
            let got: [u32; 8] = core::array::from_fn(|i| state[i].wrapping_add(out[i]));
            assert_eq!(got, want);
        }
    }
}
