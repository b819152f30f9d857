//! Test data and checks shared by the kernel tests: a deterministic
//! generator (xorshift64: a failure repeats, and no extra dependency) and
//! the SHA-512 multi-lane check and timing both x86 SHA-512 kernels use.
//! Compiled for tests only; the kernels themselves do not see it. The
//! SHA-2 parts serve x86-64 kernels alone, hence unused elsewhere.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use sha2::block_api::compress512;

/// Whether the CPU has all of `features` (the caller's
/// `is_x86_feature_detected!` answers); if not, says on standard error
/// that the test is skipped for want of `what`.
pub(crate) fn cpu_has(features: &[bool], what: &str) -> bool {
    let ok = features.iter().all(|&f| f);
    if !ok {
        eprintln!("skipped: CPU lacks {what}");
    }
    ok
}

/// xorshift64 over the state it holds.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next 64-bit value.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Fills `b`, one byte (the low one) from each step.
    pub(crate) fn fill(&mut self, b: &mut [u8]) {
        for x in b {
            *x = self.next_u64() as u8;
        }
    }

    /// `N` bytes, one (the low one) from each step.
    pub(crate) fn bytes<const N: usize>(&mut self) -> [u8; N] {
        core::array::from_fn(|_| self.next_u64() as u8)
    }

    /// `N` bytes, eight little-endian ones from each step.
    pub(crate) fn bytes_le64<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        for chunk in b.chunks_exact_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        b
    }

    /// A SHA-256 chaining state: the low halves of eight steps.
    pub(crate) fn state32(&mut self) -> [u32; 8] {
        core::array::from_fn(|_| self.next_u64() as u32)
    }

    /// A SHA-512 chaining state: eight steps.
    pub(crate) fn state64(&mut self) -> [u64; 8] {
        core::array::from_fn(|_| self.next_u64())
    }
}

/// A Keccak-f[1600] kernel permuting `L` interleaved states (word-major).
pub(crate) type KeccakLanes<const L: usize> = unsafe fn(&mut [[u64; L]; 25]);

/// For each of three seeds, runs `kernel` five times on `L` distinct
/// pseudo-random states and checks each lane against the `keccak` crate's
/// permutation after every application. The caller has checked the CPU
/// features `kernel` needs.
pub(crate) fn keccak_lanes_match_scalar<const L: usize>(kernel: KeccakLanes<L>) {
    for seed in [1, 0x9e37_79b9_7f4a_7c15, 0xdead_beef] {
        keccak_lanes_match_scalar_from(kernel, seed);
    }
}

fn keccak_lanes_match_scalar_from<const L: usize>(kernel: KeccakLanes<L>, seed: u64) {
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
        // SAFETY: the caller checked the CPU features.
        unsafe { kernel(&mut s) };
        for (l, lane) in lanes.iter_mut().enumerate() {
            ::keccak::Keccak::new().with_f1600(|f| f(lane));
            for (i, word) in s.iter().enumerate() {
                assert_eq!(
                    word[l], lane[i],
                    "iteration {iteration}, lane {l}, word {i}"
                );
            }
        }
    }
}

/// The first word of Keccak-f[1600] applied to the all-zero state (the
/// published KeccakF-1600 intermediate values), in every lane of `kernel`.
/// The caller has checked the CPU features `kernel` needs.
pub(crate) fn keccak_zero_state_known_answer<const L: usize>(kernel: KeccakLanes<L>) {
    let mut s = [[0u64; L]; 25];
    // SAFETY: the caller checked the CPU features.
    unsafe { kernel(&mut s) };
    assert_eq!(s[0], [0xf125_8f79_40e1_dde7; L]);
}

/// A SHA-512 kernel compressing one block in each of `L` lanes.
pub(crate) type Sha512Lanes<const L: usize> = unsafe fn(&mut [[u64; 8]; L], &[[u8; 128]; L]);

/// How a lane's chaining state and its blocks are drawn from the generator.
pub(crate) type Draw<S, B> = (fn(&mut XorShift) -> S, fn(&mut XorShift) -> B);

