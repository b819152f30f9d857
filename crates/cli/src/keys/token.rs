//! Keys held in a PKCS#11 token (an HSM, a smart card, a software token
//! such as ours, `libsphincs_pkcs11.so`, or kryoptic), named by an RFC 7512
//! URI where a key file is accepted: the token signs, through CKM_SLH_DSA
//! (pure) or `CKM_HASH_SLH_DSA_<hash>` (HashSLH-DSA, the message streamed to
//! the token), with the context and the hedging the signing options ask
//! for; the signature is verified here with the key's public half before
//! it is released.

use std::path::Path;
use std::sync::Mutex;

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::error::RvError;
use cryptoki::mechanism::dsa::{HedgeType, SignAdditionalContext};
use cryptoki::mechanism::Mechanism;
use cryptoki::object::{Attribute, AttributeType, ObjectClass, ObjectHandle};
use cryptoki::session::{Session, UserType};
use cryptoki::types::AuthPin;
use sphincs::any::{AnyAlgorithm, AnySigner, AnyVerifyingKey};
use sphincs::{Error, MessageSource, PreHash, Randomness, SignOptions};

use crate::error::CliError;
use crate::files::{passphrase, quote};
use crate::keys::token_uri::TokenUri;

/// A private key in a token, with its public half (read from the token's
/// public key object of the same label or id).
pub struct TokenKey {
    session: Mutex<Session>,
    key: ObjectHandle,
    public: AnyVerifyingKey,
}

/// The longest message signed with pure SLH-DSA in one call (the token
/// reads it twice, so it is sent whole): as the CLI buffers a piped message.
const MAX_PURE_MESSAGE: u64 = crate::files::read::MAX_BUFFERED_MESSAGE;

fn token_error(what: &str) -> impl Fn(cryptoki::error::Error) -> CliError + '_ {
    move |e| CliError::Failed(format!("PKCS#11: {what}: {}", describe(&e)))
}

/// A token's answer, short: the return value's name (`MechanismInvalid`
/// for CKR_MECHANISM_INVALID), or cryptoki's own text for the rest.
fn describe(e: &cryptoki::error::Error) -> String {
    match e {
        cryptoki::error::Error::Pkcs11(rv, _) => format!("the token answered {rv:?}"),
        other => other.to_string(),
    }
}

/// The module at `module`, loaded and initialised once in this process: a
/// second C_Initialize is CKR_CRYPTOKI_ALREADY_INITIALIZED, and the agent
/// holds keys of one module in several sessions.
fn context(module: &str) -> Result<Pkcs11, CliError> {
    static LOADED: Mutex<Vec<(String, Pkcs11)>> = Mutex::new(Vec::new());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = loaded.iter().find(|(m, _)| m == module) {
        return Ok(p.clone());
    }
    let pkcs11 = Pkcs11::new(module).map_err(|e| {
        CliError::Failed(format!(
            "cannot load the PKCS#11 module {}: {e}",
            quote::text(module)
        ))
    })?;
    pkcs11
        .initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK))
        .map_err(token_error("C_Initialize"))?;
    loaded.push((module.to_string(), pkcs11.clone()));
    Ok(pkcs11)
}

