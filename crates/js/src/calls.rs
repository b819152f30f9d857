//! Sets, key generation, signing and verification: one call each, for every
//! FIPS 205 set, through `sphincs::any`.

use alloc::format;
use alloc::vec::Vec;
use sphincs_core::any::{AnyAlgorithm, AnySigningKey, AnyVerifyingKey, Family};
use sphincs_core::{Error, PreHash, Randomness, SignOptions};

use crate::kernels::run;
use crate::memory::{answer, arg, failure, reply, OK};

/// The set of a number from [`slhjs_algorithm`].
pub(crate) fn algorithm(id: u32) -> Result<AnyAlgorithm, Error> {
    AnyAlgorithm::at(id as usize)
        .filter(|a| a.family() == Family::SlhDsa)
        .ok_or_else(|| Error::UnknownAlgorithm(format!("set number {id}")))
}

/// The number [`algorithm`] takes back, for a set of the core's list.
pub(crate) fn number(alg: AnyAlgorithm) -> u32 {
    AnyAlgorithm::all().position(|a| a == alg).unwrap_or(0) as u32
}

/// The pre-hash whose DER OID (tag, length, arcs) is `oid`; none for an
/// empty one (pure SLH-DSA).
pub(crate) fn prehash(oid: &[u8]) -> Result<Option<PreHash>, Error> {
    if oid.is_empty() {
        return Ok(None);
    }
    PreHash::ALL
        .into_iter()
        .find(|p| p.oid_der()[..] == *oid)
        .map(Some)
        .ok_or_else(|| {
            let hex: Vec<_> = oid.iter().map(|b| format!("{b:02x}")).collect();
            Error::UnknownPreHash(format!("a hash with the DER OID {}", hex.concat()))
        })
}

/// A set by its FIPS 205 name (`SLH-DSA-SHA2-128s`): its number, then the
/// lengths of public key, secret key, signature, seed and signing
/// randomness, then its security category, each a u32 LE.
#[no_mangle]
pub unsafe extern "C" fn slhjs_algorithm(name: *const u8, name_len: usize) -> *mut u8 {
    // SAFETY: an argument buffer of the glue (`memory::arg`).
    let name = unsafe { arg(name, name_len) };
    let found = core::str::from_utf8(name)
        .map_err(|_| Error::UnknownAlgorithm("(not UTF-8)".into()))
        .and_then(|n| AnyAlgorithm::parse_for(n, Family::SlhDsa));
    match found {
        Ok(alg) => {
            let fields = [
                number(alg),
                alg.public_key_len() as u32,
                alg.secret_key_len() as u32,
                alg.signature_len() as u32,
                alg.seed_len() as u32,
                alg.randomness_len() as u32,
                u32::from(alg.security_category().unwrap_or(0)),
            ];
            let bytes: Vec<u8> = fields.iter().flat_map(|f| f.to_le_bytes()).collect();
            reply(OK, &[&bytes])
        }
        Err(e) => failure(&e),
    }
}

#[cfg(feature = "sign")]
/// FIPS 205 Algorithm 18 (`slh_keygen_internal`) on a seed of the set's
/// seed length (`SK.seed ‖ SK.prf ‖ PK.seed`): public key ‖ secret key.
#[no_mangle]
pub unsafe extern "C" fn slhjs_keygen(id: u32, seed: *const u8, seed_len: usize) -> *mut u8 {
    // SAFETY: an argument buffer of the glue (`memory::arg`).
    let seed = unsafe { arg(seed, seed_len) };
    let key = run(|| AnySigningKey::from_seed(algorithm(id)?, seed, 1));
    match key {
        Ok(sk) => {
            let secret = sk.to_bytes();
            reply(OK, &[&sk.verifying_key().to_bytes(), &secret])
        }
        Err(e) => failure(&e),
    }
}

/// The options of one signature: `rnd` empty for deterministic signing.
pub(crate) fn options<'a>(
    context: &'a [u8],
    prehash: Option<PreHash>,
    rnd: &'a [u8],
) -> SignOptions<'a> {
    SignOptions {
        context,
        prehash,
        randomness: if rnd.is_empty() {
            Randomness::Deterministic
        } else {
            Randomness::Given(rnd)
        },
        threads: 1,
        fault_hardened: false,
    }
}

#[cfg(feature = "sign")]
/// FIPS 205 Algorithm 22 (`slh_sign`), or 23 (`hash_slh_sign`) when `oid`
/// names a pre-hash: the signature of `msg` under the raw secret key `sk`
/// with `context`, hedged with `rnd` (n bytes) or deterministic (`rnd`
/// empty). With `plan` 1, the same signature's plan for several workers
/// instead (for `crate::spread`): the number of tree tasks (u32 LE), then the
/// plan the tasks take.
#[no_mangle]
pub unsafe extern "C" fn slhjs_sign(
    plan: u32,
    id: u32,
    sk: *const u8,
    sk_len: usize,
    msg: *const u8,
    msg_len: usize,
    context: *const u8,
    context_len: usize,
    oid: *const u8,
    oid_len: usize,
    rnd: *const u8,
    rnd_len: usize,
) -> *mut u8 {
    // SAFETY: argument buffers of the glue (`memory::arg`).
    let (sk, msg, context, oid, rnd) = unsafe {
        (
            arg(sk, sk_len),
            arg(msg, msg_len),
            arg(context, context_len),
            arg(oid, oid_len),
            arg(rnd, rnd_len),
        )
    };
    answer(run(|| {
        let alg = algorithm(id)?;
        let prehash = prehash(oid)?;
        // Unchecked, as the NIST API's crypto_sign: the root is not rebuilt
        // on every call (the secret key is handed over each time).
        let key = AnySigningKey::from_bytes_unchecked(alg, sk)?;
        let opts = options(context, prehash, rnd);
        match plan {
            0 => key.sign(msg, &opts),
            _ => sign_plan(&key, msg, &opts),
        }
    }))
}

