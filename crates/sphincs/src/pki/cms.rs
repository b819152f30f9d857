//! CMS SignedData (RFC 5652) with SLH-DSA, as RFC 9814 specifies: pure
//! SLH-DSA (the signature algorithm is the signer key's RFC 9909 OID,
//! parameters absent, empty context) over the DER of the signed attributes
//! (content type, message digest, signing time and RFC 6211's
//! CMSAlgorithmProtection).
//!
//! The message digest follows RFC 9814's pairing by default: SHA-256 for
//! SLH-DSA-SHA2-128s/f, SHA-512 for the other SHA2 sets, SHAKE128 (256-bit
//! output) for SHAKE-128s/f and SHAKE256 (512-bit output) for the other
//! SHAKE sets. Other digests are accepted — on signing when asked, on
//! verification when found — if they are at least as strong as the set
//! (output of at least 2n bytes for SHA-2 and SHA-3; SHAKE128 only for
//! n = 16): OpenSSL 3.5 cannot compute SHAKE digests in CMS and uses SHA-2
//! or SHA-3 for the SHAKE sets.
//!
//! The content is streamed: signing reads it once to digest it, and an
//! attached SignedData is returned as the DER before and after the content,
//! so the caller streams the content between them ([`SignedDataParts`]).
//! Verification streams detached content; attached content is parsed with
//! the rest of the SignedData, in memory.

use std::time::SystemTime;

use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::CmsVersion;
use cms::signed_data::{CertificateSet, SignedData, SignerIdentifier, SignerInfo, SignerInfos};
use const_oid::db::rfc5911::{
    ID_CONTENT_TYPE, ID_DATA, ID_MESSAGE_DIGEST, ID_SIGNED_DATA, ID_SIGNING_TIME,
};
use der::asn1::{OctetString, OctetStringRef, SetOfVec};
use der::referenced::OwnedToRef;
use der::{Any, Decode, Encode, Header, Length, Sequence, Tag, TagNumber, Tagged};
use spki::{AlgorithmIdentifierOwned, ObjectIdentifier};
use x509_cert::attr::Attribute;
use x509_cert::ext::pkix::SubjectKeyIdentifier;
use x509_cert::time::Time;
use x509_cert::Certificate;

pub use super::ber::MAX_SIGNER_INFOS;
use super::chain::{verify_chain, ChainCheck};
use super::{der_or_pem, from_der, pem_or_der, signature_algorithm_of, to_der, verify_rfc9909};
use super::{sign_rfc9909, verifying_key_of};
use crate::any::AnySigner;
use crate::message::MessageSource;
use crate::{Algorithm, DynVerifyingKey, Error, KeyMode, PreHash};

/// PEM label OpenSSL writes for CMS (`openssl cms -outform PEM`).
pub const CMS_LABEL: &str = "CMS";
/// The older PKCS#7 label, also accepted on input.
pub const PKCS7_LABEL: &str = "PKCS7";

/// `id-aa-CMSAlgorithmProtection` (RFC 6211).
pub const ID_AA_CMS_ALGORITHM_PROTECTION: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.52");

/// RFC 6211's attribute: the digest and signature algorithms, signed, so
/// they cannot be swapped.
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub struct CmsAlgorithmProtection {
    /// The SignerInfo's digestAlgorithm.
    pub digest_algorithm: AlgorithmIdentifierOwned,
    /// The SignerInfo's signatureAlgorithm.
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", optional = "true")]
    pub signature_algorithm: Option<AlgorithmIdentifierOwned>,
    /// For authenticated data only; absent here.
    #[asn1(context_specific = "2", tag_mode = "IMPLICIT", optional = "true")]
    pub mac_algorithm: Option<AlgorithmIdentifierOwned>,
}

/// The digest RFC 9814 pairs with a parameter set.
pub const fn paired_digest(alg: Algorithm) -> PreHash {
    alg.bound_prehash()
}

/// Whether `digest` is strong enough for `alg` in CMS (see the module
/// documentation): the paired one, or SHA-2 / SHA-3 of at least 2n bytes.
pub fn digest_allowed(alg: Algorithm, digest: PreHash) -> bool {
    let n = alg.params().n;
    match digest {
        PreHash::Shake128 => n == 16,
        PreHash::Shake256 => true,
        PreHash::Sha2_256 | PreHash::Sha3_256 => n == 16,
        PreHash::Sha2_384 | PreHash::Sha3_384 => n <= 24,
        PreHash::Sha2_512 | PreHash::Sha3_512 => true,
        _ => false,
    }
}

