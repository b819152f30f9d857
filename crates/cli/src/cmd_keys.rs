//! `list`, `keygen` and `pubkey`.

use std::path::Path;

use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey, KeyMode, PreHash};
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{check_key_outputs, check_writable, write_key_pair, write_output, write_stdout};
use crate::keyfile::{load_public_half, parse_algorithm};

/// Prints the twelve FIPS 205 sets (with their pure and HashSLH-DSA OIDs),
/// the six of draft SP 800-230 (ipd)
/// and the 36 round-3.1 sets.
pub fn list() -> Result<(), CliError> {
    let mut out = format!(
        "{:<27} {:>8} {:>6} {:>6} {:>7}  {:<24} {}\n",
        "ALGORITHM", "CATEGORY", "PK", "SK", "SIG", "OID", "HASHSLH-DSA OID (PRE-HASH)"
    );
    for alg in Algorithm::ALL {
        out += &format!(
            "{:<27} {:>8} {:>6} {:>6} {:>7}  {:<24} {} ({})\n",
            alg.name(),
            alg.security_category(),
            alg.public_key_len(),
            alg.secret_key_len(),
            alg.signature_len(),
            alg.oid().unwrap_or_default(),
            alg.hash_oid().unwrap_or_default(),
            alg.bound_prehash()
        );
    }
    for alg in Algorithm::SP800_230 {
        out += &format!(
            "{:<27} {:>8} {:>6} {:>6} {:>7}  {:<24} {}\n",
            alg.name(),
            alg.security_category(),
            alg.public_key_len(),
            alg.secret_key_len(),
            alg.signature_len(),
            "none (raw keys)",
            "draft SP 800-230 (ipd): at most 2^24 signatures per key"
        );
    }
    out += &crate::cmd_spx::list_rows();
    out += &crate::cmd_s256::list_row();
    out +=
        "Sizes in bytes. FIPS 205 keys are written as PKCS#8 / SubjectPublicKeyInfo (RFC 9909);\n\
            the OID binds a key to pure SLH-DSA or to HashSLH-DSA with its pre-hash (keygen --prehash).\n\
            SPHINCS+ round-3.1 keys (sphincs-*) have no OID and are raw bytes.\n\
            The *-24 sets are the limited-signature sets of draft SP 800-230 (ipd): no OID is\n\
            assigned, so their keys are raw bytes; a key must NEVER make more than 2^24 signatures.\n";
    out += "SPHINCS-256 (the 2015 scheme) has no OID either: raw SUPERCOP keys (sk SK1||Q||SK2, pk Q||root).\n";
    write_stdout(out.as_bytes(), false)
}

fn private_bytes(key: &DynSigningKey, der: bool) -> Result<Zeroizing<Vec<u8>>, CliError> {
    Ok(if der {
        key.to_pkcs8_der()?
    } else {
        let pem = key.to_pkcs8_pem()?;
        Zeroizing::new(pem.as_bytes().to_vec())
    })
}

fn public_bytes(key: &DynVerifyingKey, der: bool) -> Result<Vec<u8>, CliError> {
    Ok(if der {
        key.to_spki_der()?
    } else {
        key.to_spki_pem()?.into_bytes()
    })
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

/// Generates a key pair (see [`write_key_pair`]): a pure SLH-DSA key, or with
/// `--prehash` a HashSLH-DSA key (only with the pre-hash RFC 9909 binds to the set).
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
    let alg = parse_algorithm(Some(alg))?.expect("given");
    if alg.is_sp800_230() {
        return keygen_limited(alg, prehash, out, public, der, force, threads);
    }
    let mode = match prehash {
        Some(ph) => KeyMode::HashSlhDsa(ph).validate(alg)?,
        None => KeyMode::Pure,
    };
    check_key_outputs(out, public, force)?;
    // Asked before the work, so a mistyped confirmation costs no key generation.
    let passphrase = match encrypt {
        true => Some(crate::passphrase::for_writing(out)?),
        false => None,
    };
    let key = DynSigningKey::generate_with_threads(alg, threads)?.with_mode(mode)?;
    let public_key = match public {
        Some(_) => Some(public_bytes(&key.verifying_key(), der)?),
        None => None,
    };
    let private = match &passphrase {
        Some(p) if der => Zeroizing::new(key.to_encrypted_pkcs8_der(p)?),
        Some(p) => Zeroizing::new(key.to_encrypted_pkcs8_pem(p)?.into_bytes()),
        None => private_bytes(&key, der)?,
    };
    write_key_pair(out, &private, public.zip(public_key.as_deref()), force)?;
    let fp = key.verifying_key().fingerprint()?;
    crate::say::status(&crate::cmd_fingerprint::line(&fp, out))
}

/// `keygen` for a draft SP 800-230 set: raw keys (no OID exists), the tree
/// computed on `threads` threads with a progress bar on a terminal, and its
/// cache written beside the private key (`KEY.tree`).
fn keygen_limited(
    alg: Algorithm,
    prehash: Option<PreHash>,
    out: &Path,
    public: Option<&Path>,
    der: bool,
    force: bool,
    threads: usize,
) -> Result<(), CliError> {
    if der || prehash.is_some() {
        return Err(CliError::Failed(format!(
            "{alg} (draft SP 800-230 (ipd)) has no OID: its keys are raw bytes, so --der and --prehash do not apply (sign with --prehash to use HashSLH-DSA)"
        )));
    }
    check_key_outputs(out, public, force)?;
    let cache = crate::tree_file::cache_path(out);
    check_writable(&cache, force)?;
    let bar = crate::tree_file::tree_bar(alg, "computing");
    let key = DynSigningKey::generate_with_progress(alg, threads, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    let public_key = key.verifying_key().to_bytes();
    write_key_pair(
        out,
        &key.to_bytes(),
        public.map(|p| (p, &public_key[..])),
        force,
    )?;
    crate::tree_file::write_cache(out, &key)?;
    eprintln!(
        "sphincs: {alg} is a draft SP 800-230 (ipd) set: this key must never make more than 2^24 signatures"
    );
    Ok(())
}

/// Writes the public key of KEY, PEM or DER, to a file or standard output.
pub fn pubkey(
    key: &Path,
    out: Option<&Path>,
    der: bool,
    alg: Option<&str>,
    force: bool,
) -> Result<(), CliError> {
    let alg = parse_algorithm(alg)?;
    match out {
        Some(o) => check_writable(o, force)?,
        None if der => crate::io::refuse_binary_terminal()?,
        None => {}
    }
    let vk = load_public_half(key, alg)?;
    let bytes = public_bytes(&vk, der)?;
    match out {
        Some(o) => write_output(o, &bytes, false, force),
        None => write_stdout(&bytes, der),
    }
}
