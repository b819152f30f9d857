//! Verification over rPGP: `verify` (detached signatures) and `inline-verify`
//! (one-pass-signed messages and cleartext-signed text).

use pgp::composed::{
    CleartextSignedMessage, Deserializable, DetachedSignature, Message, SignedPublicKey,
};
use pgp::crypto::{hash::HashAlgorithm, public_key::PublicKeyAlgorithm};
use pgp::packet::{Signature, SignatureType};
use pgp::types::{
    Fingerprint, KeyDetails, KeyId, KeyVersion, PublicParams, SignatureBytes, Timestamp,
    VerifyingKey,
};

use crate::date::{format_utc, now, parse_date};
use crate::keys::{flags_allow_signing, load_certs, primary_can_sign};
use crate::sop::{bad_data, read_file, read_stdin, write_stdout, Args, SopError, SopResult};

/// The accepted signature creation times (SOP `--not-before`, `--not-after`).
struct Window {
    not_before: Option<i64>,
    not_after: Option<i64>,
}

impl Window {
    fn from_args(args: &Args) -> SopResult<Window> {
        let not_before = match args.value("--not-before") {
            Some(d) => parse_date(d)?,
            None => None,
        };
        let not_after = match args.value("--not-after") {
            Some(d) => parse_date(d)?,
            None => Some(now()),
        };
        Ok(Window {
            not_before,
            not_after,
        })
    }

    fn contains(&self, t: i64) -> bool {
        self.not_before.is_none_or(|b| t >= b) && self.not_after.is_none_or(|a| t <= a)
    }
}

/// A primary key or subkey as one sized type, for rPGP's `&impl VerifyingKey`.
#[derive(Debug)]
struct Key<'a>(&'a dyn VerifyingKey);

impl KeyDetails for Key<'_> {
    fn version(&self) -> KeyVersion {
        self.0.version()
    }
    fn legacy_key_id(&self) -> KeyId {
        self.0.legacy_key_id()
    }
    fn fingerprint(&self) -> Fingerprint {
        self.0.fingerprint()
    }
    fn algorithm(&self) -> PublicKeyAlgorithm {
        self.0.algorithm()
    }
    fn created_at(&self) -> Timestamp {
        self.0.created_at()
    }
    fn legacy_v3_expiration_days(&self) -> Option<u16> {
        self.0.legacy_v3_expiration_days()
    }
    fn public_params(&self) -> &PublicParams {
        self.0.public_params()
    }
}

impl VerifyingKey for Key<'_> {
    fn verify(
        &self,
        hash: HashAlgorithm,
        data: &[u8],
        sig: &SignatureBytes,
    ) -> pgp::errors::Result<()> {
        self.0.verify(hash, data, sig)
    }
}

/// The keys of a certificate that may make data signatures.
fn signing_keys(cert: &SignedPublicKey) -> Vec<Key<'_>> {
    let mut keys = Vec::new();
    if primary_can_sign(&cert.details) {
        keys.push(Key(&cert.primary_key));
    }
    for sub in &cert.public_subkeys {
        if flags_allow_signing(&sub.signatures) {
            keys.push(Key(&sub.key));
        }
    }
    keys
}

/// Checks `sig` against every signing key of every certificate with `check`,
/// and returns the VERIFICATIONS line of the first that verifies in the window
/// (if none does, says why on standard error).
fn verification<F>(
    sig: &Signature,
    certs: &[SignedPublicKey],
    win: &Window,
    check: F,
) -> Option<String>
where
    F: Fn(&Key) -> pgp::errors::Result<()>,
{
    let Some(created) = sig.created().map(|t| i64::from(t.as_secs())) else {
        eprintln!("signature without a creation time");
        return None;
    };
    let mut errors = Vec::new();
    for cert in certs {
        for key in signing_keys(cert) {
            match check(&key) {
                Ok(()) if win.contains(created) => {
                    let mode = match sig.typ() {
                        Some(SignatureType::Text) => "text",
                        _ => "binary",
                    };
                    return Some(format!(
                        "{} {:X} {:X} mode:{mode} rpgp-peer\n",
                        format_utc(created),
                        key.fingerprint(),
                        cert.primary_key.fingerprint(),
                    ));
                }
                Ok(()) => errors.push("signature outside the accepted time window".to_string()),
                Err(e) => errors.push(format!("{:X}: {e}", key.fingerprint())),
            }
        }
    }
    for e in errors {
        eprintln!("{e}");
    }
    None
}

