//! The vocabulary of the signing matrix, shared by the conformance kit
//! and the kryoptic cross-check: the mechanisms as the core sees them, the
//! twelve sets, the hedge variants.

use cryptoki::error::{Error as CkError, RvError};
use cryptoki::mechanism::dsa::{HashSignAdditionalContext, HedgeType, SignAdditionalContext};
use cryptoki::mechanism::{Mechanism, MechanismType};
use cryptoki::object::SlhDsaParameterSetType;
use sphincs::{Algorithm, PreHash};

/// What a mechanism signs, for the core.
#[derive(Clone, Copy, Debug)]
pub enum Case {
    Pure,
    /// CKM_HASH_SLH_DSA with the caller's digest.
    Digest(PreHash),
    /// CKM_HASH_SLH_DSA_<hash>.
    Token(PreHash),
}

impl Case {
    pub fn name(self) -> String {
        match self {
            Case::Pure => "CKM_SLH_DSA".into(),
            Case::Digest(p) => format!("CKM_HASH_SLH_DSA({p})"),
            Case::Token(p) => format!("CKM_HASH_SLH_DSA_{p}"),
        }
    }

    pub fn prehash(self) -> Option<PreHash> {
        match self {
            Case::Pure => None,
            Case::Digest(p) | Case::Token(p) => Some(p),
        }
    }

    pub fn multi_sign(self) -> bool {
        !matches!(self, Case::Digest(_))
    }

    pub fn multi_verify(self) -> bool {
        matches!(self, Case::Token(_))
    }

    pub fn mechanism<'a>(self, hedge: HedgeType, ctx: Option<&'a [u8]>) -> Mechanism<'a> {
        let c = SignAdditionalContext::new(hedge, ctx);
        match self {
            Case::Pure => Mechanism::SlhDsa(c),
            Case::Digest(p) => {
                let hash = match p {
                    PreHash::Sha2_224 => MechanismType::SHA224,
                    PreHash::Sha2_256 => MechanismType::SHA256,
                    PreHash::Sha2_384 => MechanismType::SHA384,
                    PreHash::Sha2_512 => MechanismType::SHA512,
                    _ => unreachable!("cryptoki names only these"),
                };
                Mechanism::HashSlhDsa(HashSignAdditionalContext::new(hedge, ctx, hash))
            }
            Case::Token(p) => match p {
                PreHash::Sha2_224 => Mechanism::HashSlhDsaSha224(c),
                PreHash::Sha2_256 => Mechanism::HashSlhDsaSha256(c),
                PreHash::Sha2_384 => Mechanism::HashSlhDsaSha384(c),
                PreHash::Sha2_512 => Mechanism::HashSlhDsaSha512(c),
                PreHash::Sha3_224 => Mechanism::HashSlhDsaSha3_224(c),
                PreHash::Sha3_256 => Mechanism::HashSlhDsaSha3_256(c),
                PreHash::Sha3_384 => Mechanism::HashSlhDsaSha3_384(c),
                PreHash::Sha3_512 => Mechanism::HashSlhDsaSha3_512(c),
                PreHash::Shake128 => Mechanism::HashSlhDsaShake128(c),
                PreHash::Shake256 => Mechanism::HashSlhDsaShake256(c),
                _ => unreachable!("no such mechanism"),
            },
        }
    }
}

pub fn all_cases() -> Vec<Case> {
    let mut v = vec![Case::Pure];
    for p in [
        PreHash::Sha2_224,
        PreHash::Sha2_256,
        PreHash::Sha2_384,
        PreHash::Sha2_512,
    ] {
        v.push(Case::Digest(p));
    }
    // Every pre-hash but SHA-512/224 and /256 (PKCS#11 has no
    // CKM_HASH_SLH_DSA_<hash> for them).
    for p in PreHash::ALL {
        if !matches!(p, PreHash::Sha2_512_224 | PreHash::Sha2_512_256) {
            v.push(Case::Token(p));
        }
    }
    v
}

pub const SETS: [(SlhDsaParameterSetType, Algorithm); 12] = [
    (SlhDsaParameterSetType::SHA2_128F, Algorithm::Sha2_128f),
    (SlhDsaParameterSetType::SHAKE_128F, Algorithm::Shake128f),
    (SlhDsaParameterSetType::SHA2_192F, Algorithm::Sha2_192f),
    (SlhDsaParameterSetType::SHAKE_192F, Algorithm::Shake192f),
    (SlhDsaParameterSetType::SHA2_256F, Algorithm::Sha2_256f),
    (SlhDsaParameterSetType::SHAKE_256F, Algorithm::Shake256f),
    (SlhDsaParameterSetType::SHA2_128S, Algorithm::Sha2_128s),
    (SlhDsaParameterSetType::SHAKE_128S, Algorithm::Shake128s),
    (SlhDsaParameterSetType::SHA2_192S, Algorithm::Sha2_192s),
    (SlhDsaParameterSetType::SHAKE_192S, Algorithm::Shake192s),
    (SlhDsaParameterSetType::SHA2_256S, Algorithm::Sha2_256s),
    (SlhDsaParameterSetType::SHAKE_256S, Algorithm::Shake256s),
];

pub const HEDGES: [HedgeType; 3] = [
    HedgeType::Preferred,
    HedgeType::Required,
    HedgeType::DeterministicRequired,
];

/// The PKCS#11 return value of a failed call.
pub fn rv(e: CkError) -> RvError {
    match e {
        CkError::Pkcs11(rv, _) => rv,
        other => panic!("not a PKCS#11 return value: {other}"),
    }
}

/// The digest CKM_HASH_SLH_DSA is given.
pub fn digest(ph: PreHash, msg: &[u8]) -> Vec<u8> {
    let (d, n) = ph.digest(&mut &msg[..]).unwrap();
    d[..n].to_vec()
}