/// The digest algorithm of an `AlgorithmIdentifier` (parameters absent or NULL).
fn digest_of(id: &AlgorithmIdentifierOwned) -> Result<PreHash, Error> {
    let found = PreHash::ALL
        .into_iter()
        .find(|p| p.oid_der()[2..] == *id.oid.as_bytes())
        .ok_or_else(|| Error::Pki(format!("unknown digest algorithm OID {}", id.oid)))?;
    match &id.parameters {
        None => Ok(found),
        Some(p) if p.tag() == Tag::Null => Ok(found),
        Some(_) => Err(Error::Pki(format!(
            "the {found} digest AlgorithmIdentifier has parameters; expected none"
        ))),
    }
}

fn digest_identifier(digest: PreHash) -> AlgorithmIdentifierOwned {
    AlgorithmIdentifierOwned {
        oid: ObjectIdentifier::from_bytes(&digest.oid_der()[2..])
            .expect("NIST hash OIDs are well formed"),
        parameters: None,
    }
}

/// How to sign.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CmsSignOptions {
    /// The message digest; `None` for RFC 9814's pairing.
    pub digest: Option<PreHash>,
    /// Leave the content out (detached signature).
    pub detached: bool,
}

/// A SignedData as DER: `prefix ‖ content ‖ suffix` when attached,
/// `prefix ‖ suffix` when detached.
#[derive(Clone, Debug)]
pub struct SignedDataParts {
    /// DER up to the content octets.
    pub prefix: Vec<u8>,
    /// DER after the content octets.
    pub suffix: Vec<u8>,
    /// Bytes of content the caller must write between them (0 if detached).
    pub content_len: u64,
    /// The digest used.
    pub digest: PreHash,
}

impl SignedDataParts {
    /// The whole DER, given the content (for small messages and tests).
    pub fn assemble(&self, content: &[u8]) -> Vec<u8> {
        let mut out = self.prefix.clone();
        if self.content_len > 0 {
            out.extend_from_slice(content);
        }
        out.extend_from_slice(&self.suffix);
        out
    }
}

/// Signs `content` (streamed once) with `key` (in this process, or held by
/// another: [`AnySigner`]), whose certificate `cert` is embedded and names
/// the signer. `now` is the signing time attribute.
pub fn sign(
    key: &dyn AnySigner,
    cert: &Certificate,
    content: &mut dyn MessageSource,
    opts: CmsSignOptions,
    now: SystemTime,
) -> Result<SignedDataParts, Error> {
    sign_with_chain(key, cert, &[], content, opts, now)
}

