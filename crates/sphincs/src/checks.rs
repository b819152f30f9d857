//! What in the vocabulary can fail, and so names [`Error`]: parsing a set's
//! or a pre-hash's name, checking a key mode against a set and a request.
//! The types themselves (`params`, `prehash`, `mode`) sit below the error
//! type, which names them; these checks sit above it.

#[cfg(feature = "alloc")]
use crate::prelude::*;
#[cfg(feature = "alloc")]
use core::str::FromStr;

use crate::error::Error;
use crate::mode::{KeyMode, RequestedMode};
use crate::params::Algorithm;
use crate::prehash::PreHash;

impl KeyMode {
    /// Checks that `alg` may carry this mode: a HashSLH-DSA mode must use the
    /// pre-hash RFC 9909 binds to the set, since no OID names another pairing.
    pub fn validate(self, alg: Algorithm) -> Result<KeyMode, Error> {
        match self {
            KeyMode::HashSlhDsa(ph) if ph != alg.bound_prehash() => Err(Error::PreHashNotBound {
                algorithm: alg,
                prehash: ph,
            }),
            mode => Ok(mode),
        }
    }

    /// The pre-hash to sign or verify with when a caller asks for
    /// `requested` (`None`: the key's own mode, which is pure for a pure or
    /// raw key and the bound pre-hash for a HashSLH-DSA key). A pure key asked
    /// for a pre-hash, or a HashSLH-DSA key asked for another one, is
    /// [`Error::WrongKeyMode`].
    pub fn resolve(
        self,
        alg: Algorithm,
        requested: Option<PreHash>,
    ) -> Result<Option<PreHash>, Error> {
        match (self, requested) {
            (KeyMode::Unrestricted, r) | (KeyMode::Pure, r @ None) => Ok(r),
            (KeyMode::HashSlhDsa(own), None) => Ok(Some(own)),
            (KeyMode::HashSlhDsa(own), Some(r)) if r == own => Ok(Some(own)),
            (key_mode, requested) => Err(Error::WrongKeyMode {
                algorithm: alg,
                key_mode,
                requested: requested.map_or(RequestedMode::Pure, RequestedMode::HashSlhDsa),
            }),
        }
    }

    /// Checks an explicit request (`None` = pure SLH-DSA, as in FIPS 205's
    /// `slh_sign`; `Some(ph)` = HashSLH-DSA with `ph`) against this mode.
    pub fn require(self, alg: Algorithm, wanted: Option<PreHash>) -> Result<(), Error> {
        let ok = match (self, wanted) {
            (KeyMode::Unrestricted, _) | (KeyMode::Pure, None) => true,
            (KeyMode::HashSlhDsa(own), Some(w)) => own == w,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(Error::WrongKeyMode {
                algorithm: alg,
                key_mode: self,
                requested: wanted.map_or(RequestedMode::Pure, RequestedMode::HashSlhDsa),
            })
        }
    }
}

#[cfg(feature = "alloc")]
impl FromStr for Algorithm {
    type Err = Error;

    /// Accepts `SLH-DSA-SHA2-128s` (or `SLH-DSA-SHA2-128-24`), any case,
    /// with or without the `SLH-DSA-` prefix.
    fn from_str(s: &str) -> Result<Self, Error> {
        let want = s.trim();
        let short = |a: &Algorithm| &a.name()["SLH-DSA-".len()..];
        Algorithm::EVERY
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(want) || short(a).eq_ignore_ascii_case(want))
            .ok_or_else(|| Error::UnknownAlgorithm(s.to_string()))
    }
}

#[cfg(feature = "alloc")]
impl FromStr for PreHash {
    type Err = Error;

    /// Accepts the ACVP spelling and the usual variants, any case:
    /// `SHA2-256`, `SHA-256`, `sha256`, `SHA512/224`, `SHAKE-128`, `shake128`.
    fn from_str(s: &str) -> Result<Self, Error> {
        let compact = |x: &str| -> String {
            x.chars()
                .filter(|c| !matches!(c, '-' | '_' | ' '))
                .collect::<String>()
                .to_ascii_lowercase()
        };
        let want = compact(s);
        PreHash::ALL
            .into_iter()
            .find(|p| {
                let name = compact(p.name());
                // "SHA2-256" is also written "SHA-256" / "sha256".
                name == want
                    || (p.name().starts_with("SHA2-") && name.replacen("sha2", "sha", 1) == want)
            })
            .ok_or_else(|| Error::UnknownPreHash(s.to_string()))
    }
}
