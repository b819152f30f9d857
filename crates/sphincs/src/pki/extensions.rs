//! The certificate options people ask for besides a name and a key:
//! subjectAltName (DNS, email, URI), extendedKeyUsage, keyUsage, a serial
//! number and a not-before date (RFC 5280 §4.1.2.2, §4.1.2.5, §4.2.1.3,
//! §4.2.1.6, §4.2.1.12), parsed from text and turned into extensions. The
//! CLI and the bindings fill [`ExtensionOptions`] / [`super::cert::CertOptions`]
//! from their flags; the building and the checks are here.

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use const_oid::db::rfc5280::{
    ID_KP_CLIENT_AUTH, ID_KP_CODE_SIGNING, ID_KP_EMAIL_PROTECTION, ID_KP_SERVER_AUTH,
    ID_KP_TIME_STAMPING,
};
use const_oid::ObjectIdentifier;
use der::asn1::Ia5String;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{
    BasicConstraints, ExtendedKeyUsage, KeyUsage, KeyUsages, SubjectAltName,
};
use x509_cert::ext::Extension;
use x509_cert::request::CertReq;
use x509_cert::serial_number::SerialNumber;

use crate::Error;

/// OID of the PKCS#9 extensionRequest attribute (RFC 2985 §5.4.2).
pub const EXTENSION_REQUEST_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.14");
const BASIC_CONSTRAINTS_OID: &str = "2.5.29.19";
const KEY_USAGE_OID: &str = "2.5.29.15";
const EXT_KEY_USAGE_OID: &str = "2.5.29.37";
const SUBJECT_ALT_NAME_OID: &str = "2.5.29.17";

/// One subjectAltName entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanEntry {
    /// `dns:NAME`, a dNSName.
    Dns(String),
    /// `email:ADDR`, an rfc822Name.
    Email(String),
    /// `uri:URI`, a uniformResourceIdentifier.
    Uri(String),
}

impl fmt::Display for SanEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanEntry::Dns(v) => write!(f, "dns:{v}"),
            SanEntry::Email(v) => write!(f, "email:{v}"),
            SanEntry::Uri(v) => write!(f, "uri:{v}"),
        }
    }
}

/// An extended key usage purpose (RFC 5280 §4.2.1.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eku {
    /// id-kp-codeSigning.
    CodeSigning,
    /// id-kp-emailProtection (S/MIME).
    EmailProtection,
    /// id-kp-serverAuth (TLS server).
    ServerAuth,
    /// id-kp-clientAuth (TLS client).
    ClientAuth,
    /// id-kp-timeStamping (RFC 3161 time-stamping authority).
    TimeStamping,
}

impl Eku {
    /// Every purpose, in the order of the names we accept.
    pub const ALL: [Eku; 5] = [
        Eku::CodeSigning,
        Eku::EmailProtection,
        Eku::ServerAuth,
        Eku::ClientAuth,
        Eku::TimeStamping,
    ];

    /// The name used in text (as OpenSSL's configuration names it).
    pub fn name(self) -> &'static str {
        match self {
            Eku::CodeSigning => "codeSigning",
            Eku::EmailProtection => "emailProtection",
            Eku::ServerAuth => "serverAuth",
            Eku::ClientAuth => "clientAuth",
            Eku::TimeStamping => "timeStamping",
        }
    }

    /// Its OID.
    pub fn oid(self) -> ObjectIdentifier {
        match self {
            Eku::CodeSigning => ID_KP_CODE_SIGNING,
            Eku::EmailProtection => ID_KP_EMAIL_PROTECTION,
            Eku::ServerAuth => ID_KP_SERVER_AUTH,
            Eku::ClientAuth => ID_KP_CLIENT_AUTH,
            Eku::TimeStamping => ID_KP_TIME_STAMPING,
        }
    }

    fn from_oid(oid: &ObjectIdentifier) -> Option<Eku> {
        Eku::ALL.into_iter().find(|e| e.oid() == *oid)
    }
}

