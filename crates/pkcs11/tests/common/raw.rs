//! The module's function list called directly (libloading opens the same
//! .so), for what cryptoki's typed API cannot say: NULL pointers, short
//! buffers, malformed templates and parameters, exact return values.

#![allow(dead_code)]

use std::ptr::{null, null_mut};
use std::sync::OnceLock;

use cryptoki_sys::*;

pub struct Raw {
    _lib: libloading::Library,
    pub f: &'static CK_FUNCTION_LIST_3_2,
}

/// The loaded module's 3.2 function list (C_GetInterface, default interface).
pub fn raw() -> &'static Raw {
    static RAW: OnceLock<Raw> = OnceLock::new();
    RAW.get_or_init(|| {
        // SAFETY: loading our own module runs no initialisers of note.
        let lib = unsafe { libloading::Library::new(super::library()) }.expect("dlopen");
        // SAFETY: C_GetInterface has this signature (PKCS#11 3.x).
        let get: libloading::Symbol<
            unsafe extern "C" fn(
                *mut u8,
                *mut CK_VERSION,
                *mut *mut CK_INTERFACE,
                CK_FLAGS,
            ) -> CK_RV,
        > = unsafe { lib.get(b"C_GetInterface\0") }.expect("C_GetInterface");
        let mut itf: *mut CK_INTERFACE = null_mut();
        // SAFETY: valid out-pointer; NULL name and version ask for the default.
        assert_eq!(unsafe { get(null_mut(), null_mut(), &mut itf, 0) }, CKR_OK);
        // SAFETY: the module returned a pointer to a static CK_INTERFACE whose
        // list is a static CK_FUNCTION_LIST_3_2 (version 3.2, checked by the tests).
        let f = unsafe { &*((*itf).pFunctionList as *const CK_FUNCTION_LIST_3_2) };
        Raw { _lib: lib, f }
    })
}

/// Calls one function of the list: `call!(C_Login(h, CKU_USER, p, n))`.
/// The arguments are expanded inside the `unsafe` call on purpose: they
/// are the raw pointers and lengths under test, and calling with them is
/// the unsafe operation.
#[allow(unused_macros)] // tests/conformance.rs calls none
macro_rules! call {
    ($name:ident ( $($arg:expr),* $(,)? )) => {{
        let f = common::raw::raw().f.$name.expect(stringify!($name));
        #[allow(unused_unsafe)]
        // SAFETY: the tests pass what each function's contract asks for
        // (or the NULLs and lengths the module must refuse).
        unsafe { f($($arg),*) }
    }};
}

pub fn ulong(v: &CK_ULONG) -> CK_ATTRIBUTE {
    CK_ATTRIBUTE {
        type_: 0,
        pValue: v as *const CK_ULONG as *mut _,
        ulValueLen: std::mem::size_of::<CK_ULONG>() as CK_ULONG,
    }
}

/// A template entry over `bytes`.
pub fn attr(t: CK_ATTRIBUTE_TYPE, bytes: &[u8]) -> CK_ATTRIBUTE {
    CK_ATTRIBUTE {
        type_: t,
        pValue: if bytes.is_empty() {
            null_mut()
        } else {
            bytes.as_ptr() as *mut _
        },
        ulValueLen: bytes.len() as CK_ULONG,
    }
}

pub fn ul(v: CK_ULONG) -> Vec<u8> {
    v.to_ne_bytes().to_vec()
}

pub fn b(v: bool) -> Vec<u8> {
    vec![u8::from(v)]
}

/// Owned template: types and value bytes; `.raw()` gives CK_ATTRIBUTEs
/// pointing into it.
pub struct Tmpl(pub Vec<(CK_ATTRIBUTE_TYPE, Vec<u8>)>);

impl Tmpl {
    pub fn raw(&self) -> Vec<CK_ATTRIBUTE> {
        self.0.iter().map(|(t, v)| attr(*t, v)).collect()
    }
}

pub fn mech(m: CK_MECHANISM_TYPE) -> CK_MECHANISM {
    CK_MECHANISM {
        mechanism: m,
        pParameter: null_mut(),
        ulParameterLen: 0,
    }
}

/// A CK_MECHANISM over a parameter structure `p` (kept alive by the caller).
pub fn mech_with<T>(m: CK_MECHANISM_TYPE, p: &T) -> CK_MECHANISM {
    CK_MECHANISM {
        mechanism: m,
        pParameter: p as *const T as *mut _,
        ulParameterLen: std::mem::size_of::<T>() as CK_ULONG,
    }
}

pub fn null_ptr<T>() -> *const T {
    null()
}

/// The module's one slot.
pub const SLOT: CK_SLOT_ID = 1;

/// Calls one function of the list, from this module (where `call!`'s
/// `common::` path does not resolve).
macro_rules! here {
    ($name:ident ( $($arg:expr),* $(,)? )) => {{
        let f = raw().f.$name.expect(stringify!($name));
        // SAFETY: the helpers below pass valid buffers and out-pointers.
        unsafe { f($($arg),*) }
    }};
}

