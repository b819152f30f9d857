//! Key objects: key generation (OS randomness or seeds), raw import/export,
//! PEM/DER (RFC 9909) import/export. A key is a heap object the caller frees;
//! freeing a secret key wipes it (the core's key types zeroize on drop).
//! A FIPS 205 key carries its mode (`crate::mode`): PEM/DER keep it.

use core::ffi::c_int;

use sphincs_core::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey, KeyOpener, MemoryTreeCache};
use sphincs_core::Error;
use zeroize::Zeroizing;

use crate::alg::{handle, resolve, sphincs_alg};
use crate::ffi::{guard, input, non_null, output, set, Res};
use crate::panic_guard::guard_value;
use crate::status::*;

/// A secret key of any parameter set (the core's front-door key). Free with
/// `sphincs_secret_key_free`.
#[derive(Clone)]
#[allow(non_camel_case_types)]
pub struct sphincs_secret_key(pub(crate) AnySigningKey);

/// A public key of any parameter set. Free with `sphincs_public_key_free`.
#[derive(Clone)]
#[allow(non_camel_case_types)]
pub struct sphincs_public_key(pub(crate) AnyVerifyingKey);

/// Borrows the key behind a C handle.
///
/// # Safety
/// `ptr`, if not NULL, must come from this library and not be freed yet.
pub(crate) unsafe fn borrow<'a, T>(ptr: *const T) -> Res<&'a T> {
    non_null(ptr)?;
    // SAFETY: a live `Box<T>` made by `give`, per the caller's contract.
    Ok(unsafe { &*ptr })
}

/// Hands a new object to C through the out-argument `out`.
///
/// # Safety
/// `out`, if not NULL, must be valid for a pointer write.
pub(crate) unsafe fn give<T>(out: *mut *mut T, value: T) -> Res {
    non_null(out)?;
    let ptr = Box::into_raw(Box::new(value));
    // SAFETY: `out` is non-NULL and writable by the caller's contract.
    unsafe { set(out, ptr) }
}

/// Drops an object handed out by [`give`]; NULL is a no-op.
///
/// # Safety
/// `ptr` must be NULL or come from [`give`] and not be freed yet.
pub(crate) unsafe fn free<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: it came from `Box::into_raw` and is freed once, per the contract.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

/// The body every import from bytes shares: `out` and `bytes` checked, the
/// set resolved, the `len` bytes read, and what `make` builds of them
/// handed out.
///
/// # Safety
/// `bytes`, if not NULL, must hold `len` bytes and `out`, if not NULL, be
/// writable, as the callers' API contracts say.
unsafe fn import<T>(
    alg: *const sphincs_alg,
    bytes: *const u8,
    len: usize,
    out: *mut *mut T,
    make: impl FnOnce(AnyAlgorithm, &[u8]) -> Res<T>,
) -> sphincs_status {
    guard(|| {
        non_null(out)?;
        let alg = resolve(alg)?;
        non_null(bytes)?;
        // SAFETY: `bytes` holds `len` bytes by the caller's contract.
        let raw = unsafe { input(bytes, len)? };
        let value = make(alg, raw)?;
        // SAFETY: `out` is writable by the caller's contract.
        unsafe { give(out, value) }
    })
}

/// Generates a key pair from the operating system's RNG (FIPS 205 Algorithm 21;
/// round 3.1 and SPHINCS-256: `crypto_sign_keypair`), the top tree spread
/// over `threads` threads (0 = every core, 1 = the calling thread; same key
/// for any count; SPHINCS-256 builds its top subtree on the calling thread).
/// On success `*sk` is a new secret key.
#[no_mangle]
pub unsafe extern "C" fn sphincs_keygen(
    alg: *const sphincs_alg,
    threads: usize,
    sk: *mut *mut sphincs_secret_key,
) -> sphincs_status {
    guard(|| {
        non_null(sk)?;
        let t = crate::ffi::threads(threads);
        let key = sphincs_secret_key(AnySigningKey::generate(resolve(alg)?, t)?);
        // SAFETY: `sk` is writable by the API contract.
        unsafe { give(sk, key) }
    })
}

