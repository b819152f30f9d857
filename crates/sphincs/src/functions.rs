//! FIPS 205's own functions on typed keys, under their names in the
//! standard (Algorithms 18–25), for readers who hold the standard and want
//! its calling shape. They are thin over the key types and the engine.

use crate::error::Error;
use crate::keys::{Signature, SigningKey, VerifyingKey};
use crate::params::ParameterSet;
use crate::prehash::PreHash;
use crate::slh_dsa::{sign_external, sign_internal_vec, verify_external, verify_parts};

/// `slh_keygen_internal` (Algorithm 18).
pub fn slh_keygen_internal<P: ParameterSet>(
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
) -> Result<SigningKey<P>, Error> {
    SigningKey::from_seeds(sk_seed, sk_prf, pk_seed)
}

/// `slh_keygen` (Algorithm 21): a key pair from the operating system's RNG.
pub fn slh_keygen<P: ParameterSet>() -> Result<SigningKey<P>, Error> {
    SigningKey::generate()
}

/// `slh_sign_internal` (Algorithm 19): signs M' as given; `addrnd` of `None`
/// is the deterministic variant (opt_rand = PK.seed).
pub fn slh_sign_internal<P: ParameterSet>(
    m: &[u8],
    sk: &SigningKey<P>,
    addrnd: Option<&[u8]>,
) -> Result<Signature<P>, Error> {
    sign_internal_vec::<P>(sk.parts(), m, addrnd).map(Signature::from_vec_unchecked)
}

/// `slh_verify_internal` (Algorithm 20).
pub fn slh_verify_internal<P: ParameterSet>(m: &[u8], sig: &[u8], pk: &VerifyingKey<P>) -> bool {
    verify_parts::<P>(pk.parts(), &mut &m[..], sig).unwrap_or(false)
}

/// `slh_sign` (Algorithm 22): pure SLH-DSA with a context string of at most
/// 255 bytes; `addrnd` of `None` is the deterministic variant.
/// [`Error::WrongKeyMode`] for a key bound to HashSLH-DSA by its OID.
pub fn slh_sign<P: ParameterSet>(
    m: &[u8],
    ctx: &[u8],
    sk: &SigningKey<P>,
    addrnd: Option<&[u8]>,
) -> Result<Signature<P>, Error> {
    sk.mode().require(P::ALGORITHM, None)?;
    sign_external::<P>(sk.parts(), &mut &m[..], ctx, None, addrnd, 1, false)
        .map(Signature::from_vec_unchecked)
}

/// `slh_verify` (Algorithm 24). A context longer than 255 bytes never verifies;
/// nor does a key bound to HashSLH-DSA by its OID ([`crate::KeyMode`]).
pub fn slh_verify<P: ParameterSet>(m: &[u8], sig: &[u8], ctx: &[u8], pk: &VerifyingKey<P>) -> bool {
    pk.mode().require(P::ALGORITHM, None).is_ok()
        && verify_external::<P>(pk.parts(), &mut &m[..], sig, ctx, None).is_ok()
}

/// `hash_slh_sign` (Algorithm 23): HashSLH-DSA with pre-hash `ph`.
/// [`Error::WrongKeyMode`] for a key whose OID binds it to another mode.
pub fn hash_slh_sign<P: ParameterSet>(
    m: &[u8],
    ctx: &[u8],
    ph: PreHash,
    sk: &SigningKey<P>,
    addrnd: Option<&[u8]>,
) -> Result<Signature<P>, Error> {
    sk.mode().require(P::ALGORITHM, Some(ph))?;
    sign_external::<P>(sk.parts(), &mut &m[..], ctx, Some(ph), addrnd, 1, false)
        .map(Signature::from_vec_unchecked)
}

/// `hash_slh_verify` (Algorithm 25); `false` for a key whose OID binds it to another mode.
pub fn hash_slh_verify<P: ParameterSet>(
    m: &[u8],
    sig: &[u8],
    ctx: &[u8],
    ph: PreHash,
    pk: &VerifyingKey<P>,
) -> bool {
    pk.mode().require(P::ALGORITHM, Some(ph)).is_ok()
        && verify_external::<P>(pk.parts(), &mut &m[..], sig, ctx, Some(ph)).is_ok()
}
