//! The per-address seeds: BLAKE-256(SK1 ‖ LE64(level | subtree << 4 | leaf << 59))
//! (the reference's `get_seed`: 4 bits of level, 55 of subtree, 5 of leaf).

use crate::hash::blake::blake256;

use super::hash::Node;

/// The seed of the WOTS+ key (or, at level 12, the HORST key) at `leaf` of
/// subtree `subtree` on layer `level`.
pub(crate) fn address_seed(sk1: &[u8], level: u64, subtree: u64, leaf: u64) -> Node {
    let address = level | (subtree << 4) | (leaf << 59);
    blake256(&[sk1, &address.to_le_bytes()])
}
