//! Which kernels run: detected once per process from the CPU, or forced for a
//! thread (tests and benchmarks) or the whole process (`SPHINCS_BACKEND`).
//!
//! A hash family resolves the choice into [`Kernels`] when it is bound to a
//! key, so one signature uses one set of kernels even when its work is spread
//! over threads.

#[cfg(feature = "alloc")]
use crate::prelude::*;
#[cfg(feature = "std")]
use core::cell::Cell;
#[cfg(feature = "std")]
use std::sync::OnceLock;

/// Whether the CPU has every x86 feature named: asked at run time with `std`,
/// else what the target was compiled for (`-C target-feature`, `target-cpu`).
#[cfg(feature = "std")]
#[allow(unused_macros)]
macro_rules! x86_has {
    ($first:tt $(, $f:tt)*) => {
        std::is_x86_feature_detected!($first) $(&& std::is_x86_feature_detected!($f))*
    };
}
#[cfg(not(feature = "std"))]
#[allow(unused_macros)]
macro_rules! x86_has {
    ($($f:tt),+) => { cfg!(all($(target_feature = $f),+)) };
}

/// [`x86_has`] for AArch64.
#[cfg(feature = "std")]
#[allow(unused_macros)]
macro_rules! arm_has {
    ($first:tt $(, $f:tt)*) => {
        std::arch::is_aarch64_feature_detected!($first)
            $(&& std::arch::is_aarch64_feature_detected!($f))*
    };
}
#[cfg(not(feature = "std"))]
#[allow(unused_macros)]
macro_rules! arm_has {
    ($($f:tt),+) => { cfg!(all($(target_feature = $f),+)) };
}

/// A family of hash kernels. Forcing one applies it to every primitive that
/// has a kernel of that family; the others run their portable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// One call at a time, portable Rust (the `sha2` crate still uses the
    /// CPU's SHA instructions for single SHA-256 blocks when present).
    Scalar,
    /// AVX2: Keccak ×4, SHA-256 ×8, SHA-512 ×4, ChaCha12 ×8; Haraka on AES-NI ×4 where
    /// the CPU has AES-NI.
    Avx2,
    /// AVX-512: Keccak ×8, SHA-256 ×16, SHA-512 ×8, ChaCha12 ×16; Haraka on VAES ×16 where
    /// the CPU has VAES, else on AES-NI ×4 where it has that.
    Avx512,
    /// SHA-NI: SHA-256 as four interleaved instruction streams (Haraka runs
    /// its portable code).
    ShaNi,
    /// AArch64 NEON: Keccak ×2 (two pairs per 4-lane group; the hybrid
    /// scalar+NEON ×3 kernel on Neoverse-V1/Cortex-X1 systems, see
    /// `arm_keccak`), ChaCha12 ×4; SHA-256 on the SHA-2 extension ×4 and
    /// Haraka on `aese`/`aesmc` ×4 where the CPU has them.
    Neon,
    /// AArch64 with the SHA-3 and SHA-512 extensions (Armv8.2): Keccak ×2 on
    /// `eor3`/`xar`/`bcax` (the plain-NEON hybrid ×3 on Neoverse-V1/Cortex-X1
    /// systems, as under `Neon`), SHA-512 on `sha512h` ×4; SHA-256 and Haraka
    /// as under `Neon`.
    Sha3,
}

impl Backend {
    /// Every backend, in order of preference within each primitive's family.
    pub const ALL: [Backend; 6] = [
        Backend::Scalar,
        Backend::Avx2,
        Backend::Avx512,
        Backend::ShaNi,
        Backend::Neon,
        Backend::Sha3,
    ];

