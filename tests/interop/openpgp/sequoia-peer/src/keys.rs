//! Keys and certificates over Sequoia: `generate-key`, `extract-cert`,
//! reading key and certificate files, and the signing key pairs.

use sequoia_openpgp as openpgp;

use openpgp::cert::prelude::*;
use openpgp::crypto::KeyPair;
use openpgp::parse::Parse;
use openpgp::policy::{Policy, StandardPolicy};
use openpgp::serialize::SerializeInto;
use openpgp::types::{
    HashAlgorithm, KeyFlags, PublicKeyAlgorithm, PublicKeyAlgorithmSpecification,
};
use openpgp::Profile;

use crate::sop::{bad_data, read_file, read_stdin, write_stdout, Args, SopError, SopResult};

/// Sequoia's default policy, used for every key, certificate and signature.
pub fn policy() -> StandardPolicy<'static> {
    StandardPolicy::new()
}

/// The hash for data signatures made by these keys together (Sequoia uses
/// one for all signers): SHA-512 if one is SLH-DSA-SHAKE-256s, SHA-256 for
/// the 128-bit SLH-DSA sets, otherwise Sequoia's own choice (`None`).
pub fn data_hash(algos: impl IntoIterator<Item = PublicKeyAlgorithm>) -> Option<HashAlgorithm> {
    let mut choice = None;
    for algo in algos {
        match algo {
            PublicKeyAlgorithm::SLHDSA256s => return Some(HashAlgorithm::SHA512),
            PublicKeyAlgorithm::SLHDSA128s | PublicKeyAlgorithm::SLHDSA128f => {
                choice = Some(HashAlgorithm::SHA256)
            }
            _ => {}
        }
    }
    choice
}

pub fn generate_key(args: &Args) -> SopResult<()> {
    let spec = match args.value("--profile").unwrap_or("slh-dsa-shake-128s") {
        "slh-dsa-shake-128s" | "default" => PublicKeyAlgorithmSpecification::slhdsa128s(),
        "slh-dsa-shake-128f" => PublicKeyAlgorithmSpecification::slhdsa128f(),
        "slh-dsa-shake-256s" => PublicKeyAlgorithmSpecification::slhdsa256s(),
        other => {
            return Err(SopError::new(
                crate::sop::UNSUPPORTED_PROFILE,
                format!("unsupported profile {other}"),
            ))
        }
    };
    let mut builder = CertBuilder::new()
        .set_profile(Profile::RFC9580)
        .map_err(SopError::other)?
        .set_signing_algorithm(spec)
        .set_primary_key_flags(KeyFlags::empty().set_certification().set_signing());
    for uid in &args.positional {
        builder = builder.add_userid(uid.as_str());
    }
    let (key, _revocation) = builder
        .generate()
        .map_err(|e| SopError::other(format!("key generation: {e}")))?;
    let out = if args.flag("--no-armor") {
        key.as_tsk().to_vec()
    } else {
        key.as_tsk().armored().to_vec()
    };
    write_stdout(&out.map_err(SopError::other)?)
}

pub fn extract_cert(args: &Args) -> SopResult<()> {
    let key = Cert::from_bytes(&read_stdin()?).map_err(bad_data("key"))?;
    let cert = key.strip_secret_key_material();
    let out = if args.flag("--no-armor") {
        cert.to_vec()
    } else {
        cert.armored().to_vec()
    };
    write_stdout(&out.map_err(SopError::other)?)
}

/// Every certificate (or key) in the given files that is valid under the
/// policy; a file with none is BAD_DATA.
pub fn load_certs(paths: &[String]) -> SopResult<Vec<Cert>> {
    let p = policy();
    let mut certs = Vec::new();
    for path in paths {
        let data = read_file(path)?;
        let mut found = 0;
        for cert in CertParser::from_bytes(&data).map_err(bad_data(path))? {
            let cert = cert.map_err(bad_data(path))?;
            match cert.with_policy(&p, None) {
                Ok(_) => {
                    certs.push(cert);
                    found += 1;
                }
                Err(e) => eprintln!("{path}: skipping {}: {e}", cert.fingerprint()),
            }
        }
        if found == 0 {
            return Err(SopError::new(
                crate::sop::BAD_DATA,
                format!("{path}: no usable certificate"),
            ));
        }
    }
    Ok(certs)
}

/// One key pair per secret key: its first live, unencrypted, signing-capable
/// key (the primary key first), as Sequoia's policy sees it.
pub fn signing_keypairs(paths: &[String]) -> SopResult<Vec<KeyPair>> {
    let p: &dyn Policy = &policy();
    let mut pairs = Vec::new();
    for key in load_certs(paths)? {
        if !key.is_tsk() {
            return Err(SopError::new(
                crate::sop::BAD_DATA,
                format!("{} is not a secret key", key.fingerprint()),
            ));
        }
        let ka = key
            .keys()
            .unencrypted_secret()
            .with_policy(p, None)
            .supported()
            .alive()
            .revoked(false)
            .for_signing()
            .next()
            .ok_or_else(|| {
                SopError::new(
                    crate::sop::KEY_CANNOT_SIGN,
                    format!("key {} cannot sign", key.fingerprint()),
                )
            })?;
        pairs.push(ka.key().clone().into_keypair().map_err(SopError::other)?);
    }
    Ok(pairs)
}
