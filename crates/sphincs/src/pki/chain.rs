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

use std::collections::HashMap;
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
/// The work is bounded whatever the input: each (certificate, issuer) pair
/// is checked once and its outcome remembered, a path never holds two
/// certificates with the same subject and key, and the search stops after
/// [`MAX_SIGNATURE_CHECKS`] certificate signature checks or
/// [`MAX_PATH_STEPS`] steps.
///
/// No path (no certificate among the intermediates and anchors issued one
/// on the way, the path would be longer than [`MAX_INTERMEDIATES`], or the
/// search stopped at its bounds) is [`Error::CannotCheck`]; a path whose
/// checks fail (a signature that does not verify, a certificate out of its
/// validity period, an issuer that is not a CA, a path length constraint
/// exceeded) is [`Error::VerificationFailed`] naming the certificate, the
/// failure of the first candidate path when several were tried.
pub fn verify_chain(
    cert: &Certificate,
    intermediates: &[Certificate],
    anchors: &[Certificate],
    now: SystemTime,
) -> Result<ChainCheck, Error> {
    if anchors.is_empty() {
        return Err(Error::CannotCheck("no trust anchor given".into()));
    }
    let mut search = Search::new(cert, intermediates, anchors, now)?;
    let mut path = vec![0];
    let found = search.extend(&mut path)?;
    if let Some(anchor) = found {
        return Ok(ChainCheck {
            path: path
                .iter()
                .map(|&i| search.pool[i].tbs_certificate().subject().to_string())
                .collect(),
            anchor: anchors[anchor].tbs_certificate().subject().to_string(),
        });
    }
    let (issuer, subject) = (
        cert.tbs_certificate().issuer(),
        cert.tbs_certificate().subject(),
    );
    if search.stopped {
        return Err(Error::CannotCheck(format!(
            "no chain to a trust anchor found for \"{subject}\" within the search's bounds ({} certificate signature checks, {} steps, {} candidate certificates); the certificates given are too many alike to search",
            search.checks,
            search.steps,
            search.pool.len() - 1
        )));
    }
    if let Some(e) = search.first_failure {
        return Err(e);
    }
    let named = search
        .pool
        .iter()
        .skip(1)
        .filter(|c| c.tbs_certificate().subject() == issuer)
        .count();
    Err(Error::CannotCheck(if named == 0 {
        format!(
            "no chain to a trust anchor: the issuer \"{issuer}\" of \"{subject}\" is neither a given trust anchor nor among the intermediate certificates"
        )
    } else {
        format!(
            "no chain to a trust anchor: {named} certificate(s) named \"{issuer}\" (the issuer of \"{subject}\") are given, but no path through them reaches a given trust anchor (within {MAX_INTERMEDIATES} intermediates; a key that cannot check the certificate does not count)"
        )
    }))
}

/// At most this many certificate signatures are checked while building one
/// path (each (certificate, issuer) pair at most once).
pub const MAX_SIGNATURE_CHECKS: usize = 128;

/// At most this many candidate issuers are considered while building one
/// path (most are answered from the pairs already checked).
pub const MAX_PATH_STEPS: usize = 4096;

/// The state of one path search: the certificates (the one to check first,
/// then the anchors and the intermediates, each once), the outcome of every
/// pair checked, and the work done.
struct Search<'a> {
    pool: Vec<&'a Certificate>,
    /// The index in the caller's anchors of a pool certificate that is one.
    anchor: Vec<Option<usize>>,
    /// Subject and key of each, to keep look-alikes out of one path.
    identity: Vec<Vec<u8>>,
    links: HashMap<(usize, usize), Result<(), Error>>,
    checks: usize,
    steps: usize,
    stopped: bool,
    first_failure: Option<Error>,
    now: SystemTime,
}

