//! Keys as DER and PEM, as RFC 9909 ("Algorithm Identifiers for SLH-DSA")
//! lays them out.
//!
//! - Public keys are X.509 `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7): the
//!   `AlgorithmIdentifier` is one of the OIDs `2.16.840.1.101.3.4.3.20`–`.31`
//!   (pure SLH-DSA) or `.35`–`.46` (HashSLH-DSA with the pre-hash RFC 9909
//!   binds to the set; the key's [`KeyMode`]) with the parameters *absent*, and the `BIT STRING` holds the raw public key
//!   `PK.seed ‖ PK.root` (2n bytes). PEM label `PUBLIC KEY`.
//! - Private keys are PKCS#8 `OneAsymmetricKey` (RFC 5958): the `privateKey`
//!   `OCTET STRING` holds the raw secret key `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`
//!   (4n bytes) directly, not wrapped in a second `OCTET STRING`. We write
//!   version 0 (v1, no public key); we read v1, and v2 with its `[1] publicKey`,
//!   which is handed back so the caller can check that it matches. PEM label
//!   `PRIVATE KEY`.
//!
//! The decoders take PEM or DER and tell which by looking. Every rejection is
//! an [`Error::Encoding`] that says what was expected.

use crate::prelude::*;
use core::fmt;

use der::asn1::{BitStringRef, OctetStringRef};
use der::pem::{self, LineEnding};
use der::{Decode, Encode};
use pkcs8::PrivateKeyInfoRef;
use spki::{AlgorithmIdentifierRef, ObjectIdentifier, SubjectPublicKeyInfoRef};
use zeroize::Zeroizing;

use crate::{Algorithm, Error, KeyMode};

/// PEM label of a `SubjectPublicKeyInfo` (RFC 7468 §13).
pub const PUBLIC_KEY_LABEL: &str = "PUBLIC KEY";
/// PEM label of an unencrypted PKCS#8 private key (RFC 7468 §10).
pub const PRIVATE_KEY_LABEL: &str = "PRIVATE KEY";

const SPKI_NAME: &str = "SubjectPublicKeyInfo";
const PKCS8_NAME: &str = "PKCS#8 private key";

/// A private key read from PKCS#8.
pub struct DecodedPrivateKey {
    /// The parameter set named by the OID.
    pub algorithm: Algorithm,
    /// The mode the OID binds the key to: [`KeyMode::Pure`] or
    /// [`KeyMode::HashSlhDsa`].
    pub mode: KeyMode,
    /// The raw secret key `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` (4n bytes).
    pub secret: Zeroizing<Vec<u8>>,
    /// The raw public key of a v2 `OneAsymmetricKey`, if it carried one. Not
    /// yet compared with the public half of `secret`: that is the caller's check.
    pub public: Option<Vec<u8>>,
}

impl fmt::Debug for DecodedPrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodedPrivateKey")
            .field("algorithm", &self.algorithm)
            .field("mode", &self.mode)
            .field("secret", &"<redacted>")
            .field("public", &self.public)
            .finish()
    }
}

/// A public key read from a `SubjectPublicKeyInfo`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedPublicKey {
    /// The parameter set named by the OID.
    pub algorithm: Algorithm,
    /// The mode the OID binds the key to: [`KeyMode::Pure`] or
    /// [`KeyMode::HashSlhDsa`].
    pub mode: KeyMode,
    /// The raw public key `PK.seed ‖ PK.root` (2n bytes).
    pub public: Vec<u8>,
}

/// The OID RFC 9909 assigns to `alg` in `mode` (the pure one for a raw key):
/// it names the key in SPKI and PKCS#8 and the signature algorithm in X.509
/// and CMS. The sets of draft SP 800-230 (ipd) have none: an
/// [`Error::Encoding`] says so.
pub fn algorithm_oid(alg: Algorithm, mode: KeyMode) -> Result<ObjectIdentifier, Error> {
    let body = match mode {
        KeyMode::HashSlhDsa(_) => alg.hash_oid_der(),
        _ => alg.oid_der(),
    }
    .ok_or_else(|| no_oid(alg))?;
    // Nine valid content octets of an OID under 2.16.840.1.101.3.4.3.
    Ok(ObjectIdentifier::from_bytes(&body).expect("RFC 9909 OIDs are well formed"))
}

