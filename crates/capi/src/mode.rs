//! Key modes (RFC 9909): a FIPS 205 key read from PEM/DER is bound by its
//! OID to pure SLH-DSA or to HashSLH-DSA with the set's pre-hash; a raw key
//! is unrestricted. The core keeps the mode in the key and enforces it when
//! signing and verifying; this module reads it and makes bound copies.

use core::ffi::c_int;

use sphincs_core::{KeyMode, PreHash};

use crate::ffi::{guard, non_null, set, Res};
use crate::keys::{borrow, give, sphincs_public_key, sphincs_secret_key};
use crate::options::{prehash, sphincs_prehash, SPHINCS_PREHASH_NONE};
use crate::status::*;

/// `SPHINCS_KEY_MODE_*`: what a FIPS 205 key may sign and verify.
#[allow(non_camel_case_types)]
pub type sphincs_key_mode = c_int;
/// A raw key (no OID): pure, or HashSLH-DSA with any pre-hash, as each call
/// asks. PEM/DER export writes it under the pure OID.
pub const SPHINCS_KEY_MODE_UNRESTRICTED: sphincs_key_mode = 0;
/// Pure SLH-DSA only (OIDs 2.16.840.1.101.3.4.3.20-.31).
pub const SPHINCS_KEY_MODE_PURE: sphincs_key_mode = 1;
/// HashSLH-DSA with the set's pre-hash only (OIDs .35-.46).
pub const SPHINCS_KEY_MODE_HASH_SLH_DSA: sphincs_key_mode = 2;

/// The core's mode as C sees it: the mode and its pre-hash
/// (`SPHINCS_PREHASH_NONE` unless HashSLH-DSA).
fn to_c(mode: KeyMode) -> (sphincs_key_mode, sphincs_prehash) {
    match mode {
        KeyMode::Unrestricted => (SPHINCS_KEY_MODE_UNRESTRICTED, SPHINCS_PREHASH_NONE),
        KeyMode::Pure => (SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE),
        KeyMode::HashSlhDsa(ph) => (
            SPHINCS_KEY_MODE_HASH_SLH_DSA,
            // `SPHINCS_PREHASH_*` values are 1 + the index in `PreHash::ALL`.
            PreHash::ALL
                .iter()
                .position(|p| *p == ph)
                .map_or(SPHINCS_PREHASH_NONE, |i| i as c_int + 1),
        ),
    }
}

/// The mode C asks for, as the core's: `prehash` must be NONE except for
/// HashSLH-DSA, where NONE means the set's own pre-hash and another value is
/// checked by the core (`SPHINCS_ERR_PREHASH_NOT_BOUND`).
fn from_c(
    alg: sphincs_core::Algorithm,
    mode: sphincs_key_mode,
    ph: sphincs_prehash,
) -> Res<KeyMode> {
    let ph = prehash(ph)?;
    match (mode, ph) {
        (SPHINCS_KEY_MODE_UNRESTRICTED, None) => Ok(KeyMode::Unrestricted),
        (SPHINCS_KEY_MODE_PURE, None) => Ok(KeyMode::Pure),
        (SPHINCS_KEY_MODE_HASH_SLH_DSA, None) => Ok(KeyMode::hash_slh_dsa(alg)),
        (SPHINCS_KEY_MODE_HASH_SLH_DSA, Some(ph)) => Ok(KeyMode::HashSlhDsa(ph)),
        _ => Err(SPHINCS_ERR_INVALID_ARGUMENT),
    }
}

/// Writes a key's mode to `*mode` and its pre-hash to `*prehash_out` (when
/// not NULL); `SPHINCS_ERR_UNSUPPORTED` for a key without modes (`key_mode`
/// None: a round-3.1 or SPHINCS-256 key).
///
/// # Safety
/// `mode` and `prehash_out` (may be NULL) must be writable if not NULL.
unsafe fn write_mode(
    key_mode: Option<KeyMode>,
    mode: *mut sphincs_key_mode,
    prehash_out: *mut sphincs_prehash,
) -> Res {
    let key_mode = key_mode.ok_or(SPHINCS_ERR_UNSUPPORTED)?;
    non_null(mode)?;
    let (m, ph) = to_c(key_mode);
    // SAFETY: `mode` is writable by the API contract.
    unsafe { set(mode, m)? };
    if !prehash_out.is_null() {
        // SAFETY: not NULL, so writable by the API contract.
        unsafe { set(prehash_out, ph)? };
    }
    Ok(())
}

