//! RFC 9580 §10.1: transferable public keys (certificates) and transferable
//! secret keys, read from packets, checked (self-signatures, bindings,
//! revocation, expiry), written back and made new. Components of algorithms
//! this module does not implement (RFC 9980's ML-KEM subkeys, say) are read
//! and kept, and simply never used.

use super::error::{ErrorKind, PgpError, Result};
use super::key::{Fingerprint, PublicKey, SecretKey, SecretMaterial};
use super::packet::{self, tag, Packet};
use super::signature::{key_flags, sig_type, Signature, Signing};
use super::subpacket::{kind, Subpacket};
use crate::any::{AnyAlgorithm, AnySigner, AnySigningKey, AnyVerifyingKey};
use zeroize::Zeroizing;

/// The most certificates one keyring input may hold.
pub const MAX_CERTS: usize = 1000;

/// The signature types that bind or revoke a User ID (§5.2.1): the four
/// certifications and the certification revocation.
const USER_ID_SELF_SIGS: [u8; 5] = [
    sig_type::GENERIC_CERTIFICATION,
    0x11,
    0x12,
    sig_type::POSITIVE_CERTIFICATION,
    sig_type::CERTIFICATION_REVOCATION,
];

/// A key of a certificate: its public part and, in a transferable secret
/// key, its secret part.
#[derive(Clone, Debug)]
pub struct KeyPart {
    /// The public key.
    pub public: PublicKey,
    /// The secret key packet, if this is a secret key.
    pub secret: Option<SecretKey>,
}

/// A User ID and the signatures on it.
#[derive(Clone, Debug)]
pub struct UserId {
    /// The User ID's octets (UTF-8 by convention).
    pub value: Vec<u8>,
    /// Certifications and revocations.
    pub signatures: Vec<Signature>,
}

/// A subkey and its binding signatures.
#[derive(Clone, Debug)]
pub struct Subkey {
    /// The key.
    pub key: KeyPart,
    /// Binding and revocation signatures.
    pub signatures: Vec<Signature>,
}

/// A certificate or transferable secret key (RFC 9580 §10.1).
#[derive(Clone, Debug)]
pub struct Cert {
    /// The primary key.
    pub primary: KeyPart,
    /// Direct-key signatures and key revocations.
    pub signatures: Vec<Signature>,
    /// User IDs.
    pub user_ids: Vec<UserId>,
    /// Subkeys.
    pub subkeys: Vec<Subkey>,
    /// Packets kept as they are (user attributes and their signatures).
    pub other: Vec<Packet>,
}

/// A key that can verify (or make) signatures over data, with the
/// certificate facts a verifier needs.
#[derive(Clone, Debug)]
pub struct SigningKeyInfo {
    /// The key.
    pub key: PublicKey,
    /// The primary key's fingerprint.
    pub primary: Fingerprint,
    /// When the key expires, if it does (seconds since the epoch).
    pub expires: Option<u64>,
    /// True if the key (or its certificate) was revoked for a hard reason
    /// (compromised, or none stated): nothing it signed is good.
    pub revoked: bool,
    /// When the key (or its certificate) was revoked for a soft reason
    /// (superseded, retired), if it was: signatures made before then stay
    /// good where validity is judged at signing time.
    pub retired: Option<u64>,
    /// True if its flags allow signing data.
    pub can_sign: bool,
}

impl SigningKeyInfo {
    /// Whether the key may sign at `now`: allowed to, not revoked, not
    /// retired, not expired.
    pub fn usable(&self, now: u64) -> bool {
        self.can_sign
            && !self.revoked
            && self.retired.is_none()
            && self.expires.is_none_or(|e| e > now)
    }
}

fn parse_signature(p: &Packet) -> Option<Signature> {
    // A signature we cannot read (v4, an unknown version) is skipped: a
    // certificate may carry signatures from other implementations.
    Signature::parse(&p.body).ok()
}

fn key_part(p: &Packet) -> Result<KeyPart> {
    Ok(match p.tag {
        tag::SECRET_KEY | tag::SECRET_SUBKEY => {
            let secret = SecretKey::parse(&p.body)?;
            KeyPart {
                public: secret.public.clone(),
                secret: Some(secret),
            }
        }
        _ => KeyPart {
            public: PublicKey::parse(&p.body)?,
            secret: None,
        },
    })
}