/// The error for a set without an OID (the draft SP 800-230 sets).
pub(crate) fn no_oid(alg: Algorithm) -> Error {
    Error::Encoding(format!(
        "{alg} (draft SP 800-230 (ipd)) has no OID assigned: its keys exist as raw keys only, not in SPKI, PKCS#8, PEM, certificates or CMS"
    ))
}

/// The parameter set and mode an RFC 9909 OID names, if it is one of the 24.
pub fn algorithm_from_oid(oid: &ObjectIdentifier) -> Option<(Algorithm, KeyMode)> {
    let body = oid.as_bytes();
    Algorithm::from_oid_der(body)
        .map(|a| (a, KeyMode::Pure))
        .or_else(|| Algorithm::from_hash_oid_der(body).map(|a| (a, KeyMode::hash_slh_dsa(a))))
}

/// The PEM label of `input`, if it is PEM at all.
pub fn pem_label(input: &[u8]) -> Option<&str> {
    pem::decode_label(input.trim_ascii()).ok()
}

/// DER `SubjectPublicKeyInfo` of the raw public key `pk` (2n bytes), under
/// the pure OID.
pub fn public_key_to_der(alg: Algorithm, pk: &[u8]) -> Result<Vec<u8>, Error> {
    public_key_to_der_with_mode(alg, KeyMode::Pure, pk)
}

/// DER `SubjectPublicKeyInfo` of `pk` under the OID of `mode` (the pure OID
/// for [`KeyMode::Unrestricted`]).
pub fn public_key_to_der_with_mode(
    alg: Algorithm,
    mode: KeyMode,
    pk: &[u8],
) -> Result<Vec<u8>, Error> {
    check_key_len(alg, "public key", pk.len(), alg.public_key_len())?;
    let spki = SubjectPublicKeyInfoRef {
        algorithm: algorithm_identifier(alg, mode)?,
        subject_public_key: BitStringRef::from_bytes(pk).map_err(encode_error)?,
    };
    spki.to_der().map_err(encode_error)
}

/// PEM (`PUBLIC KEY`) `SubjectPublicKeyInfo` of the raw public key `pk`,
/// under the pure OID.
pub fn public_key_to_pem(alg: Algorithm, pk: &[u8]) -> Result<String, Error> {
    public_key_to_pem_with_mode(alg, KeyMode::Pure, pk)
}

/// PEM (`PUBLIC KEY`) `SubjectPublicKeyInfo` of `pk` under the OID of `mode`.
pub fn public_key_to_pem_with_mode(
    alg: Algorithm,
    mode: KeyMode,
    pk: &[u8],
) -> Result<String, Error> {
    let der = public_key_to_der_with_mode(alg, mode, pk)?;
    pem::encode_string(PUBLIC_KEY_LABEL, LineEnding::LF, &der).map_err(pem_encode_error)
}

/// DER PKCS#8 (v1) of the raw secret key `sk` (4n bytes), under the pure OID.
pub fn private_key_to_der(alg: Algorithm, sk: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    private_key_to_der_with_mode(alg, KeyMode::Pure, sk)
}

/// DER PKCS#8 (v1) of `sk` under the OID of `mode` (the pure OID for
/// [`KeyMode::Unrestricted`]).
pub fn private_key_to_der_with_mode(
    alg: Algorithm,
    mode: KeyMode,
    sk: &[u8],
) -> Result<Zeroizing<Vec<u8>>, Error> {
    check_key_len(alg, "secret key", sk.len(), alg.secret_key_len())?;
    let key = OctetStringRef::new(sk).map_err(encode_error)?;
    let info = PrivateKeyInfoRef::new(algorithm_identifier(alg, mode)?, key);
    // Encode straight into a buffer that is wiped on drop.
    let len = info
        .encoded_len()
        .and_then(usize::try_from)
        .map_err(encode_error)?;
    let mut out = Zeroizing::new(vec![0u8; len]);
    info.encode_to_slice(&mut out).map_err(encode_error)?;
    Ok(out)
}

/// PEM (`PRIVATE KEY`) PKCS#8 (v1) of the raw secret key `sk`, under the pure OID.
pub fn private_key_to_pem(alg: Algorithm, sk: &[u8]) -> Result<Zeroizing<String>, Error> {
    private_key_to_pem_with_mode(alg, KeyMode::Pure, sk)
}

