//! Reading and writing `OSSL_PARAM` arrays: the one way values cross the
//! provider boundary. A wrong type or size is an error naming the
//! parameter, never a guess.

use std::ffi::{c_char, c_uint, CStr};

use crate::abi::*;
use crate::errors::{Fail, Reason};

/// The parameters of a NULL-terminated `OSSL_PARAM` array.
///
/// # Safety
/// `params` is NULL or points to an array the host terminated with a NULL
/// key, valid for the duration of the call.
pub unsafe fn each<'a>(params: *const Param) -> impl Iterator<Item = &'a Param> {
    let mut p = params;
    std::iter::from_fn(move || {
        if p.is_null() {
            return None;
        }
        // SAFETY: `p` is inside the host's array, which ends with a NULL key
        // (the caller's promise); we never step past that element.
        let cur = unsafe { &*p };
        if cur.key.is_null() {
            return None;
        }
        // SAFETY: the element after a non-terminator is still in the array.
        p = unsafe { p.add(1) };
        Some(cur)
    })
}

/// The name of a parameter.
pub fn key_of(p: &Param) -> &str {
    // SAFETY: a non-terminator's key is a NUL-terminated C string (OSSL_PARAM's contract).
    unsafe { CStr::from_ptr(p.key) }.to_str().unwrap_or("")
}

/// The first parameter called `name`, for writing.
///
/// # Safety
/// As [`each`]; the array must be writable (the host's get_params arrays are).
pub unsafe fn locate<'a>(params: *mut Param, name: &str) -> Option<&'a mut Param> {
    let mut p = params;
    while !p.is_null() {
        // SAFETY: `p` walks the host's writable array up to its NULL-key
        // terminator (the caller's promise); one mutable reference at a time.
        let cur = unsafe { &mut *p };
        if cur.key.is_null() {
            return None;
        }
        if key_of(cur) == name {
            return Some(cur);
        }
        // SAFETY: not at the terminator, so the next element exists.
        p = unsafe { p.add(1) };
    }
    None
}

fn wrong_type(p: &Param, want: &str) -> Fail {
    Fail::new(
        Reason::BadParameter,
        format!(
            "parameter '{}' must be {want} (got OSSL_PARAM type {} of {} bytes)",
            key_of(p),
            p.data_type,
            p.data_size
        ),
    )
}

/// An integer parameter, signed or unsigned, of 1 to 8 bytes in native
/// byte order (`OSSL_PARAM_allocate_from_text` sizes a number from the
/// text, so `-pkeyopt deterministic:1` arrives as one byte).
pub fn get_int(p: &Param) -> Result<i64, Fail> {
    if p.data.is_null() || !matches!(p.data_type, PARAM_INTEGER | PARAM_UNSIGNED_INTEGER) {
        return Err(wrong_type(p, "an integer"));
    }
    if p.data_size == 0 || p.data_size > 8 {
        return Err(wrong_type(p, "an integer of 1 to 8 bytes"));
    }
    let mut buf = [0u8; 8];
    // SAFETY: `data` points to `data_size` (1..=8) readable bytes.
    let bytes = unsafe { std::slice::from_raw_parts(p.data as *const u8, p.data_size) };
    let n = bytes.len();
    let negative = p.data_type == PARAM_INTEGER
        && if cfg!(target_endian = "little") {
            bytes[n - 1] & 0x80 != 0
        } else {
            bytes[0] & 0x80 != 0
        };
    if negative {
        buf = [0xff; 8];
    }
    if cfg!(target_endian = "little") {
        buf[..n].copy_from_slice(bytes);
        let v = i64::from_le_bytes(buf);
        if p.data_type == PARAM_UNSIGNED_INTEGER && n == 8 && v < 0 {
            return Err(wrong_type(p, "an integer below 2^63"));
        }
        Ok(v)
    } else {
        buf[8 - n..].copy_from_slice(bytes);
        let v = i64::from_be_bytes(buf);
        if p.data_type == PARAM_UNSIGNED_INTEGER && n == 8 && v < 0 {
            return Err(wrong_type(p, "an integer below 2^63"));
        }
        Ok(v)
    }
}

/// An octet-string parameter's bytes (borrowed for the call).
pub fn get_octets(p: &Param) -> Result<&[u8], Fail> {
    if p.data_type != PARAM_OCTET_STRING {
        return Err(wrong_type(p, "an octet string"));
    }
    if p.data_size == 0 {
        return Ok(&[]);
    }
    if p.data.is_null() {
        return Err(wrong_type(p, "an octet string with data"));
    }
    // SAFETY: `data` points to `data_size` readable bytes for the call.
    Ok(unsafe { std::slice::from_raw_parts(p.data as *const u8, p.data_size) })
}

