//! `sphincs`: SLH-DSA (FIPS 205) and SPHINCS+ round-3.1 keys, signatures,
//! ACVP answers and NIST KAT files from the command line. This file holds the
//! argument grammar and the exit codes;
//! each command lives in its own module.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use sphincs::{Randomness, SignOptions};

mod acvp;
mod bench;
mod calls;
mod cert;
mod cmd_batch;
mod cmd_fingerprint;
mod cmd_key;
mod cmd_keys;
mod cmd_s256;
mod cmd_sign;
mod cmd_spx;
mod cms;
mod demo;
mod error;
mod hex;
mod io;
mod keyfile;
mod once;
mod passphrase;
mod rawkey;
mod say;
mod tree_file;

use error::CliError;

/// Counts heap bytes for `sphincs bench`'s peak-heap column (two relaxed
/// atomic operations per allocation; the other commands do not read it).
#[global_allocator]
static HEAP: sphincs::hash::backend::CountingAllocator = sphincs::hash::backend::CountingAllocator;

#[derive(Parser)]
#[command(
    name = "sphincs",
    version,
    about = "SLH-DSA (FIPS 205) stateless hash-based signatures, the pre-standard SPHINCS+ round 3.1 and SPHINCS-256 (2015), X.509 certificates and CMS",
    after_help = "Exit status: 0 success or valid signature, 1 invalid signature, 2 usage or input error.",
    arg_required_else_help = true
)]
struct Cli {
    /// Print no status lines ("valid signature", "FILE: signed, FILE.sig",
    /// keygen's fingerprint); errors and invalid signatures still go to
    /// standard error.
    #[arg(short = 'q', long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
    /// Read the passphrase of an encrypted private key (or for keygen
    /// --encrypt, key encrypt) from the first line of FILE.
    #[arg(long, global = true, value_name = "FILE")]
    passphrase_file: Option<PathBuf>,
    /// Read the passphrase from the open file descriptor N (first line).
    #[arg(
        long,
        global = true,
        value_name = "N",
        conflicts_with = "passphrase_file"
    )]
    passphrase_fd: Option<u32>,
}

