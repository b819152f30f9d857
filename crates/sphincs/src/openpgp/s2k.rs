//! RFC 9580 §5.5.3 and §3.7: a v6 secret key protected with S2K usage 253.
//! The passphrase goes through the S2K (Argon2id, §3.7.1.4; or
//! Iterated+Salted, §3.7.1.3, for keys made elsewhere), HKDF-SHA256 turns
//! that into the key-encryption key with the packet type, version and
//! algorithms as info, and an AEAD seals the secret material with the packet
//! type and the public key packet as associated data. We write AES-256 with
//! OCB (the mode RFC 9580 requires) and Argon2id at t = 3, p = 4, 64 MiB
//! (§3.7.1.4's second recommendation); we read OCB and GCM with AES-128,
//! -192 or -256. All from RustCrypto: `argon2`, `hkdf`, `ocb3`, `aes-gcm`.

use super::algorithms::HashAlgorithm;
use super::error::{ErrorKind, PgpError, Result};
use super::packet::Reader;
use aes_gcm::aead::{self, AeadInOut, KeyInit};
use zeroize::Zeroizing;

/// AEAD algorithm IDs (§9.6).
const OCB: u8 = 2;
const GCM: u8 = 3;
/// Symmetric algorithm IDs (§9.3).
const AES128: u8 = 7;
const AES192: u8 = 8;
const AES256: u8 = 9;
std::thread_local! {
    /// Argon2 work this thread may still do, in KiB × passes (unbounded
    /// unless [`limit_passphrase_work`] set it).
    static BUDGET: core::cell::Cell<u64> = const { core::cell::Cell::new(u64::MAX) };
}

/// Bounds the Argon2 work of every passphrase derivation on this thread
/// from now on to `kib_passes` in total (memory in KiB × passes), however
/// many keys, subkeys and passphrases a command tries: one hostile key
/// (every subkey at the largest cost, a passphrase tried twice) cannot
/// multiply the per-derivation bound. A command-line program sets it once
/// at its start; a library's long-lived callers leave it unbounded.
pub fn limit_passphrase_work(kib_passes: u64) {
    BUDGET.with(|b| b.set(kib_passes));
}

/// Takes `cost` from the thread's budget, or refuses before any work.
fn spend(cost: u64) -> Result<()> {
    BUDGET.with(|b| {
        let left = b.get();
        if cost > left {
            return Err(PgpError::unsupported(format!(
                "Argon2 work refused: this command may spend {left} more KiB × passes on passphrases and this key asks {cost} (a key whose protection costs more than any sound one does)"
            )));
        }
        b.set(left - cost);
        Ok(())
    })
}

/// The largest Argon2 memory cost read: 2^21 KiB = 2 GiB (§3.7.1.4's first
/// recommendation); more is refused before any work.
const MAX_ARGON2_M: u8 = 21;
/// The most Argon2 passes read.
const MAX_ARGON2_T: u8 = 16;

/// The string-to-key specifiers read (§3.7.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum S2k {
    /// Type 3: Iterated and Salted.
    Iterated {
        /// Hash algorithm ID.
        hash: u8,
        /// Eight-octet salt.
        salt: [u8; 8],
        /// The coded count octet.
        count: u8,
    },
    /// Type 4: Argon2id.
    Argon2 {
        /// 16-octet salt.
        salt: [u8; 16],
        /// Passes.
        t: u8,
        /// Parallelism.
        p: u8,
        /// log2 of the memory in KiB.
        m: u8,
    },
}

impl S2k {
    fn parse(spec: &[u8]) -> Result<S2k> {
        let mut r = Reader::new(spec, "an S2K specifier");
        let s2k = match r.u8()? {
            3 => {
                let hash = r.u8()?;
                let mut salt = [0; 8];
                salt.copy_from_slice(r.bytes(8)?);
                S2k::Iterated {
                    hash,
                    salt,
                    count: r.u8()?,
                }
            }
            4 => {
                let mut salt = [0; 16];
                salt.copy_from_slice(r.bytes(16)?);
                S2k::Argon2 {
                    salt,
                    t: r.u8()?,
                    p: r.u8()?,
                    m: r.u8()?,
                }
            }
            t => {
                return Err(PgpError::unsupported(format!(
                    "S2K type {t} is not supported with AEAD protection"
                )))
            }
        };
        if !r.is_empty() {
            return Err(PgpError::malformed("the S2K specifier has trailing octets"));
        }
        Ok(s2k)
    }

