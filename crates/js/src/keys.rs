//! RFC 9909 key files in and out: PKCS#8 secret keys and SPKI public keys,
//! PEM or DER, through the core's encodings.

use alloc::string::String;
use alloc::vec::Vec;
use sphincs_core::any::{AnySigningKey, AnyVerifyingKey};
use sphincs_core::KeyMode;

use crate::calls::{algorithm, number};
use crate::memory::{answer, arg, failure, reply, OK};

#[cfg(feature = "sign")]
/// The raw secret key `sk` of set `id` as PKCS#8: PEM (`PRIVATE KEY`) when
/// `pem` is non-zero, else DER. The key's public root is checked first.
#[no_mangle]
pub unsafe extern "C" fn slhjs_secret_key_to_pkcs8(
    id: u32,
    sk: *const u8,
    sk_len: usize,
    pem: u32,
) -> *mut u8 {
    // SAFETY: an argument buffer of the glue (`memory::arg`).
    let sk = unsafe { arg(sk, sk_len) };
    let key = match algorithm(id).and_then(|alg| AnySigningKey::from_bytes(alg, sk)) {
        Ok(key) => key,
        Err(e) => return failure(&e),
    };
    if pem != 0 {
        match key.to_pkcs8_pem() {
            Ok(text) => reply(OK, &[text.as_bytes()]),
            Err(e) => failure(&e),
        }
    } else {
        match key.to_pkcs8_der() {
            Ok(der) => reply(OK, &[&der]),
            Err(e) => failure(&e),
        }
    }
}

/// The raw public key `pk` of set `id` as SubjectPublicKeyInfo: PEM
/// (`PUBLIC KEY`) when `pem` is non-zero, else DER.
#[no_mangle]
pub unsafe extern "C" fn slhjs_public_key_to_spki(
    id: u32,
    pk: *const u8,
    pk_len: usize,
    pem: u32,
) -> *mut u8 {
    // SAFETY: an argument buffer of the glue (`memory::arg`).
    let pk = unsafe { arg(pk, pk_len) };
    let key = match algorithm(id).and_then(|alg| AnyVerifyingKey::from_bytes(alg, pk)) {
        Ok(key) => key,
        Err(e) => return failure(&e),
    };
    if pem != 0 {
        answer(key.to_spki_pem().map(String::into_bytes))
    } else {
        answer(key.to_spki_der())
    }
}

/// The set and pre-hash mode of a key read from a file: set number (u32
/// LE), then 1 if its OID is a HashSLH-DSA one, else 0.
fn header(id: u32, hash_mode: bool) -> [u8; 5] {
    let mut h = [0u8; 5];
    h[..4].copy_from_slice(&id.to_le_bytes());
    h[4] = u8::from(hash_mode);
    h
}

#[cfg(feature = "sign")]
/// Reads a PKCS#8 secret key, PEM or DER: header (set number, mode), then
/// public key ‖ raw secret key.
#[no_mangle]
pub unsafe extern "C" fn slhjs_secret_key_from_pkcs8(input: *const u8, len: usize) -> *mut u8 {
    // SAFETY: an argument buffer of the glue (`memory::arg`).
    let input = unsafe { arg(input, len) };
    match AnySigningKey::from_pkcs8(input) {
        Ok(key) => {
            let hash_mode = matches!(key.mode(), Some(KeyMode::HashSlhDsa(_)));
            let head = header(number(key.algorithm()), hash_mode);
            let pk: Vec<u8> = key.verifying_key().to_bytes();
            reply(OK, &[&head, &pk, &key.to_bytes()])
        }
        Err(e) => failure(&e),
    }
}

/// Reads a SubjectPublicKeyInfo, PEM or DER: header (set number, mode),
/// then the raw public key.
#[no_mangle]
pub unsafe extern "C" fn slhjs_public_key_from_spki(input: *const u8, len: usize) -> *mut u8 {
    // SAFETY: an argument buffer of the glue (`memory::arg`).
    let input = unsafe { arg(input, len) };
    match AnyVerifyingKey::from_spki(input) {
        Ok(key) => {
            let hash_mode = matches!(key.mode(), Some(KeyMode::HashSlhDsa(_)));
            reply(
                OK,
                &[&header(number(key.algorithm()), hash_mode), &key.to_bytes()],
            )
        }
        Err(e) => failure(&e),
    }
}
