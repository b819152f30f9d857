//! Algorithm handles: one immutable entry per parameter set of every scheme,
//! built at compile time from the core's lists. A handle is a pointer into
//! that table, so it is valid for the life of the process, needs no freeing,
//! and can be checked (a pointer that is not an entry is refused).

use core::ffi::{c_char, c_int};

use sphincs_core::sphincs256::{self, params as s256};
use sphincs_core::sphincsplus::SpxAlgorithm;
use sphincs_core::Algorithm;

use crate::ffi::{c_str, guard, guard_value, non_null, set, Res};
use crate::status::*;

/// A parameter set of one of the schemes. A new scheme is a new variant
/// here and in the key types; the C API does not change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scheme {
    /// FIPS 205 SLH-DSA.
    Fips(Algorithm),
    /// SPHINCS+ round 3.1.
    Spx(SpxAlgorithm),
    /// SPHINCS-256 (2015), the one set of its scheme.
    S256,
}

impl Scheme {
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Scheme::Fips(a) => a.name(),
            Scheme::Spx(a) => a.name(),
            Scheme::S256 => sphincs256::ALGORITHM,
        }
    }

    /// The NIST security category; 0 for SPHINCS-256, which predates them.
    pub(crate) const fn category(self) -> u8 {
        match self {
            Scheme::Fips(a) => a.security_category(),
            Scheme::Spx(a) => a.security_category(),
            Scheme::S256 => 0,
        }
    }

    /// Bytes of signing randomness (`addrnd` / `optrand`: n); 0 for
    /// SPHINCS-256, whose signatures are deterministic.
    pub(crate) const fn randomness_len(self) -> usize {
        match self {
            Scheme::Fips(a) => a.params().n,
            Scheme::Spx(a) => a.params().n,
            Scheme::S256 => 0,
        }
    }

    /// The seed of `crypto_sign_seed_keypair` / `slh_keygen_internal`:
    /// `SK.seed ‖ SK.prf ‖ PK.seed`; for SPHINCS-256 the whole secret key
    /// `SK1 ‖ Q ‖ SK2`, which is what its `crypto_sign_keypair` draws.
    pub(crate) const fn seed_len(self) -> usize {
        match self {
            Scheme::Fips(a) => 3 * a.params().n,
            Scheme::Spx(a) => a.seed_len(),
            Scheme::S256 => s256::SK_BYTES,
        }
    }

    pub(crate) const fn public_key_len(self) -> usize {
        match self {
            Scheme::Fips(a) => a.public_key_len(),
            Scheme::Spx(a) => a.public_key_len(),
            Scheme::S256 => s256::PK_BYTES,
        }
    }

    pub(crate) const fn secret_key_len(self) -> usize {
        match self {
            Scheme::Fips(a) => a.secret_key_len(),
            Scheme::Spx(a) => a.secret_key_len(),
            Scheme::S256 => s256::SK_BYTES,
        }
    }

    pub(crate) const fn signature_len(self) -> usize {
        match self {
            Scheme::Fips(a) => a.signature_len(),
            Scheme::Spx(a) => a.signature_len(),
            Scheme::S256 => s256::SIG_BYTES,
        }
    }

    /// By name: a FIPS 205 name (any case, `SLH-DSA-` optional), a
    /// round-3.1 name (any case, `sphincs-`/`sphincs+-` optional), or
    /// `sphincs-256` (any case; `sphincs256` too, as the CLI takes it).
    pub(crate) fn from_name(name: &str) -> Res<Scheme> {
        if let Ok(a) = name.parse::<Algorithm>() {
            return Ok(Scheme::Fips(a));
        }
        if name.eq_ignore_ascii_case(sphincs256::ALGORITHM)
            || name.eq_ignore_ascii_case("sphincs256")
        {
            return Ok(Scheme::S256);
        }
        name.parse::<SpxAlgorithm>()
            .map(Scheme::Spx)
            .map_err(sphincs_status::from)
    }

    pub(crate) fn handle(self) -> &'static sphincs_alg {
        // Every Scheme value has its entry (the table is built from the same lists).
        ALGS.iter().find(|e| e.scheme == self).unwrap_or(&ALGS[0])
    }
}

