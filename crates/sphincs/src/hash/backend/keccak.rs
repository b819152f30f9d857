//! SHAKE256 of short, fixed inputs straight on Keccak-f\[1600\] lanes: the
//! tweakable hashes absorb at most a few blocks, so a streaming hasher object
//! per call would cost more than the permutation saves.

/// SHAKE256 rate in bytes.
pub const RATE: usize = 136;

/// Computes SHAKE256 of the concatenation of `parts` into `out`, of any
/// length (one block covers every call of FIPS 205; the round-3.1 robust
/// bitmasks of T_l need several).
pub fn shake256(parts: &[&[u8]], out: &mut [u8]) {
    let mut state = [0u64; 25];
    let mut block = [0u8; RATE];
    let mut fill = 0;
    for part in parts {
        let mut part = *part;
        while !part.is_empty() {
            let take = (RATE - fill).min(part.len());
            block[fill..fill + take].copy_from_slice(&part[..take]);
            fill += take;
            part = &part[take..];
            if fill == RATE {
                absorb_block(&mut state, &block);
                fill = 0;
            }
        }
    }
    block[fill..].fill(0);
    block[fill] ^= 0x1f;
    block[RATE - 1] ^= 0x80;
    absorb_block(&mut state, &block);
    for (i, squeezed) in out.chunks_mut(RATE).enumerate() {
        if i > 0 {
            f1600(&mut state);
        }
        for (chunk, lane) in squeezed.chunks_mut(8).zip(state.iter()) {
            chunk.copy_from_slice(&lane.to_le_bytes()[..chunk.len()]);
        }
    }
}

/// SHAKE256 fed piece by piece, the bytes XORed straight into the state:
/// 200 bytes and a position, no block buffer (a streamed T_l, and one call
/// at a time where there are no multi-lane kernels).
pub(crate) struct Sponge {
    state: [u64; 25],
    pos: usize,
}

impl Sponge {
    pub(crate) fn new() -> Self {
        Sponge {
            state: [0; 25],
            pos: 0,
        }
    }

    /// Absorbs the next bytes.
    pub(crate) fn absorb(&mut self, data: &[u8]) {
        for &b in data {
            self.xor_byte(self.pos, b);
            self.pos += 1;
            if self.pos == RATE {
                f1600(&mut self.state);
                self.pos = 0;
            }
        }
    }

    fn xor_byte(&mut self, at: usize, b: u8) {
        self.state[at / 8] ^= u64::from(b) << (8 * (at % 8));
    }

    /// Pads, permutes and writes the first `out.len()` (≤ `RATE`) output
    /// bytes; the state is wiped (it may have absorbed secrets).
    pub(crate) fn squeeze(mut self, out: &mut [u8]) {
        self.xor_byte(self.pos, 0x1f);
        self.xor_byte(RATE - 1, 0x80);
        f1600(&mut self.state);
        for (chunk, lane) in out.chunks_mut(8).zip(self.state.iter()) {
            chunk.copy_from_slice(&lane.to_le_bytes()[..chunk.len()]);
        }
        self.state = [0; 25];
        core::hint::black_box(&mut self.state);
    }
}

fn absorb_block(state: &mut [u64; 25], block: &[u8; RATE]) {
    for (lane, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
        *lane ^= u64::from_le_bytes(bytes.try_into().expect("8-byte chunk"));
    }
    f1600(state);
}

/// Keccak-f\[1600\] on one state, the portable permutation.
pub fn f1600(state: &mut [u64; 25]) {
    ::keccak::Keccak::new().with_f1600(|f| f(state));
}

#[cfg(test)]
mod tests {
    use super::*;
    use shake::{ExtendableOutput, Update, XofReader};

    #[test]
    fn sponge_matches_shake256() {
        let data: Vec<u8> = (0..400u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in [0, 1, 135, 136, 137, 271, 272, 400] {
            let mut want = [0u8; 64];
            shake256(&[&data[..len]], &mut want);
            let mut s = Sponge::new();
            s.absorb(&data[..len / 3]);
            s.absorb(&data[len / 3..len]);
            let mut got = [0u8; 64];
            s.squeeze(&mut got);
            assert_eq!(got, want, "len {len}");
        }
    }

    #[test]
    fn matches_sha3_crate() {
        let data: Vec<u8> = (0..600u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in [0, 1, 95, 135, 136, 137, 271, 272, 273, 600] {
            // Outputs of one block and of several (robust T_l bitmasks).
            for out_len in [64, 136, 137, 2144] {
                let mut ours = vec![0u8; out_len];
                shake256(&[&data[..len / 2], &data[len / 2..len]], &mut ours);
                let mut x = shake::Shake256::default();
                x.update(&data[..len]);
                let mut theirs = vec![0u8; out_len];
                x.finalize_xof().read(&mut theirs);
                assert_eq!(ours, theirs, "len {len} out {out_len}");
            }
        }
    }
}
