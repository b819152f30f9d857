//! Per-call costs of the kernels a backend uses, measured on this CPU at run
//! time: `sphincs bench --calls` multiplies them by each operation's call
//! counts for the floors it prints, so a floor a user sees is a measurement
//! of the machine in front of them, not a constant from another one.
//!
//! Each cost is per lane with the lanes full: 256 one-block hashes go
//! through the same lane driver the engine calls (so gathering the inputs
//! into lanes and the digests out is part of it, as in every hash call),
//! and the fastest of several runs counts, as the least disturbed by other
//! work on the machine.

use std::time::Instant;

use super::lanes::{sha256_many, sha512_many, shake256_many};
use super::select::Kernels;
use super::sha2::{IV256, IV512};
use crate::hash::common::Node;

/// Measured nanoseconds per primitive call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallCosts {
    /// One Keccak-f\[1600\] permutation (a one-block SHAKE256 call).
    pub keccak_ns: f64,
    /// One SHA-256 compression (a one-block call after the PK.seed block).
    pub sha256_ns: f64,
    /// One SHA-512 compression (likewise).
    pub sha512_ns: f64,
}

/// Calls per timed batch: a multiple of every kernel's width.
const CALLS: usize = 256;

/// The fastest per-call time of `f` (which makes [`CALLS`] calls), in ns,
/// over `runs` runs of enough batches to last about a millisecond each.
fn fastest(runs: usize, mut f: impl FnMut()) -> f64 {
    f(); // warm caches and the frequency
    let start = Instant::now();
    f();
    let once = start.elapsed().as_nanos().max(1) as f64;
    let batches = (1.0e6 / once).ceil().max(1.0) as usize;
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batches {
                f();
            }
            start.elapsed().as_nanos() as f64 / (batches * CALLS) as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Measures the three costs with `kernels` (e.g. [`Kernels::current`]);
/// `runs` runs of about a millisecond each per primitive (20 give a stable
/// figure in about 0.1 s).
pub fn measure_call_costs(kernels: Kernels, runs: usize) -> CallCosts {
    let runs = runs.max(1);
    // Inputs that fill one block after padding: 100 bytes of SHAKE256
    // (rate 136), 40 bytes after SHA-256's seed block, 100 after SHA-512's.
    let data = [0x5au8; 100];
    let one = |len: usize| -> [&[u8]; 1] { [&data[..len]] };
    let (shake, s256, s512) = ([one(100); CALLS], [one(40); CALLS], [one(100); CALLS]);
    let shake: Vec<&[&[u8]]> = shake.iter().map(|p| &p[..]).collect();
    let s256: Vec<&[&[u8]]> = s256.iter().map(|p| &p[..]).collect();
    let s512: Vec<&[&[u8]]> = s512.iter().map(|p| &p[..]).collect();
    let mut outs = vec![Node::default(); CALLS];
    let keccak_ns = fastest(runs, || {
        shake256_many(kernels.keccak, &shake, 16, &mut outs);
        std::hint::black_box(&mut outs);
    });
    let sha256_ns = fastest(runs, || {
        sha256_many(kernels.sha256, &IV256, &s256, 16, &mut outs);
        std::hint::black_box(&mut outs);
    });
    let sha512_ns = fastest(runs, || {
        sha512_many(kernels.sha512, &IV512, &s512, 32, &mut outs);
        std::hint::black_box(&mut outs);
    });
    CallCosts {
        keccak_ns,
        sha256_ns,
        sha512_ns,
    }
}
