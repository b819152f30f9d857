//! Passphrase-protected private keys of the draft SP 800-230 (ipd) sets.
//!
//! These sets have no OID, so their keys cannot be PKCS#8 and this is **not
//! a standard format**: it is this library's own, and it says so in its PEM
//! label, [`LIMITED_KEY_LABEL`], which no other tool reads (OpenSSL refuses
//! the file instead of mistaking it for a key of its own).
//!
//! - The plaintext is the DER `SEQUENCE { set UTF8String, secretKey OCTET
//!   STRING }`: the set's name as [`Algorithm::name`] spells it
//!   (`SLH-DSA-SHA2-128-24`) and the raw secret key `SK.seed ‖ SK.prf ‖
//!   PK.seed ‖ PK.root` (4n bytes). It is not a PKCS#8 `PrivateKeyInfo`
//!   under a made-up OID: no identifier is invented for the set.
//! - It is encrypted exactly as a FIPS 205 key is ([`super::encrypted`], the
//!   same code): PBES2 with scrypt N = 2^14, r = 8, p = 1 and AES-256-CBC,
//!   in an `EncryptedPrivateKeyInfo` (RFC 5958 §3).
//! - Only PEM is written and read: a DER file would carry no label, and so
//!   nothing to tell it from a standard encrypted PKCS#8 key.
//!
//! The tree cache (`KEY.tree`) is public and stays a file of its own; the
//! secret key decrypted here is checked against it as a raw key would be.

use crate::prelude::*;
use core::fmt;

use der::asn1::{OctetStringRef, Utf8StringRef};
use der::pem::{self, LineEnding};
use der::{Decode, Encode, Header, Reader, SliceReader, SliceWriter, Tag};
use zeroize::Zeroizing;

use crate::{Algorithm, Error};

/// The PEM label of an encrypted draft SP 800-230 private key: this
/// library's format, not PKCS#8 (see the module documentation). "800 230"
/// without its hyphen: the PEM decoder takes none inside a label.
pub const LIMITED_KEY_LABEL: &str = "SPHINCS DRAFT SP 800 230 ENCRYPTED PRIVATE KEY";

/// A draft SP 800-230 private key read back from [`LIMITED_KEY_LABEL`] PEM.
pub struct DecryptedLimitedKey {
    /// The set the file names.
    pub algorithm: Algorithm,
    /// The raw secret key (4n bytes), wiped on drop; PK.root not yet
    /// checked against the seeds (that is a tree's work: the caller's).
    pub secret: Zeroizing<Vec<u8>>,
}

impl fmt::Debug for DecryptedLimitedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecryptedLimitedKey")
            .field("algorithm", &self.algorithm)
            .field("secret", &"<redacted>")
            .finish()
    }
}

/// Whether `input` is PEM labelled [`LIMITED_KEY_LABEL`].
pub fn is_encrypted_limited_key(input: &[u8]) -> bool {
    super::pem_label(input) == Some(LIMITED_KEY_LABEL)
}

/// The raw secret key `sk` of the draft SP 800-230 set `alg`, encrypted
/// under `passphrase`, as PEM [`LIMITED_KEY_LABEL`]. A set with an OID is
/// refused: its keys are encrypted as PKCS#8 ([`super::encrypted`]).
pub fn encrypt_limited_key(alg: Algorithm, sk: &[u8], passphrase: &[u8]) -> Result<String, Error> {
    if !alg.is_sp800_230() {
        return Err(Error::Encoding(format!(
            "{alg} has an OID: its private keys are encrypted as PKCS#8 (encoding::encrypted), not in the draft SP 800-230 format"
        )));
    }
    if sk.len() != alg.secret_key_len() {
        return Err(Error::InvalidKeyLength {
            what: "secret key",
            algorithm: alg,
            expected: alg.secret_key_len(),
            got: sk.len(),
        });
    }
    let plain = plaintext(alg, sk)?;
    let der = super::encrypted::seal(&plain, passphrase)?;
    pem::encode_string(LIMITED_KEY_LABEL, LineEnding::LF, &der)
        .map_err(|e| Error::Encoding(format!("PEM encoding failed: {e}")))
}

/// Decrypts a [`LIMITED_KEY_LABEL`] PEM with `passphrase`. A wrong
/// passphrase (or a damaged ciphertext) is [`Error::WrongPassphrase`], KDF
/// costs beyond [`super::encrypted`]'s limits [`Error::KdfTooCostly`], other
/// PEM or DER [`Error::Encoding`] naming what was expected.
pub fn decrypt_limited_key(input: &[u8], passphrase: &[u8]) -> Result<DecryptedLimitedKey, Error> {
    match super::pem_label(input) {
        Some(LIMITED_KEY_LABEL) => {}
        Some(found) => {
            return Err(Error::Encoding(format!(
                "PEM label is \"{found}\"; expected \"{LIMITED_KEY_LABEL}\""
            )))
        }
        None => {
            return Err(Error::Encoding(format!(
                "not PEM; an encrypted draft SP 800-230 key is PEM \"{LIMITED_KEY_LABEL}\" only"
            )))
        }
    }
    let der = super::unwrap_pem(input, LIMITED_KEY_LABEL, "encrypted draft SP 800-230 key")?;
    let plain = super::encrypted::open(der.as_bytes(), passphrase)?;
    // As for PKCS#8: a wrong passphrase that passes CBC's padding check
    // (about once in 256) leaves bytes that are not this structure.
    let (name, secret) = read_plaintext(&plain).map_err(|_| Error::WrongPassphrase)?;
    let algorithm = Algorithm::SP800_230
        .into_iter()
        .find(|a| a.name() == name)
        .ok_or_else(|| {
            Error::Encoding(format!(
                "the encrypted key names the set \"{name}\", not a draft SP 800-230 set"
            ))
        })?;
    if secret.len() != algorithm.secret_key_len() {
        return Err(Error::InvalidKeyLength {
            what: "secret key",
            algorithm,
            expected: algorithm.secret_key_len(),
            got: secret.len(),
        });
    }
    Ok(DecryptedLimitedKey {
        algorithm,
        secret: Zeroizing::new(secret.to_vec()),
    })
}

