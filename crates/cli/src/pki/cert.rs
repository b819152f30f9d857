//! `sphincs cert …`: X.509 certificates and PKCS#10 requests. The work is
//! `sphincs::pki::cert`; this file reads the files, writes the outputs
//! atomically and maps the outcomes to exit codes.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use clap::{Args, Subcommand};
use sphincs::any::{AnySigner, AnyVerifyingKey};
use sphincs::pki::cert::{self, CertOptions};
use sphincs::pki::extensions::{self, ExtensionOptions};
use sphincs::pki::Name;
use sphincs::Error;

use crate::error::CliError;
use crate::files::quote;
use crate::files::read::{read_capped, Cap};
use crate::files::write::{check_writable, refuse_binary_terminal, write_output, write_stdout};

#[derive(Subcommand)]
pub enum CertCommand {
    /// Make a self-signed certificate for a key (a signing key's, or with --ca a CA's).
    SelfSigned {
        #[command(flatten)]
        signer: SignerArgs,
        #[command(flatten)]
        profile: ProfileArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Make a PKCS#10 certification request, signed by the key.
    Request {
        #[command(flatten)]
        signer: SignerArgs,
        /// Ask for a CA certificate (basicConstraints cA); the issuer must
        /// still pass --ca for it to be granted.
        #[arg(long)]
        ca: bool,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Issue a certificate for a request, signed by a CA key and certificate.
    Issue {
        /// The CA's private key: a key file, or a `pkcs11:` URI of a key in a token.
        #[arg(long = "ca-key", value_name = "KEY")]
        ca_key: PathBuf,
        /// The CA's certificate (PEM or DER).
        #[arg(long = "ca-cert", value_name = "CERT")]
        ca_cert: PathBuf,
        /// The request (PEM or DER); its signature is checked first.
        #[arg(value_name = "CSR")]
        csr: PathBuf,
        /// Parameter set of a raw CA key.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
        /// Copy the subject alternative names, extended and plain key usage
        /// the request asks for (given --san/--eku/--key-usage take
        /// precedence). Without it they are not copied. A request asking
        /// for a CA certificate is refused unless --ca is given too.
        #[arg(long = "copy-extensions")]
        copy_extensions: bool,
        #[command(flatten)]
        ext: ExtArgs,
        #[command(flatten)]
        profile: ProfileArgs,
        #[command(flatten)]
        out: OutArgs,
    },
    /// Check a certificate (or a request's signature): exit 0 if it checks out,
    /// 1 if invalid (bad signature, expired, tampered), 2 if it cannot be
    /// checked (not self-signed and no --issuer, the wrong issuer, an issuer
    /// key of another algorithm family, an unreadable issuer) or is malformed.
    Verify {
        /// The certificate or request (PEM or DER).
        #[arg(value_name = "CERT")]
        cert: PathBuf,
        /// The issuer's certificate (default: the certificate must be self-signed).
        #[arg(long, value_name = "CERT")]
        issuer: Option<PathBuf>,
    },
    /// Describe a certificate (names, serial, validity, key, signature
    /// algorithm, extensions) or a certification request (subject, key, the
    /// extensions it asks for, whether its own signature verifies).
    Show {
        /// The certificate or request (PEM or DER).
        #[arg(value_name = "CERT")]
        cert: PathBuf,
    },
}

/// What `self-signed` and `request` both take: the signing key, the subject
/// and the extensions asked for.
#[derive(Args)]
pub struct SignerArgs {
    #[command(flatten)]
    key: KeyArgs,
    /// Subject name, RFC 4514 text, e.g. "CN=Release signing,O=Example"
    /// (of a self-signed certificate, the issuer's name too).
    #[arg(long, value_name = "NAME")]
    subject: String,
    #[command(flatten)]
    ext: ExtArgs,
}

#[derive(Args)]
pub struct KeyArgs {
    /// Private key: PEM, DER, raw bytes (raw needs -a), or a `pkcs11:` URI
    /// of a key in a token (docs/pkcs11.md). Its OID decides
    /// pure SLH-DSA or HashSLH-DSA signatures (RFC 9909).
    #[arg(short = 'k', long = "key", value_name = "KEY")]
    key: PathBuf,
    /// Parameter set of a raw key.
    #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
    algorithm: Option<String>,
}

impl SignerArgs {
    /// The subject's name and the opened key. The name and the output are
    /// checked first, so no passphrase is asked for a command that would
    /// fail anyway.
    fn open(&self, out: &OutArgs) -> Result<(Name, Box<dyn AnySigner>), CliError> {
        let name = cert::parse_name(&self.subject)?;
        out.check()?;
        Ok((name, self.key.open()?))
    }
}

impl KeyArgs {
    /// Opens the private key (asking for its passphrase if it has one), or
    /// the token's key a `pkcs11:` URI names.
    fn open(&self) -> Result<Box<dyn AnySigner>, CliError> {
        super::fips205_signer(&self.key, self.algorithm.as_deref())
    }
}

/// The extensions a certificate or request carries beyond the defaults.
#[derive(Args)]
pub struct ExtArgs {
    /// Subject alternative name: dns:NAME, email:ADDR or uri:URI (repeatable).
    #[arg(long, value_name = "KIND:VALUE")]
    san: Vec<String>,
    /// Extended key usage (repeatable or comma-separated): codeSigning,
    /// emailProtection, serverAuth, clientAuth, timeStamping. Default: none.
    #[arg(long, value_name = "PURPOSE")]
    eku: Vec<String>,
    /// Key usage (repeatable or comma-separated): digitalSignature,
    /// nonRepudiation (contentCommitment), keyCertSign, cRLSign. Default in
    /// a certificate: digitalSignature,nonRepudiation; with --ca
    /// digitalSignature,keyCertSign,cRLSign. A request asks for none unless given.
    #[arg(long = "key-usage", value_name = "USAGE")]
    key_usage: Vec<String>,
}

impl ExtArgs {
    fn options(&self) -> Result<ExtensionOptions, CliError> {
        let mut out = ExtensionOptions::default();
        for s in &self.san {
            out.san.push(extensions::parse_san(s)?);
        }
        for e in &self.eku {
            for p in extensions::parse_eku(e)? {
                if !out.eku.contains(&p) {
                    out.eku.push(p);
                }
            }
        }
        if !self.key_usage.is_empty() {
            let mut list = Vec::new();
            for k in &self.key_usage {
                for u in extensions::parse_key_usage(k)? {
                    if !list.contains(&u) {
                        list.push(u);
                    }
                }
            }
            out.key_usage = Some(list);
        }
        Ok(out)
    }
}

#[derive(Args)]
pub struct ProfileArgs {
    /// Days of validity from the not-before time.
    #[arg(long, value_name = "N", default_value_t = 365, value_parser = clap::value_parser!(u32).range(1..=36_500), conflicts_with = "not_after")]
    days: u32,
    /// Start of validity, RFC 3339 UTC date or date-time (2026-01-31 or
    /// 2026-01-31T12:00:00Z). Default: now.
    #[arg(long = "not-before", value_name = "TIME")]
    not_before: Option<String>,
    /// End of validity, RFC 3339 (instead of --days); must be after not-before.
    #[arg(long = "not-after", value_name = "TIME")]
    not_after: Option<String>,
    /// Serial number in hex: positive, at most 20 octets (RFC 5280).
    /// Default: 16 random octets.
    #[arg(long, value_name = "HEX")]
    serial: Option<String>,
    /// A CA certificate (basicConstraints cA, keyUsage keyCertSign and cRLSign).
    #[arg(long)]
    ca: bool,
    /// With --ca: how many intermediate CA certificates may follow this one
    /// (basicConstraints pathLenConstraint). Default: no limit.
    #[arg(long = "path-len", value_name = "N", requires = "ca")]
    path_len: Option<u8>,
}

#[derive(Args)]
pub struct OutArgs {
    /// Output file (default: standard output).
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write DER instead of PEM.
    #[arg(long)]
    der: bool,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

impl OutArgs {
    /// Refuses a bad destination before any work.
    fn check(&self) -> Result<(), CliError> {
        match &self.out {
            Some(o) => check_writable(o, self.force),
            None if self.der => refuse_binary_terminal(),
            None => Ok(()),
        }
    }

    fn write(&self, data: &[u8]) -> Result<(), CliError> {
        match &self.out {
            Some(o) => write_output(o, data, false, self.force),
            None => write_stdout(data, self.der),
        }
    }
}

pub fn run(command: CertCommand) -> Result<(), CliError> {
    match command {
        CertCommand::SelfSigned {
            signer,
            profile,
            out,
        } => {
            let opts = profile.options(signer.ext.options()?, false)?;
            let (name, sk) = signer.open(&out)?;
            let c = cert::self_signed(&*sk, &name, opts)?;
            out.write(&cert::encode_certificate(&c, !out.der)?)?;
            // As `sign` reports FILE.sig: the key, then what was written.
            match &out.out {
                Some(o) => crate::say::status(&format!(
                    "{}: self-signed certificate, {}\n",
                    quote::name(&signer.key.key),
                    quote::name(o)
                )),
                None => Ok(()),
            }
        }
        CertCommand::Request { signer, ca, out } => {
            let wanted = signer.ext.options()?;
            let (name, sk) = signer.open(&out)?;
            let csr = cert::request_with(&*sk, &name, &wanted, ca)?;
            out.write(&cert::encode_request(&csr, !out.der)?)
        }
        CertCommand::Issue {
            ca_key,
            ca_cert,
            csr,
            algorithm,
            copy_extensions,
            ext,
            profile,
            out,
        } => {
            let opts = profile.options(ext.options()?, copy_extensions)?;
            out.check()?;
            let ca = cert::parse_certificate(&read_capped(&ca_cert, Cap::Certificate)?)
                .map_err(|e| CliError::file(&ca_cert, e))?;
            let request = cert::parse_request(&read_capped(&csr, Cap::Certificate)?)
                .map_err(|e| CliError::file(&csr, e))?;
            if !copy_extensions && !crate::say::quiet() {
                if let Ok(asked) = extensions::requested_extensions(&request) {
                    if asked.ca || !asked.options.is_default() {
                        eprintln!(
                            "sphincs: note: {}: the request asks for extensions, not copied without --copy-extensions",
                            quote::name(&csr)
                        );
                    }
                }
            }
            let sk = super::fips205_signer(&ca_key, algorithm.as_deref())?;
            let c = cert::issue(&*sk, &ca, &request, opts).map_err(|e| match e {
                Error::InvalidSignature => {
                    CliError::file(&csr, "the request's signature does not verify")
                }
                e => CliError::from(e),
            })?;
            out.write(&cert::encode_certificate(&c, !out.der)?)
        }
        CertCommand::Verify { cert: path, issuer } => verify(&path, issuer.as_deref()),
        CertCommand::Show { cert: path } => {
            let bytes = read_capped(&path, Cap::Certificate)?;
            let (text, key) = if is_request(&bytes) {
                let csr = cert::parse_request(&bytes).map_err(|e| CliError::file(&path, e))?;
                (cert::describe_request(&csr), None)
            } else {
                let c = cert::parse_certificate(&bytes).map_err(|e| CliError::file(&path, e))?;
                (
                    cert::describe(&c),
                    cert::subject_key(&c).ok().map(AnyVerifyingKey::from),
                )
            };
            write_stdout(with_fingerprint(text, key).as_bytes(), false)
        }
    }
}

impl ProfileArgs {
    fn options(
        &self,
        extensions: ExtensionOptions,
        copy_extensions: bool,
    ) -> Result<CertOptions, CliError> {
        let time = |t: &Option<String>, flag: &str| -> Result<_, CliError> {
            t.as_deref()
                .map(|t| {
                    extensions::parse_time(t)
                        .map_err(|e| CliError::Failed(format!("--{flag}: {e}")))
                })
                .transpose()
        };
        Ok(CertOptions {
            days: self.days,
            ca: self.ca,
            path_len: self.path_len,
            not_before: time(&self.not_before, "not-before")?,
            not_after: time(&self.not_after, "not-after")?,
            serial: self
                .serial
                .as_deref()
                .map(extensions::parse_serial)
                .transpose()?,
            extensions,
            copy_extensions,
        })
    }
}

/// A certificate's description with a `Fingerprint:` line after its
/// `Public key:` line (the key's `sphincs fingerprint`), when the key is
/// one we read.
fn with_fingerprint(text: String, key: Option<AnyVerifyingKey>) -> String {
    let Some(fingerprint) = key.and_then(|k| k.fingerprint().ok()) else {
        return text;
    };
    let mut out = String::with_capacity(text.len() + 80);
    for line in text.lines() {
        out += line;
        out += "\n";
        if line.starts_with("Public key: ") {
            out += &format!("Fingerprint: {fingerprint}\n");
        }
    }
    out
}

/// A request is recognised by its PEM label, or as DER that reads as one.
fn is_request(bytes: &[u8]) -> bool {
    sphincs::encoding::pem_label(bytes) == Some(cert::REQUEST_LABEL)
        || (bytes.first() == Some(&0x30)
            && cert::parse_certificate(bytes).is_err()
            && cert::parse_request(bytes).is_ok())
}

fn verify(path: &Path, issuer: Option<&Path>) -> Result<(), CliError> {
    let bytes = read_capped(path, Cap::Certificate)?;
    if is_request(&bytes) {
        if issuer.is_some() {
            return Err(CliError::file(
                path,
                "is a certification request; --issuer applies to certificates",
            ));
        }
        let csr = cert::parse_request(&bytes).map_err(|e| CliError::file(path, e))?;
        return match cert::verify_request(&csr) {
            Ok(()) => write_stdout(
                format!(
                    "request OK: {}\n  signature verifies with the request's own key\n",
                    csr.info.subject
                )
                .as_bytes(),
                false,
            ),
            Err(e) => Err(outcome(path, e)),
        };
    }
    let c = cert::parse_certificate(&bytes).map_err(|e| CliError::file(path, e))?;
    // Without a readable issuer certificate nothing can be checked.
    let issuer_cert = match issuer {
        Some(p) => Some(
            read_capped(p, Cap::Certificate)
                .map_err(|e| CliError::cannot_check(path, &failed_text(e)))
                .and_then(|b| {
                    cert::parse_certificate(&b).map_err(|e| {
                        CliError::cannot_check(path, &format!("{}: {e}", quote::name(&p)))
                    })
                })?,
        ),
        None => None,
    };
    match cert::verify_certificate(&c, issuer_cert.as_ref(), SystemTime::now()) {
        Ok(check) => {
            let mut text = format!(
                "certificate OK: {}{}\n",
                check.subject,
                if check.self_signed {
                    " (self-signed)"
                } else {
                    ""
                }
            );
            for line in check.checked {
                text += &format!("  {line}\n");
            }
            text += "  not checked: revocation, paths beyond the given issuer, name constraints, policies\n";
            write_stdout(text.as_bytes(), false)
        }
        Err(e) => Err(outcome(path, e)),
    }
}

/// An invalid signature or a failed check is exit 1; a certificate that
/// cannot be checked (no or wrong issuer, an issuer key of another family)
/// and anything else exit 2.
fn outcome(path: &Path, e: Error) -> CliError {
    match e {
        Error::InvalidSignature => CliError::InvalidSignature(format!(
            "invalid: {}: the signature does not verify",
            quote::name(&path)
        )),
        Error::VerificationFailed(msg) => {
            CliError::InvalidSignature(format!("invalid: {}: {msg}", quote::name(&path)))
        }
        Error::CannotCheck(msg) => CliError::cannot_check(path, &msg),
        e => CliError::file(path, e),
    }
}

/// The one-line text of an error.
fn failed_text(e: CliError) -> String {
    match e {
        CliError::InvalidSignature(m) | CliError::Failed(m) => m,
    }
}
