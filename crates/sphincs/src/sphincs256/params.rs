//! The numbers of SPHINCS-256 (Bernstein et al., EUROCRYPT 2015, §4) and the
//! byte layouts of the SUPERCOP reference `crypto_sign/sphincs256/ref`.

/// Hash output and seed length n, in bytes (256 bits).
pub const N: usize = 32;
/// Height of one subtree of the hypertree.
pub const SUBTREE_HEIGHT: usize = 5;
/// Leaves of one subtree.
pub const SUBTREE_LEAVES: usize = 1 << SUBTREE_HEIGHT;
/// Total height h of the hypertree.
pub const TOTAL_HEIGHT: usize = 60;
/// Layers d of the hypertree.
pub const LAYERS: usize = TOTAL_HEIGHT / SUBTREE_HEIGHT;
/// Winternitz parameter w.
pub const WOTS_W: usize = 16;
/// WOTS+ chains of the message part, ℓ_1.
pub const WOTS_LEN1: usize = 64;
/// WOTS+ chains in all, ℓ = ℓ_1 + ℓ_2.
pub const WOTS_LEN: usize = 67;
/// Height of the L-tree over ℓ = 67 nodes, ⌈log₂ ℓ⌉.
pub const WOTS_LOG_LEN: usize = 7;
/// log₂ t, the height of the HORST tree.
pub const HORST_LOG_T: usize = 16;
/// HORST secret key elements t.
pub const HORST_T: usize = 1 << HORST_LOG_T;
/// HORST elements revealed per signature, k.
pub const HORST_K: usize = 32;
/// The HORST level whose nodes the signature carries all of (64 nodes).
pub const HORST_TOP_LEVEL: usize = 10;
/// Bitmasks Q in the public key.
pub const MASKS: usize = 2 * HORST_LOG_T;
/// Secret key bytes: SK1 ‖ Q ‖ SK2.
pub const SK_BYTES: usize = N + MASKS * N + N;
/// Public key bytes: Q ‖ PK1 (the root of the top subtree).
pub const PK_BYTES: usize = MASKS * N + N;
/// HORST signature bytes: 64 level-10 nodes, then k × (element ‖ 10 auth nodes).
pub const HORST_SIG_BYTES: usize =
    (1 << (HORST_LOG_T - HORST_TOP_LEVEL)) * N + HORST_K * (N + HORST_TOP_LEVEL * N);
/// One layer of the hypertree signature: WOTS+ signature ‖ authentication path.
pub const LAYER_SIG_BYTES: usize = WOTS_LEN * N + SUBTREE_HEIGHT * N;
/// Bytes of the leaf index field (only its low 60 bits are used).
pub const INDEX_BYTES: usize = 8;
/// Signature bytes: R1 ‖ index ‖ HORST signature ‖ 12 layers.
pub const SIG_BYTES: usize = N + INDEX_BYTES + HORST_SIG_BYTES + LAYERS * LAYER_SIG_BYTES;

/// The HORST address level (one above the top hypertree layer).
pub const HORST_LEVEL: u64 = LAYERS as u64;

const _: () = assert!(SK_BYTES == 1088 && PK_BYTES == 1056 && SIG_BYTES == 41000);
const _: () = assert!(HORST_SIG_BYTES == 13312);