impl Cert {
    /// Reads every certificate (or secret key) in binary `data`. A primary
    /// key of another version than 6 makes the whole input unsupported; a
    /// subkey that cannot be read is dropped with its signatures.
    pub fn parse_all(data: &[u8]) -> Result<Vec<Cert>> {
        let packets = packet::parse(data)?;
        let mut certs: Vec<Cert> = Vec::new();
        // Where signatures go: 0 the primary, 1 the last User ID, 2 the last
        // subkey, 3 dropped (an unreadable subkey), 4 a user attribute.
        let mut slot = 0;
        for p in &packets {
            match p.tag {
                tag::PUBLIC_KEY | tag::SECRET_KEY => {
                    if certs.len() == MAX_CERTS {
                        return Err(PgpError::malformed(format!(
                            "more than {MAX_CERTS} certificates in one input"
                        )));
                    }
                    certs.push(Cert {
                        primary: key_part(p)?,
                        signatures: Vec::new(),
                        user_ids: Vec::new(),
                        subkeys: Vec::new(),
                        other: Vec::new(),
                    });
                    slot = 0;
                }
                tag::MARKER | tag::TRUST | tag::PADDING => {}
                _ => {
                    let cert = certs.last_mut().ok_or_else(|| {
                        PgpError::malformed(format!(
                            "packet type {} before any primary key: not a certificate or key",
                            p.tag
                        ))
                    })?;
                    match p.tag {
                        tag::USER_ID => {
                            cert.user_ids.push(UserId {
                                value: p.body.clone(),
                                signatures: Vec::new(),
                            });
                            slot = 1;
                        }
                        tag::PUBLIC_SUBKEY | tag::SECRET_SUBKEY => match key_part(p) {
                            Ok(key) => {
                                cert.subkeys.push(Subkey {
                                    key,
                                    signatures: Vec::new(),
                                });
                                slot = 2;
                            }
                            Err(_) => slot = 3,
                        },
                        tag::USER_ATTRIBUTE => {
                            cert.other.push(p.clone());
                            slot = 4;
                        }
                        tag::SIGNATURE => match slot {
                            0 => cert.signatures.extend(parse_signature(p)),
                            1 => {
                                let sig = parse_signature(p);
                                if let Some(u) = cert.user_ids.last_mut() {
                                    u.signatures.extend(sig);
                                }
                            }
                            2 => {
                                let sig = parse_signature(p);
                                if let Some(s) = cert.subkeys.last_mut() {
                                    s.signatures.extend(sig);
                                }
                            }
                            4 => cert.other.push(p.clone()),
                            _ => {}
                        },
                        t => {
                            return Err(PgpError::malformed(format!(
                                "packet type {t} does not belong in a certificate or key"
                            )))
                        }
                    }
                }
            }
        }
        if certs.is_empty() {
            return Err(PgpError::malformed("no certificate or key in the input"));
        }
        Ok(certs)
    }

    /// The primary key's fingerprint.
    pub fn fingerprint(&self) -> Fingerprint {
        self.primary.public.fingerprint()
    }

    /// True if this holds secret key material (a transferable secret key).
    pub fn is_secret(&self) -> bool {
        self.primary.secret.is_some() || self.subkeys.iter().any(|s| s.key.secret.is_some())
    }

    /// True if one of its secret keys needs a passphrase.
    pub fn is_protected(&self) -> bool {
        let protected = |k: &KeyPart| k.secret.as_ref().is_some_and(SecretKey::is_protected);
        protected(&self.primary) || self.subkeys.iter().any(|s| protected(&s.key))
    }