/// As [`sign`], also embedding the certificates of `chain` (intermediate CA
/// certificates, for a verifier to build the path to its trust anchor;
/// duplicates of `cert` or of each other are left out).
pub fn sign_with_chain(
    key: &dyn AnySigner,
    cert: &Certificate,
    chain: &[Certificate],
    content: &mut dyn MessageSource,
    opts: CmsSignOptions,
    now: SystemTime,
) -> Result<SignedDataParts, Error> {
    let public = key.verifying_key();
    let Some(&vk) = public.as_slh_dsa() else {
        return Err(Error::Pki(format!(
            "CMS (RFC 9814) signs with FIPS 205 SLH-DSA keys; this is a {} key",
            public.algorithm()
        )));
    };
    let alg = vk.algorithm();
    if let KeyMode::HashSlhDsa(_) = vk.mode() {
        return Err(Error::Pki(format!(
            "RFC 9814 signs CMS with pure SLH-DSA; this {alg} key is bound to {} by its OID. Use a {alg} key in pure mode and a certificate for it",
            vk.mode()
        )));
    }
    let cert_spki = to_der(
        cert.tbs_certificate().subject_public_key_info(),
        "certificate key",
    )?;
    if cert_spki != vk.to_spki_der()? {
        return Err(Error::Pki(
            "the key is not the key of the certificate".into(),
        ));
    }
    let digest = opts.digest.unwrap_or(paired_digest(alg));
    if !digest_allowed(alg, digest) {
        return Err(Error::Pki(format!(
            "{digest} is too weak a message digest for {alg}; RFC 9814 pairs it with {}",
            paired_digest(alg)
        )));
    }
    let mut content_len = 0u64;
    let mut counted = Counted {
        inner: content,
        len: &mut content_len,
    };
    let (md, md_len) = digest.digest(&mut counted)?;
    let digest_alg = digest_identifier(digest);
    let sig_alg = signature_algorithm_of(&vk)?;

    let attrs = signed_attributes(&digest_alg, &sig_alg, &md[..md_len], now)?;
    let signature = sign_rfc9909(key, &to_der(&attrs, "signed attributes")?)?;
    let tbs = cert.tbs_certificate();
    let signer = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: tbs.issuer().clone(),
            serial_number: tbs.serial_number().clone(),
        }),
        digest_alg: digest_alg.clone(),
        signed_attrs: Some(attrs),
        signature_algorithm: sig_alg,
        signature: OctetString::new(signature).map_err(der_error)?,
        unsigned_attrs: None,
    };

    // SignedData ::= SEQUENCE { version, digestAlgorithms, encapContentInfo,
    // [0] certificates, signerInfos }, encoded field by field so that the
    // content can be streamed between the parts.
    let version = to_der(&CmsVersion::V1, "version")?;
    let mut digests = SetOfVec::new();
    digests.insert(digest_alg).map_err(der_error)?;
    let digests = to_der(&digests, "digest algorithms")?;
    let mut certs = CertificateSet(SetOfVec::new());
    let mut seen: Vec<&Certificate> = Vec::with_capacity(chain.len() + 1);
    for c in std::iter::once(cert).chain(chain) {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        certs
            .0
            .insert(CertificateChoices::Certificate(c.clone()))
            .map_err(der_error)?;
    }
    if certs.0.len() > super::ber::MAX_CERTIFICATES {
        return Err(Error::Pki(format!(
            "a SignedData carries at most {} certificates (as many as verification reads); {} given with the signer's",
            super::ber::MAX_CERTIFICATES,
            certs.0.len()
        )));
    }
    let mut certs = to_der(&certs, "certificates")?;
    certs[0] = 0xa0; // SET OF → [0] IMPLICIT, constructed
    let mut infos = SignerInfos(SetOfVec::new());
    infos.0.insert(signer).map_err(der_error)?;
    let infos = to_der(&infos, "signer infos")?;

    let data_oid = to_der(&ID_DATA, "content type")?;
    let attached = !opts.detached;
    let (econtent_headers, econtent_len) = if attached {
        let octets = header(Tag::OctetString, content_len)?;
        let explicit = header(
            Tag::ContextSpecific {
                constructed: true,
                number: TagNumber(0),
            },
            octets.len() as u64 + content_len,
        )?;
        ([explicit, octets].concat(), content_len)
    } else {
        (Vec::new(), 0)
    };
    let eci_body = data_oid.len() as u64 + econtent_headers.len() as u64 + econtent_len;
    let eci_header = header(Tag::Sequence, eci_body)?;
    let sd_body = (version.len() + digests.len() + eci_header.len()) as u64
        + eci_body
        + (certs.len() + infos.len()) as u64;
    let sd_header = header(Tag::Sequence, sd_body)?;
    let oid = to_der(&ID_SIGNED_DATA, "content type")?;
    let explicit_header = header(
        Tag::ContextSpecific {
            constructed: true,
            number: TagNumber(0),
        },
        sd_header.len() as u64 + sd_body,
    )?;
    let ci_body = (oid.len() + explicit_header.len() + sd_header.len()) as u64 + sd_body;
    let ci_header = header(Tag::Sequence, ci_body)?;

    let prefix = [
        ci_header,
        oid,
        explicit_header,
        sd_header,
        version,
        digests,
        eci_header,
        data_oid,
        econtent_headers,
    ]
    .concat();
    Ok(SignedDataParts {
        prefix,
        suffix: [certs, infos].concat(),
        content_len: econtent_len,
        digest,
    })
}

/// A DER tag and definite length for `len` content octets.
fn header(tag: Tag, len: u64) -> Result<Vec<u8>, Error> {
    let len = u32::try_from(len)
        .map_err(|_| Error::Pki("the content is too large for a DER length (4 GiB)".into()))?;
    to_der(&Header::new(tag, Length::from(len)), "header")
}

fn der_error(e: der::Error) -> Error {
    Error::Pki(format!("DER encoding of the SignedData failed: {e}"))
}

/// The four signed attributes, as the SET OF that is signed (RFC 5652 §5.4).
fn signed_attributes(
    digest_alg: &AlgorithmIdentifierOwned,
    sig_alg: &AlgorithmIdentifierOwned,
    md: &[u8],
    now: SystemTime,
) -> Result<SetOfVec<Attribute>, Error> {
    let one = |oid: ObjectIdentifier, value: Any| -> Result<Attribute, Error> {
        let mut values = SetOfVec::new();
        values.insert(value).map_err(der_error)?;
        Ok(Attribute { oid, values })
    };
    fn any(v: &impl Encode) -> Result<Any, Error> {
        Any::from_der(&v.to_der().map_err(der_error)?).map_err(der_error)
    }
    let time = Time::try_from(now).map_err(|e| Error::Pki(format!("signing time: {e}")))?;
    let protection = CmsAlgorithmProtection {
        digest_algorithm: digest_alg.clone(),
        signature_algorithm: Some(sig_alg.clone()),
        mac_algorithm: None,
    };
    let mut attrs = SetOfVec::new();
    for a in [
        one(ID_CONTENT_TYPE, any(&ID_DATA)?)?,
        one(ID_SIGNING_TIME, any(&time)?)?,
        one(
            ID_MESSAGE_DIGEST,
            any(&OctetStringRef::new(md).map_err(der_error)?)?,
        )?,
        one(ID_AA_CMS_ALGORITHM_PROTECTION, any(&protection)?)?,
    ] {
        attrs.insert(a).map_err(der_error)?;
    }
    Ok(attrs)
}

