//! Signing options as C passes them (`sphincs_sign_options`, `SPHINCS_PREHASH_*`,
//! `SPHINCS_RANDOMNESS_*`), checked and turned into the core's option types.

use core::ffi::{c_char, c_int};

use sphincs_core::{PreHash, Randomness, SignOptions};
use zeroize::Zeroizing;

use crate::ffi::{c_str, guard, input, set, Res};
use crate::status::*;

/// `SPHINCS_PREHASH_*`: the pre-hash function of HashSLH-DSA (FIPS 205
/// §10.2.2), or `SPHINCS_PREHASH_NONE`: the key's own mode (pure, or a
/// HashSLH-DSA key's pre-hash; see `sphincs_secret_key_mode`).
#[allow(non_camel_case_types)]
pub type sphincs_prehash = c_int;
/// No pre-hash asked for: pure SLH-DSA, except with a HashSLH-DSA key, which
/// uses its own pre-hash.
pub const SPHINCS_PREHASH_NONE: sphincs_prehash = 0;
/// SHA2-224.
pub const SPHINCS_PREHASH_SHA2_224: sphincs_prehash = 1;
/// SHA2-256.
pub const SPHINCS_PREHASH_SHA2_256: sphincs_prehash = 2;
/// SHA2-384.
pub const SPHINCS_PREHASH_SHA2_384: sphincs_prehash = 3;
/// SHA2-512.
pub const SPHINCS_PREHASH_SHA2_512: sphincs_prehash = 4;
/// SHA2-512/224.
pub const SPHINCS_PREHASH_SHA2_512_224: sphincs_prehash = 5;
/// SHA2-512/256.
pub const SPHINCS_PREHASH_SHA2_512_256: sphincs_prehash = 6;
/// SHA3-224.
pub const SPHINCS_PREHASH_SHA3_224: sphincs_prehash = 7;
/// SHA3-256.
pub const SPHINCS_PREHASH_SHA3_256: sphincs_prehash = 8;
/// SHA3-384.
pub const SPHINCS_PREHASH_SHA3_384: sphincs_prehash = 9;
/// SHA3-512.
pub const SPHINCS_PREHASH_SHA3_512: sphincs_prehash = 10;
/// SHAKE128 (256-bit output).
pub const SPHINCS_PREHASH_SHAKE_128: sphincs_prehash = 11;
/// SHAKE256 (512-bit output).
pub const SPHINCS_PREHASH_SHAKE_256: sphincs_prehash = 12;

/// `SPHINCS_RANDOMNESS_*`: where the signing randomness (`addrnd`, FIPS 205 §9.2;
/// round 3.1: `optrand`) comes from.
#[allow(non_camel_case_types)]
pub type sphincs_randomness = c_int;
/// Fresh bytes from the operating system for each signature (the default).
pub const SPHINCS_RANDOMNESS_HEDGED: sphincs_randomness = 0;
/// None: equal inputs give equal signatures.
pub const SPHINCS_RANDOMNESS_DETERMINISTIC: sphincs_randomness = 1;
/// The caller's n bytes in `random` / `random_len` (known-answer tests).
pub const SPHINCS_RANDOMNESS_GIVEN: sphincs_randomness = 2;

/// How to sign. Start from `sphincs_sign_options_init` (or pass NULL for the
/// defaults: pure, empty context, hedged, one thread, not fault-hardened).
/// SPHINCS-256 signs deterministically: hedged or deterministic give its one
/// signature; a context, pre-hash, given randomness or fault-hardening is
/// `SPHINCS_ERR_UNSUPPORTED` there.
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct sphincs_sign_options {
    /// Context string (FIPS 205 sets only), at most 255 bytes; may be NULL when `context_len` is 0.
    pub context: *const u8,
    /// Bytes of `context`.
    pub context_len: usize,
    /// A `SPHINCS_PREHASH_*` value (FIPS 205 sets only).
    pub prehash: sphincs_prehash,
    /// A `SPHINCS_RANDOMNESS_*` value.
    pub randomness: sphincs_randomness,
    /// With `SPHINCS_RANDOMNESS_GIVEN`: n bytes of randomness (n = 16, 24 or 32 by set).
    pub random: *const u8,
    /// Bytes of `random`.
    pub random_len: usize,
    /// Threads to spread one signature over: 1 = the calling thread, 0 = every
    /// core. The signature is the same for any count.
    pub threads: usize,
    /// Nonzero: compute the signature twice and release it only if both agree
    /// (fault-attack countermeasure, twice the time).
    pub fault_hardened: c_int,
}

/// Fills `*opts` with the defaults: pure, empty context, hedged, one thread,
/// not fault-hardened.
#[no_mangle]
pub unsafe extern "C" fn sphincs_sign_options_init(
    opts: *mut sphincs_sign_options,
) -> sphincs_status {
    guard(|| {
        let defaults = sphincs_sign_options {
            context: core::ptr::null(),
            context_len: 0,
            prehash: SPHINCS_PREHASH_NONE,
            randomness: SPHINCS_RANDOMNESS_HEDGED,
            random: core::ptr::null(),
            random_len: 0,
            threads: 1,
            fault_hardened: 0,
        };
        // SAFETY: `opts` is writable by the API contract (NULL is refused).
        unsafe { set(opts, defaults) }
    })
}

/// Looks up a pre-hash function by name (`"SHA2-256"`, `"sha256"`,
/// `"SHA3-512"`, `"SHAKE-128"`, ... any case) and stores its `SPHINCS_PREHASH_*` value.
#[no_mangle]
pub unsafe extern "C" fn sphincs_prehash_by_name(
    name: *const c_char,
    prehash: *mut sphincs_prehash,
) -> sphincs_status {
    guard(|| {
        // SAFETY: NUL-terminated by the API contract.
        let name = unsafe { c_str(name, SPHINCS_ERR_UNKNOWN_PREHASH)? };
        let ph: PreHash = name.parse()?;
        let index = PreHash::ALL.iter().position(|p| *p == ph).unwrap_or(0);
        // SAFETY: `prehash` is writable by the API contract.
        unsafe { set(prehash, index as c_int + 1) }
    })
}