/// A serial session, read/write when `rw`.
pub fn open(rw: bool) -> CK_SESSION_HANDLE {
    let mut h = 0;
    let flags = CKF_SERIAL_SESSION | if rw { CKF_RW_SESSION } else { 0 };
    assert_eq!(
        here!(C_OpenSession(SLOT, flags, null_mut(), None, &mut h)),
        CKR_OK
    );
    h
}

/// C_Login's return value.
pub fn login(h: CK_SESSION_HANDLE, user: CK_USER_TYPE, pin: &str) -> CK_RV {
    here!(C_Login(
        h,
        user,
        pin.as_ptr() as *mut _,
        pin.len() as CK_ULONG
    ))
}

/// The objects C_FindObjects* finds for `t` (at most 16).
pub fn find(h: CK_SESSION_HANDLE, t: &Tmpl) -> Vec<CK_OBJECT_HANDLE> {
    let raw = t.raw();
    let (ptr, len) = (raw.as_ptr() as *mut _, raw.len() as CK_ULONG);
    assert_eq!(here!(C_FindObjectsInit(h, ptr, len)), CKR_OK);
    let mut out = [0 as CK_OBJECT_HANDLE; 16];
    let mut n: CK_ULONG = 0;
    assert_eq!(
        here!(C_FindObjects(h, out.as_mut_ptr(), 16, &mut n)),
        CKR_OK
    );
    assert_eq!(here!(C_FindObjectsFinal(h)), CKR_OK);
    out[..n as usize].to_vec()
}

/// The token's flags (C_GetTokenInfo).
pub fn token_flags() -> CK_FLAGS {
    let mut info = CK_TOKEN_INFO::default();
    assert_eq!(here!(C_GetTokenInfo(SLOT, &mut info)), CKR_OK);
    info.flags
}

/// C_InitPIN's return value (the SO logged in on `h`).
pub fn init_pin(h: CK_SESSION_HANDLE, pin: &str) -> CK_RV {
    here!(C_InitPIN(h, pin.as_ptr() as *mut _, pin.len() as CK_ULONG))
}

/// C_GenerateKeyPair with these templates: the return value and the
/// handles.
pub fn generate_pair(
    h: CK_SESSION_HANDLE,
    public: &Tmpl,
    private: &Tmpl,
) -> (CK_RV, CK_OBJECT_HANDLE, CK_OBJECT_HANDLE) {
    let m = mech(CKM_SLH_DSA_KEY_PAIR_GEN);
    let (mut p, mut s) = (0, 0);
    let (pt, st) = (public.raw(), private.raw());
    let rv = here!(C_GenerateKeyPair(
        h,
        &m as *const _ as *mut _,
        pt.as_ptr() as *mut _,
        pt.len() as CK_ULONG,
        st.as_ptr() as *mut _,
        st.len() as CK_ULONG,
        &mut p,
        &mut s
    ));
    (rv, p, s)
}

/// C_InitToken, C_InitPIN(`user`), the user logged in on a new session.
pub fn init_token_raw(user: &str) -> CK_SESSION_HANDLE {
    let so = super::SO_PIN;
    let mut label = [b' '; 32];
    assert_eq!(
        here!(C_InitToken(
            SLOT,
            so.as_ptr() as *mut _,
            so.len() as CK_ULONG,
            label.as_mut_ptr()
        )),
        CKR_OK
    );
    let h = open(true);
    assert_eq!(login(h, CKU_SO, so), CKR_OK);
    assert_eq!(init_pin(h, user), CKR_OK);
    assert_eq!(here!(C_Logout(h)), CKR_OK);
    assert_eq!(login(h, CKU_USER, user), CKR_OK);
    h
}

/// C_CreateObject: the return value and the handle.
pub fn create_object(h: CK_SESSION_HANDLE, t: &Tmpl) -> (CK_RV, CK_OBJECT_HANDLE) {
    let raw = t.raw();
    let mut o = 0;
    let rv = here!(C_CreateObject(
        h,
        raw.as_ptr() as *mut _,
        raw.len() as CK_ULONG,
        &mut o
    ));
    (rv, o)
}

/// A deterministic CKM_SLH_DSA signature of `msg` (empty context).
pub fn sign_deterministic(
    h: CK_SESSION_HANDLE,
    key: CK_OBJECT_HANDLE,
    msg: &[u8],
) -> Result<Vec<u8>, CK_RV> {
    let p = CK_SIGN_ADDITIONAL_CONTEXT {
        hedgeVariant: CKH_DETERMINISTIC_REQUIRED,
        pContext: std::ptr::null_mut(),
        ulContextLen: 0,
    };
    let m = mech_with(CKM_SLH_DSA, &p);
    let rv = here!(C_SignInit(h, &m as *const _ as *mut _, key));
    if rv != CKR_OK {
        return Err(rv);
    }
    let mut sig = vec![0u8; 49_856];
    let mut n = sig.len() as CK_ULONG;
    let rv = here!(C_Sign(
        h,
        msg.as_ptr() as *mut _,
        msg.len() as CK_ULONG,
        sig.as_mut_ptr(),
        &mut n
    ));
    if rv != CKR_OK {
        return Err(rv);
    }
    sig.truncate(n as usize);
    Ok(sig)
}
