//! `list`, `keygen` and `pubkey`.

use std::path::Path;

use sphincs::any::{AnyAlgorithm, AnySigningKey, KeyFormat};
use sphincs::{Algorithm, KeyMode, PreHash};

use crate::error::CliError;
use crate::files::passphrase;
use crate::files::write;
use crate::files::write::{
    check_key_outputs, check_writable, write_key_pair, write_output, write_stdout,
};
use crate::keys::fingerprint;
use crate::keys::load::{load_any_public_half, parse_any};
use crate::keys::tree_file;

/// `list`'s last columns: a set's pure and HashSLH-DSA OIDs, or how its
/// keys are stored when it has none.
fn key_files(alg: AnyAlgorithm) -> String {
    match alg.slh_dsa().filter(|a| a.oid().is_some()) {
        Some(a) => format!(
            "{:<24} {} ({})",
            a.oid().unwrap_or_default(),
            a.hash_oid().unwrap_or_default(),
            a.bound_prehash()
        ),
        None => match alg.max_signatures() {
            Some(max) => format!(
                "{:<24} draft SP 800-230 (ipd): at most 2^{} signatures per key",
                "none (raw keys)",
                max.ilog2()
            ),
            None => format!("raw ({})", alg.family().name()),
        },
    }
}

/// `list`'s signature budget: 2^24 for a draft SP 800-230 set, `-` (no
/// practical limit) for the others.
fn budget(alg: AnyAlgorithm) -> String {
    match alg.max_signatures() {
        Some(max) => format!("2^{}", max.ilog2()),
        None => "-".to_string(),
    }
}

/// `list`'s cost class: one thread's time, rounded from BENCHMARKS.md's
/// measurements on the development machine (a shared 2-core AMD EPYC Zen 4
/// VM). A draft SP 800-230 set pays for its one tree at keygen (its "All six
/// sets, one thread" table, CPU time) and then signs from its cache; the
/// other sets sign in milliseconds (f sets and SPHINCS-256: a few XMSS
/// layers of 2^3-2^5 leaves) or about a tenth of a second (s sets: layers
/// of 2^8-2^9 leaves), keygen being at most one such layer.
fn cost(alg: AnyAlgorithm) -> &'static str {
    if let Some(set) = alg.slh_dsa().filter(|a| a.is_sp800_230()) {
        return match set {
            Algorithm::Sha2_128_24 => "limited: keygen ~35 s, sign ~8 s",
            Algorithm::Sha2_192_24 => "limited: keygen ~30 s, sign ~35 s",
            Algorithm::Sha2_256_24 => "limited: keygen ~40 s, sign ~45 s",
            Algorithm::Shake128_24 => "limited: keygen ~75 s, sign ~20 s",
            Algorithm::Shake192_24 => "limited: keygen ~70 s, sign ~60 s",
            _ => "limited: keygen ~75 s, sign ~80 s",
        };
    }
    match alg.params() {
        Some(p) if p.hp >= 8 => "small: sign ~0.1 s",
        _ => "fast: sign ms",
    }
}

/// Prints every set of every family, in `sphincs::any`'s order.
pub fn list() -> Result<(), CliError> {
    let mut out = format!(
        "{:<27} {:>8} {:>6} {:>6} {:>7} {:>8}  {:<34}  {:<24} {}\n",
        "ALGORITHM",
        "CATEGORY",
        "PK",
        "SK",
        "SIG",
        "MAX SIGS",
        "COST (ONE THREAD)",
        "OID",
        "HASHSLH-DSA OID (PRE-HASH)"
    );
    for alg in AnyAlgorithm::all() {
        out += &format!(
            "{:<27} {:>8} {:>6} {:>6} {:>7} {:>8}  {:<34}  {}\n",
            alg.name(),
            alg.security_category()
                .map_or_else(|| "-".to_string(), |c| c.to_string()),
            alg.public_key_len(),
            alg.secret_key_len(),
            alg.signature_len(),
            budget(alg),
            cost(alg),
            key_files(alg),
        );
    }
    out +=
        "Sizes in bytes. FIPS 205 keys are written as PKCS#8 / SubjectPublicKeyInfo (RFC 9909);\n\
            the OID binds a key to pure SLH-DSA or to HashSLH-DSA with its pre-hash (keygen --prehash).\n\
            SPHINCS+ round-3.1 keys (sphincs-*) have no OID and are raw bytes.\n\
            The *-24 sets are the limited-signature sets of draft SP 800-230 (ipd): no OID is\n\
            assigned, so their keys are raw bytes (encrypted: this library's own PEM, not PKCS#8);\n\
            a key must NEVER make more than 2^24 signatures.\n";
    out += "SPHINCS-256 (the 2015 scheme) has no OID either: raw SUPERCOP keys (sk SK1||Q||SK2, pk Q||root).\n";
    out += "MAX SIGS: signatures one key may make (-: no practical limit). COST: one thread, rounded from\n\
            BENCHMARKS.md (a shared 2-core AMD EPYC Zen 4 VM); a *-24 key signs from its tree cache\n\
            KEY.tree (without it, each signature first rebuilds the tree: the keygen time again).\n";
    write_stdout(out.as_bytes(), false)
}

