//! X.509 certificates (RFC 5280) and PKCS#10 certification requests
//! (RFC 2986) signed with SLH-DSA as RFC 9909 specifies: self-signed
//! certificates, requests, certificates issued from a request, checks and a
//! plain-text description.
//!
//! [`verify_certificate`] checks the signature with the issuer's key, that
//! the signature algorithm is the issuer key's (and the same in both places
//! of the certificate), the issuer/subject name chaining, the validity dates
//! of the certificate and of the given issuer, and that a given issuer is a
//! CA (basicConstraints cA, keyUsage keyCertSign when present). It does not
//! build paths beyond the one issuer given, check revocation, name
//! constraints or policies.

use std::str::FromStr;
use std::time::{Duration, SystemTime};

use der::asn1::OctetString;
use der::referenced::OwnedToRef;
use spki::SubjectPublicKeyInfoRef;
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::{Builder, CertificateBuilder, RequestBuilder};
use x509_cert::certificate::{Certificate, TbsCertificate};
use x509_cert::ext::pkix::{
    AuthorityKeyIdentifier, BasicConstraints, ExtendedKeyUsage, KeyUsage, SubjectAltName,
    SubjectKeyIdentifier,
};
use x509_cert::ext::{Extension, ToExtension};
use x509_cert::name::Name;
use x509_cert::request::CertReq;
use x509_cert::serial_number::SerialNumber;
use x509_cert::time::{Time, Validity};

use super::extensions::{self, ExtensionOptions};
use super::{
    der_or_pem, from_der, from_der_exact, pem_or_der, to_der, verify_rfc9909, verifying_key_of,
    PkiSigner,
};
use crate::any::AnySigner;
use crate::{Error, KeyMode};

/// PEM label of a certificate (RFC 7468 §5).
pub const CERTIFICATE_LABEL: &str = "CERTIFICATE";
/// PEM label of a PKCS#10 request (RFC 7468 §7).
pub const REQUEST_LABEL: &str = "CERTIFICATE REQUEST";

/// What a new certificate is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CertOptions {
    /// Days from notBefore until notAfter (unless `not_after` is given).
    pub days: u32,
    /// A CA certificate (basicConstraints cA, keyUsage keyCertSign and
    /// cRLSign besides digitalSignature) rather than a signing key's
    /// (digitalSignature, nonRepudiation).
    pub ca: bool,
    /// A CA certificate's pathLenConstraint: how many intermediate CA
    /// certificates may follow it (none: no limit). Only with `ca`.
    pub path_len: Option<u8>,
    /// notBefore (default: now).
    pub not_before: Option<SystemTime>,
    /// notAfter (default: notBefore plus `days`); must be after notBefore.
    pub not_after: Option<SystemTime>,
    /// The serial number (default: 16 random octets); see
    /// [`super::extensions::parse_serial`].
    pub serial: Option<SerialNumber>,
    /// subjectAltName, extendedKeyUsage and keyUsage.
    pub extensions: ExtensionOptions,
    /// [`issue`] only: copy the subjectAltName, extendedKeyUsage and keyUsage
    /// a request asks for (those in `extensions` take precedence). A request
    /// asking for a CA certificate is refused unless `ca` is set.
    pub copy_extensions: bool,
}

impl Default for CertOptions {
    fn default() -> Self {
        CertOptions {
            days: 365,
            ca: false,
            path_len: None,
            not_before: None,
            not_after: None,
            serial: None,
            extensions: ExtensionOptions::default(),
            copy_extensions: false,
        }
    }
}

/// Reads a certificate, PEM or DER. Input that is not canonical DER is
/// refused, so the certificate's signature is checked over the bytes as
/// received.
pub fn parse_certificate(input: &[u8]) -> Result<Certificate, Error> {
    let der = pem_or_der(input, CERTIFICATE_LABEL, "X.509 certificate")?;
    from_der_exact(&der, "X.509 certificate")
}