/// Counts the bytes of a message as it is fed.
struct Counted<'a> {
    inner: &'a mut dyn MessageSource,
    len: &'a mut u64,
}

impl MessageSource for Counted<'_> {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        *self.len = 0;
        let len = &mut *self.len;
        self.inner.feed(&mut |b| {
            *len += b.len() as u64;
            sink(b)
        })
    }
}

/// A SignedData as read: the decoded structure, and each SignerInfo with the
/// bytes of its signed attributes as received (what the signature covers).
#[derive(Clone, Debug)]
pub struct ParsedSignedData {
    /// The decoded SignedData.
    pub signed_data: SignedData,
    signers: Vec<(SignerInfo, Option<Vec<u8>>)>,
}

impl ParsedSignedData {
    /// The certificates the SignedData carries (other certificate formats
    /// are skipped).
    pub fn certificates(&self) -> Vec<Certificate> {
        self.signed_data
            .certificates
            .iter()
            .flat_map(|set| set.0.iter())
            .filter_map(|choice| match choice {
                CertificateChoices::Certificate(c) => Some(c.clone()),
                _ => None,
            })
            .collect()
    }
}

impl std::ops::Deref for ParsedSignedData {
    type Target = SignedData;
    fn deref(&self) -> &SignedData {
        &self.signed_data
    }
}

/// Reads a CMS ContentInfo holding SignedData, PEM (`CMS` or `PKCS7`), DER or
/// BER (RFC 5652 allows BER — indefinite lengths, constructed OCTET STRINGs —
/// for the SignedData's own layers; certificates and signed attributes must
/// be DER). At most [`MAX_SIGNER_INFOS`] SignerInfos are accepted.
pub fn parse_signed_data(input: &[u8]) -> Result<ParsedSignedData, Error> {
    let ber = match pem_or_der(input, CMS_LABEL, "CMS SignedData") {
        Err(Error::Pki(m)) if m.contains(&format!("\"{PKCS7_LABEL}\"")) => {
            pem_or_der(input, PKCS7_LABEL, "CMS SignedData")?
        }
        other => other?,
    };
    let der = super::ber::signed_data_to_der(&ber)?;
    drop(ber);
    // The conversion checked the content type; the SignedData is decoded
    // from its place in the DER, so an attached content is copied once.
    let raw = super::ber::raw_parts(&der)?;
    let signed_data: SignedData = from_der(raw.signed_data, "CMS SignedData")?;
    // Certificates are used as received: refuse any that is not DER (one
    // that would re-encode differently), as parse_certificate does.
    for c in &raw.certificates {
        if c.first() == Some(&0x30) {
            let cert: Certificate = from_der(c, "certificate in the SignedData")?;
            if to_der(&cert, "certificate")? != *c {
                return Err(super::not_canonical("certificate in the SignedData"));
            }
        }
    }
    let mut signers = Vec::with_capacity(raw.signer_infos.len());
    for s in &raw.signer_infos {
        let info: SignerInfo = from_der(s, "SignerInfo")?;
        signers.push((info, super::ber::signed_attrs_as_signed(s)?));
    }
    Ok(ParsedSignedData {
        signed_data,
        signers,
    })
}

/// The DER of a SignedData parts' whole, as PEM when `pem`.
pub fn encode(der: Vec<u8>, pem: bool) -> Result<Vec<u8>, Error> {
    der_or_pem(der, CMS_LABEL, pem)
}

/// What [`verify`] found: the first signer checked, and every signer.
#[derive(Clone, Debug)]
pub struct CmsCheck {
    /// The (first checked) signer certificate's subject.
    pub signer: String,
    /// Its digest algorithm.
    pub digest: PreHash,
    /// Whether the content was embedded.
    pub attached: bool,
    /// Its signing time attribute, if present.
    pub signing_time: Option<String>,
    /// Every SignerInfo, in the order received, with its outcome.
    pub signers: Vec<SignerCheck>,
}

