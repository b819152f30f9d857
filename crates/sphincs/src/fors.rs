//! FORS few-time signatures (FIPS 205 §8, Algorithms 14–17).

use crate::address::{Adrs, AdrsType};
use crate::bits::base_2b;
use crate::hash::{Node, TweakableHash};
use crate::merkle::{root_and_path, Tree, CHUNK};
use crate::params::{ParameterSet, MAX_A, MAX_K, MAX_N};
use crate::xmss::climb;

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

/// The k leaf indices encoded in `md`.
fn indices<P: ParameterSet>(md: &[u8]) -> [u32; MAX_K] {
    let mut idx = [0u32; MAX_K];
    base_2b(md, P::PARAMS.a, &mut idx[..P::PARAMS.k]);
    idx
}

/// Compresses the k FORS roots into the FORS public key (end of Algorithm 17).
fn compress<P: ParameterSet>(t: &P::Hash, adrs: &Adrs, roots: &[Node]) -> Node {
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(AdrsType::ForsRoots);
    pk_adrs.set_key_pair_address(adrs.key_pair_address());
    crate::hash::t_l(t, &pk_adrs, roots)
}

/// `fors_sign` (Algorithm 16): writes the FORS signature of `md` to `sig` and
/// returns the FORS public key, the roots falling out of the same tree walks
/// (so `fors_pkFromSig` need not run when signing).
pub(crate) fn fors_sign<P: ParameterSet>(
    t: &P::Hash,
    md: &[u8],
    adrs: &Adrs,
    sig: &mut [u8],
) -> Node {
    let p = P::PARAMS;
    let (n, a, k) = (p.n, p.a, p.k);
    let idx = indices::<P>(md);
    let mut roots = [[0u8; MAX_N]; MAX_K];
    let mut auth = [[0u8; MAX_N]; MAX_A];
    for (i, part) in sig.chunks_exact_mut((a + 1) * n).enumerate().take(k) {
        let tree = ForsTree {
            adrs: *adrs,
            tree: i as u32,
            a,
        };
        let mut sk = [[0u8; MAX_N]];
        t.prf_batch(&[tree.sk_adrs(((i as u32) << a) + idx[i])], &mut sk);
        part[..n].copy_from_slice(&sk[0][..n]);
        roots[i] = root_and_path(t, &tree, a, idx[i], &mut auth);
        for (chunk, node) in part[n..].chunks_exact_mut(n).zip(&auth[..a]) {
            chunk.copy_from_slice(&node[..n]);
        }
    }
    compress::<P>(t, adrs, &roots[..k])
}

/// `fors_pkFromSig` (Algorithm 17): the FORS public key a signature implies.
pub(crate) fn fors_pk_from_sig<P: ParameterSet>(
    t: &P::Hash,
    sig: &[u8],
    md: &[u8],
    adrs: &Adrs,
) -> Node {
    let p = P::PARAMS;
    let (n, a, k) = (p.n, p.a, p.k);
    let idx = indices::<P>(md);
    let mut roots = [[0u8; MAX_N]; MAX_K];
    for (i, part) in sig.chunks_exact((a + 1) * n).enumerate().take(k) {
        let leaf_idx = ((i as u32) << a) + idx[i];
        let mut a_leaf = *adrs;
        a_leaf.set_tree_height(0);
        a_leaf.set_tree_index(leaf_idx);
        let mut leaf = [0u8; MAX_N];
        leaf[..n].copy_from_slice(&part[..n]);
        crate::hash::f(t, &a_leaf, &mut leaf);
        roots[i] = climb(t, &mut a_leaf, leaf, leaf_idx, &part[n..], n);
    }
    compress::<P>(t, adrs, &roots[..k])
}
