//! Signatures (`OSSL_OP_SIGNATURE`): one-shot `sign`/`verify` and
//! `digest_sign`/`digest_verify` (what X.509, CMS and TLS call), the
//! streaming `digest_*_update/final` and, on OpenSSL 3.4+, the message API
//! (`sign_message_*`/`verify_message_*`). Parameters use OpenSSL 3.5's
//! names: `context-string`, `deterministic`, `test-entropy`,
//! `message-encoding`, `signature`, and `algorithm-id` to read.
//!
//! Streaming, and what is bounded:
//! - Verifying reads the message once, but `H_msg` starts with R, the
//!   signature's first n bytes. When the signature is known before the
//!   first update (the `signature` parameter: `EVP_PKEY_CTX_set_signature`
//!   after `EVP_PKEY_verify_message_init`, OpenSSL 3.4+), each piece goes
//!   straight into the core's [`sphincs::MessageVerifier`]: no cap, and
//!   memory stays constant however long the message.
//! - When it comes only at the final call (`EVP_DigestVerifyFinal`, the
//!   only streaming verification OpenSSL 3.0–3.3 have), the message must be
//!   held until then: buffered up to [`STREAM_CAP`] bytes.
//! - Signing reads the message twice (R = PRF_msg(…, M), then H_msg), so a
//!   streamed message is buffered, up to [`STREAM_CAP`] bytes.
//!
//! Past the cap the update fails with a reason, and so does every later
//! update and final on that context (a final must never sign, or accept a
//! signature over, a prefix). One-shot calls have no cap.

use std::ffi::{c_char, c_int, c_uchar, c_void, CStr};
use std::sync::Arc;

use sphincs::{Randomness, SignOptions};
use zeroize::Zeroizing;

use crate::abi::*;
use crate::errors::{guard, origin_of, Fail, Origin, Owned, Reason};
use crate::keymgmt::{keydata, Material};
use crate::names;
use crate::params::{describe, each, get_int, get_octets, key_of, locate, set_octets};

/// Largest message accepted through the streaming calls (bytes).
pub const STREAM_CAP: usize = 64 << 20;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    None,
    Sign,
    Verify,
}

#[derive(Clone)]
struct SigCtx {
    origin: Origin,
    /// The key type a per-type signature algorithm was fetched as (message API).
    fetched: Option<usize>,
    ty: usize,
    key: Option<Arc<Material>>,
    op: Op,
    context: Vec<u8>,
    deterministic: bool,
    entropy: Option<Zeroizing<Vec<u8>>>,
    /// 1: FIPS 205's external interface (the default); 0: sign the message as M' (internal).
    encoding: i64,
    buffer: Vec<u8>,
    /// Whether the streamed message may still be finalised (see [`Stream`]).
    stream: Stream,
    signature: Option<Vec<u8>>,
    /// A verification under way whose signature was known before the
    /// message: the pieces go into it, not into `buffer`. Started at the
    /// first update (so the parameters set before it apply).
    verifier: Option<sphincs::MessageVerifier>,
}

/// Where a streamed message (`update`, then a `*_final`) stands.
#[derive(Clone, PartialEq, Eq)]
enum Stream {
    /// Open: updates append, a final signs or verifies what was streamed.
    Open,
    /// An update was refused: the message is incomplete, so every later
    /// update and final on this context fails until it is initialised again
    /// (a final must never sign, or accept a signature over, a prefix).
    Refused(String),
    /// A final has consumed the message: initialise again to reuse the context.
    Finished,
}

impl Owned for SigCtx {
    fn origin(&self) -> Origin {
        self.origin
    }
}

/// # Safety
/// `p` is a SigCtx we handed out and the host has not freed.
unsafe fn ctx<'a>(p: *mut c_void) -> Result<&'a mut SigCtx, Fail> {
    if p.is_null() {
        return Err(Fail::new(Reason::BadParameter, "no signature context"));
    }
    // SAFETY: the caller's promise; the host uses a context from one thread at a time.
    Ok(unsafe { &mut *(p as *mut SigCtx) })
}

/// # Safety
/// `ptr` is NULL only with `len` 0, else points to `len` readable bytes.
unsafe fn input<'a>(ptr: *const c_uchar, len: usize) -> Result<&'a [u8], Fail> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() || len > isize::MAX as usize {
        return Err(Fail::new(
            Reason::BadParameter,
            "NULL buffer with a non-zero length",
        ));
    }
    // SAFETY: the caller's promise.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