/// One SignerInfo's outcome.
#[derive(Clone, Debug)]
pub struct SignerCheck {
    /// Its position in the SignedData, from 1.
    pub index: usize,
    /// The signer certificate's subject, when it was found.
    pub signer: Option<String>,
    /// The digest algorithm, when it is one we know.
    pub digest: Option<PreHash>,
    /// The signing time attribute, if present.
    pub signing_time: Option<String>,
    /// Whether it was checked: all are, unless a certificate was given, and
    /// then only those naming it.
    pub checked: bool,
    /// `Ok` if it verified.
    pub result: Result<(), Error>,
    /// The signer's certificate, when it verified (for a chain check with
    /// [`super::chain::verify_chain`]).
    pub certificate: Option<Certificate>,
    /// The path from the signer's certificate to a trust anchor, when
    /// [`verify_signers_trusted`] was given anchors and the signature
    /// verified.
    pub chain: Option<Result<ChainCheck, Error>>,
}

impl SignerCheck {
    /// Whether this SignerInfo was checked and everything asked of it held:
    /// its signature and, when anchors were given, its chain.
    pub fn ok(&self) -> bool {
        self.checked && self.result.is_ok() && !matches!(self.chain, Some(Err(_)))
    }
}

/// What establishes trust in a signer (RFC 5652 checks a signature, not who
/// made it): trust anchors the signer's certificate must chain to, the
/// signer's certificate itself (pinned), or neither, asked for explicitly,
/// when only the signature is to be checked. Without one of the three,
/// [`verify_signers_trusted`] and [`verify_trusted`] check nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct CmsTrust<'a> {
    /// Trust anchors; each checked signer's certificate must chain to one
    /// through the certificates the SignedData carries
    /// ([`super::chain::verify_chain`]).
    pub anchors: &'a [Certificate],
    /// The signer's certificate, trusted as given: only the SignerInfos
    /// naming it are checked, with its key.
    pub pinned: Option<&'a Certificate>,
    /// Check the signatures alone, with the certificates the SignedData
    /// embeds, establishing no trust in who signed. Excludes the other two.
    pub signature_only: bool,
}

impl CmsTrust<'_> {
    /// Refuses a trust policy that establishes nothing, or one that asks
    /// for the signature alone and for trust at once.
    pub fn check(&self) -> Result<(), Error> {
        let trusting = !self.anchors.is_empty() || self.pinned.is_some();
        match (trusting, self.signature_only) {
            (false, false) => Err(Error::CannotCheck(
                "no trust in the signer is established: give trust anchors (a chain to one is then required) or the signer's certificate (pinned), or ask explicitly to check the signature alone".into(),
            )),
            (true, true) => Err(Error::Pki(
                "checking the signature alone excludes trust anchors and a pinned signer certificate".into(),
            )),
            _ => Ok(()),
        }
    }
}

/// Verifies the SignerInfos of `sd` and reports on each (see [`verify`] for
/// what is checked). Without `cert` every SignerInfo is checked; with it,
/// only those naming `cert`, and at least one must. `Err` only when nothing
/// could be checked (no SignerInfo, the content missing or doubled, no
/// SignerInfo naming `cert`). The content is digested once per digest
/// algorithm, whatever the number of SignerInfos.
pub fn verify_signers(
    sd: &ParsedSignedData,
    cert: Option<&Certificate>,
    detached: Option<&mut dyn MessageSource>,
) -> Result<(bool, Vec<SignerCheck>), Error> {
    let embedded = match &sd.encap_content_info.econtent {
        Some(any) => Some(
            any.decode_as::<OctetString>()
                .map_err(|e| super::malformed("eContent OCTET STRING", e))?,
        ),
        None => None,
    };
    let mut detached = detached;
    let attached = embedded.is_some();
    if attached && detached.is_some() {
        return Err(Error::Pki(
            "the SignedData carries its content; no separate content is needed".into(),
        ));
    }
    if !attached && detached.is_none() {
        return Err(Error::Pki(
            "the SignedData is detached (no content inside); give the content file".into(),
        ));
    }
    if sd.signers.is_empty() {
        return Err(Error::Pki("the SignedData has no SignerInfo".into()));
    }
    let mut digests: Vec<(PreHash, Vec<u8>)> = Vec::new();
    let mut out = Vec::with_capacity(sd.signers.len());
    for (i, (info, attrs)) in sd.signers.iter().enumerate() {
        let mut check = SignerCheck {
            index: i + 1,
            signer: None,
            digest: digest_of(&info.digest_alg).ok(),
            signing_time: None,
            checked: cert.is_none_or(|c| names(info, c)),
            result: Ok(()),
            certificate: None,
            chain: None,
        };
        if check.checked {
            let source: &mut dyn MessageSource = match (&embedded, detached.as_deref_mut()) {
                (Some(os), _) => &mut EmbeddedSource(os.as_bytes()),
                (None, Some(d)) => d,
                (None, None) => unreachable!("checked above"),
            };
            check.result = verify_one(sd, info, attrs.as_deref(), cert, source, &mut digests).map(
                |(signer_cert, time)| {
                    check.signer = Some(signer_cert.tbs_certificate().subject().to_string());
                    check.certificate = Some(signer_cert);
                    check.signing_time = time;
                },
            );
        }
        out.push(check);
    }
    if !out.iter().any(|c| c.checked) {
        return Err(Error::CannotCheck(
            "the given certificate is not the one any SignerInfo names".into(),
        ));
    }
    Ok((attached, out))
}

