//! What each operation costs in primitive calls: ChaCha12 permutations (F is
//! one, H two, a G block one) and BLAKE compressions, for `sphincs bench
//! --calls` and the floor in BENCHMARKS.md. WOTS+ chain lengths depend on
//! the signed values; the counts use their expectation for uniform digits
//! (Σ of the 64 message digits 480, the three checksum digits about 15).

use super::params::{
    HORST_K, HORST_LOG_T, HORST_T, HORST_TOP_LEVEL, LAYERS, N, PK_BYTES, SK_BYTES, SUBTREE_LEAVES,
    WOTS_LEN, WOTS_LOG_LEN, WOTS_W,
};

/// Primitive calls of one operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Calls {
    /// ChaCha12 permutations (useful lanes; padding lanes not counted).
    pub permutations: u64,
    /// BLAKE-256 compressions.
    pub blake256_blocks: u64,
    /// BLAKE-512 compressions.
    pub blake512_blocks: u64,
}

const G_BLOCKS: u64 = (WOTS_LEN * N).div_ceil(64) as u64;
/// Expected Σ of the signed digits of one WOTS+ signature.
const SIGNED_STEPS: u64 = 480 + 15;
const LTREE_H: u64 = WOTS_LEN as u64 - 1;
const _: () = assert!(WOTS_LOG_LEN == 7);

fn blake256_blocks(len: usize) -> u64 {
    ((len + 8) / 64 + 1) as u64
}

fn blake512_blocks(len: usize) -> u64 {
    ((len + 16) / 128 + 1) as u64
}

/// One subtree: 32 WOTS+ keys (G, full chains, L-tree) and the tree.
fn subtree_permutations() -> u64 {
    let leaf = G_BLOCKS + (WOTS_LEN * (WOTS_W - 1)) as u64 + 2 * LTREE_H;
    SUBTREE_LEAVES as u64 * leaf + 2 * (SUBTREE_LEAVES as u64 - 1)
}

/// Key generation (loading a secret key): the top subtree.
pub fn keygen() -> Calls {
    Calls {
        permutations: subtree_permutations(),
        blake256_blocks: SUBTREE_LEAVES as u64 * blake256_blocks(N + 8),
        blake512_blocks: 0,
    }
}

/// Signing a message of `mlen` bytes with the top subtree cached in the key
/// (the reference rebuilds it: one subtree more).
pub fn sign(mlen: usize) -> Calls {
    let t = HORST_T as u64;
    let horst = t / 2 + t + 2 * (t - 1) + HORST_K as u64;
    let subtrees = (LAYERS as u64 - 1) * subtree_permutations();
    let wots = LAYERS as u64 * (G_BLOCKS + SIGNED_STEPS);
    let seeds = 1 + (LAYERS as u64 - 1) * SUBTREE_LEAVES as u64 + LAYERS as u64;
    Calls {
        permutations: horst + subtrees + wots,
        blake256_blocks: seeds * blake256_blocks(N + 8),
        blake512_blocks: blake512_blocks(SK_BYTES - N - 1024 + mlen)
            + blake512_blocks(N + PK_BYTES + mlen),
    }
}

/// Verifying a signature of a message of `mlen` bytes.
pub fn verify(mlen: usize) -> Calls {
    let k = HORST_K as u64;
    let tops = 1u64 << (HORST_LOG_T - HORST_TOP_LEVEL);
    let horst = k + 2 * k * HORST_TOP_LEVEL as u64 + 2 * (tops - 1);
    let chains = (WOTS_LEN * (WOTS_W - 1)) as u64 - SIGNED_STEPS;
    let layer = chains + 2 * LTREE_H + 2 * 5;
    Calls {
        permutations: horst + LAYERS as u64 * layer,
        blake256_blocks: 0,
        blake512_blocks: blake512_blocks(N + PK_BYTES + mlen),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(keygen().permutations, 37534);
        assert_eq!(sign(32).permutations, 229_406 + 11 * 37534 + 12 * 529);
        assert_eq!(sign(32).blake512_blocks, 1 + 9);
        assert_eq!(verify(32).permutations, 798 + 12 * 652);
        assert_eq!(blake256_blocks(55), 1);
        assert_eq!(blake256_blocks(56), 2);
        assert_eq!(blake512_blocks(111), 1);
        assert_eq!(blake512_blocks(112), 2);
    }
}
