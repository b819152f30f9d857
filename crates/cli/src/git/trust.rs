//! `sphincs git trust list|add|remove`: the certificates whose signers git
//! trusts, managed one by one. X.509 anchors are `sphincs.trust`, OpenPGP
//! ones `sphincs.openpgpTrust` (both multi-valued: file paths). `add` tells
//! an OpenPGP certificate by its content; `list` and `remove` cover both
//! kinds unless --openpgp narrows them. `git setup` adds through here too,
//! so re-running it with a new CA keeps the old one.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use sphincs::openpgp;
use sphincs::pki::chain::parse_certificates;

use super::config::{absolute, config_add, config_get_all, git, scopes};
use crate::error::CliError;
use crate::files::quote;
use crate::files::read::{read_capped, Cap};
use crate::files::write;
use crate::openpgp::verbs;

#[derive(Subcommand)]
pub enum TrustAction {
    /// Print each trusted certificate file with the subjects (or OpenPGP
    /// User IDs) and fingerprints of the certificates in it: X.509 and
    /// OpenPGP anchors both.
    List {
        /// Only the OpenPGP anchors (sphincs.openpgpTrust).
        #[arg(long)]
        openpgp: bool,
        /// The user's settings ($XDG_CONFIG_HOME/sphincs/git.config).
        #[arg(long)]
        global: bool,
    },
    /// Trust the signers whose certificates chain to CERT (a certificate
    /// or PEM bundle), or who hold CERT (an OpenPGP certificate or keyring,
    /// told by its content), beside those already trusted. A file already
    /// trusted is not added twice.
    Add {
        /// Read CERT as OpenPGP whatever it looks like (sphincs.openpgpTrust).
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
        /// Only the OpenPGP anchors (sphincs.openpgpTrust).
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

/// One certificate of an anchor file: what people recognise it by (in
/// double quotes, escaped), and its fingerprint (X.509: SHA-256 of the
/// DER, hex; OpenPGP: v6).
pub struct Anchor {
    pub name: String,
    pub fingerprint: String,
}

/// The kinds of anchors a verb covers: OpenPGP only with --openpgp, else
/// both (X.509 first).
fn kinds(openpgp: bool) -> &'static [bool] {
    if openpgp {
        &[true]
    } else {
        &[false, true]
    }
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
                    name: quote::user_id(&c.primary_user_id(now).unwrap_or_default()),
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
                    name: format!("\"{}\"", super::subject(c)),
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
/// the scope, each to the setting of its kind (OpenPGP when `openpgp` or
/// when its content is); returns a line per certificate for the user.
pub fn add(paths: &[PathBuf], openpgp: bool, global: bool) -> Result<String, CliError> {
    let mut checked = Vec::new();
    for p in paths {
        let p = absolute(p)?;
        let pgp = openpgp || verbs::is_openpgp_file(&p);
        let anchors = read_anchor(&p, pgp)?;
        checked.push((text(&p)?, pgp, anchors));
    }
    let (_, store) = scopes(global)?;
    let mut out = String::new();
    for kind in kinds(false) {
        let mine: Vec<_> = checked.iter().filter(|(_, pgp, _)| pgp == kind).collect();
        if mine.is_empty() {
            continue;
        }
        let mut present = config_get_all(&store, setting(*kind))?;
        for (p, _, anchors) in mine {
            let again = present.contains(p);
            if !again {
                config_add(&store, setting(*kind), p)?;
                present.push(p.clone());
            }
            for a in anchors {
                out += &format!(
                    "  trusted{}: {} {} ({p})\n",
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
            setting(*kind)
        );
    }
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
    let mut out = String::new();
    let mut any = false;
    for &kind in kinds(openpgp) {
        let files = config_get_all(&store, setting(kind))?;
        any |= !files.is_empty();
        for f in &files {
            out += &format!("{f}{}\n", if kind { " (OpenPGP)" } else { "" });
            match read_anchor(Path::new(f), kind) {
                Ok(anchors) => {
                    for a in anchors {
                        out += &format!("  {} {}\n", a.name, a.fingerprint);
                    }
                }
                Err(e) => out += &format!("  unreadable: {}\n", e.into_message()),
            }
        }
    }
    if !any {
        let names: Vec<&str> = kinds(openpgp).iter().map(|&k| setting(k)).collect();
        out += &format!(
            "no trusted certificates ({} unset): every signer verifies as untrusted (%G? = U)\n",
            names.join(" and ")
        );
    }
    write::write_stdout(out.as_bytes(), false)
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
        .strip_prefix(verbs::FPR_PREFIX)
        .unwrap_or(which)
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
    let mut files = Vec::new();
    for &kind in kinds(openpgp) {
        files.extend(
            config_get_all(&store, setting(kind))?
                .into_iter()
                .map(|f| (kind, f)),
        );
    }
    let mut gone = Vec::new();
    for w in which {
        let matched: Vec<&(bool, String)> = files.iter().filter(|(k, f)| names(w, f, *k)).collect();
        if matched.is_empty() {
            let names: Vec<&str> = kinds(openpgp).iter().map(|&k| setting(k)).collect();
            return Err(CliError::Failed(format!(
                "{}: not a trusted certificate file or fingerprint of {} (see `sphincs git trust list`); nothing removed",
                quote::text(w),
                names.join(" or ")
            )));
        }
        gone.extend(matched.into_iter().cloned());
    }
    gone.sort();
    gone.dedup();
    let mut out = String::new();
    for (kind, f) in &gone {
        let mut args: Vec<&str> = vec!["config"];
        args.extend(store.iter().map(String::as_str));
        args.extend(["--fixed-value", "--unset-all", setting(*kind), f]);
        git(&args).map_err(CliError::from)?;
        out += &format!("  no longer trusted: {f}\n");
    }
    out += &format!(
        "  {} trusted certificate file(s) left\n",
        files.len() - gone.len(),
    );
    crate::say::status(&out)
}