    /// The binary form: the certificate alone, or with its secret packets.
    pub fn to_bytes(&self, with_secrets: bool) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(Vec::new());
        let write_key = |out: &mut Vec<u8>, k: &KeyPart, public_tag: u8, secret_tag: u8| match (
            &k.secret,
            with_secrets,
        ) {
            (Some(s), true) => packet::write(out, secret_tag, &s.body()),
            _ => packet::write(out, public_tag, &k.public.body()),
        };
        write_key(&mut out, &self.primary, tag::PUBLIC_KEY, tag::SECRET_KEY);
        for s in &self.signatures {
            packet::write(&mut out, tag::SIGNATURE, &s.body());
        }
        for u in &self.user_ids {
            packet::write(&mut out, tag::USER_ID, &u.value);
            for s in &u.signatures {
                packet::write(&mut out, tag::SIGNATURE, &s.body());
            }
        }
        for p in &self.other {
            packet::write(&mut out, p.tag, &p.body);
        }
        for sk in &self.subkeys {
            write_key(&mut out, &sk.key, tag::PUBLIC_SUBKEY, tag::SECRET_SUBKEY);
            for s in &sk.signatures {
                packet::write(&mut out, tag::SIGNATURE, &s.body());
            }
        }
        out
    }

    /// Verifies a self-signature made by the primary key over `data`.
    fn check_self(&self, sig: &Signature, data: &[&[u8]], now: u64) -> bool {
        let primary = &self.primary.public;
        if sig
            .issuer_fingerprint()
            .is_some_and(|f| f != primary.fingerprint())
        {
            return false;
        }
        if sig
            .creation_time()
            .is_some_and(|t| u64::from(t) > now || t < primary.created)
        {
            return false;
        }
        if sig.expires_at().is_some_and(|e| e <= now) {
            return false;
        }
        let Ok(mut h) = sig.hasher() else {
            return false;
        };
        for d in data {
            h.update(d);
        }
        sig.verify_hashed(primary, h).is_ok()
    }

    /// The newest valid self-signature among `sigs` of the given types.
    /// Candidates are tried newest first and the search stops at the first
    /// that verifies, so a certificate's validity costs one verification in
    /// the common case and never more than one per signature it carries.
    fn newest_valid<'a>(
        &self,
        sigs: &'a [Signature],
        types: &[u8],
        data: &[&[u8]],
        now: u64,
    ) -> Option<&'a Signature> {
        // Newest first; at equal times a revocation before a certification,
        // then the one that stands later (appended later: made later).
        let mut candidates: Vec<&Signature> = sigs
            .iter()
            .rev()
            .filter(|s| types.contains(&s.sig_type))
            .collect();
        candidates.sort_by_key(|s| {
            core::cmp::Reverse((
                s.creation_time(),
                s.sig_type == sig_type::CERTIFICATION_REVOCATION,
            ))
        });
        candidates
            .into_iter()
            .find(|s| self.check_self(s, data, now))
    }

    /// The valid revocations of `sig_type` among `sigs` over `data`: true
    /// if one is hard, and the earliest time of a soft one.
    fn revocations(
        &self,
        sigs: &[Signature],
        sig_type: u8,
        data: &[&[u8]],
        now: u64,
    ) -> (bool, Option<u64>) {
        let mut hard = false;
        let mut soft: Option<u64> = None;
        for s in sigs.iter().filter(|s| s.sig_type == sig_type) {
            if !self.check_self(s, data, now) {
                continue;
            }
            if super::signature::revocation_reason(s).is_soft() {
                let t = u64::from(s.creation_time().unwrap_or(0));
                soft = Some(soft.map_or(t, |x| x.min(t)));
            } else {
                hard = true;
            }
        }
        (hard, soft)
    }

    /// The certification that makes User ID `u` valid at `now`: its newest
    /// valid self-certification, unless a newer (or equally new) valid
    /// certification revocation (type 0x30) by the primary key revokes it.
    fn user_id_binding<'a>(&self, u: &'a UserId, now: u64) -> Option<&'a Signature> {
        let pk = self.primary.public.hashed_form();
        let uid = user_id_hashed_form(&u.value);
        self.newest_valid(&u.signatures, &USER_ID_SELF_SIGS, &[&pk, &uid], now)
            .filter(|s| s.sig_type != sig_type::CERTIFICATION_REVOCATION)
    }

    /// The facts of the primary key: its binding self-signature (the newest
    /// valid direct-key signature, else the primary User ID's newest valid
    /// certification), revocation and expiry. `None` if the primary key is
    /// not SLH-DSA (nothing here can check it) or has no valid
    /// self-signature.
    pub fn primary_info(&self, now: u64) -> Result<SigningKeyInfo> {
        let primary = &self.primary.public;
        if !primary.is_slh_dsa() {
            return Err(PgpError::unsupported(format!(
                "the certificate {} has a {} primary key; only SLH-DSA certificates are supported",
                primary.fingerprint(),
                super::algorithms::public_key_algorithm_name(primary.algorithm)
            )));
        }
        let pk = primary.hashed_form();
        let binding = self
            .newest_valid(&self.signatures, &[sig_type::DIRECT_KEY], &[&pk], now)
            .or_else(|| {
                let mut best: Option<&Signature> = None;
                for u in &self.user_ids {
                    if let Some(s) = self.user_id_binding(u, now) {
                        let better = match best {
                            None => true,
                            Some(b) => {
                                (s.is_primary_user_id(), s.creation_time())
                                    > (b.is_primary_user_id(), b.creation_time())
                            }
                        };
                        if better {
                            best = Some(s);
                        }
                    }
                }
                best
            })
            .ok_or_else(|| {
                PgpError::bad_signature(format!(
                    "the certificate {} has no valid self-signature",
                    primary.fingerprint()
                ))
            })?;
        let (revoked, retired) =
            self.revocations(&self.signatures, sig_type::KEY_REVOCATION, &[&pk], now);
        Ok(SigningKeyInfo {
            key: primary.clone(),
            primary: primary.fingerprint(),
            expires: binding
                .key_expiration()
                .map(|d| u64::from(primary.created) + u64::from(d)),
            revoked,
            retired,
            can_sign: binding.key_flags().is_none_or(|f| f & key_flags::SIGN != 0),
        })
    }

    /// Every key of this certificate that may sign data, with its facts:
    /// the primary key, and each SLH-DSA subkey with a valid binding that
    /// allows signing and a valid embedded back-signature (§5.2.1.9).
    pub fn signing_keys(&self, now: u64) -> Result<Vec<SigningKeyInfo>> {
        let primary = self.primary_info(now)?;
        let mut out = Vec::new();
        let pk = self.primary.public.hashed_form();
        for sub in &self.subkeys {
            let key = &sub.key.public;
            if !key.is_slh_dsa() {
                continue;
            }
            let sk = key.hashed_form();
            let Some(binding) = self.newest_valid(
                &sub.signatures,
                &[sig_type::SUBKEY_BINDING],
                &[&pk, &sk],
                now,
            ) else {
                continue;
            };
            let can_sign = binding
                .key_flags()
                .is_some_and(|f| f & key_flags::SIGN != 0);
            let back_ok = binding
                .embedded_signatures()
                .into_iter()
                .flatten()
                .any(|b| {
                    b.sig_type == sig_type::PRIMARY_KEY_BINDING
                        && b.hasher().is_ok_and(|mut h| {
                            h.update(&pk);
                            h.update(&sk);
                            b.verify_hashed(key, h).is_ok()
                        })
                });
            let (own_revoked, own_retired) = self.revocations(
                &sub.signatures,
                sig_type::SUBKEY_REVOCATION,
                &[&pk, &sk],
                now,
            );
            let revoked = primary.revoked || own_revoked;
            let retired = match (own_retired, primary.retired) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            // A subkey lives no longer than its certificate: its own
            // expiry, if it states one, is capped by the primary key's.
            let own = binding
                .key_expiration()
                .map(|d| u64::from(key.created) + u64::from(d));
            let expires = match (own, primary.expires) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            out.push(SigningKeyInfo {
                key: key.clone(),
                primary: primary.primary,
                expires,
                revoked,
                retired,
                can_sign: can_sign && back_ok,
            });
        }
        out.insert(0, primary);
        Ok(out)
    }

    /// The User IDs with a valid self-certification that is not revoked
    /// (a certification revocation, type 0x30, newer than it), as text.
    pub fn valid_user_ids(&self, now: u64) -> Vec<String> {
        self.user_ids
            .iter()
            .filter(|u| self.user_id_binding(u, now).is_some())
            .map(|u| String::from_utf8_lossy(&u.value).into_owned())
            .collect()
    }

    /// The User ID that names this certificate's holder: the first valid,
    /// unrevoked one marked primary, else the first valid, unrevoked one.
    pub fn primary_user_id(&self, now: u64) -> Option<String> {
        let mut first = None;
        for u in &self.user_ids {
            if let Some(s) = self.user_id_binding(u, now) {
                if s.is_primary_user_id() {
                    return Some(String::from_utf8_lossy(&u.value).into_owned());
                }
                first.get_or_insert(u);
            }
        }
        first.map(|u| String::from_utf8_lossy(&u.value).into_owned())
    }

    /// The secret key that signs data: the newest usable signing subkey
    /// whose secret is here (as gpg picks), else the primary key if its
    /// flags allow; with its packet tag. Usable means: allowed to sign,
    /// not revoked, not expired at `now`. A certificate whose validity
    /// cannot be established (no valid self-signature, not SLH-DSA) cannot
    /// sign either: every failure here is [`ErrorKind::KeyCannotSign`].
    pub fn signing_secret(&self, now: u64) -> Result<(&SecretKey, u8)> {
        let cannot = |why: String| PgpError::new(ErrorKind::KeyCannotSign, why);
        let infos = self
            .signing_keys(now)
            .map_err(|e| cannot(format!("the key cannot sign: {}", e.message)))?;
        let usable = |i: &&SigningKeyInfo| i.usable(now);
        let subkey = infos
            .iter()
            .filter(usable)
            .filter_map(|info| {
                self.subkeys
                    .iter()
                    .find(|sub| sub.key.public == info.key)
                    .and_then(|sub| sub.key.secret.as_ref())
            })
            .max_by_key(|s| s.public.created);
        if let Some(s) = subkey {
            return Ok((s, tag::SECRET_SUBKEY));
        }
        if let (Some(info), Some(s)) = (infos.first().filter(usable), &self.primary.secret) {
            if info.key == self.primary.public {
                return Ok((s, tag::SECRET_KEY));
            }
        }
        Err(cannot(format!("the key {} has no usable SLH-DSA signing key with its secret (expired, revoked, not allowed to sign, or not a secret key)", self.fingerprint())))
    }

    /// The key of this certificate that `key` (held elsewhere, such as in
    /// a PKCS#11 token) signs as: a usable signing key (the primary or a
    /// subkey; usable as [`Cert::signing_secret`] judges) whose public key
    /// is `key`'s.
    pub fn signing_public(&self, key: &AnyVerifyingKey, now: u64) -> Result<PublicKey> {
        let cannot = |why: String| PgpError::new(ErrorKind::KeyCannotSign, why);
        let infos = self
            .signing_keys(now)
            .map_err(|e| cannot(format!("the key cannot sign: {}", e.message)))?;
        let wanted = key.to_bytes();
        let found = infos
            .into_iter()
            .find(|i| i.key.material == wanted)
            .ok_or_else(|| {
                cannot(format!(
                    "the key offered is none of the keys of {}",
                    self.fingerprint()
                ))
            })?;
        if !found.usable(now) {
            return Err(cannot(format!(
                "the key {} of {} cannot sign now (expired, revoked, retired or not allowed to sign)",
                found.key.fingerprint(),
                self.fingerprint()
            )));
        }
        Ok(found.key)
    }

    /// Applies `f` to every secret key packet with its tag.
    pub fn map_secrets(
        &self,
        mut f: impl FnMut(&SecretKey, u8) -> Result<SecretKey>,
    ) -> Result<Cert> {
        let mut out = self.clone();
        if let Some(s) = &self.primary.secret {
            out.primary.secret = Some(f(s, tag::SECRET_KEY)?);
        }
        for (o, sub) in out.subkeys.iter_mut().zip(&self.subkeys) {
            if let Some(s) = &sub.key.secret {
                o.key.secret = Some(f(s, tag::SECRET_SUBKEY)?);
            }
        }
        Ok(out)
    }
}

