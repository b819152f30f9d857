//! What the bindings' key classes call on the front door's keys beyond
//! `any/keys.rs`: key generation and loading that another thread can stop
//! (a binding watching for Ctrl-C), FIPS 205's internal functions (test
//! vectors) and SUPERCOP's attached signatures. Each call resolves the
//! family once; what a family lacks is [`Error::Unsupported`] naming it.

use crate::prelude::*;
use core::sync::atomic::AtomicBool;

use zeroize::Zeroizing;

use super::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey};
use crate::dynamic::DynSigningKey;
use crate::error::Error;
use crate::keys::SignOptions;
use crate::message::MessageVerifier;
use crate::params::Algorithm;

/// What the other families lack, for [`Error::Unsupported`].
const INTERNAL: &str = "the internal functions (FIPS 205 Algorithms 19 and 20)";

/// How a long key build reports how far it is: `progress(done, total)`.
type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

fn unsupported(alg: AnyAlgorithm, what: &'static str) -> Error {
    Error::Unsupported {
        family: alg.family().name(),
        what,
    }
}

/// The key `fips` builds for a FIPS 205 set (whose one-tree sets take
/// minutes and can be stopped), or the one `other` builds for another family.
fn fips205_or(
    alg: AnyAlgorithm,
    fips: impl FnOnce(Algorithm) -> Result<DynSigningKey, Error>,
    other: impl FnOnce() -> Result<AnySigningKey, Error>,
) -> Result<AnySigningKey, Error> {
    match alg {
        AnyAlgorithm::SlhDsa(a) => fips(a).map(AnySigningKey::from),
        _ => other(),
    }
}

impl AnySigningKey {
    /// [`AnySigningKey::generate_with_progress`] that another thread can
    /// stop: once `stop` is set, a draft SP 800-230 set leaves its one tree
    /// within a fraction of a second with [`Error::Cancelled`]. The other
    /// sets build no such tree and do not look at `stop`.
    pub fn generate_until(
        alg: AnyAlgorithm,
        threads: usize,
        progress: Progress<'_>,
        stop: &AtomicBool,
    ) -> Result<Self, Error> {
        let fips = |a| DynSigningKey::generate_until(a, threads, progress, stop);
        fips205_or(alg, fips, || Self::generate(alg, threads))
    }

    /// [`AnySigningKey::from_bytes_with_progress`] that another thread can
    /// stop, as [`AnySigningKey::generate_until`].
    pub fn from_bytes_until(
        alg: AnyAlgorithm,
        sk: &[u8],
        threads: usize,
        progress: Progress<'_>,
        stop: &AtomicBool,
    ) -> Result<Self, Error> {
        let fips = |a| DynSigningKey::from_bytes_until(a, sk, threads, progress, stop);
        fips205_or(alg, fips, || Self::from_bytes(alg, sk))
    }

    /// The key of the three n-byte seeds `SK.seed`, `SK.prf`, `PK.seed`
    /// (FIPS 205 Algorithm 18: each seed's length is checked and named in the
    /// error), stoppable as [`AnySigningKey::generate_until`]. For another
    /// family the seeds are joined and read as [`AnySigningKey::from_seed`].
    pub fn from_seeds_until(
        alg: AnyAlgorithm,
        seeds: [&[u8]; 3],
        threads: usize,
        progress: Progress<'_>,
        stop: &AtomicBool,
    ) -> Result<Self, Error> {
        let fips = |a| DynSigningKey::from_seeds_until(a, seeds, threads, progress, stop);
        let joined = || Self::from_seed(alg, &Zeroizing::new(seeds.concat()), threads);
        fips205_or(alg, fips, joined)
    }

    /// `slh_sign_internal` (FIPS 205 Algorithm 19) on M' as given, with
    /// `addrnd` (`None`: deterministic), for test vectors. FIPS 205 keys only.
    pub fn sign_internal(&self, m: &[u8], addrnd: Option<&[u8]>) -> Result<Vec<u8>, Error> {
        self.as_slh_dsa()
            .ok_or_else(|| unsupported(self.algorithm(), INTERNAL))?
            .sign_internal(m, addrnd)
    }

    /// SUPERCOP's `crypto_sign`: the signature of `msg` per `opts`
    /// ([`AnySigningKey::sign`]), then `msg`.
    pub fn sign_attached(&self, msg: &[u8], opts: &SignOptions<'_>) -> Result<Vec<u8>, Error> {
        let mut sm = self.sign(msg, opts)?;
        sm.extend_from_slice(msg);
        Ok(sm)
    }
}

impl AnyVerifyingKey {
    /// `slh_verify_internal` (FIPS 205 Algorithm 20) on M' as given, for
    /// test vectors: whether the signature is valid. FIPS 205 keys only.
    pub fn verify_internal(&self, m: &[u8], sig: &[u8]) -> Result<bool, Error> {
        let key = self
            .as_slh_dsa()
            .ok_or_else(|| unsupported(self.algorithm(), INTERNAL))?;
        Ok(key.verify_internal(m, sig))
    }

    /// [`Self::verify_internal`] with M' fed in pieces afterwards
    /// ([`MessageVerifier`]). FIPS 205 keys only.
    pub fn verifier_internal(&self, sig: &[u8]) -> Result<MessageVerifier, Error> {
        let key = self
            .as_slh_dsa()
            .ok_or_else(|| unsupported(self.algorithm(), INTERNAL))?;
        key.verifier_internal(sig)
    }

