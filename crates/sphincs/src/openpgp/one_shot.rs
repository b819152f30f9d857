//! The operations over whole byte strings, as the bindings (Python, C)
//! offer them: make a key, extract its certificate, sign and verify
//! detached and cleartext signatures. Inputs may be armored or binary;
//! outputs are armored. Streaming callers (the CLI) use `message` and
//! `cleartext` directly.

use super::armor::{self, Kind};
use super::cert::Cert;
use super::cleartext;
use super::error::{ErrorKind, PgpError, Result};
use super::message::{self, DetachedSigner, DetachedVerifier, Keyring, Mode, Verification, Window};
use crate::any::AnyAlgorithm;
use zeroize::Zeroizing;

/// The SLH-DSA set of a SOP profile name (`slh-dsa-shake-128s`, …) or a
/// FIPS 205 set name that RFC 9980 assigns a code point.
pub fn profile_algorithm(name: &str) -> Result<AnyAlgorithm> {
    let set = name
        .strip_prefix("slh-dsa-")
        .map_or(name.to_string(), |s| format!("SLH-DSA-{s}"));
    let alg: AnyAlgorithm = set
        .parse()
        .map_err(|_| PgpError::unsupported(format!("{name:?} is not an OpenPGP SLH-DSA profile: use slh-dsa-shake-128s, slh-dsa-shake-128f or slh-dsa-shake-256s")))?;
    if super::algorithms::slh_dsa_id(&alg.to_string()).is_none() {
        return Err(PgpError::unsupported(format!(
            "{alg} has no OpenPGP code point; RFC 9980 assigns SLH-DSA-SHAKE-128s, -128f and -256s"
        )));
    }
    Ok(alg)
}

/// A new transferable secret key, armored.
pub fn generate_key(
    profile: &str,
    user_ids: &[String],
    created: u32,
    passphrase: Option<&[u8]>,
) -> Result<Zeroizing<String>> {
    let key = super::cert::generate(profile_algorithm(profile)?, user_ids, created, passphrase)?;
    Ok(Zeroizing::new(armor::encode(
        Kind::PrivateKey,
        &key.to_bytes(true),
    )))
}

fn one(data: &[u8]) -> Result<Cert> {
    let mut certs = super::read_certs(data)?;
    if certs.len() != 1 {
        return Err(PgpError::malformed(format!(
            "expected one key or certificate, found {}",
            certs.len()
        )));
    }
    Ok(certs.remove(0))
}

/// The certificate (public parts) of a key or certificate, armored.
pub fn extract_cert(key: &[u8]) -> Result<String> {
    Ok(armor::encode(Kind::PublicKey, &one(key)?.to_bytes(false)))
}

/// A detached signature of `data` (binary, or text with `text`), armored.
pub fn sign_detached(
    key: &[u8],
    passphrase: Option<&[u8]>,
    data: &[u8],
    text: bool,
    now: u64,
    threads: usize,
) -> Result<String> {
    let cert = one(key)?;
    if !cert.is_secret() {
        return Err(PgpError::new(
            ErrorKind::KeyCannotSign,
            "a certificate signs nothing: give the secret key",
        ));
    }
    let passes: Vec<&[u8]> = passphrase.into_iter().collect();
    let unlocked = message::unlock_signing_key(&cert, &passes, now)?;
    let mut s = DetachedSigner::new(
        vec![unlocked],
        if text { Mode::Text } else { Mode::Binary },
        now as u32,
    )?;
    s.update(data);
    let sigs = s.finish(threads)?;
    Ok(armor::encode(
        Kind::Signature,
        &message::signatures_to_bytes(&sigs),
    ))
}

fn first_good(good: Vec<Verification>, bad: Vec<String>) -> Result<Verification> {
    good.into_iter().next().ok_or_else(|| {
        PgpError::bad_signature(if bad.is_empty() {
            "no data signature".into()
        } else {
            bad.join("; ")
        })
    })
}

/// The verdict of these calls grants trust now: a signature may be dated at
/// most five minutes ahead of `now`, and its key must be valid at `now`
/// as well as when it signed (an expired key's back-dated signature fails).
fn window(now: u64) -> Window {
    Window {
        not_before: None,
        not_after: Some(now + 300),
        now,
        keys_valid_now: true,
    }
}

/// Checks a detached signature over `data` with the certificates in
/// `certs` (one or more, armored or binary); the first good signature.
pub fn verify_detached(
    certs: &[u8],
    signature: &[u8],
    data: &[u8],
    now: u64,
) -> Result<Verification> {
    let certs = super::read_certs(certs)?;
    let mut v = DetachedVerifier::new(super::read_signatures(signature)?);
    v.update(data);
    let (good, bad) = v.finish(&Keyring::new(&certs, now), &window(now));
    first_good(good, bad)
}

/// Clear-signs UTF-8 text.
pub fn clearsign(
    key: &[u8],
    passphrase: Option<&[u8]>,
    text: &[u8],
    now: u64,
    threads: usize,
) -> Result<Vec<u8>> {
    if core::str::from_utf8(text).is_err() {
        return Err(PgpError::new(
            ErrorKind::ExpectedText,
            "a cleartext signature signs UTF-8 text",
        ));
    }
    let cert = one(key)?;
    let passes: Vec<&[u8]> = passphrase.into_iter().collect();
    let unlocked = message::unlock_signing_key(&cert, &passes, now)?;
    cleartext::sign(vec![unlocked], text, now as u32, threads)
}

/// Checks a cleartext-signed message; its text and the first good signature.
pub fn verify_cleartext(certs: &[u8], signed: &[u8], now: u64) -> Result<(Vec<u8>, Verification)> {
    let certs = super::read_certs(certs)?;
    let cs = cleartext::parse(signed)?;
    let (good, bad) = cs
        .verifier()
        .finish(&Keyring::new(&certs, now), &window(now));
    Ok((cs.text, first_good(good, bad)?))
}
