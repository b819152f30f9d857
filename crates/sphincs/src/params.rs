//! The twelve parameter sets of FIPS 205 Table 2 and the six limited-signature
//! sets of draft SP 800-230 (ipd), as zero-sized types for the typed API and
//! as the runtime [`Algorithm`] enum for the dynamic one.

#[cfg(feature = "alloc")]
use crate::prelude::*;
use core::fmt;

use crate::hash::{Sha2Cat1, Sha2Cat35, Shake, TweakableHash};
use crate::prehash::PreHash;
pub use crate::vocabulary::Algorithm;

pub use crate::limits::{MAX_A, MAX_D, MAX_HP, MAX_K, MAX_M, MAX_N, MAX_WOTS_LEN};

/// The longest signature of any scheme this crate implements, in bytes:
/// SLH-DSA-SHA2/SHAKE-256f (and the round-3.1 256f sets, of the same size);
/// SPHINCS-256's is 41 000. Readers of signature files cap their reads at it.
pub const MAX_SIGNATURE_LEN: usize = 49_856;

/// Winternitz parameter `lg_w` of every FIPS 205 set (SP 800-230 also uses 2 and 3).
pub const LG_W: usize = 4;
/// Largest `w = 2^lg_w` of any set.
pub const MAX_W: usize = 1 << LG_W;

/// The numbers of one parameter set (FIPS 205 Table 2) and what follows from them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Security parameter: bytes per hash output.
    pub n: usize,
    /// Total hypertree height.
    pub h: usize,
    /// Number of hypertree layers.
    pub d: usize,
    /// Height of one XMSS tree, `h / d`.
    pub hp: usize,
    /// FORS tree height.
    pub a: usize,
    /// Number of FORS trees.
    pub k: usize,
    /// Message digest length in bytes.
    pub m: usize,
    /// NIST security category (1, 3 or 5).
    pub category: u8,
    /// Winternitz parameter `lg_w` (4 in FIPS 205; 2 or 3 in SP 800-230).
    pub lg_w: usize,
}

impl Params {
    /// `w = 2^lg_w`.
    pub const fn w(&self) -> usize {
        1 << self.lg_w
    }
    /// WOTS+ `len1 = ⌈8n / lg_w⌉` (FIPS 205 Eq. 5.1).
    pub const fn wots_len1(&self) -> usize {
        (8 * self.n).div_ceil(self.lg_w)
    }
    /// WOTS+ `len2 = ⌊log2(len1·(w−1)) / lg_w⌋ + 1` (FIPS 205 Eq. 5.2): 3 for
    /// lg_w = 4 and every n of FIPS 205.
    pub const fn wots_len2(&self) -> usize {
        let max_csum = self.wots_len1() * (self.w() - 1);
        (max_csum.ilog2() as usize) / self.lg_w + 1
    }
    /// WOTS+ `len = len1 + len2` (FIPS 205 Eq. 5.3).
    pub const fn wots_len(&self) -> usize {
        self.wots_len1() + self.wots_len2()
    }
    /// The left shift of the checksum in Algorithms 7 and 8,
    /// `(8 − ((len2·lg_w) mod 8)) mod 8`, which aligns it to whole bytes.
    pub const fn csum_shift(&self) -> usize {
        (8 - (self.wots_len2() * self.lg_w) % 8) % 8
    }
    /// Bytes the shifted checksum occupies, `⌈len2·lg_w / 8⌉`.
    pub const fn csum_bytes(&self) -> usize {
        (self.wots_len2() * self.lg_w).div_ceil(8)
    }
    /// Bytes of one XMSS signature: WOTS+ signature and authentication path.
    pub const fn xmss_sig_bytes(&self) -> usize {
        (self.wots_len() + self.hp) * self.n
    }
    /// Bytes of a FORS signature.
    pub const fn fors_sig_bytes(&self) -> usize {
        self.k * (self.a + 1) * self.n
    }
    /// Bytes of an SLH-DSA signature: `n(1 + k(1+a) + h + d·len)`.
    pub const fn sig_bytes(&self) -> usize {
        self.n + self.fors_sig_bytes() + self.d * self.xmss_sig_bytes()
    }
    /// Public key bytes: `PK.seed ‖ PK.root`.
    pub const fn pk_bytes(&self) -> usize {
        2 * self.n
    }
    /// Secret key bytes: `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`.
    pub const fn sk_bytes(&self) -> usize {
        4 * self.n
    }
    /// Bytes of `md`, the FORS part of the digest.
    pub const fn md_bytes(&self) -> usize {
        (self.k * self.a).div_ceil(8)
    }
    /// Bytes of the tree index part of the digest.
    pub const fn tree_idx_bytes(&self) -> usize {
        (self.h - self.hp).div_ceil(8)
    }
    /// Bytes of the leaf index part of the digest.
    pub const fn leaf_idx_bytes(&self) -> usize {
        self.hp.div_ceil(8)
    }
}

