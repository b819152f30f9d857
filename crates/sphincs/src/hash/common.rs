//! What every hash family shares and implements: the node type, the
//! tweakable-hash traits, the group sizes and the small helpers. The
//! families (`haraka`, `sha2`, `shake`, `robust`) and the kernels
//! (`backend`) take these from here, not from `hash`'s front (`mod.rs`),
//! which re-exports the families and so sits above them.

use crate::address::{Adrs, AdrsType};
use crate::limits::{MAX_K, MAX_N, MAX_WOTS_LEN};

/// Whether this target has multi-lane kernels (x86-64, AArch64, wasm32
/// built with SIMD128). Elsewhere (a Cortex-M, say) every call runs the
/// portable code one at a time, and the groups below are 1: gathering calls
/// would only cost stack there.
pub(crate) const MULTI_LANE: bool = cfg!(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
));

/// Most calls a family hands to the lane drivers at once: a multiple of every
/// kernel's width, small enough to keep the per-call part lists on the stack.
pub(crate) const GROUP: usize = if MULTI_LANE { 16 } else { 1 };
/// The same for T_l, whose part lists are long.
pub(crate) const T_GROUP: usize = if MULTI_LANE { 8 } else { 1 };

/// Most inputs of one T_l call: a WOTS+ key's chains or the FORS roots.
const T_INPUTS: usize = if MAX_WOTS_LEN > MAX_K {
    MAX_WOTS_LEN
} else {
    MAX_K
};

/// One n-byte hash value, stored in a buffer sized for the largest n; only the
/// first n bytes are meaningful and the rest stay zero.
pub type Node = [u8; MAX_N];

/// Something a message can be streamed into.
pub trait Absorb {
    /// Feeds the next bytes of the message.
    fn absorb(&mut self, data: &[u8]);
}

/// A tweakable hash family bound to one key: `PK.seed`, and `SK.seed` when signing.
///
/// Batch methods take one address per independent call; the slices passed
/// together have equal lengths.
pub trait TweakableHash: Sized + Send + Sync {
    /// Streaming state of `PRF_msg`.
    type PrfMsg: Absorb + PrfMsgFinish;
    /// Streaming state of `H_msg`.
    /// (`Clone`, `Send` and `Sync`: a verification pushed in pieces is
    /// copied and moved between threads by its host.)
    type HMsg: Absorb + HMsgFinish + Clone + Send + Sync;

    /// Binds the family to a key; `sk_seed` is `None` for verification.
    /// The SHA-2 families compress the padded `PK.seed` block here, once.
    fn new(n: usize, pk_seed: &[u8], sk_seed: Option<&[u8]>) -> Self;

    /// `io[i] = F(PK.seed, adrs[i], io[i])`.
    fn f_batch(&self, adrs: &[Adrs], io: &mut [Node]);

    /// WOTS+ chains (`chain` of FIPS 205 Algorithm 5, many at once): each
    /// `io[i]` goes through `steps[i]` calls `io[i] = F(PK.seed, adrs[i], io[i])`,
    /// the hash address of `adrs[i]` holding the first call's on entry and
    /// rising by one after each call (so on return it is `steps[i]` higher).
    /// The chains come longest first (`steps` does not increase).
    ///
    /// The default is one [`f_batch`](Self::f_batch) per step over the chains
    /// still running; the simple SHAKE and SHA-2 families override it to keep
    /// the chains in their kernels' lanes from one step to the next.
    fn f_chains(&self, adrs: &mut [Adrs], io: &mut [Node], steps: &[u8]) {
        f_chains_stepwise(self, adrs, io, steps);
    }

