//! The key types as PKCS#8 and SubjectPublicKeyInfo: methods on the dynamic
//! keys, and the `pkcs8` / `spki` traits on the typed ones so they slot into
//! code written against those crates.

use crate::prelude::*;
use der::asn1::BitStringRef;
use der::{Document, SecretDocument, Tagged};
use pkcs8::{EncodePrivateKey, KeyError, PrivateKeyInfoRef};
use spki::{AlgorithmIdentifierRef, EncodePublicKey, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use super::{
    algorithm_from_oid, decode_private_key, decode_spki, private_key_to_der_with_mode,
    private_key_to_pem_with_mode, public_key_to_der_with_mode, public_key_to_pem_with_mode,
};
use crate::{
    Algorithm, DynSigningKey, DynVerifyingKey, Error, KeyMode, ParameterSet, SigningKey,
    VerifyingKey,
};

impl DynSigningKey {
    /// Reads a PKCS#8 private key (PEM or DER), recomputing PK.root from the
    /// seeds; [`Error::KeyMismatch`] if it differs, or if a v2 key's
    /// `publicKey` is not this key's public half. The key has the mode of its
    /// OID (pure or HashSLH-DSA).
    pub fn from_pkcs8(input: &[u8]) -> Result<Self, Error> {
        Self::read_pkcs8(input, DynSigningKey::from_bytes)
    }

    /// Like [`DynSigningKey::from_pkcs8`] without recomputing PK.root (which
    /// costs about one key generation). A v2 key's `publicKey` is still
    /// compared with the public half.
    pub fn from_pkcs8_unchecked(input: &[u8]) -> Result<Self, Error> {
        Self::read_pkcs8(input, DynSigningKey::from_bytes_unchecked)
    }

    /// Reads a PKCS#8 private key, making the key from its raw bytes with
    /// `from_raw` (checked or not), in the mode of its OID, its v2
    /// `publicKey` compared with the public half.
    fn read_pkcs8(
        input: &[u8],
        from_raw: fn(Algorithm, &[u8]) -> Result<Self, Error>,
    ) -> Result<Self, Error> {
        let decoded = decode_private_key(input)?;
        let key = from_raw(decoded.algorithm, &decoded.secret)?.with_mode(decoded.mode)?;
        check_public_half(&key, decoded.public.as_deref())?;
        Ok(key)
    }

    /// DER PKCS#8 v1, as RFC 9909 writes it, under the OID of the key's mode
    /// (the pure OID for a raw key); wiped when dropped.
    pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        private_key_to_der_with_mode(self.algorithm(), self.mode(), &self.to_bytes())
    }

    /// PEM (`PRIVATE KEY`) PKCS#8 v1 under the OID of the key's mode; wiped when dropped.
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>, Error> {
        private_key_to_pem_with_mode(self.algorithm(), self.mode(), &self.to_bytes())
    }

    /// Reads a private key that may be encrypted: an `ENCRYPTED PRIVATE KEY`
    /// (PEM or DER) is decrypted with `passphrase` (see
    /// [`super::encrypted`]), a plain one read as [`DynSigningKey::from_pkcs8`].
    pub fn from_pkcs8_with_passphrase(input: &[u8], passphrase: &[u8]) -> Result<Self, Error> {
        if super::encrypted::is_encrypted_private_key(input) {
            let plain = super::encrypted::decrypt_private_key(input, passphrase)?;
            Self::from_pkcs8(&plain)
        } else {
            Self::from_pkcs8(input)
        }
    }

    /// DER `EncryptedPrivateKeyInfo`: the PKCS#8 of [`DynSigningKey::to_pkcs8_der`]
    /// encrypted under `passphrase` (scrypt, AES-256-CBC; see [`super::encrypted`]).
    pub fn to_encrypted_pkcs8_der(&self, passphrase: &[u8]) -> Result<Vec<u8>, Error> {
        super::encrypted::encrypt_private_key_der(&self.to_pkcs8_der()?, passphrase)
    }

    /// PEM (`ENCRYPTED PRIVATE KEY`) of [`DynSigningKey::to_encrypted_pkcs8_der`].
    pub fn to_encrypted_pkcs8_pem(&self, passphrase: &[u8]) -> Result<String, Error> {
        super::encrypted::encrypt_private_key_pem(&self.to_pkcs8_der()?, passphrase)
    }
}

/// A v2 key's `publicKey` must be the public half of its secret key.
fn check_public_half(key: &DynSigningKey, public: Option<&[u8]>) -> Result<(), Error> {
    match public {
        Some(pk) if pk != key.verifying_key().to_bytes().as_slice() => Err(Error::KeyMismatch),
        _ => Ok(()),
    }
}