    /// The name used by `SPHINCS_BACKEND` and the CLI.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::ShaNi => "sha-ni",
            Backend::Neon => "neon",
            Backend::Sha3 => "sha3",
        }
    }

    /// Parses a [`Backend::name`], ignoring case.
    pub fn from_name(name: &str) -> Option<Backend> {
        let name = name.trim();
        // Equal up to case, with '_' read as '-' (no allocation: no_std too).
        let same = |known: &str| {
            name.len() == known.len()
                && name.bytes().zip(known.bytes()).all(|(x, k)| {
                    let x = if x == b'_' {
                        b'-'
                    } else {
                        x.to_ascii_lowercase()
                    };
                    x == k
                })
        };
        if same("shani") {
            return Some(Backend::ShaNi);
        }
        Backend::ALL.into_iter().find(|b| same(b.name()))
    }

    /// Whether this CPU can run the backend (without the `std` feature: whether
    /// the target was compiled with its features).
    pub fn is_available(self) -> bool {
        match self {
            Backend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => x86_has!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => {
                x86_has!("avx512f", "avx512bw", "avx512vl", "avx2")
            }
            #[cfg(target_arch = "x86_64")]
            Backend::ShaNi => x86_has!("sha", "sse4.1", "ssse3"),
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => arm_has!("neon"),
            #[cfg(target_arch = "aarch64")]
            Backend::Sha3 => arm_has!("sha3"),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The backends this CPU can run.
    pub fn available() -> impl Iterator<Item = Backend> {
        Backend::ALL.into_iter().filter(|b| b.is_available())
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Keccak-f\[1600\] kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeccakKernel {
    Scalar,
    X4Avx2,
    X8Avx512,
    /// NEON, two states per vector (two pairs per 4-lane group).
    X2Neon,
    /// NEON with the SHA-3 extension, two states per vector.
    X2Sha3,
    /// Three states: a plain NEON pair and one state in general registers,
    /// a round of each per loop iteration (vector and integer pipes at once).
    /// Both AArch64 backends run it on Neoverse-V1 and Cortex-X1 systems
    /// (see [`arm_keccak`]); elsewhere the tests run it.
    X3HybridNeon,
    /// [`KeccakKernel::X3HybridNeon`] with the pair on the SHA-3 extension.
    /// No backend's default (see [`SHA3_KECCAK`]); the tests run it.
    #[allow(dead_code)] // constructed by the AArch64 tests only
    X3HybridSha3,
    /// Five states: four in AVX2 vectors and one in general registers, a
    /// round of each per loop iteration (x86 CPUs without AVX-512, where
    /// the 4-way kernel leaves the integer ALUs idle). Needs BMI1 and BMI2
    /// too. No backend's default (see [`AVX2_KECCAK`]); the tests run it.
    #[allow(dead_code)] // constructed by the x86-64 tests only
    X5HybridAvx2,
    /// WebAssembly SIMD128, two states per vector (two pairs per 4-lane
    /// group). Chosen on wasm32 builds with `target_feature = "simd128"`.
    #[allow(dead_code)] // constructed on wasm32 with SIMD128 only
    X2Simd128,
}

// The Keccak kernel of each AArch64 backend, chosen by the llvm-mca model of
// `scripts/arm-mca.py` (cycles per permutation per state of the round loop,
// BENCHMARKS.md "AArch64 (model estimates)"): no ARM hardware was measured.
//
// `Neon` targets cores without the SHA-3 extension, Cortex-A72 first: there
// the 2-way kernel models at 1009 cycles, the hybrid at 1072 (the A72 decodes
// three instructions a cycle, and the hybrid's 336 a round fill that).
//
// `Sha3` targets Apple M1 first: its model puts the 2-way kernel at 321
// cycles and the hybrid at 1108. Neoverse-V1's model ranks the hybrids first
// (plain NEON 381, SHA-3 520, against 780 for the 2-way SHA-3 kernel), so
// on V1 (and X1) systems both backends run the plain-NEON hybrid instead:
// [`arm_keccak`] tells those cores by their MIDR. Caveat: llvm-mca's M1 model runs one general-register
// ALU instruction a cycle (every `eor`/`mov` takes both of its `CyUnitIS`
// units), where the M1 is described as having six integer ALUs, so real M1
// hardware may favour the hybrid; flip this constant if a measurement says so.
// The Keccak kernel of `Avx2` (and of `Kernels::best()` on x86 CPUs without
// AVX-512): the 4-way kernel, not the hybrid X5HybridAvx2 (four AVX2 lanes
// plus one state in general registers), because neither the model nor the
// measurement puts the hybrid ahead (BENCHMARKS.md, "Round three: hybrid
// AVX2 + scalar Keccak", 2026-11-26). Cycles per permutation per state from
// `scripts/x86-mca.py` (llvm-mca 21 on the rustc 1.95 code): Zen 3 313 for
// the 4-way kernel against 399 for the hybrid (490 for 4 + 2 states), Alder
// Lake 370 against 443. Measured here (Xeon, Sapphire Rapids class, the
// `hybrid_speed` test, min of 21 alternating runs, three times): 98.7-100.1
// against 123.1-124.8 ns. Why: the 4-way round already issues 4.5
// instructions a cycle of Zen 3's 6, and the scalar round adds 198 (130
// operations, 68 moves, 59 of them spills: 25 state words do not fit 16
// general registers), so the hybrid is bound by the front end at 437 / 6 = 73 cycles
// a round for 5 states (14.6 a state) against 52.2 / 4 = 13.1 for the 4-way
// kernel. Revisit on a core with a wider front end.
/// The Keccak kernel of [`Backend::Avx2`].
const AVX2_KECCAK: KeccakKernel = KeccakKernel::X4Avx2;

/// The Keccak kernel of [`Backend::Neon`].
const NEON_KECCAK: KeccakKernel = KeccakKernel::X2Neon;
/// The Keccak kernel of [`Backend::Sha3`].
const SHA3_KECCAK: KeccakKernel = KeccakKernel::X2Sha3;

/// The Keccak kernel of the AArch64 backends (`sha3`: [`Backend::Sha3`]),
/// by the cores the program runs on (`midrs`: each core's `MIDR_EL1`).
///
/// Every core an Arm Neoverse-V1 or Cortex-X1: the plain-NEON hybrid. Its
/// llvm-mca Neoverse-V1 model is the fastest of the four kernels there (381
/// cycles per permutation per state, against 520 for the SHA-3 hybrid, 624
/// for the 2-way NEON and 780 for the 2-way SHA-3 kernel), and a hybrid
/// kernel is what the published Cortex-X1 figure ran (llvm-mca has no X1
/// model; the X1 is the V1's client sibling). Only when every core is one:
/// on a phone that pairs an X1 with smaller cores a thread may run anywhere,
/// and the small cores are not modelled. Anything else (Cortex-A72, Apple
/// M1, unknown cores, no MIDR to read) keeps the per-backend choice above.
fn arm_keccak(sha3: bool, mut midrs: impl Iterator<Item = u64>) -> KeccakKernel {
    // MIDR_EL1: implementer in bits 31:24 (0x41, Arm Ltd), part in 15:4.
    let v1_or_x1 = |m: u64| (m >> 24) & 0xff == 0x41 && matches!((m >> 4) & 0xfff, 0xd40 | 0xd44);
    let mut any = false;
    if midrs.all(|m| {
        any = true;
        v1_or_x1(m)
    }) && any
    {
        KeccakKernel::X3HybridNeon
    } else if sha3 {
        SHA3_KECCAK
    } else {
        NEON_KECCAK
    }
}

/// Every core's `MIDR_EL1` as Linux publishes it
/// (`/sys/devices/system/cpu/cpuN/regs/identification/midr_el1`), read once;
/// empty where there is none to read (other systems, no `std`, emulation on
/// a host that is not Arm, a core that is offline).
#[cfg(all(feature = "std", target_arch = "aarch64", target_os = "linux"))]
fn core_ids() -> &'static [u64] {
    static IDS: OnceLock<Vec<u64>> = OnceLock::new();
    IDS.get_or_init(|| {
        let Ok(dir) = std::fs::read_dir("/sys/devices/system/cpu") else {
            return Vec::new();
        };
        dir.filter_map(|e| {
            let e = e.ok()?;
            let name = e.file_name();
            let n = name.to_str()?.strip_prefix("cpu")?;
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let text =
                std::fs::read_to_string(e.path().join("regs/identification/midr_el1")).ok()?;
            u64::from_str_radix(text.trim().trim_start_matches("0x"), 16).ok()
        })
        .collect()
    })
}

#[cfg(not(all(feature = "std", target_arch = "aarch64", target_os = "linux")))]
fn core_ids() -> &'static [u64] {
    &[]
}

/// SHA-256 compression kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sha256Kernel {
    Scalar,
    X4ShaNi,
    X8Avx2,
    X16Avx512,
    /// [`Sha256Kernel::X16Avx512`] for groups of 9 calls or more, and
    /// SHA-NI ×4 (×2) for the smaller ones, where the 16-lane kernel's
    /// path would run the 8-lane AVX2 kernel. The default on Intel CPUs
    /// with both (see [`sha256_pick`]); chosen only where AVX-512 and SHA-NI
    /// were detected.
    X16Avx512ShaNi,
    /// The Armv8 SHA-2 extension, four interleaved streams.
    X4Armv8,
    /// WebAssembly SIMD128, one stream per 32-bit lane (pairs run the
    /// portable code). Chosen on wasm32 builds with SIMD128.
    #[allow(dead_code)] // constructed on wasm32 with SIMD128 only
    X4Simd128,
}

