//! RFC 9580 §5.5: v6 key packets. A public key (§5.5.2.3) is its creation
//! time, algorithm and a length-prefixed key material, so the public part of
//! any v6 key, even of an algorithm we do not know, can be read and
//! fingerprinted; a secret key (§5.5.3) adds its S2K usage and the secret
//! material, plain or protected (`s2k.rs`).

use super::algorithms;
use super::error::{PgpError, Result};
use super::packet::Reader;
use super::s2k::Protected;
use crate::any::{AnySigningKey, AnyVerifyingKey};
use sha2::{Digest, Sha256};
use std::fmt;
use zeroize::Zeroizing;

/// A v6 fingerprint (§5.5.4.3): SHA2-256 over 0x9B, the four-octet body
/// length and the public key packet's body.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    /// Its key ID (§5.5.4.3): the first eight octets.
    pub fn key_id(&self) -> [u8; 8] {
        let mut id = [0; 8];
        id.copy_from_slice(&self.0[..8]);
        id
    }
    /// Upper-case hexadecimal, as SOP and GnuPG print it.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02X}")).collect()
    }
    /// Parses 64 hexadecimal digits (either case; spaces ignored).
    pub fn from_hex(s: &str) -> Option<Self> {
        let digits: Vec<u8> = s.bytes().filter(|b| *b != b' ').collect();
        if digits.len() != 64 {
            return None;
        }
        let mut fp = [0u8; 32];
        for (i, pair) in digits.chunks(2).enumerate() {
            let hex = core::str::from_utf8(pair).ok()?;
            fp[i] = u8::from_str_radix(hex, 16).ok()?;
        }
        Some(Fingerprint(fp))
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({})", self.to_hex())
    }
}

/// A v6 public key (the body of a Public-Key or Public-Subkey packet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKey {
    /// Creation time, seconds since the epoch.
    pub created: u32,
    /// Public-key algorithm ID.
    pub algorithm: u8,
    /// The algorithm-specific public key material.
    pub material: Vec<u8>,
}

impl PublicKey {
    /// Reads a v6 public key from the start of `r`.
    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self> {
        match r.u8()? {
            6 => {}
            4 => {
                return Err(PgpError::unsupported(
                    "v4 keys are not supported: SLH-DSA exists only in v6 keys (RFC 9980 §6)",
                ))
            }
            v => {
                return Err(PgpError::unsupported(format!(
                    "version {v} keys are not supported"
                )))
            }
        }
        let created = r.u32()?;
        let algorithm = r.u8()?;
        let len = r.u32()? as usize;
        let material = r.bytes(len)?.to_vec();
        if let Some(set) = algorithms::slh_dsa_set(algorithm) {
            let want = if algorithm == 34 { 64 } else { 32 };
            if material.len() != want {
                return Err(PgpError::malformed(format!(
                    "an {set} public key is {want} octets, not {}",
                    material.len()
                )));
            }
        }
        Ok(PublicKey {
            created,
            algorithm,
            material,
        })
    }

    /// Parses a whole Public-Key or Public-Subkey packet body.
    pub fn parse(body: &[u8]) -> Result<Self> {
        let mut r = Reader::new(body, "a public key");
        let key = Self::read(&mut r)?;
        if !r.is_empty() {
            return Err(PgpError::malformed(
                "a public key packet has octets after its key material",
            ));
        }
        Ok(key)
    }

    /// The packet body.
    pub fn body(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(10 + self.material.len());
        out.push(6);
        out.extend_from_slice(&self.created.to_be_bytes());
        out.push(self.algorithm);
        out.extend_from_slice(&(self.material.len() as u32).to_be_bytes());
        out.extend_from_slice(&self.material);
        out
    }

