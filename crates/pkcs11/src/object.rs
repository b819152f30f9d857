//! Objects: SLH-DSA public and private keys, opaque X.509 certificates and
//! data objects (an application's bytes, such as a key's OpenPGP
//! certificate kept beside it), built from a template with the checks and return codes of PKCS#11 §4.1
//! ("Creating, modifying, and copying objects") and the SLH-DSA key tables.

use std::collections::BTreeMap;
use std::sync::Arc;

use cryptoki_sys::*;
use sphincs::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey};
use sphincs::{Algorithm, Error};
use zeroize::Zeroizing;

use crate::attributes::{decode_bool, decode_ulong, encode_bool, encode_ulong, Template};
use crate::mechanism::{algorithm, parameter_set};
use crate::store::{Reader, Writer};

/// The key an object holds, shared with operations running outside the lock.
#[derive(Clone)]
pub(crate) enum Key {
    Private(Arc<AnySigningKey>),
    /// A stored private key not yet decrypted: its encrypted PKCS#8 under
    /// the user PIN (unlocked at its first use after the user's C_Login);
    /// after it, the one re-encrypted under a new PIN by a C_SetPIN that
    /// did not finish (`store.rs`), if there is one.
    Locked(Vec<Vec<u8>>),
    Public(Arc<AnyVerifyingKey>),
    None,
}

/// One object.
#[derive(Clone)]
pub(crate) struct Object {
    /// Every attribute but a private key's CKA_VALUE (read from `key`).
    attrs: BTreeMap<CK_ATTRIBUTE_TYPE, Vec<u8>>,
    pub(crate) key: Key,
    /// The session a session object belongs to; `None` for token objects.
    pub(crate) owner: Option<CK_SESSION_HANDLE>,
    /// The file of a stored token object (`store.rs`).
    pub(crate) store_id: Option<u64>,
}

/// What C_GetAttributeValue finds for one attribute.
pub(crate) enum Read {
    Value(Zeroizing<Vec<u8>>),
    Sensitive,
    Invalid,
}

const STORAGE: &[CK_ATTRIBUTE_TYPE] = &[
    CKA_CLASS,
    CKA_TOKEN,
    CKA_PRIVATE,
    CKA_MODIFIABLE,
    CKA_LABEL,
    CKA_COPYABLE,
    CKA_DESTROYABLE,
];
const KEY: &[CK_ATTRIBUTE_TYPE] = &[
    CKA_KEY_TYPE,
    CKA_ID,
    CKA_START_DATE,
    CKA_END_DATE,
    CKA_DERIVE,
    CKA_SUBJECT,
    CKA_PARAMETER_SET,
    CKA_VALUE,
];
const PUBLIC: &[CK_ATTRIBUTE_TYPE] = &[
    CKA_ENCRYPT,
    CKA_VERIFY,
    CKA_VERIFY_RECOVER,
    CKA_WRAP,
    CKA_TRUSTED,
];
const PRIVATE: &[CK_ATTRIBUTE_TYPE] = &[
    CKA_SENSITIVE,
    CKA_DECRYPT,
    CKA_SIGN,
    CKA_SIGN_RECOVER,
    CKA_UNWRAP,
    CKA_EXTRACTABLE,
    CKA_WRAP_WITH_TRUSTED,
    CKA_ALWAYS_AUTHENTICATE,
];
const CERTIFICATE: &[CK_ATTRIBUTE_TYPE] = &[
    CKA_CERTIFICATE_TYPE,
    CKA_TRUSTED,
    CKA_CERTIFICATE_CATEGORY,
    CKA_START_DATE,
    CKA_END_DATE,
    CKA_SUBJECT,
    CKA_ID,
    CKA_ISSUER,
    CKA_SERIAL_NUMBER,
    CKA_VALUE,
    CKA_URL,
    CKA_HASH_OF_SUBJECT_PUBLIC_KEY,
    CKA_HASH_OF_ISSUER_PUBLIC_KEY,
    CKA_JAVA_MIDP_SECURITY_DOMAIN,
    CKA_NAME_HASH_ALGORITHM,
];
const DATA: &[CK_ATTRIBUTE_TYPE] = &[CKA_APPLICATION, CKA_OBJECT_ID, CKA_VALUE];
/// Set by the token only: a template that names one is CKR_ATTRIBUTE_READ_ONLY.
const TOKEN_SET: &[CK_ATTRIBUTE_TYPE] = &[
    CKA_LOCAL,
    CKA_KEY_GEN_MECHANISM,
    CKA_ALWAYS_SENSITIVE,
    CKA_NEVER_EXTRACTABLE,
    CKA_UNIQUE_ID,
];
const BOOLS: &[CK_ATTRIBUTE_TYPE] = &[
    CKA_TOKEN,
    CKA_PRIVATE,
    CKA_MODIFIABLE,
    CKA_COPYABLE,
    CKA_DESTROYABLE,
    CKA_DERIVE,
    CKA_ENCRYPT,
    CKA_VERIFY,
    CKA_VERIFY_RECOVER,
    CKA_WRAP,
    CKA_TRUSTED,
    CKA_SENSITIVE,
    CKA_DECRYPT,
    CKA_SIGN,
    CKA_SIGN_RECOVER,
    CKA_UNWRAP,
    CKA_EXTRACTABLE,
    CKA_WRAP_WITH_TRUSTED,
    CKA_ALWAYS_AUTHENTICATE,
];
const ULONGS: &[CK_ATTRIBUTE_TYPE] = &[
    CKA_CLASS,
    CKA_KEY_TYPE,
    CKA_PARAMETER_SET,
    CKA_CERTIFICATE_TYPE,
    CKA_CERTIFICATE_CATEGORY,
    CKA_JAVA_MIDP_SECURITY_DOMAIN,
    CKA_NAME_HASH_ALGORITHM,
];