/// A keyUsage bit we set (RFC 5280 §4.2.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    /// digitalSignature.
    DigitalSignature,
    /// nonRepudiation, also called contentCommitment.
    NonRepudiation,
    /// keyCertSign: the key signs certificates (a CA's).
    KeyCertSign,
    /// cRLSign: the key signs CRLs.
    CrlSign,
}

impl Usage {
    /// The name used in text.
    pub fn name(self) -> &'static str {
        match self {
            Usage::DigitalSignature => "digitalSignature",
            Usage::NonRepudiation => "nonRepudiation",
            Usage::KeyCertSign => "keyCertSign",
            Usage::CrlSign => "cRLSign",
        }
    }

    fn flag(self) -> KeyUsages {
        match self {
            Usage::DigitalSignature => KeyUsages::DigitalSignature,
            Usage::NonRepudiation => KeyUsages::NonRepudiation,
            Usage::KeyCertSign => KeyUsages::KeyCertSign,
            Usage::CrlSign => KeyUsages::CRLSign,
        }
    }
}

/// The extensions wanted beyond the profile's own (basic constraints, key
/// identifiers). Empty lists and `None` mean "as by default": no
/// subjectAltName, no extendedKeyUsage, and the default keyUsage
/// (digitalSignature and nonRepudiation, or for a CA digitalSignature,
/// keyCertSign and cRLSign).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtensionOptions {
    /// subjectAltName entries, in order.
    pub san: Vec<SanEntry>,
    /// extendedKeyUsage purposes, in order (duplicates are dropped).
    pub eku: Vec<Eku>,
    /// keyUsage bits; `None` for the default.
    pub key_usage: Option<Vec<Usage>>,
}

impl ExtensionOptions {
    /// True when nothing beyond the defaults is asked for.
    pub fn is_default(&self) -> bool {
        self.san.is_empty() && self.eku.is_empty() && self.key_usage.is_none()
    }
}

fn bad(msg: String) -> Error {
    Error::Pki(msg)
}

