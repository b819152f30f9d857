//! XMSS trees (FIPS 205 §6, Algorithms 9–11).

use crate::address::{Adrs, AdrsType};
use crate::hash::{Node, TweakableHash};
use crate::merkle::{root_and_path, Tree};
use crate::params::{Instance, MAX_HP, MAX_N};
use crate::wots::{wots_pk_from_sig, wots_pkgen_many, wots_sign, PKGEN_LEAVES};

/// One XMSS tree: the leaves are WOTS+ public keys.
struct XmssTree<P> {
    adrs: Adrs,
    _p: core::marker::PhantomData<P>,
}

impl<P: Instance> Tree<P::Hash> for XmssTree<P> {
    fn leaves(&self, t: &P::Hash, first: u32, out: &mut [Node]) {
        for (i, leaves) in out.chunks_mut(PKGEN_LEAVES).enumerate() {
            let at = first + (i * PKGEN_LEAVES) as u32;
            wots_pkgen_many::<P>(t, &self.adrs, at, leaves);
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
/// tree at `adrs` (layer and tree address set), its leaves spread over `threads`.
pub(crate) fn xmss_root<P: Instance>(t: &P::Hash, adrs: &Adrs, threads: usize) -> Node {
    let mut auth = [[0u8; MAX_N]; MAX_HP];
    let tree = XmssTree::<P> {
        adrs: *adrs,
        _p: core::marker::PhantomData,
    };
    root_and_path(t, &tree, P::PARAMS.hp, 0, &mut auth, threads)
}

/// The tree half of `xmss_sign` (Algorithm 10): writes the authentication
/// path of leaf `idx` (`h'·n` bytes) to `auth_out` and returns the tree's root,
/// which the layer above signs (so Algorithm 11 need not recompute it). The
/// WOTS+ half is [`wots_sign`], run once the message (the root below) is known.
pub(crate) fn xmss_auth_path<P: Instance>(
    t: &P::Hash,
    idx: u32,
    adrs: &Adrs,
    auth_out: &mut [u8],
) -> Node {
    let (n, hp) = (P::PARAMS.n, P::PARAMS.hp);
    let mut auth = [[0u8; MAX_N]; MAX_HP];
    let tree = XmssTree::<P> {
        adrs: *adrs,
        _p: core::marker::PhantomData,
    };
    let root = root_and_path(t, &tree, hp, idx, &mut auth, 1);
    for (chunk, node) in auth_out.chunks_exact_mut(n).zip(&auth[..hp]) {
        chunk.copy_from_slice(&node[..n]);
    }
    root
}

/// The WOTS+ half of `xmss_sign` (Algorithm 10): signs `msg` with key `idx`
/// of the tree at `adrs`, writing `len·n` bytes to `sig`.
pub(crate) fn xmss_wots_sign<P: Instance>(
    t: &P::Hash,
    msg: &[u8],
    idx: u32,
    adrs: &Adrs,
    sig: &mut [u8],
) {
    let mut a = *adrs;
    a.set_type_and_clear(AdrsType::WotsHash);
    a.set_key_pair_address(idx);
    wots_sign::<P>(t, msg, &a, sig);
}

/// `xmss_pkFromSig` (Algorithm 11): the root implied by an XMSS signature.
pub(crate) fn xmss_pk_from_sig<P: Instance>(
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