    /// [`f_chains`](Self::f_chains) whose first `fresh` chains start from
    /// their secret values: `io[i] = PRF(PK.seed, SK.seed, ADRS)` for
    /// i < `fresh` first, ADRS being `adrs[i]` with type `kinds.0` (a PRF
    /// address is its chain's first address with the PRF type: FIPS 205
    /// Algorithms 6 and 15), where those `adrs[i]` have type `kinds.1`.
    ///
    /// The default is one [`prf_batch`](Self::prf_batch), then
    /// [`f_chains`](Self::f_chains); SHA-2 overrides it to make each PRF
    /// its chain's first step in the chain kernel's lanes (PRF and F hash
    /// blocks of one shape).
    ///
    /// # Panics
    /// As [`prf_batch`](Self::prf_batch).
    fn prf_chains(
        &self,
        kinds: (AdrsType, AdrsType),
        fresh: usize,
        adrs: &mut [Adrs],
        io: &mut [Node],
        steps: &[u8],
    ) {
        prf_chains_apart(self, kinds, fresh, adrs, io, steps);
    }

    /// `nodes[i] = H(PK.seed, adrs[i], nodes[2i] ‖ nodes[2i+1])` for every i:
    /// one tree level, halving in place.
    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]);

    /// `out[i] = T_l(PK.seed, adrs[i], inputs[i])`, each input list of the same length l.
    fn t_batch(&self, adrs: &[Adrs], inputs: &[&[Node]], out: &mut [Node]);

    /// `T_l(PK.seed, adrs, x_0 ‖ … ‖ x_(l−1))` of one call whose inputs
    /// come one at a time: `next(i, x)` writes input i into `x` (n bytes,
    /// the rest zero), in order, each absorbed before the next is asked for
    /// (the WOTS+ chain ends of Algorithm 8 and the FORS roots of Algorithm
    /// 17 as they are computed, one verification on a microcontroller).
    ///
    /// The SHA-2 and SHAKE families absorb the inputs as a stream, holding
    /// one hash state; the default gathers them for
    /// [`t_batch`](Self::t_batch).
    fn t_stream(&self, adrs: &Adrs, l: usize, next: &mut dyn FnMut(usize, &mut Node)) -> Node {
        let mut inputs = [[0u8; MAX_N]; T_INPUTS];
        for (i, x) in inputs[..l].iter_mut().enumerate() {
            next(i, x);
        }
        t_l(self, adrs, &inputs[..l])
    }

    /// `out[i] = PRF(PK.seed, SK.seed, adrs[i])`.
    ///
    /// # Panics
    /// If the family was bound without `SK.seed` (a bug in this crate, never input-driven).
    fn prf_batch(&self, adrs: &[Adrs], out: &mut [Node]);

    /// Starts `PRF_msg(SK.prf, opt_rand, M)`; absorb M, then [`PrfMsgFinish::finish`].
    fn prf_msg(&self, sk_prf: &[u8], opt_rand: &[u8]) -> Self::PrfMsg;

    /// Starts `H_msg(R, PK.seed, PK.root, M)`; absorb M, then [`HMsgFinish::finish`].
    fn h_msg(&self, r: &[u8], pk_root: &[u8]) -> Self::HMsg;
}

/// [`TweakableHash::f_chains`] as one [`TweakableHash::f_batch`] per step:
/// the default, and what the fused overrides fall back to where there are
/// no multi-lane kernels. The chains still running at any step are a
/// prefix, as they come longest first.
pub(crate) fn f_chains_stepwise<T: TweakableHash>(
    t: &T,
    adrs: &mut [Adrs],
    io: &mut [Node],
    steps: &[u8],
) {
    debug_assert!(steps.windows(2).all(|w| w[0] >= w[1]), "longest first");
    let mut active = adrs.len();
    for s in 0.. {
        while active > 0 && steps[active - 1] <= s {
            active -= 1;
        }
        if active == 0 {
            break;
        }
        t.f_batch(&adrs[..active], &mut io[..active]);
        advance_hash_addresses(&mut adrs[..active], 1);
    }
}

