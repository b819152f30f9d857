//! General, slot, token, session and login functions, and C_GenerateRandom.

#![allow(non_snake_case)]

use std::os::raw::c_void;

use cryptoki_sys::*;

use super::ptr::{bytes, guard, out, padded};
use crate::mechanism::{info, MECHANISMS};
use crate::state::{check_slot, lock, ready, SLOT_ID};
use crate::token::{MAX_PIN_LEN, MIN_PIN_LEN};

const VERSION: CK_VERSION = CK_VERSION { major: 0, minor: 1 };

/// C_Initialize: OS locking only. Callbacks without CKF_OS_LOCKING_OK are
/// CKR_CANT_LOCK; some callbacks but not all, or pReserved set,
/// CKR_ARGUMENTS_BAD.
pub(crate) unsafe extern "C" fn C_Initialize(pInitArgs: *mut c_void) -> CK_RV {
    guard(|| {
        // SAFETY: a non-NULL argument points to a CK_C_INITIALIZE_ARGS.
        if let Some(args) = unsafe { (pInitArgs as *const CK_C_INITIALIZE_ARGS).as_ref() } {
            if !args.pReserved.is_null() {
                return Err(CKR_ARGUMENTS_BAD);
            }
            let given = [
                args.CreateMutex.is_some(),
                args.DestroyMutex.is_some(),
                args.LockMutex.is_some(),
                args.UnlockMutex.is_some(),
            ];
            let all = given.iter().all(|g| *g);
            if !all && given.iter().any(|g| *g) {
                return Err(CKR_ARGUMENTS_BAD);
            }
            if all && args.flags & CKF_OS_LOCKING_OK == 0 {
                return Err(CKR_CANT_LOCK);
            }
        }
        lock().initialize()
    })
}

