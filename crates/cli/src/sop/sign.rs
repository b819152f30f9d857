//! `sop sign` (detached; the data streamed through the hash) and
//! `sop inline-sign` (binary, text or clearsigned).

use sphincs::openpgp::{self, armor, cleartext, DetachedSigner, Mode, UnlockedKey};

use super::inputs::{self, MAX_BUFFERED, MAX_OBJECT};
use super::{Exit, InlineAs, Result, SopError};
use crate::keys::token::TokenKey;
use crate::keys::token_openpgp;
use crate::keys::token_uri::{is_token_uri, shown};
use crate::openpgp::verbs;

/// The signing keys of the KEYS files, unlocked with the passwords.
fn unlock(keys: &[String], passwords: &[String]) -> Result<Vec<UnlockedKey>> {
    let passwords = inputs::passwords(passwords)?;
    let passwords: Vec<&[u8]> = passwords.iter().map(|p| &p[..]).collect();
    let now = super::now();
    let mut out = Vec::new();
    for spec in keys {
        let path = std::path::Path::new(spec);
        if is_token_uri(path) {
            // A key in a PKCS#11 token: its certificate is kept beside it.
            let cannot = |e: crate::error::CliError| {
                SopError::new(
                    Exit::KeyCannotSign,
                    format!("{}: {}", shown(path), e.into_message()),
                )
            };
            // SOP is stateless: the token's own session, never the agent's.
            let cert = verbs::secret_key(path).map_err(cannot)?;
            let key = TokenKey::open(path).map_err(cannot)?;
            out.push(token_openpgp::as_openpgp(&cert, Box::new(key)).map_err(cannot)?);
            continue;
        }
        let data = inputs::read_indirect(spec, MAX_OBJECT)?;
        let certs = openpgp::read_certs(&data)
            .map_err(|e| SopError::new(Exit::BadData, format!("{spec}: {e}")))?;
        for cert in &certs {
            if !cert.is_secret() {
                return Err(SopError::new(
                    Exit::BadData,
                    format!("{spec}: a certificate, not a secret key"),
                ));
            }
            let key = openpgp::unlock_signing_key(cert, &passwords, now).map_err(|e| {
                let mut e = SopError::from(e);
                e.message = format!("{spec}: {}", e.message);
                e
            })?;
            out.push(key);
        }
    }
    Ok(out)
}

fn micalg(keys: &[UnlockedKey]) -> String {
    let mut names: Vec<String> = keys
        .iter()
        .map(|k| {
            format!(
                "pgp-{}",
                openpgp::signing_hash(k.public.algorithm)
                    .name()
                    .to_lowercase()
            )
        })
        .collect();
    names.dedup();
    // RFC 3156: one micalg; several keys with different hashes have none.
    if names.len() == 1 {
        names.remove(0)
    } else {
        String::new()
    }
}

pub fn detached(
    armored: bool,
    text: bool,
    micalg_out: Option<&str>,
    passwords: &[String],
    keys: &[String],
) -> Result<()> {
    if let Some(out) = micalg_out {
        inputs::check_output(out)?;
    }
    let keys = unlock(keys, passwords)?;
    let micalg = micalg(&keys);
    let mode = if text { Mode::Text } else { Mode::Binary };
    let mut signer = DetachedSigner::new(keys, mode, super::now() as u32)?;
    let mut utf8 = Utf8Check::default();
    inputs::stream_stdin(|chunk| {
        if text {
            utf8.feed(chunk);
        }
        signer.update(chunk);
    })?;
    if text && !utf8.finish() {
        return Err(SopError::new(
            Exit::ExpectedText,
            "--as=text: the input is not UTF-8 text",
        ));
    }
    let sigs = signer.finish(super::threads())?;
    let bytes = openpgp::signatures_to_bytes(&sigs);
    if let Some(out) = micalg_out {
        inputs::write_indirect(out, micalg.as_bytes())?;
    }
    if armored {
        inputs::write_stdout(armor::encode(armor::Kind::Signature, &bytes).as_bytes())
    } else {
        inputs::write_stdout(&bytes)
    }
}

pub fn inline(armored: bool, as_: InlineAs, passwords: &[String], keys: &[String]) -> Result<()> {
    if matches!(as_, InlineAs::Clearsigned) && !armored {
        return Err(SopError::new(
            Exit::IncompatibleOptions,
            "--as=clearsigned is text: it cannot be --no-armor",
        ));
    }
    let keys = unlock(keys, passwords)?;
    let data = inputs::read_stdin(MAX_BUFFERED)?;
    let is_text = !matches!(as_, InlineAs::Binary);
    if is_text && std::str::from_utf8(&data).is_err() {
        return Err(SopError::new(
            Exit::ExpectedText,
            "--as=text/clearsigned: the input is not UTF-8 text",
        ));
    }
    let now = super::now() as u32;
    match as_ {
        InlineAs::Clearsigned => {
            inputs::write_stdout(&cleartext::sign(keys, &data, now, super::threads())?)
        }
        _ => {
            let mode = if is_text { Mode::Text } else { Mode::Binary };
            let msg = openpgp::inline_sign(keys, &data, mode, now, super::threads())?;
            if armored {
                inputs::write_stdout(armor::encode(armor::Kind::Message, &msg).as_bytes())
            } else {
                inputs::write_stdout(&msg)
            }
        }
    }
}

/// Checks that streamed chunks are UTF-8, carrying a split character over.
#[derive(Default)]
struct Utf8Check {
    carry: Vec<u8>,
    bad: bool,
}

impl Utf8Check {
    fn feed(&mut self, chunk: &[u8]) {
        if self.bad {
            return;
        }
        self.carry.extend_from_slice(chunk);
        match std::str::from_utf8(&self.carry) {
            Ok(_) => self.carry.clear(),
            Err(e) if e.error_len().is_none() => {
                let keep = self.carry.split_off(e.valid_up_to());
                self.carry = keep;
            }
            Err(_) => self.bad = true,
        }
    }
    fn finish(self) -> bool {
        !self.bad && self.carry.is_empty()
    }
}
