//! One signature spread over several Web Workers (`signAsync` with
//! `{ workers: N }`): the plan (R and the digest) on the calling thread, the
//! trees in the workers, the join on the calling thread. The split is the
//! core's (`AnySigningKey::sign_plan`, `sign_task`, `sign_finish`); the plan
//! comes from `slhjs_sign` with `plan` 1, and the signature is the one
//! `slhjs_sign` makes.

use alloc::vec::Vec;
use sphincs_core::any::AnySigningKey;
use sphincs_core::Error;

use crate::calls::algorithm;
use crate::kernels::run;
use crate::memory::{answer, arg};

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