/// How an object comes to be, which decides what its template may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    Created,
    Generated,
}

/// Checks every attribute of `t` against those `class` has: set by the
/// token only → CKR_ATTRIBUTE_READ_ONLY, unknown to the class →
/// CKR_ATTRIBUTE_TYPE_INVALID, a malformed boolean or number →
/// CKR_ATTRIBUTE_VALUE_INVALID.
fn check_types(t: &Template, class: CK_OBJECT_CLASS) -> Result<(), CK_RV> {
    t.check_unique()?;
    let own: &[&[CK_ATTRIBUTE_TYPE]] = match class {
        CKO_PUBLIC_KEY => &[STORAGE, KEY, PUBLIC],
        CKO_PRIVATE_KEY => &[STORAGE, KEY, PRIVATE],
        CKO_CERTIFICATE => &[STORAGE, CERTIFICATE],
        CKO_DATA => &[STORAGE, DATA],
        _ => return Err(CKR_ATTRIBUTE_VALUE_INVALID),
    };
    for (ty, v) in &t.0 {
        if TOKEN_SET.contains(ty) {
            return Err(CKR_ATTRIBUTE_READ_ONLY);
        }
        if !own.iter().any(|list| list.contains(ty)) {
            return Err(CKR_ATTRIBUTE_TYPE_INVALID);
        }
        if BOOLS.contains(ty) {
            decode_bool(v)?;
        }
        if ULONGS.contains(ty) {
            decode_ulong(v)?;
        }
    }
    // Only the SO may mark an object trusted (§4.x CKA_TRUSTED); this
    // module does not let anyone.
    if t.bool(CKA_TRUSTED)? == Some(true) {
        return Err(CKR_ATTRIBUTE_READ_ONLY);
    }
    Ok(())
}

/// The template's class must be `class` if given (CKR_TEMPLATE_INCONSISTENT).
fn require_class(t: &Template, class: CK_OBJECT_CLASS) -> Result<(), CK_RV> {
    match t.ulong(CKA_CLASS)? {
        Some(c) if c != class => Err(CKR_TEMPLATE_INCONSISTENT),
        _ => Ok(()),
    }
}

/// The template's key type must be CKK_SLH_DSA: given or not for a key
/// pair, given for C_CreateObject.
fn require_key_type(t: &Template, origin: Origin) -> Result<(), CK_RV> {
    match t.ulong(CKA_KEY_TYPE)? {
        Some(CKK_SLH_DSA) => Ok(()),
        Some(_) if origin == Origin::Generated => Err(CKR_TEMPLATE_INCONSISTENT),
        Some(_) => Err(CKR_ATTRIBUTE_VALUE_INVALID),
        None if origin == Origin::Generated => Ok(()),
        None => Err(CKR_TEMPLATE_INCOMPLETE),
    }
}

