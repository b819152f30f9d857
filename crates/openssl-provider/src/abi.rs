//! The OpenSSL 3 provider ABI, written out by hand from the 3.0 headers
//! (`openssl/core.h`, `core_dispatch.h`, `core_names.h`, `core_object.h`)
//! plus the ids 3.4 and 3.5 added. The ABI is a few C structs, integer
//! function ids and parameter names; it has been stable since 3.0, so one
//! binary serves every 3.x release.

use std::ffi::{c_char, c_int, c_uint, c_void};

/// `OSSL_DISPATCH`: a function id and a function pointer of the type that
/// id implies (C casts it; so do we).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Dispatch {
    pub id: c_int,
    pub func: Option<unsafe extern "C" fn()>,
}

/// `OSSL_ALGORITHM`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Algorithm {
    pub names: *const c_char,
    pub props: *const c_char,
    pub dispatch: *const Dispatch,
    pub description: *const c_char,
}

/// `OSSL_PARAM`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Param {
    pub key: *const c_char,
    pub data_type: c_uint,
    pub data: *mut c_void,
    pub data_size: usize,
    pub return_size: usize,
}

/// `OSSL_ITEM`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Item {
    pub id: c_uint,
    pub ptr: *const c_void,
}

/// `OSSL_PARAM_UNMODIFIED`: `return_size` before a responder sets it.
pub const PARAM_UNMODIFIED: usize = usize::MAX;

// OSSL_PARAM data types (core.h).
pub const PARAM_INTEGER: c_uint = 1;
pub const PARAM_UNSIGNED_INTEGER: c_uint = 2;
pub const PARAM_UTF8_STRING: c_uint = 4;
pub const PARAM_OCTET_STRING: c_uint = 5;
pub const PARAM_UTF8_PTR: c_uint = 6;

// Operations (core_dispatch.h).
pub const OP_KEYMGMT: c_int = 10;
pub const OP_SIGNATURE: c_int = 12;
pub const OP_ENCODER: c_int = 20;
pub const OP_DECODER: c_int = 21;

// Upcalls the core offers the provider.
pub const CORE_GET_PARAMS: c_int = 2;
pub const CORE_NEW_ERROR: c_int = 5;
pub const CORE_SET_ERROR_DEBUG: c_int = 6;
pub const CORE_VSET_ERROR: c_int = 7;
pub const CORE_OBJ_ADD_SIGID: c_int = 11;
pub const CORE_OBJ_CREATE: c_int = 12;
pub const BIO_READ_EX: c_int = 42;
pub const BIO_WRITE_EX: c_int = 43;

// The provider's own entry points.
pub const PROVIDER_TEARDOWN: c_int = 1024;
pub const PROVIDER_GETTABLE_PARAMS: c_int = 1025;
pub const PROVIDER_GET_PARAMS: c_int = 1026;
pub const PROVIDER_QUERY_OPERATION: c_int = 1027;
pub const PROVIDER_GET_REASON_STRINGS: c_int = 1029;
pub const PROVIDER_GET_CAPABILITIES: c_int = 1030;

// Key management.
pub const KEYMGMT_NEW: c_int = 1;
pub const KEYMGMT_GEN_INIT: c_int = 2;
pub const KEYMGMT_GEN_SET_PARAMS: c_int = 4;
pub const KEYMGMT_GEN_SETTABLE_PARAMS: c_int = 5;
pub const KEYMGMT_GEN: c_int = 6;
pub const KEYMGMT_GEN_CLEANUP: c_int = 7;
pub const KEYMGMT_LOAD: c_int = 8;
pub const KEYMGMT_FREE: c_int = 10;
pub const KEYMGMT_GET_PARAMS: c_int = 11;
pub const KEYMGMT_GETTABLE_PARAMS: c_int = 12;
pub const KEYMGMT_HAS: c_int = 21;
pub const KEYMGMT_VALIDATE: c_int = 22;
pub const KEYMGMT_MATCH: c_int = 23;
pub const KEYMGMT_IMPORT: c_int = 40;
pub const KEYMGMT_IMPORT_TYPES: c_int = 41;
pub const KEYMGMT_EXPORT: c_int = 42;
pub const KEYMGMT_EXPORT_TYPES: c_int = 43;
pub const KEYMGMT_DUP: c_int = 44;

pub const SELECT_PRIVATE_KEY: c_int = 0x01;
pub const SELECT_PUBLIC_KEY: c_int = 0x02;
pub const SELECT_KEYPAIR: c_int = SELECT_PRIVATE_KEY | SELECT_PUBLIC_KEY;

