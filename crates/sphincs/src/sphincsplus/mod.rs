//! SPHINCS+ round 3.1, the NIST submission that FIPS 205 standardised with
//! changes: for keys and signatures made before SLH-DSA (PQClean,
//! `pqcrypto-sphincsplus`, liboqs, pyspx, the reference code).
//!
//! Round 3.1 differs from FIPS 205 in three ways that change every signature:
//! the message is signed as given (no context string or M' encoding), FORS
//! reads its indices from the digest least significant bit first, and there
//! are "robust" variants and Haraka sets besides SHAKE and SHA-2 "simple".
//! The same engine runs both standards; only the [`Instance`] differs.
//!
//! No OID is assigned to these sets, so their keys are raw bytes:
//! `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root` and `PK.seed ‖ PK.root`, as in the
//! reference code.
//!
//! ```
//! use sphincs::sphincsplus::{SpxAlgorithm, SpxSigningKey, SpxSignOptions};
//! let alg: SpxAlgorithm = "sphincs-shake-128f-simple".parse()?;
//! let sk = SpxSigningKey::generate(alg)?;
//! let sig = sk.sign(b"firmware.bin", &SpxSignOptions::default())?;
//! sk.verifying_key().verify(b"firmware.bin", &sig)?;
//! # Ok::<(), sphincs::Error>(())
//! ```

mod batch;
pub mod kat;
mod sets;

use crate::prelude::*;
pub use sets::*;

pub use batch::{verify_batch, verify_batch_until, SpxVerifyItem};

use zeroize::Zeroizing;

use crate::error::Error;
use crate::message::{MessageSource, MessageVerifier, PendingVerify};
use crate::params::{Instance, MAX_N};
use crate::parts::PublicParts;
use crate::rand::{addrnd, os_random, Randomness};
use crate::slh_dsa::{
    h_msg, keygen_parts, opt_rand, pending_internal, root_matches, sign_parts_checked, verify_many,
    verify_parts, SecretParts,
};

/// How to sign with a round-3.1 key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpxSignOptions<'a> {
    /// Source of `optrand`: hedged (the default, as the reference code's
    /// `crypto_sign`), deterministic (optrand = PK.seed) or given n bytes.
    pub randomness: Randomness<'a>,
    /// Threads to spread the signature's trees over; the output is the same
    /// for any count.
    pub threads: usize,
    /// Compute the signature twice and release it only if both agree.
    pub fault_hardened: bool,
}

/// A round-3.1 secret key.
#[derive(Clone)]
pub struct SpxSigningKey {
    alg: SpxAlgorithm,
    parts: SecretParts,
}

/// A round-3.1 public key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SpxVerifyingKey {
    alg: SpxAlgorithm,
    parts: PublicParts,
}

fn check_len(
    alg: SpxAlgorithm,
    what: &'static str,
    expected: usize,
    got: usize,
) -> Result<(), Error> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::InvalidLength {
            what,
            algorithm: alg.name(),
            expected,
            got,
        })
    }
}

struct Keygen<'a> {
    seed: &'a [u8],
    threads: usize,
}

impl sets::Visit for Keygen<'_> {
    type Out = Result<SecretParts, Error>;
    fn visit<P: Instance>(self) -> Self::Out {
        let n = P::PARAMS.n;
        let s = self.seed;
        keygen_parts::<P>(&s[..n], &s[n..2 * n], &s[2 * n..3 * n], self.threads)
    }
    fn absent(self) -> Self::Out {
        Err(sets::not_compiled())
    }
}

struct RootMatches<'a>(&'a SecretParts);

impl sets::Visit for RootMatches<'_> {
    type Out = bool;
    fn visit<P: Instance>(self) -> bool {
        // Round-3.1 sets keep no tree cache: the copy is only compared.
        root_matches::<P>(&mut self.0.clone(), 1)
    }
    fn absent(self) -> Self::Out {
        false
    }
}

struct Sign<'a, 'm> {
    sk: &'a SecretParts,
    msg: &'a mut dyn MessageSource,
    opt_rand: &'a [u8],
    sig: &'m mut [u8],
    threads: usize,
    fault_hardened: bool,
}

impl sets::Visit for Sign<'_, '_> {
    type Out = Result<(), Error>;
    fn visit<P: Instance>(self) -> Self::Out {
        sign_parts_checked::<P>(
            self.sk,
            self.msg,
            self.opt_rand,
            self.sig,
            self.threads,
            self.fault_hardened,
        )
    }
    fn absent(self) -> Self::Out {
        Err(sets::not_compiled())
    }
}

