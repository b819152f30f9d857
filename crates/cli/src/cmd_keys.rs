//! `list`, `keygen` and `pubkey`.

use std::path::Path;

use sphincs::{Algorithm, DynSigningKey, DynVerifyingKey, KeyMode, PreHash};
use zeroize::Zeroizing;

use crate::error::CliError;
use crate::io::{check_key_outputs, check_writable, write_key_pair, write_output, write_stdout};
use crate::keyfile::{load_public_half, parse_algorithm};

/// Prints the twelve FIPS 205 sets (with their pure and HashSLH-DSA OIDs)
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
            alg.oid(),
            alg.hash_oid(),
            alg.bound_prehash()
        );
    }
    out += &crate::cmd_spx::list_rows();
    out += &crate::cmd_s256::list_row();
    out +=
        "Sizes in bytes. FIPS 205 keys are written as PKCS#8 / SubjectPublicKeyInfo (RFC 9909);\n\
            the OID binds a key to pure SLH-DSA or to HashSLH-DSA with its pre-hash (keygen --prehash).\n\
            SPHINCS+ round-3.1 keys (sphincs-*) have no OID and are raw bytes.\n";
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
