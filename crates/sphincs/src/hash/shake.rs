//! The SHAKE family of FIPS 205 §11.1.

use shake::{ExtendableOutput, Update, XofReader};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::backend::keccak::{Sponge, RATE};
use super::backend::lanes::{
    shake256_f_chains, shake256_many, shake256_single_block_xof, shake256_single_blocks, Parts,
};
use super::backend::Kernels;
use super::common::{
    advance_hash_addresses_by, f_chains_stepwise, one_block_batch, stream_inputs, with_const_n,
    Absorb, HMsgFinish, Node, PrfMsgFinish, TweakableHash, Values, GROUP, MULTI_LANE, T_GROUP,
};
use super::robust::Bitmasks;
use crate::address::Adrs;
use crate::limits::{MAX_N, MAX_WOTS_LEN};

/// SHAKE256-based tweakable hashes, for every security category.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct Shake {
    #[zeroize(skip)]
    kernels: Kernels,
    n: usize,
    pk_seed: Node,
    sk_seed: Option<Node>,
}

/// Streaming SHAKE256: `H_msg` squeezes m bytes from it.
#[derive(Clone)]
pub struct ShakeStream(shake::Shake256);

impl Absorb for ShakeStream {
    fn absorb(&mut self, data: &[u8]) {
        self.0.update(data);
    }
}

impl HMsgFinish for ShakeStream {
    fn finish(self, out: &mut [u8]) {
        self.0.finalize_xof().read(out);
    }
}

/// Streaming `PRF_msg`: SHAKE256 squeezed to n bytes.
pub struct ShakePrfMsg {
    xof: ShakeStream,
    n: usize,
}

impl Absorb for ShakePrfMsg {
    fn absorb(&mut self, data: &[u8]) {
        self.xof.absorb(data);
    }
}

impl PrfMsgFinish for ShakePrfMsg {
    fn finish(self) -> Node {
        let mut out = [0u8; MAX_N];
        self.xof.finish(&mut out[..self.n]);
        out
    }
}

impl Shake {
    /// F, H or PRF: `PK.seed ‖ ADRS ‖ values` (`n_total` n-byte pieces in
    /// all, with `PK.seed`), one block even for n = 32.
    fn one_block(&self, adrs: &[Adrs], values: Values<'_>, io: &mut [Node], n_total: usize) {
        if !MULTI_LANE {
            return self.one_at_a_time(adrs, values, io);
        }
        let n = self.n;
        let template = self.seed_block(n_total);
        let k = self.kernels.keccak;
        with_const_n!(n, N => one_block_batch::<RATE, N>(
            adrs,
            values,
            io,
            &template,
            self.sk_seed.is_some(),
            |b, a, v1, v2| {
                b[N..N + 32].copy_from_slice(&a.0);
                b[N + 32..2 * N + 32].copy_from_slice(v1);
                if let Some(v2) = v2 {
                    b[2 * N + 32..3 * N + 32].copy_from_slice(v2);
                }
            },
            |blocks, out| shake256_single_blocks(k, blocks, n, out),
        ));
    }
}

impl Shake {
    /// [`Shake::one_block`] where there are no multi-lane kernels: each call
    /// absorbed into one Keccak state (no padded block templates on the
    /// stack). In place like the batch: call i reads `io[i]` or
    /// `io[2i], io[2i+1]` before it writes `io[i]`.
    fn one_at_a_time(&self, adrs: &[Adrs], values: Values<'_>, io: &mut [Node]) {
        let n = self.n;
        for (i, a) in adrs.iter().enumerate() {
            let mut s = Sponge::new();
            s.absorb(&self.pk_seed[..n]);
            s.absorb(&a.0);
            match values {
                Values::Own => s.absorb(&io[i][..n]),
                Values::Pairs => {
                    s.absorb(&io[2 * i][..n]);
                    s.absorb(&io[2 * i + 1][..n]);
                }
                Values::Fixed(v) => s.absorb(&v[..n]),
            }
            io[i] = [0; MAX_N];
            self.squeeze(&mut s, &mut io[i][..n]);
        }
    }

