//! Root and authentication path of a Merkle tree, level by level, without
//! holding all leaves: shared by XMSS (Algorithms 9–10) and FORS (14–16).
//!
//! Leaves are made in chunks of at most 2^CHUNK_LOG; each chunk is reduced to
//! its root, and the chunk roots form the upper levels. Peak memory is two
//! arrays of 2^CHUNK_LOG nodes for a tree height ≤ 2·CHUNK_LOG. A taller tree
//! (SP 800-230: XMSS h' = 21–22, FORS a = 24–25) is the same computation one
//! level up: its top 2·CHUNK_LOG levels form a tree whose leaves are the
//! roots of subtrees of the rest, so the peak is twice that, still on the stack.

use crate::address::Adrs;
use crate::hash::{Node, TweakableHash};
use crate::params::{MAX_A, MAX_HP, MAX_N};
#[cfg(feature = "alloc")]
use crate::prelude::*;

const CHUNK_LOG: usize = 7;
/// Most leaves a [`Tree::leaves`] call is asked for at once.
pub(crate) const CHUNK: usize = 1 << CHUNK_LOG;
/// The smallest chunk a tree is cut into for threads: four leaves (a batch
/// of WOTS+ keys, `wots::PKGEN_LEAVES`, takes up to eight).
const MIN_SPLIT_LOG: usize = 2;
/// Height of the trees [`small_root_and_path`] computes in one pass.
const SMALL: usize = 2 * CHUNK_LOG;
const _: () = assert!(
    MAX_A <= 2 * SMALL && MAX_HP <= 2 * SMALL,
    "a tree is at most two passes tall"
);

/// How a tree makes its leaves and addresses its inner nodes.
pub(crate) trait Tree<T: TweakableHash> {
    /// Fills `out` with the leaves `first .. first + out.len()`.
    fn leaves(&self, t: &T, first: u32, out: &mut [Node]);
    /// The address of the node at height `z` (≥ 1) and index `i` within this tree.
    fn node_adrs(&self, z: u32, i: u32) -> Adrs;
}

/// The root of a tree of height `height`, and into `auth[..height]` the
/// authentication path of leaf `idx`. With `threads` > 1 the leaf chunks are
/// split over that many threads (key generation, whose one top tree has up
/// to four chunks in the s sets; the f sets' small top trees are cut into
/// chunks of as few as four leaves, one WOTS+ batch, so each thread gets one).
pub(crate) fn root_and_path<T: TweakableHash>(
    t: &T,
    tree: &(impl Tree<T> + Sync),
    height: usize,
    idx: u32,
    auth: &mut [Node],
    threads: usize,
) -> Node {
    if height <= SMALL {
        return small_root_and_path(t, tree, height, idx, auth, threads);
    }
    // The top SMALL levels over subtrees of height `base`, then the lower
    // path inside the subtree holding `idx` (computed a second time: at
    // most 2^-SMALL of the work).
    let base = height - SMALL;
    let top = Upper { tree, base };
    let (low_auth, high_auth) = auth.split_at_mut(base);
    let root = small_root_and_path(t, &top, SMALL, idx >> base, high_auth, threads);
    let holder = Offset {
        tree,
        first: (idx >> base) << base,
    };
    small_root_and_path(t, &holder, base, idx & ((1 << base) - 1), low_auth, threads);
    root
}

/// The nodes at height `base` of `tree`, seen as the leaves of a tree of
/// its upper levels.
struct Upper<'a, X> {
    tree: &'a X,
    base: usize,
}

impl<T: TweakableHash, X: Tree<T> + Sync> Tree<T> for Upper<'_, X> {
    fn leaves(&self, t: &T, first: u32, out: &mut [Node]) {
        let mut unused = [[0u8; MAX_N]; SMALL];
        for (i, o) in out.iter_mut().enumerate() {
            let sub = Offset {
                tree: self.tree,
                first: (first + i as u32) << self.base,
            };
            *o = small_root_and_path(t, &sub, self.base, 0, &mut unused, 1);
        }
    }

    fn node_adrs(&self, z: u32, i: u32) -> Adrs {
        self.tree.node_adrs(z + self.base as u32, i)
    }
}