extern "C" fn newctx<const T: usize>(provctx: *mut c_void, _propq: *const c_char) -> *mut c_void {
    guard(
        Origin::of(provctx),
        "signature_newctx",
        std::ptr::null_mut(),
        || {
            Ok(Box::into_raw(Box::new(SigCtx {
                origin: Origin::of(provctx),
                fetched: Some(T),
                ty: T,
                key: None,
                op: Op::None,
                context: Vec::new(),
                deterministic: false,
                entropy: None,
                encoding: 1,
                buffer: Vec::new(),
                stream: Stream::Open,
                signature: None,
                verifier: None,
            })) as *mut c_void)
        },
    )
}

extern "C" fn freectx(c: *mut c_void) {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_freectx", (), || {
        if !c.is_null() {
            // SAFETY: a SigCtx we boxed; freed once by the host.
            drop(unsafe { Box::from_raw(c as *mut SigCtx) });
        }
        Ok(())
    })
}

extern "C" fn dupctx(c: *mut c_void) -> *mut c_void {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_dupctx", std::ptr::null_mut(), || {
        // SAFETY: a live SigCtx of ours.
        let c = unsafe { ctx(c) }?;
        Ok(Box::into_raw(Box::new(c.clone())) as *mut c_void)
    })
}

fn apply(c: &mut SigCtx, params: *const Param) -> Result<(), Fail> {
    // SAFETY: the host's parameter array, valid for this call.
    for p in unsafe { each(params) } {
        let key = key_of(p);
        if c.verifier.is_some()
            && matches!(key, "context-string" | "message-encoding" | "signature")
        {
            return Err(Fail::new(
                Reason::BadParameter,
                format!("'{key}' cannot change once the message has begun: set it before the first update"),
            ));
        }
        match key {
            "context-string" => {
                let v = get_octets(p)?;
                if v.len() > 255 {
                    return Err(Fail::new(
                        Reason::BadParameter,
                        format!(
                            "context-string is {} bytes; FIPS 205 allows at most 255",
                            v.len()
                        ),
                    ));
                }
                c.context = v.to_vec();
            }
            "deterministic" => c.deterministic = get_int(p)? != 0,
            "test-entropy" => {
                let v = get_octets(p)?;
                c.entropy = if v.is_empty() {
                    None
                } else {
                    Some(Zeroizing::new(v.to_vec()))
                };
            }
            "message-encoding" => {
                let v = get_int(p)?;
                if v != 0 && v != 1 {
                    return Err(Fail::new(
                        Reason::BadParameter,
                        format!(
                            "message-encoding must be 0 (raw M') or 1 (FIPS 205 external); got {v}"
                        ),
                    ));
                }
                c.encoding = v;
            }
            "signature" => c.signature = Some(get_octets(p)?.to_vec()),
            _ => {}
        }
    }
    Ok(())
}

fn init(
    c: *mut c_void,
    key: *mut c_void,
    params: *const Param,
    op: Op,
    check_type: bool,
) -> Result<c_int, Fail> {
    // SAFETY: a live SigCtx of ours.
    let c = unsafe { ctx(c) }?;
    if !key.is_null() {
        // SAFETY: the host passes a live keydata of our keymgmt.
        let k = unsafe { keydata(key) }?;
        if check_type && c.fetched.is_some_and(|t| t != k.ty) {
            return Err(Fail::new(
                Reason::NotSupported,
                format!(
                    "signature algorithm {} cannot use a {} key",
                    names::get(c.fetched.unwrap_or(0)).name_str(),
                    k.key_type().name_str()
                ),
            ));
        }
        let m = k
            .material
            .clone()
            .ok_or_else(|| Fail::new(Reason::MissingKey, "the key has no material"))?;
        if op == Op::Sign && m.sk.is_none() {
            return Err(Fail::new(Reason::MissingKey, "signing needs a private key"));
        }
        c.ty = k.ty;
        c.key = Some(m);
    } else if c.key.is_none() {
        return Err(Fail::new(Reason::MissingKey, "no key given"));
    }
    c.op = op;
    c.buffer.clear();
    c.stream = Stream::Open;
    c.signature = None;
    c.verifier = None;
    apply(c, params)?;
    Ok(1)
}