/// The mode of a FIPS 205 secret key: `*mode` is a `SPHINCS_KEY_MODE_*`
/// and, if `prehash` is not NULL, `*prehash` the pre-hash of a HashSLH-DSA
/// key (`SPHINCS_PREHASH_NONE` otherwise). A key generated or loaded raw is
/// unrestricted; one read from PKCS#8 has the mode of its OID.
/// `SPHINCS_ERR_UNSUPPORTED` for a round-3.1 or SPHINCS-256 key (no modes).
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_mode(
    sk: *const sphincs_secret_key,
    mode: *mut sphincs_key_mode,
    prehash: *mut sphincs_prehash,
) -> sphincs_status {
    // SAFETY: a live key handle, and `mode`/`prehash` writable (or NULL), by
    // the API contract.
    guard(|| unsafe { write_mode(borrow(sk)?.0.mode(), mode, prehash) })
}

/// The mode of a FIPS 205 public key, as `sphincs_secret_key_mode`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_mode(
    pk: *const sphincs_public_key,
    mode: *mut sphincs_key_mode,
    prehash: *mut sphincs_prehash,
) -> sphincs_status {
    // SAFETY: a live key handle, and `mode`/`prehash` writable (or NULL), by
    // the API contract.
    guard(|| unsafe { write_mode(borrow(pk)?.0.mode(), mode, prehash) })
}

/// A copy of the FIPS 205 secret key `sk` bound to `mode`, as a new key in
/// `*out` (`sk` is unchanged, so keys stay read-only and shareable).
/// `SPHINCS_KEY_MODE_HASH_SLH_DSA` makes a HashSLH-DSA key (what `sphincs
/// keygen --prehash` writes): with `prehash` `SPHINCS_PREHASH_NONE` the
/// set's RFC 9909 pre-hash, else `prehash` must be that one
/// (`SPHINCS_ERR_PREHASH_NOT_BOUND`). For the other modes `prehash` must be
/// NONE (`SPHINCS_ERR_INVALID_ARGUMENT`). Signing and verifying with
/// `SPHINCS_PREHASH_NONE` then use the key's mode, and a request for another
/// mode is `SPHINCS_ERR_WRONG_KEY_MODE`; PEM/DER export writes the mode's OID.
/// `SPHINCS_ERR_UNSUPPORTED` for a round-3.1 or SPHINCS-256 key.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_with_mode(
    sk: *const sphincs_secret_key,
    mode: sphincs_key_mode,
    prehash: sphincs_prehash,
    out: *mut *mut sphincs_secret_key,
) -> sphincs_status {
    guard(|| {
        non_null(out)?;
        // SAFETY: a live key handle by the API contract.
        let key = &unsafe { borrow(sk)? }.0;
        let alg = key.algorithm().slh_dsa().ok_or(SPHINCS_ERR_UNSUPPORTED)?;
        let mode = from_c(alg, mode, prehash)?;
        let bound = key.clone().with_mode(mode)?;
        // SAFETY: `out` is writable by the API contract.
        unsafe { give(out, sphincs_secret_key(bound)) }
    })
}

/// A copy of the FIPS 205 public key `pk` bound to `mode`, as
/// `sphincs_secret_key_with_mode`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_with_mode(
    pk: *const sphincs_public_key,
    mode: sphincs_key_mode,
    prehash: sphincs_prehash,
    out: *mut *mut sphincs_public_key,
) -> sphincs_status {
    guard(|| {
        non_null(out)?;
        // SAFETY: a live key handle by the API contract.
        let key = &unsafe { borrow(pk)? }.0;
        let alg = key.algorithm().slh_dsa().ok_or(SPHINCS_ERR_UNSUPPORTED)?;
        let mode = from_c(alg, mode, prehash)?;
        let bound = key.clone().with_mode(mode)?;
        // SAFETY: `out` is writable by the API contract.
        unsafe { give(out, sphincs_public_key(bound)) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sphincs_core::Algorithm;

    #[test]
    fn modes_round_trip_through_their_c_values() {
        let alg = Algorithm::Shake192f;
        for mode in [
            KeyMode::Unrestricted,
            KeyMode::Pure,
            KeyMode::hash_slh_dsa(alg),
        ] {
            let (m, ph) = to_c(mode);
            assert_eq!(from_c(alg, m, ph), Ok(mode));
        }
        assert_eq!(
            from_c(alg, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_NONE),
            Ok(KeyMode::HashSlhDsa(PreHash::Shake256))
        );
        assert_eq!(
            from_c(alg, SPHINCS_KEY_MODE_PURE, 1),
            Err(SPHINCS_ERR_INVALID_ARGUMENT)
        );
        assert_eq!(from_c(alg, 3, 0), Err(SPHINCS_ERR_INVALID_ARGUMENT));
        assert_eq!(
            from_c(alg, SPHINCS_KEY_MODE_HASH_SLH_DSA, 13),
            Err(SPHINCS_ERR_UNKNOWN_PREHASH)
        );
    }
}
