//! Return values through the raw C ABI: interfaces, C_Initialize's
//! arguments, sessions, login and PIN lockout, templates, attributes,
//! operations started wrongly, short buffers, and CKM_HASH_SLH_DSA with
//! the eight hashes cryptoki cannot name (compared with the core).

#[macro_use]
mod common;

use std::ptr::{null, null_mut};
use std::sync::{Mutex, MutexGuard};

use common::raw::{
    b, create_object, find, generate_pair, init_pin, login, mech, mech_with, open, token_flags, ul,
    Tmpl, SLOT,
};
use common::{SO_PIN, USER_PIN};
use cryptoki_sys::*;
use sphincs::any::{AnyAlgorithm, AnySigningKey};
use sphincs::{Algorithm, PreHash, Randomness, SignOptions};

/// The module's state is the process's: one test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// Initialises the module for one test and finalises it after.
struct Up(#[allow(dead_code)] MutexGuard<'static, ()>);

impl Up {
    fn new() -> Up {
        let g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
        Up(g)
    }
}

impl Drop for Up {
    fn drop(&mut self) {
        call!(C_Finalize(null_mut()));
    }
}

fn label() -> [u8; 32] {
    let mut l = [b' '; 32];
    l[..4].copy_from_slice(b"test");
    l
}

/// A fresh token: C_InitToken, user PIN set by the SO.
fn fresh_token() {
    let so = SO_PIN.as_bytes();
    let rv = call!(C_InitToken(
        SLOT,
        so.as_ptr() as *mut _,
        so.len() as CK_ULONG,
        label().as_mut_ptr()
    ));
    assert_eq!(rv, CKR_OK);
    let h = open(true);
    assert_eq!(login(h, CKU_SO, SO_PIN), CKR_OK);
    assert_eq!(init_pin(h, USER_PIN), CKR_OK);
    assert_eq!(call!(C_Logout(h)), CKR_OK);
    assert_eq!(call!(C_CloseSession(h)), CKR_OK);
}

fn state(h: CK_SESSION_HANDLE) -> CK_STATE {
    let mut info = CK_SESSION_INFO::default();
    assert_eq!(call!(C_GetSessionInfo(h, &mut info)), CKR_OK);
    info.state
}

fn set_128f() -> (CK_ATTRIBUTE_TYPE, Vec<u8>) {
    (CKA_PARAMETER_SET, ul(CKP_SLH_DSA_SHA2_128F))
}

fn get(h: CK_SESSION_HANDLE, o: CK_OBJECT_HANDLE, t: CK_ATTRIBUTE_TYPE) -> (CK_RV, Vec<u8>) {
    let mut a = CK_ATTRIBUTE {
        type_: t,
        pValue: null_mut(),
        ulValueLen: 0,
    };
    let rv = call!(C_GetAttributeValue(h, o, &mut a, 1));
    if rv != CKR_OK {
        return (rv, Vec::new());
    }
    let mut v = vec![0u8; a.ulValueLen as usize];
    a.pValue = v.as_mut_ptr() as *mut _;
    let rv = call!(C_GetAttributeValue(h, o, &mut a, 1));
    (rv, v)
}

#[test]
fn interfaces_and_function_lists() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let f = common::raw::raw().f;
    assert_eq!((f.version.major, f.version.minor), (3, 2));
    let mut n: CK_ULONG = 0;
    assert_eq!(call!(C_GetInterfaceList(null_mut(), &mut n)), CKR_OK);
    assert_eq!(n, 2);
    let mut list = [CK_INTERFACE {
        pInterfaceName: null_mut(),
        pFunctionList: null_mut(),
        flags: 0,
    }; 2];
    let mut one: CK_ULONG = 1;
    assert_eq!(
        call!(C_GetInterfaceList(list.as_mut_ptr(), &mut one)),
        CKR_BUFFER_TOO_SMALL
    );
    assert_eq!(one, 2);
    assert_eq!(call!(C_GetInterfaceList(list.as_mut_ptr(), &mut n)), CKR_OK);
    for itf in &list {
        // SAFETY: the module's interface names are NUL-terminated statics.
        let name = unsafe { std::ffi::CStr::from_ptr(itf.pInterfaceName as *const _) };
        assert_eq!(name.to_bytes(), b"PKCS 11");
    }
    let mut v240 = CK_VERSION {
        major: 2,
        minor: 40,
    };
    let mut itf: *mut CK_INTERFACE = null_mut();
    let name = b"PKCS 11\0";
    assert_eq!(
        call!(C_GetInterface(
            name.as_ptr() as *mut _,
            &mut v240,
            &mut itf,
            0
        )),
        CKR_OK
    );
    // SAFETY: the module returned its static interface.
    let list240 = unsafe { &*((*itf).pFunctionList as *const CK_FUNCTION_LIST) };
    assert_eq!((list240.version.major, list240.version.minor), (2, 40));
    let mut v99 = CK_VERSION { major: 9, minor: 9 };
    assert_eq!(
        call!(C_GetInterface(null_mut(), &mut v99, &mut itf, 0)),
        CKR_ARGUMENTS_BAD
    );
    let bad = b"PKCS 12\0";
    assert_eq!(
        call!(C_GetInterface(
            bad.as_ptr() as *mut _,
            null_mut(),
            &mut itf,
            0
        )),
        CKR_ARGUMENTS_BAD
    );
    assert_eq!(
        call!(C_GetInterface(null_mut(), null_mut(), null_mut(), 0)),
        CKR_ARGUMENTS_BAD
    );
    let mut fl: *mut CK_FUNCTION_LIST = null_mut();
    assert_eq!(call!(C_GetFunctionList(&mut fl)), CKR_OK);
    assert!(!fl.is_null());
    assert_eq!(call!(C_GetFunctionList(null_mut())), CKR_ARGUMENTS_BAD);
    // Not implemented: CKR_FUNCTION_NOT_SUPPORTED, arguments unread.
    assert_eq!(
        call!(C_EncryptInit(1, null_mut(), 1)),
        CKR_FUNCTION_NOT_SUPPORTED
    );
    assert_eq!(
        call!(C_DigestInit(1, null_mut())),
        CKR_FUNCTION_NOT_SUPPORTED
    );
    assert_eq!(
        call!(C_CopyObject(1, 1, null_mut(), 0, null_mut())),
        CKR_FUNCTION_NOT_SUPPORTED
    );
}