/// A User ID as certifications hash it (§5.2.4): 0xB4, four-octet length,
/// the User ID.
pub fn user_id_hashed_form(uid: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(5 + uid.len());
    out.push(0xb4);
    out.extend_from_slice(&(uid.len() as u32).to_be_bytes());
    out.extend_from_slice(uid);
    out
}

/// The preferences and features a new key states (RFC 9580 §5.2.3.14-25,
/// RFC 9980 §9.1: AES-256 and AES-256 with OCB first).
fn preferences() -> Vec<Subpacket> {
    vec![
        Subpacket::critical(kind::KEY_FLAGS, vec![key_flags::CERTIFY | key_flags::SIGN]),
        Subpacket::new(kind::FEATURES, vec![0x01 | 0x08]),
        Subpacket::new(kind::PREFERRED_SYMMETRIC, vec![9, 7]),
        Subpacket::new(kind::PREFERRED_AEAD, vec![9, 2, 7, 2]),
        Subpacket::new(kind::PREFERRED_HASH, vec![10, 8, 14, 12]),
        Subpacket::new(kind::PREFERRED_COMPRESSION, vec![0]),
    ]
}

/// The key expiration subpacket (§5.2.3.13) for a key created at
/// `created` that expires at `expires` (seconds since the epoch).
pub(super) fn expiration(created: u32, expires: u64) -> Result<Subpacket> {
    let after = expires
        .checked_sub(u64::from(created))
        .filter(|&d| d > 0)
        .and_then(|d| u32::try_from(d).ok())
        .ok_or_else(|| {
            PgpError::unsupported(
                "the expiry must lie after the key's creation and within 136 years of it",
            )
        })?;
    Ok(Subpacket::new(
        kind::KEY_EXPIRATION_TIME,
        after.to_be_bytes().to_vec(),
    ))
}

