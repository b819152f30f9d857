//! F, H and G of SPHINCS-256 over batches: the scheme code hands over every
//! independent call of a step at once (all chains of 32 WOTS+ keys, a whole
//! tree level), and these pack them sixteen to a ChaCha12 kernel call.
//!
//! F(x) = π(x ‖ C)[0..32] and H(x, y) = π(π(x ‖ C) ⊕ (y ‖ 0))[0..32], with π
//! the ChaCha12 permutation and C = "expand 32-byte to 64-byte state!"; the
//! inputs are xored with their bitmasks first. G is `crypto_stream_chacha12`
//! keyed with the seed, nonce 0.
// Word-sliced batches index a word array and a lane array by the same lane.
#![allow(clippy::needless_range_loop)]

use crate::hash::backend::chacha12::{chains_x16, h_x16, stream_blocks, Half, Soa, LANES};
use crate::hash::backend::Kernels;
use crate::prelude::*;

use super::masks::MaskWords;
use super::params::N;

/// One n-byte value.
pub(crate) type Node = [u8; N];

fn word(node: &Node, w: usize) -> u32 {
    u32::from_le_bytes(node[4 * w..4 * w + 4].try_into().expect("4 bytes"))
}

/// Loads lanes `0..n` with the ChaCha keys and block counters of keystream
/// blocks `j .. j + n`, where block `j + lane` is block `(j + lane) % blocks`
/// (counted from `first`) of seed `(j + lane) / blocks`. Inlined, so each
/// caller compiles as with the loop written in place.
#[inline(always)]
fn load_lanes(
    seeds: &[Node],
    (blocks, first): (usize, u64),
    (j, n): (usize, usize),
    keys: &mut [[u32; LANES]; 8],
    counters: &mut [u64; LANES],
) {
    for lane in 0..n {
        let (seed, blk) = ((j + lane) / blocks, (j + lane) % blocks);
        for (w, k) in keys.iter_mut().enumerate() {
            k[lane] = word(&seeds[seed], w);
        }
        counters[lane] = first + blk as u64;
    }
}

fn put_half(s: &Half, lane: usize, out: &mut Node) {
    for (w, chunk) in out.chunks_exact_mut(4).enumerate() {
        chunk.copy_from_slice(&s[w][lane].to_le_bytes());
    }
}

/// The ChaCha12 kernel one key's operations run on (chosen when the key is
/// bound, so a signature spread over threads uses one kernel throughout).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hasher {
    kernels: Kernels,
}

impl Hasher {
    pub(crate) fn current() -> Self {
        Hasher {
            kernels: Kernels::current(),
        }
    }

    /// Runs the F chains: `vals[i]` goes from chain position `start[i]` to
    /// `end[i]`, the step from position s using `masks[s]` (`None`: no mask,
    /// the HORST leaves). Chains are batched in order of their start and end,
    /// so a batch's chains run nearly the same steps.
    pub(crate) fn f_chains(
        &self,
        vals: &mut [Node],
        start: &[u8],
        end: &[u8],
        masks: Option<&[MaskWords]>,
    ) {
        const NO_MASK: [MaskWords; 1] = [[0; 8]];
        debug_assert!(vals.len() == start.len() && vals.len() == end.len());
        let masks = masks.unwrap_or(&NO_MASK);
        let mut order: Vec<u32> = (0..vals.len() as u32).collect();
        if start.windows(2).any(|w| w[0] != w[1]) || end.windows(2).any(|w| w[0] != w[1]) {
            order.sort_by_key(|&i| (start[i as usize], end[i as usize]));
        }
        let mut cur: Half = [[0; LANES]; 8];
        for batch in order.chunks(LANES) {
            // Unused lanes run no steps.
            let first = batch[0] as usize;
            let mut st = [start[first]; LANES];
            let mut en = [start[first]; LANES];
            for (lane, &i) in batch.iter().enumerate() {
                let i = i as usize;
                for (w, c) in cur.iter_mut().enumerate() {
                    c[lane] = word(&vals[i], w);
                }
                st[lane] = start[i];
                en[lane] = end[i];
            }
            chains_x16(self.kernels.chacha, &mut cur, masks, &st, &en);
            for (lane, &i) in batch.iter().enumerate() {
                put_half(&cur, lane, &mut vals[i as usize]);
            }
        }
        crate::hash::wipe(cur.as_flattened_mut());
    }

