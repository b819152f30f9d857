//! WOTS+ one-time signatures (FIPS 205 §5, Algorithms 5–8). All chains of a
//! key advance together, one batched F call per step.

use crate::address::{Adrs, AdrsType};
use crate::bits::base_2b;
use crate::hash::{wipe, Node, TweakableHash};
use crate::params::{Instance, LG_W, MAX_N, MAX_WOTS_LEN, W};

/// The base-w digits of an n-byte message followed by its checksum digits
/// (the first steps of Algorithms 7 and 8).
fn digits<P: Instance>(msg: &[u8]) -> [u8; MAX_WOTS_LEN] {
    let p = P::PARAMS;
    let (len1, len) = (p.wots_len1(), p.wots_len());
    let mut d = [0u32; MAX_WOTS_LEN];
    base_2b(&msg[..p.n], LG_W, &mut d[..len1]);
    let csum: u32 = d[..len1].iter().map(|&x| W as u32 - 1 - x).sum();
    // len2 · lg_w = 12 bits, shifted left by 4 to fill two bytes.
    let csum_bytes = ((csum << 4) as u16).to_be_bytes();
    base_2b(&csum_bytes, LG_W, &mut d[len1..len]);
    let mut out = [0u8; MAX_WOTS_LEN];
    for (o, x) in out.iter_mut().zip(d.iter()) {
        *o = *x as u8;
    }
    out
}

/// `chain` (Algorithm 5) for all chains of one key at once: chain i advances
/// `steps[i]` times from position `start[i]`.
fn chains<T: TweakableHash>(t: &T, adrs: &Adrs, start: &[u8], steps: &[u8], vals: &mut [Node]) {
    let longest = steps.iter().copied().max().unwrap_or(0);
    let mut batch_adrs = [Adrs::new(); MAX_WOTS_LEN];
    let mut batch = [[0u8; MAX_N]; MAX_WOTS_LEN];
    let mut which = [0usize; MAX_WOTS_LEN];
    for s in 0..longest {
        let mut count = 0;
        for (i, (&st, &len)) in start.iter().zip(steps).enumerate() {
            if len > s {
                let mut a = *adrs;
                a.set_chain_address(i as u32);
                a.set_hash_address(u32::from(st + s));
                batch_adrs[count] = a;
                batch[count] = vals[i];
                which[count] = i;
                count += 1;
            }
        }
        t.f_batch(&batch_adrs[..count], &mut batch[..count]);
        for j in 0..count {
            vals[which[j]] = batch[j];
        }
    }
    // Copies of chain values, secret while signing.
    wipe(batch[..start.len()].as_flattened_mut());
}

/// The secret chain starts of the key at `adrs` (the PRF step of Algorithms 6 and 7).
fn secret_values<P: Instance>(t: &P::Hash, adrs: &Adrs, out: &mut [Node]) {
    let mut sk_adrs = [*adrs; MAX_WOTS_LEN];
    for (i, a) in sk_adrs.iter_mut().enumerate().take(P::PARAMS.wots_len()) {
        a.set_type_and_clear(AdrsType::WotsPrf);
        a.set_key_pair_address(adrs.key_pair_address());
        a.set_chain_address(i as u32);
    }
    t.prf_batch(&sk_adrs[..P::PARAMS.wots_len()], out);
}

/// Compresses the chain ends into a WOTS+ public key with T_len.
fn compress<P: Instance>(t: &P::Hash, adrs: &Adrs, ends: &[Node]) -> Node {
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(AdrsType::WotsPk);
    pk_adrs.set_key_pair_address(adrs.key_pair_address());
    crate::hash::t_l(t, &pk_adrs, ends)
}

/// Leaves whose WOTS+ keys [`wots_pkgen_many`] computes together: with 35 to
/// 67 chains each, four keys fill 8- and 16-lane kernels with little waste.
pub(crate) const PKGEN_LEAVES: usize = 4;