/// Chains `steps` blocks per lane (drawn by `draw` from `seed`) through the
/// `L`-lane `kernel` and through the one-lane `reference`, comparing the
/// states after every block. The caller has checked the CPU features
/// `kernel` needs.
pub(crate) fn lanes_match_reference<S, B, const L: usize>(
    kernel: unsafe fn(&mut [S; L], &[B; L]),
    reference: impl Fn(&mut S, &B),
    (state, block): Draw<S, B>,
    seed: u64,
    steps: usize,
) where
    S: Copy + PartialEq + core::fmt::Debug,
{
    let mut rng = XorShift(seed);
    let mut ours: [S; L] = core::array::from_fn(|_| state(&mut rng));
    let mut theirs = ours;
    for step in 0..steps {
        let blocks: [B; L] = core::array::from_fn(|_| block(&mut rng));
        // SAFETY: the caller checked the CPU features.
        unsafe { kernel(&mut ours, &blocks) };
        for (st, b) in theirs.iter_mut().zip(blocks.iter()) {
            reference(st, b);
        }
        assert_eq!(ours, theirs, "after block {step}");
    }
}

/// [`lanes_match_reference`] for a SHA-512 kernel: six blocks per lane
/// against the `sha2` crate. `None` (the CPU lacks the kernel's features)
/// skips the check, saying so.
pub(crate) fn sha512_matches_sha2<const L: usize>(kernel: Option<Sha512Lanes<L>>, seed: u64) {
    let Some(kernel) = kernel else {
        eprintln!("skipping the SHA-512 check: the CPU lacks the kernel's features");
        return;
    };
    let data = (XorShift::state64 as _, XorShift::bytes_le64::<128> as _);
    lanes_match_reference(kernel, |st, b| compress512(st, &[*b]), data, seed, 6);
}

/// Prints the best ns per block of the `sha2` crate's compress512, then
/// (if `kernel` is given: the caller has checked its CPU features) the best
/// ns per block per lane of `kernel`, named `name`.
pub(crate) fn sha512_timing<const L: usize>(name: &str, kernel: Option<Sha512Lanes<L>>) {
    use core::hint::black_box;
    use std::time::Instant;

    const ITERS: u32 = 20_000;
    let mut rng = XorShift(1);
    let blocks: [[u8; 128]; L] = core::array::from_fn(|_| rng.bytes_le64());

    let mut best = f64::MAX;
    let mut st = [[0u64; 8]; 1];
    for _ in 0..50 {
        let start = Instant::now();
        for _ in 0..ITERS {
            compress512(&mut st[0], black_box(&blocks[..1]));
        }
        best = best.min(start.elapsed().as_nanos() as f64 / f64::from(ITERS));
    }
    black_box(st);
    eprintln!("sha2::block_api::compress512: {best:.1} ns/block");

    let Some(kernel) = kernel else {
        eprintln!("skipping {name} timing: the CPU lacks its features");
        return;
    };
    let mut best = f64::MAX;
    let mut st = [[0u64; 8]; L];
    for _ in 0..50 {
        let start = Instant::now();
        for _ in 0..ITERS {
            // SAFETY: the caller checked the CPU features.
            unsafe { kernel(&mut st, black_box(&blocks)) };
        }
        best = best.min(start.elapsed().as_nanos() as f64 / (L as f64 * f64::from(ITERS)));
    }
    black_box(st);
    eprintln!("{name}: {best:.1} ns/block/lane");
}

/// The AVX2 SHA-512 kernel, if this CPU can run it.
#[cfg(target_arch = "x86_64")]
fn avx2() -> Option<Sha512Lanes<4>> {
    let kernel = super::sha512_avx2::compress512_avx2_x4;
    is_x86_feature_detected!("avx2").then_some(kernel as _)
}

/// The AVX-512 SHA-512 kernel, if this CPU can run it.
#[cfg(target_arch = "x86_64")]
fn avx512() -> Option<Sha512Lanes<8>> {
    let kernel = super::sha512_avx512::compress512_avx512_x8;
    let ok = is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw");
    ok.then_some(kernel as _)
}

#[cfg(target_arch = "x86_64")]
#[test]
fn sha512_avx2_matches_sha2_crate() {
    sha512_matches_sha2(avx2(), 0x9e37_79b9_7f4a_7c15);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn sha512_avx512_matches_sha2_crate() {
    sha512_matches_sha2(avx512(), 0x2545_f491_4f6c_dd1d);
}

#[cfg(target_arch = "x86_64")]
#[test]
#[ignore = "timing; run by hand with --release --ignored --nocapture"]
fn sha512_kernels_timing() {
    sha512_timing("compress512_avx2_x4", avx2());
    sha512_timing("compress512_avx512_x8", avx512());
}
