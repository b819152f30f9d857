//! Certificates and CMS SignedData from Python, thin over the core's
//! `sphincs::pki` (RFC 9909 certificates, RFC 9814 CMS): make and check a
//! self-signed certificate, sign and verify a detached or attached
//! SignedData. Everything is bytes in, bytes out (PEM or DER).

use std::time::SystemTime;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sphincs::any::AnyVerifyingKey;
use sphincs::pki::cert::{self, CertOptions};
use sphincs::pki::chain;
use sphincs::pki::cms::{self, CmsSignOptions, CmsTrust};
use sphincs::pki::extensions::{self, ExtensionOptions};

use crate::args;
use crate::errors::{cms_to_py, detached, to_py};
use crate::key_base::{new_public, signing_key};
use crate::slh_dsa::{SLHDSAPrivateKey, SLHDSAPublicKey};

/// A self-signed certificate for `key` (RFC 9909) with subject and issuer
/// `subject` (RFC 4514 text, "CN=Release signing,O=Example"), valid from now
/// for `days` days; `ca=True` makes a CA certificate. PEM, or DER with
/// `pem=False`. The keyword options are the CLI's (`sphincs cert
/// self-signed --help`), read by the core's parsers: `san` ("dns:NAME",
/// "email:ADDR", "uri:URI"), `eku` and `key_usage` (names, each entry may
/// be a comma list), `serial` (hex), `not_before` / `not_after` (RFC 3339),
/// `path_len` (CA only). Bad values raise `ValueError`.
#[pyfunction]
#[pyo3(signature = (key, subject, days=365, *, ca=false, pem=true, san=None, eku=None, key_usage=None, serial=None, not_before=None, not_after=None, path_len=None))]
#[allow(clippy::too_many_arguments)]
pub fn self_signed_certificate<'py>(
    py: Python<'py>,
    key: &Bound<'py, SLHDSAPrivateKey>,
    subject: &str,
    days: u32,
    ca: bool,
    pem: bool,
    san: Option<Vec<String>>,
    eku: Option<Vec<String>>,
    key_usage: Option<Vec<String>>,
    serial: Option<&str>,
    not_before: Option<&str>,
    not_after: Option<&str>,
    path_len: Option<u8>,
) -> PyResult<Bound<'py, PyBytes>> {
    let key = signing_key(key).as_slh_dsa().ok_or_else(not_fips205)?;
    let name = cert::parse_name(subject).map_err(to_py)?;
    let opts = cert_options(
        days,
        ca,
        path_len,
        (not_before, not_after),
        serial,
        extension_options(san, eku, key_usage).map_err(to_py)?,
        false,
    )?;
    let out = detached(py, || {
        cert::encode_certificate(&cert::self_signed(key, &name, opts)?, pem)
    })?;
    Ok(PyBytes::new(py, &out))
}

/// A PKCS#10 certification request for `key` with subject `subject` (RFC
/// 4514 text), signed by `key` (proof of possession): what a CA's
/// `issue_certificate` takes. `san`, `eku` and `key_usage` are asked for in
/// its extensionRequest (the CLI's `cert request` options), `ca=True` asks
/// for a CA certificate. PEM ("CERTIFICATE REQUEST"), or DER with
/// `pem=False`.
#[pyfunction]
#[pyo3(signature = (key, subject, *, ca=false, pem=true, san=None, eku=None, key_usage=None))]
#[allow(clippy::too_many_arguments)]
pub fn certificate_signing_request<'py>(
    py: Python<'py>,
    key: &Bound<'py, SLHDSAPrivateKey>,
    subject: &str,
    ca: bool,
    pem: bool,
    san: Option<Vec<String>>,
    eku: Option<Vec<String>>,
    key_usage: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let key = signing_key(key).as_slh_dsa().ok_or_else(not_fips205)?;
    let name = cert::parse_name(subject).map_err(to_py)?;
    let ext = extension_options(san, eku, key_usage).map_err(to_py)?;
    let out = detached(py, || {
        cert::encode_request(&cert::request_with(key, &name, &ext, ca)?, pem)
    })?;
    Ok(PyBytes::new(py, &out))
}