/// Loads the module a URI names and opens a session on the token it names
/// (the only token, when it names none), logged in as its user when `login`.
pub fn open_session(uri: &TokenUri, login: bool) -> Result<Session, CliError> {
    let module = uri.module()?;
    let pkcs11 = context(&module)?;
    let mut found = Vec::new();
    for slot in pkcs11
        .get_slots_with_token()
        .map_err(token_error("C_GetSlotList"))?
    {
        let info = pkcs11
            .get_token_info(slot)
            .map_err(token_error("C_GetTokenInfo"))?;
        let label_ok = uri.token.as_deref().is_none_or(|t| info.label() == t);
        let serial_ok = uri
            .serial
            .as_deref()
            .is_none_or(|s| info.serial_number() == s);
        if label_ok && serial_ok {
            found.push((slot, info.label().to_string()));
        }
    }
    let (slot, label) = match found.len() {
        1 => found.remove(0),
        0 => {
            return Err(CliError::Failed(format!(
                "PKCS#11: no token {} in {}",
                uri.token.as_deref().map_or("at all".into(), quote::text),
                quote::text(&module)
            )))
        }
        _ => {
            return Err(CliError::Failed(format!(
                "PKCS#11: {} tokens match; name one with token=LABEL",
                found.len()
            )))
        }
    };
    let session = pkcs11
        .open_rw_session(slot)
        .or_else(|_| pkcs11.open_ro_session(slot))
        .map_err(token_error("C_OpenSession"))?;
    if login {
        let pin = pin_of(uri, &label)?;
        let seen = pin_digest(&module, slot.id(), &pin);
        let text = String::from_utf8(pin.to_vec())
            .map_err(|_| CliError::Failed("the PIN is not UTF-8".into()))?;
        let at = (module.clone(), slot.id());
        let mut logins = LOGINS.lock().unwrap_or_else(|e| e.into_inner());
        match session.login(UserType::User, Some(&AuthPin::from(text))) {
            Ok(()) => {
                logins.retain(|(token, _)| *token != at);
                logins.push((at, seen));
            }
            // The token's login is shared by all of this process's sessions
            // (the agent's other keys of it): the PIN must be the one that
            // logged in last, or this key would be reached without its PIN.
            Err(cryptoki::error::Error::Pkcs11(RvError::UserAlreadyLoggedIn, _))
                if logins.contains(&(at, seen.clone())) => {}
            Err(cryptoki::error::Error::Pkcs11(RvError::UserAlreadyLoggedIn, _)) => {
                return Err(CliError::Failed(
                    "PKCS#11: C_Login: the token is logged in already, with another PIN".into(),
                ))
            }
            Err(e) => return Err(token_error("C_Login")(e)),
        }
    }
    Ok(session)
}

/// The last login of this process that succeeded on each token (module and
/// slot): a digest of module, slot and PIN (the PIN itself is not kept).
type Login = ((String, u64), Vec<u8>);
static LOGINS: Mutex<Vec<Login>> = Mutex::new(Vec::new());