/// As [`verify_signers`], establishing trust as `trust` says: with anchors,
/// each SignerInfo whose signature verified also gets its chain checked at
/// `now` ([`SignerCheck::chain`]); with a pinned certificate, only the
/// SignerInfos naming it are checked. A `trust` that establishes nothing is
/// [`Error::CannotCheck`] before anything is read ([`CmsTrust::check`]).
pub fn verify_signers_trusted(
    sd: &ParsedSignedData,
    trust: &CmsTrust<'_>,
    detached: Option<&mut dyn MessageSource>,
    now: SystemTime,
) -> Result<(bool, Vec<SignerCheck>), Error> {
    trust.check()?;
    let (attached, mut signers) = verify_signers(sd, trust.pinned, detached)?;
    if !trust.anchors.is_empty() {
        let intermediates = sd.certificates();
        for s in &mut signers {
            if let (Some(c), Ok(())) = (&s.certificate, &s.result) {
                s.chain = Some(verify_chain(c, &intermediates, trust.anchors, now));
            }
        }
    }
    Ok((attached, signers))
}

/// As [`verify`], establishing trust as `trust` says (see
/// [`verify_signers_trusted`]): every SignerInfo checked must verify and,
/// with anchors, chain to one. A chain that fails is
/// [`Error::VerificationFailed`], no chain [`Error::CannotCheck`].
pub fn verify_trusted(
    sd: &ParsedSignedData,
    trust: &CmsTrust<'_>,
    detached: Option<&mut dyn MessageSource>,
    now: SystemTime,
) -> Result<CmsCheck, Error> {
    let (attached, signers) = verify_signers_trusted(sd, trust, detached, now)?;
    summarize(attached, signers)
}

/// Verifies the SignedData: every SignerInfo (or, with `cert`, every one
/// naming `cert`) must verify. The content is the embedded one, or
/// `detached` (streamed) when there is none; the signer's certificate is
/// `cert` or the one embedded that the SignerInfo names. Checks the content
/// type and message digest attributes against the content, the
/// CMSAlgorithmProtection attribute when present, the digest's strength, and
/// the signature over the signed attributes as received. The certificate
/// itself is not checked here (see [`super::cert::verify_certificate`]).
/// With several SignerInfos, a failure names the one that failed.
pub fn verify(
    sd: &ParsedSignedData,
    cert: Option<&Certificate>,
    detached: Option<&mut dyn MessageSource>,
) -> Result<CmsCheck, Error> {
    let (attached, signers) = verify_signers(sd, cert, detached)?;
    summarize(attached, signers)
}

/// The first failure among `signers` (naming the SignerInfo when there are
/// several), or what the first one checked found.
fn summarize(attached: bool, signers: Vec<SignerCheck>) -> Result<CmsCheck, Error> {
    let many = signers.len() > 1;
    for s in &signers {
        let at = |m: &str| {
            if many {
                format!("SignerInfo {} of {}: {m}", s.index, signers.len())
            } else {
                m.to_string()
            }
        };
        match &s.chain {
            Some(Err(Error::VerificationFailed(m))) if s.checked => {
                return Err(Error::VerificationFailed(at(&format!("chain: {m}"))))
            }
            Some(Err(Error::CannotCheck(m))) if s.checked => {
                return Err(Error::CannotCheck(at(&format!("chain: {m}"))))
            }
            Some(Err(e)) if s.checked => return Err(e.clone()),
            _ => {}
        }
        match &s.result {
            Ok(()) => {}
            Err(Error::VerificationFailed(m)) if many => {
                return Err(Error::VerificationFailed(format!(
                    "SignerInfo {} of {}: {m}",
                    s.index,
                    signers.len()
                )))
            }
            Err(Error::InvalidSignature) if many => {
                return Err(Error::VerificationFailed(format!(
                    "SignerInfo {} of {}: the signature does not verify",
                    s.index,
                    signers.len()
                )))
            }
            Err(e) => return Err(e.clone()),
        }
    }
    let first = signers
        .iter()
        .find(|s| s.checked)
        .ok_or_else(|| Error::Pki("no SignerInfo was checked".into()))?;
    Ok(CmsCheck {
        signer: first.signer.clone().unwrap_or_default(),
        digest: first
            .digest
            .ok_or_else(|| Error::Pki("unknown digest".into()))?,
        attached,
        signing_time: first.signing_time.clone(),
        signers,
    })
}

