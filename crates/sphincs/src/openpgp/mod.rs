//! OpenPGP (RFC 9580) v6 keys, certificates and signatures with RFC 9980's
//! SLH-DSA: algorithms 32 SLH-DSA-SHAKE-128s, 33 SLH-DSA-SHAKE-128f and
//! 34 SLH-DSA-SHAKE-256s, signed with this crate's engine. Signing and
//! verification only: no encryption, no v4 keys.
//!
//! Laid out as Sequoia's `openpgp` crate is: packets as plain data
//! (`key`, `signature`, `subpacket`), one bounded parser and writer
//! (`packet`, `armor`), certificates above them (`cert`) and their life
//! after creation (`life`: expiry, revocations, subkeys), one policy
//! point (`algorithms`: which hashes SLH-DSA signatures may use), and the
//! operations (`message`: detached and inline signatures; `cleartext`).
//!
//! ```
//! use sphincs::openpgp::{self, Cert, Keyring, Mode, Window};
//! let alg = "SLH-DSA-SHAKE-128f".parse()?;
//! let now = 1_790_000_000;
//! let key = openpgp::generate(alg, &["Alice <alice@example.org>".into()], now, None)?;
//! let mut signer = openpgp::DetachedSigner::new(vec![openpgp::unlock_signing_key(&key, &[], now as u64)?], Mode::Binary, now)?;
//! signer.update(b"release.tar.gz");
//! let sigs = signer.finish(1)?;
//! let cert = Cert::parse_all(&key.to_bytes(false))?;
//! let mut v = openpgp::DetachedVerifier::new(sigs);
//! v.update(b"release.tar.gz");
//! let window = Window { not_before: None, not_after: None, now: now as u64, keys_valid_now: true };
//! let (good, _) = v.finish(&Keyring::new(&cert, window.now), &window);
//! assert_eq!(good.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod algorithms;
pub mod armor;
mod cert;
pub mod cleartext;
mod error;
pub mod foreign;
mod key;
mod life;
mod message;
pub mod one_shot;
pub mod packet;
mod s2k;
mod signature;
mod subpacket;

pub use algorithms::{
    check_hash_for_slh_dsa, public_key_algorithm_name, signing_hash, slh_dsa_id, slh_dsa_set,
    HashAlgorithm, Hasher, SLH_DSA,
};
pub use cert::{
    certify, generate, generate_expiring, user_id_hashed_form, Cert, KeyPart, SigningKeyInfo,
    Subkey, UserId,
};
pub use error::{ErrorKind, PgpError, Result};
pub use key::{Fingerprint, PublicKey, SecretKey, SecretMaterial};
pub use life::unlock_primary;
pub use message::{
    inline_sign, parse_inline, parse_signatures, signatures_to_bytes, unlock_signing_key,
    DetachedSigner, DetachedVerifier, InlineMessage, Keyring, Mode, Outcome, TextCanonicalizer,
    UnlockedKey, Verification, Window,
};
pub use s2k::{limit_passphrase_work, Protected, S2k};
pub use signature::{key_flags, revocation_reason, sig_type, Reason, Signature, Signing};
pub use subpacket::{kind as subpacket_kind, Subpacket};

/// Reads certificates (or keys) from armored or binary `data`.
pub fn read_certs(data: &[u8]) -> Result<Vec<Cert>> {
    Cert::parse_all(&armor::dearmor(data)?)
}

/// Reads signatures from armored or binary `data`.
pub fn read_signatures(data: &[u8]) -> Result<Vec<Signature>> {
    parse_signatures(&armor::dearmor(data)?)
}
