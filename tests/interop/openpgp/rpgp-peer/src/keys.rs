//! Keys and certificates over rPGP: `generate-key`, `extract-cert`, reading
//! key and certificate files, and picking the signing (sub)key.

use pgp::composed::{
    ArmorOptions, Deserializable, KeyType, SecretKeyParamsBuilder, SignedPublicKey, SignedSecretKey,
};
use pgp::crypto::{hash::HashAlgorithm, public_key::PublicKeyAlgorithm};
use pgp::packet::Signature;
use pgp::ser::Serialize;
use pgp::types::{KeyDetails, KeyVersion};

use crate::sop::{bad_data, read_file, read_stdin, write_stdout, Args, SopError, SopResult};

/// RFC 9580 armor without the optional CRC-24 footer.
pub const ARMOR: ArmorOptions<'static> = ArmorOptions {
    headers: None,
    include_checksum: false,
};

/// The hash for data signatures: SHA-256 for the 128-bit SLH-DSA sets,
/// SHA-512 for SLH-DSA-SHAKE-256s, the library's choice for anything else.
pub fn data_hash(alg: PublicKeyAlgorithm, library_choice: HashAlgorithm) -> HashAlgorithm {
    match alg {
        PublicKeyAlgorithm::SlhDsaShake128s | PublicKeyAlgorithm::SlhDsaShake128f => {
            HashAlgorithm::Sha256
        }
        PublicKeyAlgorithm::SlhDsaShake256s => HashAlgorithm::Sha512,
        _ => library_choice,
    }
}

pub fn generate_key(args: &Args) -> SopResult<()> {
    let key_type = match args.value("--profile").unwrap_or("slh-dsa-shake-128s") {
        "slh-dsa-shake-128s" | "default" => KeyType::SlhDsaShake128s,
        "slh-dsa-shake-128f" => KeyType::SlhDsaShake128f,
        "slh-dsa-shake-256s" => KeyType::SlhDsaShake256s,
        other => {
            return Err(SopError::new(
                crate::sop::UNSUPPORTED_PROFILE,
                format!("unsupported profile {other}"),
            ))
        }
    };
    let hash = data_hash(key_type.to_alg(), HashAlgorithm::Sha256);
    let mut params = SecretKeyParamsBuilder::default();
    params
        .version(KeyVersion::V6)
        .key_type(key_type)
        .can_certify(true)
        .can_sign(true)
        .feature_seipd_v2(true)
        .preferred_hash_algorithms(vec![hash].into());
    if let Some((first, rest)) = args.positional.split_first() {
        params
            .primary_user_id(first.clone())
            .user_ids(rest.to_vec());
    }
    let params = params.build().map_err(SopError::other)?;
    let key = params
        .generate(rand::thread_rng())
        .map_err(|e| SopError::other(format!("key generation: {e}")))?;
    let out = if args.flag("--no-armor") {
        key.to_bytes()
    } else {
        key.to_armored_bytes(ARMOR)
    };
    write_stdout(&out.map_err(SopError::other)?)
}

pub fn extract_cert(args: &Args) -> SopResult<()> {
    let data = read_stdin()?;
    let (key, _) = SignedSecretKey::from_reader_single(&data[..]).map_err(bad_data("key"))?;
    let cert = key.to_public_key();
    let out = if args.flag("--no-armor") {
        cert.to_bytes()
    } else {
        cert.to_armored_bytes(ARMOR)
    };
    write_stdout(&out.map_err(SopError::other)?)
}

/// All secret keys in the given files (each may hold several).
pub fn load_keys(paths: &[String]) -> SopResult<Vec<SignedSecretKey>> {
    let mut keys = Vec::new();
    for path in paths {
        let data = read_file(path)?;
        let (iter, _) = SignedSecretKey::from_reader_many(&data[..]).map_err(bad_data(path))?;
        for key in iter {
            let key = key.map_err(bad_data(path))?;
            key.verify_bindings().map_err(bad_data(path))?;
            keys.push(key);
        }
    }
    if keys.is_empty() {
        return Err(SopError::new(crate::sop::BAD_DATA, "no secret key found"));
    }
    Ok(keys)
}

/// All certificates in the given files whose self-signatures verify; a file
/// with none of them is BAD_DATA.
pub fn load_certs(paths: &[String]) -> SopResult<Vec<SignedPublicKey>> {
    let mut certs = Vec::new();
    for path in paths {
        let data = read_file(path)?;
        let (iter, _) = SignedPublicKey::from_reader_many(&data[..]).map_err(bad_data(path))?;
        let mut found = 0;
        for cert in iter {
            let cert = cert.map_err(bad_data(path))?;
            match cert.verify_bindings() {
                Ok(()) => {
                    certs.push(cert);
                    found += 1;
                }
                Err(e) => eprintln!("{path}: skipping a certificate: {e}"),
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

/// Whether any of these self-signatures gives the "sign data" key flag.
pub fn flags_allow_signing<'a>(sigs: impl IntoIterator<Item = &'a Signature>) -> bool {
    sigs.into_iter().any(|s| s.key_flags().sign())
}

/// Whether the primary key of these key details may sign data (its direct-key
/// or User ID self-signatures carry the signing flag).
pub fn primary_can_sign(details: &pgp::composed::SignedKeyDetails) -> bool {
    flags_allow_signing(&details.direct_signatures)
        || details
            .users
            .iter()
            .any(|u| flags_allow_signing(&u.signatures))
}

/// The signing key of a secret key: its primary key if that may sign, else its
/// first signing-capable subkey.
pub fn signer(key: &SignedSecretKey) -> SopResult<&dyn pgp::types::SigningKey> {
    if primary_can_sign(&key.details) {
        return Ok(&key.primary_key);
    }
    key.secret_subkeys
        .iter()
        .find(|s| flags_allow_signing(&s.signatures))
        .map(|s| &s.key as &dyn pgp::types::SigningKey)
        .ok_or_else(|| {
            SopError::new(
                crate::sop::KEY_CANNOT_SIGN,
                format!("key {:X} cannot sign", key.primary_key.fingerprint()),
            )
        })
}
