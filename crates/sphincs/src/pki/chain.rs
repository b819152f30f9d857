//! Certificate paths (RFC 5280 §6, a subset): from a signer's certificate
//! through intermediate certificates to a trust anchor the caller gives.
//!
//! [`verify_chain`] builds the path by issuer/subject names, trying every
//! candidate issuer, and checks each link with
//! [`super::cert::verify_certificate`] (the signature over the certificate
//! as received, the validity periods, basicConstraints cA and keyCertSign on
//! the issuer, no unknown critical extension), plus the issuers'
//! pathLenConstraint (self-issued intermediates not counted). A trust anchor is a certificate trusted as given: its
//! own signature is not checked, its validity period and CA constraints are.
//! Revocation, name constraints and policies are not checked.

use std::time::SystemTime;

use der::Decode;
use x509_cert::ext::pkix::BasicConstraints;
use x509_cert::Certificate;

use super::cert::{parse_certificate, CERTIFICATE_LABEL};
use super::to_der;
use crate::Error;

/// The longest path tried: the signer's certificate, up to this many
/// intermediates, and the anchor.
pub const MAX_INTERMEDIATES: usize = 8;

/// At most this many certificates are read from one bundle.
pub const MAX_BUNDLE: usize = 1000;

/// What [`verify_chain`] found.
#[derive(Clone, Debug)]
pub struct ChainCheck {
    /// The subjects from the certificate checked up to the trust anchor.
    pub path: Vec<String>,
    /// The trust anchor's subject.
    pub anchor: String,
}

/// Reads one or more certificates: DER (one), or PEM with any number of
/// `CERTIFICATE` blocks (a bundle; other blocks and text between them are
/// skipped). Each must be canonical DER, as [`parse_certificate`] asks.
pub fn parse_certificates(input: &[u8]) -> Result<Vec<Certificate>, Error> {
    if input.first() == Some(&0x30) {
        return Ok(vec![parse_certificate(input)?]);
    }
    let text = std::str::from_utf8(input)
        .map_err(|_| Error::Pki("the certificate bundle is neither DER nor PEM text".into()))?;
    let begin = format!("-----BEGIN {CERTIFICATE_LABEL}-----");
    let end = format!("-----END {CERTIFICATE_LABEL}-----");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&begin) {
        let after = &rest[start..];
        let stop = after.find(&end).ok_or_else(|| {
            Error::Pki(format!(
                "certificate {} of the bundle has no \"{end}\" line",
                out.len() + 1
            ))
        })? + end.len();
        if out.len() == MAX_BUNDLE {
            return Err(Error::Pki(format!(
                "the bundle holds more than {MAX_BUNDLE} certificates"
            )));
        }
        let cert = parse_certificate(&after.as_bytes()[..stop])
            .map_err(|e| Error::Pki(format!("certificate {} of the bundle: {e}", out.len() + 1)))?;
        out.push(cert);
        rest = &after[stop..];
    }
    if out.is_empty() {
        return Err(Error::Pki(format!(
            "no certificate found; expected DER or PEM \"{begin}\" blocks"
        )));
    }
    Ok(out)
}

/// Checks that `cert` chains to one of `anchors` at time `now`, through
/// certificates from `intermediates` (in any order; unrelated ones are
/// ignored). See the module documentation for what is checked.
///
/// No path (no certificate among the intermediates and anchors issued one
/// on the way, or the path would be longer than [`MAX_INTERMEDIATES`]) is
/// [`Error::CannotCheck`]; a path whose checks fail (a signature that does
/// not verify, a certificate out of its validity period, an issuer that is
/// not a CA, a path length constraint exceeded) is
/// [`Error::VerificationFailed`] naming the certificate, the failure of the
/// first candidate path when several were tried.
pub fn verify_chain(
    cert: &Certificate,
    intermediates: &[Certificate],
    anchors: &[Certificate],
    now: SystemTime,
) -> Result<ChainCheck, Error> {
    if anchors.is_empty() {
        return Err(Error::CannotCheck("no trust anchor given".into()));
    }
    let anchor_der = anchors
        .iter()
        .map(|a| to_der(a, "trust anchor"))
        .collect::<Result<Vec<_>, _>>()?;
    let mut path = vec![cert.clone()];
    let mut first_failure = None;
    match extend(
        &mut path,
        intermediates,
        anchors,
        &anchor_der,
        now,
        &mut first_failure,
    )? {
        Some(anchor) => Ok(ChainCheck {
            path: path
                .iter()
                .map(|c| c.tbs_certificate().subject().to_string())
                .collect(),
            anchor: anchors[anchor].tbs_certificate().subject().to_string(),
        }),
        None => Err(first_failure.unwrap_or_else(|| {
            Error::CannotCheck(format!(
                "no chain to a trust anchor: the issuer \"{}\" of \"{}\" is neither a given trust anchor nor among the intermediate certificates",
                cert.tbs_certificate().issuer(),
                cert.tbs_certificate().subject()
            ))
        })),
    }
}

