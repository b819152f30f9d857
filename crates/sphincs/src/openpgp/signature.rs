//! RFC 9580 §5.2: v6 signature packets (§5.2.3) and how they are hashed and
//! checked (§5.2.4): salt first, then the signed data, then the signature's
//! own fields and hashed subpackets, then the 0x06 0xFF trailer. The digest
//! is signed with SLH-DSA as RFC 9980 §6.1.2 says: pure, hedged, with an
//! empty context.

use super::algorithms::{self, HashAlgorithm, Hasher};
use super::error::{PgpError, Result};
use super::key::{Fingerprint, PublicKey};
use super::packet::Reader;
use super::subpacket::{self, kind, Subpacket};
use crate::any::AnySigner;
use crate::SignOptions;

/// Signature types (§5.2.1, Table 4) this module makes or checks.
pub mod sig_type {
    #![allow(missing_docs)]
    pub const BINARY: u8 = 0x00;
    pub const TEXT: u8 = 0x01;
    pub const GENERIC_CERTIFICATION: u8 = 0x10;
    pub const POSITIVE_CERTIFICATION: u8 = 0x13;
    pub const SUBKEY_BINDING: u8 = 0x18;
    pub const PRIMARY_KEY_BINDING: u8 = 0x19;
    pub const DIRECT_KEY: u8 = 0x1f;
    pub const KEY_REVOCATION: u8 = 0x20;
    pub const SUBKEY_REVOCATION: u8 = 0x28;
    pub const CERTIFICATION_REVOCATION: u8 = 0x30;
}

/// Key flags (§5.2.3.29).
pub mod key_flags {
    #![allow(missing_docs)]
    pub const CERTIFY: u8 = 0x01;
    pub const SIGN: u8 = 0x02;
}

/// Why a key, subkey or User ID is revoked (§5.2.3.31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// No reason stated (a hard revocation).
    Unspecified,
    /// A newer key replaces it (soft).
    Superseded,
    /// The secret key may be in others' hands (hard).
    Compromised,
    /// No longer used (soft).
    Retired,
    /// The User ID is no longer valid (for User IDs).
    UserIdInvalid,
}

impl Reason {
    /// The octet §5.2.3.31 assigns.
    pub fn code(self) -> u8 {
        match self {
            Reason::Unspecified => 0,
            Reason::Superseded => 1,
            Reason::Compromised => 2,
            Reason::Retired => 3,
            Reason::UserIdInvalid => 32,
        }
    }

    /// The reason of an octet; unknown codes read as unspecified (hard).
    pub fn from_code(code: u8) -> Reason {
        match code {
            1 => Reason::Superseded,
            2 => Reason::Compromised,
            3 => Reason::Retired,
            32 => Reason::UserIdInvalid,
            _ => Reason::Unspecified,
        }
    }

    /// True for the reasons that leave earlier signatures good.
    pub fn is_soft(self) -> bool {
        matches!(self, Reason::Superseded | Reason::Retired)
    }

    /// The reason as `revoke` verbs take it.
    pub fn parse(name: &str) -> Option<Reason> {
        Some(match name {
            "unspecified" => Reason::Unspecified,
            "superseded" => Reason::Superseded,
            "compromised" => Reason::Compromised,
            "retired" => Reason::Retired,
            "uid-invalid" => Reason::UserIdInvalid,
            _ => return None,
        })
    }
}

/// The reason a revocation signature states (hard when it states none).
pub fn revocation_reason(sig: &Signature) -> Reason {
    sig.hashed
        .iter()
        .find(|s| s.kind == kind::REASON_FOR_REVOCATION)
        .and_then(|s| s.body.first())
        .map_or(Reason::Unspecified, |&c| Reason::from_code(c))
}

