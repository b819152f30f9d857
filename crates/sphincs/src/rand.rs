//! Where signing randomness comes from: the operating system's RNG, none
//! (deterministic signing), or the caller's bytes. Shared by every family.

use zeroize::Zeroizing;

use crate::error::Error;
use crate::limits::MAX_N;

/// Where signing randomness (`addrnd`, FIPS 205 §9.2) comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Randomness<'a> {
    /// Fresh bytes from the operating system: the hedged variant, and the default.
    #[default]
    Hedged,
    /// No randomness: opt_rand = PK.seed, so equal inputs give equal signatures.
    Deterministic,
    /// Caller-supplied n bytes (known-answer tests).
    Given(&'a [u8]),
}

/// Resolves [`Randomness`] to the `addrnd` argument of FIPS 205.
pub(crate) fn addrnd(r: Randomness<'_>, n: usize) -> Result<Option<Zeroizing<[u8; MAX_N]>>, Error> {
    match r {
        Randomness::Hedged => Ok(Some(Zeroizing::new(os_random(n)?))),
        Randomness::Deterministic => Ok(None),
        Randomness::Given(b) => {
            if b.len() != n {
                return Err(Error::InvalidRandomnessLength {
                    expected: n,
                    got: b.len(),
                });
            }
            let mut x = [0u8; MAX_N];
            x[..n].copy_from_slice(b);
            Ok(Some(Zeroizing::new(x)))
        }
    }
}

/// n fresh bytes from the operating system.
pub(crate) fn os_random(n: usize) -> Result<[u8; MAX_N], Error> {
    let mut out = [0u8; MAX_N];
    fill_random(&mut out[..n])?;
    Ok(out)
}

/// Fills `buf` from the operating system's RNG.
#[cfg(feature = "std")]
pub(crate) fn fill_random(buf: &mut [u8]) -> Result<(), Error> {
    use crate::prelude::ToString;
    getrandom::fill(buf).map_err(|e| Error::Rng(e.to_string()))
}

/// Without the `std` feature there is no operating system to ask:
/// [`Error::Rng`] (sign with [`Randomness::Deterministic`] or
/// [`Randomness::Given`] instead).
#[cfg(not(feature = "std"))]
#[allow(clippy::useless_conversion)] // `Error::Rng` holds a `String` with `alloc`
pub(crate) fn fill_random(_buf: &mut [u8]) -> Result<(), Error> {
    Err(Error::Rng(
        "no operating-system randomness without the std feature; pass the randomness (Randomness::Given) or sign deterministically".into(),
    ))
}
