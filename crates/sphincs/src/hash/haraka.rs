//! The Haraka family of SPHINCS+ round 3.1 (specification v3.1, §7.2.3),
//! "simple" and "robust". Not part of FIPS 205, which dropped it; kept for
//! the round-3.1 parameter sets.
//!
//! Every function runs under round constants derived from `PK.seed` (see
//! [`tweak_constants`]), so `PK.seed` is never hashed as such, and `H_msg`
//! does not absorb it. The address is the full 32-byte ADRS, and exactly one
//! Haraka-S block: the robust masks and the masked message both start after
//! it on a block boundary.

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::backend::haraka::{
    haraka256_many, haraka512_many, haraka512_perm_many, haraka_s_parts_many, tweak_constants,
    HarakaRc, HarakaS, RATE,
};
use super::backend::lanes::{copy_block, total_len, Parts};
use super::backend::Kernels;
use super::common::{
    node_prefix, one_block_batch, wipe, with_const_n, Absorb, HMsgFinish, Node, PrfMsgFinish,
    TweakableHash, Values, GROUP, T_GROUP,
};
use crate::address::Adrs;
use crate::limits::{MAX_N, MAX_WOTS_LEN};

/// Haraka tweakable hashes of SPHINCS+ round 3.1; `ROBUST` selects the
/// robust variant (inputs masked with Haraka outputs of the address).
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct Haraka<const ROBUST: bool> {
    #[zeroize(skip)]
    kernels: Kernels,
    n: usize,
    /// The round constants under `PK.seed`: public, like `PK.seed`.
    #[zeroize(skip)]
    rc: HarakaRc,
    sk_seed: Option<Node>,
}

/// The "simple" instances (sphincs-haraka-*-simple).
pub type HarakaSimple = Haraka<false>;
/// The "robust" instances (sphincs-haraka-*-robust).
pub type HarakaRobust = Haraka<true>;

/// Streaming Haraka-S: `H_msg` squeezes m bytes from it.
#[derive(Clone)]
pub struct HarakaStream(HarakaS);

impl Absorb for HarakaStream {
    fn absorb(&mut self, data: &[u8]) {
        self.0.absorb(data);
    }
}

impl HMsgFinish for HarakaStream {
    fn finish(self, out: &mut [u8]) {
        self.0.finish(out);
    }
}

/// Streaming `PRF_msg`: Haraka-S squeezed to n bytes.
pub struct HarakaPrfMsg {
    s: HarakaS,
    n: usize,
}

impl Absorb for HarakaPrfMsg {
    fn absorb(&mut self, data: &[u8]) {
        self.s.absorb(data);
    }
}

impl PrfMsgFinish for HarakaPrfMsg {
    fn finish(self) -> Node {
        let mut out = [0u8; MAX_N];
        self.s.finish(&mut out[..self.n]);
        out
    }
}

impl<const ROBUST: bool> Haraka<ROBUST> {
    /// Simple F and PRF: Haraka-512 of `ADRS ‖ value ‖ 0…` truncated to n.
    fn one_block(&self, adrs: &[Adrs], values: Values<'_>, io: &mut [Node]) {
        let (k, rc, n) = (self.kernels.haraka, &self.rc, self.n);
        with_const_n!(n, N => one_block_batch::<64, N>(
            adrs,
            values,
            io,
            &[0u8; 64],
            self.sk_seed.is_some(),
            |b, a, v, _| {
                b[..32].copy_from_slice(&a.0);
                b[32..32 + N].copy_from_slice(v);
            },
            |blocks, out| {
                let mut h = [[0u8; 32]; GROUP];
                haraka512_many(k, rc, blocks, &mut h[..blocks.len()]);
                for (o, h) in out.iter_mut().zip(&h) {
                    *o = node_prefix(h, n);
                }
                wipe(h.as_flattened_mut());
            },
        ));
    }

