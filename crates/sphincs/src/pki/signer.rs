//! The adapter through which `x509-cert`'s builders sign with our keys: the
//! `signature` and `spki` traits they ask for, answered per RFC 9909.

use der::asn1::BitString;
use der::Document;
use spki::{
    AlgorithmIdentifierOwned, DynSignatureAlgorithmIdentifier, EncodePublicKey,
    SignatureBitStringEncoding,
};

use super::{fips205_public, sign_rfc9909, signature_algorithm_of};
use crate::any::AnySigner;
use crate::{DynVerifyingKey, Error};

/// A signing key as the `x509-cert` builders want it: a FIPS 205 key in
/// this process or held elsewhere (a PKCS#11 token, the CLI's agent).
pub struct PkiSigner<'a> {
    key: &'a dyn AnySigner,
    public: DynVerifyingKey,
}

impl<'a> PkiSigner<'a> {
    /// `key`, which must be a FIPS 205 key ([`Error::Pki`] otherwise).
    pub fn new(key: &'a dyn AnySigner) -> Result<Self, Error> {
        Ok(PkiSigner {
            key,
            public: fips205_public(key)?,
        })
    }
}

/// The public half of a [`PkiSigner`], encodable as SPKI under its mode's OID.
#[derive(Clone, Copy, Debug)]
pub struct PkiPublicKey(pub DynVerifyingKey);

/// An SLH-DSA signature as a `BIT STRING` (RFC 9909: the raw signature bytes).
#[derive(Clone, Debug)]
pub struct PkiSignature(pub Vec<u8>);

impl signature::Keypair for PkiSigner<'_> {
    type VerifyingKey = PkiPublicKey;
    fn verifying_key(&self) -> PkiPublicKey {
        PkiPublicKey(self.public)
    }
}

impl DynSignatureAlgorithmIdentifier for PkiSigner<'_> {
    fn signature_algorithm_identifier(&self) -> spki::Result<AlgorithmIdentifierOwned> {
        // The callers check first (for a clear error): only a set without
        // an OID fails here.
        signature_algorithm_of(&self.public)
            .map_err(|_| spki::Error::Asn1(der::ErrorKind::Failed.into()))
    }
}

impl signature::Signer<PkiSignature> for PkiSigner<'_> {
    fn try_sign(&self, msg: &[u8]) -> Result<PkiSignature, signature::Error> {
        sign_rfc9909(self.key, msg)
            .map(PkiSignature)
            .map_err(signature::Error::from)
    }
}

impl SignatureBitStringEncoding for PkiSignature {
    fn to_bitstring(&self) -> der::Result<BitString> {
        BitString::from_bytes(&self.0)
    }
}

impl EncodePublicKey for PkiPublicKey {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let der = self
            .0
            .to_spki_der()
            .map_err(|_| spki::Error::KeyMalformed)?;
        Ok(Document::try_from(der)?)
    }
}
