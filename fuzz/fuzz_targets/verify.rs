//! Verification of arbitrary public keys, signatures, messages and contexts,
//! for every parameter set, through the FIPS 205 functions and the dynamic
//! API. It must never panic, and the two APIs must agree.
//!
//! Input: `[set] [mode] [ctx_len] pk (2n bytes) ctx (ctx_len bytes)
//! msg_len (u16 BE) msg sig (the rest)`. `set` picks one of the twelve sets
//! (mod 12); `mode % 3` is pure / pre-hash (hash `(mode >> 2) % 12`) /
//! internal; bit 7 of `mode` adds 256 to `ctx_len` to reach oversize contexts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sphincs::{
    hash_slh_verify, slh_verify, slh_verify_internal, Algorithm, DynVerifyingKey, ParameterSet,
    PreHash, VerifyingKey,
};

enum Mode {
    Pure,
    PreHash(PreHash),
    Internal,
}

/// The FIPS 205 function of `mode`, for set `P`.
fn typed<P: ParameterSet>(pk: &[u8], mode: &Mode, ctx: &[u8], msg: &[u8], sig: &[u8]) -> bool {
    let vk = VerifyingKey::<P>::from_bytes(pk).expect("pk has the set's length");
    match mode {
        Mode::Pure => slh_verify::<P>(msg, sig, ctx, &vk),
        Mode::PreHash(ph) => hash_slh_verify::<P>(msg, sig, ctx, *ph, &vk),
        Mode::Internal => slh_verify_internal::<P>(msg, sig, &vk),
    }
}

fn typed_dispatch(
    alg: Algorithm,
    pk: &[u8],
    mode: &Mode,
    ctx: &[u8],
    msg: &[u8],
    sig: &[u8],
) -> bool {
    // The core's one dispatch from the runtime set to its type.
    sphincs::with_parameter_set!(alg, P => typed::<P>(pk, mode, ctx, msg, sig), else => panic!("{alg} is not compiled in"))
}

/// Splits off the first `n` bytes, if there are that many.
fn take<'a>(data: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if data.len() < n {
        return None;
    }
    let (head, tail) = data.split_at(n);
    *data = tail;
    Some(head)
}

fn run(mut data: &[u8]) -> Option<()> {
    let head = take(&mut data, 3)?;
    let alg = Algorithm::ALL[usize::from(head[0]) % 12];
    let mode = match head[1] % 3 {
        0 => Mode::Pure,
        1 => Mode::PreHash(PreHash::ALL[usize::from(head[1] >> 2) % 12]),
        _ => Mode::Internal,
    };
    let ctx_len = usize::from(head[2]) + if head[1] & 0x80 != 0 { 256 } else { 0 };
    let pk = take(&mut data, alg.public_key_len())?;
    let ctx = take(&mut data, ctx_len)?;
    let msg_len = take(&mut data, 2)?;
    let msg = take(
        &mut data,
        usize::from(u16::from_be_bytes([msg_len[0], msg_len[1]])),
    )?;
    let sig = data;

    let dynamic_key = DynVerifyingKey::from_bytes(alg, pk).expect("pk has the set's length");
    let dynamic = match mode {
        Mode::Pure => dynamic_key.verify(msg, sig, ctx, None).is_ok(),
        Mode::PreHash(ph) => dynamic_key.verify(msg, sig, ctx, Some(ph)).is_ok(),
        Mode::Internal => dynamic_key.verify_internal(msg, sig),
    };
    let raw = typed_dispatch(alg, pk, &mode, ctx, msg, sig);
    assert_eq!(raw, dynamic, "typed and dynamic verification disagree");
    if raw {
        // A valid signature has the set's length, and an oversize context never verifies.
        assert_eq!(sig.len(), alg.signature_len());
        assert!(matches!(mode, Mode::Internal) || ctx.len() <= 255);
    }
    Some(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});
