//! Signing and verification: C_Sign*, C_Verify* and PKCS#11 3.2's
//! C_VerifySignature*.

#![allow(non_snake_case)]

use cryptoki_sys::*;

use super::ptr::{bytes, guard, mechanism, out};
use crate::operations::{SignStep, VerifyKind};
use crate::state::ready;

pub(crate) unsafe extern "C" fn C_SignInit(
    hSession: CK_SESSION_HANDLE,
    pMechanism: *mut CK_MECHANISM,
    hKey: CK_OBJECT_HANDLE,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        g.session(hSession)?;
        // SAFETY: `pMechanism` is NULL or a CK_MECHANISM (caller's contract).
        let (mech, param) = unsafe { mechanism(pMechanism) }?;
        g.sign_init(hSession, mech, param, hKey)
    })
}

/// C_Sign and C_SignFinal: the two-call convention on the signature's
/// length, then the signature, made outside the lock.
///
/// # Safety
/// `data` as for `bytes` (None for C_SignFinal); `plen` NULL or valid for
/// read and write; a non-NULL `p` valid for `*plen` bytes.
unsafe fn sign_out(
    h: CK_SESSION_HANDLE,
    data: Option<(*const u8, CK_ULONG)>,
    p: *mut u8,
    plen: *mut CK_ULONG,
) -> Result<(), CK_RV> {
    // SAFETY: checked for NULL by `out`.
    let len = unsafe { out(plen) }?;
    let room = usize::try_from(*len).unwrap_or(usize::MAX);
    let message = match data {
        // SAFETY: forwarded contract.
        Some((d, n)) => Some(unsafe { bytes(d, n) }?),
        None => None,
    };
    let step = ready()?.sign_step(h, data.is_some(), !p.is_null(), room)?;
    let op = match step {
        SignStep::Length(n, too_small) => {
            *len = n as CK_ULONG;
            return if too_small {
                Err(CKR_BUFFER_TOO_SMALL)
            } else {
                Ok(())
            };
        }
        SignStep::Run(op) => op,
    };
    let sig = match message {
        Some(m) => op.sign(m)?,
        None => op.sign_pending()?,
    };
    // SAFETY: `p` is non-NULL (else SignStep::Length) with room for
    // `*len >= sig_len` bytes; `sig` is our own buffer.
    unsafe { std::ptr::copy_nonoverlapping(sig.as_ptr(), p, sig.len()) };
    *len = sig.len() as CK_ULONG;
    Ok(())
}

pub(crate) unsafe extern "C" fn C_Sign(
    hSession: CK_SESSION_HANDLE,
    pData: *mut CK_BYTE,
    ulDataLen: CK_ULONG,
    pSignature: *mut CK_BYTE,
    pulSignatureLen: *mut CK_ULONG,
) -> CK_RV {
    // SAFETY: the caller's contract on the four pointers.
    guard(|| unsafe {
        sign_out(
            hSession,
            Some((pData, ulDataLen)),
            pSignature,
            pulSignatureLen,
        )
    })
}

pub(crate) unsafe extern "C" fn C_SignUpdate(
    hSession: CK_SESSION_HANDLE,
    pPart: *mut CK_BYTE,
    ulPartLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        // SAFETY: `pPart` NULL (with length 0) or valid for `ulPartLen` bytes.
        let part = unsafe { bytes(pPart, ulPartLen) }?;
        ready()?.sign_update(hSession, part)
    })
}

pub(crate) unsafe extern "C" fn C_SignFinal(
    hSession: CK_SESSION_HANDLE,
    pSignature: *mut CK_BYTE,
    pulSignatureLen: *mut CK_ULONG,
) -> CK_RV {
    // SAFETY: the caller's contract on the two pointers.
    guard(|| unsafe { sign_out(hSession, None, pSignature, pulSignatureLen) })
}

/// C_VerifyInit and C_VerifySignatureInit.
unsafe fn verify_init(
    h: CK_SESSION_HANDLE,
    kind: VerifyKind,
    m: *const CK_MECHANISM,
    key: CK_OBJECT_HANDLE,
    signature: Option<Vec<u8>>,
) -> Result<(), CK_RV> {
    let mut g = ready()?;
    g.session(h)?;
    // SAFETY: forwarded contract.
    let (mech, param) = unsafe { mechanism(m) }?;
    g.verify_init(h, kind, mech, param, key, signature)
}

