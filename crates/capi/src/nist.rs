//! The entry points behind the NIST-API drop-in headers
//! (`include/sphincs/nist/NAME.h`): the round-3.1 reference code's `api.h`
//! functions (SUPERCOP's for SPHINCS-256) for any set named at the call,
//! with the reference's conventions: 0 on success, -1 on any failure; raw
//! keys; `crypto_sign` output is signature ‖ message; randomness from the
//! program's `randombytes` when the header passes one, else from the
//! operating system (SPHINCS-256 signs deterministically: keys only).
//!
//! Each header defines `crypto_sign_*` as `static inline` wrappers that pass
//! the set's name and `randombytes` (a weak reference there: NULL when the
//! program defines none) to these functions.

use core::ffi::{c_char, c_int, c_uchar, c_ulonglong};

use sphincs_core::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey};
use sphincs_core::{Randomness, SignOptions};
use zeroize::Zeroizing;

use crate::ffi::{c_str, guard, input, non_null, set, Res};
use crate::status::*;

/// The program's `randombytes(x, xlen)`: fills `x` with `xlen` random bytes.
#[allow(non_camel_case_types)]
pub type sphincs_randombytes_fn = Option<unsafe extern "C" fn(x: *mut c_uchar, xlen: c_ulonglong)>;

/// 0 for success, -1 for anything else, as the reference code returns.
fn nist(status: sphincs_status) -> c_int {
    if status == SPHINCS_OK {
        0
    } else {
        -1
    }
}

/// # Safety
/// `name` must be NULL or NUL-terminated.
unsafe fn scheme(name: *const c_char) -> Res<AnyAlgorithm> {
    // SAFETY: forwarded contract.
    Ok(unsafe { c_str(name, SPHINCS_ERR_UNKNOWN_ALGORITHM)? }.parse()?)
}

/// `len` bytes from the program's `randombytes`.
fn draw(rb: unsafe extern "C" fn(*mut c_uchar, c_ulonglong), len: usize) -> Zeroizing<Vec<u8>> {
    let mut buf = Zeroizing::new(vec![0u8; len]);
    // SAFETY: `buf` has `len` writable bytes; `randombytes` writes exactly `xlen`.
    unsafe { rb(buf.as_mut_ptr(), len as c_ulonglong) };
    buf
}

/// A key from `seed` (3n bytes; SPHINCS-256: the 1088 secret-key bytes),
/// written as raw pk and sk.
///
/// # Safety
/// `pk` and `sk` must hold the set's key lengths.
unsafe fn write_keypair(
    s: AnyAlgorithm,
    pk: *mut c_uchar,
    sk: *mut c_uchar,
    seed: Option<&[u8]>,
) -> Res {
    non_null(pk)?;
    non_null(sk)?;
    let k = match seed {
        Some(seed) => AnySigningKey::from_seed(s, seed, 1)?,
        None => AnySigningKey::generate(s, 1)?,
    };
    let (pk_raw, sk_raw) = (k.verifying_key().to_bytes(), k.to_bytes());
    // SAFETY: `pk`/`sk` hold CRYPTO_PUBLICKEYBYTES/CRYPTO_SECRETKEYBYTES bytes
    // (the header's contract), which these lengths are.
    unsafe {
        core::ptr::copy_nonoverlapping(pk_raw.as_ptr(), pk, pk_raw.len());
        core::ptr::copy_nonoverlapping(sk_raw.as_ptr(), sk, sk_raw.len());
    }
    Ok(())
}

/// `crypto_sign_keypair`: 3n bytes from `randombytes` (or the OS) as the
/// seed (SPHINCS-256: the 1088 secret-key bytes, as SUPERCOP's does).
#[no_mangle]
pub unsafe extern "C" fn sphincs_nist_keypair(
    alg: *const c_char,
    pk: *mut c_uchar,
    sk: *mut c_uchar,
    randombytes: sphincs_randombytes_fn,
) -> c_int {
    nist(guard(|| {
        // SAFETY: `alg` is the header's NUL-terminated set name.
        let s = unsafe { scheme(alg)? };
        let seed = randombytes.map(|rb| draw(rb, s.seed_len()));
        // SAFETY: key buffers of the set's sizes (the header's contract).
        unsafe { write_keypair(s, pk, sk, seed.as_ref().map(|v| &v[..])) }
    }))
}