/// Derives a key pair from `seed` = `SK.seed ‖ SK.prf ‖ PK.seed`
/// (`sphincs_alg_seed_bytes(alg)` = 3n bytes): FIPS 205 `slh_keygen_internal`
/// (Algorithm 18), or round 3.1's `crypto_sign_seed_keypair`. For
/// SPHINCS-256 the seed is the 1088-byte secret key itself (its
/// `crypto_sign_keypair` stores the random bytes it draws as the key).
#[no_mangle]
pub unsafe extern "C" fn sphincs_keygen_from_seed(
    alg: *const sphincs_alg,
    seed: *const u8,
    seed_len: usize,
    threads: usize,
    sk: *mut *mut sphincs_secret_key,
) -> sphincs_status {
    // SAFETY: `seed` holds `seed_len` bytes and `sk` is writable by the API contract.
    unsafe {
        import(alg, seed, seed_len, sk, |alg, seed| {
            let t = crate::ffi::threads(threads);
            Ok(sphincs_secret_key(AnySigningKey::from_seed(alg, seed, t)?))
        })
    }
}

/// Loads a raw secret key `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`
/// (`sphincs_alg_secret_key_bytes(alg)` bytes). PK.root is recomputed from the
/// seeds and compared (`SPHINCS_ERR_KEY_MISMATCH`), which costs about one key
/// generation. SPHINCS-256: `SK1 ‖ Q ‖ SK2` (1088 bytes, any bytes are a
/// key; its public root is computed, at the same cost). A FIPS 205 key
/// loaded raw is `SPHINCS_KEY_MODE_UNRESTRICTED`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_import(
    alg: *const sphincs_alg,
    bytes: *const u8,
    len: usize,
    sk: *mut *mut sphincs_secret_key,
) -> sphincs_status {
    // SAFETY: `bytes` holds `len` bytes and `sk` is writable by the API contract.
    unsafe {
        import(alg, bytes, len, sk, |alg, raw| {
            let opened = KeyOpener::new(Some(alg)).open_raw_signing_key(raw);
            Ok(sphincs_secret_key(opened.map_err(Error::from)?.key))
        })
    }
}

/// Loads a raw secret key of a draft SP 800-230 (ipd) set together with its
/// saved tree cache (`sphincs_secret_key_tree_cache`), so that neither loading
/// nor signing rebuilds the key's 2^21–2^22-leaf tree. The cache is checked
/// (set, key, checksum): a cache that does not belong to this key is
/// `SPHINCS_ERR_ENCODING` and no key is made; fall back to
/// `sphincs_secret_key_import`, which recomputes the tree. A secret key whose
/// SK.seed does not give the cache's nodes (one subtree of 2^7 leaves is
/// recomputed to see) is `SPHINCS_ERR_KEY_MISMATCH` and no key is made; and
/// every signature of these sets is verified before it is returned, so a
/// wrong secret key gives `SPHINCS_ERR_KEY_MISMATCH` when signing, never a
/// wrong signature.
/// Other sets keep no tree: `SPHINCS_ERR_UNSUPPORTED`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_import_with_tree_cache(
    alg: *const sphincs_alg,
    bytes: *const u8,
    len: usize,
    cache: *const u8,
    cache_len: usize,
    sk: *mut *mut sphincs_secret_key,
) -> sphincs_status {
    // SAFETY: `bytes` holds `len` bytes, `cache` holds `cache_len` bytes
    // and `sk` is writable by the API contract.
    unsafe {
        import(alg, bytes, len, sk, |alg, raw| {
            non_null(cache)?;
            // SAFETY: `cache` holds `cache_len` bytes by the API contract.
            let tree = input(cache, cache_len)?;
            // The core's opener, with the cache in memory: it must be used
            // (never recomputed here), and a set without a tree refuses it.
            let mut store = MemoryTreeCache::required(tree.to_vec());
            let opened = KeyOpener::new(Some(alg))
                .with_tree_cache(&mut store)
                .open_raw_signing_key(raw);
            Ok(sphincs_secret_key(opened.map_err(Error::from)?.key))
        })
    }
}