/// PEM (`PRIVATE KEY`) PKCS#8 (v1) of `sk` under the OID of `mode`.
pub fn private_key_to_pem_with_mode(
    alg: Algorithm,
    mode: KeyMode,
    sk: &[u8],
) -> Result<Zeroizing<String>, Error> {
    let der = private_key_to_der_with_mode(alg, mode, sk)?;
    pem::encode_string(PRIVATE_KEY_LABEL, LineEnding::LF, &der)
        .map(Zeroizing::new)
        .map_err(pem_encode_error)
}

/// Reads a `SubjectPublicKeyInfo`, PEM or DER, and returns its parameter set
/// and raw public key (under either OID; [`decode_spki`] also gives the mode).
pub fn decode_public_key(input: &[u8]) -> Result<(Algorithm, Vec<u8>), Error> {
    decode_spki(input).map(|d| (d.algorithm, d.public))
}

/// Reads a `SubjectPublicKeyInfo`, PEM or DER: parameter set, mode and raw key.
pub fn decode_spki(input: &[u8]) -> Result<DecodedPublicKey, Error> {
    let der = unwrap_pem(input, PUBLIC_KEY_LABEL, SPKI_NAME)?;
    let spki = SubjectPublicKeyInfoRef::from_der(der.as_bytes())
        .map_err(|e| decode_error(SPKI_NAME, e))?;
    decode_spki_ref(&spki)
}

/// The key of a parsed `SubjectPublicKeyInfo` (e.g. a certificate's).
pub fn decode_spki_ref(spki: &SubjectPublicKeyInfoRef<'_>) -> Result<DecodedPublicKey, Error> {
    let (algorithm, mode) = algorithm_of(&spki.algorithm)?;
    let pk = public_key_bits(algorithm, spki.subject_public_key, "subjectPublicKey")?;
    Ok(DecodedPublicKey {
        algorithm,
        mode,
        public: pk.to_vec(),
    })
}

/// Reads a PKCS#8 private key, PEM or DER: v1, or v2 with a public key.
pub fn decode_private_key(input: &[u8]) -> Result<DecodedPrivateKey, Error> {
    let der = unwrap_pem(input, PRIVATE_KEY_LABEL, PKCS8_NAME)?;
    let info = PrivateKeyInfoRef::from_der(der.as_bytes())
        .map_err(|e| pkcs8_decode_error(der.as_bytes(), e))?;
    let (alg, mode) = algorithm_of(&info.algorithm)?;
    let sk = info.private_key.as_bytes();
    let expected = alg.secret_key_len();
    if sk.len() != expected {
        let nested =
            <&OctetStringRef>::from_der(sk).is_ok_and(|inner| inner.as_bytes().len() == expected);
        return Err(Error::Encoding(if nested {
            format!(
                "the privateKey OCTET STRING holds a nested OCTET STRING; RFC 9909 puts the raw {expected}-byte {alg} key in privateKey directly"
            )
        } else {
            format!(
                "the {alg} privateKey is {} bytes; expected {expected} (SK.seed, SK.prf, PK.seed, PK.root)",
                sk.len()
            )
        }));
    }
    let public = match info.public_key {
        Some(bits) => Some(public_key_bits(alg, bits, "publicKey [1]")?.to_vec()),
        None => None,
    };
    Ok(DecodedPrivateKey {
        algorithm: alg,
        mode,
        secret: Zeroizing::new(sk.to_vec()),
        public,
    })
}

/// The `AlgorithmIdentifier` RFC 9909 prescribes: the OID of the set in
/// `mode`, parameters absent. A HashSLH-DSA mode must carry the bound pre-hash.
fn algorithm_identifier(
    alg: Algorithm,
    mode: KeyMode,
) -> Result<AlgorithmIdentifierRef<'static>, Error> {
    let mode = mode.validate(alg)?;
    Ok(AlgorithmIdentifierRef {
        oid: algorithm_oid(alg, mode)?,
        parameters: None,
    })
}

