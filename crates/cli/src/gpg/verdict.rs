//! One signature's verdict, said in gpg's words: the status lines
//! (`status.rs`) and a sentence on standard error, for git's OpenPGP mode
//! and for `sphincs gpgv` / `sphincs gpg --verify` alike, and the exit
//! status each verdict gives (gpgv's: 0 good, 1 bad, 2 not checked).
//!
//! - good, key valid: GOODSIG, VALIDSIG (and TRUST_* where the mode
//!   judges trust);
//! - the key had expired (at signing, or now where the verdict grants
//!   trust now): EXPKEYSIG, VALIDSIG; revoked: REVKEYSIG, VALIDSIG
//!   (status 1: unlike GnuPG, which exits 0 for both and leaves the
//!   refusal to its caller, a script that reads only the status is not
//!   misled);
//! - does not verify, or breaks the policy: BADSIG;
//! - no certificate has the key: ERRSIG code 9 and NO_PUBKEY; unreadable
//!   or unsupported: ERRSIG code 4.

use std::io;

use crate::sop::date;

use sphincs::openpgp::{self, Fingerprint, Outcome, Signature};

use super::status::{escape, SigFacts, Status, Trust, ERRSIG_NO_KEY, ERRSIG_UNSUPPORTED};

/// gpgv's exit statuses.
pub const GOOD: u8 = 0;
pub const BAD: u8 = 1;
pub const ERROR: u8 = 2;

/// The status lines' numbers of a signature.
pub fn facts(sig: &Signature) -> SigFacts {
    SigFacts {
        pk_algo: sig.pk_algo,
        digest: sig.hash_algo,
        class: sig.sig_type,
        time: u64::from(sig.creation_time().unwrap_or(0)),
    }
}

/// The issuer a signature names (its fingerprint), if any.
pub fn issuer(sig: &Signature) -> Option<String> {
    sig.issuer_fingerprint().map(|f| f.to_hex())
}

/// What the verdict's reader needs beyond the outcome.
pub struct Judge<'a> {
    /// The program's name in the sentences (`gpgv`, `sphincs`).
    pub program: &'a str,
    /// How far a good signature's certificate is trusted; `None` where the
    /// mode writes no TRUST_* line (gpgv trusts every key it is given).
    pub trust: &'a dyn Fn(&Fingerprint) -> Option<Trust>,
    /// A hint appended to a missing-key sentence.
    pub no_key_hint: &'a str,
    /// Name the key in GOODSIG, BADSIG, EXPKEYSIG and REVKEYSIG by its
    /// fingerprint's first 40 digits ([`apt_key`]) instead of all 64.
    pub apt_key_names: bool,
}

/// The key as apt can match it: apt's gpgv method compares the key in
/// GOODSIG with VALIDSIG's fingerprint assuming v4's 40-digit
/// fingerprints (`IsTheSameKey` in apt's methods/gpgv.cc: 40 digits are
/// compared whole, anything else as a key ID against digits 24-39), so a
/// v6 key named by its 64 digits, or by its key ID (the first 16), is
/// never found and apt stops with "expected details are missing
/// (Signed-By)". The first 40 digits of the v6 fingerprint match
/// VALIDSIG's, which carries the whole fingerprint.
pub fn apt_key(fingerprint: &str) -> String {
    fingerprint.chars().take(40).collect()
}

/// A signature that could not be checked at all.
pub fn cannot(
    status: &mut Status,
    program: &str,
    sig: Option<&Signature>,
    code: u8,
    why: &str,
) -> io::Result<u8> {
    eprintln!("{program}: Can't check signature: {}", escape(why));
    let f = sig.map(facts).unwrap_or_default();
    let fpr = sig.and_then(issuer);
    // The key is named by its whole fingerprint wherever gpg allows a key
    // ID or a fingerprint (a v6 key ID is its first 16 digits).
    let id = fpr
        .clone()
        .unwrap_or_else(|| super::status::UNKNOWN_KEY.to_string());
    status.err_sig_by(&id, &f, code, fpr.as_deref())?;
    if code == ERRSIG_NO_KEY {
        status.no_pubkey(&id)?;
    }
    Ok(ERROR)
}

