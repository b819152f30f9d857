//! Many independent short hashes at once. The tweakable hashes of one batch
//! all have inputs of the same length, so their padded blocks line up and a
//! kernel can push one block of every call through its lanes together.
//!
//! Each call's input is a list of parts (`PK.seed`, ADRS, the n-byte values),
//! read block by block straight from the caller's buffers.

use super::keccak::{self, RATE};
use super::select::{KeccakKernel, Sha256Kernel, Sha512Kernel};
use super::sha2::{resume, State256, State512};
use crate::address::{Adrs, AdrsType};
use crate::hash::common::{wipe, Node};
use crate::limits::MAX_N;

/// One hash call: its input as the concatenation of parts.
pub type Parts<'a> = &'a [&'a [u8]];

pub(crate) fn total_len(parts: Parts<'_>) -> usize {
    parts.iter().map(|p| p.len()).sum()
}

/// Copies bytes `start .. start + blk.len()` of the concatenated parts into
/// `blk`, zero-filling past the end.
pub(crate) fn copy_block(parts: Parts<'_>, start: usize, blk: &mut [u8]) {
    let end = start + blk.len();
    let mut at = 0;
    let mut filled = 0;
    for p in parts {
        let (lo, hi) = (at, at + p.len());
        at = hi;
        if hi <= start {
            continue;
        }
        if lo >= end {
            break;
        }
        let from = start.max(lo);
        let to = end.min(hi);
        blk[from - start..to - start].copy_from_slice(&p[from - lo..to - lo]);
        filled = to - start;
    }
    blk[filled..].fill(0);
}

/// The first `n` (≤ 32) output bytes of lane `lane`, the rest of `out` zero.
fn squeeze<const L: usize>(s: &[[u64; L]; 25], lane: usize, out: &mut Node, n: usize) {
    let mut buf = [0u8; 32];
    for (chunk, word) in buf.chunks_exact_mut(8).zip(s.iter()) {
        chunk.copy_from_slice(&word[lane].to_le_bytes());
    }
    *out = crate::hash::common::node_prefix(&buf, n);
}

/// SHAKE256 of up to L calls on an L-lane permutation; lanes past
/// `inputs.len()` permute an all-zero state whose output is dropped.
fn shake_lanes<const L: usize>(
    permute: impl Fn(&mut [[u64; L]; 25]),
    inputs: &[Parts<'_>],
    out_len: usize,
    outs: &mut [Node],
) {
    debug_assert!(inputs.len() <= L && out_len <= RATE);
    let len = total_len(inputs[0]);
    let blocks = len / RATE + 1;
    let mut s = [[0u64; L]; 25];
    let mut blk = [0u8; RATE];
    for b in 0..blocks {
        for (lane, parts) in inputs.iter().enumerate() {
            debug_assert_eq!(total_len(parts), len, "a batch has equal input lengths");
            copy_block(parts, b * RATE, &mut blk);
            if b + 1 == blocks {
                blk[len - b * RATE] ^= 0x1f;
                blk[RATE - 1] ^= 0x80;
            }
            for (word, bytes) in s.iter_mut().zip(blk.chunks_exact(8)) {
                word[lane] ^= u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
            }
        }
        permute(&mut s);
    }
    for (lane, out) in outs.iter_mut().enumerate().take(inputs.len()) {
        squeeze(&s, lane, out, out_len);
    }
    wipe(s.as_flattened_mut());
    wipe(&mut blk);
}

/// A SHA-2 chaining word.
trait BeWord: Copy + Default {
    /// The first `n` big-endian digest bytes of `words` (n a multiple of
    /// 8), the rest zero: whole words stored, no byte buffer in between.
    fn node_be(words: &[Self; 8], n: usize) -> Node;
}

impl BeWord for u32 {
    #[inline(always)]
    fn node_be(words: &[Self; 8], n: usize) -> Node {
        let mut out = [0u8; MAX_N];
        for (chunk, w) in out.chunks_exact_mut(4).zip(words).take(n / 4) {
            chunk.copy_from_slice(&w.to_be_bytes());
        }
        out
    }
}

impl BeWord for u64 {
    #[inline(always)]
    fn node_be(words: &[Self; 8], n: usize) -> Node {
        let mut out = [0u8; MAX_N];
        for (chunk, w) in out.chunks_exact_mut(8).zip(words).take(n / 8) {
            chunk.copy_from_slice(&w.to_be_bytes());
        }
        out
    }
}

/// The first `n` digest bytes of a final chaining state, the rest of `out` zero.
fn write_digest<W: BeWord>(st: &[W; 8], out: &mut Node, n: usize) {
    // The n of every set as a constant, so that each arm's word loop is
    // unrolled (a loop of run-time length cost more than the stores).
    *out = match n {
        16 => W::node_be(st, 16),
        24 => W::node_be(st, 24),
        32 => W::node_be(st, 32),
        _ => W::node_be(st, n),
    };
}

/// SHA-256 (B = 64) or SHA-512 (B = 128) of `seed block ‖ input` for up to L
/// calls on an L-lane compression function.
fn sha_lanes<W: BeWord, const B: usize, const L: usize>(
    compress: impl Fn(&mut [[W; 8]; L], &[[u8; B]; L]),
    seed: &[W; 8],
    absorbed: usize,
    inputs: &[Parts<'_>],
    out_len: usize,
    outs: &mut [Node],
) {
    debug_assert!(inputs.len() <= L);
    let len = total_len(inputs[0]);
    let len_field = B / 8;
    let blocks = (len + 1 + len_field).div_ceil(B);
    let bits = ((absorbed + len) as u128 * 8).to_be_bytes();
    let mut states = [*seed; L];
    let mut blks = [[0u8; B]; L];
    for b in 0..blocks {
        for (parts, blk) in inputs.iter().zip(blks.iter_mut()) {
            debug_assert_eq!(total_len(parts), len, "a batch has equal input lengths");
            copy_block(parts, b * B, blk);
            if (b * B..(b + 1) * B).contains(&len) {
                blk[len - b * B] = 0x80;
            }
            if b + 1 == blocks {
                blk[B - len_field..].copy_from_slice(&bits[16 - len_field..]);
            }
        }
        compress(&mut states, &blks);
    }
    for (st, out) in states.iter().zip(outs.iter_mut()).take(inputs.len()) {
        write_digest(st, out, out_len);
    }
    wipe(states.as_flattened_mut());
    wipe(blks.as_flattened_mut());
}

/// The portable multi-lane permutation: one state at a time, the reference
/// the SIMD kernels are tested against through the same driver.
fn f1600_each<const L: usize>(s: &mut [[u64; L]; 25]) {
    for lane in 0..L {
        let mut st = [0u64; 25];
        for (w, word) in st.iter_mut().zip(s.iter()) {
            *w = word[lane];
        }
        keccak::f1600(&mut st);
        for (w, word) in st.iter().zip(s.iter_mut()) {
            word[lane] = *w;
        }
    }
}

/// Splits `count` calls into groups of `width`, the last one possibly smaller.
fn groups(count: usize, width: usize) -> impl Iterator<Item = core::ops::Range<usize>> {
    (0..count.div_ceil(width)).map(move |g| g * width..count.min((g + 1) * width))
}

/// `outs[i][..out_len] = SHAKE256(inputs[i])`; every input of the same length.
pub(crate) fn shake256_many(
    k: KeccakKernel,
    inputs: &[Parts<'_>],
    out_len: usize,
    outs: &mut [Node],
) {
    debug_assert_eq!(inputs.len(), outs.len());
    let width = match k {
        KeccakKernel::Scalar => 1,
        KeccakKernel::X4Avx2 => 4,
        KeccakKernel::X8Avx512 => 8,
        KeccakKernel::X2Neon | KeccakKernel::X2Sha3 | KeccakKernel::X2Simd128 => 4,
        KeccakKernel::X3HybridNeon | KeccakKernel::X3HybridSha3 => 3,
        KeccakKernel::X5HybridAvx2 => 5,
    };
    for r in groups(inputs.len(), width) {
        let (ins, os) = (&inputs[r.clone()], &mut outs[r]);
        match (k, ins.len()) {
            (_, 1) => keccak::shake256(ins[0], &mut os[0][..out_len]),
            (KeccakKernel::X8Avx512, 5..) => shake_lanes::<8>(f1600_x8(k), ins, out_len, os),
            (KeccakKernel::X3HybridNeon | KeccakKernel::X3HybridSha3, _) => {
                shake_lanes::<3>(f1600_x3(k), ins, out_len, os)
            }
            (KeccakKernel::X5HybridAvx2, 5) => shake_lanes::<5>(f1600_x5(k), ins, out_len, os),
            _ => shake_lanes::<4>(f1600_x4(k), ins, out_len, os),
        }
    }
}

/// The kernel [`Sha256Kernel::X16Avx512ShaNi`] hands its groups of 2–8
/// calls to. Sound: that kernel is chosen only where SHA-NI was detected,
/// which is what `X4ShaNi`'s calls need.
const SMALL_ON_SHANI: Sha256Kernel = Sha256Kernel::X4ShaNi;

/// The kernel and lane width (1, 2, 4, 8 or 16) that run `count` SHA-256
/// calls on `k`: the one policy of the three SHA-256 drivers below (single
/// calls on the portable code; SHA-NI and Armv8 in fours, pairs for two;
/// on Intel's AVX-512, groups of 2–8 on SHA-NI, whose four lanes cost less
/// than sixteen half-empty ones). A width of 8 or 16 comes only with a
/// kernel whose 8- or 16-lane code this CPU was checked for: width 8 with
/// `X8Avx2` or `X16Avx512` (AVX2), width 16 with the AVX-512 kernels.
fn sha256_plan(k: Sha256Kernel, count: usize) -> (Sha256Kernel, usize) {
    match (k, count) {
        (_, 1) | (Sha256Kernel::Scalar, _) => (Sha256Kernel::Scalar, 1),
        (Sha256Kernel::X16Avx512ShaNi, 2..=8) => sha256_plan(SMALL_ON_SHANI, count),
        (Sha256Kernel::X4ShaNi | Sha256Kernel::X4Armv8 | Sha256Kernel::X4Simd128, 2) => (k, 2),
        (Sha256Kernel::X4ShaNi | Sha256Kernel::X4Armv8 | Sha256Kernel::X4Simd128, _) => (k, 4),
        (Sha256Kernel::X16Avx512 | Sha256Kernel::X16Avx512ShaNi, 9..) => (k, 16),
        _ => (k, 8),
    }
}

/// `outs[i][..out_len] = SHA-256(seed block ‖ inputs[i])`, resumed from `seed`.
pub(crate) fn sha256_many(
    k: Sha256Kernel,
    seed: &State256,
    inputs: &[Parts<'_>],
    out_len: usize,
    outs: &mut [Node],
) {
    sha256_many_from(k, seed, 64, inputs, out_len, outs);
}

/// [`sha256_many`] resumed from a state that has absorbed `absorbed` bytes
/// (0 with [`IV256`](super::sha2::IV256): a plain SHA-256, as MGF1 needs).
pub(crate) fn sha256_many_from(
    k: Sha256Kernel,
    seed: &State256,
    absorbed: usize,
    inputs: &[Parts<'_>],
    out_len: usize,
    outs: &mut [Node],
) {
    debug_assert_eq!(inputs.len(), outs.len());
    // Groups as wide as the kernel; what is left after them goes to the
    // kernel the plan gives for that many.
    let widest = sha256_plan(k, usize::MAX).1;
    let mut done = 0;
    while done < inputs.len() {
        let plan = sha256_plan(k, (inputs.len() - done).min(widest));
        let r = done..inputs.len().min(done + plan.1);
        done = r.end;
        let (ins, os) = (&inputs[r.clone()], &mut outs[r]);
        match plan {
            (_, 1) => resume(seed, absorbed, ins[0], &mut os[0][..out_len]),
            (k, 2) => sha_lanes::<u32, 64, 2>(sha256_x2(k), seed, absorbed, ins, out_len, os),
            (k, 4) => sha_lanes::<u32, 64, 4>(sha256_x4(k), seed, absorbed, ins, out_len, os),
            (k, 16) => sha_lanes::<u32, 64, 16>(sha256_x16(k), seed, absorbed, ins, out_len, os),
            (k, _) => sha_lanes::<u32, 64, 8>(sha256_x8(k), seed, absorbed, ins, out_len, os),
        }
    }
}

/// `outs[i][..out_len] = SHA-512(seed block ‖ inputs[i])`, resumed from `seed`.
pub(crate) fn sha512_many(
    k: Sha512Kernel,
    seed: &State512,
    inputs: &[Parts<'_>],
    out_len: usize,
    outs: &mut [Node],
) {
    sha512_many_from(k, seed, 128, inputs, out_len, outs);
}

/// [`sha512_many`] resumed from a state that has absorbed `absorbed` bytes.
pub(crate) fn sha512_many_from(
    k: Sha512Kernel,
    seed: &State512,
    absorbed: usize,
    inputs: &[Parts<'_>],
    out_len: usize,
    outs: &mut [Node],
) {
    debug_assert_eq!(inputs.len(), outs.len());
    let width = match k {
        Sha512Kernel::Scalar => 1,
        Sha512Kernel::X4Avx2 | Sha512Kernel::X4Armv8 | Sha512Kernel::X2Simd128 => 4,
        Sha512Kernel::X8Avx512 => 8,
    };
    for r in groups(inputs.len(), width) {
        let (ins, os) = (&inputs[r.clone()], &mut outs[r]);
        match (k, ins.len()) {
            (_, 1) => resume(seed, absorbed, ins[0], &mut os[0][..out_len]),
            (Sha512Kernel::X4Armv8 | Sha512Kernel::X2Simd128, 2) => {
                sha_lanes::<u64, 128, 2>(sha512_x2(k), seed, absorbed, ins, out_len, os)
            }
            // Three lanes of the 8-way kernel already beat four of the 4-way one.
            (Sha512Kernel::X8Avx512, 3..) => {
                sha_lanes::<u64, 128, 8>(sha512_x8(k), seed, absorbed, ins, out_len, os)
            }
            _ => sha_lanes::<u64, 128, 4>(sha512_x4(k), seed, absorbed, ins, out_len, os),
        }
    }
}

/// How many of `len` calls go to a kernel of `width` lanes: all, unless the
/// last group would hold fewer than `min_tail` calls, which then go to a
/// narrower kernel.
fn wide_part(len: usize, width: usize, min_tail: usize) -> usize {
    let tail = len % width;
    if tail == 0 || tail >= min_tail {
        len
    } else {
        len - tail
    }
}

/// Runs `kernel` over `blocks` in groups of exactly L, the last group padded
/// with copies of its first block (the results of the padding are dropped),
/// and hands call `first + i`'s final state to `sink`.
fn final_blocks<W: BeWord, const B: usize, const L: usize, S: FnMut(usize, &[W; 8])>(
    kernel: impl Fn(&mut [[W; 8]; L], &[[u8; B]; L]),
    seed: &[W; 8],
    blocks: &[[u8; B]],
    first: usize,
    sink: &mut S,
) {
    let mut states = [*seed; L];
    for (g, group) in blocks.chunks(L).enumerate() {
        states = [*seed; L];
        match <&[[u8; B]; L]>::try_from(group) {
            Ok(full) => kernel(&mut states, full),
            Err(_) => {
                // Only a last, partial group is copied (filled out with
                // its first block), not every batch.
                let mut padded = [group[0]; L];
                padded[1..group.len()].copy_from_slice(&group[1..]);
                kernel(&mut states, &padded);
                // Copied inputs (secret chain values while signing).
                wipe(padded.as_flattened_mut());
            }
        }
        for (j, st) in states.iter().take(group.len()).enumerate() {
            sink(first + g * L + j, st);
        }
    }
    // Outputs (secret chain values while signing).
    wipe(states.as_flattened_mut());
}

/// SHA-256 resumed from `seed` over one more block per call: `blocks[i]` is
/// call i's last block with its padding and length already in place (F, PRF,
/// and H of category 1 fit one block), so the kernels read them as they are.
pub(crate) fn sha256_final_blocks(
    k: Sha256Kernel,
    seed: &State256,
    blocks: &[[u8; 64]],
    out_len: usize,
    outs: &mut [Node],
) {
    sha256_final_states(k, seed, blocks, 0, &mut |i, st| {
        write_digest(st, &mut outs[i], out_len)
    });
}

/// [`sha256_final_blocks`] handing each call's final state (`first + i`) to
/// `sink`, for outputs other than an n-byte node.
pub(crate) fn sha256_final_states<S: FnMut(usize, &State256)>(
    k: Sha256Kernel,
    seed: &State256,
    blocks: &[[u8; 64]],
    first: usize,
    sink: &mut S,
) {
    match sha256_plan(k, blocks.len()) {
        (_, 1) => final_blocks::<u32, 64, 1, S>(compress256_each::<1>, seed, blocks, first, sink),
        (k, 2) => final_blocks::<u32, 64, 2, S>(sha256_x2(k), seed, blocks, first, sink),
        (k, 4) => final_blocks::<u32, 64, 4, S>(sha256_x4(k), seed, blocks, first, sink),
        (k, 16) => {
            let full = wide_part(blocks.len(), 16, 9);
            let (a, b) = blocks.split_at(full);
            final_blocks::<u32, 64, 16, S>(sha256_x16(k), seed, a, first, sink);
            if !b.is_empty() {
                sha256_final_states(k, seed, b, first + full, sink);
            }
        }
        (k, _) => final_blocks::<u32, 64, 8, S>(sha256_x8(k), seed, blocks, first, sink),
    }
}

/// SHA-512 over one more block per call (H of categories 3 and 5).
pub(crate) fn sha512_final_blocks(
    k: Sha512Kernel,
    seed: &State512,
    blocks: &[[u8; 128]],
    out_len: usize,
    outs: &mut [Node],
) {
    sha512_final_states(k, seed, blocks, 0, &mut |i, st| {
        write_digest(st, &mut outs[i], out_len)
    });
}

/// [`sha512_final_blocks`] handing each call's final state to `sink`.
pub(crate) fn sha512_final_states<S: FnMut(usize, &State512)>(
    k: Sha512Kernel,
    seed: &State512,
    blocks: &[[u8; 128]],
    first: usize,
    sink: &mut S,
) {
    match (k, blocks.len()) {
        (_, 1) | (Sha512Kernel::Scalar, _) => {
            final_blocks::<u64, 128, 1, S>(compress512_each::<1>, seed, blocks, first, sink)
        }
        (Sha512Kernel::X4Armv8 | Sha512Kernel::X2Simd128, 2) => {
            final_blocks::<u64, 128, 2, S>(sha512_x2(k), seed, blocks, first, sink)
        }
        (Sha512Kernel::X8Avx512, 3..) => {
            let full = wide_part(blocks.len(), 8, 3);
            let (a, b) = blocks.split_at(full);
            final_blocks::<u64, 128, 8, S>(sha512_x8(k), seed, a, first, sink);
            if !b.is_empty() {
                sha512_final_states(k, seed, b, first + full, sink);
            }
        }
        _ => final_blocks::<u64, 128, 4, S>(sha512_x4(k), seed, blocks, first, sink),
    }
}

/// SHAKE256 of one block per call, `blocks[i]` already padded (F, PRF, and
/// H up to n = 24): each lane's state starts as its block.
pub(crate) fn shake256_single_blocks(
    k: KeccakKernel,
    blocks: &[[u8; RATE]],
    out_len: usize,
    outs: &mut [Node],
) {
    fn run<const L: usize>(
        permute: impl Fn(&mut [[u64; L]; 25]),
        blocks: &[[u8; RATE]],
        out_len: usize,
        outs: &mut [Node],
    ) {
        let mut s = [[0u64; L]; 25];
        for (group, os) in blocks.chunks(L).zip(outs.chunks_mut(L)) {
            s = [[0u64; L]; 25];
            for (lane, blk) in group.iter().enumerate() {
                for (word, bytes) in s.iter_mut().zip(blk.chunks_exact(8)) {
                    word[lane] = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
                }
            }
            permute(&mut s);
            for (lane, out) in os.iter_mut().enumerate() {
                squeeze(&s, lane, out, out_len);
            }
        }
        wipe(s.as_flattened_mut());
    }
    match (k, blocks.len()) {
        (_, 1) | (KeccakKernel::Scalar, _) => run::<1>(f1600_each::<1>, blocks, out_len, outs),
        (KeccakKernel::X8Avx512, 5..) => {
            let full = wide_part(blocks.len(), 8, 5);
            let (a, b) = blocks.split_at(full);
            let (oa, ob) = outs.split_at_mut(full);
            // Whole groups of eight: the kernel reads the blocks and writes
            // the outputs itself; a last group of 5–7 runs interleaved.
            let whole = full - full % 8;
            for (blk, out) in a[..whole].chunks_exact(8).zip(oa.chunks_exact_mut(8)) {
                shake256_blocks_x8(k, blk, out_len, out);
            }
            run::<8>(f1600_x8(k), &a[whole..], out_len, &mut oa[whole..]);
            if !b.is_empty() {
                shake256_single_blocks(k, b, out_len, ob);
            }
        }
        (KeccakKernel::X3HybridNeon | KeccakKernel::X3HybridSha3, _) => {
            run::<3>(f1600_x3(k), blocks, out_len, outs)
        }
        (KeccakKernel::X5HybridAvx2, _) => run::<5>(f1600_x5(k), blocks, out_len, outs),
        _ => run::<4>(f1600_x4(k), blocks, out_len, outs),
    }
}

/// Eight single-block SHAKE256 calls on the AVX-512 kernel that gathers the
/// blocks and scatters the outputs itself (`k` must be `X8Avx512`).
fn shake256_blocks_x8(k: KeccakKernel, blocks: &[[u8; RATE]], out_len: usize, outs: &mut [Node]) {
    debug_assert!(k == KeccakKernel::X8Avx512 && out_len <= 32 && out_len.is_multiple_of(8));
    let blocks: &[[u8; RATE]; 8] = blocks.try_into().expect("a group of eight");
    let outs: &mut [Node; 8] = outs.try_into().expect("a group of eight");
    #[cfg(target_arch = "x86_64")]
    if k == KeccakKernel::X8Avx512 {
        // SAFETY: X8Avx512 is chosen only where AVX-512F was detected (see
        // `Kernels::forced`); out_len / 8 ≤ 4 words fit a 32-byte node.
        unsafe { super::keccak_x8::shake256_blocks_x8(blocks, outs, out_len / 8) };
        return;
    }
    let mut s = [[0u64; 8]; 25];
    for (lane, blk) in blocks.iter().enumerate() {
        for (word, bytes) in s.iter_mut().zip(blk.chunks_exact(8)) {
            word[lane] = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        }
    }
    f1600_each::<8>(&mut s);
    for (lane, out) in outs.iter_mut().enumerate() {
        squeeze(&s, lane, out, out_len);
    }
}

/// SHAKE256 of each pre-padded single block `blocks[i]`, squeezed to `len`
/// bytes (any length) in all lanes at once: the round-3.1 robust bitmasks of
/// H and T_l, up to 67 · 32 bytes. Each squeezed piece goes to
/// `sink(i, offset, bytes)` rather than to a buffer of the whole length.
pub(crate) fn shake256_single_block_xof(
    k: KeccakKernel,
    blocks: &[[u8; RATE]],
    len: usize,
    sink: &mut dyn FnMut(usize, usize, &[u8]),
) {
    fn run<const L: usize>(
        permute: impl Fn(&mut [[u64; L]; 25]),
        blocks: &[[u8; RATE]],
        len: usize,
        sink: &mut dyn FnMut(usize, usize, &[u8]),
    ) {
        let mut out = [0u8; RATE];
        for (g, group) in blocks.chunks(L).enumerate() {
            let mut s = [[0u64; L]; 25];
            for (lane, blk) in group.iter().enumerate() {
                for (word, bytes) in s.iter_mut().zip(blk.chunks_exact(8)) {
                    word[lane] = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
                }
            }
            let mut done = 0;
            while done < len {
                permute(&mut s);
                let take = (len - done).min(RATE);
                for lane in 0..group.len() {
                    for (chunk, word) in out.chunks_exact_mut(8).zip(s.iter()) {
                        chunk.copy_from_slice(&word[lane].to_le_bytes());
                    }
                    sink(g * L + lane, done, &out[..take]);
                }
                done += take;
            }
        }
    }
    match (k, blocks.len()) {
        (_, 1) | (KeccakKernel::Scalar, _) => run::<1>(f1600_each::<1>, blocks, len, sink),
        (KeccakKernel::X8Avx512, 5..) => run::<8>(f1600_x8(k), blocks, len, sink),
        (KeccakKernel::X3HybridNeon | KeccakKernel::X3HybridSha3, _) => {
            run::<3>(f1600_x3(k), blocks, len, sink)
        }
        (KeccakKernel::X5HybridAvx2, _) => run::<5>(f1600_x5(k), blocks, len, sink),
        _ => run::<4>(f1600_x4(k), blocks, len, sink),
    }
}

/// WOTS+ chains of the simple SHAKE family, fused: each `io[i]` (n = 16, 24
/// or 32 bytes) goes through `steps[i]` F calls, call i's first at `adrs[i]`
/// and each next one at a hash address one higher. `template` is F's padded
/// block with `PK.seed` in place and ADRS and value zero.
///
/// F's input `PK.seed ‖ ADRS ‖ value ‖ pad` lies on whole 64-bit words, so
/// the chains stay in the kernel's lane layout from step to step: the first
/// n/8 state words of a permutation are the next step's value words, the
/// hash-address word is rewritten and the other words come back from a
/// per-lane template. A chain leaves its lane only when it ends, and the
/// next chain takes the lane over, so chains of different lengths keep the
/// lanes full until the last ones run out; between two such hand-overs the
/// steps run without bookkeeping.
pub(crate) fn shake256_f_chains(
    k: KeccakKernel,
    template: &[u8; RATE],
    adrs: &[Adrs],
    io: &mut [Node],
    n: usize,
    steps: &[u8],
) {
    debug_assert!(matches!(n, 16 | 24 | 32) && adrs.len() == io.len() && adrs.len() == steps.len());
    match n {
        16 => keccak_chains::<2>(k, template, adrs, io, steps),
        24 => keccak_chains::<3>(k, template, adrs, io, steps),
        _ => keccak_chains::<4>(k, template, adrs, io, steps),
    }
}

/// [`shake256_f_chains`] for n = 8·W bytes: the lane width by kernel and by
/// how many chains there are.
fn keccak_chains<const W: usize>(
    k: KeccakKernel,
    template: &[u8; RATE],
    adrs: &[Adrs],
    io: &mut [Node],
    steps: &[u8],
) {
    match (k, adrs.len()) {
        (_, 1) | (KeccakKernel::Scalar, _) => {
            keccak_chains_in::<1, W>(f1600_each::<1>, template, adrs, io, steps)
        }
        (KeccakKernel::X8Avx512, 5..) => {
            keccak_chains_in::<8, W>(f1600_x8(k), template, adrs, io, steps)
        }
        (KeccakKernel::X3HybridNeon | KeccakKernel::X3HybridSha3, _) => {
            keccak_chains_in::<3, W>(f1600_x3(k), template, adrs, io, steps)
        }
        _ => keccak_chains_in::<4, W>(f1600_x4(k), template, adrs, io, steps),
    }
}

/// Chains that start from their secret values: the first `count` chains'
/// values are PRF(PK.seed, SK.seed, ADRS) with ADRS their first address
/// with type `kind` (FIPS 205 Algorithms 6 and 15), made as each chain's
/// first step in the chain kernel's lanes (SHA-2's PRF hashes a block of
/// F's shape, `sk_seed` in the value's place), not handed in.
pub(crate) struct ChainPrf<'a> {
    /// The PRF's address type (WOTS_PRF or FORS_PRF).
    pub kind: AdrsType,
    /// SK.seed.
    pub sk_seed: &'a [u8],
    /// How many chains, from the first, start with the PRF.
    pub count: usize,
}

/// What [`LaneChains::stepped`] says about a lane.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LaneEvent {
    /// Its PRF step is done: the chain proper starts (its address type).
    Begins,
    /// Its chain has ended: the value is the result.
    Ends,
}

/// Which chain each lane holds and how far it has to go.
struct LaneChains<const L: usize> {
    /// The chain in each lane.
    chain: [usize; L],
    /// Steps the lane's chain has left; 0 and no PRF step: the lane is free.
    left: [u8; L],
    /// The lane's next step is its chain's PRF ([`ChainPrf`]).
    prf: [bool; L],
    /// The hash address of the lane's next step.
    hash: [u32; L],
    /// The next chain to start.
    next: usize,
}

impl<const L: usize> LaneChains<L> {
    fn new() -> Self {
        LaneChains {
            chain: [0; L],
            left: [0; L],
            prf: [false; L],
            hash: [0; L],
            next: 0,
        }
    }

    fn busy(&self, lane: usize) -> bool {
        self.left[lane] != 0 || self.prf[lane]
    }

    /// Gives every free lane the next chain that has steps to go (or a PRF
    /// step: the first `prf` chains), calling `load(lane, chain, prf)`;
    /// other chains of no steps keep their value. False when every lane is
    /// free and no chain is left.
    fn fill(
        &mut self,
        adrs: &[Adrs],
        steps: &[u8],
        prf: usize,
        mut load: impl FnMut(usize, usize, bool),
    ) -> bool {
        let mut busy = false;
        for lane in 0..L {
            if !self.busy(lane) {
                while self.next < steps.len() && self.next >= prf && steps[self.next] == 0 {
                    self.next += 1;
                }
                if self.next < steps.len() {
                    let c = self.next;
                    self.next += 1;
                    self.chain[lane] = c;
                    self.left[lane] = steps[c];
                    self.prf[lane] = c < prf;
                    // `tree_index` reads the hash address's word, the
                    // same in the PRF's address.
                    self.hash[lane] = adrs[c].tree_index();
                    load(lane, c, c < prf);
                }
            }
            busy |= self.busy(lane);
        }
        busy
    }

    /// Steps every busy lane can take before the first of them ends or
    /// begins its chain proper: run without any bookkeeping in between.
    fn run(&self) -> u8 {
        if self.prf.iter().any(|&p| p) {
            return 1;
        }
        self.left
            .iter()
            .filter(|&&x| x != 0)
            .min()
            .copied()
            .unwrap_or(0)
    }

    /// Counts `steps` steps done in every busy lane, calling
    /// `event(lane, chain, what)` for each lane whose PRF step was one of
    /// them ([`LaneEvent::Begins`]: the hash address stays, as the chain's
    /// first step has the PRF's) and each chain that has just ended.
    fn stepped(&mut self, steps: u8, mut event: impl FnMut(usize, usize, LaneEvent)) {
        for lane in 0..L {
            if self.prf[lane] {
                debug_assert_eq!(steps, 1, "a PRF step runs alone");
                self.prf[lane] = false;
                let what = if self.left[lane] == 0 {
                    LaneEvent::Ends
                } else {
                    LaneEvent::Begins
                };
                event(lane, self.chain[lane], what);
            } else if self.left[lane] != 0 {
                self.left[lane] -= steps;
                self.hash[lane] = self.hash[lane].wrapping_add(u32::from(steps));
                if self.left[lane] == 0 {
                    event(lane, self.chain[lane], LaneEvent::Ends);
                }
            }
        }
    }
}

/// [`shake256_f_chains`] on an L-lane permutation. Word layout of F's block:
/// `PK.seed` 0..W, ADRS W..W+4 (the hash address is the high half of word
/// W+3, big-endian bytes), the value W+4..2W+4, then the padding. A free
/// lane's state is permuted with the rest and its output dropped.
fn keccak_chains_in<const L: usize, const W: usize>(
    permute: impl Fn(&mut [[u64; L]; 25]),
    template: &[u8; RATE],
    adrs: &[Adrs],
    io: &mut [Node],
    steps: &[u8],
) {
    let (hw, v) = (W + 3, W + 4);
    let word = |b: &[u8]| u64::from_le_bytes(b[..8].try_into().expect("8 bytes"));
    let mut t = [[0u64; L]; 25];
    for (w, bytes) in t.iter_mut().zip(template.chunks_exact(8)) {
        *w = [word(bytes); L];
    }
    let mut s = [[0u64; L]; 25];
    let mut lanes = LaneChains::<L>::new();
    while lanes.fill(adrs, steps, 0, |lane, c, _| {
        for (j, bytes) in adrs[c].0.chunks_exact(8).enumerate() {
            t[W + j][lane] = word(bytes);
        }
        // Staged where a permutation leaves its output, as if the value
        // came out of a step before the first.
        for (j, bytes) in io[c].chunks_exact(8).take(W).enumerate() {
            s[j][lane] = word(bytes);
        }
    }) {
        let run = lanes.run();
        for step in 0..u32::from(run) {
            for j in 0..W {
                s[v + j] = s[j];
            }
            for (w, h) in t[hw].iter_mut().zip(&lanes.hash) {
                let h = h.wrapping_add(step).swap_bytes();
                *w = (*w & 0xffff_ffff) | (u64::from(h) << 32);
            }
            s[..v].copy_from_slice(&t[..v]);
            s[v + W..].copy_from_slice(&t[v + W..]);
            permute(&mut s);
        }
        lanes.stepped(run, |lane, c, _| squeeze(&s, lane, &mut io[c], 8 * W));
    }
    // Chain values (secret while signing).
    wipe(s.as_flattened_mut());
}

/// WOTS+ chains of the SHA-2 families, fused (F is SHA-256 in every
/// category): each `io[i]` goes through `steps[i]` F calls resumed from
/// `seed` (the state after `PK.seed`'s block), call i's first at `adrs[i]`
/// and each next one at a hash address one higher. `template` is F's padded
/// block with ADRSc and value zero. Each lane keeps its block across steps:
/// only the n digest bytes and the hash address are written into it between
/// compressions, with no part lists and no padding rebuilt; a chain that
/// ends hands its lane to the next, as in [`shake256_f_chains`]. With
/// `prf`, its chains start from their PRF outputs, made in the same lanes
/// (their `io` values are not read).
#[allow(clippy::too_many_arguments)]
pub(crate) fn sha256_f_chains(
    k: Sha256Kernel,
    seed: &State256,
    template: &[u8; 64],
    adrs: &[Adrs],
    io: &mut [Node],
    n: usize,
    steps: &[u8],
    prf: Option<&ChainPrf<'_>>,
) {
    debug_assert!(matches!(n, 16 | 24 | 32) && adrs.len() == io.len() && adrs.len() == steps.len());
    debug_assert!(prf.is_none_or(|p| p.count <= adrs.len() && p.sk_seed.len() == n));
    let run = Sha256Chains {
        seed,
        template,
        prf,
    };
    match n {
        16 => sha256_chains::<16>(k, &run, adrs, io, steps),
        24 => sha256_chains::<24>(k, &run, adrs, io, steps),
        _ => sha256_chains::<32>(k, &run, adrs, io, steps),
    }
}

/// What every chain of one [`sha256_f_chains`] call shares.
struct Sha256Chains<'a> {
    seed: &'a State256,
    template: &'a [u8; 64],
    prf: Option<&'a ChainPrf<'a>>,
}

impl Sha256Chains<'_> {
    /// How many chains, from the first, start with a PRF step.
    fn prf_count(&self) -> usize {
        self.prf.map_or(0, |p| p.count)
    }

    /// The address of chain `c`'s next call: its PRF's when `prf`.
    fn address(&self, adrs: &Adrs, prf: bool) -> Adrs {
        let mut a = *adrs;
        if let (true, Some(p)) = (prf, self.prf) {
            a.set_type(p.kind);
        }
        a
    }
}

/// [`sha256_f_chains`] for n = N: the lane width by kernel and by how many
/// chains there are.
fn sha256_chains<const N: usize>(
    k: Sha256Kernel,
    run: &Sha256Chains<'_>,
    adrs: &[Adrs],
    io: &mut [Node],
    steps: &[u8],
) {
    match sha256_plan(k, adrs.len()) {
        // 32-bit cores, fast build: one lane, its blocks built from words.
        #[cfg(all(
            target_pointer_width = "32",
            not(target_arch = "wasm32"),
            feature = "fast-sha256"
        ))]
        (_, 1) => {
            use super::sha256_32bit::f_chains_x1;
            match N {
                16 => sha256_chains_words(f_chains_x1::<4>, run, adrs, io, steps),
                24 => sha256_chains_words(f_chains_x1::<6>, run, adrs, io, steps),
                _ => sha256_chains_words(f_chains_x1::<8>, run, adrs, io, steps),
            }
        }
        #[cfg(not(all(
            target_pointer_width = "32",
            not(target_arch = "wasm32"),
            feature = "fast-sha256"
        )))]
        (_, 1) => sha256_chains_in::<1, N>(compress256_each::<1>, run, adrs, io, steps),
        (k, 2) => sha256_chains_in::<2, N>(sha256_x2(k), run, adrs, io, steps),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        (Sha256Kernel::X4Simd128, 4) => {
            // A safe function there (SIMD128 is a build-time feature): no
            // wrapper to state why a call is sound, as the x86 kernels need.
            use super::sha2_simd128::f_chains_simd128_x4 as chains_x4;
            match N {
                16 => sha256_chains_words(chains_x4::<4>, run, adrs, io, steps),
                24 => sha256_chains_words(chains_x4::<6>, run, adrs, io, steps),
                _ => sha256_chains_words(chains_x4::<8>, run, adrs, io, steps),
            }
        }
        (k, 4) => sha256_chains_in::<4, N>(sha256_x4(k), run, adrs, io, steps),
        #[cfg(target_arch = "x86_64")]
        (Sha256Kernel::X16Avx512 | Sha256Kernel::X16Avx512ShaNi, 16) => match N {
            16 => sha256_chains_words(chains_x16::<4>, run, adrs, io, steps),
            24 => sha256_chains_words(chains_x16::<6>, run, adrs, io, steps),
            _ => sha256_chains_words(chains_x16::<8>, run, adrs, io, steps),
        },
        #[cfg(target_arch = "x86_64")]
        (Sha256Kernel::X8Avx2 | Sha256Kernel::X16Avx512, _) => match N {
            16 => sha256_chains_words(chains_x8::<4>, run, adrs, io, steps),
            24 => sha256_chains_words(chains_x8::<6>, run, adrs, io, steps),
            _ => sha256_chains_words(chains_x8::<8>, run, adrs, io, steps),
        },
        // (The AVX2 and AVX-512 kernels exist on x86-64 alone.)
        (k, _) => sha256_chains_in::<8, N>(sha256_x8(k), run, adrs, io, steps),
    }
}