/// The parameter set and mode an `AlgorithmIdentifier` names, if it is
/// SLH-DSA or HashSLH-DSA as RFC 9909 writes it.
pub fn algorithm_of(id: &AlgorithmIdentifierRef<'_>) -> Result<(Algorithm, KeyMode), Error> {
    let (alg, mode) = algorithm_from_oid(&id.oid).ok_or_else(|| {
        Error::Encoding(format!(
            "algorithm OID {} is not SLH-DSA; expected one of 2.16.840.1.101.3.4.3.20 to .31 (pure) or .35 to .46 (HashSLH-DSA) of RFC 9909",
            id.oid
        ))
    })?;
    if id.parameters.is_some() {
        return Err(Error::Encoding(format!(
            "the AlgorithmIdentifier of {alg} has parameters; RFC 9909 requires them to be absent"
        )));
    }
    Ok((alg, mode))
}

/// The bytes of a public key `BIT STRING`, checked to be whole octets of the right length.
fn public_key_bits<'a>(
    alg: Algorithm,
    bits: BitStringRef<'a>,
    field: &str,
) -> Result<&'a [u8], Error> {
    let bytes = bits.as_bytes().ok_or_else(|| {
        Error::Encoding(format!(
            "the {field} BIT STRING has {} unused bits; expected whole octets",
            bits.unused_bits()
        ))
    })?;
    let expected = alg.public_key_len();
    if bytes.len() != expected {
        return Err(Error::Encoding(format!(
            "the {alg} {field} is {} bytes; expected {expected} (PK.seed, PK.root)",
            bytes.len()
        )));
    }
    Ok(bytes)
}

fn check_key_len(
    algorithm: Algorithm,
    what: &'static str,
    got: usize,
    expected: usize,
) -> Result<(), Error> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::InvalidKeyLength {
            what,
            algorithm,
            expected,
            got,
        })
    }
}

/// DER bytes borrowed from the input, or decoded from PEM into a buffer wiped on drop.
enum DerInput<'a> {
    Borrowed(&'a [u8]),
    Decoded(Zeroizing<Vec<u8>>),
}

impl DerInput<'_> {
    fn as_bytes(&self) -> &[u8] {
        match self {
            DerInput::Borrowed(b) => b,
            DerInput::Decoded(v) => v,
        }
    }
}

/// The DER inside `input`: `input` itself if it starts like a DER SEQUENCE,
/// else the body of a PEM document labelled `label`.
fn unwrap_pem<'a>(input: &'a [u8], label: &str, what: &str) -> Result<DerInput<'a>, Error> {
    if input.first() == Some(&0x30) {
        return Ok(DerInput::Borrowed(input));
    }
    let text = input.trim_ascii();
    if !text.windows(11).any(|w| w == b"-----BEGIN ") {
        return Err(Error::Encoding(if input.is_empty() {
            format!("the input is empty; expected a PEM or DER {what}")
        } else {
            format!(
                "the input is neither PEM (\"-----BEGIN {label}-----\") nor DER (a SEQUENCE, first byte 0x30); expected a {what}"
            )
        }));
    }
    let pem_error =
        |e: pem::Error| Error::Encoding(format!("invalid PEM: {}", pem_error_text(text, e)));
    let mut decoder = pem::Decoder::new_detect_wrap(text).map_err(pem_error)?;
    let found = decoder.type_label();
    if found != label {
        return Err(Error::Encoding(wrong_label(found, label)));
    }
    let mut der = Zeroizing::new(vec![0u8; decoder.remaining_len()]);
    decoder.decode(&mut der).map_err(pem_error)?;
    if !decoder.is_finished() {
        return Err(Error::Encoding(
            "invalid PEM: the Base64 body does not decode to whole bytes".into(),
        ));
    }
    Ok(DerInput::Decoded(der))
}

fn wrong_label(found: &str, want: &str) -> String {
    match (found, want) {
        (PRIVATE_KEY_LABEL, PUBLIC_KEY_LABEL) => {
            "this is a private key (PEM \"PRIVATE KEY\"); expected a public key (PEM \"PUBLIC KEY\")".into()
        }
        (PUBLIC_KEY_LABEL, PRIVATE_KEY_LABEL) => {
            "this is a public key (PEM \"PUBLIC KEY\"); expected a private key (PEM \"PRIVATE KEY\")".into()
        }
        ("ENCRYPTED PRIVATE KEY", _) => format!(
            "this private key is encrypted (PEM \"ENCRYPTED PRIVATE KEY\"); decrypt it with its passphrase (encoding::encrypted::decrypt_private_key) to PEM \"{want}\""
        ),
        _ => format!("PEM label is \"{found}\"; expected \"{want}\""),
    }
}

