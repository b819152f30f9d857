//! `sphincs` as git's signing program, in both of git's formats: X.509
//! (`gpg.x509.program`, CMS signatures) and OpenPGP (`gpg.program`,
//! RFC 9980 signatures). git runs it with gpg's arguments, `--status-fd=2
//! -bsau KEY` to sign and `--status-fd=1 --verify SIGFILE -` to verify, the
//! payload on standard input. This file recognises that argument shape
//! before the normal grammar is parsed, reads gpg's options, and finds the
//! key and certificate from git's configuration; `run.rs` runs the request
//! through `x509_sign.rs`/`x509_verify.rs` or
//! `openpgp_sign.rs`/`openpgp_verify.rs`, the status lines of both are written by
//! `gpg/status.rs`, and `sphincs git setup` is `setup.rs`.
//!
//! Configuration, read with `git config`: `sphincs.key`, `sphincs.cert`,
//! `sphincs.chain` and `sphincs.trust` (repeatable) in the repository's or
//! the user's git configuration, else in `$XDG_CONFIG_HOME/sphincs/git.config`
//! (`~/.config/sphincs/git.config`), which `sphincs git setup --global`
//! writes.

pub mod config;
pub mod openpgp_sign;
pub mod openpgp_verify;
pub mod run;
pub mod setup;
pub mod setup_openpgp;
pub mod trust;
pub mod x509_sign;
pub mod x509_verify;

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sphincs::pki::cert::parse_certificate;
use sphincs::pki::extensions::certificate_emails;
use sphincs::pki::Certificate;
use sphincs::PreHash;

use crate::error::CliError;
use crate::files::read::{read_capped, Cap};
use crate::gpg::argv;
use crate::gpg::status::escape;

/// The most payload bytes read from git (a commit or tag object): they are
/// held in memory to be digested, so they are bounded.
pub const MAX_PAYLOAD: u64 = 64 << 20;

/// The most bytes read from the signature file git writes.
pub const MAX_SIGNATURE_FILE: u64 = 4 << 20;

/// The PEM label git looks for in an X.509 signature.
pub const PEM_LABEL: &str = "SIGNED MESSAGE";

/// Environment variable naming a file whose first line is the passphrase of
/// an encrypted key (standard input is git's payload, so the passphrase
/// comes from here or from `/dev/tty`).
pub const PASSPHRASE_ENV: &str = "SPHINCS_PASSPHRASE_FILE";

/// What git asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Request {
    /// `-bsau KEY`: a detached signature of standard input.
    Sign { key: String },
    /// `--verify SIGFILE [DATA]`: DATA `-` or absent is standard input.
    Verify {
        signature: PathBuf,
        data: Option<PathBuf>,
    },
}

/// gpg's options as git (and people) pass them.
#[derive(Debug, PartialEq, Eq)]
pub struct GpgArgs {
    pub status_fd: Option<u32>,
    pub request: Request,
}

/// Whether the arguments (without the program name) are gpg's, as git
/// passes them: the first is a gpg option this grammar has no use for at
/// that place (`--status-fd`, `--verify`, `-bsau`, ...). The normal
/// grammar starts with a command or `-q`/`--passphrase-*`/`--help`.
pub fn is_gpg_shape(args: &[OsString]) -> bool {
    let Some(first) = args.first().and_then(|a| a.to_str()) else {
        return false;
    };
    const LONG: [&str; 7] = [
        "status-fd",
        "verify",
        "detach-sign",
        "sign",
        "armor",
        "local-user",
        "keyid-format",
    ];
    if let Some(long) = first.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        return LONG.contains(&name);
    }
    first
        .strip_prefix('-')
        .and_then(|s| s.chars().next())
        .is_some_and(|c| "bsau".contains(c))
}