fn no_digest(mdname: *const c_char) -> Result<(), Fail> {
    if mdname.is_null() {
        return Ok(());
    }
    // SAFETY: a NUL-terminated name from the host.
    let md = unsafe { CStr::from_ptr(mdname) }.to_string_lossy();
    if md.is_empty() || md.eq_ignore_ascii_case("UNDEF") {
        Ok(())
    } else {
        Err(Fail::new(
            Reason::NotSupported,
            format!("SLH-DSA signs the message itself and takes no digest (got '{md}')"),
        ))
    }
}

/// A digest named to `digest_verify_init`: none, or one RFC 9814 allows for
/// the key's set in a SignerInfo. OpenSSL 3.0–3.4's CMS code passes the
/// SignerInfo's digestAlgorithm (the messageDigest attribute's hash, which
/// it computes itself) when it verifies the signature over the signed
/// attributes; SLH-DSA signs those attributes themselves (pure, empty
/// context), so the digest is checked for strength and not used. Signing
/// still refuses a digest ([`no_digest`]): a signature must not look
/// pre-hashed when it is not.
fn cms_digest(mdname: *const c_char, ty: usize) -> Result<(), Fail> {
    if no_digest(mdname).is_ok() {
        return Ok(());
    }
    // SAFETY: a NUL-terminated name from the host (no_digest read it too).
    let md = unsafe { CStr::from_ptr(mdname) }.to_string_lossy();
    let kt = names::get(ty);
    match md.parse::<sphincs::PreHash>() {
        Ok(d) if !kt.hash && sphincs::pki::cms::digest_allowed(kt.alg, d) => Ok(()),
        _ => Err(Fail::new(
            Reason::NotSupported,
            format!(
                "SLH-DSA signs the message itself and takes no digest (got '{md}'; a CMS SignerInfo's digest RFC 9814 allows for {} is accepted when verifying)",
                kt.name_str()
            ),
        )),
    }
}

impl SigCtx {
    /// Refuses to go on with a stream that was refused or finished.
    fn open_stream(&self) -> Result<(), Fail> {
        match &self.stream {
            Stream::Open => Ok(()),
            Stream::Refused(why) => Err(Fail::new(
                Reason::BadParameter,
                format!("an earlier call on this context was refused ({why}); the message is incomplete or gone, so nothing is signed or verified until the context is initialised again"),
            )),
            Stream::Finished => Err(Fail::new(
                Reason::BadParameter,
                "this context's streamed message was already finalised; initialise it again",
            )),
        }
    }

    /// Ends the stream: the buffered message is dropped and later finals refused.
    fn finish_stream(&mut self) {
        self.buffer = Vec::new();
        self.verifier = None;
        self.stream = Stream::Finished;
    }

    /// An update: into the verification under way when verifying with the
    /// signature known (started here at the first update, with what was
    /// buffered before the signature was set), else into the buffer, up to
    /// [`STREAM_CAP`].
    fn stream(&mut self, data: &[u8]) -> Result<(), Fail> {
        if self.op == Op::Verify && self.verifier.is_none() {
            if let Some(sig) = &self.signature {
                let mut v = self.start_verifier(sig)?;
                v.update(&self.buffer);
                self.buffer = Vec::new();
                self.verifier = Some(v);
            }
        }
        if let Some(v) = &mut self.verifier {
            v.update(data);
            return Ok(());
        }
        if self.buffer.len().saturating_add(data.len()) > STREAM_CAP {
            return Err(Fail::new(
                Reason::NotSupported,
                if self.op == Op::Verify {
                    format!("streamed message over {STREAM_CAP} bytes with no signature yet: H_msg begins with the signature's R, so the message is held until the signature comes, up to that cap (set the signature before the first update, as EVP_PKEY_CTX_set_signature after EVP_PKEY_verify_message_init does, to verify a message of any length)")
                } else {
                    format!("streamed message over {STREAM_CAP} bytes: signing reads the message twice, so this provider buffers it, up to that cap (sign a larger message one-shot)")
                },
            ));
        }
        self.buffer.extend_from_slice(data);
        Ok(())
    }

