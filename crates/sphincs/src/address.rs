//! ADRS, the 32-byte hash address of FIPS 205 §4.2, and its 22-byte compressed
//! form ADRSc used by the SHA-2 sets (§11.2).

/// Address types (FIPS 205 §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum AdrsType {
    /// A step of a WOTS+ hash chain.
    WotsHash = 0,
    /// Compressing a WOTS+ public key.
    WotsPk = 1,
    /// An inner node of an XMSS tree.
    Tree = 2,
    /// A node of a FORS tree.
    ForsTree = 3,
    /// Compressing the FORS roots.
    ForsRoots = 4,
    /// Generating a WOTS+ secret value.
    WotsPrf = 5,
    /// Generating a FORS secret value.
    ForsPrf = 6,
}

/// A hash address: layer (4 bytes), tree (12), type (4), then three words whose
/// meaning depends on the type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adrs(pub [u8; 32]);

impl Adrs {
    /// The all-zero address, `toByte(0, 32)`.
    pub const fn new() -> Self {
        Adrs([0; 32])
    }

    fn set_word(&mut self, at: usize, v: u32) {
        self.0[at..at + 4].copy_from_slice(&v.to_be_bytes());
    }

    fn word(&self, at: usize) -> u32 {
        u32::from_be_bytes([self.0[at], self.0[at + 1], self.0[at + 2], self.0[at + 3]])
    }

    /// `ADRS.setLayerAddress(l)`.
    pub fn set_layer_address(&mut self, layer: u32) {
        self.set_word(0, layer);
    }

    /// `ADRS.setTreeAddress(t)`: the 12-byte field; every tree index of FIPS 205 fits in 64 bits.
    pub fn set_tree_address(&mut self, tree: u64) {
        self.0[4..8].fill(0);
        self.0[8..16].copy_from_slice(&tree.to_be_bytes());
    }

    /// `ADRS.setTypeAndClear(Y)`: sets the type and zeroes the three words after it.
    pub fn set_type_and_clear(&mut self, ty: AdrsType) {
        self.set_word(16, ty as u32);
        self.0[20..32].fill(0);
    }

    /// Sets the type alone, keeping the words after it: FIPS 205's PRF
    /// addresses are a chain's or a FORS leaf's first address with the PRF
    /// type (Algorithms 6, 7 and 15 clear and then refill those same words).
    pub fn set_type(&mut self, ty: AdrsType) {
        self.set_word(16, ty as u32);
    }

    /// `ADRS.setKeyPairAddress(i)`.
    pub fn set_key_pair_address(&mut self, i: u32) {
        self.set_word(20, i);
    }

    /// `ADRS.getKeyPairAddress()`.
    pub fn key_pair_address(&self) -> u32 {
        self.word(20)
    }

    /// `ADRS.setChainAddress(i)`.
    pub fn set_chain_address(&mut self, i: u32) {
        self.set_word(24, i);
    }

    /// `ADRS.setTreeHeight(z)` (same word as the chain address).
    pub fn set_tree_height(&mut self, z: u32) {
        self.set_word(24, z);
    }

    /// `ADRS.setHashAddress(i)`.
    pub fn set_hash_address(&mut self, i: u32) {
        self.set_word(28, i);
    }

    /// `ADRS.setTreeIndex(i)` (same word as the hash address).
    pub fn set_tree_index(&mut self, i: u32) {
        self.set_word(28, i);
    }

    /// `ADRS.getTreeIndex()`.
    pub fn tree_index(&self) -> u32 {
        self.word(28)
    }

    /// ADRSc (FIPS 205 §11.2): layer and type shrink to one byte, the tree address to eight.
    pub fn compressed(&self) -> [u8; 22] {
        let mut c = [0u8; 22];
        c[0] = self.0[3];
        c[1..9].copy_from_slice(&self.0[8..16]);
        c[9] = self.0[19];
        c[10..22].copy_from_slice(&self.0[20..32]);
        c
    }

    /// ADRSc's first 20 bytes as five big-endian words (the hash address's
    /// low half left out), made from whole words of the address: the
    /// SHA-256 chain kernels take these. (Words read back from
    /// [`compressed`](Self::compressed)'s bytes span the byte stores just
    /// made, which the CPU cannot forward: a stall per word.)
    pub fn compressed_words(&self) -> [u32; 5] {
        let layer = u32::from(self.0[3]);
        let tree = u64::from_be_bytes(self.0[8..16].try_into().expect("8 bytes"));
        let kind = u32::from(self.0[19]);
        let (key_pair, chain, hash) = (self.word(20), self.word(24), self.word(28));
        [
            layer << 24 | (tree >> 40) as u32,
            (tree >> 8) as u32,
            ((tree as u32) << 24) | kind << 16 | key_pair >> 16,
            key_pair << 16 | chain >> 16,
            chain << 16 | hash >> 16,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_compression() {
        let mut a = Adrs::new();
        a.set_layer_address(3);
        a.set_tree_address(0x0102_0304_0506_0708);
        a.set_type_and_clear(AdrsType::ForsTree);
        a.set_key_pair_address(0xaabb);
        a.set_tree_height(5);
        a.set_tree_index(77);
        assert_eq!(a.key_pair_address(), 0xaabb);
        assert_eq!(a.tree_index(), 77);
        assert_eq!(&a.0[..4], &[0, 0, 0, 3]);
        assert_eq!(&a.0[8..16], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(a.0[19], 3);
        let c = a.compressed();
        assert_eq!(c[0], 3);
        assert_eq!(&c[1..9], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(c[9], 3);
        assert_eq!(&c[10..], &a.0[20..]);
        // The words, here and with every byte of the address distinct.
        let mut all = Adrs::new();
        for (i, b) in all.0.iter_mut().enumerate() {
            *b = 0x80 | i as u8;
        }
        for x in [a, all] {
            for (w, b) in x
                .compressed_words()
                .iter()
                .zip(x.compressed().chunks_exact(4))
            {
                assert_eq!(w.to_be_bytes(), b);
            }
        }
        a.set_type_and_clear(AdrsType::Tree);
        assert_eq!(&a.0[20..], &[0u8; 12]);
        assert_eq!(&a.0[8..16], &[1, 2, 3, 4, 5, 6, 7, 8]);
    }
}
