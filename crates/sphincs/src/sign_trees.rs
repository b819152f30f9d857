//! The tree work of one signature, `fors_sign` (FIPS 205 Algorithm 16) and
//! `ht_sign` (Algorithm 12), split over threads.
//!
//! Once the digest is known, every FORS tree and every hypertree layer's XMSS
//! tree is fixed, so their roots and authentication paths can be computed
//! independently. Each layer's WOTS+ signature needs only the root below it
//! (the FORS key for layer 0). On one thread the trees come first, then the
//! WOTS+ signatures, all on the caller's stack. On several, the threads take
//! tasks from one shared queue (the XMSS trees, the FORS trees, then the
//! WOTS+ signatures, each of which waits for the root it signs), so no thread
//! idles while another still has a tree to compute. The result is the same
//! whatever the thread count.
//!
//! The same tasks also run one at a time, each on its own ([`tree_task`]),
//! and [`finish_trees`] makes the WOTS+ signatures from their outputs: one
//! signature spread over processes that share no memory (Web Workers).

use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::sync::{scope, Condvar, Mutex, MutexGuard};

use crate::address::{Adrs, AdrsType};
use crate::error::Error;
use crate::fors::{fors_indices, fors_pk, fors_sign_tree};
use crate::hash::Node;
use crate::hypertree::next_layer;
#[cfg(feature = "alloc")]
use crate::params::Params;
use crate::params::{Instance, MAX_D, MAX_K, MAX_N};
use crate::tree_cache::CACHE_LEVEL;
use crate::wots::Resume;
use crate::xmss::{xmss_auth_path, xmss_auth_path_from_level, xmss_wots_sign};

/// Where each layer's tree and signing leaf are (the loop head of Algorithm 12).
fn layer_positions<P: Instance>(mut idx_tree: u64, mut idx_leaf: u32) -> [(u64, u32); MAX_D] {
    let mut pos = [(0, 0); MAX_D];
    for (layer, p) in pos.iter_mut().enumerate().take(P::PARAMS.d) {
        if layer > 0 {
            (idx_tree, idx_leaf) = next_layer(idx_tree, P::PARAMS.hp);
        }
        *p = (idx_tree, idx_leaf);
    }
    pos
}

fn layer_adrs(layer: usize, idx_tree: u64) -> Adrs {
    let mut adrs = Adrs::new();
    adrs.set_layer_address(layer as u32);
    adrs.set_tree_address(idx_tree);
    adrs
}

/// The work of one signature's trees, shared by the threads that sign it.
struct Trees<'a, P: Instance> {
    t: &'a P::Hash,
    md: &'a [u8],
    fors_adrs: Adrs,
    pos: [(u64, u32); MAX_D],
    /// The kept nodes of a one-tree set's XMSS tree (draft SP 800-230).
    cache: Option<&'a [Node]>,
    /// Set when the subtree computed from SK.seed is not the kept node: the
    /// secret key is not the one the (validated) cache belongs to.
    mismatch: AtomicBool,
    /// Test-only: this computation is the faulted one (asked on the calling
    /// thread, whose fault injection is armed, not on a worker).
    #[cfg(test)]
    fault: bool,
}

impl<'a, P: Instance> Trees<'a, P> {
    /// The trees of the digest split into `md`, `idx_tree`, `idx_leaf`.
    fn new(
        t: &'a P::Hash,
        md: &'a [u8],
        idx_tree: u64,
        idx_leaf: u32,
        cache: Option<&'a [Node]>,
    ) -> Self {
        let mut fors_adrs = Adrs::new();
        fors_adrs.set_tree_address(idx_tree);
        fors_adrs.set_type_and_clear(AdrsType::ForsTree);
        fors_adrs.set_key_pair_address(idx_leaf);
        Trees {
            t,
            md,
            fors_adrs,
            pos: layer_positions::<P>(idx_tree, idx_leaf),
            cache,
            mismatch: AtomicBool::new(false),
            #[cfg(test)]
            fault: crate::slh_dsa::fault_injection::fires(),
        }
    }