#[derive(Subcommand)]
enum Command {
    /// List the parameter sets: the twelve FIPS 205 sets with their OIDs, the
    /// six limited-signature sets of draft SP 800-230 (ipd; raw keys, at most
    /// 2^24 signatures per key) and the 36 SPHINCS+ round-3.1 sets (raw keys only).
    List,
    /// Generate a key pair; prints the key's fingerprint (see `fingerprint`).
    Keygen {
        /// Parameter set, e.g. SLH-DSA-SHAKE-128f or sha2-256s, or a SPHINCS+
        /// round-3.1 set such as sphincs-shake-128f-simple, whose keys are raw
        /// bytes since no OID exists for them (see `sphincs list`).
        /// `sphincs-256` (SPHINCS, 2015): raw SUPERCOP keys too (no OID); --der, --context and --prehash are refused.
        /// The *-24 sets (e.g. sha2-128-24) are draft SP 800-230 (ipd): raw keys
        /// (no OID), a progress bar while the single 2^21-2^22-leaf tree is
        /// computed, its cache written to KEY.tree; a key must NEVER make more
        /// than 2^24 signatures.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: String,
        /// Where to write the private key (created with mode 0600).
        #[arg(short = 'o', long = "out", value_name = "KEY")]
        out: PathBuf,
        /// Also write the public key here.
        #[arg(long = "pub", value_name = "PUB")]
        public: Option<PathBuf>,
        /// Write DER instead of PEM.
        #[arg(long)]
        der: bool,
        /// Encrypt the private key with a passphrase (asked twice on the
        /// terminal, or --passphrase-file / --passphrase-fd): PKCS#8 PBES2,
        /// scrypt N=2^14 r=8 p=1 and AES-256-CBC.
        #[arg(long)]
        encrypt: bool,
        /// Replace existing files.
        #[arg(long)]
        force: bool,
        /// Threads to use (default or 0: all cores); the output is the same for any count.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16))]
        threads: Option<u16>,
        /// Write a HashSLH-DSA key (RFC 9909 OIDs .35-.46) bound to this
        /// pre-hash, which must be the set's own: SHA2-256 (SHA2-128s/f),
        /// SHA2-512 (other SHA2 sets), SHAKE-128 (SHAKE-128s/f), SHAKE-256
        /// (other SHAKE sets). `sign` and `verify` then use it.
        #[arg(long, value_name = "HASH")]
        prehash: Option<String>,
    },
    /// Print the fingerprint of each key: `SHA256:` and the hex SHA-256 of
    /// the SubjectPublicKeyInfo DER (FIPS 205 keys, whatever their file
    /// format) or of the raw public key (round-3.1 and SPHINCS-256 keys).
    /// A private key gives its public key's fingerprint.
    Fingerprint {
        /// Keys: PEM, DER, or raw bytes (raw needs -a).
        #[arg(value_name = "KEY", required = true)]
        keys: Vec<PathBuf>,
        /// Parameter set of raw keys (required for round-3.1 and SPHINCS-256 keys).
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
    },
    /// Write the public key of a private key (or re-encode a public key).
    Pubkey {
        /// Private or public key: PEM, DER, or raw bytes (raw needs -a).
        #[arg(value_name = "KEY")]
        key: PathBuf,
        /// Output file (default: standard output).
        #[arg(short = 'o', long = "out", value_name = "PUB")]
        out: Option<PathBuf>,
        /// Write DER instead of PEM.
        #[arg(long)]
        der: bool,
        /// Parameter set of a raw key (required for SPHINCS+ round-3.1 keys, which are always raw).
        /// `sphincs-256` (SPHINCS, 2015): raw SUPERCOP keys too (no OID); --der, --context and --prehash are refused.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Sign a file or standard input (the signature is raw bytes), or several
    /// files at once, each into FILE.sig.
    Sign {
        /// Private key: PEM, DER, or raw bytes (raw needs -a). A draft SP 800-230
        /// (ipd) key (-a *-24) signs from its tree cache KEY.tree; a missing,
        /// stale or damaged cache is reported and the tree recomputed.
        #[arg(short = 'k', long = "key", value_name = "KEY")]
        key: PathBuf,
        #[command(flatten)]
        context: ContextArgs,
        /// Deterministic signing (opt_rand = PK.seed) instead of hedged.
        #[arg(long)]
        deterministic: bool,
        /// Fault-attack countermeasure: compute the signature twice and
        /// release it only if both agree (about twice the signing time).
        #[arg(long)]
        fault_hardened: bool,
        /// HashSLH-DSA with this pre-hash, e.g. SHA2-512, SHAKE-256.
        #[arg(long, value_name = "HASH")]
        prehash: Option<String>,
        /// Signature file; `-` for standard output (default: FILE.sig beside
        /// FILE, or standard output when signing standard input).
        #[arg(short = 'o', long = "out", value_name = "SIG")]
        out: Option<PathBuf>,
        /// Replace an existing signature file.
        #[arg(long)]
        force: bool,
        /// Parameter set of a raw key; a SPHINCS+ round-3.1 set (raw keys,
        /// no context or pre-hash) such as sphincs-sha2-128s-robust.
        /// `sphincs-256` (SPHINCS, 2015): raw SUPERCOP keys too (no OID); --der, --context and --prehash are refused.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
        /// Message file; `-` or nothing for standard input. With several
        /// files (or --out-dir), each FILE gets its signature in FILE.sig,
        /// all signed together on every core.
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        /// With several files: write NAME.sig into this directory instead of
        /// beside each file.
        #[arg(long, value_name = "DIR", conflicts_with = "out")]
        out_dir: Option<PathBuf>,
        /// Threads to use (default or 0: all cores); the output is the same for any count.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16))]
        threads: Option<u16>,
    },
    /// Verify a signature; exit status 0 if valid, 1 if not. Without -s, each
    /// FILE is checked against FILE.sig (one line per file; 1 if any is
    /// invalid, 2 if any could not be checked).
    Verify {
        /// Public key (or private key): PEM, DER, or raw bytes (raw needs -a).
        #[arg(short = 'p', long = "pub", value_name = "PUB")]
        public: PathBuf,
        /// Signature file (raw bytes). Without it, each FILE's signature is
        /// read from FILE.sig (or --sig-dir).
        #[arg(short = 's', long = "sig", value_name = "SIG")]
        signature: Option<PathBuf>,
        /// Without -s: read NAME.sig from this directory instead of beside each file.
        #[arg(long, value_name = "DIR", conflicts_with = "signature")]
        sig_dir: Option<PathBuf>,
        #[command(flatten)]
        context: ContextArgs,
        /// HashSLH-DSA with this pre-hash.
        #[arg(long, value_name = "HASH")]
        prehash: Option<String>,
        /// Parameter set of a raw key; a SPHINCS+ round-3.1 set (raw keys,
        /// no context or pre-hash) such as sphincs-sha2-128s-robust.
        /// `sphincs-256` (SPHINCS, 2015): raw SUPERCOP keys too (no OID); --der, --context and --prehash are refused.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
        /// Message file; `-` or nothing for standard input (with -s). Without
        /// -s, one or more files, each verified against FILE.sig.
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Threads for many files (default or 0: all cores).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16))]
        threads: Option<u16>,
    },
    /// Generate a key, sign a built-in message, verify it, and show a tampered copy fail.
    Demo {
        /// Parameter set (default SLH-DSA-SHAKE-128f), or a SPHINCS+ round-3.1 set.
        /// `sphincs-256` walks the 2015 scheme.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
    },
    /// Answer a NIST ACVP SLH-DSA prompt (keyGen, sigGen or sigVer).
    Acvp {
        /// The prompt JSON.
        #[arg(value_name = "PROMPT.json")]
        prompt: PathBuf,
        /// Response file (default: standard output).
        #[arg(short = 'o', long = "out", value_name = "RESPONSE.json")]
        out: Option<PathBuf>,
        /// Replace an existing response file.
        #[arg(long)]
        force: bool,
    },
    /// Write NIST's known-answer file for a SPHINCS+ round-3.1 set, as the
    /// PQCgenKAT_sign program does (AES-256 CTR-DRBG seeded with 0x00..0x2F).
    Kat {
        /// A SPHINCS+ round-3.1 set, e.g. sphincs-haraka-128f-robust.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: String,
        /// Output file, or `-` for standard output (default:
        /// `PQCsignKAT_<secret key bytes>.rsp` in the current directory).
        #[arg(short = 'o', long = "out", value_name = "FILE")]
        out: Option<PathBuf>,
        /// Entries to write (NIST's files have 100).
        #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u16).range(1..))]
        count: u16,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
        /// Threads to use (default or 0: all cores); the output is the same for any count.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16))]
        threads: Option<u16>,
    },
    /// Time keygen, sign (deterministic) and verify: median and minimum time,
    /// cycles, operations per second, peak heap, sizes.
    Bench {
        /// Parameter sets to time, or `all` (the default).
        /// `-a sphincs-256` alone times SPHINCS-256 (2015; ChaCha12 kernels).
        #[arg(short = 'a', long = "algorithm", value_name = "ALG", num_args = 1.., action = clap::ArgAction::Append)]
        algorithms: Vec<String>,
        /// keygen, sign, verify or all.
        #[arg(long, value_name = "OP", default_value = "all")]
        op: String,
        /// Threads per operation (default or 0: all cores).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16))]
        threads: Option<u16>,
        /// Hash backend: scalar, avx2, avx512, sha-ni, neon or sha3 (default: the best this CPU has).
        #[arg(long, value_name = "NAME")]
        backend: Option<String>,
        /// Timed runs per operation (default: as many as fit in about a second,
        /// at least 3, at least 1 for 's'-set keygen and sign).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        runs: Option<u32>,
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
        /// Also measure the smallest thread stack each operation completes on
        /// (one thread; a binary search over child processes: slow for 's' sets).
        #[arg(long)]
        stack: bool,
        /// Print hash-call and compression counts per operation instead of timing.
        #[arg(long)]
        calls: bool,
        /// Time batch signing and batch verification of N messages (one key)
        /// on one thread and on --threads (default all cores); ops/s then
        /// counts signatures.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000), conflicts_with_all = ["stack", "calls"])]
        batch: Option<u32>,
    },
    /// X.509 certificates and PKCS#10 requests signed with SLH-DSA (RFC 9909).
    #[command(subcommand, arg_required_else_help = true)]
    Cert(cert::CertCommand),
    /// CMS SignedData signed with SLH-DSA (RFC 9814).
    #[command(subcommand, arg_required_else_help = true)]
    Cms(cms::CmsCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions {
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), e.g. `sphincs man > sphincs.1`.
    Man,
    /// Add or remove the passphrase of a private key.
    #[command(subcommand)]
    Key(cmd_key::KeyCommand),
    /// Internal to `bench --stack`: run one operation on a thread with a KIB KiB stack.
    #[command(hide = true)]
    BenchStackProbe {
        algorithm: String,
        op: String,
        kib: usize,
        #[arg(long)]
        backend: Option<String>,
    },
}