/// The plan of a signature (`slhjs_sign` with `plan` 1): the number of
/// tree tasks (u32 LE), then the plan the tasks take.
#[cfg(feature = "sign")]
fn sign_plan(key: &AnySigningKey, msg: &[u8], opts: &SignOptions<'_>) -> Result<Vec<u8>, Error> {
    let plan = key.sign_plan(msg, opts)?;
    let count = key.sign_task_count() as u32;
    Ok([&count.to_le_bytes()[..], &plan].concat())
}

/// The answer of a verification as a reply: one byte, 1 valid, 0 not; a
/// signature of the wrong length is not valid (FIPS 205 Algorithm 20, step
/// 1); other failures (a key of the wrong length, an oversize context) are
/// errors.
fn verdict(result: Result<(), Error>) -> *mut u8 {
    match result {
        Ok(()) => reply(OK, &[&[1]]),
        Err(Error::InvalidSignature | Error::InvalidSignatureLength { .. }) => reply(OK, &[&[0]]),
        Err(e) => failure(&e),
    }
}

/// FIPS 205 Algorithm 24 (`slh_verify`), or 25 (`hash_slh_verify`) when
/// `oid` names a pre-hash.
#[no_mangle]
pub unsafe extern "C" fn slhjs_verify(
    id: u32,
    pk: *const u8,
    pk_len: usize,
    msg: *const u8,
    msg_len: usize,
    sig: *const u8,
    sig_len: usize,
    context: *const u8,
    context_len: usize,
    oid: *const u8,
    oid_len: usize,
) -> *mut u8 {
    // SAFETY: argument buffers of the glue (`memory::arg`).
    let (pk, msg, sig, context, oid) = unsafe {
        (
            arg(pk, pk_len),
            arg(msg, msg_len),
            arg(sig, sig_len),
            arg(context, context_len),
            arg(oid, oid_len),
        )
    };
    let checked = run(|| {
        let key = AnyVerifyingKey::from_bytes(algorithm(id)?, pk)?;
        let prehash = prehash(oid)?;
        Ok(key.verify(msg, sig, context, prehash))
    });
    match checked {
        Ok(result) => verdict(result),
        Err(e) => failure(&e),
    }
}

#[cfg(feature = "sign")]
/// FIPS 205 Algorithm 19 (`slh_sign_internal`) on M' as given, with
/// `addrnd` (`rnd`, n bytes) or deterministic (`rnd` empty).
#[no_mangle]
pub unsafe extern "C" fn slhjs_sign_internal(
    id: u32,
    sk: *const u8,
    sk_len: usize,
    m: *const u8,
    m_len: usize,
    rnd: *const u8,
    rnd_len: usize,
) -> *mut u8 {
    // SAFETY: argument buffers of the glue (`memory::arg`).
    let (sk, m, rnd) = unsafe { (arg(sk, sk_len), arg(m, m_len), arg(rnd, rnd_len)) };
    answer(run(|| {
        let key = AnySigningKey::from_bytes_unchecked(algorithm(id)?, sk)?;
        key.sign_internal(m, (!rnd.is_empty()).then_some(rnd))
    }))
}

/// FIPS 205 Algorithm 20 (`slh_verify_internal`) on M' as given.
#[no_mangle]
pub unsafe extern "C" fn slhjs_verify_internal(
    id: u32,
    pk: *const u8,
    pk_len: usize,
    m: *const u8,
    m_len: usize,
    sig: *const u8,
    sig_len: usize,
) -> *mut u8 {
    // SAFETY: argument buffers of the glue (`memory::arg`).
    let (pk, m, sig) = unsafe { (arg(pk, pk_len), arg(m, m_len), arg(sig, sig_len)) };
    let verified = run(|| AnyVerifyingKey::from_bytes(algorithm(id)?, pk)?.verify_internal(m, sig));
    match verified {
        Ok(valid) => reply(OK, &[&[u8::from(valid)]]),
        Err(Error::InvalidSignatureLength { .. }) => reply(OK, &[&[0]]),
        Err(e) => failure(&e),
    }
}

#[cfg(feature = "sign")]
/// The secret key's public half (the last 2n bytes of a FIPS 205 secret key).
#[no_mangle]
pub unsafe extern "C" fn slhjs_public_key(id: u32, sk: *const u8, sk_len: usize) -> *mut u8 {
    // SAFETY: an argument buffer of the glue (`memory::arg`).
    let sk = unsafe { arg(sk, sk_len) };
    answer(
        algorithm(id)
            .and_then(|alg| AnySigningKey::from_bytes_unchecked(alg, sk))
            .map(|k| k.verifying_key().to_bytes()),
    )
}
