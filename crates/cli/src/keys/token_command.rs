//! `sphincs pkcs11 list|keygen|import|openpgp`: the chores before signing
//! with a key in a PKCS#11 token. The token is named by a `pkcs11:` URI (its
//! module by `module-path=` or SPHINCS_PKCS11_MODULE); a new key's label and
//! id by the URI's `object` and `id`. Setting up the token itself (its
//! label, SO PIN and user PIN) is the token's own tool's job.

use std::path::{Path, PathBuf};

use clap::Subcommand;
use cryptoki::mechanism::Mechanism;
use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass, ObjectHandle};
use cryptoki::session::Session;

use crate::error::CliError;
use crate::files::{quote, write};
use crate::keys::load;
use crate::keys::token::{open_session, public_key};
use crate::keys::token_uri::TokenUri;
use crate::say;

#[derive(Subcommand)]
pub enum Pkcs11Command {
    /// List the SLH-DSA public keys of a token: label, id (hex), parameter set.
    List {
        /// The token: `pkcs11:token=LABEL?module-path=/path/module.so`
        /// (no token: the only one).
        #[arg(value_name = "URI")]
        uri: PathBuf,
    },
    /// Generate an SLH-DSA key pair in a token (the private key never
    /// leaves it), labelled and identified by the URI's object= and id=.
    Keygen {
        /// Parameter set, e.g. SLH-DSA-SHA2-128s.
        #[arg(short = 'a', long = "algorithm", value_name = "ALG")]
        algorithm: String,
        /// The new key: `pkcs11:token=T;object=LABEL;id=%01?module-path=…`.
        #[arg(value_name = "URI")]
        uri: PathBuf,
        /// Also write the public key here (SPKI PEM), for `sphincs verify -p`.
        #[arg(long = "pub", value_name = "PUB")]
        public: Option<PathBuf>,
        /// Replace an existing --pub file.
        #[arg(long)]
        force: bool,
    },
    /// Import an SLH-DSA private key file (and its public half) into a
    /// token, as a sensitive key that cannot be read back.
    Import {
        /// The private key file (PEM, DER; encrypted ones ask their passphrase).
        #[arg(short = 'k', long = "key", value_name = "KEY")]
        key: PathBuf,
        /// Where: `pkcs11:token=T;object=LABEL;id=%01?module-path=…`.
        #[arg(value_name = "URI")]
        uri: PathBuf,
    },
    /// Make the OpenPGP v6 certificate of a token's key (RFC 9980: a
    /// SLH-DSA-SHAKE-128s, -128f or -256s key), its self-signatures made by
    /// the token, and keep it on the token beside the key: `sop sign` and
    /// git's OpenPGP signing (`git setup --openpgp --key URI`) then take
    /// the key's URI.
    Openpgp {
        /// The key: `pkcs11:token=T;object=LABEL?module-path=…`.
        #[arg(value_name = "URI")]
        uri: PathBuf,
        /// User ID (repeatable; the first is primary).
        #[arg(long = "userid", value_name = "USERID", required = true)]
        user_ids: Vec<String>,
        /// When the key expires: a date (2028-12-31), a span (2y, 90d) or
        /// never (the default).
        #[arg(long, value_name = "WHEN")]
        expires: Option<String>,
        /// Write the certificate (armored) here, not to standard output.
        #[arg(short = 'o', long = "output", value_name = "CERT")]
        out: Option<PathBuf>,
        /// Replace an existing -o file.
        #[arg(long)]
        force: bool,
    },
}

pub fn run(command: Pkcs11Command) -> Result<(), CliError> {
    match command {
        Pkcs11Command::List { uri } => list(&TokenUri::parse_token(&uri)?),
        Pkcs11Command::Keygen {
            algorithm,
            uri,
            public,
            force,
        } => keygen(
            &algorithm,
            &TokenUri::parse(&uri)?,
            public.as_deref(),
            force,
        ),
        Pkcs11Command::Import { key, uri } => import(&key, &TokenUri::parse(&uri)?),
        Pkcs11Command::Openpgp {
            uri,
            user_ids,
            expires,
            out,
            force,
        } => super::token_openpgp::make(&uri, &user_ids, expires.as_deref(), out.as_deref(), force),
    }
}

fn failed(what: &'static str) -> impl Fn(cryptoki::error::Error) -> CliError {
    move |e| CliError::Failed(format!("PKCS#11: {what}: {e}"))
}

fn list(uri: &TokenUri) -> Result<(), CliError> {
    let session = open_session(uri, false)?;
    let keys = session
        .find_objects(&[
            Attribute::Class(ObjectClass::PUBLIC_KEY),
            Attribute::KeyType(KeyType::SLH_DSA),
        ])
        .map_err(failed("C_FindObjects"))?;
    let mut out = String::new();
    for key in keys {
        let (label, id) = label_and_id(&session, key)?;
        let set = match public_key(&session, key) {
            Ok(k) => k.algorithm().to_string(),
            Err(e) => e.into_message(),
        };
        out.push_str(&format!(
            "{}\tid={}\t{set}\n",
            quote::text(&label),
            crate::hex::encode_upper(&id)
        ));
    }
    write::write_stdout(out.as_bytes(), false)
}