/// A v6 signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Signature type.
    pub sig_type: u8,
    /// Public-key algorithm ID.
    pub pk_algo: u8,
    /// Hash algorithm ID.
    pub hash_algo: u8,
    /// The hashed subpacket area as it was read (it is hashed as is).
    pub hashed_area: Vec<u8>,
    /// The hashed subpackets.
    pub hashed: Vec<Subpacket>,
    /// The unhashed subpackets.
    pub unhashed: Vec<Subpacket>,
    /// The left 16 bits of the signed digest.
    pub left16: [u8; 2],
    /// The salt.
    pub salt: Vec<u8>,
    /// The algorithm-specific signature (for SLH-DSA, the FIPS 205 signature).
    pub material: Vec<u8>,
}

impl Signature {
    /// Parses a Signature packet body; v4 and v3 signatures are refused by
    /// name (RFC 9980 §6.2.1: SLH-DSA is used only in v6 signatures).
    pub fn parse(body: &[u8]) -> Result<Self> {
        let mut r = Reader::new(body, "a signature");
        match r.u8()? {
            6 => {}
            v @ (3 | 4) => {
                let algo = body.get(if v == 4 { 2 } else { 15 }).copied().unwrap_or(0);
                return Err(PgpError::unsupported(format!(
                    "a v{v} signature ({}) is not supported: only v6 signatures are (SLH-DSA exists only in v6, RFC 9980 §6.2.1)",
                    algorithms::public_key_algorithm_name(algo)
                )));
            }
            v => {
                return Err(PgpError::unsupported(format!(
                    "version {v} signatures are not supported"
                )))
            }
        }
        let sig_type = r.u8()?;
        let pk_algo = r.u8()?;
        let hash_algo = r.u8()?;
        let hashed_len = r.u32()? as usize;
        let hashed_area = r.bytes(hashed_len)?.to_vec();
        let unhashed_len = r.u32()? as usize;
        let unhashed_area = r.bytes(unhashed_len)?;
        let mut left16 = [0; 2];
        left16.copy_from_slice(r.bytes(2)?);
        let salt_len = r.u8()? as usize;
        let salt = r.bytes(salt_len)?.to_vec();
        let material = r.rest().to_vec();
        let hashed = subpacket::parse_area(&hashed_area)?;
        // One creation time: a signature stating two could be dated by
        // either, and readers would disagree (Sequoia refuses it too).
        if hashed
            .iter()
            .filter(|s| s.kind == kind::CREATION_TIME)
            .count()
            > 1
        {
            return Err(PgpError::malformed(
                "the signature states its creation time twice",
            ));
        }
        Ok(Signature {
            sig_type,
            pk_algo,
            hash_algo,
            hashed,
            hashed_area,
            unhashed: subpacket::parse_area(unhashed_area)?,
            left16,
            salt,
            material,
        })
    }

    /// The packet body.
    pub fn body(&self) -> Vec<u8> {
        let unhashed = subpacket::write_area(&self.unhashed);
        let mut out =
            Vec::with_capacity(self.hashed_area.len() + unhashed.len() + self.material.len() + 64);
        out.extend_from_slice(&[6, self.sig_type, self.pk_algo, self.hash_algo]);
        out.extend_from_slice(&(self.hashed_area.len() as u32).to_be_bytes());
        out.extend_from_slice(&self.hashed_area);
        out.extend_from_slice(&(unhashed.len() as u32).to_be_bytes());
        out.extend_from_slice(&unhashed);
        out.extend_from_slice(&self.left16);
        out.push(self.salt.len() as u8);
        out.extend_from_slice(&self.salt);
        out.extend_from_slice(&self.material);
        out
    }

    fn hashed_subpacket(&self, k: u8) -> Option<&Subpacket> {
        self.hashed.iter().find(|s| s.kind == k)
    }

    /// Creation time (the hashed subpacket §5.2.3.11 requires).
    pub fn creation_time(&self) -> Option<u32> {
        self.hashed_subpacket(kind::CREATION_TIME)?.as_u32()
    }

    /// When the signature expires (§5.2.3.18), if it does.
    pub fn expires_at(&self) -> Option<u64> {
        let d = self.hashed_subpacket(kind::EXPIRATION_TIME)?.as_u32()?;
        (d != 0).then(|| u64::from(self.creation_time().unwrap_or(0)) + u64::from(d))
    }