#[test]
fn initialize_arguments() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut info = CK_INFO::default();
    assert_eq!(call!(C_GetInfo(&mut info)), CKR_CRYPTOKI_NOT_INITIALIZED);
    assert_eq!(call!(C_Finalize(null_mut())), CKR_CRYPTOKI_NOT_INITIALIZED);
    unsafe extern "C" fn create(_: *mut *mut std::os::raw::c_void) -> CK_RV {
        CKR_OK
    }
    unsafe extern "C" fn other(_: *mut std::os::raw::c_void) -> CK_RV {
        CKR_OK
    }
    let mut reserved = 0u8;
    let mut args = CK_C_INITIALIZE_ARGS {
        CreateMutex: None,
        DestroyMutex: None,
        LockMutex: None,
        UnlockMutex: None,
        flags: CKF_OS_LOCKING_OK,
        pReserved: &mut reserved as *mut u8 as *mut _,
    };
    assert_eq!(
        call!(C_Initialize(
            &mut args as *mut CK_C_INITIALIZE_ARGS as *mut _
        )),
        CKR_ARGUMENTS_BAD
    );
    args.pReserved = null_mut();
    args.CreateMutex = Some(create);
    assert_eq!(
        call!(C_Initialize(
            &mut args as *mut CK_C_INITIALIZE_ARGS as *mut _
        )),
        CKR_ARGUMENTS_BAD,
        "some callbacks only"
    );
    args.DestroyMutex = Some(other);
    args.LockMutex = Some(other);
    args.UnlockMutex = Some(other);
    args.flags = 0;
    assert_eq!(
        call!(C_Initialize(
            &mut args as *mut CK_C_INITIALIZE_ARGS as *mut _
        )),
        CKR_CANT_LOCK,
        "callbacks without OS locking"
    );
    args.flags = CKF_OS_LOCKING_OK;
    assert_eq!(
        call!(C_Initialize(
            &mut args as *mut CK_C_INITIALIZE_ARGS as *mut _
        )),
        CKR_OK,
        "callbacks and OS locking: OS locks"
    );
    assert_eq!(
        call!(C_Initialize(null_mut())),
        CKR_CRYPTOKI_ALREADY_INITIALIZED
    );
    assert_eq!(call!(C_GetInfo(&mut info)), CKR_OK);
    assert_eq!(
        (info.cryptokiVersion.major, info.cryptokiVersion.minor),
        (3, 2)
    );
    assert_eq!(call!(C_GetInfo(null_mut())), CKR_ARGUMENTS_BAD);
    let mut x = 0u8;
    assert_eq!(
        call!(C_Finalize(&mut x as *mut u8 as *mut _)),
        CKR_ARGUMENTS_BAD
    );
    assert_eq!(call!(C_Finalize(null_mut())), CKR_OK);
    assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
    assert_eq!(call!(C_Finalize(null_mut())), CKR_OK);
}

#[test]
fn slot_token_and_mechanisms() {
    let _up = Up::new();
    let mut n: CK_ULONG = 0;
    assert_eq!(call!(C_GetSlotList(CK_TRUE, null_mut(), &mut n)), CKR_OK);
    assert_eq!(n, 1);
    let mut slots = [0 as CK_SLOT_ID; 1];
    assert_eq!(
        call!(C_GetSlotList(CK_TRUE, slots.as_mut_ptr(), &mut n)),
        CKR_OK
    );
    assert_eq!(slots[0], SLOT);
    assert_eq!(
        call!(C_GetSlotList(CK_TRUE, slots.as_mut_ptr(), null_mut())),
        CKR_ARGUMENTS_BAD
    );
    let mut si = CK_SLOT_INFO::default();
    assert_eq!(call!(C_GetSlotInfo(7, &mut si)), CKR_SLOT_ID_INVALID);
    assert_eq!(call!(C_GetSlotInfo(SLOT, &mut si)), CKR_OK);
    assert_ne!(si.flags & CKF_TOKEN_PRESENT, 0);
    assert_eq!(call!(C_GetMechanismList(SLOT, null_mut(), &mut n)), CKR_OK);
    assert_eq!(n, 13);
    let mut mechs = vec![0 as CK_MECHANISM_TYPE; 13];
    let mut short: CK_ULONG = 3;
    assert_eq!(
        call!(C_GetMechanismList(SLOT, mechs.as_mut_ptr(), &mut short)),
        CKR_BUFFER_TOO_SMALL
    );
    assert_eq!(short, 13);
    assert_eq!(
        call!(C_GetMechanismList(SLOT, mechs.as_mut_ptr(), &mut n)),
        CKR_OK
    );
    for m in mechs {
        let mut mi = CK_MECHANISM_INFO::default();
        assert_eq!(call!(C_GetMechanismInfo(SLOT, m, &mut mi)), CKR_OK);
        assert_eq!(
            (mi.ulMinKeySize, mi.ulMaxKeySize),
            (32, 64),
            "public key bytes"
        );
        let want = if m == CKM_SLH_DSA_KEY_PAIR_GEN {
            CKF_GENERATE_KEY_PAIR
        } else {
            CKF_SIGN | CKF_VERIFY
        };
        assert_eq!(mi.flags, want);
    }
    let mut mi = CK_MECHANISM_INFO::default();
    assert_eq!(
        call!(C_GetMechanismInfo(SLOT, CKM_ECDSA, &mut mi)),
        CKR_MECHANISM_INVALID
    );
}