/// The set a CKA_PARAMETER_SET value names (CKR_ATTRIBUTE_VALUE_INVALID if none).
fn parameter(t: &Template) -> Result<Option<Algorithm>, CK_RV> {
    match t.ulong(CKA_PARAMETER_SET)? {
        Some(p) => algorithm(p).map(Some).ok_or(CKR_ATTRIBUTE_VALUE_INVALID),
        None => Ok(None),
    }
}

fn core_error(e: Error) -> CK_RV {
    match e {
        Error::InvalidKeyLength { .. } | Error::InvalidLength { .. } | Error::KeyMismatch => {
            CKR_ATTRIBUTE_VALUE_INVALID
        }
        _ => CKR_FUNCTION_FAILED,
    }
}

/// The attributes of `t` with `defaults` under them and `fixed` over them.
fn merge(
    t: &Template,
    defaults: &[(CK_ATTRIBUTE_TYPE, Vec<u8>)],
    fixed: Vec<(CK_ATTRIBUTE_TYPE, Vec<u8>)>,
) -> BTreeMap<CK_ATTRIBUTE_TYPE, Vec<u8>> {
    let mut attrs: BTreeMap<_, _> = defaults.iter().cloned().collect();
    for (ty, v) in &t.0 {
        attrs.insert(*ty, v.to_vec());
    }
    attrs.extend(fixed);
    attrs
}

fn storage_defaults(private: bool) -> Vec<(CK_ATTRIBUTE_TYPE, Vec<u8>)> {
    vec![
        (CKA_TOKEN, encode_bool(false)),
        (CKA_PRIVATE, encode_bool(private)),
        (CKA_MODIFIABLE, encode_bool(true)),
        (CKA_COPYABLE, encode_bool(true)),
        (CKA_DESTROYABLE, encode_bool(true)),
        (CKA_LABEL, Vec::new()),
    ]
}

fn key_defaults(private: bool) -> Vec<(CK_ATTRIBUTE_TYPE, Vec<u8>)> {
    let mut d = storage_defaults(private);
    d.extend([
        (CKA_ID, Vec::new()),
        (CKA_START_DATE, Vec::new()),
        (CKA_END_DATE, Vec::new()),
        (CKA_DERIVE, encode_bool(false)),
        (CKA_SUBJECT, Vec::new()),
        (CKA_LOCAL, encode_bool(false)),
        (
            CKA_KEY_GEN_MECHANISM,
            encode_ulong(CK_UNAVAILABLE_INFORMATION),
        ),
    ]);
    if private {
        d.extend([
            (CKA_SENSITIVE, encode_bool(true)),
            (CKA_DECRYPT, encode_bool(false)),
            (CKA_SIGN, encode_bool(true)),
            (CKA_SIGN_RECOVER, encode_bool(false)),
            (CKA_UNWRAP, encode_bool(false)),
            (CKA_EXTRACTABLE, encode_bool(false)),
            (CKA_WRAP_WITH_TRUSTED, encode_bool(false)),
            (CKA_ALWAYS_AUTHENTICATE, encode_bool(false)),
        ]);
    } else {
        d.extend([
            (CKA_ENCRYPT, encode_bool(false)),
            (CKA_VERIFY, encode_bool(true)),
            (CKA_VERIFY_RECOVER, encode_bool(false)),
            (CKA_WRAP, encode_bool(false)),
            (CKA_TRUSTED, encode_bool(false)),
        ]);
    }
    d
}

/// CKA_ALWAYS_SENSITIVE and CKA_NEVER_EXTRACTABLE of a private key, from
/// its (final) CKA_SENSITIVE and CKA_EXTRACTABLE and whether it was made here.
fn history(attrs: &mut BTreeMap<CK_ATTRIBUTE_TYPE, Vec<u8>>, generated: bool) {
    let sensitive = attrs.get(&CKA_SENSITIVE).map(|v| v[..] == [1]);
    let extractable = attrs.get(&CKA_EXTRACTABLE).map(|v| v[..] == [1]);
    let always = generated && sensitive == Some(true);
    let never = generated && extractable == Some(false);
    attrs.insert(CKA_ALWAYS_SENSITIVE, encode_bool(always));
    attrs.insert(CKA_NEVER_EXTRACTABLE, encode_bool(never));
}