/// `SPHINCS_PREHASH_*` to the core's pre-hash: 1..=12 index `PreHash::ALL`.
pub(crate) fn prehash(value: sphincs_prehash) -> Res<Option<PreHash>> {
    match value {
        SPHINCS_PREHASH_NONE => Ok(None),
        v => usize::try_from(v - 1)
            .ok()
            .and_then(|i| PreHash::ALL.get(i).copied())
            .map(Some)
            .ok_or(SPHINCS_ERR_UNKNOWN_PREHASH),
    }
}

#[derive(Clone)]
enum Rnd {
    Hedged,
    Deterministic,
    Given(Zeroizing<Vec<u8>>),
}

/// Options copied out of the caller's memory, so a stream can keep them.
#[derive(Clone)]
pub(crate) struct Options {
    context: Vec<u8>,
    pub(crate) prehash: Option<PreHash>,
    randomness: Rnd,
    threads: usize,
    fault_hardened: bool,
}

impl Options {
    /// Reads `*opts`, or the defaults for NULL.
    ///
    /// # Safety
    /// `opts`, if not NULL, must point to a `sphincs_sign_options` whose
    /// pointers are valid for their lengths.
    pub(crate) unsafe fn read(opts: *const sphincs_sign_options) -> Res<Options> {
        if opts.is_null() {
            return Ok(Options {
                context: Vec::new(),
                prehash: None,
                randomness: Rnd::Hedged,
                threads: 1,
                fault_hardened: false,
            });
        }
        // SAFETY: non-NULL and readable by the API contract.
        let o = unsafe { &*opts };
        // SAFETY: `context` holds `context_len` bytes by the API contract.
        let context = unsafe { input(o.context, o.context_len)? }.to_vec();
        let randomness = match o.randomness {
            SPHINCS_RANDOMNESS_HEDGED => Rnd::Hedged,
            SPHINCS_RANDOMNESS_DETERMINISTIC => Rnd::Deterministic,
            SPHINCS_RANDOMNESS_GIVEN => {
                crate::ffi::non_null(o.random)?;
                // SAFETY: `random` holds `random_len` bytes by the API contract.
                Rnd::Given(Zeroizing::new(
                    unsafe { input(o.random, o.random_len)? }.to_vec(),
                ))
            }
            _ => return Err(SPHINCS_ERR_INVALID_ARGUMENT),
        };
        Ok(Options {
            context,
            prehash: prehash(o.prehash)?,
            randomness,
            threads: crate::ffi::threads(o.threads),
            fault_hardened: o.fault_hardened != 0,
        })
    }

    fn randomness(&self) -> Randomness<'_> {
        match &self.randomness {
            Rnd::Hedged => Randomness::Hedged,
            Rnd::Deterministic => Randomness::Deterministic,
            Rnd::Given(b) => Randomness::Given(b),
        }
    }

    /// The core's options (what a family lacks, the core refuses).
    pub(crate) fn core(&self) -> SignOptions<'_> {
        SignOptions {
            context: &self.context,
            prehash: self.prehash,
            randomness: self.randomness(),
            threads: self.threads,
            fault_hardened: self.fault_hardened,
        }
    }
}

/// The verification options: context and pre-hash, owned.
#[derive(Clone)]
pub(crate) struct VerifyOptions {
    pub(crate) context: Vec<u8>,
    pub(crate) prehash: Option<PreHash>,
}

impl VerifyOptions {
    /// # Safety
    /// `context` must hold `context_len` bytes (or be NULL with 0).
    pub(crate) unsafe fn read(
        context: *const u8,
        context_len: usize,
        ph: sphincs_prehash,
    ) -> Res<VerifyOptions> {
        Ok(VerifyOptions {
            // SAFETY: forwarded contract.
            context: unsafe { input(context, context_len)? }.to_vec(),
            prehash: prehash(ph)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prehash_constants_name_their_functions() {
        let named = [
            (SPHINCS_PREHASH_SHA2_224, "SHA2-224"),
            (SPHINCS_PREHASH_SHA2_256, "SHA2-256"),
            (SPHINCS_PREHASH_SHA2_384, "SHA2-384"),
            (SPHINCS_PREHASH_SHA2_512, "SHA2-512"),
            (SPHINCS_PREHASH_SHA2_512_224, "SHA2-512/224"),
            (SPHINCS_PREHASH_SHA2_512_256, "SHA2-512/256"),
            (SPHINCS_PREHASH_SHA3_224, "SHA3-224"),
            (SPHINCS_PREHASH_SHA3_256, "SHA3-256"),
            (SPHINCS_PREHASH_SHA3_384, "SHA3-384"),
            (SPHINCS_PREHASH_SHA3_512, "SHA3-512"),
            (SPHINCS_PREHASH_SHAKE_128, "SHAKE-128"),
            (SPHINCS_PREHASH_SHAKE_256, "SHAKE-256"),
        ];
        for (value, name) in named {
            assert_eq!(prehash(value).unwrap().unwrap().name(), name);
        }
        assert_eq!(prehash(SPHINCS_PREHASH_NONE), Ok(None));
        assert_eq!(prehash(13), Err(SPHINCS_ERR_UNKNOWN_PREHASH));
        assert_eq!(prehash(-1), Err(SPHINCS_ERR_UNKNOWN_PREHASH));
    }
}
