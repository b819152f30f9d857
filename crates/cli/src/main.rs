//! `sphincs`: SLH-DSA (FIPS 205) and SPHINCS+ round-3.1 keys, signatures,
//! ACVP answers and NIST KAT files from the command line. This file holds the
//! dispatch and the exit codes; the argument grammar is `args.rs`, and each
//! command lives in its own module.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::files::quote;

use sphincs::any::AnyAlgorithm;
use sphincs::{Randomness, SignOptions};

// The command tree, a folder a subject: keygen, pubkey, list, fingerprint
// and `key` (keys/); sign and verify, one file or many (signing/); cert and
// cms (pki/); the OpenPGP verbs (openpgp/); git, gpg/gpgv, sop, agent; the
// files a command reads and writes and their passphrases (files/); acvp and
// kat (vectors/); bench (bench/).
mod agent;
mod args;
mod bench;
mod demo;
mod error;
mod files;
mod git;
mod gpg;
mod hex;
mod keys;
mod manual;
mod openpgp;
mod pki;
mod say;
mod signing;
mod sop;
mod vectors;

use args::{Cli, Command};
use error::CliError;

/// Counts heap bytes for `sphincs bench`'s peak-heap column (two relaxed
/// atomic operations per allocation; the other commands do not read it).
#[global_allocator]
static HEAP: sphincs::hash::backend::CountingAllocator = sphincs::hash::backend::CountingAllocator;