/// One kind of subjectAltName: whether a value is well formed, what it
/// should have been (for the error), and the entry it makes.
type SanKind = (fn(&str) -> bool, &'static str, fn(String) -> SanEntry);

/// Reads one subjectAltName entry: `dns:NAME`, `email:ADDR` or `uri:URI`.
pub fn parse_san(text: &str) -> Result<SanEntry, Error> {
    let Some((kind, value)) = text.split_once(':') else {
        return Err(bad(format!(
            "subject alternative name {text:?}: expected dns:NAME, email:ADDR or uri:URI"
        )));
    };
    let (well_formed, expected, entry): SanKind = match kind.to_ascii_lowercase().as_str() {
        "dns" => (is_dns_name, DNS_NAME, SanEntry::Dns),
        "email" => (is_email, EMAIL, SanEntry::Email),
        "uri" => (is_absolute_uri, URI, SanEntry::Uri),
        _ => {
            return Err(bad(format!(
                "subject alternative name {text:?}: unknown kind {kind:?}; expected dns:NAME, email:ADDR or uri:URI"
            )))
        }
    };
    // Every kind is printable ASCII without spaces.
    let printable = !value.is_empty() && value.bytes().all(|b| b.is_ascii_graphic());
    if !printable || !well_formed(value) {
        return Err(bad(format!(
            "subject alternative name {text:?}: {value:?} is not {expected}"
        )));
    }
    Ok(entry(value.to_string()))
}

const DNS_NAME: &str = "a DNS name (ASCII labels of letters, digits and '-', separated by dots; a leading \"*.\" is allowed)";
const EMAIL: &str = "an email address (local@domain, ASCII)";
const URI: &str = "an absolute URI (scheme:rest, ASCII, no spaces)";

/// Whether `value` is a DNS name (a wildcard allowed as its first label).
fn is_dns_name(value: &str) -> bool {
    value.len() <= 253
        && value.split('.').enumerate().all(|(i, label)| {
            !label.is_empty()
                && label.len() <= 63
                && (label == "*" && i == 0
                    || label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// Whether `value` is an email address, local@domain.
fn is_email(value: &str) -> bool {
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.is_empty()
        && !domain.contains('@')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
}

/// Whether `value` is an absolute URI with a scheme (RFC 5280 §4.2.1.6).
fn is_absolute_uri(value: &str) -> bool {
    value.split_once(':').is_some_and(|(scheme, rest)| {
        !rest.is_empty()
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    })
}

/// Reads extended key usage names, one or a comma-separated list
/// (codeSigning, emailProtection, serverAuth, clientAuth, timeStamping;
/// case-insensitive).
pub fn parse_eku(text: &str) -> Result<Vec<Eku>, Error> {
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim) {
        let eku = Eku::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                bad(format!(
                    "unknown extended key usage {name:?}; expected one of {}",
                    Eku::ALL.map(Eku::name).join(", ")
                ))
            })?;
        if !out.contains(&eku) {
            out.push(eku);
        }
    }
    Ok(out)
}

/// Reads key usage names, one or a comma-separated list (digitalSignature,
/// nonRepudiation or contentCommitment, keyCertSign, cRLSign;
/// case-insensitive).
pub fn parse_key_usage(text: &str) -> Result<Vec<Usage>, Error> {
    let mut out = Vec::new();
    for name in text.split(',').map(str::trim) {
        let usage = match name.to_ascii_lowercase().as_str() {
            "digitalsignature" => Usage::DigitalSignature,
            "nonrepudiation" | "contentcommitment" => Usage::NonRepudiation,
            "keycertsign" => Usage::KeyCertSign,
            "crlsign" => Usage::CrlSign,
            _ => {
                return Err(bad(format!(
                    "unknown key usage {name:?}; expected digitalSignature, nonRepudiation (contentCommitment), keyCertSign or cRLSign"
                )))
            }
        };
        if !out.contains(&usage) {
            out.push(usage);
        }
    }
    Ok(out)
}

/// Reads a serial number in hex (an optional `0x`, colons allowed between
/// octets): positive, and at most 20 octets as DER encodes it (RFC 5280
/// §4.1.2.2).
pub fn parse_serial(text: &str) -> Result<SerialNumber, Error> {
    let digits: String = text
        .trim()
        .trim_start_matches("0x")
        .trim_start_matches("0X")
        .chars()
        .filter(|c| *c != ':')
        .collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad(format!(
            "serial number {text:?} is not hexadecimal (e.g. 01a2b3)"
        )));
    }
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Err(bad(
            "serial number 0: RFC 5280 requires a positive serial number".into(),
        ));
    }
    let padded = if digits.len() % 2 == 1 {
        format!("0{digits}")
    } else {
        digits.to_string()
    };
    let bytes: Vec<u8> = (0..padded.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&padded[i..i + 2], 16).unwrap_or(0))
        .collect();
    // DER adds a 0x00 octet before a first octet with its high bit set.
    let encoded = bytes.len() + usize::from(bytes[0] & 0x80 != 0);
    if encoded > 20 {
        return Err(bad(format!(
            "serial number {text:?} takes {encoded} octets; RFC 5280 allows at most 20"
        )));
    }
    SerialNumber::new(&bytes).map_err(|e| bad(format!("serial number {text:?}: {e}")))
}

