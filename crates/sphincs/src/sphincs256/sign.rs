//! Key generation, signing and verification (the reference's sign.c:
//! `crypto_sign_keypair`, `crypto_sign`, `crypto_sign_open`).
//!
//! Once the digest is known, the 16 HORST chunks and the subtrees of layers
//! 0–10 are independent: they are the tasks of phase 1, spread over threads
//! in contiguous ranges of about equal cost (the top subtree, layer 11, is
//! the key's own, built once when the key is loaded). Phase 2 signs the 12
//! roots with their WOTS+ keys in one batch. The output is the same for any
//! thread count.

use crate::prelude::*;
use subtle::ConstantTimeEq;

use crate::ct_check::declassify;
use crate::hash::blake::blake512;
use crate::schedule::parallel_map;

use super::hash::Hasher;
use super::horst::{self, ChunkOut, CHUNKS};
use super::ltree::ltree_many;
use super::masks::Masks;
use super::params::{
    HORST_LEVEL, HORST_SIG_BYTES, INDEX_BYTES, LAYERS, LAYER_SIG_BYTES, MASKS, N, PK_BYTES,
    SIG_BYTES, SK_BYTES, SUBTREE_HEIGHT, SUBTREE_LEAVES, TOTAL_HEIGHT, WOTS_LEN,
};
use super::seed::address_seed;
use super::subtree::{self, SubtreeNodes};
use super::wots;

/// The parts of a secret key `SK1 ‖ Q ‖ SK2`.
pub(crate) fn sk1(sk: &[u8; SK_BYTES]) -> &[u8] {
    &sk[..N]
}
fn sk2(sk: &[u8; SK_BYTES]) -> &[u8] {
    &sk[N + MASKS * N..]
}
pub(crate) fn q(key: &[u8]) -> &[u8] {
    &key[N..N + MASKS * N]
}

/// The top subtree (layer 11, subtree 0) of a secret key: its root is PK1.
pub(crate) fn top_subtree(h: &Hasher, sk: &[u8; SK_BYTES]) -> Box<SubtreeNodes> {
    let masks = Masks::new(q(sk));
    subtree::build(h, sk1(sk), &masks, LAYERS as u64 - 1, 0)
}

/// Where layer `layer`'s subtree and signing leaf are for leaf index `idx`.
fn position(idx: u64, layer: usize) -> (u64, usize) {
    // At most 60 < 64 bits of shift: the top layer's subtree is 0.
    let subtree = idx >> ((layer + 1) * SUBTREE_HEIGHT);
    let leaf = (idx >> (layer * SUBTREE_HEIGHT)) as usize & (SUBTREE_LEAVES - 1);
    (subtree, leaf)
}

/// A phase-1 result.
enum Done {
    Chunk(ChunkOut),
    Layer(Box<SubtreeNodes>),
}

