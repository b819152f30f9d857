//! Tweakable hash families (FIPS 205 §11): F, H, T_l and PRF over batches of
//! independent inputs, plus the message functions PRF_msg and H_msg.
//!
//! The scheme code hands over every independent call it has at once (all chains
//! of a WOTS+ key at one step, all leaves of a tree chunk, one tree level) so
//! that a multi-lane backend can fill its lanes without the scheme code knowing.

#[allow(unsafe_code)]
pub mod backend;
pub mod blake;
mod common;
mod haraka;
mod robust;
mod sha2;
mod shake;

pub(crate) use self::common::{t_l, wipe, MULTI_LANE};
pub use self::common::{Absorb, HMsgFinish, Node, PrfMsgFinish, TweakableHash};
pub use self::haraka::{Haraka, HarakaRobust, HarakaSimple};
pub use self::robust::{Bitmasks, Robust};
pub use self::sha2::{Sha2, Sha2Cat1, Sha2Cat35};
pub use self::shake::Shake;