    /// Squeezes a sponge of this key's calls: wiped after when the key is
    /// bound for signing (chain values and PRF inputs are secret), not
    /// when it verifies (public bytes only).
    #[inline(always)]
    fn squeeze(&self, s: &mut Sponge, out: &mut [u8]) {
        if self.sk_seed.is_some() {
            s.squeeze(out);
        } else {
            s.squeeze_public(out);
        }
    }

    /// The padded block of a one-block call of `n_total` n-byte pieces (with
    /// `PK.seed`) and an ADRS: `PK.seed` in place, ADRS and values zero.
    fn seed_block(&self, n_total: usize) -> [u8; RATE] {
        let n = self.n;
        let mut template = [0u8; RATE];
        template[..n].copy_from_slice(&self.pk_seed[..n]);
        template[n_total * n + 32] ^= 0x1f;
        template[RATE - 1] ^= 0x80;
        template
    }
}

impl TweakableHash for Shake {
    type PrfMsg = ShakePrfMsg;
    type HMsg = ShakeStream;

    fn new(n: usize, pk_seed: &[u8], sk_seed: Option<&[u8]>) -> Self {
        let mut s = Shake {
            kernels: Kernels::current(),
            n,
            pk_seed: [0; MAX_N],
            sk_seed: None,
        };
        s.pk_seed[..n].copy_from_slice(pk_seed);
        if let Some(sk) = sk_seed {
            let mut buf = zeroize::Zeroizing::new([0u8; MAX_N]);
            buf[..n].copy_from_slice(sk);
            s.sk_seed = Some(*buf);
        }
        s
    }

    fn f_batch(&self, adrs: &[Adrs], io: &mut [Node]) {
        self.one_block(adrs, Values::Own, io, 2);
    }

    /// The chains held in the Keccak kernel's lanes from step to step
    /// (`lanes::shake256_f_chains`).
    fn f_chains(&self, adrs: &mut [Adrs], io: &mut [Node], steps: &[u8]) {
        if !MULTI_LANE {
            return f_chains_stepwise(self, adrs, io, steps);
        }
        let template = self.seed_block(2);
        shake256_f_chains(self.kernels.keccak, &template, adrs, io, self.n, steps);
        advance_hash_addresses_by(adrs, steps);
    }

    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]) {
        self.one_block(adrs, Values::Pairs, nodes, 3);
    }

    fn t_batch(&self, adrs: &[Adrs], inputs: &[&[Node]], out: &mut [Node]) {
        let n = self.n;
        for ((a, input), o) in adrs
            .chunks(T_GROUP)
            .zip(inputs.chunks(T_GROUP))
            .zip(out.chunks_mut(T_GROUP))
        {
            let mut parts = [[&[][..]; 2 + MAX_WOTS_LEN]; T_GROUP];
            let mut lens = [0usize; T_GROUP];
            for (((p, l), a), input) in parts.iter_mut().zip(&mut lens).zip(a).zip(input) {
                p[0] = &self.pk_seed[..n];
                p[1] = &a.0;
                for (q, x) in p[2..].iter_mut().zip(input.iter()) {
                    *q = &x[..n];
                }
                *l = 2 + input.len();
            }
            let mut refs: [Parts<'_>; T_GROUP] = [&[]; T_GROUP];
            for ((r, p), l) in refs.iter_mut().zip(&parts).zip(lens) {
                *r = &p[..l];
            }
            shake256_many(self.kernels.keccak, &refs[..a.len()], n, o);
        }
    }

    /// SHAKE256 fed `PK.seed ‖ ADRS` and then each input as it comes.
    fn t_stream(&self, adrs: &Adrs, l: usize, next: &mut dyn FnMut(usize, &mut Node)) -> Node {
        let n = self.n;
        let mut s = Sponge::new();
        s.absorb(&self.pk_seed[..n]);
        s.absorb(&adrs.0);
        stream_inputs(n, l, next, |x| s.absorb(x));
        let mut out = [0u8; MAX_N];
        self.squeeze(&mut s, &mut out[..n]);
        out
    }

    fn prf_batch(&self, adrs: &[Adrs], out: &mut [Node]) {
        let sk = self
            .sk_seed
            .as_ref()
            .expect("PRF needs SK.seed: key bound for verification only");
        self.one_block(adrs, Values::Fixed(sk), out, 2);
    }

    fn prf_msg(&self, sk_prf: &[u8], opt_rand: &[u8]) -> Self::PrfMsg {
        let mut x = shake::Shake256::default();
        x.update(sk_prf);
        x.update(opt_rand);
        ShakePrfMsg {
            xof: ShakeStream(x),
            n: self.n,
        }
    }

    fn h_msg(&self, r: &[u8], pk_root: &[u8]) -> Self::HMsg {
        let mut x = shake::Shake256::default();
        x.update(r);
        x.update(&self.pk_seed[..self.n]);
        x.update(pk_root);
        ShakeStream(x)
    }
}