/// The context string, as text or hex (at most 255 bytes).
#[derive(Args)]
struct ContextArgs {
    /// Context string (its UTF-8 bytes).
    #[arg(long, value_name = "TEXT", conflicts_with = "context_hex")]
    context: Option<String>,
    /// Context string in hex.
    #[arg(long, value_name = "HEX")]
    context_hex: Option<String>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
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
    passphrase::set_source(passphrase::Source {
        file: cli.passphrase_file,
        fd: cli.passphrase_fd,
    });
    let result = run(cli.command);
    passphrase::forget();
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
        Command::List => cmd_keys::list(),
        Command::Fingerprint { keys, algorithm } => {
            cmd_fingerprint::run(&keys, algorithm.as_deref())
        }
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "sphincs", &mut out);
            io::write_stdout(&out, false)
        }
        Command::Man => {
            let mut out = Vec::new();
            clap_mangen::Man::new(<Cli as clap::CommandFactory>::command())
                .render(&mut out)
                .map_err(|e| CliError::Failed(format!("cannot render the manual page: {e}")))?;
            io::write_stdout(&out, false)
        }
        Command::Keygen {
            algorithm,
            out,
            public,
            der,
            force,
            threads,
            prehash,
            encrypt,
        } => cmd_keys::keygen(cmd_keys::KeygenArgs {
            alg: &algorithm,
            prehash: cmd_sign::parse_prehash(prehash.as_deref())?,
            out: &out,
            public: public.as_deref(),
            der,
            force,
            threads: thread_count(threads),
            encrypt,
        }),
        Command::Pubkey {
            key,
            out,
            der,
            algorithm,
            force,
        } => cmd_keys::pubkey(&key, out.as_deref(), der, algorithm.as_deref(), force),
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
            if algorithm.as_deref().is_some_and(cmd_s256::is) {
                let ctx = context.is_given();
                cmd_s256::refuse_sign(ctx, prehash.is_some(), &files, out_dir.is_some())?;
                cmd_s256::no_fault_hardening(fault_hardened)?;
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
            // Raw-key sets have no context or pre-hash (SPHINCS-256's refusal
            // came above, in its own words).
            if rawkey::parse(algorithm.as_deref()).is_some() {
                cmd_spx::no_context(&context, prehash.is_some())?;
            }
            // Errors in the order the options were read before: many files
            // -a first, one file --prehash first; the key last.
            let (alg, prehash) = if many {
                let alg = keyfile::parse_any(algorithm.as_deref())?;
                (alg, cmd_sign::parse_prehash(prehash.as_deref())?)
            } else {
                let prehash = cmd_sign::parse_prehash(prehash.as_deref())?;
                (keyfile::parse_any(algorithm.as_deref())?, prehash)
            };
            let opts = SignOptions {
                context: &context,
                prehash,
                randomness,
                threads: thread_count(threads),
                fault_hardened,
            };
            if many {
                let signer = cmd_batch::Signer {
                    key: keyfile::load_any_signing_key(&key, alg)?,
                    opts,
                };
                return cmd_batch::sign(&signer, &files, out_dir.as_deref(), force, opts.threads);
            }
            let args = cmd_sign::SignArgs {
                opts,
                out: out.as_deref(),
                force,
                file,
            };
            cmd_sign::sign(args, || keyfile::load_any_signing_key(&key, alg))?;
            said_signed(file, out.as_deref(), implied)
        }
        Command::Verify {
            public,
            signature,
            sig_dir,
            context,
            prehash,
            algorithm,
            files,
            threads,
        } => {
            if algorithm.as_deref().is_some_and(cmd_s256::is) {
                let (ctx, dir) = (context.is_given(), sig_dir.is_some());
                cmd_s256::refuse_verify(ctx, prehash.is_some(), &files, dir, signature.is_some())?;
            }
            let ctx = context.bytes()?;
            if rawkey::parse(algorithm.as_deref()).is_some() {
                cmd_spx::no_context(&ctx, prehash.is_some())?;
            }
            let Some(signature) = signature else {
                let alg = keyfile::parse_any(algorithm.as_deref())?;
                let checker = cmd_batch::Checker {
                    key: keyfile::load_any_verifying_key(&public, alg)?,
                    context: &ctx,
                    prehash: cmd_sign::parse_prehash(prehash.as_deref())?,
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
            let prehash = cmd_sign::parse_prehash(prehash.as_deref())?;
            let alg = keyfile::parse_any(algorithm.as_deref())?;
            let key = keyfile::load_any_verifying_key(&public, alg)?;
            cmd_sign::verify(&key, &signature, &ctx, prehash, file)
        }
        Command::Kat {
            algorithm,
            out,
            count,
            force,
            threads,
        } => cmd_spx::kat(
            cmd_spx::require(&algorithm)?,
            out.as_deref(),
            usize::from(count),
            force,
            thread_count(threads),
        ),
        Command::Demo { algorithm } => demo::run(algorithm.as_deref()),
        Command::Acvp { prompt, out, force } => acvp::run(&prompt, out.as_deref(), force),
        Command::Bench {
            algorithms,
            op,
            threads,
            backend,
            runs,
            json,
            calls,
            ..
        } if algorithms.len() == 1 && cmd_s256::is(&algorithms[0]) => {
            if calls {
                cmd_s256::calls(backend.as_deref())
            } else {
                cmd_s256::bench(&op, thread_count(threads), runs, json, backend.as_deref())
            }
        }
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
        Command::Cert(command) => cert::run(command),
        Command::Cms(command) => cms::run(command),
        Command::Key(command) => cmd_key::run(command),
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
        (None, Some(f)) if f.as_os_str() != "-" => Ok((Some(cmd_batch::sig_path(f, None)?), true)),
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
        (Some(f), Some(o)) if implied => {
            say::status(&format!("{}: signed, {}\n", f.display(), o.display()))
        }
        _ => Ok(()),
    }
}