/// `SEQUENCE { set UTF8String, secretKey OCTET STRING }`, in a buffer
/// wiped on drop.
fn plaintext(alg: Algorithm, sk: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let encode = |e: der::Error| Error::Encoding(format!("DER encoding failed: {e}"));
    let name = Utf8StringRef::new(alg.name()).map_err(encode)?;
    let key = OctetStringRef::new(sk).map_err(encode)?;
    let body = (name.encoded_len().map_err(encode)? + key.encoded_len().map_err(encode)?)
        .map_err(encode)?;
    let header = Header::new(Tag::Sequence, body);
    let total = (header.encoded_len().map_err(encode)? + body).map_err(encode)?;
    let len = usize::try_from(total).map_err(encode)?;
    let mut out = Zeroizing::new(vec![0u8; len]);
    let mut w = SliceWriter::new(&mut out);
    header.encode(&mut w).map_err(encode)?;
    name.encode(&mut w).map_err(encode)?;
    key.encode(&mut w).map_err(encode)?;
    w.finish().map_err(encode)?;
    Ok(out)
}

/// The set's name and the secret key of a plaintext, borrowed from it.
fn read_plaintext(plain: &[u8]) -> Result<(&str, &[u8]), der::Error> {
    let mut r = SliceReader::new(plain)?;
    let parts = r.sequence(|r| {
        let name = Utf8StringRef::decode(r)?;
        let key = <&OctetStringRef>::decode(r)?;
        Ok::<_, der::Error>((name.as_str(), key.as_bytes()))
    })?;
    r.finish()?;
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(alg: Algorithm) -> Vec<u8> {
        (0..alg.secret_key_len()).map(|i| i as u8).collect()
    }

    #[test]
    fn round_trip_label_and_refusals() {
        let alg = Algorithm::Shake192_24;
        let sk = key(alg);
        let pem = encrypt_limited_key(alg, &sk, b"pw").unwrap();
        assert!(pem.starts_with("-----BEGIN SPHINCS DRAFT SP 800 230 ENCRYPTED PRIVATE KEY-----\n"));
        assert!(is_encrypted_limited_key(pem.as_bytes()));
        assert!(!super::super::encrypted::is_encrypted_private_key(
            pem.as_bytes()
        ));
        let back = decrypt_limited_key(pem.as_bytes(), b"pw").unwrap();
        assert_eq!(back.algorithm, alg);
        assert_eq!(&back.secret[..], &sk[..]);
        assert_eq!(
            decrypt_limited_key(pem.as_bytes(), b"wrong").unwrap_err(),
            Error::WrongPassphrase
        );
        // Relabelled as a standard key, it is not one: the PKCS#8 reader
        // finds no PrivateKeyInfo inside (reported as a wrong passphrase,
        // as any plaintext that is not a key).
        let relabelled = pem.replace(LIMITED_KEY_LABEL, "ENCRYPTED PRIVATE KEY");
        assert!(
            super::super::encrypted::decrypt_private_key(relabelled.as_bytes(), b"pw").is_err()
        );
        assert!(matches!(
            decrypt_limited_key(relabelled.as_bytes(), b"pw"),
            Err(Error::Encoding(m)) if m.contains("PEM label is \"ENCRYPTED PRIVATE KEY\"")
        ));
        // A set with an OID, a wrong length, an empty passphrase: refused.
        assert!(
            encrypt_limited_key(Algorithm::Shake128f, &key(Algorithm::Shake128f), b"pw").is_err()
        );
        assert!(matches!(
            encrypt_limited_key(alg, &sk[1..], b"pw"),
            Err(Error::InvalidKeyLength { .. })
        ));
        assert!(encrypt_limited_key(alg, &sk, b"").is_err());
    }

    #[test]
    fn plaintext_is_the_documented_structure() {
        let alg = Algorithm::Sha2_128_24;
        let sk = key(alg);
        let plain = plaintext(alg, &sk).unwrap();
        // SEQUENCE, UTF8String (tag 12) of the name, OCTET STRING (tag 4).
        let name = alg.name().as_bytes();
        let mut want = vec![
            0x30,
            (2 + name.len() + 2 + sk.len()) as u8,
            12,
            name.len() as u8,
        ];
        want.extend_from_slice(name);
        want.extend_from_slice(&[4, sk.len() as u8]);
        want.extend_from_slice(&sk);
        assert_eq!(&plain[..], &want[..]);
        assert_eq!(read_plaintext(&plain).unwrap(), (alg.name(), &sk[..]));
        assert!(read_plaintext(&plain[..plain.len() - 1]).is_err());
    }
}