fn pin_digest(module: &str, slot: u64, pin: &[u8]) -> Vec<u8> {
    let mut h = PreHash::Sha2_256.hasher();
    for part in [module.as_bytes(), &slot.to_be_bytes(), pin] {
        h.update(&(part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finish().as_bytes().to_vec()
}

/// The user PIN of the token labelled `label` that `uri` names: the URI's
/// `pin-value`, or the first line of its `pin-source` file, or as a
/// passphrase comes (`--passphrase-file`, `--passphrase-fd`, the terminal).
pub fn pin_of(uri: &TokenUri, label: &str) -> Result<zeroize::Zeroizing<Vec<u8>>, CliError> {
    match (&uri.pin_value, &uri.pin_source) {
        (Some(v), _) => Ok(zeroize::Zeroizing::new(v.as_bytes().to_vec())),
        (None, Some(f)) => passphrase::pin_from_file(Path::new(f)),
        (None, None) => passphrase::pin_for(label),
    }
}

/// What the agent knows a token key by: its module and the URI's
/// attributes that select the key (not how the PIN comes).
pub fn agent_id(uri: &TokenUri) -> Result<String, CliError> {
    let part = |o: &Option<String>| o.as_deref().map(quote::text).unwrap_or_default();
    Ok(format!(
        "pkcs11: module={} token={} serial={} object={} id={}",
        quote::text(&uri.module()?),
        part(&uri.token),
        part(&uri.serial),
        part(&uri.object),
        uri.id
            .as_deref()
            .map(crate::hex::encode_upper)
            .unwrap_or_default()
    ))
}

/// The one object of `class` the URI names (by label and/or id).
fn find(session: &Session, uri: &TokenUri, class: ObjectClass) -> Result<ObjectHandle, CliError> {
    let mut template = vec![Attribute::Class(class)];
    if let Some(label) = &uri.object {
        template.push(Attribute::Label(label.as_bytes().to_vec()));
    }
    if let Some(id) = &uri.id {
        template.push(Attribute::Id(id.clone()));
    }
    let found = session
        .find_objects(&template)
        .map_err(token_error("C_FindObjects"))?;
    match found[..] {
        [one] => Ok(one),
        [] => Err(CliError::Failed(format!(
            "PKCS#11: the token has no {} {}",
            if class == ObjectClass::PRIVATE_KEY {
                "private key"
            } else {
                "public key"
            },
            uri.object
                .as_deref()
                .map_or("with that id".into(), quote::text)
        ))),
        _ => Err(CliError::Failed(format!(
            "PKCS#11: {} objects match; name one by object=LABEL and id=…",
            found.len()
        ))),
    }
}

/// The public half of an SLH-DSA public key object: its set and bytes.
pub fn public_key(session: &Session, key: ObjectHandle) -> Result<AnyVerifyingKey, CliError> {
    let attrs = session
        .get_attributes(key, &[AttributeType::ParameterSet, AttributeType::Value])
        .map_err(token_error("C_GetAttributeValue"))?;
    let (mut set, mut value) = (None, None);
    for a in attrs {
        match a {
            Attribute::ParameterSet(p) => set = Some(*cryptoki::types::Ulong::from(p)),
            Attribute::Value(v) => value = Some(v),
            _ => {}
        }
    }
    let (Some(set), Some(value)) = (set, value) else {
        return Err(CliError::Failed(
            "PKCS#11: the public key has no CKA_PARAMETER_SET or CKA_VALUE (not an SLH-DSA key?)"
                .into(),
        ));
    };
    let alg = sphincs_pkcs11::names::algorithm(set).ok_or_else(|| {
        CliError::Failed(format!(
            "PKCS#11: CKA_PARAMETER_SET {set:#x} is none of the twelve FIPS 205 sets"
        ))
    })?;
    AnyVerifyingKey::from_bytes(AnyAlgorithm::from(alg), &value)
        .map_err(|e| CliError::Failed(format!("PKCS#11: the public key: {e}")))
}

/// The public half of the key a `pkcs11:` URI names, read without logging
/// in (public key objects are readable in a public session).
pub fn public_of(key: &Path) -> Result<AnyVerifyingKey, CliError> {
    let uri = TokenUri::parse(key)?;
    let session = open_session(&uri, false)?;
    let public = find(&session, &uri, ObjectClass::PUBLIC_KEY)?;
    public_key(&session, public)
}

impl TokenKey {
    /// The session the key is used in (logged in as the token's user).
    pub fn session(&self) -> std::sync::MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens the key a `pkcs11:` URI names, logging in to its token.
    pub fn open(key: &Path) -> Result<Self, CliError> {
        Self::open_uri(&TokenUri::parse(key)?)
    }

    /// [`TokenKey::open`] of a parsed URI.
    pub fn open_uri(uri: &TokenUri) -> Result<Self, CliError> {
        let session = open_session(uri, true)?;
        let private = find(&session, uri, ObjectClass::PRIVATE_KEY)?;
        let public = find(&session, uri, ObjectClass::PUBLIC_KEY)?;
        let public = public_key(&session, public)?;
        Ok(TokenKey {
            session: Mutex::new(session),
            key: private,
            public,
        })
    }
}

/// The token's mechanism for a pre-hash (HashSLH-DSA with the token
/// hashing), and the `<hash>` of its name `CKM_HASH_SLH_DSA_<hash>`.
fn prehash_mechanism(
    ph: PreHash,
    c: SignAdditionalContext<'_>,
) -> Option<(Mechanism<'_>, &'static str)> {
    Some(match ph {
        PreHash::Sha2_224 => (Mechanism::HashSlhDsaSha224(c), "SHA224"),
        PreHash::Sha2_256 => (Mechanism::HashSlhDsaSha256(c), "SHA256"),
        PreHash::Sha2_384 => (Mechanism::HashSlhDsaSha384(c), "SHA384"),
        PreHash::Sha2_512 => (Mechanism::HashSlhDsaSha512(c), "SHA512"),
        PreHash::Sha3_224 => (Mechanism::HashSlhDsaSha3_224(c), "SHA3_224"),
        PreHash::Sha3_256 => (Mechanism::HashSlhDsaSha3_256(c), "SHA3_256"),
        PreHash::Sha3_384 => (Mechanism::HashSlhDsaSha3_384(c), "SHA3_384"),
        PreHash::Sha3_512 => (Mechanism::HashSlhDsaSha3_512(c), "SHA3_512"),
        PreHash::Shake128 => (Mechanism::HashSlhDsaShake128(c), "SHAKE128"),
        PreHash::Shake256 => (Mechanism::HashSlhDsaShake256(c), "SHAKE256"),
        _ => return None,
    })
}

impl AnySigner for TokenKey {
    fn verifying_key(&self) -> AnyVerifyingKey {
        self.public.clone()
    }

    fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        self.public.algorithm().check_sign_options(opts)?;
        let hedge = match opts.randomness {
            Randomness::Hedged => HedgeType::Required,
            Randomness::Deterministic => HedgeType::DeterministicRequired,
            Randomness::Given(_) => {
                return Err(Error::Signer(
                    "a PKCS#11 token takes no caller-given signing randomness".into(),
                ))
            }
        };
        let ctx = (!opts.context.is_empty()).then_some(opts.context);
        let params = SignAdditionalContext::new(hedge, ctx);
        let failed =
            |e: cryptoki::error::Error| Error::Signer(format!("PKCS#11: {}", describe(&e)));
        let session = self.session.lock().unwrap_or_else(|e| e.into_inner());
        let mut whole_or_empty = Vec::new();
        let sig = match opts.prehash {
            None => {
                // Pure SLH-DSA reads the message twice: sent whole, bounded.
                let whole = &mut whole_or_empty;
                let mut too_long = false;
                msg.feed(&mut |b| {
                    if (whole.len() + b.len()) as u64 > MAX_PURE_MESSAGE {
                        too_long = true;
                    } else if !too_long {
                        whole.extend_from_slice(b);
                    }
                })?;
                if too_long {
                    return Err(Error::Signer(format!(
                        "a message over {} MiB is signed through a token with a pre-hash only (--prehash)",
                        MAX_PURE_MESSAGE >> 20
                    )));
                }
                session
                    .sign(&Mechanism::SlhDsa(params), self.key, whole)
                    .map_err(failed)?
            }
            Some(ph) => {
                let (mech, hash_name) = prehash_mechanism(ph, params).ok_or_else(|| {
                    Error::Signer(format!("PKCS#11 has no `CKM_HASH_SLH_DSA_<hash>` for {ph}"))
                })?;
                session.sign_init(&mech, self.key).map_err(|e| match e {
                    cryptoki::error::Error::Pkcs11(RvError::MechanismInvalid, _) => Error::Signer(format!(
                        "the token has no CKM_HASH_SLH_DSA_{hash_name} (it answered MechanismInvalid); sign with another --prehash, or none"
                    )),
                    e => failed(e),
                })?;
                let mut update = Ok(());
                msg.feed(&mut |b| {
                    if update.is_ok() && !b.is_empty() {
                        update = session.sign_update(b);
                    }
                })?;
                update.map_err(failed)?;
                session.sign_final().map_err(failed)?
            }
        };
        drop(session);
        // What a token returns is released only if it verifies (a faulty
        // or wrong token, a key whose public object is not its pair).
        match opts.prehash {
            None => self
                .public
                .verify(&whole_or_empty, &sig, opts.context, None),
            Some(ph) => self.public.verify_stream(msg, &sig, opts.context, Some(ph)),
        }
        .map_err(|e| Error::Signer(format!("the token's signature does not verify: {e}")))?;
        Ok(sig)
    }
}