fn decode_error(what: &str, e: der::Error) -> Error {
    match e.kind() {
        der::ErrorKind::TrailingData { remaining, .. } => Error::Encoding(format!(
            "{remaining} byte{} of trailing data after the DER {what}",
            if u32::from(remaining) == 1 { "" } else { "s" }
        )),
        _ => Error::Encoding(format!("not a valid DER {what}: {}", der_error_text(&e))),
    }
}

/// The DER decoder's error in words: a length field larger than the input
/// (the decoder says "integer overflow" for one beyond its own limit) is
/// said as such.
pub(crate) fn der_error_text(e: &der::Error) -> String {
    let at = e
        .position()
        .map(|p| format!(" (at byte {})", u32::from(p)))
        .unwrap_or_default();
    match e.kind() {
        der::ErrorKind::Overflow => format!("a length field exceeds the input{at}"),
        der::ErrorKind::Incomplete {
            expected_len,
            actual_len,
        } => format!(
            "a length field needs {} bytes but the input has {}{at}",
            u32::from(expected_len),
            u32::from(actual_len)
        ),
        _ => e.to_string(),
    }
}

/// The PEM decoder's error in words: a document without its END line is
/// said to be cut short (the decoder blames the BEGIN line).
pub(crate) fn pem_error_text(text: &[u8], e: pem::Error) -> String {
    if !text.windows(9).any(|w| w == b"-----END ") {
        return "the \"-----END ...-----\" line is missing (a cut-short PEM?)".into();
    }
    e.to_string()
}

/// The DER decoder's error for a PKCS#8 key, said more plainly when the
/// version is the problem: one we do not know, or a v1 key with a
/// `[1] publicKey` or a v2 key without one.
fn pkcs8_decode_error(der: &[u8], e: der::Error) -> Error {
    // A SubjectPublicKeyInfo in DER, where a private key was expected: say
    // so, and what is wrong with it as a public key, rather than the PKCS#8
    // decoder's "expected INTEGER, got SEQUENCE".
    if let Ok(spki) = SubjectPublicKeyInfoRef::from_der(der) {
        return Error::Encoding(match decode_spki_ref(&spki) {
            Ok(_) => "this is a public key (DER SubjectPublicKeyInfo); expected a private key (PKCS#8)".into(),
            Err(Error::Encoding(why)) => format!(
                "this is a public key (DER SubjectPublicKeyInfo), not a private key (PKCS#8), and not a valid one: {why}"
            ),
            Err(other) => format!(
                "this is a public key (DER SubjectPublicKeyInfo), not a private key (PKCS#8), and not a valid one: {other}"
            ),
        });
    }
    let version = der::asn1::AnyRef::from_der_partial(der)
        .ok()
        .and_then(|(outer, _)| u8::from_der_partial(outer.value()).ok())
        .map(|(version, _)| version);
    let public_key_field = matches!(
        e.kind(),
        der::ErrorKind::Value { tag: der::Tag::ContextSpecific { number, .. } }
            if number == der::TagNumber(1)
    );
    let msg = match version {
        Some(0) if public_key_field => {
            "a version 0 (v1) PKCS#8 key must not carry a [1] publicKey; that needs version 1 (v2)"
                .to_string()
        }
        Some(1) if public_key_field => {
            "a version 1 (v2) PKCS#8 key must carry a [1] publicKey".to_string()
        }
        Some(v) if v > 1 => format!(
            "PKCS#8 version {v} is not supported; expected 0 (v1) or 1 (v2, with a publicKey)"
        ),
        _ => return decode_error(PKCS8_NAME, e),
    };
    Error::Encoding(msg)
}

fn encode_error(e: der::Error) -> Error {
    Error::Encoding(format!("DER encoding failed: {e}"))
}

fn pem_encode_error(e: pem::Error) -> Error {
    Error::Encoding(format!("PEM encoding failed: {e}"))
}

pub mod encrypted;
mod key_impls;
pub mod limited;
mod pbes2;
#[cfg(test)]
mod tests;