    /// The key expiration time (§5.2.3.13), seconds after key creation.
    pub fn key_expiration(&self) -> Option<u32> {
        self.hashed_subpacket(kind::KEY_EXPIRATION_TIME)?
            .as_u32()
            .filter(|&d| d != 0)
    }

    /// The first octet of the key flags (§5.2.3.29).
    pub fn key_flags(&self) -> Option<u8> {
        self.hashed_subpacket(kind::KEY_FLAGS)
            .map(|s| s.body.first().copied().unwrap_or(0))
    }

    /// True if the primary-user-ID flag (§5.2.3.27) is set.
    pub fn is_primary_user_id(&self) -> bool {
        self.hashed_subpacket(kind::PRIMARY_USER_ID)
            .is_some_and(|s| s.body.first() == Some(&1))
    }

    /// The issuer fingerprint (§5.2.3.35), from either area.
    pub fn issuer_fingerprint(&self) -> Option<Fingerprint> {
        self.hashed
            .iter()
            .chain(&self.unhashed)
            .filter(|s| s.kind == kind::ISSUER_FINGERPRINT && s.body.len() == 33 && s.body[0] == 6)
            .map(|s| {
                let mut fp = [0; 32];
                fp.copy_from_slice(&s.body[1..]);
                Fingerprint(fp)
            })
            .next()
    }

    /// Embedded signatures (§5.2.3.34), parsed: from the hashed area and
    /// from the unhashed one. A primary-key back-signature is
    /// self-authenticating (the subkey signs the primary key and itself),
    /// so it counts wherever it stands, as Sequoia and go-crypto read it.
    pub fn embedded_signatures(&self) -> Vec<Result<Signature>> {
        self.hashed
            .iter()
            .chain(&self.unhashed)
            .filter(|s| s.kind == kind::EMBEDDED_SIGNATURE)
            .map(|s| Signature::parse(&s.body))
            .collect()
    }

    /// The hash algorithm.
    pub fn hash_algorithm(&self) -> Result<HashAlgorithm> {
        HashAlgorithm::from_id(self.hash_algo)
    }

    /// A hash state with the salt absorbed, ready for the signed data.
    pub fn hasher(&self) -> Result<Hasher> {
        let hash = self.hash_algorithm()?;
        let mut h = hash.hasher();
        h.update(&self.salt);
        Ok(h)
    }

    /// The digest: `h` (salt and data absorbed) with the trailer (§5.2.4).
    pub fn digest(&self, mut h: Hasher) -> Vec<u8> {
        let mut trailer = vec![6, self.sig_type, self.pk_algo, self.hash_algo];
        trailer.extend_from_slice(&(self.hashed_area.len() as u32).to_be_bytes());
        trailer.extend_from_slice(&self.hashed_area);
        let n = trailer.len() as u32;
        h.update(&trailer);
        h.update(&[0x06, 0xff]);
        h.update(&n.to_be_bytes());
        h.finalize()
    }

    /// Checks this signature's form against the policy and `key`, then the
    /// SLH-DSA signature over the digest of `h` (salt and data absorbed).
    pub fn verify_hashed(&self, key: &PublicKey, h: Hasher) -> Result<()> {
        if self.pk_algo != key.algorithm {
            return Err(PgpError::bad_signature(format!(
                "the signature is by a {} key, the key {} is {}",
                algorithms::public_key_algorithm_name(self.pk_algo),
                key.fingerprint(),
                algorithms::public_key_algorithm_name(key.algorithm)
            )));
        }
        let vk = key.verifying_key()?;
        let hash = self.hash_algorithm()?;
        algorithms::check_hash_for_slh_dsa(hash)?;
        if self.salt.len() != hash.salt_len() {
            return Err(PgpError::bad_signature(format!(
                "the signature's salt is {} octets; {} requires {} (RFC 9580 §9.5)",
                self.salt.len(),
                hash.name(),
                hash.salt_len()
            )));
        }
        if let Some(s) = self.hashed.iter().find(|s| s.is_unknown_critical()) {
            return Err(PgpError::bad_signature(format!(
                "the signature has a critical subpacket of unknown type {} (RFC 9580 §5.2.3.7)",
                s.kind
            )));
        }
        if self.creation_time().is_none() {
            return Err(PgpError::bad_signature(
                "the signature has no hashed creation time (RFC 9580 §5.2.3.11 requires one)",
            ));
        }
        let digest = self.digest(h);
        if digest[..2] != self.left16 {
            return Err(PgpError::bad_signature(
                "the digest does not match the signature (left 16 bits differ)",
            ));
        }
        vk.verify(&digest, &self.material, b"", None).map_err(|e| {
            PgpError::bad_signature(format!("the SLH-DSA signature does not verify: {e}"))
        })
    }
}

