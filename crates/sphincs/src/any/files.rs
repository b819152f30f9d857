//! What a key file of each set can be. PEM and DER (PKCS#8 / SPKI, RFC 9909),
//! RFC 9909 key modes and encrypted PKCS#8 all need an OID, which only the
//! twelve FIPS 205 sets have; every other set (SPHINCS+ round 3.1,
//! SPHINCS-256, the draft SP 800-230 sets) is written as its raw bytes, and
//! a draft SP 800-230 private key, encrypted, in this library's own PEM
//! format (`encoding::limited`: not PKCS#8). The checks take only the set,
//! so a front end refuses before it makes a key (a draft SP 800-230 key
//! takes a minute).

use crate::prelude::*;

use zeroize::Zeroizing;

use super::algorithm::AnyAlgorithm;
use super::keys::{AnySigningKey, AnyVerifyingKey};
use crate::encoding::limited::encrypt_limited_key;
use crate::error::Error;
use crate::mode::KeyMode;

/// How a key file is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFormat {
    /// PKCS#8 `PRIVATE KEY` / SPKI `PUBLIC KEY` PEM (sets with an OID).
    Pem,
    /// PKCS#8 / SPKI DER (sets with an OID).
    Der,
    /// The raw key bytes, as the family's reference code writes them (every
    /// set; the only form of a set without an OID).
    Raw,
}

const ENCODING: &str = "PKCS#8/SPKI (PEM/DER) encodings: no OID is assigned, use raw bytes";
const MODES: &str = "RFC 9909 key modes (HashSLH-DSA keys bound to a pre-hash need an OID)";
const ENCRYPTION: &str = "encrypted private keys: no OID is assigned, keys are raw bytes";

impl AnyAlgorithm {
    /// Whether keys of this set have an OID (RFC 9909): the FIPS 205 sets,
    /// not the draft SP 800-230 ones nor the other families.
    pub const fn has_oid(self) -> bool {
        matches!(self, AnyAlgorithm::SlhDsa(a) if !a.is_sp800_230())
    }

    /// The format of this set's key files: DER if `der`, else PEM, for a set
    /// with an OID; raw bytes for the others, which refuse DER
    /// ([`Error::Unsupported`]).
    pub fn key_format(self, der: bool) -> Result<KeyFormat, Error> {
        match (self.has_oid(), der) {
            (true, true) => Ok(KeyFormat::Der),
            (true, false) => Ok(KeyFormat::Pem),
            (false, false) => Ok(KeyFormat::Raw),
            (false, true) => Err(self.no_oid(ENCODING)),
        }
    }

    /// `mode`, checked for this set before a key is made: pure for any set;
    /// HashSLH-DSA only with an OID ([`Error::Unsupported`]) and only with
    /// the pre-hash RFC 9909 binds to the set ([`Error::PreHashNotBound`]).
    pub fn check_mode(self, mode: KeyMode) -> Result<KeyMode, Error> {
        match self.slh_dsa() {
            _ if mode == KeyMode::Pure => Ok(mode),
            Some(a) if self.has_oid() => mode.validate(a),
            _ => Err(self.no_oid(MODES)),
        }
    }

    /// Whether private keys of this set can be written encrypted (PKCS#8
    /// PBES2, which needs an OID; or a draft SP 800-230 set's own PEM format,
    /// `encoding::limited`): [`Error::Unsupported`] if not.
    pub fn check_encryption(self) -> Result<(), Error> {
        match self.has_oid() || self.is_limited() {
            true => Ok(()),
            false => Err(self.no_oid(ENCRYPTION)),
        }
    }

    /// [`Error::Unsupported`] for what a set without an OID lacks, naming
    /// its family (a draft SP 800-230 set by its own name: FIPS 205 keys
    /// have what it lacks).
    fn no_oid(self, what: &'static str) -> Error {
        Error::Unsupported {
            family: match self.is_limited() {
                true => self.name(),
                false => self.family().name(),
            },
            what,
        }
    }
}

impl AnySigningKey {
    /// The private key file in `format` (see [`AnyAlgorithm::key_format`]):
    /// PKCS#8, encrypted under `passphrase` if one is given, or the raw key.
    /// A draft SP 800-230 key (format raw) under a passphrase is the PEM of
    /// `encoding::limited` (this library's format, not PKCS#8). Wiped when
    /// dropped.
    pub fn to_key_file(
        &self,
        format: KeyFormat,
        passphrase: Option<&[u8]>,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let alg = self.algorithm();
        if passphrase.is_some() {
            alg.check_encryption()?;
        }
        if format != KeyFormat::Raw {
            alg.key_format(true)?;
        }
        // A draft SP 800-230 key (always raw) has one encrypted form.
        let limited = alg.slh_dsa().filter(|a| a.is_sp800_230());
        if let (Some(p), Some(set)) = (passphrase, limited) {
            let pem = encrypt_limited_key(set, &self.to_bytes(), p)?;
            return Ok(Zeroizing::new(pem.into_bytes()));
        }
        Ok(match (format, passphrase) {
            // Encryption is PKCS#8's: a raw key file has no place for it.
            (KeyFormat::Raw, Some(_)) => {
                return Err(Error::Unsupported {
                    family: alg.family().name(),
                    what: "encrypted raw key files (encryption is PKCS#8's)",
                })
            }
            (KeyFormat::Raw, None) => self.to_bytes(),
            (KeyFormat::Der, Some(p)) => Zeroizing::new(self.to_encrypted_pkcs8_der(p)?),
            (KeyFormat::Pem, Some(p)) => {
                Zeroizing::new(self.to_encrypted_pkcs8_pem(p)?.into_bytes())
            }
            (KeyFormat::Der, None) => self.to_pkcs8_der()?,
            (KeyFormat::Pem, None) => Zeroizing::new(self.to_pkcs8_pem()?.as_bytes().to_vec()),
        })
    }
}