/// Reads a PKCS#10 certification request, PEM or DER (canonical DER only,
/// as [`parse_certificate`]).
pub fn parse_request(input: &[u8]) -> Result<CertReq, Error> {
    let der = pem_or_der(input, REQUEST_LABEL, "PKCS#10 certification request")?;
    from_der_exact(&der, "PKCS#10 certification request")
}

/// A certificate as DER, or PEM when `pem`.
pub fn encode_certificate(cert: &Certificate, pem: bool) -> Result<Vec<u8>, Error> {
    der_or_pem(to_der(cert, "certificate")?, CERTIFICATE_LABEL, pem)
}

/// A request as DER, or PEM when `pem`.
pub fn encode_request(csr: &CertReq, pem: bool) -> Result<Vec<u8>, Error> {
    der_or_pem(to_der(csr, "request")?, REQUEST_LABEL, pem)
}

/// Parses an RFC 4514 distinguished name such as `CN=Release signing,O=Example`.
pub fn parse_name(text: &str) -> Result<Name, Error> {
    if text.trim().is_empty() {
        return Err(Error::Pki(
            "the subject is empty; expected e.g. \"CN=Release signing\"".into(),
        ));
    }
    Name::from_str(text).map_err(|e| {
        Error::Pki(format!(
            "cannot read the name {text:?} ({e}); expected RFC 4514 text such as \"CN=Release signing,O=Example\""
        ))
    })
}

/// A self-signed certificate for `key` with subject (and issuer) `subject`.
pub fn self_signed(
    key: &dyn AnySigner,
    subject: &Name,
    opts: CertOptions,
) -> Result<Certificate, Error> {
    let spki = spki_of(key)?;
    build(key, subject.clone(), subject.clone(), spki, opts)
}

/// A PKCS#10 request for `key` with subject `subject`, signed by `key`.
pub fn request(key: &dyn AnySigner, subject: &Name) -> Result<CertReq, Error> {
    request_with(key, subject, &ExtensionOptions::default(), false)
}

/// A PKCS#10 request asking, in its extensionRequest attribute (PKCS#9),
/// for the extensions of `extensions` and, with `ca`, for a CA certificate
/// (basicConstraints cA). Only what is asked for is written: no keyUsage
/// unless `extensions.key_usage` is set.
pub fn request_with(
    key: &dyn AnySigner,
    subject: &Name,
    extensions: &ExtensionOptions,
    ca: bool,
) -> Result<CertReq, Error> {
    super::signature_algorithm(key)?;
    let mut builder = RequestBuilder::new(subject.clone()).map_err(builder_error)?;
    for ext in super::extensions::request_extensions(extensions, ca)? {
        builder
            .add_extension(ext)
            .map_err(|e| Error::Pki(format!("adding a requested extension failed: {e}")))?;
    }
    builder
        .build::<_, super::PkiSignature>(&PkiSigner::new(key)?)
        .map_err(builder_error)
}

/// Checks a request's signature with the key it carries (proof of possession).
pub fn verify_request(csr: &CertReq) -> Result<(), Error> {
    let key = verifying_key_of(csr.info.public_key.owned_to_ref())?;
    let tbs = to_der(&csr.info, "request info")?;
    verify_rfc9909(&key, &csr.algorithm, &tbs, bits(&csr.signature, "request")?)
}

