//! Constant-time check under valgrind memcheck ("secret poisoning").
//!
//! SK.seed, SK.prf and addrnd are marked *undefined* with memcheck's client
//! requests. Memcheck then tracks every value computed from them and reports
//! any conditional branch, memory index or system call argument that depends on
//! one: exactly the secret-dependent control flow and memory access a
//! constant-time implementation must not have. Values that are public by
//! construction are marked defined again ("declassified"): inside the library
//! through `sphincs::ct_check` (R, PK_FORS, the XMSS roots of the hypertree,
//! PK.root, whether a loaded key's PK.root matches; for SPHINCS-256 the leaf
//! index, R1, the subtree roots and PK1), and here the outputs (signature,
//! public key).
//!
//! Run it as `.ci/ct-valgrind.sh` does:
//! `valgrind --error-exitcode=1 --track-origins=yes target/release/ct-valgrind [--s-keygen-only]`.
//! Outside valgrind the client requests do nothing and it refuses to run
//! unless given `--native` (a quick functional check of the program itself).
//! Arguments that do not start with `--` select sets by name (`SHA2-128f`).
//! `--no-declassify` is the negative control: it must fail.

use std::process::ExitCode;
use std::time::Instant;

use sphincs::sphincs256::{Sphincs256SigningKey, Sphincs256VerifyingKey};
use sphincs::sphincsplus::{SpxAlgorithm, SpxSignOptions, SpxSigningKey, SpxVerifyingKey};
use sphincs::{
    slh_keygen_internal, slh_sign, slh_verify, Algorithm, ParameterSet, Randomness, SigningKey,
};

/// Valgrind client requests on amd64 Linux, issued with the documented magic
/// instruction sequence of `valgrind.h` (`VALGRIND_DO_CLIENT_REQUEST_EXPR`).
/// Natively the sequence does nothing and every request returns its default.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod vg {
    use core::arch::asm;

    /// `VG_USERREQ__RUNNING_ON_VALGRIND` (valgrind.h).
    const RUNNING_ON_VALGRIND: u64 = 0x1001;
    /// `VG_USERREQ__COUNT_ERRORS` (valgrind.h).
    const COUNT_ERRORS: u64 = 0x1201;
    /// `VG_USERREQ_TOOL_BASE('M', 'C')`: memcheck's requests (memcheck.h).
    const MC_BASE: u64 = ((b'M' as u64) << 24) | ((b'C' as u64) << 16);
    const MAKE_MEM_UNDEFINED: u64 = MC_BASE + 1;
    const MAKE_MEM_DEFINED: u64 = MC_BASE + 2;
    const GET_VBITS: u64 = MC_BASE + 8;

    /// One client request: `args = [request, a1, a2, a3, 0, 0]`, the result
    /// (or `default` when not under valgrind).
    fn request(default: u64, req: u64, a1: u64, a2: u64, a3: u64) -> u64 {
        let args: [u64; 6] = [req, a1, a2, a3, 0, 0];
        let result: u64;
        // SAFETY: the four rotations of rdi add up to 128 bits, so natively
        // they leave rdi as it was (we also declare it clobbered), and
        // `xchg rbx, rbx` changes nothing; only flags change, which Rust's asm
        // assumes by default. Under valgrind the sequence is the client
        // request: it reads the six words at rax (a live local array) and
        // writes the result to rdx. The requests used here only change
        // memcheck's shadow state or, for GET_VBITS, write `len` bytes to a
        // buffer the caller passes as a valid `&mut [u8]` of that length. The
        // asm may read memory (the default), so `args` is written before it.
        unsafe {
            asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                in("rax") args.as_ptr(),
                inout("rdx") default => result,
                inout("rdi") 0u64 => _,
                options(nostack),
            );
        }
        result
    }

    /// Whether the program runs under valgrind.
    pub fn running() -> bool {
        request(0, RUNNING_ON_VALGRIND, 0, 0, 0) != 0
    }

    /// Errors valgrind has reported so far.
    pub fn errors() -> u64 {
        request(0, COUNT_ERRORS, 0, 0, 0)
    }

    /// `VALGRIND_MAKE_MEM_UNDEFINED`: from here on `x` counts as secret.
    pub fn poison(x: &[u8]) {
        request(0, MAKE_MEM_UNDEFINED, x.as_ptr() as u64, x.len() as u64, 0);
    }

    /// `VALGRIND_MAKE_MEM_DEFINED`: `x` is public from here on.
    pub fn declassify(x: &mut [u8]) {
        request(0, MAKE_MEM_DEFINED, x.as_ptr() as u64, x.len() as u64, 0);
    }

    /// How many bytes of `x` memcheck holds (partly) undefined, via
    /// `VALGRIND_GET_VBITS`; `None` when not under valgrind.
    pub fn undefined_bytes(x: &[u8]) -> Option<usize> {
        let mut vbits = vec![0u8; x.len()];
        let r = request(
            0,
            GET_VBITS,
            x.as_ptr() as u64,
            vbits.as_mut_ptr() as u64,
            x.len() as u64,
        );
        (r == 1).then(|| vbits.iter().filter(|&&v| v != 0).count())
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
compile_error!("ct-valgrind issues valgrind client requests for amd64 Linux only");

/// Deterministic filler: the check is about which bytes are secret, not their values.
fn bytes(n: usize, tag: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(167).wrapping_add(tag))
        .collect()
}

