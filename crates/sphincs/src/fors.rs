//! FORS few-time signatures (FIPS 205 §8, Algorithms 14–17).

use zeroize::Zeroize;

use crate::address::{Adrs, AdrsType};
use crate::bits::{base_2b, base_2b_lsb_first};
use crate::hash::{Node, TweakableHash};
use crate::merkle::{root_and_path, Tree, CHUNK};
use crate::params::{IndexOrder, Instance, MAX_A, MAX_K, MAX_N};

/// FORS tree number `tree` of the FORS key at `adrs` (type FORS_TREE, key pair set).
struct ForsTree {
    adrs: Adrs,
    tree: u32,
    a: usize,
}

impl ForsTree {
    /// `fors_skGen` (Algorithm 14) address for leaf `idx` of the whole FORS key.
    fn sk_adrs(&self, idx: u32) -> Adrs {
        let mut sk = self.adrs;
        sk.set_type_and_clear(AdrsType::ForsPrf);
        sk.set_key_pair_address(self.adrs.key_pair_address());
        sk.set_tree_index(idx);
        sk
    }
}

impl<T: TweakableHash> Tree<T> for ForsTree {
    /// The leaf branch of `fors_node` (Algorithm 15): F of each secret value.
    fn leaves(&self, t: &T, first: u32, out: &mut [Node]) {
        let mut adrs = [Adrs::new(); CHUNK];
        let base = (self.tree << self.a) + first;
        for (i, a) in adrs.iter_mut().enumerate().take(out.len()) {
            *a = self.sk_adrs(base + i as u32);
        }
        t.prf_batch(&adrs[..out.len()], out);
        for (i, a) in adrs.iter_mut().enumerate().take(out.len()) {
            *a = self.adrs;
            a.set_tree_height(0);
            a.set_tree_index(base + i as u32);
        }
        t.f_batch(&adrs[..out.len()], out);
    }

    /// The inner branch of `fors_node`: tree indices run across all k trees.
    fn node_adrs(&self, z: u32, i: u32) -> Adrs {
        let mut a = self.adrs;
        a.set_tree_height(z);
        a.set_tree_index((self.tree << (self.a as u32 - z)) + i);
        a
    }
}

/// The k leaf indices encoded in `md`, read in the set's [`IndexOrder`].
pub(crate) fn fors_indices<P: Instance>(md: &[u8]) -> [u32; MAX_K] {
    let mut idx = [0u32; MAX_K];
    let out = &mut idx[..P::PARAMS.k];
    match P::INDEX_ORDER {
        IndexOrder::Fips205 => base_2b(md, P::PARAMS.a, out),
        IndexOrder::Round31 => base_2b_lsb_first(md, P::PARAMS.a, out),
    }
    idx
}

/// Compresses the k FORS roots into the FORS public key (end of Algorithms 16 and 17).
pub(crate) fn fors_pk<P: Instance>(t: &P::Hash, adrs: &Adrs, roots: &[Node]) -> Node {
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(AdrsType::ForsRoots);
    pk_adrs.set_key_pair_address(adrs.key_pair_address());
    crate::hash::t_l(t, &pk_adrs, roots)
}

/// `fors_sign` (Algorithm 16) for tree `i` alone, revealing leaf `leaf` of it:
/// writes the secret value and authentication path (`(a+1)·n` bytes) to
/// `part` and returns the tree's root, which [`fors_pk`] compresses with the
/// others (so `fors_pkFromSig` need not run when signing). The trees are
/// independent, which lets a signature spread them over threads.
pub(crate) fn fors_sign_tree<P: Instance>(
    t: &P::Hash,
    adrs: &Adrs,
    i: usize,
    leaf: u32,
    part: &mut [u8],
) -> Node {
    let (n, a) = (P::PARAMS.n, P::PARAMS.a);
    let tree = ForsTree {
        adrs: *adrs,
        tree: i as u32,
        a,
    };
    let mut sk = [[0u8; MAX_N]];
    t.prf_batch(&[tree.sk_adrs(((i as u32) << a) + leaf)], &mut sk);
    part[..n].copy_from_slice(&sk[0][..n]);
    sk.zeroize();
    let mut auth = [[0u8; MAX_N]; MAX_A];
    let root = root_and_path(t, &tree, a, leaf, &mut auth, 1);
    for (chunk, node) in part[n..].chunks_exact_mut(n).zip(&auth[..a]) {
        chunk.copy_from_slice(&node[..n]);
    }
    root
}

/// `fors_pkFromSig` (Algorithm 17): the FORS public key a signature implies.
/// The k paths climb together: one batch of k F calls for the leaves, then
/// one batch of k H calls per level.
pub(crate) fn fors_pk_from_sig<P: Instance>(
    t: &P::Hash,
    sig: &[u8],
    md: &[u8],
    adrs: &Adrs,
) -> Node {
    let p = P::PARAMS;
    let (n, a, k) = (p.n, p.a, p.k);
    let leaves = fors_indices::<P>(md);
    let part = (a + 1) * n;
    let mut index = [0u32; MAX_K];
    let mut batch_adrs = [*adrs; MAX_K];
    let mut nodes = [[0u8; MAX_N]; MAX_K];
    for i in 0..k {
        index[i] = ((i as u32) << a) + leaves[i];
        batch_adrs[i].set_tree_height(0);
        batch_adrs[i].set_tree_index(index[i]);
        nodes[i][..n].copy_from_slice(&sig[i * part..i * part + n]);
    }
    t.f_batch(&batch_adrs[..k], &mut nodes[..k]);
    let mut pairs = [[0u8; MAX_N]; 2 * MAX_K];
    for z in 0..a {
        for i in 0..k {
            let at = i * part + (z + 1) * n;
            let mut sibling = [0u8; MAX_N];
            sibling[..n].copy_from_slice(&sig[at..at + n]);
            let (l, r) = if index[i] & 1 == 0 {
                (nodes[i], sibling)
            } else {
                (sibling, nodes[i])
            };
            (pairs[2 * i], pairs[2 * i + 1]) = (l, r);
            index[i] >>= 1;
            batch_adrs[i].set_tree_height(z as u32 + 1);
            batch_adrs[i].set_tree_index(index[i]);
        }
        t.h_pairs(&batch_adrs[..k], &mut pairs[..2 * k]);
        nodes[..k].copy_from_slice(&pairs[..k]);
    }
    fors_pk::<P>(t, adrs, &nodes[..k])
}