/// An L-lane SHA-256 chain kernel, blocks built in registers (see
/// [`sha256_avx512::f_chains_avx512_x16`](super::sha256_avx512::f_chains_avx512_x16)
/// for the arguments): seed state, template words, ADRSc words 0–4 and hash
/// addresses per lane, the lanes' values (n = 4·NW bytes), steps.
#[cfg(any(
    test,
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(
        target_pointer_width = "32",
        not(target_arch = "wasm32"),
        feature = "fast-sha256"
    )
))]
type ChainKernel<const L: usize, const NW: usize> =
    fn(&[u32; 8], &[u32; 16], &[[u32; L]; 5], &[u32; L], &mut [[u32; L]; NW], u32);

#[cfg(target_arch = "x86_64")]
fn chains_x16<const NW: usize>(
    seed: &[u32; 8],
    tmpl: &[u32; 16],
    head: &[[u32; 16]; 5],
    hash: &[u32; 16],
    vals: &mut [[u32; 16]; NW],
    steps: u32,
) {
    // SAFETY: the X16Avx512 kernels are chosen only where AVX-512F was
    // detected.
    unsafe { super::sha256_avx512::f_chains_avx512_x16::<NW>(seed, tmpl, head, hash, vals, steps) }
}

#[cfg(target_arch = "x86_64")]
fn chains_x8<const NW: usize>(
    seed: &[u32; 8],
    tmpl: &[u32; 16],
    head: &[[u32; 8]; 5],
    hash: &[u32; 8],
    vals: &mut [[u32; 8]; NW],
    steps: u32,
) {
    // SAFETY: X8Avx2 is chosen only where AVX2 was detected, X16Avx512 only
    // where AVX-512 and AVX2 were.
    unsafe { super::sha256_avx2::f_chains_avx2_x8::<NW>(seed, tmpl, head, hash, vals, steps) }
}