/// SHA-512 compression kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sha512Kernel {
    Scalar,
    X4Avx2,
    X8Avx512,
    /// The Armv8.2 SHA-512 extension, four interleaved streams.
    X4Armv8,
    /// WebAssembly SIMD128, one stream per 64-bit lane (two pairs per
    /// 4-lane group). Chosen on wasm32 builds with SIMD128.
    #[allow(dead_code)] // constructed on wasm32 with SIMD128 only
    X2Simd128,
}

/// Haraka kernels (the SPHINCS+ round-3.1 Haraka sets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HarakaKernel {
    /// `aes::hazmat` rounds, eight AES blocks per call (which use AES-NI
    /// themselves where the CPU has it, one call at a time).
    Portable,
    /// AES-NI, four Haraka-512 (eight Haraka-256) instances interleaved.
    X4AesNi,
    /// VAES on 512-bit vectors, sixteen instances interleaved.
    X16Vaes,
    /// The Armv8 AES instructions, four instances interleaved.
    X4Armv8,
}

/// ChaCha12 permutation kernels (SPHINCS-256).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChaChaKernel {
    /// One state at a time.
    Portable,
    /// AVX2, eight states side by side (twice per sixteen-lane batch).
    X8Avx2,
    /// AVX-512, sixteen states side by side.
    X16Avx512,
    /// NEON, four states side by side (four times per sixteen-lane batch).
    X4Neon,
}

