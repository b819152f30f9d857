//! The 36 SPHINCS+ round-3.1 parameter sets as engine instances, and the
//! runtime [`SpxAlgorithm`] naming them. The numbers are those of FIPS 205
//! Table 2 (which kept them); the hash families and the digest's index order
//! are round 3.1's.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::error::Error;
use crate::hash::{HarakaRobust, HarakaSimple, Robust, Sha2Cat1, Sha2Cat35, Shake};
use crate::params::{
    Algorithm, IndexOrder, Instance, Params, Sha2_128f, Sha2_128s, Sha2_192f, Sha2_192s, Sha2_256f,
    Sha2_256s, Shake128f, Shake128s, Shake192f, Shake192s, Shake256f, Shake256s,
};

/// The hash family of a round-3.1 set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpxHash {
    /// SHAKE256.
    Shake,
    /// SHA-256, with SHA-512 for H, T_l and the message functions at levels 3 and 5.
    Sha2,
    /// Haraka-512, Haraka-256 and the Haraka-S sponge.
    Haraka,
}

/// Calls code generic over an [`Instance`] with the type of a runtime set.
pub(crate) trait Visit {
    /// What the visit returns.
    type Out;
    /// Runs with `P` bound to the set's type.
    fn visit<P: Instance>(self) -> Self::Out;
    /// The answer for a build without the family (feature `round31` off):
    /// its sets are not compiled.
    fn absent(self) -> Self::Out;
}

/// The error of a call on a round-3.1 set in a build without them.
pub(crate) fn not_compiled() -> Error {
    Error::Unsupported {
        family: "this build (its cargo features leave SPHINCS+ round 3.1 out)",
        what: "SPHINCS+ round-3.1 sets",
    }
}

macro_rules! spx_sets {
    ($( $ty:ident, $name:literal, $hash:ident, $robust:literal, $family:ty, $params:ty; )*) => {
        $(
            #[doc = concat!("`", $name, "` (SPHINCS+ round 3.1).")]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct $ty;
            impl Instance for $ty {
                const PARAMS: Params = <$params as Instance>::PARAMS;
                type Hash = $family;
                const INDEX_ORDER: IndexOrder = IndexOrder::Round31;
                const NAME: &'static str = $name;
            }
        )*

        /// A SPHINCS+ round-3.1 parameter set chosen at run time.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum SpxAlgorithm {
            $( #[doc = concat!("`", $name, "`")] $ty, )*
        }

        impl SpxAlgorithm {
            /// Every set, in the order of the reference code's `SHA256SUMS` (by name).
            pub const ALL: &'static [SpxAlgorithm] = &[$(SpxAlgorithm::$ty),*];

            /// The reference code's name, e.g. `sphincs-shake-128f-simple`.
            pub const fn name(self) -> &'static str {
                match self { $(SpxAlgorithm::$ty => $name,)* }
            }

            /// The set's numbers.
            pub const fn params(self) -> Params {
                match self { $(SpxAlgorithm::$ty => <$ty as Instance>::PARAMS,)* }
            }

            /// The hash family.
            pub const fn hash(self) -> SpxHash {
                match self { $(SpxAlgorithm::$ty => SpxHash::$hash,)* }
            }

            /// Whether this is a "robust" (bitmasked) set rather than a "simple" one.
            pub const fn is_robust(self) -> bool {
                match self { $(SpxAlgorithm::$ty => $robust,)* }
            }

            pub(crate) fn visit<V: Visit>(self, v: V) -> V::Out {
                if !cfg!(feature = "round31") {
                    return v.absent();
                }
                match self { $(SpxAlgorithm::$ty => v.visit::<$ty>(),)* }
            }
        }
    };
}

