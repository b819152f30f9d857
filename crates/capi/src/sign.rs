//! One-shot signing and verification, over a buffer or a caller's read
//! callback (a rewindable message: bounded memory even for pure signing,
//! which reads the message twice).

use core::ffi::{c_int, c_void};

use sphincs_core::{Error, MessageSource};

use crate::ffi::{guard, input, non_null, output, Res};
use crate::keys::{borrow, sphincs_public_key, sphincs_secret_key};
use crate::options::{sphincs_prehash, sphincs_sign_options, Options, VerifyOptions};
use crate::status::*;

/// Whether signing with `sk` per `opts` reads the message twice (the core
/// knows: pure FIPS 205 and round 3.1 do), so a callback must rewind.
pub(crate) fn reads_twice(sk: &sphincs_secret_key, opts: &Options) -> bool {
    sk.0.reads_message_twice(&opts.core())
}

/// The key behind the handle `sk`, once `sig_cap` bytes can take its
/// signature. Otherwise the length needed goes to `*sig_len` and the call is
/// `SPHINCS_ERR_BUFFER_TOO_SMALL`: nothing is computed for a buffer that
/// cannot take the result.
///
/// # Safety
/// `sk` is NULL or a live key handle, and `sig_len` is NULL or writable.
unsafe fn signer_for<'a>(
    sk: *const sphincs_secret_key,
    sig_cap: usize,
    sig_len: *mut usize,
) -> Res<&'a sphincs_secret_key> {
    // SAFETY: a live key handle by the caller's contract.
    let sk = unsafe { borrow(sk)? };
    non_null(sig_len)?;
    let need = sk.0.algorithm().signature_len();
    if sig_cap < need {
        // SAFETY: `sig_len` is non-NULL (checked) and writable by the caller's contract.
        unsafe { sig_len.write(need) };
        return Err(SPHINCS_ERR_BUFFER_TOO_SMALL);
    }
    Ok(sk)
}

/// Signs a streamed message with the core (FIPS 205 Algorithms 22/23, round
/// 3.1, or SPHINCS-256).
pub(crate) fn sign_source(
    sk: &sphincs_secret_key,
    msg: &mut dyn MessageSource,
    opts: &Options,
) -> Res<Vec<u8>> {
    Ok(sk.0.sign_stream(msg, &opts.core())?)
}

/// Verifies over a streamed message (FIPS 205 Algorithms 24/25, round 3.1,
/// or SPHINCS-256).
pub(crate) fn verify_source(
    pk: &sphincs_public_key,
    msg: &mut dyn MessageSource,
    sig: &[u8],
    opts: &VerifyOptions,
) -> Res {
    pk.0.verify_stream(msg, sig, &opts.context, opts.prehash)
        .map_err(crate::status::verification)
}

/// Signs `msg` (`msg_len` bytes) with `sk` per `opts` (NULL: defaults),
/// writing the signature to `sig` (capacity `sig_cap`, at least
/// `sphincs_alg_signature_bytes`) and its length to `*sig_len`. With
/// `SPHINCS_PREHASH_NONE` a HashSLH-DSA key signs with its own pre-hash; a
/// pre-hash its mode forbids is `SPHINCS_ERR_WRONG_KEY_MODE`.
#[no_mangle]
pub unsafe extern "C" fn sphincs_sign(
    sk: *const sphincs_secret_key,
    msg: *const u8,
    msg_len: usize,
    opts: *const sphincs_sign_options,
    sig: *mut u8,
    sig_cap: usize,
    sig_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle and a writable `sig_len` by the API contract.
        let sk = unsafe { signer_for(sk, sig_cap, sig_len)? };
        // SAFETY: `msg` holds `msg_len` bytes; `opts` is NULL or valid (API contract).
        let (mut msg, opts) = unsafe { (input(msg, msg_len)?, Options::read(opts)?) };
        let signature = sign_source(sk, &mut msg, &opts)?;
        // SAFETY: `sig` holds `sig_cap` writable bytes by the API contract.
        unsafe { output(sig, sig_cap, sig_len, &signature) }
    })
}

/// The signature, its length, the context string, its length and the
/// pre-hash, as a verification call receives them.
type SignatureArgs = (*const u8, usize, *const u8, usize, sphincs_prehash);

/// The one body of `sphincs_verify` and `sphincs_verify_reader`: the key,
/// the signature and the options are read and checked, then the message
/// that `message` opens is verified.
///
/// # Safety
/// `pk` is NULL or a live key handle; each pointer of `sig` is NULL or
/// holds the length given with it.
unsafe fn verify_with<M: MessageSource>(
    pk: *const sphincs_public_key,
    (sig, sig_len, context, context_len, prehash): SignatureArgs,
    message: impl FnOnce() -> Res<M>,
) -> Res {
    // SAFETY: a live key handle by the caller's contract.
    let pk = unsafe { borrow(pk)? };
    non_null(sig)?;
    // SAFETY: each pointer holds its length in bytes by the caller's contract.
    let (sig, opts) = unsafe {
        (
            input(sig, sig_len)?,
            VerifyOptions::read(context, context_len, prehash)?,
        )
    };
    verify_source(pk, &mut message()?, sig, &opts)
}