#[test]
fn sessions_login_and_pin_lockout() {
    let _up = Up::new();
    let so = SO_PIN.as_bytes();
    assert_eq!(
        call!(C_InitToken(
            SLOT,
            so.as_ptr() as *mut _,
            so.len() as CK_ULONG,
            label().as_mut_ptr()
        )),
        CKR_OK
    );
    assert_eq!(token_flags() & CKF_USER_PIN_INITIALIZED, 0);
    let mut h = 0;
    assert_eq!(
        call!(C_OpenSession(SLOT, 0, null_mut(), None, &mut h)),
        CKR_SESSION_PARALLEL_NOT_SUPPORTED
    );
    assert_eq!(
        call!(C_OpenSession(
            SLOT,
            CKF_SERIAL_SESSION,
            null_mut(),
            None,
            null_mut()
        )),
        CKR_ARGUMENTS_BAD
    );
    let rw = open(true);
    assert_eq!(
        call!(C_InitToken(
            SLOT,
            so.as_ptr() as *mut _,
            so.len() as CK_ULONG,
            label().as_mut_ptr()
        )),
        CKR_SESSION_EXISTS
    );
    assert_eq!(login(rw, CKU_USER, USER_PIN), CKR_USER_PIN_NOT_INITIALIZED);
    assert_eq!(login(9999, CKU_USER, USER_PIN), CKR_SESSION_HANDLE_INVALID);
    assert_eq!(login(rw, 77, USER_PIN), CKR_USER_TYPE_INVALID);
    let user = USER_PIN.as_bytes();
    assert_eq!(
        call!(C_InitPIN(
            rw,
            user.as_ptr() as *mut _,
            user.len() as CK_ULONG
        )),
        CKR_USER_NOT_LOGGED_IN
    );
    // The SO cannot log in while a read-only session is open.
    let ro = open(false);
    assert_eq!(login(rw, CKU_SO, SO_PIN), CKR_SESSION_READ_ONLY_EXISTS);
    assert_eq!(call!(C_CloseSession(ro)), CKR_OK);
    assert_eq!(call!(C_CloseSession(ro)), CKR_SESSION_HANDLE_INVALID);
    assert_eq!(login(rw, CKU_SO, SO_PIN), CKR_OK);
    assert_eq!(state(rw), CKS_RW_SO_FUNCTIONS);
    assert_eq!(
        call!(C_OpenSession(
            SLOT,
            CKF_SERIAL_SESSION,
            null_mut(),
            None,
            &mut h
        )),
        CKR_SESSION_READ_WRITE_SO_EXISTS
    );
    assert_eq!(login(rw, CKU_SO, SO_PIN), CKR_USER_ALREADY_LOGGED_IN);
    assert_eq!(
        login(rw, CKU_USER, USER_PIN),
        CKR_USER_ANOTHER_ALREADY_LOGGED_IN
    );
    let short = b"123";
    assert_eq!(
        call!(C_InitPIN(rw, short.as_ptr() as *mut _, 3)),
        CKR_PIN_LEN_RANGE
    );
    assert_eq!(call!(C_InitPIN(rw, null_mut(), 4)), CKR_ARGUMENTS_BAD);
    assert_eq!(
        call!(C_InitPIN(
            rw,
            user.as_ptr() as *mut _,
            user.len() as CK_ULONG
        )),
        CKR_OK
    );
    assert_ne!(token_flags() & CKF_USER_PIN_INITIALIZED, 0);
    assert_eq!(call!(C_Logout(rw)), CKR_OK);
    assert_eq!(call!(C_Logout(rw)), CKR_USER_NOT_LOGGED_IN);
    assert_eq!(state(rw), CKS_RW_PUBLIC_SESSION);

    // Wrong user PINs: count low, final try, locked; then even the right
    // PIN is CKR_PIN_LOCKED until the SO sets a new one.
    assert_eq!(login(rw, CKU_USER, "wrong-pin"), CKR_PIN_INCORRECT);
    let f = token_flags();
    assert_ne!(f & CKF_USER_PIN_COUNT_LOW, 0);
    assert_eq!(f & CKF_USER_PIN_FINAL_TRY, 0);
    assert_eq!(login(rw, CKU_USER, "wrong-pin"), CKR_PIN_INCORRECT);
    assert_ne!(token_flags() & CKF_USER_PIN_FINAL_TRY, 0);
    assert_eq!(login(rw, CKU_USER, "wrong-pin"), CKR_PIN_INCORRECT);
    assert_ne!(token_flags() & CKF_USER_PIN_LOCKED, 0);
    assert_eq!(login(rw, CKU_USER, USER_PIN), CKR_PIN_LOCKED);
    assert_eq!(login(rw, CKU_SO, SO_PIN), CKR_OK);
    assert_eq!(
        call!(C_InitPIN(
            rw,
            user.as_ptr() as *mut _,
            user.len() as CK_ULONG
        )),
        CKR_OK
    );
    assert_eq!(call!(C_Logout(rw)), CKR_OK);
    assert_eq!(
        token_flags() & (CKF_USER_PIN_LOCKED | CKF_USER_PIN_COUNT_LOW),
        0
    );
    // A right PIN resets the count.
    assert_eq!(login(rw, CKU_USER, "wrong-pin"), CKR_PIN_INCORRECT);
    assert_eq!(login(rw, CKU_USER, USER_PIN), CKR_OK);
    assert_eq!(token_flags() & CKF_USER_PIN_COUNT_LOW, 0);
    assert_eq!(state(rw), CKS_RW_USER_FUNCTIONS);
    let ro = open(false);
    assert_eq!(state(ro), CKS_RO_USER_FUNCTIONS);
    // C_SetPIN: read-only sessions refused, the old PIN checked.
    let new = b"new-user-pin";
    let wrong = b"not-the-pin";
    assert_eq!(
        call!(C_SetPIN(
            ro,
            user.as_ptr() as *mut _,
            user.len() as CK_ULONG,
            new.as_ptr() as *mut _,
            new.len() as CK_ULONG
        )),
        CKR_SESSION_READ_ONLY
    );
    assert_eq!(
        call!(C_SetPIN(
            rw,
            wrong.as_ptr() as *mut _,
            wrong.len() as CK_ULONG,
            new.as_ptr() as *mut _,
            new.len() as CK_ULONG
        )),
        CKR_PIN_INCORRECT
    );
    assert_eq!(
        call!(C_SetPIN(
            rw,
            user.as_ptr() as *mut _,
            user.len() as CK_ULONG,
            new.as_ptr() as *mut _,
            new.len() as CK_ULONG
        )),
        CKR_OK
    );
    assert_eq!(call!(C_Logout(rw)), CKR_OK);
    assert_eq!(login(rw, CKU_USER, USER_PIN), CKR_PIN_INCORRECT);
    assert_eq!(login(rw, CKU_USER, "new-user-pin"), CKR_OK);
    // Closing every session logs out.
    assert_eq!(call!(C_CloseAllSessions(SLOT)), CKR_OK);
    let h = open(true);
    assert_eq!(state(h), CKS_RW_PUBLIC_SESSION);
    let mut info = CK_SESSION_INFO::default();
    assert_eq!(
        call!(C_GetSessionInfo(h + 1000, &mut info)),
        CKR_SESSION_HANDLE_INVALID
    );
    assert_eq!(call!(C_GetSessionInfo(h, null_mut())), CKR_ARGUMENTS_BAD);
}