    fn write(&self, out: &mut Vec<u8>) {
        match self {
            S2k::Iterated { hash, salt, count } => {
                out.extend_from_slice(&[3, *hash]);
                out.extend_from_slice(salt);
                out.push(*count);
            }
            S2k::Argon2 { salt, t, p, m } => {
                out.push(4);
                out.extend_from_slice(salt);
                out.extend_from_slice(&[*t, *p, *m]);
            }
        }
    }

    /// Derives `len` octets from `pass`, refusing costs over the bounds
    /// (per derivation, and the thread's [`limit_passphrase_work`] budget).
    fn derive(&self, pass: &[u8], len: usize) -> Result<Zeroizing<Vec<u8>>> {
        let mut out = Zeroizing::new(vec![0u8; len]);
        match self {
            S2k::Argon2 { salt, t, p, m } => {
                if *m > MAX_ARGON2_M || *t > MAX_ARGON2_T || *t == 0 || *p == 0 {
                    return Err(PgpError::unsupported(format!(
                        "Argon2 with t = {t}, p = {p}, 2^{m} KiB is refused: at most t = {MAX_ARGON2_T} and 2^{MAX_ARGON2_M} KiB are computed"
                    )));
                }
                spend((1u64 << m) * u64::from(*t))?;
                let params =
                    argon2::Params::new(1u32 << m, u32::from(*t), u32::from(*p), Some(len))
                        .map_err(|e| PgpError::malformed(format!("Argon2 parameters: {e}")))?;
                argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
                    .hash_password_into(pass, salt, &mut out)
                    .map_err(|e| PgpError::malformed(format!("Argon2: {e}")))?;
            }
            S2k::Iterated { hash, salt, count } => {
                let hash = HashAlgorithm::from_id(*hash)?;
                let total = (16usize + (*count as usize & 15)) << ((*count >> 4) + 6);
                let mut salted = Zeroizing::new(salt.to_vec());
                salted.extend_from_slice(pass);
                let total = total.max(salted.len());
                for (i, chunk) in out.chunks_mut(hash.digest_len()).enumerate() {
                    let mut h = hash.hasher();
                    h.update(&vec![0u8; i]);
                    let mut left = total;
                    while left > 0 {
                        let n = left.min(salted.len());
                        h.update(&salted[..n]);
                        left -= n;
                    }
                    let digest = Zeroizing::new(h.finalize());
                    chunk.copy_from_slice(&digest[..chunk.len()]);
                }
            }
        }
        Ok(out)
    }
}

/// AEAD-protected secret key material (S2K usage 253).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protected {
    /// Symmetric algorithm ID.
    pub cipher: u8,
    /// AEAD algorithm ID.
    pub aead: u8,
    /// The S2K specifier.
    pub s2k: S2k,
    /// The AEAD nonce.
    pub nonce: Vec<u8>,
    /// The encrypted secret material and its tag.
    pub ciphertext: Vec<u8>,
}

fn key_len(cipher: u8) -> Result<usize> {
    match cipher {
        AES128 => Ok(16),
        AES192 => Ok(24),
        AES256 => Ok(32),
        c => Err(PgpError::unsupported(format!(
            "symmetric algorithm {c} is not supported for key protection (AES only)"
        ))),
    }
}

fn nonce_len(aead: u8) -> Result<usize> {
    match aead {
        OCB => Ok(15),
        GCM => Ok(12),
        1 => Err(PgpError::unsupported(
            "EAX-protected secret keys are not supported (OCB and GCM are)",
        )),
        a => Err(PgpError::unsupported(format!(
            "AEAD algorithm {a} is not supported"
        ))),
    }
}