/// Writes the tree cache of a draft SP 800-230 (ipd) key (public data, under
/// 1 MiB: the nodes its signatures need) to `out` (capacity `cap`) and its
/// length to `*out_len`, for `sphincs_secret_key_import_with_tree_cache`.
/// `SPHINCS_ERR_UNSUPPORTED` for a key of another set.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_tree_cache(
    sk: *const sphincs_secret_key,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle by the API contract.
        let key = unsafe { borrow(sk)? };
        let tree = key.0.tree_cache().ok_or(SPHINCS_ERR_UNSUPPORTED)?;
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, &tree) }
    })
}

/// Loads a raw public key `PK.seed ‖ PK.root` (`sphincs_alg_public_key_bytes(alg)`
/// bytes; SPHINCS-256: `Q ‖ PK1`, 1056).
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_import(
    alg: *const sphincs_alg,
    bytes: *const u8,
    len: usize,
    pk: *mut *mut sphincs_public_key,
) -> sphincs_status {
    // SAFETY: `bytes` holds `len` bytes and `pk` is writable by the API contract.
    unsafe {
        import(alg, bytes, len, pk, |alg, raw| {
            Ok(sphincs_public_key(AnyVerifyingKey::from_bytes(alg, raw)?))
        })
    }
}

/// Writes the raw secret key to `out` (capacity `cap`) and its length to
/// `*out_len` (also when `cap` is too small: `SPHINCS_ERR_BUFFER_TOO_SMALL`).
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_export(
    sk: *const sphincs_secret_key,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle by the API contract.
        let raw = unsafe { borrow(sk)? }.0.to_bytes();
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, &raw) }
    })
}

/// Writes the raw public key to `out` (capacity `cap`) and its length to `*out_len`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_export(
    pk: *const sphincs_public_key,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle by the API contract.
        let raw = unsafe { borrow(pk)? }.0.to_bytes();
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, &raw) }
    })
}

/// Bytes of a fingerprint string with its terminating NUL: `SHA256:`, 64 hex
/// digits, NUL.
pub const SPHINCS_FINGERPRINT_BYTES: usize = 72;
const _: () = assert!(SPHINCS_FINGERPRINT_BYTES == sphincs_core::fingerprint::FINGERPRINT_LEN + 1);

/// Writes the key's fingerprint, a NUL-terminated string, to `out`
/// (capacity `cap`, at least `SPHINCS_FINGERPRINT_BYTES`), and the bytes it
/// needs with the NUL to `*out_len`: `SHA256:` and the 64 lowercase hex
/// digits of the SHA-256 of the SubjectPublicKeyInfo DER (FIPS 205 keys,
/// under the OID of the key's mode), of the set's name, a zero byte and
/// the raw public key (draft SP 800-230 keys) or of the raw public key
/// (round 3.1, SPHINCS-256), the library's one fingerprint (as `sphincs
/// fingerprint` prints it).
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_fingerprint(
    pk: *const sphincs_public_key,
    out: *mut core::ffi::c_char,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle by the API contract.
        let mut text = unsafe { borrow(pk)? }.0.fingerprint()?;
        text.push('\0');
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out.cast(), cap, out_len, text.as_bytes()) }
    })
}

/// The public half of a secret key, as a new public key object.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_public(
    sk: *const sphincs_secret_key,
    pk: *mut *mut sphincs_public_key,
) -> sphincs_status {
    guard(|| {
        non_null(pk)?;
        // SAFETY: a live key handle by the API contract.
        let public = sphincs_public_key(unsafe { borrow(sk)? }.0.verifying_key());
        // SAFETY: `pk` is writable by the API contract.
        unsafe { give(pk, public) }
    })
}