    /// The core's verification of a message to come, under this context's
    /// key, context string and message encoding.
    fn start_verifier(&self, sig: &[u8]) -> Result<sphincs::MessageVerifier, Fail> {
        let pk = &self.material()?.pk;
        check_signature_len(pk, sig)?;
        Ok(if self.encoding == 0 {
            pk.verifier_internal(sig)?
        } else {
            pk.verifier(sig, &self.context, None)?
        })
    }

    /// The final of a stream whose signature is `sig`: `Ok(true)` valid.
    fn verify_streamed(&mut self, sig: &[u8]) -> Result<bool, Fail> {
        let valid = match self.verifier.take() {
            Some(v) => {
                if self.signature.as_deref() != Some(sig) {
                    // The message went into the verifier, not the buffer:
                    // a retried final must not find an empty buffer and
                    // verify the empty message. The context refuses from
                    // here on, as after a refused update.
                    let why =
                        "the signature given to the final is not the one set before the message";
                    self.verifier = None;
                    self.stream = Stream::Refused(why.into());
                    return Err(Fail::new(Reason::BadParameter, why));
                }
                valid(v.finish())?
            }
            None => self.verify(&self.buffer, sig)?,
        };
        self.finish_stream();
        Ok(valid)
    }

    fn material(&self) -> Result<&Material, Fail> {
        self.key
            .as_deref()
            .ok_or_else(|| Fail::new(Reason::MissingKey, "not initialised with a key"))
    }

    fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, Fail> {
        if self.op != Op::Sign {
            return Err(Fail::new(
                Reason::BadParameter,
                "context not initialised for signing",
            ));
        }
        let sk = self
            .material()?
            .sk
            .as_ref()
            .ok_or_else(|| Fail::new(Reason::MissingKey, "signing needs a private key"))?;
        let randomness = match (&self.entropy, self.deterministic) {
            (Some(e), _) => Randomness::Given(e),
            (None, true) => Randomness::Deterministic,
            (None, false) => Randomness::Hedged,
        };
        if self.encoding == 0 {
            let fips = sk.as_slh_dsa().ok_or_else(|| {
                Fail::new(
                    Reason::NotSupported,
                    "raw message encoding needs an SLH-DSA key",
                )
            })?;
            let n = fips.algorithm().params().n;
            let mut fresh = Zeroizing::new(vec![0u8; n]);
            let addrnd: Option<&[u8]> = match randomness {
                Randomness::Given(e) => {
                    if e.len() != n {
                        return Err(Fail::new(
                            Reason::BadParameter,
                            format!("test-entropy is {} bytes; expected n = {n}", e.len()),
                        ));
                    }
                    Some(e)
                }
                Randomness::Deterministic => None,
                Randomness::Hedged => {
                    getrandom::fill(&mut fresh)
                        .map_err(|e| Fail::new(Reason::Internal, format!("no randomness: {e}")))?;
                    Some(&fresh)
                }
            };
            return Ok(fips.sign_internal(msg, addrnd)?);
        }
        let opts = SignOptions {
            context: &self.context,
            randomness,
            threads: 1,
            ..Default::default()
        };
        Ok(sk.sign(msg, &opts)?)
    }

    /// `Ok(true)` valid, `Ok(false)` not; `Err` for inputs that are not
    /// even a candidate signature (wrong length, no key).
    fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<bool, Fail> {
        if self.op != Op::Verify {
            return Err(Fail::new(
                Reason::BadParameter,
                "context not initialised for verifying",
            ));
        }
        let pk = &self.material()?.pk;
        check_signature_len(pk, sig)?;
        if self.encoding == 0 {
            let fips = pk.as_slh_dsa().ok_or_else(|| {
                Fail::new(
                    Reason::NotSupported,
                    "raw message encoding needs an SLH-DSA key",
                )
            })?;
            return Ok(fips.verify_internal(msg, sig));
        }
        valid(pk.verify(msg, sig, &self.context, None))
    }
}

