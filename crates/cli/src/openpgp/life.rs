//! `sphincs keygen --openpgp` and `sphincs key
//! expire|revoke|add-subkey|retire-subkey|export-subkeys` for OpenPGP keys:
//! a key's life after its first day, each a new self-signature made by the
//! core (`sphincs::openpgp`'s `life`). Verbs that change the secret key
//! replace its file atomically, keeping its permissions; the certificate
//! to publish afterwards comes from `sphincs sop extract-cert < KEY`.

use std::path::{Path, PathBuf};

use clap::Args;
use sphincs::openpgp::{self, armor, Cert, Fingerprint, Reason};

use crate::error::CliError;
use crate::files::passphrase;
use crate::files::quote;
use crate::files::read::{read_capped, Cap};
use crate::files::write;
use crate::files::write::{replace_in_place, write_output, write_stdout};
use crate::openpgp::kind::FPR_PREFIX;
use crate::sop::date;

#[derive(Args)]
pub struct ExpireArgs {
    /// The OpenPGP secret key (replaced in place).
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// The new expiry: an ISO 8601 date or time (2028-12-31), a span from
    /// now (90d, 2y), or `never`.
    #[arg(value_name = "WHEN")]
    when: String,
}

#[derive(Args)]
pub struct RevokeArgs {
    /// The OpenPGP secret key (not changed); with --revocation, the
    /// certificate to revoke.
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// Publish a revocation certificate kept apart (made earlier with
    /// --signature-only): it is checked against the certificate KEY and
    /// merged into it. No secret key is needed.
    #[arg(long, value_name = "REV", conflicts_with_all = ["signature_only", "message"])]
    revocation: Option<PathBuf>,
    /// Why: compromised (the default, a hard revocation: nothing the key
    /// signed stays good), superseded or retired (soft: signatures made
    /// before the revocation stay good where validity is judged at signing
    /// time, as `sop verify` does), or unspecified (hard).
    #[arg(long, default_value = "compromised")]
    reason: String,
    /// A sentence for those who read the revocation.
    #[arg(long, default_value = "")]
    message: String,
    /// Write only the revocation signature (a revocation certificate to
    /// keep apart and publish when needed) instead of the revoked
    /// certificate.
    #[arg(long)]
    signature_only: bool,
    /// Output file (default: standard output), armored.
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: Option<PathBuf>,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
pub struct AddSubkeyArgs {
    /// The OpenPGP secret key (replaced in place).
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// The subkey's set (default: the primary key's).
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    algorithm: Option<String>,
    /// When the subkey expires (as for `key expire`); never by default.
    #[arg(long, value_name = "WHEN")]
    expires: Option<String>,
}

#[derive(Args)]
pub struct RetireSubkeyArgs {
    /// The OpenPGP secret key (replaced in place).
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// The subkey's fingerprint (openpgp4fpr:HEX or HEX, as `key show` lists it).
    #[arg(value_name = "SUBKEY")]
    subkey: String,
    /// retired (the default) or superseded: its earlier signatures stay
    /// good where validity is judged at signing time; compromised: none do.
    #[arg(long, default_value = "retired")]
    reason: String,
}

fn now() -> u64 {
    crate::git::now()
}

/// The expiry WHEN names: `never`, a span from now (`90d`, `2y`), or a date.
pub fn parse_when(when: &str, now: u64) -> Result<Option<u64>, CliError> {
    if when == "never" {
        return Ok(None);
    }
    let span = |unit: char, secs: u64| {
        when.strip_suffix(unit)
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u64>().ok())
            .and_then(|n| n.checked_mul(secs))
    };
    if let Some(s) = span('d', 86_400).or_else(|| span('y', 365 * 86_400)) {
        return Ok(Some(now.saturating_add(s)));
    }
    match date::parse(when, now) {
        Ok(Some(t)) => Ok(Some(t)),
        _ => Err(CliError::Failed(format!(
            "{} is not an expiry: use a date (2028-12-31), a span (90d, 2y) or never",
            quote::text(when)
        ))),
    }
}

fn reason(name: &str) -> Result<Reason, CliError> {
    Reason::parse(name).ok_or_else(|| {
        CliError::Failed(format!(
            "{} is not a reason: use compromised, superseded, retired or unspecified",
            quote::text(name)
        ))
    })
}

/// The one secret key in `path`, and its primary key unlocked.
fn load_key(path: &Path) -> Result<(Cert, sphincs::any::AnySigningKey), CliError> {
    let bytes = read_capped(path, Cap::Key)?;
    let mut certs = openpgp::read_certs(&bytes).map_err(|e| CliError::file(path, e))?;
    if certs.len() != 1 || !certs[0].is_secret() {
        return Err(CliError::file(path, "is not one OpenPGP secret key"));
    }
    let cert = certs.remove(0);
    let pass = match &cert.primary.secret {
        Some(s) if s.is_protected() => Some(passphrase::for_reading(path)?),
        _ => None,
    };
    let passes: Vec<&[u8]> = pass.iter().map(|p| &p[..]).collect();
    let primary = openpgp::unlock_primary(&cert, &passes).map_err(|e| CliError::file(path, e))?;
    Ok((cert, primary))
}

