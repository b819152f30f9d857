//! Signing over Sequoia's streaming API: `sign` (detached signatures) and
//! `inline-sign` (one-pass-signed messages and the cleartext framework).

use std::io::Write;

use sequoia_openpgp as openpgp;

use openpgp::armor;
use openpgp::crypto::KeyPair;
use openpgp::packet::signature::SignatureBuilder;
use openpgp::serialize::stream::{Armorer, LiteralWriter, Message, Signer};
use openpgp::types::{DataFormat, SignatureType};

use crate::keys::{data_hash, signing_keypairs};
use crate::sop::{
    expect_text, read_stdin, sign_as, write_stdout, Args, SignAs, SopError, SopResult,
};

/// A `Signer` over `inner` with all key pairs, our hash choice and the
/// signature type of `mode` (0x01 for text, 0x00 otherwise).
fn signer<'a>(
    inner: Message<'a>,
    pairs: Vec<KeyPair>,
    mode: SignAs,
) -> openpgp::Result<Signer<'a>> {
    let typ = match mode {
        SignAs::Binary => SignatureType::Binary,
        SignAs::Text | SignAs::Clearsigned => SignatureType::Text,
    };
    let hash = data_hash(pairs.iter().map(|p| p.public().pk_algo()));
    let mut pairs = pairs.into_iter();
    let first = pairs.next().expect("at least one key");
    let mut signer = Signer::with_template(inner, first, SignatureBuilder::new(typ))?;
    for pair in pairs {
        signer = signer.add_signer(pair)?;
    }
    if let Some(hash) = hash {
        signer = signer.hash_algo(hash)?;
    }
    Ok(signer)
}

fn signing_error(e: impl std::fmt::Display) -> SopError {
    SopError::other(format!("signing: {e}"))
}

pub fn sign(args: &Args) -> SopResult<()> {
    let mode = sign_as(args, &[SignAs::Binary, SignAs::Text])?;
    let pairs = signing_keypairs(args.at_least_one("KEYS")?)?;
    let data = read_stdin()?;
    if mode == SignAs::Text {
        expect_text(&data)?;
    }
    let mut out = Vec::new();
    let run = || -> openpgp::Result<()> {
        let mut message = Message::new(&mut out);
        if !args.flag("--no-armor") {
            message = Armorer::new(message).kind(armor::Kind::Signature).build()?;
        }
        let mut message = signer(message, pairs, mode)?.detached().build()?;
        message.write_all(&data)?;
        message.finalize()
    };
    run().map_err(signing_error)?;
    write_stdout(&out)
}

pub fn inline_sign(args: &Args) -> SopResult<()> {
    let mode = sign_as(args, &[SignAs::Binary, SignAs::Text, SignAs::Clearsigned])?;
    let armor = !args.flag("--no-armor");
    if mode == SignAs::Clearsigned && !armor {
        return Err(SopError::new(
            crate::sop::INCOMPATIBLE_ARGS,
            "--as=clearsigned with --no-armor",
        ));
    }
    let pairs = signing_keypairs(args.at_least_one("KEYS")?)?;
    let data = read_stdin()?;
    if mode != SignAs::Binary {
        expect_text(&data)?;
    }
    let mut out = Vec::new();
    let run = || -> openpgp::Result<()> {
        let mut message = Message::new(&mut out);
        if mode == SignAs::Clearsigned {
            // The cleartext framework writes its own armor.
            let mut message = signer(message, pairs, mode)?.cleartext().build()?;
            message.write_all(&data)?;
            return message.finalize();
        }
        if armor {
            message = Armorer::new(message).kind(armor::Kind::Message).build()?;
        }
        let message = signer(message, pairs, mode)?.build()?;
        let format = match mode {
            SignAs::Text => DataFormat::Unicode,
            _ => DataFormat::Binary,
        };
        let mut message = LiteralWriter::new(message).format(format).build()?;
        message.write_all(&data)?;
        message.finalize()
    };
    run().map_err(signing_error)?;
    write_stdout(&out)
}
