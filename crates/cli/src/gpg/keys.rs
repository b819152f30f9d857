//! `sphincs gpg`'s key commands: `--import`, `--export [--armor]`,
//! `--list-keys` / `--list-secret-keys` (people's layout, or
//! `--with-colons` as scripts parse it, gpg's DETAILS fields), and
//! `--dearmor` / `--enarmor` (dpkg runs `gpg --dearmor` on keyrings).

use std::path::Path;

use sphincs::openpgp::{self, armor, Cert};

use super::argv::Line;
use super::home::Home;
use super::status::Status;
use crate::error::CliError;
use crate::files::quote;
use crate::files::read;
use crate::git::openpgp_sign;

fn read_inputs(line: &Line) -> Result<Vec<u8>, CliError> {
    if line.operands.is_empty() || line.operands == ["-"] {
        return read::read_stdin(read::Cap::Keyring);
    }
    let mut all = Vec::new();
    for f in &line.operands {
        let bytes = read::read_capped(Path::new(f), read::Cap::Keyring)?;
        all.extend(armor::dearmor(&bytes).map_err(|e| CliError::file(Path::new(f), e))?);
    }
    Ok(all)
}

/// `--import [FILE…]`.
pub fn import(line: &Line, status: &mut Status) -> Result<(), CliError> {
    let bytes = read_inputs(line)?;
    let done = Home::locate(line)?.import(&bytes)?;
    let now = crate::git::now();
    for (c, what) in done
        .public
        .iter()
        .map(|c| (c, "public key"))
        .chain(done.secret.iter().map(|c| (c, "secret key")))
    {
        let uid = c.primary_user_id(now).unwrap_or_default();
        eprintln!(
            "gpg: key {}: {what} {} imported",
            c.fingerprint(),
            quote::user_id(&uid)
        );
        // IMPORT_OK 1: a new key (or one replaced); 17 with its secret.
        let flags = if c.is_secret() { 17 } else { 1 };
        status
            .raw(
                "IMPORT_OK",
                &format!("{flags} {}", c.fingerprint().to_hex()),
            )
            .map_err(|e| CliError::Failed(e.to_string()))?;
    }
    eprintln!(
        "gpg: Total number processed: {}",
        done.public.len() + done.secret.len()
    );
    Ok(())
}

/// The certificates `names` select (all when empty): by fingerprint, key
/// ID or User ID, as `-u` selects.
fn select(certs: Vec<Cert>, names: &[String]) -> Result<Vec<Cert>, CliError> {
    if names.is_empty() {
        return Ok(certs);
    }
    let mut out = Vec::new();
    for n in names {
        let found: Vec<&Cert> = certs
            .iter()
            .filter(|c| openpgp_sign::names(c, Path::new(""), n))
            .collect();
        if found.is_empty() {
            return Err(CliError::Failed(format!(
                "no key matches {}",
                quote::user_id(n)
            )));
        }
        out.extend(found.into_iter().cloned());
    }
    Ok(out)
}

/// `--export [--armor] [NAME…]`: certificates, never secrets.
pub fn export(line: &Line) -> Result<(), CliError> {
    let certs = select(Home::locate(line)?.all_certs()?, &line.operands)?;
    let mut bin = Vec::new();
    for c in &certs {
        bin.extend_from_slice(&c.to_bytes(false));
    }
    let out = if line.last_of("armor", "no-armor") {
        armor::encode(armor::Kind::PublicKey, &bin).into_bytes()
    } else {
        bin
    };
    write(line, &out, !line.last_of("armor", "no-armor"))
}

fn write(line: &Line, data: &[u8], binary: bool) -> Result<(), CliError> {
    match super::output_path(line) {
        None => crate::files::write::write_stdout(data, binary),
        Some(p) => crate::files::write::write_output(&p, data, false, line.has("yes")),
    }
}

/// When the certificate's primary key expires, if it does.
fn expiry(c: &Cert, now: u64) -> Option<u64> {
    let fpr = c.fingerprint();
    let keys = c.signing_keys(now).ok()?;
    keys.iter()
        .find(|i| i.key.fingerprint() == fpr)
        .and_then(|i| i.expires)
        .or_else(|| keys.iter().filter_map(|i| i.expires).max())
}

