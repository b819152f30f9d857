//! How an application finds the functions: C_GetFunctionList (the 2.40
//! list) and PKCS#11 3.x's C_GetInterfaceList / C_GetInterface, which
//! offer interface "PKCS 11" at version 3.2 (the default) and 2.40.

#![allow(non_snake_case)]

use std::os::raw::c_char;

use cryptoki_sys::*;

use super::crypto::*;
use super::general::*;
use super::objects::*;
use super::ptr::{guard, out};
use super::stubs::*;

/// "PKCS 11", NUL-terminated, as CK_INTERFACE names it.
static NAME: &[u8; 8] = b"PKCS 11\0";

/// The interfaces, the default first.
fn interfaces() -> [CK_INTERFACE; 2] {
    [
        CK_INTERFACE {
            pInterfaceName: NAME.as_ptr() as *mut CK_UTF8CHAR,
            pFunctionList: &FUNCTIONS_3_2 as *const CK_FUNCTION_LIST_3_2 as *mut _,
            flags: 0,
        },
        CK_INTERFACE {
            pInterfaceName: NAME.as_ptr() as *mut CK_UTF8CHAR,
            pFunctionList: &FUNCTIONS_2_40 as *const CK_FUNCTION_LIST as *mut _,
            flags: 0,
        },
    ]
}

/// Interfaces handed out by pointer (C_GetInterface): they must outlive
/// the call, so they are statics. CK_INTERFACE holds raw pointers, which
/// are not `Sync`; these point to immutable statics only.
struct Interfaces([CK_INTERFACE; 2]);
// SAFETY: the pointers inside are to immutable statics (the name and the
// function lists) that are never written through.
unsafe impl Sync for Interfaces {}
// SAFETY: as above; nothing in them belongs to a thread.
unsafe impl Send for Interfaces {}

static INTERFACES: std::sync::OnceLock<Interfaces> = std::sync::OnceLock::new();

fn versions() -> [CK_VERSION; 2] {
    [FUNCTIONS_3_2.version, FUNCTIONS_2_40.version]
}

/// Returns the PKCS#11 2.40 function list.
///
/// # Safety
/// `ppFunctionList` must be NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn C_GetFunctionList(ppFunctionList: *mut *mut CK_FUNCTION_LIST) -> CK_RV {
    guard(|| {
        // SAFETY: checked for NULL by `out`; the caller's contract covers the rest.
        let p = unsafe { out(ppFunctionList) }?;
        *p = &FUNCTIONS_2_40 as *const CK_FUNCTION_LIST as *mut CK_FUNCTION_LIST;
        Ok(())
    })
}

/// Lists the interfaces (two-call convention on `pulCount`).
///
/// # Safety
/// `pulCount` must be NULL or valid for a read and write; a non-NULL
/// `pInterfacesList` valid for `*pulCount` CK_INTERFACEs.
#[no_mangle]
pub unsafe extern "C" fn C_GetInterfaceList(
    pInterfacesList: *mut CK_INTERFACE,
    pulCount: *mut CK_ULONG,
) -> CK_RV {
    guard(|| {
        // SAFETY: checked for NULL by `out`.
        let count = unsafe { out(pulCount) }?;
        let all = interfaces();
        let n = all.len() as CK_ULONG;
        if pInterfacesList.is_null() {
            *count = n;
            return Ok(());
        }
        if *count < n {
            *count = n;
            return Err(CKR_BUFFER_TOO_SMALL);
        }
        for (i, itf) in all.into_iter().enumerate() {
            // SAFETY: the list has room for `*count >= n` interfaces.
            unsafe { pInterfacesList.add(i).write(itf) };
        }
        *count = n;
        Ok(())
    })
}

/// The interface of a name (NULL: the default, 3.2), a version (NULL: any)
/// and flags (we offer none, so any flag asked for matches nothing).
///
/// # Safety
/// `pInterfaceName` NULL or NUL-terminated; `pVersion` NULL or a
/// CK_VERSION; `ppInterface` NULL or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn C_GetInterface(
    pInterfaceName: *mut CK_UTF8CHAR,
    pVersion: *mut CK_VERSION,
    ppInterface: *mut *mut CK_INTERFACE,
    flags: CK_FLAGS,
) -> CK_RV {
    guard(|| {
        // SAFETY: checked for NULL by `out`.
        let slot = unsafe { out(ppInterface) }?;
        if !pInterfaceName.is_null() {
            // SAFETY: a non-NULL name is NUL-terminated (the caller's contract).
            let name = unsafe { std::ffi::CStr::from_ptr(pInterfaceName as *const c_char) };
            if name.to_bytes() != &NAME[..7] {
                return Err(CKR_ARGUMENTS_BAD);
            }
        }
        // SAFETY: a non-NULL version points to a CK_VERSION.
        let wanted = unsafe { pVersion.as_ref() };
        if flags != 0 {
            return Err(CKR_ARGUMENTS_BAD);
        }
        let i = match wanted {
            None => 0,
            Some(v) => versions()
                .iter()
                .position(|w| w.major == v.major && w.minor == v.minor)
                .ok_or(CKR_ARGUMENTS_BAD)?,
        };
        let all = INTERFACES.get_or_init(|| Interfaces(interfaces()));
        *slot = &all.0[i] as *const CK_INTERFACE as *mut CK_INTERFACE;
        Ok(())
    })
}

