//! The host's status vocabulary in one place: our reason codes and their
//! strings (`get_reason_strings`), the error upcalls that put them on
//! OpenSSL's error queue, and [`guard`], which every entry point runs its
//! body through so that neither an error nor a panic escapes as anything
//! but a return value and a queued reason. The few entry points outside
//! `guard` only return a pointer to a static table (`*_types`, `gettable_*`,
//! `settable_*`), do integer tests (`does_selection`) or nothing
//! (`teardown`): none of them can panic.
//!
//! An error goes on the queue through the core handle of the provider
//! instance the failing object belongs to ([`Origin`]): the provider may be
//! loaded into several library contexts, and the handle of one that has
//! since been freed must never be used for another's errors.

use std::ffi::{c_int, c_uint, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::abi::Item;
use crate::core;
pub use crate::core::Origin;

/// An object handed to the host that remembers its [`Origin`].
pub trait Owned {
    fn origin(&self) -> Origin;
}

/// The origin of the object behind a host pointer, [`Origin::NONE`] for NULL.
///
/// # Safety
/// `p` is NULL or a live `T` this provider handed out.
pub unsafe fn origin_of<T: Owned>(p: *const c_void) -> Origin {
    if p.is_null() {
        return Origin::NONE;
    }
    // SAFETY: the caller's promise.
    unsafe { &*(p as *const T) }.origin()
}

/// Our reason codes (numbers local to this provider).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Reason {
    InvalidKey = 1,
    InvalidSignature = 2,
    BadParameter = 3,
    BadEncoding = 4,
    NotSupported = 5,
    Internal = 6,
    MissingKey = 7,
}

/// The reason strings the host prints before our detail text.
pub fn reason_strings() -> &'static [Item] {
    static TABLE: std::sync::OnceLock<crate::abi::Shared<Vec<Item>>> = std::sync::OnceLock::new();
    &TABLE
        .get_or_init(|| {
            let items = [
                (Reason::InvalidKey, c"invalid SLH-DSA key"),
                (Reason::InvalidSignature, c"invalid SLH-DSA signature"),
                (Reason::BadParameter, c"invalid parameter"),
                (Reason::BadEncoding, c"invalid key encoding"),
                (Reason::NotSupported, c"operation not supported"),
                (Reason::Internal, c"internal error in the sphincs provider"),
                (Reason::MissingKey, c"key material missing"),
            ];
            let mut v: Vec<Item> = items
                .iter()
                .map(|(r, s)| Item {
                    id: *r as c_uint,
                    ptr: s.as_ptr() as *const c_void,
                })
                .collect();
            v.push(Item {
                id: 0,
                ptr: std::ptr::null(),
            });
            crate::abi::Shared(v)
        })
        .0
}

/// An error on its way to the host's queue.
#[derive(Debug)]
pub struct Fail {
    pub reason: Reason,
    pub detail: String,
}

impl Fail {
    pub fn new(reason: Reason, detail: impl Into<String>) -> Fail {
        Fail {
            reason,
            detail: detail.into(),
        }
    }

    /// A core error, classified by what it says about the input.
    pub fn core(e: sphincs::Error) -> Fail {
        use sphincs::Error as E;
        let reason = match &e {
            E::InvalidSignature | E::InvalidSignatureLength { .. } => Reason::InvalidSignature,
            E::InvalidKeyLength { .. } | E::KeyMismatch | E::InvalidLength { .. } => {
                Reason::InvalidKey
            }
            E::Encoding(_) => Reason::BadEncoding,
            E::ContextTooLong(_) | E::InvalidRandomnessLength { .. } => Reason::BadParameter,
            E::Unsupported { .. } | E::WrongKeyMode { .. } => Reason::NotSupported,
            _ => Reason::Internal,
        };
        Fail::new(reason, e.to_string())
    }

    /// Puts this error on the calling thread's OpenSSL error queue, as
    /// raised by the provider instance `origin`.
    pub fn raise(&self, origin: Origin, func: &str) {
        core::raise(origin, self.reason as c_int, func, &self.detail);
    }
}

impl From<sphincs::Error> for Fail {
    fn from(e: sphincs::Error) -> Fail {
        Fail::core(e)
    }
}

/// Runs an entry point's body: an error is queued and `fallback` returned;
/// a panic is caught here (it never unwinds into OpenSSL), queued as an
/// internal error, and `fallback` returned.
/// `origin` is the instance whose handle queues the error.
pub fn guard<T>(
    origin: Origin,
    func: &str,
    fallback: T,
    body: impl FnOnce() -> Result<T, Fail>,
) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(v)) => v,
        Ok(Err(f)) => {
            f.raise(origin, func);
            fallback
        }
        Err(_) => {
            Fail::new(
                Reason::Internal,
                "a panic was caught at the provider boundary",
            )
            .raise(origin, func);
            fallback
        }
    }
}
