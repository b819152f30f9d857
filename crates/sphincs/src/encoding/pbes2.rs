//! PBES2 (RFC 8018 §6.2) encryption and decryption with the derived key in
//! buffers we wipe.
//!
//! RustCrypto's `pkcs5` parses and writes the PBES2 parameters, but its own
//! `encrypt`/`decrypt` keep the derived key in a plain array it never wipes
//! (an upstream TODO), and copy the plaintext into buffers of their own. Here
//! the same well-kept crates do the work (`scrypt`, `pbkdf2`, `cbc`, `aes`,
//! `aes-gcm`), but the derived key lives in a [`Zeroizing`] array, the AES key
//! schedules are wiped on drop (`aes`'s and `cbc`'s `zeroize` features), and
//! the plaintext only ever sits in [`Zeroizing`] buffers.
//!
//! What is still not wiped: the working memory inside `scrypt` (its B and V
//! arrays, mixing of the passphrase that yields the key only together with
//! the passphrase) and HMAC's inner state inside `pbkdf2`.

use crate::prelude::*;
use aes_gcm::aead::{self, AeadInOut};
use aes_gcm::{Aes128Gcm, Aes256Gcm};
use cbc::cipher::block_padding::Pkcs7;
use cbc::cipher::{
    BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit,
};
use pkcs8::pkcs5::pbes2::{EncryptionScheme, Kdf, Parameters, Pbkdf2Prf};
use zeroize::Zeroizing;

/// GCM's tag length in PBES2 (RFC 5084's default, the only one `pkcs5` reads).
const GCM_TAG: usize = 16;
/// AES's block (CBC padding adds up to one).
const AES_BLOCK: usize = 16;

/// Why a PBES2 operation failed: the caller words the error.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Pbes2Error {
    /// The passphrase is wrong or the ciphertext damaged (bad padding or tag).
    Decrypt,
    /// The parameters cannot be used (what, for the message).
    Parameters(String),
}

/// The key `params.kdf` derives from `passphrase`, as long as the cipher's
/// key, in a buffer wiped on drop.
fn derive_key(params: &Parameters, passphrase: &[u8]) -> Result<Zeroizing<[u8; 32]>, Pbes2Error> {
    let len = params.encryption.key_size();
    if let Some(stated) = params.kdf.key_length() {
        if usize::from(stated) != len {
            return Err(Pbes2Error::Parameters(format!(
                "the KDF states a {stated}-byte key but the cipher needs {len} bytes"
            )));
        }
    }
    let mut key = Zeroizing::new([0u8; 32]);
    let out = &mut key[..len];
    match &params.kdf {
        Kdf::Pbkdf2(p) => {
            let (salt, rounds) = (p.salt.as_ref(), p.iteration_count);
            match p.prf {
                Pbkdf2Prf::HmacWithSha224 => {
                    pbkdf2::pbkdf2_hmac::<sha2::Sha224>(passphrase, salt, rounds, out)
                }
                Pbkdf2Prf::HmacWithSha256 => {
                    pbkdf2::pbkdf2_hmac::<sha2::Sha256>(passphrase, salt, rounds, out)
                }
                Pbkdf2Prf::HmacWithSha384 => {
                    pbkdf2::pbkdf2_hmac::<sha2::Sha384>(passphrase, salt, rounds, out)
                }
                Pbkdf2Prf::HmacWithSha512 => {
                    pbkdf2::pbkdf2_hmac::<sha2::Sha512>(passphrase, salt, rounds, out)
                }
                other => {
                    return Err(Pbes2Error::Parameters(format!(
                        "PBKDF2 with {} is not supported",
                        other.oid()
                    )))
                }
            }
        }
        Kdf::Scrypt(s) => {
            let cost = scrypt::Params::try_from(s).map_err(|_| {
                Pbes2Error::Parameters("the scrypt parameters are not usable".into())
            })?;
            scrypt::scrypt(passphrase, s.salt.as_ref(), &cost, out)
                .map_err(|_| Pbes2Error::Parameters("invalid scrypt key length".into()))?;
        }
        other => {
            return Err(Pbes2Error::Parameters(format!(
                "the key derivation function {} is not supported",
                other.oid()
            )))
        }
    }
    Ok(key)
}

/// Encrypts `plaintext` under `passphrase` as `params` say: the ciphertext.
pub(super) fn encrypt(
    params: &Parameters,
    passphrase: &[u8],
    plaintext: &[u8],
) -> Result<Vec<u8>, Pbes2Error> {
    let key = derive_key(params, passphrase)?;
    let key = &key[..params.encryption.key_size()];
    let len = plaintext.len();
    // Room for the padding; wiped on drop, since it holds the plaintext
    // until the cipher overwrites it.
    let mut buf = Zeroizing::new(vec![0u8; len + AES_BLOCK]);
    buf[..len].copy_from_slice(plaintext);
    match params.encryption {
        EncryptionScheme::Aes128Cbc { iv } => cbc_seal::<aes::Aes128>(key, &iv, &mut buf, len),
        EncryptionScheme::Aes192Cbc { iv } => cbc_seal::<aes::Aes192>(key, &iv, &mut buf, len),
        EncryptionScheme::Aes256Cbc { iv } => cbc_seal::<aes::Aes256>(key, &iv, &mut buf, len),
        EncryptionScheme::Aes128Gcm { nonce } => gcm_seal(
            &Aes128Gcm::new_from_slice(key).map_err(bad_length)?,
            nonce,
            &mut buf[..len],
        ),
        EncryptionScheme::Aes256Gcm { nonce } => gcm_seal(
            &Aes256Gcm::new_from_slice(key).map_err(bad_length)?,
            nonce,
            &mut buf[..len],
        ),
        #[allow(unreachable_patterns)] // DES, behind pkcs5 features we do not turn on
        _ => Err(unsupported_cipher(&params.encryption)),
    }
}