impl Bitmasks for Shake {
    /// SHAKE256(PK.seed ‖ ADRS), n bytes: pre-padded single blocks, like F.
    fn f_masks(&self, adrs: &[Adrs], out: &mut [Node]) {
        let n = self.n;
        let mut template = [0u8; RATE];
        template[..n].copy_from_slice(&self.pk_seed[..n]);
        template[n + 32] ^= 0x1f;
        template[RATE - 1] ^= 0x80;
        let k = self.kernels.keccak;
        // `Values::Own` only to reuse the batch loop: a mask hashes no value.
        with_const_n!(n, N => one_block_batch::<RATE, N>(
            adrs,
            Values::Own,
            out,
            &template,
            self.sk_seed.is_some(),
            |b, a, _, _| b[N..N + 32].copy_from_slice(&a.0),
            |blocks, o| shake256_single_blocks(k, blocks, n, o),
        ));
    }

    /// SHAKE256(PK.seed ‖ ADRS) of all calls squeezed side by side in the
    /// multi-lane kernels, each piece XORed into the values as it comes out.
    fn xor_masks(&self, adrs: &[Adrs], values: &mut [&mut [Node]]) {
        let n = self.n;
        let mut blocks = [[0u8; RATE]; GROUP];
        for chunk in 0..adrs.len().div_ceil(GROUP) {
            let a = &adrs[chunk * GROUP..adrs.len().min((chunk + 1) * GROUP)];
            for (b, a) in blocks.iter_mut().zip(a) {
                *b = [0; RATE];
                b[..n].copy_from_slice(&self.pk_seed[..n]);
                b[n..n + 32].copy_from_slice(&a.0);
                b[n + 32] ^= 0x1f;
                b[RATE - 1] ^= 0x80;
            }
            let vals = &mut values[chunk * GROUP..chunk * GROUP + a.len()];
            let len = vals[0].len() * n;
            shake256_single_block_xof(
                self.kernels.keccak,
                &blocks[..a.len()],
                len,
                &mut |i, off, bytes| {
                    for (j, b) in bytes.iter().enumerate() {
                        let at = off + j;
                        vals[i][at / n][at % n] ^= b;
                    }
                },
            );
        }
    }

    fn n(&self) -> usize {
        self.n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-call-at-a-time F, H and PRF (targets without multi-lane
    /// kernels) give the batch's outputs.
    #[test]
    fn one_at_a_time_equals_batch() {
        for n in [16, 24, 32] {
            let t = Shake::new(n, &[7u8; MAX_N][..n], Some(&[9u8; MAX_N][..n]));
            let adrs: std::vec::Vec<Adrs> = (0..5u32)
                .map(|i| {
                    let mut a = Adrs::new();
                    a.set_tree_index(i * 3 + 1);
                    a
                })
                .collect();
            let mut input = [[0u8; MAX_N]; 10];
            for (i, x) in input.iter_mut().enumerate() {
                for (j, b) in x[..n].iter_mut().enumerate() {
                    *b = (i * 31 + j * 7) as u8;
                }
            }
            let fixed = input[9];
            for (values, pieces) in [
                (Values::Own, 2),
                (Values::Pairs, 3),
                (Values::Fixed(&fixed), 2),
            ] {
                let (mut want, mut got) = (input, input);
                t.one_block(&adrs, values, &mut want, pieces);
                t.one_at_a_time(&adrs, values, &mut got);
                assert_eq!(got[..5], want[..5], "n {n}, {pieces} pieces");
            }
        }
    }
}