impl Protected {
    /// Reads the fields after the S2K usage octet (v6 layout: a count of the
    /// conditional fields first, and a length before the S2K specifier).
    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Protected> {
        let count = r.u8()? as usize;
        let fields = r.bytes(count)?;
        let mut f = Reader::new(fields, "a secret key's S2K fields");
        let cipher = f.u8()?;
        let aead = f.u8()?;
        let spec_len = f.u8()? as usize;
        let s2k = S2k::parse(f.bytes(spec_len)?)?;
        let nonce = f.rest().to_vec();
        key_len(cipher)?;
        if nonce.len() != nonce_len(aead)? {
            return Err(PgpError::malformed(
                "the AEAD nonce of a protected secret key has the wrong length",
            ));
        }
        Ok(Protected {
            cipher,
            aead,
            s2k,
            nonce,
            ciphertext: r.rest().to_vec(),
        })
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        let mut spec = Vec::new();
        self.s2k.write(&mut spec);
        out.push((3 + spec.len() + self.nonce.len()) as u8);
        out.extend_from_slice(&[self.cipher, self.aead, spec.len() as u8]);
        out.extend_from_slice(&spec);
        out.extend_from_slice(&self.nonce);
        out.extend_from_slice(&self.ciphertext);
    }

    fn kek(&self, tag: u8, pass: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        let len = key_len(self.cipher)?;
        let ikm = self.s2k.derive(pass, len)?;
        let mut kek = Zeroizing::new(vec![0u8; len]);
        let info = [0xc0 | tag, 6, self.cipher, self.aead];
        hkdf::Hkdf::<sha2::Sha256>::new(None, &ikm)
            .expand(&info, &mut kek)
            .map_err(|_| PgpError::malformed("HKDF output length"))?;
        Ok(kek)
    }

    /// Protects `secret` with `pass` for a packet of type `tag` whose public
    /// key body is `public_body`.
    pub fn seal(tag: u8, public_body: &[u8], secret: &[u8], pass: &[u8]) -> Result<Protected> {
        let mut salt = [0u8; 16];
        crate::rand::fill_random(&mut salt)?;
        let mut nonce = vec![0u8; 15];
        crate::rand::fill_random(&mut nonce)?;
        let mut p = Protected {
            cipher: AES256,
            aead: OCB,
            s2k: S2k::Argon2 {
                salt,
                t: 3,
                p: 4,
                m: 16,
            },
            nonce,
            ciphertext: Vec::new(),
        };
        let kek = p.kek(tag, pass)?;
        let ad = associated_data(tag, public_body);
        let mut buf = secret.to_vec();
        let t = ocb_seal::<aes::Aes256>(&kek, &p.nonce, &ad, &mut buf)?;
        buf.extend_from_slice(&t);
        p.ciphertext = buf;
        Ok(p)
    }

    /// The secret material, if `pass` is right.
    pub fn unlock(&self, tag: u8, public_body: &[u8], pass: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        let kek = self.kek(tag, pass)?;
        let ad = associated_data(tag, public_body);
        let body_len = self.ciphertext.len().checked_sub(16).ok_or_else(|| {
            PgpError::malformed("a protected secret key is shorter than its AEAD tag")
        })?;
        let mut buf = Zeroizing::new(self.ciphertext.clone());
        let (body, tag_bytes) = buf.split_at_mut(body_len);
        let ok = match (self.aead, self.cipher) {
            (OCB, AES128) => open::<ocb3::Ocb3<aes::Aes128, aead::consts::U15>>(
                &kek,
                &self.nonce,
                &ad,
                body,
                tag_bytes,
            ),
            (OCB, AES192) => open::<ocb3::Ocb3<aes::Aes192, aead::consts::U15>>(
                &kek,
                &self.nonce,
                &ad,
                body,
                tag_bytes,
            ),
            (OCB, AES256) => open::<ocb3::Ocb3<aes::Aes256, aead::consts::U15>>(
                &kek,
                &self.nonce,
                &ad,
                body,
                tag_bytes,
            ),
            (GCM, AES128) => open::<aes_gcm::Aes128Gcm>(&kek, &self.nonce, &ad, body, tag_bytes),
            (GCM, AES256) => open::<aes_gcm::Aes256Gcm>(&kek, &self.nonce, &ad, body, tag_bytes),
            (a, c) => {
                return Err(PgpError::unsupported(format!(
                    "AEAD {a} with cipher {c} is not supported for key protection"
                )))
            }
        };
        if !ok {
            return Err(PgpError::new(
                ErrorKind::WrongPassphrase,
                "the passphrase does not unlock the secret key",
            ));
        }
        Ok(Zeroizing::new(body.to_vec()))
    }
}

