//! The SHA-2 families of FIPS 205 §11.2: SHA-256 throughout for category 1
//! (§11.2.1); for categories 3 and 5 (§11.2.2) F and PRF stay on SHA-256 while
//! H, T_l, PRF_msg and H_msg move to SHA-512.

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256, Sha512};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::backend::lanes::{
    sha256_f_chains, sha256_final_blocks, sha256_final_states, sha256_many, sha256_many_from,
    sha512_final_blocks, sha512_final_states, sha512_many, ChainPrf, Parts,
};
use super::backend::sha2::{
    seed_state256, seed_state512, Chaining, State256, State512, Stream, IV256, IV512,
};
use super::backend::Kernels;
use super::common::{
    advance_hash_addresses_by, f_chains_stepwise, one_block_batch, prf_chains_apart, stream_inputs,
    with_const_n, Absorb, HMsgFinish, Node, PrfMsgFinish, TweakableHash, Values, GROUP, MULTI_LANE,
    T_GROUP,
};
use super::robust::Bitmasks;
use crate::address::{Adrs, AdrsType};
use crate::limits::{MAX_N, MAX_WOTS_LEN};

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
#[derive(Clone)]
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

/// [`TweakableHash::t_stream`] on a SHA-256 or SHA-512 stream that has
/// absorbed `PK.seed`'s block.
fn t_streamed<S: Chaining>(
    mut s: Stream<S>,
    n: usize,
    adrs: &Adrs,
    l: usize,
    next: &mut dyn FnMut(usize, &mut Node),
) -> Node {
    s.absorb(&adrs.compressed());
    stream_inputs(n, l, next, |x| s.absorb(x));
    let mut out = [0u8; MAX_N];
    s.finish(&mut out[..n]);
    out
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

/// Writes ADRSc and the values into a call's block.
#[inline(always)]
fn place_adrs_values<const N: usize>(b: &mut [u8], a: &Adrs, v1: &[u8; N], v2: Option<&[u8; N]>) {
    b[..22].copy_from_slice(&a.compressed());
    b[22..22 + N].copy_from_slice(v1);
    if let Some(v2) = v2 {
        b[22 + N..22 + 2 * N].copy_from_slice(v2);
    }
}

/// Whether F's chains run in a chain kernel (`lanes::sha256_f_chains`):
/// the multi-lane targets, and with `fast-sha256` the 32-bit cores'
/// one-lane kernel that builds each step's block from words. Elsewhere one
/// call at a time.
const WORD_CHAINS: bool = MULTI_LANE
    || cfg!(all(
        target_pointer_width = "32",
        not(target_arch = "wasm32"),
        feature = "fast-sha256"
    ));

/// A final block for a message of `len` bytes after the seed block: the
/// 0x80 marker and the bit length of `seed block ‖ message`.
fn padded_template<const B: usize>(len: usize) -> [u8; B] {
    let mut t = [0u8; B];
    t[len] = 0x80;
    let bits = ((B + len) as u128 * 8).to_be_bytes();
    t[B - B / 8..].copy_from_slice(&bits[16 - B / 8..]);
    t
}

impl<const CAT35: bool> Sha2<CAT35> {
    /// [`TweakableHash::f_chains`] on the multi-lane kernels, the first
    /// chains started by `prf` if given ([`TweakableHash::prf_chains`]).
    fn chains_in_lanes(
        &self,
        adrs: &mut [Adrs],
        io: &mut [Node],
        steps: &[u8],
        prf: Option<&ChainPrf<'_>>,
    ) {
        let n = self.n;
        let template = padded_template::<64>(22 + n);
        let (k, seed) = (self.kernels.sha256, &self.st256);
        sha256_f_chains(k, seed, &template, adrs, io, n, steps, prf);
        advance_hash_addresses_by(adrs, steps);
    }

    /// F, PRF, and H of category 1: SHA-256 of `ADRSc ‖ pieces·n bytes`, one block.
    fn one_block_256(&self, adrs: &[Adrs], values: Values<'_>, io: &mut [Node], pieces: usize) {
        let n = self.n;
        let template = padded_template::<64>(22 + pieces * n);
        let (k, seed) = (self.kernels.sha256, &self.st256);
        with_const_n!(n, N => one_block_batch::<64, N>(
            adrs,
            values,
            io,
            &template,
            self.sk_seed.is_some(),
            |b, a, v1, v2| place_adrs_values(b, a, v1, v2),
            |blocks, out| sha256_final_blocks(k, seed, blocks, n, out),
        ));
    }

    /// H of categories 3 and 5: SHA-512 of `ADRSc ‖ left ‖ right`, one block.
    fn one_block_512(&self, adrs: &[Adrs], nodes: &mut [Node]) {
        let n = self.n;
        let template = padded_template::<128>(22 + 2 * n);
        let (k, seed) = (self.kernels.sha512, &self.st512);
        with_const_n!(n, N => one_block_batch::<128, N>(
            adrs,
            Values::Pairs,
            nodes,
            &template,
            self.sk_seed.is_some(),
            |b, a, v1, v2| place_adrs_values(b, a, v1, v2),
            |blocks, out| sha512_final_blocks(k, seed, blocks, n, out),
        ));
    }

    /// T_l: SHA-256 for category 1, SHA-512 otherwise.
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
            let mut buf = zeroize::Zeroizing::new([0u8; MAX_N]);
            buf[..n].copy_from_slice(sk);
            *buf
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
        self.one_block_256(adrs, Values::Own, io, 1);
    }

    /// The chains' blocks kept in the SHA-256 kernel's lanes from step to
    /// step (`lanes::sha256_f_chains`); F is SHA-256 in every category.
    fn f_chains(&self, adrs: &mut [Adrs], io: &mut [Node], steps: &[u8]) {
        if !WORD_CHAINS {
            return f_chains_stepwise(self, adrs, io, steps);
        }
        self.chains_in_lanes(adrs, io, steps, None);
    }

    /// Each PRF runs as its chain's first step in the chain kernel's lanes:
    /// SHA-256 over ADRSc ‖ SK.seed after PK.seed's block, F's block shape.
    fn prf_chains(
        &self,
        kinds: (AdrsType, AdrsType),
        fresh: usize,
        adrs: &mut [Adrs],
        io: &mut [Node],
        steps: &[u8],
    ) {
        if !WORD_CHAINS {
            return prf_chains_apart(self, kinds, fresh, adrs, io, steps);
        }
        let sk = self
            .sk_seed
            .as_ref()
            .expect("PRF needs SK.seed: key bound for verification only");
        let prf = ChainPrf {
            kind: kinds.0,
            sk_seed: &sk[..self.n],
            count: fresh,
        };
        self.chains_in_lanes(adrs, io, steps, Some(&prf));
    }

    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]) {
        if CAT35 {
            self.one_block_512(adrs, nodes);
        } else {
            self.one_block_256(adrs, Values::Pairs, nodes, 2);
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

    /// SHA-256 (category 1) or SHA-512 resumed after `PK.seed`'s block,
    /// fed `ADRSc` and then each input as it comes: one block of buffer.
    fn t_stream(&self, adrs: &Adrs, l: usize, next: &mut dyn FnMut(usize, &mut Node)) -> Node {
        if CAT35 {
            t_streamed(Stream::new(&self.st512, 128), self.n, adrs, l, next)
        } else {
            t_streamed(Stream::new(&self.st256, 64), self.n, adrs, l, next)
        }
    }

    fn prf_batch(&self, adrs: &[Adrs], out: &mut [Node]) {
        let sk = self
            .sk_seed
            .as_ref()
            .expect("PRF needs SK.seed: key bound for verification only");
        self.one_block_256(adrs, Values::Fixed(sk), out, 1);
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

impl<const CAT35: bool> Sha2<CAT35> {
    /// The one padded block of `PK.seed ‖ ADRSc ‖ counter` (n + 26 bytes)
    /// hashed from the initial state: SHA-256 (B = 64, n ≤ 29) or SHA-512.
    fn mgf1_block<const B: usize>(&self, adrsc: &[u8; 22], counter: u32) -> [u8; B] {
        let n = self.n;
        let len = n + 26;
        let mut b = [0u8; B];
        b[..n].copy_from_slice(&self.pk_seed[..n]);
        b[n..n + 22].copy_from_slice(adrsc);
        b[n + 22..len].copy_from_slice(&counter.to_be_bytes());
        b[len] = 0x80;
        b[B - 8..].copy_from_slice(&(len as u64 * 8).to_be_bytes());
        b
    }
}

impl<const CAT35: bool> Bitmasks for Sha2<CAT35> {
    /// MGF1-SHA-256(PK.seed ‖ ADRSc, n): the first SHA-256 output, counter 0.
    /// Its n + 26 bytes fit one padded block for n ≤ 24, which the kernels
    /// take pre-padded from the initial state, like F; n = 32 needs two.
    fn f_masks(&self, adrs: &[Adrs], out: &mut [Node]) {
        let n = self.n;
        if n <= 24 {
            let len = n + 26;
            let mut template = [0u8; 64];
            template[..n].copy_from_slice(&self.pk_seed[..n]);
            template[len] = 0x80;
            template[56..].copy_from_slice(&(len as u64 * 8).to_be_bytes());
            let k = self.kernels.sha256;
            // `Values::Own` only to reuse the batch loop: a mask hashes no value.
            with_const_n!(n, N => one_block_batch::<64, N>(
                adrs,
                Values::Own,
                out,
                &template,
                self.sk_seed.is_some(),
                |b, a, _, _| b[N..N + 22].copy_from_slice(&a.compressed()),
                |blocks, o| sha256_final_blocks(k, &IV256, blocks, n, o),
            ));
            return;
        }
        let zero = [0u8; 4];
        for (adrs, out) in adrs.chunks(GROUP).zip(out.chunks_mut(GROUP)) {
            let mut c = [[0u8; 22]; GROUP];
            for (c, a) in c.iter_mut().zip(adrs) {
                *c = a.compressed();
            }
            let mut parts = [[&[][..]; 3]; GROUP];
            for (p, c) in parts.iter_mut().zip(&c) {
                *p = [&self.pk_seed[..n], c, &zero];
            }
            let mut refs: [Parts<'_>; GROUP] = [&[]; GROUP];
            for (r, p) in refs.iter_mut().zip(&parts) {
                *r = p;
            }
            sha256_many_from(self.kernels.sha256, &IV256, 0, &refs[..adrs.len()], n, out);
        }
    }

    /// MGF1 of `PK.seed ‖ ADRSc` over SHA-512 for categories 3 and 5 (round
    /// 3.1's `thash_512` covers every call of more than one block), SHA-256
    /// otherwise. Each counter's input fits one block from the initial
    /// state, so all counters of all calls go through the multi-lane
    /// kernels together, each digest XORed into the values as it comes out.
    fn xor_masks(&self, adrs: &[Adrs], values: &mut [&mut [Node]]) {
        const CHUNK: usize = 16;
        let n = self.n;
        let total = values[0].len() * n;
        let d = if CAT35 { 64 } else { 32 };
        let counters = total.div_ceil(d);
        let pairs = adrs.len() * counters;
        let mut xor = |p: usize, digest: &[u8]| {
            let (call, start) = (p / counters, (p % counters) * d);
            let v = &mut *values[call];
            for (j, b) in digest[..d.min(total - start)].iter().enumerate() {
                let at = start + j;
                v[at / n][at % n] ^= b;
            }
        };
        for first in (0..pairs).step_by(CHUNK) {
            let count = CHUNK.min(pairs - first);
            let ctr = |p: usize| (adrs[p / counters].compressed(), (p % counters) as u32);
            if CAT35 {
                let mut blocks = [[0u8; 128]; CHUNK];
                for (j, b) in blocks[..count].iter_mut().enumerate() {
                    let (c, i) = ctr(first + j);
                    *b = self.mgf1_block(&c, i);
                }
                sha512_final_states(
                    self.kernels.sha512,
                    &IV512,
                    &blocks[..count],
                    first,
                    &mut |p, st| {
                        let mut digest = [0u8; 64];
                        for (x, w) in digest.chunks_exact_mut(8).zip(st) {
                            x.copy_from_slice(&w.to_be_bytes());
                        }
                        xor(p, &digest);
                    },
                );
            } else {
                let mut blocks = [[0u8; 64]; CHUNK];
                for (j, b) in blocks[..count].iter_mut().enumerate() {
                    let (c, i) = ctr(first + j);
                    *b = self.mgf1_block(&c, i);
                }
                sha256_final_states(
                    self.kernels.sha256,
                    &IV256,
                    &blocks[..count],
                    first,
                    &mut |p, st| {
                        let mut digest = [0u8; 32];
                        for (x, w) in digest.chunks_exact_mut(4).zip(st) {
                            x.copy_from_slice(&w.to_be_bytes());
                        }
                        xor(p, &digest);
                    },
                );
            }
        }
    }

    fn n(&self) -> usize {
        self.n
    }
}