    /// `out[i] = H(left(i) ⊕ mask[0], right(i) ⊕ mask[1])` for i < `out.len()`:
    /// one tree level (or several trees' levels with the same masks).
    pub(crate) fn h_many<'a>(
        &self,
        pair: impl Fn(usize) -> (&'a Node, &'a Node),
        mask: &[MaskWords; 2],
        out: &mut [Node],
    ) {
        let mut io: Half = [[0; LANES]; 8];
        let mut right: Half = [[0; LANES]; 8];
        for (b, outs) in out.chunks_mut(LANES).enumerate() {
            for lane in 0..outs.len() {
                let (l, r) = pair(b * LANES + lane);
                for w in 0..8 {
                    io[w][lane] = word(l, w);
                    right[w][lane] = word(r, w);
                }
            }
            h_x16(self.kernels.chacha, &mut io, &right, mask, outs.len());
            for (lane, o) in outs.iter_mut().enumerate() {
                put_half(&io, lane, o);
            }
        }
    }

    /// G, F chains and the first tree level fused: for every seed, its
    /// keystream nodes `first_node .. first_node + nodes` (32 bytes, two per
    /// 64-byte block; `first_node` even) each run through the F chain from
    /// position 0 to `steps` with `masks` (`None`: unmasked), then each pair
    /// (2i, 2i + 1) hashed with H and `pair_mask` (an odd last node is carried
    /// up as it is). `out` gets ⌈nodes / 2⌉ values per seed, seed after seed.
    /// The two nodes of a pair come from one keystream block, so they stay
    /// in the kernels' word-sliced layout from G to H: the secret values
    /// never pass through memory as nodes.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn g_chains_pairs(
        &self,
        seeds: &[Node],
        first_node: usize,
        nodes: usize,
        steps: u8,
        masks: Option<&[MaskWords]>,
        pair_mask: &[MaskWords; 2],
        out: &mut [Node],
    ) {
        const NO_MASK: [MaskWords; 1] = [[0; 8]];
        let masks = masks.unwrap_or(&NO_MASK);
        let blocks = nodes.div_ceil(2);
        debug_assert!(first_node.is_multiple_of(2) && out.len() == seeds.len() * blocks);
        let total = seeds.len() * blocks;
        let mut keys = [[0u32; LANES]; 8];
        let mut counters = [0u64; LANES];
        let mut stream: Soa = [[0; LANES]; 16];
        let (start, end) = ([0u8; LANES], [steps; LANES]);
        let mut j = 0;
        while j < total {
            let n = LANES.min(total - j);
            let first = (first_node / 2) as u64;
            load_lanes(seeds, (blocks, first), (j, n), &mut keys, &mut counters);
            stream_blocks(self.kernels.chacha, &keys, &counters, &mut stream);
            let (lo, hi) = stream.split_at_mut(8);
            let lo: &mut Half = lo.try_into().expect("8 words");
            let hi: &mut Half = hi.try_into().expect("8 words");
            chains_x16(self.kernels.chacha, lo, masks, &start, &end);
            chains_x16(self.kernels.chacha, hi, masks, &start, &end);
            let mut pair = *lo;
            h_x16(self.kernels.chacha, &mut pair, hi, pair_mask, n);
            let lo = &*lo;
            for lane in 0..n {
                let (seed, blk) = ((j + lane) / blocks, (j + lane) % blocks);
                // An odd last node has no partner: it goes up unchanged.
                let value = if 2 * blk + 1 < nodes { &pair } else { lo };
                put_half(value, lane, &mut out[seed * blocks + blk]);
            }
            j += n;
        }
        crate::hash::wipe(stream.as_flattened_mut());
        crate::hash::wipe(keys.as_flattened_mut());
    }

    /// G: for every seed, its keystream blocks `first .. first + blocks`,
    /// each handed to `emit(seed index, block index, 64 bytes)`.
    pub(crate) fn g(
        &self,
        seeds: &[Node],
        first: u64,
        blocks: usize,
        mut emit: impl FnMut(usize, usize, &[u8; 64]),
    ) {
        let total = seeds.len() * blocks;
        let mut keys = [[0u32; LANES]; 8];
        let mut counters = [0u64; LANES];
        let mut out: Soa = [[0; LANES]; 16];
        let mut block = [0u8; 64];
        let mut j = 0;
        while j < total {
            let n = LANES.min(total - j);
            load_lanes(seeds, (blocks, first), (j, n), &mut keys, &mut counters);
            stream_blocks(self.kernels.chacha, &keys, &counters, &mut out);
            for lane in 0..n {
                for (w, chunk) in block.chunks_exact_mut(4).enumerate() {
                    chunk.copy_from_slice(&out[w][lane].to_le_bytes());
                }
                let (seed, blk) = ((j + lane) / blocks, (j + lane) % blocks);
                emit(seed, blk, &block);
            }
            j += n;
        }
        crate::hash::wipe(&mut block);
        crate::hash::wipe(out.as_flattened_mut());
        crate::hash::wipe(keys.as_flattened_mut());
    }
}
