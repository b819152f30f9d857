//! Tweakable hash families (FIPS 205 §11): F, H, T_l and PRF over batches of
//! independent inputs, plus the message functions PRF_msg and H_msg.
//!
//! The scheme code hands over every independent call it has at once (all chains
//! of a WOTS+ key at one step, all leaves of a tree chunk, one tree level) so
//! that a multi-lane backend can fill its lanes without the scheme code knowing.

#[allow(unsafe_code)]
pub mod backend;
mod sha2;
mod shake;

pub use self::sha2::{Sha2, Sha2Cat1, Sha2Cat35};
pub use self::shake::Shake;

use crate::address::Adrs;
use crate::params::MAX_N;

/// Most calls a family hands to the lane drivers at once: a multiple of every
/// kernel's width, small enough to keep the per-call part lists on the stack.
pub(crate) const GROUP: usize = 16;
/// The same for T_l, whose part lists are long.
pub(crate) const T_GROUP: usize = 8;

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
    type HMsg: Absorb + HMsgFinish;

    /// Binds the family to a key; `sk_seed` is `None` for verification.
    /// The SHA-2 families compress the padded `PK.seed` block here, once.
    fn new(n: usize, pk_seed: &[u8], sk_seed: Option<&[u8]>) -> Self;

    /// `io[i] = F(PK.seed, adrs[i], io[i])`.
    fn f_batch(&self, adrs: &[Adrs], io: &mut [Node]);

    /// `nodes[i] = H(PK.seed, adrs[i], nodes[2i] ‖ nodes[2i+1])` for every i:
    /// one tree level, halving in place.
    fn h_pairs(&self, adrs: &[Adrs], nodes: &mut [Node]);

    /// `out[i] = T_l(PK.seed, adrs[i], inputs[i])`, each input list of the same length l.
    fn t_batch(&self, adrs: &[Adrs], inputs: &[&[Node]], out: &mut [Node]);

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

/// Single-call convenience over the batch interface.
pub(crate) fn t_l<T: TweakableHash>(t: &T, adrs: &Adrs, inputs: &[Node]) -> Node {
    let mut out = [[0u8; MAX_N]];
    t.t_batch(core::slice::from_ref(adrs), &[inputs], &mut out);
    out[0]
}