struct Plan {
    /// Sign with the s sets too (slow under valgrind), or only generate their keys.
    s_sign: bool,
    /// Install the library's declassification hook. Off (`--no-declassify`)
    /// is the negative control: memcheck must then report the branches on the
    /// message digest and the WOTS+ digits, which are secret until declassified.
    declassify: bool,
}

/// What was checked for one set: operation names and seconds.
type Timings = Vec<(&'static str, f64)>;

fn check<P: ParameterSet>(plan: &Plan) -> Timings {
    let p = P::PARAMS;
    let n = p.n;
    let mut times = Vec::new();
    let mut timed = |what: &'static str, start: Instant| {
        times.push((what, start.elapsed().as_secs_f64()));
    };

    // Secret inputs, poisoned before first use.
    let sk_seed = bytes(n, 1);
    let sk_prf = bytes(n, 2);
    let addrnd = bytes(n, 3);
    for secret in [&sk_seed, &sk_prf, &addrnd] {
        vg::poison(secret);
    }
    // Public inputs.
    let pk_seed = bytes(n, 4);
    let msg = b"constant-time check message";
    let ctx = b"ct-valgrind";

    let t = Instant::now();
    let sk = slh_keygen_internal::<P>(&sk_seed, &sk_prf, &pk_seed).expect("keygen");
    timed("keygen", t);
    // The library declassified PK.root (the public key) where it computed it.
    let mut pk = sk.verifying_key().to_bytes();
    if plan.declassify {
        assert_eq!(vg::undefined_bytes(&pk).unwrap_or(0), 0, "PK is public");
    }
    // The secret half of the key stays secret: the poisoning reached it.
    let sk_bytes = sk.to_bytes();
    if let Some(u) = vg::undefined_bytes(&sk_bytes[..2 * n]) {
        assert_eq!(u, 2 * n, "SK.seed and SK.prf should be undefined");
    }
    vg::declassify(&mut pk);

    // The "s" (small, slow) sets: SLH-DSA-SHA2-128s ends in 's'.
    if !plan.s_sign && P::ALGORITHM.name().ends_with('s') {
        return times;
    }

    let t = Instant::now();
    let loaded = SigningKey::<P>::from_bytes(&sk_bytes).expect("load with PK.root check");
    timed("load", t);

    for (what, rnd) in [("sign-det", None), ("sign-hedged", Some(&addrnd[..]))] {
        let t = Instant::now();
        let sig = slh_sign::<P>(msg, ctx, &loaded, rnd).expect("sign");
        timed(what, t);
        let mut sig = sig.to_vec();
        // Check the harness is not vacuous: R (declassified in the library) is
        // defined, and the rest of the signature carries the secret's taint.
        if let Some(u) = vg::undefined_bytes(&sig[..n]).filter(|_| plan.declassify) {
            assert_eq!(u, 0, "R is public");
            assert!(vg::undefined_bytes(&sig[n..]).unwrap() > 0, "taint lost");
        }
        // Public: the signature is the output.
        vg::declassify(&mut sig);
        let vk = sphincs::VerifyingKey::<P>::from_bytes(&pk).expect("pk");
        assert!(slh_verify::<P>(msg, &sig, ctx, &vk), "signature verifies");
    }
    times
}

/// The round-3.1 sets checked: each hash family's robust variant (bitmasks on
/// top of the simple hash) and Haraka simple, the f size (fast under valgrind).
const SPX_SETS: [&str; 4] = [
    "sphincs-sha2-128f-robust",
    "sphincs-shake-128f-robust",
    "sphincs-haraka-128f-robust",
    "sphincs-haraka-128f-simple",
];

/// The same checks for a SPHINCS+ round-3.1 set, through its API.
fn check_spx(alg: SpxAlgorithm, plan: &Plan) -> Timings {
    let n = alg.params().n;
    let mut times = Vec::new();
    // SK.seed ‖ SK.prf secret, PK.seed public; addrnd secret.
    let seed = bytes(3 * n, 1);
    vg::poison(&seed[..2 * n]);
    let addrnd = bytes(n, 3);
    vg::poison(&addrnd);
    let msg = b"constant-time check message";

    let t = Instant::now();
    let sk = SpxSigningKey::from_seed(alg, &seed).expect("keygen");
    times.push(("keygen", t.elapsed().as_secs_f64()));
    let mut pk = sk.verifying_key().to_bytes();
    if plan.declassify {
        assert_eq!(vg::undefined_bytes(&pk).unwrap_or(0), 0, "PK is public");
    }
    vg::declassify(&mut pk);
    let sk_bytes = sk.to_bytes();
    let t = Instant::now();
    let loaded = SpxSigningKey::from_bytes(alg, &sk_bytes).expect("load with PK.root check");
    times.push(("load", t.elapsed().as_secs_f64()));
    let vk = SpxVerifyingKey::from_bytes(alg, &pk).expect("pk");
    for (what, randomness) in [
        ("sign-det", Randomness::Deterministic),
        ("sign-hedged", Randomness::Given(&addrnd)),
    ] {
        let opts = SpxSignOptions {
            randomness,
            threads: 1,
            fault_hardened: false,
        };
        let t = Instant::now();
        let mut sig = loaded.sign(msg, &opts).expect("sign");
        times.push((what, t.elapsed().as_secs_f64()));
        if let Some(u) = vg::undefined_bytes(&sig[..n]).filter(|_| plan.declassify) {
            assert_eq!(u, 0, "R is public");
            assert!(vg::undefined_bytes(&sig[n..]).unwrap() > 0, "taint lost");
        }
        vg::declassify(&mut sig);
        vk.verify(msg, &sig).expect("signature verifies");
    }
    times
}