/// A certificate for the key and subject of `csr` (whose signature is checked
/// first), issued by the CA `ca_cert` with its key `ca_key`.
pub fn issue(
    ca_key: &dyn AnySigner,
    ca_cert: &Certificate,
    csr: &CertReq,
    opts: CertOptions,
) -> Result<Certificate, Error> {
    verify_request(csr)?;
    let ca_spki = ca_cert.tbs_certificate().subject_public_key_info();
    if to_der(ca_spki, "CA key")? != super::fips205_public(ca_key)?.to_spki_der()? {
        return Err(Error::Pki(
            "the CA key is not the key of the CA certificate".into(),
        ));
    }
    check_is_ca(ca_cert)?;
    let mut opts = opts;
    if opts.copy_extensions {
        let asked = super::extensions::requested_extensions(csr)?;
        if asked.ca && !opts.ca {
            return Err(Error::Pki(
                "the request asks for a CA certificate (basicConstraints cA); it is not copied unless the issuer asks for a CA certificate explicitly".into(),
            ));
        }
        let ext = &mut opts.extensions;
        if ext.san.is_empty() {
            ext.san = asked.options.san;
        }
        if ext.eku.is_empty() {
            ext.eku = asked.options.eku;
        }
        if ext.key_usage.is_none() {
            ext.key_usage = asked.options.key_usage;
        }
    }
    build(
        ca_key,
        csr.info.subject.clone(),
        ca_cert.tbs_certificate().subject().clone(),
        csr.info.public_key.clone(),
        opts,
    )
}

/// What [`verify_certificate`] found, for the caller to show.
#[derive(Clone, Debug)]
pub struct CertCheck {
    /// The certificate's subject, RFC 4514 text.
    pub subject: String,
    /// Its issuer.
    pub issuer: String,
    /// Whether it was checked against its own key (self-signed).
    pub self_signed: bool,
    /// What was checked, one line each.
    pub checked: Vec<String>,
}

/// Checks `cert` against `issuer` (or against itself when `None`: it must
/// then be self-issued) at time `now`; see the module documentation for what
/// is and is not checked. A signature that does not verify is
/// [`Error::InvalidSignature`], a check that fails
/// [`Error::VerificationFailed`], an issuer that is missing, not the issuer,
/// or whose key cannot verify it [`Error::CannotCheck`], malformed or
/// unsupported input [`Error::Pki`].
pub fn verify_certificate(
    cert: &Certificate,
    issuer: Option<&Certificate>,
    now: SystemTime,
) -> Result<CertCheck, Error> {
    let tbs = cert.tbs_certificate();
    let mut checked = Vec::new();
    if tbs.signature().oid == cert.signature_algorithm().oid
        && tbs.signature() != cert.signature_algorithm()
    {
        return Err(Error::Pki(format!(
            "the certificate's two signature AlgorithmIdentifiers ({}) differ in their parameters; RFC 9909 requires the parameters to be absent",
            tbs.signature().oid
        )));
    }
    if tbs.signature() != cert.signature_algorithm() {
        return Err(Error::Pki(format!(
            "the certificate names two signature algorithms ({} in the signed part, {} outside)",
            tbs.signature().oid,
            cert.signature_algorithm().oid
        )));
    }
    // The subject key itself must be one we know (an SLH-DSA key of RFC 9909).
    verifying_key_of(tbs.subject_public_key_info().owned_to_ref())?;
    let signer = issuer.unwrap_or(cert);
    if tbs.issuer() != signer.tbs_certificate().subject() {
        return Err(Error::CannotCheck(match issuer {
            None => format!(
                "the certificate is not self-signed (issuer \"{}\", subject \"{}\"); give its issuer's certificate",
                tbs.issuer(),
                tbs.subject()
            ),
            Some(i) => format!(
                "the certificate's issuer \"{}\" is not the subject \"{}\" of the issuer certificate; give its issuer's certificate",
                tbs.issuer(),
                i.tbs_certificate().subject()
            ),
        }));
    }
    checked.push("issuer name matches the issuer certificate's subject".to_string());
    // An issuer key we cannot verify with (another family, another
    // parameter set than the signature names) leaves the certificate
    // unchecked rather than invalid.
    // (A self-signed certificate whose own key does not fit its signature
    // algorithm is malformed, not uncheckable: that stays Error::Pki.)
    let cannot = |e: Error| match issuer {
        Some(_) => Error::CannotCheck(format!(
            "the issuer's key cannot check this certificate: {e}"
        )),
        None => e,
    };
    let key = verifying_key_of(
        signer
            .tbs_certificate()
            .subject_public_key_info()
            .owned_to_ref(),
    )
    .map_err(cannot)?;
    verify_rfc9909(
        &key,
        cert.signature_algorithm(),
        &to_der(tbs, "certificate")?,
        bits(cert.signature(), "certificate")?,
    )
    .map_err(|e| match e {
        Error::Pki(_) => cannot(e),
        e => e,
    })?;
    checked.push(format!(
        "signature ({}) verifies with the issuer's key",
        mode_name(cert.signature_algorithm())
    ));
    check_validity(cert, "certificate", now)?;
    checked.push("within its validity period".to_string());
    check_critical(cert)?;
    checked.push("no critical extension it does not know".to_string());
    if let Some(i) = issuer {
        check_validity(i, "issuer certificate", now)?;
        check_is_ca(i)?;
        checked.push("issuer is a CA within its validity period".to_string());
    }
    Ok(CertCheck {
        subject: tbs.subject().to_string(),
        issuer: tbs.issuer().to_string(),
        self_signed: issuer.is_none(),
        checked,
    })
}