/// Reads gpg's command line as git passes it (`gpg/argv.rs`, the one
/// reader): `-bsau KEY` or `--detach-sign --local-user KEY` to sign,
/// `--verify SIGFILE [DATA]` to verify, `--status-fd N`, `--armor` and
/// `--keyid-format` (no effect here). Any other option is refused.
pub fn parse(args: &[OsString]) -> Result<GpgArgs, String> {
    let line = argv::parse(args)?;
    const GIT: [&str; 7] = [
        "status-fd",
        "local-user",
        "keyid-format",
        "detach-sign",
        "sign",
        "armor",
        "verify",
    ];
    if let Some(bad) = line.refused(&GIT).first() {
        return Err(format!("option {bad} is not one git passes here"));
    }
    let status_fd = line
        .value("status-fd")
        .map(|v| argv::fd("status-fd", v))
        .transpose()?;
    let user = line.value("local-user").map(str::to_string);
    let files = &line.operands;
    let request = if line.has("verify") {
        if line.has("detach-sign") || line.has("sign") || user.is_some() {
            return Err("--verify cannot be combined with signing options".into());
        }
        match files.as_slice() {
            [sig] => Request::Verify {
                signature: sig.into(),
                data: None,
            },
            [sig, data] => Request::Verify {
                signature: sig.into(),
                data: (data != "-").then(|| data.into()),
            },
            _ => return Err("--verify takes SIGFILE and, optionally, DATA (or -)".into()),
        }
    } else {
        if !line.has("detach-sign") {
            return Err(
                "only detached signatures are made (-b / --detach-sign, as git passes -bsau KEY)"
                    .into(),
            );
        }
        if !files.is_empty() {
            return Err("signing reads standard input only; no file arguments".into());
        }
        let key = user.ok_or("-u KEY (--local-user) names the signing key")?;
        Request::Sign { key }
    };
    Ok(GpgArgs { status_fd, request })
}

/// Seconds since the epoch, now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The payload: standard input or `path`, at most [`MAX_PAYLOAD`] bytes.
pub fn read_payload(path: Option<&Path>) -> Result<Vec<u8>, CliError> {
    let mut out = Vec::new();
    let read = match path {
        None => std::io::stdin()
            .lock()
            .take(MAX_PAYLOAD + 1)
            .read_to_end(&mut out),
        Some(p) => std::fs::File::open(p)
            .and_then(|f| f.take(MAX_PAYLOAD + 1).read_to_end(&mut out))
            .map_err(|e| std::io::Error::other(format!("{}: {e}", p.display()))),
    };
    read.map_err(|e| CliError::Failed(format!("cannot read the payload: {e}")))?;
    if out.len() as u64 > MAX_PAYLOAD {
        return Err(CliError::Failed(format!(
            "the payload is larger than {} MiB",
            MAX_PAYLOAD >> 20
        )));
    }
    Ok(out)
}

/// The SHA-256 fingerprint of a certificate's DER, as uppercase hex (what
/// `openssl x509 -fingerprint -sha256` prints, without colons).
pub fn fingerprint(cert: &Certificate) -> Result<String, CliError> {
    let der = sphincs::pki::cert::encode_certificate(cert, false)?;
    let (md, len) = PreHash::Sha2_256.digest(&mut der.as_slice())?;
    Ok(md[..len].iter().map(|b| format!("{b:02X}")).collect())
}

/// The certificate's subject as terminal text (escaped).
pub fn subject(cert: &Certificate) -> String {
    escape(&subject_text(cert))
}

/// The certificate's subject as it is (RFC 4514), for the status lines,
/// whose writer escapes each value once.
pub fn subject_text(cert: &Certificate) -> String {
    cert.tbs_certificate().subject().to_string()
}

/// One setting, read with `git config`: the repository's and the user's
/// configuration first, then `sphincs/git.config` under the XDG
/// configuration directory. Empty when unset.
pub fn config_values(name: &str) -> Result<Vec<String>, CliError> {
    let found = git_config_get(None, name)?;
    if !found.is_empty() {
        return Ok(found);
    }
    match user_config_file() {
        Some(f) if f.is_file() => git_config_get(Some(&f), name),
        _ => Ok(Vec::new()),
    }
}

/// The single value of a setting (the last one, as git does).
pub fn config_value(name: &str) -> Result<Option<String>, CliError> {
    Ok(config_values(name)?.pop())
}

/// `$XDG_CONFIG_HOME/sphincs/git.config`, or `~/.config/sphincs/git.config`.
pub fn user_config_file() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".config"))
        })?;
    Some(base.join("sphincs").join("git.config"))
}

