//! Verification for git in its default format: the armored OpenPGP
//! signature in the file git names, over the payload on standard input,
//! checked by `sphincs::openpgp` against the certificates the user
//! configured. The verdict goes to the status descriptor in gpg's words
//! (`status.rs`), sentences for people (git shows them with
//! `--show-signature`) to standard error.
//!
//! Trust comes only from the user's configuration: the configured signing
//! key's own certificate (`sphincs.openpgpKey`: TRUST_ULTIMATE) and the
//! certificates `sphincs.openpgpTrust` names (TRUST_FULLY). Certificates
//! `sphincs.openpgpCerts` names are known but not trusted
//! (TRUST_UNDEFINED: git shows `U`). A signature made more than
//! [`CLOCK_SKEW`] seconds in the future is refused: its maker's claim is
//! not taken over this machine's clock.
//!
//! - verifies, key valid then: GOODSIG, VALIDSIG, TRUST_* (exit 0);
//! - verifies, but the key had expired when it signed or has expired
//!   since (git's verdict is judged at this machine's clock): EXPKEYSIG
//!   (exit 1);
//! - verifies, key revoked: REVKEYSIG (exit 1);
//! - does not verify, or breaks the policy: BADSIG (exit 1);
//! - no configured certificate has the key: ERRSIG code 9; unreadable
//!   or unsupported: ERRSIG code 4 (exit 2).

use std::path::Path;

use sphincs::openpgp::{
    self, Cert, DetachedVerifier, Fingerprint, Keyring, Outcome, Signature, Window,
};

use super::status::{
    escape, SigFacts, Status, Trust, ERRSIG_NO_KEY, ERRSIG_UNSUPPORTED, UNKNOWN_KEY,
};
use crate::error::CliError;
use crate::io::{read_capped, Cap};

/// How far in the future a signature's creation time may be.
pub const CLOCK_SKEW: u64 = 300;

const GOOD: u8 = 0;
const BAD: u8 = 1;
const ERROR: u8 = 2;

/// True if the signature file is an OpenPGP signature (armored or binary).
pub fn is_openpgp(bytes: &[u8]) -> bool {
    openpgp::armor::is_armored(bytes)
        && bytes
            .trim_ascii_start()
            .starts_with(b"-----BEGIN PGP SIGNATURE-----")
        || bytes
            .first()
            .is_some_and(|b| *b == 0xc2 || *b & 0xfc == 0x88)
}

/// Verifies and reports; returns the exit status.
pub fn verify(signature: &[u8], data: Option<&Path>, status: &mut Status) -> u8 {
    match check(signature, data, status) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sphincs: error: cannot write to the status descriptor: {e}");
            ERROR
        }
    }
}

fn facts(sig: &Signature) -> SigFacts {
    SigFacts {
        pk_algo: sig.pk_algo,
        digest: sig.hash_algo,
        class: sig.sig_type,
        time: u64::from(sig.creation_time().unwrap_or(0)),
    }
}

fn cannot(
    status: &mut Status,
    key: &str,
    f: &SigFacts,
    code: u8,
    why: &str,
) -> std::io::Result<u8> {
    eprintln!("sphincs: cannot check the signature: {}", escape(why));
    status.err_sig(key, f, code)?;
    Ok(ERROR)
}

/// The certificates of a setting (each file a keyring, armored or binary).
fn certs_of(setting: &str) -> Result<Vec<Cert>, String> {
    let mut out = Vec::new();
    for p in super::config_values(setting).map_err(CliError::into_message)? {
        let bytes = read_capped(p.as_ref(), Cap::Keyring).map_err(CliError::into_message)?;
        out.extend(openpgp::read_certs(&bytes).map_err(|e| format!("{setting} {p}: {e}"))?);
    }
    Ok(out)
}

struct Configured {
    certs: Vec<Cert>,
    own: Option<Fingerprint>,
    trusted: Vec<Fingerprint>,
}

fn keyring() -> Result<Configured, String> {
    let own = super::openpgp_sign::configured_key().map_err(CliError::into_message)?;
    let trusted = certs_of("sphincs.openpgpTrust")?;
    let known = certs_of("sphincs.openpgpCerts")?;
    let mut ring = Configured {
        own: own.as_ref().map(|(_, c)| c.fingerprint()),
        trusted: trusted.iter().map(Cert::fingerprint).collect(),
        certs: Vec::new(),
    };
    ring.certs.extend(own.map(|(_, c)| c));
    ring.certs.extend(trusted);
    ring.certs.extend(known);
    Ok(ring)
}