/// The certificate's subject public key, with the mode of its OID.
pub fn subject_key(cert: &Certificate) -> Result<crate::DynVerifyingKey, Error> {
    verifying_key_of(
        cert.tbs_certificate()
            .subject_public_key_info()
            .owned_to_ref(),
    )
}

/// The subject public key of a certificate given as PEM (`CERTIFICATE`) or
/// DER, with the mode of its OID: a certificate used only to carry a key (as
/// `openssl pkeyutl -certin`), so its signature and validity are not
/// checked ([`verify_certificate`] does that). [`Error::Pki`] for input that
/// is no canonical DER certificate, [`Error::Encoding`] naming the subject
/// public key for a key that is not SLH-DSA or is malformed.
pub fn certificate_key(input: &[u8]) -> Result<crate::DynVerifyingKey, Error> {
    subject_key(&parse_certificate(input)?).map_err(|e| match e {
        // Say where the bad key sits: the caller passed a certificate.
        Error::Encoding(m) => {
            Error::Encoding(format!("the X.509 certificate's subject public key: {m}"))
        }
        other => other,
    })
}

/// A plain-text description: names, serial, validity, key, signature
/// algorithm and the extensions we write.
pub fn describe(cert: &Certificate) -> String {
    let tbs = cert.tbs_certificate();
    let mut out = String::new();
    let serial: String = tbs
        .serial_number()
        .as_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    out += &format!("Subject:    {}\n", tbs.subject());
    out += &format!("Issuer:     {}\n", tbs.issuer());
    out += &format!("Serial:     {serial}\n");
    out += &format!(
        "Not before: {}\nNot after:  {}\n",
        tbs.validity().not_before,
        tbs.validity().not_after
    );
    out += &public_key_line(tbs.subject_public_key_info().owned_to_ref());
    out += &format!(
        "Signature:  {}, OID {}\n",
        mode_name(cert.signature_algorithm()),
        cert.signature_algorithm().oid
    );
    describe_extensions(
        tbs.extensions().map(|e| e.as_slice()).unwrap_or(&[]),
        &mut out,
    );
    out
}