impl DynVerifyingKey {
    /// Reads a SubjectPublicKeyInfo (PEM or DER); the key has the mode of its OID.
    pub fn from_spki(input: &[u8]) -> Result<Self, Error> {
        let decoded = decode_spki(input)?;
        DynVerifyingKey::from_bytes(decoded.algorithm, &decoded.public)?.with_mode(decoded.mode)
    }

    /// DER SubjectPublicKeyInfo under the OID of the key's mode (the pure OID for a raw key).
    pub fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        public_key_to_der_with_mode(self.algorithm(), self.mode(), &self.to_bytes())
    }

    /// PEM (`PUBLIC KEY`) SubjectPublicKeyInfo under the OID of the key's mode.
    pub fn to_spki_pem(&self) -> Result<String, Error> {
        public_key_to_pem_with_mode(self.algorithm(), self.mode(), &self.to_bytes())
    }
}

/// The mode of set `P` an `AlgorithmIdentifier` names (its pure or its
/// HashSLH-DSA OID); `OidUnknown` if it names another set or none.
fn identifies<P: ParameterSet>(id: &AlgorithmIdentifierRef<'_>) -> spki::Result<KeyMode> {
    algorithm_from_oid(&id.oid)
        .filter(|(alg, _)| *alg == P::ALGORITHM)
        .map(|(_, mode)| mode)
        .ok_or(spki::Error::OidUnknown { oid: id.oid })
}

/// The raw public key in a `BIT STRING`, if it is whole octets of set `P`'s length.
fn public_bytes<'a, P: ParameterSet>(bits: &BitStringRef<'a>) -> Option<&'a [u8]> {
    bits.as_bytes()
        .filter(|b| b.len() == P::ALGORITHM.public_key_len())
}

impl<P: ParameterSet> TryFrom<PrivateKeyInfoRef<'_>> for SigningKey<P> {
    type Error = pkcs8::Error;

    /// Checks the OID is one of `P`'s (the key takes its mode) with no
    /// parameters, the key's length, PK.root, and that a v2 `publicKey` is
    /// the key's public half.
    fn try_from(info: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let mode = identifies::<P>(&info.algorithm)?;
        if info.algorithm.parameters.is_some() {
            return Err(pkcs8::Error::ParametersMalformed);
        }
        let sk = info.private_key.as_bytes();
        let expected = P::ALGORITHM.secret_key_len();
        if sk.len() != expected {
            return Err(if sk.len() < expected {
                KeyError::TooShort
            } else {
                KeyError::TooLong
            }
            .into());
        }
        let key = SigningKey::<P>::from_bytes(sk)
            .and_then(|k| k.with_mode(mode))
            .map_err(|_| KeyError::Invalid)?;
        if let Some(bits) = &info.public_key {
            let pk = public_bytes::<P>(bits).ok_or(spki::Error::KeyMalformed)?;
            if pk != key.verifying_key().to_bytes().as_slice() {
                return Err(KeyError::Invalid.into());
            }
        }
        Ok(key)
    }
}

impl<P: ParameterSet> EncodePrivateKey for SigningKey<P> {
    /// PKCS#8 v1 as RFC 9909 writes it, under the OID of the key's mode.
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let der = private_key_to_der_with_mode(P::ALGORITHM, self.mode(), &self.to_bytes())
            .map_err(|_| KeyError::Invalid)?;
        Ok(SecretDocument::try_from(der.as_slice())?)
    }
}

impl<P: ParameterSet> TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey<P> {
    type Error = spki::Error;

    /// Checks the OID is one of `P`'s (the key takes its mode) with no
    /// parameters, and the key's length.
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let mode = identifies::<P>(&spki.algorithm)?;
        if let Some(params) = &spki.algorithm.parameters {
            return Err(spki::Error::Asn1(params.tag().value_error().into()));
        }
        let pk = public_bytes::<P>(&spki.subject_public_key).ok_or(spki::Error::KeyMalformed)?;
        VerifyingKey::<P>::from_bytes(pk)
            .and_then(|k| k.with_mode(mode))
            .map_err(|_| spki::Error::KeyMalformed)
    }
}

impl<P: ParameterSet> EncodePublicKey for VerifyingKey<P> {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let der = public_key_to_der_with_mode(P::ALGORITHM, self.mode(), &self.to_bytes())
            .map_err(|_| spki::Error::KeyMalformed)?;
        Ok(Document::try_from(der)?)
    }
}