impl Object {
    /// C_CreateObject: an SLH-DSA public or private key imported by
    /// CKA_PARAMETER_SET and CKA_VALUE, or an X.509 certificate kept as
    /// given. SLH-DSA private keys have no CKA_SEED in PKCS#11 3.2 (unlike
    /// ML-DSA's), so a seed is CKR_ATTRIBUTE_TYPE_INVALID.
    pub(crate) fn create(t: &Template) -> Result<Object, CK_RV> {
        let class = t.ulong(CKA_CLASS)?.ok_or(CKR_TEMPLATE_INCOMPLETE)?;
        check_types(t, class)?;
        match class {
            CKO_CERTIFICATE => Self::certificate(t),
            CKO_DATA => Ok(Self::data(t)),
            _ => Self::import_key(t, class),
        }
    }

    fn certificate(t: &Template) -> Result<Object, CK_RV> {
        match t.ulong(CKA_CERTIFICATE_TYPE)? {
            Some(CKC_X_509) => {}
            Some(_) => return Err(CKR_ATTRIBUTE_VALUE_INVALID),
            None => return Err(CKR_TEMPLATE_INCOMPLETE),
        }
        if !t.has(CKA_SUBJECT) || !t.has(CKA_VALUE) {
            return Err(CKR_TEMPLATE_INCOMPLETE);
        }
        let mut defaults = storage_defaults(false);
        defaults.extend([
            (CKA_TRUSTED, encode_bool(false)),
            (CKA_CERTIFICATE_CATEGORY, encode_ulong(0)),
            (CKA_ID, Vec::new()),
            (CKA_ISSUER, Vec::new()),
            (CKA_SERIAL_NUMBER, Vec::new()),
            (CKA_START_DATE, Vec::new()),
            (CKA_END_DATE, Vec::new()),
        ]);
        Ok(Object {
            attrs: merge(t, &defaults, Vec::new()),
            key: Key::None,
            owner: None,
            store_id: None,
        })
    }

    /// A data object (§4.5): every attribute may be left out, defaulting
    /// to empty (CKA_PRIVATE too, false: a private one is read after login).
    fn data(t: &Template) -> Object {
        let mut defaults = storage_defaults(false);
        defaults.extend([
            (CKA_APPLICATION, Vec::new()),
            (CKA_OBJECT_ID, Vec::new()),
            (CKA_VALUE, Vec::new()),
        ]);
        Object {
            attrs: merge(t, &defaults, Vec::new()),
            key: Key::None,
            owner: None,
            store_id: None,
        }
    }

    fn import_key(t: &Template, class: CK_OBJECT_CLASS) -> Result<Object, CK_RV> {
        require_key_type(t, Origin::Created)?;
        let alg = parameter(t)?.ok_or(CKR_TEMPLATE_INCOMPLETE)?;
        let value = t.get(CKA_VALUE).ok_or(CKR_TEMPLATE_INCOMPLETE)?;
        let any = AnyAlgorithm::SlhDsa(alg);
        let private = class == CKO_PRIVATE_KEY;
        let key = if private {
            Key::Private(Arc::new(
                AnySigningKey::from_bytes(any, value).map_err(core_error)?,
            ))
        } else {
            Key::Public(Arc::new(
                AnyVerifyingKey::from_bytes(any, value).map_err(core_error)?,
            ))
        };
        let mut attrs = merge(t, &key_defaults(private), Vec::new());
        if private {
            attrs.remove(&CKA_VALUE);
            history(&mut attrs, false);
        }
        Ok(Object {
            attrs,
            key,
            owner: None,
            store_id: None,
        })
    }

    /// C_GenerateKeyPair's checks: the set from the public template
    /// (CKR_TEMPLATE_INCOMPLETE without it), nothing the mechanism
    /// contributes in either template (CKR_TEMPLATE_INCONSISTENT: the
    /// spec's "must not be specified when generated" for CKA_VALUE, and
    /// for the private key's CKA_PARAMETER_SET).
    pub(crate) fn check_pair(public: &Template, private: &Template) -> Result<Algorithm, CK_RV> {
        check_types(public, CKO_PUBLIC_KEY)?;
        check_types(private, CKO_PRIVATE_KEY)?;
        require_class(public, CKO_PUBLIC_KEY)?;
        require_class(private, CKO_PRIVATE_KEY)?;
        require_key_type(public, Origin::Generated)?;
        require_key_type(private, Origin::Generated)?;
        if public.has(CKA_VALUE) || private.has(CKA_VALUE) || private.has(CKA_PARAMETER_SET) {
            return Err(CKR_TEMPLATE_INCONSISTENT);
        }
        parameter(public)?.ok_or(CKR_TEMPLATE_INCOMPLETE)
    }