/// `crypto_sign` without the message: the 41000-byte signature of `msg`.
pub(crate) fn sign(
    h: &Hasher,
    sk: &[u8; SK_BYTES],
    pk: &[u8; PK_BYTES],
    top: &SubtreeNodes,
    msg: &[u8],
    threads: usize,
) -> Vec<u8> {
    let masks = Masks::new(q(sk));
    let mut rnd = zeroize::Zeroizing::new(blake512(&[sk2(sk), msg]));
    // Public: the leaf index and R1 are written into the signature.
    declassify(&mut rnd[..8]);
    declassify(&mut rnd[16..16 + N]);
    let idx = u64::from_le_bytes(rnd[..8].try_into().expect("8 bytes")) & ((1 << TOTAL_HEIGHT) - 1);
    let r1 = &rnd[16..16 + N];
    let digest = blake512(&[r1, pk, msg]);

    let mut sig = vec![0u8; SIG_BYTES];
    sig[..N].copy_from_slice(r1);
    sig[N..N + INDEX_BYTES].copy_from_slice(&idx.to_le_bytes());

    // Phase 1: the 16 HORST chunks and the subtrees of layers 0..11.
    let horst_idx = horst::indices(&digest);
    let horst_seed = address_seed(
        sk1(sk),
        HORST_LEVEL,
        idx >> SUBTREE_HEIGHT,
        idx & (SUBTREE_LEAVES as u64 - 1),
    );
    // The subtrees (about 2.6 times a chunk's work) first, then the chunks,
    // taken by the threads from one shared counter.
    let tasks = CHUNKS + LAYERS - 1;
    let task = |t: usize| -> Done {
        if t < LAYERS - 1 {
            let (subtree, _) = position(idx, t);
            Done::Layer(subtree::build(h, sk1(sk), &masks, t as u64, subtree))
        } else {
            let chunk = t - (LAYERS - 1);
            Done::Chunk(horst::sign_chunk(h, &horst_seed, &masks, &horst_idx, chunk))
        }
    };
    let done: Vec<Done> = parallel_map(tasks, threads, task);
    let mut chunks = Vec::with_capacity(CHUNKS);
    let mut layers: Vec<&SubtreeNodes> = Vec::with_capacity(LAYERS);
    for d in &done {
        match d {
            Done::Chunk(c) => chunks.push(c),
            Done::Layer(l) => layers.push(l),
        }
    }
    layers.push(top);

    let (horst_sig, ht_sig) = sig[N + INDEX_BYTES..].split_at_mut(HORST_SIG_BYTES);
    let horst_root = horst::assemble(h, &masks, &chunks, horst_sig);

    // Phase 2: each layer's WOTS+ key signs the root below it.
    let mut msgs = [[0u8; N]; LAYERS];
    let mut seeds = [[0u8; N]; LAYERS];
    for layer in 0..LAYERS {
        let (subtree, leaf) = position(idx, layer);
        msgs[layer] = if layer == 0 {
            horst_root
        } else {
            subtree::root(layers[layer - 1])
        };
        seeds[layer] = address_seed(sk1(sk), layer as u64, subtree, leaf as u64);
    }
    // Public: the verifier recomputes each root from the signature; the
    // WOTS+ chain lengths are its digits.
    for m in &mut msgs {
        declassify(m);
    }
    let mut outs: Vec<&mut [u8]> = Vec::with_capacity(LAYERS);
    for (layer, part) in ht_sig.chunks_exact_mut(LAYER_SIG_BYTES).enumerate() {
        let (wots_part, auth) = part.split_at_mut(WOTS_LEN * N);
        subtree::auth_path(layers[layer], position(idx, layer).1, auth);
        outs.push(wots_part);
    }
    wots::sign_many(h, &msgs, &seeds, &masks, &mut outs);
    crate::hash::wipe(&mut seeds);
    sig
}

/// `crypto_sign_open`'s check: whether `sig` (41000 bytes) is a signature
/// of `msg` under `pk`. Bits 60..63 of the index field are ignored, as in
/// the reference.
pub(crate) fn verify(h: &Hasher, pk: &[u8; PK_BYTES], msg: &[u8], sig: &[u8]) -> bool {
    debug_assert_eq!(sig.len(), SIG_BYTES);
    let masks = Masks::new(&pk[..MASKS * N]);
    let r1 = &sig[..N];
    let idx = u64::from_le_bytes(sig[N..N + INDEX_BYTES].try_into().expect("8 bytes"));
    let digest = blake512(&[r1, pk, msg]);
    let (horst_sig, ht_sig) = sig[N + INDEX_BYTES..].split_at(HORST_SIG_BYTES);
    let Some(mut root) = horst::verify(h, horst_sig, &digest, &masks) else {
        return false;
    };
    for (layer, part) in ht_sig.chunks_exact(LAYER_SIG_BYTES).enumerate() {
        let (wots_sig, auth) = part.split_at(WOTS_LEN * N);
        let mut wots_pk = wots::pk_from_sig(h, wots_sig, &root, &masks);
        let mut leaf = [[0u8; N]];
        ltree_many(h, &mut wots_pk, &masks, &mut leaf);
        let (_, leaf_idx) = position(idx, layer);
        root = subtree::root_from_path(h, leaf[0], leaf_idx, auth, &masks);
    }
    bool::from(root.ct_eq(&pk[MASKS * N..]))
}