impl<'a> Search<'a> {
    fn new(
        cert: &'a Certificate,
        intermediates: &'a [Certificate],
        anchors: &'a [Certificate],
        now: SystemTime,
    ) -> Result<Self, Error> {
        let mut search = Search {
            pool: Vec::new(),
            anchor: Vec::new(),
            identity: Vec::new(),
            links: HashMap::new(),
            checks: 0,
            steps: 0,
            stopped: false,
            first_failure: None,
            now,
        };
        let mut seen: HashMap<Vec<u8>, usize> = HashMap::new();
        let all = std::iter::once((cert, None))
            .chain(anchors.iter().enumerate().map(|(i, a)| (a, Some(i))))
            .chain(intermediates.iter().map(|c| (c, None)));
        for (c, anchor) in all {
            let der = to_der(c, "certificate")?;
            if let Some(&i) = seen.get(&der) {
                // The same certificate again: an anchor stays an anchor.
                if search.anchor[i].is_none() {
                    search.anchor[i] = anchor;
                }
                continue;
            }
            seen.insert(der, search.pool.len());
            let tbs = c.tbs_certificate();
            let mut identity = to_der(tbs.subject(), "subject")?;
            identity.extend(to_der(tbs.subject_public_key_info(), "subject key")?);
            search.pool.push(c);
            search.anchor.push(anchor);
            search.identity.push(identity);
        }
        Ok(search)
    }

    /// Depth-first from the last certificate of `path`: the anchor reached
    /// (its index in the caller's anchors), `None` if no path was found.
    fn extend(&mut self, path: &mut Vec<usize>) -> Result<Option<usize>, Error> {
        let last = *path.last().expect("the path is never empty");
        let last_cert = self.pool[last];
        // The certificate itself is a trust anchor: trusted as given.
        if let Some(i) = self.anchor[last] {
            return match super::cert::check_validity(last_cert, "trust anchor", self.now) {
                Err(Error::VerificationFailed(m)) => {
                    self.first_failure
                        .get_or_insert(Error::VerificationFailed(format!(
                            "trust anchor \"{}\": {m}",
                            last_cert.tbs_certificate().subject()
                        )));
                    Ok(None)
                }
                _ => Ok(Some(i)),
            };
        }
        let issuer_name = last_cert.tbs_certificate().issuer();
        // Anchors first: a path that ends sooner is tried sooner.
        let mut candidates: Vec<usize> = (1..self.pool.len())
            .filter(|&c| self.pool[c].tbs_certificate().subject() == issuer_name)
            .collect();
        candidates.sort_by_key(|&c| self.anchor[c].is_none());
        for candidate in candidates {
            // Never use a certificate twice, nor (below an anchor) two with
            // the same subject and key: loops between cross-certificates,
            // look-alikes.
            let is_anchor = self.anchor[candidate].is_some();
            if path.iter().any(|&p| {
                p == candidate || (!is_anchor && self.identity[p] == self.identity[candidate])
            }) {
                continue;
            }
            if !is_anchor && path.len() > MAX_INTERMEDIATES {
                continue;
            }
            if self.steps == MAX_PATH_STEPS {
                self.stopped = true;
                return Ok(None);
            }
            self.steps += 1;
            let link = match self.links.get(&(last, candidate)) {
                Some(r) => r.clone(),
                None => {
                    if self.checks == MAX_SIGNATURE_CHECKS {
                        self.stopped = true;
                        return Ok(None);
                    }
                    self.checks += 1;
                    let r = super::cert::verify_certificate(
                        last_cert,
                        Some(self.pool[candidate]),
                        self.now,
                    )
                    .map(drop);
                    self.links.insert((last, candidate), r.clone());
                    r
                }
            };
            let link = link.and_then(|()| {
                let below = intermediate_count(path.iter().map(|&i| self.pool[i]));
                path_len_ok(self.pool[candidate], below)
            });
            match link {
                Ok(()) => {}
                Err(Error::CannotCheck(_)) => continue,
                Err(e) => {
                    self.first_failure.get_or_insert(link_failure(
                        last_cert,
                        self.pool[candidate],
                        e,
                    ));
                    continue;
                }
            }
            // An anchor ends the path (trusted as given; its validity and
            // CA constraints were checked with the link).
            if let Some(i) = self.anchor[candidate] {
                return Ok(Some(i));
            }
            path.push(candidate);
            if let Some(i) = self.extend(path)? {
                return Ok(Some(i));
            }
            path.pop();
            if self.stopped {
                return Ok(None);
            }
        }
        Ok(None)
    }
}

/// The intermediate CA certificates of a path (all but its first), not
/// counting self-issued ones (RFC 5280 §4.2.1.9).
fn intermediate_count<'a>(path: impl Iterator<Item = &'a Certificate>) -> usize {
    path.skip(1)
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
