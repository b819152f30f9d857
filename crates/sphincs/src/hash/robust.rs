//! The "robust" tweakable hashes of SPHINCS+ round 3.1 (dropped by FIPS 205):
//! every input is XORed with a bitmask made from `PK.seed` and `ADRS` before
//! the "simple" hash of the same family runs on it. The wrapper works for any
//! family that can make its masks, so SHAKE and SHA-2 share it.

use super::{Node, TweakableHash, GROUP, T_GROUP};
use crate::address::Adrs;
use crate::params::{MAX_K, MAX_N, MAX_WOTS_LEN};

/// The most n-byte pieces one call hashes: a WOTS+ public key or the FORS roots.
const MAX_L: usize = if MAX_WOTS_LEN > MAX_K {
    MAX_WOTS_LEN
} else {
    MAX_K
};

/// A family's bitmask generator.
pub trait Bitmasks: TweakableHash {
    /// `out[i][..n]` = the n-byte mask of an F call at `adrs[i]`. F masks
    /// are most of the masks a signature needs, so they go through the
    /// multi-lane kernels.
    fn f_masks(&self, adrs: &[Adrs], out: &mut [Node]);

    /// The `out.len()`-byte mask of an H or T_l call at `adrs`.
    fn mask(&self, adrs: &Adrs, out: &mut [u8]);

    /// n of the bound key.
    fn n(&self) -> usize;
}

/// The robust variant of a simple family `T` (which wipes its own secrets).
pub struct Robust<T: Bitmasks>(T);

fn xor_into(dst: &mut [u8], mask: &[u8]) {
    for (d, m) in dst.iter_mut().zip(mask) {
        *d ^= m;
    }
}

impl<T: Bitmasks> TweakableHash for Robust<T> {
    type PrfMsg = T::PrfMsg;
    type HMsg = T::HMsg;

    fn new(n: usize, pk_seed: &[u8], sk_seed: Option<&[u8]>) -> Self {
        Robust(T::new(n, pk_seed, sk_seed))
    }

    fn f_batch(&self, adrs: &[Adrs], io: &mut [Node]) {
        let mut masks = [[0u8; MAX_N]; GROUP];
        for (a, chunk) in adrs.chunks(GROUP).zip(io.chunks_mut(GROUP)) {
            self.0.f_masks(a, &mut masks[..a.len()]);
            for (v, m) in chunk.iter_mut().zip(&masks) {
                xor_into(v, m);
            }
        }
        self.0.f_batch(adrs, io);
    }

    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]) {
        let n = self.0.n();
        let mut mask = [0u8; 2 * MAX_N];
        for (i, a) in adrs.iter().enumerate() {
            self.0.mask(a, &mut mask[..2 * n]);
            xor_into(&mut nodes[2 * i][..n], &mask[..n]);
            xor_into(&mut nodes[2 * i + 1][..n], &mask[n..2 * n]);
        }
        self.0.h_pairs(adrs, nodes);
    }

    fn t_batch(&self, adrs: &[Adrs], inputs: &[&[Node]], out: &mut [Node]) {
        let n = self.0.n();
        let mut masked = [[[0u8; MAX_N]; MAX_L]; T_GROUP];
        let mut mask = [0u8; MAX_L * MAX_N];
        for ((a, input), o) in adrs
            .chunks(T_GROUP)
            .zip(inputs.chunks(T_GROUP))
            .zip(out.chunks_mut(T_GROUP))
        {
            let l = input[0].len();
            for ((adrs, x), m) in a.iter().zip(input).zip(masked.iter_mut()) {
                debug_assert_eq!(x.len(), l, "a batch has equal input lengths");
                self.0.mask(adrs, &mut mask[..l * n]);
                for ((dst, src), mk) in m.iter_mut().zip(x.iter()).zip(mask.chunks(n)) {
                    *dst = *src;
                    xor_into(&mut dst[..n], mk);
                }
            }
            let mut refs: [&[Node]; T_GROUP] = [&[]; T_GROUP];
            for (r, m) in refs.iter_mut().zip(&masked) {
                *r = &m[..l];
            }
            self.0.t_batch(a, &refs[..a.len()], o);
        }
    }

    fn prf_batch(&self, adrs: &[Adrs], out: &mut [Node]) {
        self.0.prf_batch(adrs, out);
    }

    fn prf_msg(&self, sk_prf: &[u8], opt_rand: &[u8]) -> Self::PrfMsg {
        self.0.prf_msg(sk_prf, opt_rand)
    }

    fn h_msg(&self, r: &[u8], pk_root: &[u8]) -> Self::HMsg {
        self.0.h_msg(r, pk_root)
    }
}