struct Verify<'a> {
    pk: &'a PublicParts,
    msg: &'a mut dyn MessageSource,
    sig: &'a [u8],
}

/// A verification whose message comes in pieces ([`MessageVerifier`]).
struct StartVerify<'a> {
    pk: &'a PublicParts,
    sig: &'a [u8],
}

impl sets::Visit for StartVerify<'_> {
    type Out = Result<Box<dyn PendingVerify>, Error>;
    fn visit<P: Instance>(self) -> Self::Out {
        Ok(pending_internal::<P>(self.pk, self.sig))
    }
    fn absent(self) -> Self::Out {
        Err(sets::not_compiled())
    }
}

/// Items that all carry one key, verified side by side.
struct VerifyMany<'a, 'i> {
    pk: &'a PublicParts,
    alg: SpxAlgorithm,
    items: &'a [SpxVerifyItem<'i>],
    out: &'a mut [Result<(), Error>],
}

impl sets::Visit for VerifyMany<'_, '_> {
    type Out = ();
    fn visit<P: Instance>(self) {
        let (pk, alg, items) = (self.pk, self.alg, self.items);
        let n = P::PARAMS.n;
        verify_many::<P>(pk, items.len(), self.out, |i, t| {
            let (msg, sig) = (items[i].message, items[i].signature);
            check_len(alg, "signature", alg.signature_len(), sig.len())?;
            let d = h_msg::<P>(t, &sig[..n], &pk.pk_root[..n], &mut &msg[..])?;
            Ok((sig, d))
        });
    }
    fn absent(self) -> Self::Out {
        self.out.fill_with(|| Err(sets::not_compiled()));
    }
}

impl sets::Visit for Verify<'_> {
    type Out = Result<bool, Error>;
    fn visit<P: Instance>(self) -> Self::Out {
        verify_parts::<P>(self.pk, self.msg, self.sig)
    }
    fn absent(self) -> Self::Out {
        Err(sets::not_compiled())
    }
}

impl SpxSigningKey {
    /// The reference code's `crypto_sign_seed_keypair`: a key from the 3n
    /// bytes `SK.seed ‖ SK.prf ‖ PK.seed`.
    pub fn from_seed(alg: SpxAlgorithm, seed: &[u8]) -> Result<Self, Error> {
        Self::from_seed_with_threads(alg, seed, 1)
    }

    /// [`SpxSigningKey::from_seed`] with the top tree spread over `threads` threads.
    pub fn from_seed_with_threads(
        alg: SpxAlgorithm,
        seed: &[u8],
        threads: usize,
    ) -> Result<Self, Error> {
        check_len(alg, "seed", alg.seed_len(), seed.len())?;
        let parts = alg.visit(Keygen { seed, threads })?;
        Ok(SpxSigningKey { alg, parts })
    }

    /// A fresh key from the operating system's RNG (`crypto_sign_keypair`).
    pub fn generate(alg: SpxAlgorithm) -> Result<Self, Error> {
        Self::generate_with_threads(alg, 1)
    }

    /// [`SpxSigningKey::generate`] with the top tree spread over `threads` threads.
    pub fn generate_with_threads(alg: SpxAlgorithm, threads: usize) -> Result<Self, Error> {
        let n = alg.params().n;
        let mut seed = Zeroizing::new([0u8; 3 * MAX_N]);
        for i in 0..3 {
            seed[i * n..(i + 1) * n].copy_from_slice(&os_random(n)?[..n]);
        }
        Self::from_seed_with_threads(alg, &seed[..3 * n], threads)
    }

    /// Loads a raw secret key, checking that PK.root is the root its seeds give.
    pub fn from_bytes(alg: SpxAlgorithm, sk: &[u8]) -> Result<Self, Error> {
        if !cfg!(feature = "round31") {
            return Err(sets::not_compiled());
        }
        let key = Self::from_bytes_unchecked(alg, sk)?;
        if alg.visit(RootMatches(&key.parts)) {
            Ok(key)
        } else {
            Err(Error::KeyMismatch)
        }
    }

    /// Loads a raw secret key without recomputing PK.root.
    pub fn from_bytes_unchecked(alg: SpxAlgorithm, sk: &[u8]) -> Result<Self, Error> {
        check_len(alg, "secret key", alg.secret_key_len(), sk.len())?;
        Ok(SpxSigningKey {
            alg,
            parts: SecretParts::from_raw(sk),
        })
    }

    /// The parameter set.
    pub fn algorithm(&self) -> SpxAlgorithm {
        self.alg
    }