/// What the engine (WOTS+, XMSS, FORS, the hypertree, signing) needs of a
/// parameter set: its numbers, its tweakable hash family and how it reads the
/// digest. The twelve FIPS 205 sets and the 36 SPHINCS+ round-3.1 sets are
/// all instances, so there is one engine for both standards.
pub trait Instance: 'static + Copy + Clone + Default + fmt::Debug + Send + Sync {
    /// The numbers (FIPS 205 Table 2, or the round-3.1 parameter files).
    const PARAMS: Params;
    /// The tweakable hash family.
    type Hash: TweakableHash;
    /// The order in which FORS reads the k a-bit indices from the digest.
    const INDEX_ORDER: IndexOrder;
    /// The set's name, for error messages.
    const NAME: &'static str;
}

/// How the FORS part of the message digest splits into k indices of a bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexOrder {
    /// FIPS 205 `base_2b`: big-endian, most significant bit of a byte first.
    Fips205,
    /// SPHINCS+ round 3.1 `message_to_indices`: least significant bit of a
    /// byte first, index bits little-endian. FIPS 205 changed this.
    Round31,
}

/// A FIPS 205 parameter set as a type: the engine is generic over it, so each
/// set's numbers are constants in its own monomorphised code.
pub trait ParameterSet: Instance {
    /// The runtime name of this set.
    const ALGORITHM: Algorithm;
}

