//! The largest sizes of any parameter set: buffers on the stack are sized by
//! these and sliced to the set's own numbers. A leaf module, so that the hash
//! layer can size its buffers without importing the parameter sets above it.

/// Largest `n` of any set; buffers are sized for it and sliced to `n`.
pub const MAX_N: usize = 32;
/// Largest WOTS+ `len` (n = 32, lg_w = 2: SLH-DSA-*-256-24 of SP 800-230).
pub const MAX_WOTS_LEN: usize = 133;
/// Largest digest length `m` (SLH-DSA-*-256f).
pub const MAX_M: usize = 49;
/// Largest number of FORS trees `k` (SLH-DSA-*-256f).
pub const MAX_K: usize = 35;
/// Largest FORS tree height `a` (SP 800-230's 192-24 and 256-24).
pub const MAX_A: usize = 25;
/// Largest XMSS tree height `h'` (SP 800-230's 128-24, d = 1).
pub const MAX_HP: usize = 22;
/// Largest d (hypertree layers) of any set.
pub const MAX_D: usize = 22;