/// `crypto_sign_seed_keypair`: the key pair of `seed` (CRYPTO_SEEDBYTES = 3n;
/// SPHINCS-256: 1088, the secret key itself).
#[no_mangle]
pub unsafe extern "C" fn sphincs_nist_seed_keypair(
    alg: *const c_char,
    pk: *mut c_uchar,
    sk: *mut c_uchar,
    seed: *const c_uchar,
) -> c_int {
    nist(guard(|| {
        // SAFETY: `alg` is the header's NUL-terminated set name.
        let s = unsafe { scheme(alg)? };
        non_null(seed)?;
        // SAFETY: `seed` holds CRYPTO_SEEDBYTES bytes (the header's contract).
        let seed = unsafe { input(seed, s.seed_len())? };
        // SAFETY: key buffers of the set's sizes (the header's contract).
        unsafe { write_keypair(s, pk, sk, Some(seed)) }
    }))
}

/// The detached signature of `msg` under the raw secret key `sk`: pure,
/// empty context for FIPS 205 sets; n bytes of randomness from `randombytes`
/// (or the OS). The key is not re-checked (as in the reference code).
/// SPHINCS-256 is deterministic: nothing is drawn.
fn sign_raw(
    s: AnyAlgorithm,
    sk: &[u8],
    msg: &[u8],
    randombytes: sphincs_randombytes_fn,
) -> Res<Vec<u8>> {
    let given = match s.randomness_len() {
        0 => None,
        n => randombytes.map(|rb| draw(rb, n)),
    };
    let randomness = match &given {
        Some(r) => Randomness::Given(r),
        None => Randomness::Hedged,
    };
    let opts = SignOptions {
        randomness,
        ..Default::default()
    };
    Ok(AnySigningKey::from_bytes_unchecked(s, sk)?.sign(msg, &opts)?)
}

fn verify_raw(s: AnyAlgorithm, pk: &[u8], msg: &[u8], sig: &[u8]) -> Res {
    Ok(AnyVerifyingKey::from_bytes(s, pk)?.verify(msg, sig, &[], None)?)
}

/// `crypto_sign_signature`: writes CRYPTO_BYTES to `sig` and `*siglen`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_nist_signature(
    alg: *const c_char,
    sig: *mut u8,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    sk: *const u8,
    randombytes: sphincs_randombytes_fn,
) -> c_int {
    nist(guard(|| {
        // SAFETY: `alg` is the header's NUL-terminated set name.
        let s = unsafe { scheme(alg)? };
        non_null(sig)?;
        non_null(sk)?;
        // SAFETY: `sk` holds CRYPTO_SECRETKEYBYTES, `m` holds `mlen` bytes (header contract).
        let (sk, msg) = unsafe { (input(sk, s.secret_key_len())?, input(m, mlen)?) };
        let signature = sign_raw(s, sk, msg, randombytes)?;
        // SAFETY: `sig` holds CRYPTO_BYTES bytes (header contract); `siglen` writable.
        unsafe {
            core::ptr::copy_nonoverlapping(signature.as_ptr(), sig, signature.len());
            set(siglen, signature.len())
        }
    }))
}

/// `crypto_sign_verify`: 0 if `sig` is a valid signature of `m`, else -1.
#[no_mangle]
pub unsafe extern "C" fn sphincs_nist_verify(
    alg: *const c_char,
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    pk: *const u8,
) -> c_int {
    nist(guard(|| {
        // SAFETY: `alg` is the header's NUL-terminated set name.
        let s = unsafe { scheme(alg)? };
        non_null(sig)?;
        non_null(pk)?;
        // SAFETY: each pointer holds its length (header contract).
        let (sig, msg, pk) = unsafe {
            (
                input(sig, siglen)?,
                input(m, mlen)?,
                input(pk, s.public_key_len())?,
            )
        };
        verify_raw(s, pk, msg, sig)
    }))
}

fn len(x: c_ulonglong) -> Res<usize> {
    usize::try_from(x).map_err(|_| SPHINCS_ERR_INVALID_LENGTH)
}

