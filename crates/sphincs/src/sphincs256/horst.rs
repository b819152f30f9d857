//! HORST (the paper's §3.3; the reference's horst.c): t = 2^16 secret
//! elements from G(seed), leaves F(element) without a mask, tree level j
//! hashed with Q_2j ‖ Q_2j+1. The signature carries all 64 nodes of level 10
//! and, for each of the k = 32 indices, the element and its 10 lowest
//! authentication nodes.
//!
//! Signing builds the tree in 16 chunks of 2^12 leaves (each reduced to its
//! 4 level-10 nodes), so it holds 128 KiB rather than the reference's 4 MiB,
//! and the chunks are independent tasks for the signing threads.

use super::hash::{Hasher, Node};
use super::masks::Masks;
use super::params::{HORST_K, HORST_LOG_T, HORST_SIG_BYTES, HORST_T, HORST_TOP_LEVEL, N};
use crate::prelude::*;

const CHUNK_LOG: usize = 12;
const CHUNK: usize = 1 << CHUNK_LOG;
/// Chunks of the HORST tree, each one signing task.
pub(crate) const CHUNKS: usize = HORST_T / CHUNK;
const TOPS_PER_CHUNK: usize = 1 << (CHUNK_LOG - HORST_TOP_LEVEL);
const TOPS: usize = 1 << (HORST_LOG_T - HORST_TOP_LEVEL);
/// Bytes per revealed index: the element and its 10 authentication nodes.
const PART_BYTES: usize = N + HORST_TOP_LEVEL * N;

/// The k indices the digest selects: little-endian 16-bit words of D.
pub(crate) fn indices(digest: &[u8; 64]) -> [usize; HORST_K] {
    core::array::from_fn(|j| digest[2 * j] as usize | (digest[2 * j + 1] as usize) << 8)
}

/// What one chunk contributes to the signature.
pub(crate) struct ChunkOut {
    tops: [Node; TOPS_PER_CHUNK],
    /// (j, element ‖ authentication nodes) for each index j in this chunk.
    parts: Vec<(usize, [u8; PART_BYTES])>,
}

/// Builds chunk `chunk` of the tree of the key `seed`.
pub(crate) fn sign_chunk(
    h: &Hasher,
    seed: &Node,
    masks: &Masks,
    idx: &[usize; HORST_K],
    chunk: usize,
) -> ChunkOut {
    let first = chunk * CHUNK;
    // Level 1 straight from the keystream: G, the leaves F(element) and
    // their pairs fused.
    let mut level = vec![[0u8; N]; CHUNK / 2];
    h.g_chains_pairs(
        core::slice::from_ref(seed),
        first,
        CHUNK,
        1,
        None,
        &masks.pair(0),
        &mut level,
    );
    let mut parts: Vec<(usize, [u8; PART_BYTES])> = (0..HORST_K)
        .filter(|&j| idx[j] / CHUNK == chunk)
        .map(|j| {
            // The revealed element and its sibling leaf: their keystream block again.
            let (mut part, mut sibling) = ([0u8; PART_BYTES], [[0u8; N]]);
            let half = idx[j] % 2;
            h.g(
                core::slice::from_ref(seed),
                (idx[j] / 2) as u64,
                1,
                |_, _, bytes| {
                    part[..N].copy_from_slice(&bytes[half * N..(half + 1) * N]);
                    sibling[0].copy_from_slice(&bytes[(1 - half) * N..(2 - half) * N]);
                },
            );
            h.f_chains(&mut sibling, &[0], &[1], None);
            part[N..2 * N].copy_from_slice(&sibling[0]);
            (j, part)
        })
        .collect();
    let mut next = vec![[0u8; N]; CHUNK / 4];
    for l in 1..HORST_TOP_LEVEL {
        let width = CHUNK >> l;
        for (j, part) in parts.iter_mut() {
            let sibling = ((idx[*j] - first) >> l) ^ 1;
            part[N + l * N..N + (l + 1) * N].copy_from_slice(&level[sibling]);
        }
        level_up(h, masks, l, &mut level[..width], &mut next[..width / 2]);
    }
    ChunkOut {
        tops: core::array::from_fn(|i| level[i]),
        parts,
    }
}