    /// SUPERCOP's `crypto_sign_open`: checks `sm` = signature ‖ message
    /// (no context, the key's own mode) and returns the message. A `sm`
    /// shorter than a signature is [`Error::InvalidLength`] ("signed message").
    pub fn open<'s>(&self, sm: &'s [u8]) -> Result<&'s [u8], Error> {
        let alg = self.algorithm();
        let sig_len = alg.signature_len();
        if sm.len() < sig_len {
            return Err(Error::InvalidLength {
                what: "signed message",
                algorithm: alg.name(),
                expected: sig_len,
                got: sm.len(),
            });
        }
        let (sig, msg) = sm.split_at(sig_len);
        self.verify(msg, sig, b"", None)?;
        Ok(msg)
    }
}

/// What the other families lack, for [`Error::Unsupported`].
const DIGEST: &str =
    "signing a caller-made pre-hash digest (HashSLH-DSA, FIPS 205 Algorithms 23 and 25)";

impl AnySigningKey {
    /// HashSLH-DSA of a digest the caller computed with `prehash`
    /// ([`DynSigningKey::sign_digest`]): what a PKCS#11 token's
    /// `CKM_HASH_SLH_DSA` signs. FIPS 205 keys only.
    pub fn sign_digest(
        &self,
        digest: &[u8],
        prehash: crate::prehash::PreHash,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        self.check_options(opts)?;
        match self.as_slh_dsa() {
            Some(k) => k.sign_digest(digest, prehash, opts),
            None => Err(unsupported(self.algorithm(), DIGEST)),
        }
    }
}

impl AnyVerifyingKey {
    /// Verifies a HashSLH-DSA signature of a digest the caller computed
    /// with `prehash` ([`crate::DynVerifyingKey::verify_digest`]). FIPS 205
    /// keys only.
    pub fn verify_digest(
        &self,
        digest: &[u8],
        sig: &[u8],
        context: &[u8],
        prehash: crate::prehash::PreHash,
    ) -> Result<(), Error> {
        match self.as_slh_dsa() {
            Some(k) => k.verify_digest(digest, sig, context, prehash),
            None => Err(unsupported(self.algorithm(), DIGEST)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::any::Family;

    fn never(_: usize, _: usize) {}

    #[test]
    fn attached_signatures_open_for_every_family_without_a_tree() {
        for name in ["sphincs-256", "sphincs-shake-128f-simple", "shake-128f"] {
            let alg: AnyAlgorithm = name.parse().unwrap();
            let sk =
                AnySigningKey::generate_until(alg, 1, &never, &AtomicBool::new(false)).unwrap();
            let sm = sk
                .sign_attached(b"payload", &SignOptions::default())
                .unwrap();
            assert_eq!(sm.len(), alg.signature_len() + 7, "{name}");
            let vk = sk.verifying_key();
            assert_eq!(vk.open(&sm).unwrap(), b"payload");
            let mut bad = sm.clone();
            bad[sm.len() - 1] ^= 1;
            assert_eq!(vk.open(&bad), Err(Error::InvalidSignature), "{name}");
            assert!(matches!(
                vk.open(&sm[..alg.signature_len() - 1]),
                Err(Error::InvalidLength {
                    what: "signed message",
                    ..
                })
            ));
        }
    }

    #[test]
    fn seeds_and_internal_functions() {
        let alg: AnyAlgorithm = "shake-128f".parse().unwrap();
        let stop = AtomicBool::new(false);
        let seeds: [&[u8]; 3] = [&[1; 16], &[2; 16], &[3; 16]];
        let sk = AnySigningKey::from_seeds_until(alg, seeds, 1, &never, &stop).unwrap();
        assert_eq!(
            sk.to_bytes()[..48],
            AnySigningKey::from_seed(alg, &seeds.concat(), 1)
                .unwrap()
                .to_bytes()[..48]
        );
        let short =
            AnySigningKey::from_seeds_until(alg, [&[1; 15], &[2; 16], &[3; 16]], 1, &never, &stop);
        assert!(short.unwrap_err().to_string().contains("SK.seed"));
        let back = AnySigningKey::from_bytes_until(alg, &sk.to_bytes(), 1, &never, &stop).unwrap();
        assert_eq!(back.to_bytes(), sk.to_bytes());
        let sig = sk.sign_internal(b"M'", None).unwrap();
        assert_eq!(sk.verifying_key().verify_internal(b"M'", &sig), Ok(true));
        assert_eq!(sk.verifying_key().verify_internal(b"M!", &sig), Ok(false));

        let spx = AnyAlgorithm::of_family(Family::SphincsPlus).next().unwrap();
        let other = AnySigningKey::from_seeds_until(spx, seeds, 1, &never, &stop).unwrap();
        let err = other.sign_internal(b"M'", None).unwrap_err();
        assert!(
            matches!(err, Error::Unsupported { what: INTERNAL, .. }),
            "{err}"
        );
        let err = other
            .verifying_key()
            .verify_internal(b"M'", &sig)
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("SPHINCS+ round 3.1 does not support"),
            "{err}"
        );
    }

    #[test]
    fn a_set_stop_flag_ends_a_limited_key_build() {
        let alg: AnyAlgorithm = "SLH-DSA-SHA2-128-24".parse().unwrap();
        let stop = AtomicBool::new(true);
        let got = AnySigningKey::generate_until(alg, 1, &never, &stop);
        assert!(matches!(got, Err(Error::Cancelled)), "{got:?}");
    }
}