/// Depth-first: the anchor reached (its index), `None` if no path, an error
/// only for malformed input.
fn extend(
    path: &mut Vec<Certificate>,
    intermediates: &[Certificate],
    anchors: &[Certificate],
    anchor_der: &[Vec<u8>],
    now: SystemTime,
    first_failure: &mut Option<Error>,
) -> Result<Option<usize>, Error> {
    let last = path.last().cloned().expect("the path is never empty");
    // The certificate itself is a trust anchor: trusted as given.
    let last_der = to_der(&last, "certificate")?;
    if let Some(i) = anchor_der.iter().position(|a| *a == last_der) {
        match super::cert::check_validity(&last, "trust anchor", now) {
            Err(Error::VerificationFailed(m)) => {
                first_failure.get_or_insert(Error::VerificationFailed(format!(
                    "trust anchor \"{}\": {m}",
                    last.tbs_certificate().subject()
                )));
                return Ok(None);
            }
            _ => return Ok(Some(i)),
        }
    }
    let issuer_name = last.tbs_certificate().issuer();
    let candidates = anchors
        .iter()
        .map(|c| (c, true))
        .chain(intermediates.iter().map(|c| (c, false)))
        .filter(|(c, _)| c.tbs_certificate().subject() == issuer_name);
    for (candidate, is_anchor) in candidates {
        let cand_der = to_der(candidate, "certificate")?;
        // Never use a certificate twice (loops between cross-certificates).
        if path
            .iter()
            .any(|p| to_der(p, "certificate").is_ok_and(|d| d == cand_der))
        {
            continue;
        }
        // An intermediate that is also an anchor is taken as the anchor.
        let is_anchor = is_anchor || anchor_der.contains(&cand_der);
        if !is_anchor && path.len() > MAX_INTERMEDIATES {
            continue;
        }
        let link = super::cert::verify_certificate(&last, Some(candidate), now)
            .and_then(|_| path_len_ok(candidate, intermediate_count(path)));
        match link {
            Ok(()) => {}
            Err(Error::CannotCheck(_)) => continue,
            Err(e) => {
                first_failure.get_or_insert(link_failure(&last, candidate, e));
                continue;
            }
        }
        if is_anchor {
            let i = anchor_der
                .iter()
                .position(|a| *a == cand_der)
                .expect("an anchor");
            return Ok(Some(i));
        }
        path.push(candidate.clone());
        if let Some(i) = extend(path, intermediates, anchors, anchor_der, now, first_failure)? {
            return Ok(Some(i));
        }
        path.pop();
    }
    Ok(None)
}

/// The intermediate CA certificates of a path (all but its first), not
/// counting self-issued ones (RFC 5280 §4.2.1.9).
fn intermediate_count(path: &[Certificate]) -> usize {
    path.iter()
        .skip(1)
        .filter(|c| c.tbs_certificate().subject() != c.tbs_certificate().issuer())
        .count()
}

/// The issuer's pathLenConstraint allows `below` intermediate CA
/// certificates between it and the end certificate.
fn path_len_ok(issuer: &Certificate, below: usize) -> Result<(), Error> {
    let tbs = issuer.tbs_certificate();
    let bc = tbs
        .extensions()
        .into_iter()
        .flatten()
        .find(|e| e.extn_id.to_string() == "2.5.29.19")
        .map(|e| BasicConstraints::from_der(e.extn_value.as_bytes()))
        .transpose()
        .map_err(|e| Error::Pki(format!("unreadable basicConstraints: {e}")))?;
    match bc.and_then(|b| b.path_len_constraint) {
        Some(n) if below > usize::from(n) => Err(Error::VerificationFailed(format!(
            "the issuer \"{}\" allows {n} intermediate CA certificate(s) below it; the path has {below}",
            tbs.subject()
        ))),
        _ => Ok(()),
    }
}

fn link_failure(cert: &Certificate, issuer: &Certificate, e: Error) -> Error {
    let who = format!(
        "certificate \"{}\" (issued by \"{}\")",
        cert.tbs_certificate().subject(),
        issuer.tbs_certificate().subject()
    );
    match e {
        Error::InvalidSignature => {
            Error::VerificationFailed(format!("{who}: its signature does not verify"))
        }
        Error::VerificationFailed(m) => Error::VerificationFailed(format!("{who}: {m}")),
        other => Error::VerificationFailed(format!("{who}: {other}")),
    }
}