/// The lines for the extensions we know, and the OIDs of the others.
fn describe_extensions(exts: &[Extension], out: &mut String) {
    use der::Decode;
    let crit = |e: &Extension| if e.critical { " (critical)" } else { "" };
    for e in exts {
        let der = e.extn_value.as_bytes();
        let line = match e.extn_id.to_string().as_str() {
            "2.5.29.19" => BasicConstraints::from_der(der).map(|bc| {
                format!(
                    "Basic constraints: CA {}{}{}",
                    bc.ca,
                    bc.path_len_constraint
                        .map(|n| format!(", path length {n}"))
                        .unwrap_or_default(),
                    crit(e)
                )
            }),
            "2.5.29.15" => KeyUsage::from_der(der).map(|ku| {
                format!(
                    "Key usage:  {}{}",
                    extensions::key_usage_names(&ku),
                    crit(e)
                )
            }),
            "2.5.29.37" => ExtendedKeyUsage::from_der(der).map(|eku| {
                format!(
                    "Extended key usage: {}{}",
                    extensions::eku_names(&eku),
                    crit(e)
                )
            }),
            "2.5.29.17" => SubjectAltName::from_der(der).map(|san| {
                format!(
                    "Subject alternative names: {}{}",
                    extensions::san_names(&san),
                    crit(e)
                )
            }),
            "2.5.29.14" | "2.5.29.35" => continue,
            oid => Ok(format!("Extension:  {oid}{}", crit(e))),
        };
        *out += &match line {
            Ok(l) => format!("{l}\n"),
            Err(err) => format!("Extension:  {} (unreadable: {err})\n", e.extn_id),
        };
    }
}

/// The "Public key:" line of a description: the set, mode and OID of an
/// SLH-DSA key, or the OID and why it is not one.
fn public_key_line(spki: SubjectPublicKeyInfoRef<'_>) -> String {
    let oid = spki.algorithm.oid;
    let key = match verifying_key_of(spki) {
        Ok(k) => format!(
            "{} ({}), OID {}",
            k.algorithm(),
            k.mode(),
            k.mode().oid(k.algorithm()).unwrap_or_default()
        ),
        Err(e) => format!("OID {oid} (not SLH-DSA: {e})"),
    };
    format!("Public key: {key}\n")
}

/// A plain-text description of a request: subject, key, signature
/// algorithm, the extensions it asks for, and whether its self-signature
/// verifies.
pub fn describe_request(csr: &CertReq) -> String {
    let mut out = String::from("Certificate request (PKCS#10)\n");
    out += &format!("Subject:    {}\n", csr.info.subject);
    out += &public_key_line(csr.info.public_key.owned_to_ref());
    out += &format!(
        "Signature:  {}, OID {}\n",
        mode_name(&csr.algorithm),
        csr.algorithm.oid
    );
    let mut requested = Vec::new();
    let mut unreadable = None;
    for attr in csr.info.attributes.iter() {
        if attr.oid != extensions::EXTENSION_REQUEST_OID {
            out += &format!("Attribute:  {}\n", attr.oid);
            continue;
        }
        for v in attr.values.iter() {
            match v.decode_as::<Vec<Extension>>() {
                Ok(exts) => requested.extend(exts),
                Err(e) => unreadable = Some(e),
            }
        }
    }
    if requested.is_empty() {
        out += "Requested extensions: none\n";
    } else {
        out += "Requested extensions:\n";
        let mut lines = String::new();
        describe_extensions(&requested, &mut lines);
        for l in lines.lines() {
            out += &format!("  {l}\n");
        }
    }
    if let Some(e) = unreadable {
        out += &format!("Requested extensions: unreadable ({e})\n");
    }
    out += &match verify_request(csr) {
        Ok(()) => "Self-signature: verifies with the request's own key\n".to_string(),
        Err(Error::InvalidSignature) => "Self-signature: DOES NOT VERIFY\n".to_string(),
        Err(e) => format!("Self-signature: cannot be checked ({e})\n"),
    };
    out
}

/// The pure / HashSLH-DSA name of a signature algorithm, or its OID.
fn mode_name(id: &spki::AlgorithmIdentifierOwned) -> String {
    match crate::encoding::algorithm_from_oid(&id.oid) {
        Some((alg, KeyMode::HashSlhDsa(ph))) => format!("HashSLH-DSA {alg} with {ph}"),
        Some((alg, _)) => alg.name().to_string(),
        None => format!("unknown algorithm {}", id.oid),
    }
}