#[test]
fn templates_objects_and_attributes() {
    let _up = Up::new();
    fresh_token();
    let h = open(true);
    let empty = Tmpl(vec![]);
    // Not logged in: a private key cannot be made.
    let (rv, _, _) = generate_pair(h, &Tmpl(vec![set_128f()]), &empty);
    assert_eq!(rv, CKR_USER_NOT_LOGGED_IN);
    assert_eq!(login(h, CKU_USER, USER_PIN), CKR_OK);

    let cases: Vec<(Tmpl, Tmpl, CK_RV, &str)> = vec![
        (
            Tmpl(vec![]),
            Tmpl(vec![]),
            CKR_TEMPLATE_INCOMPLETE,
            "no parameter set",
        ),
        (
            Tmpl(vec![(CKA_PARAMETER_SET, ul(99))]),
            Tmpl(vec![]),
            CKR_ATTRIBUTE_VALUE_INVALID,
            "unknown set",
        ),
        (
            Tmpl(vec![(CKA_PARAMETER_SET, vec![1, 2])]),
            Tmpl(vec![]),
            CKR_ATTRIBUTE_VALUE_INVALID,
            "short ulong",
        ),
        (
            Tmpl(vec![set_128f(), (CKA_VALUE, vec![0; 32])]),
            Tmpl(vec![]),
            CKR_TEMPLATE_INCONSISTENT,
            "CKA_VALUE given",
        ),
        (
            Tmpl(vec![set_128f()]),
            Tmpl(vec![set_128f()]),
            CKR_TEMPLATE_INCONSISTENT,
            "private set given",
        ),
        (
            Tmpl(vec![set_128f(), (CKA_CLASS, ul(CKO_PRIVATE_KEY))]),
            Tmpl(vec![]),
            CKR_TEMPLATE_INCONSISTENT,
            "wrong class",
        ),
        (
            Tmpl(vec![set_128f(), (CKA_KEY_TYPE, ul(CKK_ML_DSA))]),
            Tmpl(vec![]),
            CKR_TEMPLATE_INCONSISTENT,
            "wrong key type",
        ),
        (
            Tmpl(vec![set_128f(), (CKA_MODULUS, vec![1])]),
            Tmpl(vec![]),
            CKR_ATTRIBUTE_TYPE_INVALID,
            "RSA attribute",
        ),
        (
            Tmpl(vec![set_128f()]),
            Tmpl(vec![(CKA_SEED, vec![0; 48])]),
            CKR_ATTRIBUTE_TYPE_INVALID,
            "SLH-DSA has no CKA_SEED",
        ),
        (
            Tmpl(vec![set_128f(), (CKA_LOCAL, b(true))]),
            Tmpl(vec![]),
            CKR_ATTRIBUTE_READ_ONLY,
            "CKA_LOCAL",
        ),
        (
            Tmpl(vec![set_128f()]),
            Tmpl(vec![(CKA_SIGN, vec![1, 1])]),
            CKR_ATTRIBUTE_VALUE_INVALID,
            "bool of 2 bytes",
        ),
        (
            Tmpl(vec![
                set_128f(),
                (CKA_VERIFY, b(true)),
                (CKA_VERIFY, b(false)),
            ]),
            Tmpl(vec![]),
            CKR_TEMPLATE_INCONSISTENT,
            "twice",
        ),
    ];
    for (p, s, want, what) in &cases {
        assert_eq!(generate_pair(h, p, s).0, *want, "{what}");
    }
    // Wrong mechanisms and arguments.
    let (mut hp, mut hs) = (0, 0);
    let pt_t = Tmpl(vec![set_128f()]);
    let pt = pt_t.raw();
    let m = mech(CKM_SLH_DSA);
    assert_eq!(
        call!(C_GenerateKeyPair(
            h,
            &m as *const _ as *mut _,
            pt.as_ptr() as *mut _,
            1,
            null_mut(),
            0,
            &mut hp,
            &mut hs
        )),
        CKR_MECHANISM_INVALID
    );
    assert_eq!(
        call!(C_GenerateKeyPair(
            h,
            null_mut(),
            pt.as_ptr() as *mut _,
            1,
            null_mut(),
            0,
            &mut hp,
            &mut hs
        )),
        CKR_ARGUMENTS_BAD
    );
    assert_eq!(
        call!(C_GenerateKeyPair(
            h,
            &mech(CKM_SLH_DSA_KEY_PAIR_GEN) as *const _ as *mut _,
            null_mut(),
            1,
            null_mut(),
            0,
            &mut hp,
            &mut hs
        )),
        CKR_ARGUMENTS_BAD
    );

    // A generated pair: defaults, sensitive private value.
    let (rv, hp, hs) = generate_pair(
        h,
        &Tmpl(vec![set_128f(), (CKA_LABEL, b"pair".to_vec())]),
        &empty,
    );
    assert_eq!(rv, CKR_OK);
    let mut a = CK_ATTRIBUTE {
        type_: CKA_VALUE,
        pValue: null_mut(),
        ulValueLen: 0,
    };
    assert_eq!(
        call!(C_GetAttributeValue(h, hs, &mut a, 1)),
        CKR_ATTRIBUTE_SENSITIVE
    );
    assert_eq!(a.ulValueLen, CK_UNAVAILABLE_INFORMATION);
    assert_eq!(get(h, hs, CKA_ALWAYS_SENSITIVE), (CKR_OK, b(true)));
    assert_eq!(get(h, hs, CKA_NEVER_EXTRACTABLE), (CKR_OK, b(true)));
    assert_eq!(get(h, hs, CKA_LOCAL), (CKR_OK, b(true)));
    assert_eq!(
        get(h, hs, CKA_PARAMETER_SET),
        (CKR_OK, ul(CKP_SLH_DSA_SHA2_128F))
    );
    assert_eq!(
        get(h, hs, CKA_KEY_GEN_MECHANISM),
        (CKR_OK, ul(CKM_SLH_DSA_KEY_PAIR_GEN))
    );
    assert_eq!(get(h, hp, CKA_LABEL), (CKR_OK, b"pair".to_vec()));
    let (rv, pk) = get(h, hp, CKA_VALUE);
    assert_eq!((rv, pk.len()), (CKR_OK, 32));
    // Short buffer, unknown attribute, several at once (each processed).
    let mut small = [0u8; 8];
    let mut attrs = [
        CK_ATTRIBUTE {
            type_: CKA_VALUE,
            pValue: small.as_mut_ptr() as *mut _,
            ulValueLen: 8,
        },
        CK_ATTRIBUTE {
            type_: CKA_MODULUS,
            pValue: null_mut(),
            ulValueLen: 0,
        },
        CK_ATTRIBUTE {
            type_: CKA_CLASS,
            pValue: null_mut(),
            ulValueLen: 0,
        },
    ];
    let rv = call!(C_GetAttributeValue(h, hp, attrs.as_mut_ptr(), 3));
    assert!(rv == CKR_BUFFER_TOO_SMALL || rv == CKR_ATTRIBUTE_TYPE_INVALID);
    assert_eq!(attrs[0].ulValueLen, CK_UNAVAILABLE_INFORMATION);
    assert_eq!(attrs[1].ulValueLen, CK_UNAVAILABLE_INFORMATION);
    assert_eq!(attrs[2].ulValueLen, 8);
    let mut one = CK_ATTRIBUTE {
        type_: CKA_MODULUS,
        pValue: null_mut(),
        ulValueLen: 0,
    };
    assert_eq!(
        call!(C_GetAttributeValue(h, hp, &mut one, 1)),
        CKR_ATTRIBUTE_TYPE_INVALID
    );
    assert_eq!(
        call!(C_GetAttributeValue(h, hp, null_mut(), 1)),
        CKR_ARGUMENTS_BAD
    );
    assert_eq!(
        call!(C_GetAttributeValue(h, 424242, &mut one, 1)),
        CKR_OBJECT_HANDLE_INVALID
    );

    // Import: public by value, private by value (checked against its
    // public half), certificates kept as given.
    let sk = AnySigningKey::generate(AnyAlgorithm::SlhDsa(Algorithm::Sha2_128f), 1).unwrap();
    let pub_t = Tmpl(vec![
        (CKA_CLASS, ul(CKO_PUBLIC_KEY)),
        (CKA_KEY_TYPE, ul(CKK_SLH_DSA)),
        set_128f(),
        (CKA_VALUE, sk.verifying_key().to_bytes()),
    ]);
    let create = |t: &Tmpl| create_object(h, t);
    let (rv, imported) = create(&pub_t);
    assert_eq!(rv, CKR_OK);
    assert_eq!(
        get(h, imported, CKA_VALUE),
        (CKR_OK, sk.verifying_key().to_bytes())
    );
    assert_eq!(get(h, imported, CKA_LOCAL), (CKR_OK, b(false)));
    let mut bad_len = pub_t.0.clone();
    bad_len[3].1.pop();
    assert_eq!(create(&Tmpl(bad_len)).0, CKR_ATTRIBUTE_VALUE_INVALID);
    assert_eq!(
        create(&Tmpl(pub_t.0[..3].to_vec())).0,
        CKR_TEMPLATE_INCOMPLETE,
        "no CKA_VALUE"
    );
    assert_eq!(
        create(&Tmpl(pub_t.0[1..].to_vec())).0,
        CKR_TEMPLATE_INCOMPLETE,
        "no CKA_CLASS"
    );
    let sk_bytes = sk.to_bytes().to_vec();
    let mut mismatched = sk_bytes.clone();
    mismatched[63] ^= 1; // PK.root no longer matches
    let priv_t = |v: Vec<u8>| {
        Tmpl(vec![
            (CKA_CLASS, ul(CKO_PRIVATE_KEY)),
            (CKA_KEY_TYPE, ul(CKK_SLH_DSA)),
            set_128f(),
            (CKA_VALUE, v),
            (CKA_SENSITIVE, b(false)),
            (CKA_EXTRACTABLE, b(true)),
        ])
    };
    assert_eq!(create(&priv_t(mismatched)).0, CKR_ATTRIBUTE_VALUE_INVALID);
    let (rv, imported_sk) = create(&priv_t(sk_bytes.clone()));
    assert_eq!(rv, CKR_OK);
    assert_eq!(get(h, imported_sk, CKA_VALUE), (CKR_OK, sk_bytes));
    assert_eq!(
        get(h, imported_sk, CKA_ALWAYS_SENSITIVE),
        (CKR_OK, b(false))
    );
    let mut seeded = priv_t(vec![0; 64]).0;
    seeded[3] = (CKA_SEED, vec![0; 48]);
    assert_eq!(create(&Tmpl(seeded)).0, CKR_ATTRIBUTE_TYPE_INVALID);
    let cert = Tmpl(vec![
        (CKA_CLASS, ul(CKO_CERTIFICATE)),
        (CKA_CERTIFICATE_TYPE, ul(CKC_X_509)),
        (CKA_SUBJECT, b"subject".to_vec()),
        (CKA_VALUE, b"opaque DER".to_vec()),
        (CKA_LABEL, b"cert".to_vec()),
    ]);
    let (rv, hc) = create(&cert);
    assert_eq!(rv, CKR_OK);
    assert_eq!(get(h, hc, CKA_VALUE), (CKR_OK, b"opaque DER".to_vec()));
    assert_eq!(
        create(&Tmpl(cert.0[..3].to_vec())).0,
        CKR_TEMPLATE_INCOMPLETE
    );
    let mut wrong_type = cert.0.clone();
    wrong_type[1].1 = ul(CKC_WTLS);
    assert_eq!(create(&Tmpl(wrong_type)).0, CKR_ATTRIBUTE_VALUE_INVALID);
    let mut trusted = cert.0.clone();
    trusted.push((CKA_TRUSTED, b(true)));
    assert_eq!(create(&Tmpl(trusted)).0, CKR_ATTRIBUTE_READ_ONLY);
    // A data object: everything optional, no key attributes.
    let (rv, hd) = create(&Tmpl(vec![(CKA_CLASS, ul(CKO_DATA))]));
    assert_eq!(rv, CKR_OK);
    assert_eq!(get(h, hd, CKA_VALUE), (CKR_OK, Vec::new()));
    assert_eq!(get(h, hd, CKA_APPLICATION), (CKR_OK, Vec::new()));
    assert_eq!(call!(C_DestroyObject(h, hd)), CKR_OK);
    assert_eq!(
        create(&Tmpl(vec![
            (CKA_CLASS, ul(CKO_DATA)),
            (CKA_KEY_TYPE, ul(CKK_SLH_DSA))
        ]))
        .0,
        CKR_ATTRIBUTE_TYPE_INVALID
    );

    // Finding.
    let find = |t: &Tmpl| find(h, t);
    assert_eq!(
        find(&Tmpl(vec![(CKA_CLASS, ul(CKO_CERTIFICATE))])),
        vec![hc]
    );
    assert_eq!(find(&Tmpl(vec![(CKA_LABEL, b"pair".to_vec())])), vec![hp]);
    assert_eq!(
        find(&Tmpl(vec![(CKA_CLASS, ul(CKO_PRIVATE_KEY))])),
        vec![hs, imported_sk]
    );
    assert_eq!(find(&Tmpl(vec![])).len(), 5);
    let mut n: CK_ULONG = 0;
    assert_eq!(
        call!(C_FindObjects(h, null_mut(), 1, &mut n)),
        CKR_OPERATION_NOT_INITIALIZED
    );
    assert_eq!(call!(C_FindObjectsFinal(h)), CKR_OPERATION_NOT_INITIALIZED);
    assert_eq!(call!(C_FindObjectsInit(h, null_mut(), 0)), CKR_OK);
    assert_eq!(
        call!(C_FindObjectsInit(h, null_mut(), 0)),
        CKR_OPERATION_ACTIVE
    );
    // Two at a time.
    let mut two = [0 as CK_OBJECT_HANDLE; 2];
    assert_eq!(call!(C_FindObjects(h, two.as_mut_ptr(), 2, &mut n)), CKR_OK);
    assert_eq!(n, 2);
    assert_eq!(call!(C_FindObjectsFinal(h)), CKR_OK);

    // Logged out: private objects vanish; token objects need RW sessions.
    assert_eq!(call!(C_Logout(h)), CKR_OK);
    assert_eq!(get(h, hs, CKA_CLASS).0, CKR_OBJECT_HANDLE_INVALID);
    assert_eq!(find(&Tmpl(vec![])).len(), 3);
    let ro = open(false);
    let mut token_pub = pub_t.0.clone();
    token_pub.push((CKA_TOKEN, b(true)));
    let token_t = Tmpl(token_pub.clone());
    let raw = token_t.raw();
    let mut o = 0;
    assert_eq!(
        call!(C_CreateObject(
            ro,
            raw.as_ptr() as *mut _,
            raw.len() as CK_ULONG,
            &mut o
        )),
        CKR_SESSION_READ_ONLY
    );
    let (rv, token_obj) = create(&Tmpl(token_pub));
    assert_eq!(rv, CKR_OK);
    assert_eq!(call!(C_DestroyObject(ro, token_obj)), CKR_SESSION_READ_ONLY);
    assert_eq!(call!(C_DestroyObject(h, token_obj)), CKR_OK);
    assert_eq!(
        call!(C_DestroyObject(h, token_obj)),
        CKR_OBJECT_HANDLE_INVALID
    );
    let mut undeletable = cert.0.clone();
    undeletable.push((CKA_DESTROYABLE, b(false)));
    let (_, kept) = create(&Tmpl(undeletable));
    assert_eq!(call!(C_DestroyObject(h, kept)), CKR_ACTION_PROHIBITED);
    // Session objects end with their session.
    assert_eq!(call!(C_CloseSession(h)), CKR_OK);
    let h2 = open(true);
    assert_eq!(get(h2, hc, CKA_CLASS).0, CKR_OBJECT_HANDLE_INVALID);
    // C_GenerateRandom.
    let mut r = [0u8; 64];
    assert_eq!(call!(C_GenerateRandom(h2, r.as_mut_ptr(), 64)), CKR_OK);
    assert_ne!(r, [0u8; 64]);
    assert_eq!(
        call!(C_GenerateRandom(h2, null_mut(), 64)),
        CKR_ARGUMENTS_BAD
    );
    assert_eq!(
        call!(C_GenerateRandom(h2 + 77, r.as_mut_ptr(), 64)),
        CKR_SESSION_HANDLE_INVALID
    );
}