fn label_and_id(session: &Session, key: ObjectHandle) -> Result<(String, Vec<u8>), CliError> {
    let attrs = session
        .get_attributes(key, &[AttributeType::Label, AttributeType::Id])
        .map_err(failed("C_GetAttributeValue"))?;
    let (mut label, mut id) = (String::new(), Vec::new());
    for a in attrs {
        match a {
            Attribute::Label(l) => label = String::from_utf8_lossy(&l).into_owned(),
            Attribute::Id(i) => id = i,
            _ => {}
        }
    }
    Ok((label, id))
}

/// The attributes both halves of a new key carry: its label, and its id,
/// `fresh` when the URI gives none: clients such as OpenSSL's
/// pkcs11-provider find a private key's public half by CKA_ID.
fn names(
    uri: &TokenUri,
    fresh: impl FnOnce() -> Result<Vec<u8>, CliError>,
) -> Result<Vec<Attribute>, CliError> {
    let mut names = Vec::new();
    if let Some(label) = &uri.object {
        names.push(Attribute::Label(label.as_bytes().to_vec()));
    }
    names.push(Attribute::Id(match &uri.id {
        Some(id) => id.clone(),
        None => fresh()?,
    }));
    Ok(names)
}

/// The id of a key imported with none given: the first 16 bytes of its
/// PK.root (the public key's second half, the root of its hypertree).
fn id_of(public: &[u8]) -> Vec<u8> {
    public[public.len() / 2..][..16].to_vec()
}

/// The `CKA_PARAMETER_SET` attribute of a set.
fn parameter_set(alg: sphincs::Algorithm) -> Result<Attribute, CliError> {
    let set = sphincs_pkcs11::names::parameter_set(alg).ok_or_else(|| {
        CliError::Failed(format!(
            "{alg} has no PKCS#11 parameter set (PKCS#11 3.2 names the twelve FIPS 205 sets)"
        ))
    })?;
    let set = cryptoki::object::SlhDsaParameterSetType::try_from(set)
        .map_err(|e| CliError::Failed(format!("PKCS#11: {e}")))?;
    Ok(Attribute::ParameterSet(set.into()))
}

fn keygen(name: &str, uri: &TokenUri, public: Option<&Path>, force: bool) -> Result<(), CliError> {
    if let Some(p) = public {
        write::check_writable(p, force)?;
    }
    let alg = load::parse_algorithm(Some(name))?
        .ok_or_else(|| CliError::Failed("-a names no parameter set".into()))?;
    let set = parameter_set(alg)?;
    let session = open_session(uri, true)?;
    // 16 random bytes from the token, when the URI names no id.
    let names = names(uri, || {
        session
            .generate_random_vec(16)
            .map_err(failed("C_GenerateRandom (the new key's CKA_ID)"))
    })?;
    let mut pub_template = vec![
        Attribute::Token(true),
        Attribute::Verify(true),
        Attribute::KeyType(KeyType::SLH_DSA),
        set,
    ];
    pub_template.extend(names.iter().cloned());
    let mut priv_template = vec![
        Attribute::Token(true),
        Attribute::Private(true),
        Attribute::Sensitive(true),
        Attribute::Extractable(false),
        Attribute::Sign(true),
        Attribute::KeyType(KeyType::SLH_DSA),
    ];
    priv_template.extend(names);
    let (pub_key, _) = session
        .generate_key_pair(&Mechanism::SlhDsaKeyPairGen, &pub_template, &priv_template)
        .map_err(failed("C_GenerateKeyPair"))?;
    let key = public_key(&session, pub_key)?;
    if let Some(p) = public {
        let pem = key
            .to_spki_pem()
            .map_err(|e| CliError::Failed(e.to_string()))?;
        write::write_output(p, pem.as_bytes(), false, force)?;
    }
    say::status(&format!(
        "generated {} in the token ({})\n",
        key.algorithm(),
        uri.object.as_deref().map_or("no label".into(), quote::text)
    ))
}

fn import(file: &Path, uri: &TokenUri) -> Result<(), CliError> {
    let key = load::load_signing_key(file, None)?;
    let alg = key
        .algorithm()
        .slh_dsa()
        .ok_or_else(|| load::not_fips205(file))?;
    let set = parameter_set(alg)?;
    let session = open_session(uri, true)?;
    let mut private = vec![
        Attribute::Class(ObjectClass::PRIVATE_KEY),
        Attribute::KeyType(KeyType::SLH_DSA),
        Attribute::Token(true),
        Attribute::Private(true),
        Attribute::Sensitive(true),
        Attribute::Extractable(false),
        Attribute::Sign(true),
        set.clone(),
        Attribute::Value(key.to_bytes().to_vec()),
    ];
    let names = names(uri, || Ok(id_of(&key.verifying_key().to_bytes())))?;
    private.extend(names.iter().cloned());
    let mut public = vec![
        Attribute::Class(ObjectClass::PUBLIC_KEY),
        Attribute::KeyType(KeyType::SLH_DSA),
        Attribute::Token(true),
        Attribute::Verify(true),
        set,
        Attribute::Value(key.verifying_key().to_bytes()),
    ];
    public.extend(names);
    session
        .create_object(&public)
        .map_err(failed("C_CreateObject (public key)"))?;
    let made = session.create_object(&private);
    // The private value's copy in the template is wiped either way.
    if let Some(Attribute::Value(v)) = private
        .iter_mut()
        .find(|a| matches!(a, Attribute::Value(_)))
    {
        zeroize::Zeroize::zeroize(v);
    }
    made.map_err(failed("C_CreateObject (private key)"))?;
    say::status(&format!(
        "imported {} into the token ({})\n",
        alg,
        uri.object.as_deref().map_or("no label".into(), quote::text)
    ))
}