/// The subtree of `tree` whose leaves start at `first` (a multiple of its size).
struct Offset<'a, X> {
    tree: &'a X,
    first: u32,
}

impl<T: TweakableHash, X: Tree<T> + Sync> Tree<T> for Offset<'_, X> {
    fn leaves(&self, t: &T, first: u32, out: &mut [Node]) {
        self.tree.leaves(t, self.first + first, out);
    }

    fn node_adrs(&self, z: u32, i: u32) -> Adrs {
        self.tree.node_adrs(z, (self.first >> z) + i)
    }
}

/// [`root_and_path`] for a tree of height ≤ [`SMALL`].
fn small_root_and_path<T: TweakableHash>(
    t: &T,
    tree: &(impl Tree<T> + Sync),
    height: usize,
    idx: u32,
    auth: &mut [Node],
    threads: usize,
) -> Node {
    let mut low = height.min(CHUNK_LOG);
    while threads > 1 << (height - low) && low > MIN_SPLIT_LOG {
        low -= 1;
    }
    let chunks = 1usize << (height - low);
    let mut tops = [[0u8; MAX_N]; CHUNK];
    let (low_auth, high_auth) = auth.split_at_mut(low);
    let workers = threads.clamp(1, chunks);
    if workers == 1 {
        // No scope: it would allocate, and one-thread signing allocates nothing.
        chunk_tops(t, tree, low, idx, 0, &mut tops[..chunks], Some(low_auth));
    } else {
        spread_chunk_tops(t, tree, low, idx, workers, &mut tops[..chunks], low_auth);
    }
    let mut full = [[0u8; MAX_N]; SMALL];
    reduce(
        t,
        tree,
        &mut tops,
        height - low,
        low,
        0,
        Some(idx),
        &mut full[..],
    );
    high_auth[..height - low].copy_from_slice(&full[low..height]);
    tops[0]
}

/// [`chunk_tops`] of all chunks, split over `workers` threads.
fn spread_chunk_tops<T: TweakableHash>(
    t: &T,
    tree: &(impl Tree<T> + Sync),
    low: usize,
    idx: u32,
    workers: usize,
    tops: &mut [Node],
    low_auth: &mut [Node],
) {
    let chunks = tops.len();
    let per = chunks.div_ceil(workers);
    let holder = (idx >> low) as usize / per;
    crate::sync::scope(|s| {
        let mut low_auth = Some(low_auth);
        for (w, mine) in tops.chunks_mut(per).enumerate() {
            let my_auth = if w == holder { low_auth.take() } else { None };
            let job = move || chunk_tops(t, tree, low, idx, w * per, mine, my_auth);
            if (w + 1) * per >= chunks {
                job();
            } else {
                s.spawn(job);
            }
        }
    });
}

/// The roots of the chunks `first .. first + tops.len()` (each of 2^low
/// leaves) into `tops`; the chunk holding leaf `idx`, if any, records the
/// lower part of its authentication path into `auth[..low]`.
fn chunk_tops<T: TweakableHash>(
    t: &T,
    tree: &impl Tree<T>,
    low: usize,
    idx: u32,
    first: usize,
    tops: &mut [Node],
    auth: Option<&mut [Node]>,
) {
    let mut unused = [[0u8; MAX_N]; CHUNK_LOG];
    let auth = auth.unwrap_or(&mut unused[..]);
    let mut level = [[0u8; MAX_N]; CHUNK];
    for (c, top) in tops.iter_mut().enumerate() {
        let chunk = first + c;
        let start = (chunk << low) as u32;
        tree.leaves(t, start, &mut level[..1 << low]);
        let holds_idx = (idx >> low) as usize == chunk;
        reduce(
            t,
            tree,
            &mut level,
            low,
            0,
            start,
            holds_idx.then_some(idx),
            auth,
        );
        *top = level[0];
    }
}