/// What `keygen` was asked to do.
pub struct KeygenArgs<'a> {
    pub alg: &'a str,
    /// `--prehash`: a HashSLH-DSA key bound to this pre-hash.
    pub prehash: Option<PreHash>,
    pub out: &'a Path,
    pub public: Option<&'a Path>,
    pub der: bool,
    pub force: bool,
    pub threads: usize,
    /// `--encrypt`: write the private key encrypted with a passphrase.
    pub encrypt: bool,
}

/// Generates a key pair of any set (see [`write_key_pair`]): a pure key, or
/// with `--prehash` a HashSLH-DSA key (only with the pre-hash RFC 9909 binds
/// to the set). The core says what the set's key files can be (PEM, DER,
/// key modes, encryption, or raw bytes) before any key is made; a draft SP
/// 800-230 set also gets a progress bar and its tree cache, KEY.tree.
pub fn keygen(args: KeygenArgs<'_>) -> Result<(), CliError> {
    let KeygenArgs {
        alg,
        prehash,
        out,
        public,
        der,
        force,
        threads,
        encrypt,
    } = args;
    let alg = parse_any(Some(alg))?.expect("given");
    if encrypt {
        alg.check_encryption()
            .map_err(CliError::refused("--encrypt"))?;
    }
    let mode = prehash.map_or(KeyMode::Pure, KeyMode::HashSlhDsa);
    let mode = alg
        .check_mode(mode)
        .map_err(CliError::refused("--prehash"))?;
    let format = alg.key_format(der).map_err(CliError::refused("--der"))?;
    check_key_outputs(out, public, force)?;
    let cache = tree_file::cache_path(out);
    if alg.is_limited() {
        check_writable(&cache, force)?;
    }
    // Asked before the work, so a mistyped confirmation costs no key generation.
    let passphrase = match encrypt {
        true => Some(passphrase::for_writing(out)?),
        false => None,
    };
    let key = generate(alg, threads)?;
    let key = match mode {
        KeyMode::Pure => key,
        mode => key.with_mode(mode)?,
    };
    let private = key.to_key_file(format, passphrase.as_ref().map(|p| &p[..]))?;
    let vk = key.verifying_key();
    let public_key = match public {
        Some(_) => Some(vk.to_key_file(format)?),
        None => None,
    };
    write_key_pair(out, &private, public.zip(public_key.as_deref()), force)?;
    tree_file::write_cache(out, key.tree_cache())?;
    if alg.max_signatures().is_some() {
        eprintln!(
            "sphincs: {alg} is a draft SP 800-230 (ipd) set: this key must never make more than 2^24 signatures"
        );
    }
    crate::say::status(&fingerprint::line(&vk.fingerprint()?, out))
}

/// A fresh key; a set that builds one whole tree (draft SP 800-230, a minute
/// or more) shows a progress bar on a terminal.
fn generate(alg: AnyAlgorithm, threads: usize) -> Result<AnySigningKey, CliError> {
    if !alg.is_limited() {
        return Ok(AnySigningKey::generate(alg, threads)?);
    }
    let bar = tree_file::tree_bar(alg, "computing");
    let key = AnySigningKey::generate_with_progress(alg, threads, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    Ok(key)
}

/// Writes the public key of KEY to a file or standard output, in the set's
/// format: SPKI PEM (or DER with `--der`), or raw bytes for a set without an OID.
pub fn pubkey(
    key: &Path,
    out: Option<&Path>,
    der: bool,
    alg: Option<&str>,
    force: bool,
) -> Result<(), CliError> {
    let alg = parse_any(alg)?;
    // A set named with -a is refused before anything is read.
    let format = alg.map(|a| a.key_format(der)).transpose();
    let format = format.map_err(CliError::refused("--der"))?;
    match out {
        Some(o) => check_writable(o, force)?,
        None if der || format == Some(KeyFormat::Raw) => write::refuse_binary_terminal()?,
        None => {}
    }
    let vk = load_any_public_half(key, alg)?;
    let format = vk.algorithm().key_format(der);
    let format = format.map_err(CliError::refused("--der"))?;
    let bytes = vk.to_key_file(format)?;
    match out {
        Some(o) => write_output(o, &bytes, false, force),
        None => write_stdout(&bytes, format != KeyFormat::Pem),
    }
}
