//! Object functions and key-pair generation.

#![allow(non_snake_case)]

use cryptoki_sys::*;
use sphincs::any::{AnyAlgorithm, AnySigningKey};

use super::ptr::{guard, mechanism, out, template};
use crate::mechanism::Param;
use crate::object::{Object, Read};
use crate::state::ready;

pub(crate) unsafe extern "C" fn C_CreateObject(
    hSession: CK_SESSION_HANDLE,
    pTemplate: *mut CK_ATTRIBUTE,
    ulCount: CK_ULONG,
    phObject: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        g.session(hSession)?;
        // SAFETY: checked for NULL by `out`.
        let handle = unsafe { out(phObject) }?;
        // SAFETY: `pTemplate` holds `ulCount` attributes (caller's contract).
        let t = unsafe { template(pTemplate, ulCount) }?;
        let o = Object::create(&t)?;
        *handle = g.add_object(hSession, o)?;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_DestroyObject(
    hSession: CK_SESSION_HANDLE,
    hObject: CK_OBJECT_HANDLE,
) -> CK_RV {
    guard(|| ready()?.destroy_object(hSession, hObject))
}

/// Fills each attribute as §5.7 has it: the value, or its length when
/// pValue is NULL; CK_UNAVAILABLE_INFORMATION and CKR_ATTRIBUTE_SENSITIVE,
/// CKR_ATTRIBUTE_TYPE_INVALID or CKR_BUFFER_TOO_SMALL for those that cannot
/// be given (every attribute is still processed; one of those codes is
/// returned).
pub(crate) unsafe extern "C" fn C_GetAttributeValue(
    hSession: CK_SESSION_HANDLE,
    hObject: CK_OBJECT_HANDLE,
    pTemplate: *mut CK_ATTRIBUTE,
    ulCount: CK_ULONG,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        g.session(hSession)?;
        // A stored private key's attributes read as they did before it was
        // stored (a non-sensitive one's value included): decrypted first.
        g.object(hObject)?;
        g.unlock_for_use(hObject);
        let o = g.object(hObject)?;
        if ulCount == 0 {
            return Ok(());
        }
        if pTemplate.is_null() {
            return Err(CKR_ARGUMENTS_BAD);
        }
        let count = usize::try_from(ulCount).map_err(|_| CKR_ARGUMENTS_BAD)?;
        // SAFETY: `pTemplate` is non-NULL and holds `ulCount` attributes
        // the caller lets us write (the caller's contract).
        let attrs = unsafe { std::slice::from_raw_parts_mut(pTemplate, count) };
        let mut result = Ok(());
        for a in attrs {
            let value = match o.read(a.type_) {
                Read::Value(v) => v,
                Read::Sensitive => {
                    a.ulValueLen = CK_UNAVAILABLE_INFORMATION;
                    result = Err(CKR_ATTRIBUTE_SENSITIVE);
                    continue;
                }
                Read::Invalid => {
                    a.ulValueLen = CK_UNAVAILABLE_INFORMATION;
                    result = Err(CKR_ATTRIBUTE_TYPE_INVALID);
                    continue;
                }
            };
            let len = value.len() as CK_ULONG;
            if a.pValue.is_null() {
                a.ulValueLen = len;
            } else if a.ulValueLen < len {
                a.ulValueLen = CK_UNAVAILABLE_INFORMATION;
                result = Err(CKR_BUFFER_TOO_SMALL);
            } else {
                // SAFETY: pValue is non-NULL with room for ulValueLen >= len
                // bytes; `value` is our own buffer.
                unsafe {
                    std::ptr::copy_nonoverlapping(value.as_ptr(), a.pValue as *mut u8, value.len())
                };
                a.ulValueLen = len;
            }
        }
        result
    })
}

pub(crate) unsafe extern "C" fn C_FindObjectsInit(
    hSession: CK_SESSION_HANDLE,
    pTemplate: *mut CK_ATTRIBUTE,
    ulCount: CK_ULONG,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        g.session(hSession)?;
        // SAFETY: as in C_CreateObject.
        let t = unsafe { template(pTemplate, ulCount) }?;
        g.find_init(hSession, &t)
    })
}

