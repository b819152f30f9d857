//! Passphrase-protected private keys: PKCS#8 `EncryptedPrivateKeyInfo`
//! (PBES2), read and written by the core (`sphincs::encoding::encrypted`):
//! scrypt N=2^14, r=8, p=1 and AES-256-CBC written, as the CLI's
//! `keygen --encrypt`; scrypt or PBKDF2-HMAC-SHA-2 with AES-CBC/GCM read,
//! within the core's cost limits.
//!
//! Keys are opened by the core's one routine (`any::KeyOpener`), which
//! asks for the passphrase only when the key is encrypted: it gets a copy
//! of the caller's buffer in a core buffer wiped when the call returns, as
//! is the decrypted PKCS#8. Wiping the caller's buffer is the caller's job.

use zeroize::Zeroizing;

use crate::ffi::{guard, input, non_null, output};
use crate::keys::{borrow, open_private_key, sphincs_format, sphincs_secret_key};
use crate::keys::{SPHINCS_FORMAT_DER, SPHINCS_FORMAT_PEM};
use crate::status::*;

/// Reads a private key that may be encrypted, PEM or DER: an `ENCRYPTED
/// PRIVATE KEY` (PKCS#8 PBES2, as `sphincs keygen --encrypt` and
/// `openssl genpkey -aes-256-cbc` / `openssl pkcs8 -topk8 -scrypt` write
/// it) is decrypted with the `pass_len` bytes at `pass` (no NUL needed; a
/// text passphrase as its UTF-8 bytes, without a trailing newline); a plain
/// `PRIVATE KEY` is read as `sphincs_secret_key_from_pkcs8` does and `pass`
/// is ignored. `SPHINCS_ERR_WRONG_PASSPHRASE` if it does not decrypt,
/// `SPHINCS_ERR_KDF_TOO_COSTLY` if its scrypt/PBKDF2 parameters ask more
/// than the library accepts (refused before any work), `SPHINCS_ERR_ENCODING`
/// if it is malformed (truncated, unknown algorithms). The passphrase is
/// copied only into a buffer wiped before the call returns. FIPS 205 sets,
/// and the draft SP 800-230 sets' own encrypted PEM (as `sphincs keygen
/// --encrypt` writes it), whose tree is then recomputed on this thread
/// (minutes; their raw key and `sphincs_secret_key_import_with_tree_cache`
/// avoid it).
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_from_encrypted_pkcs8(
    data: *const u8,
    len: usize,
    pass: *const u8,
    pass_len: usize,
    sk: *mut *mut sphincs_secret_key,
) -> sphincs_status {
    // SAFETY: the caller's contract is this function's.
    unsafe { open_private_key(data, len, Some((pass, pass_len)), sk) }
}

/// Writes the secret key as an encrypted PKCS#8 private key in `format`
/// (`SPHINCS_FORMAT_DER`, or `SPHINCS_FORMAT_PEM`: `ENCRYPTED PRIVATE KEY`)
/// under the `pass_len` bytes at `pass` (at least one byte, else
/// `SPHINCS_ERR_INVALID_ARGUMENT`), with the CLI's defaults: PBES2, scrypt
/// N=2^14, r=8, p=1 (16 MiB, as OpenSSL 3.5), a random 16-byte salt, and
/// AES-256-CBC with a random IV. `openssl pkey -passin` reads it. The
/// output differs on every call (salt, IV) but its length does not; each
/// call, the size query too, runs scrypt once (tens of milliseconds).
/// `SPHINCS_ERR_UNSUPPORTED` for a round-3.1 or SPHINCS-256 key.
#[no_mangle]
pub unsafe extern "C" fn sphincs_secret_key_to_encrypted_pkcs8(
    sk: *const sphincs_secret_key,
    format: sphincs_format,
    pass: *const u8,
    pass_len: usize,
    out: *mut u8,
    cap: usize,
    out_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle by the API contract.
        let key = &unsafe { borrow(sk)? }.0;
        if pass_len == 0 {
            return Err(SPHINCS_ERR_INVALID_ARGUMENT);
        }
        non_null(pass)?;
        // SAFETY: `pass` holds `pass_len` bytes by the API contract.
        let pass = unsafe { input(pass, pass_len)? };
        // Not secret (it is encrypted), but wiped anyway: nothing of the key
        // outlives the call in our memory.
        let encoded: Zeroizing<Vec<u8>> = Zeroizing::new(match format {
            SPHINCS_FORMAT_DER => key.to_encrypted_pkcs8_der(pass)?,
            SPHINCS_FORMAT_PEM => key.to_encrypted_pkcs8_pem(pass)?.into_bytes(),
            _ => return Err(SPHINCS_ERR_INVALID_ARGUMENT),
        });
        // SAFETY: `out`/`out_len` are writable by the API contract.
        unsafe { output(out, cap, out_len, &encoded) }
    })
}
