//! `sphincs git setup`: one step to make git sign with an SLH-DSA key and
//! its certificate. It checks that the key is the certificate's, then sets
//! `gpg.format=x509`, `gpg.x509.program` (this program, by absolute path)
//! and `user.signingkey` (the certificate's SHA-256 fingerprint) in the
//! repository's git configuration (or, with `--global`, the user's), and
//! records the pairing as `sphincs.key`, `sphincs.cert`, `sphincs.chain`
//! and `sphincs.trust` (absolute paths): in the repository's configuration,
//! or with `--global` in `$XDG_CONFIG_HOME/sphincs/git.config`.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use sphincs::pki::chain::parse_certificates;

use crate::error::CliError;
use crate::files::read::{read_capped, Cap};
use crate::git::config::{absolute, config_set, config_unset_all, scopes};
use crate::git::setup_openpgp;
use crate::git::trust;
use crate::git::{fingerprint, load_certificate, subject, user_config_file};
use crate::keys::load;
use crate::keys::token;
use crate::keys::token_uri::is_token_uri;

#[derive(Subcommand)]
pub enum GitCommand {
    /// Configure git to sign commits and tags with KEY and its certificate
    /// (`git commit -S`, `git tag -s`) and to verify them (`git
    /// verify-commit`, `git log --show-signature`), trusting the signers
    /// whose certificates chain to a --trust certificate.
    Setup {
        /// Use git's default format, OpenPGP (RFC 9580 v6 signatures with
        /// RFC 9980 SLH-DSA): KEY is an OpenPGP secret key (`sphincs sop
        /// generate-key`) and each --trust an OpenPGP certificate whose
        /// signatures verify as trusted (added to those already trusted).
        /// Without --key: a clone that only verifies.
        #[arg(long, conflicts_with_all = ["cert", "chain"])]
        openpgp: bool,
        /// The private key (pure SLH-DSA, PEM or DER; may be encrypted: its
        /// passphrase is then read from the file SPHINCS_PASSPHRASE_FILE
        /// names, or asked on the terminal). With --openpgp, an OpenPGP
        /// secret key. Without --key and --cert, --trust alone sets up a
        /// clone that only verifies.
        #[arg(
            short = 'k',
            long = "key",
            value_name = "KEY",
            required_unless_present_any = ["openpgp", "trust"]
        )]
        key: Option<PathBuf>,
        /// The key's certificate (PEM or DER), embedded in each signature.
        #[arg(long, value_name = "CERT", required_unless_present_any = ["openpgp", "trust"])]
        cert: Option<PathBuf>,
        /// Intermediate CA certificates (PEM bundle or DER) embedded too.
        #[arg(long, value_name = "FILE")]
        chain: Option<PathBuf>,
        /// A certificate (or PEM bundle) whose signers are trusted: a
        /// signature whose certificate chains to it verifies as fully
        /// trusted (repeatable; added to those already trusted: see `git
        /// trust`; without any, every signer is untrusted).
        #[arg(long, value_name = "CERT")]
        trust: Vec<PathBuf>,
        /// Configure the user (git's --global configuration, and
        /// $XDG_CONFIG_HOME/sphincs/git.config) instead of the repository.
        #[arg(long)]
        global: bool,
    },
    /// The certificates whose signers git trusts (sphincs.trust; with
    /// --openpgp, sphincs.openpgpTrust): list, add or remove them without
    /// touching the signing set-up.
    Trust {
        #[command(subcommand)]
        action: trust::TrustAction,
    },
}

pub fn run(command: GitCommand) -> Result<(), CliError> {
    match command {
        GitCommand::Setup {
            openpgp: true,
            key,
            trust,
            global,
            ..
        } => setup_openpgp::setup(key.as_deref(), &trust, global),
        GitCommand::Setup {
            key: Some(key),
            cert: Some(cert),
            chain,
            trust,
            global,
            ..
        } => setup(&key, &cert, chain.as_deref(), &trust, global),
        GitCommand::Setup {
            key: None,
            cert: None,
            trust,
            global,
            ..
        } if !trust.is_empty() => verify_only(&trust, global),
        GitCommand::Setup { .. } => Err(CliError::Failed(
            "--key and --cert are required to sign (or --trust CERT alone for a clone that only verifies, or --openpgp)".into(),
        )),
        GitCommand::Trust { action } => trust::run(action),
    }
}

/// The program's own absolute path, for `gpg.x509.program`.
fn program_path() -> Result<String, CliError> {
    let program = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| CliError::Failed(format!("cannot find this program's path: {e}")))?;
    program
        .to_str()
        .map(str::to_string)
        .ok_or_else(|| CliError::Failed("this program's path is not UTF-8".into()))
}

