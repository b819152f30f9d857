//! Signing allocates exactly the signature; verifying allocates nothing.
//! A counting global allocator watches the calling thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use sphincs::{
    hash_slh_sign, hash_slh_verify, slh_sign, slh_verify, Algorithm, DynSigningKey, PreHash,
    Randomness, SignOptions, SigningKey,
};

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCS.with(Cell::get);
    let r = f();
    (ALLOCS.with(Cell::get) - before, r)
}

macro_rules! check_set {
    ($P:ty) => {{
        let sk = SigningKey::<$P>::from_seeds(
            &[1; 32][..<$P as sphincs::Instance>::PARAMS.n],
            &[2; 32][..<$P as sphincs::Instance>::PARAMS.n],
            &[3; 32][..<$P as sphincs::Instance>::PARAMS.n],
        )
        .unwrap();
        let vk = sk.verifying_key();
        let (n, sig) = allocations(|| slh_sign(b"msg", b"ctx", &sk, None).unwrap());
        assert_eq!(
            n,
            1,
            "{}: pure signing allocates only the signature",
            stringify!($P)
        );
        let (n, ok) = allocations(|| slh_verify(b"msg", sig.as_bytes(), b"ctx", &vk));
        assert!(ok);
        assert_eq!(n, 0, "{}: verification allocates nothing", stringify!($P));
        let (n, sig) =
            allocations(|| hash_slh_sign(b"msg", b"", PreHash::Sha3_512, &sk, None).unwrap());
        assert_eq!(
            n,
            1,
            "{}: pre-hash signing allocates only the signature",
            stringify!($P)
        );
        let (n, ok) =
            allocations(|| hash_slh_verify(b"msg", sig.as_bytes(), b"", PreHash::Sha3_512, &vk));
        assert!(ok);
        assert_eq!(n, 0, "{}", stringify!($P));
    }};
}

#[test]
fn typed_paths_allocate_only_the_signature() {
    check_set!(sphincs::Sha2_128f);
    check_set!(sphincs::Sha2_192f);
    check_set!(sphincs::Shake256f);
}

#[test]
fn dynamic_paths_allocate_only_the_signature() {
    for alg in [Algorithm::Sha2_256f, Algorithm::Shake128f] {
        let sk = DynSigningKey::generate(alg).unwrap();
        let vk = sk.verifying_key();
        let opts = SignOptions {
            randomness: Randomness::Hedged,
            ..Default::default()
        };
        let (n, sig) = allocations(|| sk.sign(b"m", &opts).unwrap());
        assert_eq!(n, 1, "{alg}");
        // Fault-hardened signing: one more buffer, for the second computation.
        let hardened = SignOptions {
            fault_hardened: true,
            ..opts
        };
        let (n, _) = allocations(|| sk.sign(b"m", &hardened).unwrap());
        assert_eq!(n, 2, "{alg}: hardened");
        let (n, r) = allocations(|| vk.verify(b"m", &sig, b"", None));
        r.unwrap();
        assert_eq!(n, 0, "{alg}");
    }
}

#[test]
fn round31_paths_allocate_only_the_signature() {
    use sphincs::sphincsplus::{SpxAlgorithm, SpxSignOptions, SpxSigningKey};
    for name in [
        "sphincs-shake-128f-robust",
        "sphincs-sha2-192f-robust",
        "sphincs-haraka-128f-simple",
        "sphincs-haraka-256f-robust",
    ] {
        let alg: SpxAlgorithm = name.parse().unwrap();
        let sk = SpxSigningKey::generate(alg).unwrap();
        let vk = sk.verifying_key();
        let (n, sig) = allocations(|| sk.sign(b"m", &SpxSignOptions::default()).unwrap());
        assert_eq!(n, 1, "{alg}: signing allocates only the signature");
        let (n, r) = allocations(|| vk.verify(b"m", &sig));
        r.unwrap();
        assert_eq!(n, 0, "{alg}: verification allocates nothing");
    }
}