pub(crate) fn check_validity(cert: &Certificate, what: &str, now: SystemTime) -> Result<(), Error> {
    let v = cert.tbs_certificate().validity();
    if now < v.not_before.to_system_time() {
        return Err(Error::VerificationFailed(format!(
            "the {what} is not valid before {}",
            v.not_before
        )));
    }
    if now > v.not_after.to_system_time() {
        return Err(Error::VerificationFailed(format!(
            "the {what} expired at {}",
            v.not_after
        )));
    }
    Ok(())
}

/// RFC 5280 §4.2: a certificate with a critical extension the verifier
/// does not process must be rejected. We process basic constraints and key
/// usage, and the key identifiers and subject alternative name carry no
/// constraint to enforce.
fn check_critical(cert: &Certificate) -> Result<(), Error> {
    const KNOWN: [&str; 5] = [
        "2.5.29.14",
        "2.5.29.15",
        "2.5.29.17",
        "2.5.29.19",
        "2.5.29.35",
    ];
    let exts = cert
        .tbs_certificate()
        .extensions()
        .map(|e| e.as_slice())
        .unwrap_or(&[]);
    match exts
        .iter()
        .find(|e| e.critical && !KNOWN.contains(&e.extn_id.to_string().as_str()))
    {
        Some(e) => Err(Error::VerificationFailed(format!(
            "the certificate has a critical extension this verifier does not process ({})",
            e.extn_id
        ))),
        None => Ok(()),
    }
}

/// An issuer must say it is a CA: basicConstraints cA, and keyCertSign in
/// its keyUsage if it has one (RFC 5280 §4.2.1.3, §4.2.1.9).
fn check_is_ca(cert: &Certificate) -> Result<(), Error> {
    let tbs = cert.tbs_certificate();
    let bad = |e: der::Error| {
        Error::Pki(format!(
            "unreadable extension in the issuer certificate: {e}"
        ))
    };
    let is_ca = tbs
        .get_extension::<BasicConstraints>()
        .map_err(bad)?
        .is_some_and(|(_, bc)| bc.ca);
    if !is_ca {
        return Err(Error::VerificationFailed(format!(
            "the issuer \"{}\" is not a CA (no basicConstraints cA=TRUE); issue it as a CA certificate",
            tbs.subject()
        )));
    }
    if let Some((_, ku)) = tbs.get_extension::<KeyUsage>().map_err(bad)? {
        if !ku.key_cert_sign() {
            return Err(Error::VerificationFailed(format!(
                "the issuer \"{}\" may not sign certificates (keyUsage lacks keyCertSign)",
                tbs.subject()
            )));
        }
    }
    Ok(())
}

fn bits<'a>(bits: &'a der::asn1::BitString, what: &str) -> Result<&'a [u8], Error> {
    bits.as_bytes().ok_or_else(|| {
        Error::Pki(format!(
            "the {what} signature BIT STRING has unused bits; SLH-DSA signatures are whole octets"
        ))
    })
}

fn spki_of(key: &dyn AnySigner) -> Result<spki::SubjectPublicKeyInfoOwned, Error> {
    from_der(&super::fips205_public(key)?.to_spki_der()?, "public key")
}

fn builder_error(e: x509_cert::builder::Error) -> Error {
    Error::Pki(format!("building the certificate failed: {e}"))
}

/// A random positive 16-byte serial number (RFC 5280 §4.1.2.2: at most 20 octets).
fn random_serial() -> Result<SerialNumber, Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| Error::Rng(e.to_string()))?;
    bytes[0] = (bytes[0] & 0x7f) | 0x01;
    SerialNumber::new(&bytes).map_err(|e| Error::Pki(format!("serial number: {e}")))
}