/// The kernels one hash family uses. Only [`Kernels::current`] makes one, and
/// it checks the CPU first: holding a `Kernels` proves its kernels can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernels {
    pub(crate) keccak: KeccakKernel,
    pub(crate) sha256: Sha256Kernel,
    pub(crate) sha512: Sha512Kernel,
    pub(crate) haraka: HarakaKernel,
    pub(crate) chacha: ChaChaKernel,
}

impl Kernels {
    /// The portable kernels, always available.
    pub const SCALAR: Kernels = Kernels {
        keccak: KeccakKernel::Scalar,
        sha256: Sha256Kernel::Scalar,
        sha512: Sha512Kernel::Scalar,
        haraka: HarakaKernel::Portable,
        chacha: ChaChaKernel::Portable,
    };

    /// The kernels of a forced backend (the portable code where the backend
    /// has no kernel for a primitive), or `None` if this CPU cannot run it.
    fn forced(b: Backend) -> Option<Kernels> {
        if !b.is_available() {
            return None;
        }
        let mut k = Kernels::SCALAR;
        match b {
            Backend::Scalar => {}
            Backend::Avx2 => {
                k.keccak = AVX2_KECCAK;
                k.sha256 = Sha256Kernel::X8Avx2;
                k.sha512 = Sha512Kernel::X4Avx2;
                k.chacha = ChaChaKernel::X8Avx2;
                if has_aesni() {
                    k.haraka = HarakaKernel::X4AesNi;
                }
            }
            Backend::Avx512 => {
                k.keccak = KeccakKernel::X8Avx512;
                k.sha256 = Sha256Kernel::X16Avx512;
                k.sha512 = Sha512Kernel::X8Avx512;
                k.chacha = ChaChaKernel::X16Avx512;
                if has_vaes() {
                    k.haraka = HarakaKernel::X16Vaes;
                } else if has_aesni() {
                    k.haraka = HarakaKernel::X4AesNi;
                }
            }
            Backend::ShaNi => k.sha256 = Sha256Kernel::X4ShaNi,
            Backend::Neon | Backend::Sha3 => {
                k.keccak = arm_keccak(b == Backend::Sha3, core_ids().iter().copied());
                if has_arm_sha2() {
                    k.sha256 = Sha256Kernel::X4Armv8;
                }
                if b == Backend::Sha3 {
                    k.sha512 = Sha512Kernel::X4Armv8;
                }
                if has_arm_aes() {
                    k.haraka = HarakaKernel::X4Armv8;
                }
                k.chacha = ChaChaKernel::X4Neon;
            }
        }
        Some(k)
    }