pub(crate) unsafe extern "C" fn C_FindObjects(
    hSession: CK_SESSION_HANDLE,
    phObject: *mut CK_OBJECT_HANDLE,
    ulMaxObjectCount: CK_ULONG,
    pulObjectCount: *mut CK_ULONG,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        let s = g.session(hSession)?;
        let found = s.find.as_mut().ok_or(CKR_OPERATION_NOT_INITIALIZED)?;
        // SAFETY: checked for NULL by `out`.
        let count = unsafe { out(pulObjectCount) }?;
        let max = usize::try_from(ulMaxObjectCount).map_err(|_| CKR_ARGUMENTS_BAD)?;
        let n = max.min(found.len());
        if n > 0 && phObject.is_null() {
            return Err(CKR_ARGUMENTS_BAD);
        }
        for (i, h) in found.drain(..n).enumerate() {
            // SAFETY: the array has room for `ulMaxObjectCount >= n` handles.
            unsafe { phObject.add(i).write(h) };
        }
        *count = n as CK_ULONG;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_FindObjectsFinal(hSession: CK_SESSION_HANDLE) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        let s = g.session(hSession)?;
        s.find.take().ok_or(CKR_OPERATION_NOT_INITIALIZED)?;
        Ok(())
    })
}

/// CKM_SLH_DSA_KEY_PAIR_GEN. The key is generated outside the lock; the
/// checks are made before and again after (the session may be gone).
pub(crate) unsafe extern "C" fn C_GenerateKeyPair(
    hSession: CK_SESSION_HANDLE,
    pMechanism: *mut CK_MECHANISM,
    pPublicKeyTemplate: *mut CK_ATTRIBUTE,
    ulPublicKeyAttributeCount: CK_ULONG,
    pPrivateKeyTemplate: *mut CK_ATTRIBUTE,
    ulPrivateKeyAttributeCount: CK_ULONG,
    phPublicKey: *mut CK_OBJECT_HANDLE,
    phPrivateKey: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    guard(|| {
        let (public_t, private_t) = {
            let mut g = ready()?;
            g.session(hSession)?;
            // SAFETY: `pMechanism` is NULL or a CK_MECHANISM (caller's contract).
            let (mech, param) = unsafe { mechanism(pMechanism) }?;
            if mech != CKM_SLH_DSA_KEY_PAIR_GEN {
                return Err(CKR_MECHANISM_INVALID);
            }
            if param != Param::None {
                return Err(CKR_MECHANISM_PARAM_INVALID);
            }
            if phPublicKey.is_null() || phPrivateKey.is_null() {
                return Err(CKR_ARGUMENTS_BAD);
            }
            // SAFETY: each template holds its count of attributes.
            let public_t = unsafe { template(pPublicKeyTemplate, ulPublicKeyAttributeCount) }?;
            // SAFETY: as above.
            let private_t = unsafe { template(pPrivateKeyTemplate, ulPrivateKeyAttributeCount) }?;
            (public_t, private_t)
        };
        let alg = Object::check_pair(&public_t, &private_t)?;
        // Check the session may store both before the work of generating.
        {
            let mut g = ready()?;
            for (t, private_default) in [(&public_t, false), (&private_t, true)] {
                let token = t.bool(CKA_TOKEN)?.unwrap_or(false);
                let private = t.bool(CKA_PRIVATE)?.unwrap_or(private_default);
                g.may_write_flags(hSession, token, private)?;
            }
        }
        let sk = AnySigningKey::generate(AnyAlgorithm::SlhDsa(alg), 1)
            .map_err(|_| CKR_FUNCTION_FAILED)?;
        let (public, private) = Object::generated_pair(alg, sk, &public_t, &private_t)?;
        let mut g = ready()?;
        g.check_pair(hSession, &public, &private)?;
        let hp = g.add_object(hSession, public)?;
        let hs = match g.add_object(hSession, private) {
            Ok(hs) => hs,
            Err(rv) => {
                // No half pair (a full disk took the private key's file).
                g.discard(hp);
                return Err(rv);
            }
        };
        // SAFETY: both checked non-NULL above; valid for a write (caller's contract).
        unsafe {
            phPublicKey.write(hp);
            phPrivateKey.write(hs);
        }
        Ok(())
    })
}
