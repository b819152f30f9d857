//! Root and authentication path of a Merkle tree, level by level, without
//! holding all leaves: shared by XMSS (Algorithms 9–10) and FORS (14–16).
//!
//! Leaves are made in chunks of at most 2^CHUNK_LOG; each chunk is reduced to
//! its root, and the chunk roots form the upper levels. Peak memory is two
//! arrays of 2^CHUNK_LOG nodes whatever the tree height (≤ 2·CHUNK_LOG).

use crate::address::Adrs;
use crate::hash::{Node, TweakableHash};
use crate::params::{MAX_A, MAX_N};

const CHUNK_LOG: usize = 7;
/// Most leaves a [`Tree::leaves`] call is asked for at once.
pub(crate) const CHUNK: usize = 1 << CHUNK_LOG;
/// The smallest chunk a tree is cut into for threads: four leaves, the
/// WOTS+ keys one batch computes (`wots::PKGEN_LEAVES`).
const MIN_SPLIT_LOG: usize = 2;
const _: () = assert!(MAX_A <= 2 * CHUNK_LOG, "upper levels must fit one chunk");

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
    let mut full = [[0u8; MAX_N]; 2 * CHUNK_LOG];
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
    std::thread::scope(|s| {
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