/// The parameter set of a secret key (NULL for a NULL key).
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_alg(
    sk: *const sphincs_secret_key,
) -> *const sphincs_alg {
    guard_value(core::ptr::null(), || {
        // SAFETY: a live key handle (or NULL) by the API contract.
        match unsafe { borrow(sk) } {
            Ok(k) => handle(k.0.algorithm()),
            Err(_) => core::ptr::null(),
        }
    })
}

/// The parameter set of a public key (NULL for a NULL key).
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_alg(
    pk: *const sphincs_public_key,
) -> *const sphincs_alg {
    guard_value(core::ptr::null(), || {
        // SAFETY: a live key handle (or NULL) by the API contract.
        match unsafe { borrow(pk) } {
            Ok(k) => handle(k.0.algorithm()),
            Err(_) => core::ptr::null(),
        }
    })
}

/// Wipes and frees a secret key. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_free(sk: *mut sphincs_secret_key) {
    // A panic cannot happen in a drop that only zeroizes and deallocates;
    // guard anyway, since this must never unwind into C.
    // `guard_value`, not `guard`: a free returns no status, so it leaves the
    // thread's last error message as the failed call before it set it.
    guard_value((), || {
        // SAFETY: NULL or a live handle from this library, freed once (API contract).
        unsafe { free(sk) };
    });
}

/// Frees a public key. NULL is a no-op.
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_free(pk: *mut sphincs_public_key) {
    // `guard_value`, not `guard`: a free returns no status, so it leaves the
    // thread's last error message as the failed call before it set it.
    guard_value((), || {
        // SAFETY: NULL or a live handle from this library, freed once (API contract).
        unsafe { free(pk) };
    });
}

/// `SPHINCS_FORMAT_*`: how a key is encoded.
#[allow(non_camel_case_types)]
pub type sphincs_format = c_int;
/// DER (binary).
pub const SPHINCS_FORMAT_DER: sphincs_format = 0;
/// PEM (text: `-----BEGIN PRIVATE KEY-----` / `PUBLIC KEY`), not NUL-terminated.
pub const SPHINCS_FORMAT_PEM: sphincs_format = 1;

/// Reads a PKCS#8 private key (RFC 9909), PEM or DER (told apart by
/// looking), as `sphincs keygen` and OpenSSL 3.5 write them. PK.root is
/// recomputed and compared (`SPHINCS_ERR_KEY_MISMATCH`). The key keeps the
/// mode of its OID (`sphincs_secret_key_mode`): pure SLH-DSA, or HashSLH-DSA
/// with the set's pre-hash. FIPS 205 sets only: round 3.1 and SPHINCS-256
/// have no OIDs.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_from_pkcs8(
    data: *const u8,
    len: usize,
    sk: *mut *mut sphincs_secret_key,
) -> sphincs_status {
    // SAFETY: the caller's contract is this function's.
    unsafe { open_private_key(data, len, None, sk) }
}

/// The private-key readers' body: the key file of `len` bytes at `data`
/// opened by the core's opener (with the passphrase of `pass_len` bytes at
/// `pass`, if given) into a new handle written to `*sk`.
///
/// # Safety
/// `data` must hold `len` bytes, `pass` (NULL only if its length is 0)
/// its length, and `sk` be writable, as the callers' API contracts say.
pub(crate) unsafe fn open_private_key(
    data: *const u8,
    len: usize,
    pass: Option<(*const u8, usize)>,
    sk: *mut *mut sphincs_secret_key,
) -> sphincs_status {
    guard(|| {
        non_null(sk)?;
        non_null(data)?;
        // SAFETY: `data` holds `len` bytes by the caller's contract.
        let data = unsafe { input(data, len)? };
        let mut opener = KeyOpener::new(None);
        if let Some((pass, pass_len)) = pass {
            // SAFETY: `pass` holds `pass_len` bytes by the caller's contract.
            let pass = unsafe { input(pass, pass_len)? };
            opener = opener.with_passphrase(move || Ok(Zeroizing::new(pass.to_vec())));
        }
        let opened = opener.open_signing_key(data).map_err(Error::from)?;
        // SAFETY: `sk` is writable by the caller's contract.
        unsafe { give(sk, sphincs_secret_key(opened.key)) }
    })
}

