//! Signing for git in its default format (`gpg.format=openpgp`): a v6
//! detached OpenPGP signature (RFC 9580, RFC 9980 SLH-DSA, made by
//! `sphincs::openpgp`) of the payload on standard input, armored on
//! standard output, then `SIG_CREATED` on the status descriptor. Any
//! failure returns an error before SIG_CREATED is written.

use std::io::Write;
use std::path::{Path, PathBuf};

use sphincs::openpgp::{self, Cert, DetachedSigner, Mode};

use crate::error::CliError;
use crate::files::read::{read_capped, Cap};
use crate::gpg::status::{SigFacts, Status};
use crate::keys::token_uri::is_token_uri;
use crate::openpgp::verbs;

/// The configured OpenPGP secret key: its path and what it holds.
pub fn configured_key() -> Result<Option<(PathBuf, Cert)>, CliError> {
    let Some(path) = super::config_value("sphincs.openpgpKey")?.map(PathBuf::from) else {
        return Ok(None);
    };
    if is_token_uri(&path) {
        let cert = verbs::secret_key(&path)?;
        return Ok(Some((path, cert)));
    }
    let certs = openpgp::read_certs(&read_capped(&path, Cap::Key)?)
        .map_err(|e| CliError::file(&path, e))?;
    let cert = certs
        .into_iter()
        .next()
        .ok_or_else(|| CliError::file(&path, "holds no key"))?;
    Ok(Some((path, cert)))
}

/// Whether `key_id` (git's `user.signingkey`, or the committer's
/// `Name <email>`) names `cert`: its fingerprint or key ID (hex, any case,
/// `0x` and spaces ignored), the key file's path, or one of its User IDs
/// (whole, or the `<email>` in it).
pub fn names(cert: &Cert, path: &Path, key_id: &str) -> bool {
    let id = key_id.trim();
    let hex: String = id
        .trim_start_matches("0x")
        .chars()
        .filter(|c| *c != ' ')
        .collect::<String>()
        .to_uppercase();
    let fpr = cert.fingerprint().to_hex();
    if hex.len() >= 16 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return fpr.starts_with(&hex)
            || cert
                .subkeys
                .iter()
                .any(|s| s.key.public.fingerprint().to_hex().starts_with(&hex));
    }
    if Path::new(id) == path
        || std::fs::canonicalize(id).ok().as_deref() == std::fs::canonicalize(path).ok().as_deref()
    {
        return true;
    }
    let email = id
        .rsplit_once('<')
        .and_then(|(_, e)| e.strip_suffix('>'))
        .unwrap_or(id);
    cert.valid_user_ids(super::now())
        .iter()
        .any(|u| u == id || u.contains(&format!("<{email}>")))
}

/// Signs standard input with the configured key, which `key_id` must name.
pub fn sign(key_id: &str, status: &mut Status) -> Result<(), CliError> {
    let (path, cert) = configured_key()?.ok_or_else(|| {
        CliError::Failed("no OpenPGP key configured (sphincs.openpgpKey); run `sphincs git setup --openpgp --key KEY`".into())
    })?;
    if !cert.is_secret() && !is_token_uri(&path) {
        return Err(CliError::file(
            &path,
            "is a certificate, not a secret key: it signs nothing",
        ));
    }
    if !names(&cert, &path, key_id) {
        return Err(CliError::Failed(format!(
            "user.signingkey {key_id:?} does not name the configured OpenPGP key {} ({})",
            cert.fingerprint(),
            path.display()
        )));
    }
    let payload = super::read_payload(None)?;
    let now = super::now();
    // The agent's key when one runs and holds it; else unlocked here, the
    // passphrase from SPHINCS_PASSPHRASE_FILE or /dev/tty.
    let key = verbs::signing_key(&path, &cert)?;
    let facts = SigFacts {
        pk_algo: key.public.algorithm,
        digest: openpgp::signing_hash(key.public.algorithm).id(),
        class: 0,
        time: now,
    };
    let fpr = key.public.fingerprint().to_hex();
    status.begin_signing(facts.digest).map_err(status_error)?;
    let mut signer = DetachedSigner::new(vec![key], Mode::Binary, now as u32)
        .map_err(|e| CliError::Failed(e.to_string()))?;
    signer.update(&payload);
    let sigs = signer
        .finish(sphincs::resolve_threads(0))
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let armored = openpgp::armor::encode(
        openpgp::armor::Kind::Signature,
        &openpgp::signatures_to_bytes(&sigs),
    );
    let mut out = std::io::stdout().lock();
    out.write_all(armored.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failed(format!("cannot write the signature: {e}")))?;
    status.sig_created(&facts, &fpr).map_err(status_error)
}

fn status_error(e: std::io::Error) -> CliError {
    CliError::Failed(format!("cannot write to the status descriptor: {e}"))
}
