//! The SLH-DSA mechanisms of PKCS#11 3.2 (§6.x "SLH-DSA"): which exist, what
//! C_GetMechanismInfo says of them, the parameter sets, and a mechanism with
//! its parameter resolved to what the core signs with.

use cryptoki_sys::*;
use sphincs::{Algorithm, PreHash, Randomness};

/// Every mechanism of the module, in the order C_GetMechanismList gives them.
pub(crate) const MECHANISMS: [CK_MECHANISM_TYPE; 13] = [
    CKM_SLH_DSA_KEY_PAIR_GEN,
    CKM_SLH_DSA,
    CKM_HASH_SLH_DSA,
    CKM_HASH_SLH_DSA_SHA224,
    CKM_HASH_SLH_DSA_SHA256,
    CKM_HASH_SLH_DSA_SHA384,
    CKM_HASH_SLH_DSA_SHA512,
    CKM_HASH_SLH_DSA_SHA3_224,
    CKM_HASH_SLH_DSA_SHA3_256,
    CKM_HASH_SLH_DSA_SHA3_384,
    CKM_HASH_SLH_DSA_SHA3_512,
    CKM_HASH_SLH_DSA_SHAKE128,
    CKM_HASH_SLH_DSA_SHAKE256,
];

/// Smallest and largest SLH-DSA public key, in bytes: the spec has
/// ulMinKeySize/ulMaxKeySize give "the supported range of SLH-DSA public
/// keys in bytes" for every SLH-DSA mechanism (2n: 32 to 64).
pub(crate) const MIN_KEY_SIZE: CK_ULONG = 32;
pub(crate) const MAX_KEY_SIZE: CK_ULONG = 64;

/// C_GetMechanismInfo's answer: (min key size, max key size, flags).
pub(crate) fn info(mech: CK_MECHANISM_TYPE) -> Option<(CK_ULONG, CK_ULONG, CK_FLAGS)> {
    if !MECHANISMS.contains(&mech) {
        return None;
    }
    let flags = if mech == CKM_SLH_DSA_KEY_PAIR_GEN {
        CKF_GENERATE_KEY_PAIR
    } else {
        CKF_SIGN | CKF_VERIFY
    };
    Some((MIN_KEY_SIZE, MAX_KEY_SIZE, flags))
}

/// The twelve FIPS 205 sets by their `CKP_SLH_DSA_*` value.
pub(crate) const PARAMETER_SETS: [(CK_SLH_DSA_PARAMETER_SET_TYPE, Algorithm); 12] = [
    (CKP_SLH_DSA_SHA2_128S, Algorithm::Sha2_128s),
    (CKP_SLH_DSA_SHAKE_128S, Algorithm::Shake128s),
    (CKP_SLH_DSA_SHA2_128F, Algorithm::Sha2_128f),
    (CKP_SLH_DSA_SHAKE_128F, Algorithm::Shake128f),
    (CKP_SLH_DSA_SHA2_192S, Algorithm::Sha2_192s),
    (CKP_SLH_DSA_SHAKE_192S, Algorithm::Shake192s),
    (CKP_SLH_DSA_SHA2_192F, Algorithm::Sha2_192f),
    (CKP_SLH_DSA_SHAKE_192F, Algorithm::Shake192f),
    (CKP_SLH_DSA_SHA2_256S, Algorithm::Sha2_256s),
    (CKP_SLH_DSA_SHAKE_256S, Algorithm::Shake256s),
    (CKP_SLH_DSA_SHA2_256F, Algorithm::Sha2_256f),
    (CKP_SLH_DSA_SHAKE_256F, Algorithm::Shake256f),
];

/// The set of a `CKA_PARAMETER_SET` value.
pub fn algorithm(set: CK_SLH_DSA_PARAMETER_SET_TYPE) -> Option<Algorithm> {
    PARAMETER_SETS
        .iter()
        .find(|(p, _)| *p == set)
        .map(|(_, a)| *a)
}

/// The `CKA_PARAMETER_SET` value of a set.
pub fn parameter_set(alg: Algorithm) -> Option<CK_SLH_DSA_PARAMETER_SET_TYPE> {
    PARAMETER_SETS
        .iter()
        .find(|(_, a)| *a == alg)
        .map(|(p, _)| *p)
}