/// A logged-in session with a readable SHA2-128f pair on the module and
/// the core's key of the same bytes.
fn pair_with_core_key() -> (
    CK_SESSION_HANDLE,
    CK_OBJECT_HANDLE,
    CK_OBJECT_HANDLE,
    AnySigningKey,
) {
    fresh_token();
    let h = open(true);
    assert_eq!(login(h, CKU_USER, USER_PIN), CKR_OK);
    let private = Tmpl(vec![(CKA_SENSITIVE, b(false)), (CKA_EXTRACTABLE, b(true))]);
    let (rv, hp, hs) = generate_pair(h, &Tmpl(vec![set_128f()]), &private);
    assert_eq!(rv, CKR_OK);
    let (rv, v) = get(h, hs, CKA_VALUE);
    assert_eq!(rv, CKR_OK);
    let sk = AnySigningKey::from_bytes(AnyAlgorithm::SlhDsa(Algorithm::Sha2_128f), &v).unwrap();
    (h, hp, hs, sk)
}

fn sign_init(h: CK_SESSION_HANDLE, m: &CK_MECHANISM, key: CK_OBJECT_HANDLE) -> CK_RV {
    call!(C_SignInit(h, m as *const _ as *mut _, key))
}

fn sign(h: CK_SESSION_HANDLE, data: &[u8], out: &mut Vec<u8>) -> CK_RV {
    let mut n = out.len() as CK_ULONG;
    let p = if out.is_empty() {
        null_mut()
    } else {
        out.as_mut_ptr()
    };
    let rv = call!(C_Sign(
        h,
        data.as_ptr() as *mut _,
        data.len() as CK_ULONG,
        p,
        &mut n
    ));
    out.resize(n as usize, 0);
    rv
}

