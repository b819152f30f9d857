//! `sphincs cms sign|verify`: CMS SignedData with SLH-DSA (RFC 9814). The
//! work is `sphincs::pki::cms`; here the content is streamed from its file
//! into the digest and, when attached, into the output.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use clap::Subcommand;
use sphincs::pki::cert::parse_certificate;
use sphincs::pki::chain::parse_certificates;
use sphincs::pki::cms::{self, CmsSignOptions, CmsTrust, SignedDataParts};
use sphincs::{Error, MessageSource, PreHash};

use crate::error::CliError;
use crate::files::quote;
use crate::files::read::{read_capped, Cap, Message};
use crate::files::read_once;
use crate::files::write;
use crate::files::write::{check_writable, refuse_binary_terminal, stage_with, write_stdout};

#[derive(Subcommand)]
pub enum CmsCommand {
    /// Sign a file as CMS SignedData (DER unless --pem), with the signer's certificate inside.
    Sign {
        /// Private key (pure SLH-DSA: RFC 9814): PEM, DER, raw bytes (raw needs
        /// -a), or a `pkcs11:` URI of a key in a token (docs/pkcs11.md).
        #[arg(short = 'k', long = "key", value_name = "KEY")]
        key: PathBuf,
        /// The key's certificate (PEM or DER); it names the signer and is embedded.
        #[arg(long, value_name = "CERT")]
        cert: PathBuf,
        /// Intermediate CA certificates to embed too (PEM bundle or DER;
        /// repeatable), so that `cms verify --ca ROOT` can build the path.
        #[arg(long, value_name = "FILE")]
        chain: Vec<PathBuf>,
        /// Leave the content out of the SignedData.
        #[arg(long)]
        detached: bool,
        /// Write PEM ("CMS") instead of DER (the output is then built in memory).
        #[arg(long)]
        pem: bool,
        /// Message digest (default: RFC 9814's pairing, e.g. SHAKE-128 for
        /// SHAKE-128f); SHA2-256/384/512, SHA3-256/384/512 or SHAKE-128/256
        /// as strong as the set.
        #[arg(long, value_name = "HASH")]
        digest: Option<String>,
        /// Parameter set of a raw key.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
        /// The signingTime attribute to state (RFC 3339 date or date-time,
        /// e.g. 2026-01-31T12:00:00Z) instead of now: for reproducible
        /// signatures. It is the signer's claim; verifiers bound it by
        /// their own clock.
        #[arg(long, value_name = "TIME")]
        signing_time: Option<String>,
        /// The content; `-` or nothing for standard input.
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        /// Output file (default: standard output).
        #[arg(short = 'o', long = "out", value_name = "OUT")]
        out: Option<PathBuf>,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Verify a SignedData (DER, or BER as Bouncy Castle writes it). Trust
    /// is never implied: give --ca (the signer's certificate must chain to
    /// an anchor), --cert (the signer pinned), or --signature-only to check
    /// the signatures alone. Exit 0 if every signature checked verifies
    /// (and, with --ca, every signer's certificate chains to a trust
    /// anchor), 1 if one does not (a bad signature; with --ca also a chain
    /// certificate with a bad signature, out of its validity period, an
    /// issuer that is not a CA, a path length exceeded), 2 if one cannot be
    /// checked (no trust option, its certificate neither embedded nor given,
    /// the given certificate not the signer's, a signer key of another
    /// family; with --ca no chain to a given anchor) or the input is
    /// malformed. Each SignerInfo (at most 16) gets a line on standard
    /// output.
    Verify {
        /// The signer's certificate, trusted as given (pinned). With
        /// several signers, only the SignerInfos naming it are checked.
        #[arg(long, value_name = "CERT")]
        cert: Option<PathBuf>,
        /// Trust anchor certificate(s), PEM (a bundle of any number) or DER;
        /// repeatable. The signer's certificate must chain to one of them,
        /// through the certificates the SignedData carries.
        #[arg(long, value_name = "FILE")]
        ca: Vec<PathBuf>,
        /// Check the signatures alone, with the certificates the SignedData
        /// embeds: no trust in the signer is established (as OpenSSL's
        /// `cms -verify -noverify`).
        #[arg(long, conflicts_with_all = ["cert", "ca"])]
        signature_only: bool,
        /// The content of a detached SignedData.
        #[arg(long, value_name = "FILE")]
        content: Option<PathBuf>,
        /// The SignedData (PEM or DER).
        #[arg(value_name = "SIGNED")]
        signed: PathBuf,
    },
}

pub fn run(command: CmsCommand) -> Result<(), CliError> {
    match command {
        CmsCommand::Sign {
            key,
            cert,
            chain,
            detached,
            pem,
            digest,
            algorithm,
            signing_time,
            file,
            out,
            force,
        } => {
            let digest = digest
                .as_deref()
                .map(|d| d.parse::<PreHash>().map_err(CliError::from))
                .transpose()?;
            match &out {
                Some(o) => check_writable(o, force)?,
                None if !pem => refuse_binary_terminal()?,
                None => {}
            }
            let signer_cert = parse_certificate(&read_capped(&cert, Cap::Certificate)?)
                .map_err(|e| CliError::file(&cert, e))?;
            let mut intermediates = Vec::new();
            for p in &chain {
                intermediates.extend(
                    parse_certificates(&read_capped(p, Cap::SignedData)?)
                        .map_err(|e| CliError::file(p, e))?,
                );
            }
            let signer = super::fips205_signer(&key, algorithm.as_deref())?;
            // Detached, the content is read once (for its digest): standard
            // input or a pipe is then streamed, not held in memory.
            let mut once = if detached {
                read_once::OnePass::open(file.as_deref())?
            } else {
                None
            };
            let mut message = match once {
                Some(_) => None,
                None => Some(Message::open(file.as_deref())?),
            };
            let source: &mut dyn sphincs::MessageSource = match (&mut once, &mut message) {
                (Some(o), _) => o,
                (None, Some(m)) => m.source(),
                (None, None) => unreachable!("one of the two is open"),
            };
            let parts = cms::sign_with_chain(
                &*signer,
                &signer_cert,
                &intermediates,
                source,
                CmsSignOptions { digest, detached },
                match signing_time.as_deref() {
                    Some(t) => sphincs::pki::extensions::parse_time(t)?,
                    None => SystemTime::now(),
                },
            )?;
            write_signed(&parts, source, pem, out.as_deref(), force)
        }
        CmsCommand::Verify {
            cert,
            ca,
            signature_only,
            content,
            signed,
        } => {
            if ca.is_empty() && cert.is_none() && !signature_only {
                return Err(CliError::cannot_check(
                    &signed,
                    "no trust in the signer: give --ca ANCHORS (a chain to one is required) or --cert CERT (the signer pinned), or --signature-only to check the signatures alone",
                ));
            }
            let mut anchors = Vec::new();
            for p in &ca {
                anchors.extend(
                    parse_certificates(&read_capped(p, Cap::SignedData)?)
                        .map_err(|e| CliError::file(p, e))?,
                );
            }
            let sd = cms::parse_signed_data(&read_capped(&signed, Cap::SignedData)?)
                .map_err(|e| CliError::file(&signed, e))?;
            let signer = match &cert {
                Some(p) => Some(
                    parse_certificate(&read_capped(p, Cap::Certificate)?)
                        .map_err(|e| CliError::file(p, e))?,
                ),
                None => None,
            };
            let mut message = match &content {
                Some(p) => Some(Message::open(Some(p))?),
                None => None,
            };
            let trust = CmsTrust {
                anchors: &anchors,
                pinned: signer.as_ref(),
                signature_only,
            };
            let (attached, signers) = cms::verify_signers_trusted(
                &sd,
                &trust,
                message.as_mut().map(Message::source),
                SystemTime::now(),
            )
            .map_err(|e| match e {
                Error::VerificationFailed(msg) => {
                    CliError::InvalidSignature(format!("invalid: {}: {msg}", quote::name(&signed)))
                }
                Error::CannotCheck(msg) => CliError::cannot_check(&signed, &msg),
                e => CliError::file(&signed, e),
            })?;
            report(&signed, attached, &signers, signature_only)
        }
    }
}

/// A line per SignerInfo on standard output (a status line, which -q
/// silences), whatever its outcome, so that stdout never shows only "OK"
/// when one failed; exit 1 (invalid) if any checked one failed, 2 if one
/// could not be checked (malformed, unsupported, no chain).
fn report(
    signed: &Path,
    attached: bool,
    signers: &[cms::SignerCheck],
    signature_only: bool,
) -> Result<(), CliError> {
    let many = signers.len() > 1;
    let mut text = String::new();
    let mut invalid = None;
    let mut broken = None;
    for s in signers {
        let prefix = if many {
            format!("SignerInfo {}: ", s.index)
        } else {
            String::new()
        };
        let who = match (&s.signer, many) {
            (Some(n), _) => n.clone(),
            (None, true) => format!("SignerInfo {}", s.index),
            (None, false) => "the signer".into(),
        };
        match &s.result {
            _ if !s.checked => {
                text += &format!(
                    "  SignerInfo {}: not checked (not the given certificate)\n",
                    s.index
                )
            }
            Ok(()) => {
                let what = format!(
                    "signed by {who} ({}, {} content{})",
                    s.digest.map(|d| d.to_string()).unwrap_or_default(),
                    if attached { "attached" } else { "detached" },
                    s.signing_time
                        .as_ref()
                        .map(|t| format!(", signed at {t}"))
                        .unwrap_or_default()
                );
                text += &if s.ok() {
                    format!("CMS signature OK: {what}\n")
                } else {
                    format!("{prefix}CMS signature verifies, but its chain does not: {what}\n")
                };
                match &s.chain {
                    None => {}
                    Some(Ok(chain)) => {
                        text += &format!("  chain: OK to {}\n", chain.anchor);
                        for subject in &chain.path {
                            text += &format!("    {subject}\n");
                        }
                        text += &format!("    {} (trust anchor)\n", chain.anchor);
                    }
                    Some(Err(Error::CannotCheck(msg))) => {
                        text += &format!("  chain: cannot check: {msg}\n");
                        broken.get_or_insert(CliError::cannot_check(
                            signed,
                            &format!("{prefix}chain: {msg}"),
                        ));
                    }
                    Some(Err(Error::VerificationFailed(msg))) => {
                        text += &format!("  chain: invalid: {msg}\n");
                        invalid.get_or_insert(format!(
                            "invalid: {}: {prefix}chain: {msg}",
                            quote::name(&signed)
                        ));
                    }
                    Some(Err(e)) => {
                        text += &format!("  chain: cannot check: {e}\n");
                        broken.get_or_insert(CliError::file(signed, format!("{prefix}chain: {e}")));
                    }
                }
            }
            Err(Error::InvalidSignature) => {
                let msg = "the signature does not verify";
                text += &format!("{prefix}invalid: {msg}\n");
                invalid.get_or_insert(format!("invalid: {}: {prefix}{msg}", quote::name(&signed)));
            }
            Err(Error::VerificationFailed(msg)) => {
                text += &format!("{prefix}invalid: {msg}\n");
                invalid.get_or_insert(format!("invalid: {}: {prefix}{msg}", quote::name(&signed)));
            }
            Err(Error::CannotCheck(msg)) => {
                text += &format!("{prefix}cannot check: {msg}\n");
                broken.get_or_insert(CliError::cannot_check(signed, &format!("{prefix}{msg}")));
            }
            Err(e) => {
                text += &format!("{prefix}cannot check: {e}\n");
                broken.get_or_insert(CliError::file(signed, format!("{prefix}{e}")));
            }
        }
    }
    if invalid.is_none() && broken.is_none() {
        if signature_only {
            text += "  no trust in the signer was checked (--signature-only): the signature alone verifies\n";
        } else if signers.iter().all(|s| s.chain.is_none()) {
            text += "  signer trusted as given (--cert); no chain checked\n";
        }
    }
    // A single signer that failed says so on stderr alone; with several,
    // every one is reported on stdout too.
    if many || (invalid.is_none() && broken.is_none()) {
        crate::say::status(&text)?;
    }
    match (invalid, broken) {
        (Some(m), _) => Err(CliError::InvalidSignature(m)),
        (None, Some(e)) => Err(e),
        (None, None) => Ok(()),
    }
}

/// Writes `prefix ‖ content ‖ suffix` (the content only when attached),
/// streaming the content for DER; PEM is built in memory.
fn write_signed(
    parts: &SignedDataParts,
    content: &mut dyn MessageSource,
    pem: bool,
    out: Option<&Path>,
    force: bool,
) -> Result<(), CliError> {
    let mut failure: Option<Error> = None;
    let mut fill = |w: &mut dyn Write| -> io::Result<()> {
        w.write_all(&parts.prefix)?;
        if parts.content_len > 0 {
            let mut written = 0u64;
            let mut err = None;
            let fed = content.feed(&mut |b| {
                if err.is_none() {
                    written += b.len() as u64;
                    err = w.write_all(b).err();
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
            if let Err(e) = fed {
                failure = Some(e);
                return Err(io::Error::other("content"));
            }
            if written != parts.content_len {
                failure = Some(Error::Io(
                    "the content changed while it was being read".into(),
                ));
                return Err(io::Error::other("content"));
            }
        }
        w.write_all(&parts.suffix)
    };
    if pem {
        let mut der = Vec::new();
        fill(&mut der).map_err(|e| pick(&mut failure, e))?;
        let text = cms::encode(der, true)?;
        return match out {
            Some(o) => write::write_output(o, &text, false, force),
            None => write_stdout(&text, false),
        };
    }
    match out {
        Some(o) => match stage_with(o, false, true, &mut fill) {
            Ok(staged) => staged.commit(force),
            Err(e) => Err(failure.take().map(CliError::from).unwrap_or(e)),
        },
        None => {
            let stdout = io::stdout();
            let mut lock = io::BufWriter::new(stdout.lock());
            fill(&mut lock)
                .and_then(|()| lock.flush())
                .map_err(|e| pick(&mut failure, e))
        }
    }
}

fn pick(failure: &mut Option<Error>, e: io::Error) -> CliError {
    match failure.take() {
        Some(f) => f.into(),
        None => CliError::Failed(format!("cannot write the SignedData: {e}")),
    }
}
