//! The mode a key is bound to. RFC 9909 gives every parameter set two OIDs:
//! one for pure SLH-DSA (`.20`–`.31`) and one for HashSLH-DSA with a fixed
//! pre-hash (`.35`–`.46`), and its operational considerations ask that a key
//! be used in the mode of its OID only. A key read from SPKI or PKCS#8 knows
//! its mode from the OID; a raw key (no OID) may be used in either mode, as
//! FIPS 205 itself allows.

#[cfg(feature = "alloc")]
use crate::prelude::*;
use core::fmt;

use crate::params::{Algorithm, DottedOid};

pub use crate::vocabulary::KeyMode;

impl KeyMode {
    /// The HashSLH-DSA mode of `alg`: its RFC 9909 pre-hash.
    pub const fn hash_slh_dsa(alg: Algorithm) -> KeyMode {
        KeyMode::HashSlhDsa(alg.bound_prehash())
    }

    /// The RFC 9909 OID under which a key of `alg` in this mode is written
    /// (the pure one for a raw key), dotted; `None` for the draft SP 800-230
    /// sets, which have none.
    #[cfg(feature = "alloc")]
    pub fn oid(self, alg: Algorithm) -> Option<String> {
        match self {
            KeyMode::HashSlhDsa(_) => alg.hash_oid(),
            _ => alg.oid(),
        }
    }

    /// The last arc of [`KeyMode::oid`].
    pub(crate) fn oid_arc(self, alg: Algorithm) -> Option<u32> {
        match self {
            KeyMode::HashSlhDsa(_) => alg.hash_oid_arc(),
            _ => alg.oid_arc(),
        }
    }
}

impl fmt::Display for KeyMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyMode::Unrestricted => f.write_str("raw (no OID: pure or any pre-hash)"),
            KeyMode::Pure => f.write_str("pure SLH-DSA"),
            KeyMode::HashSlhDsa(ph) => write!(f, "HashSLH-DSA with {ph}"),
        }
    }
}

pub use crate::vocabulary::RequestedMode;

/// The text of [`Error::WrongKeyMode`](crate::Error::WrongKeyMode): what the key is, and how to make the
/// key the caller needs (RFC 9909 §8, operational considerations), in the
/// library's terms; the command line adds its own `sphincs keygen` hint.
pub(crate) fn wrong_mode_message(
    f: &mut fmt::Formatter<'_>,
    alg: Algorithm,
    key_mode: KeyMode,
    requested: RequestedMode,
) -> fmt::Result {
    let bound = alg.bound_prehash();
    write!(
        f,
        "this {alg} key is bound to {key_mode} by its OID {}, so it cannot be used for ",
        DottedOid(key_mode.oid_arc(alg))
    )?;
    match requested {
        RequestedMode::Pure => f.write_str("pure SLH-DSA")?,
        RequestedMode::HashSlhDsa(ph) => write!(f, "HashSLH-DSA with {ph}")?,
    }
    f.write_str(" (RFC 9909 allows one mode per key); ")?;
    match (key_mode, requested) {
        (KeyMode::HashSlhDsa(own), RequestedMode::HashSlhDsa(_)) => write!(
            f,
            "sign and verify with its own pre-hash {own} (ask for none), or use a key in pure mode for pure SLH-DSA (a raw key, with no OID, takes any pre-hash)"
        ),
        (KeyMode::HashSlhDsa(own), RequestedMode::Pure) => write!(
            f,
            "sign and verify with its pre-hash {own}, or use a key in pure mode"
        ),
        _ => write!(
            f,
            "sign and verify without a pre-hash, or use a HashSLH-DSA key, bound to {bound} (OID {}); a raw key, with no OID, takes any pre-hash",
            DottedOid(alg.hash_oid_arc())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prehash::PreHash;

    #[test]
    fn resolve_and_require() {
        let alg = Algorithm::Sha2_128s;
        let bound = KeyMode::hash_slh_dsa(alg);
        assert_eq!(bound, KeyMode::HashSlhDsa(PreHash::Sha2_256));
        assert_eq!(KeyMode::Pure.resolve(alg, None), Ok(None));
        assert!(KeyMode::Pure.resolve(alg, Some(PreHash::Sha2_256)).is_err());
        assert_eq!(bound.resolve(alg, None), Ok(Some(PreHash::Sha2_256)));
        assert_eq!(
            bound.resolve(alg, Some(PreHash::Sha2_256)),
            Ok(Some(PreHash::Sha2_256))
        );
        assert!(bound.resolve(alg, Some(PreHash::Sha2_512)).is_err());
        for ph in PreHash::ALL {
            assert_eq!(KeyMode::Unrestricted.resolve(alg, Some(ph)), Ok(Some(ph)));
            assert!(KeyMode::Unrestricted.require(alg, Some(ph)).is_ok());
        }
        assert!(bound.require(alg, None).is_err());
        assert!(KeyMode::Pure.require(alg, None).is_ok());
        assert!(KeyMode::HashSlhDsa(PreHash::Sha3_256)
            .validate(alg)
            .is_err());
        assert_eq!(bound.validate(alg), Ok(bound));
    }

    #[test]
    fn messages_say_how_to_make_the_right_key() {
        let alg = Algorithm::Shake192f;
        let e = KeyMode::Pure
            .resolve(alg, Some(PreHash::Sha2_512))
            .unwrap_err()
            .to_string();
        assert!(e.contains("2.16.840.1.101.3.4.3.29"), "{e}");
        assert!(e.contains("bound to SHAKE-256"), "{e}");
        assert!(e.contains("2.16.840.1.101.3.4.3.44"), "{e}");
        assert!(!e.contains("sphincs keygen"), "library wording only: {e}");
        let e = KeyMode::hash_slh_dsa(alg)
            .resolve(alg, Some(PreHash::Sha2_512))
            .unwrap_err()
            .to_string();
        assert!(e.contains("2.16.840.1.101.3.4.3.44"), "{e}");
        assert!(e.contains("pure mode"), "{e}");
        assert!(!e.contains("sphincs keygen"), "library wording only: {e}");
    }
}
