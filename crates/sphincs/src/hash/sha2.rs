//! The SHA-2 families of FIPS 205 §11.2: SHA-256 throughout for category 1
//! (§11.2.1); for categories 3 and 5 (§11.2.2) F and PRF stay on SHA-256 while
//! H, T_l, PRF_msg and H_msg move to SHA-512.

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256, Sha512};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::backend::lanes::{sha256_many, sha512_many, Parts};
use super::backend::sha2::{seed_state256, seed_state512, State256, State512};
use super::backend::Kernels;
use super::{Absorb, HMsgFinish, Node, PrfMsgFinish, TweakableHash, GROUP, T_GROUP};
use crate::address::Adrs;
use crate::params::{MAX_N, MAX_WOTS_LEN};

/// SHA-2 tweakable hashes; `CAT35` selects the category 3/5 variant.
#[derive(Zeroize, ZeroizeOnDrop)]
pub struct Sha2<const CAT35: bool> {
    #[zeroize(skip)]
    kernels: Kernels,
    n: usize,
    pk_seed: Node,
    sk_seed: Option<Node>,
    /// SHA-256 state after the block `PK.seed ‖ 0^(64−n)`.
    st256: State256,
    /// SHA-512 state after the block `PK.seed ‖ 0^(128−n)` (categories 3 and 5).
    st512: State512,
}

/// Category 1: SHA-256 only.
pub type Sha2Cat1 = Sha2<false>;
/// Categories 3 and 5: SHA-512 for H, T_l and the message functions.
pub type Sha2Cat35 = Sha2<true>;

/// `PRF_msg` = HMAC-SHA-256 or HMAC-SHA-512 truncated to n bytes.
pub enum HmacStream {
    /// Category 1.
    S256(Hmac<Sha256>, usize),
    /// Categories 3 and 5.
    S512(Hmac<Sha512>, usize),
}

impl Absorb for HmacStream {
    fn absorb(&mut self, data: &[u8]) {
        match self {
            HmacStream::S256(m, _) => m.update(data),
            HmacStream::S512(m, _) => m.update(data),
        }
    }
}

impl PrfMsgFinish for HmacStream {
    fn finish(self) -> Node {
        let mut out = [0u8; MAX_N];
        match self {
            HmacStream::S256(m, n) => out[..n].copy_from_slice(&m.finalize().into_bytes()[..n]),
            HmacStream::S512(m, n) => out[..n].copy_from_slice(&m.finalize().into_bytes()[..n]),
        }
        out
    }
}

/// `H_msg` = MGF1-SHA-X(R ‖ PK.seed ‖ SHA-X(R ‖ PK.seed ‖ PK.root ‖ M), m).
pub struct MgfStream<const CAT35: bool> {
    r: Node,
    pk_seed: Node,
    n: usize,
    inner256: Sha256,
    inner512: Sha512,
}

impl<const CAT35: bool> Absorb for MgfStream<CAT35> {
    fn absorb(&mut self, data: &[u8]) {
        if CAT35 {
            self.inner512.update(data);
        } else {
            self.inner256.update(data);
        }
    }
}

impl<const CAT35: bool> HMsgFinish for MgfStream<CAT35> {
    fn finish(self, out: &mut [u8]) {
        let n = self.n;
        let mut seed = [0u8; 2 * MAX_N + 64];
        seed[..n].copy_from_slice(&self.r[..n]);
        seed[n..2 * n].copy_from_slice(&self.pk_seed[..n]);
        let seed_len = if CAT35 {
            seed[2 * n..2 * n + 64].copy_from_slice(&self.inner512.finalize());
            2 * n + 64
        } else {
            seed[2 * n..2 * n + 32].copy_from_slice(&self.inner256.finalize());
            2 * n + 32
        };
        mgf1::<CAT35>(&seed[..seed_len], out);
    }
}

/// MGF1 (RFC 8017 §B.2.1) over SHA-256 or SHA-512.
fn mgf1<const CAT35: bool>(seed: &[u8], out: &mut [u8]) {
    let block = if CAT35 { 64 } else { 32 };
    for (counter, chunk) in out.chunks_mut(block).enumerate() {
        let c = (counter as u32).to_be_bytes();
        if CAT35 {
            let d = Sha512::new().chain_update(seed).chain_update(c).finalize();
            chunk.copy_from_slice(&d[..chunk.len()]);
        } else {
            let d = Sha256::new().chain_update(seed).chain_update(c).finalize();
            chunk.copy_from_slice(&d[..chunk.len()]);
        }
    }
}