// Signature (1-25 since 3.0; 26-32 the message API of 3.4).
pub const SIGNATURE_NEWCTX: c_int = 1;
pub const SIGNATURE_SIGN_INIT: c_int = 2;
pub const SIGNATURE_SIGN: c_int = 3;
pub const SIGNATURE_VERIFY_INIT: c_int = 4;
pub const SIGNATURE_VERIFY: c_int = 5;
pub const SIGNATURE_DIGEST_SIGN_INIT: c_int = 8;
pub const SIGNATURE_DIGEST_SIGN_UPDATE: c_int = 9;
pub const SIGNATURE_DIGEST_SIGN_FINAL: c_int = 10;
pub const SIGNATURE_DIGEST_SIGN: c_int = 11;
pub const SIGNATURE_DIGEST_VERIFY_INIT: c_int = 12;
pub const SIGNATURE_DIGEST_VERIFY_UPDATE: c_int = 13;
pub const SIGNATURE_DIGEST_VERIFY_FINAL: c_int = 14;
pub const SIGNATURE_DIGEST_VERIFY: c_int = 15;
pub const SIGNATURE_FREECTX: c_int = 16;
pub const SIGNATURE_DUPCTX: c_int = 17;
pub const SIGNATURE_GET_CTX_PARAMS: c_int = 18;
pub const SIGNATURE_GETTABLE_CTX_PARAMS: c_int = 19;
pub const SIGNATURE_SET_CTX_PARAMS: c_int = 20;
pub const SIGNATURE_SETTABLE_CTX_PARAMS: c_int = 21;
pub const SIGNATURE_QUERY_KEY_TYPES: c_int = 26;
pub const SIGNATURE_SIGN_MESSAGE_INIT: c_int = 27;
pub const SIGNATURE_SIGN_MESSAGE_UPDATE: c_int = 28;
pub const SIGNATURE_SIGN_MESSAGE_FINAL: c_int = 29;
pub const SIGNATURE_VERIFY_MESSAGE_INIT: c_int = 30;
pub const SIGNATURE_VERIFY_MESSAGE_UPDATE: c_int = 31;
pub const SIGNATURE_VERIFY_MESSAGE_FINAL: c_int = 32;

// Encoder and decoder.
pub const CODER_NEWCTX: c_int = 1;
pub const CODER_FREECTX: c_int = 2;
pub const CODER_SET_CTX_PARAMS: c_int = 5;
pub const CODER_SETTABLE_CTX_PARAMS: c_int = 6;
pub const CODER_DOES_SELECTION: c_int = 10;
pub const CODER_ENCODE_OR_DECODE: c_int = 11;
pub const ENCODER_IMPORT_OBJECT: c_int = 20;
pub const ENCODER_FREE_OBJECT: c_int = 21;

/// `OSSL_OBJECT_PKEY` (core_object.h).
pub const OBJECT_PKEY: c_int = 2;

/// `OSSL_CALLBACK`.
pub type Callback = unsafe extern "C" fn(params: *const Param, arg: *mut c_void) -> c_int;
/// `OSSL_PASSPHRASE_CALLBACK` (never called here: we only see decrypted DER).
pub type PassphraseCallback = unsafe extern "C" fn(
    pass: *mut c_char,
    pass_size: usize,
    pass_len: *mut usize,
    params: *const Param,
    arg: *mut c_void,
) -> c_int;

/// A table the host reads through a raw pointer; `Sync` because it is built
/// once, before any pointer to it is handed out, and never written again.
pub struct Shared<T>(pub T);
// SAFETY: the contents are written only while building (before sharing) and
// read-only afterwards; the raw pointers inside point to leaked, immutable data.
unsafe impl<T> Sync for Shared<T> {}
// SAFETY: as above; moving the immutable table between threads is harmless.
unsafe impl<T> Send for Shared<T> {}

/// The end marker of a dispatch table.
pub const DISPATCH_END: Dispatch = Dispatch { id: 0, func: None };

/// Casts a typed `extern "C"` function pointer to the untyped slot of
/// `OSSL_DISPATCH`, as C does with `(void (*)(void))`.
#[macro_export]
macro_rules! dispatch {
    ($id:expr, $f:expr, $ty:ty) => {
        $crate::abi::Dispatch {
            id: $id,
            func: Some({
                let typed: $ty = $f;
                // SAFETY: a function pointer cast to another function pointer
                // type of the same size; OpenSSL casts it back to `$ty`, the
                // type its id implies, before calling it.
                unsafe { std::mem::transmute::<$ty, unsafe extern "C" fn()>(typed) }
            }),
        }
    };
}

/// The terminator of a parameter array.
pub const END: Param = Param {
    key: std::ptr::null(),
    data_type: 0,
    data: std::ptr::null_mut(),
    data_size: 0,
    return_size: 0,
};

/// A parameter pointing at `data` (for arrays we build and hand to the host).
pub fn build(
    key: &'static std::ffi::CStr,
    data_type: c_uint,
    data: *mut c_void,
    size: usize,
) -> Param {
    Param {
        key: key.as_ptr(),
        data_type,
        data,
        data_size: size,
        return_size: PARAM_UNMODIFIED,
    }
}