/// The hash of a `CKM_HASH_SLH_DSA_<hash>` mechanism.
fn token_hash(mech: CK_MECHANISM_TYPE) -> Option<PreHash> {
    Some(match mech {
        CKM_HASH_SLH_DSA_SHA224 => PreHash::Sha2_224,
        CKM_HASH_SLH_DSA_SHA256 => PreHash::Sha2_256,
        CKM_HASH_SLH_DSA_SHA384 => PreHash::Sha2_384,
        CKM_HASH_SLH_DSA_SHA512 => PreHash::Sha2_512,
        CKM_HASH_SLH_DSA_SHA3_224 => PreHash::Sha3_224,
        CKM_HASH_SLH_DSA_SHA3_256 => PreHash::Sha3_256,
        CKM_HASH_SLH_DSA_SHA3_384 => PreHash::Sha3_384,
        CKM_HASH_SLH_DSA_SHA3_512 => PreHash::Sha3_512,
        CKM_HASH_SLH_DSA_SHAKE128 => PreHash::Shake128,
        CKM_HASH_SLH_DSA_SHAKE256 => PreHash::Shake256,
        _ => return None,
    })
}

/// The pre-hash that `hash` of a CK_HASH_SIGN_ADDITIONAL_CONTEXT names
/// (CKM_HASH_SLH_DSA). FIPS 205 §10.2.2 allows twelve; PKCS#11 3.2 has no
/// plain SHAKE digest mechanism, so SHAKE128 (256-bit output) and SHAKE256
/// (512-bit output) are named by CKM_SHAKE_128_KEY_DERIVATION and
/// CKM_SHAKE_256_KEY_DERIVATION, the only SHAKE codes the header defines.
pub(crate) fn caller_hash(hash: CK_MECHANISM_TYPE) -> Option<PreHash> {
    Some(match hash {
        CKM_SHA224 => PreHash::Sha2_224,
        CKM_SHA256 => PreHash::Sha2_256,
        CKM_SHA384 => PreHash::Sha2_384,
        CKM_SHA512 => PreHash::Sha2_512,
        CKM_SHA512_224 => PreHash::Sha2_512_224,
        CKM_SHA512_256 => PreHash::Sha2_512_256,
        CKM_SHA3_224 => PreHash::Sha3_224,
        CKM_SHA3_256 => PreHash::Sha3_256,
        CKM_SHA3_384 => PreHash::Sha3_384,
        CKM_SHA3_512 => PreHash::Sha3_512,
        CKM_SHAKE_128_KEY_DERIVATION => PreHash::Shake128,
        CKM_SHAKE_256_KEY_DERIVATION => PreHash::Shake256,
        _ => return None,
    })
}

/// A mechanism's parameter as the caller gave it, copied out of C memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Param {
    /// No parameter (pParameter NULL, ulParameterLen 0).
    None,
    /// CK_SIGN_ADDITIONAL_CONTEXT.
    Sign {
        hedge: CK_HEDGE_TYPE,
        context: Vec<u8>,
    },
    /// CK_HASH_SIGN_ADDITIONAL_CONTEXT.
    HashSign {
        hedge: CK_HEDGE_TYPE,
        context: Vec<u8>,
        hash: CK_MECHANISM_TYPE,
    },
}

/// What the data passed to C_Sign/C_Verify is, for the core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// The message M, pure SLH-DSA (CKM_SLH_DSA).
    Message,
    /// The message M, hashed on the token (`CKM_HASH_SLH_DSA_<hash>`).
    HashedHere(PreHash),
    /// A digest the caller made (CKM_HASH_SLH_DSA): single-part only.
    Digest(PreHash),
}

/// A signature mechanism with its parameter resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SignSpec {
    pub(crate) mechanism: CK_MECHANISM_TYPE,
    pub(crate) input: Input,
    pub(crate) context: Vec<u8>,
    pub(crate) deterministic: bool,
}

