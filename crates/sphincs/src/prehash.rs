//! The pre-hash functions of HashSLH-DSA (FIPS 205 §10.2.2) and the DER OIDs
//! that bind each one into M'.

use core::fmt;

pub use crate::vocabulary::PreHash;

/// Largest pre-hash output (SHA-512, SHA3-512, SHAKE256 at 512 bits).
pub const MAX_PREHASH_LEN: usize = 64;

impl PreHash {
    /// All twelve, SHA-2 first, then SHA-3, then SHAKE.
    pub const ALL: [PreHash; 12] = [
        PreHash::Sha2_224,
        PreHash::Sha2_256,
        PreHash::Sha2_384,
        PreHash::Sha2_512,
        PreHash::Sha2_512_224,
        PreHash::Sha2_512_256,
        PreHash::Sha3_224,
        PreHash::Sha3_256,
        PreHash::Sha3_384,
        PreHash::Sha3_512,
        PreHash::Shake128,
        PreHash::Shake256,
    ];

    /// The ACVP spelling, e.g. `SHA2-512/224`, `SHAKE-128`.
    pub const fn name(self) -> &'static str {
        match self {
            PreHash::Sha2_224 => "SHA2-224",
            PreHash::Sha2_256 => "SHA2-256",
            PreHash::Sha2_384 => "SHA2-384",
            PreHash::Sha2_512 => "SHA2-512",
            PreHash::Sha2_512_224 => "SHA2-512/224",
            PreHash::Sha2_512_256 => "SHA2-512/256",
            PreHash::Sha3_224 => "SHA3-224",
            PreHash::Sha3_256 => "SHA3-256",
            PreHash::Sha3_384 => "SHA3-384",
            PreHash::Sha3_512 => "SHA3-512",
            PreHash::Shake128 => "SHAKE-128",
            PreHash::Shake256 => "SHAKE-256",
        }
    }

    /// Last arc of the NIST OID `2.16.840.1.101.3.4.2.<arc>`.
    const fn oid_arc(self) -> u8 {
        match self {
            PreHash::Sha2_256 => 1,
            PreHash::Sha2_384 => 2,
            PreHash::Sha2_512 => 3,
            PreHash::Sha2_224 => 4,
            PreHash::Sha2_512_224 => 5,
            PreHash::Sha2_512_256 => 6,
            PreHash::Sha3_224 => 7,
            PreHash::Sha3_256 => 8,
            PreHash::Sha3_384 => 9,
            PreHash::Sha3_512 => 10,
            PreHash::Shake128 => 11,
            PreHash::Shake256 => 12,
        }
    }

    /// `OID` of Algorithm 23: the full DER encoding (tag, length, body), 11 bytes.
    pub const fn oid_der(self) -> [u8; 11] {
        [
            0x06,
            0x09,
            0x60,
            0x86,
            0x48,
            0x01,
            0x65,
            0x03,
            0x04,
            0x02,
            self.oid_arc(),
        ]
    }

    /// Output length in bytes.
    pub const fn output_len(self) -> usize {
        match self {
            PreHash::Sha2_224 | PreHash::Sha2_512_224 | PreHash::Sha3_224 => 28,
            PreHash::Sha2_256 | PreHash::Sha2_512_256 | PreHash::Sha3_256 | PreHash::Shake128 => 32,
            PreHash::Sha2_384 | PreHash::Sha3_384 => 48,
            PreHash::Sha2_512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }
}

impl fmt::Display for PreHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        for p in PreHash::ALL {
            assert_eq!(p.name().parse::<PreHash>().unwrap(), p);
        }
        assert_eq!("sha256".parse::<PreHash>().unwrap(), PreHash::Sha2_256);
        assert_eq!(
            "SHA-512/256".parse::<PreHash>().unwrap(),
            PreHash::Sha2_512_256
        );
        assert_eq!("shake128".parse::<PreHash>().unwrap(), PreHash::Shake128);
        assert_eq!("sha3-384".parse::<PreHash>().unwrap(), PreHash::Sha3_384);
        assert!("md5".parse::<PreHash>().is_err());
        // "sha3256" must not be confused with SHA2-256 after normalisation.
        assert_eq!("SHA3256".parse::<PreHash>().unwrap(), PreHash::Sha3_256);
    }

    #[test]
    fn known_digests() {
        let (d, len) = PreHash::Sha2_256.digest(&mut &b"abc"[..]).unwrap();
        assert_eq!(len, 32);
        assert_eq!(d[..4], [0xba, 0x78, 0x16, 0xbf]);
        let (d, len) = PreHash::Shake128.digest(&mut &b""[..]).unwrap();
        assert_eq!(len, 32);
        assert_eq!(d[..4], [0x7f, 0x9c, 0x2b, 0xa4]);
        let (d, len) = PreHash::Sha3_256.digest(&mut &b""[..]).unwrap();
        assert_eq!(len, 32);
        assert_eq!(d[..4], [0xa7, 0xff, 0xc6, 0xf8]);
    }
}