/// [`sha256_f_chains`] on an L-lane chain kernel that builds each step's
/// blocks in registers, for n = 4·NW bytes: between runs only the lanes'
/// ADRSc words and values are kept here, word-major (`head[j][lane]`,
/// `vals[j][lane]`), and a lane is touched only when its chain starts,
/// begins after its PRF step, or ends.
#[cfg(any(
    test,
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(
        target_pointer_width = "32",
        not(target_arch = "wasm32"),
        feature = "fast-sha256"
    )
))]
fn sha256_chains_words<const L: usize, const NW: usize>(
    kernel: ChainKernel<L, NW>,
    run: &Sha256Chains<'_>,
    adrs: &[Adrs],
    io: &mut [Node],
    steps: &[u8],
) {
    let be = |b: &[u8]| u32::from_be_bytes(b[..4].try_into().expect("4 bytes"));
    let mut tmpl = [0u32; 16];
    for (w, b) in tmpl.iter_mut().zip(run.template.chunks_exact(4)) {
        *w = be(b);
    }
    let mut head = [[0u32; L]; 5];
    let mut vals = [[0u32; L]; NW];
    let mut lanes = LaneChains::<L>::new();
    while lanes.fill(adrs, steps, run.prf_count(), |lane, c, prf| {
        for (j, w) in run
            .address(&adrs[c], prf)
            .compressed_words()
            .into_iter()
            .enumerate()
        {
            head[j][lane] = w;
        }
        let value = match run.prf {
            Some(p) if prf => p.sk_seed,
            _ => &io[c][..],
        };
        for (j, b) in value[..4 * NW].chunks_exact(4).enumerate() {
            vals[j][lane] = be(b);
        }
    }) {
        let steps = lanes.run();
        kernel(
            run.seed,
            &tmpl,
            &head,
            &lanes.hash,
            &mut vals,
            u32::from(steps),
        );
        lanes.stepped(steps, |lane, c, event| match event {
            // Only the type differs: ADRSc byte 9, in word 2.
            LaneEvent::Begins => {
                let kind = u32::from(adrs[c].0[19]) << 16;
                head[2][lane] = (head[2][lane] & !0x00ff_0000) | kind;
            }
            LaneEvent::Ends => {
                let mut out = [0u8; MAX_N];
                for (j, b) in out[..4 * NW].chunks_exact_mut(4).enumerate() {
                    b.copy_from_slice(&vals[j][lane].to_be_bytes());
                }
                io[c] = out;
            }
        });
    }
    // Chain values (secret while signing).
    wipe(vals.as_flattened_mut());
}