fn git_config_get(file: Option<&Path>, name: &str) -> Result<Vec<String>, CliError> {
    let mut cmd = Command::new("git");
    cmd.arg("config");
    if let Some(f) = file {
        cmd.arg("--file").arg(f);
    }
    cmd.args(["--type=path", "--get-all", name])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit());
    let out = cmd
        .output()
        .map_err(|e| CliError::Failed(format!("cannot run `git config`: {e}")))?;
    match out.status.code() {
        Some(0) => {}
        // 1: the setting is not there.
        Some(1) => return Ok(Vec::new()),
        _ => {
            return Err(CliError::Failed(format!(
                "`git config --get-all {name}` failed ({})",
                out.status
            )))
        }
    }
    let text = String::from_utf8(out.stdout)
        .map_err(|_| CliError::Failed(format!("the value of {name} is not UTF-8")))?;
    Ok(text.lines().map(str::to_string).collect())
}

/// The configured key file and certificate.
pub struct Pairing {
    pub key: PathBuf,
    pub cert: Certificate,
    pub cert_path: PathBuf,
}

/// Reads a certificate named by a setting.
pub fn load_certificate(path: &Path) -> Result<Certificate, CliError> {
    parse_certificate(&read_capped(path, Cap::Certificate)?).map_err(|e| CliError::file(path, e))
}

/// The key and certificate `key_id` (git's `user.signingkey`, or the
/// committer's `Name <email>` when it is unset) names: the configured
/// certificate's SHA-256 fingerprint (colons and case ignored), the key
/// file's path, or an e-mail address among the certificate's
/// subjectAltName entries.
pub fn resolve(key_id: &str) -> Result<Pairing, CliError> {
    let cert_path = config_value("sphincs.cert")?.map(PathBuf::from).ok_or_else(|| {
        CliError::Failed(
            "no certificate configured (sphincs.cert); run `sphincs git setup --key KEY --cert CERT`".into(),
        )
    })?;
    let cert = load_certificate(&cert_path)?;
    let configured_key = config_value("sphincs.key")?.map(PathBuf::from);
    let key_id = key_id.trim();
    let as_path = Path::new(key_id);
    if key_id.contains('/') || as_path.is_file() {
        if !as_path.is_file() {
            return Err(CliError::Failed(format!(
                "the signing key {key_id} is not a file"
            )));
        }
        return Ok(Pairing {
            key: as_path.to_path_buf(),
            cert,
            cert_path,
        });
    }
    let key = configured_key.ok_or_else(|| {
        CliError::Failed(
            "no key configured (sphincs.key); run `sphincs git setup --key KEY --cert CERT`".into(),
        )
    })?;
    // The configured pair, returned when `key_id` names its certificate.
    let pairing = Pairing {
        key,
        cert,
        cert_path,
    };
    let (cert, cert_path) = (&pairing.cert, &pairing.cert_path);
    if let Some(hex) = as_fingerprint(key_id) {
        let configured = fingerprint(cert)?;
        if hex == configured {
            return Ok(pairing);
        }
        return Err(CliError::Failed(format!(
            "the signing key {hex} is not the fingerprint of the configured certificate {} ({configured})",
            cert_path.display(),
        )));
    }
    // git passes "Name <email>" when user.signingkey is unset.
    let email = match (key_id.rfind('<'), key_id.rfind('>')) {
        (Some(a), Some(b)) if a < b => &key_id[a + 1..b],
        _ => key_id,
    };
    if email.contains('@') {
        let emails = certificate_emails(cert).map_err(|e| CliError::file(cert_path, e))?;
        if emails.iter().any(|e| e.eq_ignore_ascii_case(email)) {
            return Ok(pairing);
        }
        return Err(CliError::Failed(format!(
            "the configured certificate {} does not name {} in its subjectAltName ({})",
            cert_path.display(),
            escape(email),
            if emails.is_empty() {
                "it has no e-mail address".to_string()
            } else {
                emails.join(", ")
            }
        )));
    }
    Err(CliError::Failed(format!(
        "the signing key {:?} is neither a certificate fingerprint (SHA-256, 64 hex digits), a key file, nor an e-mail address",
        escape(key_id)
    )))
}

