//! Signing over rPGP: `sign` (detached signatures) and `inline-sign`
//! (one-pass-signed messages and the cleartext signature framework).

use pgp::armor::{self, BlockType};
use pgp::composed::{CleartextSignedMessage, DetachedSignature, MessageBuilder, SignedSecretKey};
use pgp::packet::{SignatureConfig, SignatureType, Subpacket, SubpacketData};
use pgp::ser::Serialize;
use pgp::types::{KeyVersion, Password, SigningKey, Timestamp};

use crate::keys::{data_hash, load_keys, signer, ARMOR};
use crate::sop::{
    expect_text, read_stdin, sign_as, write_stdout, Args, SignAs, SopError, SopResult,
};

fn hash_for(key: &dyn SigningKey) -> pgp::crypto::hash::HashAlgorithm {
    data_hash(key.algorithm(), key.hash_alg())
}

fn signers(keys: &[SignedSecretKey]) -> SopResult<Vec<&dyn SigningKey>> {
    keys.iter().map(signer).collect()
}

pub fn sign(args: &Args) -> SopResult<()> {
    let mode = sign_as(args, &[SignAs::Binary, SignAs::Text])?;
    let keys = load_keys(args.at_least_one("KEYS")?)?;
    let data = read_stdin()?;
    if mode == SignAs::Text {
        expect_text(&data)?;
    }
    let mut sigs = Vec::new();
    for key in signers(&keys)? {
        let (rng, pw, hash) = (rand::thread_rng(), Password::empty(), hash_for(key));
        let key = Box::new(key);
        let sig = match mode {
            SignAs::Text => DetachedSignature::sign_text_data(rng, &key, &pw, hash, &data[..]),
            _ => DetachedSignature::sign_binary_data(rng, &key, &pw, hash, &data[..]),
        };
        sigs.push(sig.map_err(|e| SopError::other(format!("signing: {e}")))?);
    }
    let mut out = Vec::new();
    if args.flag("--no-armor") {
        sigs.to_writer(&mut out)
    } else {
        armor::write(&sigs, BlockType::Signature, &mut out, None, false)
    }
    .map_err(SopError::other)?;
    write_stdout(&out)
}

pub fn inline_sign(args: &Args) -> SopResult<()> {
    let mode = sign_as(args, &[SignAs::Binary, SignAs::Text, SignAs::Clearsigned])?;
    let keys = load_keys(args.at_least_one("KEYS")?)?;
    let data = read_stdin()?;
    let signers = signers(&keys)?;
    let out = match mode {
        SignAs::Clearsigned => {
            if args.flag("--no-armor") {
                return Err(SopError::new(
                    crate::sop::INCOMPATIBLE_ARGS,
                    "--as=clearsigned with --no-armor",
                ));
            }
            clearsign(expect_text(&data)?, &signers)?
        }
        _ => {
            if mode == SignAs::Text {
                expect_text(&data)?;
            }
            one_pass_signed(data, mode, &signers, !args.flag("--no-armor"))?
        }
    };
    write_stdout(&out)
}

/// A literal data packet with one-pass signatures. Text signatures (0x01) go
/// over a binary ('b') literal: rPGP's 'u' literals demand CR LF line ends.
fn one_pass_signed(
    data: Vec<u8>,
    mode: SignAs,
    signers: &[&dyn SigningKey],
    armor: bool,
) -> SopResult<Vec<u8>> {
    let mut builder = MessageBuilder::from_bytes("", data);
    if mode == SignAs::Text {
        builder.sign_text();
    }
    for key in signers {
        builder.sign(*key, Password::empty(), hash_for(*key));
    }
    let mut out = Vec::new();
    let rng = rand::thread_rng();
    if armor {
        builder.to_armored_writer(rng, ARMOR, &mut out)
    } else {
        builder.to_writer(rng, &mut out)
    }
    .map_err(|e| SopError::other(format!("signing: {e}")))?;
    Ok(out)
}

/// The cleartext signature framework, one text signature per key.
///
/// rPGP 0.21 hashes the text as given, but strips trailing spaces and tabs
/// from each line when verifying (the framework ignores trailing whitespace,
/// and Sequoia strips it when signing): a line with trailing whitespace makes
/// a message that neither library verifies. Left as the library does it; the
/// interop tests should not feed such text to this verb.
fn clearsign(text: &str, signers: &[&dyn SigningKey]) -> SopResult<Vec<u8>> {
    let msg = CleartextSignedMessage::new_many(text, |normalized| {
        signers
            .iter()
            .map(|key| {
                let config = text_config(*key)?;
                config.sign(&Box::new(*key), &Password::empty(), normalized.as_bytes())
            })
            .collect()
    })
    .map_err(|e| SopError::other(format!("signing: {e}")))?;
    msg.to_armored_bytes(ARMOR).map_err(SopError::other)
}

/// A text signature's configuration with our hash choice and the subpackets
/// rPGP itself puts in data signatures (creation time, issuer fingerprint).
fn text_config(key: &dyn SigningKey) -> pgp::errors::Result<SignatureConfig> {
    let (typ, alg, hash) = (SignatureType::Text, key.algorithm(), hash_for(key));
    let mut config = match key.version() {
        KeyVersion::V6 => SignatureConfig::v6(rand::thread_rng(), typ, alg, hash)?,
        _ => SignatureConfig::v4(typ, alg, hash),
    };
    config.hashed_subpackets = vec![
        Subpacket::regular(SubpacketData::SignatureCreationTime(Timestamp::now()))?,
        Subpacket::regular(SubpacketData::IssuerFingerprint(key.fingerprint()))?,
    ];
    if key.version() == KeyVersion::V4 {
        config.unhashed_subpackets = vec![Subpacket::regular(SubpacketData::IssuerKeyId(
            key.legacy_key_id(),
        ))?];
    }
    Ok(config)
}