fn associated_data(tag: u8, public_body: &[u8]) -> Vec<u8> {
    let mut ad = Vec::with_capacity(1 + public_body.len());
    ad.push(0xc0 | tag);
    ad.extend_from_slice(public_body);
    ad
}

fn ocb_seal<C>(kek: &[u8], nonce: &[u8], ad: &[u8], buf: &mut [u8]) -> Result<Vec<u8>>
where
    ocb3::Ocb3<C, aead::consts::U15>: KeyInit + AeadInOut,
{
    let cipher = ocb3::Ocb3::<C, aead::consts::U15>::new_from_slice(kek)
        .map_err(|_| PgpError::malformed("key length"))?;
    let nonce = aead::Nonce::<ocb3::Ocb3<C, aead::consts::U15>>::try_from(nonce)
        .map_err(|_| PgpError::malformed("nonce length"))?;
    let tag = cipher
        .encrypt_inout_detached(&nonce, ad, buf.into())
        .map_err(|_| PgpError::malformed("AEAD encryption failed"))?;
    Ok(tag.to_vec())
}

fn open<A: KeyInit + AeadInOut>(
    kek: &[u8],
    nonce: &[u8],
    ad: &[u8],
    body: &mut [u8],
    tag: &[u8],
) -> bool {
    let (Ok(cipher), Ok(nonce), Ok(tag)) = (
        A::new_from_slice(kek),
        aead::Nonce::<A>::try_from(nonce),
        aead::Tag::<A>::try_from(tag),
    ) else {
        return false;
    };
    cipher
        .decrypt_inout_detached(&nonce, ad, body.into(), &tag)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seal_then_unlock_and_a_wrong_passphrase_fails() {
        let body = [6u8, 0, 0, 0, 1, 32, 0, 0, 0, 1, 9];
        let p = Protected::seal(5, &body, b"secret material", b"pass").unwrap();
        assert_eq!(
            &p.unlock(5, &body, b"pass").unwrap()[..],
            b"secret material"
        );
        assert_eq!(
            p.unlock(5, &body, b"wrong").unwrap_err().kind,
            ErrorKind::WrongPassphrase
        );
        // The packet type and the public key are bound.
        assert!(p.unlock(7, &body, b"pass").is_err());
        assert!(p.unlock(5, &body[..10], b"pass").is_err());
        let mut out = Vec::new();
        p.write(&mut out);
        let mut r = Reader::new(&out, "test");
        assert_eq!(Protected::read(&mut r).unwrap(), p);
    }

    #[test]
    fn the_thread_budget_bounds_all_derivations_together() {
        std::thread::spawn(|| {
            let s2k = S2k::Argon2 {
                salt: [0; 16],
                t: 1,
                p: 1,
                m: 10,
            };
            // Room for two derivations of 2^10 KiB × 1 pass, not three.
            limit_passphrase_work(2 * 1024 + 1023);
            assert!(s2k.derive(b"x", 32).is_ok());
            assert!(s2k.derive(b"y", 32).is_ok());
            let e = s2k.derive(b"z", 32).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Unsupported);
            assert!(e.message.contains("Argon2 work refused"), "{e}");
        })
        .join()
        .unwrap();
    }

    #[test]
    fn costly_argon2_is_refused_before_work() {
        let s2k = S2k::Argon2 {
            salt: [0; 16],
            t: 1,
            p: 1,
            m: 30,
        };
        assert_eq!(
            s2k.derive(b"x", 32).unwrap_err().kind,
            ErrorKind::Unsupported
        );
    }
}
