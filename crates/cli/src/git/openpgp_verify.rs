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

use sphincs::openpgp::{self, Cert, DetachedVerifier, Fingerprint, Keyring, Signature, Window};

use crate::error::CliError;
use crate::files::read::{read_capped, Cap};
use crate::gpg::status::{Status, Trust, ERRSIG_NO_KEY, ERRSIG_UNSUPPORTED};
use crate::gpg::verdict::{self, Judge};

/// How far in the future a signature's creation time may be.
pub const CLOCK_SKEW: u64 = 300;

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
            verdict::ERROR
        }
    }
}

fn cannot(
    status: &mut Status,
    sig: Option<&Signature>,
    code: u8,
    why: &str,
) -> std::io::Result<u8> {
    verdict::cannot(status, "sphincs", sig, code, why)
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
    let sigs = match openpgp::read_signatures(signature) {
        Ok(s) => s,
        Err(e) => return cannot(status, None, ERRSIG_UNSUPPORTED, &e.to_string()),
    };
    let [sig] = sigs.as_slice() else {
        let why = format!(
            "the signature file has {} signatures; a git signature has one",
            sigs.len()
        );
        return cannot(status, None, ERRSIG_UNSUPPORTED, &why);
    };
    let payload = match super::read_payload(data) {
        Ok(p) => p,
        Err(e) => return cannot(status, Some(sig), ERRSIG_UNSUPPORTED, &e.into_message()),
    };
    let ring = match keyring() {
        Ok(r) => r,
        Err(why) => return cannot(status, Some(sig), ERRSIG_NO_KEY, &why),
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
        return cannot(status, Some(sig), ERRSIG_UNSUPPORTED, &why);
    };
    let trust = |primary: &Fingerprint| {
        Some(if Some(*primary) == ring.own {
            Trust::Ultimate
        } else if ring.trusted.contains(primary) {
            Trust::Fully
        } else {
            Trust::Undefined
        })
    };
    let judge = Judge {
        program: "sphincs",
        trust: &trust,
        no_key_hint: " (certificates: sphincs.openpgpTrust, sphincs.openpgpCerts; `sphincs git setup --openpgp --trust CERT`)",
        apt_key_names: false,
    };
    verdict::say(status, &judge, sig, outcome)
}
