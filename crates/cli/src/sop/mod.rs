//! `sphincs sop`: the Stateless OpenPGP command-line interface
//! (draft-dkg-openpgp-stateless-cli) over the core's `openpgp` module, for
//! every verb that signs and verifies. Each verb's module reads SOP's
//! inputs and writes its outputs; the exit codes are the draft's (§7,
//! "Failure Modes"), and verbs of encryption answer UNSUPPORTED_SUBCOMMAND.
//! This file: the grammar, the exit codes and the dispatch.

mod armor;
pub mod date;
mod inputs;
mod keys;
mod sign;
mod verify;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use sphincs::openpgp::{ErrorKind, PgpError};

/// SOP's failure modes (the draft's exit codes) that this implementation
/// can return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    NoSignature = 3,
    UnsupportedAsymmetricAlgo = 13,
    MissingArg = 19,
    PasswordNotHumanReadable = 31,
    UnsupportedOption = 37,
    BadData = 41,
    ExpectedText = 53,
    OutputExists = 59,
    MissingInput = 61,
    KeyIsProtected = 67,
    UnsupportedSubcommand = 69,
    UnsupportedSpecialPrefix = 71,
    AmbiguousInput = 73,
    KeyCannotSign = 79,
    IncompatibleOptions = 83,
    UnsupportedProfile = 89,
    /// Anything else (an I/O error on standard output, randomness).
    Other = 1,
}

/// A failed verb: its exit code and one line for standard error.
#[derive(Debug)]
pub struct SopError {
    pub exit: Exit,
    pub message: String,
}

impl SopError {
    pub fn new(exit: Exit, message: impl Into<String>) -> Self {
        SopError {
            exit,
            message: message.into(),
        }
    }
}

impl From<PgpError> for SopError {
    fn from(e: PgpError) -> Self {
        let exit = match e.kind {
            ErrorKind::Malformed => Exit::BadData,
            ErrorKind::Unsupported => Exit::UnsupportedAsymmetricAlgo,
            ErrorKind::BadSignature => Exit::NoSignature,
            ErrorKind::KeyIsProtected | ErrorKind::WrongPassphrase => Exit::KeyIsProtected,
            ErrorKind::KeyCannotSign => Exit::KeyCannotSign,
            ErrorKind::ExpectedText => Exit::ExpectedText,
            ErrorKind::Other => Exit::Other,
        };
        SopError::new(exit, e.message)
    }
}

type Result<T> = std::result::Result<T, SopError>;

/// The grammar of `sphincs sop` (as a command of its own, so that its usage
/// errors get SOP's exit codes).
#[derive(Parser)]
#[command(
    name = "sphincs sop",
    about = "The Stateless OpenPGP command-line interface (draft-dkg-openpgp-stateless-cli) for SLH-DSA (RFC 9980): keys, signatures, verification",
    after_help = "Exit status as the SOP draft says: 0 success, 3 no acceptable signature, 19 missing argument, 37 unsupported option, 41 bad data, 53 expected text, 59 output exists, 61 missing input, 67 key is protected, 69 unsupported subcommand (encryption), 79 key cannot sign, 89 unsupported profile."
)]
pub struct SopCli {
    #[command(subcommand)]
    pub command: SopCommand,
}

/// `--as` of `sign`.
#[derive(Clone, Copy, ValueEnum)]
pub enum SignAs {
    Binary,
    Text,
}

/// `--as` of `inline-sign`.
#[derive(Clone, Copy, ValueEnum)]
pub enum InlineAs {
    Binary,
    Text,
    Clearsigned,
}

