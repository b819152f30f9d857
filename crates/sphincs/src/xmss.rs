//! XMSS trees (FIPS 205 §6, Algorithms 9–11).

use crate::address::{Adrs, AdrsType};
use crate::hash::{Node, TweakableHash, MULTI_LANE};
#[cfg(feature = "alloc")]
use crate::merkle::level_nodes;
use crate::merkle::{root_and_path, root_and_path_from_level, Tree};
use crate::params::{Instance, MAX_HP, MAX_N};
use crate::wots::{pkgen_leaves, wots_pk_from_sig, wots_pkgen_many, wots_sign, Resume};

/// One XMSS tree: the leaves are WOTS+ public keys.
struct XmssTree<'a, P> {
    adrs: Adrs,
    /// A signing key's chains to continue rather than recompute.
    resume: Option<&'a Resume>,
    _p: core::marker::PhantomData<P>,
}

impl<P: Instance> Tree<P::Hash> for XmssTree<'_, P> {
    fn leaves(&self, t: &P::Hash, first: u32, out: &mut [Node]) {
        let per = pkgen_leaves(P::PARAMS.wots_len());
        for (i, leaves) in out.chunks_mut(per).enumerate() {
            let at = first + (i * per) as u32;
            wots_pkgen_many::<P>(t, &self.adrs, at, leaves, self.resume);
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
        resume: None,
        _p: core::marker::PhantomData,
    };
    root_and_path(t, &tree, P::PARAMS.hp, 0, &mut auth, threads)
}

/// The nodes at height `level` of the tree at `adrs` (all `2^(h'−level)`
/// of them, into `out`), spread over `threads`: the part of Algorithm 9's
/// work a signing key of a one-tree set (SP 800-230, d = 1) keeps. Stops
/// early, `out` unfinished, once `stop` is set (see `level_nodes`).
#[cfg(feature = "alloc")]
pub(crate) fn xmss_level<P: Instance>(
    t: &P::Hash,
    adrs: &Adrs,
    level: usize,
    out: &mut [Node],
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
    stop: &core::sync::atomic::AtomicBool,
) {
    let tree = XmssTree::<P> {
        adrs: *adrs,
        resume: None,
        _p: core::marker::PhantomData,
    };
    level_nodes(t, &tree, level, out, threads, progress, stop);
}

/// The root (Algorithm 9) of the tree at `adrs` from its nodes at height `level`.
#[cfg(feature = "alloc")]
pub(crate) fn xmss_root_from_level<P: Instance>(
    t: &P::Hash,
    adrs: &Adrs,
    level: usize,
    nodes: &[Node],
) -> Node {
    let tree = XmssTree::<P> {
        adrs: *adrs,
        resume: None,
        _p: core::marker::PhantomData,
    };
    let upper = crate::merkle::Level {
        tree: &tree,
        nodes,
        level,
    };
    let mut auth = [[0u8; MAX_N]; MAX_HP];
    root_and_path(t, &upper, P::PARAMS.hp - level, 0, &mut auth, 1)
}

/// [`xmss_auth_path`] from the tree's nodes at height `level`: only the
/// subtree of `2^level` leaves holding `idx` is computed. `None` if that
/// subtree's root is not the kept node (a wrong cache, or a secret key that
/// is not the one the cache was made with).
pub(crate) fn xmss_auth_path_from_level<P: Instance>(
    t: &P::Hash,
    idx: u32,
    adrs: &Adrs,
    level: usize,
    nodes: &[Node],
    auth_out: &mut [u8],
) -> Option<Node> {
    let (n, hp) = (P::PARAMS.n, P::PARAMS.hp);
    let mut auth = [[0u8; MAX_N]; MAX_HP];
    let tree = XmssTree::<P> {
        adrs: *adrs,
        resume: None,
        _p: core::marker::PhantomData,
    };
    let (root, sub) = root_and_path_from_level(t, &tree, hp, level, nodes, idx, &mut auth);
    if sub[..n] != nodes[(idx >> level) as usize][..n] {
        return None;
    }
    for (chunk, node) in auth_out.chunks_exact_mut(n).zip(&auth[..hp]) {
        chunk.copy_from_slice(&node[..n]);
    }
    Some(root)
}