/// An algorithm (parameter set) handle. Obtained from `sphincs_alg_by_name`
/// or `sphincs_alg_at`; points into a constant table, never freed.
#[allow(non_camel_case_types)]
#[derive(Clone, Copy)]
pub struct sphincs_alg {
    pub(crate) scheme: Scheme,
    /// The canonical name, NUL-terminated.
    name: [u8; NAME_CAP],
}

const NAME_CAP: usize = 32;
const FIPS_COUNT: usize = Algorithm::ALL.len();
const SPX_END: usize = FIPS_COUNT + SpxAlgorithm::ALL.len();
const COUNT: usize = SPX_END + 1;

const fn entry(scheme: Scheme) -> sphincs_alg {
    let src = scheme.name().as_bytes();
    let mut name = [0u8; NAME_CAP];
    let mut i = 0;
    // A name longer than NAME_CAP - 1 fails the build here (index out of bounds).
    while i < src.len() {
        name[i] = src[i];
        i += 1;
    }
    assert!(i < NAME_CAP);
    sphincs_alg { scheme, name }
}

/// The twelve FIPS 205 sets in RFC 9909 OID order, then the 36 round-3.1
/// sets by name, then SPHINCS-256 (new sets go at the end, so an index
/// stays what it was).
static ALGS: [sphincs_alg; COUNT] = {
    let mut t = [entry(Scheme::Fips(Algorithm::ALL[0])); COUNT];
    let mut i = 0;
    while i < COUNT {
        t[i] = if i < FIPS_COUNT {
            entry(Scheme::Fips(Algorithm::ALL[i]))
        } else if i < SPX_END {
            entry(Scheme::Spx(SpxAlgorithm::ALL[i - FIPS_COUNT]))
        } else {
            entry(Scheme::S256)
        };
        i += 1;
    }
    t
};

/// The table entry `ptr` points to; anything else (NULL, a stray pointer) is refused.
pub(crate) fn resolve(ptr: *const sphincs_alg) -> Res<Scheme> {
    non_null(ptr)?;
    let base = ALGS.as_ptr() as usize;
    let offset = (ptr as usize).wrapping_sub(base);
    let size = core::mem::size_of::<sphincs_alg>();
    if !offset.is_multiple_of(size) || offset / size >= COUNT {
        return Err(SPHINCS_ERR_INVALID_ARGUMENT);
    }
    Ok(ALGS[offset / size].scheme)
}

/// `SPHINCS_SCHEME_*`: which standard a parameter set belongs to.
#[allow(non_camel_case_types)]
pub type sphincs_scheme = c_int;
/// FIPS 205 SLH-DSA (contexts, pre-hash, PEM/DER keys).
pub const SPHINCS_SCHEME_SLH_DSA: sphincs_scheme = 1;
/// SPHINCS+ round 3.1 (raw keys, no context or pre-hash).
pub const SPHINCS_SCHEME_SPHINCSPLUS_R31: sphincs_scheme = 2;
/// SPHINCS-256 (2015; raw keys, deterministic signatures, no context or pre-hash).
pub const SPHINCS_SCHEME_SPHINCS256: sphincs_scheme = 3;

/// Looks up a parameter set by name and stores its handle in `*alg`.
///
/// Accepts the FIPS 205 names in any case, with or without the `SLH-DSA-`
/// prefix (`"SLH-DSA-SHA2-128s"`, `"shake-256f"`), and the SPHINCS+ round-3.1
/// names in any case (`"sphincs-shake-128f-simple"`,
/// `"SPHINCS+-haraka-256s-robust"`), and `"sphincs-256"` (any case).
/// `SPHINCS_ERR_UNKNOWN_ALGORITHM` otherwise.
#[no_mangle]
pub unsafe extern "C" fn sphincs_alg_by_name(
    name: *const c_char,
    alg: *mut *const sphincs_alg,
) -> sphincs_status {
    guard(|| {
        // SAFETY: `name` is a NUL-terminated string by the API contract.
        let name = unsafe { c_str(name, SPHINCS_ERR_UNKNOWN_ALGORITHM)? };
        let scheme = Scheme::from_name(name)?;
        // SAFETY: `alg` is writable by the API contract (NULL is refused).
        unsafe { set(alg, scheme.handle() as *const sphincs_alg) }
    })
}