#[derive(Subcommand)]
pub enum SopCommand {
    /// Print the implementation's name and version.
    Version {
        /// The OpenPGP library behind it.
        #[arg(long, group = "which")]
        backend: bool,
        /// Several lines of detail.
        #[arg(long, group = "which")]
        extended: bool,
        /// The SOP draft this implements.
        #[arg(long, group = "which")]
        sop_spec: bool,
        /// The sopv subset's version (verification only).
        #[arg(long, group = "which")]
        sopv: bool,
    },
    /// List the profiles of a subcommand (generate-key: the three SLH-DSA sets).
    ListProfiles {
        /// The subcommand whose profiles to list.
        subcommand: String,
    },
    /// Make a v6 SLH-DSA secret key (signing only: there is no encryption here).
    GenerateKey {
        #[arg(long)]
        no_armor: bool,
        /// Protect the key with the password in this file (or @ENV:VAR, @FD:N).
        #[arg(long, value_name = "PASSWORD")]
        with_key_password: Option<String>,
        /// slh-dsa-shake-128s (the default), slh-dsa-shake-128f or slh-dsa-shake-256s.
        #[arg(long)]
        profile: Option<String>,
        /// Make a key that only signs (every key here does).
        #[arg(long)]
        signing_only: bool,
        /// User IDs, e.g. "Alice <alice@example.org>".
        userids: Vec<String>,
    },
    /// Set, change or remove a secret key's password (standard input to standard output).
    ChangeKeyPassword {
        #[arg(long)]
        no_armor: bool,
        /// The new password (a file, @ENV:VAR or @FD:N); none removes the protection.
        #[arg(long, value_name = "PASSWORD")]
        new_key_password: Option<String>,
        /// A password to unlock the key with (may be given several times).
        #[arg(long, value_name = "PASSWORD")]
        old_key_password: Vec<String>,
    },
    /// Revoke the secret keys on standard input: print each one's
    /// certificate with a key revocation (no reason stated: a hard
    /// revocation, so nothing the key signed verifies any more).
    RevokeKey {
        #[arg(long)]
        no_armor: bool,
        /// A password to unlock the keys with (may be given several times).
        #[arg(long, value_name = "PASSWORD")]
        with_key_password: Vec<String>,
    },
    /// Print the certificate (public key) of a secret key from standard input.
    ExtractCert {
        #[arg(long)]
        no_armor: bool,
    },
    /// Make detached signatures of standard input.
    Sign {
        #[arg(long)]
        no_armor: bool,
        /// binary (the default) or text (type 0x01: line endings do not matter).
        #[arg(long = "as", value_enum, default_value = "binary")]
        as_: SignAs,
        /// Write the signatures' hash as a PGP/MIME micalg value here.
        #[arg(long, value_name = "MICALG")]
        micalg_out: Option<String>,
        /// Password of a protected key (may be given several times).
        #[arg(long, value_name = "PASSWORD")]
        with_key_password: Vec<String>,
        /// Secret key files.
        #[arg(required = true)]
        keys: Vec<String>,
    },
    /// Check detached signatures over standard input; prints VERIFICATIONS.
    Verify {
        /// Earliest signature time accepted (ISO 8601, or - for any).
        #[arg(long, value_name = "DATE")]
        not_before: Option<String>,
        /// Latest signature time accepted (ISO 8601, now (the default), or - for any).
        #[arg(long, value_name = "DATE")]
        not_after: Option<String>,
        /// The signatures.
        signatures: String,
        /// Certificates that may have made them.
        #[arg(required = true)]
        certs: Vec<String>,
    },
    /// Make a signed message of standard input (binary, text or clearsigned).
    InlineSign {
        #[arg(long)]
        no_armor: bool,
        #[arg(long = "as", value_enum, default_value = "binary")]
        as_: InlineAs,
        #[arg(long, value_name = "PASSWORD")]
        with_key_password: Vec<String>,
        #[arg(required = true)]
        keys: Vec<String>,
    },
    /// Check a signed message on standard input; prints its data.
    InlineVerify {
        #[arg(long, value_name = "DATE")]
        not_before: Option<String>,
        #[arg(long, value_name = "DATE")]
        not_after: Option<String>,
        /// Where to write the VERIFICATIONS lines.
        #[arg(long, value_name = "VERIFICATIONS")]
        verifications_out: Option<String>,
        #[arg(required = true)]
        certs: Vec<String>,
    },
    /// Split a signed message into its data (standard output) and signatures.
    InlineDetach {
        #[arg(long)]
        no_armor: bool,
        #[arg(long, value_name = "SIGNATURES", required = true)]
        signatures_out: String,
    },
    /// Armor OpenPGP data from standard input.
    Armor,
    /// Remove the armor of OpenPGP data from standard input.
    Dearmor,
}