/// Reads a SubjectPublicKeyInfo public key (RFC 9909), PEM or DER; the key
/// keeps the mode of its OID (`sphincs_public_key_mode`).
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_from_spki(
    data: *const u8,
    len: usize,
    pk: *mut *mut sphincs_public_key,
) -> sphincs_status {
    // SAFETY: the caller's contract is this function's.
    unsafe { read_public_key(data, len, pk, AnyVerifyingKey::from_spki) }
}

/// Reads the subject public key of an X.509 certificate, PEM
/// (`-----BEGIN CERTIFICATE-----`) or DER, as `openssl pkeyutl -certin`
/// does; the key keeps the mode of its OID (`sphincs_public_key_mode`). The
/// certificate only carries the key: its signature and validity are not
/// checked. `SPHINCS_ERR_ENCODING` for input that is not a certificate or
/// whose key is not SLH-DSA; `sphincs_last_error_message` says which.
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_from_certificate(
    data: *const u8,
    len: usize,
    pk: *mut *mut sphincs_public_key,
) -> sphincs_status {
    // SAFETY: the caller's contract is this function's.
    unsafe { read_public_key(data, len, pk, AnyVerifyingKey::from_certificate) }
}

/// The public-key readers' body: `parse` the `len` bytes at `data` into a
/// new handle written to `*pk`.
///
/// # Safety
/// `data` holds `len` bytes (or is NULL), and `pk` is NULL or writable.
unsafe fn read_public_key(
    data: *const u8,
    len: usize,
    pk: *mut *mut sphincs_public_key,
    parse: fn(&[u8]) -> Result<AnyVerifyingKey, sphincs_core::Error>,
) -> sphincs_status {
    guard(|| {
        non_null(pk)?;
        non_null(data)?;
        // SAFETY: `data` holds `len` bytes by the caller's contract.
        let data = unsafe { input(data, len)? };
        let key = sphincs_public_key(parse(data)?);
        // SAFETY: `pk` is writable by the caller's contract.
        unsafe { give(pk, key) }
    })
}

/// Writes the secret key as PKCS#8 v1 (RFC 9909) in `format`
/// (`SPHINCS_FORMAT_DER` or `SPHINCS_FORMAT_PEM`) to `out` and its length to
/// `*out_len`, under the OID of the key's mode (the pure OID for an
/// unrestricted key). `SPHINCS_ERR_UNSUPPORTED` for a round-3.1 or SPHINCS-256 key.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_to_pkcs8(
    sk: *const sphincs_secret_key,
    format: sphincs_format,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle by the API contract.
        let key = &unsafe { borrow(sk)? }.0;
        let encoded: Zeroizing<Vec<u8>> = match format {
            SPHINCS_FORMAT_DER => key.to_pkcs8_der()?,
            SPHINCS_FORMAT_PEM => Zeroizing::new(key.to_pkcs8_pem()?.as_bytes().to_vec()),
            _ => return Err(SPHINCS_ERR_INVALID_ARGUMENT),
        };
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, &encoded) }
    })
}

/// Writes the public key as SubjectPublicKeyInfo (RFC 9909) in `format` to
/// `out` and its length to `*out_len`, under the OID of the key's mode.
/// `SPHINCS_ERR_UNSUPPORTED` for a round-3.1 or SPHINCS-256 key.
#[no_mangle]
pub unsafe extern "C" fn sphincs_public_key_to_spki(
    pk: *const sphincs_public_key,
    format: sphincs_format,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle by the API contract.
        let key = &unsafe { borrow(pk)? }.0;
        let encoded = match format {
            SPHINCS_FORMAT_DER => key.to_spki_der()?,
            SPHINCS_FORMAT_PEM => key.to_spki_pem()?.into_bytes(),
            _ => return Err(SPHINCS_ERR_INVALID_ARGUMENT),
        };
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, &encoded) }
    })
}