fn main() -> ExitCode {
    // git runs its X.509 signing program with gpg's arguments
    // (`--status-fd=2 -bsau KEY`, `--status-fd=1 --verify SIG -`): that
    // shape is told apart before the normal grammar is parsed.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // Every OpenPGP passphrase this command derives, together: at most
    // four of RFC 9580's first recommended Argon2 settings (2 GiB, one
    // pass), or about forty of the keys this tool makes -- however
    // many keys, subkeys and passphrases a hostile input makes it try.
    sphincs::openpgp::limit_passphrase_work(4 << 21);
    // Run as `gpgv`, `sphincs-gpgv`, `gpg` or `sphincs-gpg` (a link), or as
    // `sphincs gpgv …` / `sphincs gpg …`: gpg's command line (gpg/).
    if let Some(program) = std::env::args_os().next().as_deref().and_then(gpg::mode_of) {
        return gpg::main(program, &args);
    }
    match args.first().and_then(|a| a.to_str()) {
        Some("gpgv") => return gpg::main(gpg::system::Program::Gpgv, &args[1..]),
        Some("gpg") => return gpg::main(gpg::system::Program::Gpg, &args[1..]),
        _ => {}
    }
    if git::is_gpg_shape(&args) {
        return git::run::main(&args);
    }
    // `sphincs sop …`: the Stateless OpenPGP CLI, with its own exit codes
    // for usage errors too.
    if args.first().is_some_and(|a| a == "sop") {
        return sop::main(&args[1..]);
    }
    // The grammar of args.rs, with each subcommand's examples in its --help.
    let parsed = manual::command()
        .try_get_matches()
        .and_then(|mut m| <Cli as clap::FromArgMatches>::from_arg_matches_mut(&mut m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // Help and version go to stdout with status 0.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `sphincs` or `sphincs cert` alone: the help, on stderr, status 2.
            eprint!("{}", e.render());
            return ExitCode::from(2);
        }
        Err(e) => {
            // Usage errors: one line, like every other error, and status 2.
            eprintln!("sphincs: error: {}", usage_error_line(&e));
            return ExitCode::from(2);
        }
    };
    say::set_quiet(cli.quiet);
    files::passphrase::set_source(files::passphrase::Source {
        file: cli.passphrase_file,
        fd: cli.passphrase_fd,
        tty: false,
    });
    let result = run(cli.command);
    files::passphrase::forget();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::InvalidSignature(why)) => {
            eprintln!("sphincs: {why}");
            ExitCode::from(1)
        }
        Err(CliError::Failed(msg)) => {
            eprintln!("sphincs: error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::List => keys::keygen::list(),
        Command::Fingerprint { keys, algorithm } => {
            keys::fingerprint::run(&keys, algorithm.as_deref())
        }
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "sphincs", &mut out);
            files::write::write_stdout(&out, false)
        }
        Command::Man {
            dir: Some(dir),
            force,
        } => manual::write_all(&dir, force),
        Command::Man { dir: None, .. } => files::write::write_stdout(&manual::top_page()?, false),
        Command::Keygen {
            algorithm,
            out,
            public,
            der,
            force,
            threads,
            prehash,
            encrypt,
            openpgp,
            expires,
            revocation,
        } => {
            if openpgp.is_empty() {
                return keys::keygen::keygen(keys::keygen::KeygenArgs {
                    alg: &algorithm,
                    prehash: signing::single::parse_prehash(prehash.as_deref())?,
                    out: &out,
                    public: public.as_deref(),
                    der,
                    force,
                    threads: thread_count(threads),
                    encrypt,
                });
            }
            if der || prehash.is_some() {
                return Err(CliError::Failed(
                    "an OpenPGP key is armored and pure (RFC 9980): drop --der and --prehash"
                        .into(),
                ));
            }
            openpgp::life::keygen(openpgp::life::KeygenArgs {
                alg: &algorithm,
                user_ids: &openpgp,
                expires: expires.as_deref(),
                out: &out,
                public: public.as_deref(),
                revocation: revocation.as_deref(),
                encrypt,
                force,
            })
        }
        Command::Pubkey {
            key,
            out,
            der,
            algorithm,
            force,
        } => keys::keygen::pubkey(&key, out.as_deref(), der, algorithm.as_deref(), force),
        Command::Sign {
            key,
            context,
            deterministic,
            fault_hardened,
            prehash,
            out,
            force,
            algorithm,
            files,
            out_dir,
            threads,
        } => {
            if openpgp::verbs::is_openpgp_file(&key) {
                if deterministic
                    || fault_hardened
                    || prehash.is_some()
                    || algorithm.is_some()
                    || out_dir.is_some()
                    || !context.is_empty()
                {
                    return Err(CliError::Failed(
                        "an OpenPGP key signs as RFC 9980 says (hedged, pure, no context): drop --deterministic, --fault-hardened, --prehash, --context, -a and --out-dir".into(),
                    ));
                }
                return openpgp::verbs::sign(
                    &key,
                    &files,
                    out.as_deref(),
                    force,
                    thread_count(threads),
                );
            }
            let randomness = if deterministic {
                Randomness::Deterministic
            } else {
                Randomness::Hedged
            };
            let many = files.len() > 1 || out_dir.is_some();
            if many && out.is_some() {
                return Err(CliError::Failed(
                    "-o names one signature file; with several files each signature goes to FILE.sig (or --out-dir DIR)".into(),
                ));
            }
            let file = files.first().map(PathBuf::as_path);
            let (out, implied) = match many {
                true => (None, false),
                false => signature_output(out, file)?,
            };
            let context = context.bytes()?;
            // Errors in the order the options were read before: many files
            // -a first, one file --prehash first; the key last.
            let (alg, prehash) = if many {
                let alg = keys::load::parse_any(algorithm.as_deref())?;
                (alg, signing::single::parse_prehash(prehash.as_deref())?)
            } else {
                let prehash = signing::single::parse_prehash(prehash.as_deref())?;
                (keys::load::parse_any(algorithm.as_deref())?, prehash)
            };
            let opts = SignOptions {
                context: &context,
                prehash,
                randomness,
                threads: thread_count(threads),
                fault_hardened,
            };
            // What the named set's family lacks is refused before any key or
            // message is read.
            if let Some(alg) = alg {
                alg.check_sign_options(&opts)
                    .map_err(CliError::option_refused)?;
            }
            if many {
                if keys::token_uri::is_token_uri(&key) {
                    return Err(CliError::Failed(
                        "a key in a PKCS#11 token signs one file per run".into(),
                    ));
                }
                let signer = signing::batch::Signer {
                    key: keys::load::load_any_signing_key(&key, alg)?,
                    opts,
                };
                return signing::batch::sign(
                    &signer,
                    &files,
                    out_dir.as_deref(),
                    force,
                    opts.threads,
                );
            }
            let args = signing::single::SignArgs {
                opts,
                out: out.as_deref(),
                force,
                file,
            };
            signing::single::sign(args, || {
                agent::signing::signing_key(&key, || keys::load::load_any_signing_key(&key, alg))
            })?;
            said_signed(file, out.as_deref(), implied)
        }
        Command::Verify {
            public,
            fingerprint,
            signature,
            sig_dir,
            context,
            prehash,
            algorithm,
            files,
            threads,
            out,
            force,
        } => {
            if openpgp::verbs::is_openpgp_file(&public) {
                if prehash.is_some()
                    || algorithm.is_some()
                    || sig_dir.is_some()
                    || !context.is_empty()
                {
                    return Err(CliError::Failed(
                        "an OpenPGP certificate verifies RFC 9980 signatures: drop --prehash, --context, -a and --sig-dir".into(),
                    ));
                }
                return openpgp::verbs::verify(
                    &public,
                    fingerprint.as_deref(),
                    signature.as_deref(),
                    &files,
                    out.as_deref(),
                    force,
                );
            }
            if out.is_some() {
                return Err(CliError::Failed(
                    "-o writes the text of a cleartext-signed OpenPGP file; with this key the message file is the text".into(),
                ));
            }
            let ctx = context.bytes()?;
            let pin = keys::fingerprint::parse_pin(fingerprint.as_deref())?;
            // What the named set's family lacks is refused before any key is read.
            let refuse = |alg: Option<AnyAlgorithm>, prehash| match alg {
                Some(a) => a
                    .check_verify_options(&ctx, prehash)
                    .map_err(CliError::option_refused),
                None => Ok(()),
            };
            let Some(signature) = signature else {
                let alg = keys::load::parse_any(algorithm.as_deref())?;
                let prehash = signing::single::parse_prehash(prehash.as_deref())?;
                refuse(alg, prehash)?;
                let key = keys::load::load_any_verifying_key(&public, alg)?;
                keys::fingerprint::check_pin(&public, &key, pin.as_deref())?;
                let checker = signing::batch::Checker {
                    key,
                    context: &ctx,
                    prehash,
                };
                return verify_files(&checker, &files, sig_dir.as_deref(), threads);
            };
            if files.len() > 1 {
                return Err(CliError::Failed(
                    "-s names one signature; to verify several files leave it out and each FILE is checked against FILE.sig".into(),
                ));
            }
            let file = files.first().map(PathBuf::as_path);
            // Errors in the order the options were read before: --prehash, -a, the key.
            let prehash = signing::single::parse_prehash(prehash.as_deref())?;
            let alg = keys::load::parse_any(algorithm.as_deref())?;
            refuse(alg, prehash)?;
            let key = keys::load::load_any_verifying_key(&public, alg)?;
            keys::fingerprint::check_pin(&public, &key, pin.as_deref())?;
            signing::single::verify(&key, &signature, &ctx, prehash, file)
        }
        Command::Kat {
            algorithm,
            out,
            count,
            force,
            threads,
        } => vectors::kat::kat(
            vectors::kat::require(&algorithm)?,
            out.as_deref(),
            usize::from(count),
            force,
            thread_count(threads),
        ),
        Command::Demo { algorithm } => demo::run(algorithm.as_deref()),
        Command::Acvp { prompt, out, force } => vectors::acvp::run(&prompt, out.as_deref(), force),
        Command::Bench {
            algorithms,
            op,
            threads,
            backend,
            runs,
            json,
            stack,
            calls,
            batch,
        } => bench::run(bench::BenchArgs {
            algorithms,
            op,
            threads: thread_count(threads),
            backend,
            runs,
            json,
            stack,
            calls,
            batch: batch.map(|n| n as usize),
        }),
        Command::Cert(command) => pki::cert::run(command),
        Command::Cms(command) => pki::cms::run(command),
        Command::Key(command) => keys::key_command::run(command),
        Command::Pkcs11(command) => keys::token_command::run(command),
        Command::Git(command) => git::setup::run(command),
        Command::Agent(command) => agent::run(command),
        // Reached only through `manual`'s grammar (main() runs `sop` first).
        Command::Cosign {
            key,
            signature,
            file,
        } => gpg::cosign::run(&key, signature.as_deref(), &file),
        // Taken before the grammar (main): gpg's options are not clap's.
        Command::Gpgv { .. } | Command::Gpg { .. } => Err(CliError::Failed(
            "gpg's command line is read before this grammar".into(),
        )),
        Command::Sop(command) => sop::run(command).map_err(|e| CliError::Failed(e.message)),
        Command::BenchStackProbe {
            algorithm,
            op,
            kib,
            backend,
        } => bench::stack_probe(&algorithm, &op, kib, backend.as_deref()),
    }
}