/// `wots_pkGen` (Algorithm 6) for the keys `first .. first + out.len()` of the
/// XMSS tree at `adrs` (out.len() ≤ [`PKGEN_LEAVES`]): every chain of every
/// key advances in one batch per step.
pub(crate) fn wots_pkgen_many<P: Instance>(t: &P::Hash, adrs: &Adrs, first: u32, out: &mut [Node]) {
    const MAX: usize = PKGEN_LEAVES * MAX_WOTS_LEN;
    let len = P::PARAMS.wots_len();
    let total = len * out.len();
    let mut vals = [[0u8; MAX_N]; MAX];
    let mut batch_adrs = [Adrs::new(); MAX];
    for (leaf, a) in batch_adrs[..total].chunks_exact_mut(len).enumerate() {
        for (i, a) in a.iter_mut().enumerate() {
            *a = *adrs;
            a.set_type_and_clear(AdrsType::WotsPrf);
            a.set_key_pair_address(first + leaf as u32);
            a.set_chain_address(i as u32);
        }
    }
    t.prf_batch(&batch_adrs[..total], &mut vals[..total]);
    for (leaf, a) in batch_adrs[..total].chunks_exact_mut(len).enumerate() {
        for (i, a) in a.iter_mut().enumerate() {
            *a = *adrs;
            a.set_type_and_clear(AdrsType::WotsHash);
            a.set_key_pair_address(first + leaf as u32);
            a.set_chain_address(i as u32);
        }
    }
    for step in 0..W as u32 - 1 {
        for a in &mut batch_adrs[..total] {
            a.set_hash_address(step);
        }
        t.f_batch(&batch_adrs[..total], &mut vals[..total]);
    }
    let mut pk_adrs = [Adrs::new(); PKGEN_LEAVES];
    let mut ends: [&[Node]; PKGEN_LEAVES] = [&[]; PKGEN_LEAVES];
    for (leaf, (a, e)) in pk_adrs
        .iter_mut()
        .zip(&mut ends)
        .enumerate()
        .take(out.len())
    {
        *a = *adrs;
        a.set_type_and_clear(AdrsType::WotsPk);
        a.set_key_pair_address(first + leaf as u32);
        *e = &vals[leaf * len..(leaf + 1) * len];
    }
    t.t_batch(&pk_adrs[..out.len()], &ends[..out.len()], out);
    // The chain values below the ends are secret.
    wipe(vals[..total].as_flattened_mut());
}

/// `wots_sign` (Algorithm 7): signs the n-byte `msg`, writing `len·n` bytes to `sig`.
pub(crate) fn wots_sign<P: Instance>(t: &P::Hash, msg: &[u8], adrs: &Adrs, sig: &mut [u8]) {
    let (n, len) = (P::PARAMS.n, P::PARAMS.wots_len());
    let steps = digits::<P>(msg);
    let mut vals = [[0u8; MAX_N]; MAX_WOTS_LEN];
    secret_values::<P>(t, adrs, &mut vals[..len]);
    let start = [0u8; MAX_WOTS_LEN];
    chains(t, adrs, &start[..len], &steps[..len], &mut vals[..len]);
    for (chunk, v) in sig.chunks_exact_mut(n).zip(&vals[..len]) {
        chunk.copy_from_slice(&v[..n]);
    }
    wipe(vals[..len].as_flattened_mut());
}

/// `wots_pkFromSig` (Algorithm 8): the public key a WOTS+ signature implies.
pub(crate) fn wots_pk_from_sig<P: Instance>(
    t: &P::Hash,
    sig: &[u8],
    msg: &[u8],
    adrs: &Adrs,
) -> Node {
    let (n, len) = (P::PARAMS.n, P::PARAMS.wots_len());
    let start = digits::<P>(msg);
    let mut steps = [0u8; MAX_WOTS_LEN];
    let mut vals = [[0u8; MAX_N]; MAX_WOTS_LEN];
    for i in 0..len {
        steps[i] = W as u8 - 1 - start[i];
        vals[i][..n].copy_from_slice(&sig[i * n..(i + 1) * n]);
    }
    chains(t, adrs, &start[..len], &steps[..len], &mut vals[..len]);
    compress::<P>(t, adrs, &vals[..len])
}
