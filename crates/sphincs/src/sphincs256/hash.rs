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

use crate::hash::backend::chacha12::{permute_soa, stream_blocks, Soa, LANES};
use crate::hash::backend::Kernels;

use super::masks::MaskWords;
use super::params::N;

/// One n-byte value.
pub(crate) type Node = [u8; N];

/// The second half of the state F and H start from, as little-endian words.
const C: [u32; 8] = {
    let c = b"expand 32-byte to 64-byte state!";
    let mut w = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        w[i] = u32::from_le_bytes([c[4 * i], c[4 * i + 1], c[4 * i + 2], c[4 * i + 3]]);
        i += 1;
    }
    w
};

fn word(node: &Node, w: usize) -> u32 {
    u32::from_le_bytes(node[4 * w..4 * w + 4].try_into().expect("4 bytes"))
}

fn put_words(s: &Soa, lane: usize, out: &mut Node) {
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

    fn permute(&self, s: &mut Soa) {
        permute_soa(self.kernels.chacha, s);
    }

    /// Runs the F chains: `vals[i]` goes from chain position `start[i]` to
    /// `end[i]`, the step from position s using `masks[s]` (`None`: no mask,
    /// the HORST leaves). Chains are batched in order of their start, so a
    /// batch's chains run nearly the same steps.
    pub(crate) fn f_chains(
        &self,
        vals: &mut [Node],
        start: &[u8],
        end: &[u8],
        masks: Option<&[MaskWords]>,
    ) {
        debug_assert!(vals.len() == start.len() && vals.len() == end.len());
        let mut order: Vec<u32> = (0..vals.len() as u32).collect();
        if start.windows(2).any(|w| w[0] != w[1]) {
            order.sort_by_key(|&i| start[i as usize]);
        }
        let mut s: Soa = [[0; LANES]; 16];
        let mut cur = [[0u32; LANES]; 8];
        for batch in order.chunks(LANES) {
            let (mut lo, mut hi) = (u8::MAX, 0u8);
            for (lane, &i) in batch.iter().enumerate() {
                let i = i as usize;
                for (w, c) in cur.iter_mut().enumerate() {
                    c[lane] = word(&vals[i], w);
                }
                lo = lo.min(start[i]);
                hi = hi.max(end[i]);
            }
            for step in lo..hi {
                let zero = [0u32; 8];
                let m = masks.map_or(&zero, |m| &m[step as usize]);
                for w in 0..8 {
                    for lane in 0..LANES {
                        s[w][lane] = cur[w][lane] ^ m[w];
                    }
                    s[8 + w] = [C[w]; LANES];
                }
                self.permute(&mut s);
                for (lane, &i) in batch.iter().enumerate() {
                    let i = i as usize;
                    if start[i] <= step && step < end[i] {
                        for w in 0..8 {
                            cur[w][lane] = s[w][lane];
                        }
                    }
                }
            }
            for (lane, &i) in batch.iter().enumerate() {
                for (w, chunk) in vals[i as usize].chunks_exact_mut(4).enumerate() {
                    chunk.copy_from_slice(&cur[w][lane].to_le_bytes());
                }
            }
        }
    }

    /// `out[i] = H(left(i) ⊕ mask[0], right(i) ⊕ mask[1])` for i < `out.len()`:
    /// one tree level (or several trees' levels with the same masks).
    pub(crate) fn h_many<'a>(
        &self,
        pair: impl Fn(usize) -> (&'a Node, &'a Node),
        mask: &[MaskWords; 2],
        out: &mut [Node],
    ) {
        let mut s: Soa = [[0; LANES]; 16];
        for (b, outs) in out.chunks_mut(LANES).enumerate() {
            for lane in 0..outs.len() {
                let (l, _) = pair(b * LANES + lane);
                for w in 0..8 {
                    s[w][lane] = word(l, w) ^ mask[0][w];
                }
            }
            for w in 0..8 {
                s[8 + w] = [C[w]; LANES];
            }
            self.permute(&mut s);
            for lane in 0..outs.len() {
                let (_, r) = pair(b * LANES + lane);
                for w in 0..8 {
                    s[w][lane] ^= word(r, w) ^ mask[1][w];
                }
            }
            self.permute(&mut s);
            for (lane, o) in outs.iter_mut().enumerate() {
                put_words(&s, lane, o);
            }
        }
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
            for lane in 0..n {
                let (seed, blk) = ((j + lane) / blocks, (j + lane) % blocks);
                for (w, k) in keys.iter_mut().enumerate() {
                    k[lane] = word(&seeds[seed], w);
                }
                counters[lane] = first + blk as u64;
            }
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
