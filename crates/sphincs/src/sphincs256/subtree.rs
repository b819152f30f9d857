//! The subtrees of the hypertree: 32 leaves (L-tree roots of WOTS+ public
//! keys), five levels, level j hashed with masks Q_14+2j ‖ Q_15+2j.

use super::hash::{Hasher, Node};
use super::ltree::ltree_from;
use super::masks::Masks;
use super::params::{N, SUBTREE_HEIGHT, SUBTREE_LEAVES};
use super::seed::address_seed;
use super::wots::{pk_gen_paired, PAIRED_LEN};
use crate::prelude::*;

/// Every node of a subtree: the 32 leaves, then 16 nodes of level 1, … and
/// the root last.
pub(crate) type SubtreeNodes = [Node; 2 * SUBTREE_LEAVES - 1];

/// Where level `j` starts in [`SubtreeNodes`].
const fn level_offset(j: usize) -> usize {
    2 * SUBTREE_LEAVES - ((2 * SUBTREE_LEAVES) >> j)
}

/// Builds subtree `subtree` of layer `level`: the 32 WOTS+ keys' chains in
/// one batch, their L-trees level by level together, then the tree.
pub(crate) fn build(
    h: &Hasher,
    sk1: &[u8],
    masks: &Masks,
    level: u64,
    subtree: u64,
) -> Box<SubtreeNodes> {
    let seeds: Vec<Node> = (0..SUBTREE_LEAVES as u64)
        .map(|leaf| address_seed(sk1, level, subtree, leaf))
        .collect();
    let mut pks = pk_gen_paired(h, &seeds, masks);
    let mut nodes = Box::new([[0u8; N]; 2 * SUBTREE_LEAVES - 1]);
    ltree_from(
        h,
        &mut pks,
        PAIRED_LEN,
        1,
        masks,
        &mut nodes[..SUBTREE_LEAVES],
    );
    for j in 0..SUBTREE_HEIGHT {
        let (below, above) = nodes.split_at_mut(level_offset(j + 1));
        let below = &below[level_offset(j)..];
        let width = SUBTREE_LEAVES >> (j + 1);
        h.h_many(
            |i| (&below[2 * i], &below[2 * i + 1]),
            &masks.subtree(j),
            &mut above[..width],
        );
    }
    nodes
}

/// The root of a built subtree.
pub(crate) fn root(nodes: &SubtreeNodes) -> Node {
    nodes[2 * SUBTREE_LEAVES - 2]
}

/// The authentication path of `leaf`, leaf level first, into `out` (5 × 32 bytes).
pub(crate) fn auth_path(nodes: &SubtreeNodes, leaf: usize, out: &mut [u8]) {
    for (j, o) in out.chunks_exact_mut(N).enumerate().take(SUBTREE_HEIGHT) {
        o.copy_from_slice(&nodes[level_offset(j) + ((leaf >> j) ^ 1)]);
    }
}

/// The root that `node` at `leaf` and its authentication path imply.
pub(crate) fn root_from_path(
    h: &Hasher,
    mut node: Node,
    leaf: usize,
    path: &[u8],
    masks: &Masks,
) -> Node {
    for (j, sibling) in path.chunks_exact(N).enumerate().take(SUBTREE_HEIGHT) {
        let sibling: &Node = sibling.try_into().expect("n bytes");
        let cur = node;
        let pair = if (leaf >> j) & 1 == 1 {
            (sibling, &cur)
        } else {
            (&cur, sibling)
        };
        h.h_many(
            |_| pair,
            &masks.subtree(j),
            core::slice::from_mut(&mut node),
        );
    }
    node
}
