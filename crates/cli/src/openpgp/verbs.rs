//! The everyday verbs with OpenPGP keys (RFC 9580 v6, RFC 9980 SLH-DSA), as
//! a user of gpg or sq expects them: `sign -k KEY FILE` writes FILE.asc (an
//! armored detached signature, like `gpg --armor --detach-sign`), `verify
//! -p CERT FILE` checks FILE against FILE.asc (or -s SIG), `fingerprint`
//! prints the v6 fingerprint as `openpgp4fpr:<HEX>`, and `key show`
//! describes the certificate. A key file is told to be OpenPGP by its
//! content (armor label or first packet); everything else about it comes
//! from the core's `sphincs::openpgp`.

use std::io::Read;
use std::path::{Path, PathBuf};

use sphincs::any::AnySigningKey;
use sphincs::openpgp::{
    self, armor, Cert, DetachedSigner, DetachedVerifier, Keyring, Mode, UnlockedKey, Window,
};

use crate::agent::signing;
use crate::error::CliError;
use crate::files::passphrase;
use crate::files::quote;
use crate::files::read;
use crate::files::read::{read_capped, Cap};
use crate::files::write;
use crate::files::write::{write_output, write_stdout};
use crate::keys::token_openpgp;
use crate::keys::token_uri::is_token_uri;
use crate::signing::batch;
use crate::sop::date;

pub use crate::openpgp::kind::{is_openpgp_file, FPR_PREFIX};

fn load(path: &Path) -> Result<Vec<Cert>, CliError> {
    openpgp::read_certs(&read_capped(path, Cap::Keyring)?).map_err(|e| CliError::file(path, e))
}

fn now() -> u64 {
    crate::git::now()
}

/// The OpenPGP secret key in `path` (its first key), refused if it is only
/// a certificate; for a key in a PKCS#11 token (a `pkcs11:` URI), the
/// certificate kept beside it (its secret stays in the token).
pub fn secret_key(path: &Path) -> Result<Cert, CliError> {
    if is_token_uri(path) {
        return token_openpgp::cert_of(path);
    }
    let cert = load(path)?
        .into_iter()
        .next()
        .ok_or_else(|| CliError::file(path, "holds no key"))?;
    if !cert.is_secret() {
        return Err(CliError::file(
            path,
            "is an OpenPGP certificate; signing needs the secret key",
        ));
    }
    Ok(cert)
}

/// FILE.asc beside FILE.
pub fn asc_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".asc");
    PathBuf::from(name)
}

/// Streams FILE (or standard input) into `f`.
pub fn stream(file: Option<&Path>, mut f: impl FnMut(&[u8])) -> Result<(), CliError> {
    let mut input: Box<dyn Read> = match file {
        Some(p) if p.as_os_str() != "-" => {
            Box::new(std::fs::File::open(p).map_err(|e| CliError::file(p, e))?)
        }
        _ => Box::new(std::io::stdin().lock()),
    };
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match input.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => f(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(CliError::Failed(format!("cannot read the message: {e}"))),
        }
    }
}

/// The signing key of the OpenPGP secret key `cert` (read from `path`)
/// unlocked in this process, its passphrase asked when it is protected.
fn unlock(path: &Path, cert: &Cert) -> Result<(openpgp::PublicKey, AnySigningKey), CliError> {
    let (secret, tag) = cert
        .signing_secret(now())
        .map_err(|e| CliError::file(path, e))?;
    let pass = if secret.is_protected() {
        Some(passphrase::for_reading(path)?)
    } else {
        None
    };
    let passes: Vec<&[u8]> = pass.iter().map(|p| &p[..]).collect();
    let key = secret
        .signing_key(tag, &passes)
        .map_err(|e| CliError::file(path, e))?;
    Ok((secret.public.clone(), key))
}

