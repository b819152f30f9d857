//! `sphincs git trust list|add|remove`: the certificates whose signers git
//! trusts, managed one by one. X.509 anchors are `sphincs.trust`, OpenPGP
//! ones `sphincs.openpgpTrust` (both multi-valued: file paths). `git setup`
//! adds through here too, so re-running it with a new CA keeps the old one.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use sphincs::openpgp;
use sphincs::pki::chain::parse_certificates;

use super::config::{absolute, config_add, config_get_all, git, scopes};
use crate::error::CliError;
use crate::io::{read_capped, Cap};

#[derive(Subcommand)]
pub enum TrustAction {
    /// Print each trusted certificate file with the subjects (or OpenPGP
    /// fingerprints) and SHA-256 fingerprints of the certificates in it.
    List {
        /// The OpenPGP anchors (sphincs.openpgpTrust).
        #[arg(long)]
        openpgp: bool,
        /// The user's settings ($XDG_CONFIG_HOME/sphincs/git.config).
        #[arg(long)]
        global: bool,
    },
    /// Trust the signers whose certificates chain to CERT (a certificate
    /// or PEM bundle; with --openpgp an OpenPGP certificate), beside those
    /// already trusted. A file already trusted is not added twice.
    Add {
        /// The OpenPGP anchors (sphincs.openpgpTrust).
        #[arg(long)]
        openpgp: bool,
        /// The user's settings ($XDG_CONFIG_HOME/sphincs/git.config).
        #[arg(long)]
        global: bool,
        #[arg(value_name = "CERT", required = true)]
        certs: Vec<PathBuf>,
    },
    /// Stop trusting a certificate file: by its path as `list` shows it, or
    /// by the SHA-256 (X.509) or OpenPGP fingerprint of a certificate in it.
    Remove {
        /// The OpenPGP anchors (sphincs.openpgpTrust).
        #[arg(long)]
        openpgp: bool,
        /// The user's settings ($XDG_CONFIG_HOME/sphincs/git.config).
        #[arg(long)]
        global: bool,
        #[arg(value_name = "CERT|FINGERPRINT", required = true)]
        which: Vec<String>,
    },
}

/// The setting that lists the anchors of one format.
fn setting(openpgp: bool) -> &'static str {
    if openpgp {
        "sphincs.openpgpTrust"
    } else {
        "sphincs.trust"
    }
}

/// One certificate of an anchor file: what people recognise it by, and
/// its fingerprint (X.509: SHA-256 of the DER, hex; OpenPGP: v6).
pub struct Anchor {
    pub name: String,
    pub fingerprint: String,
}

/// Reads an anchor file, refusing one that holds no certificate of the
/// format: X.509 certificates (a PEM bundle or DER), or OpenPGP ones.
pub fn read_anchor(path: &Path, openpgp: bool) -> Result<Vec<Anchor>, CliError> {
    if openpgp {
        let certs = openpgp::read_certs(&read_capped(path, Cap::Keyring)?)
            .map_err(|e| CliError::file(path, e))?;
        let now = super::now();
        certs
            .iter()
            .map(|c| {
                c.primary_info(now).map_err(|e| CliError::file(path, e))?;
                Ok(Anchor {
                    name: c.valid_user_ids(now).into_iter().next().unwrap_or_default(),
                    fingerprint: c.fingerprint().to_hex(),
                })
            })
            .collect()
    } else {
        let certs = parse_certificates(&read_capped(path, Cap::Certificate)?)
            .map_err(|e| CliError::file(path, e))?;
        certs
            .iter()
            .map(|c| {
                Ok(Anchor {
                    name: super::subject(c),
                    fingerprint: super::fingerprint(c)?,
                })
            })
            .collect()
    }
}

fn text(p: &Path) -> Result<String, CliError> {
    p.to_str()
        .map(str::to_string)
        .ok_or_else(|| CliError::file(p, "the path is not UTF-8"))
}

