//! `sphincs`: SLH-DSA (FIPS 205) and SPHINCS+ round-3.1 keys, signatures,
//! ACVP answers and NIST KAT files from the command line. This file holds the
//! argument grammar and the exit codes;
//! each command lives in its own module.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

mod acvp;
mod bench;
mod calls;
mod cert;
mod cmd_keys;
mod cmd_sign;
mod cmd_spx;
mod cms;
mod demo;
mod error;
mod hex;
mod io;
mod keyfile;

use error::CliError;

/// Counts heap bytes for `sphincs bench`'s peak-heap column (two relaxed
/// atomic operations per allocation; the other commands do not read it).
#[global_allocator]
static HEAP: sphincs::hash::backend::CountingAllocator = sphincs::hash::backend::CountingAllocator;

#[derive(Parser)]
#[command(
    name = "sphincs",
    version,
    about = "SLH-DSA (FIPS 205) stateless hash-based signatures, and the pre-standard SPHINCS+ round 3.1",
    after_help = "Exit status: 0 success or valid signature, 1 invalid signature, 2 usage or input error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the parameter sets: the twelve FIPS 205 sets with their OIDs, and
    /// the 36 SPHINCS+ round-3.1 sets (raw keys only).
    List,
    /// Generate a key pair.
    Keygen {
        /// Parameter set, e.g. SLH-DSA-SHAKE-128f or sha2-256s, or a SPHINCS+
        /// round-3.1 set such as sphincs-shake-128f-simple, whose keys are raw
        /// bytes since no OID exists for them (see `sphincs list`).
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
        /// Replace existing files.
        #[arg(long)]
        force: bool,
        /// Threads to use (default: all cores); the output is the same for any count.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// Write a HashSLH-DSA key (RFC 9909 OIDs .35-.46) bound to this
        /// pre-hash, which must be the set's own: SHA2-256 (SHA2-128s/f),
        /// SHA2-512 (other SHA2 sets), SHAKE-128 (SHAKE-128s/f), SHAKE-256
        /// (other SHAKE sets). `sign` and `verify` then use it.
        #[arg(long, value_name = "HASH")]
        prehash: Option<String>,
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
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
        /// Replace an existing output file.
        #[arg(long)]
        force: bool,
    },
    /// Sign a file or standard input; the signature is raw bytes.
    Sign {
        /// Private key: PEM, DER, or raw bytes (raw needs -a).
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
        /// Signature file (default: standard output).
        #[arg(short = 'o', long = "out", value_name = "SIG")]
        out: Option<PathBuf>,
        /// Replace an existing signature file.
        #[arg(long)]
        force: bool,
        /// Parameter set of a raw key; a SPHINCS+ round-3.1 set (raw keys,
        /// no context or pre-hash) such as sphincs-sha2-128s-robust.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
        /// Message file; `-` or nothing for standard input.
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        /// Threads to use (default: all cores); the output is the same for any count.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
    /// Verify a signature; exit status 0 if valid, 1 if not.
    Verify {
        /// Public key (or private key): PEM, DER, or raw bytes (raw needs -a).
        #[arg(short = 'p', long = "pub", value_name = "PUB")]
        public: PathBuf,
        /// Signature file (raw bytes).
        #[arg(short = 's', long = "sig", value_name = "SIG")]
        signature: PathBuf,
        #[command(flatten)]
        context: ContextArgs,
        /// HashSLH-DSA with this pre-hash.
        #[arg(long, value_name = "HASH")]
        prehash: Option<String>,
        /// Parameter set of a raw key; a SPHINCS+ round-3.1 set (raw keys,
        /// no context or pre-hash) such as sphincs-sha2-128s-robust.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
        /// Message file; `-` or nothing for standard input.
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
    },
    /// Generate a key, sign a built-in message, verify it, and show a tampered copy fail.
    Demo {
        /// Parameter set (default SLH-DSA-SHAKE-128f), or a SPHINCS+ round-3.1 set.
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
        /// Threads to use (default: all cores); the output is the same for any count.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
    /// Time keygen, sign (deterministic) and verify: median and minimum time,
    /// cycles, operations per second, peak heap, sizes.
    Bench {
        /// Parameter sets to time, or `all` (the default).
        #[arg(short = 'a', long = "algorithm", value_name = "ALG", num_args = 1.., action = clap::ArgAction::Append)]
        algorithms: Vec<String>,
        /// keygen, sign, verify or all.
        #[arg(long, value_name = "OP", default_value = "all")]
        op: String,
        /// Threads per operation (default: all cores).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// Hash backend: scalar, avx2, avx512 or sha-ni (default: the best this CPU has).
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
    },
    /// X.509 certificates and PKCS#10 requests signed with SLH-DSA (RFC 9909).
    #[command(subcommand)]
    Cert(cert::CertCommand),
    /// CMS SignedData signed with SLH-DSA (RFC 9814).
    #[command(subcommand)]
    Cms(cms::CmsCommand),
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
        Err(e) => {
            // Usage errors: one line, like every other error, and status 2.
            eprintln!("sphincs: error: {}", usage_error_line(&e));
            return ExitCode::from(2);
        }
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::InvalidSignature(why)) => {
            eprintln!("{why}");
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
        Command::Keygen {
            algorithm,
            out,
            public,
            der,
            force,
            threads,
            prehash,
        } => {
            let threads = thread_count(threads);
            match cmd_spx::parse(Some(&algorithm)) {
                Some(alg) => {
                    cmd_spx::no_context(&[], prehash.is_some())?;
                    cmd_spx::keygen(alg, &out, public.as_deref(), der, force, threads)
                }
                None => cmd_keys::keygen(cmd_keys::KeygenArgs {
                    alg: &algorithm,
                    prehash: cmd_sign::parse_prehash(prehash.as_deref())?,
                    out: &out,
                    public: public.as_deref(),
                    der,
                    force,
                    threads,
                }),
            }
        }
        Command::Pubkey {
            key,
            out,
            der,
            algorithm,
            force,
        } => match cmd_spx::parse(algorithm.as_deref()) {
            Some(alg) => cmd_spx::pubkey(alg, &key, out.as_deref(), der, force),
            None => cmd_keys::pubkey(&key, out.as_deref(), der, algorithm.as_deref(), force),
        },
        Command::Sign {
            key,
            context,
            deterministic,
            fault_hardened,
            prehash,
            out,
            force,
            algorithm,
            file,
            threads,
        } => match cmd_spx::parse(algorithm.as_deref()) {
            Some(alg) => {
                cmd_spx::no_context(&context.bytes()?, prehash.is_some())?;
                cmd_spx::sign(cmd_spx::SignArgs {
                    alg,
                    key: &key,
                    deterministic,
                    fault_hardened,
                    out: out.as_deref(),
                    force,
                    file: file.as_deref(),
                    threads: thread_count(threads),
                })
            }
            None => cmd_sign::sign(cmd_sign::SignArgs {
                key: &key,
                context: context.bytes()?,
                deterministic,
                fault_hardened,
                prehash: cmd_sign::parse_prehash(prehash.as_deref())?,
                out: out.as_deref(),
                force,
                algorithm: algorithm.as_deref(),
                file: file.as_deref(),
                threads: thread_count(threads),
            }),
        },
        Command::Verify {
            public,
            signature,
            context,
            prehash,
            algorithm,
            file,
        } => match cmd_spx::parse(algorithm.as_deref()) {
            Some(alg) => {
                cmd_spx::no_context(&context.bytes()?, prehash.is_some())?;
                cmd_spx::verify(alg, &public, &signature, file.as_deref())
            }
            None => cmd_sign::verify(cmd_sign::VerifyArgs {
                public: &public,
                signature: &signature,
                context: context.bytes()?,
                prehash: cmd_sign::parse_prehash(prehash.as_deref())?,
                algorithm: algorithm.as_deref(),
                file: file.as_deref(),
            }),
        },
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
            stack,
            calls,
        } => bench::run(bench::BenchArgs {
            algorithms,
            op,
            threads: thread_count(threads),
            backend,
            runs,
            json,
            stack,
            calls,
        }),
        Command::Cert(command) => cert::run(command),
        Command::Cms(command) => cms::run(command),
        Command::BenchStackProbe {
            algorithm,
            op,
            kib,
            backend,
        } => bench::stack_probe(&algorithm, &op, kib, backend.as_deref()),
    }
}

/// `--threads N`, or every core the process may use.
fn thread_count(threads: Option<u16>) -> usize {
    threads.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    })
}

/// The first line of clap's message, without its "error: " prefix, and
/// where to read more.
fn usage_error_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or_default();
    let first = first.strip_prefix("error: ").unwrap_or(first).trim_end();
    format!("{first} (see `sphincs --help`)")
}

impl ContextArgs {
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
