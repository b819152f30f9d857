//! Verification for git: the detached SignedData in the file git names,
//! over the payload on standard input as received, checked by
//! `sphincs::pki::cms`; the signer's certificate chained with
//! `sphincs::pki::chain` to the certificates `sphincs.trust` names. The
//! verdict goes to the status descriptor in gpg's words (`git_status.rs`),
//! a sentence for people to standard error.
//!
//! - the signature verifies and the certificate chains to a trusted one:
//!   GOODSIG, VALIDSIG, TRUST_FULLY (exit 0);
//! - it verifies, no chain to a trusted certificate: GOODSIG, VALIDSIG,
//!   TRUST_UNDEFINED (exit 0; git shows `U` and `merge --verify-signatures`
//!   refuses it); a chain that is broken: TRUST_NEVER;
//! - it verifies, but the certificate is not valid now or at the signing
//!   time, or the signing time is more than five minutes in the future
//!   (`sphincs::pki::signer_policy::judge_time`): EXPKEYSIG, VALIDSIG,
//!   TRUST_UNDEFINED (exit 1; git shows `Y`);
//! - it verifies, but the certificate may not sign data (keyUsage without
//!   digitalSignature or nonRepudiation, an extendedKeyUsage for other
//!   purposes, or without the one `sphincs.requireEku` names): GOODSIG,
//!   VALIDSIG, TRUST_NEVER (git shows `U`, `merge --verify-signatures`
//!   refuses it);
//! - it does not verify (another payload, a changed signature): BADSIG
//!   (exit 1);
//! - it cannot be checked: ERRSIG with code 9 when the signer's certificate
//!   is missing, 4 when the signature is unreadable or of an algorithm this
//!   tool does not know (exit 2).
//!
//! The signing time a signature states is the signer's own claim: it is
//! bounded by this machine's clock, the certificate must be valid now as
//! well as then, and the chain is checked now. A commit whose certificate
//! has since expired shows `Y`, as gpg shows one whose key has expired.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sphincs::pki::chain::{parse_certificates, verify_chain};
use sphincs::pki::cms::{self, parse_signed_data, SignerCheck};
use sphincs::pki::extensions::parse_time;
use sphincs::pki::signer_policy::{
    check_signing_usage, judge_time, EkuRule, TimeVerdict, CLOCK_ALLOWANCE,
};
use sphincs::pki::Certificate;
use sphincs::{Error, PreHash};

use crate::error::CliError;
use crate::files::read::{read_capped, Cap};
use crate::git::{self, fingerprint, subject_text, MAX_SIGNATURE_FILE};
use crate::gpg::status::UNKNOWN_KEY;
use crate::gpg::status::{
    digest_number, escape, SigFacts, Status, Trust, ERRSIG_NO_KEY, ERRSIG_UNSUPPORTED,
};

/// Exit status for a good signature.
const GOOD: u8 = 0;
/// Exit status for a bad or expired one.
const BAD: u8 = 1;
/// Exit status for one that cannot be checked.
const ERROR: u8 = 2;

/// Verifies and reports; returns the exit status.
pub fn verify(signature: &Path, data: Option<&Path>, status: &mut Status) -> u8 {
    match check(signature, data, status) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sphincs: error: cannot write to the status descriptor: {e}");
            ERROR
        }
    }
}

/// A signature that cannot be checked: ERRSIG and why.
fn cannot(
    status: &mut Status,
    code: u8,
    digest: Option<PreHash>,
    why: &str,
) -> std::io::Result<u8> {
    eprintln!("sphincs: cannot check the signature: {}", escape(why));
    let facts = SigFacts {
        digest: digest.map_or(0, digest_number),
        ..SigFacts::default()
    };
    status.err_sig(UNKNOWN_KEY, &facts, code)?;
    Ok(ERROR)
}

