//! Integer and bit-string conversions of FIPS 205 §4.4.

/// `toInt(X, n)` (Algorithm 1) for at most 8 bytes, big-endian.
pub(crate) fn to_int(x: &[u8]) -> u64 {
    debug_assert!(x.len() <= 8);
    x.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

/// `base_2b(X, b, out_len)` (Algorithm 4): the first `out.len()` b-bit
/// big-endian chunks of X, for b ≤ 16.
pub(crate) fn base_2b(x: &[u8], b: usize, out: &mut [u32]) {
    let mut bytes = x.iter();
    let mut total: u32 = 0;
    let mut bits = 0usize;
    let mask = (1u32 << b) - 1;
    for o in out.iter_mut() {
        while bits < b {
            total = (total << 8) | u32::from(*bytes.next().expect("base_2b input long enough"));
            bits += 8;
        }
        bits -= b;
        *o = (total >> bits) & mask;
        total &= (1 << bits) - 1;
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
        assert_eq!(to_int(&[0xff; 8]), u64::MAX);
    }
}