/// Says one signature's outcome; returns its exit status.
pub fn say(
    status: &mut Status,
    judge: &Judge<'_>,
    sig: &Signature,
    outcome: Outcome,
) -> io::Result<u8> {
    let f = facts(sig);
    let program = judge.program;
    let made = date::format(f.time);
    let named = issuer(sig).unwrap_or_else(|| super::status::UNKNOWN_KEY.to_string());
    eprintln!(
        "{program}: Signature made {made} with {} key {named}",
        openpgp::public_key_algorithm_name(sig.pk_algo)
    );
    // The User ID as the status lines take it (they escape it once), and as
    // standard error shows it (escaped here).
    let raw = |u: &Option<String>| u.clone().unwrap_or_else(|| "(no user ID)".into());
    let who = |u: &Option<String>| escape(&raw(u));
    let name = |f: &Fingerprint| {
        if judge.apt_key_names {
            apt_key(&f.to_hex())
        } else {
            f.to_hex()
        }
    };
    let valid = |status: &mut Status, key: &Fingerprint, primary: &Fingerprint| {
        status.valid_sig(&key.to_hex(), &made[..10], &f, 6, &primary.to_hex())
    };
    let expired = matches!(outcome, Outcome::KeyExpired(_));
    match outcome {
        Outcome::Good(v) => {
            let trust = (judge.trust)(&v.primary);
            let word = match trust {
                Some(Trust::Ultimate) => " [ultimate]",
                Some(Trust::Fully) => " [full]",
                Some(_) => " [unknown: not a certificate you marked as trusted]",
                None => "",
            };
            eprintln!(
                "{program}: Good signature from \"{}\"{word}",
                who(&v.user_id)
            );
            eprintln!("{program}: Primary key fingerprint: {}", v.primary);
            status.key_considered(&v.primary.to_hex())?;
            status.good_sig(&name(&v.signing_key), &raw(&v.user_id))?;
            valid(status, &v.signing_key, &v.primary)?;
            if let Some(t) = trust {
                status.trust(t)?;
            }
            Ok(GOOD)
        }
        Outcome::KeyExpired(v) | Outcome::KeyRevoked(v) => {
            eprintln!(
                "{program}: Good signature from \"{}\", but the key {}",
                who(&v.user_id),
                if expired { "has expired" } else { "is revoked" }
            );
            status.key_considered(&v.primary.to_hex())?;
            if expired {
                status.exp_key_sig(&name(&v.signing_key), &raw(&v.user_id))?;
            } else {
                status.rev_key_sig(&name(&v.signing_key), &raw(&v.user_id))?;
            }
            valid(status, &v.signing_key, &v.primary)?;
            if (judge.trust)(&v.primary).is_some() {
                status.trust(if expired {
                    Trust::Undefined
                } else {
                    Trust::Never
                })?;
            }
            Ok(BAD)
        }
        Outcome::Bad {
            signing_key,
            user_id,
            reason,
            ..
        } => {
            let key = signing_key
                .as_ref()
                .map(name)
                .unwrap_or_else(|| named.clone());
            eprintln!(
                "{program}: BAD signature from \"{}\": {}",
                who(&user_id),
                escape(&reason)
            );
            status.bad_sig(&key, &raw(&user_id))?;
            Ok(BAD)
        }
        Outcome::NoKey { reason, .. } => cannot(
            status,
            program,
            Some(sig),
            ERRSIG_NO_KEY,
            &format!("{reason}{}", judge.no_key_hint),
        ),
    }
}

/// A signature this crate cannot read (an SLH-DSA packet that did not
/// parse): ERRSIG code 4.
pub fn unreadable(status: &mut Status, program: &str, why: &str) -> io::Result<u8> {
    cannot(status, program, None, ERRSIG_UNSUPPORTED, why)
}
