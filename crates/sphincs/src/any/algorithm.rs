//! Every parameter set of every family as one value: the one list that
//! `sphincs list`, the CLI's `-a`, Python and C all read, and the one set of
//! name rules they all parse with.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

use crate::error::Error;
use crate::hash::backend::Kernels;
use crate::keys::SignOptions;
use crate::params::{Algorithm, Params};
use crate::prehash::PreHash;
use crate::rand::Randomness;
use crate::sphincs256::{self, params as s256};
use crate::sphincsplus::{SpxAlgorithm, SpxHash};

// What a family can lack, as [`Error::Unsupported`] names it; public so a
// front end can say which of its own options asked for it.
/// Context strings (FIPS 205 only).
pub const CONTEXT: &str = "context strings";
/// Pre-hash signing, HashSLH-DSA (FIPS 205 only).
pub const PREHASH: &str = "pre-hash signing (HashSLH-DSA)";
/// Caller-supplied signing randomness (not SPHINCS-256).
pub const GIVEN_RANDOMNESS: &str =
    "caller-supplied signing randomness (its signatures are deterministic)";
/// Fault-hardened signing (not SPHINCS-256).
pub const FAULT_HARDENED: &str = "fault-hardened signing";

/// A signature family: the standard a parameter set belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// SLH-DSA, FIPS 205.
    SlhDsa,
    /// SPHINCS+ round 3.1, the NIST submission before FIPS 205.
    SphincsPlus,
    /// SPHINCS-256, the original 2015 scheme.
    Sphincs256,
}

impl Family {
    /// The family's name for messages, e.g. `SPHINCS+ round 3.1`.
    pub const fn name(self) -> &'static str {
        match self {
            Family::SlhDsa => "SLH-DSA (FIPS 205)",
            Family::SphincsPlus => "SPHINCS+ round 3.1",
            Family::Sphincs256 => "SPHINCS-256",
        }
    }
}