/// The OpenPGP public key packet of `key` (of a set RFC 9980 assigns a
/// code point), created at `created`.
pub(super) fn public_key_of(key: &AnyVerifyingKey, created: u32) -> Result<PublicKey> {
    let alg = key.algorithm();
    let algorithm = super::algorithms::slh_dsa_id(&alg.to_string()).ok_or_else(|| {
        PgpError::unsupported(format!(
            "{alg} has no OpenPGP code point; RFC 9980 assigns SLH-DSA-SHAKE-128s, -128f and -256s"
        ))
    })?;
    Ok(PublicKey {
        created,
        algorithm,
        material: key.to_bytes(),
    })
}

/// A new SLH-DSA key of `alg` (one RFC 9980 assigns a code point) and its
/// OpenPGP public key packet, created at `created`: a primary key or a
/// subkey.
pub(super) fn new_key(alg: AnyAlgorithm, created: u32) -> Result<(AnySigningKey, PublicKey)> {
    let sk = AnySigningKey::generate(alg, 1)?;
    let public = public_key_of(&sk.verifying_key(), created)?;
    Ok((sk, public))
}

/// Makes a new transferable secret key: an SLH-DSA primary key of `alg`
/// that certifies and signs, a direct-key self-signature with its flags and
/// preferences, and a positive certification of each User ID (the first
/// marked primary). With `passphrase`, the secret key is AEAD-protected.
pub fn generate(
    alg: AnyAlgorithm,
    user_ids: &[String],
    created: u32,
    passphrase: Option<&[u8]>,
) -> Result<Cert> {
    generate_expiring(alg, user_ids, created, passphrase, None)
}

