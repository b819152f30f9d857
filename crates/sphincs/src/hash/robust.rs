//! The "robust" tweakable hashes of SPHINCS+ round 3.1 (dropped by FIPS 205):
//! every input is XORed with a bitmask made from `PK.seed` and `ADRS` before
//! the "simple" hash of the same family runs on it. The wrapper works for any
//! family that can make its masks, so SHAKE and SHA-2 share it.

use super::common::{Node, TweakableHash, GROUP, T_GROUP};
use crate::address::Adrs;
use crate::limits::{MAX_K, MAX_N, MAX_WOTS_LEN};

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

    /// XORs into the first n bytes of each node of `values[i]` the l·n-byte
    /// mask of the H or T_l call at `adrs[i]` (all `values[i]` of one length l).
    fn xor_masks(&self, adrs: &[Adrs], values: &mut [&mut [Node]]);

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
        for (g, a) in adrs.chunks(GROUP).enumerate() {
            let pairs = &mut nodes[2 * g * GROUP..2 * (g * GROUP + a.len())];
            let mut values: [&mut [Node]; GROUP] = Default::default();
            for (v, p) in values.iter_mut().zip(pairs.chunks_exact_mut(2)) {
                *v = p;
            }
            self.0.xor_masks(a, &mut values[..a.len()]);
        }
        self.0.h_pairs(adrs, nodes);
    }

    fn t_batch(&self, adrs: &[Adrs], inputs: &[&[Node]], out: &mut [Node]) {
        let mut masked = [[[0u8; MAX_N]; MAX_L]; T_GROUP];
        for ((a, input), o) in adrs
            .chunks(T_GROUP)
            .zip(inputs.chunks(T_GROUP))
            .zip(out.chunks_mut(T_GROUP))
        {
            let l = input[0].len();
            let mut values: [&mut [Node]; T_GROUP] = Default::default();
            for ((v, m), x) in values.iter_mut().zip(masked.iter_mut()).zip(input) {
                debug_assert_eq!(x.len(), l, "a batch has equal input lengths");
                m[..l].copy_from_slice(x);
                *v = &mut m[..l];
            }
            self.0.xor_masks(a, &mut values[..a.len()]);
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

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256, Sha512};
    use shake::{ExtendableOutput, Update, XofReader};

    use super::*;
    use crate::hash::backend::{with_backend, Backend};
    use crate::hash::{Sha2Cat1, Sha2Cat35, Shake};

    /// Round 3.1's masks written out one call at a time with the plain
    /// `shake` and `sha2` crates: SHAKE256(PK.seed ‖ ADRS), or MGF1 of
    /// PK.seed ‖ ADRSc over SHA-256 (F, and category 1) or SHA-512.
    fn reference(family: &str, seed: &[u8], a: &Adrs, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        match family {
            "shake" => {
                let mut x = shake::Shake256::default();
                x.update(seed);
                x.update(&a.0);
                x.finalize_xof().read(&mut out);
            }
            _ => {
                let sha512 = family == "sha2-cat35" && len > seed.len();
                let d = if sha512 { 64 } else { 32 };
                for (c, chunk) in out.chunks_mut(d).enumerate() {
                    let ctr = (c as u32).to_be_bytes();
                    let input = [seed, &a.compressed()[..], &ctr[..]].concat();
                    if sha512 {
                        chunk.copy_from_slice(&Sha512::digest(&input)[..chunk.len()]);
                    } else {
                        chunk.copy_from_slice(&Sha256::digest(&input)[..chunk.len()]);
                    }
                }
            }
        }
        out
    }

    fn adrs(i: usize) -> Adrs {
        let mut a = Adrs::new();
        a.set_layer_address(i as u32 % 7);
        a.set_tree_address(0x0102_0304_0506 + i as u64);
        a.set_key_pair_address(i as u32 * 3);
        a
    }

    fn check<T: Bitmasks>(family: &str, n: usize) {
        let seed: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(13) ^ 0x5c).collect();
        let t = T::new(n, &seed, None);
        for count in [1, 3, 8, 17] {
            let a: Vec<Adrs> = (0..count).map(adrs).collect();
            // F: n bytes.
            let mut f = vec![[0u8; MAX_N]; count];
            t.f_masks(&a, &mut f);
            for (i, m) in f.iter().enumerate() {
                assert_eq!(
                    &m[..n],
                    &reference(family, &seed, &a[i], n)[..],
                    "{family} F n={n}"
                );
            }
            // H (l = 2) and T_l (WOTS+ and FORS lengths).
            for l in [2, 14, 35, 51, 67] {
                let mut vals = vec![[[0u8; MAX_N]; MAX_L]; count];
                let mut refs: Vec<&mut [Node]> = vals.iter_mut().map(|v| &mut v[..l]).collect();
                t.xor_masks(&a, &mut refs);
                for (i, v) in vals.iter().enumerate() {
                    let want = reference(family, &seed, &a[i], l * n);
                    let got: Vec<u8> = v[..l].iter().flat_map(|x| x[..n].to_vec()).collect();
                    assert_eq!(got, want, "{family} n={n} l={l} count={count}");
                    assert!(v[..l].iter().all(|x| x[n..].iter().all(|&b| b == 0)));
                }
            }
        }
    }

    /// The batched masks equal the definition, on every backend this CPU has.
    #[test]
    fn masks_match_the_definition() {
        for b in Backend::available() {
            with_backend(b, || {
                for n in [16, 24, 32] {
                    check::<Shake>("shake", n);
                    check::<Sha2Cat35>("sha2-cat35", n);
                }
                check::<Sha2Cat1>("sha2-cat1", 16);
            })
            .unwrap();
        }
    }
}