/// The name SPHINCS-256 is selected by on the command line.
const S256: &str = "sphincs-256";

/// The same checks for SPHINCS-256: SK1 (the seed of every WOTS+ and HORST
/// key) and SK2 (the message PRF key) secret, the masks Q public. It signs
/// deterministically only, as the reference does.
fn check_s256(plan: &Plan) -> Timings {
    use sphincs::sphincs256::params::{MASKS, N, SK_BYTES};
    let mut times = Vec::new();
    let sk_bytes: Vec<u8> = (0..SK_BYTES).map(|i| (i * 7 + 1) as u8).collect();
    vg::poison(&sk_bytes[..N]);
    vg::poison(&sk_bytes[N + MASKS * N..]);
    let msg = b"constant-time check message";

    let t = Instant::now();
    let sk = Sphincs256SigningKey::from_bytes(&sk_bytes).expect("keygen");
    times.push(("keygen", t.elapsed().as_secs_f64()));
    let mut pk = sk.verifying_key().to_bytes();
    if plan.declassify {
        assert_eq!(vg::undefined_bytes(&pk).unwrap_or(0), 0, "PK is public");
    }
    vg::declassify(&mut pk);
    let vk = Sphincs256VerifyingKey::from_bytes(&pk).expect("pk");

    let t = Instant::now();
    let mut sig = sk.sign(msg);
    times.push(("sign-det", t.elapsed().as_secs_f64()));
    // R1 and the leaf index are declassified in the library; the rest carries
    // the secret's taint (the harness is not vacuous).
    if let Some(u) = vg::undefined_bytes(&sig[..N + 8]).filter(|_| plan.declassify) {
        assert_eq!(u, 0, "R1 and the index are public");
        assert!(
            vg::undefined_bytes(&sig[N + 8..]).unwrap() > 0,
            "taint lost"
        );
    }
    vg::declassify(&mut sig);
    vk.verify(msg, &sig).expect("signature verifies");
    times
}

fn run(alg: Algorithm, plan: &Plan) -> Timings {
    // The core's one dispatch from the runtime set to its type.
    sphincs::with_parameter_set!(alg, P => check::<P>(plan), else => panic!("{alg} is not compiled in"))
}

fn report(backend: sphincs::Backend, name: &str, times: &Timings) {
    let list: Vec<String> = times.iter().map(|(w, s)| format!("{w} {s:.1}s")).collect();
    println!(
        "{backend} {name}: {} (valgrind errors so far: {})",
        list.join(", "),
        vg::errors()
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let native = args.iter().any(|a| a == "--native");
    let plan = Plan {
        s_sign: !args.iter().any(|a| a == "--s-keygen-only"),
        declassify: !args.iter().any(|a| a == "--no-declassify"),
    };
    let only: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if !vg::running() && !native {
        eprintln!("ct-valgrind: not running under valgrind (use .ci/ct-valgrind.sh, or --native)");
        return ExitCode::from(2);
    }
    if plan.declassify {
        assert!(
            sphincs::ct_check::set_declassify_hook(vg::declassify),
            "hook set once"
        );
    }
    let total = Instant::now();
    // Every backend this CPU has, as valgrind presents it: valgrind 3.19
    // hides AVX-512, so those kernels cannot be checked here.
    for backend in sphincs::Backend::available() {
        for alg in Algorithm::ALL {
            if !only.is_empty() && !only.iter().any(|o| alg.name().contains(o.as_str())) {
                continue;
            }
            let times = sphincs::with_backend(backend, || run(alg, &plan)).expect("available");
            report(backend, alg.name(), &times);
        }
        for name in SPX_SETS {
            if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
                continue;
            }
            let alg: SpxAlgorithm = name.parse().expect("a round-3.1 set");
            let times =
                sphincs::with_backend(backend, || check_spx(alg, &plan)).expect("available");
            report(backend, name, &times);
        }
        if only.is_empty() || only.iter().any(|o| S256.contains(o.as_str())) {
            let times = sphincs::with_backend(backend, || check_s256(&plan)).expect("available");
            report(backend, S256, &times);
        }
    }
    println!(
        "ct-valgrind: done in {:.0}s, {} valgrind errors",
        total.elapsed().as_secs_f64(),
        vg::errors()
    );
    ExitCode::SUCCESS
}
