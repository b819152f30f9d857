//! A key in a PKCS#11 token as an OpenPGP key. Its certificate (RFC 9580
//! v6, RFC 9980 SLH-DSA), made once by `sphincs pkcs11 openpgp` with the
//! token signing the self-signatures, is kept on the token beside the key:
//! a public data object (CKO_DATA) with the key's label and
//! CKA_APPLICATION "OpenPGP certificate". One URI then names all that an
//! OpenPGP signature needs: the key that signs, and the public key
//! (creation time, fingerprint) it signs as. An OpenPGP card keeps its
//! keys' creation times and fingerprints on the card for the same reason.

use std::path::Path;

use cryptoki::object::{Attribute, ObjectClass, ObjectHandle};
use cryptoki::session::Session;
use sphincs::any::AnySigner;
use sphincs::openpgp::{self, armor, Cert, UnlockedKey};

use crate::error::CliError;
use crate::files::{quote, write};
use crate::keys::token::{open_session, TokenKey};
use crate::keys::token_uri::TokenUri;
use crate::say;

/// CKA_APPLICATION of the data object that keeps a key's certificate.
const APPLICATION: &[u8] = b"OpenPGP certificate";

/// The longest certificate read back from a token.
const MAX_CERT: usize = 1 << 20;

fn failed(what: &'static str) -> impl Fn(cryptoki::error::Error) -> CliError {
    move |e| CliError::Failed(format!("PKCS#11: {what}: {e}"))
}

/// The key's label: the certificate is found by it (a data object has no
/// CKA_ID).
fn label(uri: &TokenUri) -> Result<&str, CliError> {
    uri.object.as_deref().ok_or_else(|| {
        CliError::Failed(
            "name the key by object=LABEL: its OpenPGP certificate is kept under that label".into(),
        )
    })
}

/// The data objects that keep the certificate of the key labelled `label`.
fn kept(session: &Session, label: &str) -> Result<Vec<ObjectHandle>, CliError> {
    session
        .find_objects(&[
            Attribute::Class(ObjectClass::DATA),
            Attribute::Label(label.as_bytes().to_vec()),
            Attribute::Application(APPLICATION.to_vec()),
        ])
        .map_err(failed("C_FindObjects"))
}

/// The OpenPGP certificate kept on the token beside the key `key` names
/// (read without logging in).
pub fn cert_of(key: &Path) -> Result<Cert, CliError> {
    let uri = TokenUri::parse(key)?;
    let label = label(&uri)?;
    let session = open_session(&uri, false)?;
    let handle = match kept(&session, label)?[..] {
        [one] => one,
        [] => {
            return Err(CliError::Failed(format!(
                "PKCS#11: the token keeps no OpenPGP certificate for the key {}; make one with `sphincs pkcs11 openpgp URI --userid 'Name <email>'`",
                quote::text(label)
            )))
        }
        _ => {
            return Err(CliError::Failed(format!(
                "PKCS#11: the token keeps several OpenPGP certificates labelled {}; remove all but one",
                quote::text(label)
            )))
        }
    };
    let value = session
        .get_attributes(handle, &[cryptoki::object::AttributeType::Value])
        .map_err(failed("C_GetAttributeValue"))?
        .into_iter()
        .find_map(|a| match a {
            Attribute::Value(v) => Some(v),
            _ => None,
        })
        .unwrap_or_default();
    if value.len() > MAX_CERT {
        return Err(CliError::Failed(format!(
            "PKCS#11: the OpenPGP certificate kept for {} is over 1 MiB",
            quote::text(label)
        )));
    }
    let cert = Cert::parse_all(&value)
        .map_err(|e| {
            CliError::Failed(format!(
                "PKCS#11: the OpenPGP certificate kept for {}: {e}",
                quote::text(label)
            ))
        })?
        .into_iter()
        .next()
        .ok_or_else(|| {
            CliError::Failed(format!(
                "PKCS#11: the OpenPGP certificate kept for {} is empty",
                quote::text(label)
            ))
        })?;
    Ok(cert)
}

/// `key` (a token's key) as the key of `cert` that it is, to sign with.
pub fn as_openpgp(cert: &Cert, key: Box<dyn AnySigner>) -> Result<UnlockedKey, CliError> {
    let public = cert
        .signing_public(&key.verifying_key(), crate::git::now())
        .map_err(|e| CliError::Failed(format!("PKCS#11: {e}")))?;
    Ok(UnlockedKey { public, key })
}

/// `sphincs pkcs11 openpgp URI --userid UID…`: certifies the token's key
/// as an OpenPGP primary key (created now), keeps the certificate on the
/// token (replacing one kept before) and writes it, armored, to `out` or
/// standard output: the certificate to publish.
pub fn make(
    key: &Path,
    user_ids: &[String],
    expires: Option<&str>,
    out: Option<&Path>,
    force: bool,
) -> Result<(), CliError> {
    if let Some(p) = out {
        write::check_writable(p, force)?;
    }
    let uri = TokenUri::parse(key)?;
    let label = label(&uri)?;
    let now = crate::git::now();
    let expires = expires
        .map(|w| crate::openpgp::life::parse_when(w, now))
        .transpose()?
        .flatten();
    let signer = TokenKey::open(key)?;
    let created = u32::try_from(now)
        .map_err(|_| CliError::Failed("the clock is past 2106: no OpenPGP time".into()))?;
    let cert = openpgp::certify(&signer, user_ids, created, expires)
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let bytes = cert.to_bytes(false);
    {
        let session = signer.session();
        for old in kept(&session, label)? {
            session
                .destroy_object(old)
                .map_err(failed("C_DestroyObject (the certificate kept before)"))?;
        }
        session
            .create_object(&[
                Attribute::Class(ObjectClass::DATA),
                Attribute::Token(true),
                Attribute::Private(false),
                Attribute::Label(label.as_bytes().to_vec()),
                Attribute::Application(APPLICATION.to_vec()),
                Attribute::Value(bytes.to_vec()),
            ])
            .map_err(failed("C_CreateObject (the OpenPGP certificate)"))?;
    }
    let armored = armor::encode(armor::Kind::PublicKey, &bytes);
    let Some(p) = out else {
        return write::write_stdout(armored.as_bytes(), false);
    };
    write::write_output(p, armored.as_bytes(), false, force)?;
    say::status(&format!(
        "certified the token's key {} as OpenPGP key {}; its certificate is kept on the token\n",
        quote::text(label),
        cert.fingerprint()
    ))
}