impl Family {
    /// What a name of this family is, as [`Error::WrongScheme`] says it.
    const fn a_set(self) -> &'static str {
        match self {
            Family::SlhDsa => "a FIPS 205 (SLH-DSA) parameter set",
            Family::SphincsPlus => "a SPHINCS+ round-3.1 set",
            Family::Sphincs256 => "SPHINCS-256 (2015)",
        }
    }

    /// What a call that takes only this family takes.
    const fn sets(self) -> &'static str {
        match self {
            Family::SlhDsa => "FIPS 205 (SLH-DSA) parameter sets",
            Family::SphincsPlus => "SPHINCS+ round-3.1 sets",
            Family::Sphincs256 => "SPHINCS-256",
        }
    }

    /// The part of the library that takes this family's names.
    const fn api(self) -> &'static str {
        match self {
            Family::SlhDsa => "the FIPS 205 (SLH-DSA) API",
            Family::SphincsPlus => "the SPHINCS+ round-3.1 API",
            Family::Sphincs256 => "the SPHINCS-256 API",
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A parameter set of any family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AnyAlgorithm {
    /// A FIPS 205 set.
    SlhDsa(Algorithm),
    /// A SPHINCS+ round-3.1 set.
    SphincsPlus(SpxAlgorithm),
    /// SPHINCS-256, the one set of its scheme.
    Sphincs256,
}

impl AnyAlgorithm {
    /// How many sets there are, of every family.
    pub const COUNT: usize =
        Algorithm::ALL.len() + SpxAlgorithm::ALL.len() + 1 + Algorithm::SP800_230.len();

    /// The `index`-th set in the order of [`AnyAlgorithm::all`], `None` past
    /// the end; `const`, so that tables (the C library's handles) are built
    /// from this one list at compile time. New sets go at the end of their
    /// family's list; the draft SP 800-230 sets came last, so they are at
    /// the end (an index, once given out, keeps its set).
    pub const fn at(index: usize) -> Option<AnyAlgorithm> {
        let fips = Algorithm::ALL.len();
        let spx = SpxAlgorithm::ALL.len();
        let limited = Algorithm::SP800_230.len();
        if index < fips {
            Some(AnyAlgorithm::SlhDsa(Algorithm::ALL[index]))
        } else if index < fips + spx {
            Some(AnyAlgorithm::SphincsPlus(SpxAlgorithm::ALL[index - fips]))
        } else if index == fips + spx {
            Some(AnyAlgorithm::Sphincs256)
        } else if index < fips + spx + 1 + limited {
            Some(AnyAlgorithm::SlhDsa(
                Algorithm::SP800_230[index - fips - spx - 1],
            ))
        } else {
            None
        }
    }

    /// Every set of every family: the FIPS 205 sets in OID order, then the
    /// 36 round-3.1 sets, then SPHINCS-256, then the six draft SP 800-230
    /// (ipd) sets.
    pub fn all() -> impl Iterator<Item = AnyAlgorithm> {
        (0..Self::COUNT).filter_map(Self::at)
    }

    /// Every set of `family`, in the order of [`AnyAlgorithm::all`] (so the
    /// FIPS 205 sets end with the draft SP 800-230 ones).
    pub fn of_family(family: Family) -> impl Iterator<Item = AnyAlgorithm> {
        Self::all().filter(move |a| a.family() == family)
    }

    /// Parses a name for a call that takes only `family` (one family's key
    /// class in a binding): a name of another family is
    /// [`Error::WrongScheme`], saying what it names and which part of the
    /// library takes it, rather than [`Error::UnknownAlgorithm`].
    pub fn parse_for(name: &str, family: Family) -> Result<AnyAlgorithm, Error> {
        let alg: AnyAlgorithm = name.parse()?;
        if alg.family() == family {
            return Ok(alg);
        }
        Err(Error::WrongScheme {
            name: name.trim().to_string(),
            is: alg.family().a_set(),
            takes: family.sets(),
            instead: alg.family().api(),
        })
    }

    /// The family this set belongs to.
    pub const fn family(self) -> Family {
        match self {
            AnyAlgorithm::SlhDsa(_) => Family::SlhDsa,
            AnyAlgorithm::SphincsPlus(_) => Family::SphincsPlus,
            AnyAlgorithm::Sphincs256 => Family::Sphincs256,
        }
    }

    /// The canonical name: `SLH-DSA-SHA2-128s`, `sphincs-shake-128f-simple`,
    /// `sphincs-256`.
    pub const fn name(self) -> &'static str {
        match self {
            AnyAlgorithm::SlhDsa(a) => a.name(),
            AnyAlgorithm::SphincsPlus(a) => a.name(),
            AnyAlgorithm::Sphincs256 => sphincs256::ALGORITHM,
        }
    }

    /// How many signatures one key may make: `Some(2^24)` for the draft SP
    /// 800-230 (ipd) sets, whose security falls quickly beyond that; `None`
    /// (no practical limit) for every other set.
    pub const fn max_signatures(self) -> Option<u64> {
        match self {
            AnyAlgorithm::SlhDsa(a) if a.is_sp800_230() => Some(1 << 24),
            _ => None,
        }
    }

    /// Whether this is a draft SP 800-230 (ipd) limited-signature set: one
    /// XMSS tree (2^21–2^22 leaves) that key generation builds in full, and
    /// at most [`AnyAlgorithm::max_signatures`] signatures per key.
    pub const fn is_limited(self) -> bool {
        self.max_signatures().is_some()
    }

    /// The FIPS 205 set, if this is one.
    pub const fn slh_dsa(self) -> Option<Algorithm> {
        match self {
            AnyAlgorithm::SlhDsa(a) => Some(a),
            _ => None,
        }
    }

    /// The numbers (n, h, d, k, a, …) of a set that runs on the FIPS 205
    /// engine (FIPS 205, SP 800-230 and round-3.1 sets); `None` for
    /// SPHINCS-256, whose scheme (HORST, fixed layers) has other parameters.
    pub const fn params(self) -> Option<Params> {
        match self {
            AnyAlgorithm::SlhDsa(a) => Some(a.params()),
            AnyAlgorithm::SphincsPlus(a) => Some(a.params()),
            AnyAlgorithm::Sphincs256 => None,
        }
    }

    /// The NIST security category (1, 3 or 5); `None` for SPHINCS-256, which
    /// predates the categories.
    pub const fn security_category(self) -> Option<u8> {
        match self {
            AnyAlgorithm::SlhDsa(a) => Some(a.security_category()),
            AnyAlgorithm::SphincsPlus(a) => Some(a.security_category()),
            AnyAlgorithm::Sphincs256 => None,
        }
    }

    /// Bytes of a public key.
    pub const fn public_key_len(self) -> usize {
        match self {
            AnyAlgorithm::SlhDsa(a) => a.public_key_len(),
            AnyAlgorithm::SphincsPlus(a) => a.public_key_len(),
            AnyAlgorithm::Sphincs256 => s256::PK_BYTES,
        }
    }

    /// Bytes of a secret key.
    pub const fn secret_key_len(self) -> usize {
        match self {
            AnyAlgorithm::SlhDsa(a) => a.secret_key_len(),
            AnyAlgorithm::SphincsPlus(a) => a.secret_key_len(),
            AnyAlgorithm::Sphincs256 => s256::SK_BYTES,
        }
    }

    /// Bytes of a signature.
    pub const fn signature_len(self) -> usize {
        match self {
            AnyAlgorithm::SlhDsa(a) => a.signature_len(),
            AnyAlgorithm::SphincsPlus(a) => a.signature_len(),
            AnyAlgorithm::Sphincs256 => s256::SIG_BYTES,
        }
    }

    /// Bytes of the seed [`AnySigningKey::from_seed`](super::AnySigningKey::from_seed)
    /// takes: `SK.seed ‖ SK.prf ‖ PK.seed` (3n), or for SPHINCS-256 the whole
    /// secret key `SK1 ‖ Q ‖ SK2`, which is what its key generation draws.
    pub const fn seed_len(self) -> usize {
        match self {
            AnyAlgorithm::SlhDsa(a) => 3 * a.params().n,
            AnyAlgorithm::SphincsPlus(a) => a.seed_len(),
            AnyAlgorithm::Sphincs256 => s256::SK_BYTES,
        }
    }

    /// Bytes of caller-supplied signing randomness (`addrnd` / `optrand`:
    /// n); 0 for SPHINCS-256, whose signatures are deterministic.
    pub const fn randomness_len(self) -> usize {
        match self {
            AnyAlgorithm::SlhDsa(a) => a.params().n,
            AnyAlgorithm::SphincsPlus(a) => a.params().n,
            AnyAlgorithm::Sphincs256 => 0,
        }
    }

    /// Names the hash kernels this set runs on under the backend in force
    /// (`sha256-x4-shani`, `keccak-x8-avx512`, `chacha12-x16-avx512`...), as
    /// benchmarks report them.
    pub fn kernels(self) -> String {
        let k = Kernels::current();
        let (sha2, cat35) = match self {
            AnyAlgorithm::SlhDsa(a) => (!a.is_shake(), a.params().category >= 3),
            AnyAlgorithm::SphincsPlus(a) => match a.hash() {
                SpxHash::Haraka => return k.describe_haraka().to_string(),
                hash => (hash == SpxHash::Sha2, a.params().category >= 3),
            },
            AnyAlgorithm::Sphincs256 => return k.describe_chacha().to_string(),
        };
        k.describe(sha2, sha2 && cat35)
    }

    /// Whether signing takes a context string and a pre-hash, keys have an
    /// OID (SPKI/PKCS#8, PEM/DER encodings) and RFC 9909 key modes: FIPS 205 only.
    pub const fn has_fips205_features(self) -> bool {
        matches!(self, AnyAlgorithm::SlhDsa(_))
    }

    /// Checks signing options against what this set's family has, before
    /// any key is read or any message streamed: [`Error::Unsupported`]
    /// naming the family and one of [`CONTEXT`], [`PREHASH`],
    /// [`GIVEN_RANDOMNESS`] or [`FAULT_HARDENED`] (SPHINCS-256 signatures are
    /// deterministic, so neither of the last two applies to it).
    pub fn check_sign_options(self, opts: &SignOptions<'_>) -> Result<(), Error> {
        self.require(CONTEXT, !opts.context.is_empty())?;
        self.require(PREHASH, opts.prehash.is_some())?;
        if self == AnyAlgorithm::Sphincs256 {
            let given = matches!(opts.randomness, Randomness::Given(_));
            for (what, asked) in [
                (GIVEN_RANDOMNESS, given),
                (FAULT_HARDENED, opts.fault_hardened),
            ] {
                if asked {
                    return Err(Error::Unsupported {
                        family: self.family().name(),
                        what,
                    });
                }
            }
        }
        Ok(())
    }

    /// Checks verification options as [`Self::check_sign_options`] does:
    /// a context or a pre-hash only for FIPS 205.
    pub fn check_verify_options(
        self,
        context: &[u8],
        prehash: Option<PreHash>,
    ) -> Result<(), Error> {
        self.require(CONTEXT, !context.is_empty())?;
        self.require(PREHASH, prehash.is_some())
    }

    /// [`Error::Unsupported`] naming this set's family and `what` it lacks,
    /// unless `present` is false (nothing asked) or the family has it.
    pub(crate) fn require(self, what: &'static str, present: bool) -> Result<(), Error> {
        if present && !self.has_fips205_features() {
            Err(Error::Unsupported {
                family: self.family().name(),
                what,
            })
        } else {
            Ok(())
        }
    }
}