/// The signing key of the OpenPGP secret key in `path`, unlocked here
/// (for `agent add`).
pub fn unlock_signing_key(path: &Path) -> Result<AnySigningKey, CliError> {
    let certs = load(path)?;
    let cert = certs
        .first()
        .ok_or_else(|| CliError::file(path, "holds no key"))?;
    Ok(unlock(path, cert)?.1)
}

/// The signing key of `cert` (the secret key in `path`) for a signature:
/// held by a running agent, or unlocked here ([`crate::agent::signing::signing_key`]).
pub fn signing_key(path: &Path, cert: &Cert) -> Result<UnlockedKey, CliError> {
    if is_token_uri(path) {
        // The token's key (the agent's session, if it holds it) signs as
        // the key of `cert` that it is.
        return token_openpgp::as_openpgp(cert, signing::token_key(path)?);
    }
    let (secret, _) = cert
        .signing_secret(now())
        .map_err(|e| CliError::file(path, e))?;
    let public = secret.public.clone();
    // (DetachedSigner refuses a key that is not `public`'s.)
    let key = signing::signing_key(path, || Ok(unlock(path, cert)?.1))?;
    Ok(UnlockedKey { public, key })
}

/// `sign -k KEY [FILE]…` with an OpenPGP secret key: FILE.asc for each
/// FILE (or `-o SIG` for one), standard input to standard output.
pub fn sign(
    key: &Path,
    files: &[PathBuf],
    out: Option<&Path>,
    force: bool,
    threads: usize,
) -> Result<(), CliError> {
    let cert = secret_key(key)?;
    if !cert.is_protected() && !is_token_uri(key) {
        read::warn_if_readable_by_others(key, "an unprotected OpenPGP secret key");
    }
    let targets: Vec<Option<&Path>> = if files.is_empty() {
        vec![None]
    } else {
        files.iter().map(|f| Some(f.as_path())).collect()
    };
    if out.is_some() && targets.len() > 1 {
        return Err(CliError::Failed(
            "-o names one signature file; with several files each signature goes to FILE.asc"
                .into(),
        ));
    }
    for file in targets {
        let unlocked = signing_key(key, &cert)?;
        let target = out
            .map(Path::to_path_buf)
            .or_else(|| file.filter(|f| f.as_os_str() != "-").map(asc_path));
        if let Some(t) = &target {
            write::check_writable(t, force)?;
        }
        let mut signer = DetachedSigner::new(vec![unlocked], Mode::Binary, now() as u32)
            .map_err(|e| CliError::Failed(e.to_string()))?;
        stream(file, |chunk| signer.update(chunk))?;
        let sigs = signer
            .finish(threads)
            .map_err(|e| CliError::Failed(e.to_string()))?;
        let text = armor::encode(armor::Kind::Signature, &openpgp::signatures_to_bytes(&sigs));
        match (&target, file) {
            (Some(t), Some(f)) if out.is_none() => {
                write_output(t, text.as_bytes(), false, force)?;
                crate::say::status(&format!(
                    "{}: signed, {}\n",
                    quote::name(&f),
                    quote::name(&t)
                ))?;
            }
            (Some(t), _) => write_output(t, text.as_bytes(), false, force)?,
            (None, _) => write_stdout(text.as_bytes(), false)?,
        }
    }
    Ok(())
}

