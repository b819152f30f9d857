//! `sphincs` where pipelines call `gpg` and `gpgv`: `sphincs gpgv ARGS…`
//! (also run as `sphincs-gpgv` or `gpgv`: the program picks its mode from
//! its name) for apt, dpkg-source and dscverify, and `sphincs gpg ARGS…`
//! (`sphincs-gpg`, `gpg`) for debsign, rpm's `%__gpg`, maven's
//! `gpg.executable` and release scripts.
//!
//! One reader of gpg's command line (`argv.rs`, git's mode reads it too),
//! one writer of status lines (`status.rs`), one way each verdict is said
//! (`verdict.rs`). `verify.rs` checks SLH-DSA signatures and hands the
//! others to the system's GnuPG (`system.rs`); `sign.rs` makes signatures
//! with keys from the home directory (`home.rs`), `keys.rs` imports,
//! exports and lists them.

pub mod argv;
pub mod cosign;
pub mod home;
pub mod keys;
pub mod sign;
pub mod status;
pub mod system;
pub mod verdict;
pub mod verify;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::files::passphrase;

use argv::Line;
use status::Status;
use system::Program;

/// The options `sphincs gpgv` takes (GnuPG's gpgv has these; apt 2.6's
/// apt-key and apt 3 pass `--homedir`, `--keyring`, `--ignore-time-conflict`,
/// `--status-fd`, `--keyid`, `--assert-pubkey-algo`; dpkg passes
/// `--weak-digest` and `--output`).
const GPGV_OPTIONS: &[&str] = &[
    "keyring",
    "status-fd",
    "logger-fd",
    "homedir",
    "output",
    "ignore-time-conflict",
    "ignore-valid-from",
    "keyid",
    "assert-pubkey-algo",
    "weak-digest",
    "quiet",
    "verbose",
    "batch",
    "no-tty",
    "no-options",
    "no-default-keyring",
    "no-permission-warning",
    "no-greeting",
    "lock-never",
    "dump-options",
    "version",
    "help",
];

/// The mode a program name selects, if any: `gpgv`, `gpgv2` and
/// `sphincs-gpgv` verify; `gpg`, `gpg2` and `sphincs-gpg` sign and verify.
pub fn mode_of(argv0: &std::ffi::OsStr) -> Option<Program> {
    let name = std::path::Path::new(argv0).file_name()?.to_str()?;
    match name {
        "gpgv" | "gpgv2" | "sphincs-gpgv" => Some(Program::Gpgv),
        "gpg" | "gpg2" | "sphincs-gpg" => Some(Program::Gpg),
        _ => None,
    }
}

fn usage_error(program: Program, e: &str) -> ExitCode {
    eprintln!(
        "{}: error: {e} (`sphincs {} --help` lists what is supported)",
        program.name(),
        program.name()
    );
    ExitCode::from(2)
}

fn open_status(program: Program, line: &Line) -> Result<Status, ExitCode> {
    let fd = match line
        .value("status-fd")
        .map(|v| argv::fd("status-fd", v))
        .transpose()
    {
        Ok(fd) => fd,
        Err(e) => return Err(usage_error(program, &e)),
    };
    Status::open(fd).map_err(|e| {
        eprintln!(
            "{}: error: cannot open the status descriptor: {e}",
            program.name()
        );
        ExitCode::from(2)
    })
}

/// Runs in `program`'s mode with its arguments (without the program name).
pub fn main(program: Program, args: &[OsString]) -> ExitCode {
    let line = match argv::parse(args) {
        Ok(l) => l,
        Err(e) => return usage_error(program, &e),
    };
    match program {
        Program::Gpgv => gpgv(&line),
        Program::Gpg => gpg(&line),
    }
}

fn gpgv(line: &Line) -> ExitCode {
    let program = Program::Gpgv;
    if let Some(bad) = line.refused(GPGV_OPTIONS).first() {
        return usage_error(program, &format!("option {bad} is not one gpgv takes"));
    }
    if line.has("dump-options") {
        for o in GPGV_OPTIONS {
            println!("--{o}");
        }
        return ExitCode::SUCCESS;
    }
    if line.has("version") {
        version("gpgv");
        return ExitCode::SUCCESS;
    }
    if line.has("help") {
        println!("Usage: sphincs gpgv [--keyring FILE]... [--status-fd N] [--output FILE] SIGFILE [DATA...]\n\
                  Checks RFC 9980 SLH-DSA signatures; other signatures go to the system's gpgv (GnuPG).\n\
                  Options: --{}", GPGV_OPTIONS.join(" --"));
        return ExitCode::SUCCESS;
    }
    let mut status = match open_status(program, line) {
        Ok(s) => s,
        Err(c) => return c,
    };
    let code = verify::run(verify::Request {
        program,
        line,
        known: Vec::new(),
        status: &mut status,
    });
    ExitCode::from(code)
}

