//! Many signatures checked in one call (`sphincs::any::verify_batch`): the
//! chains of several signatures go through the hash lanes side by side.

use alloc::vec::Vec;
use sphincs_core::any::{verify_batch, AnyVerifyItem, AnyVerifyingKey};
use sphincs_core::Error;

use crate::calls::{algorithm, prehash};
use crate::kernels::run;
use crate::memory::{arg, failure, reply, OK};

/// One item as the glue packs it: set number (u32 LE), then public key,
/// message, signature, context and pre-hash OID, each a u32 LE length and
/// its bytes.
struct Packed<'a> {
    id: u32,
    fields: [&'a [u8]; 5],
}

/// Splits the glue's packed items (`count` u32 LE, then the items), or
/// `None` if the bytes end early.
fn unpack(mut input: &[u8]) -> Option<Vec<Packed<'_>>> {
    fn u32_at(input: &mut &[u8]) -> Option<u32> {
        let (head, rest) = input.split_at_checked(4)?;
        *input = rest;
        Some(u32::from_le_bytes(head.try_into().ok()?))
    }
    fn bytes<'a>(input: &mut &'a [u8]) -> Option<&'a [u8]> {
        let len = u32_at(input)? as usize;
        let (head, rest) = input.split_at_checked(len)?;
        *input = rest;
        Some(head)
    }
    let count = u32_at(&mut input)? as usize;
    let mut items = Vec::with_capacity(count.min(input.len() / 24));
    for _ in 0..count {
        let id = u32_at(&mut input)?;
        let mut fields: [&[u8]; 5] = [&[]; 5];
        for f in &mut fields {
            *f = bytes(&mut input)?;
        }
        items.push(Packed { id, fields });
    }
    Some(items)
}

/// Verifies packed items (see [`Packed`]) in one batch: one byte per item,
/// 1 valid, 0 not valid or not checkable (a key of the wrong length, an
/// oversize context, an unknown pre-hash).
#[no_mangle]
pub unsafe extern "C" fn slhjs_verify_batch(input: *const u8, len: usize) -> *mut u8 {
    // SAFETY: an argument buffer of the glue (`memory::arg`).
    let input = unsafe { arg(input, len) };
    // The keys are bound inside, so on the kernels `run` chose.
    match run(|| Ok(verify_packed(input))) {
        Ok(reply) => reply,
        Err(e) => failure(&e),
    }
}

/// The body of [`slhjs_verify_batch`].
fn verify_packed(input: &[u8]) -> *mut u8 {
    let Some(items) = unpack(input) else {
        return failure(&Error::Encoding("truncated batch".into()));
    };
    // Items whose key or pre-hash is malformed stay out of the batch.
    let checked: Vec<Option<_>> = items
        .iter()
        .map(|it| {
            let [pk, _, _, _, oid] = it.fields;
            let key = AnyVerifyingKey::from_bytes(algorithm(it.id).ok()?, pk).ok()?;
            Some((key, prehash(oid).ok()?))
        })
        .collect();
    let batch: Vec<AnyVerifyItem<'_>> = items
        .iter()
        .zip(&checked)
        .filter_map(|(it, c)| {
            let (key, prehash) = c.as_ref()?;
            let [_, message, signature, context, _] = it.fields;
            Some(AnyVerifyItem {
                key,
                message,
                signature,
                context,
                prehash: *prehash,
            })
        })
        .collect();
    let mut results = verify_batch(&batch, 1).into_iter();
    let verdicts: Vec<u8> = checked
        .iter()
        .map(|c| match c {
            Some(_) => u8::from(results.next().is_some_and(|r| r.is_ok())),
            None => 0,
        })
        .collect();
    reply(OK, &[&verdicts])
}