/// Checks one SignerInfo; returns its signer's subject and signing time.
fn verify_one(
    sd: &ParsedSignedData,
    info: &SignerInfo,
    attrs_as_signed: Option<&[u8]>,
    cert: Option<&Certificate>,
    source: &mut dyn MessageSource,
    digests: &mut Vec<(PreHash, Vec<u8>)>,
) -> Result<(Certificate, Option<String>), Error> {
    let signer_cert = find_signer(sd, info, cert)?;
    // A signer key of another family leaves the SignerInfo unchecked, not invalid.
    let key = verifying_key_of(
        signer_cert
            .tbs_certificate()
            .subject_public_key_info()
            .owned_to_ref(),
    )
    .map_err(|e| Error::CannotCheck(format!("the signer's certificate key: {e}")))?;
    if let Some((_, KeyMode::HashSlhDsa(_))) =
        crate::encoding::algorithm_from_oid(&info.signature_algorithm.oid)
    {
        return Err(Error::Pki(format!(
            "the signature algorithm {} is HashSLH-DSA; RFC 9814 uses pure SLH-DSA in CMS",
            info.signature_algorithm.oid
        )));
    }
    let digest = digest_of(&info.digest_alg)?;
    // RFC 5652 §5.1: digestAlgorithms lists the digests of the SignerInfos
    // (a one-pass verifier digests the content with those alone).
    if !sd
        .digest_algorithms
        .iter()
        .any(|d| d.oid == info.digest_alg.oid)
    {
        return Err(Error::Pki(format!(
            "the SignedData's digestAlgorithms does not list the SignerInfo's digest {digest} (RFC 5652 §5.1)"
        )));
    }
    if !digest_allowed(key.algorithm(), digest) {
        return Err(Error::VerificationFailed(format!(
            "{digest} is too weak a digest for {}",
            key.algorithm()
        )));
    }
    let signing_time = match (&info.signed_attrs, attrs_as_signed) {
        (Some(attrs), Some(raw)) => {
            // RFC 5652 §5.4: the signed attributes are DER, so in the order
            // DER sorts a SET OF; others would be checked as one thing and
            // read as another.
            if to_der(attrs, "signed attributes")? != raw {
                return Err(super::not_canonical("signed attributes"));
            }
            let md = match digests.iter().find(|(d, _)| *d == digest) {
                Some((_, md)) => md.clone(),
                None => {
                    let (md, len) = digest.digest(source)?;
                    digests.push((digest, md[..len].to_vec()));
                    md[..len].to_vec()
                }
            };
            check_attributes(sd, info, attrs, raw, &key, digest, &md)?
        }
        (None, None) => {
            // No signed attributes: the signature is over the content
            // itself, which RFC 5652 §5.3 allows for id-data alone (for any
            // other type, a signature over some bytes would be taken for a
            // signed structure of that type, e.g. a TSTInfo).
            if sd.encap_content_info.econtent_type != ID_DATA {
                return Err(Error::VerificationFailed(format!(
                    "the SignerInfo has no signed attributes, which RFC 5652 §5.3 requires for content of type {} (not id-data)",
                    sd.encap_content_info.econtent_type
                )));
            }
            key_signs_content(&key, info, source)?;
            None
        }
        _ => {
            return Err(Error::Pki(
                "the signed attributes could not be located".into(),
            ))
        }
    };
    Ok((signer_cert.clone(), signing_time))
}

struct EmbeddedSource<'a>(&'a [u8]);

impl MessageSource for EmbeddedSource<'_> {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        sink(self.0);
        Ok(())
    }
}

fn key_signs_content(
    key: &DynVerifyingKey,
    info: &SignerInfo,
    content: &mut dyn MessageSource,
) -> Result<(), Error> {
    // verify_rfc9909 takes bytes; with no attributes stream the content instead.
    let sig_alg = &info.signature_algorithm;
    let (alg, mode) = crate::encoding::algorithm_from_oid(&sig_alg.oid).ok_or_else(|| {
        Error::Pki(format!(
            "signature algorithm {} is not SLH-DSA",
            sig_alg.oid
        ))
    })?;
    if alg != key.algorithm() || mode != KeyMode::Pure || sig_alg.parameters.is_some() {
        return Err(Error::Pki(format!(
            "the signature algorithm {} is not the signer key's ({})",
            sig_alg.oid,
            key.algorithm()
        )));
    }
    key.verify_stream(content, info.signature.as_bytes(), b"", None)
}

