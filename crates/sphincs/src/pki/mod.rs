//! SLH-DSA in the public-key infrastructure: X.509 certificates and PKCS#10
//! requests signed per RFC 9909 ([`cert`]), and CMS SignedData per RFC 9814
//! ([`cms`]). The ASN.1 structures are RustCrypto's `x509-cert` and `cms`
//! types; this module signs and checks them with the crate's keys, so the
//! CLI and the bindings add no PKI logic of their own.
//!
//! Signatures follow RFC 9909 §4: an empty context string, the parameters of
//! the `AlgorithmIdentifier` absent, and the OID of the key's mode — pure
//! SLH-DSA, or HashSLH-DSA with the key's bound pre-hash ([`crate::KeyMode`];
//! a raw key signs pure).

use der::pem::{self, LineEnding};
use der::{Decode, Encode};
use spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoRef};

use crate::any::AnySigner;
use crate::encoding::{algorithm_of, algorithm_oid, decode_spki_ref};
use crate::{DynVerifyingKey, Error, KeyMode, Randomness, SignOptions};

mod ber;
pub mod cert;
pub mod chain;
pub mod cms;
pub mod extensions;
mod signer;
pub mod signer_policy;

/// The ASN.1 types of the API, re-exported so callers need not depend on
/// `x509-cert` and `cms` themselves.
pub use ::cms::signed_data::SignedData;
pub use cms::ParsedSignedData;
pub use signer::{PkiPublicKey, PkiSignature, PkiSigner};
pub use x509_cert::{name::Name, request::CertReq, Certificate};
/// The `cms` crate's certificate choice, for walking a SignedData's certificates.
pub mod cms_types {
    pub use ::cms::cert::CertificateChoices;
}

/// PEM or DER input, told apart by looking: the DER, decoded from PEM
/// labelled `label` if it is PEM.
pub(crate) fn pem_or_der<'a>(
    input: &'a [u8],
    label: &str,
    what: &str,
) -> Result<std::borrow::Cow<'a, [u8]>, Error> {
    if input.first() == Some(&0x30) {
        return Ok(input.into());
    }
    let text = input.trim_ascii();
    if !text.starts_with(b"-----BEGIN ") {
        return Err(Error::Pki(if input.is_empty() {
            format!("the input is empty; expected a PEM or DER {what}")
        } else {
            format!("the input is neither PEM (\"-----BEGIN {label}-----\") nor DER (a SEQUENCE, first byte 0x30); expected a {what}")
        }));
    }
    let (found, der) = pem::decode_vec(text).map_err(|e| {
        Error::Pki(format!(
            "invalid PEM {what}: {}",
            crate::encoding::pem_error_text(text, e)
        ))
    })?;
    if found != label {
        return Err(Error::Pki(format!(
            "PEM label is \"{found}\"; expected \"{label}\" (a {what})"
        )));
    }
    Ok(der.into())
}

/// DER, or PEM with `label` when `pem` is set.
pub(crate) fn der_or_pem(der: Vec<u8>, label: &str, pem: bool) -> Result<Vec<u8>, Error> {
    if !pem {
        return Ok(der);
    }
    pem::encode_string(label, LineEnding::LF, &der)
        .map(String::into_bytes)
        .map_err(|e| Error::Pki(format!("PEM encoding failed: {e}")))
}

/// The DER decoder's error, said as what could not be read.
pub(crate) fn malformed(what: &str, e: der::Error) -> Error {
    Error::Pki(format!(
        "not a valid DER {what}: {}",
        crate::encoding::der_error_text(&e)
    ))
}

/// The `AlgorithmIdentifier` a key signs under (RFC 9909: OID of its mode,
/// parameters absent); an error for a set without an OID (draft SP 800-230)
/// or a key that is not a FIPS 205 key.
pub fn signature_algorithm(key: &dyn AnySigner) -> Result<AlgorithmIdentifierOwned, Error> {
    signature_algorithm_of(&fips205_public(key)?)
}

/// The FIPS 205 public key of a signer; [`Error::Pki`] for a key of another
/// family (X.509 per RFC 9909 signs with FIPS 205 SLH-DSA keys only).
pub(crate) fn fips205_public(key: &dyn AnySigner) -> Result<DynVerifyingKey, Error> {
    let public = key.verifying_key();
    public.as_slh_dsa().copied().ok_or_else(|| {
        Error::Pki(format!(
            "X.509 (RFC 9909) signs with FIPS 205 SLH-DSA keys; this is a {} key",
            public.algorithm()
        ))
    })
}

