//! Passphrase-protected private keys: PKCS#8 `EncryptedPrivateKeyInfo`
//! (RFC 5958 §3) with PBES2 (RFC 8018 §6.2), on RustCrypto's `pkcs8`/`pkcs5`.
//!
//! We write scrypt (RFC 7914) with N = 2^14, r = 8, p = 1, a 16-byte random
//! salt, and AES-256-CBC with a random IV — the parameters OpenSSL 3.5
//! writes for `openssl pkcs8 -topk8 -scrypt` (OpenSSL refuses to read scrypt
//! that needs more than 32 MiB, so a higher N would not interoperate). We
//! read PBES2 with scrypt or PBKDF2 (HMAC-SHA-224/256/384/512) and AES-CBC or
//! AES-GCM, within [`MAX_SCRYPT_MEMORY`], [`MAX_SCRYPT_WORK`] and
//! [`MAX_PBKDF2_ITERATIONS`], so that hostile parameters cost bounded time
//! and memory. The passphrase is the caller's to wipe; the derived key, the
//! AES key schedules and every copy of the plaintext PKCS#8 are wiped
//! (`super::pbes2`); the decrypted PKCS#8 is returned in a buffer wiped on
//! drop.

use crate::prelude::*;
use der::asn1::OctetStringRef;
use der::pem::{self, LineEnding};
use der::{Decode, Encode};
use pkcs8::pkcs5::pbes2::{self, Kdf, Pbkdf2Prf};
use pkcs8::pkcs5::EncryptionScheme;
use pkcs8::{EncryptedPrivateKeyInfo, EncryptedPrivateKeyInfoRef};
use zeroize::Zeroizing;

use super::pbes2::{self as cipher, Pbes2Error};
use super::{unwrap_pem, DerInput};
use crate::Error;

/// PEM label of an encrypted PKCS#8 private key (RFC 7468 §11).
pub const ENCRYPTED_PRIVATE_KEY_LABEL: &str = "ENCRYPTED PRIVATE KEY";

/// scrypt cost we write: log2 N.
pub const SCRYPT_LOG_N: u8 = 14;
/// scrypt block size r we write.
pub const SCRYPT_R: u16 = 8;
/// scrypt parallelism p we write.
pub const SCRYPT_P: u16 = 1;

/// Most memory an scrypt we read may need: 64 MiB, about four times what we
/// write (OpenSSL 3.5 reads at most 32 MiB). Counted as scrypt's whole
/// working memory, 128·r·(N + p) bytes (the N-block table and the p blocks
/// it mixes), not the table alone.
pub const MAX_SCRYPT_MEMORY: u64 = 64 << 20;
/// Most work an scrypt we read may ask (N·r·p): 32 times what we write.
pub const MAX_SCRYPT_WORK: u64 = 1 << 22;
/// Most PBKDF2 iterations we read (OpenSSL 3.5 writes 2048; OWASP asks 600 000).
pub const MAX_PBKDF2_ITERATIONS: u32 = 5_000_000;

const NAME: &str = "encrypted PKCS#8 private key";

/// Whether `input` (PEM or DER) is an encrypted PKCS#8 private key, by its
/// PEM label or its DER shape.
pub fn is_encrypted_private_key(input: &[u8]) -> bool {
    match super::pem_label(input) {
        Some(label) => label == ENCRYPTED_PRIVATE_KEY_LABEL,
        None => EncryptedPrivateKeyInfoRef::from_der(input).is_ok(),
    }
}

/// Encrypts a (DER) PKCS#8 private key under `passphrase` with scrypt and
/// AES-256-CBC (see the module documentation); DER `EncryptedPrivateKeyInfo`.
pub fn encrypt_private_key_der(pkcs8_der: &[u8], passphrase: &[u8]) -> Result<Vec<u8>, Error> {
    if passphrase.is_empty() {
        return Err(Error::Encoding(
            "the passphrase is empty; an encrypted key needs one".into(),
        ));
    }
    // The input must be a private key we read, so that what we encrypt is one.
    super::decode_private_key(pkcs8_der)?;
    seal(pkcs8_der, passphrase)
}

/// DER `EncryptedPrivateKeyInfo` of `plain` under `passphrase`, with the
/// parameters of the module documentation; the caller has checked what
/// `plain` is (a PKCS#8 key here, a draft SP 800-230 key in `super::limited`).
pub(super) fn seal(plain: &[u8], passphrase: &[u8]) -> Result<Vec<u8>, Error> {
    if passphrase.is_empty() {
        return Err(Error::Encoding(
            "the passphrase is empty; an encrypted key needs one".into(),
        ));
    }
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    crate::rand::fill_random(&mut salt)?;
    crate::rand::fill_random(&mut iv)?;
    let scrypt = pbes2::ScryptParams {
        salt: pbes2::Salt::new(salt).map_err(der_error)?,
        cost_parameter: 1u64 << SCRYPT_LOG_N,
        block_size: SCRYPT_R,
        parallelization: SCRYPT_P,
        key_length: Some(32),
    };
    let params = pbes2::Parameters {
        kdf: Kdf::Scrypt(scrypt),
        encryption: pbes2::EncryptionScheme::Aes256Cbc { iv },
    };
    let ciphertext = cipher::encrypt(&params, passphrase, plain).map_err(pbes2_error)?;
    EncryptedPrivateKeyInfo {
        encryption_algorithm: EncryptionScheme::Pbes2(params),
        encrypted_data: OctetStringRef::new(&ciphertext).map_err(der_error)?,
    }
    .to_der()
    .map_err(der_error)
}

