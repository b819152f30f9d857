//! A public key's parts, `PK.seed ‖ PK.root`: what the tree cache records
//! (whose key it is) and what every key type and signing call carries. The
//! secret parts, which may hold a tree cache, are `slh_dsa::SecretParts`.

#[cfg(feature = "alloc")]
use crate::prelude::*;
use zeroize::Zeroize;

use crate::hash::Node;
use crate::params::MAX_N;

/// `PK.seed ‖ PK.root`, each in a buffer of the largest n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Zeroize)]
pub(crate) struct PublicParts {
    pub pk_seed: Node,
    pub pk_root: Node,
}

/// `bytes` in a buffer of the largest n, zero after them.
pub(crate) fn node(bytes: &[u8]) -> Node {
    let mut out = [0u8; MAX_N];
    out[..bytes.len()].copy_from_slice(bytes);
    out
}

impl PublicParts {
    /// Splits raw `PK.seed ‖ PK.root` (length already checked).
    pub fn from_raw(pk: &[u8]) -> Self {
        let n = pk.len() / 2;
        PublicParts {
            pk_seed: node(&pk[..n]),
            pk_root: node(&pk[n..]),
        }
    }

    #[cfg(feature = "alloc")]
    pub fn to_raw(self, n: usize) -> Vec<u8> {
        [&self.pk_seed[..n], &self.pk_root[..n]].concat()
    }
}