/// [`signature_algorithm`] of a key by its public half (which carries the mode).
pub(crate) fn signature_algorithm_of(
    key: &DynVerifyingKey,
) -> Result<AlgorithmIdentifierOwned, Error> {
    Ok(AlgorithmIdentifierOwned {
        oid: algorithm_oid(key.algorithm(), key.mode())?,
        parameters: None,
    })
}

/// Signs `data` as RFC 9909 asks: hedged, empty context, in the key's mode
/// (a raw key signs pure SLH-DSA), wherever the key is held.
pub(crate) fn sign_rfc9909<K: AnySigner + ?Sized>(key: &K, data: &[u8]) -> Result<Vec<u8>, Error> {
    let opts = SignOptions {
        randomness: Randomness::Hedged,
        ..Default::default()
    };
    key.sign(data, &opts)
}

/// The verifying key of a `SubjectPublicKeyInfo`, with the mode of its OID.
pub fn verifying_key_of(spki: SubjectPublicKeyInfoRef<'_>) -> Result<DynVerifyingKey, Error> {
    let d = decode_spki_ref(&spki)?;
    DynVerifyingKey::from_bytes(d.algorithm, &d.public)?.with_mode(d.mode)
}

/// Checks an SLH-DSA signature made under `sig_alg` over `data` with `key`:
/// the signature algorithm must be the key's own (same parameter set, and
/// the OID of the key's mode), with parameters absent. `Ok(())` if valid,
/// [`Error::InvalidSignature`] if not, [`Error::Pki`] for a mismatch.
pub fn verify_rfc9909(
    key: &DynVerifyingKey,
    sig_alg: &AlgorithmIdentifierOwned,
    data: &[u8],
    signature: &[u8],
) -> Result<(), Error> {
    let id = spki::AlgorithmIdentifierRef {
        oid: sig_alg.oid,
        parameters: sig_alg.parameters.as_ref().map(Into::into),
    };
    let (alg, mode) = algorithm_of(&id).map_err(|e| match e {
        Error::Encoding(m) => Error::Pki(format!("signature algorithm: {m}")),
        other => other,
    })?;
    let key_mode = match key.mode() {
        KeyMode::Unrestricted => mode,
        m => m,
    };
    if alg != key.algorithm() || key_mode != mode {
        return Err(Error::Pki(format!(
            "the signature algorithm ({alg}, {mode}, OID {}) is not the signer's key ({}, {key_mode}, OID {})",
            sig_alg.oid,
            key.algorithm(),
            key_mode.oid(key.algorithm()).unwrap_or_default()
        )));
    }
    let prehash = match mode {
        KeyMode::HashSlhDsa(ph) => Some(ph),
        _ => None,
    };
    key.verify(data, signature, b"", prehash)
}

/// DER of an owned value, as a crate error.
pub(crate) fn to_der(value: &impl Encode, what: &str) -> Result<Vec<u8>, Error> {
    value
        .to_der()
        .map_err(|e| Error::Pki(format!("DER encoding of the {what} failed: {e}")))
}

/// Decodes `T` from DER, as a crate error naming `what`.
pub(crate) fn from_der<'a, T: Decode<'a, Error = der::Error>>(
    der: &'a [u8],
    what: &str,
) -> Result<T, Error> {
    T::from_der(der).map_err(|e| malformed(what, e))
}

/// Decodes `T` from DER and refuses it unless it re-encodes to the same
/// bytes: the DER decoder sorts a SET OF and accepts an explicitly encoded
/// DEFAULT, so a value decoded from such input would be checked over other
/// bytes than the ones received (RFC 5280 §4.1.1.3, RFC 2986 §4.2: the
/// signature is over the DER as received).
pub(crate) fn from_der_exact<'a, T>(der: &'a [u8], what: &str) -> Result<T, Error>
where
    T: Decode<'a, Error = der::Error> + Encode,
{
    let value: T = from_der(der, what)?;
    if to_der(&value, what)? != der {
        return Err(not_canonical(what));
    }
    Ok(value)
}

/// The error for input that decodes but is not DER (see [`from_der_exact`]).
pub(crate) fn not_canonical(what: &str) -> Error {
    Error::Pki(format!(
        "not a valid DER {what}: it is not in canonical DER form (e.g. an unsorted SET OF or an explicitly encoded DEFAULT value), so its signature cannot be checked over the bytes as received"
    ))
}
