//! Batch verification and batch signing: the core's `verify_batch` (any
//! keys, any sets, per-item results) and `sign_batch`, over a thread budget.
//! Both come from the core's front door, which takes every family.

use sphincs_core::any::{verify_batch, AnyVerifyItem};

use crate::ffi::{guard, input, non_null, output, Res};
use crate::keys::{borrow, sphincs_public_key, sphincs_secret_key};
use crate::options::{prehash, sphincs_prehash, sphincs_sign_options, Options};
use crate::status::*;

/// One signature to check in `sphincs_verify_batch`.
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct sphincs_verify_item {
    /// The public key (any parameter set; items may differ). With
    /// `SPHINCS_PREHASH_NONE` a HashSLH-DSA key verifies with its own pre-hash.
    pub key: *const sphincs_public_key,
    /// The message.
    pub message: *const u8,
    /// Bytes of `message`.
    pub message_len: usize,
    /// The signature.
    pub signature: *const u8,
    /// Bytes of `signature`.
    pub signature_len: usize,
    /// The context string (FIPS 205 sets only; may be NULL when `context_len` is 0).
    pub context: *const u8,
    /// Bytes of `context`.
    pub context_len: usize,
    /// A `SPHINCS_PREHASH_*` value (FIPS 205 sets only).
    pub prehash: sphincs_prehash,
}

/// # Safety
/// The item's pointers must be valid for their lengths (or NULL), the key live.
unsafe fn item<'a>(it: &'a sphincs_verify_item) -> Res<AnyVerifyItem<'a>> {
    // SAFETY: forwarded contract.
    let key = &unsafe { borrow(it.key)? }.0;
    non_null(it.signature)?;
    // SAFETY: forwarded contract: each pointer holds its length.
    let (message, signature, context) = unsafe {
        (
            input(it.message, it.message_len)?,
            input(it.signature, it.signature_len)?,
            input(it.context, it.context_len)?,
        )
    };
    Ok(AnyVerifyItem {
        key,
        message,
        signature,
        context,
        prehash: prehash(it.prehash)?,
    })
}

/// Verifies `count` signatures over up to `threads` threads (0 = every core,
/// 1 = the calling thread) and writes one status per item to `results`
/// (`count` entries): `SPHINCS_OK`, `SPHINCS_ERR_INVALID_SIGNATURE` (a
/// signature of the wrong length too), or the item's own error (a NULL pointer in the item, an oversize
/// context), exactly what `sphincs_verify` says for it alone. Returns
/// `SPHINCS_OK` if every item is valid, `SPHINCS_ERR_INVALID_SIGNATURE` if
/// any is not, or an error for the call itself (NULL `items` or `results`).
#[no_mangle]
pub unsafe extern "C" fn sphincs_verify_batch(
    items: *const sphincs_verify_item,
    count: usize,
    threads: usize,
    results: *mut sphincs_status,
) -> sphincs_status {
    guard(|| {
        if count == 0 {
            return Ok(());
        }
        non_null(items)?;
        non_null(results)?;
        if count > isize::MAX as usize / core::mem::size_of::<sphincs_verify_item>() {
            return Err(SPHINCS_ERR_INVALID_ARGUMENT);
        }
        // SAFETY: `items` holds `count` items by the API contract.
        let items = unsafe { core::slice::from_raw_parts(items, count) };
        let mut out = vec![SPHINCS_OK; count];
        let (mut good, mut good_at) = (Vec::with_capacity(count), Vec::with_capacity(count));
        for (i, it) in items.iter().enumerate() {
            // SAFETY: each item's pointers are valid for their lengths (API contract).
            match unsafe { item(it) } {
                Ok(v) => {
                    good.push(v);
                    good_at.push(i);
                }
                Err(status) => out[i] = status,
            }
        }
        let t = crate::ffi::threads(threads);
        for (r, i) in verify_batch(&good, t).into_iter().zip(good_at) {
            out[i] = r.map_or_else(crate::status::verification, |()| SPHINCS_OK);
        }
        // SAFETY: `results` holds `count` writable statuses by the API contract.
        unsafe { core::ptr::copy_nonoverlapping(out.as_ptr(), results, count) };
        if out.iter().all(|s| *s == SPHINCS_OK) {
            Ok(())
        } else {
            Err(SPHINCS_ERR_INVALID_SIGNATURE)
        }
    })
}

/// Signs `count` messages (`messages[i]` of `message_lens[i]` bytes) with
/// `sk` per `opts` (NULL: defaults); `opts->threads` is the thread budget of
/// the whole batch. The signatures are written one after another to `sigs`
/// (capacity `sigs_cap`, at least `count * sphincs_alg_signature_bytes`), the
/// total length to `*sigs_len`. Equal to signing one by one (for
/// deterministic or given randomness, byte for byte).
#[no_mangle]
pub unsafe extern "C" fn sphincs_sign_batch(
    sk: *const sphincs_secret_key,
    messages: *const *const u8,
    message_lens: *const usize,
    count: usize,
    opts: *const sphincs_sign_options,
    sigs: *mut u8,
    sigs_cap: usize,
    sigs_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle by the API contract.
        let sk = unsafe { borrow(sk)? };
        non_null(sigs_len)?;
        let need = count
            .checked_mul(sk.0.algorithm().signature_len())
            .ok_or(SPHINCS_ERR_INVALID_ARGUMENT)?;
        if sigs_cap < need {
            // SAFETY: `sigs_len` is writable by the API contract.
            unsafe { sigs_len.write(need) };
            return Err(SPHINCS_ERR_BUFFER_TOO_SMALL);
        }
        if count > 0 {
            non_null(messages)?;
            non_null(message_lens)?;
        }
        if count > isize::MAX as usize / core::mem::size_of::<usize>() {
            return Err(SPHINCS_ERR_INVALID_ARGUMENT);
        }
        let (ptrs, lens): (&[*const u8], &[usize]) = if count == 0 {
            (&[], &[])
        } else {
            // SAFETY: both arrays hold `count` entries by the API contract.
            unsafe {
                (
                    core::slice::from_raw_parts(messages, count),
                    core::slice::from_raw_parts(message_lens, count),
                )
            }
        };
        let msgs = ptrs
            .iter()
            .zip(lens)
            // SAFETY: `messages[i]` holds `message_lens[i]` bytes by the API contract.
            .map(|(&p, &l)| unsafe { input(p, l) })
            .collect::<Res<Vec<&[u8]>>>()?;
        // SAFETY: `opts` is NULL or valid by the API contract.
        let opts = unsafe { Options::read(opts)? };
        let signatures = sk.0.sign_batch(&msgs, &opts.core())?;
        let joined = signatures.concat();
        // SAFETY: `sigs` holds `sigs_cap` writable bytes by the API contract.
        unsafe { output(sigs, sigs_cap, sigs_len, &joined) }
    })
}
