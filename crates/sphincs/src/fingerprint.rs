//! Key fingerprints: one short, stable name for a public key, the same from
//! the library, the `sphincs fingerprint` command, Python and C.
//!
//! The form is `SHA256:` followed by the 64 lowercase hex digits of a SHA-256
//! digest. For a FIPS 205 key the digest is over its SubjectPublicKeyInfo DER
//! (RFC 9909) under the OID of its mode, so a raw, DER or PEM copy of one key
//! has one fingerprint, and a HashSLH-DSA key differs from the pure key with
//! the same bytes (they are different keys to a verifier). SPHINCS+ round 3.1
//! and SPHINCS-256 keys have no OID, so the digest is over the raw public key.
//!
//! A draft SP 800-230 (ipd) key has no OID either, but its raw public key
//! (`PK.seed ‖ PK.root`, 32, 48 or 64 bytes) has the length of a FIPS 205 or
//! round-3.1 key, and SHA2 and SHAKE keys of one size share it. So its digest
//! is over [`limited_key_encoding`]: the ASCII name of its set
//! (`SLH-DSA-SHA2-128-24`), one zero byte, then the raw public key, e.g.
//! `{ printf 'SLH-DSA-SHA2-128-24\0'; cat fw.pub; } | sha256sum`. That input
//! cannot be another family's: it is 52–85 bytes, never a raw round-3.1 key's
//! 32, 48 or 64 nor SPHINCS-256's 1056; it starts with `S` (0x53), never an
//! SPKI DER's SEQUENCE (0x30); and the name, ended by the zero byte, tells
//! the six sets apart.

use crate::prelude::*;
use sha2::{Digest, Sha256};

use crate::any::AnyVerifyingKey;
use crate::sphincs256::Sphincs256VerifyingKey;
use crate::sphincsplus::SpxVerifyingKey;
use crate::{Algorithm, DynVerifyingKey, Error};

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

/// What the fingerprint of a draft SP 800-230 (ipd) public key `pk` of set
/// `alg` hashes: the set's name, a zero byte, the raw key (see the
/// [module](self) documentation).
pub fn limited_key_encoding(alg: Algorithm, pk: &[u8]) -> Vec<u8> {
    let name = alg.name().as_bytes();
    let mut out = Vec::with_capacity(name.len() + 1 + pk.len());
    out.extend_from_slice(name);
    out.push(0);
    out.extend_from_slice(pk);
    out
}

impl DynVerifyingKey {
    /// The key's fingerprint: SHA-256 over its SubjectPublicKeyInfo DER, or
    /// for a draft SP 800-230 key (no OID) over its set's name and raw key
    /// (see the [module](self) documentation).
    pub fn fingerprint(&self) -> Result<String, Error> {
        let alg = self.algorithm();
        if alg.is_sp800_230() {
            return Ok(fingerprint_of(&limited_key_encoding(alg, &self.to_bytes())));
        }
        Ok(fingerprint_of(&self.to_spki_der()?))
    }
}

impl AnyVerifyingKey {
    /// The key's fingerprint, whatever its family: over the SPKI DER of a
    /// FIPS 205 key, over the set's name and raw key of a draft SP 800-230
    /// key, over the raw key of the others.
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

    #[test]
    fn limited_key_over_its_set_name_and_raw_key() {
        use crate::any::AnyAlgorithm;
        let pk = [9u8; 32];
        let sha2 = DynVerifyingKey::from_bytes(Algorithm::Sha2_128_24, &pk).unwrap();
        let fp = sha2.fingerprint().unwrap();
        // The input, spelled out here rather than by limited_key_encoding.
        let mut input = b"SLH-DSA-SHA2-128-24\0".to_vec();
        input.extend_from_slice(&pk);
        assert_eq!(fp, fingerprint_of(&input));
        assert_eq!(AnyVerifyingKey::from(sha2).fingerprint().unwrap(), fp);
        // The same 32 bytes as another set's key, or as a round-3.1 key or
        // a FIPS 205 key, have other fingerprints.
        let shake = DynVerifyingKey::from_bytes(Algorithm::Shake128_24, &pk).unwrap();
        let spx: AnyAlgorithm = "sphincs-sha2-128s-simple".parse().unwrap();
        let others = [
            shake.fingerprint().unwrap(),
            AnyVerifyingKey::from_bytes(spx, &pk)
                .unwrap()
                .fingerprint()
                .unwrap(),
            DynVerifyingKey::from_bytes(Algorithm::Sha2_128s, &pk)
                .unwrap()
                .fingerprint()
                .unwrap(),
        ];
        for other in others {
            assert_ne!(other, fp);
        }
        // Every set's encoding: its name, one zero byte, the key; never the
        // length of a raw key of another family.
        for alg in Algorithm::SP800_230 {
            let pk = vec![1u8; alg.public_key_len()];
            let enc = limited_key_encoding(alg, &pk);
            assert_eq!(enc.len(), alg.name().len() + 1 + pk.len());
            assert!(![32, 48, 64, 1056].contains(&enc.len()));
            assert_eq!(enc[0], b'S');
        }
    }
}
