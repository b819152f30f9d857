//! WOTS+ one-time signatures (FIPS 205 §5, Algorithms 5–8). All chains of a
//! key advance together in one fused chain call (`TweakableHash::f_chains`).

use crate::address::{Adrs, AdrsType};
use crate::bits::base_2b_each;
use crate::hash::{wipe, Node, TweakableHash, MULTI_LANE};
use crate::params::{Instance, MAX_N, MAX_W, MAX_WOTS_LEN};

/// Largest WOTS+ len of the FIPS 205 sets (n = 32, lg_w = 4); working
/// buffers are sized for it where the longer keys of draft SP 800-230 can
/// take another path.
const FIPS205_MAX_WOTS_LEN: usize = 67;

/// Largest WOTS+ len of every set but draft SP 800-230's 256-24 (133): 68,
/// SHA2/SHAKE-128-24's. Verification's working buffers are sized for it.
const SHORT_WOTS_LEN: usize = 68;

/// The base-w digits of an n-byte message followed by its checksum digits
/// (the first steps of Algorithms 7 and 8). lg_w is a constant of each set's
/// code: 4 for FIPS 205 (len2 = 3 digits, shift 4), 2 or 3 for SP 800-230.
fn digits<P: Instance>(msg: &[u8]) -> [u8; MAX_WOTS_LEN] {
    let p = P::PARAMS;
    let (len1, len) = (p.wots_len1(), p.wots_len());
    let max = p.w() as u32 - 1;
    let mut out = [0u8; MAX_WOTS_LEN];
    let mut csum = 0u32;
    base_2b_each(&msg[..p.n], p.lg_w, len1, |i, x| {
        out[i] = x as u8;
        csum += max - x;
    });
    // len2 · lg_w bits, shifted left to fill whole bytes (at most two here).
    let csum_be = (csum << p.csum_shift()).to_be_bytes();
    base_2b_each(
        &csum_be[4 - p.csum_bytes()..],
        p.lg_w,
        len - len1,
        |i, x| {
            out[len1 + i] = x as u8;
        },
    );
    out
}

/// `chain` (Algorithm 5) for many chains at once, of up to `G` keys: chain
/// `i`, at `adrs[i]` (its chain address set), advances `steps[i]` times from
/// position `start[i]`. The chains are ordered longest first (so the ones
/// still running at any step are a prefix) and advanced in one fused chain
/// call.
fn chains<T: TweakableHash, const G: usize>(
    t: &T,
    adrs: &[Adrs],
    start: &[u8],
    steps: &[u8],
    vals: &mut [Node],
) {
    // The working buffers are zeroed on every call: sized for the FIPS 205
    // keys (len ≤ 67) unless the chains need the room of the longest keys of
    // any set (draft SP 800-230, 133), so that those sets do not double the
    // cost for every other.
    if adrs.len() <= G * FIPS205_MAX_WOTS_LEN {
        chains_in::<T, G, FIPS205_MAX_WOTS_LEN>(t, adrs, start, steps, vals)
    } else {
        chains_in::<T, G, MAX_WOTS_LEN>(t, adrs, start, steps, vals)
    }
}

/// [`chains`] with buffers for `G` keys of up to `L` chains each.
fn chains_in<T: TweakableHash, const G: usize, const L: usize>(
    t: &T,
    adrs: &[Adrs],
    start: &[u8],
    steps: &[u8],
    vals: &mut [Node],
) {
    let count = adrs.len();
    // A counting sort by steps (0..w), longest first.
    let mut bucket_end = [0usize; MAX_W];
    for &s in steps {
        bucket_end[MAX_W - 1 - s as usize] += 1;
    }
    for b in 1..MAX_W {
        bucket_end[b] += bucket_end[b - 1];
    }
    let mut order_buf = [[0u16; L]; G];
    let order = &mut order_buf.as_flattened_mut()[..count];
    for (i, &s) in steps.iter().enumerate().rev() {
        let b = &mut bucket_end[MAX_W - 1 - s as usize];
        *b -= 1;
        order[*b] = i as u16;
    }
    let mut a_buf = [[Adrs::new(); L]; G];
    let mut v_buf = [[[0u8; MAX_N]; L]; G];
    let a = &mut a_buf.as_flattened_mut()[..count];
    let v = &mut v_buf.as_flattened_mut()[..count];
    for (r, &i) in order.iter().enumerate() {
        a[r] = adrs[i as usize];
        v[r] = vals[i as usize];
    }
    let mut sorted_buf = [[0u8; L]; G];
    let sorted = &mut sorted_buf.as_flattened_mut()[..count];
    for ((a, s), &i) in a.iter_mut().zip(sorted.iter_mut()).zip(order.iter()) {
        a.set_hash_address(u32::from(start[i as usize]));
        *s = steps[i as usize];
    }
    t.f_chains(a, v, sorted);
    for (r, &i) in order.iter().enumerate() {
        vals[i as usize] = v[r];
    }
    // Copies of chain values, secret while signing.
    wipe(v.as_flattened_mut());
}