/// SOP's name for a clap error, as an exit code.
fn usage_exit(e: &clap::Error) -> Exit {
    use clap::error::ErrorKind as K;
    match e.kind() {
        K::InvalidSubcommand => Exit::UnsupportedSubcommand,
        K::MissingRequiredArgument
        | K::MissingSubcommand
        | K::DisplayHelpOnMissingArgumentOrSubcommand => Exit::MissingArg,
        K::ArgumentConflict => Exit::IncompatibleOptions,
        _ => Exit::UnsupportedOption,
    }
}

/// Runs `sphincs sop ARGS…` (the arguments after `sop`).
pub fn main(args: &[OsString]) -> ExitCode {
    let argv = std::iter::once(OsString::from("sphincs sop")).chain(args.iter().cloned());
    let cli = match SopCli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let exit = usage_exit(&e);
            let text = e.render().to_string();
            eprintln!(
                "sphincs sop: {}",
                text.lines()
                    .next()
                    .unwrap_or("usage error")
                    .trim_start_matches("error: ")
            );
            return ExitCode::from(exit as u8);
        }
    };
    finish(run(cli.command))
}

/// The exit status of a verb's result, its error said on standard error.
pub fn finish(result: Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sphincs sop: {}", e.message);
            ExitCode::from(e.exit as u8)
        }
    }
}

/// Runs one verb.
pub fn run(command: SopCommand) -> Result<()> {
    match command {
        SopCommand::Version {
            backend,
            extended,
            sop_spec,
            sopv,
        } => keys::version(backend, extended, sop_spec, sopv),
        SopCommand::ListProfiles { subcommand } => keys::list_profiles(&subcommand),
        SopCommand::GenerateKey {
            no_armor,
            with_key_password,
            profile,
            signing_only: _,
            userids,
        } => keys::generate(
            !no_armor,
            with_key_password.as_deref(),
            profile.as_deref(),
            &userids,
        ),
        SopCommand::ChangeKeyPassword {
            no_armor,
            new_key_password,
            old_key_password,
        } => keys::change_password(!no_armor, new_key_password.as_deref(), &old_key_password),
        SopCommand::ExtractCert { no_armor } => keys::extract_cert(!no_armor),
        SopCommand::RevokeKey {
            no_armor,
            with_key_password,
        } => keys::revoke(!no_armor, &with_key_password),
        SopCommand::Sign {
            no_armor,
            as_,
            micalg_out,
            with_key_password,
            keys,
        } => sign::detached(
            !no_armor,
            matches!(as_, SignAs::Text),
            micalg_out.as_deref(),
            &with_key_password,
            &keys,
        ),
        SopCommand::Verify {
            not_before,
            not_after,
            signatures,
            certs,
        } => verify::detached(
            not_before.as_deref(),
            not_after.as_deref(),
            &signatures,
            &certs,
        ),
        SopCommand::InlineSign {
            no_armor,
            as_,
            with_key_password,
            keys,
        } => sign::inline(!no_armor, as_, &with_key_password, &keys),
        SopCommand::InlineVerify {
            not_before,
            not_after,
            verifications_out,
            certs,
        } => verify::inline(
            not_before.as_deref(),
            not_after.as_deref(),
            verifications_out.as_deref(),
            &certs,
        ),
        SopCommand::InlineDetach {
            no_armor,
            signatures_out,
        } => verify::detach(!no_armor, &signatures_out),
        SopCommand::Armor => armor::armor(),
        SopCommand::Dearmor => armor::dearmor(),
    }
}

/// Threads for one signature: `SPHINCS_THREADS` (a count; 0 or unset:
/// every core this process may use).
pub fn threads() -> usize {
    let n = std::env::var("SPHINCS_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    sphincs::resolve_threads(n)
}

/// Seconds since the epoch now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}
