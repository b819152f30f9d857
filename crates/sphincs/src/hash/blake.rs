//! BLAKE-256 and BLAKE-512, the SHA-3 finalist (Aumasson, Henzen, Meier,
//! Phan, final round version of 2010; not BLAKE2), which SPHINCS-256 uses for
//! its seeds (BLAKE-256) and its message randomness and digest (BLAKE-512).
//!
//! Our own code: the one crate of the registry (`blake-hash` 0.4) is built on
//! the `digest` 0.9 generation, two behind the rest of the crate. SPHINCS-256
//! hashes a few short inputs per operation, so one scalar compression is
//! enough. Salt is always zero here (SPHINCS-256 uses none).

/// The digits of π that BLAKE uses as round constants (`c_0 … c_15`).
const C256: [u32; 16] = [
    0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344, 0xA4093822, 0x299F31D0, 0x082EFA98, 0xEC4E6C89,
    0x452821E6, 0x38D01377, 0xBE5466CF, 0x34E90C6C, 0xC0AC29B7, 0xC97C50DD, 0x3F84D5B5, 0xB5470917,
];

const C512: [u64; 16] = [
    0x243F6A8885A308D3,
    0x13198A2E03707344,
    0xA4093822299F31D0,
    0x082EFA98EC4E6C89,
    0x452821E638D01377,
    0xBE5466CF34E90C6C,
    0xC0AC29B7C97C50DD,
    0x3F84D5B5B5470917,
    0x9216D5D98979FB1B,
    0xD1310BA698DFB5AC,
    0x2FFD72DBD01ADFB7,
    0xB8E1AFED6A267E96,
    0xBA7C9045F12C7F99,
    0x24A19947B3916CF7,
    0x0801F2E2858EFC16,
    0x636920D871574E69,
];

/// The initial values, those of SHA-256 and SHA-512.
const IV256: [u32; 8] = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
];

const IV512: [u64; 8] = [
    0x6A09E667F3BCC908,
    0xBB67AE8584CAA73B,
    0x3C6EF372FE94F82B,
    0xA54FF53A5F1D36F1,
    0x510E527FADE682D1,
    0x9B05688C2B3E6C1F,
    0x1F83D9ABFB41BD6B,
    0x5BE0CD19137E2179,
];

