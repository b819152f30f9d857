//! The argument grammar of `sphincs`: the clap structures that define every
//! command, option and help text (kept apart from `main.rs`, which runs
//! them, so that the grammar reads as one piece).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::error::CliError;
use crate::keys::{key_command, token_command};
use crate::pki::{cert, cms};
use crate::{git, hex, sop};

#[derive(Parser)]
#[command(
    name = "sphincs",
    version,
    about = "SLH-DSA (FIPS 205) stateless hash-based signatures, the pre-standard SPHINCS+ round 3.1 and SPHINCS-256 (2015), X.509 certificates and CMS",
    after_help = "Exit status: 0 success or valid signature, 1 invalid signature, 2 usage or input error.",
    arg_required_else_help = true
)]
pub struct Cli {
    /// Print no status lines ("valid signature", "FILE: signed, FILE.sig",
    /// keygen's fingerprint); errors and invalid signatures still go to
    /// standard error.
    #[arg(short = 'q', long, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
    /// Read the passphrase of an encrypted private key (or for keygen
    /// --encrypt, key encrypt; the old one for key passwd) from the first
    /// line of FILE.
    #[arg(long, global = true, value_name = "FILE")]
    pub passphrase_file: Option<PathBuf>,
    /// Read the passphrase from the open file descriptor N: its first line,
    /// and nothing beyond it (with N = 0 the rest of standard input is the
    /// message); a descriptor that is standard input's file again is refused.
    #[arg(
        long,
        global = true,
        value_name = "N",
        conflicts_with = "passphrase_file"
    )]
    pub passphrase_fd: Option<u32>,
}