macro_rules! parameter_sets {
    (fips205 { $( $ty:ident, $variant:ident, $name:literal, $hash:ty, $oid_arc:literal,
        n=$n:literal h=$h:literal d=$d:literal hp=$hp:literal a=$a:literal k=$k:literal m=$m:literal cat=$cat:literal; )* }
     sp800_230 { $( $ty2:ident, $variant2:ident, $name2:literal, $hash2:ty,
        n=$n2:literal h=$h2:literal d=$d2:literal hp=$hp2:literal a=$a2:literal k=$k2:literal lg_w=$lgw2:literal m=$m2:literal cat=$cat2:literal; )* }) => {
        $(
            #[doc = concat!("SLH-DSA-", $name, " (FIPS 205 Table 2).")]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct $ty;
            impl Instance for $ty {
                const PARAMS: Params = Params { n: $n, h: $h, d: $d, hp: $hp, a: $a, k: $k, m: $m, category: $cat, lg_w: LG_W };
                type Hash = $hash;
                const INDEX_ORDER: IndexOrder = IndexOrder::Fips205;
                const NAME: &'static str = concat!("SLH-DSA-", $name);
            }
            impl ParameterSet for $ty {
                const ALGORITHM: Algorithm = Algorithm::$variant;
            }
        )*
        $(
            #[doc = concat!("SLH-DSA-", $name2, " (draft SP 800-230 (ipd), limited-signature set: a key must never make more than 2^24 signatures).")]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
            pub struct $ty2;
            impl Instance for $ty2 {
                const PARAMS: Params = Params { n: $n2, h: $h2, d: $d2, hp: $hp2, a: $a2, k: $k2, m: $m2, category: $cat2, lg_w: $lgw2 };
                type Hash = $hash2;
                const INDEX_ORDER: IndexOrder = IndexOrder::Fips205;
                const NAME: &'static str = concat!("SLH-DSA-", $name2);
            }
            impl ParameterSet for $ty2 {
                const ALGORITHM: Algorithm = Algorithm::$variant2;
            }
        )*

        impl Algorithm {
            /// The twelve FIPS 205 sets, in the order of the RFC 9909 OIDs
            /// (every one has an OID).
            pub const ALL: [Algorithm; 12] = [$(Algorithm::$variant),*];

            /// The six limited-signature sets of draft SP 800-230 (ipd): no
            /// OID is assigned, so they exist as raw keys only, and a key
            /// must never make more than 2^24 signatures.
            pub const SP800_230: [Algorithm; 6] = [$(Algorithm::$variant2),*];

            /// Every set: [`Algorithm::ALL`] then [`Algorithm::SP800_230`].
            pub const EVERY: [Algorithm; 18] = [$(Algorithm::$variant,)* $(Algorithm::$variant2),*];

            /// The numbers of this set.
            pub const fn params(self) -> Params {
                match self {
                    $(Algorithm::$variant => <$ty as Instance>::PARAMS,)*
                    $(Algorithm::$variant2 => <$ty2 as Instance>::PARAMS,)*
                }
            }

            /// The set's name, e.g. `SLH-DSA-SHA2-128s` or `SLH-DSA-SHA2-128-24`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Algorithm::$variant => concat!("SLH-DSA-", $name),)*
                    $(Algorithm::$variant2 => concat!("SLH-DSA-", $name2),)*
                }
            }

            /// The last arc of the RFC 9909 OID `2.16.840.1.101.3.4.3.<arc>`;
            /// `None` for the SP 800-230 sets, which have no OID.
            pub const fn oid_arc(self) -> Option<u32> {
                match self {
                    $(Algorithm::$variant => Some($oid_arc),)*
                    $(Algorithm::$variant2 => None,)*
                }
            }

            /// Whether this is one of the limited-signature sets of draft
            /// SP 800-230 (ipd): at most 2^24 signatures per key.
            pub const fn is_sp800_230(self) -> bool {
                match self {
                    $(Algorithm::$variant => false,)*
                    $(Algorithm::$variant2 => true,)*
                }
            }

            /// Whether this set uses SHAKE (rather than SHA-2).
            pub const fn is_shake(self) -> bool {
                // "SLH-DSA-SHAKE-…" against "SLH-DSA-SHA2-…".
                self.name().as_bytes()[11] == b'K'
            }
        }
    };
}