/// A verification's answer: valid, invalid, or an error for the host.
fn valid(r: Result<(), sphincs::Error>) -> Result<bool, Fail> {
    match r {
        Ok(()) => Ok(true),
        Err(sphincs::Error::InvalidSignature) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

fn check_signature_len(pk: &sphincs::any::AnyVerifyingKey, sig: &[u8]) -> Result<(), Fail> {
    let alg = pk.algorithm();
    if sig.len() == alg.signature_len() {
        return Ok(());
    }
    Err(Fail::new(
        Reason::InvalidSignature,
        format!(
            "{alg} signature is {} bytes; expected {}",
            sig.len(),
            alg.signature_len()
        ),
    ))
}

/// Writes a signature into the host's buffer (or only its size when `out` is NULL).
fn emit(
    c: &SigCtx,
    out: *mut c_uchar,
    outlen: *mut usize,
    outsize: usize,
    msg: &[u8],
) -> Result<c_int, Fail> {
    if outlen.is_null() {
        return Err(Fail::new(
            Reason::BadParameter,
            "NULL signature length pointer",
        ));
    }
    let len = c.material()?.pk.algorithm().signature_len();
    if out.is_null() {
        // SAFETY: `outlen` is the host's non-NULL size_t slot.
        unsafe { *outlen = len };
        return Ok(1);
    }
    if outsize < len {
        return Err(Fail::new(
            Reason::BadParameter,
            format!("signature buffer is {outsize} bytes; {len} needed"),
        ));
    }
    let sig = c.sign(msg)?;
    // SAFETY: `out` has `outsize` >= sig.len() writable bytes; `outlen` is valid.
    unsafe {
        std::ptr::copy_nonoverlapping(sig.as_ptr(), out, sig.len());
        *outlen = sig.len();
    }
    Ok(1)
}

extern "C" fn sign_init(c: *mut c_void, key: *mut c_void, params: *const Param) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_sign_init", 0, || {
        init(c, key, params, Op::Sign, false)
    })
}

extern "C" fn verify_init(c: *mut c_void, key: *mut c_void, params: *const Param) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_verify_init", 0, || {
        init(c, key, params, Op::Verify, false)
    })
}

extern "C" fn sign_message_init(c: *mut c_void, key: *mut c_void, params: *const Param) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_sign_message_init", 0, || {
        init(c, key, params, Op::Sign, true)
    })
}

extern "C" fn verify_message_init(c: *mut c_void, key: *mut c_void, params: *const Param) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_verify_message_init", 0, || {
        init(c, key, params, Op::Verify, true)
    })
}

extern "C" fn digest_sign_init(
    c: *mut c_void,
    md: *const c_char,
    key: *mut c_void,
    params: *const Param,
) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_digest_sign_init", 0, || {
        no_digest(md)?;
        init(c, key, params, Op::Sign, false)
    })
}

extern "C" fn digest_verify_init(
    c: *mut c_void,
    md: *const c_char,
    key: *mut c_void,
    params: *const Param,
) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_digest_verify_init", 0, || {
        init(c, key, params, Op::Verify, false)?;
        // SAFETY: a live SigCtx of ours (init has just used it).
        cms_digest(md, unsafe { ctx(c) }?.ty)?;
        Ok(1)
    })
}

extern "C" fn sign(
    c: *mut c_void,
    sig: *mut c_uchar,
    siglen: *mut usize,
    sigsize: usize,
    tbs: *const c_uchar,
    tbslen: usize,
) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_sign", 0, || {
        // SAFETY: a live SigCtx; `tbs` is the host's input buffer of `tbslen` bytes.
        let (c, msg) = unsafe { (ctx(c)?, input(tbs, tbslen)?) };
        emit(c, sig, siglen, sigsize, msg)
    })
}

extern "C" fn verify(
    c: *mut c_void,
    sig: *const c_uchar,
    siglen: usize,
    tbs: *const c_uchar,
    tbslen: usize,
) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_verify", 0, || {
        // SAFETY: a live SigCtx; the host's buffers of the given lengths.
        let (c, sig, msg) = unsafe { (ctx(c)?, input(sig, siglen)?, input(tbs, tbslen)?) };
        Ok(c.verify(msg, sig)? as c_int)
    })
}

extern "C" fn update(c: *mut c_void, data: *const c_uchar, len: usize) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_update", 0, || {
        // SAFETY: a live SigCtx; the host's buffer of `len` bytes.
        let (c, data) = unsafe { (ctx(c)?, input(data, len)?) };
        c.open_stream()?;
        if let Err(e) = c.stream(data) {
            c.buffer = Vec::new();
            c.verifier = None;
            c.stream = Stream::Refused(e.detail.clone());
            return Err(e);
        }
        Ok(1)
    })
}