/// Reads an RFC 3339 date (`2026-01-31`, midnight UTC) or date-time
/// (`2026-01-31T12:00:00Z`, or with an offset such as `+02:00`, fractions
/// of a second dropped).
pub fn parse_time(text: &str) -> Result<SystemTime, Error> {
    let fail = || {
        bad(format!(
            "{text:?} is not an RFC 3339 date or date-time (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)"
        ))
    };
    let t = text.trim();
    let num = |s: &str| -> Result<u32, Error> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(fail());
        }
        s.parse().map_err(|_| fail())
    };
    let (date, time) = match t.find(['T', 't', ' ']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let d: Vec<&str> = date.split('-').collect();
    if d.len() != 3 || d[0].len() != 4 || d[1].len() != 2 || d[2].len() != 2 {
        return Err(fail());
    }
    let (year, month, day) = (num(d[0])?, num(d[1])?, num(d[2])?);
    let (mut hour, mut minute, mut second, mut offset) = (0, 0, 0, 0i64);
    if let Some(time) = time {
        let (clock, zone) = if let Some(clock) = time.strip_suffix(['Z', 'z']) {
            (clock, None)
        } else {
            let i = time.rfind(['+', '-']).ok_or_else(fail)?;
            (&time[..i], Some(&time[i..]))
        };
        let clock = clock.split('.').next().unwrap_or(clock);
        let c: Vec<&str> = clock.split(':').collect();
        if c.len() != 3 || c.iter().any(|p| p.len() != 2) {
            return Err(fail());
        }
        (hour, minute, second) = (num(c[0])?, num(c[1])?, num(c[2])?);
        if let Some(zone) = zone {
            let (sign, hm) = zone.split_at(1);
            let z: Vec<&str> = hm.split(':').collect();
            if z.len() != 2 || z[0].len() != 2 || z[1].len() != 2 {
                return Err(fail());
            }
            let (zh, zm) = (num(z[0])?, num(z[1])?);
            if zh > 23 || zm > 59 {
                return Err(fail());
            }
            offset = i64::from(zh * 3600 + zm * 60) * if sign == "-" { -1 } else { 1 };
        }
    }
    let to_u8 = |v: u32| u8::try_from(v).map_err(|_| fail());
    let dt = der::DateTime::new(
        u16::try_from(year).map_err(|_| fail())?,
        to_u8(month)?,
        to_u8(day)?,
        to_u8(hour)?,
        to_u8(minute)?,
        to_u8(second)?,
    )
    .map_err(|_| fail())?;
    let secs = i64::try_from(dt.unix_duration().as_secs()).map_err(|_| fail())? - offset;
    let secs = u64::try_from(secs).map_err(|_| fail())?;
    Ok(UNIX_EPOCH + Duration::from_secs(secs))
}

/// The keyUsage flags to write: the asked ones, or the defaults. A CA
/// certificate must have keyCertSign; a non-CA one must not (RFC 5280
/// §4.2.1.3, §4.2.1.9).
pub(crate) fn key_usage_for(opts: &ExtensionOptions, ca: bool) -> Result<KeyUsage, Error> {
    let Some(list) = &opts.key_usage else {
        return Ok(KeyUsage(if ca {
            KeyUsages::DigitalSignature | KeyUsages::KeyCertSign | KeyUsages::CRLSign
        } else {
            KeyUsages::DigitalSignature | KeyUsages::NonRepudiation
        }));
    };
    let has = |u| list.contains(&u);
    if ca && !has(Usage::KeyCertSign) {
        return Err(bad(
            "a CA certificate needs keyCertSign in its key usage (RFC 5280 §4.2.1.3)".into(),
        ));
    }
    if !ca && has(Usage::KeyCertSign) {
        return Err(bad(
            "keyCertSign is for CA certificates; make a CA certificate to use it (RFC 5280 §4.2.1.9)"
                .into(),
        ));
    }
    let mut flags = list
        .first()
        .map(|u| KeyUsage(u.flag().into()).0)
        .ok_or_else(|| bad("the key usage list is empty".into()))?;
    for u in list {
        flags |= u.flag();
    }
    Ok(KeyUsage(flags))
}