parameter_sets! {
    fips205 {
        Sha2_128s,  Sha2_128s,  "SHA2-128s",  Sha2Cat1,  20, n=16 h=63 d=7  hp=9 a=12 k=14 m=30 cat=1;
        Sha2_128f,  Sha2_128f,  "SHA2-128f",  Sha2Cat1,  21, n=16 h=66 d=22 hp=3 a=6  k=33 m=34 cat=1;
        Sha2_192s,  Sha2_192s,  "SHA2-192s",  Sha2Cat35, 22, n=24 h=63 d=7  hp=9 a=14 k=17 m=39 cat=3;
        Sha2_192f,  Sha2_192f,  "SHA2-192f",  Sha2Cat35, 23, n=24 h=66 d=22 hp=3 a=8  k=33 m=42 cat=3;
        Sha2_256s,  Sha2_256s,  "SHA2-256s",  Sha2Cat35, 24, n=32 h=64 d=8  hp=8 a=14 k=22 m=47 cat=5;
        Sha2_256f,  Sha2_256f,  "SHA2-256f",  Sha2Cat35, 25, n=32 h=68 d=17 hp=4 a=9  k=35 m=49 cat=5;
        Shake128s,  Shake128s,  "SHAKE-128s", Shake,     26, n=16 h=63 d=7  hp=9 a=12 k=14 m=30 cat=1;
        Shake128f,  Shake128f,  "SHAKE-128f", Shake,     27, n=16 h=66 d=22 hp=3 a=6  k=33 m=34 cat=1;
        Shake192s,  Shake192s,  "SHAKE-192s", Shake,     28, n=24 h=63 d=7  hp=9 a=14 k=17 m=39 cat=3;
        Shake192f,  Shake192f,  "SHAKE-192f", Shake,     29, n=24 h=66 d=22 hp=3 a=8  k=33 m=42 cat=3;
        Shake256s,  Shake256s,  "SHAKE-256s", Shake,     30, n=32 h=64 d=8  hp=8 a=14 k=22 m=47 cat=5;
        Shake256f,  Shake256f,  "SHAKE-256f", Shake,     31, n=32 h=68 d=17 hp=4 a=9  k=35 m=49 cat=5;
    }
    // Draft SP 800-230 (ipd), the table of its six sets: d = 1, so the tree
    // index has zero bits; the hash families are those of FIPS 205's sets
    // of the same category.
    sp800_230 {
        Sha2_128_24,  Sha2_128_24,  "SHA2-128-24",  Sha2Cat1,  n=16 h=22 d=1 hp=22 a=24 k=6  lg_w=2 m=21 cat=1;
        Sha2_192_24,  Sha2_192_24,  "SHA2-192-24",  Sha2Cat35, n=24 h=21 d=1 hp=21 a=25 k=9  lg_w=3 m=32 cat=3;
        Sha2_256_24,  Sha2_256_24,  "SHA2-256-24",  Sha2Cat35, n=32 h=21 d=1 hp=21 a=25 k=12 lg_w=2 m=41 cat=5;
        Shake128_24,  Shake128_24,  "SHAKE-128-24", Shake,     n=16 h=22 d=1 hp=22 a=24 k=6  lg_w=2 m=21 cat=1;
        Shake192_24,  Shake192_24,  "SHAKE-192-24", Shake,     n=24 h=21 d=1 hp=21 a=25 k=9  lg_w=3 m=32 cat=3;
        Shake256_24,  Shake256_24,  "SHAKE-256-24", Shake,     n=32 h=21 d=1 hp=21 a=25 k=12 lg_w=2 m=41 cat=5;
    }
}

