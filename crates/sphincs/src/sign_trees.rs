//! The tree work of one signature, `fors_sign` (FIPS 205 Algorithm 16) and
//! `ht_sign` (Algorithm 12), split over threads.
//!
//! Once the digest is known, every FORS tree and every hypertree layer's XMSS
//! tree is fixed, so their roots and authentication paths can be computed
//! independently (phase 1). Each layer's WOTS+ signature needs only the root
//! below it, known after phase 1 (phase 2). The result is the same whatever
//! the thread count; one thread runs everything on the caller's stack.

use crate::address::{Adrs, AdrsType};
use crate::fors::{fors_indices, fors_pk, fors_sign_tree};
use crate::hash::Node;
use crate::hypertree::next_layer;
use crate::params::{Instance, MAX_D, MAX_K, MAX_N, W};
use crate::xmss::{xmss_auth_path, xmss_wots_sign};

pub(crate) const MAX_TASKS: usize = MAX_K + MAX_D;

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

/// Cuts `costs` into at most `parts` contiguous ranges of about equal total,
/// returning the range ends.
pub(crate) fn split(costs: &[u64], parts: usize, ends: &mut [usize; MAX_TASKS]) -> usize {
    let (len, total) = (costs.len(), costs.iter().sum::<u64>());
    let parts = parts.clamp(1, len);
    let mut count = 0;
    let mut prefix = 0u64;
    for (i, &c) in costs.iter().enumerate() {
        let before = prefix;
        prefix += c;
        while count + 1 < parts {
            let target = total * (count as u64 + 1) / parts as u64;
            if prefix < target {
                break;
            }
            // Cut before or after task i, whichever lands nearer the target.
            let nearer = if target.abs_diff(before) < target.abs_diff(prefix) {
                i
            } else {
                i + 1
            };
            let cut = nearer.max(if count == 0 { 1 } else { ends[count - 1] + 1 });
            if cut >= len {
                break;
            }
            ends[count] = cut;
            count += 1;
        }
    }
    ends[count] = len;
    count + 1
}

