//! The bitmasks Q of the public key (32 × 32 bytes) and which of them each
//! hash uses (the reference's offsets): WOTS+ chain step s uses Q_s; L-tree
//! level j uses Q_2j ‖ Q_2j+1; subtree level j uses Q_14+2j ‖ Q_15+2j (after
//! the seven L-tree levels); HORST tree level j uses Q_2j ‖ Q_2j+1.

use super::params::{MASKS, N, WOTS_LOG_LEN};

/// One mask as the eight little-endian words the ChaCha state takes.
pub(crate) type MaskWords = [u32; 8];

/// The bitmasks, decoded once into ChaCha words.
#[derive(Clone)]
pub(crate) struct Masks {
    q: [MaskWords; MASKS],
}

impl Masks {
    /// Decodes the 1024 bytes of Q.
    pub(crate) fn new(bytes: &[u8]) -> Self {
        debug_assert_eq!(bytes.len(), MASKS * N);
        let mut q = [[0u32; 8]; MASKS];
        for (m, b) in q.iter_mut().zip(bytes.chunks_exact(N)) {
            for (w, c) in m.iter_mut().zip(b.chunks_exact(4)) {
                *w = u32::from_le_bytes(c.try_into().expect("4 bytes"));
            }
        }
        Masks { q }
    }

    /// The mask of WOTS+ chain step `s` (from position s to s + 1).
    pub(crate) fn chain(&self) -> &[MaskWords] {
        &self.q[..super::params::WOTS_W - 1]
    }

    /// The mask pair of L-tree level `j` (and HORST tree level `j`).
    pub(crate) fn pair(&self, j: usize) -> [MaskWords; 2] {
        [self.q[2 * j], self.q[2 * j + 1]]
    }

    /// The mask pair of subtree level `j`.
    pub(crate) fn subtree(&self, j: usize) -> [MaskWords; 2] {
        self.pair(WOTS_LOG_LEN + j)
    }
}
