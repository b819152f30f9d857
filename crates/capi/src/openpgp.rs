//! OpenPGP (RFC 9580 v6 keys, RFC 9980 SLH-DSA) from C, over the core's
//! `sphincs::openpgp::one_shot`: make a key, extract its certificate, sign
//! (detached binary or text, or cleartext) and verify. Keys, certificates
//! and signatures are bytes in (armored or binary) and armored text out, in
//! the caller's buffer: a call with a buffer too small returns
//! `SPHINCS_ERR_BUFFER_TOO_SMALL` and the length needed, and makes nothing
//! the caller sees (a key or signature made for the size is dropped; a
//! 64 KiB buffer holds any signature, 128 KiB any key with one User ID).

use core::ffi::{c_char, c_int};

use sphincs_core::openpgp::{one_shot, ErrorKind, PgpError, Verification};

use crate::ffi::{c_str, guard, input, non_null, output, Res};
use crate::last_error;
use crate::status::sphincs_status::{self, *};

/// `sphincs_openpgp_sign`'s `mode`: a detached signature over the bytes.
pub const SPHINCS_OPENPGP_BINARY: c_int = 0;
/// A detached signature over canonical text (line endings do not matter).
pub const SPHINCS_OPENPGP_TEXT: c_int = 1;
/// A cleartext-signed message (RFC 9580 §7) of UTF-8 text.
pub const SPHINCS_OPENPGP_CLEARTEXT: c_int = 2;

fn status(e: PgpError) -> sphincs_status {
    let s = match e.kind {
        ErrorKind::BadSignature => SPHINCS_ERR_INVALID_SIGNATURE,
        ErrorKind::KeyIsProtected | ErrorKind::WrongPassphrase => SPHINCS_ERR_WRONG_PASSPHRASE,
        ErrorKind::Malformed => SPHINCS_ERR_ENCODING,
        ErrorKind::Unsupported | ErrorKind::KeyCannotSign => SPHINCS_ERR_UNSUPPORTED,
        ErrorKind::ExpectedText => SPHINCS_ERR_INVALID_ARGUMENT,
        ErrorKind::Other => SPHINCS_ERR_INTERNAL,
    };
    last_error::note(s as c_int, e.message);
    s
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// An optional byte string: NULL is none.
///
/// # Safety
/// `ptr`, if not NULL, holds `len` bytes.
unsafe fn opt_input<'a>(ptr: *const u8, len: usize) -> Res<Option<&'a [u8]>> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    unsafe { input(ptr, len) }.map(Some)
}

/// Writes the good signature's signing-key fingerprint (64 upper-case hex
/// digits and a NUL) to `fpr`, if not NULL.
///
/// # Safety
/// `fpr`, if not NULL, is writable for 65 bytes.
unsafe fn write_fingerprint(fpr: *mut c_char, v: &Verification) {
    if fpr.is_null() {
        return;
    }
    let hex = v.signing_key.to_hex();
    // SAFETY: 65 writable bytes by the caller's contract; 64 + NUL written.
    unsafe {
        core::ptr::copy_nonoverlapping(hex.as_ptr().cast::<c_char>(), fpr, 64);
        fpr.add(64).write(0);
    }
}

/// Makes an OpenPGP secret key: an SLH-DSA primary key of `profile`
/// ("slh-dsa-shake-128s", "slh-dsa-shake-128f" or "slh-dsa-shake-256s")
/// that certifies and signs, with the User ID `user_id` (or none for NULL),
/// protected with `passphrase` (Argon2id + AES-256-OCB) unless it is NULL;
/// armored into `out`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_openpgp_generate_key(
    profile: *const c_char,
    user_id: *const c_char,
    passphrase: *const u8,
    passphrase_len: usize,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: NUL-terminated strings and a passphrase of its length, by the API contract.
        let profile = unsafe { c_str(profile, SPHINCS_ERR_UNKNOWN_ALGORITHM)? };
        let uids = if user_id.is_null() {
            Vec::new()
        } else {
            // SAFETY: as above.
            vec![unsafe { c_str(user_id, SPHINCS_ERR_INVALID_ARGUMENT)? }.to_string()]
        };
        // SAFETY: as above.
        let pass = unsafe { opt_input(passphrase, passphrase_len)? };
        let key = one_shot::generate_key(profile, &uids, now() as u32, pass).map_err(status)?;
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, key.as_bytes()) }
    })
}