/// `verify` without `-s`: each FILE against FILE.sig.
fn verify_files(
    checker: &cmd_batch::Checker<'_>,
    files: &[PathBuf],
    sig_dir: Option<&std::path::Path>,
    threads: Option<u16>,
) -> Result<(), CliError> {
    if files.is_empty() {
        return Err(CliError::Failed(
            "-s SIG is required to verify standard input; given files, each is checked against FILE.sig".into(),
        ));
    }
    cmd_batch::verify(checker, files, sig_dir, thread_count(threads))
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

impl ContextArgs {
    /// Whether --context or --context-hex was given at all.
    fn is_given(&self) -> bool {
        self.context.is_some() || self.context_hex.is_some()
    }

    /// The context bytes, checked against FIPS 205's limit of 255.
    fn bytes(&self) -> Result<Vec<u8>, CliError> {
        let ctx = match (&self.context, &self.context_hex) {
            (Some(text), _) => text.as_bytes().to_vec(),
            (None, Some(h)) => {
                hex::decode(h).map_err(|e| CliError::Failed(format!("--context-hex: {e}")))?
            }
            (None, None) => Vec::new(),
        };
        if ctx.len() > 255 {
            return Err(sphincs::Error::ContextTooLong(ctx.len()).into());
        }
        Ok(ctx)
    }
}
