//! The glue's buffers and the reply blocks every call answers with.

use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;
use sphincs_core::Error;
use zeroize::Zeroize;

/// Status of a reply: the payload is the output.
pub const OK: u32 = 0;
/// Status of a reply: the payload is the core's error text (UTF-8).
pub const ERROR: u32 = 1;

/// Reserves `len` zeroed bytes for the glue to write an argument into.
#[no_mangle]
pub extern "C" fn slhjs_alloc(len: usize) -> *mut u8 {
    Box::into_raw(alloc::vec![0u8; len].into_boxed_slice()).cast::<u8>()
}

/// Wipes and releases a buffer of [`slhjs_alloc`].
#[no_mangle]
pub unsafe extern "C" fn slhjs_free(ptr: *mut u8, len: usize) {
    if ptr.is_null() {
        return;
    }
    // SAFETY: the glue passes back a pointer [`slhjs_alloc`] returned for
    // this same `len`, once; it is a `Box<[u8]>` of `len` bytes.
    let mut buf = unsafe { Box::from_raw(core::ptr::slice_from_raw_parts_mut(ptr, len)) };
    buf.zeroize();
}

/// The bytes of an argument buffer (empty for a zero length, whatever the
/// pointer).
pub(crate) unsafe fn arg<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 || ptr.is_null() {
        return &[];
    }
    // SAFETY: the glue passes a buffer of [`slhjs_alloc`] of at least `len`
    // bytes, which it keeps alive and unchanged until the call returns.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// One reply block: `total length (u32 LE) ‖ status (u32 LE) ‖ payload`,
/// a `Box<[u8]>` handed to the glue by pointer; the payload is `parts` one
/// after another.
pub(crate) fn reply(status: u32, parts: &[&[u8]]) -> *mut u8 {
    let total = 8 + parts.iter().map(|p| p.len()).sum::<usize>();
    let mut block = Vec::with_capacity(total);
    block.extend_from_slice(&(total as u32).to_le_bytes());
    block.extend_from_slice(&status.to_le_bytes());
    for p in parts {
        block.extend_from_slice(p);
    }
    Box::into_raw(block.into_boxed_slice()).cast::<u8>()
}

/// The output of a call, or the core's error text.
pub(crate) fn answer<T: AsRef<[u8]>>(result: Result<T, Error>) -> *mut u8 {
    match result {
        Ok(out) => reply(OK, &[out.as_ref()]),
        Err(e) => failure(&e),
    }
}

/// The core's text for `e`.
pub(crate) fn failure(e: &Error) -> *mut u8 {
    reply(ERROR, &[format!("{e}").as_bytes()])
}

/// Wipes and releases a reply block.
#[no_mangle]
pub unsafe extern "C" fn slhjs_reply_free(ptr: *mut u8) {
    if ptr.is_null() {
        return;
    }
    let mut len = [0u8; 4];
    // SAFETY: `ptr` is a reply block of [`Reply::new`], at least 8 bytes,
    // whose first four hold its total length.
    unsafe { core::ptr::copy_nonoverlapping(ptr, len.as_mut_ptr(), 4) };
    let len = u32::from_le_bytes(len) as usize;
    // SAFETY: the block is a `Box<[u8]>` of exactly that length, released once.
    let mut block = unsafe { Box::from_raw(core::ptr::slice_from_raw_parts_mut(ptr, len)) };
    block.zeroize();
}