/// Calls `$body` with the type alias `$P` bound to the parameter set of the
/// runtime [`Algorithm`] `$alg`, or evaluates `$other` for a set this build
/// does not dispatch to (see [`dispatched`]): the bridge from the dynamic API
/// to the generic engine. A set left out is not compiled at all.
#[macro_export]
#[doc(hidden)]
macro_rules! with_parameter_set {
    ($alg:expr, $P:ident => $body:expr, else => $other:expr) => {
        match $alg {
            $crate::Algorithm::Sha2_128s
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_128s) } =>
            {
                type $P = $crate::params::Sha2_128s;
                $body
            }
            $crate::Algorithm::Sha2_128f
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_128f) } =>
            {
                type $P = $crate::params::Sha2_128f;
                $body
            }
            $crate::Algorithm::Sha2_192s
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_192s) } =>
            {
                type $P = $crate::params::Sha2_192s;
                $body
            }
            $crate::Algorithm::Sha2_192f
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_192f) } =>
            {
                type $P = $crate::params::Sha2_192f;
                $body
            }
            $crate::Algorithm::Sha2_256s
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_256s) } =>
            {
                type $P = $crate::params::Sha2_256s;
                $body
            }
            $crate::Algorithm::Sha2_256f
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_256f) } =>
            {
                type $P = $crate::params::Sha2_256f;
                $body
            }
            $crate::Algorithm::Shake128s
                if const { $crate::params::dispatched($crate::Algorithm::Shake128s) } =>
            {
                type $P = $crate::params::Shake128s;
                $body
            }
            $crate::Algorithm::Shake128f
                if const { $crate::params::dispatched($crate::Algorithm::Shake128f) } =>
            {
                type $P = $crate::params::Shake128f;
                $body
            }
            $crate::Algorithm::Shake192s
                if const { $crate::params::dispatched($crate::Algorithm::Shake192s) } =>
            {
                type $P = $crate::params::Shake192s;
                $body
            }
            $crate::Algorithm::Shake192f
                if const { $crate::params::dispatched($crate::Algorithm::Shake192f) } =>
            {
                type $P = $crate::params::Shake192f;
                $body
            }
            $crate::Algorithm::Shake256s
                if const { $crate::params::dispatched($crate::Algorithm::Shake256s) } =>
            {
                type $P = $crate::params::Shake256s;
                $body
            }
            $crate::Algorithm::Shake256f
                if const { $crate::params::dispatched($crate::Algorithm::Shake256f) } =>
            {
                type $P = $crate::params::Shake256f;
                $body
            }
            $crate::Algorithm::Sha2_128_24
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_128_24) } =>
            {
                type $P = $crate::params::Sha2_128_24;
                $body
            }
            $crate::Algorithm::Sha2_192_24
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_192_24) } =>
            {
                type $P = $crate::params::Sha2_192_24;
                $body
            }
            $crate::Algorithm::Sha2_256_24
                if const { $crate::params::dispatched($crate::Algorithm::Sha2_256_24) } =>
            {
                type $P = $crate::params::Sha2_256_24;
                $body
            }
            $crate::Algorithm::Shake128_24
                if const { $crate::params::dispatched($crate::Algorithm::Shake128_24) } =>
            {
                type $P = $crate::params::Shake128_24;
                $body
            }
            $crate::Algorithm::Shake192_24
                if const { $crate::params::dispatched($crate::Algorithm::Shake192_24) } =>
            {
                type $P = $crate::params::Shake192_24;
                $body
            }
            $crate::Algorithm::Shake256_24
                if const { $crate::params::dispatched($crate::Algorithm::Shake256_24) } =>
            {
                type $P = $crate::params::Shake256_24;
                $body
            }
            _ => $other,
        }
    };
}

/// Whether the dynamic API (`alloc`: [`DynSigningKey`](crate::DynSigningKey),
/// `sphincs::any`) handles `alg` in this build: every set with the default
/// features (`all-sets`); a build with `default-features = false` names the
/// sets it wants (`sha2-128f`, ...: the npm package's one-set modules), and
/// the others are not compiled. The typed API has every set regardless.
pub const fn dispatched(alg: Algorithm) -> bool {
    match alg {
        Algorithm::Sha2_128s => cfg!(feature = "sha2-128s"),
        Algorithm::Sha2_128f => cfg!(feature = "sha2-128f"),
        Algorithm::Sha2_192s => cfg!(feature = "sha2-192s"),
        Algorithm::Sha2_192f => cfg!(feature = "sha2-192f"),
        Algorithm::Sha2_256s => cfg!(feature = "sha2-256s"),
        Algorithm::Sha2_256f => cfg!(feature = "sha2-256f"),
        Algorithm::Shake128s => cfg!(feature = "shake-128s"),
        Algorithm::Shake128f => cfg!(feature = "shake-128f"),
        Algorithm::Shake192s => cfg!(feature = "shake-192s"),
        Algorithm::Shake192f => cfg!(feature = "shake-192f"),
        Algorithm::Shake256s => cfg!(feature = "shake-256s"),
        Algorithm::Shake256f => cfg!(feature = "shake-256f"),
        Algorithm::Sha2_128_24 => cfg!(feature = "sha2-128-24"),
        Algorithm::Sha2_192_24 => cfg!(feature = "sha2-192-24"),
        Algorithm::Sha2_256_24 => cfg!(feature = "sha2-256-24"),
        Algorithm::Shake128_24 => cfg!(feature = "shake-128-24"),
        Algorithm::Shake192_24 => cfg!(feature = "shake-192-24"),
        Algorithm::Shake256_24 => cfg!(feature = "shake-256-24"),
    }
}