pub(crate) unsafe extern "C" fn C_Finalize(pReserved: *mut c_void) -> CK_RV {
    guard(|| {
        if !pReserved.is_null() {
            return Err(CKR_ARGUMENTS_BAD);
        }
        ready()?.finalize();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_GetInfo(pInfo: *mut CK_INFO) -> CK_RV {
    guard(|| {
        drop(ready()?);
        // SAFETY: checked for NULL by `out`.
        let info = unsafe { out(pInfo) }?;
        *info = CK_INFO {
            cryptokiVersion: CK_VERSION { major: 3, minor: 2 },
            manufacturerID: padded(b"sphincs"),
            flags: 0,
            libraryDescription: padded(b"sphincs SLH-DSA PKCS#11 module"),
            libraryVersion: VERSION,
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_GetSlotList(
    _tokenPresent: CK_BBOOL,
    pSlotList: *mut CK_SLOT_ID,
    pulCount: *mut CK_ULONG,
) -> CK_RV {
    guard(|| {
        drop(ready()?);
        // SAFETY: checked for NULL by `out`.
        let count = unsafe { out(pulCount) }?;
        if pSlotList.is_null() {
            *count = 1;
            return Ok(());
        }
        if *count < 1 {
            *count = 1;
            return Err(CKR_BUFFER_TOO_SMALL);
        }
        // SAFETY: the list has room for `*count >= 1` slot IDs.
        unsafe { pSlotList.write(SLOT_ID) };
        *count = 1;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_GetSlotInfo(
    slotID: CK_SLOT_ID,
    pInfo: *mut CK_SLOT_INFO,
) -> CK_RV {
    guard(|| {
        drop(ready()?);
        check_slot(slotID)?;
        // SAFETY: checked for NULL by `out`.
        let info = unsafe { out(pInfo) }?;
        *info = CK_SLOT_INFO {
            slotDescription: padded(b"sphincs software slot"),
            manufacturerID: padded(b"sphincs"),
            flags: CKF_TOKEN_PRESENT,
            hardwareVersion: VERSION,
            firmwareVersion: VERSION,
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_GetTokenInfo(
    slotID: CK_SLOT_ID,
    pInfo: *mut CK_TOKEN_INFO,
) -> CK_RV {
    guard(|| {
        let g = ready()?;
        check_slot(slotID)?;
        // SAFETY: checked for NULL by `out`.
        let info = unsafe { out(pInfo) }?;
        let sessions = g.sessions.len() as CK_ULONG;
        let rw = g.sessions.values().filter(|s| s.rw).count() as CK_ULONG;
        *info = CK_TOKEN_INFO {
            label: g.token.label,
            manufacturerID: padded(b"sphincs"),
            model: padded(b"SLH-DSA"),
            serialNumber: padded(b"0001"),
            flags: g.token.flags(),
            ulMaxSessionCount: CK_EFFECTIVELY_INFINITE,
            ulSessionCount: sessions,
            ulMaxRwSessionCount: CK_EFFECTIVELY_INFINITE,
            ulRwSessionCount: rw,
            ulMaxPinLen: MAX_PIN_LEN as CK_ULONG,
            ulMinPinLen: MIN_PIN_LEN as CK_ULONG,
            ulTotalPublicMemory: CK_UNAVAILABLE_INFORMATION,
            ulFreePublicMemory: CK_UNAVAILABLE_INFORMATION,
            ulTotalPrivateMemory: CK_UNAVAILABLE_INFORMATION,
            ulFreePrivateMemory: CK_UNAVAILABLE_INFORMATION,
            hardwareVersion: VERSION,
            firmwareVersion: VERSION,
            utcTime: [b' '; 16],
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_GetMechanismList(
    slotID: CK_SLOT_ID,
    pMechanismList: *mut CK_MECHANISM_TYPE,
    pulCount: *mut CK_ULONG,
) -> CK_RV {
    guard(|| {
        drop(ready()?);
        check_slot(slotID)?;
        // SAFETY: checked for NULL by `out`.
        let count = unsafe { out(pulCount) }?;
        let n = MECHANISMS.len() as CK_ULONG;
        if pMechanismList.is_null() {
            *count = n;
            return Ok(());
        }
        if *count < n {
            *count = n;
            return Err(CKR_BUFFER_TOO_SMALL);
        }
        // SAFETY: the list has room for `*count >= n` mechanism types; ours
        // is a separate static array.
        unsafe {
            std::ptr::copy_nonoverlapping(MECHANISMS.as_ptr(), pMechanismList, MECHANISMS.len())
        };
        *count = n;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_GetMechanismInfo(
    slotID: CK_SLOT_ID,
    type_: CK_MECHANISM_TYPE,
    pInfo: *mut CK_MECHANISM_INFO,
) -> CK_RV {
    guard(|| {
        drop(ready()?);
        check_slot(slotID)?;
        let (min, max, flags) = info(type_).ok_or(CKR_MECHANISM_INVALID)?;
        // SAFETY: checked for NULL by `out`.
        let info = unsafe { out(pInfo) }?;
        *info = CK_MECHANISM_INFO {
            ulMinKeySize: min,
            ulMaxKeySize: max,
            flags,
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_InitToken(
    slotID: CK_SLOT_ID,
    pPin: *mut CK_UTF8CHAR,
    ulPinLen: CK_ULONG,
    pLabel: *mut CK_UTF8CHAR,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        check_slot(slotID)?;
        if pPin.is_null() || pLabel.is_null() {
            return Err(CKR_ARGUMENTS_BAD);
        }
        // SAFETY: non-NULL, valid for `ulPinLen` bytes (caller's contract).
        let pin = unsafe { bytes(pPin, ulPinLen) }?;
        // SAFETY: the label is 32 bytes, blank-padded (the spec's contract).
        let label = unsafe { &*(pLabel as *const [u8; 32]) };
        g.init_token(pin, label)
    })
}

pub(crate) unsafe extern "C" fn C_InitPIN(
    hSession: CK_SESSION_HANDLE,
    pPin: *mut CK_UTF8CHAR,
    ulPinLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        // SAFETY: NULL with a length is refused; else valid for `ulPinLen` bytes.
        let pin = unsafe { bytes(pPin, ulPinLen) }?;
        g.init_pin(hSession, pin)
    })
}

pub(crate) unsafe extern "C" fn C_SetPIN(
    hSession: CK_SESSION_HANDLE,
    pOldPin: *mut CK_UTF8CHAR,
    ulOldLen: CK_ULONG,
    pNewPin: *mut CK_UTF8CHAR,
    ulNewLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        // SAFETY: as in C_InitPIN, for both PINs.
        let (old, new) = unsafe { (bytes(pOldPin, ulOldLen)?, bytes(pNewPin, ulNewLen)?) };
        g.set_pin(hSession, old, new)
    })
}

pub(crate) unsafe extern "C" fn C_OpenSession(
    slotID: CK_SLOT_ID,
    flags: CK_FLAGS,
    _pApplication: *mut c_void,
    _Notify: CK_NOTIFY,
    phSession: *mut CK_SESSION_HANDLE,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        check_slot(slotID)?;
        // SAFETY: checked for NULL by `out`.
        let handle = unsafe { out(phSession) }?;
        *handle = g.open_session(flags)?;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_CloseSession(hSession: CK_SESSION_HANDLE) -> CK_RV {
    guard(|| ready()?.close_session(hSession))
}

pub(crate) unsafe extern "C" fn C_CloseAllSessions(slotID: CK_SLOT_ID) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        check_slot(slotID)?;
        g.close_all_sessions();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_GetSessionInfo(
    hSession: CK_SESSION_HANDLE,
    pInfo: *mut CK_SESSION_INFO,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        let s = g.session(hSession)?;
        let rw = s.rw;
        let state = {
            let s = g
                .sessions
                .get(&hSession)
                .ok_or(CKR_SESSION_HANDLE_INVALID)?;
            g.state(s)
        };
        // SAFETY: checked for NULL by `out`.
        let info = unsafe { out(pInfo) }?;
        *info = CK_SESSION_INFO {
            slotID: SLOT_ID,
            state,
            flags: CKF_SERIAL_SESSION | if rw { CKF_RW_SESSION } else { 0 },
            ulDeviceError: 0,
        };
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn C_Login(
    hSession: CK_SESSION_HANDLE,
    userType: CK_USER_TYPE,
    pPin: *mut CK_UTF8CHAR,
    ulPinLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        let mut g = ready()?;
        // SAFETY: as in C_InitPIN.
        let pin = unsafe { bytes(pPin, ulPinLen) }?;
        g.login(hSession, userType, pin)
    })
}

pub(crate) unsafe extern "C" fn C_Logout(hSession: CK_SESSION_HANDLE) -> CK_RV {
    guard(|| ready()?.logout(hSession))
}

pub(crate) unsafe extern "C" fn C_GenerateRandom(
    hSession: CK_SESSION_HANDLE,
    RandomData: *mut CK_BYTE,
    ulRandomLen: CK_ULONG,
) -> CK_RV {
    guard(|| {
        ready()?.session(hSession)?;
        let len = usize::try_from(ulRandomLen).map_err(|_| CKR_ARGUMENTS_BAD)?;
        if len == 0 {
            return Ok(());
        }
        if RandomData.is_null() {
            return Err(CKR_ARGUMENTS_BAD);
        }
        // SAFETY: non-NULL and valid for writes of `ulRandomLen` bytes.
        let buf = unsafe { std::slice::from_raw_parts_mut(RandomData, len) };
        getrandom::fill(buf).map_err(|_| CKR_DEVICE_ERROR)
    })
}