fn check(signature: &Path, data: Option<&Path>, status: &mut Status) -> std::io::Result<u8> {
    status.new_sig()?;
    let bytes = match read_file(signature) {
        Ok(b) => b,
        Err(why) => return cannot(status, ERRSIG_UNSUPPORTED, None, &why),
    };
    let sd = match parse_signed_data(&crate::git::x509_sign::relabel_for_parsing(&bytes)) {
        Ok(sd) => sd,
        Err(e) => return cannot(status, ERRSIG_UNSUPPORTED, None, &e.to_string()),
    };
    if sd.signer_infos.0.len() != 1 {
        return cannot(
            status,
            ERRSIG_UNSUPPORTED,
            None,
            &format!(
                "the signature has {} signers; a git signature has one",
                sd.signer_infos.0.len()
            ),
        );
    }
    let payload = match git::read_payload(data) {
        Ok(p) => p,
        Err(e) => return cannot(status, ERRSIG_UNSUPPORTED, None, &e.into_message()),
    };
    let signers = match cms::verify_signers(&sd, None, Some(&mut payload.as_slice())) {
        Ok((_, signers)) => signers,
        Err(Error::CannotCheck(m)) => return cannot(status, ERRSIG_NO_KEY, None, &m),
        Err(e) => return cannot(status, ERRSIG_UNSUPPORTED, None, &e.to_string()),
    };
    let Some(signer) = signers.into_iter().next() else {
        return cannot(status, ERRSIG_UNSUPPORTED, None, "no signer");
    };
    match signer.result {
        Ok(()) => good(&sd.certificates(), signer, status),
        Err(Error::InvalidSignature) => {
            bad(&sd.certificates(), "the signature does not verify", status)
        }
        Err(Error::VerificationFailed(m)) => bad(&sd.certificates(), &m, status),
        Err(Error::CannotCheck(m)) => cannot(status, ERRSIG_NO_KEY, signer.digest, &m),
        Err(e) => cannot(status, ERRSIG_UNSUPPORTED, signer.digest, &e.to_string()),
    }
}

fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut out = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SIGNATURE_FILE + 1).read_to_end(&mut out))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if out.len() as u64 > MAX_SIGNATURE_FILE {
        return Err(format!(
            "{}: larger than {} MiB, not a git signature",
            path.display(),
            MAX_SIGNATURE_FILE >> 20
        ));
    }
    Ok(out)
}

/// The signature does not verify: BADSIG, naming the certificate the
/// SignedData carries for its signer if it can be told (the one no other
/// embedded certificate was issued by).
fn bad(certs: &[Certificate], why: &str, status: &mut Status) -> std::io::Result<u8> {
    let leaf = certs.iter().find(|c| {
        let name = c.tbs_certificate().subject();
        !certs
            .iter()
            .any(|o| o != *c && o.tbs_certificate().issuer() == name)
    });
    let (id, raw) = match leaf.map(|c| (fingerprint(c), subject_text(c))) {
        Some((Ok(f), s)) => (f, s),
        _ => (UNKNOWN_KEY.to_string(), "unknown signer".to_string()),
    };
    eprintln!(
        "sphincs: BAD signature from \"{}\": {}",
        escape(&raw),
        escape(why)
    );
    status.bad_sig(&id, &raw)?;
    Ok(BAD)
}