    /// FORS tree `i`: writes its part of `SIG_FORS`, returns its root.
    fn fors_tree(&self, i: usize, part: &mut [u8]) -> Node {
        let leaves = fors_indices::<P>(self.md);
        fors_sign_tree::<P>(self.t, &self.fors_adrs, i, leaves[i], part)
    }

    /// The XMSS tree of `layer`: writes its authentication path, returns its
    /// root; `resume`: the layer's WOTS+ signature, already made.
    fn xmss_tree(&self, layer: usize, auth: &mut [u8], resume: Option<&Resume>) -> Node {
        let (tree, leaf) = self.pos[layer];
        let adrs = layer_adrs(layer, tree);
        let mut root = match self.cache {
            Some(nodes) if P::PARAMS.d == 1 => {
                xmss_auth_path_from_level::<P>(self.t, leaf, &adrs, CACHE_LEVEL, nodes, auth)
                    .unwrap_or_else(|| {
                        self.mismatch.store(true, Ordering::Relaxed);
                        [0u8; MAX_N]
                    })
            }
            _ => xmss_auth_path::<P>(self.t, leaf, &adrs, auth, resume),
        };
        // Public: the verifier recomputes this root from the signature
        // (Algorithm 11); the next layer's WOTS+ chain lengths are its digits.
        crate::ct_check::declassify(&mut root[..P::PARAMS.n]);
        root
    }

    /// The FORS key from the k roots (the end of Algorithm 16).
    fn fors_key(&self, roots: &[Node]) -> Node {
        let mut pk_fors = fors_pk::<P>(self.t, &self.fors_adrs, roots);
        #[cfg(test)]
        if self.fault {
            // A fault in the FORS key that the hypertree signs: the bottom WOTS+
            // key then signs a second value, the grafting-tree scenario.
            pk_fors[0] ^= 1;
        }
        // Public: the verifier recomputes PK_FORS from the signature (Algorithm 17);
        // the bottom layer's WOTS+ chain lengths are its base-w digits.
        crate::ct_check::declassify(&mut pk_fors[..P::PARAMS.n]);
        pk_fors
    }

    /// The WOTS+ signature of `layer` on `msg` (the root below it).
    fn wots(&self, layer: usize, msg: &Node, part: &mut [u8]) {
        let (tree, leaf) = self.pos[layer];
        let n = P::PARAMS.n;
        xmss_wots_sign::<P>(self.t, &msg[..n], leaf, &layer_adrs(layer, tree), part);
    }

    /// [`wots`](Self::wots), and where its chains stopped, for the layer's
    /// tree to continue.
    fn wots_resume(&self, layer: usize, msg: &Node, part: &mut [u8]) -> Resume {
        self.wots(layer, msg, part);
        Resume::from_signature::<P>(self.pos[layer].1, &msg[..P::PARAMS.n], part)
    }
}