impl From<Algorithm> for AnyAlgorithm {
    fn from(a: Algorithm) -> Self {
        AnyAlgorithm::SlhDsa(a)
    }
}

impl From<SpxAlgorithm> for AnyAlgorithm {
    fn from(a: SpxAlgorithm) -> Self {
        AnyAlgorithm::SphincsPlus(a)
    }
}

impl fmt::Display for AnyAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AnyAlgorithm {
    type Err = Error;

    /// Any case. A FIPS 205 name with or without `SLH-DSA-`
    /// (`SLH-DSA-SHA2-128s`, `shake-256f`); a round-3.1 name with `sphincs-`,
    /// `sphincs+-` or no prefix (`sphincs-shake-128f-simple`); `sphincs-256`
    /// or `sphincs256`. [`Error::UnknownAlgorithm`] for anything else.
    fn from_str(s: &str) -> Result<Self, Error> {
        if let Ok(a) = s.parse::<Algorithm>() {
            return Ok(AnyAlgorithm::SlhDsa(a));
        }
        let t = s.trim();
        if t.eq_ignore_ascii_case(sphincs256::ALGORITHM) || t.eq_ignore_ascii_case("sphincs256") {
            return Ok(AnyAlgorithm::Sphincs256);
        }
        s.parse::<SpxAlgorithm>()
            .map(AnyAlgorithm::SphincsPlus)
            .map_err(|_| Error::UnknownAlgorithm(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips_and_the_list_is_complete() {
        let all: Vec<AnyAlgorithm> = AnyAlgorithm::all().collect();
        assert_eq!(
            all.len(),
            Algorithm::ALL.len() + SpxAlgorithm::ALL.len() + 1 + Algorithm::SP800_230.len()
        );
        // The indices given out before the SP 800-230 sets keep their sets.
        assert_eq!(
            all[Algorithm::ALL.len() + SpxAlgorithm::ALL.len()],
            AnyAlgorithm::Sphincs256
        );
        assert_eq!(all[0], AnyAlgorithm::SlhDsa(Algorithm::ALL[0]));
        for a in &all {
            assert_eq!(a.name().parse::<AnyAlgorithm>(), Ok(*a));
            assert_eq!(a.name().to_uppercase().parse::<AnyAlgorithm>(), Ok(*a));
        }
        let mut names: Vec<&str> = all.iter().map(|a| a.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len(), "names are unique");
    }

    #[test]
    fn spellings_and_families() {
        let p = |s: &str| s.parse::<AnyAlgorithm>();
        assert_eq!(
            p("shake-128f"),
            Ok(AnyAlgorithm::SlhDsa(Algorithm::Shake128f))
        );
        assert_eq!(p("SPHINCS256"), Ok(AnyAlgorithm::Sphincs256));
        assert_eq!(p(" sphincs-256 "), Ok(AnyAlgorithm::Sphincs256));
        let spx = p("SPHINCS+-haraka-256s-robust").unwrap();
        assert_eq!(spx.family(), Family::SphincsPlus);
        assert_eq!(spx.name(), "sphincs-haraka-256s-robust");
        assert!(matches!(p("sphincs-512"), Err(Error::UnknownAlgorithm(n)) if n == "sphincs-512"));
        for a in Algorithm::SP800_230 {
            let any = p(a.name()).unwrap();
            assert_eq!(any, AnyAlgorithm::SlhDsa(a));
            assert_eq!(any.max_signatures(), Some(1 << 24));
            assert!(any.is_limited());
        }
        assert_eq!(p("shake-128-24").unwrap().name(), "SLH-DSA-SHAKE-128-24");
        for a in Algorithm::ALL {
            assert_eq!(AnyAlgorithm::SlhDsa(a).max_signatures(), None);
        }
        assert_eq!(AnyAlgorithm::Sphincs256.max_signatures(), None);
        assert_eq!(AnyAlgorithm::Sphincs256.security_category(), None);
        assert_eq!(AnyAlgorithm::Sphincs256.signature_len(), 41000);
        assert_eq!(AnyAlgorithm::Sphincs256.randomness_len(), 0);
        assert_eq!(p("sha2-128s").unwrap().seed_len(), 48);
    }

    #[test]
    fn family_lists_and_names_for_one_family() {
        let spx: Vec<AnyAlgorithm> = AnyAlgorithm::of_family(Family::SphincsPlus).collect();
        assert_eq!(spx.len(), SpxAlgorithm::ALL.len());
        assert!(spx.iter().all(|a| a.family() == Family::SphincsPlus));
        let slh = AnyAlgorithm::of_family(Family::SlhDsa).count();
        assert_eq!(slh, Algorithm::ALL.len() + Algorithm::SP800_230.len());
        let one = |name, family| AnyAlgorithm::parse_for(name, family).map_err(|e| e.to_string());
        assert_eq!(
            one("shake-128f", Family::SlhDsa),
            Ok(AnyAlgorithm::SlhDsa(Algorithm::Shake128f))
        );
        let wrong = one("SLH-DSA-SHAKE-128f", Family::SphincsPlus).unwrap_err();
        assert!(
            wrong.contains("is a FIPS 205 (SLH-DSA) parameter set, but this call takes SPHINCS+ round-3.1 sets; the FIPS 205 (SLH-DSA) API takes it"),
            "{wrong}"
        );
        let wrong = one("sphincs-256", Family::SlhDsa).unwrap_err();
        assert!(wrong.contains("the SPHINCS-256 API takes it"), "{wrong}");
        assert!(matches!(
            AnyAlgorithm::parse_for("shake-129f", Family::SphincsPlus),
            Err(Error::UnknownAlgorithm(_))
        ));
    }

    #[test]
    fn params_agree_with_the_sizes() {
        for a in AnyAlgorithm::all() {
            let Some(p) = a.params() else {
                assert_eq!(a, AnyAlgorithm::Sphincs256);
                continue;
            };
            assert_eq!(p.pk_bytes(), a.public_key_len(), "{a}");
            assert_eq!(p.sk_bytes(), a.secret_key_len(), "{a}");
            assert_eq!(p.sig_bytes(), a.signature_len(), "{a}");
        }
    }

    #[test]
    fn unsupported_names_the_family() {
        let e = AnyAlgorithm::Sphincs256
            .require("context strings", true)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "SPHINCS-256 does not support context strings"
        );
        assert!(AnyAlgorithm::Sphincs256
            .require("context strings", false)
            .is_ok());
        assert!(AnyAlgorithm::SlhDsa(Algorithm::Sha2_128f)
            .require("context strings", true)
            .is_ok());
    }
}
