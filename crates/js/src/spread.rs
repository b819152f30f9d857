//! One signature spread over several Web Workers (`signAsync` with
//! `{ workers: N }`): the plan (R and the digest) on the calling thread, the
//! trees in the workers, the join on the calling thread. The split is the
//! core's (`AnySigningKey::sign_plan`, `sign_task`, `sign_finish`); the
//! signature is the one `slhjs_sign` makes.

use alloc::vec::Vec;
use sphincs_core::any::AnySigningKey;
use sphincs_core::Error;

use crate::calls::{algorithm, options, prehash};
use crate::kernels::run;
use crate::memory::{answer, arg};

/// The plan of a signature, with [`crate::slhjs_sign`]'s arguments: the
/// number of tree tasks (u32 LE), then the plan the tasks take.
#[no_mangle]
pub unsafe extern "C" fn slhjs_sign_plan(
    id: u32,
    sk: *const u8,
    sk_len: usize,
    msg: *const u8,
    msg_len: usize,
    context: *const u8,
    context_len: usize,
    oid: *const u8,
    oid_len: usize,
    rnd: *const u8,
    rnd_len: usize,
) -> *mut u8 {
    // SAFETY: argument buffers of the glue (`memory::arg`).
    let (sk, msg, context, oid, rnd) = unsafe {
        (
            arg(sk, sk_len),
            arg(msg, msg_len),
            arg(context, context_len),
            arg(oid, oid_len),
            arg(rnd, rnd_len),
        )
    };
    answer(run(|| {
        let key = AnySigningKey::from_bytes_unchecked(algorithm(id)?, sk)?;
        let plan = key.sign_plan(msg, &options(context, prehash(oid)?, rnd))?;
        let count = key.sign_task_count() as u32;
        Ok([&count.to_le_bytes()[..], &plan].concat())
    }))
}

/// Task `task` of a plan: a tree's part of the signature and its root.
#[no_mangle]
pub unsafe extern "C" fn slhjs_sign_task(
    id: u32,
    sk: *const u8,
    sk_len: usize,
    plan: *const u8,
    plan_len: usize,
    task: u32,
) -> *mut u8 {
    // SAFETY: argument buffers of the glue (`memory::arg`).
    let (sk, plan) = unsafe { (arg(sk, sk_len), arg(plan, plan_len)) };
    answer(run(|| {
        AnySigningKey::from_bytes_unchecked(algorithm(id)?, sk)?.sign_task(plan, task as usize)
    }))
}

/// The signature from a plan and every task's output, packed by the glue
/// as a u32 LE length and the bytes of each, in task order.
#[no_mangle]
pub unsafe extern "C" fn slhjs_sign_finish(
    id: u32,
    sk: *const u8,
    sk_len: usize,
    plan: *const u8,
    plan_len: usize,
    parts: *const u8,
    parts_len: usize,
) -> *mut u8 {
    // SAFETY: argument buffers of the glue (`memory::arg`).
    let (sk, plan, mut packed) =
        unsafe { (arg(sk, sk_len), arg(plan, plan_len), arg(parts, parts_len)) };
    answer(run(|| {
        let key = AnySigningKey::from_bytes_unchecked(algorithm(id)?, sk)?;
        let mut parts: Vec<&[u8]> = Vec::new();
        while !packed.is_empty() {
            let truncated = || Error::Encoding("truncated task outputs".into());
            let (head, rest) = packed.split_at_checked(4).ok_or_else(truncated)?;
            let len = u32::from_le_bytes(head.try_into().map_err(|_| truncated())?) as usize;
            let (part, rest) = rest.split_at_checked(len).ok_or_else(truncated)?;
            parts.push(part);
            packed = rest;
        }
        key.sign_finish(plan, &parts)
    }))
}