    /// Robust F: the value masked with Haraka-256(ADRS) before Haraka-512.
    fn f_robust(&self, adrs: &[Adrs], io: &mut [Node]) {
        let (k, rc, n) = (self.kernels.haraka, &self.rc, self.n);
        let mut ad = [[0u8; 32]; GROUP];
        let mut masks = [[0u8; 32]; GROUP];
        let mut blocks = [[0u8; 64]; GROUP];
        let mut h = [[0u8; 32]; GROUP];
        for (a, io) in adrs.chunks(GROUP).zip(io.chunks_mut(GROUP)) {
            let g = a.len();
            for (d, a) in ad.iter_mut().zip(a) {
                *d = a.0;
            }
            haraka256_many(k, rc, &ad[..g], &mut masks[..g]);
            for (((b, d), m), v) in blocks.iter_mut().zip(&ad).zip(&masks).zip(io.iter()) {
                let masked: [u8; 32] = core::array::from_fn(|j| v[j] ^ m[j]);
                b[..32].copy_from_slice(d);
                b[32..].copy_from_slice(&node_prefix(&masked, n));
            }
            haraka512_many(k, rc, &blocks[..g], &mut h[..g]);
            for (o, h) in io.iter_mut().zip(&h) {
                *o = node_prefix(h, n);
            }
        }
        // Secret chain values while signing.
        wipe(blocks.as_flattened_mut());
        wipe(h.as_flattened_mut());
    }

