//! The C ABI: every `unsafe` of the module is here. Each entry point runs
//! inside [`ptr::guard`] (a panic becomes CKR_GENERAL_ERROR and never
//! unwinds into the caller), checks each pointer it is given (NULL where
//! one is needed → CKR_ARGUMENTS_BAD) and copies what it reads before it
//! hands over to the safe modules.

mod crypto;
mod entry;
mod general;
mod objects;
mod ptr;
mod stubs;

pub use entry::{C_GetFunctionList, C_GetInterface, C_GetInterfaceList};