#[test]
fn operations_started_wrongly() {
    let _up = Up::new();
    let (h, hp, hs, _) = pair_with_core_key();
    let msg = b"message";
    let pure = mech(CKM_SLH_DSA);
    let mut sig = Vec::new();
    assert_eq!(sign(h, msg, &mut sig), CKR_OPERATION_NOT_INITIALIZED);
    assert_eq!(
        sign_init(h, &pure, hp),
        CKR_KEY_TYPE_INCONSISTENT,
        "public key to sign"
    );
    assert_eq!(
        call!(C_VerifyInit(h, &pure as *const _ as *mut _, hs)),
        CKR_KEY_TYPE_INCONSISTENT
    );
    assert_eq!(sign_init(h, &mech(CKM_ECDSA), hs), CKR_MECHANISM_INVALID);
    assert_eq!(
        sign_init(h, &mech(CKM_SLH_DSA_KEY_PAIR_GEN), hs),
        CKR_MECHANISM_INVALID
    );
    assert_eq!(sign_init(h, &pure, 5555), CKR_KEY_HANDLE_INVALID);
    assert_eq!(call!(C_SignInit(h, null_mut(), hs)), CKR_ARGUMENTS_BAD);
    assert_eq!(
        call!(C_SignInit(h + 999, &pure as *const _ as *mut _, hs)),
        CKR_SESSION_HANDLE_INVALID
    );
    // Parameters: wrong size, unknown hedge, NULL context with a length,
    // CKM_HASH_SLH_DSA without its parameter or with an unknown hash.
    let ctx = [1u8; 4];
    let mut p = CK_SIGN_ADDITIONAL_CONTEXT {
        hedgeVariant: 9,
        pContext: ctx.as_ptr() as *mut _,
        ulContextLen: 4,
    };
    assert_eq!(
        sign_init(h, &mech_with(CKM_SLH_DSA, &p), hs),
        CKR_MECHANISM_PARAM_INVALID
    );
    p.hedgeVariant = CKH_HEDGE_REQUIRED;
    p.pContext = null_mut();
    assert_eq!(
        sign_init(h, &mech_with(CKM_SLH_DSA, &p), hs),
        CKR_MECHANISM_PARAM_INVALID
    );
    let mut short_param = mech_with(CKM_SLH_DSA, &p);
    short_param.ulParameterLen -= 1;
    assert_eq!(sign_init(h, &short_param, hs), CKR_MECHANISM_PARAM_INVALID);
    assert_eq!(
        sign_init(h, &mech(CKM_HASH_SLH_DSA), hs),
        CKR_MECHANISM_PARAM_INVALID
    );
    let hp_param = CK_HASH_SIGN_ADDITIONAL_CONTEXT {
        hedgeVariant: CKH_HEDGE_REQUIRED,
        pContext: null_mut(),
        ulContextLen: 0,
        hash: CKM_MD5,
    };
    assert_eq!(
        sign_init(h, &mech_with(CKM_HASH_SLH_DSA, &hp_param), hs),
        CKR_MECHANISM_PARAM_INVALID
    );
    assert_eq!(
        sign_init(h, &mech_with(CKM_SLH_DSA, &hp_param), hs),
        CKR_MECHANISM_PARAM_INVALID,
        "hash parameter on pure"
    );

    // The two-call convention and short buffers keep the operation.
    assert_eq!(sign_init(h, &pure, hs), CKR_OK);
    assert_eq!(sign_init(h, &pure, hs), CKR_OPERATION_ACTIVE);
    let sig_len = 17088;
    assert_eq!(sign(h, msg, &mut sig), CKR_OK);
    assert_eq!(sig.len(), sig_len);
    let mut small = vec![0u8; 100];
    assert_eq!(sign(h, msg, &mut small), CKR_BUFFER_TOO_SMALL);
    assert_eq!(small.len(), sig_len);
    assert_eq!(sign(h, msg, &mut sig), CKR_OK);
    assert_eq!(
        sign(h, msg, &mut sig),
        CKR_OPERATION_NOT_INITIALIZED,
        "C_Sign ended it"
    );
    let mut n: CK_ULONG = 0;
    assert_eq!(
        call!(C_Sign(h, msg.as_ptr() as *mut _, 7, null_mut(), null_mut())),
        CKR_ARGUMENTS_BAD
    );
    assert_eq!(
        call!(C_SignFinal(h, null_mut(), &mut n)),
        CKR_OPERATION_NOT_INITIALIZED
    );

    // C_Verify: length and validity.
    let verify = |data: &[u8], s: &[u8]| {
        assert_eq!(
            call!(C_VerifyInit(h, &pure as *const _ as *mut _, hp)),
            CKR_OK
        );
        call!(C_Verify(
            h,
            data.as_ptr() as *mut _,
            data.len() as CK_ULONG,
            s.as_ptr() as *mut _,
            s.len() as CK_ULONG
        ))
    };
    assert_eq!(verify(msg, &sig), CKR_OK);
    assert_eq!(verify(b"other", &sig), CKR_SIGNATURE_INVALID);
    assert_eq!(verify(msg, &sig[..100]), CKR_SIGNATURE_LEN_RANGE);
    assert_eq!(
        call!(C_Verify(
            h,
            msg.as_ptr() as *mut _,
            7,
            sig.as_ptr() as *mut _,
            sig.len() as CK_ULONG
        )),
        CKR_OPERATION_NOT_INITIALIZED
    );
    // Pure SLH-DSA verifies in one part only (C_VerifyUpdate ends it).
    assert_eq!(
        call!(C_VerifyInit(h, &pure as *const _ as *mut _, hp)),
        CKR_OK
    );
    assert_eq!(
        call!(C_VerifyUpdate(h, msg.as_ptr() as *mut _, 7)),
        CKR_OPERATION_NOT_INITIALIZED
    );
    assert_eq!(
        call!(C_VerifyFinal(
            h,
            sig.as_ptr() as *mut _,
            sig.len() as CK_ULONG
        )),
        CKR_OPERATION_NOT_INITIALIZED
    );
    // ... but in parts through C_VerifySignature*.
    assert_eq!(
        call!(C_VerifySignatureInit(
            h,
            &pure as *const _ as *mut _,
            hp,
            sig.as_ptr() as *mut _,
            sig.len() as CK_ULONG
        )),
        CKR_OK
    );
    assert_eq!(
        call!(C_VerifySignatureUpdate(h, msg.as_ptr() as *mut _, 3)),
        CKR_OK
    );
    assert_eq!(
        call!(C_VerifySignatureUpdate(h, msg[3..].as_ptr() as *mut _, 4)),
        CKR_OK
    );
    assert_eq!(call!(C_VerifySignatureFinal(h)), CKR_OK);
    assert_eq!(
        call!(C_VerifySignatureFinal(h)),
        CKR_OPERATION_NOT_INITIALIZED
    );
    assert_eq!(
        call!(C_VerifySignatureInit(
            h,
            &pure as *const _ as *mut _,
            hp,
            sig.as_ptr() as *mut _,
            5
        )),
        CKR_SIGNATURE_LEN_RANGE
    );
    assert_eq!(
        call!(C_VerifySignature(h, msg.as_ptr() as *mut _, 7)),
        CKR_OPERATION_NOT_INITIALIZED
    );

    // CKM_HASH_SLH_DSA: single part, digest of the hash's length.
    let hparam = CK_HASH_SIGN_ADDITIONAL_CONTEXT {
        hedgeVariant: CKH_HEDGE_REQUIRED,
        pContext: null_mut(),
        ulContextLen: 0,
        hash: CKM_SHA256,
    };
    let hm = mech_with(CKM_HASH_SLH_DSA, &hparam);
    assert_eq!(sign_init(h, &hm, hs), CKR_OK);
    let mut out = vec![0u8; sig_len];
    assert_eq!(sign(h, &[0u8; 31], &mut out), CKR_DATA_LEN_RANGE);
    assert_eq!(sign_init(h, &hm, hs), CKR_OK);
    assert_eq!(
        call!(C_SignUpdate(h, msg.as_ptr() as *mut _, 7)),
        CKR_OPERATION_NOT_INITIALIZED
    );
    assert_eq!(
        sign(h, &[0u8; 32], &mut out),
        CKR_OPERATION_NOT_INITIALIZED,
        "the update ended it"
    );
    assert_eq!(
        call!(C_VerifySignatureInit(
            h,
            &hm as *const _ as *mut _,
            hp,
            out.as_ptr() as *mut _,
            out.len() as CK_ULONG
        )),
        CKR_OK
    );
    assert_eq!(
        call!(C_VerifySignatureUpdate(h, msg.as_ptr() as *mut _, 7)),
        CKR_OPERATION_NOT_INITIALIZED
    );
    // C_Sign after C_SignUpdate is refused.
    let multi = mech(CKM_HASH_SLH_DSA_SHA256);
    assert_eq!(sign_init(h, &multi, hs), CKR_OK);
    assert_eq!(call!(C_SignUpdate(h, msg.as_ptr() as *mut _, 7)), CKR_OK);
    assert_eq!(sign(h, msg, &mut out), CKR_OPERATION_NOT_INITIALIZED);
    // C_SignFinal: length first, then the signature.
    assert_eq!(sign_init(h, &multi, hs), CKR_OK);
    assert_eq!(call!(C_SignUpdate(h, msg.as_ptr() as *mut _, 7)), CKR_OK);
    let mut n: CK_ULONG = 0;
    assert_eq!(call!(C_SignFinal(h, null_mut(), &mut n)), CKR_OK);
    assert_eq!(n as usize, sig_len);
    let mut fin = vec![0u8; sig_len];
    n = 10;
    assert_eq!(
        call!(C_SignFinal(h, fin.as_mut_ptr(), &mut n)),
        CKR_BUFFER_TOO_SMALL
    );
    assert_eq!(call!(C_SignFinal(h, fin.as_mut_ptr(), &mut n)), CKR_OK);
    assert_eq!(
        call!(C_VerifyInit(h, &multi as *const _ as *mut _, hp)),
        CKR_OK
    );
    assert_eq!(
        call!(C_Verify(
            h,
            msg.as_ptr() as *mut _,
            7,
            fin.as_ptr() as *mut _,
            n
        )),
        CKR_OK
    );

    // A key that may not sign.
    let no_sign = Tmpl(vec![(CKA_SIGN, b(false))]);
    let (rv, _, hs2) = generate_pair(h, &Tmpl(vec![set_128f()]), &no_sign);
    assert_eq!(rv, CKR_OK);
    assert_eq!(sign_init(h, &pure, hs2), CKR_KEY_FUNCTION_NOT_PERMITTED);
    // Logging out ends the signing operation (its key is private).
    assert_eq!(sign_init(h, &pure, hs), CKR_OK);
    assert_eq!(call!(C_Logout(h)), CKR_OK);
    let mut buf = vec![0u8; sig_len];
    assert_eq!(sign(h, msg, &mut buf), CKR_OPERATION_NOT_INITIALIZED);
}

