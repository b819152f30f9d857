//! Integer and bit-string conversions of FIPS 205 §4.4.

/// `toInt(X, n)` (Algorithm 1) for at most 8 bytes, big-endian.
pub(crate) fn to_int(x: &[u8]) -> u64 {
    debug_assert!(x.len() <= 8);
    x.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

/// `base_2b(X, b, out_len)` (Algorithm 4): the first `out.len()` b-bit
/// big-endian chunks of X, for b ≤ 25.
pub(crate) fn base_2b(x: &[u8], b: usize, out: &mut [u32]) {
    base_2b_each(x, b, out.len(), |i, v| out[i] = v);
}

/// [`base_2b`] handing chunk i to `put(i, chunk)` for i < `count`, for
/// callers that keep the chunks in another type (WOTS+ digits as bytes).
pub(crate) fn base_2b_each(x: &[u8], b: usize, count: usize, mut put: impl FnMut(usize, u32)) {
    let mut bytes = x.iter();
    let mut total: u32 = 0;
    let mut bits = 0usize;
    let mask = (1u32 << b) - 1;
    for i in 0..count {
        while bits < b {
            total = (total << 8) | u32::from(*bytes.next().expect("base_2b input long enough"));
            bits += 8;
        }
        bits -= b;
        put(i, (total >> bits) & mask);
        total &= (1 << bits) - 1;
    }
}

/// SPHINCS+ round 3.1 `message_to_indices`: consecutive b-bit chunks of X
/// read from the least significant bit of each byte up, the first bit read
/// being the chunk's least significant bit.
pub(crate) fn base_2b_lsb_first(x: &[u8], b: usize, out: &mut [u32]) {
    let mut offset = 0usize;
    for o in out.iter_mut() {
        let mut v = 0u32;
        for j in 0..b {
            let bit = (x[offset >> 3] >> (offset & 7)) & 1;
            v |= u32::from(bit) << j;
            offset += 1;
        }
        *o = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_2b_chunks() {
        let mut out = [0u32; 4];
        base_2b(&[0xab, 0xcd], 4, &mut out);
        assert_eq!(out, [0xa, 0xb, 0xc, 0xd]);
        let mut out = [0u32; 2];
        base_2b(&[0xff, 0x00, 0x0f], 12, &mut out);
        assert_eq!(out, [0xff0, 0x00f]);
        let mut out = [0u32; 3];
        base_2b(&[0b1010_1100, 0b0111_0000], 3, &mut out);
        assert_eq!(out, [0b101, 0b011, 0b000]);
        assert_eq!(to_int(&[1, 2]), 0x102);
        // 0b1010_1100, 0b0111_0000 read LSB first: 0,0,1,1,0,1,0,1, 0,0,0,0,1,1,1,0.
        let mut out = [0u32; 4];
        base_2b_lsb_first(&[0b1010_1100, 0b0111_0000], 4, &mut out);
        assert_eq!(out, [0b1100, 0b1010, 0b0000, 0b0111]);
        let mut out = [0u32; 2];
        base_2b_lsb_first(&[0xff, 0x00, 0x0f], 12, &mut out);
        assert_eq!(out, [0x0ff, 0x0f0]);
        assert_eq!(to_int(&[0xff; 8]), u64::MAX);
    }
}
