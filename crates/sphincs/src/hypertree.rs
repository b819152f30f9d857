//! The hypertree (FIPS 205 §7, Algorithms 12–13): d layers of XMSS trees, each
//! signing the root of the tree below.

use crate::address::Adrs;
use crate::hash::Node;
use crate::params::ParameterSet;
use crate::xmss::{xmss_pk_from_sig, xmss_sign};

/// Splits off the leaf index of the next layer up (the loop head of Algorithms 12 and 13).
fn next_layer(idx_tree: u64, hp: usize) -> (u64, u32) {
    let leaf = (idx_tree & ((1u64 << hp) - 1)) as u32;
    (idx_tree >> hp, leaf)
}

/// `ht_sign` (Algorithm 12): signs the n-byte `msg` with the hypertree path
/// from leaf `idx_leaf` of tree `idx_tree`, writing `d` XMSS signatures to `sig`.
pub(crate) fn ht_sign<P: ParameterSet>(
    t: &P::Hash,
    msg: &Node,
    mut idx_tree: u64,
    mut idx_leaf: u32,
    sig: &mut [u8],
) {
    let p = P::PARAMS;
    let mut adrs = Adrs::new();
    let mut root = *msg;
    for (layer, part) in sig.chunks_exact_mut(p.xmss_sig_bytes()).enumerate() {
        if layer > 0 {
            (idx_tree, idx_leaf) = next_layer(idx_tree, p.hp);
        }
        adrs.set_layer_address(layer as u32);
        adrs.set_tree_address(idx_tree);
        root = xmss_sign::<P>(t, &root[..p.n], idx_leaf, &adrs, part);
        // Public: the verifier recomputes this root from the signature
        // (Algorithm 11); the next layer's WOTS+ chain lengths are its digits.
        crate::ct_check::declassify(&mut root[..p.n]);
    }
}

/// `ht_verify` (Algorithm 13): whether `sig` is a hypertree signature of `msg` under `pk_root`.
pub(crate) fn ht_verify<P: ParameterSet>(
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