/// [`TweakableHash::prf_chains`] as a PRF batch, then the chains: the
/// default, and SHA-2's where it has no multi-lane kernels.
pub(crate) fn prf_chains_apart<T: TweakableHash>(
    t: &T,
    (prf, chain): (AdrsType, AdrsType),
    fresh: usize,
    adrs: &mut [Adrs],
    io: &mut [Node],
    steps: &[u8],
) {
    for a in &mut adrs[..fresh] {
        a.set_type(prf);
    }
    t.prf_batch(&adrs[..fresh], &mut io[..fresh]);
    for a in &mut adrs[..fresh] {
        a.set_type(chain);
    }
    t.f_chains(adrs, io, steps);
}

/// Raises the hash address of every address by `by`.
pub(crate) fn advance_hash_addresses(adrs: &mut [Adrs], by: u32) {
    for a in adrs {
        advance(a, by);
    }
}

/// Raises the hash address of `adrs[i]` by `steps[i]`: where
/// [`TweakableHash::f_chains`] leaves them.
pub(crate) fn advance_hash_addresses_by(adrs: &mut [Adrs], steps: &[u8]) {
    for (a, &s) in adrs.iter_mut().zip(steps) {
        advance(a, u32::from(s));
    }
}

/// `tree_index` reads the same word as the hash address.
fn advance(a: &mut Adrs, by: u32) {
    a.set_hash_address(a.tree_index().wrapping_add(by));
}

/// Completes `PRF_msg`.
pub trait PrfMsgFinish {
    /// The n-byte randomizer R.
    fn finish(self) -> Node;
}

/// Completes `H_msg`.
pub trait HMsgFinish {
    /// Writes the m-byte digest into `out` (whose length is m).
    fn finish(self, out: &mut [u8]);
}

/// The first `n` bytes of `src` into a node, the rest zero. A fixed-length
/// select, where `copy_from_slice` of a run-time length would call `memcpy`,
/// whose start-up cost exceeds such a copy (measured: 12 % of SHA2-256f signing).
#[inline(always)]
pub(crate) fn node_prefix(src: &[u8; MAX_N], n: usize) -> Node {
    // The n of every set as a constant, so that each arm folds to the few
    // stores it needs instead of a compare per word.
    match n {
        16 => words_prefix(src, 16),
        24 => words_prefix(src, 24),
        32 => *src,
        _ => words_prefix(src, n),
    }
}

/// [`node_prefix`] for any n that is a multiple of 8: whole 8-byte words are
/// kept or cleared.
#[inline(always)]
fn words_prefix(src: &[u8; MAX_N], n: usize) -> Node {
    let mut out = *src;
    for (j, word) in out.chunks_exact_mut(8).enumerate() {
        if 8 * j >= n {
            word.fill(0);
        }
    }
    out
}

/// Overwrites a buffer of the hot paths that held secret values with zeros.
/// Plain stores, kept by `black_box` from being dropped as dead, rather than
/// `zeroize`'s byte-wise volatile writes: those, on every batch buffer, made
/// SHA2-128f signing markedly slower in a first measurement (2.8 → 4.3 ms on
/// a noisy machine); these vectorize.
#[inline(always)]
pub(crate) fn wipe<T: Copy + Default>(x: &mut [T]) {
    x.fill(T::default());
    core::hint::black_box(x);
}

/// Where the values of a batch of one-block calls come from.
#[derive(Clone, Copy)]
pub(crate) enum Values<'a> {
    /// Call i hashes `io[i]` (F, in place).
    Own,
    /// Call i hashes `io[2i] ‖ io[2i+1]` (H over one tree level, halving in place).
    Pairs,
    /// Every call hashes the same bytes (PRF: `SK.seed`). A whole node, not a
    /// slice: a slice's length check, hoisted by LLVM above the test of which
    /// variant this is, read the unused payload of `Own`/`Pairs` (memcheck
    /// reported it as a branch on uninitialised, sometimes secret, bytes).
    Fixed(&'a Node),
}

/// The first N bytes of a node as an array.
fn part<const N: usize>(x: &[u8]) -> &[u8; N] {
    x[..N].try_into().expect("N ≤ MAX_N")
}