impl<const CAT35: bool> Sha2<CAT35> {
    /// F and PRF: SHA-256 in every category.
    fn small<const NP: usize>(&self, parts: &[[&[u8]; NP]], out: &mut [Node]) {
        let mut refs: [Parts<'_>; GROUP] = [&[]; GROUP];
        for (r, p) in refs.iter_mut().zip(parts) {
            *r = p;
        }
        let refs = &refs[..parts.len()];
        sha256_many(self.kernels.sha256, &self.st256, refs, self.n, out);
    }

    /// H and T_l: SHA-256 for category 1, SHA-512 otherwise.
    fn big(&self, refs: &[Parts<'_>], out: &mut [Node]) {
        if CAT35 {
            sha512_many(self.kernels.sha512, &self.st512, refs, self.n, out);
        } else {
            sha256_many(self.kernels.sha256, &self.st256, refs, self.n, out);
        }
    }
}

impl<const CAT35: bool> TweakableHash for Sha2<CAT35> {
    type PrfMsg = HmacStream;
    type HMsg = MgfStream<CAT35>;

    fn new(n: usize, pk_seed: &[u8], sk_seed: Option<&[u8]>) -> Self {
        let mut seed = [0u8; MAX_N];
        seed[..n].copy_from_slice(pk_seed);
        let sk_seed = sk_seed.map(|sk| {
            let mut buf = [0u8; MAX_N];
            buf[..n].copy_from_slice(sk);
            buf
        });
        Sha2 {
            kernels: Kernels::current(),
            n,
            pk_seed: seed,
            sk_seed,
            st256: seed_state256(pk_seed),
            st512: if CAT35 {
                seed_state512(pk_seed)
            } else {
                [0; 8]
            },
        }
    }

    fn f_batch(&self, adrs: &[Adrs], io: &mut [Node]) {
        let n = self.n;
        for (a, x) in adrs.chunks(GROUP).zip(io.chunks_mut(GROUP)) {
            let mut ins = [[0u8; MAX_N]; GROUP];
            ins[..x.len()].copy_from_slice(x);
            let mut c = [[0u8; 22]; GROUP];
            for (c, a) in c.iter_mut().zip(a) {
                *c = a.compressed();
            }
            let mut parts = [[&[][..]; 2]; GROUP];
            for ((p, c), v) in parts.iter_mut().zip(&c).zip(&ins) {
                *p = [c, &v[..n]];
            }
            self.small(&parts[..x.len()], x);
        }
    }

    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]) {
        let n = self.n;
        for (g, a) in adrs.chunks(GROUP).enumerate() {
            let mut ins = [[0u8; MAX_N]; 2 * GROUP];
            let first = g * GROUP;
            ins[..2 * a.len()].copy_from_slice(&nodes[2 * first..2 * (first + a.len())]);
            let mut c = [[0u8; 22]; GROUP];
            for (c, a) in c.iter_mut().zip(a) {
                *c = a.compressed();
            }
            let mut parts = [[&[][..]; 3]; GROUP];
            for ((p, c), v) in parts.iter_mut().zip(&c).zip(ins.chunks_exact(2)) {
                *p = [c, &v[0][..n], &v[1][..n]];
            }
            let mut refs: [Parts<'_>; GROUP] = [&[]; GROUP];
            for (r, p) in refs.iter_mut().zip(&parts) {
                *r = p;
            }
            self.big(&refs[..a.len()], &mut nodes[first..first + a.len()]);
        }
    }

    fn t_batch(&self, adrs: &[Adrs], inputs: &[&[Node]], out: &mut [Node]) {
        let n = self.n;
        for ((a, input), o) in adrs
            .chunks(T_GROUP)
            .zip(inputs.chunks(T_GROUP))
            .zip(out.chunks_mut(T_GROUP))
        {
            let mut c = [[0u8; 22]; T_GROUP];
            for (c, a) in c.iter_mut().zip(a) {
                *c = a.compressed();
            }
            let mut parts = [[&[][..]; 1 + MAX_WOTS_LEN]; T_GROUP];
            let mut lens = [0usize; T_GROUP];
            for (((p, l), c), input) in parts.iter_mut().zip(&mut lens).zip(&c).zip(input) {
                p[0] = c;
                for (q, x) in p[1..].iter_mut().zip(input.iter()) {
                    *q = &x[..n];
                }
                *l = 1 + input.len();
            }
            let mut refs: [Parts<'_>; T_GROUP] = [&[]; T_GROUP];
            for ((r, p), l) in refs.iter_mut().zip(&parts).zip(lens) {
                *r = &p[..l];
            }
            self.big(&refs[..a.len()], o);
        }
    }

    fn prf_batch(&self, adrs: &[Adrs], out: &mut [Node]) {
        let n = self.n;
        let sk = self
            .sk_seed
            .as_ref()
            .expect("PRF needs SK.seed: key bound for verification only");
        for (a, o) in adrs.chunks(GROUP).zip(out.chunks_mut(GROUP)) {
            let mut c = [[0u8; 22]; GROUP];
            for (c, a) in c.iter_mut().zip(a) {
                *c = a.compressed();
            }
            let mut parts = [[&[][..]; 2]; GROUP];
            for (p, c) in parts.iter_mut().zip(&c) {
                *p = [c, &sk[..n]];
            }
            self.small(&parts[..a.len()], o);
        }
    }

    fn prf_msg(&self, sk_prf: &[u8], opt_rand: &[u8]) -> Self::PrfMsg {
        if CAT35 {
            let mut m = <Hmac<Sha512> as KeyInit>::new_from_slice(sk_prf)
                .expect("HMAC takes any key length");
            m.update(opt_rand);
            HmacStream::S512(m, self.n)
        } else {
            let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(sk_prf)
                .expect("HMAC takes any key length");
            m.update(opt_rand);
            HmacStream::S256(m, self.n)
        }
    }

    fn h_msg(&self, r: &[u8], pk_root: &[u8]) -> Self::HMsg {
        let n = self.n;
        let mut s = MgfStream {
            r: [0; MAX_N],
            pk_seed: self.pk_seed,
            n,
            inner256: Sha256::new(),
            inner512: Sha512::new(),
        };
        s.r[..n].copy_from_slice(r);
        let prefix: [&[u8]; 3] = [r, &self.pk_seed[..n], pk_root];
        for p in prefix {
            s.absorb(p);
        }
        s
    }
}