/// Writes `SIG_FORS` and `SIG_HT` for the digest split into `md`, `idx_tree`,
/// `idx_leaf` (`fors_sign`, Algorithm 16, and `ht_sign`, Algorithm 12),
/// using up to `threads` threads; a one-tree set's XMSS tree comes from
/// `cache` when given ([`Error::KeyMismatch`] if the secret key disagrees).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fors_and_ht_sign<P: Instance>(
    t: &P::Hash,
    md: &[u8],
    idx_tree: u64,
    idx_leaf: u32,
    sig_fors: &mut [u8],
    sig_ht: &mut [u8],
    threads: usize,
    cache: Option<&[Node]>,
) -> Result<(), Error> {
    let p = P::PARAMS;
    let (k, d) = (p.k, p.d);
    let trees = Trees::<P>::new(t, md, idx_tree, idx_leaf, cache);
    let (fors_part, xmss_part, wots_bytes) =
        ((p.a + 1) * p.n, p.xmss_sig_bytes(), p.wots_len() * p.n);
    if threads <= 1 {
        let mut roots = [[0u8; MAX_N]; MAX_K];
        for (i, part) in sig_fors.chunks_exact_mut(fors_part).enumerate() {
            roots[i] = trees.fors_tree(i, part);
        }
        let mut msg = trees.fors_key(&roots[..k]);
        // Each layer's message is known before its tree is built: the
        // WOTS+ signature first, and the tree continues its chains.
        for (layer, part) in sig_ht.chunks_exact_mut(xmss_part).enumerate() {
            let (wots, auth) = part.split_at_mut(wots_bytes);
            let resume = trees.wots_resume(layer, &msg, wots);
            msg = trees.xmss_tree(layer, auth, Some(&resume));
        }
        return trees.outcome();
    }
    // Task j < d: the XMSS tree of layer j (the largest first); d + i < d + k:
    // FORS tree i; d + k + j: the WOTS+ signature of layer j, which waits for
    // the root it signs (layer 0 for all k FORS roots).
    let fors: [Mutex<Option<&mut [u8]>>; MAX_K] = [const { Mutex::new(None) }; MAX_K];
    let auth: [Mutex<Option<&mut [u8]>>; MAX_D] = [const { Mutex::new(None) }; MAX_D];
    let wots: [Mutex<Option<&mut [u8]>>; MAX_D] = [const { Mutex::new(None) }; MAX_D];
    for (slot, part) in fors.iter().zip(sig_fors.chunks_exact_mut(fors_part)) {
        *lock(slot) = Some(part);
    }
    for ((a, w), part) in auth
        .iter()
        .zip(&wots)
        .zip(sig_ht.chunks_exact_mut(xmss_part))
    {
        let (wp, ap) = part.split_at_mut(wots_bytes);
        (*lock(w), *lock(a)) = (Some(wp), Some(ap));
    }
    let board = Board {
        roots: Mutex::new(Roots {
            fors: [[0u8; MAX_N]; MAX_K],
            fors_done: 0,
            xmss: [None; MAX_D],
        }),
        changed: Condvar::new(),
    };
    let next = AtomicUsize::new(0);
    let work = || loop {
        let task = next.fetch_add(1, Ordering::Relaxed);
        if task < d {
            let root = trees.xmss_tree(task, take(&auth[task]), None);
            lock(&board.roots).xmss[task] = Some(root);
            board.changed.notify_all();
        } else if task < d + k {
            let i = task - d;
            let root = trees.fors_tree(i, take(&fors[i]));
            let mut roots = lock(&board.roots);
            roots.fors[i] = root;
            roots.fors_done += 1;
            drop(roots);
            board.changed.notify_all();
        } else if task < 2 * d + k {
            let layer = task - d - k;
            let msg = if layer == 0 {
                let roots = board.wait(|r| r.fors_done == k);
                trees.fors_key(&roots[..k])
            } else {
                board.wait(|r| r.xmss[layer - 1].is_some());
                lock(&board.roots).xmss[layer - 1].expect("waited for")
            };
            trees.wots(layer, &msg, take(&wots[layer]));
        } else {
            break;
        }
    };
    scope(|s| {
        for _ in 1..threads.min(2 * d + k) {
            s.spawn(work);
        }
        work();
    });
    trees.outcome()
}

impl<P: Instance> Trees<'_, P> {
    /// [`Error::KeyMismatch`] if the cache disagreed with the secret key.
    fn outcome(&self) -> Result<(), Error> {
        if self.mismatch.load(Ordering::Relaxed) {
            Err(Error::KeyMismatch)
        } else {
            Ok(())
        }
    }
}

/// How many tasks [`tree_task`] splits a signature of `p` into: the d XMSS
/// trees (layer 0 first), then the k FORS trees.
#[cfg(feature = "alloc")]
pub(crate) const fn task_count(p: &Params) -> usize {
    p.d + p.k
}

/// The length of task `i`'s output ([`tree_task`]): the tree's part of the
/// signature (an XMSS tree's authentication path, hp·n bytes; a FORS tree's
/// (a+1)·n bytes of `SIG_FORS`), then its root (n bytes).
#[cfg(feature = "alloc")]
pub(crate) const fn task_len(p: &Params, i: usize) -> usize {
    let part = if i < p.d { p.hp } else { p.a + 1 };
    (part + 1) * p.n
}

