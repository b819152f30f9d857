//! A PKCS#11 3.2 module (`libsphincs_pkcs11.so`) over the sphincs core:
//! one slot with one software token that generates, imports and uses
//! SLH-DSA keys of the twelve FIPS 205 sets with CKM_SLH_DSA,
//! CKM_HASH_SLH_DSA and the ten `CKM_HASH_SLH_DSA_<hash>` mechanisms.
//!
//! Applications load the library and call `C_GetInterface` (3.2) or
//! `C_GetFunctionList` (2.40). The scheme itself is the core's
//! (`sphincs::any`); this crate is the C ABI (`ffi`, the only `unsafe`),
//! sessions, objects and the token's PINs. With `SPHINCS_PKCS11_DIR` (or a
//! `SPHINCS_PKCS11_CONF` file's `directory = <path>`) set,
//! the token (PIN verifiers, retry counters) and its token objects are kept
//! in that directory, private keys encrypted under the user PIN
//! (`store.rs`); without it, in memory for the life of the process.

#![deny(unsafe_op_in_unsafe_fn)]

mod attributes;
mod ffi;
mod mechanism;
mod object;
mod operations;
mod session;
mod state;
mod store;
mod token;

pub use ffi::{C_GetFunctionList, C_GetInterface, C_GetInterfaceList};
