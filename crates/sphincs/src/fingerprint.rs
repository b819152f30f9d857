//! Key fingerprints: one short, stable name for a public key, the same from
//! the library, the `sphincs fingerprint` command, Python and C.
//!
//! The form is `SHA256:` followed by the 64 lowercase hex digits of a SHA-256
//! digest. For a FIPS 205 key the digest is over its SubjectPublicKeyInfo DER
//! (RFC 9909) under the OID of its mode, so a raw, DER or PEM copy of one key
//! has one fingerprint, and a HashSLH-DSA key differs from the pure key with
//! the same bytes (they are different keys to a verifier). SPHINCS+ round 3.1
//! and SPHINCS-256 keys have no OID, so the digest is over the raw public key.

use crate::prelude::*;
use sha2::{Digest, Sha256};

use crate::any::AnyVerifyingKey;
use crate::sphincs256::Sphincs256VerifyingKey;
use crate::sphincsplus::SpxVerifyingKey;
use crate::{DynVerifyingKey, Error};

/// What every fingerprint starts with: the digest it is made of.
pub const FINGERPRINT_PREFIX: &str = "SHA256:";

/// Length in bytes of a fingerprint's text (`SHA256:` and 64 hex digits).
pub const FINGERPRINT_LEN: usize = FINGERPRINT_PREFIX.len() + 64;

/// `SHA256:` and the lowercase hex SHA-256 of `encoded` (an SPKI DER or a
/// raw public key: the key methods below choose which).
pub fn fingerprint_of(encoded: &[u8]) -> String {
    let digest = Sha256::digest(encoded);
    let mut out = String::with_capacity(FINGERPRINT_LEN);
    out.push_str(FINGERPRINT_PREFIX);
    for b in digest.iter() {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

impl DynVerifyingKey {
    /// The key's fingerprint: SHA-256 over its SubjectPublicKeyInfo DER
    /// (see the [module](self) documentation).
    pub fn fingerprint(&self) -> Result<String, Error> {
        Ok(fingerprint_of(&self.to_spki_der()?))
    }
}

impl AnyVerifyingKey {
    /// The key's fingerprint, whatever its family: over the SPKI DER of a
    /// FIPS 205 key, over the raw key of the others.
    pub fn fingerprint(&self) -> Result<String, Error> {
        match self.as_slh_dsa() {
            Some(k) => k.fingerprint(),
            None => Ok(fingerprint_of(&self.to_bytes())),
        }
    }
}

impl SpxVerifyingKey {
    /// The key's fingerprint: SHA-256 over the raw public key (no OID exists).
    pub fn fingerprint(&self) -> String {
        fingerprint_of(&self.to_bytes())
    }
}

impl Sphincs256VerifyingKey {
    /// The key's fingerprint: SHA-256 over the raw public key (no OID exists).
    pub fn fingerprint(&self) -> String {
        fingerprint_of(&self.to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Algorithm, DynSigningKey, KeyMode, PreHash};

    #[test]
    fn known_digest_and_form() {
        // SHA-256("abc"), FIPS 180-4 example.
        assert_eq!(
            fingerprint_of(b"abc"),
            "SHA256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(fingerprint_of(b"").len(), FINGERPRINT_LEN);
    }

    #[test]
    fn fips_key_over_spki_and_mode() {
        let sk =
            DynSigningKey::from_seeds(Algorithm::Shake128f, &[1; 16], &[2; 16], &[3; 16]).unwrap();
        let vk = sk.verifying_key();
        let fp = vk.fingerprint().unwrap();
        assert_eq!(fp, fingerprint_of(&vk.to_spki_der().unwrap()));
        assert_ne!(fp, fingerprint_of(&vk.to_bytes()));
        // A raw copy is the same key; a HashSLH-DSA one is not.
        let raw = DynVerifyingKey::from_bytes(Algorithm::Shake128f, &vk.to_bytes()).unwrap();
        assert_eq!(raw.fingerprint().unwrap(), fp);
        let hashed = vk
            .with_mode(KeyMode::HashSlhDsa(PreHash::Shake128))
            .unwrap();
        assert_ne!(hashed.fingerprint().unwrap(), fp);
    }
}
