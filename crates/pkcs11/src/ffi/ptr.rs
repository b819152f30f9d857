//! What every entry point uses at the boundary: the panic guard, and
//! reading and writing the caller's memory with its NULL and length checks.

use std::panic::{catch_unwind, AssertUnwindSafe};

use cryptoki_sys::*;
use zeroize::Zeroizing;

use crate::attributes::Template;
use crate::mechanism::Param;

/// Runs an entry point's body: `Ok` is CKR_OK, `Err(rv)` is `rv`, a panic
/// is CKR_GENERAL_ERROR.
pub(crate) fn guard(f: impl FnOnce() -> Result<(), CK_RV>) -> CK_RV {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => CKR_OK,
        Ok(Err(rv)) => rv,
        Err(_) => CKR_GENERAL_ERROR,
    }
}

/// `len` bytes at `p`; NULL is the empty string when `len` is 0, else
/// CKR_ARGUMENTS_BAD.
///
/// # Safety
/// A non-NULL `p` must be valid for reads of `len` bytes for `'a`.
pub(crate) unsafe fn bytes<'a>(p: *const u8, len: CK_ULONG) -> Result<&'a [u8], CK_RV> {
    let len = usize::try_from(len).map_err(|_| CKR_ARGUMENTS_BAD)?;
    if p.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(CKR_ARGUMENTS_BAD)
        };
    }
    // SAFETY: `p` is non-NULL and, by the caller's contract, valid for
    // `len` bytes; the bytes are only read.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// The object `p` points to, for writing (NULL → CKR_ARGUMENTS_BAD).
///
/// # Safety
/// A non-NULL `p` must be valid and aligned for a write of `T` for `'a`.
pub(crate) unsafe fn out<'a, T>(p: *mut T) -> Result<&'a mut T, CK_RV> {
    // SAFETY: by the caller's contract a non-NULL `p` points to a `T`.
    unsafe { p.as_mut() }.ok_or(CKR_ARGUMENTS_BAD)
}

/// A template copied out of `count` CK_ATTRIBUTEs at `p`. A value pointer
/// that is NULL with a non-zero length is CKR_ATTRIBUTE_VALUE_INVALID.
///
/// # Safety
/// A non-NULL `p` must point to `count` CK_ATTRIBUTEs whose non-NULL
/// `pValue` are valid for `ulValueLen` bytes.
pub(crate) unsafe fn template(p: *const CK_ATTRIBUTE, count: CK_ULONG) -> Result<Template, CK_RV> {
    if count == 0 {
        return Ok(Template::default());
    }
    if p.is_null() {
        return Err(CKR_ARGUMENTS_BAD);
    }
    let count = usize::try_from(count).map_err(|_| CKR_ARGUMENTS_BAD)?;
    // SAFETY: `p` is non-NULL and points to `count` attributes.
    let attrs = unsafe { std::slice::from_raw_parts(p, count) };
    let mut t = Vec::with_capacity(count);
    for a in attrs {
        if a.pValue.is_null() && a.ulValueLen != 0 {
            return Err(CKR_ATTRIBUTE_VALUE_INVALID);
        }
        // SAFETY: a non-NULL `pValue` is valid for `ulValueLen` bytes.
        let v = unsafe { bytes(a.pValue as *const u8, a.ulValueLen) }?;
        t.push((a.type_, Zeroizing::new(v.to_vec())));
    }
    Ok(Template(t))
}

/// The context bytes of a CK_(HASH_)SIGN_ADDITIONAL_CONTEXT, copied; more
/// than 255 bytes, or NULL with a length, is CKR_MECHANISM_PARAM_INVALID.
///
/// # Safety
/// A non-NULL `p` must be valid for `len` bytes.
unsafe fn context(p: *const u8, len: CK_ULONG) -> Result<Vec<u8>, CK_RV> {
    if len > 255 || (p.is_null() && len != 0) {
        return Err(CKR_MECHANISM_PARAM_INVALID);
    }
    // SAFETY: forwarded contract.
    Ok(unsafe { bytes(p, len) }?.to_vec())
}

/// The mechanism at `p` and its parameter, copied out of C memory. A
/// parameter whose length is not that of the structure the mechanism takes
/// is CKR_MECHANISM_PARAM_INVALID.
///
/// # Safety
/// `p` must be NULL or point to a CK_MECHANISM whose non-NULL `pParameter`
/// is valid for `ulParameterLen` bytes.
pub(crate) unsafe fn mechanism(
    p: *const CK_MECHANISM,
) -> Result<(CK_MECHANISM_TYPE, Param), CK_RV> {
    // SAFETY: by the caller's contract a non-NULL `p` points to a CK_MECHANISM.
    let m = unsafe { p.as_ref() }.ok_or(CKR_ARGUMENTS_BAD)?;
    if m.pParameter.is_null() {
        if m.ulParameterLen != 0 {
            return Err(CKR_MECHANISM_PARAM_INVALID);
        }
        return Ok((m.mechanism, Param::None));
    }
    let len = usize::try_from(m.ulParameterLen).map_err(|_| CKR_MECHANISM_PARAM_INVALID)?;
    let param = if m.mechanism == CKM_HASH_SLH_DSA {
        if len != std::mem::size_of::<CK_HASH_SIGN_ADDITIONAL_CONTEXT>() {
            return Err(CKR_MECHANISM_PARAM_INVALID);
        }
        // SAFETY: `pParameter` is non-NULL and valid for `len` bytes, the
        // size of the structure; read_unaligned needs no alignment.
        let c = unsafe {
            std::ptr::read_unaligned(m.pParameter as *const CK_HASH_SIGN_ADDITIONAL_CONTEXT)
        };
        Param::HashSign {
            hedge: c.hedgeVariant,
            // SAFETY: the caller's structure says pContext holds ulContextLen bytes.
            context: unsafe { context(c.pContext, c.ulContextLen) }?,
            hash: c.hash,
        }
    } else {
        if len != std::mem::size_of::<CK_SIGN_ADDITIONAL_CONTEXT>() {
            return Err(CKR_MECHANISM_PARAM_INVALID);
        }
        // SAFETY: as above, for CK_SIGN_ADDITIONAL_CONTEXT.
        let c =
            unsafe { std::ptr::read_unaligned(m.pParameter as *const CK_SIGN_ADDITIONAL_CONTEXT) };
        Param::Sign {
            hedge: c.hedgeVariant,
            // SAFETY: as above.
            context: unsafe { context(c.pContext, c.ulContextLen) }?,
        }
    };
    Ok((m.mechanism, param))
}

/// Copies `s` into a blank-padded fixed-width field of CK_INFO and friends.
pub(crate) fn padded<const N: usize>(s: &[u8]) -> [u8; N] {
    let mut out = [b' '; N];
    let n = s.len().min(N);
    out[..n].copy_from_slice(&s[..n]);
    out
}