    /// The two objects of a key pair generated for `check_pair`'s set.
    pub(crate) fn generated_pair(
        alg: Algorithm,
        sk: AnySigningKey,
        public: &Template,
        private: &Template,
    ) -> Result<(Object, Object), CK_RV> {
        let set = parameter_set(alg).ok_or(CKR_GENERAL_ERROR)?;
        let vk = sk.verifying_key();
        let fixed = |class| {
            vec![
                (CKA_CLASS, encode_ulong(class)),
                (CKA_KEY_TYPE, encode_ulong(CKK_SLH_DSA)),
                (CKA_PARAMETER_SET, encode_ulong(set)),
                (CKA_LOCAL, encode_bool(true)),
                (
                    CKA_KEY_GEN_MECHANISM,
                    encode_ulong(CKM_SLH_DSA_KEY_PAIR_GEN),
                ),
            ]
        };
        let mut pub_fixed = fixed(CKO_PUBLIC_KEY);
        pub_fixed.push((CKA_VALUE, vk.to_bytes()));
        let pub_obj = Object {
            attrs: merge(public, &key_defaults(false), pub_fixed),
            key: Key::Public(Arc::new(vk)),
            owner: None,
            store_id: None,
        };
        let mut attrs = merge(private, &key_defaults(true), fixed(CKO_PRIVATE_KEY));
        history(&mut attrs, true);
        let priv_obj = Object {
            attrs,
            key: Key::Private(Arc::new(sk)),
            owner: None,
            store_id: None,
        };
        Ok((pub_obj, priv_obj))
    }

    fn flag(&self, t: CK_ATTRIBUTE_TYPE) -> bool {
        self.attrs.get(&t).is_some_and(|v| v[..] == [1])
    }

    /// CKA_TOKEN.
    pub(crate) fn is_token(&self) -> bool {
        self.flag(CKA_TOKEN)
    }

    /// CKA_PRIVATE.
    pub(crate) fn is_private(&self) -> bool {
        self.flag(CKA_PRIVATE)
    }

    /// CKA_DESTROYABLE.
    pub(crate) fn is_destroyable(&self) -> bool {
        self.flag(CKA_DESTROYABLE)
    }

    /// CKA_SIGN / CKA_VERIFY.
    pub(crate) fn may(&self, t: CK_ATTRIBUTE_TYPE) -> bool {
        self.flag(t)
    }

    /// One attribute for C_GetAttributeValue. A private key's CKA_VALUE
    /// (`SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`) is given only when the key
    /// is neither sensitive nor unextractable.
    pub(crate) fn read(&self, t: CK_ATTRIBUTE_TYPE) -> Read {
        match (t, &self.key) {
            (CKA_VALUE, Key::Private(k)) => {
                if self.flag(CKA_SENSITIVE) || !self.flag(CKA_EXTRACTABLE) {
                    return Read::Sensitive;
                }
                return Read::Value(k.to_bytes());
            }
            // Still encrypted: nothing to give.
            (CKA_VALUE, Key::Locked(_)) => return Read::Sensitive,
            _ => {}
        }
        match self.attrs.get(&t) {
            Some(v) => Read::Value(Zeroizing::new(v.clone())),
            None => Read::Invalid,
        }
    }

    /// Whether every attribute of `t` has this object's value (C_FindObjects).
    pub(crate) fn matches(&self, t: &Template) -> bool {
        t.0.iter()
            .all(|(ty, v)| self.attrs.get(ty).is_some_and(|mine| mine[..] == v[..]))
    }
}

const OBJECT_MAGIC: &[u8; 8] = b"SPHOBJ1\0";