fn version(name: &str) {
    println!("sphincs-{name} (sphincs) {}", env!("CARGO_PKG_VERSION"));
    println!("RFC 9980 SLH-DSA (OpenPGP v6) with GnuPG's command line and status lines;");
    println!("other signatures are checked by the system's {name} (GnuPG).");
}

/// The commands of `sphincs gpg`, one per invocation.
const GPG_COMMANDS: &[&str] = &[
    "verify",
    "detach-sign",
    "sign",
    "clearsign",
    "clear-sign",
    "import",
    "export",
    "list-keys",
    "list-public-keys",
    "list-secret-keys",
    "version",
    "help",
    "dump-options",
    "dearmor",
    "enarmor",
];

/// Options `sphincs gpg` reads but that have no meaning here, refused with
/// the reason.
fn refused_in_gpg(line: &Line) -> Option<String> {
    if line.has("passphrase") {
        return Some("--passphrase puts the passphrase on the command line, where other users see it; use --passphrase-file FILE or --passphrase-fd N".into());
    }
    for (opt, why) in [
        (
            "keyid",
            "--keyid is gpgv's (apt 3); gpg --verify takes --keyring",
        ),
        (
            "assert-pubkey-algo",
            "--assert-pubkey-algo is taken by `sphincs gpgv`",
        ),
    ] {
        if line.has(opt) {
            return Some(why.into());
        }
    }
    None
}

fn gpg(line: &Line) -> ExitCode {
    let program = Program::Gpg;
    if let Some(why) = refused_in_gpg(line) {
        return usage_error(program, &why);
    }
    let commands: Vec<&str> = line
        .options
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| GPG_COMMANDS.contains(n))
        .collect();
    // -bs (or -s -b) is one command: a detached signature; --fingerprint
    // alone lists the keys, as gpg's does.
    let command = match commands.as_slice() {
        [] if line.has("fingerprint") => "list-keys",
        [] if !line.operands.is_empty() => "verify-or-what",
        [] => return usage_error(
            program,
            "no command given (e.g. --detach-sign, --clearsign, --verify, --import, --list-keys)",
        ),
        [one] => *one,
        many if many.iter().all(|c| matches!(*c, "sign" | "detach-sign")) => "detach-sign",
        many if many
            .iter()
            .all(|c| matches!(*c, "sign" | "clearsign" | "clear-sign")) =>
        {
            "clearsign"
        }
        many => {
            return usage_error(
                program,
                &format!("one command at a time, not --{}", many.join(" --")),
            );
        }
    };
    match command {
        "version" => {
            version("gpg");
            return ExitCode::SUCCESS;
        }
        "dump-options" => {
            for o in argv::OPTIONS {
                println!("--{}", o.long);
            }
            return ExitCode::SUCCESS;
        }
        "help" => {
            println!("Usage: sphincs gpg [OPTIONS] COMMAND [FILES]\n\
                      Commands: --detach-sign (-b), --clearsign, --sign (-s), --verify, --import, --export,\n\
                      --list-keys (-k), --list-secret-keys (-K), --dearmor, --enarmor, --version, --dump-options.\n\
                      Keys live in HOMEDIR/sphincs (--homedir, GNUPGHOME, ~/.gnupg); see docs/gpg.md.");
            return ExitCode::SUCCESS;
        }
        "verify-or-what" => {
            return usage_error(program, "files given but no command (gpg would guess; say --verify, --detach-sign or --clearsign)");
        }
        _ => {}
    }
    let mut status = match open_status(program, line) {
        Ok(s) => s,
        Err(c) => return c,
    };
    let result = match command {
        "verify" => {
            let known = match home::Home::locate(line).and_then(|h| h.all_certs()) {
                Ok(k) => k,
                Err(e) => return usage_error(program, &e.into_message()),
            };
            return ExitCode::from(verify::run(verify::Request {
                program,
                line,
                known,
                status: &mut status,
            }));
        }
        "detach-sign" | "sign" | "clearsign" | "clear-sign" => {
            sign::run(line, command, &mut status)
        }
        "import" => keys::import(line, &mut status),
        "export" => keys::export(line),
        "list-keys" | "list-public-keys" => keys::list(line, false),
        "list-secret-keys" => keys::list(line, true),
        "dearmor" | "enarmor" => keys::armor_command(line, command == "enarmor"),
        other => Err(crate::error::CliError::Failed(format!(
            "--{other} is not supported"
        ))),
    };
    passphrase::forget();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gpg: error: {}", e.into_message());
            ExitCode::from(2)
        }
    }
}

/// The output file an option or a default names (`None`: standard output).
pub fn output_path(line: &Line) -> Option<PathBuf> {
    line.value("output")
        .filter(|o| *o != "-")
        .map(PathBuf::from)
}
