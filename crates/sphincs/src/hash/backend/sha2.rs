//! SHA-256 and SHA-512 resumed from a saved chaining state. The SHA-2 families
//! hash `PK.seed` padded to a whole block in front of every call, so that block
//! is compressed once per key and each call starts from the saved state.

use sha2::block_api::compress512;

/// SHA-256's compression function of this build: our rounds
/// (`sha256_32bit`) on ARMv7-M cores, and on other 32-bit targets but
/// wasm32 with `fast-sha256`; elsewhere the sha2 crate's (with its run-time
/// choice of SHA-NI, or its compact rounds on the 32-bit targets).
#[inline(always)]
pub(crate) fn compress256(state: &mut State256, blocks: &[[u8; 64]; 1]) {
    #[cfg(any(
        all(
            target_arch = "arm",
            target_feature = "mclass",
            target_feature = "thumb2"
        ),
        all(
            target_pointer_width = "32",
            not(target_arch = "wasm32"),
            feature = "fast-sha256"
        )
    ))]
    super::sha256_32bit::compress(state, &blocks[0]);
    #[cfg(not(any(
        all(
            target_arch = "arm",
            target_feature = "mclass",
            target_feature = "thumb2"
        ),
        all(
            target_pointer_width = "32",
            not(target_arch = "wasm32"),
            feature = "fast-sha256"
        )
    )))]
    sha2::block_api::compress256(state, blocks);
}

/// Chaining state of SHA-256 after some whole blocks.
pub type State256 = [u32; 8];
/// Chaining state of SHA-512 after some whole blocks.
pub type State512 = [u64; 8];

/// SHA-256 initial state (FIPS 180-4 §5.3.3).
pub const IV256: State256 = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];
/// SHA-256 round constants (FIPS 180-4 §4.2.2), shared by the SHA-256
/// kernels of every architecture (the 32-bit cores' among them).
#[cfg(any(
    test,
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    ),
    all(
        target_pointer_width = "32",
        not(target_arch = "wasm32"),
        feature = "fast-sha256"
    )
))]
pub(crate) const K256: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// SHA-512 initial state (FIPS 180-4 §5.3.5).
pub const IV512: State512 = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// SHA-512 round constants K (FIPS 180-4 §4.2.3): the first 64 bits of the
/// fractional parts of the cube roots of the first 80 primes.
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) const K512: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// The state after compressing `seed ‖ 0^(64 − |seed|)`.
pub fn seed_state256(seed: &[u8]) -> State256 {
    let mut block = [0u8; 64];
    block[..seed.len()].copy_from_slice(seed);
    let mut st = IV256;
    compress256(&mut st, &[block]);
    st
}

/// The state after compressing `seed ‖ 0^(128 − |seed|)`.
pub fn seed_state512(seed: &[u8]) -> State512 {
    let mut block = [0u8; 128];
    block[..seed.len()].copy_from_slice(seed);
    let mut st = IV512;
    compress512(&mut st, &[block]);
    st
}

/// What SHA-256 and SHA-512 do differently around the shared padding loop.
pub(crate) trait Chaining: Copy {
    /// Block size in bytes; the length field is `BLOCK / 8` bytes.
    const BLOCK: usize;
    /// One block's buffer, sized for this hash (64 or 128 bytes).
    type Block: AsMut<[u8]> + Copy;
    /// An all-zero block.
    const ZERO: Self::Block;
    fn compress(&mut self, block: &[u8]);
    fn write_digest(&self, out: &mut [u8]);
}

impl Chaining for State256 {
    const BLOCK: usize = 64;
    type Block = [u8; 64];
    const ZERO: [u8; 64] = [0; 64];
    fn compress(&mut self, block: &[u8]) {
        compress256(self, &[block.try_into().expect("one SHA-256 block")]);
    }
    fn write_digest(&self, out: &mut [u8]) {
        for (chunk, word) in out.chunks_mut(4).zip(self.iter()) {
            chunk.copy_from_slice(&word.to_be_bytes()[..chunk.len()]);
        }
    }
}