/// The signature verifies: GOODSIG or EXPKEYSIG, VALIDSIG and the trust.
fn good(carried: &[Certificate], signer: SignerCheck, status: &mut Status) -> std::io::Result<u8> {
    let Some(cert) = signer.certificate else {
        return cannot(
            status,
            ERRSIG_NO_KEY,
            signer.digest,
            "the signer's certificate",
        );
    };
    let fpr = match fingerprint(&cert) {
        Ok(f) => f,
        Err(e) => return cannot(status, ERRSIG_UNSUPPORTED, signer.digest, &e.into_message()),
    };
    // The subject as the status lines take it (they escape it once), and
    // as standard error shows it.
    let raw = subject_text(&cert);
    let who = escape(&raw);
    let digest = signer.digest.map_or(0, digest_number);
    // The signing time the signature states (the signer's claim); now when
    // it states none. It is bounded by this machine's clock below.
    let now = SystemTime::now();
    let (stated_time, stated) = match signer.signing_time.as_deref().map(parse_time) {
        Some(Ok(t)) => (Some(t), signer.signing_time.clone().unwrap_or_default()),
        Some(Err(e)) => return cannot(status, ERRSIG_UNSUPPORTED, signer.digest, &e.to_string()),
        None => (None, "(no signing time)".to_string()),
    };
    let secs = stated_time
        .unwrap_or(now)
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    let date = stated.get(..10).unwrap_or("").to_string();
    let facts = SigFacts {
        digest,
        time: secs,
        ..SigFacts::default()
    };
    eprintln!("sphincs: Signature made {stated} by \"{who}\"");
    eprintln!("sphincs: certificate SHA-256 fingerprint {fpr}");
    let validity = cert.tbs_certificate().validity();
    let outside = match judge_time(&cert, stated_time, now) {
        TimeVerdict::Valid { .. } => None,
        TimeVerdict::FromTheFuture => Some(format!(
            "but it states a signing time ({stated}) more than {} minutes after this machine's clock: not believed",
            CLOCK_ALLOWANCE.as_secs() / 60
        )),
        TimeVerdict::NotYetValid => Some(format!(
            "but the certificate is not valid yet (valid {} to {})",
            validity.not_before, validity.not_after
        )),
        TimeVerdict::Expired => Some(format!(
            "but the certificate has expired (valid {} to {}); a stated signing time does not extend it",
            validity.not_before, validity.not_after
        )),
    };
    if let Some(why) = outside {
        eprintln!("sphincs: Good signature from \"{who}\", {why}");
        status.exp_key_sig(&fpr, &raw)?;
        status.valid_sig(&fpr, &date, &facts, 0, &fpr)?;
        status.trust(Trust::Undefined)?;
        return Ok(BAD);
    }
    eprintln!("sphincs: Good signature from \"{who}\"");
    status.good_sig(&fpr, &raw)?;
    status.valid_sig(&fpr, &date, &facts, 0, &fpr)?;
    let trust = match usage_rule()
        .and_then(|rule| check_signing_usage(&cert, &rule).map_err(|e| e.to_string()))
    {
        Ok(()) => trust_of(&cert, carried, now),
        Err(why) => {
            eprintln!("sphincs: not trusted: {}", escape(&why));
            Trust::Never
        }
    };
    status.trust(trust)?;
    Ok(GOOD)
}

/// The extendedKeyUsage the signer's certificate must allow:
/// `sphincs.requireEku` (codeSigning, emailProtection, … or a dotted OID),
/// else any purpose that signs data.
fn usage_rule() -> Result<EkuRule, String> {
    match git::config_values("sphincs.requireEku")
        .map_err(CliError::into_message)?
        .last()
    {
        Some(v) => EkuRule::parse(v).map_err(|e| format!("sphincs.requireEku: {e}")),
        None => Ok(EkuRule::default()),
    }
}

/// Whether `cert` chains, through the certificates the signature carries,
/// to one `sphincs.trust` names, at `at`.
fn trust_of(cert: &Certificate, carried: &[Certificate], at: SystemTime) -> Trust {
    let anchors = match trusted() {
        Ok(a) => a,
        Err(why) => {
            eprintln!("sphincs: warning: {}", escape(&why));
            return Trust::Undefined;
        }
    };
    if anchors.is_empty() {
        eprintln!("sphincs: no trusted certificate is configured (sphincs.trust): the signer is not trusted");
        return Trust::Undefined;
    }
    match verify_chain(cert, carried, &anchors, at) {
        Ok(chain) => {
            eprintln!(
                "sphincs: the certificate chains to the trusted \"{}\"",
                escape(&chain.anchor)
            );
            Trust::Fully
        }
        Err(Error::CannotCheck(m)) => {
            eprintln!("sphincs: not trusted: {}", escape(&m));
            Trust::Undefined
        }
        Err(e) => {
            eprintln!(
                "sphincs: not trusted, the chain is broken: {}",
                escape(&e.to_string())
            );
            Trust::Never
        }
    }
}

/// The certificates `sphincs.trust` names (each a PEM bundle or DER).
fn trusted() -> Result<Vec<Certificate>, String> {
    let mut out = Vec::new();
    for p in git::config_values("sphincs.trust").map_err(CliError::into_message)? {
        let bytes = read_capped(p.as_ref(), Cap::Certificate).map_err(CliError::into_message)?;
        out.extend(parse_certificates(&bytes).map_err(|e| format!("sphincs.trust {p}: {e}"))?);
    }
    Ok(out)
}
