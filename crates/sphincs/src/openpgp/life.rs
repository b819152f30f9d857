//! A key's life after its first day (RFC 9580 §5.2.1, §5.2.3): a new
//! expiry, revocation (of the key, a subkey or a User ID, with a reason),
//! and signing subkeys added and retired. Each operation is a new
//! self-signature made by the primary key over the same data the checks
//! in `cert` hash, so what is made here is judged there.
//!
//! Revocation reasons ([`Reason`], §5.2.3.31) split in two, as Sequoia and
//! gpg read them: "superseded" and "retired" are *soft* (signatures made
//! before the revocation stay good where validity is judged at signing
//! time); "compromised" and no reason are *hard* (nothing the key signed is
//! good).

use super::cert::{expiration, user_id_hashed_form, Cert, KeyPart, Subkey};
use super::error::{PgpError, Result};
use super::key::{Fingerprint, SecretKey, SecretMaterial};
use super::packet::tag;
use super::signature::{key_flags, sig_type, Reason, Signature, Signing};
use super::subpacket::{kind, Subpacket};
use crate::any::{AnyAlgorithm, AnySigner, AnySigningKey};

fn reason_subpacket(reason: Reason, text: &str) -> Subpacket {
    let mut body = vec![reason.code()];
    body.extend_from_slice(text.as_bytes());
    Subpacket::new(kind::REASON_FOR_REVOCATION, body)
}

/// The primary key of `cert`, unlocked with `passphrases` (if protected):
/// the key that makes every self-signature.
pub fn unlock_primary(cert: &Cert, passphrases: &[&[u8]]) -> Result<AnySigningKey> {
    let secret = cert.primary.secret.as_ref().ok_or_else(|| {
        PgpError::new(
            super::ErrorKind::KeyCannotSign,
            format!(
                "the primary key of {} is not here (a certificate, or a key whose primary is kept offline); changing a key's life needs it",
                cert.fingerprint()
            ),
        )
    })?;
    secret.signing_key(tag::SECRET_KEY, passphrases)
}

/// Checks that `primary` is the primary key of `cert`.
fn check_primary(cert: &Cert, primary: &dyn AnySigner) -> Result<()> {
    if primary.verifying_key().to_bytes() != cert.primary.public.verifying_key()?.to_bytes() {
        return Err(PgpError::new(
            super::ErrorKind::KeyCannotSign,
            format!(
                "the key offered is not the primary key of {}",
                cert.fingerprint()
            ),
        ));
    }
    Ok(())
}

