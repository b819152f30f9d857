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

/// `ht_verify` (Algorithm 13) for up to `G` signatures under one key, side
/// by side: `ok[j]` says whether `sigs[j]` is a hypertree signature of
/// `msgs[j]` at `idx_tree[j]`, `idx_leaf[j]` under `pk_root`.
pub(crate) fn ht_verify<P: Instance, const G: usize>(
    t: &P::Hash,
    msgs: &[Node],
    sigs: &[&[u8]],
    idx_tree: &[u64],
    idx_leaf: &[u32],
    pk_root: &[u8],
    ok: &mut [bool],
) {
    let p = P::PARAMS;
    let g = sigs.len();
    let mut node = [[0u8; crate::params::MAX_N]; G];
    node[..g].copy_from_slice(&msgs[..g]);
    let mut tree = [0u64; G];
    let mut leaf = [0u32; G];
    tree[..g].copy_from_slice(&idx_tree[..g]);
    leaf[..g].copy_from_slice(&idx_leaf[..g]);
    let mut adrs = [Adrs::new(); G];
    let mut parts: [&[u8]; G] = [&[]; G];
    let mut roots = [[0u8; crate::params::MAX_N]; G];
    for layer in 0..p.d {
        for j in 0..g {
            if layer > 0 {
                (tree[j], leaf[j]) = next_layer(tree[j], p.hp);
            }
            adrs[j] = Adrs::new();
            adrs[j].set_layer_address(layer as u32);
            adrs[j].set_tree_address(tree[j]);
            let size = p.xmss_sig_bytes();
            parts[j] = &sigs[j][layer * size..(layer + 1) * size];
        }
        xmss_pk_from_sig::<P, G>(
            t,
            &leaf[..g],
            &parts[..g],
            &node[..g],
            &adrs[..g],
            &mut roots[..g],
        );
        node[..g].copy_from_slice(&roots[..g]);
    }
    for j in 0..g {
        ok[j] = node[j][..p.n] == *pk_root;
    }
}
