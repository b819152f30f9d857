//! FORS few-time signatures (FIPS 205 §8, Algorithms 14–17).

use zeroize::Zeroize;

use crate::address::{Adrs, AdrsType};
use crate::bits::{base_2b, base_2b_lsb_first};
use crate::hash::{Node, TweakableHash, MULTI_LANE};
use crate::merkle::{root_and_path, Tree, CHUNK};
use crate::params::{IndexOrder, Instance, MAX_A, MAX_K, MAX_N};
use crate::xmss::climb;

/// FORS tree number `tree` of the FORS key at `adrs` (type FORS_TREE, key pair set).
struct ForsTree {
    adrs: Adrs,
    tree: u32,
    a: usize,
}

impl ForsTree {
    /// `fors_skGen` (Algorithm 14) address for leaf `idx` of the whole FORS key.
    fn sk_adrs(&self, idx: u32) -> Adrs {
        let mut sk = self.adrs;
        sk.set_type_and_clear(AdrsType::ForsPrf);
        sk.set_key_pair_address(self.adrs.key_pair_address());
        sk.set_tree_index(idx);
        sk
    }
}

impl<T: TweakableHash> Tree<T> for ForsTree {
    /// The leaf branch of `fors_node` (Algorithm 15): F of each secret value
    /// (`fors_skGen`, Algorithm 14, whose address is the leaf's with type
    /// FORS_PRF), as chains of one step that start with their PRF.
    fn leaves(&self, t: &T, first: u32, out: &mut [Node]) {
        let mut adrs = [Adrs::new(); CHUNK];
        let base = (self.tree << self.a) + first;
        for (i, a) in adrs.iter_mut().enumerate().take(out.len()) {
            *a = self.adrs;
            a.set_tree_height(0);
            a.set_tree_index(base + i as u32);
        }
        let count = out.len();
        let kinds = (AdrsType::ForsPrf, AdrsType::ForsTree);
        t.prf_chains(kinds, count, &mut adrs[..count], out, &[1; CHUNK][..count]);
    }

    /// The inner branch of `fors_node`: tree indices run across all k trees.
    fn node_adrs(&self, z: u32, i: u32) -> Adrs {
        let mut a = self.adrs;
        a.set_tree_height(z);
        a.set_tree_index((self.tree << (self.a as u32 - z)) + i);
        a
    }
}

/// The k leaf indices encoded in `md`, read in the set's [`IndexOrder`].
pub(crate) fn fors_indices<P: Instance>(md: &[u8]) -> [u32; MAX_K] {
    let mut idx = [0u32; MAX_K];
    let out = &mut idx[..P::PARAMS.k];
    match P::INDEX_ORDER {
        IndexOrder::Fips205 => base_2b(md, P::PARAMS.a, out),
        IndexOrder::Round31 => base_2b_lsb_first(md, P::PARAMS.a, out),
    }
    idx
}

/// Compresses the k FORS roots into the FORS public key (end of Algorithms 16 and 17).
pub(crate) fn fors_pk<P: Instance>(t: &P::Hash, adrs: &Adrs, roots: &[Node]) -> Node {
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(AdrsType::ForsRoots);
    pk_adrs.set_key_pair_address(adrs.key_pair_address());
    crate::hash::t_l(t, &pk_adrs, roots)
}

/// `fors_sign` (Algorithm 16) for tree `i` alone, revealing leaf `leaf` of it:
/// writes the secret value and authentication path (`(a+1)·n` bytes) to
/// `part` and returns the tree's root, which [`fors_pk`] compresses with the
/// others (so `fors_pkFromSig` need not run when signing). The trees are
/// independent, which lets a signature spread them over threads.
pub(crate) fn fors_sign_tree<P: Instance>(
    t: &P::Hash,
    adrs: &Adrs,
    i: usize,
    leaf: u32,
    part: &mut [u8],
) -> Node {
    let (n, a) = (P::PARAMS.n, P::PARAMS.a);
    let tree = ForsTree {
        adrs: *adrs,
        tree: i as u32,
        a,
    };
    let mut sk = [[0u8; MAX_N]];
    t.prf_batch(&[tree.sk_adrs(((i as u32) << a) + leaf)], &mut sk);
    part[..n].copy_from_slice(&sk[0][..n]);
    sk.zeroize();
    let mut auth = [[0u8; MAX_N]; MAX_A];
    let root = root_and_path(t, &tree, a, leaf, &mut auth, 1);
    for (chunk, node) in part[n..].chunks_exact_mut(n).zip(&auth[..a]) {
        chunk.copy_from_slice(&node[..n]);
    }
    root
}

/// `fors_pkFromSig` (Algorithm 17) for up to `G` signatures side by side:
/// `out[j]` is the FORS public key that `sigs[j]` of digest part `mds[j]`
/// implies for the FORS key at `adrs[j]` (type FORS_TREE, key pair set). The
/// k paths of every signature climb together: one batch of F calls for the
/// leaves, batches of H calls per level, one T_k batch for the keys.
pub(crate) fn fors_pk_from_sig<P: Instance, const G: usize>(
    t: &P::Hash,
    sigs: &[&[u8]],
    mds: &[&[u8]],
    adrs: &[Adrs],
    out: &mut [Node],
) {
    if !MULTI_LANE {
        // No multi-lane kernels (a microcontroller): one path at a time,
        // keeping only the k roots (less stack, the same hash calls).
        for (j, o) in out[..sigs.len()].iter_mut().enumerate() {
            fors_pk_from_sig_one::<P>(t, sigs[j], mds[j], &adrs[j], o);
        }
        return;
    }
    fors_pk_from_sig_batched::<P, G>(t, sigs, mds, adrs, out);
}