    /// The fastest kernel of each primitive this CPU has (SHA-256: see
    /// [`sha256_pick`]; Haraka-512
    /// takes 2.2 ns per instance on VAES ×16, 10 on AES-NI ×4 and 85 in the
    /// portable code). The Haraka kernels need fewer features than the
    /// backends they belong to, so they are chosen on their own.
    fn best() -> Kernels {
        let mut k = Kernels::SCALAR;
        if Backend::Avx2.is_available() {
            k = Kernels::forced(Backend::Avx2).unwrap_or(k);
        }
        if Backend::Avx512.is_available() {
            k = Kernels::forced(Backend::Avx512).unwrap_or(k);
        }
        k.sha256 = sha256_pick(
            k.sha256,
            Backend::ShaNi.is_available(),
            Backend::Avx512.is_available() && is_intel(),
        );
        if Backend::Neon.is_available() {
            k = Kernels::forced(Backend::Neon).unwrap_or(k);
        }
        if Backend::Sha3.is_available() {
            k = Kernels::forced(Backend::Sha3).unwrap_or(k);
        }
        // WebAssembly SIMD128: compiled in or not, nothing to detect (an
        // engine without it refuses the whole module).
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            k.keccak = KeccakKernel::X2Simd128;
            k.sha256 = Sha256Kernel::X4Simd128;
            k.sha512 = Sha512Kernel::X2Simd128;
        }
        k.haraka = if has_vaes() {
            HarakaKernel::X16Vaes
        } else if has_aesni() {
            HarakaKernel::X4AesNi
        } else if has_arm_aes() {
            HarakaKernel::X4Armv8
        } else {
            HarakaKernel::Portable
        };
        k
    }

    /// What the calling thread should use now: its forced backend (see
    /// [`with_backend`]), else `SPHINCS_BACKEND`, else the best available.
    pub fn current() -> Kernels {
        if let Some(b) = forced_backend() {
            if let Some(k) = Kernels::forced(b) {
                return k;
            }
        }
        // Without `std` there is no environment and the choice is fixed at
        // compile time: nothing to remember.
        #[cfg(not(feature = "std"))]
        return Kernels::best();
        #[cfg(feature = "std")]
        *DEFAULT.get_or_init(|| {
            std::env::var("SPHINCS_BACKEND")
                .ok()
                .and_then(|v| Backend::from_name(&v))
                .and_then(Kernels::forced)
                .unwrap_or_else(Kernels::best)
        })
    }

    /// The kernels of `b` (tests; panics if this CPU lacks it).
    #[cfg(test)]
    pub(crate) fn forced_for_tests(b: Backend) -> Kernels {
        Kernels::forced(b).expect("backend available")
    }

    /// Names the ChaCha12 kernel (SPHINCS-256 runs on it).
    pub fn describe_chacha(self) -> &'static str {
        match self.chacha {
            ChaChaKernel::Portable => "chacha12-portable",
            ChaChaKernel::X8Avx2 => "chacha12-x8-avx2",
            ChaChaKernel::X16Avx512 => "chacha12-x16-avx512",
            ChaChaKernel::X4Neon => "chacha12-x4-neon",
        }
    }

    /// Names the Haraka kernel (the round-3.1 Haraka sets run on it alone).
    pub fn describe_haraka(self) -> &'static str {
        match self.haraka {
            HarakaKernel::Portable => "haraka-portable",
            HarakaKernel::X4AesNi => "haraka-x4-aesni",
            HarakaKernel::X16Vaes => "haraka-x16-vaes",
            HarakaKernel::X4Armv8 => "haraka-x4-armv8",
        }
    }

    /// Names the kernels a parameter set of the given hash family runs on:
    /// SHAKE, SHA-2 category 1 (SHA-256 only), or SHA-2 categories 3 and 5.
    #[cfg(feature = "alloc")]
    pub fn describe(self, sha2: bool, cat35: bool) -> String {
        let keccak = match self.keccak {
            KeccakKernel::Scalar if super::keccak::INTERLEAVED => "keccak-scalar-32bi",
            KeccakKernel::Scalar => "keccak-scalar",
            KeccakKernel::X4Avx2 => "keccak-x4-avx2",
            KeccakKernel::X8Avx512 => "keccak-x8-avx512",
            KeccakKernel::X2Neon => "keccak-x2-neon",
            KeccakKernel::X2Sha3 => "keccak-x2-sha3",
            KeccakKernel::X3HybridNeon => "keccak-x3-hybrid-neon",
            KeccakKernel::X3HybridSha3 => "keccak-x3-hybrid-sha3",
            KeccakKernel::X5HybridAvx2 => "keccak-x5-hybrid-avx2",
            KeccakKernel::X2Simd128 => "keccak-x2-simd128",
        };
        let s256 = match self.sha256 {
            Sha256Kernel::Scalar => "sha256-scalar",
            Sha256Kernel::X4ShaNi => "sha256-x4-shani",
            Sha256Kernel::X8Avx2 => "sha256-x8-avx2",
            Sha256Kernel::X16Avx512 => "sha256-x16-avx512",
            Sha256Kernel::X16Avx512ShaNi => "sha256-x16-avx512/x4-shani",
            Sha256Kernel::X4Armv8 => "sha256-x4-armv8",
            Sha256Kernel::X4Simd128 => "sha256-x4-simd128",
        };
        let s512 = match self.sha512 {
            Sha512Kernel::Scalar => "sha512-scalar",
            Sha512Kernel::X4Avx2 => "sha512-x4-avx2",
            Sha512Kernel::X8Avx512 => "sha512-x8-avx512",
            Sha512Kernel::X4Armv8 => "sha512-x4-armv8",
            Sha512Kernel::X2Simd128 => "sha512-x2-simd128",
        };
        match (sha2, cat35) {
            (false, _) => keccak.to_string(),
            (true, false) => s256.to_string(),
            (true, true) => format!("{s256}+{s512}"),
        }
    }
}