#[derive(Subcommand)]
pub enum Command {
    /// List the parameter sets: the twelve FIPS 205 sets with their OIDs, the
    /// 36 SPHINCS+ round-3.1 sets and SPHINCS-256 (raw keys only), and the six
    /// limited-signature sets of draft SP 800-230 (ipd; raw keys, at most
    /// 2^24 signatures per key).
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
        /// than 2^24 signatures. Their keygen took 31-74 s of CPU on one
        /// thread and each signature from the cache 8-78 s (SHA2-128-24: 34 s
        /// and 8 s), measured on BENCHMARKS.md's machine (a shared 2-core AMD
        /// EPYC Zen 4 VM); `sphincs list` shows each set's figures.
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
        /// scrypt N=2^14 r=8 p=1 and AES-256-CBC. A *-24 key has no OID, so
        /// it is encrypted the same way in this library's own format, PEM
        /// "SPHINCS DRAFT SP 800 230 ENCRYPTED PRIVATE KEY" (not PKCS#8).
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
        /// Make an OpenPGP v6 key (RFC 9980: -a SLH-DSA-SHAKE-128s, -128f or
        /// -256s) with this User ID (repeatable; the first is primary),
        /// armored; --pub writes its certificate.
        #[arg(long = "openpgp", value_name = "USERID")]
        openpgp: Vec<String>,
        /// OpenPGP: when the key expires: a date (2028-12-31), a span (2y,
        /// 90d) or never (the default).
        #[arg(long, value_name = "WHEN", requires = "openpgp")]
        expires: Option<String>,
        /// OpenPGP: also write a revocation certificate here, made now and
        /// kept apart: it revokes the key if the key is lost
        /// (`sphincs key revoke CERT --revocation FILE`).
        #[arg(long, value_name = "FILE", requires = "openpgp")]
        revocation: Option<PathBuf>,
    },
    /// Print the fingerprint of each key: `SHA256:` and the hex SHA-256 of
    /// the SubjectPublicKeyInfo DER (FIPS 205 keys, whatever their file
    /// format), of the set's name, a zero byte and the raw public key
    /// (draft SP 800-230 keys: docs/sp800-230.md), or of the raw public key
    /// (round-3.1 and SPHINCS-256 keys).
    /// A private key gives its public key's fingerprint, a certificate its
    /// subject key's.
    Fingerprint {
        /// Keys (or X.509 certificates: their subject key): PEM, DER, or
        /// raw bytes (raw needs -a).
        #[arg(value_name = "KEY", required = true)]
        keys: Vec<PathBuf>,
        /// Parameter set of raw keys (required for raw keys: round-3.1,
        /// SPHINCS-256 and draft SP 800-230 keys are always raw).
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: Option<String>,
    },
    /// Write the public key of a private key (or re-encode a public key).
    Pubkey {
        /// Private or public key, or an X.509 certificate (its subject
        /// key): PEM, DER, or raw bytes (raw needs -a).
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
        /// (ipd) key (-a *-24, or encrypted) signs from its tree cache KEY.tree
        /// (8-78 s of CPU on one thread, SHA2-128-24 8 s, on BENCHMARKS.md's
        /// shared 2-core AMD EPYC Zen 4 VM); a missing, stale or damaged cache
        /// is reported and the tree recomputed first (31-74 s more).
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
        /// Public key (or private key, or an X.509 certificate whose
        /// subject key is used, as `openssl pkeyutl -certin`): PEM, DER, or
        /// raw bytes (raw needs -a).
        #[arg(short = 'p', long = "pub", value_name = "PUB")]
        public: PathBuf,
        /// Pin the public key: fail (exit 2, before any signature is
        /// checked) unless the key from -p has this fingerprint
        /// (`SHA256:<hex>`, as `sphincs fingerprint` prints it).
        #[arg(long, value_name = "SHA256:HEX")]
        fingerprint: Option<String>,
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
        /// -s, one or more files, each verified against FILE.sig; a FILE
        /// that is another FILE's signature file (`dist/*` holding x and
        /// x.sig) is skipped, with a note on standard error.
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Threads for many files (default or 0: all cores).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16))]
        threads: Option<u16>,
        /// OpenPGP: for one cleartext-signed FILE (SHA256SUMS.asc), write
        /// the text that was checked here, only when a signature is good.
        #[arg(short = 'o', long = "out", value_name = "OUT")]
        out: Option<PathBuf>,
        /// Replace an existing -o file.
        #[arg(long, requires = "out")]
        force: bool,
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
        /// Parameter sets to time, of any family (see `sphincs list`); `all`
        /// (the default) for the twelve FIPS 205 sets, `r31` for the 36
        /// round-3.1 sets. With --calls, `sphincs-256` alone gives its own
        /// counts (ChaCha12 permutations and BLAKE blocks).
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
        /// Print hash-call and compression counts per operation instead of
        /// timing, and the floor they imply at the per-call costs of the
        /// backend's bare kernels, measured at run time on this CPU.
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
    /// Print the manual page sphincs(1) (roff), e.g. `sphincs man >
    /// sphincs.1`; with --dir, write it and a page per subcommand
    /// (sphincs-keygen.1, sphincs-cert-show.1, …) into a directory.
    Man {
        /// Write sphincs.1 and every subcommand's page into DIR (created if
        /// missing) instead of printing sphincs(1).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Replace existing pages in DIR.
        #[arg(long, requires = "dir")]
        force: bool,
    },
    /// Describe a key file; add, change or remove the passphrase of a private key.
    #[command(subcommand)]
    Key(key_command::KeyCommand),
    /// Keys in a PKCS#11 token (an HSM): list, generate, import. Sign with
    /// one by giving its `pkcs11:` URI as the key (`sphincs sign -k`).
    #[command(subcommand)]
    Pkcs11(token_command::Pkcs11Command),
    /// Sign git commits and tags: `git setup` configures a repository (or,
    /// with --global, the user) to use this program as git's X.509 signing
    /// program (gpg.format=x509), which git then runs with gpg's arguments.
    #[command(subcommand)]
    Git(git::setup::GitCommand),
    /// Unlock a key once: an agent holds decrypted keys in locked memory
    /// for a time you set and signs for git and `sign` (`agent start`,
    /// `agent add KEY`, `agent lock`, `agent stop`).
    #[command(subcommand)]
    Agent(crate::agent::AgentCommand),
    /// OpenPGP with SLH-DSA (RFC 9580 v6 keys, RFC 9980): the Stateless
    /// OpenPGP interface (draft-dkg-openpgp-stateless-cli) for keys,
    /// signatures and verification, e.g. `sphincs sop generate-key
    /// "Alice <alice@example.org>" > alice.key`; exit codes are SOP's.
    #[command(subcommand)]
    Sop(sop::SopCommand),
    /// Add an SLH-DSA signature beside the ones a release file has (the
    /// transition): with -s, to a detached signature (Release.gpg,
    /// FILE.asc) of FILE; without, to a cleartext-signed FILE (InRelease,
    /// .dsc), inside its signature block. What was there is kept byte for
    /// byte: GnuPG's gpgv still accepts the file through the classic key.
    Cosign {
        /// The OpenPGP secret key (RFC 9980 SLH-DSA) that signs.
        #[arg(short = 'k', long = "key", value_name = "KEY")]
        key: PathBuf,
        /// The detached signature of FILE to add to (armored or binary; it
        /// stays so). Without it, FILE must be cleartext-signed.
        #[arg(short = 's', long = "sig", value_name = "SIG")]
        signature: Option<PathBuf>,
        /// The signed file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// gpgv's command line for apt, dpkg-source and dscverify (also run as
    /// `sphincs-gpgv`): RFC 9980 signatures checked here, every other one
    /// by the system's gpgv. See docs/gpg.md.
    #[command(disable_help_flag = true)]
    Gpgv {
        /// gpgv's options and files, e.g. --keyring K --status-fd 3 SIG DATA.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "ARGS"
        )]
        args: Vec<std::ffi::OsString>,
    },
    /// gpg's command line for signing tools (also run as `sphincs-gpg`):
    /// --detach-sign, --clearsign, --sign, --verify, --import, --export,
    /// --list-keys. See docs/gpg.md.
    #[command(disable_help_flag = true)]
    Gpg {
        /// gpg's options and files, e.g. -abs -u KEY -o Release.gpg Release.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "ARGS"
        )]
        args: Vec<std::ffi::OsString>,
    },
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
pub struct ContextArgs {
    /// Context string (its UTF-8 bytes).
    #[arg(long, value_name = "TEXT", conflicts_with = "context_hex")]
    context: Option<String>,
    /// Context string in hex.
    #[arg(long, value_name = "HEX")]
    context_hex: Option<String>,
}

impl ContextArgs {
    /// True if neither --context nor --context-hex was given.
    pub fn is_empty(&self) -> bool {
        self.context.is_none() && self.context_hex.is_none()
    }
    /// The context bytes, checked against FIPS 205's limit of 255.
    pub fn bytes(&self) -> Result<Vec<u8>, CliError> {
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
