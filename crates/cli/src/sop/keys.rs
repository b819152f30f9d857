//! `sop version`, `list-profiles`, `generate-key`, `change-key-password`,
//! `revoke-key` and `extract-cert`.

use sphincs::openpgp::{self, armor, Cert};

use super::inputs::{self, MAX_OBJECT};
use super::{Exit, Result, SopError};

/// generate-key's profiles: name, FIPS 205 set, description. The first is
/// the default.
pub const PROFILES: [(&str, &str, &str); 3] = [
    ("slh-dsa-shake-128s", "SLH-DSA-SHAKE-128s", "SLH-DSA-SHAKE-128s (RFC 9980 algorithm 32): 7856-octet signatures, slower signing (default)"),
    ("slh-dsa-shake-128f", "SLH-DSA-SHAKE-128f", "SLH-DSA-SHAKE-128f (RFC 9980 algorithm 33): 17088-octet signatures, fast signing"),
    ("slh-dsa-shake-256s", "SLH-DSA-SHAKE-256s", "SLH-DSA-SHAKE-256s (RFC 9980 algorithm 34): category 5, 29792-octet signatures"),
];

pub fn version(backend: bool, extended: bool, sop_spec: bool, sopv: bool) -> Result<()> {
    let v = env!("CARGO_PKG_VERSION");
    let text = if backend {
        format!("sphincs {v} (OpenPGP RFC 9580 v6 with RFC 9980 SLH-DSA, over the sphincs FIPS 205 engine)\n")
    } else if extended {
        format!(
            "sphincs-sop {v}\nsphincs {v}: RFC 9580 v6 keys and signatures, RFC 9980 SLH-DSA-SHAKE-128s/128f/256s\nsigning and verification only; no encryption, no v4 keys\n"
        )
    } else if sop_spec {
        "draft-dkg-openpgp-stateless-cli-14\n~ signing and verification verbs only; encryption verbs are unsupported\n".to_string()
    } else if sopv {
        "1.0\n".to_string()
    } else {
        format!("sphincs-sop {v}\n")
    };
    inputs::write_stdout(text.as_bytes())
}

pub fn list_profiles(subcommand: &str) -> Result<()> {
    if subcommand != "generate-key" {
        return Err(SopError::new(
            Exit::UnsupportedProfile,
            format!("{subcommand} has no profiles"),
        ));
    }
    let mut out = String::new();
    for (name, _, about) in PROFILES {
        out.push_str(&format!("{name}: {about}\n"));
    }
    inputs::write_stdout(out.as_bytes())
}

fn write_key(cert: &Cert, armored: bool, secret: bool) -> Result<()> {
    let bytes = cert.to_bytes(secret);
    if armored {
        let kind = if secret {
            armor::Kind::PrivateKey
        } else {
            armor::Kind::PublicKey
        };
        inputs::write_stdout(armor::encode(kind, &bytes).as_bytes())
    } else {
        inputs::write_stdout(&bytes)
    }
}

pub fn generate(
    armored: bool,
    password: Option<&str>,
    profile: Option<&str>,
    userids: &[String],
) -> Result<()> {
    let profile = profile.unwrap_or("default");
    let set = if profile == "default" {
        PROFILES[0].1
    } else {
        PROFILES
            .iter()
            .find(|p| p.0 == profile)
            .map(|p| p.1)
            .ok_or_else(|| {
                SopError::new(
                    Exit::UnsupportedProfile,
                    format!("no profile {profile:?}; `sop list-profiles generate-key` lists them"),
                )
            })?
    };
    let password = password.map(inputs::new_password).transpose()?;
    let alg = set
        .parse()
        .map_err(|e: sphincs::Error| SopError::new(Exit::Other, e.to_string()))?;
    let key = openpgp::generate(
        alg,
        userids,
        super::now() as u32,
        password.as_deref().map(|p| &p[..]),
    )?;
    write_key(&key, armored, true)
}

/// Reads secret keys from standard input (armored or binary).
fn read_keys_from_stdin() -> Result<Vec<Cert>> {
    let data = inputs::read_stdin(MAX_OBJECT)?;
    let keys = openpgp::read_certs(&data)?;
    if keys.iter().any(|k| !k.is_secret()) {
        return Err(SopError::new(
            Exit::BadData,
            "the input holds a certificate where a secret key was expected",
        ));
    }
    Ok(keys)
}

pub fn extract_cert(armored: bool) -> Result<()> {
    let data = inputs::read_stdin(MAX_OBJECT)?;
    let keys = openpgp::read_certs(&data)?;
    let mut out = Vec::new();
    for k in &keys {
        out.extend_from_slice(&k.to_bytes(false));
    }
    if armored {
        inputs::write_stdout(armor::encode(armor::Kind::PublicKey, &out).as_bytes())
    } else {
        inputs::write_stdout(&out)
    }
}

pub fn change_password(armored: bool, new: Option<&str>, old: &[String]) -> Result<()> {
    let keys = read_keys_from_stdin()?;
    let old = inputs::passwords(old)?;
    let old: Vec<&[u8]> = old.iter().map(|p| &p[..]).collect();
    let new = new.map(inputs::new_password).transpose()?;
    let mut out = Vec::new();
    for key in &keys {
        let changed = key.map_secrets(|s, tag| {
            let plain = s.unlock(tag, &old)?;
            let unlocked = openpgp::SecretKey {
                public: s.public.clone(),
                secret: openpgp::SecretMaterial::Plain(plain),
            };
            unlocked.with_protection(tag, new.as_deref().map(|p| &p[..]))
        })?;
        out.extend_from_slice(&changed.to_bytes(true));
    }
    if armored {
        inputs::write_stdout(armor::encode(armor::Kind::PrivateKey, &out).as_bytes())
    } else {
        inputs::write_stdout(&out)
    }
}

pub fn revoke(armored: bool, passwords: &[String]) -> Result<()> {
    let keys = read_keys_from_stdin()?;
    let passwords = inputs::passwords(passwords)?;
    let passwords: Vec<&[u8]> = passwords.iter().map(|p| &p[..]).collect();
    let now = super::now();
    let mut out = Vec::new();
    for key in &keys {
        let primary = openpgp::unlock_primary(key, &passwords)?;
        let sig = key.revocation(&primary, openpgp::Reason::Unspecified, "", now as u32)?;
        let revoked = key.with_revocation(sig, now)?;
        out.extend_from_slice(&revoked.to_bytes(false));
    }
    if armored {
        inputs::write_stdout(armor::encode(armor::Kind::PublicKey, &out).as_bytes())
    } else {
        inputs::write_stdout(&out)
    }
}
