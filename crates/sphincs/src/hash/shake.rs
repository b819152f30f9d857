//! The SHAKE family of FIPS 205 §11.1.

use shake::{ExtendableOutput, Update, XofReader};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::backend::lanes::{shake256_many, Parts};
use super::backend::Kernels;
use super::{Absorb, HMsgFinish, Node, PrfMsgFinish, TweakableHash, GROUP, T_GROUP};
use crate::address::Adrs;
use crate::params::{MAX_N, MAX_WOTS_LEN};

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
    /// Hashes a group of calls with fixed-size part lists (F, H, PRF).
    fn run<const NP: usize>(&self, parts: &[[&[u8]; NP]], out: &mut [Node]) {
        let mut refs: [Parts<'_>; GROUP] = [&[]; GROUP];
        for (r, p) in refs.iter_mut().zip(parts) {
            *r = p;
        }
        shake256_many(self.kernels.keccak, &refs[..parts.len()], self.n, out);
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
            let mut buf = [0u8; MAX_N];
            buf[..n].copy_from_slice(sk);
            s.sk_seed = Some(buf);
        }
        s
    }

    fn f_batch(&self, adrs: &[Adrs], io: &mut [Node]) {
        let n = self.n;
        for (a, x) in adrs.chunks(GROUP).zip(io.chunks_mut(GROUP)) {
            let mut ins = [[0u8; MAX_N]; GROUP];
            ins[..x.len()].copy_from_slice(x);
            let mut parts = [[&[][..]; 3]; GROUP];
            for ((p, a), v) in parts.iter_mut().zip(a).zip(&ins) {
                *p = [&self.pk_seed[..n], &a.0, &v[..n]];
            }
            self.run(&parts[..x.len()], x);
        }
    }

    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]) {
        let n = self.n;
        for (g, a) in adrs.chunks(GROUP).enumerate() {
            let mut ins = [[0u8; MAX_N]; 2 * GROUP];
            let first = g * GROUP;
            ins[..2 * a.len()].copy_from_slice(&nodes[2 * first..2 * (first + a.len())]);
            let mut parts = [[&[][..]; 4]; GROUP];
            for ((p, a), v) in parts.iter_mut().zip(a).zip(ins.chunks_exact(2)) {
                *p = [&self.pk_seed[..n], &a.0, &v[0][..n], &v[1][..n]];
            }
            self.run(&parts[..a.len()], &mut nodes[first..first + a.len()]);
        }
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

    fn prf_batch(&self, adrs: &[Adrs], out: &mut [Node]) {
        let n = self.n;
        let sk = self
            .sk_seed
            .as_ref()
            .expect("PRF needs SK.seed: key bound for verification only");
        for (a, o) in adrs.chunks(GROUP).zip(out.chunks_mut(GROUP)) {
            let mut parts = [[&[][..]; 3]; GROUP];
            for (p, a) in parts.iter_mut().zip(a) {
                *p = [&self.pk_seed[..n], &a.0, &sk[..n]];
            }
            self.run(&parts[..a.len()], o);
        }
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