/// The subjectAltName extension value of the options, if any.
pub(crate) fn subject_alt_name(opts: &ExtensionOptions) -> Result<Option<SubjectAltName>, Error> {
    if opts.san.is_empty() {
        return Ok(None);
    }
    let ia5 = |v: &str| {
        Ia5String::new(v).map_err(|e| bad(format!("subject alternative name {v:?}: {e}")))
    };
    let names = opts
        .san
        .iter()
        .map(|s| {
            Ok(match s {
                SanEntry::Dns(v) => GeneralName::DnsName(ia5(v)?),
                SanEntry::Email(v) => GeneralName::Rfc822Name(ia5(v)?),
                SanEntry::Uri(v) => GeneralName::UniformResourceIdentifier(ia5(v)?),
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok(Some(SubjectAltName(names)))
}

/// The extendedKeyUsage extension value of the options, if any.
pub(crate) fn extended_key_usage(opts: &ExtensionOptions) -> Option<ExtendedKeyUsage> {
    (!opts.eku.is_empty()).then(|| ExtendedKeyUsage(opts.eku.iter().map(|e| e.oid()).collect()))
}

/// What a request asks for in its extensionRequest attribute.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestedExtensions {
    /// The subjectAltName, keyUsage and extendedKeyUsage asked for.
    pub options: ExtensionOptions,
    /// basicConstraints cA=TRUE was asked for.
    pub ca: bool,
    /// The OIDs of other extensions asked for (never copied).
    pub others: Vec<ObjectIdentifier>,
}

/// The extensions a request asks for, as the options they correspond to.
/// A subjectAltName entry of another kind than DNS, email or URI, or an
/// extended key usage we do not know, is an error (it could not be copied
/// faithfully).
pub fn requested_extensions(csr: &CertReq) -> Result<RequestedExtensions, Error> {
    use der::Decode;
    let mut out = RequestedExtensions::default();
    let unreadable =
        |what: &str, e: der::Error| bad(format!("the request's {what} cannot be read: {e}"));
    for attr in csr.info.attributes.iter() {
        if attr.oid != EXTENSION_REQUEST_OID {
            continue;
        }
        for value in attr.values.iter() {
            let exts: Vec<Extension> = value
                .decode_as()
                .map_err(|e| unreadable("extensionRequest attribute", e))?;
            for ext in exts {
                let der = ext.extn_value.as_bytes();
                match ext.extn_id.to_string().as_str() {
                    SUBJECT_ALT_NAME_OID => {
                        let san = SubjectAltName::from_der(der)
                            .map_err(|e| unreadable("subjectAltName", e))?;
                        for n in san.0 {
                            out.options.san.push(match n {
                                GeneralName::DnsName(v) => SanEntry::Dns(v.to_string()),
                                GeneralName::Rfc822Name(v) => SanEntry::Email(v.to_string()),
                                GeneralName::UniformResourceIdentifier(v) => {
                                    SanEntry::Uri(v.to_string())
                                }
                                other => {
                                    return Err(bad(format!(
                                        "the request asks for a subject alternative name of a kind this tool does not copy ({}); only DNS, email and URI",
                                        general_name_kind(&other)
                                    )))
                                }
                            });
                        }
                    }
                    EXT_KEY_USAGE_OID => {
                        let eku = ExtendedKeyUsage::from_der(der)
                            .map_err(|e| unreadable("extendedKeyUsage", e))?;
                        for oid in eku.0 {
                            let e = Eku::from_oid(&oid).ok_or_else(|| {
                                bad(format!(
                                    "the request asks for an extended key usage this tool does not know ({oid})"
                                ))
                            })?;
                            if !out.options.eku.contains(&e) {
                                out.options.eku.push(e);
                            }
                        }
                    }
                    KEY_USAGE_OID => {
                        let ku = KeyUsage::from_der(der).map_err(|e| unreadable("keyUsage", e))?;
                        let mut list = Vec::new();
                        for (flag, u) in [
                            (ku.digital_signature(), Usage::DigitalSignature),
                            (ku.non_repudiation(), Usage::NonRepudiation),
                            (ku.key_cert_sign(), Usage::KeyCertSign),
                            (ku.crl_sign(), Usage::CrlSign),
                        ] {
                            if flag {
                                list.push(u);
                            }
                        }
                        if ku.0.bits().count_ones() as usize != list.len() {
                            return Err(bad(format!(
                                "the request asks for key usage bits this tool does not set ({})",
                                key_usage_names(&ku)
                            )));
                        }
                        out.options.key_usage = Some(list);
                    }
                    BASIC_CONSTRAINTS_OID => {
                        let bc = BasicConstraints::from_der(der)
                            .map_err(|e| unreadable("basicConstraints", e))?;
                        out.ca = bc.ca;
                    }
                    _ => out.others.push(ext.extn_id),
                }
            }
        }
    }
    Ok(out)
}

/// The extensions written into a request's extensionRequest attribute.
pub(crate) fn request_extensions(
    opts: &ExtensionOptions,
    ca: bool,
) -> Result<Vec<Extension>, Error> {
    use x509_cert::ext::ToExtension;
    let subject = x509_cert::name::Name::default();
    let enc = |e: der::Error| bad(format!("encoding a requested extension failed: {e}"));
    let mut exts: Vec<Extension> = Vec::new();
    if ca {
        let bc = BasicConstraints {
            ca: true,
            path_len_constraint: None,
        };
        let e = (&bc).to_extension(&subject, &exts).map_err(enc)?;
        exts.push(e);
    }
    if opts.key_usage.is_some() {
        let e = (&key_usage_for(opts, ca)?)
            .to_extension(&subject, &exts)
            .map_err(enc)?;
        exts.push(e);
    }
    if let Some(eku) = extended_key_usage(opts) {
        let e = (&eku).to_extension(&subject, &exts).map_err(enc)?;
        exts.push(e);
    }
    if let Some(san) = subject_alt_name(opts)? {
        // Critical only when the subject is empty (RFC 5280 §4.2.1.6); a
        // request always has the subject given.
        let e = (false, &san).to_extension(&subject, &exts).map_err(enc)?;
        exts.push(e);
    }
    Ok(exts)
}

/// A line describing extendedKeyUsage OIDs by name.
pub(crate) fn eku_names(eku: &ExtendedKeyUsage) -> String {
    eku.0
        .iter()
        .map(|o| Eku::from_oid(o).map_or_else(|| o.to_string(), |e| e.name().to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kind of a GeneralName, as RFC 5280 names it.
fn general_name_kind(n: &GeneralName) -> &'static str {
    match n {
        GeneralName::OtherName(_) => "otherName",
        GeneralName::Rfc822Name(_) => "rfc822Name",
        GeneralName::DnsName(_) => "dNSName",
        GeneralName::DirectoryName(_) => "directoryName",
        GeneralName::EdiPartyName(_) => "ediPartyName",
        GeneralName::UniformResourceIdentifier(_) => "uniformResourceIdentifier",
        GeneralName::IpAddress(_) => "iPAddress",
        GeneralName::RegisteredId(_) => "registeredID",
    }
}

/// The e-mail addresses (rfc822Name entries of subjectAltName) a
/// certificate names, in order; none when it has no subjectAltName. An
/// unreadable subjectAltName is an error.
pub fn certificate_emails(cert: &x509_cert::Certificate) -> Result<Vec<String>, Error> {
    use der::Decode;
    let mut out = Vec::new();
    let exts = cert.tbs_certificate().extensions().into_iter().flatten();
    for ext in exts.filter(|e| e.extn_id.to_string() == SUBJECT_ALT_NAME_OID) {
        let san = SubjectAltName::from_der(ext.extn_value.as_bytes()).map_err(|e| {
            bad(format!(
                "the certificate's subjectAltName cannot be read: {e}"
            ))
        })?;
        for n in san.0 {
            if let GeneralName::Rfc822Name(v) = n {
                out.push(v.to_string());
            }
        }
    }
    Ok(out)
}

/// A line describing subjectAltName entries.
pub(crate) fn san_names(san: &SubjectAltName) -> String {
    san.0
        .iter()
        .map(|n| match n {
            GeneralName::DnsName(v) => format!("dns:{v}"),
            GeneralName::Rfc822Name(v) => format!("email:{v}"),
            GeneralName::UniformResourceIdentifier(v) => format!("uri:{v}"),
            GeneralName::IpAddress(ip) => match ip.as_bytes() {
                [a, b, c, d] => format!("ip:{a}.{b}.{c}.{d}"),
                other => format!(
                    "ip:{}",
                    other.iter().map(|b| format!("{b:02x}")).collect::<String>()
                ),
            },
            other => general_name_kind(other).to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A line describing keyUsage bits.
pub(crate) fn key_usage_names(ku: &KeyUsage) -> String {
    ku.0.into_iter()
        .map(|u| format!("{u:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}
