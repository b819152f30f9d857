//! XMSS trees (FIPS 205 §6, Algorithms 9–11).

use crate::address::{Adrs, AdrsType};
use crate::hash::{Node, TweakableHash};
use crate::merkle::{root_and_path, Tree};
use crate::params::{ParameterSet, MAX_HP, MAX_N};
use crate::wots::{wots_pk_from_sig, wots_pkgen, wots_sign};

/// One XMSS tree: the leaves are WOTS+ public keys.
struct XmssTree<P> {
    adrs: Adrs,
    _p: core::marker::PhantomData<P>,
}

impl<P: ParameterSet> Tree<P::Hash> for XmssTree<P> {
    fn leaves(&self, t: &P::Hash, first: u32, out: &mut [Node]) {
        for (i, leaf) in out.iter_mut().enumerate() {
            let mut a = self.adrs;
            a.set_type_and_clear(AdrsType::WotsHash);
            a.set_key_pair_address(first + i as u32);
            *leaf = wots_pkgen::<P>(t, &a);
        }
    }

    fn node_adrs(&self, z: u32, i: u32) -> Adrs {
        let mut a = self.adrs;
        a.set_type_and_clear(AdrsType::Tree);
        a.set_tree_height(z);
        a.set_tree_index(i);
        a
    }
}

/// `xmss_node(SK.seed, 0, h', PK.seed, ADRS)` (Algorithm 9) for the root of the
/// tree at `adrs` (layer and tree address set).
pub(crate) fn xmss_root<P: ParameterSet>(t: &P::Hash, adrs: &Adrs) -> Node {
    let mut auth = [[0u8; MAX_N]; MAX_HP];
    let tree = XmssTree::<P> {
        adrs: *adrs,
        _p: core::marker::PhantomData,
    };
    root_and_path(t, &tree, P::PARAMS.hp, 0, &mut auth)
}

/// `xmss_sign` (Algorithm 10): writes the WOTS+ signature of `msg` and the
/// authentication path of leaf `idx` to `sig`, and returns the tree's root,
/// which the hypertree signs next (so Algorithm 11 need not recompute it).
pub(crate) fn xmss_sign<P: ParameterSet>(
    t: &P::Hash,
    msg: &[u8],
    idx: u32,
    adrs: &Adrs,
    sig: &mut [u8],
) -> Node {
    let p = P::PARAMS;
    let (n, hp) = (p.n, p.hp);
    let mut auth = [[0u8; MAX_N]; MAX_HP];
    let tree = XmssTree::<P> {
        adrs: *adrs,
        _p: core::marker::PhantomData,
    };
    let root = root_and_path(t, &tree, hp, idx, &mut auth);
    let (wots_sig, auth_out) = sig.split_at_mut(p.wots_len() * n);
    let mut a = *adrs;
    a.set_type_and_clear(AdrsType::WotsHash);
    a.set_key_pair_address(idx);
    wots_sign::<P>(t, msg, &a, wots_sig);
    for (chunk, node) in auth_out.chunks_exact_mut(n).zip(&auth[..hp]) {
        chunk.copy_from_slice(&node[..n]);
    }
    root
}

/// `xmss_pkFromSig` (Algorithm 11): the root implied by an XMSS signature.
pub(crate) fn xmss_pk_from_sig<P: ParameterSet>(
    t: &P::Hash,
    idx: u32,
    sig: &[u8],
    msg: &[u8],
    adrs: &Adrs,
) -> Node {
    let p = P::PARAMS;
    let n = p.n;
    let (wots_sig, auth) = sig.split_at(p.wots_len() * n);
    let mut a = *adrs;
    a.set_type_and_clear(AdrsType::WotsHash);
    a.set_key_pair_address(idx);
    let leaf = wots_pk_from_sig::<P>(t, wots_sig, msg, &a);
    a.set_type_and_clear(AdrsType::Tree);
    climb(t, &mut a, leaf, idx, auth, n)
}

/// Walks from a leaf to the root along an authentication path (the loop of
/// Algorithms 11 and 17); `adrs` has its type set and receives height and index.
pub(crate) fn climb<T: TweakableHash>(
    t: &T,
    adrs: &mut Adrs,
    leaf: Node,
    idx: u32,
    auth: &[u8],
    n: usize,
) -> Node {
    let mut pair = [leaf, [0u8; MAX_N]];
    let mut index = idx;
    for (k, sibling) in auth.chunks_exact(n).enumerate() {
        adrs.set_tree_height(k as u32 + 1);
        let me = pair[0];
        if index & 1 == 0 {
            pair[1] = [0u8; MAX_N];
            pair[1][..n].copy_from_slice(sibling);
        } else {
            pair[0] = [0u8; MAX_N];
            pair[0][..n].copy_from_slice(sibling);
            pair[1] = me;
        }
        index /= 2;
        adrs.set_tree_index(index);
        t.h_pairs(core::slice::from_ref(adrs), &mut pair);
    }
    pair[0]
}
