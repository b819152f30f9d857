//! Verification over Sequoia's streaming verifiers: `verify` (detached
//! signatures) and `inline-verify` (inline-signed and cleartext-signed).

use std::io::Read;
use std::time::UNIX_EPOCH;

use sequoia_openpgp as openpgp;

use openpgp::parse::stream::{
    DetachedVerifierBuilder, MessageLayer, MessageStructure, VerificationHelper, VerifierBuilder,
};
use openpgp::parse::Parse;
use openpgp::types::SignatureType;
use openpgp::{Cert, KeyHandle};

use crate::date::{format_utc, now, parse_date};
use crate::keys::{load_certs, policy};
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

/// Hands Sequoia the certificates and collects a VERIFICATIONS line for each
/// good signature in the time window.
struct Helper {
    certs: Vec<Cert>,
    window: Window,
    lines: String,
}

impl VerificationHelper for Helper {
    fn get_certs(&mut self, _ids: &[KeyHandle]) -> openpgp::Result<Vec<Cert>> {
        Ok(self.certs.clone())
    }

    fn check(&mut self, structure: MessageStructure) -> openpgp::Result<()> {
        for layer in structure {
            let MessageLayer::SignatureGroup { results } = layer else {
                continue;
            };
            for result in results {
                let good = match result {
                    Ok(good) => good,
                    Err(e) => {
                        eprintln!("{e}");
                        continue;
                    }
                };
                let created = good
                    .sig
                    .signature_creation_time()
                    .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_secs() as i64);
                if !self.window.contains(created) {
                    eprintln!("signature outside the accepted time window");
                    continue;
                }
                let mode = match good.sig.typ() {
                    SignatureType::Text => "text",
                    _ => "binary",
                };
                self.lines.push_str(&format!(
                    "{} {} {} mode:{mode} sequoia-peer\n",
                    format_utc(created),
                    good.ka.key().fingerprint().to_hex(),
                    good.ka.cert().fingerprint().to_hex(),
                ));
            }
        }
        // Bad signatures are not an error here: the caller counts good ones.
        Ok(())
    }
}

fn helper(args: &Args, skip: usize) -> SopResult<Helper> {
    let window = Window::from_args(args)?;
    let paths = &args.positional[skip.min(args.positional.len())..];
    if paths.is_empty() {
        return Err(SopError::new(crate::sop::MISSING_ARG, "missing CERTS"));
    }
    Ok(Helper {
        certs: load_certs(paths)?,
        window,
        lines: String::new(),
    })
}

pub fn verify(args: &Args) -> SopResult<()> {
    let sig_path = args.at_least_one("SIGNATURES")?[0].clone();
    let helper = helper(args, 1)?;
    let sig = read_file(&sig_path)?;
    let data = read_stdin()?;
    let p = policy();
    let mut verifier = DetachedVerifierBuilder::from_bytes(&sig)
        .and_then(|b| b.with_policy(&p, None, helper))
        .map_err(bad_data(&sig_path))?;
    verifier.verify_bytes(&data).map_err(bad_data("data"))?;
    let lines = verifier.into_helper().lines;
    if lines.is_empty() {
        return Err(SopError::new(crate::sop::NO_SIGNATURE, "no good signature"));
    }
    write_stdout(lines.as_bytes())
}

pub fn inline_verify(args: &Args) -> SopResult<()> {
    let helper = helper(args, 0)?;
    let input = read_stdin()?;
    let p = policy();
    let mut verifier = VerifierBuilder::from_bytes(&input)
        .and_then(|b| b.with_policy(&p, None, helper))
        .map_err(bad_data("message"))?;
    let mut data = Vec::new();
    verifier
        .read_to_end(&mut data)
        .map_err(bad_data("message"))?;
    let lines = verifier.into_helper().lines;
    if let Some(path) = args.value("--verifications-out") {
        std::fs::write(path, &lines).map_err(|e| SopError::other(format!("{path}: {e}")))?;
    }
    if lines.is_empty() {
        return Err(SopError::new(crate::sop::NO_SIGNATURE, "no good signature"));
    }
    write_stdout(&data)
}