impl Cert {
    /// A copy whose key expires at `expires` (`None`: never), from `now`
    /// on: a new direct-key self-signature restating the newest one's
    /// subpackets with the expiry changed (§5.2.3.13). Verifiers take the
    /// newest valid self-signature, so this one rules.
    pub fn with_expiry(
        &self,
        primary: &dyn AnySigner,
        expires: Option<u64>,
        now: u32,
    ) -> Result<Cert> {
        check_primary(self, primary)?;
        let public = &self.primary.public;
        let pk = public.hashed_form();
        let mut keep: Vec<Subpacket> = self
            .signatures
            .iter()
            .filter(|s| s.sig_type == sig_type::DIRECT_KEY)
            .max_by_key(|s| s.creation_time())
            .map(|s| {
                s.hashed
                    .iter()
                    .filter(|p| {
                        !matches!(
                            p.kind,
                            kind::CREATION_TIME
                                | kind::ISSUER_FINGERPRINT
                                | kind::KEY_EXPIRATION_TIME
                                | kind::EXPIRATION_TIME
                        )
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_else(|| {
                // No direct-key signature yet (a key bound by its User ID
                // certifications, as some implementations make them): the
                // primary keeps the flags it has there.
                let signs = self.primary_info(u64::from(now)).is_ok_and(|i| i.can_sign);
                let flags = key_flags::CERTIFY | if signs { key_flags::SIGN } else { 0 };
                vec![Subpacket::critical(kind::KEY_FLAGS, vec![flags])]
            });
        if let Some(e) = expires {
            keep.push(expiration(public.created, e)?);
        }
        let mut s = Signing::start(sig_type::DIRECT_KEY, public, now, keep)?;
        s.update(&pk);
        let mut out = self.clone();
        out.signatures.push(s.finish(primary, 1)?);
        Ok(out)
    }

    /// A key revocation signature (type 0x20) for this certificate: kept
    /// apart as a revocation certificate, or merged with
    /// [`Cert::with_revocation`] to revoke.
    pub fn revocation(
        &self,
        primary: &dyn AnySigner,
        reason: Reason,
        text: &str,
        now: u32,
    ) -> Result<Signature> {
        check_primary(self, primary)?;
        let public = &self.primary.public;
        let mut s = Signing::start(
            sig_type::KEY_REVOCATION,
            public,
            now,
            vec![reason_subpacket(reason, text)],
        )?;
        s.update(&public.hashed_form());
        s.finish(primary, 1)
    }

    /// A copy with `sig` added, if it is a key revocation of this
    /// certificate that verifies (a revocation certificate from elsewhere
    /// is checked before it is merged).
    pub fn with_revocation(&self, sig: Signature, now: u64) -> Result<Cert> {
        let public = &self.primary.public;
        let valid = sig.sig_type == sig_type::KEY_REVOCATION
            && sig.creation_time().is_some_and(|t| u64::from(t) <= now)
            && sig.hasher().is_ok_and(|mut h| {
                h.update(&public.hashed_form());
                sig.verify_hashed(public, h).is_ok()
            });
        if !valid {
            return Err(PgpError::bad_signature(format!(
                "not a valid revocation of {}",
                public.fingerprint()
            )));
        }
        let mut out = self.clone();
        if !out.signatures.contains(&sig) {
            out.signatures.push(sig);
        }
        Ok(out)
    }

    /// A copy with a new SLH-DSA signing subkey of `alg` created at `now`
    /// (expiring at `expires`, if given), bound by the primary key with
    /// an embedded back-signature (§5.2.1.9); its secret protected with
    /// `passphrase`. Returns the copy and the subkey's fingerprint.
    pub fn with_signing_subkey(
        &self,
        primary: &dyn AnySigner,
        alg: AnyAlgorithm,
        expires: Option<u64>,
        passphrase: Option<&[u8]>,
        now: u32,
    ) -> Result<(Cert, Fingerprint)> {
        check_primary(self, primary)?;
        let (sk, public) = super::cert::new_key(alg, now)?;
        let pk = self.primary.public.hashed_form();
        let sub = public.hashed_form();
        let mut back = Signing::start(sig_type::PRIMARY_KEY_BINDING, &public, now, Vec::new())?;
        back.update(&pk);
        back.update(&sub);
        let back = back.finish(&sk, 1)?;
        let mut extra = vec![
            Subpacket::critical(kind::KEY_FLAGS, vec![key_flags::SIGN]),
            Subpacket::new(kind::EMBEDDED_SIGNATURE, back.body()),
        ];
        if let Some(e) = expires {
            extra.push(expiration(now, e)?);
        }
        let mut binding =
            Signing::start(sig_type::SUBKEY_BINDING, &self.primary.public, now, extra)?;
        binding.update(&pk);
        binding.update(&sub);
        let binding = binding.finish(primary, 1)?;
        let secret = SecretKey {
            public: public.clone(),
            secret: SecretMaterial::Plain(sk.to_bytes()),
        }
        .with_protection(tag::SECRET_SUBKEY, passphrase)?;
        let fingerprint = public.fingerprint();
        let mut out = self.clone();
        out.subkeys.push(Subkey {
            key: KeyPart {
                public,
                secret: Some(secret),
            },
            signatures: vec![binding],
        });
        Ok((out, fingerprint))
    }

    /// A copy in which the subkey `subkey` is revoked (type 0x28) for
    /// `reason` from `now`: "retired" or "superseded" for a key rotated out
    /// (its earlier signatures stay good where validity is judged at
    /// signing time), "compromised" for a lost one.
    pub fn with_subkey_revoked(
        &self,
        primary: &dyn AnySigner,
        subkey: &Fingerprint,
        reason: Reason,
        text: &str,
        now: u32,
    ) -> Result<Cert> {
        check_primary(self, primary)?;
        let i = self
            .subkeys
            .iter()
            .position(|s| s.key.public.fingerprint() == *subkey)
            .ok_or_else(|| {
                PgpError::malformed(format!("{} has no subkey {subkey}", self.fingerprint()))
            })?;
        let mut s = Signing::start(
            sig_type::SUBKEY_REVOCATION,
            &self.primary.public,
            now,
            vec![reason_subpacket(reason, text)],
        )?;
        s.update(&self.primary.public.hashed_form());
        s.update(&self.subkeys[i].key.public.hashed_form());
        let mut out = self.clone();
        out.subkeys[i].signatures.push(s.finish(primary, 1)?);
        Ok(out)
    }

    /// A copy in which the User ID `uid` is revoked (a certification
    /// revocation, type 0x30): verifiers stop naming the holder by it.
    pub fn with_user_id_revoked(
        &self,
        primary: &dyn AnySigner,
        uid: &[u8],
        text: &str,
        now: u32,
    ) -> Result<Cert> {
        check_primary(self, primary)?;
        let i = self
            .user_ids
            .iter()
            .position(|u| u.value == uid)
            .ok_or_else(|| {
                PgpError::malformed(format!(
                    "{} has no User ID {:?}",
                    self.fingerprint(),
                    String::from_utf8_lossy(uid)
                ))
            })?;
        let mut s = Signing::start(
            sig_type::CERTIFICATION_REVOCATION,
            &self.primary.public,
            now,
            vec![reason_subpacket(Reason::UserIdInvalid, text)],
        )?;
        s.update(&self.primary.public.hashed_form());
        s.update(&user_id_hashed_form(uid));
        let mut out = self.clone();
        out.user_ids[i].signatures.push(s.finish(primary, 1)?);
        Ok(out)
    }

    /// The certificate without the primary key's secret: what goes on the
    /// machine that signs day to day when the primary stays offline. The
    /// subkeys keep their secrets; the primary is a public key packet.
    pub fn without_primary_secret(&self) -> Cert {
        let mut out = self.clone();
        out.primary.secret = None;
        out
    }
}