    /// `SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root`, wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        self.parts.to_raw(self.alg.params().n)
    }

    /// The public half.
    pub fn verifying_key(&self) -> SpxVerifyingKey {
        SpxVerifyingKey {
            alg: self.alg,
            parts: self.parts.pk,
        }
    }

    /// Signs `msg` (the reference code's `crypto_sign_signature`).
    pub fn sign(&self, msg: &[u8], opts: &SpxSignOptions<'_>) -> Result<Vec<u8>, Error> {
        self.sign_stream(&mut &msg[..], opts)
    }

    /// Signs a streamed message (read twice: for R, then for the digest).
    pub fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SpxSignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        let n = self.alg.params().n;
        let given = addrnd(opts.randomness, n)?;
        let r = Zeroizing::new(opt_rand(
            given.as_ref().map(|g| &g[..n]),
            n,
            &self.parts.pk,
        )?);
        let mut sig = vec![0u8; self.alg.signature_len()];
        self.alg.visit(Sign {
            sk: &self.parts,
            msg,
            opt_rand: &r[..n],
            sig: &mut sig,
            threads: opts.threads,
            fault_hardened: opts.fault_hardened,
        })?;
        Ok(sig)
    }

    /// The reference code's `crypto_sign`: signature followed by the message.
    pub fn sign_attached(&self, msg: &[u8], opts: &SpxSignOptions<'_>) -> Result<Vec<u8>, Error> {
        let mut sm = self.sign(msg, opts)?;
        sm.extend_from_slice(msg);
        Ok(sm)
    }
}

impl core::fmt::Debug for SpxSigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SpxSigningKey")
            .field("algorithm", &self.alg)
            .finish_non_exhaustive()
    }
}

impl SpxVerifyingKey {
    /// Loads a raw public key `PK.seed ‖ PK.root`.
    pub fn from_bytes(alg: SpxAlgorithm, pk: &[u8]) -> Result<Self, Error> {
        check_len(alg, "public key", alg.public_key_len(), pk.len())?;
        Ok(SpxVerifyingKey {
            alg,
            parts: PublicParts::from_raw(pk),
        })
    }

    /// The parameter set.
    pub fn algorithm(&self) -> SpxAlgorithm {
        self.alg
    }

    /// `PK.seed ‖ PK.root`.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.parts.to_raw(self.alg.params().n)
    }

    /// Verifies: `Ok(())` if valid, [`Error::InvalidSignature`] if not, and
    /// [`Error::InvalidLength`] for a signature of the wrong length.
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_stream(&mut &msg[..], sig)
    }

    /// Verifies a signature over a streamed message.
    pub fn verify_stream(&self, msg: &mut dyn MessageSource, sig: &[u8]) -> Result<(), Error> {
        check_len(self.alg, "signature", self.alg.signature_len(), sig.len())?;
        let pk = &self.parts;
        if self.alg.visit(Verify { pk, msg, sig })? {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// [`Self::verify`] with the message fed in pieces afterwards
    /// ([`MessageVerifier`]); a signature of the wrong length is refused here.
    pub fn verifier(&self, sig: &[u8]) -> Result<MessageVerifier, Error> {
        check_len(self.alg, "signature", self.alg.signature_len(), sig.len())?;
        Ok(MessageVerifier::new(self.alg.visit(StartVerify {
            pk: &self.parts,
            sig,
        })?))
    }

    /// Verifies items that all carry this key, side by side; `out[i]` is
    /// [`SpxVerifyingKey::verify`]'s answer for `items[i]`.
    pub(crate) fn verify_same_key(
        &self,
        items: &[SpxVerifyItem<'_>],
        out: &mut [Result<(), Error>],
    ) {
        self.alg.visit(VerifyMany {
            pk: &self.parts,
            alg: self.alg,
            items,
            out,
        });
    }

    /// The reference code's `crypto_sign_open`: checks `sm` = signature ‖
    /// message and returns the message.
    pub fn open<'s>(&self, sm: &'s [u8]) -> Result<&'s [u8], Error> {
        let len = self.alg.signature_len();
        if sm.len() < len {
            return Err(Error::InvalidLength {
                what: "signed message",
                algorithm: self.alg.name(),
                expected: len,
                got: sm.len(),
            });
        }
        let (sig, msg) = sm.split_at(len);
        self.verify(msg, sig)?;
        Ok(msg)
    }
}

impl core::fmt::Debug for SpxVerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SpxVerifyingKey")
            .field("algorithm", &self.alg)
            .finish_non_exhaustive()
    }
}
