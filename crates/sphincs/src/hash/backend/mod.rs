//! Hash primitives behind the tweakable hash families: the portable
//! one-call-at-a-time code and the multi-lane SIMD kernels. This is the only
//! module where `unsafe` is allowed; each block says why it is sound.

// ChaCha12 serves SPHINCS-256 alone, which needs the `alloc` feature.
#[cfg(feature = "std")]
pub mod calibrate;
#[cfg(feature = "alloc")]
pub mod chacha12;
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
mod chacha12_avx2;
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
mod chacha12_avx512;
#[cfg(all(feature = "alloc", target_arch = "aarch64"))]
mod chacha12_neon;
pub mod cycles;
pub(crate) mod haraka;
#[cfg(target_arch = "x86_64")]
mod haraka_aesni;
#[cfg(target_arch = "aarch64")]
mod haraka_armv8;
#[cfg(target_arch = "x86_64")]
mod haraka_vaes;
#[cfg(feature = "std")]
pub mod heap_counter;
pub mod keccak;
// Measured clock and kernel speeds for the kernel bounds (test only).
#[cfg(target_arch = "aarch64")]
pub mod keccak_neon;
#[cfg(all(test, target_arch = "x86_64"))]
mod kernel_bounds;
// Bit-interleaved Keccak-f[1600] for 32-bit targets but wasm32 (a
// Cortex-M; wasm32 has 64-bit integer operations); tested on every host.
#[cfg(any(test, all(target_pointer_width = "32", not(target_arch = "wasm32"))))]
pub(crate) mod keccak32;
// The round body of the SIMD Keccak kernels (x86-64, AArch64 only).
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) mod keccak_rounds;
// WebAssembly SIMD128: Keccak ×2, SHA-256 ×4, SHA-512 ×2.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod keccak_simd128;
#[cfg(target_arch = "x86_64")]
pub mod keccak_x4;
#[cfg(target_arch = "x86_64")]
pub mod keccak_x5_hybrid;
#[cfg(target_arch = "x86_64")]
pub mod keccak_x8;
pub(crate) mod lanes;
mod select;
pub mod sha2;
// SHA-256 rounds for 32-bit targets but wasm32 (a Cortex-M): on ARMv7-M
// always (assembly), elsewhere with `fast-sha256`; tested on every host.
#[cfg(any(
    test,
    all(
        target_arch = "arm",
        target_feature = "mclass",
        target_feature = "thumb2"
    ),
    all(
        target_pointer_width = "32",
        not(target_arch = "wasm32"),
        feature = "fast-sha256"
    )
))]
pub(crate) mod sha256_32bit;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod sha2_simd128;
#[cfg(test)]
mod test_data;

pub use cycles::cycle_counter;
#[cfg(feature = "std")]
pub use heap_counter::{heap_in_use, heap_peak, reset_heap_peak, CountingAllocator};
#[cfg(feature = "alloc")]
pub(crate) use select::forced_backend;
pub use select::{with_backend, Backend, Kernels, Unavailable};
#[cfg(target_arch = "aarch64")]
pub mod sha256_armv8;
#[cfg(target_arch = "x86_64")]
pub mod sha256_avx2;
#[cfg(target_arch = "x86_64")]
pub mod sha256_avx512;
// The step loop of the SHA-256 chain kernels: AVX2, AVX-512, SIMD128 and
// the 32-bit cores' one-lane kernel (fast build).
#[cfg(any(
    test,
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(
        target_pointer_width = "32",
        not(target_arch = "wasm32"),
        feature = "fast-sha256"
    )
))]
mod sha256_chain;
#[cfg(target_arch = "x86_64")]
pub mod sha256_shani;
#[cfg(target_arch = "aarch64")]
pub mod sha512_armv8;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx2;
#[cfg(target_arch = "x86_64")]
pub mod sha512_avx512;