impl Chaining for State512 {
    const BLOCK: usize = 128;
    type Block = [u8; 128];
    const ZERO: [u8; 128] = [0; 128];
    fn compress(&mut self, block: &[u8]) {
        compress512(self, &[block.try_into().expect("one SHA-512 block")]);
    }
    fn write_digest(&self, out: &mut [u8]) {
        for (chunk, word) in out.chunks_mut(8).zip(self.iter()) {
            chunk.copy_from_slice(&word.to_be_bytes()[..chunk.len()]);
        }
    }
}

/// SHA-256 or SHA-512 fed piece by piece, resumed from a chaining state
/// that has absorbed whole blocks: one block of buffer, whatever the input's
/// length (a streamed T_l holds no list of its inputs).
pub(crate) struct Stream<S: Chaining> {
    st: S,
    block: S::Block,
    fill: usize,
    total: u128,
}

impl<S: Chaining> Stream<S> {
    /// Resumes from `st`, which has absorbed `absorbed` bytes (whole blocks).
    pub(crate) fn new(st: &S, absorbed: usize) -> Self {
        Stream {
            st: *st,
            block: S::ZERO,
            fill: 0,
            total: absorbed as u128,
        }
    }

    /// Absorbs the next bytes.
    pub(crate) fn absorb(&mut self, mut part: &[u8]) {
        let b = S::BLOCK;
        self.total += part.len() as u128;
        while !part.is_empty() {
            let take = (b - self.fill).min(part.len());
            self.block.as_mut()[self.fill..self.fill + take].copy_from_slice(&part[..take]);
            self.fill += take;
            part = &part[take..];
            if self.fill == b {
                self.st.compress(self.block.as_mut());
                self.fill = 0;
            }
        }
    }

    /// Pads (FIPS 180-4 §5.1) and writes the first `out.len()` digest bytes.
    pub(crate) fn finish(mut self, out: &mut [u8]) {
        let b = S::BLOCK;
        let len_at = b - b / 8;
        let fill = self.fill;
        let block = self.block.as_mut();
        block[fill] = 0x80;
        block[fill + 1..].fill(0);
        if fill + 1 > len_at {
            self.st.compress(block);
            block.fill(0);
        }
        block[len_at..].copy_from_slice(&(self.total * 8).to_be_bytes()[16 - b / 8..]);
        self.st.compress(block);
        self.st.write_digest(out);
    }
}

/// Absorbs `parts` after the `absorbed` bytes (whole blocks) already in `st`,
/// pads (FIPS 180-4 §5.1) and writes the first `out.len()` digest bytes.
pub(crate) fn resume<S: Chaining>(st: &S, absorbed: usize, parts: &[&[u8]], out: &mut [u8]) {
    let mut s = Stream::new(st, absorbed);
    for part in parts {
        s.absorb(part);
    }
    s.finish(out);
}

/// Finishes SHA-256 of `(one block already in st) ‖ parts`, writing the first
/// `out.len()` bytes of the digest.
pub fn sha256_resume(st: &State256, parts: &[&[u8]], out: &mut [u8]) {
    resume(st, 64, parts, out);
}

/// Finishes SHA-512 of `(one block already in st) ‖ parts`, writing the first
/// `out.len()` bytes of the digest.
pub fn sha512_resume(st: &State512, parts: &[&[u8]], out: &mut [u8]) {
    resume(st, 128, parts, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256, Sha512};

    #[test]
    fn resume_matches_sha2_crate() {
        let data: Vec<u8> = (0..700u32).map(|i| (i * 13 + 5) as u8).collect();
        let seed = &data[..24];
        let s256 = seed_state256(seed);
        let s512 = seed_state512(seed);
        for len in [
            0, 1, 22, 54, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 500,
        ] {
            let msg = &data[100..100 + len];
            let mut pre = vec![0u8; 64];
            pre[..24].copy_from_slice(seed);
            pre.extend_from_slice(msg);
            let mut ours = [0u8; 32];
            sha256_resume(&s256, &[&msg[..len / 3], &msg[len / 3..]], &mut ours);
            assert_eq!(ours[..], Sha256::digest(&pre)[..], "sha256 len {len}");

            let mut pre = vec![0u8; 128];
            pre[..24].copy_from_slice(seed);
            pre.extend_from_slice(msg);
            let mut ours = [0u8; 64];
            sha512_resume(&s512, &[msg], &mut ours);
            assert_eq!(ours[..], Sha512::digest(&pre)[..], "sha512 len {len}");
        }
    }
}