    /// Simple H and T_l: Haraka-S of `ADRS ‖ values` squeezed to n bytes.
    fn s_simple(&self, inputs: &[Parts<'_>], out: &mut [Node]) {
        let n = self.n;
        let mut refs: [&mut [u8]; GROUP] = Default::default();
        for (r, o) in refs.iter_mut().zip(out.iter_mut()) {
            *o = [0; MAX_N];
            *r = &mut o[..n];
        }
        haraka_s_parts_many(
            self.kernels.haraka,
            &self.rc,
            inputs,
            &mut refs[..inputs.len()],
        );
    }

    /// Robust H and T_l for up to [`GROUP`] calls: Haraka-S(ADRS ‖ (M ⊕
    /// mask)) with mask = Haraka-S(ADRS) squeezed to |M| bytes.
    ///
    /// The two sponges of each call run together: states `0..g` squeeze the
    /// masks, states `g..2g` absorb the masked message one step behind, each
    /// block as soon as its mask block is out, so no mask is ever stored
    /// whole. Both sponges begin by absorbing ADRS, one whole block, so they
    /// share their first permutation.
    fn s_robust(&self, adrs: &[Adrs], msgs: &[Parts<'_>], out: &mut [Node]) {
        let (k, rc, n) = (self.kernels.haraka, &self.rc, self.n);
        let g = adrs.len();
        debug_assert!(g <= GROUP && msgs.len() == g);
        let len = total_len(msgs[0]);
        let mut st = [[0u8; 64]; 2 * GROUP];
        for (s, a) in st.iter_mut().zip(adrs) {
            s[..32].copy_from_slice(&a.0);
        }
        haraka512_perm_many(k, rc, &mut st[..g]);
        for i in 0..g {
            st[g + i] = st[i];
            // The mask sponge's whole input was ADRS: pad an empty block.
            st[i][0] ^= 0x1f;
            st[i][RATE - 1] ^= 0x80;
        }
        let blocks = len / RATE + 1;
        let mut blk = [0u8; RATE];
        for b in 0..blocks {
            let valid = len.saturating_sub(b * RATE).min(RATE);
            // Mask block b (while any message byte is left) and the message
            // sponge after its block b − 1 (from block 1 on), in one call.
            let first = if valid > 0 { 0 } else { g };
            let last = if b == 0 { g } else { 2 * g };
            haraka512_perm_many(k, rc, &mut st[first..last]);
            let (masks, main) = st.split_at_mut(g);
            for ((m, s), parts) in masks.iter().zip(main.iter_mut()).zip(msgs) {
                copy_block(parts, b * RATE, &mut blk);
                for (x, y) in blk[..valid].iter_mut().zip(m) {
                    *x ^= y;
                }
                if b + 1 == blocks {
                    blk[valid] ^= 0x1f;
                    blk[RATE - 1] ^= 0x80;
                }
                for (x, y) in s.iter_mut().zip(&blk) {
                    *x ^= y;
                }
            }
        }
        haraka512_perm_many(k, rc, &mut st[g..2 * g]);
        for (o, s) in out.iter_mut().zip(&st[g..2 * g]) {
            *o = node_prefix(s[..32].try_into().expect("32 bytes"), n);
        }
        wipe(st.as_flattened_mut());
        wipe(&mut blk);
    }

    /// H or T_l for up to G calls, `values[i]` the l nodes of call i; P is
    /// the most parts a call has (ADRS and l values).
    fn tweak_group<const G: usize, const P: usize>(
        &self,
        adrs: &[Adrs],
        values: &[&[Node]],
        out: &mut [Node],
    ) {
        let n = self.n;
        let l = values[0].len();
        // The simple variant hashes ADRS as the first part; the robust one
        // handles it itself.
        let skip = usize::from(!ROBUST);
        let mut parts = [[&[][..]; P]; G];
        for ((p, a), v) in parts.iter_mut().zip(adrs).zip(values) {
            p[0] = &a.0;
            for (q, x) in p[skip..].iter_mut().zip(v.iter()) {
                *q = &x[..n];
            }
        }
        let mut refs: [Parts<'_>; G] = [&[]; G];
        for (r, p) in refs.iter_mut().zip(&parts) {
            *r = &p[..skip + l];
        }
        let refs = &refs[..adrs.len()];
        if ROBUST {
            self.s_robust(adrs, refs, out);
        } else {
            self.s_simple(refs, out);
        }
    }
}

impl<const ROBUST: bool> TweakableHash for Haraka<ROBUST> {
    type PrfMsg = HarakaPrfMsg;
    type HMsg = HarakaStream;

    fn new(n: usize, pk_seed: &[u8], sk_seed: Option<&[u8]>) -> Self {
        let kernels = Kernels::current();
        let mut s = Haraka {
            kernels,
            n,
            rc: tweak_constants(kernels.haraka, pk_seed),
            sk_seed: None,
        };
        if let Some(sk) = sk_seed {
            let mut buf = zeroize::Zeroizing::new([0u8; MAX_N]);
            buf[..n].copy_from_slice(sk);
            s.sk_seed = Some(*buf);
        }
        s
    }

    fn f_batch(&self, adrs: &[Adrs], io: &mut [Node]) {
        if ROBUST {
            self.f_robust(adrs, io);
        } else {
            self.one_block(adrs, Values::Own, io);
        }
    }

    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]) {
        // Group g writes nodes[16g..] and reads nodes[32g..]: its inputs are
        // copied out before its outputs overwrite them.
        let mut pairs = [[[0u8; MAX_N]; 2]; GROUP];
        for (g, a) in adrs.chunks(GROUP).enumerate() {
            let first = g * GROUP;
            for (j, p) in pairs.iter_mut().enumerate().take(a.len()) {
                let i = first + j;
                *p = [nodes[2 * i], nodes[2 * i + 1]];
            }
            let mut values: [&[Node]; GROUP] = [&[]; GROUP];
            for (v, p) in values.iter_mut().zip(&pairs) {
                *v = p;
            }
            self.tweak_group::<GROUP, 3>(a, &values[..a.len()], &mut nodes[first..first + a.len()]);
        }
        wipe(pairs.as_flattened_mut());
    }

    fn t_batch(&self, adrs: &[Adrs], inputs: &[&[Node]], out: &mut [Node]) {
        for ((a, input), o) in adrs
            .chunks(T_GROUP)
            .zip(inputs.chunks(T_GROUP))
            .zip(out.chunks_mut(T_GROUP))
        {
            self.tweak_group::<T_GROUP, { 1 + MAX_WOTS_LEN }>(a, input, o);
        }
    }

    fn prf_batch(&self, adrs: &[Adrs], out: &mut [Node]) {
        let sk = self
            .sk_seed
            .as_ref()
            .expect("PRF needs SK.seed: key bound for verification only");
        self.one_block(adrs, Values::Fixed(sk), out);
    }

    fn prf_msg(&self, sk_prf: &[u8], opt_rand: &[u8]) -> Self::PrfMsg {
        let mut s = HarakaS::new(self.kernels.haraka, &self.rc);
        s.absorb(sk_prf);
        s.absorb(opt_rand);
        HarakaPrfMsg { s, n: self.n }
    }

    fn h_msg(&self, r: &[u8], pk_root: &[u8]) -> Self::HMsg {
        let mut s = HarakaS::new(self.kernels.haraka, &self.rc);
        s.absorb(r);
        s.absorb(pk_root);
        HarakaStream(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::backend::haraka::HarakaKernel;
    use crate::hash::backend::{with_backend, Backend};

    fn node(seed: usize, n: usize) -> Node {
        let mut x = [0u8; MAX_N];
        for (j, b) in x[..n].iter_mut().enumerate() {
            *b = (seed.wrapping_mul(131).wrapping_add(j * 7 + 3)) as u8;
        }
        x
    }

    fn adrs(i: usize) -> Adrs {
        let mut a = [0u8; 32];
        a[..8].copy_from_slice(&(i as u64 * 0x0101_0101 + 5).to_be_bytes());
        a[31] = i as u8;
        Adrs(a)
    }

    /// Haraka-S of `input` to `out_len` bytes, one call, portable kernel.
    fn haraka_s(rc: &HarakaRc, input: &[u8], out_len: usize) -> Vec<u8> {
        let mut s = HarakaS::new(HarakaKernel::Portable, rc);
        s.absorb(input);
        let mut out = vec![0u8; out_len];
        s.finish(&mut out);
        out
    }

    /// Haraka-512 and Haraka-256 of one input, portable kernel.
    fn h512(rc: &HarakaRc, x: [u8; 64]) -> [u8; 32] {
        let mut o = [[0u8; 32]];
        haraka512_many(HarakaKernel::Portable, rc, &[x], &mut o);
        o[0]
    }

    fn h256(rc: &HarakaRc, x: [u8; 32]) -> [u8; 32] {
        let mut o = [[0u8; 32]];
        haraka256_many(HarakaKernel::Portable, rc, &[x], &mut o);
        o[0]
    }

    /// The round-3.1 definitions written out one call at a time.
    struct Spec {
        rc: HarakaRc,
        n: usize,
        robust: bool,
    }

    impl Spec {
        fn f(&self, a: &Adrs, m: &Node) -> Node {
            let n = self.n;
            let mut b = [0u8; 64];
            b[..32].copy_from_slice(&a.0);
            b[32..32 + n].copy_from_slice(&m[..n]);
            if self.robust {
                let mask = h256(&self.rc, a.0);
                for j in 0..n {
                    b[32 + j] ^= mask[j];
                }
            }
            node_prefix(&h512(&self.rc, b), n)
        }

        fn t(&self, a: &Adrs, ms: &[Node]) -> Node {
            let n = self.n;
            let mut m: Vec<u8> = ms.iter().flat_map(|x| x[..n].to_vec()).collect();
            if self.robust {
                let mask = haraka_s(&self.rc, &a.0, m.len());
                for (x, y) in m.iter_mut().zip(mask) {
                    *x ^= y;
                }
            }
            let mut input = a.0.to_vec();
            input.extend_from_slice(&m);
            let mut out = [0u8; MAX_N];
            out[..n].copy_from_slice(&haraka_s(&self.rc, &input, n));
            out
        }

        fn prf(&self, a: &Adrs, sk: &Node) -> Node {
            let mut b = [0u8; 64];
            b[..32].copy_from_slice(&a.0);
            b[32..32 + self.n].copy_from_slice(&sk[..self.n]);
            node_prefix(&h512(&self.rc, b), self.n)
        }
    }

    fn check<const ROBUST: bool>(n: usize) {
        let pk_seed = node(1, n);
        let sk_seed = node(2, n);
        let spec = Spec {
            rc: tweak_constants(HarakaKernel::Portable, &pk_seed[..n]),
            n,
            robust: ROBUST,
        };
        let t = Haraka::<ROBUST>::new(n, &pk_seed[..n], Some(&sk_seed[..n]));
        let what = format!("robust {ROBUST} n {n} {}", t.kernels.describe_haraka());
        // 37 calls: two full groups and a ragged tail.
        let count = 37;
        let ad: Vec<Adrs> = (0..count).map(adrs).collect();

        let mut io: Vec<Node> = (0..count).map(|i| node(10 + i, n)).collect();
        let want: Vec<Node> = ad.iter().zip(&io).map(|(a, m)| spec.f(a, m)).collect();
        t.f_batch(&ad, &mut io);
        assert_eq!(io, want, "F {what}");

        let mut nodes: Vec<Node> = (0..2 * count).map(|i| node(100 + i, n)).collect();
        let want: Vec<Node> = (0..count)
            .map(|i| spec.t(&ad[i], &nodes[2 * i..2 * i + 2]))
            .collect();
        t.h_pairs(&ad, &mut nodes);
        assert_eq!(nodes[..count], want[..], "H {what}");

        // WOTS+ public key compression (l = len) and FORS roots (l = k).
        for l in [1, 2, 3, 14, 35, 2 * n + 3] {
            let lists: Vec<Vec<Node>> = (0..count)
                .map(|i| (0..l).map(|j| node(1000 + 97 * i + j, n)).collect())
                .collect();
            let inputs: Vec<&[Node]> = lists.iter().map(|v| &v[..]).collect();
            let mut out = vec![[0xaa; MAX_N]; count];
            t.t_batch(&ad, &inputs, &mut out);
            let want: Vec<Node> = ad.iter().zip(&lists).map(|(a, v)| spec.t(a, v)).collect();
            assert_eq!(out, want, "T_{l} {what}");
        }

        let mut out = vec![[0u8; MAX_N]; count];
        t.prf_batch(&ad, &mut out);
        let want: Vec<Node> = ad.iter().map(|a| spec.prf(a, &sk_seed)).collect();
        assert_eq!(out, want, "PRF {what}");

        let msg: Vec<u8> = (0..77u8).collect();
        let (sk_prf, opt) = (node(3, n), node(4, n));
        let mut p = t.prf_msg(&sk_prf[..n], &opt[..n]);
        p.absorb(&msg[..40]);
        p.absorb(&msg[40..]);
        let whole = [&sk_prf[..n], &opt[..n], &msg[..]].concat();
        assert_eq!(
            p.finish()[..n],
            haraka_s(&spec.rc, &whole, n)[..],
            "PRF_msg {what}"
        );
        assert!(p_tail_zero(&t, &sk_prf, &opt, n), "PRF_msg tail {what}");

        let (r, root) = (node(5, n), node(6, n));
        let mut h = t.h_msg(&r[..n], &root[..n]);
        h.absorb(&msg);
        let mut digest = [0u8; 49];
        h.finish(&mut digest);
        let whole = [&r[..n], &root[..n], &msg[..]].concat();
        assert_eq!(
            digest[..],
            haraka_s(&spec.rc, &whole, 49)[..],
            "H_msg {what}"
        );
    }

    fn p_tail_zero<T: TweakableHash>(t: &T, sk_prf: &Node, opt: &Node, n: usize) -> bool {
        t.prf_msg(&sk_prf[..n], &opt[..n]).finish()[n..]
            .iter()
            .all(|&b| b == 0)
    }

    /// Every function of both variants, every n, on every backend, against
    /// the definitions computed one call at a time with the portable code.
    #[test]
    fn batches_match_definitions() {
        for backend in Backend::available() {
            with_backend(backend, || {
                for n in [16, 24, 32] {
                    check::<false>(n);
                    check::<true>(n);
                }
            })
            .unwrap();
        }
    }
}