/// `verify -p CERT [-s SIG] FILE…` with an OpenPGP certificate (or key):
/// each FILE against FILE.asc (or SIG for one), optionally pinned to the
/// certificate's fingerprint.
pub fn verify(
    cert: &Path,
    pin: Option<&str>,
    signature: Option<&Path>,
    files: &[PathBuf],
    text_out: Option<&Path>,
    force: bool,
) -> Result<(), CliError> {
    let mut certs = load(cert)?;
    if let Some(pin) = pin {
        let want = pin
            .get(FPR_PREFIX.len()..)
            .filter(|_| pin.to_ascii_lowercase().starts_with(FPR_PREFIX));
        let want = want.map(str::to_ascii_uppercase);
        // A pin restricts which certificate may sign: the others in a
        // keyring take no part in the verification.
        let first = certs[0].fingerprint();
        certs.retain(|c| Some(c.fingerprint().to_hex()) == want);
        if certs.is_empty() {
            return Err(CliError::file(cert, format!(
                "no certificate in it has the fingerprint {} that --fingerprint expects (the first is {FPR_PREFIX}{first}); no signature was checked",
                quote::text(pin)
            )));
        }
    }
    // Every certificate's validity is computed once, for all the files.
    let t = now();
    let ring = Keyring::new(&certs, t);
    let window = Window {
        not_before: None,
        not_after: Some(t + 300),
        now: t,
        // This verdict grants trust now: a key expired today does not
        // make good signatures dated last week.
        keys_valid_now: true,
    };
    // One cleartext-signed file (SHA256SUMS.asc, InRelease) with no
    // FILE.asc beside it: the signature is inside.
    if let ([file], None) = (files, signature) {
        if is_clearsigned_file(file) && !asc_path(file).exists() {
            return verify_clearsigned(file, &ring, &window, text_out, force);
        }
    }
    if text_out.is_some() {
        return Err(CliError::Failed(
            "-o writes the text of one cleartext-signed file; a detached signature's file is the text already".into(),
        ));
    }
    // `dist/*` holding x and x.asc: x.asc is x's signature, not a message.
    let files = if signature.is_none() {
        let (files, skipped) = batch::split_by(files, asc_path);
        batch::say_skipped(&skipped);
        files
    } else {
        files.to_vec()
    };
    let targets: Vec<Option<&Path>> = if files.is_empty() {
        vec![None]
    } else {
        files.iter().map(|f| Some(f.as_path())).collect()
    };
    if signature.is_some() && targets.len() > 1 {
        return Err(CliError::Failed(
            "-s names one signature; with several files each is checked against FILE.asc".into(),
        ));
    }
    let mut failures = Vec::new();
    for file in targets {
        let sig_path = match (signature, file) {
            (Some(s), _) => s.to_path_buf(),
            (None, Some(f)) => asc_path(f),
            (None, None) => {
                return Err(CliError::Failed(
                    "-s SIG is required to verify standard input".into(),
                ))
            }
        };
        let sigs = openpgp::read_signatures(&read_capped(&sig_path, Cap::Key)?)
            .map_err(|e| CliError::file(&sig_path, e))?;
        let mut v = DetachedVerifier::new(sigs);
        stream(file, |chunk| v.update(chunk))?;
        let (good, bad) = v.finish(&ring, &window);
        let name = file.map_or("standard input".to_string(), |f| {
            quote::name(&f).to_string()
        });
        match good.first() {
            Some(g) => crate::say::status(&format!(
                "{name}: valid signature by {}{} ({})\n",
                g.user_id
                    .as_deref()
                    .map(|u| format!("{} ", quote::user_id(u)))
                    .unwrap_or_default(),
                g.primary,
                date::format(u64::from(g.created))
            ))?,
            None => failures.push(format!("{name}: invalid signature: {}", bad.join("; "))),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(CliError::InvalidSignature(failures.join("\n")))
    }
}

/// True if the file starts as a cleartext-signed message does.
fn is_clearsigned_file(path: &Path) -> bool {
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut head));
    read.is_ok() && openpgp::cleartext::is_clearsigned(&head)
}