/// Writes the HORST signature from the chunks (in chunk order) and returns
/// the HORST public key, the root.
pub(crate) fn assemble(h: &Hasher, masks: &Masks, chunks: &[&ChunkOut], sig: &mut [u8]) -> Node {
    debug_assert_eq!(sig.len(), HORST_SIG_BYTES);
    let (top_bytes, rest) = sig.split_at_mut(TOPS * N);
    let mut tops = [[0u8; N]; TOPS];
    for (c, out) in chunks.iter().enumerate() {
        tops[c * TOPS_PER_CHUNK..(c + 1) * TOPS_PER_CHUNK].copy_from_slice(&out.tops);
        for (j, part) in &out.parts {
            rest[j * PART_BYTES..(j + 1) * PART_BYTES].copy_from_slice(part);
        }
    }
    for (o, t) in top_bytes.chunks_exact_mut(N).zip(&tops) {
        o.copy_from_slice(t);
    }
    root_from_tops(h, masks, &tops)
}

/// One level up the tree: the first half of `level` becomes the hashes of
/// its nodes in pairs, with the masks of level `l` (`next`, half as long, is
/// scratch space).
fn level_up(h: &Hasher, masks: &Masks, l: usize, level: &mut [Node], next: &mut [Node]) {
    {
        let below = &*level;
        h.h_many(|i| (&below[2 * i], &below[2 * i + 1]), &masks.pair(l), next);
    }
    level[..next.len()].copy_from_slice(next);
}

/// The root over the 64 level-10 nodes.
fn root_from_tops(h: &Hasher, masks: &Masks, tops: &[Node; TOPS]) -> Node {
    let mut level = *tops;
    let mut next = [[0u8; N]; TOPS / 2];
    for l in HORST_TOP_LEVEL..HORST_LOG_T {
        let width = TOPS >> (l - HORST_TOP_LEVEL);
        level_up(h, masks, l, &mut level[..width], &mut next[..width / 2]);
    }
    level[0]
}

/// The HORST public key a signature implies, or `None` if an index's path
/// does not lead to the level-10 node the signature carries.
pub(crate) fn verify(h: &Hasher, sig: &[u8], digest: &[u8; 64], masks: &Masks) -> Option<Node> {
    let idx = indices(digest);
    let (top_bytes, rest) = sig.split_at(TOPS * N);
    let parts: Vec<&[u8]> = rest.chunks_exact(PART_BYTES).collect();
    let mut nodes: Vec<Node> = parts
        .iter()
        .map(|p| p[..N].try_into().expect("n bytes"))
        .collect();
    h.f_chains(&mut nodes, &[0; HORST_K], &[1; HORST_K], None);
    let mut next = [[0u8; N]; HORST_K];
    for l in 0..HORST_TOP_LEVEL {
        {
            let (nodes, parts) = (&nodes, &parts);
            h.h_many(
                |j| {
                    let sibling: &Node = parts[j][N + l * N..N + (l + 1) * N]
                        .try_into()
                        .expect("n bytes");
                    if (idx[j] >> l) & 1 == 1 {
                        (sibling, &nodes[j])
                    } else {
                        (&nodes[j], sibling)
                    }
                },
                &masks.pair(l),
                &mut next,
            );
        }
        nodes.copy_from_slice(&next);
    }
    let mut tops = [[0u8; N]; TOPS];
    for (t, b) in tops.iter_mut().zip(top_bytes.chunks_exact(N)) {
        t.copy_from_slice(b);
    }
    for (j, node) in nodes.iter().enumerate() {
        if *node != tops[idx[j] >> HORST_TOP_LEVEL] {
            return None;
        }
    }
    Some(root_from_tops(h, masks, &tops))
}
