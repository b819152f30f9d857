//! The hypertree (FIPS 205 §7, Algorithms 12–13): d layers of XMSS trees, each
//! signing the root of the tree below.

use crate::address::Adrs;
use crate::hash::Node;
use crate::params::Instance;
use crate::xmss::xmss_pk_from_sig;

/// Splits off the leaf index of the next layer up (the loop head of Algorithms 12 and 13).
pub(crate) fn next_layer(idx_tree: u64, hp: usize) -> (u64, u32) {
    let leaf = (idx_tree & ((1u64 << hp) - 1)) as u32;
    (idx_tree >> hp, leaf)
}

/// `ht_verify` (Algorithm 13): whether `sig` is a hypertree signature of `msg` under `pk_root`.
pub(crate) fn ht_verify<P: Instance>(
    t: &P::Hash,
    msg: &Node,
    sig: &[u8],
    mut idx_tree: u64,
    mut idx_leaf: u32,
    pk_root: &[u8],
) -> bool {
    let p = P::PARAMS;
    let mut adrs = Adrs::new();
    let mut node = *msg;
    for (layer, part) in sig.chunks_exact(p.xmss_sig_bytes()).enumerate() {
        if layer > 0 {
            (idx_tree, idx_leaf) = next_layer(idx_tree, p.hp);
        }
        adrs.set_layer_address(layer as u32);
        adrs.set_tree_address(idx_tree);
        node = xmss_pk_from_sig::<P>(t, idx_leaf, part, &node[..p.n], &adrs);
    }
    node[..p.n] == *pk_root
}
