//! Hash primitives behind the tweakable hash families: the portable
//! one-call-at-a-time code and the multi-lane SIMD kernels. This is the only
//! module where `unsafe` is allowed; each block says why it is sound.

pub mod keccak;
pub mod sha2;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx2;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx512;