impl SignSpec {
    /// Resolves a signature mechanism and its parameter:
    /// CKR_MECHANISM_INVALID for a mechanism that is not an SLH-DSA
    /// signature, CKR_MECHANISM_PARAM_INVALID for a parameter of the wrong
    /// type, an unknown hedge variant or hash, or a context over 255 bytes.
    pub(crate) fn new(mechanism: CK_MECHANISM_TYPE, param: Param) -> Result<Self, CK_RV> {
        let (input, hedge, context) = match (mechanism, param) {
            (
                CKM_HASH_SLH_DSA,
                Param::HashSign {
                    hedge,
                    context,
                    hash,
                },
            ) => {
                let ph = caller_hash(hash).ok_or(CKR_MECHANISM_PARAM_INVALID)?;
                (Input::Digest(ph), hedge, context)
            }
            // CKM_HASH_SLH_DSA has a parameter, and it names the hash.
            (CKM_HASH_SLH_DSA, _) => return Err(CKR_MECHANISM_PARAM_INVALID),
            (m, param) => {
                let input = if m == CKM_SLH_DSA {
                    Input::Message
                } else {
                    Input::HashedHere(token_hash(m).ok_or(CKR_MECHANISM_INVALID)?)
                };
                match param {
                    // No parameter: hedge preferred, empty context.
                    Param::None => (input, CKH_HEDGE_PREFERRED, Vec::new()),
                    Param::Sign { hedge, context } => (input, hedge, context),
                    Param::HashSign { .. } => return Err(CKR_MECHANISM_PARAM_INVALID),
                }
            }
        };
        if context.len() > 255 {
            return Err(CKR_MECHANISM_PARAM_INVALID);
        }
        // CKH_HEDGE_PREFERRED lets the token choose: it signs hedged, as
        // FIPS 205 recommends. CKH_HEDGE_REQUIRED is hedged;
        // CKH_DETERMINISTIC_REQUIRED deterministic. Verification ignores it.
        let deterministic = match hedge {
            CKH_HEDGE_PREFERRED | CKH_HEDGE_REQUIRED => false,
            CKH_DETERMINISTIC_REQUIRED => true,
            _ => return Err(CKR_MECHANISM_PARAM_INVALID),
        };
        Ok(SignSpec {
            mechanism,
            input,
            context,
            deterministic,
        })
    }

    /// The core's randomness for this signature.
    pub(crate) fn randomness(&self) -> Randomness<'static> {
        if self.deterministic {
            Randomness::Deterministic
        } else {
            Randomness::Hedged
        }
    }

    /// Whether C_SignUpdate / C_SignFinal may be used. The spec's table
    /// marks CKM_HASH_SLH_DSA single-part only; CKM_SLH_DSA and the
    /// `CKM_HASH_SLH_DSA_<hash>` mechanisms sign in several parts (for the
    /// pure mechanism the footnote restricts verification only).
    pub(crate) fn multi_part_sign(&self) -> bool {
        !matches!(self.input, Input::Digest(_))
    }

    /// Whether C_VerifyUpdate / C_VerifyFinal may be used: the
    /// `CKM_HASH_SLH_DSA_<hash>` mechanisms only (CKM_SLH_DSA verifies in
    /// parts only through C_VerifySignature*, CKM_HASH_SLH_DSA not at all).
    pub(crate) fn multi_part_verify(&self) -> bool {
        matches!(self.input, Input::HashedHere(_))
    }

    /// Whether C_VerifySignatureUpdate may be used: CKM_SLH_DSA and the
    /// `CKM_HASH_SLH_DSA_<hash>` mechanisms.
    pub(crate) fn multi_part_verify_signature(&self) -> bool {
        !matches!(self.input, Input::Digest(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_resolve() {
        let s = SignSpec::new(CKM_SLH_DSA, Param::None).unwrap();
        assert_eq!(s.input, Input::Message);
        assert!(!s.deterministic);
        let s = SignSpec::new(
            CKM_HASH_SLH_DSA_SHA3_256,
            Param::Sign {
                hedge: CKH_DETERMINISTIC_REQUIRED,
                context: vec![1; 255],
            },
        )
        .unwrap();
        assert_eq!(s.input, Input::HashedHere(PreHash::Sha3_256));
        assert!(s.deterministic);
        let long = Param::Sign {
            hedge: CKH_HEDGE_REQUIRED,
            context: vec![1; 256],
        };
        assert_eq!(
            SignSpec::new(CKM_SLH_DSA, long),
            Err(CKR_MECHANISM_PARAM_INVALID)
        );
        let bad_hedge = Param::Sign {
            hedge: 7,
            context: vec![],
        };
        assert_eq!(
            SignSpec::new(CKM_SLH_DSA, bad_hedge),
            Err(CKR_MECHANISM_PARAM_INVALID)
        );
        assert_eq!(
            SignSpec::new(CKM_HASH_SLH_DSA, Param::None),
            Err(CKR_MECHANISM_PARAM_INVALID)
        );
        assert_eq!(
            SignSpec::new(CKM_ECDSA, Param::None),
            Err(CKR_MECHANISM_INVALID)
        );
        let h = Param::HashSign {
            hedge: CKH_HEDGE_PREFERRED,
            context: vec![],
            hash: CKM_SHA512_256,
        };
        assert_eq!(
            SignSpec::new(CKM_HASH_SLH_DSA, h).unwrap().input,
            Input::Digest(PreHash::Sha2_512_256)
        );
    }

    #[test]
    fn parameter_sets_round_trip() {
        for (p, a) in PARAMETER_SETS {
            assert_eq!(algorithm(p), Some(a));
            assert_eq!(parameter_set(a), Some(p));
        }
        assert_eq!(algorithm(0), None);
        assert_eq!(algorithm(13), None);
    }
}