/// `crypto_sign`: `sm` = signature ‖ message, `*smlen` = CRYPTO_BYTES + mlen.
/// As in the reference, `m` may lie inside `sm` (it is moved first).
#[no_mangle]
pub unsafe extern "C" fn sphincs_nist_sign(
    alg: *const c_char,
    sm: *mut c_uchar,
    smlen: *mut c_ulonglong,
    m: *const c_uchar,
    mlen: c_ulonglong,
    sk: *const c_uchar,
    randombytes: sphincs_randombytes_fn,
) -> c_int {
    nist(guard(|| {
        // SAFETY: `alg` is the header's NUL-terminated set name.
        let s = unsafe { scheme(alg)? };
        let (bytes, mlen) = (s.signature_len(), len(mlen)?);
        non_null(sm)?;
        non_null(sk)?;
        non_null(smlen)?;
        if mlen > 0 {
            non_null(m)?;
        }
        if mlen > isize::MAX as usize - bytes {
            return Err(SPHINCS_ERR_INVALID_LENGTH);
        }
        // SAFETY: `sm` holds CRYPTO_BYTES + mlen bytes and `m` mlen bytes (header
        // contract); `copy` is memmove, so they may overlap as the reference allows.
        let msg = unsafe {
            core::ptr::copy(m, sm.add(bytes), mlen);
            input(sm.add(bytes), mlen)?
        };
        // SAFETY: `sk` holds CRYPTO_SECRETKEYBYTES (header contract).
        let sk = unsafe { input(sk, s.secret_key_len())? };
        let signature = sign_raw(s, sk, msg, randombytes)?;
        // SAFETY: the first CRYPTO_BYTES of `sm` do not overlap the message
        // copy behind them; `smlen` is writable.
        unsafe {
            core::ptr::copy_nonoverlapping(signature.as_ptr(), sm, bytes);
            set(smlen, (bytes + mlen) as c_ulonglong)
        }
    }))
}

/// `crypto_sign_open`: if `sm` = signature ‖ message verifies, writes the
/// message to `m` (which may lie inside `sm`) and its length to `*mlen`;
/// else -1, `*mlen` = 0 and `m` zeroed, as in the reference.
#[no_mangle]
pub unsafe extern "C" fn sphincs_nist_open(
    alg: *const c_char,
    m: *mut c_uchar,
    mlen: *mut c_ulonglong,
    sm: *const c_uchar,
    smlen: c_ulonglong,
    pk: *const c_uchar,
) -> c_int {
    let status = guard(|| {
        // SAFETY: `alg` is the header's NUL-terminated set name.
        let s = unsafe { scheme(alg)? };
        let (bytes, smlen) = (s.signature_len(), len(smlen)?);
        non_null(m)?;
        non_null(sm)?;
        non_null(pk)?;
        non_null(mlen)?;
        if smlen < bytes {
            return Err(SPHINCS_ERR_INVALID_LENGTH);
        }
        // SAFETY: `sm` holds `smlen` bytes, `pk` CRYPTO_PUBLICKEYBYTES (header contract).
        let (signed, pk) = unsafe { (input(sm, smlen)?, input(pk, s.public_key_len())?) };
        verify_raw(s, pk, &signed[bytes..], &signed[..bytes])?;
        // SAFETY: `m` holds `smlen` bytes (header contract); memmove, since the
        // reference lets `m` and `sm` overlap; the `signed` borrow ends here.
        unsafe {
            core::ptr::copy(sm.add(bytes), m, smlen - bytes);
            set(mlen, (smlen - bytes) as c_ulonglong)
        }
    });
    if status != SPHINCS_OK {
        // `guard_value`: this clean-up must keep the failure's last error message.
        crate::panic_guard::guard_value((), || {
            if !mlen.is_null() {
                // SAFETY: writable by the header's contract.
                unsafe { mlen.write(0) };
            }
            if !m.is_null() {
                if let Ok(n) = len(smlen) {
                    // SAFETY: `m` holds `smlen` bytes (header contract), as the reference zeroes.
                    unsafe { core::ptr::write_bytes(m, 0, n) };
                }
            }
        });
    }
    nist(status)
}