impl AnyVerifyingKey {
    /// The public key file in `format`: SubjectPublicKeyInfo PEM or DER, or
    /// the raw key (see [`AnyAlgorithm::key_format`]).
    pub fn to_key_file(&self, format: KeyFormat) -> Result<Vec<u8>, Error> {
        if format != KeyFormat::Raw {
            self.algorithm().key_format(true)?;
        }
        match format {
            KeyFormat::Raw => Ok(self.to_bytes()),
            KeyFormat::Der => self.to_spki_der(),
            KeyFormat::Pem => self.to_spki_pem().map(String::into_bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Algorithm;
    use crate::prehash::PreHash;

    #[test]
    fn only_sets_with_an_oid_have_pem_der_and_modes() {
        let fips = AnyAlgorithm::SlhDsa(Algorithm::Shake128f);
        let hash = KeyMode::HashSlhDsa(PreHash::Shake128);
        assert_eq!(fips.key_format(false), Ok(KeyFormat::Pem));
        assert_eq!(fips.key_format(true), Ok(KeyFormat::Der));
        assert_eq!(fips.check_mode(hash), Ok(hash));
        assert!(matches!(
            fips.check_mode(KeyMode::HashSlhDsa(PreHash::Sha2_512)),
            Err(Error::PreHashNotBound { .. })
        ));
        assert_eq!(fips.check_encryption(), Ok(()));
        let limited = AnyAlgorithm::SlhDsa(Algorithm::SP800_230[0]);
        let others = [
            limited,
            "sphincs-shake-128f-simple".parse().unwrap(),
            AnyAlgorithm::Sphincs256,
        ];
        for alg in others {
            assert!(!alg.has_oid(), "{alg}");
            assert_eq!(alg.key_format(false), Ok(KeyFormat::Raw));
            assert_eq!(alg.check_mode(KeyMode::Pure), Ok(KeyMode::Pure));
            // A draft SP 800-230 key can be encrypted (its own format).
            assert_eq!(alg.check_encryption().is_ok(), alg == limited, "{alg}");
            let mut refusals = vec![
                alg.key_format(true).unwrap_err(),
                alg.check_mode(hash).unwrap_err(),
            ];
            refusals.extend(alg.check_encryption().err());
            for e in refusals {
                let Error::Unsupported { family, .. } = e else {
                    panic!("{alg}: {e}")
                };
                let want = match alg == limited {
                    true => alg.name(),
                    false => alg.family().name(),
                };
                assert_eq!(family, want);
            }
        }
        assert!(AnyAlgorithm::Sphincs256
            .key_format(true)
            .unwrap_err()
            .to_string()
            .contains("no OID"));
    }

    #[test]
    fn key_files_in_each_format() {
        let spx: AnyAlgorithm = "sphincs-shake-128f-simple".parse().unwrap();
        let sk = AnySigningKey::from_seed(spx, &[7; 48], 1).unwrap();
        let raw = sk.to_key_file(KeyFormat::Raw, None).unwrap();
        assert_eq!(&raw[..], &sk.to_bytes()[..]);
        let vk = sk.verifying_key();
        assert_eq!(vk.to_key_file(KeyFormat::Raw).unwrap(), vk.to_bytes());
        assert!(sk.to_key_file(KeyFormat::Pem, None).is_err());
        assert!(sk.to_key_file(KeyFormat::Raw, Some(b"pw")).is_err());
        assert!(sk.to_key_file(KeyFormat::Der, None).is_err());
        assert!(vk.to_key_file(KeyFormat::Der).is_err());

        let fips = AnyAlgorithm::SlhDsa(Algorithm::Shake128f);
        let sk = AnySigningKey::from_seed(fips, &[7; 48], 1).unwrap();
        let vk = sk.verifying_key();
        let pem = sk.to_key_file(KeyFormat::Pem, None).unwrap();
        assert_eq!(&pem[..], sk.to_pkcs8_pem().unwrap().as_bytes());
        let der = sk.to_key_file(KeyFormat::Der, None).unwrap();
        assert_eq!(&der[..], &sk.to_pkcs8_der().unwrap()[..]);
        assert_eq!(
            &sk.to_key_file(KeyFormat::Raw, None).unwrap()[..],
            &sk.to_bytes()[..]
        );
        assert_eq!(
            vk.to_key_file(KeyFormat::Der).unwrap(),
            vk.to_spki_der().unwrap()
        );
        assert_eq!(
            vk.to_key_file(KeyFormat::Pem).unwrap(),
            vk.to_spki_pem().unwrap().into_bytes()
        );

        // A draft SP 800-230 key under a passphrase: its own PEM, which
        // decrypts to the raw key; without one, the raw key.
        let limited = AnyAlgorithm::SlhDsa(Algorithm::Sha2_128_24);
        let sk = AnySigningKey::from_bytes_unchecked(limited, &[7; 64]).unwrap();
        let file = sk.to_key_file(KeyFormat::Raw, Some(b"pw")).unwrap();
        let back = crate::encoding::limited::decrypt_limited_key(&file, b"pw").unwrap();
        assert_eq!(back.algorithm, Algorithm::Sha2_128_24);
        assert_eq!(&back.secret[..], &[7; 64][..]);
        assert_eq!(
            &sk.to_key_file(KeyFormat::Raw, None).unwrap()[..],
            &[7; 64][..]
        );
        assert!(sk.to_key_file(KeyFormat::Pem, Some(b"pw")).is_err());
    }
}
