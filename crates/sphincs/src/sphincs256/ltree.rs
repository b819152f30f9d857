//! L-trees (the paper's §3.2): a WOTS+ public key of 67 nodes hashed down to
//! one leaf, pairs at level j with masks Q_2j ‖ Q_2j+1, an odd last node
//! carried up unchanged. Several keys' trees run level by level together.

use super::hash::{Hasher, Node};
use super::masks::Masks;
use super::params::{N, WOTS_LEN, WOTS_LOG_LEN};
use crate::prelude::*;

/// The L-tree roots of the public keys in `pks` (67 nodes each, key after
/// key; overwritten), one per key into `out`.
pub(crate) fn ltree_many(h: &Hasher, pks: &mut [Node], masks: &Masks, out: &mut [Node]) {
    ltree_from(h, pks, WOTS_LEN, 0, masks, out);
}

/// The L-tree roots of keys given at level `first` (`len` nodes each, key
/// after key; overwritten), one per key into `out`.
pub(crate) fn ltree_from(
    h: &Hasher,
    pks: &mut [Node],
    width: usize,
    first: usize,
    masks: &Masks,
    out: &mut [Node],
) {
    let keys = pks.len() / width;
    debug_assert_eq!(out.len(), keys);
    let mut len = width;
    let mut tmp = vec![[0u8; N]; keys * (width / 2)];
    for j in first..WOTS_LOG_LEN {
        let pairs = len / 2;
        {
            let pks = &*pks;
            h.h_many(
                |i| {
                    let (key, p) = (i / pairs, i % pairs);
                    let base = key * width + 2 * p;
                    (&pks[base], &pks[base + 1])
                },
                &masks.pair(j),
                &mut tmp[..keys * pairs],
            );
        }
        for key in 0..keys {
            let nodes = &mut pks[key * width..(key + 1) * width];
            nodes[..pairs].copy_from_slice(&tmp[key * pairs..(key + 1) * pairs]);
            if len % 2 == 1 {
                nodes[pairs] = nodes[len - 1];
            }
        }
        len = pairs + len % 2;
    }
    debug_assert_eq!(len, 1);
    for (o, key) in out.iter_mut().zip(pks.chunks_exact(width)) {
        *o = key[0];
    }
}