fn build(
    signer: &dyn AnySigner,
    subject: Name,
    issuer: Name,
    spki: spki::SubjectPublicKeyInfoOwned,
    opts: CertOptions,
) -> Result<Certificate, Error> {
    super::signature_algorithm(signer)?;
    let validity = validity_of(&opts)?;
    if opts.path_len.is_some() && !opts.ca {
        return Err(Error::Pki(
            "a path length constraint is for CA certificates".into(),
        ));
    }
    let profile = Profile {
        subject,
        issuer,
        ca: opts.ca,
        path_len: opts.path_len,
        key_usage: extensions::key_usage_for(&opts.extensions, opts.ca)?,
        san: extensions::subject_alt_name(&opts.extensions)?,
        eku: extensions::extended_key_usage(&opts.extensions),
    };
    let serial = match opts.serial {
        Some(s) => s,
        None => random_serial()?,
    };
    let builder =
        CertificateBuilder::new(profile, serial, validity, spki).map_err(builder_error)?;
    builder
        .build::<_, super::PkiSignature>(&PkiSigner::new(signer)?)
        .map_err(builder_error)
}

/// notBefore and notAfter of the options, checked.
fn validity_of(opts: &CertOptions) -> Result<Validity, Error> {
    let not_before = opts.not_before.unwrap_or_else(SystemTime::now);
    let not_after = match opts.not_after {
        Some(t) => t,
        None => not_before
            .checked_add(Duration::from_secs(u64::from(opts.days) * 86_400))
            .ok_or_else(|| Error::Pki(format!("validity of {} days is too long", opts.days)))?,
    };
    let time = |t: SystemTime, what: &str| {
        Time::try_from(t).map_err(|e| {
            Error::Pki(format!(
                "{what} cannot be written in a certificate (years 1970 to 9999): {e}"
            ))
        })
    };
    let (nb, na) = (time(not_before, "notBefore")?, time(not_after, "notAfter")?);
    if na.to_unix_duration() <= nb.to_unix_duration() {
        return Err(Error::Pki(format!(
            "notBefore ({nb}) is not before notAfter ({na})"
        )));
    }
    Ok(Validity::new(nb, na))
}

/// Our certificate profile: basic constraints and key usage (both critical),
/// subject and authority key identifiers, and the subjectAltName and
/// extendedKeyUsage asked for.
struct Profile {
    subject: Name,
    issuer: Name,
    ca: bool,
    path_len: Option<u8>,
    key_usage: KeyUsage,
    san: Option<SubjectAltName>,
    eku: Option<ExtendedKeyUsage>,
}

impl BuilderProfile for Profile {
    fn get_issuer(&self, _subject: &Name) -> Name {
        self.issuer.clone()
    }

    fn get_subject(&self) -> Name {
        self.subject.clone()
    }

    fn build_extensions(
        &self,
        spk: SubjectPublicKeyInfoRef<'_>,
        issuer_spk: SubjectPublicKeyInfoRef<'_>,
        tbs: &TbsCertificate,
    ) -> x509_cert::builder::Result<Vec<Extension>> {
        let subject = tbs.subject();
        let mut exts: Vec<Extension> = Vec::new();
        let bc = BasicConstraints {
            ca: self.ca,
            path_len_constraint: self.path_len,
        };
        exts.push((&bc).to_extension(subject, &exts)?);
        exts.push((&self.key_usage).to_extension(subject, &exts)?);
        let ski = SubjectKeyIdentifier::try_from(spk)?;
        exts.push((&ski).to_extension(subject, &exts)?);
        let aki = AuthorityKeyIdentifier {
            key_identifier: Some(OctetString::new(
                SubjectKeyIdentifier::try_from(issuer_spk)?.0.as_bytes(),
            )?),
            authority_cert_issuer: None,
            authority_cert_serial_number: None,
        };
        exts.push((&aki).to_extension(subject, &exts)?);
        if let Some(san) = &self.san {
            exts.push(san.to_extension(subject, &exts)?);
        }
        if let Some(eku) = &self.eku {
            exts.push(eku.to_extension(subject, &exts)?);
        }
        Ok(exts)
    }
}