/// [`sha256_f_chains`] on an L-lane compression function. F's block: ADRSc
/// 0..22 (the hash address is bytes 18..22), the value 22..22+N, then the
/// padding and length from the template. A free lane's block is compressed
/// with the rest and its output dropped.
fn sha256_chains_in<const L: usize, const N: usize>(
    compress: impl Fn(&mut [[u32; 8]; L], &[[u8; 64]; L]),
    run: &Sha256Chains<'_>,
    adrs: &[Adrs],
    io: &mut [Node],
    steps: &[u8],
) {
    let mut blks = [*run.template; L];
    let mut states = [*run.seed; L];
    let mut lanes = LaneChains::<L>::new();
    while lanes.fill(adrs, steps, run.prf_count(), |lane, c, prf| {
        blks[lane][..22].copy_from_slice(&run.address(&adrs[c], prf).compressed());
        let value = match run.prf {
            Some(p) if prf => p.sk_seed,
            _ => &io[c][..],
        };
        blks[lane][22..22 + N].copy_from_slice(&value[..N]);
    }) {
        let steps = lanes.run();
        for step in 0..u32::from(steps) {
            for (b, h) in blks.iter_mut().zip(&lanes.hash) {
                b[18..22].copy_from_slice(&h.wrapping_add(step).to_be_bytes());
            }
            states = [*run.seed; L];
            compress(&mut states, &blks);
            for (b, st) in blks.iter_mut().zip(&states) {
                for (bytes, w) in b[22..22 + N].chunks_exact_mut(4).zip(st) {
                    bytes.copy_from_slice(&w.to_be_bytes());
                }
            }
        }
        lanes.stepped(steps, |lane, c, event| match event {
            LaneEvent::Begins => blks[lane][..22].copy_from_slice(&adrs[c].compressed()),
            LaneEvent::Ends => {
                let mut out = [0u8; MAX_N];
                out[..N].copy_from_slice(&blks[lane][22..22 + N]);
                io[c] = out;
            }
        });
    }
    // Chain values (secret while signing).
    wipe(blks.as_flattened_mut());
    wipe(states.as_flattened_mut());
}

