//! What a certificate must say before the data it signed is trusted: the
//! rules a verifier of signed commits or files applies to the signer's
//! certificate on top of the signature and the chain.
//!
//! - **Time** ([`judge_time`]): the signing time a signature states is the
//!   signer's own claim, so it is bounded by the verifier's clock: a time
//!   more than [`CLOCK_ALLOWANCE`] in the future is not believed, and the
//!   certificate must be valid *now* as well as at the stated time. An
//!   expired certificate is reported as expired whatever time the signature
//!   states (a trusted time-stamp would be needed to say otherwise).
//! - **Key usage** ([`check_signing_usage`], RFC 5280 §4.2.1.3 and
//!   §4.2.1.12): when keyUsage is present it must include digitalSignature
//!   or nonRepudiation (contentCommitment); when extendedKeyUsage is
//!   present it must allow signing data: codeSigning, emailProtection
//!   (S/MIME certificates sign git commits too) or anyExtendedKeyUsage.
//!   A verifier may require one purpose ([`EkuRule::Require`]); then the
//!   certificate must name it.

use std::time::{Duration, SystemTime};

use const_oid::ObjectIdentifier;
use x509_cert::ext::pkix::{ExtendedKeyUsage, KeyUsage};
use x509_cert::Certificate;

use super::extensions::Eku;
use crate::Error;

/// How far in the future a stated signing time may be (clocks disagree).
pub const CLOCK_ALLOWANCE: Duration = Duration::from_secs(5 * 60);

/// anyExtendedKeyUsage (RFC 5280 §4.2.1.12).
const ANY_EKU: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.37.0");

/// How a signer's certificate stands in time (see [`judge_time`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeVerdict {
    /// Valid now and at the signing time, which is not in the future.
    Valid {
        /// The signing time to report and to check the chain at.
        at: SystemTime,
    },
    /// The stated signing time is more than [`CLOCK_ALLOWANCE`] ahead of now.
    FromTheFuture,
    /// The certificate's validity has not begun (now, or at the stated time).
    NotYetValid,
    /// The certificate has expired (now, or at the stated time).
    Expired,
}

/// Judges the signer certificate `cert` for a signature that states
/// `stated` as its signing time (`None`: it states none, and now is used),
/// with the verifier's clock at `now`.
pub fn judge_time(cert: &Certificate, stated: Option<SystemTime>, now: SystemTime) -> TimeVerdict {
    let validity = cert.tbs_certificate().validity();
    let (from, until) = (
        validity.not_before.to_system_time(),
        validity.not_after.to_system_time(),
    );
    let at = stated.unwrap_or(now);
    if at > now + CLOCK_ALLOWANCE {
        return TimeVerdict::FromTheFuture;
    }
    if now > until || at > until {
        return TimeVerdict::Expired;
    }
    // A certificate that begins within the allowance counts as begun (the
    // CA's clock and the signer's may disagree as much as ours).
    if at + CLOCK_ALLOWANCE < from || now + CLOCK_ALLOWANCE < from {
        return TimeVerdict::NotYetValid;
    }
    TimeVerdict::Valid { at }
}

/// Which extendedKeyUsage a signer's certificate must allow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EkuRule {
    /// The default: no extendedKeyUsage, or one that allows signing data
    /// (codeSigning, emailProtection or anyExtendedKeyUsage).
    #[default]
    AnySigning,
    /// The certificate must carry extendedKeyUsage naming this purpose.
    Require(ObjectIdentifier),
}

impl EkuRule {
    /// `codeSigning`, `emailProtection` (any name [`Eku`] knows) or a dotted OID.
    pub fn parse(text: &str) -> Result<EkuRule, Error> {
        let text = text.trim();
        if let Some(e) = Eku::ALL.into_iter().find(|e| e.name() == text) {
            return Ok(EkuRule::Require(e.oid()));
        }
        ObjectIdentifier::new(text).map(EkuRule::Require).map_err(|_| {
            Error::Pki(format!(
                "'{text}' is not an extended key usage: give codeSigning, emailProtection, serverAuth, clientAuth, timeStamping or a dotted OID"
            ))
        })
    }
}

/// Whether `cert`'s keyUsage and extendedKeyUsage let it sign data, under
/// `rule`; [`Error::VerificationFailed`] says what is missing, an
/// unreadable extension is [`Error::Pki`].
pub fn check_signing_usage(cert: &Certificate, rule: &EkuRule) -> Result<(), Error> {
    let tbs = cert.tbs_certificate();
    let bad =
        |e: der::Error| Error::Pki(format!("the certificate's extensions cannot be read: {e}"));
    let subject = tbs.subject();
    if let Some((_, ku)) = tbs.get_extension::<KeyUsage>().map_err(bad)? {
        if !ku.digital_signature() && !ku.non_repudiation() {
            return Err(Error::VerificationFailed(format!(
                "the certificate \"{subject}\" may not sign data: its keyUsage ({}) has neither digitalSignature nor nonRepudiation",
                super::extensions::key_usage_names(&ku)
            )));
        }
    }
    let eku = tbs.get_extension::<ExtendedKeyUsage>().map_err(bad)?;
    let purposes: Vec<ObjectIdentifier> = eku.map(|(_, e)| e.0).unwrap_or_default();
    let names = || {
        purposes
            .iter()
            .map(|o| {
                Eku::ALL
                    .into_iter()
                    .find(|e| e.oid() == *o)
                    .map_or_else(|| o.to_string(), |e| e.name().to_string())
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match rule {
        EkuRule::Require(want) => {
            if !purposes.contains(want) {
                let want_name = Eku::ALL
                    .into_iter()
                    .find(|e| e.oid() == *want)
                    .map_or_else(|| want.to_string(), |e| e.name().to_string());
                return Err(Error::VerificationFailed(if purposes.is_empty() {
                    format!("the certificate \"{subject}\" has no extendedKeyUsage; {want_name} is required")
                } else {
                    format!(
                        "the certificate \"{subject}\" is for {} only; {want_name} is required",
                        names()
                    )
                }));
            }
        }
        EkuRule::AnySigning => {
            let signing = [Eku::CodeSigning.oid(), Eku::EmailProtection.oid(), ANY_EKU];
            if !purposes.is_empty() && !purposes.iter().any(|p| signing.contains(p)) {
                return Err(Error::VerificationFailed(format!(
                    "the certificate \"{subject}\" is for {} only, not for signing data (codeSigning, emailProtection or anyExtendedKeyUsage)",
                    names()
                )));
            }
        }
    }
    Ok(())
}