/// [`fors_pk_from_sig`] of one signature, path by path (Algorithm 17 as
/// written), each root absorbed into T_k as soon as it is reached: one node
/// climbs at a time, its authentication path read in place.
fn fors_pk_from_sig_one<P: Instance>(
    t: &P::Hash,
    sig: &[u8],
    md: &[u8],
    adrs: &Adrs,
    out: &mut Node,
) {
    let p = P::PARAMS;
    let (n, a, k) = (p.n, p.a, p.k);
    let part = (a + 1) * n;
    let leaves = fors_indices::<P>(md);
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(AdrsType::ForsRoots);
    pk_adrs.set_key_pair_address(adrs.key_pair_address());
    *out = t.t_stream(&pk_adrs, k, &mut |i, root| {
        // Algorithm 17, lines 2–19 for tree i: the leaf F(sk), then the climb.
        let s = &sig[i * part..(i + 1) * part];
        let index = ((i as u32) << a) + leaves[i];
        let mut tree_adrs = *adrs;
        tree_adrs.set_tree_height(0);
        tree_adrs.set_tree_index(index);
        *root = [0; MAX_N];
        root[..n].copy_from_slice(&s[..n]);
        t.f_batch(
            core::slice::from_ref(&tree_adrs),
            core::slice::from_mut(root),
        );
        climb(
            t,
            core::slice::from_mut(&mut tree_adrs),
            core::slice::from_mut(root),
            &[index],
            &[&s[n..]],
            n,
        );
    });
}

/// [`fors_pk_from_sig`] with the k paths of every signature side by side.
fn fors_pk_from_sig_batched<P: Instance, const G: usize>(
    t: &P::Hash,
    sigs: &[&[u8]],
    mds: &[&[u8]],
    adrs: &[Adrs],
    out: &mut [Node],
) {
    let p = P::PARAMS;
    let (n, a, k) = (p.n, p.a, p.k);
    let g = sigs.len();
    let part = (a + 1) * n;
    // Path i of signature j at j·k + i.
    let mut index_buf = [[0u32; MAX_K]; G];
    let mut adrs_buf = [[Adrs::new(); MAX_K]; G];
    let mut nodes_buf = [[[0u8; MAX_N]; MAX_K]; G];
    let mut auth_buf: [[&[u8]; MAX_K]; G] = [[&[]; MAX_K]; G];
    let index = index_buf.as_flattened_mut();
    let batch_adrs = adrs_buf.as_flattened_mut();
    let nodes = nodes_buf.as_flattened_mut();
    let auth = auth_buf.as_flattened_mut();
    for j in 0..g {
        let leaves = fors_indices::<P>(mds[j]);
        for i in 0..k {
            let at = j * k + i;
            let sig = &sigs[j][i * part..(i + 1) * part];
            index[at] = ((i as u32) << a) + leaves[i];
            batch_adrs[at] = adrs[j];
            batch_adrs[at].set_tree_height(0);
            batch_adrs[at].set_tree_index(index[at]);
            nodes[at][..n].copy_from_slice(&sig[..n]);
            auth[at] = &sig[n..];
        }
    }
    let total = g * k;
    t.f_batch(&batch_adrs[..total], &mut nodes[..total]);
    climb(
        t,
        &mut batch_adrs[..total],
        &mut nodes[..total],
        &index[..total],
        &auth[..total],
        n,
    );
    let mut pk_adrs = [Adrs::new(); G];
    let mut roots: [&[Node]; G] = [&[]; G];
    for j in 0..g {
        pk_adrs[j] = adrs[j];
        pk_adrs[j].set_type_and_clear(AdrsType::ForsRoots);
        pk_adrs[j].set_key_pair_address(adrs[j].key_pair_address());
        roots[j] = &nodes[j * k..(j + 1) * k];
    }
    t.t_batch(&pk_adrs[..g], &roots[..g], &mut out[..g]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Sha2_128s, Sha2_256f, Shake128_24, Shake192f};

    /// The path-by-path FORS (targets without multi-lane kernels) gives the
    /// batched path's public keys.
    fn one_lane_equals_batched<P: Instance>() {
        let p = P::PARAMS;
        let n = p.n;
        let t = P::Hash::new(n, &[9u8; MAX_N][..n], None);
        let sig: std::vec::Vec<u8> = (0..p.fors_sig_bytes())
            .map(|i| (i * 89 % 253) as u8)
            .collect();
        for j in 0..3u8 {
            let md: std::vec::Vec<u8> = (0..p.md_bytes())
                .map(|i| (i as u8).wrapping_mul(53) ^ j)
                .collect();
            let mut adrs = Adrs::new();
            adrs.set_tree_address(0x1234 + u64::from(j));
            adrs.set_type_and_clear(AdrsType::ForsTree);
            adrs.set_key_pair_address(7);
            let mut want = [[0u8; MAX_N]];
            fors_pk_from_sig_batched::<P, 1>(&t, &[&sig], &[&md], &[adrs], &mut want);
            let mut got = [0u8; MAX_N];
            fors_pk_from_sig_one::<P>(&t, &sig, &md, &adrs, &mut got);
            assert_eq!(got, want[0], "{} digest {j}", P::NAME);
        }
    }

    #[test]
    fn one_lane_path_equals_batched_path() {
        one_lane_equals_batched::<Sha2_128s>();
        one_lane_equals_batched::<Shake192f>();
        one_lane_equals_batched::<Sha2_256f>();
        one_lane_equals_batched::<Shake128_24>();
    }
}
