//! The adapter through which `x509-cert`'s builders sign with our keys: the
//! `signature` and `spki` traits they ask for, answered per RFC 9909.

use der::asn1::BitString;
use der::Document;
use spki::{
    AlgorithmIdentifierOwned, DynSignatureAlgorithmIdentifier, EncodePublicKey,
    SignatureBitStringEncoding,
};

use super::{sign_rfc9909, signature_algorithm};
use crate::{DynSigningKey, DynVerifyingKey};

/// A signing key as the `x509-cert` builders want it.
pub struct PkiSigner<'a>(pub &'a DynSigningKey);

/// The public half of a [`PkiSigner`], encodable as SPKI under its mode's OID.
#[derive(Clone, Copy, Debug)]
pub struct PkiPublicKey(pub DynVerifyingKey);

/// An SLH-DSA signature as a `BIT STRING` (RFC 9909: the raw signature bytes).
#[derive(Clone, Debug)]
pub struct PkiSignature(pub Vec<u8>);

impl signature::Keypair for PkiSigner<'_> {
    type VerifyingKey = PkiPublicKey;
    fn verifying_key(&self) -> PkiPublicKey {
        PkiPublicKey(self.0.verifying_key())
    }
}

impl DynSignatureAlgorithmIdentifier for PkiSigner<'_> {
    fn signature_algorithm_identifier(&self) -> spki::Result<AlgorithmIdentifierOwned> {
        // The callers check first (for a clear error): only a set without
        // an OID fails here.
        signature_algorithm(self.0).map_err(|_| spki::Error::Asn1(der::ErrorKind::Failed.into()))
    }
}

impl signature::Signer<PkiSignature> for PkiSigner<'_> {
    fn try_sign(&self, msg: &[u8]) -> Result<PkiSignature, signature::Error> {
        sign_rfc9909(self.0, msg)
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