/// One tree of the digest split into `md`, `idx_tree`, `idx_leaf`, alone:
/// task `i` of [`fors_and_ht_sign`] (i < d: the XMSS tree of layer i;
/// d + i: FORS tree i), for callers that spread a signature's trees over
/// processes that share no memory. Writes the tree's part of the signature
/// and its root into `out` ([`task_len`] bytes); a one-tree set's XMSS
/// tree comes from `cache` when given ([`Error::KeyMismatch`], and `out`
/// wiped, if the secret key disagrees).
#[cfg(feature = "alloc")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tree_task<P: Instance>(
    t: &P::Hash,
    md: &[u8],
    idx_tree: u64,
    idx_leaf: u32,
    cache: Option<&[Node]>,
    i: usize,
    out: &mut [u8],
) -> Result<(), Error> {
    let p = P::PARAMS;
    debug_assert!(i < task_count(&p) && out.len() == task_len(&p, i));
    let trees = Trees::<P>::new(t, md, idx_tree, idx_leaf, cache);
    let (part, root_out) = out.split_at_mut(out.len() - p.n);
    let mut root = if i < p.d {
        trees.xmss_tree(i, part, None)
    } else {
        trees.fors_tree(i - p.d, part)
    };
    // Public: the verifier recomputes every root from the signature
    // (Algorithms 11 and 17); it leaves this process for the one that finishes.
    crate::ct_check::declassify(&mut root[..p.n]);
    root_out.copy_from_slice(&root[..p.n]);
    let outcome = trees.outcome();
    if outcome.is_err() {
        out.fill(0);
    }
    outcome
}

/// The rest of the trees' work once every task's output is known
/// ([`tree_task`], in task order, each of [`task_len`] bytes: the caller
/// checks): copies each tree's part into `sig_fors` and `sig_ht`, computes
/// the FORS key from the k FORS roots, and signs it and each XMSS root but
/// the top one with the WOTS+ key of the layer above. The roots are taken
/// as given: nothing here checks that they are the trees' roots.
#[cfg(feature = "alloc")]
pub(crate) fn finish_trees<P: Instance>(
    t: &P::Hash,
    md: &[u8],
    idx_tree: u64,
    idx_leaf: u32,
    outputs: &[&[u8]],
    sig_fors: &mut [u8],
    sig_ht: &mut [u8],
) {
    let p = P::PARAMS;
    let n = p.n;
    let trees = Trees::<P>::new(t, md, idx_tree, idx_leaf, None);
    let (xmss_out, fors_out) = outputs.split_at(p.d);
    let mut roots = [[0u8; MAX_N]; MAX_K];
    for ((out, part), root) in fors_out
        .iter()
        .zip(sig_fors.chunks_exact_mut((p.a + 1) * n))
        .zip(&mut roots)
    {
        let (tree_part, tree_root) = out.split_at(part.len());
        part.copy_from_slice(tree_part);
        root[..n].copy_from_slice(tree_root);
    }
    let mut msg = trees.fors_key(&roots[..p.k]);
    for (layer, (out, part)) in xmss_out
        .iter()
        .zip(sig_ht.chunks_exact_mut(p.xmss_sig_bytes()))
        .enumerate()
    {
        let (wots, auth) = part.split_at_mut(p.wots_len() * n);
        trees.wots(layer, &msg, wots);
        let (path, root) = out.split_at(auth.len());
        auth.copy_from_slice(path);
        msg[..n].copy_from_slice(root);
    }
}

/// The roots computed so far.
struct Roots {
    fors: [Node; MAX_K],
    fors_done: usize,
    xmss: [Option<Node>; MAX_D],
}

/// The roots, and a signal for the WOTS+ tasks waiting for them.
struct Board {
    roots: Mutex<Roots>,
    changed: Condvar,
}

impl Board {
    /// Waits until `ready` holds; returns the FORS roots.
    fn wait(&self, ready: impl Fn(&Roots) -> bool) -> [Node; MAX_K] {
        let mut r = lock(&self.roots);
        while !ready(&r) {
            r = self.changed.wait(r).unwrap_or_else(|e| e.into_inner());
        }
        r.fors
    }
}

/// The signature part a task writes, taken from its slot (each task runs once).
fn take<'a>(slot: &Mutex<Option<&'a mut [u8]>>) -> &'a mut [u8] {
    lock(slot).take().expect("each task is taken once")
}

/// A lock that a panicking thread cannot poison for the others (the panic
/// itself ends the signing when the scope joins).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