/// Checks the signed attributes and the signature over them; returns the
/// signing time if there is one.
fn check_attributes(
    sd: &ParsedSignedData,
    info: &SignerInfo,
    attrs: &SetOfVec<Attribute>,
    attrs_as_signed: &[u8],
    key: &DynVerifyingKey,
    digest: PreHash,
    computed: &[u8],
) -> Result<Option<String>, Error> {
    let single = |oid: ObjectIdentifier, name: &str| -> Result<Option<&Any>, Error> {
        let mut found = attrs.iter().filter(|a| a.oid == oid);
        match (found.next(), found.next()) {
            (None, _) => Ok(None),
            (Some(a), None) if a.values.len() == 1 => Ok(a.values.get(0)),
            _ => Err(Error::Pki(format!(
                "the {name} attribute must appear once with one value"
            ))),
        }
    };
    let content_type = single(ID_CONTENT_TYPE, "content-type")?
        .ok_or_else(|| {
            Error::Pki("the signed attributes lack content-type (RFC 5652 §5.3)".into())
        })?
        .decode_as::<ObjectIdentifier>()
        .map_err(|e| super::malformed("content-type attribute", e))?;
    if content_type != sd.encap_content_info.econtent_type {
        return Err(Error::VerificationFailed(format!(
            "the content-type attribute ({content_type}) is not the content's ({})",
            sd.encap_content_info.econtent_type
        )));
    }
    let md = single(ID_MESSAGE_DIGEST, "message-digest")?
        .ok_or_else(|| {
            Error::Pki("the signed attributes lack message-digest (RFC 5652 §5.3)".into())
        })?
        .decode_as::<OctetString>()
        .map_err(|e| super::malformed("message-digest attribute", e))?;
    if let Some(p) = single(ID_AA_CMS_ALGORITHM_PROTECTION, "CMSAlgorithmProtection")? {
        let p: CmsAlgorithmProtection = p
            .decode_as()
            .map_err(|e| super::malformed("CMSAlgorithmProtection attribute", e))?;
        if p.digest_algorithm.oid != info.digest_alg.oid
            || p.signature_algorithm.as_ref().map(|s| s.oid) != Some(info.signature_algorithm.oid)
        {
            return Err(Error::VerificationFailed(
                "the CMSAlgorithmProtection attribute names other algorithms than the SignerInfo (RFC 6211)".into(),
            ));
        }
    }
    let signing_time = match single(ID_SIGNING_TIME, "signing-time")? {
        Some(t) => Some(
            t.decode_as::<Time>()
                .map_err(|e| super::malformed("signing-time attribute", e))?
                .to_string(),
        ),
        None => None,
    };
    if md.as_bytes() != computed {
        return Err(Error::VerificationFailed(format!(
            "the message digest ({digest}) does not match the content"
        )));
    }
    // RFC 5652 §5.4: the signature covers the signed attributes as received
    // (with the SET OF tag), not our re-encoding of what we decoded.
    verify_rfc9909(
        key,
        &info.signature_algorithm,
        attrs_as_signed,
        info.signature.as_bytes(),
    )?;
    Ok(signing_time)
}

/// Whether `c` is the certificate `info` names.
fn names(info: &SignerInfo, c: &Certificate) -> bool {
    let tbs = c.tbs_certificate();
    match &info.sid {
        SignerIdentifier::IssuerAndSerialNumber(isn) => {
            &isn.issuer == tbs.issuer() && &isn.serial_number == tbs.serial_number()
        }
        SignerIdentifier::SubjectKeyIdentifier(ski) => tbs
            .get_extension::<SubjectKeyIdentifier>()
            .ok()
            .flatten()
            .is_some_and(|(_, own)| own == *ski),
    }
}

/// The certificate of the signer: the given one (which must be the one the
/// SignerInfo names), or the embedded one it names.
fn find_signer<'a>(
    sd: &'a ParsedSignedData,
    info: &SignerInfo,
    given: Option<&'a Certificate>,
) -> Result<&'a Certificate, Error> {
    if let Some(c) = given {
        return if names(info, c) {
            Ok(c)
        } else {
            Err(Error::CannotCheck(
                "the given certificate is not the one the SignerInfo names".into(),
            ))
        };
    }
    sd.certificates
        .iter()
        .flat_map(|set| set.0.iter())
        .filter_map(|choice| match choice {
            CertificateChoices::Certificate(c) => Some(c),
            _ => None,
        })
        .find(|c| names(info, c))
        .ok_or_else(|| {
            Error::CannotCheck(
                "the SignedData does not embed the signer's certificate; give it".into(),
            )
        })
}