fn check(signature: &[u8], data: Option<&Path>, status: &mut Status) -> std::io::Result<u8> {
    status.new_sig()?;
    let none = SigFacts::default();
    let sigs = match openpgp::read_signatures(signature) {
        Ok(s) => s,
        Err(e) => {
            return cannot(
                status,
                UNKNOWN_KEY,
                &none,
                ERRSIG_UNSUPPORTED,
                &e.to_string(),
            )
        }
    };
    let [sig] = sigs.as_slice() else {
        let why = format!(
            "the signature file has {} signatures; a git signature has one",
            sigs.len()
        );
        return cannot(status, UNKNOWN_KEY, &none, ERRSIG_UNSUPPORTED, &why);
    };
    let f = facts(sig);
    let issuer = sig
        .issuer_fingerprint()
        .map(|f| f.to_hex())
        .unwrap_or_else(|| UNKNOWN_KEY.to_string());
    let payload = match super::read_payload(data) {
        Ok(p) => p,
        Err(e) => return cannot(status, &issuer, &f, ERRSIG_UNSUPPORTED, &e.into_message()),
    };
    let ring = match keyring() {
        Ok(r) => r,
        Err(why) => return cannot(status, &issuer, &f, ERRSIG_NO_KEY, &why),
    };
    let now = super::now();
    let window = Window {
        not_before: None,
        not_after: Some(now + CLOCK_SKEW),
        now,
        // git's verdict grants trust now: an expired key's commit is
        // EXPKEYSIG whatever date the signature claims.
        keys_valid_now: true,
    };
    let mut v = DetachedVerifier::new(sigs.clone());
    v.update(&payload);
    let Some((_, outcome)) = v
        .finish_each(&Keyring::new(&ring.certs, now), &window)
        .into_iter()
        .next()
    else {
        let why = format!(
            "a signature of type 0x{:02x} does not sign data",
            sig.sig_type
        );
        return cannot(status, &issuer, &f, ERRSIG_UNSUPPORTED, &why);
    };
    let made = crate::sop::date::format(f.time);
    eprintln!(
        "sphincs: Signature made {made} with {} key {issuer}",
        openpgp::public_key_algorithm_name(sig.pk_algo)
    );
    // The User ID as the status lines take it (they escape it once), and as
    // standard error shows it (escaped here).
    let raw = |u: &Option<String>| u.clone().unwrap_or_else(|| "(no user ID)".into());
    let who = |u: &Option<String>| escape(&raw(u));
    match outcome {
        Outcome::Good(v) => {
            let trust = if Some(v.primary) == ring.own {
                Trust::Ultimate
            } else if ring.trusted.contains(&v.primary) {
                Trust::Fully
            } else {
                Trust::Undefined
            };
            let word = match trust {
                Trust::Ultimate => "ultimate",
                Trust::Fully => "full",
                _ => "unknown: not a certificate you marked as trusted",
            };
            eprintln!("sphincs: Good signature from \"{}\" [{word}]", who(&v.user_id));
            eprintln!("sphincs: Primary key fingerprint: {}", v.primary);
            status.good_sig(&v.signing_key.to_hex(), &raw(&v.user_id))?;
            status.valid_sig(&v.signing_key.to_hex(), &made[..10], &f, 6, &v.primary.to_hex())?;
            status.trust(trust)?;
            Ok(GOOD)
        }
        Outcome::KeyExpired(v) => {
            eprintln!("sphincs: Good signature from \"{}\", but the key had expired when it signed", who(&v.user_id));
            status.exp_key_sig(&v.signing_key.to_hex(), &raw(&v.user_id))?;
            status.valid_sig(&v.signing_key.to_hex(), &made[..10], &f, 6, &v.primary.to_hex())?;
            status.trust(Trust::Undefined)?;
            Ok(BAD)
        }
        Outcome::KeyRevoked(v) => {
            eprintln!("sphincs: Good signature from \"{}\", but the key is revoked", who(&v.user_id));
            status.rev_key_sig(&v.signing_key.to_hex(), &raw(&v.user_id))?;
            status.valid_sig(&v.signing_key.to_hex(), &made[..10], &f, 6, &v.primary.to_hex())?;
            status.trust(Trust::Never)?;
            Ok(BAD)
        }
        Outcome::Bad { signing_key, user_id, reason, .. } => {
            let key = signing_key.map(|k| k.to_hex()).unwrap_or(issuer);
            eprintln!("sphincs: BAD signature from \"{}\": {}", who(&user_id), escape(&reason));
            status.bad_sig(&key, &raw(&user_id))?;
            Ok(BAD)
        }
        Outcome::NoKey { reason, .. } => cannot(status, &issuer, &f, ERRSIG_NO_KEY, &format!(
            "{reason} (certificates: sphincs.openpgpTrust, sphincs.openpgpCerts; `sphincs git setup --openpgp --trust CERT`)"
        )),
    }
}