// The kernel choosers below hand out a SIMD kernel only for the `Kernels`
// variant that selected it; `Kernels::current` made that variant only after
// checking the CPU for the kernel's features, which is what makes the calls
// into the `unsafe` kernels sound.

fn f1600_x4(k: KeccakKernel) -> impl Fn(&mut [[u64; 4]; 25]) {
    move |s: &mut [[u64; 4]; 25]| match k {
        KeccakKernel::Scalar => f1600_each::<4>(s),
        // SAFETY: X4Avx2 and X5HybridAvx2 (whose groups of 2–4 run here)
        // are chosen only where AVX2 was detected; X8Avx512 only where
        // AVX-512F/VL were (see `Kernels::forced`).
        #[cfg(target_arch = "x86_64")]
        KeccakKernel::X4Avx2 | KeccakKernel::X5HybridAvx2 => unsafe {
            super::keccak_x4::f1600_x4(s)
        },
        #[cfg(target_arch = "x86_64")]
        KeccakKernel::X8Avx512 => unsafe { super::keccak_x4::f1600_x4_avx512vl(s) },
        // SAFETY: X2Sha3 is chosen only where the SHA-3 extension was
        // detected; X2Neon needs only NEON, part of every AArch64 target.
        #[cfg(target_arch = "aarch64")]
        KeccakKernel::X2Neon => unsafe { super::keccak_neon::f1600_x4_neon(s) },
        #[cfg(target_arch = "aarch64")]
        KeccakKernel::X2Sha3 => unsafe { super::keccak_neon::f1600_x4_sha3(s) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        KeccakKernel::X2Simd128 => super::keccak_simd128::f1600_x4(s),
        #[allow(unreachable_patterns)]
        _ => f1600_each::<4>(s),
    }
}

/// The hybrid kernels: a NEON pair and one scalar state (`keccak_neon`).
fn f1600_x3(k: KeccakKernel) -> impl Fn(&mut [[u64; 3]; 25]) {
    move |s: &mut [[u64; 3]; 25]| match k {
        // SAFETY: X3HybridSha3 is chosen only where the SHA-3 extension was
        // detected; X3HybridNeon needs only NEON, part of every AArch64 target.
        #[cfg(target_arch = "aarch64")]
        KeccakKernel::X3HybridNeon => unsafe { super::keccak_neon::f1600_x3_hybrid_neon(s) },
        #[cfg(target_arch = "aarch64")]
        KeccakKernel::X3HybridSha3 => unsafe { super::keccak_neon::f1600_x3_hybrid_sha3(s) },
        _ => f1600_each::<3>(s),
    }
}

/// The x86 hybrid: four AVX2 lanes and one scalar state (`keccak_x5_hybrid`).
fn f1600_x5(k: KeccakKernel) -> impl Fn(&mut [[u64; 5]; 25]) {
    move |s: &mut [[u64; 5]; 25]| match k {
        // SAFETY: X5HybridAvx2 is chosen only where AVX2, BMI1 and BMI2 were
        // detected.
        #[cfg(target_arch = "x86_64")]
        KeccakKernel::X5HybridAvx2 => unsafe { super::keccak_x5_hybrid::f1600_x5_hybrid_avx2(s) },
        _ => f1600_each::<5>(s),
    }
}

fn f1600_x8(k: KeccakKernel) -> impl Fn(&mut [[u64; 8]; 25]) {
    move |s: &mut [[u64; 8]; 25]| match k {
        // SAFETY: X8Avx512 is chosen only where AVX-512F was detected.
        #[cfg(target_arch = "x86_64")]
        KeccakKernel::X8Avx512 => unsafe { super::keccak_x8::f1600_x8(s) },
        _ => f1600_each::<8>(s),
    }
}

fn compress256_each<const L: usize>(states: &mut [[u32; 8]; L], blocks: &[[u8; 64]; L]) {
    for (st, blk) in states.iter_mut().zip(blocks) {
        super::sha2::compress256(st, core::array::from_ref(blk));
    }
}

fn compress512_each<const L: usize>(states: &mut [[u64; 8]; L], blocks: &[[u8; 128]; L]) {
    for (st, blk) in states.iter_mut().zip(blocks) {
        ::sha2::block_api::compress512(st, core::slice::from_ref(blk));
    }
}

fn sha256_x2(k: Sha256Kernel) -> impl Fn(&mut [[u32; 8]; 2], &[[u8; 64]; 2]) {
    move |st: &mut [[u32; 8]; 2], b: &[[u8; 64]; 2]| match k {
        // SAFETY: X4ShaNi is chosen only where SHA, SSSE3 and SSE4.1 were detected.
        #[cfg(target_arch = "x86_64")]
        Sha256Kernel::X4ShaNi => unsafe { super::sha256_shani::compress256_shani_x2(st, b) },
        // SAFETY: X4Armv8 is chosen only where the Armv8 SHA-2 extension was detected.
        #[cfg(target_arch = "aarch64")]
        Sha256Kernel::X4Armv8 => unsafe { super::sha256_armv8::compress256_armv8_x2(st, b) },
        _ => compress256_each::<2>(st, b),
    }
}

fn sha256_x4(k: Sha256Kernel) -> impl Fn(&mut [[u32; 8]; 4], &[[u8; 64]; 4]) {
    move |st: &mut [[u32; 8]; 4], b: &[[u8; 64]; 4]| match k {
        // SAFETY: X4ShaNi is chosen only where SHA, SSSE3 and SSE4.1 were detected.
        #[cfg(target_arch = "x86_64")]
        Sha256Kernel::X4ShaNi => unsafe { super::sha256_shani::compress256_shani_x4(st, b) },
        // SAFETY: X4Armv8 is chosen only where the Armv8 SHA-2 extension was detected.
        #[cfg(target_arch = "aarch64")]
        Sha256Kernel::X4Armv8 => unsafe { super::sha256_armv8::compress256_armv8_x4(st, b) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Sha256Kernel::X4Simd128 => super::sha2_simd128::compress256_x4(st, b),
        _ => compress256_each::<4>(st, b),
    }
}

fn sha256_x8(k: Sha256Kernel) -> impl Fn(&mut [[u32; 8]; 8], &[[u8; 64]; 8]) {
    move |st: &mut [[u32; 8]; 8], b: &[[u8; 64]; 8]| match k {
        // SAFETY: X8Avx2 is chosen only where AVX2 was detected, X16Avx512
        // (and X16Avx512ShaNi) only where AVX-512 and AVX2 were.
        #[cfg(target_arch = "x86_64")]
        Sha256Kernel::X8Avx2 | Sha256Kernel::X16Avx512 | Sha256Kernel::X16Avx512ShaNi => unsafe {
            super::sha256_avx2::compress256_avx2_x8(st, b)
        },
        _ => compress256_each::<8>(st, b),
    }
}

fn sha256_x16(k: Sha256Kernel) -> impl Fn(&mut [[u32; 8]; 16], &[[u8; 64]; 16]) {
    move |st: &mut [[u32; 8]; 16], b: &[[u8; 64]; 16]| match k {
        // SAFETY: X16Avx512 is chosen only where AVX-512F was detected.
        #[cfg(target_arch = "x86_64")]
        Sha256Kernel::X16Avx512 | Sha256Kernel::X16Avx512ShaNi => unsafe {
            super::sha256_avx512::compress256_avx512_x16(st, b)
        },
        _ => compress256_each::<16>(st, b),
    }
}

fn sha512_x4(k: Sha512Kernel) -> impl Fn(&mut [[u64; 8]; 4], &[[u8; 128]; 4]) {
    move |st: &mut [[u64; 8]; 4], b: &[[u8; 128]; 4]| match k {
        // SAFETY: X4Avx2 is chosen only where AVX2 was detected, X8Avx512
        // only where AVX-512 and AVX2 were.
        #[cfg(target_arch = "x86_64")]
        Sha512Kernel::X4Avx2 | Sha512Kernel::X8Avx512 => unsafe {
            super::sha512_avx2::compress512_avx2_x4(st, b)
        },
        // SAFETY: X4Armv8 is chosen only where the SHA-3 (with SHA-512)
        // extension was detected.
        #[cfg(target_arch = "aarch64")]
        Sha512Kernel::X4Armv8 => unsafe { super::sha512_armv8::compress512_armv8_x4(st, b) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Sha512Kernel::X2Simd128 => super::sha2_simd128::compress512_x4(st, b),
        _ => compress512_each::<4>(st, b),
    }
}

fn sha512_x2(k: Sha512Kernel) -> impl Fn(&mut [[u64; 8]; 2], &[[u8; 128]; 2]) {
    move |st: &mut [[u64; 8]; 2], b: &[[u8; 128]; 2]| match k {
        // SAFETY: as in `sha512_x4`.
        #[cfg(target_arch = "aarch64")]
        Sha512Kernel::X4Armv8 => unsafe { super::sha512_armv8::compress512_armv8_x2(st, b) },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Sha512Kernel::X2Simd128 => super::sha2_simd128::compress512_x2(st, b),
        _ => compress512_each::<2>(st, b),
    }
}

fn sha512_x8(k: Sha512Kernel) -> impl Fn(&mut [[u64; 8]; 8], &[[u8; 128]; 8]) {
    move |st: &mut [[u64; 8]; 8], b: &[[u8; 128]; 8]| match k {
        // SAFETY: X8Avx512 is chosen only where AVX-512F and AVX-512BW were detected.
        #[cfg(target_arch = "x86_64")]
        Sha512Kernel::X8Avx512 => unsafe { super::sha512_avx512::compress512_avx512_x8(st, b) },
        _ => compress512_each::<8>(st, b),
    }
}

/// Runs `reps` back-to-back calls of the Keccak kernel `k` at its full
/// width on one set of states, nothing else (the bare-kernel cost that
/// `calibrate` times for the floors); returns the width, the states per call.
#[cfg(feature = "std")]
pub(super) fn keccak_full_width(k: KeccakKernel, reps: usize) -> usize {
    fn run<const L: usize>(f: impl Fn(&mut [[u64; L]; 25]), reps: usize) -> usize {
        let mut s = [[0u64; L]; 25];
        for _ in 0..reps {
            f(core::hint::black_box(&mut s));
        }
        core::hint::black_box(&s);
        L
    }
    match k {
        KeccakKernel::Scalar => {
            let mut s = [0u64; 25];
            for _ in 0..reps {
                keccak::f1600(core::hint::black_box(&mut s));
            }
            core::hint::black_box(&s);
            1
        }
        KeccakKernel::X8Avx512 => run(f1600_x8(k), reps),
        KeccakKernel::X3HybridNeon | KeccakKernel::X3HybridSha3 => run(f1600_x3(k), reps),
        KeccakKernel::X5HybridAvx2 => run(f1600_x5(k), reps),
        KeccakKernel::X4Avx2
        | KeccakKernel::X2Neon
        | KeccakKernel::X2Sha3
        | KeccakKernel::X2Simd128 => run(f1600_x4(k), reps),
    }
}

/// `reps` calls of a SHA-2 compression kernel `f` at its full width `L`
/// on one set of states and blocks; returns `L`.
#[cfg(feature = "std")]
fn compress_full_width<W: Copy + Default, const B: usize, const L: usize>(
    f: impl Fn(&mut [[W; 8]; L], &[[u8; B]; L]),
    reps: usize,
) -> usize {
    let (mut st, blocks) = ([[W::default(); 8]; L], [[0x5au8; B]; L]);
    for _ in 0..reps {
        f(
            core::hint::black_box(&mut st),
            core::hint::black_box(&blocks),
        );
    }
    core::hint::black_box(&st);
    L
}

/// [`keccak_full_width`] for a SHA-256 kernel: `reps` compressions of one
/// block per lane; returns the lanes per call.
#[cfg(feature = "std")]
pub(super) fn sha256_full_width(k: Sha256Kernel, reps: usize) -> usize {
    match k {
        Sha256Kernel::Scalar => compress_full_width(compress256_each::<1>, reps),
        Sha256Kernel::X4ShaNi | Sha256Kernel::X4Armv8 | Sha256Kernel::X4Simd128 => {
            compress_full_width(sha256_x4(k), reps)
        }
        Sha256Kernel::X8Avx2 => compress_full_width(sha256_x8(k), reps),
        Sha256Kernel::X16Avx512 | Sha256Kernel::X16Avx512ShaNi => {
            compress_full_width(sha256_x16(k), reps)
        }
    }
}

/// [`keccak_full_width`] for a SHA-256 kernel's F calls inside WOTS+
/// chains: `reps` chain steps of the chain kernel where the kernel has one
/// (AVX-512 and AVX2: [`sha256_f_chains`]' blocks built in registers), else `reps`
/// compressions as [`sha256_full_width`]; returns the lanes per call.
#[cfg(feature = "std")]
pub(super) fn sha256_chain_full_width(k: Sha256Kernel, reps: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    fn run<const L: usize>(kernel: ChainKernel<L, 4>, reps: usize) -> usize {
        let (seed, tmpl, head) = ([0x6a09_e667; 8], [0x5a5a_5a5a; 16], [[7; L]; 5]);
        let mut vals = [[0u32; L]; 4];
        let steps = u32::try_from(reps).unwrap_or(u32::MAX);
        kernel(
            &seed,
            &tmpl,
            &head,
            &[0; L],
            core::hint::black_box(&mut vals),
            steps,
        );
        core::hint::black_box(&vals);
        L
    }
    match k {
        #[cfg(target_arch = "x86_64")]
        Sha256Kernel::X16Avx512 | Sha256Kernel::X16Avx512ShaNi => run(chains_x16::<4>, reps),
        #[cfg(target_arch = "x86_64")]
        Sha256Kernel::X8Avx2 => run(chains_x8::<4>, reps),
        _ => sha256_full_width(k, reps),
    }
}

/// [`keccak_full_width`] for a SHA-512 kernel.
#[cfg(feature = "std")]
pub(super) fn sha512_full_width(k: Sha512Kernel, reps: usize) -> usize {
    match k {
        Sha512Kernel::Scalar => compress_full_width(compress512_each::<1>, reps),
        Sha512Kernel::X4Avx2 | Sha512Kernel::X4Armv8 | Sha512Kernel::X2Simd128 => {
            compress_full_width(sha512_x4(k), reps)
        }
        Sha512Kernel::X8Avx512 => compress_full_width(sha512_x8(k), reps),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::backend::select::{Backend, Kernels};
    use crate::hash::backend::sha2::{seed_state256, seed_state512, sha256_resume, sha512_resume};

    fn data(len: usize, salt: u8) -> Vec<u8> {
        (0..len)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt))
            .collect()
    }

    /// Every kernel this CPU has, through the lane drivers, against one call
    /// at a time, for lengths around every block boundary and every group size.
    #[test]
    fn lanes_match_single_calls() {
        let seed = data(32, 7);
        let (s256, s512) = (seed_state256(&seed), seed_state512(&seed));
        for backend in Backend::available() {
            let k = crate::hash::backend::with_backend(backend, Kernels::current).unwrap();
            for len in [
                0, 1, 55, 56, 64, 111, 112, 119, 120, 135, 136, 137, 300, 2208,
            ] {
                for count in 1..=19 {
                    let bufs: Vec<Vec<u8>> = (0..count).map(|i| data(len, i as u8)).collect();
                    let parts: Vec<[&[u8]; 2]> = bufs
                        .iter()
                        .map(|b| [&b[..len / 3], &b[len / 3..]])
                        .collect();
                    let inputs: Vec<Parts<'_>> = parts.iter().map(|p| &p[..]).collect();
                    let mut got = vec![[0u8; 32]; count];
                    let mut want = vec![[0u8; 32]; count];

                    shake256_many(k.keccak, &inputs, 32, &mut got);
                    for (b, w) in bufs.iter().zip(want.iter_mut()) {
                        keccak::shake256(&[b], w);
                    }
                    assert_eq!(got, want, "shake {backend} len {len} count {count}");

                    sha256_many(k.sha256, &s256, &inputs, 32, &mut got);
                    for (b, w) in bufs.iter().zip(want.iter_mut()) {
                        sha256_resume(&s256, &[b], w);
                    }
                    assert_eq!(got, want, "sha256 {backend} len {len} count {count}");

                    sha512_many(k.sha512, &s512, &inputs, 32, &mut got);
                    for (b, w) in bufs.iter().zip(want.iter_mut()) {
                        sha512_resume(&s512, &[b], w);
                    }
                    assert_eq!(got, want, "sha512 {backend} len {len} count {count}");
                }
            }
        }
    }

    /// A message padded into one SHAKE256 block (0x1F … 0x80).
    fn padded(msg: &[u8]) -> [u8; RATE] {
        let mut b = [0u8; RATE];
        b[..msg.len()].copy_from_slice(msg);
        b[msg.len()] ^= 0x1f;
        b[RATE - 1] ^= 0x80;
        b
    }

    /// Single-block SHAKE256 (F, H, PRF) on every kernel, including the
    /// AVX-512 one that gathers blocks and scatters outputs itself, against
    /// one call at a time: every group size around the 8-lane boundaries.
    #[test]
    fn single_blocks_match_single_calls() {
        for backend in Backend::available() {
            let k = crate::hash::backend::with_backend(backend, Kernels::current).unwrap();
            for out_len in [16, 24, 32] {
                for count in 1..=35 {
                    let msgs: Vec<Vec<u8>> =
                        (0..count).map(|i| data(64 + out_len, i as u8)).collect();
                    let blocks: Vec<[u8; RATE]> = msgs.iter().map(|m| padded(m)).collect();
                    let mut got = vec![[0xAAu8; 32]; count];
                    shake256_single_blocks(k.keccak, &blocks, out_len, &mut got);
                    for (m, g) in msgs.iter().zip(&got) {
                        let mut want = [0u8; 32];
                        keccak::shake256(&[m], &mut want[..out_len]);
                        assert_eq!(*g, want, "{backend} out_len {out_len} count {count}");
                    }
                }
            }
        }
    }

    /// Every Keccak kernel this CPU can run, also those no backend picks by
    /// default (the kernel `select` did not choose for a backend).
    fn keccak_kernels() -> Vec<KeccakKernel> {
        let mut ks: Vec<KeccakKernel> = Backend::available()
            .map(|b| {
                crate::hash::backend::with_backend(b, Kernels::current)
                    .unwrap()
                    .keccak
            })
            .collect();
        #[cfg(target_arch = "aarch64")]
        {
            ks.extend([KeccakKernel::X2Neon, KeccakKernel::X3HybridNeon]);
            if std::arch::is_aarch64_feature_detected!("sha3") {
                ks.extend([KeccakKernel::X2Sha3, KeccakKernel::X3HybridSha3]);
            }
        }
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
        {
            ks.push(KeccakKernel::X5HybridAvx2);
        }
        let mut seen = Vec::new();
        ks.retain(|k| {
            !seen.contains(k) && {
                seen.push(*k);
                true
            }
        });
        ks
    }

    /// Every SHA-256 kernel this CPU can run (those the backends select).
    fn sha256_kernels() -> Vec<Sha256Kernel> {
        // The default's own (X16Avx512ShaNi is no forced backend's).
        let mut ks: Vec<Sha256Kernel> = vec![Kernels::current().sha256];
        for b in Backend::available() {
            let k = crate::hash::backend::with_backend(b, Kernels::current)
                .unwrap()
                .sha256;
            if !ks.contains(&k) {
                ks.push(k);
            }
        }
        ks
    }

    /// `count` chain addresses (WOTS_HASH, chain i) whose first hash
    /// addresses differ and are above 0, and `count` n-byte start values.
    fn chain_inputs(count: usize, n: usize) -> (Vec<Adrs>, Vec<Node>) {
        let adrs = (0..count)
            .map(|i| {
                let mut a = Adrs::new();
                a.set_layer_address(2);
                a.set_tree_address(0x0102_0304_0506 + i as u64);
                a.set_key_pair_address(9 + (i / 4) as u32);
                a.set_chain_address(i as u32);
                a.set_hash_address(1 + (i % 5) as u32);
                a
            })
            .collect();
        let vals = (0..count)
            .map(|i| {
                let mut v = [0u8; MAX_N];
                v[..n].copy_from_slice(&data(n, 40 + i as u8));
                v
            })
            .collect();
        (adrs, vals)
    }

    /// The fused chain drivers against one scalar F call per step (each
    /// call's input put together from its parts, no lane code), for every
    /// Keccak and SHA-256 kernel here, n = 16, 24, 32, every chain count up
    /// to past the widest kernel (full and partial last groups), chains all
    /// of 0, 1, 3 or 15 steps or of 15 down to 0 (lanes handed from chain
    /// to chain), and first hash addresses above 0.
    #[test]
    fn f_chains_match_step_by_step_calls() {
        let patterns: [fn(usize, usize) -> u8; 5] = [
            |_, _| 0,
            |_, _| 1,
            |_, _| 3,
            |_, _| 15,
            |i, count| ((count - 1 - i) * 16 / count) as u8,
        ];
        let pk_seed = data(32, 3);
        for n in [16, 24, 32] {
            let mut shake_tmpl = [0u8; RATE];
            shake_tmpl[..n].copy_from_slice(&pk_seed[..n]);
            shake_tmpl[2 * n + 32] ^= 0x1f;
            shake_tmpl[RATE - 1] ^= 0x80;
            let st = seed_state256(&pk_seed[..n]);
            let mut sha_tmpl = [0u8; 64];
            sha_tmpl[22 + n] = 0x80;
            sha_tmpl[56..].copy_from_slice(&((64 + 22 + n) as u64 * 8).to_be_bytes());
            for count in 1..=19 {
                let (adrs, vals) = chain_inputs(count, n);
                for pattern in patterns {
                    let steps: Vec<u8> = (0..count).map(|i| pattern(i, count)).collect();
                    let (mut want_shake, mut want_sha) = (vals.clone(), vals.clone());
                    for (i, a) in adrs.iter().enumerate() {
                        let mut a = *a;
                        for s in 0..u32::from(steps[i]) {
                            a.set_hash_address(adrs[i].tree_index() + s);
                            let mut out = [0u8; MAX_N];
                            keccak::shake256(
                                &[&pk_seed[..n], &a.0, &want_shake[i][..n]],
                                &mut out[..n],
                            );
                            want_shake[i] = out;
                            let mut out = [0u8; MAX_N];
                            sha256_resume(
                                &st,
                                &[&a.compressed(), &want_sha[i][..n]],
                                &mut out[..n],
                            );
                            want_sha[i] = out;
                        }
                    }
                    for k in keccak_kernels() {
                        let mut got = vals.clone();
                        shake256_f_chains(k, &shake_tmpl, &adrs, &mut got, n, &steps);
                        assert_eq!(got, want_shake, "{k:?} n {n} steps {steps:?}");
                    }
                    for k in sha256_kernels() {
                        let mut got = vals.clone();
                        sha256_f_chains(k, &st, &sha_tmpl, &adrs, &mut got, n, &steps, None);
                        assert_eq!(got, want_sha, "{k:?} n {n} steps {steps:?}");
                    }
                    // The 32-bit cores' one-lane word kernel (on the rounds
                    // of this build's shape; sha256_32bit's test checks both).
                    let run = Sha256Chains {
                        seed: &st,
                        template: &sha_tmpl,
                        prf: None,
                    };
                    let mut got = vals.clone();
                    {
                        use crate::hash::backend::sha256_32bit::f_chains_x1;
                        match n {
                            16 => {
                                sha256_chains_words(f_chains_x1::<4>, &run, &adrs, &mut got, &steps)
                            }
                            24 => {
                                sha256_chains_words(f_chains_x1::<6>, &run, &adrs, &mut got, &steps)
                            }
                            _ => {
                                sha256_chains_words(f_chains_x1::<8>, &run, &adrs, &mut got, &steps)
                            }
                        }
                    }
                    assert_eq!(got, want_sha, "one-lane word kernel n {n} steps {steps:?}");
                    // The first chains (all, or half) started by their PRF
                    // in the lanes: as the PRF by itself, then the chain.
                    let sk_seed = data(n, 9);
                    for prf_count in [count, count / 2] {
                        let mut want = want_sha.clone();
                        for (i, a) in adrs.iter().enumerate().take(prf_count) {
                            let mut p = *a;
                            p.set_type(AdrsType::WotsPrf);
                            let mut v = [0u8; MAX_N];
                            sha256_resume(&st, &[&p.compressed(), &sk_seed], &mut v[..n]);
                            let mut a = *a;
                            for s in 0..u32::from(steps[i]) {
                                a.set_hash_address(adrs[i].tree_index() + s);
                                let mut out = [0u8; MAX_N];
                                sha256_resume(&st, &[&a.compressed(), &v[..n]], &mut out[..n]);
                                v = out;
                            }
                            want[i] = v;
                        }
                        let prf = ChainPrf {
                            kind: AdrsType::WotsPrf,
                            sk_seed: &sk_seed,
                            count: prf_count,
                        };
                        for k in sha256_kernels() {
                            // The PRF chains' values are not read.
                            let mut got = vals.clone();
                            got[..prf_count].fill([0xee; MAX_N]);
                            let (a, g) = (&adrs, &mut got);
                            sha256_f_chains(k, &st, &sha_tmpl, a, g, n, &steps, Some(&prf));
                            assert_eq!(got, want, "{k:?} n {n} steps {steps:?} prf {prf_count}");
                        }
                    }
                }
            }
        }
    }

    /// The fused chain drivers against the one-block drivers run once per
    /// step on blocks built beforehand (the per-step path without its block
    /// assembly), 140 chains of 15 steps (four WOTS+ keys of a 128-bit set),
    /// ns per F call, for every backend here:
    /// `cargo test --release -p sphincs --lib f_chains_speed -- --ignored --nocapture`.
    #[test]
    #[ignore = "micro-benchmark; run with --ignored --nocapture"]
    fn f_chains_speed() {
        use std::hint::black_box;
        use std::time::Instant;
        const CHAINS: usize = 140;
        const STEPS: u32 = 15;
        const ROUNDS: usize = 20;
        let (adrs, vals) = chain_inputs(CHAINS, 16);
        let pk_seed = data(16, 3);
        let st = seed_state256(&pk_seed);
        let mut sha_tmpl = [0u8; 64];
        sha_tmpl[22 + 16] = 0x80;
        sha_tmpl[56..].copy_from_slice(&((64 + 22 + 16) as u64 * 8).to_be_bytes());
        let mut shake_tmpl = [0u8; RATE];
        shake_tmpl[..16].copy_from_slice(&pk_seed);
        shake_tmpl[64] ^= 0x1f;
        shake_tmpl[RATE - 1] ^= 0x80;
        let per_call = |t: Instant| t.elapsed().as_nanos() as f64 / (ROUNDS * CHAINS) as f64 / 15.0;
        let median = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        for backend in Backend::available() {
            let k = crate::hash::backend::with_backend(backend, Kernels::current).unwrap();
            let mut times = [const { Vec::new() }; 4];
            let mut io = vals.clone();
            let (sha_blocks, shake_blocks) = (vec![sha_tmpl; CHAINS], vec![shake_tmpl; CHAINS]);
            let steps = [STEPS as u8; CHAINS];
            for _ in 0..15 {
                let t = Instant::now();
                for _ in 0..ROUNDS {
                    sha256_f_chains(
                        k.sha256,
                        &st,
                        &sha_tmpl,
                        black_box(&adrs),
                        &mut io,
                        16,
                        &steps,
                        None,
                    );
                }
                times[0].push(per_call(t));
                let t = Instant::now();
                for _ in 0..ROUNDS * STEPS as usize {
                    sha256_final_blocks(k.sha256, &st, black_box(&sha_blocks), 16, &mut io);
                }
                times[1].push(per_call(t));
                let t = Instant::now();
                for _ in 0..ROUNDS {
                    shake256_f_chains(k.keccak, &shake_tmpl, black_box(&adrs), &mut io, 16, &steps);
                }
                times[2].push(per_call(t));
                let t = Instant::now();
                for _ in 0..ROUNDS * STEPS as usize {
                    shake256_single_blocks(k.keccak, black_box(&shake_blocks), 16, &mut io);
                }
                times[3].push(per_call(t));
            }
            let [a, b, c, d] = times.map(median);
            eprintln!(
                "{backend}: SHA-256 fused {a:.1}, blocks ready {b:.1}; SHAKE256 fused {c:.1}, blocks ready {d:.1} ns per call"
            );
        }
    }

    /// Every Keccak kernel through all three SHAKE256 drivers (multi-block
    /// inputs, pre-padded single blocks, long squeezes) against one call at a
    /// time, for every group size up to past the widest kernel: full and
    /// partial last groups of every width.
    #[test]
    fn keccak_kernels_match_single_calls() {
        for k in keccak_kernels() {
            for count in 1..=19 {
                // The lengths and the split into parts of `lanes_match_single_calls`.
                for len in [
                    0, 1, 55, 56, 64, 111, 112, 119, 120, 135, 136, 137, 300, 2208,
                ] {
                    let bufs: Vec<Vec<u8>> = (0..count).map(|i| data(len, i as u8)).collect();
                    let inputs: Vec<[&[u8]; 2]> = bufs
                        .iter()
                        .map(|b| [&b[..len / 3], &b[len / 3..]])
                        .collect();
                    let inputs: Vec<Parts<'_>> = inputs.iter().map(|p| &p[..]).collect();
                    let mut got = vec![[0u8; 32]; count];
                    shake256_many(k, &inputs, 32, &mut got);
                    for (b, g) in bufs.iter().zip(&got) {
                        let mut want = [0u8; 32];
                        keccak::shake256(&[b], &mut want);
                        assert_eq!(*g, want, "{k:?} many len {len} count {count}");
                    }
                }
                let msgs: Vec<Vec<u8>> = (0..count).map(|i| data(96, i as u8)).collect();
                let blocks: Vec<[u8; RATE]> = msgs.iter().map(|m| padded(m)).collect();
                for out_len in [16, 24, 32] {
                    let mut got = vec![[0xAAu8; 32]; count];
                    shake256_single_blocks(k, &blocks, out_len, &mut got);
                    for (m, g) in msgs.iter().zip(&got) {
                        let mut want = [0u8; 32];
                        keccak::shake256(&[m], &mut want[..out_len]);
                        assert_eq!(*g, want, "{k:?} single blocks {out_len} count {count}");
                    }
                }
                let len = 2 * RATE + 40;
                let mut xof = vec![vec![0u8; len]; count];
                shake256_single_block_xof(k, &blocks, len, &mut |i, at, bytes| {
                    xof[i][at..at + bytes.len()].copy_from_slice(bytes)
                });
                for (m, x) in msgs.iter().zip(&xof) {
                    let mut want = vec![0u8; len];
                    keccak::shake256(&[m], &mut want);
                    assert_eq!(*x, want, "{k:?} xof count {count}");
                }
            }
        }
    }

    /// The direct AVX-512 kernel against the interleaved path, side by side:
    /// `cargo test --release -p sphincs --lib single_blocks_speed -- --ignored --nocapture`.
    #[test]
    #[ignore = "micro-benchmark; run with --ignored --nocapture"]
    fn single_blocks_speed() {
        let Ok(k) = crate::hash::backend::with_backend(Backend::Avx512, Kernels::current) else {
            eprintln!("skipping: no AVX-512");
            return;
        };
        let blocks: Vec<[u8; RATE]> = (0..8).map(|i| padded(&data(96, i))).collect();
        let mut outs = [[0u8; 32]; 8];
        let rounds = 200_000;
        let (mut direct, mut interleaved) = (Vec::new(), Vec::new());
        for _ in 0..9 {
            let t = std::time::Instant::now();
            for _ in 0..rounds {
                shake256_blocks_x8(k.keccak, core::hint::black_box(&blocks), 32, &mut outs);
            }
            direct.push(t.elapsed().as_nanos() as f64 / (8 * rounds) as f64);
            let t = std::time::Instant::now();
            for _ in 0..rounds {
                let mut s = [[0u64; 8]; 25];
                for (lane, blk) in core::hint::black_box(&blocks).iter().enumerate() {
                    for (word, bytes) in s.iter_mut().zip(blk.chunks_exact(8)) {
                        word[lane] = u64::from_le_bytes(bytes.try_into().unwrap());
                    }
                }
                f1600_x8(k.keccak)(&mut s);
                for (lane, out) in outs.iter_mut().enumerate() {
                    squeeze(&s, lane, out, 32);
                }
            }
            interleaved.push(t.elapsed().as_nanos() as f64 / (8 * rounds) as f64);
        }
        direct.sort_by(f64::total_cmp);
        interleaved.sort_by(f64::total_cmp);
        eprintln!(
            "single-block SHAKE256 x8, ns per call: direct {:.1}, interleaved {:.1}",
            direct[4], interleaved[4]
        );
    }
}