fn save_key(path: &Path, cert: &Cert) -> Result<(), CliError> {
    let text = armor::encode(armor::Kind::PrivateKey, &cert.to_bytes(true));
    replace_in_place(path, text.as_bytes())
}

fn failed(e: openpgp::PgpError) -> CliError {
    CliError::Failed(e.to_string())
}

pub fn expire(args: &ExpireArgs) -> Result<(), CliError> {
    let t = now();
    let when = parse_when(&args.when, t)?;
    let (cert, primary) = load_key(&args.key)?;
    let new = cert.with_expiry(&primary, when, t as u32).map_err(failed)?;
    save_key(&args.key, &new)?;
    crate::say::status(&format!(
        "{}: expires {}; publish the certificate again (sphincs sop extract-cert < KEY)\n",
        quote::name(&args.key),
        when.map_or("never".to_string(), date::format)
    ))
}

#[derive(Args)]
pub struct ExportSubkeysArgs {
    /// The OpenPGP secret key (not changed).
    #[arg(value_name = "KEY")]
    key: PathBuf,
    /// The key for day-to-day signing: the certificate with the subkeys'
    /// secrets and without the primary key's (written with mode 0600).
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    out: PathBuf,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

/// `key export-subkeys`: the primary key stays offline; the subkeys sign.
pub fn export_subkeys(args: &ExportSubkeysArgs) -> Result<(), CliError> {
    write::check_writable(&args.out, args.force)?;
    let bytes = read_capped(&args.key, Cap::Key)?;
    let certs = openpgp::read_certs(&bytes).map_err(|e| CliError::file(&args.key, e))?;
    let [cert] = certs.as_slice() else {
        return Err(CliError::file(&args.key, "is not one OpenPGP secret key"));
    };
    let daily = cert.without_primary_secret();
    let t = now();
    let (secret, tag) = daily.signing_secret(t).map_err(|_| {
        CliError::file(
            &args.key,
            "has no usable signing subkey with its secret: add one first (sphincs key add-subkey)",
        )
    })?;
    debug_assert_eq!(tag, openpgp::packet::tag::SECRET_SUBKEY);
    let fpr = secret.public.fingerprint();
    let text = armor::encode(armor::Kind::PrivateKey, &daily.to_bytes(true));
    write_output(&args.out, text.as_bytes(), true, args.force)?;
    crate::say::status(&format!(
        "{}: the subkeys' secrets without the primary key's (signs with {FPR_PREFIX}{fpr}); keep {} offline\n",
        quote::name(&args.out),
        quote::name(&args.key)
    ))
}

/// `key revoke CERT --revocation REV`: a kept revocation certificate merged.
fn publish_revocation(args: &RevokeArgs, rev: &Path) -> Result<(), CliError> {
    let certs = openpgp::read_certs(&read_capped(&args.key, Cap::Keyring)?)
        .map_err(|e| CliError::file(&args.key, e))?;
    let [cert] = certs.as_slice() else {
        return Err(CliError::file(&args.key, "is not one OpenPGP certificate"));
    };
    let sigs = openpgp::read_signatures(&read_capped(rev, Cap::Key)?)
        .map_err(|e| CliError::file(rev, e))?;
    let sig = sigs
        .into_iter()
        .next()
        .ok_or_else(|| CliError::file(rev, "holds no signature"))?;
    let revoked = cert
        .with_revocation(sig, now())
        .map_err(|e| CliError::file(rev, e))?;
    let text = armor::encode(armor::Kind::PublicKey, &revoked.to_bytes(false));
    match &args.out {
        Some(out) => write_output(out, text.as_bytes(), false, args.force),
        None => write_stdout(text.as_bytes(), false),
    }
}

pub fn revoke(args: &RevokeArgs) -> Result<(), CliError> {
    let reason = reason(&args.reason)?;
    if let Some(out) = &args.out {
        write::check_writable(out, args.force)?;
    }
    if let Some(rev) = &args.revocation {
        return publish_revocation(args, rev);
    }
    let t = now();
    let (cert, primary) = load_key(&args.key)?;
    let sig = cert
        .revocation(&primary, reason, &args.message, t as u32)
        .map_err(failed)?;
    let text = if args.signature_only {
        armor::encode(
            armor::Kind::Signature,
            &openpgp::signatures_to_bytes(&[sig]),
        )
    } else {
        let revoked = cert.with_revocation(sig, t).map_err(failed)?;
        armor::encode(armor::Kind::PublicKey, &revoked.to_bytes(false))
    };
    match &args.out {
        Some(out) => write_output(out, text.as_bytes(), false, args.force),
        None => write_stdout(text.as_bytes(), false),
    }
}

pub fn add_subkey(args: &AddSubkeyArgs) -> Result<(), CliError> {
    let t = now();
    let expires = args
        .expires
        .as_deref()
        .map(|w| parse_when(w, t))
        .transpose()?
        .flatten();
    let (cert, primary) = load_key(&args.key)?;
    let alg = match &args.algorithm {
        Some(a) => a
            .parse()
            .map_err(|e: sphincs::Error| CliError::Failed(e.to_string()))?,
        None => openpgp::slh_dsa_set(cert.primary.public.algorithm)
            .ok_or_else(|| CliError::file(&args.key, "has no SLH-DSA primary key"))?
            .parse()
            .map_err(|e: sphincs::Error| CliError::Failed(e.to_string()))?,
    };
    // The subkey's secret is protected as the primary's is.
    let pass = match &cert.primary.secret {
        Some(s) if s.is_protected() => Some(passphrase::for_reading(&args.key)?),
        _ => None,
    };
    let (new, fpr) = cert
        .with_signing_subkey(
            &primary,
            alg,
            expires,
            pass.as_deref().map(|p| &p[..]),
            t as u32,
        )
        .map_err(failed)?;
    save_key(&args.key, &new)?;
    crate::say::status(&format!(
        "{}: signing subkey {FPR_PREFIX}{fpr} added; publish the certificate again (sphincs sop extract-cert < KEY)\n",
        quote::name(&args.key)
    ))
}

pub fn retire_subkey(args: &RetireSubkeyArgs) -> Result<(), CliError> {
    let reason = reason(&args.reason)?;
    let hex = args.subkey.strip_prefix(FPR_PREFIX).unwrap_or(&args.subkey);
    let fpr = Fingerprint::from_hex(hex).ok_or_else(|| {
        CliError::Failed(format!(
            "{} is not a v6 fingerprint (64 hex digits)",
            quote::text(&args.subkey)
        ))
    })?;
    let (cert, primary) = load_key(&args.key)?;
    let new = cert
        .with_subkey_revoked(&primary, &fpr, reason, "", now() as u32)
        .map_err(failed)?;
    save_key(&args.key, &new)?;
    crate::say::status(&format!(
        "{}: subkey {FPR_PREFIX}{fpr} revoked ({}); publish the certificate again (sphincs sop extract-cert < KEY)\n",
        quote::name(&args.key),
        args.reason
    ))
}

/// What `keygen --openpgp` was given.
pub struct KeygenArgs<'a> {
    pub alg: &'a str,
    pub user_ids: &'a [String],
    pub expires: Option<&'a str>,
    pub out: &'a Path,
    pub public: Option<&'a Path>,
    pub revocation: Option<&'a Path>,
    pub encrypt: bool,
    pub force: bool,
}