// The function lists: every entry filled, the unimplemented ones with the
// stubs of `stubs.rs`.

/// A function list of type `$list` and `$version` with an entry for each
/// name, each the function of that name (implemented, or a stub of
/// `stubs.rs`): the 2.40 entries first, in the header's order, then the
/// 3.0 entries `$extra` (the 3.2 list).
macro_rules! function_list {
    ($list:ident, $major:expr, $minor:expr $(, $extra:ident)* $(,)?) => {
        function_list!(@all $list, $major, $minor;
            C_Initialize, C_Finalize, C_GetInfo, C_GetFunctionList, C_GetSlotList,
            C_GetSlotInfo, C_GetTokenInfo, C_GetMechanismList, C_GetMechanismInfo, C_InitToken,
            C_InitPIN, C_SetPIN, C_OpenSession, C_CloseSession, C_CloseAllSessions,
            C_GetSessionInfo, C_GetOperationState, C_SetOperationState, C_Login, C_Logout,
            C_CreateObject, C_CopyObject, C_DestroyObject, C_GetObjectSize,
            C_GetAttributeValue, C_SetAttributeValue, C_FindObjectsInit, C_FindObjects,
            C_FindObjectsFinal, C_EncryptInit, C_Encrypt, C_EncryptUpdate, C_EncryptFinal,
            C_DecryptInit, C_Decrypt, C_DecryptUpdate, C_DecryptFinal, C_DigestInit, C_Digest,
            C_DigestUpdate, C_DigestKey, C_DigestFinal, C_SignInit, C_Sign, C_SignUpdate,
            C_SignFinal, C_SignRecoverInit, C_SignRecover, C_VerifyInit, C_Verify,
            C_VerifyUpdate, C_VerifyFinal, C_VerifyRecoverInit, C_VerifyRecover,
            C_DigestEncryptUpdate, C_DecryptDigestUpdate, C_SignEncryptUpdate,
            C_DecryptVerifyUpdate, C_GenerateKey, C_GenerateKeyPair, C_WrapKey, C_UnwrapKey,
            C_DeriveKey, C_SeedRandom, C_GenerateRandom, C_GetFunctionStatus, C_CancelFunction,
            C_WaitForSlotEvent
            $(, $extra)*)
    };
    (@all $list:ident, $major:expr, $minor:expr; $($name:ident),*) => {
        $list {
            version: CK_VERSION { major: $major, minor: $minor },
            $($name: Some($name),)*
        }
    };
}

pub(crate) static FUNCTIONS_3_2: CK_FUNCTION_LIST_3_2 = function_list!(
    CK_FUNCTION_LIST_3_2,
    3,
    2,
    C_GetInterfaceList,
    C_GetInterface,
    C_LoginUser,
    C_SessionCancel,
    C_MessageEncryptInit,
    C_EncryptMessage,
    C_EncryptMessageBegin,
    C_EncryptMessageNext,
    C_MessageEncryptFinal,
    C_MessageDecryptInit,
    C_DecryptMessage,
    C_DecryptMessageBegin,
    C_DecryptMessageNext,
    C_MessageDecryptFinal,
    C_MessageSignInit,
    C_SignMessage,
    C_SignMessageBegin,
    C_SignMessageNext,
    C_MessageSignFinal,
    C_MessageVerifyInit,
    C_VerifyMessage,
    C_VerifyMessageBegin,
    C_VerifyMessageNext,
    C_MessageVerifyFinal,
    C_EncapsulateKey,
    C_DecapsulateKey,
    C_VerifySignatureInit,
    C_VerifySignature,
    C_VerifySignatureUpdate,
    C_VerifySignatureFinal,
    C_GetSessionValidationFlags,
    C_AsyncComplete,
    C_AsyncGetID,
    C_AsyncJoin,
    C_WrapKeyAuthenticated,
    C_UnwrapKeyAuthenticated,
);

pub(crate) static FUNCTIONS_2_40: CK_FUNCTION_LIST = function_list!(CK_FUNCTION_LIST, 2, 40);
