//! Hash primitives behind the tweakable hash families. Only the portable
//! one-call-at-a-time backend exists so far; multi-lane kernels go here.

pub mod keccak;
pub mod sha2;