/// A SHA-256 fingerprint as uppercase hex without separators, if `text`
/// is one (with or without `0x`, colons, either case).
fn as_fingerprint(text: &str) -> Option<String> {
    let t = text.strip_prefix("0x").unwrap_or(text);
    let hex: String = t.chars().filter(|&c| c != ':').collect();
    (hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| hex.to_ascii_uppercase())
}

/// The message digest `sphincs.digest` asks for (default: RFC 9814's
/// pairing for the key's set).
pub fn configured_digest() -> Result<Option<PreHash>, CliError> {
    config_value("sphincs.digest")?
        .map(|d| {
            d.parse::<PreHash>()
                .map_err(|e| CliError::Failed(format!("sphincs.digest: {e}")))
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    fn sign_key(list: &[&str]) -> (Option<u32>, String) {
        match parse(&args(list)).unwrap() {
            GpgArgs {
                status_fd,
                request: Request::Sign { key },
            } => (status_fd, key),
            other => panic!("not a signing request: {other:?}"),
        }
    }

    #[test]
    fn git_sign_shapes() {
        let want = (Some(2), "KEY".to_string());
        assert_eq!(sign_key(&["--status-fd=2", "-bsau", "KEY"]), want);
        assert_eq!(
            sign_key(&["--status-fd", "2", "-b", "-s", "-a", "-u", "KEY"]),
            want
        );
        assert_eq!(
            sign_key(&[
                "--status-fd=2",
                "--detach-sign",
                "--armor",
                "--local-user=KEY"
            ]),
            want
        );
        assert_eq!(
            sign_key(&["--keyid-format=long", "--status-fd=2", "-bsauKEY"]),
            want
        );
        assert_eq!(
            sign_key(&[
                "--status-fd=2",
                "-bsa",
                "--local-user",
                "A U Thor <a@example.org>"
            ])
            .1,
            "A U Thor <a@example.org>"
        );
    }

    #[test]
    fn git_verify_shape() {
        let p = parse(&args(&["--status-fd=1", "--verify", "/tmp/sig", "-"])).unwrap();
        assert_eq!(p.status_fd, Some(1));
        assert_eq!(
            p.request,
            Request::Verify {
                signature: "/tmp/sig".into(),
                data: None
            }
        );
        let p = parse(&args(&["--keyid-format", "long", "--verify", "s", "d"])).unwrap();
        assert_eq!(
            p.request,
            Request::Verify {
                signature: "s".into(),
                data: Some("d".into())
            }
        );
    }

    #[test]
    fn refused_shapes() {
        for bad in [
            &["--status-fd=2", "-bsau"][..],
            &["--status-fd=x", "-bsau", "K"],
            &["-su", "K"],
            &["-bsxu", "K"],
            &["--verify"],
            &["--verify", "a", "b", "c"],
            &["--verify", "s", "-", "-u", "K"],
            &["--frobnicate", "-bsau", "K"],
            &["--armor=yes", "-bsau", "K"],
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn shape_is_told_from_the_normal_grammar() {
        for git in [
            &["--status-fd=2", "-bsau", "K"][..],
            &["--status-fd", "1", "--verify", "s", "-"],
            &["-bsau", "K"],
            &["--verify", "s", "-"],
            &["--local-user=K", "-bs"],
        ] {
            assert!(is_gpg_shape(&args(git)), "{git:?}");
        }
        for normal in [
            &["sign", "-k", "k"][..],
            &["-q", "verify"],
            &["--passphrase-file", "f", "cms"],
            &["--help"],
            &["-V"],
            &[],
        ] {
            assert!(!is_gpg_shape(&args(normal)), "{normal:?}");
        }
    }

    #[test]
    fn fingerprints_are_read_loosely() {
        let f = "ab".repeat(32);
        assert_eq!(as_fingerprint(&f), Some("AB".repeat(32)));
        let colons = vec!["AB"; 32].join(":");
        assert_eq!(as_fingerprint(&colons), Some("AB".repeat(32)));
        assert_eq!(as_fingerprint("abcd"), None);
    }
}