/// `verify -p CERT FILE.asc` of a cleartext-signed file: the first good
/// signature is reported; with `-o OUT` the checked text is written there
/// (atomically, and only when a signature is good).
fn verify_clearsigned(
    file: &Path,
    ring: &Keyring,
    window: &Window,
    text_out: Option<&Path>,
    force: bool,
) -> Result<(), CliError> {
    if let Some(out) = text_out {
        write::check_writable(out, force)?;
    }
    let data = read_capped(file, Cap::ClearSigned)?;
    let cs = openpgp::cleartext::parse(&data).map_err(|e| CliError::file(file, e))?;
    let (good, bad) = cs.verifier().finish(ring, window);
    let name = quote::name(&file);
    let Some(g) = good.first() else {
        return Err(CliError::InvalidSignature(format!(
            "{name}: invalid signature: {}",
            if bad.is_empty() {
                "no data signature".to_string()
            } else {
                bad.join("; ")
            }
        )));
    };
    if let Some(out) = text_out {
        write_output(out, &cs.text, false, force)?;
    }
    crate::say::status(&format!(
        "{name}: valid signature by {}{} ({}){}\n",
        g.user_id
            .as_deref()
            .map(|u| format!("{} ", quote::user_id(u)))
            .unwrap_or_default(),
        g.primary,
        date::format(u64::from(g.created)),
        text_out.map_or(String::new(), |o| format!(
            ", text written to {}",
            quote::name(&o)
        ))
    ))
}

/// The `fingerprint` value of an OpenPGP key or certificate.
pub fn fingerprint(path: &Path) -> Result<String, CliError> {
    let certs = load(path)?;
    Ok(format!("{FPR_PREFIX}{}", certs[0].fingerprint()))
}

/// `key show` of an OpenPGP key or certificate.
pub fn show(path: &Path) -> Result<(), CliError> {
    let certs = load(path)?;
    let mut text = format!("File:        {}\n", quote::name(&path));
    for c in &certs {
        let p = &c.primary.public;
        let kind = if c.is_secret() {
            "OpenPGP secret key"
        } else {
            "OpenPGP certificate"
        };
        let protection = match &c.primary.secret {
            Some(s) if s.is_protected() => ", passphrase-protected",
            Some(_) => ", not protected",
            None => "",
        };
        text += &format!("Contents:    {kind} (v6){protection}\n");
        text += &format!(
            "Algorithm:   {}\n",
            openpgp::public_key_algorithm_name(p.algorithm)
        );
        text += &format!("Fingerprint: {FPR_PREFIX}{}\n", c.fingerprint());
        text += &format!("Created:     {}\n", date::format(u64::from(p.created)));
        match c.primary_info(now()) {
            Ok(info) => {
                let exp = info.expires.map_or("never".to_string(), date::format);
                text += &format!("Expires:     {exp}\n");
                text += &format!("Revoked:     {}\n", revoked_text(&info));
                text += &format!(
                    "Signs:       {}\n",
                    if info.can_sign {
                        "yes"
                    } else {
                        "no (key flags)"
                    }
                );
            }
            Err(e) => text += &format!("Checked:     {e}\n"),
        }
        for u in c.valid_user_ids(now()) {
            text += &format!("User ID:     {}\n", quote::user_id(&u));
        }
        let keys = c.signing_keys(now()).unwrap_or_default();
        for s in &c.subkeys {
            let fpr = s.key.public.fingerprint();
            let state = match keys.iter().find(|k| k.key.fingerprint() == fpr) {
                _ if !s.key.public.is_slh_dsa() => {
                    " (not used here: only SLH-DSA signs and verifies)".to_string()
                }
                None => " (no valid binding: not used)".to_string(),
                Some(k) => format!(
                    " (signs: {}, expires: {}, revoked: {})",
                    if k.can_sign { "yes" } else { "no" },
                    k.expires.map_or("never".to_string(), date::format),
                    revoked_text(k)
                ),
            };
            text += &format!(
                "Subkey:      {} {FPR_PREFIX}{fpr}{state}\n",
                openpgp::public_key_algorithm_name(s.key.public.algorithm),
            );
        }
    }
    write_stdout(text.as_bytes(), false)
}

/// A key's revocation as `key show` says it.
fn revoked_text(info: &openpgp::SigningKeyInfo) -> String {
    match (info.revoked, info.retired) {
        (true, _) => "yes".to_string(),
        (false, Some(t)) => format!(
            "retired or superseded {} (signatures made before then stay good under sop verify)",
            date::format(t)
        ),
        (false, None) => "no".to_string(),
    }
}