/// Writes `2.16.840.1.101.3.4.3.{arc}`, or nothing for `None` (error
/// messages, without a heap).
pub(crate) struct DottedOid(pub Option<u32>);

impl fmt::Display for DottedOid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(arc) => write!(f, "2.16.840.1.101.3.4.3.{arc}"),
            None => Ok(()),
        }
    }
}

/// DER body of the OID arcs `2.16.840.1.101.3.4.3` shared by the twelve FIPS 205 sets.
const OID_PREFIX: [u8; 8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03];

impl Algorithm {
    /// The dotted RFC 9909 OID, e.g. `2.16.840.1.101.3.4.3.20`; `None` for
    /// the SP 800-230 sets.
    #[cfg(feature = "alloc")]
    pub fn oid(self) -> Option<String> {
        self.oid_arc()
            .map(|arc| format!("2.16.840.1.101.3.4.3.{arc}"))
    }

    /// The DER content octets of the OID (without tag and length).
    pub fn oid_der(self) -> Option<[u8; 9]> {
        let arc = self.oid_arc()?;
        let mut out = [0u8; 9];
        out[..8].copy_from_slice(&OID_PREFIX);
        out[8] = arc as u8;
        Some(out)
    }

    /// The set whose OID has these DER content octets.
    pub fn from_oid_der(body: &[u8]) -> Option<Algorithm> {
        match body {
            [prefix @ .., arc] if prefix == OID_PREFIX => Algorithm::ALL
                .into_iter()
                .find(|a| a.oid_arc() == Some(u32::from(*arc))),
            _ => None,
        }
    }

    /// The set with this dotted OID.
    #[cfg(feature = "alloc")]
    pub fn from_oid(dotted: &str) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.oid().as_deref() == Some(dotted))
    }

    /// The pre-hash RFC 9909 binds to this set's HashSLH-DSA OID: SHA-256
    /// for SHA2-128s/f, SHA-512 for the other SHA2 sets, SHAKE128 for
    /// SHAKE-128s/f and SHAKE256 for the other SHAKE sets (the same rule by
    /// category for the SP 800-230 sets, which have no OID to bind it).
    pub const fn bound_prehash(self) -> PreHash {
        match (self.params().category, self.is_shake()) {
            (1, false) => PreHash::Sha2_256,
            (_, false) => PreHash::Sha2_512,
            (1, true) => PreHash::Shake128,
            (_, true) => PreHash::Shake256,
        }
    }

    /// The last arc of the RFC 9909 HashSLH-DSA OID
    /// `2.16.840.1.101.3.4.3.<arc>` (35–46, in the order of the pure ones).
    pub const fn hash_oid_arc(self) -> Option<u32> {
        match self.oid_arc() {
            Some(arc) => Some(arc + 15),
            None => None,
        }
    }

    /// The dotted HashSLH-DSA OID, e.g. `2.16.840.1.101.3.4.3.35` for
    /// `id-hash-slh-dsa-sha2-128s-with-sha256`.
    #[cfg(feature = "alloc")]
    pub fn hash_oid(self) -> Option<String> {
        self.hash_oid_arc()
            .map(|arc| format!("2.16.840.1.101.3.4.3.{arc}"))
    }

    /// The DER content octets of the HashSLH-DSA OID.
    pub fn hash_oid_der(self) -> Option<[u8; 9]> {
        let mut out = self.oid_der()?;
        out[8] = self.hash_oid_arc()? as u8;
        Some(out)
    }

    /// The set whose HashSLH-DSA OID has these DER content octets.
    pub fn from_hash_oid_der(body: &[u8]) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.hash_oid_der().is_some_and(|d| d.as_slice() == body))
    }

    size_accessors!();
}