extern "C" fn sign_final(
    c: *mut c_void,
    sig: *mut c_uchar,
    siglen: *mut usize,
    sigsize: usize,
) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_sign_final", 0, || {
        // SAFETY: a live SigCtx of ours.
        let c = unsafe { ctx(c) }?;
        c.open_stream()?;
        // The message stays in the context until a signature is written: a
        // size query (NULL) or a buffer too small leaves it as it was, so
        // the retry signs the message streamed, not an empty one.
        let r = emit(c, sig, siglen, sigsize, &c.buffer)?;
        if !sig.is_null() {
            c.finish_stream();
        }
        Ok(r)
    })
}

extern "C" fn verify_final(c: *mut c_void, sig: *const c_uchar, siglen: usize) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_verify_final", 0, || {
        // SAFETY: a live SigCtx; the host's buffer of `siglen` bytes.
        let (c, sig) = unsafe { (ctx(c)?, input(sig, siglen)?) };
        c.open_stream()?;
        Ok(c.verify_streamed(sig)? as c_int)
    })
}

extern "C" fn verify_message_final(c: *mut c_void) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_verify_message_final", 0, || {
        // SAFETY: a live SigCtx of ours.
        let c = unsafe { ctx(c) }?;
        c.open_stream()?;
        let sig = c.signature.clone().ok_or_else(|| {
            Fail::new(
                Reason::BadParameter,
                "no 'signature' parameter set before verify_message_final",
            )
        })?;
        let valid = c.verify_streamed(&sig)?;
        c.signature = None;
        Ok(valid as c_int)
    })
}

extern "C" fn get_ctx_params(c: *mut c_void, params: *mut Param) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_get_ctx_params", 0, || {
        // SAFETY: a live SigCtx of ours.
        let c = unsafe { ctx(c) }?;
        // SAFETY: the host's writable parameter array.
        if let Some(p) = unsafe { locate(params, "algorithm-id") } {
            set_octets(p, &names::get(c.ty).algorithm_id())?;
        }
        Ok(1)
    })
}

static GETTABLE: Shared<[Param; 2]> = Shared([describe(c"algorithm-id", PARAM_OCTET_STRING), END]);

static SETTABLE: Shared<[Param; 6]> = Shared([
    describe(c"context-string", PARAM_OCTET_STRING),
    describe(c"deterministic", PARAM_INTEGER),
    describe(c"test-entropy", PARAM_OCTET_STRING),
    describe(c"message-encoding", PARAM_INTEGER),
    describe(c"signature", PARAM_OCTET_STRING),
    END,
]);

extern "C" fn gettable_ctx_params(_c: *mut c_void, _provctx: *mut c_void) -> *const Param {
    GETTABLE.0.as_ptr()
}

extern "C" fn settable_ctx_params(_c: *mut c_void, _provctx: *mut c_void) -> *const Param {
    SETTABLE.0.as_ptr()
}

extern "C" fn set_ctx_params(c: *mut c_void, params: *const Param) -> c_int {
    // SAFETY: `c` is NULL or a live SigCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<SigCtx>(c) };
    guard(origin, "signature_set_ctx_params", 0, || {
        // SAFETY: a live SigCtx of ours.
        apply(unsafe { ctx(c) }?, params)?;
        Ok(1)
    })
}

extern "C" fn query_key_types<const T: usize>() -> *const *const c_char {
    static TYPES: std::sync::OnceLock<Shared<Vec<[*const c_char; 2]>>> = std::sync::OnceLock::new();
    guard(
        Origin::NONE,
        "signature_query_key_types",
        std::ptr::null(),
        || {
            let t = TYPES.get_or_init(|| {
                Shared(
                    names::all()
                        .iter()
                        .map(|k| [names::leak(&k.name).as_ptr(), std::ptr::null()])
                        .collect(),
                )
            });
            Ok(t.0[T].as_ptr())
        },
    )
}