/// `setup --trust CERT…` without a key: git verifies X.509 signatures with
/// this program, trusting CERT… (added to those already trusted); nothing
/// about signing is set or changed.
fn verify_only(trust: &[PathBuf], global: bool) -> Result<(), CliError> {
    let added = trust::add(trust, false, global)?;
    let (git_scope, _) = scopes(global)?;
    let program = program_path()?;
    config_set(&git_scope, "gpg.format", "x509")?;
    config_set(&git_scope, "gpg.x509.program", &program)?;
    let out = format!(
        "git verifies X.509 signatures with {program} (no signing key configured)\n{added}  check commits with `git verify-commit`, `git log --show-signature` or `git merge --verify-signatures`\n"
    );
    crate::say::status(&out)
}

fn setup(
    key: &Path,
    cert_path: &Path,
    chain: Option<&Path>,
    trust: &[PathBuf],
    global: bool,
) -> Result<(), CliError> {
    // A key in a PKCS#11 token is kept as its URI.
    let in_token = is_token_uri(key);
    let key = if in_token {
        key.to_path_buf()
    } else {
        absolute(key)?
    };
    let cert_path = absolute(cert_path)?;
    let cert = load_certificate(&cert_path)?;
    let chain = chain.map(absolute).transpose()?;
    if let Some(c) = &chain {
        parse_certificates(&read_capped(c, Cap::Certificate)?).map_err(|e| CliError::file(c, e))?;
    }
    for t in trust {
        trust::read_anchor(&absolute(t)?, false)?;
    }
    let (public, encrypted) = if in_token {
        (Some(token::public_of(&key)?), false)
    } else {
        let key_bytes = zeroize::Zeroizing::new(read_capped(&key, Cap::Key)?);
        // A public key or a certificate has the certificate's key too, but
        // signs nothing (`load_verifying_key` below reads those as well).
        if !load::is_private_key(&key_bytes) {
            return Err(CliError::file(
                &key,
                "is not a private key; --key needs the signing key (a public key or certificate signs nothing)",
            ));
        }
        let encrypted = load::is_encrypted(&key_bytes);
        let public = (!encrypted)
            .then(|| load::load_verifying_key(&key, None))
            .transpose()?;
        (public, encrypted)
    };
    if let Some(public) = public {
        let of_cert =
            sphincs::pki::cert::subject_key(&cert).map_err(|e| CliError::file(&cert_path, e))?;
        if public.to_spki_der()? != of_cert.to_spki_der()? {
            return Err(CliError::Failed(format!(
                "{} is not the key of the certificate {}",
                key.display(),
                cert_path.display()
            )));
        }
    }
    let program = program_path()?;
    let fpr = fingerprint(&cert)?;
    let text = |p: &Path| -> Result<String, CliError> {
        p.to_str()
            .map(str::to_string)
            .ok_or_else(|| CliError::file(p, "the path is not UTF-8"))
    };

    let (git_scope, store) = scopes(global)?;
    let set = config_set;
    let unset_all = config_unset_all;
    set(&git_scope, "gpg.format", "x509")?;
    set(&git_scope, "gpg.x509.program", &program)?;
    set(&git_scope, "user.signingkey", &fpr)?;
    set(&store, "sphincs.key", &text(&key)?)?;
    set(&store, "sphincs.cert", &text(&cert_path)?)?;
    unset_all(&store, "sphincs.chain")?;
    if let Some(c) = &chain {
        set(&store, "sphincs.chain", &text(c)?)?;
    }
    // Trust is added to, never replaced: re-running set-up with a new CA
    // keeps the older anchors, so older commits stay G (`git trust remove`
    // takes one away).
    let added = trust::add(trust, false, global)?;

    let mut out = format!(
        "git signs with {} as \"{}\" (certificate {}, SHA-256 {fpr})\n",
        key.display(),
        subject(&cert),
        cert_path.display()
    );
    out +=
        &format!(
        "  {} configuration: gpg.format=x509, gpg.x509.program={program}, user.signingkey={fpr}\n",
        if global { "user's git" } else { "repository's git" }
    );
    if global {
        if let Some(f) = user_config_file() {
            out += &format!(
                "  sphincs.key, sphincs.cert, sphincs.chain, sphincs.trust: {}\n",
                f.display()
            );
        }
    }
    out += &added;
    if encrypted {
        out += "  the key is encrypted: its passphrase is read from the file SPHINCS_PASSPHRASE_FILE names, or asked on the terminal (and the key's pairing with the certificate is checked at the first signature)\n";
    }
    out += "  sign with `git commit -S` and `git tag -s` (or set commit.gpgSign=true)\n";
    crate::say::status(&out)
}
