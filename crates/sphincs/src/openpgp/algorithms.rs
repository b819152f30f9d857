//! The algorithm IDs this module knows and the one policy point (after
//! Sequoia's `policy`): which public-key algorithms sign (RFC 9980 §6's
//! three SLH-DSA code points), which hash algorithms a v6 signature may use
//! with them, and which hash we sign with.

use super::error::{PgpError, Result};
use crate::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey};
use sha2::Digest;

/// RFC 9980 §6.1: the SLH-DSA code points, their FIPS 205 sets and names.
pub const SLH_DSA: [(u8, &str); 3] = [
    (32, "SLH-DSA-SHAKE-128s"),
    (33, "SLH-DSA-SHAKE-128f"),
    (34, "SLH-DSA-SHAKE-256s"),
];

/// The FIPS 205 set of an OpenPGP public-key algorithm ID, if it is one of
/// RFC 9980's SLH-DSA code points.
pub fn slh_dsa_set(id: u8) -> Option<&'static str> {
    SLH_DSA.iter().find(|(i, _)| *i == id).map(|(_, n)| *n)
}

/// The OpenPGP algorithm ID of a FIPS 205 set, if RFC 9980 assigns one.
pub fn slh_dsa_id(set: &str) -> Option<u8> {
    SLH_DSA
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(set))
        .map(|(i, _)| *i)
}

/// A readable name of any public-key algorithm ID (RFC 9580 §9.1, RFC 9980).
pub fn public_key_algorithm_name(id: u8) -> String {
    if let Some(set) = slh_dsa_set(id) {
        return set.to_string();
    }
    match id {
        1..=3 => "RSA".into(),
        16 => "ElGamal".into(),
        17 => "DSA".into(),
        18 => "ECDH".into(),
        19 => "ECDSA".into(),
        22 => "EdDSALegacy".into(),
        25 => "X25519".into(),
        26 => "X448".into(),
        27 => "Ed25519".into(),
        28 => "Ed448".into(),
        30 => "ML-DSA-65+Ed25519".into(),
        31 => "ML-DSA-87+Ed448".into(),
        35 => "ML-KEM-768+X25519".into(),
        36 => "ML-KEM-1024+X448".into(),
        _ => format!("algorithm {id}"),
    }
}

fn slh_dsa_algorithm(id: u8) -> Result<AnyAlgorithm> {
    let set = slh_dsa_set(id).ok_or_else(|| {
        PgpError::unsupported(format!(
            "{} keys are not supported: only SLH-DSA (RFC 9980 algorithms 32, 33, 34) signs and verifies here",
            public_key_algorithm_name(id)
        ))
    })?;
    Ok(set.parse::<AnyAlgorithm>()?)
}

/// The verifying key of an SLH-DSA key packet's public material.
pub fn verifying_key(id: u8, material: &[u8]) -> Result<AnyVerifyingKey> {
    Ok(AnyVerifyingKey::from_bytes(
        slh_dsa_algorithm(id)?,
        material,
    )?)
}

/// The signing key of an SLH-DSA key packet's secret material (FIPS 205's
/// SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root), whose public half must be the key
/// packet's. The public root is not recomputed from SK.seed here (a whole
/// XMSS tree: a tenth of an `s` set's signing); instead every signature is
/// verified before it is released ([`super::Signing::finish`]), which
/// catches a damaged SK.seed or SK.prf, and faults, for one verification.
pub fn signing_key(id: u8, secret: &[u8], public: &[u8]) -> Result<AnySigningKey> {
    let sk = AnySigningKey::from_bytes_unchecked(slh_dsa_algorithm(id)?, secret)?;
    if secret.len() != 2 * public.len() || secret[public.len()..] != *public {
        return Err(PgpError::malformed(
            "the secret key material does not belong to the key packet's public key",
        ));
    }
    Ok(sk)
}

/// Hash algorithms (RFC 9580 §9.5) by ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashAlgorithm {
    /// SHA2-256 (8).
    Sha256,
    /// SHA2-384 (9).
    Sha384,
    /// SHA2-512 (10).
    Sha512,
    /// SHA2-224 (11): too short for SLH-DSA signatures.
    Sha224,
    /// SHA3-256 (12).
    Sha3_256,
    /// SHA3-512 (14).
    Sha3_512,
}