/// [`generate`], with the key expiring at `expires` (seconds since the
/// epoch) if given: stated in the direct-key self-signature from the start.
pub fn generate_expiring(
    alg: AnyAlgorithm,
    user_ids: &[String],
    created: u32,
    passphrase: Option<&[u8]>,
    expires: Option<u64>,
) -> Result<Cert> {
    let (sk, _) = new_key(alg, created)?;
    let mut cert = certify(&sk, user_ids, created, expires)?;
    let public = cert.primary.public.clone();
    let secret = SecretKey {
        public,
        secret: SecretMaterial::Plain(sk.to_bytes()),
    };
    cert.primary.secret = Some(secret.with_protection(tag::SECRET_KEY, passphrase)?);
    Ok(cert)
}

/// The certificate (no secret) of a primary key held elsewhere, such as in
/// a PKCS#11 token, made as [`generate_expiring`] makes a new key's: a
/// direct-key self-signature with flags and preferences (and the expiry,
/// if any) and a positive certification of each User ID, every one signed
/// by `primary`.
pub fn certify(
    primary: &dyn AnySigner,
    user_ids: &[String],
    created: u32,
    expires: Option<u64>,
) -> Result<Cert> {
    let public = public_key_of(&primary.verifying_key(), created)?;
    let pk = public.hashed_form();
    let mut direct_subpackets = preferences();
    if let Some(e) = expires {
        direct_subpackets.push(expiration(created, e)?);
    }
    let mut direct = Signing::start(sig_type::DIRECT_KEY, &public, created, direct_subpackets)?;
    direct.update(&pk);
    let signatures = vec![direct.finish(primary, 1)?];
    let mut uids = Vec::new();
    for (i, uid) in user_ids.iter().enumerate() {
        let mut extra = preferences();
        if i == 0 {
            extra.push(Subpacket::new(kind::PRIMARY_USER_ID, vec![1]));
        }
        let mut s = Signing::start(sig_type::POSITIVE_CERTIFICATION, &public, created, extra)?;
        s.update(&pk);
        s.update(&user_id_hashed_form(uid.as_bytes()));
        uids.push(UserId {
            value: uid.as_bytes().to_vec(),
            signatures: vec![s.finish(primary, 1)?],
        });
    }
    Ok(Cert {
        primary: KeyPart {
            public,
            secret: None,
        },
        signatures,
        user_ids: uids,
        subkeys: Vec::new(),
        other: Vec::new(),
    })
}
