//! `sphincs_verify_embedded`: SLH-DSA verification (FIPS 205 Algorithms 24
//! and 20, pure, empty context) for a C bootloader, as a static library. The
//! firmware image is never held in RAM: it is read through the caller's
//! callback in chunks of [`CHUNK`] bytes and streamed into H_msg. The
//! public key and the signature are read in place (the authentication paths
//! are never copied). No heap, no `core::fmt`; every bad input is an error
//! code, and a panic (a bug, never input-driven) traps with `udf`.
//!
//! The sets built in are the crate's features (`sha2-128s` by default,
//! `all` for every FIPS 205 and SP 800-230 set); the C names and codes are
//! in `include/sphincs_embedded.h`.
#![no_std]

use sphincs::{Error, MessageSource, ParameterSet, VerifyingKey};

/// Bytes asked of the read callback at a time (on the verifier's stack).
pub const CHUNK: usize = 64;

/// The signature verifies.
pub const SPHINCS_EMB_OK: i32 = 0;
/// The signature does not verify (a wrong or tampered image, signature or key).
pub const SPHINCS_EMB_INVALID: i32 = 1;
/// `alg` names no set, or one this library was built without.
pub const SPHINCS_EMB_ERR_ALG: i32 = -1;
/// The public key's length is not the set's.
pub const SPHINCS_EMB_ERR_PK_LEN: i32 = -2;
/// The signature's length is not the set's.
pub const SPHINCS_EMB_ERR_SIG_LEN: i32 = -3;
/// The read callback returned non-zero.
pub const SPHINCS_EMB_ERR_READ: i32 = -4;
/// A null pointer where data was expected.
pub const SPHINCS_EMB_ERR_NULL: i32 = -5;

/// Reads `len` bytes of the image at `offset` into `buf`; 0 on success.
pub type ReadFn =
    unsafe extern "C" fn(ctx: *mut core::ffi::c_void, offset: u32, buf: *mut u8, len: u32) -> i32;

/// The image as a message stream: the callback, chunk by chunk.
struct Image {
    read: ReadFn,
    ctx: *mut core::ffi::c_void,
    len: u32,
}

impl MessageSource for Image {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        let mut buf = [0u8; CHUNK];
        let mut offset = 0u32;
        while offset < self.len {
            let take = (self.len - offset).min(CHUNK as u32);
            // SAFETY: `buf` is a live local of `CHUNK` ≥ `take` bytes; the
            // callback and `ctx` are the caller's, who promised (header) that
            // it writes at most `len` bytes to `buf` and keeps `ctx` valid.
            let r = unsafe { (self.read)(self.ctx, offset, buf.as_mut_ptr(), take) };
            if r != 0 {
                return Err(Error::Io("the image's read callback failed"));
            }
            sink(&buf[..take as usize]);
            offset += take;
        }
        Ok(())
    }
}

/// Verifies under set `P`; the lengths are checked here, before any slice
/// is made of the caller's pointers.
fn verify<P: ParameterSet>(
    pk: *const u8,
    pk_len: usize,
    sig: *const u8,
    sig_len: usize,
    image: &mut Image,
) -> i32 {
    let p = P::PARAMS;
    if pk_len != p.pk_bytes() {
        return SPHINCS_EMB_ERR_PK_LEN;
    }
    if sig_len != p.sig_bytes() {
        return SPHINCS_EMB_ERR_SIG_LEN;
    }
    // SAFETY: both pointers are non-null (checked by the caller of this
    // function) and, by the header's contract, valid for reads of the
    // lengths given, which are the set's own; the bytes are not written
    // while we run.
    let (pk, sig) = unsafe {
        (
            core::slice::from_raw_parts(pk, pk_len),
            core::slice::from_raw_parts(sig, sig_len),
        )
    };
    let Ok(vk) = VerifyingKey::<P>::from_bytes(pk) else {
        return SPHINCS_EMB_ERR_PK_LEN;
    };
    match vk.verify_stream(image, sig, b"", None) {
        Ok(()) => SPHINCS_EMB_OK,
        Err(Error::InvalidSignature) => SPHINCS_EMB_INVALID,
        Err(Error::Io(_)) => SPHINCS_EMB_ERR_READ,
        Err(_) => SPHINCS_EMB_INVALID,
    }
}

