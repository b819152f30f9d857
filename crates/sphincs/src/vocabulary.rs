//! The names the library speaks in, as plain enums: parameter sets,
//! pre-hash functions, key modes. They sit on the bottom rung so that
//! [`Error`](crate::Error), which names them, can sit there too and every
//! layer can fail with it; what each one means (numbers, OIDs, names as
//! text, digests) is implemented on the rungs above, in `params`, `prehash`
//! and `mode`.

/// A parameter set chosen at run time: the twelve of FIPS 205 and the
/// six limited-signature sets of draft SP 800-230 (ipd). Its numbers, names
/// and OIDs are in [`params`](crate::params); the order here is theirs
/// (the RFC 9909 OIDs' order, then SP 800-230's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    /// SLH-DSA-SHA2-128s
    Sha2_128s,
    /// SLH-DSA-SHA2-128f
    Sha2_128f,
    /// SLH-DSA-SHA2-192s
    Sha2_192s,
    /// SLH-DSA-SHA2-192f
    Sha2_192f,
    /// SLH-DSA-SHA2-256s
    Sha2_256s,
    /// SLH-DSA-SHA2-256f
    Sha2_256f,
    /// SLH-DSA-SHAKE-128s
    Shake128s,
    /// SLH-DSA-SHAKE-128f
    Shake128f,
    /// SLH-DSA-SHAKE-192s
    Shake192s,
    /// SLH-DSA-SHAKE-192f
    Shake192f,
    /// SLH-DSA-SHAKE-256s
    Shake256s,
    /// SLH-DSA-SHAKE-256f
    Shake256f,
    /// SLH-DSA-SHA2-128-24 (draft SP 800-230 (ipd); at most 2^24 signatures per key)
    Sha2_128_24,
    /// SLH-DSA-SHA2-192-24 (draft SP 800-230 (ipd); at most 2^24 signatures per key)
    Sha2_192_24,
    /// SLH-DSA-SHA2-256-24 (draft SP 800-230 (ipd); at most 2^24 signatures per key)
    Sha2_256_24,
    /// SLH-DSA-SHAKE-128-24 (draft SP 800-230 (ipd); at most 2^24 signatures per key)
    Shake128_24,
    /// SLH-DSA-SHAKE-192-24 (draft SP 800-230 (ipd); at most 2^24 signatures per key)
    Shake192_24,
    /// SLH-DSA-SHAKE-256-24 (draft SP 800-230 (ipd); at most 2^24 signatures per key)
    Shake256_24,
}

/// A pre-hash function allowed by FIPS 205 §10.2.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PreHash {
    /// SHA-224.
    Sha2_224,
    /// SHA-256.
    Sha2_256,
    /// SHA-384.
    Sha2_384,
    /// SHA-512.
    Sha2_512,
    /// SHA-512/224.
    Sha2_512_224,
    /// SHA-512/256.
    Sha2_512_256,
    /// SHA3-224.
    Sha3_224,
    /// SHA3-256.
    Sha3_256,
    /// SHA3-384.
    Sha3_384,
    /// SHA3-512.
    Sha3_512,
    /// SHAKE128 with 256 bits of output.
    Shake128,
    /// SHAKE256 with 512 bits of output.
    Shake256,
}

/// How a key may sign and verify.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyMode {
    /// A raw key with no OID: pure SLH-DSA or HashSLH-DSA with any of the
    /// twelve pre-hashes of FIPS 205 §10.2.2, as the caller asks. Encoded as
    /// SPKI / PKCS#8 it is written under the pure OID.
    #[default]
    Unrestricted,
    /// Pure SLH-DSA only (OIDs `2.16.840.1.101.3.4.3.20`–`.31`).
    Pure,
    /// HashSLH-DSA with this pre-hash only (OIDs `.35`–`.46`); it is always
    /// the pre-hash RFC 9909 binds to the parameter set
    /// ([`Algorithm::bound_prehash`]).
    HashSlhDsa(PreHash),
}

/// What a caller asked a key to do, in a [`Error::WrongKeyMode`](crate::Error::WrongKeyMode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestedMode {
    /// Pure SLH-DSA.
    Pure,
    /// HashSLH-DSA with this pre-hash.
    HashSlhDsa(PreHash),
}