/// Where one signature goes: `-o -` is standard output, `-o SIG` that file;
/// without `-o`, FILE.sig beside FILE, or standard output for standard input.
/// The flag says the name was implied (and is then printed).
fn signature_output(
    out: Option<PathBuf>,
    file: Option<&std::path::Path>,
) -> Result<(Option<PathBuf>, bool), CliError> {
    match (out, file) {
        (Some(o), _) if o.as_os_str() == "-" => Ok((None, false)),
        (Some(o), _) => Ok((Some(o), false)),
        (None, Some(f)) if f.as_os_str() != "-" => {
            Ok((Some(signing::batch::sig_path(f, None)?), true))
        }
        (None, _) => Ok((None, false)),
    }
}

/// After signing into an implied FILE.sig: the line many-file signing prints.
fn said_signed(
    file: Option<&std::path::Path>,
    out: Option<&std::path::Path>,
    implied: bool,
) -> Result<(), CliError> {
    match (file, out) {
        (Some(f), Some(o)) if implied => say::status(&format!(
            "{}: signed, {}\n",
            quote::name(&f),
            quote::name(&o)
        )),
        _ => Ok(()),
    }
}

/// `verify` without `-s`: each FILE against FILE.sig.
fn verify_files(
    checker: &signing::batch::Checker<'_>,
    files: &[PathBuf],
    sig_dir: Option<&std::path::Path>,
    threads: Option<u16>,
) -> Result<(), CliError> {
    if files.is_empty() {
        return Err(CliError::Failed(
            "-s SIG is required to verify standard input; given files, each is checked against FILE.sig".into(),
        ));
    }
    let (files, skipped) = signing::batch::split_signatures(files, sig_dir);
    signing::batch::say_skipped(&skipped);
    signing::batch::verify(checker, &files, sig_dir, thread_count(threads))
}

/// `--threads N`; nothing or 0 is every core the process may use (as
/// `threads=0` in Python and C).
fn thread_count(threads: Option<u16>) -> usize {
    sphincs::resolve_threads(threads.map_or(0, usize::from))
}

/// clap's message in one line, without its "error: " prefix: the first line
/// and, when it ends in a colon, the indented lines under it (the missing
/// arguments), then where to read more.
fn usage_error_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let mut line = first
        .strip_prefix("error: ")
        .unwrap_or(first)
        .trim_end()
        .to_string();
    if line.ends_with(':') {
        let items: Vec<&str> = lines
            .take_while(|l| l.starts_with(' '))
            .map(str::trim)
            .collect();
        line = format!("{} {}", line, items.join(", "));
    }
    // "Usage: sphincs cert issue [OPTIONS] ..." names the (sub)command.
    let command = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Usage: "))
        .map(|u| {
            u.split_whitespace()
                .take_while(|w| !w.starts_with(['[', '<', '-']))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "sphincs".into());
    format!("{line} (see `{command} --help`)")
}