impl HashAlgorithm {
    /// The algorithm of an ID, or an error naming it (MD5, SHA-1 and
    /// RIPEMD-160 are refused: RFC 9580 §9.5 forbids them in v6 signatures).
    pub fn from_id(id: u8) -> Result<Self> {
        Ok(match id {
            8 => Self::Sha256,
            9 => Self::Sha384,
            10 => Self::Sha512,
            11 => Self::Sha224,
            12 => Self::Sha3_256,
            14 => Self::Sha3_512,
            1..=3 => {
                return Err(PgpError::unsupported(format!(
                    "hash algorithm {id} (MD5, SHA-1 or RIPEMD-160) is not allowed in v6 signatures (RFC 9580 §9.5)"
                )))
            }
            _ => return Err(PgpError::unsupported(format!("unknown hash algorithm {id}"))),
        })
    }
    /// Its ID.
    pub fn id(self) -> u8 {
        match self {
            Self::Sha256 => 8,
            Self::Sha384 => 9,
            Self::Sha512 => 10,
            Self::Sha224 => 11,
            Self::Sha3_256 => 12,
            Self::Sha3_512 => 14,
        }
    }
    /// The name in a cleartext message's `Hash:` header (RFC 9580 §9.5).
    pub fn name(self) -> &'static str {
        match self {
            Self::Sha256 => "SHA256",
            Self::Sha384 => "SHA384",
            Self::Sha512 => "SHA512",
            Self::Sha224 => "SHA224",
            Self::Sha3_256 => "SHA3-256",
            Self::Sha3_512 => "SHA3-512",
        }
    }
    /// The algorithm a `Hash:` header names.
    pub fn from_name(name: &str) -> Option<Self> {
        [
            Self::Sha256,
            Self::Sha384,
            Self::Sha512,
            Self::Sha224,
            Self::Sha3_256,
            Self::Sha3_512,
        ]
        .into_iter()
        .find(|h| h.name().eq_ignore_ascii_case(name))
    }
    /// Digest length in octets.
    pub fn digest_len(self) -> usize {
        match self {
            Self::Sha224 => 28,
            Self::Sha256 | Self::Sha3_256 => 32,
            Self::Sha384 => 48,
            Self::Sha512 | Self::Sha3_512 => 64,
        }
    }
    /// The v6 signature salt length (RFC 9580 §9.5, Table 23).
    pub fn salt_len(self) -> usize {
        match self {
            Self::Sha224 | Self::Sha256 | Self::Sha3_256 => 16,
            Self::Sha384 => 24,
            Self::Sha512 | Self::Sha3_512 => 32,
        }
    }
    /// A fresh hash state.
    pub fn hasher(self) -> Hasher {
        match self {
            Self::Sha256 => Hasher::Sha256(sha2::Sha256::new()),
            Self::Sha384 => Hasher::Sha384(sha2::Sha384::new()),
            Self::Sha512 => Hasher::Sha512(sha2::Sha512::new()),
            Self::Sha224 => Hasher::Sha224(sha2::Sha224::new()),
            Self::Sha3_256 => Hasher::Sha3_256(sha3::Sha3_256::new()),
            Self::Sha3_512 => Hasher::Sha3_512(sha3::Sha3_512::new()),
        }
    }
}

/// The policy for SLH-DSA signatures (RFC 9980 §6.2.1): the digest must
/// have at least 256 bits, and a verifier rejects less. §9.4: the v6 salt
/// makes (second) preimage resistance, not collision resistance, the
/// property needed, which 256 bits give every set.
pub fn check_hash_for_slh_dsa(hash: HashAlgorithm) -> Result<()> {
    if hash.digest_len() < 32 {
        return Err(PgpError::bad_signature(format!(
            "an SLH-DSA signature over a {}-bit {} digest is refused: at least 256 bits are required",
            hash.digest_len() * 8,
            hash.name()
        )));
    }
    Ok(())
}

/// The hash we sign with: SHA2-256 for the category 1 sets, SHA2-512 for
/// SLH-DSA-SHAKE-256s. Both are in every OpenPGP implementation and are the
/// fastest hashes here (SHA-NI; AVX2); RFC 9980's own samples and
/// go-crypto sign with the same pair. The salt already makes 256 bits
/// enough (RFC 9980 §9.4); SHA2-512 keeps even the digest's collision
/// resistance at category 5 for the category 5 set, at no cost that shows
/// next to SLH-DSA-SHAKE-256s signing.
pub fn signing_hash(id: u8) -> HashAlgorithm {
    if id == 34 {
        HashAlgorithm::Sha512
    } else {
        HashAlgorithm::Sha256
    }
}

/// A running hash of one of the [`HashAlgorithm`]s.
#[derive(Clone)]
pub enum Hasher {
    #[allow(missing_docs)]
    Sha256(sha2::Sha256),
    #[allow(missing_docs)]
    Sha384(sha2::Sha384),
    #[allow(missing_docs)]
    Sha512(sha2::Sha512),
    #[allow(missing_docs)]
    Sha224(sha2::Sha224),
    #[allow(missing_docs)]
    Sha3_256(sha3::Sha3_256),
    #[allow(missing_docs)]
    Sha3_512(sha3::Sha3_512),
}

impl Hasher {
    /// Absorbs `data`.
    pub fn update(&mut self, data: &[u8]) {
        match self {
            Hasher::Sha256(h) => h.update(data),
            Hasher::Sha384(h) => h.update(data),
            Hasher::Sha512(h) => h.update(data),
            Hasher::Sha224(h) => h.update(data),
            Hasher::Sha3_256(h) => h.update(data),
            Hasher::Sha3_512(h) => h.update(data),
        }
    }
    /// The digest.
    pub fn finalize(self) -> Vec<u8> {
        match self {
            Hasher::Sha256(h) => h.finalize().to_vec(),
            Hasher::Sha384(h) => h.finalize().to_vec(),
            Hasher::Sha512(h) => h.finalize().to_vec(),
            Hasher::Sha224(h) => h.finalize().to_vec(),
            Hasher::Sha3_256(h) => h.finalize().to_vec(),
            Hasher::Sha3_512(h) => h.finalize().to_vec(),
        }
    }
}
