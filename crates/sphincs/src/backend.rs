//! Choosing the hash kernels from the API: the hash layer's own answers
//! ([`Unavailable`], an unknown name) as the crate's [`Error`].

#[cfg(feature = "alloc")]
use core::str::FromStr;

#[cfg(feature = "alloc")]
use crate::prelude::*;

use crate::error::Error;
use crate::hash::backend::{self, Backend, Unavailable};

/// Runs `f` with every key bound on this thread using `backend`'s kernels
/// (threads that a signature or a batch spawns inherit them).
/// [`Error::BackendUnavailable`] if this CPU lacks the backend's features.
pub fn with_backend<R>(backend: Backend, f: impl FnOnce() -> R) -> Result<R, Error> {
    backend::with_backend(backend, f).map_err(Error::from)
}

impl From<Unavailable> for Error {
    fn from(u: Unavailable) -> Self {
        Error::BackendUnavailable(u.0)
    }
}

#[cfg(feature = "alloc")]
impl FromStr for Backend {
    type Err = Error;
    /// A [`Backend::name`], any case; [`Error::UnknownBackend`] otherwise.
    fn from_str(s: &str) -> Result<Self, Error> {
        Backend::from_name(s).ok_or_else(|| Error::UnknownBackend(s.to_string()))
    }
}