/// A certificate for the key and subject of the request `csr` (PEM or DER;
/// its signature is checked first), issued by the CA whose key is `ca_key`
/// and whose certificate is `ca_cert` (PEM or DER; the key must be the
/// certificate's). Valid from now for `days` days unless `not_before` /
/// `not_after` say otherwise. The extensions are those given here
/// (`san`, `eku`, `key_usage`, `ca`, `path_len`); with
/// `copy_extensions=True` also those the request asks for (the given ones
/// take precedence; a request for a CA certificate is refused unless
/// `ca=True`). The keyword options are the CLI's `cert issue` options. PEM,
/// or DER with `pem=False`; bad values raise `ValueError`, a request whose
/// signature does not verify `InvalidSignature`.
#[pyfunction]
#[pyo3(signature = (ca_key, ca_cert, csr, days=365, *, ca=false, pem=true, san=None, eku=None, key_usage=None, serial=None, not_before=None, not_after=None, path_len=None, copy_extensions=false))]
#[allow(clippy::too_many_arguments)]
pub fn issue_certificate<'py>(
    py: Python<'py>,
    ca_key: &Bound<'py, SLHDSAPrivateKey>,
    ca_cert: &Bound<'py, PyAny>,
    csr: &Bound<'py, PyAny>,
    days: u32,
    ca: bool,
    pem: bool,
    san: Option<Vec<String>>,
    eku: Option<Vec<String>>,
    key_usage: Option<Vec<String>>,
    serial: Option<&str>,
    not_before: Option<&str>,
    not_after: Option<&str>,
    path_len: Option<u8>,
    copy_extensions: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let key = signing_key(ca_key).as_slh_dsa().ok_or_else(not_fips205)?;
    let issuer = cert::parse_certificate(&args::bytes(ca_cert, "ca_cert")?).map_err(to_py)?;
    let request = cert::parse_request(&args::bytes(csr, "csr")?).map_err(to_py)?;
    let opts = cert_options(
        days,
        ca,
        path_len,
        (not_before, not_after),
        serial,
        extension_options(san, eku, key_usage).map_err(to_py)?,
        copy_extensions,
    )?;
    let out = detached(py, || {
        cert::encode_certificate(&cert::issue(key, &issuer, &request, opts)?, pem)
    })?;
    Ok(PyBytes::new(py, &out))
}

/// The core's certificate options from the keyword arguments, read by the
/// core's parsers (RFC 3339 times, hex serial).
fn cert_options(
    days: u32,
    ca: bool,
    path_len: Option<u8>,
    (not_before, not_after): (Option<&str>, Option<&str>),
    serial: Option<&str>,
    extensions: ExtensionOptions,
    copy_extensions: bool,
) -> PyResult<CertOptions> {
    let time = |t: Option<&str>| t.map(extensions::parse_time).transpose().map_err(to_py);
    Ok(CertOptions {
        days,
        ca,
        path_len,
        not_before: time(not_before)?,
        not_after: time(not_after)?,
        serial: serial
            .map(extensions::parse_serial)
            .transpose()
            .map_err(to_py)?,
        extensions,
        copy_extensions,
    })
}

/// The error for a private key without a FIPS 205 key behind it, which an
/// `SLHDSAPrivateKey` never is: certificates and CMS are FIPS 205 only.
fn not_fips205() -> PyErr {
    PyValueError::new_err("certificates and CMS take SLH-DSA (FIPS 205) keys")
}

/// The certificate extensions of the keyword arguments, through the core's
/// parsers (each entry of `eku` and `key_usage` may be a comma list).
fn extension_options(
    san: Option<Vec<String>>,
    eku: Option<Vec<String>>,
    key_usage: Option<Vec<String>>,
) -> Result<ExtensionOptions, sphincs::Error> {
    let mut ext = ExtensionOptions::default();
    for s in san.unwrap_or_default() {
        ext.san.push(extensions::parse_san(&s)?);
    }
    for e in eku.unwrap_or_default() {
        for p in extensions::parse_eku(&e)? {
            if !ext.eku.contains(&p) {
                ext.eku.push(p);
            }
        }
    }
    if let Some(list) = key_usage {
        let mut usages = Vec::new();
        for k in list {
            for u in extensions::parse_key_usage(&k)? {
                if !usages.contains(&u) {
                    usages.push(u);
                }
            }
        }
        ext.key_usage = Some(usages);
    }
    Ok(ext)
}

/// The subject public key of a certificate, PEM ("CERTIFICATE") or DER, in
/// the mode its OID names: what pyca/cryptography users write as
/// `x509.load_pem_x509_certificate(data).public_key()` (or the DER one). The
/// certificate only carries the key here: its signature and validity are
/// not checked (`verify_certificate` does that). `ValueError` for input that
/// is not a certificate or whose key is not SLH-DSA. The public key loaders
/// stay as pyca's, which refuse a certificate.
#[pyfunction]
pub fn load_certificate_public_key<'py>(
    data: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, SLHDSAPublicKey>> {
    let bytes = args::bytes(data, "data")?;
    let inner = AnyVerifyingKey::from_certificate(&bytes).map_err(to_py)?;
    new_public(data.py(), inner)
}