#[test]
fn hash_slh_dsa_with_every_hash() {
    let _up = Up::new();
    let (h, hp, hs, sk) = pair_with_core_key();
    let vk = sk.verifying_key();
    let msg = b"pre-hashed by the caller";
    let hashes = [
        (CKM_SHA224, PreHash::Sha2_224),
        (CKM_SHA256, PreHash::Sha2_256),
        (CKM_SHA384, PreHash::Sha2_384),
        (CKM_SHA512, PreHash::Sha2_512),
        (CKM_SHA512_224, PreHash::Sha2_512_224),
        (CKM_SHA512_256, PreHash::Sha2_512_256),
        (CKM_SHA3_224, PreHash::Sha3_224),
        (CKM_SHA3_256, PreHash::Sha3_256),
        (CKM_SHA3_384, PreHash::Sha3_384),
        (CKM_SHA3_512, PreHash::Sha3_512),
        (CKM_SHAKE_128_KEY_DERIVATION, PreHash::Shake128),
        (CKM_SHAKE_256_KEY_DERIVATION, PreHash::Shake256),
    ];
    let ctx = b"ctx";
    let mut signatures = 0;
    for (code, ph) in hashes {
        let (d, n) = ph.digest(&mut &msg[..]).unwrap();
        let digest = &d[..n];
        for hedge in [
            CKH_HEDGE_PREFERRED,
            CKH_HEDGE_REQUIRED,
            CKH_DETERMINISTIC_REQUIRED,
        ] {
            let param = CK_HASH_SIGN_ADDITIONAL_CONTEXT {
                hedgeVariant: hedge,
                pContext: ctx.as_ptr() as *mut _,
                ulContextLen: ctx.len() as CK_ULONG,
                hash: code,
            };
            let m = mech_with(CKM_HASH_SLH_DSA, &param);
            assert_eq!(sign_init(h, &m, hs), CKR_OK);
            let mut sig = vec![0u8; 17088];
            assert_eq!(sign(h, digest, &mut sig), CKR_OK, "{ph}");
            let det = sk
                .sign(
                    msg,
                    &SignOptions {
                        context: ctx,
                        prehash: Some(ph),
                        randomness: Randomness::Deterministic,
                        ..SignOptions::default()
                    },
                )
                .unwrap();
            assert_eq!(
                sig == det,
                hedge == CKH_DETERMINISTIC_REQUIRED,
                "{ph} hedge {hedge}"
            );
            vk.verify(msg, &sig, ctx, Some(ph)).unwrap();
            assert_eq!(call!(C_VerifyInit(h, &m as *const _ as *mut _, hp)), CKR_OK);
            let rv = call!(C_Verify(
                h,
                digest.as_ptr() as *mut _,
                n as CK_ULONG,
                sig.as_ptr() as *mut _,
                sig.len() as CK_ULONG
            ));
            assert_eq!(rv, CKR_OK, "{ph}");
            assert_eq!(
                call!(C_VerifySignatureInit(
                    h,
                    &m as *const _ as *mut _,
                    hp,
                    sig.as_ptr() as *mut _,
                    sig.len() as CK_ULONG
                )),
                CKR_OK
            );
            assert_eq!(
                call!(C_VerifySignature(
                    h,
                    digest.as_ptr() as *mut _,
                    n as CK_ULONG
                )),
                CKR_OK
            );
            signatures += 1;
        }
        // A digest of the wrong length.
        let param = CK_HASH_SIGN_ADDITIONAL_CONTEXT {
            hedgeVariant: CKH_HEDGE_PREFERRED,
            pContext: null_mut(),
            ulContextLen: 0,
            hash: code,
        };
        let m = mech_with(CKM_HASH_SLH_DSA, &param);
        assert_eq!(call!(C_VerifyInit(h, &m as *const _ as *mut _, hp)), CKR_OK);
        let sig = vec![0u8; 17088];
        let rv = call!(C_Verify(
            h,
            digest.as_ptr() as *mut _,
            (n - 1) as CK_ULONG,
            sig.as_ptr() as *mut _,
            sig.len() as CK_ULONG
        ));
        assert_eq!(rv, CKR_DATA_LEN_RANGE, "{ph}");
    }
    println!("CKM_HASH_SLH_DSA: {signatures} signatures over 12 hashes × 3 hedge variants");
    assert_eq!(signatures, 36);
    let _ = null::<u8>();
}
