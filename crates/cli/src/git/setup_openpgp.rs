//! `sphincs git setup --openpgp`: git's default format with an SLH-DSA
//! OpenPGP key. Sets `gpg.format=openpgp`, `gpg.openpgp.program` (this
//! program) and `user.signingkey` (the key's fingerprint) in git's
//! configuration, and `sphincs.openpgpKey` and `sphincs.openpgpTrust` in
//! this program's (the repository's configuration, or with --global git's
//! user configuration and `$XDG_CONFIG_HOME/sphincs/git.config`). Trusted
//! certificates are added to those already configured, never replaced;
//! without --key it sets up a clone that only verifies.

use std::path::{Path, PathBuf};

use sphincs::openpgp::{self, Cert};

use super::config::{absolute, config_get_all, config_set, scopes};
use crate::error::CliError;
use crate::files::quote;
use crate::files::read::{read_capped, Cap};
use crate::keys::token_uri::is_token_uri;
use crate::openpgp::verbs;

fn read(path: &Path) -> Result<Vec<Cert>, CliError> {
    openpgp::read_certs(&read_capped(path, Cap::Keyring)?).map_err(|e| CliError::file(path, e))
}

fn text(p: &Path) -> Result<String, CliError> {
    p.to_str()
        .map(str::to_string)
        .ok_or_else(|| CliError::file(p, "the path is not UTF-8"))
}

pub fn setup(key: Option<&Path>, trust: &[PathBuf], global: bool) -> Result<(), CliError> {
    if key.is_none() && trust.is_empty() {
        return Err(CliError::Failed(
            "give --key KEY to sign (and verify), or --trust CERT to verify only".into(),
        ));
    }
    // A key in a PKCS#11 token is recorded by its URI.
    let key = key
        .map(|k| {
            if is_token_uri(k) {
                Ok(k.to_path_buf())
            } else {
                absolute(k)
            }
        })
        .transpose()?;
    let signer = match &key {
        Some(k) => {
            let cert = if is_token_uri(k) {
                verbs::secret_key(k)?
            } else {
                read(k)?
                    .into_iter()
                    .next()
                    .ok_or_else(|| CliError::file(k, "holds no key"))?
            };
            if !cert.is_secret() && !is_token_uri(k) {
                return Err(CliError::file(k, "is a certificate; --key needs the OpenPGP secret key (a certificate goes to --trust)"));
            }
            cert.signing_keys(super::now())
                .map_err(|e| CliError::file(k, e))?;
            Some(cert)
        }
        None => None,
    };
    for t in trust {
        super::trust::read_anchor(&absolute(t)?, true)?;
    }
    let program = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| CliError::Failed(format!("cannot find this program's path: {e}")))?;
    let (git_scope, store) = scopes(global)?;
    config_set(&git_scope, "gpg.format", "openpgp")?;
    config_set(&git_scope, "gpg.openpgp.program", &text(&program)?)?;
    let mut out = String::new();
    if let (Some(k), Some(cert)) = (&key, &signer) {
        let previous = config_get_all(&store, "sphincs.openpgpKey")?.pop();
        config_set(&git_scope, "user.signingkey", &cert.fingerprint().to_hex())?;
        config_set(&store, "sphincs.openpgpKey", &text(k)?)?;
        let uid = cert.primary_user_id(super::now()).unwrap_or_default();
        out += &format!(
            "git signs with {} as {} (OpenPGP {})\n",
            quote::name(k),
            quote::user_id(&uid),
            cert.fingerprint()
        );
        if let Some(old) = previous.filter(|o| *o != text(k).unwrap_or_default()) {
            out += &keep_previous(Path::new(&old), cert, global)?;
        }
        if is_token_uri(k) {
            out += "  the key is in a PKCS#11 token: its PIN comes from the URI's pin-source file, or is asked on the terminal\n";
        } else if cert.is_protected() {
            out += "  the key is protected: its passphrase is read from the file SPHINCS_PASSPHRASE_FILE names, or asked on the terminal\n";
        }
    } else {
        out += "git verifies OpenPGP signatures (no signing key configured)\n";
    }
    if !trust.is_empty() {
        out += &super::trust::add(trust, true, global)?;
    }
    let all = config_get_all(&store, "sphincs.openpgpTrust")?;
    out += &format!(
        "  {} configuration: gpg.format=openpgp, gpg.openpgp.program={}; {} trusted certificate file(s) in all{}\n",
        if global { "user's git" } else { "repository's git" },
        program.display(),
        all.len(),
        if signer.is_some() { " (and your own key)" } else { "" }
    );
    if signer.is_some() {
        out += "  sign with `git commit -S` and `git tag -s` (or set commit.gpgSign=true)\n";
    }
    crate::say::status(&out)
}

/// Rotation: the key configured before `key` stays trusted (TRUST_FULLY,
/// through sphincs.openpgpTrust), so the commits it signed stay good; the
/// lines say so and how to stop trusting it.
fn keep_previous(old: &Path, new: &Cert, global: bool) -> Result<String, CliError> {
    let old_cert = match read(old) {
        Ok(mut certs) if !certs.is_empty() => certs.remove(0),
        Ok(_) | Err(_) => {
            return Ok(format!(
                "  the previous key {} cannot be read: commits it signed show E (no certificate) unless its certificate is trusted (`sphincs git trust add OLD.cert`)\n",
                quote::name(old)
            ))
        }
    };
    if old_cert.fingerprint() == new.fingerprint() {
        return Ok(String::new());
    }
    let mut out = format!(
        "  the previous key {} (OpenPGP {}) stays trusted, so the commits it signed stay good; to stop: sphincs git trust remove {}{}\n",
        quote::name(old),
        old_cert.fingerprint(),
        verbs::FPR_PREFIX,
        old_cert.fingerprint()
    );
    out += &super::trust::add(&[old.to_path_buf()], true, global)?;
    Ok(out)
}
