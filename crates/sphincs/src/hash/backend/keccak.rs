//! SHAKE256 of short, fixed inputs straight on Keccak-f\[1600\] lanes: the
//! tweakable hashes absorb at most a few blocks, so a streaming hasher object
//! per call would cost more than the permutation saves.

/// SHAKE256 rate in bytes.
pub const RATE: usize = 136;

/// Computes SHAKE256 of the concatenation of `parts` into `out`, of any
/// length (one block covers every call of FIPS 205; the round-3.1 robust
/// bitmasks of T_l need several).
pub fn shake256(parts: &[&[u8]], out: &mut [u8]) {
    shake256_on::<Native>(parts, out);
}

/// [`shake256`] on the state representation `S`.
fn shake256_on<S: LaneState>(parts: &[&[u8]], out: &mut [u8]) {
    let mut state = S::ZERO;
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
            state.permute();
        }
        squeeze_lanes(&state, squeezed);
    }
}

/// A Keccak-f\[1600\] state as the sponge sees it: 25 lanes it XORs into,
/// reads out and permutes. Plain `u64` lanes on most targets; on 32-bit
/// cores but wasm32 (a Cortex-M), two bit-interleaved `u32` words per lane
/// (`keccak32`), converted only at this interface.
pub(crate) trait LaneState: Sized {
    /// The all-zero state.
    const ZERO: Self;
    /// XORs `v` into lane `i`.
    fn xor_lane(&mut self, i: usize, v: u64);
    /// Lane `i`.
    fn lane(&self, i: usize) -> u64;
    /// Keccak-f\[1600\].
    fn permute(&mut self);
}

impl LaneState for [u64; 25] {
    const ZERO: Self = [0; 25];
    fn xor_lane(&mut self, i: usize, v: u64) {
        self[i] ^= v;
    }
    fn lane(&self, i: usize) -> u64 {
        self[i]
    }
    fn permute(&mut self) {
        portable_f1600(self);
    }
}

/// The sponge's state on 32-bit targets but wasm32: bit-interleaved.
#[cfg(any(test, all(target_pointer_width = "32", not(target_arch = "wasm32"))))]
impl LaneState for super::keccak32::Interleaved {
    const ZERO: Self = super::keccak32::Interleaved([0; 50]);
    fn xor_lane(&mut self, i: usize, v: u64) {
        let (e, o) = super::keccak32::interleave(v);
        let [e0, o0] = super::keccak32::get(&self.0, i);
        super::keccak32::put(&mut self.0, i, [e0 ^ e, o0 ^ o]);
    }
    fn lane(&self, i: usize) -> u64 {
        let [e, o] = super::keccak32::get(&self.0, i);
        super::keccak32::deinterleave(e, o)
    }
    fn permute(&mut self) {
        super::keccak32::permute(self);
    }
}

/// Whether this target's sponge and [`f1600`] run the bit-interleaved
/// 32-bit permutation (`keccak32`): 32-bit targets but wasm32. (Read by
/// `Kernels::describe` alone.)
#[cfg(feature = "alloc")]
pub(crate) const INTERLEAVED: bool = cfg!(all(
    target_pointer_width = "32",
    not(target_arch = "wasm32")
));

/// The state representation of this target (chosen at compile time).
#[cfg(all(target_pointer_width = "32", not(target_arch = "wasm32")))]
type Native = super::keccak32::Interleaved;
#[cfg(not(all(target_pointer_width = "32", not(target_arch = "wasm32"))))]
type Native = [u64; 25];

/// Writes the first `out.len()` (≤ `RATE`) bytes of the state.
fn squeeze_lanes<S: LaneState>(state: &S, out: &mut [u8]) {
    for (i, chunk) in out.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&state.lane(i).to_le_bytes()[..chunk.len()]);
    }
}

/// SHAKE256 fed piece by piece, the bytes XORed straight into the state:
/// 200 bytes and a position, no block buffer (a streamed T_l, and one call
/// at a time where there are no multi-lane kernels).
pub(crate) type Sponge = SpongeOn<Native>;

/// [`Sponge`] on the state representation `S`.
pub(crate) struct SpongeOn<S> {
    state: S,
    pos: usize,
}