impl Object {
    /// The object as its file keeps it: attributes, and a private key
    /// encrypted under `user_pin` (or kept as it was read, if still locked).
    /// CKR_USER_NOT_LOGGED_IN for a private key without the PIN.
    pub(crate) fn to_record(&self, user_pin: Option<&[u8]>) -> Result<Vec<u8>, CK_RV> {
        let mut w = Writer::default();
        w.0.extend_from_slice(OBJECT_MAGIC);
        let (kind, blob) = match &self.key {
            Key::None => (0, Vec::new()),
            Key::Public(_) => (1, Vec::new()),
            Key::Private(k) => {
                let pin = user_pin.ok_or(CKR_USER_NOT_LOGGED_IN)?;
                (
                    2,
                    k.to_encrypted_pkcs8_der(pin)
                        .map_err(|_| CKR_FUNCTION_FAILED)?,
                )
            }
            Key::Locked(blobs) => (2, blobs[0].clone()),
        };
        w.u8(kind);
        w.u32(self.attrs.len() as u32);
        for (t, v) in &self.attrs {
            // CK_ULONG is 64 bits here, 32 on some targets: files are 64.
            #[allow(clippy::unnecessary_cast)]
            w.u64(*t as u64);
            w.bytes(v);
        }
        w.bytes(&blob);
        Ok(w.0)
    }

    /// A token object read back from its file (a private key stays locked
    /// until [`Object::unlock`]); `None` for a damaged file.
    pub(crate) fn from_record(b: &[u8], id: u64) -> Option<Object> {
        let mut r = Reader(b.strip_prefix(OBJECT_MAGIC)?);
        let kind = r.u8()?;
        let n = r.u32()?;
        let mut attrs = BTreeMap::new();
        for _ in 0..n {
            let t = r.ulong()?;
            attrs.insert(t, r.bytes()?.to_vec());
        }
        let blob = r.bytes()?.to_vec();
        if !r.done() {
            return None;
        }
        let key = match kind {
            0 => Key::None,
            1 => {
                let alg = stored_algorithm(&attrs)?;
                let value = attrs.get(&CKA_VALUE)?;
                Key::Public(Arc::new(AnyVerifyingKey::from_bytes(alg, value).ok()?))
            }
            2 => Key::Locked(vec![blob]),
            _ => return None,
        };
        Some(Object {
            attrs,
            key,
            owner: None,
            store_id: Some(id),
        })
    }

    /// Decrypts a locked private key with the user PIN; a key that does not
    /// decrypt stays locked (and unusable). True when the staged copy
    /// decrypted, not the object file's.
    pub(crate) fn unlock(&mut self, pin: &[u8]) -> bool {
        let Key::Locked(blobs) = &self.key else {
            return false;
        };
        let Some(alg) = stored_algorithm(&self.attrs) else {
            return false;
        };
        for (i, blob) in blobs.iter().enumerate() {
            // The PKCS#8 comes back in the pure OID's mode; the raw bytes
            // make the key again as generated (pure or any pre-hash).
            let key = AnySigningKey::from_pkcs8_with_passphrase(blob, pin)
                .and_then(|k| AnySigningKey::from_bytes(alg, &k.to_bytes()));
            if let Ok(k) = key {
                self.key = Key::Private(Arc::new(k));
                return i > 0;
            }
        }
        false
    }

    /// Adds the key of `staged` (the same object's staged file, `store.rs`)
    /// as the second to try when unlocking.
    pub(crate) fn add_staged(&mut self, staged: Object) {
        if let (Key::Locked(blobs), Key::Locked(mut more)) = (&mut self.key, staged.key) {
            blobs.append(&mut more);
        }
    }

    /// Forgets the staged copy [`Object::add_staged`] added (C_InitPIN: a
    /// key under a PIN never set must not come back under it).
    pub(crate) fn drop_staged(&mut self) {
        if let Key::Locked(blobs) = &mut self.key {
            blobs.truncate(1);
        }
    }

    /// Whether this is a private key (locked or not).
    pub(crate) fn is_private_key(&self) -> bool {
        matches!(self.key, Key::Private(_) | Key::Locked(_))
    }
}

fn stored_algorithm(attrs: &BTreeMap<CK_ATTRIBUTE_TYPE, Vec<u8>>) -> Option<AnyAlgorithm> {
    let set = decode_ulong(attrs.get(&CKA_PARAMETER_SET)?).ok()?;
    algorithm(set).map(AnyAlgorithm::SlhDsa)
}