pub(crate) unsafe extern "C" fn C_VerifyInit(
    hSession: CK_SESSION_HANDLE,
    pMechanism: *mut CK_MECHANISM,
    hKey: CK_OBJECT_HANDLE,
) -> CK_RV {
    // SAFETY: `pMechanism` is NULL or a CK_MECHANISM.
    guard(|| unsafe { verify_init(hSession, VerifyKind::Verify, pMechanism, hKey, None) })
}

pub(crate) unsafe extern "C" fn C_Verify(
    hSession: CK_SESSION_HANDLE,
    pData: *mut CK_BYTE,
    ulDataLen: CK_ULONG,
    pSignature: *mut CK_BYTE,
    ulSignatureLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        // SAFETY: each NULL (with length 0) or valid for its length.
        let (data, sig) = unsafe { (bytes(pData, ulDataLen)?, bytes(pSignature, ulSignatureLen)?) };
        let op = ready()?.verify_take(hSession, VerifyKind::Verify, true)?;
        op.verify(data, sig)
    })
}

pub(crate) unsafe extern "C" fn C_VerifyUpdate(
    hSession: CK_SESSION_HANDLE,
    pPart: *mut CK_BYTE,
    ulPartLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        // SAFETY: NULL (with length 0) or valid for `ulPartLen` bytes.
        let part = unsafe { bytes(pPart, ulPartLen) }?;
        ready()?.verify_update(hSession, VerifyKind::Verify, part)
    })
}

pub(crate) unsafe extern "C" fn C_VerifyFinal(
    hSession: CK_SESSION_HANDLE,
    pSignature: *mut CK_BYTE,
    ulSignatureLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        // SAFETY: NULL (with length 0) or valid for `ulSignatureLen` bytes.
        let sig = unsafe { bytes(pSignature, ulSignatureLen) }?;
        let op = ready()?.verify_take(hSession, VerifyKind::Verify, false)?;
        op.verify_pending(Some(sig))
    })
}

pub(crate) unsafe extern "C" fn C_VerifySignatureInit(
    hSession: CK_SESSION_HANDLE,
    pMechanism: *mut CK_MECHANISM,
    hKey: CK_OBJECT_HANDLE,
    pSignature: *mut CK_BYTE,
    ulSignatureLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        // SAFETY: NULL (with length 0) or valid for `ulSignatureLen` bytes.
        let sig = unsafe { bytes(pSignature, ulSignatureLen) }?.to_vec();
        let kind = VerifyKind::VerifySignature;
        // SAFETY: `pMechanism` is NULL or a CK_MECHANISM.
        unsafe { verify_init(hSession, kind, pMechanism, hKey, Some(sig)) }
    })
}

pub(crate) unsafe extern "C" fn C_VerifySignature(
    hSession: CK_SESSION_HANDLE,
    pData: *mut CK_BYTE,
    ulDataLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        // SAFETY: NULL (with length 0) or valid for `ulDataLen` bytes.
        let data = unsafe { bytes(pData, ulDataLen) }?;
        let op = ready()?.verify_take(hSession, VerifyKind::VerifySignature, true)?;
        op.verify(data, op.signature.as_deref().unwrap_or_default())
    })
}

pub(crate) unsafe extern "C" fn C_VerifySignatureUpdate(
    hSession: CK_SESSION_HANDLE,
    pPart: *mut CK_BYTE,
    ulPartLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        // SAFETY: NULL (with length 0) or valid for `ulPartLen` bytes.
        let part = unsafe { bytes(pPart, ulPartLen) }?;
        ready()?.verify_update(hSession, VerifyKind::VerifySignature, part)
    })
}

pub(crate) unsafe extern "C" fn C_VerifySignatureFinal(hSession: CK_SESSION_HANDLE) -> CK_RV {
    guard(|| {
        let op = ready()?.verify_take(hSession, VerifyKind::VerifySignature, false)?;
        op.verify_pending(None)
    })
}
