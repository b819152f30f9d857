//! The key types as PKCS#8 and SubjectPublicKeyInfo: methods on the dynamic
//! keys, and the `pkcs8` / `spki` traits on the typed ones so they slot into
//! code written against those crates.

use der::asn1::BitStringRef;
use der::{Document, SecretDocument, Tagged};
use pkcs8::{EncodePrivateKey, KeyError, PrivateKeyInfoRef};
use spki::{AlgorithmIdentifierRef, EncodePublicKey, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use super::{
    decode_private_key, decode_public_key, private_key_to_der, private_key_to_pem,
    public_key_to_der, public_key_to_pem,
};
use crate::{DynSigningKey, DynVerifyingKey, Error, ParameterSet, SigningKey, VerifyingKey};

impl DynSigningKey {
    /// Reads a PKCS#8 private key (PEM or DER), recomputing PK.root from the
    /// seeds; [`Error::KeyMismatch`] if it differs, or if a v2 key's
    /// `publicKey` is not this key's public half.
    pub fn from_pkcs8(input: &[u8]) -> Result<Self, Error> {
        let decoded = decode_private_key(input)?;
        let key = DynSigningKey::from_bytes(decoded.algorithm, &decoded.secret)?;
        check_public_half(&key, decoded.public.as_deref())?;
        Ok(key)
    }

    /// Like [`DynSigningKey::from_pkcs8`] without recomputing PK.root (which
    /// costs about one key generation). A v2 key's `publicKey` is still
    /// compared with the public half.
    pub fn from_pkcs8_unchecked(input: &[u8]) -> Result<Self, Error> {
        let decoded = decode_private_key(input)?;
        let key = DynSigningKey::from_bytes_unchecked(decoded.algorithm, &decoded.secret)?;
        check_public_half(&key, decoded.public.as_deref())?;
        Ok(key)
    }

    /// DER PKCS#8 v1, as RFC 9909 writes it; wiped when dropped.
    pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        private_key_to_der(self.algorithm(), &self.to_bytes())
    }

    /// PEM (`PRIVATE KEY`) PKCS#8 v1; wiped when dropped.
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>, Error> {
        private_key_to_pem(self.algorithm(), &self.to_bytes())
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
    /// Reads a SubjectPublicKeyInfo (PEM or DER).
    pub fn from_spki(input: &[u8]) -> Result<Self, Error> {
        let (alg, pk) = decode_public_key(input)?;
        DynVerifyingKey::from_bytes(alg, &pk)
    }

    /// DER SubjectPublicKeyInfo.
    pub fn to_spki_der(&self) -> Result<Vec<u8>, Error> {
        public_key_to_der(self.algorithm(), &self.to_bytes())
    }

    /// PEM (`PUBLIC KEY`) SubjectPublicKeyInfo.
    pub fn to_spki_pem(&self) -> Result<String, Error> {
        public_key_to_pem(self.algorithm(), &self.to_bytes())
    }
}

/// Whether an `AlgorithmIdentifier` is exactly set `P`'s: its OID, no parameters.
fn identifies<P: ParameterSet>(id: &AlgorithmIdentifierRef<'_>) -> bool {
    id.oid.as_bytes() == P::ALGORITHM.oid_der().as_slice()
}

/// The raw public key in a `BIT STRING`, if it is whole octets of set `P`'s length.
fn public_bytes<'a, P: ParameterSet>(bits: &BitStringRef<'a>) -> Option<&'a [u8]> {
    bits.as_bytes()
        .filter(|b| b.len() == P::ALGORITHM.public_key_len())
}

impl<P: ParameterSet> TryFrom<PrivateKeyInfoRef<'_>> for SigningKey<P> {
    type Error = pkcs8::Error;

    /// Checks the OID is `P`'s with no parameters, the key's length, PK.root,
    /// and that a v2 `publicKey` is the key's public half.
    fn try_from(info: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        if !identifies::<P>(&info.algorithm) {
            return Err(spki::Error::OidUnknown {
                oid: info.algorithm.oid,
            }
            .into());
        }
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
        let key = SigningKey::<P>::from_bytes(sk).map_err(|_| KeyError::Invalid)?;
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
    /// PKCS#8 v1 as RFC 9909 writes it.
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let der =
            private_key_to_der(P::ALGORITHM, &self.to_bytes()).map_err(|_| KeyError::Invalid)?;
        Ok(SecretDocument::try_from(der.as_slice())?)
    }
}

impl<P: ParameterSet> TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey<P> {
    type Error = spki::Error;

    /// Checks the OID is `P`'s with no parameters and the key's length.
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        if !identifies::<P>(&spki.algorithm) {
            return Err(spki::Error::OidUnknown {
                oid: spki.algorithm.oid,
            });
        }
        if let Some(params) = &spki.algorithm.parameters {
            return Err(spki::Error::Asn1(params.tag().value_error().into()));
        }
        let pk = public_bytes::<P>(&spki.subject_public_key).ok_or(spki::Error::KeyMalformed)?;
        VerifyingKey::<P>::from_bytes(pk).map_err(|_| spki::Error::KeyMalformed)
    }
}

impl<P: ParameterSet> EncodePublicKey for VerifyingKey<P> {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let der = public_key_to_der(P::ALGORITHM, &self.to_bytes())
            .map_err(|_| spki::Error::KeyMalformed)?;
        Ok(Document::try_from(der)?)
    }
}