/// Runs a batch of calls whose input fits one block once padded (F, H and
/// PRF in every parameter set). `template` holds the bytes all calls share
/// (`PK.seed` for SHAKE, the padding and length); `place` writes a call's
/// address and values into its block; `hash` turns a group of blocks into
/// outputs. Each group's blocks are filled before its outputs are written, so
/// the in-place forms are safe: group g writes `io[16g..]` and reads `io[32g..]`.
///
/// `place` is called with slices of exactly N bytes, N a constant, so its
/// copies compile to moves rather than `memcpy` calls. `secret` says whether
/// the blocks may hold secrets (the family was bound with `SK.seed`): only
/// then are they wiped, as a verifying instance hashes public values only.
pub(crate) fn one_block_batch<const B: usize, const N: usize>(
    adrs: &[Adrs],
    values: Values<'_>,
    io: &mut [Node],
    template: &[u8; B],
    secret: bool,
    place: impl Fn(&mut [u8; B], &Adrs, &[u8; N], Option<&[u8; N]>),
    hash: impl Fn(&[[u8; B]], &mut [Node]),
) {
    // A lone call (each level of a verification's hypertree climb, every
    // chain step of a one-chain path) needs one block, not the template
    // copied into GROUP of them (1–2 KiB) and wiped again.
    if adrs.len() == 1 {
        blocks_of::<B, N, 1>(adrs, values, io, template, secret, place, hash)
    } else {
        blocks_of::<B, N, GROUP>(adrs, values, io, template, secret, place, hash)
    }
}

/// [`one_block_batch`] with room for `C` blocks at a time.
fn blocks_of<const B: usize, const N: usize, const C: usize>(
    adrs: &[Adrs],
    values: Values<'_>,
    io: &mut [Node],
    template: &[u8; B],
    secret: bool,
    place: impl Fn(&mut [u8; B], &Adrs, &[u8; N], Option<&[u8; N]>),
    hash: impl Fn(&[[u8; B]], &mut [Node]),
) {
    let mut blocks = [*template; C];
    for (g, a) in adrs.chunks(C).enumerate() {
        let first = g * C;
        for (j, (b, a)) in blocks.iter_mut().zip(a).enumerate() {
            let i = first + j;
            match values {
                Values::Own => place(b, a, part(&io[i]), None),
                Values::Pairs => place(b, a, part(&io[2 * i]), Some(part(&io[2 * i + 1]))),
                Values::Fixed(v) => place(b, a, part(v), None),
            }
        }
        hash(&blocks[..a.len()], &mut io[first..first + a.len()]);
    }
    if secret {
        // The blocks held SK.seed (PRF) or secret chain values (F).
        wipe(blocks[..adrs.len().min(C)].as_flattened_mut());
    }
}

/// Calls `$body` with `$n` bound as a constant equal to the run-time n
/// (16, 24 or 32), so code generic over it is monomorphized per size.
macro_rules! with_const_n {
    ($n:expr, $N:ident => $body:expr) => {
        match $n {
            16 => {
                const $N: usize = 16;
                $body
            }
            24 => {
                const $N: usize = 24;
                $body
            }
            _ => {
                const $N: usize = 32;
                $body
            }
        }
    };
}
pub(crate) use with_const_n;

/// The inputs of a streamed T_l ([`TweakableHash::t_stream`]): input i as
/// `next` writes it, its n bytes handed to `absorb`, for i < l.
pub(crate) fn stream_inputs(
    n: usize,
    l: usize,
    next: &mut dyn FnMut(usize, &mut Node),
    mut absorb: impl FnMut(&[u8]),
) {
    let mut x = [0u8; MAX_N];
    for i in 0..l {
        next(i, &mut x);
        absorb(&x[..n]);
    }
}

/// Single-call convenience over the batch interface.
pub(crate) fn t_l<T: TweakableHash>(t: &T, adrs: &Adrs, inputs: &[Node]) -> Node {
    let mut out = [[0u8; MAX_N]];
    t.t_batch(core::slice::from_ref(adrs), &[inputs], &mut out);
    out[0]
}