fn date(t: u64) -> String {
    crate::sop::date::format(t)[..10].to_string()
}

/// gpg's name of an SLH-DSA key in listings.
fn algo_name(id: u8) -> String {
    super::verify::assert_name(id)
}

/// `--list-keys` / `--list-secret-keys`.
pub fn list(line: &Line, secret: bool) -> Result<(), CliError> {
    let home = Home::locate(line)?;
    let certs = if secret {
        home.secret_keys()?.into_iter().map(|(_, c)| c).collect()
    } else {
        home.all_certs()?
    };
    let certs = select(certs, &line.operands)?;
    let now = crate::git::now();
    let colons = line.has("with-colons");
    let mut out = String::new();
    for c in &certs {
        let p = &c.primary.public;
        let expires = expiry(c, now).map(|t| t.to_string()).unwrap_or_default();
        let fpr = c.fingerprint().to_hex();
        let (pub_word, sub_word) = if secret {
            ("sec", "ssb")
        } else {
            ("pub", "sub")
        };
        if colons {
            out += &format!(
                "{pub_word}:u:{}:{}:{}:{}:{expires}::u:::scSC:\nfpr:::::::::{fpr}:\n",
                bits(p.algorithm),
                p.algorithm,
                &fpr[..16],
                p.created
            );
            for u in c.valid_user_ids(now) {
                out += &format!("uid:u::::{}::::{}:\n", p.created, colon_escape(&u));
            }
            for s in &c.subkeys {
                let k = &s.key.public;
                let f = k.fingerprint().to_hex();
                out += &format!(
                    "{sub_word}:u:{}:{}:{}:{}:::::s:\nfpr:::::::::{f}:\n",
                    bits(k.algorithm),
                    k.algorithm,
                    &f[..16],
                    k.created
                );
            }
        } else {
            let exp = expiry(c, now)
                .map(|t| format!(" [expires: {}]", date(t)))
                .unwrap_or_default();
            out += &format!(
                "{pub_word}   {} {} [SC]{exp}\n      {fpr}\n",
                algo_name(p.algorithm),
                date(u64::from(p.created))
            );
            for u in c.valid_user_ids(now) {
                out += &format!("uid           [ultimate] {}\n", quote::user_id(&u));
            }
            for s in &c.subkeys {
                let k = &s.key.public;
                out += &format!(
                    "{sub_word}   {} {} [S]\n      {}\n",
                    algo_name(k.algorithm),
                    date(u64::from(k.created)),
                    k.fingerprint().to_hex()
                );
            }
            out.push('\n');
        }
    }
    write(line, out.as_bytes(), false)
}

/// The security category's bits as gpg's key-length field (SLH-DSA has no
/// modulus; 128 or 256).
fn bits(algo: u8) -> u32 {
    if algo == 34 {
        256
    } else {
        128
    }
}

/// gpg's escaping in colon listings: `\xNN` for `:` and control bytes.
fn colon_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c == ':' || c == '\\' || (c as u32) < 0x20 {
            out += &format!("\\x{:02x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// `--dearmor` / `--enarmor` of FILE or standard input.
pub fn armor_command(line: &Line, enarmor: bool) -> Result<(), CliError> {
    let input = match line.operands.as_slice() {
        [] => read::read_stdin(read::Cap::ClearSigned)?,
        [f] => read::read_capped(Path::new(f), read::Cap::ClearSigned)?,
        _ => {
            return Err(CliError::Failed(
                "--dearmor and --enarmor take one file".into(),
            ))
        }
    };
    if enarmor {
        let kind = armor::Kind::of_packets(&input);
        return write(line, armor::encode(kind, &input).as_bytes(), false);
    }
    let bin =
        armor::dearmor(&input).map_err(|e| CliError::Failed(format!("cannot dearmor: {e}")))?;
    let _ = openpgp::packet::parse(&bin)
        .map_err(|e| CliError::Failed(format!("cannot dearmor: {e}")))?;
    write(line, &bin, true)
}

#[cfg(test)]
mod tests {
    #[test]
    fn colon_listing_escapes() {
        assert_eq!(super::colon_escape("a:b\nc"), "a\\x3ab\\x0ac");
    }
}