/// Hashes `nodes[..2^levels]`, the nodes at height `z0` starting at index
/// `first`, up `levels` levels into `nodes[0]`, recording the siblings on the
/// path of leaf `idx` (if it lies below) into `auth`.
#[allow(clippy::too_many_arguments)]
fn reduce<T: TweakableHash>(
    t: &T,
    tree: &impl Tree<T>,
    nodes: &mut [Node; CHUNK],
    levels: usize,
    z0: usize,
    first: u32,
    idx: Option<u32>,
    auth: &mut [Node],
) {
    let mut adrs = [Adrs::new(); CHUNK / 2];
    for l in 0..levels {
        let z = z0 + l;
        let width = 1usize << (levels - l);
        let base = first >> l;
        if let Some(idx) = idx {
            let sibling = ((idx >> z) ^ 1) - base;
            auth[z] = nodes[sibling as usize];
        }
        for (i, a) in adrs.iter_mut().enumerate().take(width / 2) {
            *a = tree.node_adrs((z + 1) as u32, (base >> 1) + i as u32);
        }
        t.h_pairs(&adrs[..width / 2], &mut nodes[..width]);
    }
}

/// The nodes at height `level` of a tree, kept (a signing key's cache of its
/// one XMSS tree, SP 800-230): they stand for the leaves of the tree above.
pub(crate) struct Level<'a, X> {
    pub tree: &'a X,
    pub nodes: &'a [Node],
    pub level: usize,
}

impl<T: TweakableHash, X: Tree<T> + Sync> Tree<T> for Level<'_, X> {
    fn leaves(&self, _t: &T, first: u32, out: &mut [Node]) {
        out.copy_from_slice(&self.nodes[first as usize..first as usize + out.len()]);
    }

    fn node_adrs(&self, z: u32, i: u32) -> Adrs {
        self.tree.node_adrs(z + self.level as u32, i)
    }
}