/// The addresses of the chains of the WOTS+ key at `adrs`, one per chain.
fn chain_adrs(adrs: &Adrs, out: &mut [Adrs]) {
    for (i, a) in out.iter_mut().enumerate() {
        *a = *adrs;
        a.set_chain_address(i as u32);
    }
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

/// A WOTS+ key's chains part way: the values a signature by key `leaf`
/// reached (Algorithm 7: chain i stops after `steps[i]` steps, the
/// message's base-w digits and checksum). [`wots_pkgen_many`] can finish
/// that key's public key from them.
pub(crate) struct Resume {
    pub(crate) leaf: u32,
    values: [Node; MAX_WOTS_LEN],
    steps: [u8; MAX_WOTS_LEN],
}

impl Resume {
    /// The resume point of `sig`, the WOTS+ signature of the n-byte `msg`
    /// by key `leaf` (as [`wots_sign`] wrote it).
    pub(crate) fn from_signature<P: Instance>(leaf: u32, msg: &[u8], sig: &[u8]) -> Self {
        let n = P::PARAMS.n;
        let mut values = [[0u8; MAX_N]; MAX_WOTS_LEN];
        for (v, chunk) in values.iter_mut().zip(sig.chunks_exact(n)) {
            v[..n].copy_from_slice(chunk);
        }
        Resume {
            leaf,
            values,
            steps: digits::<P>(msg),
        }
    }
}

/// Leaves whose WOTS+ keys [`wots_pkgen_many`] computes together: with 35 to
/// 67 chains each, the chains of eight keys fill 8- and 16-lane kernels with
/// little waste, and so do their eight T_len calls the 8-lane SHA-512
/// kernel of categories 3 and 5 (four keys left half of it idle: keygen
/// 2–3 % slower).
pub(crate) const PKGEN_LEAVES: usize = 8;

/// Chains [`wots_pkgen_many`] holds at once: eight keys of a FIPS 205 set
/// (len ≤ 67). Its buffers are zeroed on every call, so they are sized for
/// these rather than for the longest keys of any set (133 chains, draft
/// SP 800-230), which would double that cost for every FIPS 205 key; keys
/// of more than 67 chains go fewer at a time ([`pkgen_leaves`]).
const PKGEN_CHAINS: usize = PKGEN_LEAVES * FIPS205_MAX_WOTS_LEN;

/// How many WOTS+ keys of `len` chains [`wots_pkgen_many`] takes at once.
pub(crate) const fn pkgen_leaves(len: usize) -> usize {
    let fit = PKGEN_CHAINS / len;
    if fit < PKGEN_LEAVES {
        fit
    } else {
        PKGEN_LEAVES
    }
}

/// `wots_pkGen` (Algorithm 6) for the keys `first .. first + out.len()` of the
/// XMSS tree at `adrs` (out.len() ≤ [`pkgen_leaves`] of the set's len): every
/// chain of every key runs its whole length in one fused call.
///
/// With `resume`, the chains of key `resume.leaf`, if it is among them,
/// continue from the values a signature by that key already reached
/// (Algorithm 5 runs the same steps either way) instead of from PRF
/// outputs: signing then walks each of its chains once, not twice.
pub(crate) fn wots_pkgen_many<P: Instance>(
    t: &P::Hash,
    adrs: &Adrs,
    first: u32,
    out: &mut [Node],
    resume: Option<&Resume>,
) {
    const MAX: usize = PKGEN_CHAINS;
    let (len, top) = (P::PARAMS.wots_len(), (P::PARAMS.w() - 1) as u8);
    let (count, total) = (out.len(), len * out.len());
    assert!(total <= MAX, "at most pkgen_leaves(len) keys per call");
    // The resumed key, if it is one of these, goes last (`key_at`: the key
    // at each position), its chains longest first: the other chains all
    // run w − 1 steps, so the lanes stay in step until the resumed chains'
    // varied lengths come at the end.
    let resumed = resume.and_then(|r| {
        let key = r.leaf.checked_sub(first)? as usize;
        (key < count).then_some((r, key))
    });
    let key_at = |pos: usize| match resumed {
        Some((_, key)) if pos == count - 1 => key,
        Some((_, key)) if pos >= key => pos + 1,
        _ => pos,
    };
    let mut vals = [[0u8; MAX_N]; MAX];
    let mut batch_adrs = [Adrs::new(); MAX];
    for (pos, a) in batch_adrs[..total].chunks_exact_mut(len).enumerate() {
        for (i, a) in a.iter_mut().enumerate() {
            *a = *adrs;
            a.set_type_and_clear(AdrsType::WotsHash);
            a.set_key_pair_address(first + key_at(pos) as u32);
            a.set_chain_address(i as u32);
        }
    }
    // The resumed key's chains need no PRF.
    let fresh = if resumed.is_some() {
        total - len
    } else {
        total
    };
    // Every chain runs its whole length (hash addresses 0 .. w−2) in one
    // fused call, from its PRF output (same address but the type, hash
    // address 0: set_type_and_clear left it there). A resumed chain starts
    // at the step its signature value reached.
    let mut steps = [top; MAX];
    let mut order = [0usize; MAX_WOTS_LEN];
    if let Some((r, _)) = resumed {
        for (i, o) in order[..len].iter_mut().enumerate() {
            *o = i;
        }
        order[..len].sort_unstable_by_key(|&i| r.steps[i]);
        for (c, &i) in (fresh..total).zip(&order[..len]) {
            vals[c] = r.values[i];
            batch_adrs[c].set_chain_address(i as u32);
            batch_adrs[c].set_hash_address(u32::from(r.steps[i]));
            steps[c] = top - r.steps[i];
        }
    }
    t.prf_chains(
        (AdrsType::WotsPrf, AdrsType::WotsHash),
        fresh,
        &mut batch_adrs[..total],
        &mut vals[..total],
        &steps[..total],
    );
    if resumed.is_some() {
        // Back to chain order for T_len.
        let mut ends = [[0u8; MAX_N]; MAX_WOTS_LEN];
        for (c, &i) in (fresh..total).zip(&order[..len]) {
            ends[i] = vals[c];
        }
        vals[fresh..total].copy_from_slice(&ends[..len]);
        wipe(ends.as_flattened_mut());
    }
    let mut pk_adrs = [Adrs::new(); PKGEN_LEAVES];
    let mut ends: [&[Node]; PKGEN_LEAVES] = [&[]; PKGEN_LEAVES];
    let mut outs = [[0u8; MAX_N]; PKGEN_LEAVES];
    for (pos, (a, e)) in pk_adrs.iter_mut().zip(&mut ends).enumerate().take(count) {
        *a = *adrs;
        a.set_type_and_clear(AdrsType::WotsPk);
        a.set_key_pair_address(first + key_at(pos) as u32);
        *e = &vals[pos * len..(pos + 1) * len];
    }
    t.t_batch(&pk_adrs[..count], &ends[..count], &mut outs[..count]);
    for (pos, o) in outs[..count].iter().enumerate() {
        out[key_at(pos)] = *o;
    }
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
    let mut a = [Adrs::new(); MAX_WOTS_LEN];
    chain_adrs(adrs, &mut a[..len]);
    chains::<_, 1>(t, &a[..len], &start[..len], &steps[..len], &mut vals[..len]);
    for (chunk, v) in sig.chunks_exact_mut(n).zip(&vals[..len]) {
        chunk.copy_from_slice(&v[..n]);
    }
    wipe(vals[..len].as_flattened_mut());
}

/// `wots_pkFromSig` (Algorithm 8) for up to `G` signatures side by side:
/// `out[j]` is the public key that WOTS+ signature `sigs[j]` of the n-byte
/// message `msgs[j]` implies under the key at `adrs[j]` (type WOTS_HASH, key
/// pair set). Every chain of every key advances in one fused chain call, and
/// the keys are compressed in one T_len batch.
pub(crate) fn wots_pk_from_sig<P: Instance, const G: usize>(
    t: &P::Hash,
    sigs: &[&[u8]],
    msgs: &[Node],
    adrs: &[Adrs],
    out: &mut [Node],
) {
    if !MULTI_LANE {
        // No multi-lane kernels (a microcontroller): one chain at a time,
        // keeping only the chain ends; the batch buffers below would cost
        // about 13 KiB of stack more and gain nothing there.
        for (j, o) in out[..sigs.len()].iter_mut().enumerate() {
            wots_pk_from_sig_one::<P>(t, sigs[j], &msgs[j], &adrs[j], o);
        }
        return;
    }
    wots_pk_from_sig_batched::<P, G>(t, sigs, msgs, adrs, out);
}

/// [`wots_pk_from_sig`] with every chain of every key advancing together.
fn wots_pk_from_sig_batched<P: Instance, const G: usize>(
    t: &P::Hash,
    sigs: &[&[u8]],
    msgs: &[Node],
    adrs: &[Adrs],
    out: &mut [Node],
) {
    // Its buffers are zeroed on every call (once per hypertree layer): sized
    // for the keys of every set but draft SP 800-230's 256-24 (len ≤ 68:
    // FIPS 205 and the 128-24 and 192-24 sets) unless the key is longer.
    if P::PARAMS.wots_len() <= SHORT_WOTS_LEN {
        pk_from_sig_in::<P, G, SHORT_WOTS_LEN>(t, sigs, msgs, adrs, out)
    } else {
        pk_from_sig_in::<P, G, MAX_WOTS_LEN>(t, sigs, msgs, adrs, out)
    }
}

/// [`wots_pk_from_sig_batched`] with buffers for `G` keys of up to `L`
/// chains each. The chains are loaded from the signatures straight into
/// their places sorted by steps, longest first (the order [`chains`] builds
/// with a copy in and out), so the ones still running at any step are a
/// prefix; the ends go back to chain order only once, for T_len. Nothing
/// here is secret, so nothing is wiped.
fn pk_from_sig_in<P: Instance, const G: usize, const L: usize>(
    t: &P::Hash,
    sigs: &[&[u8]],
    msgs: &[Node],
    adrs: &[Adrs],
    out: &mut [Node],
) {
    let (n, len) = (P::PARAMS.n, P::PARAMS.wots_len());
    let last = (P::PARAMS.w() - 1) as u8;
    let g = sigs.len();
    let total = g * len;
    // Chain i of key j is chain j·len + i; its start digit.
    let mut start_buf = [[0u8; L]; G];
    let start = &mut start_buf.as_flattened_mut()[..total];
    // A counting sort by steps (last − start, 0..w), longest first.
    let mut bucket_end = [0usize; MAX_W];
    for j in 0..g {
        let d = digits::<P>(&msgs[j]);
        start[j * len..(j + 1) * len].copy_from_slice(&d[..len]);
        for &x in &d[..len] {
            // Bucket of steps s is MAX_W − 1 − s = MAX_W − 1 − last + x.
            bucket_end[MAX_W - 1 - usize::from(last) + usize::from(x)] += 1;
        }
    }
    for b in 1..MAX_W {
        bucket_end[b] += bucket_end[b - 1];
    }
    let mut order_buf = [[0u16; L]; G];
    let mut a_buf = [[Adrs::new(); L]; G];
    let mut v_buf = [[[0u8; MAX_N]; L]; G];
    let order = &mut order_buf.as_flattened_mut()[..total];
    let a = &mut a_buf.as_flattened_mut()[..total];
    let v = &mut v_buf.as_flattened_mut()[..total];
    // The start digits in sorted order too (they become the steps below).
    let mut sorted_buf = [[0u8; L]; G];
    let sorted = &mut sorted_buf.as_flattened_mut()[..total];
    for c in (0..total).rev() {
        let b = &mut bucket_end[MAX_W - 1 - usize::from(last) + usize::from(start[c])];
        *b -= 1;
        let r = *b;
        order[r] = c as u16;
        sorted[r] = start[c];
        let (j, i) = (c / len, c % len);
        a[r] = adrs[j];
        a[r].set_chain_address(i as u32);
        v[r][..n].copy_from_slice(&sigs[j][i * n..(i + 1) * n]);
    }
    // Each chain's steps (last − start) in the same order, in place of
    // its start digit, which its address now holds.
    for (a, x) in a.iter_mut().zip(sorted.iter_mut()) {
        a.set_hash_address(u32::from(*x));
        *x = last - *x;
    }
    t.f_chains(a, v, sorted);
    // The ends back in chain order, each key's contiguous for T_len: in
    // place, along the permutation's cycles (every swap puts one end home).
    for r in 0..total {
        while usize::from(order[r]) != r {
            let c = usize::from(order[r]);
            v.swap(r, c);
            order.swap(r, c);
        }
    }
    let ends = &*v;
    let mut pk_adrs = [Adrs::new(); G];
    let mut keys: [&[Node]; G] = [&[]; G];
    for j in 0..g {
        pk_adrs[j] = adrs[j];
        pk_adrs[j].set_type_and_clear(AdrsType::WotsPk);
        pk_adrs[j].set_key_pair_address(adrs[j].key_pair_address());
        keys[j] = &ends[j * len..(j + 1) * len];
    }
    t.t_batch(&pk_adrs[..g], &keys[..g], &mut out[..g]);
}

/// [`wots_pk_from_sig`] of one signature, each chain advanced on its own
/// (Algorithm 8 as written) and its end absorbed into T_len as soon as it is
/// reached: the least stack (one chain value and one hash state), the
/// signature read in place.
fn wots_pk_from_sig_one<P: Instance>(
    t: &P::Hash,
    sig: &[u8],
    msg: &Node,
    adrs: &Adrs,
    out: &mut Node,
) {
    let (n, len) = (P::PARAMS.n, P::PARAMS.wots_len());
    let d = digits::<P>(msg);
    let last = (P::PARAMS.w() - 1) as u8;
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(AdrsType::WotsPk);
    pk_adrs.set_key_pair_address(adrs.key_pair_address());
    *out = t.t_stream(&pk_adrs, len, &mut |i, end| {
        // Algorithm 8, line 9: chain(sig[i], msg[i], w − 1 − msg[i]).
        *end = [0; MAX_N];
        end[..n].copy_from_slice(&sig[i * n..(i + 1) * n]);
        let mut a = *adrs;
        a.set_chain_address(i as u32);
        a.set_hash_address(u32::from(d[i]));
        t.f_chains(
            core::slice::from_mut(&mut a),
            core::slice::from_mut(end),
            &[last - d[i]],
        );
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Sha2_128s, Sha2_256f, Shake128_24, Shake128f, Shake256_24};

    /// The one-chain-at-a-time path (targets without multi-lane kernels)
    /// gives the batched path's public keys.
    fn one_lane_equals_batched<P: Instance>() {
        let p = P::PARAMS;
        let (n, len) = (p.n, p.wots_len());
        let t = P::Hash::new(n, &[7u8; MAX_N][..n], None);
        let sig: std::vec::Vec<u8> = (0..len * n).map(|i| (i * 131 % 251) as u8).collect();
        for k in 0..4u8 {
            let mut msg = [0u8; MAX_N];
            for (i, b) in msg[..n].iter_mut().enumerate() {
                *b = (i as u8).wrapping_mul(37) ^ k.wrapping_mul(91);
            }
            let mut adrs = Adrs::new();
            adrs.set_layer_address(1);
            adrs.set_tree_address(5);
            adrs.set_type_and_clear(AdrsType::WotsHash);
            adrs.set_key_pair_address(3 + u32::from(k));
            let mut want = [[0u8; MAX_N]];
            wots_pk_from_sig_batched::<P, 1>(&t, &[&sig], &[msg], &[adrs], &mut want);
            let mut got = [0u8; MAX_N];
            wots_pk_from_sig_one::<P>(&t, &sig, &msg, &adrs, &mut got);
            assert_eq!(got, want[0], "{} message {k}", P::NAME);
        }
    }

    /// A family's `f_chains` (the fused overrides of SHAKE and SHA-2, the
    /// default elsewhere) against each chain run on its own, one `f_batch`
    /// per step: the same values and the hash addresses left at the next
    /// step's, for chain counts that fill no group, chains of 15 down to 0
    /// steps, and first hash addresses above 0.
    fn fused_equals_stepwise<T: TweakableHash>(n: usize) {
        let t = T::new(n, &[5u8; MAX_N][..n], Some(&[6u8; MAX_N][..n]));
        for count in [1, 2, 5, 13, 35, 67, 139] {
            let mut adrs: std::vec::Vec<Adrs> = (0..count)
                .map(|i| {
                    let mut a = Adrs::new();
                    a.set_type_and_clear(AdrsType::WotsHash);
                    a.set_key_pair_address(i as u32 / 35);
                    a.set_chain_address(i as u32);
                    a.set_hash_address(2 + (i % 3) as u32);
                    a
                })
                .collect();
            let mut vals: std::vec::Vec<Node> = (0..count)
                .map(|i| {
                    let mut v = [0u8; MAX_N];
                    for (j, b) in v[..n].iter_mut().enumerate() {
                        *b = (i * 7 + j * 13) as u8;
                    }
                    v
                })
                .collect();
            // Longest first, from w − 1 = 15 down to 0.
            let steps: std::vec::Vec<u8> = (0..count)
                .map(|i| ((count - 1 - i) * 16 / count) as u8)
                .collect();
            let (mut want_adrs, mut want) = (adrs.clone(), vals.clone());
            for ((w, v), &k) in want_adrs.iter_mut().zip(&mut want).zip(&steps) {
                for _ in 0..k {
                    t.f_batch(core::slice::from_ref(w), core::slice::from_mut(v));
                    w.set_hash_address(w.tree_index() + 1);
                }
            }
            t.f_chains(&mut adrs, &mut vals, &steps);
            assert_eq!(vals, want, "n {n} count {count}");
            assert_eq!(adrs, want_adrs, "n {n} count {count}");
        }
    }

    #[test]
    fn fused_chains_equal_stepwise_on_every_backend() {
        use crate::hash::backend::{with_backend, Backend};
        use crate::hash::{HarakaSimple, Robust, Sha2Cat1, Sha2Cat35, Shake};
        for b in Backend::available() {
            with_backend(b, || {
                for n in [16, 24, 32] {
                    fused_equals_stepwise::<Shake>(n);
                    fused_equals_stepwise::<Sha2Cat1>(n);
                    fused_equals_stepwise::<Sha2Cat35>(n);
                    fused_equals_stepwise::<Robust<Shake>>(n);
                    fused_equals_stepwise::<HarakaSimple>(n);
                }
            })
            .unwrap();
        }
    }

    /// Public keys continued from a WOTS+ signature (`resume`) equal those
    /// computed from the secret values, for the signing key at every
    /// position of a batch and for batches that do not hold it.
    fn resumed_equals_fresh<P: Instance>() {
        let p = P::PARAMS;
        let (n, count) = (p.n, pkgen_leaves(p.wots_len()));
        let t = P::Hash::new(n, &[7u8; MAX_N][..n], Some(&[9u8; MAX_N][..n]));
        let mut tree = Adrs::new();
        tree.set_layer_address(2);
        tree.set_tree_address(11);
        let first = 8;
        let mut want = [[0u8; MAX_N]; PKGEN_LEAVES];
        wots_pkgen_many::<P>(&t, &tree, first, &mut want[..count], None);
        let mut msg = [0u8; MAX_N];
        for (i, b) in msg[..n].iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(73) ^ 0x5c;
        }
        for leaf in first - 1..=first + count as u32 {
            let mut key = tree;
            key.set_type_and_clear(AdrsType::WotsHash);
            key.set_key_pair_address(leaf);
            let mut sig = [0u8; MAX_WOTS_LEN * MAX_N];
            let sig = &mut sig[..p.wots_len() * n];
            wots_sign::<P>(&t, &msg[..n], &key, sig);
            let resume = Resume::from_signature::<P>(leaf, &msg[..n], sig);
            let mut got = [[0u8; MAX_N]; PKGEN_LEAVES];
            wots_pkgen_many::<P>(&t, &tree, first, &mut got[..count], Some(&resume));
            assert_eq!(got, want, "{} leaf {leaf}", P::NAME);
        }
    }

    #[test]
    fn resumed_keys_equal_fresh_keys() {
        resumed_equals_fresh::<Shake128f>();
        resumed_equals_fresh::<Sha2_128s>();
        resumed_equals_fresh::<Sha2_256f>();
        resumed_equals_fresh::<Shake128_24>();
        resumed_equals_fresh::<Shake256_24>();
    }

    #[test]
    fn one_lane_path_equals_batched_path() {
        one_lane_equals_batched::<Shake128f>();
        one_lane_equals_batched::<Sha2_128s>();
        one_lane_equals_batched::<Sha2_256f>();
        one_lane_equals_batched::<Shake128_24>();
        one_lane_equals_batched::<Shake256_24>();
    }
}