fn certs_arg(args: &Args, skip: usize) -> SopResult<Vec<SignedPublicKey>> {
    let paths = &args.positional[skip.min(args.positional.len())..];
    if paths.is_empty() {
        return Err(SopError::new(crate::sop::MISSING_ARG, "missing CERTS"));
    }
    load_certs(paths)
}

pub fn verify(args: &Args) -> SopResult<()> {
    let win = Window::from_args(args)?;
    let sig_path = args.at_least_one("SIGNATURES")?[0].clone();
    let certs = certs_arg(args, 1)?;
    let sig_data = read_file(&sig_path)?;
    let (sigs, _) =
        DetachedSignature::from_reader_many(&sig_data[..]).map_err(bad_data(&sig_path))?;
    let data = read_stdin()?;
    let mut lines = String::new();
    for sig in sigs {
        let sig = sig.map_err(bad_data(&sig_path))?;
        let check = |key: &Key| sig.verify(key, &data[..]);
        lines.extend(verification(&sig.signature, &certs, &win, check));
    }
    finish(lines)
}

pub fn inline_verify(args: &Args) -> SopResult<()> {
    let win = Window::from_args(args)?;
    let certs = certs_arg(args, 0)?;
    let input = read_stdin()?;
    let (data, lines) = if input
        .trim_ascii_start()
        .starts_with(b"-----BEGIN PGP SIGNED MESSAGE-----")
    {
        cleartext(&input, &certs, &win)?
    } else {
        one_pass(&input, &certs, &win)?
    };
    if let Some(path) = args.value("--verifications-out") {
        std::fs::write(path, &lines).map_err(|e| SopError::other(format!("{path}: {e}")))?;
    }
    if lines.is_empty() {
        return Err(SopError::new(crate::sop::NO_SIGNATURE, "no good signature"));
    }
    write_stdout(&data)
}

/// A cleartext-signed text: its (dash-unescaped) text and VERIFICATIONS.
fn cleartext(
    input: &[u8],
    certs: &[SignedPublicKey],
    win: &Window,
) -> SopResult<(Vec<u8>, String)> {
    let (msg, _) = CleartextSignedMessage::from_armor(input).map_err(bad_data("message"))?;
    let signed = msg.signed_text();
    let mut lines = String::new();
    for sig in msg.signatures() {
        let check = |key: &Key| sig.verify(key, signed.as_bytes());
        lines.extend(verification(sig, certs, win, check));
    }
    let mut text = String::new();
    for line in msg.text().split_inclusive('\n') {
        text.push_str(line.strip_prefix("- ").unwrap_or(line));
    }
    Ok((text.into_bytes(), lines))
}

/// An inline-signed message: its literal data and VERIFICATIONS.
fn one_pass(input: &[u8], certs: &[SignedPublicKey], win: &Window) -> SopResult<(Vec<u8>, String)> {
    let (msg, _) = Message::from_reader(input).map_err(bad_data("message"))?;
    let mut msg = msg.decompress().map_err(bad_data("message"))?;
    let data = msg.as_data_vec().map_err(bad_data("message"))?;
    let mut lines = String::new();
    if let Message::Signed { reader, .. } = &msg {
        for i in 0..reader.num_signatures() {
            let Some(sig) = reader.signature(i) else {
                continue;
            };
            let check = |key: &Key| msg.verify_nested_explicit(i, key.0).map(|_| ());
            lines.extend(verification(sig, certs, win, check));
        }
    }
    Ok((data, lines))
}

fn finish(lines: String) -> SopResult<()> {
    if lines.is_empty() {
        return Err(SopError::new(crate::sop::NO_SIGNATURE, "no good signature"));
    }
    write_stdout(lines.as_bytes())
}