/// The tree half of `xmss_sign` (Algorithm 10): writes the authentication
/// path of leaf `idx` (`h'·n` bytes) to `auth_out` and returns the tree's root,
/// which the layer above signs (so Algorithm 11 need not recompute it). The
/// WOTS+ half is [`wots_sign`], run once the message (the root below) is known;
/// when it ran first, `resume` (its values) spares leaf `idx` the chain
/// steps it already took.
pub(crate) fn xmss_auth_path<P: Instance>(
    t: &P::Hash,
    idx: u32,
    adrs: &Adrs,
    auth_out: &mut [u8],
    resume: Option<&Resume>,
) -> Node {
    let (n, hp) = (P::PARAMS.n, P::PARAMS.hp);
    let mut auth = [[0u8; MAX_N]; MAX_HP];
    let tree = XmssTree::<P> {
        adrs: *adrs,
        resume,
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

/// `xmss_pkFromSig` (Algorithm 11) for up to `G` signatures side by side:
/// `out[j]` is the root that XMSS signature `sigs[j]` of `msgs[j]` by leaf
/// `idx[j]` implies for the tree at `adrs[j]` (layer and tree address set).
pub(crate) fn xmss_pk_from_sig<P: Instance, const G: usize>(
    t: &P::Hash,
    idx: &[u32],
    sigs: &[&[u8]],
    msgs: &[Node],
    adrs: &[Adrs],
    out: &mut [Node],
) {
    let p = P::PARAMS;
    let g = sigs.len();
    let split = p.wots_len() * p.n;
    let mut wots_sigs: [&[u8]; G] = [&[]; G];
    let mut auths: [&[u8]; G] = [&[]; G];
    let mut a = [Adrs::new(); G];
    for j in 0..g {
        (wots_sigs[j], auths[j]) = sigs[j].split_at(split);
        a[j] = adrs[j];
        a[j].set_type_and_clear(AdrsType::WotsHash);
        a[j].set_key_pair_address(idx[j]);
    }
    wots_pk_from_sig::<P, G>(t, &wots_sigs[..g], msgs, &a[..g], out);
    for a in &mut a[..g] {
        a.set_type_and_clear(AdrsType::Tree);
    }
    climb(t, &mut a[..g], &mut out[..g], idx, &auths[..g], p.n);
}

/// Most paths [`climb`] hashes in one batch: enough for every kernel's lanes
/// (one where there are no multi-lane kernels: less stack).
const CLIMB_LANES: usize = if MULTI_LANE { 16 } else { 1 };

/// Walks from leaves to roots along authentication paths (the loops of
/// Algorithms 11 and 17), the paths side by side: path `j` starts at
/// `nodes[j]`, leaf index `idx[j]`, with siblings `auth[j]` (n bytes per
/// level) and `adrs[j]` (type set; height and index written here), and
/// `nodes[j]` becomes its root.
pub(crate) fn climb<T: TweakableHash>(
    t: &T,
    adrs: &mut [Adrs],
    nodes: &mut [Node],
    idx: &[u32],
    auth: &[&[u8]],
    n: usize,
) {
    for (c, adrs) in adrs.chunks_mut(CLIMB_LANES).enumerate() {
        let first = c * CLIMB_LANES;
        let lanes = adrs.len();
        let mut index = [0u32; CLIMB_LANES];
        index[..lanes].copy_from_slice(&idx[first..first + lanes]);
        let mut cur = [[0u8; MAX_N]; CLIMB_LANES];
        cur[..lanes].copy_from_slice(&nodes[first..first + lanes]);
        let mut pairs = [[0u8; MAX_N]; 2 * CLIMB_LANES];
        for k in 0..auth[first].len() / n {
            for j in 0..lanes {
                let mut sibling = [0u8; MAX_N];
                sibling[..n].copy_from_slice(&auth[first + j][k * n..(k + 1) * n]);
                (pairs[2 * j], pairs[2 * j + 1]) = if index[j] & 1 == 0 {
                    (cur[j], sibling)
                } else {
                    (sibling, cur[j])
                };
                index[j] >>= 1;
                adrs[j].set_tree_height(k as u32 + 1);
                adrs[j].set_tree_index(index[j]);
            }
            // h_pairs halves in place: pair j's parent lands in pairs[j].
            t.h_pairs(adrs, &mut pairs[..2 * lanes]);
            cur[..lanes].copy_from_slice(&pairs[..lanes]);
        }
        nodes[first..first + lanes].copy_from_slice(&cur[..lanes]);
    }
}