/// [`encrypt_private_key_der`] as PEM (`ENCRYPTED PRIVATE KEY`).
pub fn encrypt_private_key_pem(pkcs8_der: &[u8], passphrase: &[u8]) -> Result<String, Error> {
    let der = encrypt_private_key_der(pkcs8_der, passphrase)?;
    pem::encode_string(ENCRYPTED_PRIVATE_KEY_LABEL, LineEnding::LF, &der)
        .map_err(|e| Error::Encoding(format!("PEM encoding failed: {e}")))
}

/// Decrypts an encrypted PKCS#8 private key (PEM or DER) with `passphrase`:
/// the plain PKCS#8 DER, wiped on drop. A wrong passphrase (or a corrupt
/// ciphertext) is [`Error::WrongPassphrase`]; KDF costs beyond the limits
/// of the module documentation are [`Error::KdfTooCostly`], refused before
/// any work; anything malformed is [`Error::Encoding`].
pub fn decrypt_private_key(input: &[u8], passphrase: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let der = unwrap_pem(input, ENCRYPTED_PRIVATE_KEY_LABEL, NAME)?;
    let bytes = match &der {
        DerInput::Borrowed(b) => *b,
        DerInput::Decoded(v) => v.as_slice(),
    };
    let plain = open(bytes, passphrase)?;
    // A wrong passphrase passes CBC's padding check about once in 256:
    // the plaintext is then not a key.
    if super::decode_private_key(&plain).is_err() {
        return Err(wrong_passphrase());
    }
    Ok(plain)
}

/// The plaintext of a DER `EncryptedPrivateKeyInfo` (PBES2 within the
/// limits of the module documentation), wiped on drop; the caller checks
/// that it is what it should be (else the passphrase was wrong).
pub(super) fn open(bytes: &[u8], passphrase: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let info = EncryptedPrivateKeyInfoRef::from_der(bytes)
        .map_err(|e| Error::Encoding(format!("not a valid DER {NAME}: {e}")))?;
    let params = match &info.encryption_algorithm {
        EncryptionScheme::Pbes2(p) => p,
        _ => {
            return Err(Error::Encoding(
                "the key is encrypted with PBES1 (DES or RC2, broken); re-encrypt it with PBES2, e.g. `openssl pkcs8 -topk8 -v2 aes-256-cbc`".into(),
            ))
        }
    };
    check_kdf(&params.kdf)?;
    cipher::decrypt(params, passphrase, info.encrypted_data.as_bytes()).map_err(pbes2_error)
}

pub(super) fn wrong_passphrase() -> Error {
    Error::WrongPassphrase
}

fn check_kdf(kdf: &Kdf) -> Result<(), Error> {
    match kdf {
        Kdf::Pbkdf2(p) => {
            if !matches!(
                p.prf,
                Pbkdf2Prf::HmacWithSha224
                    | Pbkdf2Prf::HmacWithSha256
                    | Pbkdf2Prf::HmacWithSha384
                    | Pbkdf2Prf::HmacWithSha512
            ) {
                return Err(Error::Encoding(format!(
                    "PBKDF2 with {} is not supported; expected HMAC-SHA-256 (or -224, -384, -512)",
                    p.prf.oid()
                )));
            }
            if p.iteration_count == 0 {
                return Err(Error::Encoding(
                    "PBKDF2 with 0 iterations (RFC 8018 asks a positive count): a malformed key, not a wrong passphrase".into(),
                ));
            }
            if p.iteration_count > MAX_PBKDF2_ITERATIONS {
                return Err(Error::KdfTooCostly(format!(
                    "PBKDF2 asks {} iterations; at most {MAX_PBKDF2_ITERATIONS} are accepted",
                    p.iteration_count
                )));
            }
        }
        Kdf::Scrypt(s) => {
            let (n, r, p) = (
                s.cost_parameter,
                u64::from(s.block_size),
                u64::from(s.parallelization),
            );
            if n < 2 || !n.is_power_of_two() || r == 0 || p == 0 {
                return Err(Error::Encoding(format!(
                    "invalid scrypt parameters N={n}, r={r}, p={p} (N must be a power of two above 1)"
                )));
            }
            let memory = n.saturating_add(p).saturating_mul(r).saturating_mul(128);
            let work = n.saturating_mul(r).saturating_mul(p);
            if memory > MAX_SCRYPT_MEMORY || work > MAX_SCRYPT_WORK {
                return Err(Error::KdfTooCostly(format!(
                    "scrypt parameters N={n}, r={r}, p={p} are too costly (at most {} MiB of memory and N·r·p ≤ 2^22 are accepted)",
                    MAX_SCRYPT_MEMORY >> 20
                )));
            }
        }
        other => {
            return Err(Error::Encoding(format!(
                "unsupported key derivation function {}",
                other.oid()
            )))
        }
    }
    Ok(())
}

fn pbes2_error(e: Pbes2Error) -> Error {
    match e {
        Pbes2Error::Decrypt => wrong_passphrase(),
        Pbes2Error::Parameters(why) => Error::Encoding(format!("{NAME}: {why}")),
    }
}

fn der_error(e: der::Error) -> Error {
    Error::Encoding(format!("DER encoding of the {NAME} failed: {e}"))
}