spx_sets! {
    SphincsHaraka128fRobust, "sphincs-haraka-128f-robust", Haraka, true,  HarakaRobust,     Shake128f;
    SphincsHaraka128fSimple, "sphincs-haraka-128f-simple", Haraka, false, HarakaSimple,     Shake128f;
    SphincsHaraka128sRobust, "sphincs-haraka-128s-robust", Haraka, true,  HarakaRobust,     Shake128s;
    SphincsHaraka128sSimple, "sphincs-haraka-128s-simple", Haraka, false, HarakaSimple,     Shake128s;
    SphincsHaraka192fRobust, "sphincs-haraka-192f-robust", Haraka, true,  HarakaRobust,     Shake192f;
    SphincsHaraka192fSimple, "sphincs-haraka-192f-simple", Haraka, false, HarakaSimple,     Shake192f;
    SphincsHaraka192sRobust, "sphincs-haraka-192s-robust", Haraka, true,  HarakaRobust,     Shake192s;
    SphincsHaraka192sSimple, "sphincs-haraka-192s-simple", Haraka, false, HarakaSimple,     Shake192s;
    SphincsHaraka256fRobust, "sphincs-haraka-256f-robust", Haraka, true,  HarakaRobust,     Shake256f;
    SphincsHaraka256fSimple, "sphincs-haraka-256f-simple", Haraka, false, HarakaSimple,     Shake256f;
    SphincsHaraka256sRobust, "sphincs-haraka-256s-robust", Haraka, true,  HarakaRobust,     Shake256s;
    SphincsHaraka256sSimple, "sphincs-haraka-256s-simple", Haraka, false, HarakaSimple,     Shake256s;
    SphincsSha2_128fRobust,  "sphincs-sha2-128f-robust",  Sha2, true,  Robust<Sha2Cat1>,  Sha2_128f;
    SphincsSha2_128fSimple,  "sphincs-sha2-128f-simple",  Sha2, false, Sha2Cat1,          Sha2_128f;
    SphincsSha2_128sRobust,  "sphincs-sha2-128s-robust",  Sha2, true,  Robust<Sha2Cat1>,  Sha2_128s;
    SphincsSha2_128sSimple,  "sphincs-sha2-128s-simple",  Sha2, false, Sha2Cat1,          Sha2_128s;
    SphincsSha2_192fRobust,  "sphincs-sha2-192f-robust",  Sha2, true,  Robust<Sha2Cat35>, Sha2_192f;
    SphincsSha2_192fSimple,  "sphincs-sha2-192f-simple",  Sha2, false, Sha2Cat35,         Sha2_192f;
    SphincsSha2_192sRobust,  "sphincs-sha2-192s-robust",  Sha2, true,  Robust<Sha2Cat35>, Sha2_192s;
    SphincsSha2_192sSimple,  "sphincs-sha2-192s-simple",  Sha2, false, Sha2Cat35,         Sha2_192s;
    SphincsSha2_256fRobust,  "sphincs-sha2-256f-robust",  Sha2, true,  Robust<Sha2Cat35>, Sha2_256f;
    SphincsSha2_256fSimple,  "sphincs-sha2-256f-simple",  Sha2, false, Sha2Cat35,         Sha2_256f;
    SphincsSha2_256sRobust,  "sphincs-sha2-256s-robust",  Sha2, true,  Robust<Sha2Cat35>, Sha2_256s;
    SphincsSha2_256sSimple,  "sphincs-sha2-256s-simple",  Sha2, false, Sha2Cat35,         Sha2_256s;
    SphincsShake128fRobust,  "sphincs-shake-128f-robust", Shake, true,  Robust<Shake>,    Shake128f;
    SphincsShake128fSimple,  "sphincs-shake-128f-simple", Shake, false, Shake,            Shake128f;
    SphincsShake128sRobust,  "sphincs-shake-128s-robust", Shake, true,  Robust<Shake>,    Shake128s;
    SphincsShake128sSimple,  "sphincs-shake-128s-simple", Shake, false, Shake,            Shake128s;
    SphincsShake192fRobust,  "sphincs-shake-192f-robust", Shake, true,  Robust<Shake>,    Shake192f;
    SphincsShake192fSimple,  "sphincs-shake-192f-simple", Shake, false, Shake,            Shake192f;
    SphincsShake192sRobust,  "sphincs-shake-192s-robust", Shake, true,  Robust<Shake>,    Shake192s;
    SphincsShake192sSimple,  "sphincs-shake-192s-simple", Shake, false, Shake,            Shake192s;
    SphincsShake256fRobust,  "sphincs-shake-256f-robust", Shake, true,  Robust<Shake>,    Shake256f;
    SphincsShake256fSimple,  "sphincs-shake-256f-simple", Shake, false, Shake,            Shake256f;
    SphincsShake256sRobust,  "sphincs-shake-256s-robust", Shake, true,  Robust<Shake>,    Shake256s;
    SphincsShake256sSimple,  "sphincs-shake-256s-simple", Shake, false, Shake,            Shake256s;
}

impl SpxAlgorithm {
    crate::params::size_accessors!();
    /// Bytes of the key-generation seed `SK.seed ‖ SK.prf ‖ PK.seed` (3n).
    pub const fn seed_len(self) -> usize {
        3 * self.params().n
    }
}

impl fmt::Display for SpxAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SpxAlgorithm {
    type Err = Error;

    /// Accepts the reference code's names in any case, with `sphincs-` or
    /// `sphincs+-` or no prefix, e.g. `SPHINCS+-SHAKE-128f-simple`.
    fn from_str(s: &str) -> Result<Self, Error> {
        let want = s.trim().to_ascii_lowercase();
        let want = want
            .strip_prefix("sphincs+-")
            .or_else(|| want.strip_prefix("sphincs-"))
            .unwrap_or(&want);
        SpxAlgorithm::ALL
            .iter()
            .copied()
            .find(|a| &a.name()["sphincs-".len()..] == want)
            .ok_or_else(|| match s.parse::<Algorithm>() {
                Ok(_) => Error::WrongScheme {
                    name: s.trim().to_string(),
                    is: "a FIPS 205 (SLH-DSA) parameter set",
                    takes: "SPHINCS+ round-3.1 sets",
                    instead: "the FIPS 205 (SLH-DSA) API",
                },
                Err(_) => Error::UnknownAlgorithm(s.to_string()),
            })
    }
}