/// Writes `SIG_FORS` and `SIG_HT` for the digest split into `md`, `idx_tree`,
/// `idx_leaf`, using up to `threads` threads.
pub(crate) fn fors_and_ht_sign<P: Instance>(
    t: &P::Hash,
    md: &[u8],
    idx_tree: u64,
    idx_leaf: u32,
    sig_fors: &mut [u8],
    sig_ht: &mut [u8],
    threads: usize,
) {
    let p = P::PARAMS;
    let (n, k, d) = (p.n, p.k, p.d);
    let (fors_part, xmss_part, wots_bytes) = ((p.a + 1) * n, p.xmss_sig_bytes(), p.wots_len() * n);
    let leaves = fors_indices::<P>(md);
    let mut fors_adrs = Adrs::new();
    fors_adrs.set_tree_address(idx_tree);
    fors_adrs.set_type_and_clear(AdrsType::ForsTree);
    fors_adrs.set_key_pair_address(idx_leaf);
    let pos = layer_positions::<P>(idx_tree, idx_leaf);

    // Phase 1: task i < k is FORS tree i, task k + j the XMSS tree of layer j.
    let mut costs = [0u64; MAX_TASKS];
    costs[..k].fill(3 << p.a);
    costs[k..k + d].fill(((p.wots_len() * W + 1) << p.hp) as u64);
    let mut roots = [[0u8; MAX_N]; MAX_TASKS];
    let tree_task = |task: usize, part: &mut [u8], root: &mut Node| {
        *root = if task < k {
            fors_sign_tree::<P>(t, &fors_adrs, task, leaves[task], part)
        } else {
            let (tree, leaf) = pos[task - k];
            let adrs = layer_adrs(task - k, tree);
            let mut root = xmss_auth_path::<P>(t, leaf, &adrs, &mut part[wots_bytes..]);
            // Public: the verifier recomputes this root from the signature
            // (Algorithm 11); the next layer's WOTS+ chain lengths are its digits.
            crate::ct_check::declassify(&mut root[..n]);
            root
        };
    };
    let run_range = |first: usize, fors: &mut [u8], ht: &mut [u8], roots: &mut [Node]| {
        let parts = fors
            .chunks_exact_mut(fors_part)
            .chain(ht.chunks_exact_mut(xmss_part));
        for (j, (part, root)) in parts.zip(roots.iter_mut()).enumerate() {
            tree_task(first + j, part, root);
        }
    };
    let mut ends = [0usize; MAX_TASKS];
    let ranges = split(&costs[..k + d], threads, &mut ends);
    if ranges == 1 {
        run_range(0, sig_fors, sig_ht, &mut roots[..k + d]);
    } else {
        std::thread::scope(|s| {
            let (mut fors, mut ht, mut rest) = (&mut *sig_fors, &mut *sig_ht, &mut roots[..k + d]);
            let mut start = 0;
            for (r, &end) in ends[..ranges].iter().enumerate() {
                let nf = end.min(k).saturating_sub(start.min(k));
                let nh = (end - start) - nf;
                let (f, f_rest) = core::mem::take(&mut fors).split_at_mut(nf * fors_part);
                let (h, h_rest) = core::mem::take(&mut ht).split_at_mut(nh * xmss_part);
                let (rt, r_rest) = core::mem::take(&mut rest).split_at_mut(end - start);
                (fors, ht, rest) = (f_rest, h_rest, r_rest);
                let first = start;
                let run_range = &run_range;
                if r + 1 == ranges {
                    run_range(first, f, h, rt);
                } else {
                    s.spawn(move || run_range(first, f, h, rt));
                }
                start = end;
            }
        });
    }

    // Phase 2: each layer's WOTS+ key signs the root below it (the FORS key for layer 0).
    let mut pk_fors = fors_pk::<P>(t, &fors_adrs, &roots[..k]);
    #[cfg(test)]
    if crate::slh_dsa::fault_injection::fires() {
        // A fault in the FORS key that the hypertree signs: the bottom WOTS+
        // key then signs a second value, the grafting-tree scenario.
        pk_fors[0] ^= 1;
    }
    // Public: the verifier recomputes PK_FORS from the signature (Algorithm 17);
    // the bottom layer's WOTS+ chain lengths are its base-w digits.
    crate::ct_check::declassify(&mut pk_fors[..n]);
    let wots_task = |layer: usize, part: &mut [u8]| {
        let msg = if layer == 0 {
            pk_fors
        } else {
            roots[k + layer - 1]
        };
        let (tree, leaf) = pos[layer];
        xmss_wots_sign::<P>(
            t,
            &msg[..n],
            leaf,
            &layer_adrs(layer, tree),
            &mut part[..wots_bytes],
        );
    };
    let workers = threads.clamp(1, d);
    if workers == 1 {
        for (layer, part) in sig_ht.chunks_exact_mut(xmss_part).enumerate() {
            wots_task(layer, part);
        }
    } else {
        let per = d.div_ceil(workers);
        std::thread::scope(|s| {
            for (w, group) in sig_ht.chunks_mut(per * xmss_part).enumerate() {
                let wots_task = &wots_task;
                let mut job = move || {
                    for (j, part) in group.chunks_exact_mut(xmss_part).enumerate() {
                        wots_task(w * per + j, part);
                    }
                };
                if (w + 1) * per >= d {
                    job();
                } else {
                    s.spawn(job);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_is_contiguous_and_balanced() {
        let mut ends = [0; MAX_TASKS];
        // SHAKE-128s-like: 14 small FORS trees, then 7 large XMSS trees.
        let mut costs = [3u64 << 12; 21];
        costs[14..].fill(561 << 9);
        let r = split(&costs, 2, &mut ends);
        assert_eq!(r, 2);
        let first: u64 = costs[..ends[0]].iter().sum();
        let total: u64 = costs.iter().sum();
        assert!(
            first * 100 / total >= 45 && first * 100 / total <= 55,
            "{first} of {total}"
        );
        assert_eq!(ends[1], 21);
        for parts in 1..=30 {
            let r = split(&costs, parts, &mut ends);
            assert!(r >= 1 && r <= parts.min(21));
            assert_eq!(ends[r - 1], 21);
            assert!(
                ends[..r].windows(2).all(|w| w[0] < w[1]),
                "{:?}",
                &ends[..r]
            );
        }
    }
}