/// A signature being made: its fields, and the hash state with the salt in.
pub struct Signing {
    sig: Signature,
    hasher: Hasher,
}

impl Signing {
    /// Starts a signature of `sig_type` by `key` at `created`, with the
    /// policy's hash and a fresh salt; the hashed area holds the creation
    /// time, the issuer fingerprint and `extra`.
    pub fn start(
        sig_type: u8,
        key: &PublicKey,
        created: u32,
        extra: Vec<Subpacket>,
    ) -> Result<Signing> {
        Self::start_with_hash(
            sig_type,
            key,
            created,
            extra,
            algorithms::signing_hash(key.algorithm),
        )
    }

    /// [`Signing::start`] with another hash: for tests of verifiers only
    /// (a SHA2-224 signature, which every verifier must refuse for
    /// SLH-DSA). Nothing in this crate signs with it.
    #[doc(hidden)]
    pub fn start_with_hash(
        sig_type: u8,
        key: &PublicKey,
        created: u32,
        extra: Vec<Subpacket>,
        hash: HashAlgorithm,
    ) -> Result<Signing> {
        let mut salt = vec![0u8; hash.salt_len()];
        crate::rand::fill_random(&mut salt)?;
        let mut fpr = vec![6u8];
        fpr.extend_from_slice(&key.fingerprint().0);
        let mut hashed = vec![
            Subpacket::critical(kind::CREATION_TIME, created.to_be_bytes().to_vec()),
            Subpacket::new(kind::ISSUER_FINGERPRINT, fpr),
        ];
        hashed.extend(extra);
        let sig = Signature {
            sig_type,
            pk_algo: key.algorithm,
            hash_algo: hash.id(),
            hashed_area: subpacket::write_area(&hashed),
            hashed,
            unhashed: Vec::new(),
            left16: [0; 2],
            salt,
            material: Vec::new(),
        };
        let hasher = sig.hasher()?;
        Ok(Signing { sig, hasher })
    }

    /// Absorbs signed data.
    pub fn update(&mut self, data: &[u8]) {
        self.hasher.update(data);
    }

    /// The signature's type, hash algorithm and salt (for a one-pass
    /// signature packet).
    pub fn header(&self) -> &Signature {
        &self.sig
    }

    /// Signs the digest with `key` (hedged, pure, empty context) on
    /// `threads` threads.
    pub fn finish(self, key: &dyn AnySigner, threads: usize) -> Result<Signature> {
        let mut sig = self.sig;
        let digest = sig.digest(self.hasher);
        sig.left16.copy_from_slice(&digest[..2]);
        let opts = SignOptions {
            threads,
            ..SignOptions::default()
        };
        sig.material = key.sign(&digest, &opts)?;
        // The secret key is loaded without recomputing its public root
        // (algorithms::signing_key): a signature is released only once it
        // verifies under the key's public half.
        if key
            .verifying_key()
            .verify(&digest, &sig.material, b"", None)
            .is_err()
        {
            return Err(PgpError::new(
                super::ErrorKind::Other,
                "the signature made does not verify under the key's public key (a damaged secret key, or a fault); nothing was released",
            ));
        }
        Ok(sig)
    }
}