/// Verifies `sig` over `msg` with `pk`, the context string and pre-hash it
/// was made with (`context` may be NULL when `context_len` is 0; both must be
/// empty/`SPHINCS_PREHASH_NONE` for round-3.1 and SPHINCS-256 keys;
/// `SPHINCS_PREHASH_NONE` verifies in the key's mode). `SPHINCS_OK` if valid,
/// `SPHINCS_ERR_INVALID_SIGNATURE` if not (a signature of the wrong length
/// included, as the CLI and Python say), `SPHINCS_ERR_WRONG_KEY_MODE` for a pre-hash
/// the key's mode forbids.
#[no_mangle]
pub unsafe extern "C" fn sphincs_verify(
    pk: *const sphincs_public_key,
    msg: *const u8,
    msg_len: usize,
    sig: *const u8,
    sig_len: usize,
    context: *const u8,
    context_len: usize,
    prehash: sphincs_prehash,
) -> sphincs_status {
    let signature = (sig, sig_len, context, context_len, prehash);
    // SAFETY: the key handle and each pointer with its length are valid by
    // the API contract.
    guard(|| unsafe { verify_with(pk, signature, || input(msg, msg_len)) })
}

/// Reads the message: fill `buf` with up to `cap` bytes, store how many in
/// `*got` (0 = end of message) and return 0; any other return value aborts
/// the operation with `SPHINCS_ERR_IO`.
#[allow(non_camel_case_types)]
pub type sphincs_read_fn = Option<
    unsafe extern "C" fn(user: *mut c_void, buf: *mut u8, cap: usize, got: *mut usize) -> c_int,
>;

/// Goes back to the first byte of the message; returns 0 on success.
#[allow(non_camel_case_types)]
pub type sphincs_rewind_fn = Option<unsafe extern "C" fn(user: *mut c_void) -> c_int>;

/// The size of the pieces a message is read in.
const READ_CHUNK: usize = 64 * 1024;

/// A message behind C callbacks, rewound before each pass.
struct Reader {
    read: unsafe extern "C" fn(*mut c_void, *mut u8, usize, *mut usize) -> c_int,
    rewind: sphincs_rewind_fn,
    user: *mut c_void,
    buf: Vec<u8>,
}

impl MessageSource for Reader {
    fn feed(&mut self, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        if let Some(rewind) = self.rewind {
            // SAFETY: the caller's callback with the caller's `user`, as documented.
            if unsafe { rewind(self.user) } != 0 {
                return Err(Error::Io("the rewind callback failed".into()));
            }
        } else if !self.buf.is_empty() {
            return Err(Error::Io(
                "the message is read twice but no rewind callback was given".into(),
            ));
        }
        self.buf.resize(READ_CHUNK, 0);
        loop {
            let mut got = 0usize;
            // SAFETY: `buf` has READ_CHUNK writable bytes and `got` is a local;
            // the callback may write at most `cap` bytes (its contract).
            let rc = unsafe { (self.read)(self.user, self.buf.as_mut_ptr(), READ_CHUNK, &mut got) };
            if rc != 0 || got > READ_CHUNK {
                return Err(Error::Io("the read callback failed".into()));
            }
            if got == 0 {
                return Ok(());
            }
            sink(&self.buf[..got]);
        }
    }
}

fn reader(read: sphincs_read_fn, rewind: sphincs_rewind_fn, user: *mut c_void) -> Res<Reader> {
    let read = read.ok_or(SPHINCS_ERR_NULL_POINTER)?;
    Ok(Reader {
        read,
        rewind,
        user,
        buf: Vec::new(),
    })
}

/// Signs a message read through `read` in 64 KiB pieces: memory stays bounded
/// whatever the message length. Pure signing (FIPS 205 without pre-hash, and
/// round 3.1) reads the message twice (R = PRF_msg(…, M), then H_msg(R, …, M)),
/// calling `rewind` before each pass, so `rewind` is required there; with a
/// pre-hash the message is read once and `rewind` may be NULL
/// (`SPHINCS_ERR_NULL_POINTER` if it is NULL where required). A message
/// that differs between the passes (length or SHA-256) is
/// `SPHINCS_ERR_MESSAGE_CHANGED`, and nothing is signed.
/// SPHINCS-256 reads the message once into memory (its core API takes the
/// whole message), so memory grows with the message there.
#[no_mangle]
pub unsafe extern "C" fn sphincs_sign_reader(
    sk: *const sphincs_secret_key,
    read: sphincs_read_fn,
    rewind: sphincs_rewind_fn,
    user: *mut c_void,
    opts: *const sphincs_sign_options,
    sig: *mut u8,
    sig_cap: usize,
    sig_len: *mut usize,
) -> sphincs_status {
    guard(|| {
        // SAFETY: a live key handle and a writable `sig_len` by the API contract.
        let sk = unsafe { signer_for(sk, sig_cap, sig_len)? };
        // SAFETY: `opts` is NULL or valid by the API contract.
        let opts = unsafe { Options::read(opts)? };
        if rewind.is_none() && reads_twice(sk, &opts) {
            return Err(SPHINCS_ERR_NULL_POINTER);
        }
        let mut src = reader(read, rewind, user)?;
        let signature = sign_source(sk, &mut src, &opts)?;
        // SAFETY: `sig` holds `sig_cap` writable bytes by the API contract.
        unsafe { output(sig, sig_cap, sig_len, &signature) }
    })
}

/// Verifies `sig` over a message read through `read` (one pass; `rewind`,
/// if given, is called before it). Results as `sphincs_verify`. SPHINCS-256
/// holds the message in memory (see `sphincs_sign_reader`).
#[no_mangle]
pub unsafe extern "C" fn sphincs_verify_reader(
    pk: *const sphincs_public_key,
    read: sphincs_read_fn,
    rewind: sphincs_rewind_fn,
    user: *mut c_void,
    sig: *const u8,
    sig_len: usize,
    context: *const u8,
    context_len: usize,
    prehash: sphincs_prehash,
) -> sphincs_status {
    let signature = (sig, sig_len, context, context_len, prehash);
    // SAFETY: the key handle and each pointer with its length are valid by
    // the API contract.
    guard(|| unsafe { verify_with(pk, signature, || reader(read, rewind, user)) })
}