/// The default SHA-256 kernel, given the one the vector backends chose
/// (`vector`), whether the CPU has SHA-NI, and whether it is an Intel core
/// with AVX-512. Four SHA-NI streams, unless the CPU has AVX-512 on Intel:
///
/// - On Zen 4 (AVX-512 on 256-bit halves; `sha256rnds2` fast) four SHA-NI
///   streams beat sixteen AVX-512 lanes inside the scheme: SHA2-128f
///   signing 2.8 ms against 4.6 ms (2026-11-22, BENCHMARKS.md).
/// - On a Sapphire Rapids-class Xeon (full 512-bit units; `sha256rnds2`
///   one per 3 cycles) it is the other way round: the ×16 kernel takes
///   17.1 ns a block per lane against 27.4 for SHA-NI ×4, and inside the
///   scheme SHA2-128f signs in 0.73× the time, keygen 0.70×, verification
///   0.85×; SHA2-128s likewise (2026-11-26, `sphincs bench --backend
///   avx512` against `--backend sha-ni`, alternating).
///
/// Other vendors' AVX-512 cores are unmeasured and keep SHA-NI.
///
/// On Intel the groups of 2–8 calls go to SHA-NI where the CPU has it
/// ([`Sha256Kernel::X16Avx512ShaNi`]): on the 16-lane kernel's own path
/// they would run the 8-lane AVX2 kernel, and SHA2-128-24's verification,
/// mostly such groups, took 17.5 µs there against 14.7 µs on SHA-NI.
fn sha256_pick(vector: Sha256Kernel, sha_ni: bool, intel_avx512: bool) -> Sha256Kernel {
    if intel_avx512 && vector == Sha256Kernel::X16Avx512 {
        if sha_ni {
            Sha256Kernel::X16Avx512ShaNi
        } else {
            Sha256Kernel::X16Avx512
        }
    } else if sha_ni {
        Sha256Kernel::X4ShaNi
    } else {
        vector
    }
}