/// Adds the anchor files `paths` (checked first, all or none) to those of
/// the scope; returns a line per certificate for the user.
pub fn add(paths: &[PathBuf], openpgp: bool, global: bool) -> Result<String, CliError> {
    let mut checked = Vec::new();
    for p in paths {
        let p = absolute(p)?;
        let anchors = read_anchor(&p, openpgp)?;
        checked.push((text(&p)?, anchors));
    }
    let (_, store) = scopes(global)?;
    let mut present = config_get_all(&store, setting(openpgp))?;
    let mut out = String::new();
    for (p, anchors) in checked {
        let again = present.contains(&p);
        if !again {
            config_add(&store, setting(openpgp), &p)?;
            present.push(p.clone());
        }
        for a in anchors {
            out += &format!(
                "  trusted{}: \"{}\" {} ({p})\n",
                if again { " already" } else { "" },
                a.name,
                a.fingerprint
            );
        }
    }
    out += &format!(
        "  {} trusted certificate file(s) in {} ({})\n",
        present.len(),
        if global {
            "the user's settings"
        } else {
            "this repository"
        },
        setting(openpgp)
    );
    Ok(out)
}

pub fn run(action: TrustAction) -> Result<(), CliError> {
    match action {
        TrustAction::List { openpgp, global } => list(openpgp, global),
        TrustAction::Add {
            openpgp,
            global,
            certs,
        } => crate::say::status(&add(&certs, openpgp, global)?),
        TrustAction::Remove {
            openpgp,
            global,
            which,
        } => remove(&which, openpgp, global),
    }
}

fn list(openpgp: bool, global: bool) -> Result<(), CliError> {
    let (_, store) = scopes(global)?;
    let files = config_get_all(&store, setting(openpgp))?;
    let mut out = String::new();
    if files.is_empty() {
        out += &format!(
            "no trusted certificates ({} is unset): every signer verifies as untrusted (%G? = U)\n",
            setting(openpgp)
        );
    }
    for f in &files {
        out += &format!("{f}\n");
        match read_anchor(Path::new(f), openpgp) {
            Ok(anchors) => {
                for a in anchors {
                    out += &format!("  \"{}\" {}\n", a.name, a.fingerprint);
                }
            }
            Err(e) => out += &format!("  unreadable: {}\n", e.into_message()),
        }
    }
    crate::io::write_stdout(out.as_bytes(), false)
}

/// Whether `which` names the anchor file `file`: its path (as configured,
/// or another path to the same file), or a fingerprint of a certificate in it.
fn names(which: &str, file: &str, openpgp: bool) -> bool {
    if which == file {
        return true;
    }
    let same_file = absolute(Path::new(which))
        .ok()
        .is_some_and(|p| p.to_str() == Some(file));
    if same_file {
        return true;
    }
    let wanted: String = which
        .chars()
        .filter(|c| c.is_ascii_hexdigit())
        .collect::<String>()
        .to_ascii_uppercase();
    wanted.len() >= 40
        && read_anchor(Path::new(file), openpgp).is_ok_and(|anchors| {
            anchors
                .iter()
                .any(|a| a.fingerprint.to_ascii_uppercase() == wanted)
        })
}

fn remove(which: &[String], openpgp: bool, global: bool) -> Result<(), CliError> {
    let (_, store) = scopes(global)?;
    let files = config_get_all(&store, setting(openpgp))?;
    let mut gone = Vec::new();
    for w in which {
        let matched: Vec<&String> = files.iter().filter(|f| names(w, f, openpgp)).collect();
        if matched.is_empty() {
            return Err(CliError::Failed(format!(
                "{w}: not a trusted certificate file or fingerprint of {} (see `sphincs git trust list{}`); nothing removed",
                setting(openpgp),
                if openpgp { " --openpgp" } else { "" }
            )));
        }
        gone.extend(matched.into_iter().cloned());
    }
    gone.sort();
    gone.dedup();
    let mut out = String::new();
    for f in &gone {
        let mut args: Vec<&str> = vec!["config"];
        args.extend(store.iter().map(String::as_str));
        args.extend(["--fixed-value", "--unset-all", setting(openpgp), f]);
        git(&args).map_err(CliError::from)?;
        out += &format!("  no longer trusted: {f}\n");
    }
    out += &format!(
        "  {} trusted certificate file(s) left ({})\n",
        files.len() - gone.len(),
        setting(openpgp)
    );
    crate::say::status(&out)
}