/// Writes the certificate (public key, armored) of an OpenPGP key.
#[no_mangle]
pub unsafe extern "C" fn sphincs_openpgp_extract_cert(
    key: *const u8,
    key_len: usize,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: `key` holds `key_len` bytes by the API contract.
        let key = unsafe { input(non_null(key)?, key_len)? };
        let cert = one_shot::extract_cert(key).map_err(status)?;
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, cert.as_bytes()) }
    })
}

/// Signs `msg` with the OpenPGP secret key `key` (unlocked with
/// `passphrase` if protected; NULL for none): `SPHINCS_OPENPGP_BINARY` or
/// `_TEXT` make an armored detached signature, `_CLEARTEXT` a
/// cleartext-signed message. `threads` as for `sphincs_sign` (0: every core).
#[no_mangle]
pub unsafe extern "C" fn sphincs_openpgp_sign(
    key: *const u8,
    key_len: usize,
    passphrase: *const u8,
    passphrase_len: usize,
    msg: *const u8,
    msg_len: usize,
    mode: c_int,
    threads: usize,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: each pointer holds its length by the API contract.
        let key = unsafe { input(non_null(key)?, key_len)? };
        // SAFETY: as above.
        let pass = unsafe { opt_input(passphrase, passphrase_len)? };
        // SAFETY: as above.
        let msg = unsafe { input(non_null(msg)?, msg_len)? };
        let threads = crate::ffi::threads(threads);
        let signed = match mode {
            SPHINCS_OPENPGP_BINARY | SPHINCS_OPENPGP_TEXT => one_shot::sign_detached(
                key,
                pass,
                msg,
                mode == SPHINCS_OPENPGP_TEXT,
                now(),
                threads,
            )
            .map(String::into_bytes),
            SPHINCS_OPENPGP_CLEARTEXT => one_shot::clearsign(key, pass, msg, now(), threads),
            _ => return Err(SPHINCS_ERR_INVALID_ARGUMENT),
        }
        .map_err(status)?;
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, &signed) }
    })
}

/// Checks the detached OpenPGP signature `sig` over `msg` with the
/// certificates `certs` (one or more): `SPHINCS_OK`, writing the signing
/// key's fingerprint to `fingerprint` (65 bytes, or NULL), or
/// `SPHINCS_ERR_INVALID_SIGNATURE`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_openpgp_verify(
    certs: *const u8,
    certs_len: usize,
    sig: *const u8,
    sig_len: usize,
    msg: *const u8,
    msg_len: usize,
    fingerprint: *mut c_char,
) -> sphincs_status {
    guard(|| {
        // SAFETY: each pointer holds its length by the API contract.
        let (certs, sig, msg) = unsafe {
            (
                input(non_null(certs)?, certs_len)?,
                input(non_null(sig)?, sig_len)?,
                input(non_null(msg)?, msg_len)?,
            )
        };
        let v = one_shot::verify_detached(certs, sig, msg, now()).map_err(status)?;
        // SAFETY: 65 writable bytes or NULL by the API contract.
        unsafe { write_fingerprint(fingerprint, &v) };
        Ok(())
    })
}

/// Checks a cleartext-signed message with the certificates `certs`: its
/// text into `out`, the signing key's fingerprint into `fingerprint` (65
/// bytes, or NULL); `SPHINCS_ERR_INVALID_SIGNATURE` if no signature checks out.
#[no_mangle]
pub unsafe extern "C" fn sphincs_openpgp_verify_cleartext(
    certs: *const u8,
    certs_len: usize,
    signed: *const u8,
    signed_len: usize,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
    fingerprint: *mut c_char,
) -> sphincs_status {
    guard(|| {
        // SAFETY: each pointer holds its length by the API contract.
        let (certs, signed) = unsafe {
            (
                input(non_null(certs)?, certs_len)?,
                input(non_null(signed)?, signed_len)?,
            )
        };
        let (text, v) = one_shot::verify_cleartext(certs, signed, now()).map_err(status)?;
        // SAFETY: 65 writable bytes or NULL by the API contract.
        unsafe { write_fingerprint(fingerprint, &v) };
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, &text) }
    })
}
