//! Algorithm handles: one immutable entry per parameter set of every scheme,
//! built at compile time from the core's lists. A handle is a pointer into
//! that table, so it is valid for the life of the process, needs no freeing,
//! and can be checked (a pointer that is not an entry is refused).

use core::ffi::{c_char, c_int};

use sphincs_core::any::{AnyAlgorithm, Family};

use crate::ffi::{c_str, guard, non_null, set, Res};
use crate::panic_guard::guard_value;
use crate::status::*;

/// The handle of `alg`: its entry in the table built from the core's list.
pub(crate) fn handle(alg: AnyAlgorithm) -> &'static sphincs_alg {
    // Every set has its entry (the table is built from the same list).
    ALGS.iter().find(|e| e.alg == alg).unwrap_or(&ALGS[0])
}

/// An algorithm (parameter set) handle. Obtained from `sphincs_alg_by_name`
/// or `sphincs_alg_at`; points into a constant table, never freed.
#[allow(non_camel_case_types)]
#[derive(Clone, Copy)]
pub struct sphincs_alg {
    pub(crate) alg: AnyAlgorithm,
    /// The canonical name, NUL-terminated.
    name: [u8; NAME_CAP],
}

const NAME_CAP: usize = 32;
const COUNT: usize = AnyAlgorithm::COUNT;

const fn entry(alg: AnyAlgorithm) -> sphincs_alg {
    let src = alg.name().as_bytes();
    let mut name = [0u8; NAME_CAP];
    let mut i = 0;
    // A name longer than NAME_CAP - 1 fails the build here (index out of bounds).
    while i < src.len() {
        name[i] = src[i];
        i += 1;
    }
    assert!(i < NAME_CAP);
    sphincs_alg { alg, name }
}

/// Every set of every family in the core's order (`AnyAlgorithm::at`): the
/// FIPS 205 sets in RFC 9909 OID order, the round-3.1 sets, SPHINCS-256.
static ALGS: [sphincs_alg; COUNT] = {
    let mut t = [entry(AnyAlgorithm::Sphincs256); COUNT];
    let mut i = 0;
    while i < COUNT {
        if let Some(alg) = AnyAlgorithm::at(i) {
            t[i] = entry(alg);
        }
        i += 1;
    }
    t
};

/// The table entry `ptr` points to; anything else (NULL, a stray pointer) is refused.
pub(crate) fn resolve(ptr: *const sphincs_alg) -> Res<AnyAlgorithm> {
    non_null(ptr)?;
    let base = ALGS.as_ptr() as usize;
    let offset = (ptr as usize).wrapping_sub(base);
    let size = core::mem::size_of::<sphincs_alg>();
    if !offset.is_multiple_of(size) || offset / size >= COUNT {
        return Err(SPHINCS_ERR_INVALID_ARGUMENT);
    }
    Ok(ALGS[offset / size].alg)
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
        let found: AnyAlgorithm = name.parse()?;
        // SAFETY: `alg` is writable by the API contract (NULL is refused).
        unsafe { set(alg, handle(found) as *const sphincs_alg) }
    })
}

/// The number of parameter sets (55: 12 FIPS 205, 36 SPHINCS+ round 3.1,
/// SPHINCS-256, then the six draft SP 800-230 sets).
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
        Ok(a) => handle(a).name.as_ptr().cast(),
        Err(_) => core::ptr::null(),
    })
}

/// `SPHINCS_SCHEME_SLH_DSA`, `SPHINCS_SCHEME_SPHINCSPLUS_R31` or
/// `SPHINCS_SCHEME_SPHINCS256`; 0 for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_scheme(alg: *const sphincs_alg) -> sphincs_scheme {
    guard_value(0, || match resolve(alg) {
        // The C constants of the core's families (a mapping, not a dispatch).
        Ok(a) => match a.family() {
            Family::SlhDsa => SPHINCS_SCHEME_SLH_DSA,
            Family::SphincsPlus => SPHINCS_SCHEME_SPHINCSPLUS_R31,
            Family::Sphincs256 => SPHINCS_SCHEME_SPHINCS256,
        },
        Err(_) => 0,
    })
}

fn size(alg: *const sphincs_alg, f: fn(AnyAlgorithm) -> usize) -> usize {
    guard_value(0, || resolve(alg).map_or(0, f))
}

/// Bytes of a raw public key (`PK.seed ‖ PK.root`; SPHINCS-256: `Q ‖ PK1`,
/// 1056); 0 for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_public_key_bytes(alg: *const sphincs_alg) -> usize {
    size(alg, AnyAlgorithm::public_key_len)
}

/// Bytes of a raw secret key (`SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`;
/// SPHINCS-256: `SK1 ‖ Q ‖ SK2`, 1088); 0 for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_secret_key_bytes(alg: *const sphincs_alg) -> usize {
    size(alg, AnyAlgorithm::secret_key_len)
}

/// Bytes of a signature; 0 for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_signature_bytes(alg: *const sphincs_alg) -> usize {
    size(alg, AnyAlgorithm::signature_len)
}

/// Bytes of a key-generation seed (`SK.seed ‖ SK.prf ‖ PK.seed`, 3n;
/// SPHINCS-256: the 1088 secret-key bytes, any 1088 bytes being a key); 0
/// for an invalid handle.
#[no_mangle]
pub extern "C" fn sphincs_alg_seed_bytes(alg: *const sphincs_alg) -> usize {
    size(alg, AnyAlgorithm::seed_len)
}

/// How many signatures one key of this set may make: 2^24 (16777216) for the
/// draft SP 800-230 (ipd) limited-signature sets; 0 for every other set (no
/// practical limit) and for an invalid handle. The library does not count:
/// keeping a key under its limit is the caller's job.
#[no_mangle]
pub extern "C" fn sphincs_alg_max_signatures(alg: *const sphincs_alg) -> u64 {
    guard_value(0, || {
        resolve(alg).map_or(0, |a| a.max_signatures().unwrap_or(0))
    })
}

/// The NIST security category (1, 3 or 5); 0 for an invalid handle and for
/// SPHINCS-256, which predates the categories.
#[no_mangle]
pub extern "C" fn sphincs_alg_security_category(alg: *const sphincs_alg) -> c_int {
    guard_value(0, || {
        resolve(alg).map_or(0, |a| c_int::from(a.security_category().unwrap_or(0)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_core_lists() {
        assert_eq!(sphincs_alg_count(), 55);
        assert_eq!(resolve(sphincs_alg_at(48)), Ok(AnyAlgorithm::Sphincs256));
        // The draft SP 800-230 sets come after every earlier index.
        for i in 49..55 {
            assert_eq!(sphincs_alg_max_signatures(sphincs_alg_at(i)), 1 << 24);
        }
        assert_eq!(sphincs_alg_max_signatures(sphincs_alg_at(0)), 0);
        for i in 0..COUNT {
            let p = sphincs_alg_at(i);
            let a = resolve(p).unwrap();
            assert!(core::ptr::eq(handle(a), p));
            assert_eq!(Some(a), AnyAlgorithm::at(i));
        }
        assert!(sphincs_alg_at(COUNT).is_null());
        assert_eq!(resolve(core::ptr::null()), Err(SPHINCS_ERR_NULL_POINTER));
        let stray = (sphincs_alg_at(1) as usize + 1) as *const sphincs_alg;
        assert_eq!(resolve(stray), Err(SPHINCS_ERR_INVALID_ARGUMENT));
    }
}