/// The table of sets: the C code, the feature that builds it in, the type.
macro_rules! sets {
    ($( $code:literal, $feature:literal, $ty:ident; )*) => {
        fn verify_alg(alg: u32, pk: *const u8, pk_len: usize, sig: *const u8, sig_len: usize, image: &mut Image) -> i32 {
            match alg {
                $(
                    #[cfg(feature = $feature)]
                    $code => verify::<sphincs::$ty>(pk, pk_len, sig, sig_len, image),
                )*
                _ => SPHINCS_EMB_ERR_ALG,
            }
        }
    };
}

sets! {
    1, "sha2-128s", Sha2_128s;
    2, "sha2-128f", Sha2_128f;
    3, "sha2-192s", Sha2_192s;
    4, "sha2-192f", Sha2_192f;
    5, "sha2-256s", Sha2_256s;
    6, "sha2-256f", Sha2_256f;
    7, "shake-128s", Shake128s;
    8, "shake-128f", Shake128f;
    9, "shake-192s", Shake192s;
    10, "shake-192f", Shake192f;
    11, "shake-256s", Shake256s;
    12, "shake-256f", Shake256f;
    13, "sha2-128-24", Sha2_128_24;
    14, "sha2-192-24", Sha2_192_24;
    15, "sha2-256-24", Sha2_256_24;
    16, "shake-128-24", Shake128_24;
    17, "shake-192-24", Shake192_24;
    18, "shake-256-24", Shake256_24;
}

/// Verifies the signature `sig` of the `image_len`-byte image that `read`
/// reads (with `ctx`) under the public key `pk` of set `alg`. See the header.
///
/// # Safety
/// `pk` and `sig` must be valid for reads of `pk_len` and `sig_len` bytes;
/// `read` must be a function that writes at most `len` bytes to `buf`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_verify_embedded(
    alg: u32,
    pk: *const u8,
    pk_len: usize,
    sig: *const u8,
    sig_len: usize,
    read: Option<ReadFn>,
    ctx: *mut core::ffi::c_void,
    image_len: u32,
) -> i32 {
    let Some(read) = read else {
        return SPHINCS_EMB_ERR_NULL;
    };
    if pk.is_null() || sig.is_null() {
        return SPHINCS_EMB_ERR_NULL;
    }
    let mut image = Image {
        read,
        ctx,
        len: image_len,
    };
    verify_alg(alg, pk, pk_len, sig, sig_len, &mut image)
}

/// A short English text for a code of [`sphincs_verify_embedded`] (a
/// static NUL-terminated string).
#[no_mangle]
pub extern "C" fn sphincs_embedded_strerror(code: i32) -> *const core::ffi::c_char {
    let s: &'static core::ffi::CStr = match code {
        SPHINCS_EMB_OK => c"signature valid",
        SPHINCS_EMB_INVALID => c"signature invalid",
        SPHINCS_EMB_ERR_ALG => c"unknown parameter set, or not built in",
        SPHINCS_EMB_ERR_PK_LEN => c"public key length is not the set's",
        SPHINCS_EMB_ERR_SIG_LEN => c"signature length is not the set's",
        SPHINCS_EMB_ERR_READ => c"the image's read callback failed",
        SPHINCS_EMB_ERR_NULL => c"null pointer argument",
        _ => c"unknown error code",
    };
    s.as_ptr()
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        // SAFETY: `udf` raises an undefined-instruction fault, which the
        // bootloader's fault handler takes; it touches no memory. A panic
        // here is a bug (inputs are checked), never formatted.
        unsafe { core::arch::asm!("udf #0", options(nomem, nostack)) };
    }
}