/// Fills `out` with the nodes at height `level` of `tree` (`out.len()` of
/// them, from the first), split over `threads` threads. Once `stop` is set
/// (another thread asks to cancel: a binding's Ctrl-C) no further round of
/// nodes is started, so the call returns within a round's time with `out`
/// only partly filled; the caller, which set or watches `stop`, discards it.
#[cfg(feature = "alloc")]
pub(crate) fn level_nodes<T: TweakableHash>(
    t: &T,
    tree: &(impl Tree<T> + Sync),
    level: usize,
    out: &mut [Node],
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
    stop: &core::sync::atomic::AtomicBool,
) {
    let node = |j: usize| {
        let sub = Offset {
            tree,
            first: (j << level) as u32,
        };
        let mut unused = [[0u8; MAX_N]; SMALL];
        small_root_and_path(t, &sub, level, 0, &mut unused, 1)
    };
    let workers = threads.clamp(1, out.len().max(1));
    // Work in rounds of a few nodes per worker, so progress moves steadily.
    let next = core::sync::atomic::AtomicUsize::new(0);
    const STEP: usize = 16;
    let slots: Vec<crate::sync::Mutex<&mut [Node]>> =
        out.chunks_mut(STEP).map(crate::sync::Mutex::new).collect();
    let work = || loop {
        if stop.load(core::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let s = next.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
        let Some(slot) = slots.get(s) else { break };
        let mut part = slot.lock().unwrap_or_else(|e| e.into_inner());
        for (i, o) in part.iter_mut().enumerate() {
            *o = node(s * STEP + i);
        }
        progress(part.len());
    };
    if workers == 1 {
        work();
    } else {
        crate::sync::scope(|s| {
            for _ in 1..workers {
                s.spawn(work);
            }
            work();
        });
    }
}

/// Root and authentication path of leaf `idx` of a tree of height `height`
/// whose nodes at height `level` are `nodes`: the subtree holding `idx` is
/// computed afresh (its root is returned second, for the caller to compare
/// with `nodes`), the levels above come from `nodes`.
pub(crate) fn root_and_path_from_level<T: TweakableHash>(
    t: &T,
    tree: &(impl Tree<T> + Sync),
    height: usize,
    level: usize,
    nodes: &[Node],
    idx: u32,
    auth: &mut [Node],
) -> (Node, Node) {
    let (low_auth, high_auth) = auth.split_at_mut(level);
    let holder = Offset {
        tree,
        first: (idx >> level) << level,
    };
    let sub = small_root_and_path(t, &holder, level, idx & ((1 << level) - 1), low_auth, 1);
    let upper = Level { tree, nodes, level };
    let root = root_and_path(t, &upper, height - level, idx >> level, high_auth, 1);
    (root, sub)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::Shake;

    /// Leaves are F of their index; inner nodes address (z, i) in tree type.
    struct Toy;

    impl<T: TweakableHash> Tree<T> for Toy {
        fn leaves(&self, t: &T, first: u32, out: &mut [Node]) {
            let mut adrs = [Adrs::new(); CHUNK];
            for (i, (a, o)) in adrs.iter_mut().zip(out.iter_mut()).enumerate() {
                a.set_tree_index(first + i as u32);
                *o = [(first + i as u32) as u8; MAX_N];
            }
            t.f_batch(&adrs[..out.len()], out);
        }

        fn node_adrs(&self, z: u32, i: u32) -> Adrs {
            let mut a = Adrs::new();
            a.set_tree_height(z);
            a.set_tree_index(i);
            a
        }
    }

    /// The whole tree in memory, level by level: root and path of `idx`.
    fn naive(t: &Shake, height: usize, idx: u32) -> (Node, Vec<Node>) {
        let mut level = vec![[0u8; MAX_N]; 1 << height];
        for (c, chunk) in level.chunks_mut(CHUNK).enumerate() {
            <Toy as Tree<Shake>>::leaves(&Toy, t, (c * CHUNK) as u32, chunk);
        }
        let mut path = Vec::new();
        for z in 0..height {
            path.push(level[((idx >> z) ^ 1) as usize]);
            let adrs: Vec<Adrs> = (0..level.len() / 2)
                .map(|i| <Toy as Tree<Shake>>::node_adrs(&Toy, z as u32 + 1, i as u32))
                .collect();
            t.h_pairs(&adrs, &mut level);
            level.truncate(level.len() / 2);
        }
        (level[0], path)
    }

    /// Trees taller than one pass (SP 800-230's a = 24–25, h' = 21–22) give
    /// the root and path of the whole tree, on one thread and on several,
    /// and from kept nodes at [`crate::tree_cache::CACHE_LEVEL`].
    #[test]
    fn tall_trees_match_the_whole_tree() {
        let t = Shake::new(16, &[7; 16], Some(&[9; 16]));
        for (height, idx) in [(15usize, 12_345u32), (16, 0), (16, 65_535), (17, 77_777)] {
            let (root, path) = naive(&t, height, idx);
            for threads in [1, 3] {
                let mut auth = [[0u8; MAX_N]; MAX_A];
                let got = root_and_path(&t, &Toy, height, idx, &mut auth, threads);
                assert_eq!(got, root, "height {height} threads {threads}");
                assert_eq!(&auth[..height], &path[..], "height {height}");
            }
            let level = crate::tree_cache::CACHE_LEVEL;
            let mut nodes = vec![[0u8; MAX_N]; 1 << (height - level)];
            level_nodes(&t, &Toy, level, &mut nodes, 2, &|_| {}, &Default::default());
            let mut auth = [[0u8; MAX_N]; MAX_A];
            let (got, sub) =
                root_and_path_from_level(&t, &Toy, height, level, &nodes, idx, &mut auth);
            assert_eq!(got, root);
            assert_eq!(sub, nodes[(idx >> level) as usize]);
            assert_eq!(&auth[..height], &path[..]);
        }
    }
}