/// The number of parameter sets (49: 12 FIPS 205, 36 SPHINCS+ round 3.1,
/// then SPHINCS-256).
#[no_mangle]
pub extern "C" fn sphincs_alg_count() -> usize {
    COUNT
}

/// The `index`-th parameter set (0 ≤ index < `sphincs_alg_count()`), or NULL.
#[no_mangle]
pub extern "C" fn sphincs_alg_at(index: usize) -> *const sphincs_alg {
    guard_value(core::ptr::null(), || {
        ALGS.get(index).map_or(core::ptr::null(), |e| e as *const _)
    })
}

/// The canonical name (`"SLH-DSA-SHA2-128s"`, `"sphincs-shake-128f-simple"`),
/// a static string; NULL for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_name(alg: *const sphincs_alg) -> *const c_char {
    guard_value(core::ptr::null(), || match resolve(alg) {
        Ok(s) => s.handle().name.as_ptr().cast(),
        Err(_) => core::ptr::null(),
    })
}

/// `SPHINCS_SCHEME_SLH_DSA`, `SPHINCS_SCHEME_SPHINCSPLUS_R31` or
/// `SPHINCS_SCHEME_SPHINCS256`; 0 for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_scheme(alg: *const sphincs_alg) -> sphincs_scheme {
    guard_value(0, || match resolve(alg) {
        Ok(Scheme::Fips(_)) => SPHINCS_SCHEME_SLH_DSA,
        Ok(Scheme::Spx(_)) => SPHINCS_SCHEME_SPHINCSPLUS_R31,
        Ok(Scheme::S256) => SPHINCS_SCHEME_SPHINCS256,
        Err(_) => 0,
    })
}

fn size(alg: *const sphincs_alg, f: fn(Scheme) -> usize) -> usize {
    guard_value(0, || resolve(alg).map_or(0, f))
}

/// Bytes of a raw public key (`PK.seed ‖ PK.root`; SPHINCS-256: `Q ‖ PK1`,
/// 1056); 0 for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_public_key_bytes(alg: *const sphincs_alg) -> usize {
    size(alg, Scheme::public_key_len)
}

/// Bytes of a raw secret key (`SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`;
/// SPHINCS-256: `SK1 ‖ Q ‖ SK2`, 1088); 0 for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_secret_key_bytes(alg: *const sphincs_alg) -> usize {
    size(alg, Scheme::secret_key_len)
}

/// Bytes of a signature; 0 for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_signature_bytes(alg: *const sphincs_alg) -> usize {
    size(alg, Scheme::signature_len)
}

/// Bytes of a key-generation seed (`SK.seed ‖ SK.prf ‖ PK.seed`, 3n;
/// SPHINCS-256: the 1088 secret-key bytes, any 1088 bytes being a key); 0
/// for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_seed_bytes(alg: *const sphincs_alg) -> usize {
    size(alg, Scheme::seed_len)
}

/// The NIST security category (1, 3 or 5); 0 for an invalid handle and for
/// SPHINCS-256, which predates the categories.
#[no_mangle]
pub extern "C" fn sphincs_alg_security_category(alg: *const sphincs_alg) -> c_int {
    guard_value(0, || resolve(alg).map_or(0, |s| c_int::from(s.category())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_core_lists() {
        assert_eq!(sphincs_alg_count(), 49);
        assert_eq!(resolve(sphincs_alg_at(48)), Ok(Scheme::S256));
        assert_eq!(Scheme::from_name("SPHINCS-256"), Ok(Scheme::S256));
        for i in 0..COUNT {
            let p = sphincs_alg_at(i);
            let s = resolve(p).unwrap();
            assert!(core::ptr::eq(s.handle(), p));
            assert_eq!(Scheme::from_name(s.name()).unwrap(), s);
        }
        assert!(sphincs_alg_at(COUNT).is_null());
        assert_eq!(resolve(core::ptr::null()), Err(SPHINCS_ERR_NULL_POINTER));
        let stray = (sphincs_alg_at(1) as usize + 1) as *const sphincs_alg;
        assert_eq!(resolve(stray), Err(SPHINCS_ERR_INVALID_ARGUMENT));
    }
}