/// `keygen -a SET --openpgp USERID -o KEY`: a v6 key written with mode
/// 0600 (never through the shell's `>`), its expiry stated from the start,
/// and, if asked, its certificate and a revocation certificate made now.
pub fn keygen(args: KeygenArgs<'_>) -> Result<(), CliError> {
    for f in [Some(args.out), args.public, args.revocation]
        .into_iter()
        .flatten()
    {
        write::check_writable(f, args.force)?;
    }
    let t = now();
    let expires = args
        .expires
        .map(|w| parse_when(w, t))
        .transpose()?
        .flatten();
    let alg = args
        .alg
        .parse()
        .map_err(|e: sphincs::Error| CliError::Failed(e.to_string()))?;
    let pass = if args.encrypt {
        Some(passphrase::for_writing(args.out)?)
    } else {
        None
    };
    let cert =
        openpgp::generate_expiring(alg, args.user_ids, t as u32, None, expires).map_err(failed)?;
    let primary = openpgp::unlock_primary(&cert, &[]).map_err(failed)?;
    let rev = args
        .revocation
        .map(|_| cert.revocation(&primary, Reason::Unspecified, "", t as u32))
        .transpose()
        .map_err(failed)?;
    let cert = match &pass {
        Some(p) => cert
            .map_secrets(|s, tag| s.with_protection(tag, Some(&p[..])))
            .map_err(failed)?,
        None => cert,
    };
    let key_text = armor::encode(armor::Kind::PrivateKey, &cert.to_bytes(true));
    write_output(args.out, key_text.as_bytes(), true, args.force)?;
    if let Some(p) = args.public {
        let text = armor::encode(armor::Kind::PublicKey, &cert.to_bytes(false));
        write_output(p, text.as_bytes(), false, args.force)?;
    }
    if let (Some(p), Some(rev)) = (args.revocation, rev) {
        let text = armor::encode(
            armor::Kind::Signature,
            &openpgp::signatures_to_bytes(&[rev]),
        );
        write_output(p, text.as_bytes(), false, args.force)?;
    }
    crate::say::status(&format!(
        "{FPR_PREFIX}{}  {} (expires {})\n",
        cert.fingerprint(),
        quote::name(&args.out),
        expires.map_or("never".to_string(), date::format)
    ))
}