/// The message-word permutations σ_0 … σ_9 (round r uses σ_{r mod 10}).
const SIGMA: [[usize; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

/// Columns, then diagonals: the word indices each G of a round works on.
const STEPS: [[usize; 4]; 8] = [
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [1, 6, 11, 12],
    [2, 7, 8, 13],
    [3, 4, 9, 14],
];

/// The two BLAKE word sizes, as one compression function written once.
trait Word: Copy + Default {
    const BYTES: usize;
    const ROUNDS: usize;
    const ROT: [u32; 4];
    const C: [Self; 16];
    fn add(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    fn rotr(self, n: u32) -> Self;
    fn from_be(b: &[u8]) -> Self;
    fn put_be(self, out: &mut [u8]);
    /// The bit counter as (low word, high word).
    fn counter(bits: u128) -> (Self, Self);
}

/// `Word` for one unsigned type: the operations are the type's own, the
/// constants those of its BLAKE variant. A macro, as the two impls differ
/// only in the type and the constants.
macro_rules! word {
    ($t:ty, rounds: $rounds:expr, rot: $rot:expr, c: $c:expr) => {
        impl Word for $t {
            const BYTES: usize = <$t>::BITS as usize / 8;
            const ROUNDS: usize = $rounds;
            const ROT: [u32; 4] = $rot;
            const C: [$t; 16] = $c;
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            fn xor(self, o: Self) -> Self {
                self ^ o
            }
            fn rotr(self, n: u32) -> Self {
                self.rotate_right(n)
            }
            fn from_be(b: &[u8]) -> Self {
                <$t>::from_be_bytes(b.try_into().expect("one word's bytes"))
            }
            fn put_be(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_be_bytes());
            }
            fn counter(bits: u128) -> (Self, Self) {
                (bits as $t, (bits >> <$t>::BITS) as $t)
            }
        }
    };
}

word!(u32, rounds: 14, rot: [16, 12, 8, 7], c: C256);
word!(u64, rounds: 16, rot: [32, 25, 16, 11], c: C512);

/// The compression function with a zero salt: `block` is 16 words, `t` the
/// number of message bits up to and including this block (0 for a final
/// block that holds only padding).
fn compress<W: Word>(h: &mut [W; 8], block: &[u8], t: u128) {
    let mut m = [W::default(); 16];
    for (w, b) in m.iter_mut().zip(block.chunks_exact(W::BYTES)) {
        *w = W::from_be(b);
    }
    let (t0, t1) = W::counter(t);
    let c = W::C;
    let mut v = [W::default(); 16];
    v[..8].copy_from_slice(h);
    v[8..12].copy_from_slice(&c[..4]);
    v[12] = t0.xor(c[4]);
    v[13] = t0.xor(c[5]);
    v[14] = t1.xor(c[6]);
    v[15] = t1.xor(c[7]);
    let rot = W::ROT;
    for r in 0..W::ROUNDS {
        let s = &SIGMA[r % 10];
        for (i, &[a, b, cc, d]) in STEPS.iter().enumerate() {
            let (x, y) = (s[2 * i], s[2 * i + 1]);
            v[a] = v[a].add(v[b]).add(m[x].xor(c[y]));
            v[d] = v[d].xor(v[a]).rotr(rot[0]);
            v[cc] = v[cc].add(v[d]);
            v[b] = v[b].xor(v[cc]).rotr(rot[1]);
            v[a] = v[a].add(v[b]).add(m[y].xor(c[x]));
            v[d] = v[d].xor(v[a]).rotr(rot[2]);
            v[cc] = v[cc].add(v[d]);
            v[b] = v[b].xor(v[cc]).rotr(rot[3]);
        }
    }
    for (i, hi) in h.iter_mut().enumerate() {
        *hi = hi.xor(v[i]).xor(v[i + 8]);
    }
}

/// BLAKE of the concatenation of `parts`, with `B`-byte blocks
/// (16 words) and a length field of `2·W::BYTES` bytes.
fn blake<W: Word, const B: usize>(iv: [W; 8], parts: &[&[u8]], out: &mut [u8]) {
    let mut h = iv;
    let mut block = [0u8; B];
    let mut fill = 0;
    let mut total: u128 = 0;
    for part in parts {
        let mut part = *part;
        while !part.is_empty() {
            // Compress a full block only once more input follows: the last
            // block is compressed with the padding below.
            if fill == B {
                compress(&mut h, &block, total * 8);
                fill = 0;
            }
            let take = (B - fill).min(part.len());
            block[fill..fill + take].copy_from_slice(&part[..take]);
            fill += take;
            total += take as u128;
            part = &part[take..];
        }
    }
    let len_bytes = 2 * W::BYTES;
    let bits = total * 8;
    let mut length = [0u8; 16];
    length.copy_from_slice(&bits.to_be_bytes());
    let length = &length[16 - len_bytes..];
    if fill == B {
        compress(&mut h, &block, bits);
        block.fill(0);
        // A block of padding alone: its counter is 0.
        block[0] = 0x80;
        block[B - len_bytes - 1] |= 0x01;
        block[B - len_bytes..].copy_from_slice(length);
        compress(&mut h, &block, 0);
    } else if fill < B - len_bytes {
        // Padding and length fit after the message bytes.
        block[fill..].fill(0);
        block[fill] = 0x80;
        block[B - len_bytes - 1] |= 0x01;
        block[B - len_bytes..].copy_from_slice(length);
        compress(&mut h, &block, bits);
    } else {
        // The 0x80 fits, the length does not: one more block of padding.
        block[fill..].fill(0);
        block[fill] = 0x80;
        compress(&mut h, &block, bits);
        block.fill(0);
        block[B - len_bytes - 1] = 0x01;
        block[B - len_bytes..].copy_from_slice(length);
        compress(&mut h, &block, 0);
    }
    for (chunk, w) in out.chunks_exact_mut(W::BYTES).zip(h.iter()) {
        w.put_be(chunk);
    }
    crate::hash::common::wipe(&mut block);
}

/// BLAKE-256 of the concatenation of `parts`.
pub fn blake256(parts: &[&[u8]]) -> [u8; 32] {
    let mut out = [0u8; 32];
    blake::<u32, 64>(IV256, parts, &mut out);
    out
}

/// BLAKE-512 of the concatenation of `parts`.
pub fn blake512(parts: &[&[u8]]) -> [u8; 64] {
    let mut out = [0u8; 64];
    blake::<u64, 128>(IV512, parts, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// The examples of the BLAKE submission (Appendix A, final round):
    /// one block (the single byte 0) and two blocks (72 and 144 zero bytes).
    #[test]
    fn submission_examples() {
        assert_eq!(
            hex(&blake256(&[&[0u8]])),
            "0ce8d4ef4dd7cd8d62dfded9d4edb0a774ae6a41929a74da23109e8f11139c87"
        );
        assert_eq!(
            hex(&blake256(&[&[0u8; 72]])),
            "d419bad32d504fb7d44d460c42c5593fe544fa4c135dec31e21bd9abdcc22d41"
        );
        assert_eq!(
            hex(&blake512(&[&[0u8]])),
            "97961587f6d970faba6d2478045de6d1fabd09b61ae50932054d52bc29d31be4\
             ff9102b9f69e2bbdb83be13d4b9c06091e5fa0b48bd081b634058be0ec49beb3"
        );
        assert_eq!(
            hex(&blake512(&[&[0u8; 144]])),
            "313717d608e9cf758dcb1eb0f0c3cf9fc150b2d500fb33f51c52afc99d358a2f\
             1374b8a38bba7974e7f6ef79cab16f22ce1e649d6e01ad9589c213045d545dde"
        );
    }

    /// The empty message (a block of padding alone, counter 0).
    #[test]
    fn empty_message() {
        assert_eq!(
            hex(&blake256(&[])),
            "716f6e863f744b9ac22c97ec7b76ea5f5908bc5b2f67c61510bfc4751384ea7a"
        );
        assert_eq!(
            hex(&blake512(&[])),
            "a8cfbbd73726062df0c6864dda65defe58ef0cc52a5625090fa17601e1eecd1b\
             628e94f396ae402a00acc9eab77b4d4c2e852aaaa25a636d80af3fc7913ef5b8"
        );
    }

    /// Splitting the input into parts at any place gives the same digest,
    /// around every block and padding boundary.
    #[test]
    fn parts_are_concatenated() {
        let data: Vec<u8> = (0..300u32).map(|i| (i * 31 + 7) as u8).collect();
        for len in [0, 1, 54, 55, 56, 63, 64, 65, 111, 112, 128, 129, 300] {
            let whole = blake512(&[&data[..len]]);
            let w256 = blake256(&[&data[..len]]);
            for cut in [0, len / 3, len] {
                assert_eq!(blake512(&[&data[..cut], &data[cut..len]]), whole);
                assert_eq!(blake256(&[&data[..cut], &data[cut..len]]), w256);
            }
        }
    }
}