/// Checks a certificate (PEM or DER) now: against `issuer` (the issuer's
/// certificate), or against itself when it is self-signed. Returns the
/// subject (RFC 4514 text); raises `sphincs.InvalidSignature` for a
/// signature that does not verify and `ValueError` for anything else
/// (expired, not self-signed and no issuer given, malformed).
#[pyfunction]
#[pyo3(signature = (certificate, issuer=None))]
pub fn verify_certificate(
    py: Python<'_>,
    certificate: &Bound<'_, PyAny>,
    issuer: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let data = args::bytes(certificate, "certificate")?;
    let issuer = args::opt_bytes(issuer, "issuer")?;
    detached(py, || {
        let c = cert::parse_certificate(&data)?;
        let i = issuer.as_deref().map(cert::parse_certificate).transpose()?;
        Ok(cert::verify_certificate(&c, i.as_ref(), SystemTime::now())?.subject)
    })
}

/// Signs `data` as a CMS SignedData (RFC 9814): `key` with its certificate
/// `certificate` (PEM or DER, embedded in the output), the content left out
/// (`detached=True`, the default) or embedded. `digest` names the message
/// digest (default: the one RFC 9814 pairs with the set). DER, or PEM
/// ("CMS") with `pem=True`.
#[pyfunction]
#[pyo3(signature = (key, certificate, data, *, detached=true, digest=None, pem=false))]
#[allow(clippy::too_many_arguments)]
pub fn cms_sign<'py>(
    py: Python<'py>,
    key: &Bound<'py, SLHDSAPrivateKey>,
    certificate: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    detached: bool,
    digest: Option<&str>,
    pem: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let key = signing_key(key).as_slh_dsa().ok_or_else(not_fips205)?;
    let cert_bytes = args::bytes(certificate, "certificate")?;
    let data = args::bytes(data, "data")?;
    let opts = CmsSignOptions {
        digest: args::prehash(digest)?,
        detached,
    };
    let out = crate::errors::detached(py, || {
        let c = cert::parse_certificate(&cert_bytes)?;
        let parts = cms::sign(key, &c, &mut &data[..], opts, SystemTime::now())?;
        cms::encode(parts.assemble(&data), pem)
    })?;
    Ok(PyBytes::new(py, &out))
}

/// Verifies a CMS SignedData (PEM, DER or BER): every SignerInfo checked
/// must verify. `data` is the content of a detached SignedData (None when
/// it is embedded). Trust is never implied: give `ca` (trust anchors, PEM
/// bundle or DER; the signer's certificate must chain to one through the
/// certificates the SignedData carries), `certificate` (the signer's
/// certificate, pinned: only the SignerInfos naming it are checked), or
/// `signature_only=True` to check the signatures alone with the embedded
/// certificates. Returns the content (the embedded one, or `data`). A
/// SignedData that does not check out, tampered content or signature alike,
/// raises `sphincs.InvalidSignature` saying why; one that is malformed or
/// cannot be checked (no trust given, no chain to `ca`) a `ValueError`.
#[pyfunction]
#[pyo3(signature = (signed, data=None, *, certificate=None, ca=None, signature_only=false))]
pub fn cms_verify<'py>(
    py: Python<'py>,
    signed: &Bound<'py, PyAny>,
    data: Option<&Bound<'py, PyAny>>,
    certificate: Option<&Bound<'py, PyAny>>,
    ca: Option<&Bound<'py, PyAny>>,
    signature_only: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let signed = args::bytes(signed, "signed")?;
    let data = args::opt_bytes(data, "data")?;
    let cert_bytes = args::opt_bytes(certificate, "certificate")?;
    let ca_bytes = args::opt_bytes(ca, "ca")?;
    let content = detached(py, || {
        Ok(cms_checked(
            &signed,
            data.as_deref(),
            cert_bytes.as_deref(),
            ca_bytes.as_deref(),
            signature_only,
        ))
    })?
    .map_err(cms_to_py)?;
    Ok(PyBytes::new(py, &content))
}

/// The body of [`cms_verify`], on bytes: the content once the SignedData
/// checks out.
fn cms_checked(
    signed: &[u8],
    data: Option<&[u8]>,
    cert_bytes: Option<&[u8]>,
    ca_bytes: Option<&[u8]>,
    signature_only: bool,
) -> Result<Vec<u8>, sphincs::Error> {
    let anchors = match ca_bytes {
        Some(b) => chain::parse_certificates(b)?,
        None => Vec::new(),
    };
    let c = cert_bytes.map(cert::parse_certificate).transpose()?;
    let trust = CmsTrust {
        anchors: &anchors,
        pinned: c.as_ref(),
        signature_only,
    };
    trust.check()?;
    let sd = cms::parse_signed_data(signed)?;
    let mut detached_content = data;
    let source = detached_content
        .as_mut()
        .map(|d| d as &mut dyn sphincs::MessageSource);
    cms::verify_trusted(&sd, &trust, source, SystemTime::now())?;
    // The content signed: the embedded OCTET STRING's octets (the
    // parser made it DER), or the detached data given.
    Ok(match &sd.encap_content_info.econtent {
        Some(any) => any.value().to_vec(),
        None => data.unwrap_or_default().to_vec(),
    })
}