    /// The key as signatures hash it (§5.2.4): 0x9B, four-octet length, body.
    pub fn hashed_form(&self) -> Vec<u8> {
        let body = self.body();
        let mut out = Vec::with_capacity(5 + body.len());
        out.push(0x9b);
        out.extend_from_slice(&(body.len() as u32).to_be_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// The v6 fingerprint.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint(Sha256::digest(self.hashed_form()).into())
    }

    /// True for RFC 9980's SLH-DSA algorithms.
    pub fn is_slh_dsa(&self) -> bool {
        algorithms::slh_dsa_set(self.algorithm).is_some()
    }

    /// The SLH-DSA verifying key.
    pub fn verifying_key(&self) -> Result<AnyVerifyingKey> {
        algorithms::verifying_key(self.algorithm, &self.material)
    }
}

/// The secret part of a secret key packet.
#[derive(Clone)]
pub enum SecretMaterial {
    /// S2K usage 0: the key material in the clear.
    Plain(Zeroizing<Vec<u8>>),
    /// S2K usage 253: AEAD-protected (§5.5.3), see [`Protected`].
    Protected(Protected),
    /// Another usage (254, 255, legacy CFB): kept as it is, not usable.
    Other {
        /// The S2K usage octet.
        usage: u8,
        /// Every octet after it.
        rest: Vec<u8>,
    },
}

/// A v6 secret key (the body of a Secret-Key or Secret-Subkey packet).
#[derive(Clone)]
pub struct SecretKey {
    /// Its public part.
    pub public: PublicKey,
    /// Its secret part.
    pub secret: SecretMaterial,
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretKey({})", self.public.fingerprint())
    }
}

impl SecretKey {
    /// Parses a Secret-Key or Secret-Subkey packet body.
    pub fn parse(body: &[u8]) -> Result<Self> {
        let mut r = Reader::new(body, "a secret key");
        let public = PublicKey::read(&mut r)?;
        let usage = r.u8()?;
        let secret = match usage {
            0 => SecretMaterial::Plain(Zeroizing::new(r.rest().to_vec())),
            253 => SecretMaterial::Protected(Protected::read(&mut r)?),
            _ => SecretMaterial::Other {
                usage,
                rest: r.rest().to_vec(),
            },
        };
        Ok(SecretKey { public, secret })
    }

    /// The packet body.
    pub fn body(&self) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(self.public.body());
        match &self.secret {
            SecretMaterial::Plain(s) => {
                out.push(0);
                out.extend_from_slice(s);
            }
            SecretMaterial::Protected(p) => {
                out.push(253);
                p.write(&mut out);
            }
            SecretMaterial::Other { usage, rest } => {
                out.push(*usage);
                out.extend_from_slice(rest);
            }
        }
        out
    }

    /// True if the secret material needs a passphrase.
    pub fn is_protected(&self) -> bool {
        !matches!(self.secret, SecretMaterial::Plain(_))
    }

    /// The plain secret material, unlocking it with the first of
    /// `passphrases` that works. `tag` is the packet's (5 or 7): the AEAD
    /// binds it.
    pub fn unlock(&self, tag: u8, passphrases: &[&[u8]]) -> Result<Zeroizing<Vec<u8>>> {
        match &self.secret {
            SecretMaterial::Plain(s) => Ok(s.clone()),
            SecretMaterial::Protected(p) => {
                if passphrases.is_empty() {
                    return Err(PgpError::new(
                        super::ErrorKind::KeyIsProtected,
                        format!("the secret key {} is protected by a passphrase", self.public.fingerprint()),
                    ));
                }
                let body = self.public.body();
                let mut last = None;
                for pass in passphrases {
                    match p.unlock(tag, &body, pass) {
                        Ok(s) => return Ok(s),
                        Err(e) => last = Some(e),
                    }
                }
                Err(last.unwrap_or_else(|| PgpError::new(super::ErrorKind::WrongPassphrase, "no passphrase")))
            }
            SecretMaterial::Other { usage, .. } => Err(PgpError::unsupported(format!(
                "the secret key {} is protected with S2K usage {usage}; only unprotected keys and AEAD protection (usage 253) are supported",
                self.public.fingerprint()
            ))),
        }
    }

    /// The SLH-DSA signing key, unlocked with `passphrases` if protected.
    pub fn signing_key(&self, tag: u8, passphrases: &[&[u8]]) -> Result<AnySigningKey> {
        let secret = self.unlock(tag, passphrases)?;
        algorithms::signing_key(self.public.algorithm, &secret, &self.public.material)
    }

    /// This key with its secret material protected by `passphrase` (or in
    /// the clear for `None`). The material must be plain already.
    pub fn with_protection(&self, tag: u8, passphrase: Option<&[u8]>) -> Result<SecretKey> {
        let plain = match &self.secret {
            SecretMaterial::Plain(s) => s.clone(),
            _ => {
                return Err(PgpError::new(
                    super::ErrorKind::KeyIsProtected,
                    "unlock the key first",
                ))
            }
        };
        let secret = match passphrase {
            None => SecretMaterial::Plain(plain),
            Some(pass) => {
                SecretMaterial::Protected(Protected::seal(tag, &self.public.body(), &plain, pass)?)
            }
        };
        Ok(SecretKey {
            public: self.public.clone(),
            secret,
        })
    }
}