/// The dispatch table of key type `T`; the message API only where the
/// running OpenSSL (3.4+) has it.
pub fn dispatch<const T: usize>(message_api: bool) -> Vec<Dispatch> {
    type New = extern "C" fn(*mut c_void, *const c_char) -> *mut c_void;
    type Free = extern "C" fn(*mut c_void);
    type Dup = extern "C" fn(*mut c_void) -> *mut c_void;
    type Init = extern "C" fn(*mut c_void, *mut c_void, *const Param) -> c_int;
    type DInit = extern "C" fn(*mut c_void, *const c_char, *mut c_void, *const Param) -> c_int;
    type Sign =
        extern "C" fn(*mut c_void, *mut c_uchar, *mut usize, usize, *const c_uchar, usize) -> c_int;
    type Verify = extern "C" fn(*mut c_void, *const c_uchar, usize, *const c_uchar, usize) -> c_int;
    type Update = extern "C" fn(*mut c_void, *const c_uchar, usize) -> c_int;
    type SignFinal = extern "C" fn(*mut c_void, *mut c_uchar, *mut usize, usize) -> c_int;
    type VerifyFinal = extern "C" fn(*mut c_void, *const c_uchar, usize) -> c_int;
    type MsgVerifyFinal = extern "C" fn(*mut c_void) -> c_int;
    type GetParams = extern "C" fn(*mut c_void, *mut Param) -> c_int;
    type SetParams = extern "C" fn(*mut c_void, *const Param) -> c_int;
    type Table = extern "C" fn(*mut c_void, *mut c_void) -> *const Param;
    type KeyTypes = extern "C" fn() -> *const *const c_char;
    let mut v = vec![
        crate::dispatch!(SIGNATURE_NEWCTX, newctx::<T>, New),
        crate::dispatch!(SIGNATURE_FREECTX, freectx, Free),
        crate::dispatch!(SIGNATURE_DUPCTX, dupctx, Dup),
        crate::dispatch!(SIGNATURE_SIGN_INIT, sign_init, Init),
        crate::dispatch!(SIGNATURE_SIGN, sign, Sign),
        crate::dispatch!(SIGNATURE_VERIFY_INIT, verify_init, Init),
        crate::dispatch!(SIGNATURE_VERIFY, verify, Verify),
        crate::dispatch!(SIGNATURE_DIGEST_SIGN_INIT, digest_sign_init, DInit),
        crate::dispatch!(SIGNATURE_DIGEST_SIGN_UPDATE, update, Update),
        crate::dispatch!(SIGNATURE_DIGEST_SIGN_FINAL, sign_final, SignFinal),
        crate::dispatch!(SIGNATURE_DIGEST_SIGN, sign, Sign),
        crate::dispatch!(SIGNATURE_DIGEST_VERIFY_INIT, digest_verify_init, DInit),
        crate::dispatch!(SIGNATURE_DIGEST_VERIFY_UPDATE, update, Update),
        crate::dispatch!(SIGNATURE_DIGEST_VERIFY_FINAL, verify_final, VerifyFinal),
        crate::dispatch!(SIGNATURE_DIGEST_VERIFY, verify, Verify),
        crate::dispatch!(SIGNATURE_GET_CTX_PARAMS, get_ctx_params, GetParams),
        crate::dispatch!(SIGNATURE_GETTABLE_CTX_PARAMS, gettable_ctx_params, Table),
        crate::dispatch!(SIGNATURE_SET_CTX_PARAMS, set_ctx_params, SetParams),
        crate::dispatch!(SIGNATURE_SETTABLE_CTX_PARAMS, settable_ctx_params, Table),
    ];
    if message_api {
        v.extend([
            crate::dispatch!(SIGNATURE_QUERY_KEY_TYPES, query_key_types::<T>, KeyTypes),
            crate::dispatch!(SIGNATURE_SIGN_MESSAGE_INIT, sign_message_init, Init),
            crate::dispatch!(SIGNATURE_SIGN_MESSAGE_UPDATE, update, Update),
            crate::dispatch!(SIGNATURE_SIGN_MESSAGE_FINAL, sign_final, SignFinal),
            crate::dispatch!(SIGNATURE_VERIFY_MESSAGE_INIT, verify_message_init, Init),
            crate::dispatch!(SIGNATURE_VERIFY_MESSAGE_UPDATE, update, Update),
            crate::dispatch!(
                SIGNATURE_VERIFY_MESSAGE_FINAL,
                verify_message_final,
                MsgVerifyFinal
            ),
        ]);
    }
    v.push(DISPATCH_END);
    v
}
