//! The SHAKE family of FIPS 205 §11.1.

use shake::{ExtendableOutput, Update, XofReader};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::backend::keccak::shake256;
use super::{Absorb, HMsgFinish, Node, PrfMsgFinish, TweakableHash};
use crate::address::Adrs;
use crate::params::MAX_N;

/// SHAKE256-based tweakable hashes, for every security category.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct Shake {
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

impl TweakableHash for Shake {
    type PrfMsg = ShakePrfMsg;
    type HMsg = ShakeStream;

    fn new(n: usize, pk_seed: &[u8], sk_seed: Option<&[u8]>) -> Self {
        let mut s = Shake {
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
        for (a, x) in adrs.iter().zip(io.iter_mut()) {
            let input = *x;
            shake256(&[&self.pk_seed[..n], &a.0, &input[..n]], &mut x[..n]);
        }
    }

    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]) {
        let n = self.n;
        for (i, a) in adrs.iter().enumerate() {
            let (l, r) = (nodes[2 * i], nodes[2 * i + 1]);
            shake256(
                &[&self.pk_seed[..n], &a.0, &l[..n], &r[..n]],
                &mut nodes[i][..n],
            );
        }
    }

    fn t_batch(&self, adrs: &[Adrs], inputs: &[&[Node]], out: &mut [Node]) {
        let n = self.n;
        for ((a, input), o) in adrs.iter().zip(inputs).zip(out.iter_mut()) {
            let mut parts: [&[u8]; 2 + crate::params::MAX_WOTS_LEN] =
                [&[]; 2 + crate::params::MAX_WOTS_LEN];
            parts[0] = &self.pk_seed[..n];
            parts[1] = &a.0;
            for (p, x) in parts[2..].iter_mut().zip(input.iter()) {
                *p = &x[..n];
            }
            shake256(&parts[..2 + input.len()], &mut o[..n]);
        }
    }

    fn prf_batch(&self, adrs: &[Adrs], out: &mut [Node]) {
        let n = self.n;
        let sk = self
            .sk_seed
            .as_ref()
            .expect("PRF needs SK.seed: key bound for verification only");
        for (a, o) in adrs.iter().zip(out.iter_mut()) {
            shake256(&[&self.pk_seed[..n], &a.0, &sk[..n]], &mut o[..n]);
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
