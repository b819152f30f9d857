//! Entry points this module does not implement: each returns
//! `CKR_FUNCTION_NOT_SUPPORTED` and reads none of its arguments.
//! Generated from the signatures of cryptoki-sys 0.5's `CK_FUNCTION_LIST_3_2`
//! (one function per entry the module leaves out).

#![allow(non_snake_case)]

use cryptoki_sys::*;
use std::os::raw::c_void;

pub(crate) extern "C" fn C_GetOperationState(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SetOperationState(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: CK_OBJECT_HANDLE,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_CopyObject(
    _: CK_SESSION_HANDLE,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_ATTRIBUTE,
    _: CK_ULONG,
    _: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_GetObjectSize(
    _: CK_SESSION_HANDLE,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SetAttributeValue(
    _: CK_SESSION_HANDLE,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_ATTRIBUTE,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_EncryptInit(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_Encrypt(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_EncryptUpdate(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_EncryptFinal(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecryptInit(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_Decrypt(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecryptUpdate(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecryptFinal(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DigestInit(_: CK_SESSION_HANDLE, _: *mut CK_MECHANISM) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_Digest(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DigestUpdate(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DigestKey(_: CK_SESSION_HANDLE, _: CK_OBJECT_HANDLE) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DigestFinal(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SignRecoverInit(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SignRecover(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_VerifyRecoverInit(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_VerifyRecover(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DigestEncryptUpdate(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecryptDigestUpdate(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SignEncryptUpdate(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecryptVerifyUpdate(
    _: CK_SESSION_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_GenerateKey(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: *mut CK_ATTRIBUTE,
    _: CK_ULONG,
    _: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_WrapKey(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_UnwrapKey(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_ATTRIBUTE,
    _: CK_ULONG,
    _: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DeriveKey(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_ATTRIBUTE,
    _: CK_ULONG,
    _: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SeedRandom(_: CK_SESSION_HANDLE, _: *mut CK_BYTE, _: CK_ULONG) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_GetFunctionStatus(_: CK_SESSION_HANDLE) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_CancelFunction(_: CK_SESSION_HANDLE) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_WaitForSlotEvent(
    _: CK_FLAGS,
    _: *mut CK_SLOT_ID,
    _: *mut c_void,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_LoginUser(
    _: CK_SESSION_HANDLE,
    _: CK_USER_TYPE,
    _: *mut CK_UTF8CHAR,
    _: CK_ULONG,
    _: *mut CK_UTF8CHAR,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SessionCancel(_: CK_SESSION_HANDLE, _: CK_FLAGS) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_MessageEncryptInit(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_EncryptMessage(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_EncryptMessageBegin(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_EncryptMessageNext(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
    _: CK_FLAGS,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_MessageEncryptFinal(_: CK_SESSION_HANDLE) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_MessageDecryptInit(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecryptMessage(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecryptMessageBegin(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecryptMessageNext(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
    _: CK_FLAGS,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_MessageDecryptFinal(_: CK_SESSION_HANDLE) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_MessageSignInit(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SignMessage(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SignMessageBegin(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_SignMessageNext(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_MessageSignFinal(_: CK_SESSION_HANDLE) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_MessageVerifyInit(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_VerifyMessage(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_VerifyMessageBegin(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_VerifyMessageNext(
    _: CK_SESSION_HANDLE,
    _: *mut c_void,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_MessageVerifyFinal(_: CK_SESSION_HANDLE) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_EncapsulateKey(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_ATTRIBUTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
    _: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_DecapsulateKey(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_ATTRIBUTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_GetSessionValidationFlags(
    _: CK_SESSION_HANDLE,
    _: CK_SESSION_VALIDATION_FLAGS_TYPE,
    _: *mut CK_FLAGS,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_AsyncComplete(
    _: CK_SESSION_HANDLE,
    _: *mut CK_UTF8CHAR,
    _: *mut CK_ASYNC_DATA,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_AsyncGetID(
    _: CK_SESSION_HANDLE,
    _: *mut CK_UTF8CHAR,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_AsyncJoin(
    _: CK_SESSION_HANDLE,
    _: *mut CK_UTF8CHAR,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_WrapKeyAuthenticated(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: *mut CK_ULONG,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}

pub(crate) extern "C" fn C_UnwrapKeyAuthenticated(
    _: CK_SESSION_HANDLE,
    _: *mut CK_MECHANISM,
    _: CK_OBJECT_HANDLE,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_ATTRIBUTE,
    _: CK_ULONG,
    _: *mut CK_BYTE,
    _: CK_ULONG,
    _: *mut CK_OBJECT_HANDLE,
) -> CK_RV {
    CKR_FUNCTION_NOT_SUPPORTED
}