/// Whether the CPU's vendor string is Intel's ("GenuineIntel").
fn is_intel() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: CPUID leaf 0 exists on every x86-64 CPU and only reads
        // identification registers.
        #[allow(unused_unsafe)]
        let id = unsafe { core::arch::x86_64::__cpuid(0) };
        (id.ebx, id.edx, id.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AES-NI, with the AVX encoding the Haraka AES-NI kernel is compiled for.
fn has_aesni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        x86_has!("aes", "avx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The Armv8 SHA-2 extension (SHA-256).
fn has_arm_sha2() -> bool {
    #[cfg(target_arch = "aarch64")]
    {
        arm_has!("sha2")
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        false
    }
}

/// The Armv8 AES instructions (`aese`, `aesmc`).
fn has_arm_aes() -> bool {
    #[cfg(target_arch = "aarch64")]
    {
        arm_has!("aes")
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        false
    }
}

/// VAES on 512-bit vectors (AVX-512F).
fn has_vaes() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        x86_has!("vaes", "avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(feature = "std")]
thread_local! {
    static FORCED: Cell<Option<Backend>> = const { Cell::new(None) };
}

#[cfg(feature = "std")]
static DEFAULT: OnceLock<Kernels> = OnceLock::new();

/// The backend forced on this thread by [`with_backend`], if any (threads a
/// batch spawns force the same one).
#[cfg(feature = "std")]
pub(crate) fn forced_backend() -> Option<Backend> {
    FORCED.with(Cell::get)
}

/// Forces `b` on this thread; returns what was forced before.
#[cfg(feature = "std")]
fn replace_forced(b: Option<Backend>) -> Option<Backend> {
    FORCED.with(|c| c.replace(b))
}

/// Without `std` there are no threads of ours: the forced backend is the
/// program's, kept as 0 (none) or 1 + its index in [`Backend::ALL`].
#[cfg(not(feature = "std"))]
static FORCED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

#[cfg(not(feature = "std"))]
pub(crate) fn forced_backend() -> Option<Backend> {
    let i = FORCED.load(core::sync::atomic::Ordering::Relaxed) as usize;
    i.checked_sub(1).map(|i| Backend::ALL[i])
}

#[cfg(not(feature = "std"))]
fn replace_forced(b: Option<Backend>) -> Option<Backend> {
    let code = b.map_or(0, |b| {
        1 + Backend::ALL.iter().position(|&x| x == b).unwrap_or(0) as u8
    });
    let old = FORCED.swap(code, core::sync::atomic::Ordering::Relaxed) as usize;
    old.checked_sub(1).map(|i| Backend::ALL[i])
}

/// The backend asked of [`with_backend`] needs CPU features this machine
/// lacks; carries its name. (The crate's `Error` is built from it one layer up,
/// so the hash layer needs nothing above it.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unavailable(pub &'static str);

/// Runs `f` with every key bound on this thread using `backend`'s kernels
/// (threads that a signature spawns inherit them). Fails if the CPU lacks it.
pub fn with_backend<R>(backend: Backend, f: impl FnOnce() -> R) -> Result<R, Unavailable> {
    if !backend.is_available() {
        return Err(Unavailable(backend.name()));
    }
    struct Restore(Option<Backend>);
    impl Drop for Restore {
        fn drop(&mut self) {
            replace_forced(self.0);
        }
    }
    let _restore = Restore(replace_forced(Some(backend)));
    Ok(f())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default SHA-256 kernel: SHA-NI unless Intel with AVX-512.
    #[test]
    fn sha256_pick_by_cpu() {
        use Sha256Kernel::*;
        assert_eq!(
            sha256_pick(X16Avx512, true, true),
            X16Avx512ShaNi,
            "Intel AVX-512 with SHA-NI"
        );
        assert_eq!(sha256_pick(X16Avx512, false, true), X16Avx512);
        assert_eq!(sha256_pick(X16Avx512, true, false), X4ShaNi, "Zen 4");
        assert_eq!(sha256_pick(X8Avx2, true, false), X4ShaNi, "Zen 3");
        assert_eq!(sha256_pick(X8Avx2, false, false), X8Avx2, "AVX2 alone");
        assert_eq!(sha256_pick(Scalar, false, false), Scalar);
        // `is_intel` reads this CPU: consistent with /proc/cpuinfo on Linux.
        #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
        if let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") {
            assert_eq!(is_intel(), info.contains("GenuineIntel"));
        }
    }

    /// The AArch64 Keccak pick by core, on every host (it is a pure function
    /// of the MIDR values; which kernels can run is checked elsewhere).
    #[test]
    fn arm_keccak_by_core() {
        const V1: u64 = 0x410f_d401;
        const X1: u64 = 0x411f_d441;
        const A72: u64 = 0x410f_d083;
        const A55: u64 = 0x412f_d050;
        const M1: u64 = 0x611f_0221;
        for sha3 in [false, true] {
            let default = if sha3 { SHA3_KECCAK } else { NEON_KECCAK };
            let pick = |ids: &[u64]| arm_keccak(sha3, ids.iter().copied());
            assert_eq!(pick(&[V1; 64]), KeccakKernel::X3HybridNeon);
            assert_eq!(pick(&[X1, X1]), KeccakKernel::X3HybridNeon);
            assert_eq!(pick(&[X1, A55, A55]), default, "a mixed system");
            assert_eq!(pick(&[A72; 4]), default);
            assert_eq!(pick(&[M1]), default, "Apple's implementer code");
            assert_eq!(pick(&[]), default, "nothing to read");
        }
        assert_eq!(NEON_KECCAK, KeccakKernel::X2Neon);
        assert_eq!(SHA3_KECCAK, KeccakKernel::X2Sha3);
    }

    /// The AVX2 backend runs the kernel its comment argues for (the hybrid
    /// lost both the model and the measurement), on every host.
    #[test]
    fn avx2_keccak_is_the_4_way_kernel() {
        assert_eq!(AVX2_KECCAK, KeccakKernel::X4Avx2);
        if Backend::Avx2.is_available() {
            let k = Kernels::forced_for_tests(Backend::Avx2);
            assert_eq!(k.keccak, KeccakKernel::X4Avx2);
        }
    }
}