/// Decrypts `ciphertext` with `passphrase` as `params` say: the plaintext, in
/// a buffer wiped on drop. A failed padding or tag check is
/// [`Pbes2Error::Decrypt`].
pub(super) fn decrypt(
    params: &Parameters,
    passphrase: &[u8],
    ciphertext: &[u8],
) -> Result<Zeroizing<Vec<u8>>, Pbes2Error> {
    let key = derive_key(params, passphrase)?;
    let key = &key[..params.encryption.key_size()];
    let mut buf = Zeroizing::new(ciphertext.to_vec());
    let plain_len = match params.encryption {
        EncryptionScheme::Aes128Cbc { iv } => cbc_open::<aes::Aes128>(key, &iv, &mut buf)?,
        EncryptionScheme::Aes192Cbc { iv } => cbc_open::<aes::Aes192>(key, &iv, &mut buf)?,
        EncryptionScheme::Aes256Cbc { iv } => cbc_open::<aes::Aes256>(key, &iv, &mut buf)?,
        EncryptionScheme::Aes128Gcm { nonce } => gcm_open(
            &Aes128Gcm::new_from_slice(key).map_err(bad_length)?,
            nonce,
            &mut buf,
        )?,
        EncryptionScheme::Aes256Gcm { nonce } => gcm_open(
            &Aes256Gcm::new_from_slice(key).map_err(bad_length)?,
            nonce,
            &mut buf,
        )?,
        #[allow(unreachable_patterns)]
        _ => return Err(unsupported_cipher(&params.encryption)),
    };
    buf.truncate(plain_len);
    Ok(buf)
}

fn cbc_seal<C>(key: &[u8], iv: &[u8], buf: &mut [u8], len: usize) -> Result<Vec<u8>, Pbes2Error>
where
    C: BlockCipherEncrypt + KeyInit,
{
    cbc::Encryptor::<C>::new_from_slices(key, iv)
        .map_err(bad_length)?
        .encrypt_padded::<Pkcs7>(buf, len)
        .map(<[u8]>::to_vec)
        .map_err(bad_length)
}

fn cbc_open<C>(key: &[u8], iv: &[u8], buf: &mut [u8]) -> Result<usize, Pbes2Error>
where
    C: BlockCipherDecrypt + KeyInit,
{
    cbc::Decryptor::<C>::new_from_slices(key, iv)
        .map_err(bad_length)?
        .decrypt_padded::<Pkcs7>(buf)
        .map(<[u8]>::len)
        .map_err(|_| Pbes2Error::Decrypt)
}

/// GCM over `body` in place; the ciphertext with the tag appended.
fn gcm_seal<A: AeadInOut>(aead: &A, nonce: [u8; 12], body: &mut [u8]) -> Result<Vec<u8>, Pbes2Error>
where
    aead::Nonce<A>: From<[u8; 12]>,
{
    let tag = aead
        .encrypt_inout_detached(&nonce.into(), &[], body.into())
        .map_err(bad_length)?;
    let mut out = Vec::with_capacity(body.len() + GCM_TAG);
    out.extend_from_slice(body);
    out.extend_from_slice(&tag);
    Ok(out)
}

/// Checks the tag at the end of `buf` and decrypts the body before it in
/// place; the body's length.
fn gcm_open<A: AeadInOut>(aead: &A, nonce: [u8; 12], buf: &mut [u8]) -> Result<usize, Pbes2Error>
where
    aead::Nonce<A>: From<[u8; 12]>,
{
    let body_len = buf.len().checked_sub(GCM_TAG).ok_or(Pbes2Error::Decrypt)?;
    let (body, tag) = buf.split_at_mut(body_len);
    let tag = aead::Tag::<A>::try_from(&*tag).map_err(|_| Pbes2Error::Decrypt)?;
    aead.decrypt_inout_detached(&nonce.into(), &[], body.into(), &tag)
        .map_err(|_| Pbes2Error::Decrypt)?;
    Ok(body_len)
}

fn bad_length<E>(_: E) -> Pbes2Error {
    Pbes2Error::Parameters("the key, IV or nonce has the wrong length".into())
}

fn unsupported_cipher(scheme: &EncryptionScheme) -> Pbes2Error {
    Pbes2Error::Parameters(format!("the cipher {} is not supported", scheme.oid()))
}