/// The category and byte sizes of a set, read from its `params()`: the same
/// accessors on [`Algorithm`] and on the round-3.1 `SpxAlgorithm`, whose
/// keys and signatures are laid out alike.
macro_rules! size_accessors {
    () => {
        /// NIST security category.
        pub const fn security_category(self) -> u8 {
            self.params().category
        }
        /// Public key length in bytes: `PK.seed ‖ PK.root`.
        pub const fn public_key_len(self) -> usize {
            self.params().pk_bytes()
        }
        /// Secret key length in bytes: `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`.
        pub const fn secret_key_len(self) -> usize {
            self.params().sk_bytes()
        }
        /// Signature length in bytes.
        pub const fn signature_len(self) -> usize {
            self.params().sig_bytes()
        }
    };
}
pub(crate) use size_accessors;

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table2_sizes() {
        let expect = [
            (Algorithm::Sha2_128s, 32, 7856),
            (Algorithm::Shake128f, 32, 17088),
            (Algorithm::Sha2_192s, 48, 16224),
            (Algorithm::Shake192f, 48, 35664),
            (Algorithm::Sha2_256s, 64, 29792),
            (Algorithm::Shake256f, 64, 49856),
        ];
        for (alg, pk, sig) in expect {
            assert_eq!(alg.public_key_len(), pk, "{alg}");
            assert_eq!(alg.signature_len(), sig, "{alg}");
            let p = alg.params();
            assert_eq!(p.h, p.d * p.hp, "{alg}");
            assert_eq!(
                p.m,
                p.md_bytes() + p.tree_idx_bytes() + p.leaf_idx_bytes(),
                "{alg}"
            );
        }
    }

    #[test]
    fn max_signature_len_bounds_every_scheme() {
        let fips = Algorithm::ALL.iter().map(|a| a.signature_len());
        let spx = crate::sphincsplus::SpxAlgorithm::ALL
            .iter()
            .map(|a| a.signature_len());
        let longest = fips
            .chain(spx)
            .chain([crate::sphincs256::params::SIG_BYTES])
            .max();
        assert_eq!(longest, Some(MAX_SIGNATURE_LEN));
    }

    #[test]
    fn names_parse() {
        for alg in Algorithm::ALL {
            assert_eq!(alg.name().parse::<Algorithm>().unwrap(), alg);
            assert_eq!(alg.name().to_lowercase().parse::<Algorithm>().unwrap(), alg);
            assert_eq!(
                alg.name()[8..].to_lowercase().parse::<Algorithm>().unwrap(),
                alg
            );
            assert_eq!(Algorithm::from_oid(&alg.oid().unwrap()), Some(alg));
            assert_eq!(Algorithm::from_oid_der(&alg.oid_der().unwrap()), Some(alg));
        }
        assert_eq!(
            "SLH-DSA-SHA2-128s".parse::<Algorithm>().unwrap(),
            Algorithm::Sha2_128s
        );
        assert_eq!(
            "shake-256f".parse::<Algorithm>().unwrap(),
            Algorithm::Shake256f
        );
        assert!("sha2-128x".parse::<Algorithm>().is_err());
        assert!("".parse::<Algorithm>().is_err());
        assert_eq!(
            Algorithm::Sha2_128s.oid().as_deref(),
            Some("2.16.840.1.101.3.4.3.20")
        );
        assert_eq!(
            Algorithm::Shake256f.oid().as_deref(),
            Some("2.16.840.1.101.3.4.3.31")
        );
        assert_eq!(
            "shake-192-24".parse::<Algorithm>().unwrap(),
            Algorithm::Shake192_24
        );
        assert_eq!(
            "SLH-DSA-SHA2-128-24".parse::<Algorithm>().unwrap(),
            Algorithm::Sha2_128_24
        );
    }

    /// RFC 9909 §3's table of HashSLH-DSA OIDs and their pre-hashes, written
    /// out rather than derived.
    #[test]
    fn hash_oids_and_bound_prehashes() {
        use PreHash::*;
        let table = [
            (Algorithm::Sha2_128s, 35, Sha2_256),
            (Algorithm::Sha2_128f, 36, Sha2_256),
            (Algorithm::Sha2_192s, 37, Sha2_512),
            (Algorithm::Sha2_192f, 38, Sha2_512),
            (Algorithm::Sha2_256s, 39, Sha2_512),
            (Algorithm::Sha2_256f, 40, Sha2_512),
            (Algorithm::Shake128s, 41, Shake128),
            (Algorithm::Shake128f, 42, Shake128),
            (Algorithm::Shake192s, 43, Shake256),
            (Algorithm::Shake192f, 44, Shake256),
            (Algorithm::Shake256s, 45, Shake256),
            (Algorithm::Shake256f, 46, Shake256),
        ];
        for (alg, arc, ph) in table {
            assert_eq!(alg.hash_oid_arc(), Some(arc), "{alg}");
            assert_eq!(alg.hash_oid(), Some(format!("2.16.840.1.101.3.4.3.{arc}")));
            assert_eq!(alg.bound_prehash(), ph, "{alg}");
            let (pure, hash) = (alg.oid_der().unwrap(), alg.hash_oid_der().unwrap());
            assert_eq!(Algorithm::from_hash_oid_der(&hash), Some(alg));
            assert_eq!(Algorithm::from_oid_der(&hash), None);
            assert_eq!(Algorithm::from_hash_oid_der(&pure), None);
        }
    }

    /// The six sets of draft SP 800-230 (ipd): sizes, m, len (Eq. 5.1–5.3
    /// with lg_w = 2 and 3) and the checksum shift, written out.
    #[test]
    fn sp800_230_sizes() {
        // (set, pk bytes, signature bytes, len1, len2, checksum shift)
        let expect = [
            (Algorithm::Sha2_128_24, 32, 3856, 64, 4, 0),
            (Algorithm::Shake128_24, 32, 3856, 64, 4, 0),
            (Algorithm::Sha2_192_24, 48, 7752, 64, 3, 7),
            (Algorithm::Shake192_24, 48, 7752, 64, 3, 7),
            (Algorithm::Sha2_256_24, 64, 14944, 128, 5, 6),
            (Algorithm::Shake256_24, 64, 14944, 128, 5, 6),
        ];
        for (alg, pk, sig, len1, len2, shift) in expect {
            let p = alg.params();
            assert_eq!(alg.public_key_len(), pk, "{alg}");
            assert_eq!(alg.signature_len(), sig, "{alg}");
            assert_eq!((p.wots_len1(), p.wots_len2()), (len1, len2), "{alg}");
            assert_eq!(p.csum_shift(), shift, "{alg}");
            assert!(p.wots_len() <= MAX_WOTS_LEN && p.a <= MAX_A && p.hp <= MAX_HP);
            assert_eq!((p.d, p.h, p.tree_idx_bytes()), (1, p.hp, 0), "{alg}");
            assert_eq!(
                p.m,
                p.md_bytes() + p.tree_idx_bytes() + p.leaf_idx_bytes(),
                "{alg}"
            );
            assert!(alg.is_sp800_230() && alg.oid().is_none() && alg.hash_oid().is_none());
            assert_eq!(alg.name()[8..].parse::<Algorithm>().unwrap(), alg);
        }
        for alg in Algorithm::ALL {
            let p = alg.params();
            assert_eq!((p.lg_w, p.wots_len2(), p.csum_shift()), (4, 3, 4), "{alg}");
            assert!(!alg.is_sp800_230());
        }
        assert_eq!(Algorithm::EVERY[12..], Algorithm::SP800_230);
    }

    /// The enum is declared in `vocabulary.rs` and its table here: a set
    /// out of place in either would change `Ord` (and so the order of
    /// sorted output) without a compile error.
    #[test]
    fn the_enum_is_declared_in_the_tables_order() {
        assert!(Algorithm::EVERY.windows(2).all(|w| w[0] < w[1]));
    }
}