impl<S: LaneState> SpongeOn<S> {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        SpongeOn {
            state: S::ZERO,
            pos: 0,
        }
    }

    /// Absorbs the next bytes: whole lanes where the position is at a lane
    /// boundary (every FIPS 205 input is a multiple of 8 bytes), else byte
    /// by byte.
    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        while let Some((&b, rest)) = data.split_first() {
            if let (0, Some((lane, rest))) = (self.pos % 8, data.split_first_chunk::<8>()) {
                self.state.xor_lane(self.pos / 8, u64::from_le_bytes(*lane));
                self.pos += 8;
                data = rest;
            } else {
                self.xor_byte(self.pos, b);
                self.pos += 1;
                data = rest;
            }
            if self.pos == RATE {
                self.state.permute();
                self.pos = 0;
            }
        }
    }

    fn xor_byte(&mut self, at: usize, b: u8) {
        self.state.xor_lane(at / 8, u64::from(b) << (8 * (at % 8)));
    }

    /// Pads, permutes and writes the first `out.len()` (≤ `RATE`) output
    /// bytes; the state is wiped (it may have absorbed secrets). By
    /// reference: taking the sponge by value copied its 200 bytes first.
    #[inline(always)]
    pub(crate) fn squeeze(&mut self, out: &mut [u8]) {
        self.finish(out);
        self.state = S::ZERO;
        core::hint::black_box(&mut self.state);
    }

    /// [`squeeze`](Self::squeeze) without the wipe, for a sponge that
    /// absorbed public bytes only (a verification's calls): on a Cortex-M4
    /// the wipe and the copies it forced cost about a tenth of a SHAKE
    /// verification.
    #[inline(always)]
    pub(crate) fn squeeze_public(&mut self, out: &mut [u8]) {
        self.finish(out);
    }

    fn finish(&mut self, out: &mut [u8]) {
        self.xor_byte(self.pos, 0x1f);
        self.xor_byte(RATE - 1, 0x80);
        self.state.permute();
        squeeze_lanes(&self.state, out);
    }
}

fn absorb_block<S: LaneState>(state: &mut S, block: &[u8; RATE]) {
    for (i, bytes) in block.chunks_exact(8).enumerate() {
        state.xor_lane(
            i,
            u64::from_le_bytes(bytes.try_into().expect("8-byte chunk")),
        );
    }
    state.permute();
}

/// Keccak-f\[1600\] on one state: the bit-interleaved 32-bit permutation
/// on 32-bit targets but wasm32, else the portable one.
pub fn f1600(state: &mut [u64; 25]) {
    #[cfg(all(target_pointer_width = "32", not(target_arch = "wasm32")))]
    super::keccak32::f1600(state);
    #[cfg(not(all(target_pointer_width = "32", not(target_arch = "wasm32"))))]
    portable_f1600(state);
}

/// Keccak-f\[1600\] on one state, the keccak crate's portable permutation.
pub fn portable_f1600(state: &mut [u64; 25]) {
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

    /// The sponge and the one-call SHAKE256 on the bit-interleaved 32-bit
    /// state (what 32-bit targets but wasm32 run) against the sha3
    /// crate's SHAKE256: aligned pieces (the lane path: FIPS 205's
    /// `PK.seed ‖ ADRS ‖ values` of n = 16, 24, 32, streamed T_l of several
    /// blocks) and unaligned ones (the byte path), outputs of one block and
    /// of several.
    #[test]
    fn interleaved_state_matches_sha3_crate() {
        use crate::hash::backend::keccak32::Interleaved;
        let mut rng = crate::hash::backend::test_data::XorShift(0x3232_3232_0000_0001);
        let mut data = vec![0u8; 2300];
        rng.fill(&mut data);
        let shapes: [&[usize]; 9] = [
            &[16, 32, 16],
            &[24, 32, 24, 24],
            &[32, 32, 32],
            &[32, 32, 32, 32],
            &[16, 32, 16 * 35],
            &[32, 32, 32 * 67],
            &[1, 7, 8, 9, 135, 136, 137],
            &[3],
            &[],
        ];
        for parts in shapes {
            let total: usize = parts.iter().sum();
            let mut x = shake::Shake256::default();
            x.update(&data[..total]);
            let mut want = vec![0u8; 300];
            x.finalize_xof().read(&mut want);

            let mut s = SpongeOn::<Interleaved>::new();
            let mut pieces = Vec::new();
            let mut at = 0;
            for &len in parts {
                s.absorb(&data[at..at + len]);
                pieces.push(&data[at..at + len]);
                at += len;
            }
            for out_len in [16, 24, 32, 136] {
                let mut s2 = SpongeOn::<Interleaved> {
                    state: s.state,
                    pos: s.pos,
                };
                s2.absorb(&[]);
                let mut got = vec![0u8; out_len];
                s2.squeeze(&mut got);
                assert_eq!(got, want[..out_len], "sponge {parts:?} out {out_len}");
            }
            let mut got = vec![0u8; 300];
            shake256_on::<Interleaved>(&pieces, &mut got);
            assert_eq!(got, want, "shake256 {parts:?}");
        }
    }
}