/// A UTF-8 string parameter (`utf8_string`; the NUL, if counted, dropped).
pub fn get_utf8(p: &Param) -> Result<&str, Fail> {
    if p.data_type != PARAM_UTF8_STRING || (p.data.is_null() && p.data_size > 0) {
        return Err(wrong_type(p, "a UTF-8 string"));
    }
    let bytes = if p.data_size == 0 {
        &[][..]
    } else {
        // SAFETY: `data` points to `data_size` readable bytes for the call.
        unsafe { std::slice::from_raw_parts(p.data as *const u8, p.data_size) }
    };
    let bytes = bytes.split(|&b| b == 0).next().unwrap_or(&[]);
    std::str::from_utf8(bytes).map_err(|_| wrong_type(p, "valid UTF-8"))
}

/// Sets an integer parameter of either signedness and 4 or 8 bytes.
pub fn set_int(p: &mut Param, v: i64) -> Result<(), Fail> {
    if p.data.is_null() || !matches!(p.data_type, PARAM_INTEGER | PARAM_UNSIGNED_INTEGER) {
        return Err(wrong_type(p, "an integer"));
    }
    let unsigned = p.data_type == PARAM_UNSIGNED_INTEGER;
    if unsigned && v < 0 {
        return Err(wrong_type(p, "a signed integer"));
    }
    // SAFETY: `data` points to `data_size` writable bytes (OSSL_PARAM's
    // contract for a get_params request); we write exactly that many.
    unsafe {
        match p.data_size {
            4 => {
                let x = if unsigned {
                    u32::try_from(v).ok().map(|x| x as i32)
                } else {
                    i32::try_from(v).ok()
                }
                .ok_or_else(|| wrong_type(p, "an 8-byte integer (value too large)"))?;
                (p.data as *mut i32).write_unaligned(x);
            }
            8 => (p.data as *mut i64).write_unaligned(v),
            _ => return Err(wrong_type(p, "a 4- or 8-byte integer")),
        }
    }
    p.return_size = p.data_size;
    Ok(())
}

/// Sets a string parameter: `utf8_string` (copied with its NUL when there
/// is room) or `utf8_ptr` (pointing at our static string).
pub fn set_utf8(p: &mut Param, s: &'static CStr) -> Result<(), Fail> {
    let bytes = s.to_bytes();
    match p.data_type {
        PARAM_UTF8_PTR => {
            // (OSSL_PARAM_construct_utf8_ptr callers often give data_size 0.)
            if p.data.is_null() {
                return Err(wrong_type(p, "a UTF-8 pointer slot"));
            }
            // SAFETY: a utf8_ptr parameter's `data` is a `const char **` slot.
            unsafe { (p.data as *mut *const c_char).write_unaligned(s.as_ptr()) };
        }
        PARAM_UTF8_STRING => {
            if !p.data.is_null() {
                if p.data_size < bytes.len() + 1 {
                    return Err(Fail::new(
                        Reason::BadParameter,
                        format!("buffer for '{}' too small", key_of(p)),
                    ));
                }
                // SAFETY: `data` has `data_size` >= len + 1 writable bytes.
                unsafe {
                    std::ptr::copy_nonoverlapping(bytes.as_ptr(), p.data as *mut u8, bytes.len());
                    *(p.data as *mut u8).add(bytes.len()) = 0;
                }
            }
        }
        _ => return Err(wrong_type(p, "a UTF-8 string")),
    }
    p.return_size = bytes.len();
    Ok(())
}

/// Sets an octet-string parameter (or only its size, when `data` is NULL).
pub fn set_octets(p: &mut Param, v: &[u8]) -> Result<(), Fail> {
    if p.data_type != PARAM_OCTET_STRING {
        return Err(wrong_type(p, "an octet string"));
    }
    p.return_size = v.len();
    if p.data.is_null() {
        return Ok(());
    }
    if p.data_size < v.len() {
        return Err(Fail::new(
            Reason::BadParameter,
            format!(
                "buffer for '{}' is {} bytes; {} needed",
                key_of(p),
                p.data_size,
                v.len()
            ),
        ));
    }
    // SAFETY: `data` has `data_size` >= v.len() writable bytes.
    unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), p.data as *mut u8, v.len()) };
    Ok(())
}

/// A parameter descriptor for gettable/settable tables.
pub const fn describe(key: &'static CStr, data_type: c_uint) -> Param {
    Param {
        key: key.as_ptr(),
        data_type,
        data: std::ptr::null_mut(),
        // An int, as OSSL_PARAM_int(key, NULL) describes it; strings: any size.
        data_size: if data_type == PARAM_INTEGER { 4 } else { 0 },
        return_size: PARAM_UNMODIFIED,
    }
}
