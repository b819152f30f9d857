//! WOTS+ with w = 16 and ℓ = 67 (the paper's §3.1; the reference's wots.c):
//! the secret key is G(seed), 67 nodes of 32 bytes; chain step s (from
//! position s to s + 1) is F with mask Q_s.

use super::hash::{Hasher, Node};
use super::masks::Masks;
use super::params::{N, WOTS_LEN, WOTS_LEN1, WOTS_W};
use crate::prelude::*;

/// Keystream blocks of G per key: 67 nodes of 32 bytes need 33.5 blocks.
const G_BLOCKS: usize = (WOTS_LEN * N).div_ceil(64);

/// The chain lengths signed for `msg`: its 64 nibbles, low nibble of each
/// byte first, then the 3 nibbles of the checksum Σ(15 − digit), least
/// significant first.
pub(crate) fn digits(msg: &Node) -> [u8; WOTS_LEN] {
    let mut d = [0u8; WOTS_LEN];
    let mut checksum = 0u32;
    for (i, b) in msg.iter().enumerate() {
        d[2 * i] = b & 0xf;
        d[2 * i + 1] = b >> 4;
    }
    for &x in &d[..WOTS_LEN1] {
        checksum += (WOTS_W - 1) as u32 - x as u32;
    }
    for x in d[WOTS_LEN1..].iter_mut() {
        *x = (checksum & 0xf) as u8;
        checksum >>= 4;
    }
    d
}

/// The secret keys G(seed) of all `seeds`, key after key (67 nodes each).
pub(crate) fn secret_keys(h: &Hasher, seeds: &[Node]) -> Vec<Node> {
    let mut sk = vec![[0u8; N]; seeds.len() * WOTS_LEN];
    h.g(seeds, 0, G_BLOCKS, |key, blk, bytes| {
        for half in 0..2 {
            let i = 2 * blk + half;
            if i < WOTS_LEN {
                sk[key * WOTS_LEN + i].copy_from_slice(&bytes[half * N..(half + 1) * N]);
            }
        }
    });
    sk
}

/// Nodes per key after the first L-tree level: ⌈67 / 2⌉.
pub(crate) const PAIRED_LEN: usize = WOTS_LEN.div_ceil(2);

/// The public keys of all `seeds` with their first L-tree level already
/// applied (34 nodes each, key after key): every chain run to its end, all
/// keys' chains in one batch, each pair hashed as it leaves the chains.
pub(crate) fn pk_gen_paired(h: &Hasher, seeds: &[Node], masks: &Masks) -> Vec<Node> {
    let mut pk = vec![[0u8; N]; seeds.len() * PAIRED_LEN];
    h.g_chains_pairs(
        seeds,
        0,
        WOTS_LEN,
        (WOTS_W - 1) as u8,
        Some(masks.chain()),
        &masks.pair(0),
        &mut pk,
    );
    pk
}

/// Signs each `msgs[i]` with the key of `seeds[i]`, all in one batch; the
/// signatures (67 nodes each) go to `outs[i]`.
pub(crate) fn sign_many(
    h: &Hasher,
    msgs: &[Node],
    seeds: &[Node],
    masks: &Masks,
    outs: &mut [&mut [u8]],
) {
    let mut sig = secret_keys(h, seeds);
    let start = vec![0u8; sig.len()];
    let mut end = Vec::with_capacity(sig.len());
    for m in msgs {
        end.extend_from_slice(&digits(m));
    }
    h.f_chains(&mut sig, &start, &end, Some(masks.chain()));
    for (out, nodes) in outs.iter_mut().zip(sig.chunks_exact(WOTS_LEN)) {
        for (o, n) in out.chunks_exact_mut(N).zip(nodes) {
            o.copy_from_slice(n);
        }
    }
    crate::hash::wipe(&mut sig);
}

/// The public key a signature of `msg` implies: each chain continued from
/// its signed position to the end.
pub(crate) fn pk_from_sig(h: &Hasher, sig: &[u8], msg: &Node, masks: &Masks) -> Vec<Node> {
    let mut pk: Vec<Node> = sig
        .chunks_exact(N)
        .map(|c| c.try_into().expect("n bytes"))
        .collect();
    let start = digits(msg);
    let end = [(WOTS_W - 1) as u8; WOTS_LEN];
    h.f_chains(&mut pk, &start, &end, Some(masks.chain()));
    pk
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_digits() {
        // All-zero message: 64 zero digits, checksum 64 · 15 = 960 = 0x3c0.
        assert_eq!(digits(&[0; N])[64..], [0x0, 0xc, 0x3]);
        let mut m = [0u8; N];
        m[0] = 0x21;
        let d = digits(&m);
        assert_eq!(d[..2], [1, 2]);
        assert_eq!(d[64..], [0xd, 0xb, 0x3]); // 960 − 3
        assert_eq!(digits(&[0xff; N])[64..], [0, 0, 0]);
    }
}
