//! Root and authentication path of a Merkle tree, level by level, without
//! holding all leaves: shared by XMSS (Algorithms 9–10) and FORS (14–16).
//!
//! Leaves are made in chunks of at most 2^CHUNK_LOG; each chunk is reduced to
//! its root, and the chunk roots form the upper levels. Peak memory is two
//! arrays of 2^CHUNK_LOG nodes whatever the tree height (≤ 2·CHUNK_LOG).

use crate::address::Adrs;
use crate::hash::{Node, TweakableHash};
use crate::params::{MAX_A, MAX_N};

const CHUNK_LOG: usize = 7;
/// Most leaves a [`Tree::leaves`] call is asked for at once.
pub(crate) const CHUNK: usize = 1 << CHUNK_LOG;
const _: () = assert!(MAX_A <= 2 * CHUNK_LOG, "upper levels must fit one chunk");

/// How a tree makes its leaves and addresses its inner nodes.
pub(crate) trait Tree<T: TweakableHash> {
    /// Fills `out` with the leaves `first .. first + out.len()`.
    fn leaves(&self, t: &T, first: u32, out: &mut [Node]);
    /// The address of the node at height `z` (≥ 1) and index `i` within this tree.
    fn node_adrs(&self, z: u32, i: u32) -> Adrs;
}

/// The root of a tree of height `height`, and into `auth[..height]` the
/// authentication path of leaf `idx`.
pub(crate) fn root_and_path<T: TweakableHash>(
    t: &T,
    tree: &impl Tree<T>,
    height: usize,
    idx: u32,
    auth: &mut [Node],
) -> Node {
    let low = height.min(CHUNK_LOG);
    let chunks = 1usize << (height - low);
    let mut tops = [[0u8; MAX_N]; CHUNK];
    let mut level = [[0u8; MAX_N]; CHUNK];
    for (c, top) in tops.iter_mut().enumerate().take(chunks) {
        let first = (c << low) as u32;
        tree.leaves(t, first, &mut level[..1 << low]);
        let holds_idx = (idx >> low) as usize == c;
        reduce(
            t,
            tree,
            &mut level,
            low,
            0,
            first,
            holds_idx.then_some(idx),
            auth,
        );
        *top = level[0];
    }
    reduce(t, tree, &mut tops, height - low, low, 0, Some(idx), auth);
    tops[0]
}

/// Hashes `nodes[..2^levels]`, the nodes at height `z0` starting at index
/// `first`, up `levels` levels into `nodes[0]`, recording the siblings on the
/// path of leaf `idx` (if it lies below) into `auth`.
#[allow(clippy::too_many_arguments)]
fn reduce<T: TweakableHash>(
    t: &T,
    tree: &impl Tree<T>,
    nodes: &mut [Node; CHUNK],
    levels: usize,
    z0: usize,
    first: u32,
    idx: Option<u32>,
    auth: &mut [Node],
) {
    let mut adrs = [Adrs::new(); CHUNK / 2];
    for l in 0..levels {
        let z = z0 + l;
        let width = 1usize << (levels - l);
        let base = first >> l;
        if let Some(idx) = idx {
            let sibling = ((idx >> z) ^ 1) - base;
            auth[z] = nodes[sibling as usize];
        }
        for (i, a) in adrs.iter_mut().enumerate().take(width / 2) {
            *a = tree.node_adrs((z + 1) as u32, (base >> 1) + i as u32);
        }
        t.h_pairs(&adrs[..width / 2], &mut nodes[..width]);
    }
}
