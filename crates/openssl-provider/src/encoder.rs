//! Encoders (`OSSL_OP_ENCODER`): PKCS#8 `PrivateKeyInfo` and
//! `SubjectPublicKeyInfo`, DER and PEM, written by the core's encoders (the
//! same bytes our CLI and OpenSSL 3.5 write), and `-text`. A private key is
//! never written in the clear when the host asked for a cipher: encrypt
//! with `openssl pkcs8 -topk8`, which runs OpenSSL's own PBES2 over our
//! `PrivateKeyInfo`.

use std::ffi::{c_int, c_void};
use std::fmt::Write as _;

use crate::abi::*;
use crate::errors::{guard, origin_of, Fail, Origin, Owned, Reason};
use crate::keymgmt::keydata;
use crate::params::{describe, each, key_of};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    PrivDer,
    PrivPem,
    PubDer,
    PubPem,
    Text,
}

impl Form {
    pub const ALL: [Form; 5] = [
        Form::PrivDer,
        Form::PrivPem,
        Form::PubDer,
        Form::PubPem,
        Form::Text,
    ];

    /// The property string the host selects encoders by.
    pub fn properties(self) -> &'static std::ffi::CStr {
        match self {
            Form::PrivDer => c"provider=sphincs,output=der,structure=PrivateKeyInfo",
            Form::PrivPem => c"provider=sphincs,output=pem,structure=PrivateKeyInfo",
            Form::PubDer => c"provider=sphincs,output=der,structure=SubjectPublicKeyInfo",
            Form::PubPem => c"provider=sphincs,output=pem,structure=SubjectPublicKeyInfo",
            Form::Text => c"provider=sphincs,output=text",
        }
    }
}

struct EncCtx {
    origin: Origin,
    cipher: bool,
}

impl Owned for EncCtx {
    fn origin(&self) -> Origin {
        self.origin
    }
}

extern "C" fn newctx(provctx: *mut c_void) -> *mut c_void {
    guard(
        Origin::of(provctx),
        "encoder_newctx",
        std::ptr::null_mut(),
        || {
            Ok(Box::into_raw(Box::new(EncCtx {
                origin: Origin::of(provctx),
                cipher: false,
            })) as *mut c_void)
        },
    )
}

extern "C" fn freectx(c: *mut c_void) {
    // SAFETY: `c` is NULL or a live EncCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<EncCtx>(c) };
    guard(origin, "encoder_freectx", (), || {
        if !c.is_null() {
            // SAFETY: an EncCtx we boxed, freed once.
            drop(unsafe { Box::from_raw(c as *mut EncCtx) });
        }
        Ok(())
    })
}

extern "C" fn set_ctx_params(c: *mut c_void, params: *const Param) -> c_int {
    // SAFETY: `c` is NULL or a live EncCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<EncCtx>(c) };
    guard(origin, "encoder_set_ctx_params", 0, || {
        if c.is_null() {
            return Err(Fail::new(Reason::BadParameter, "no encoder context"));
        }
        // SAFETY: a live EncCtx of ours.
        let c = unsafe { &mut *(c as *mut EncCtx) };
        // SAFETY: the host's parameter array.
        for p in unsafe { each(params) } {
            if key_of(p) == "cipher" {
                c.cipher = !crate::params::get_utf8(p)?.is_empty();
            }
        }
        Ok(1)
    })
}

static SETTABLE: Shared<[Param; 2]> = Shared([describe(c"cipher", PARAM_UTF8_STRING), END]);

extern "C" fn settable_ctx_params(_provctx: *mut c_void) -> *const Param {
    SETTABLE.0.as_ptr()
}

fn does<const F: u8>(selection: c_int) -> bool {
    match form::<F>() {
        Form::PrivDer | Form::PrivPem => selection & SELECT_PRIVATE_KEY != 0,
        Form::PubDer | Form::PubPem => selection & SELECT_PUBLIC_KEY != 0,
        Form::Text => selection & SELECT_KEYPAIR != 0,
    }
}

const fn form<const F: u8>() -> Form {
    Form::ALL[F as usize]
}

extern "C" fn does_selection<const F: u8>(_provctx: *mut c_void, selection: c_int) -> c_int {
    does::<F>(selection) as c_int
}

/// OpenSSL's hex dump layout: 15 bytes a line, indented 4, every byte but
/// the last followed by a colon.
fn hex_block(out: &mut String, label: &str, bytes: &[u8]) {
    let _ = writeln!(out, "{label}:");
    let last = bytes.len().saturating_sub(1);
    for (line, chunk) in bytes.chunks(15).enumerate() {
        out.push_str("    ");
        for (i, b) in chunk.iter().enumerate() {
            let _ = write!(out, "{b:02x}");
            if line * 15 + i != last {
                out.push(':');
            }
        }
        out.push('\n');
    }
}

extern "C" fn encode<const F: u8>(
    c: *mut c_void,
    out: *mut c_void,
    obj: *const c_void,
    _abstract: *const Param,
    selection: c_int,
    _cb: *const c_void,
    _cbarg: *mut c_void,
) -> c_int {
    // SAFETY: `c` is NULL or a live EncCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<EncCtx>(c) };
    guard(origin, "encoder_encode", 0, || {
        if c.is_null() {
            return Err(Fail::new(Reason::BadParameter, "no encoder context"));
        }
        // SAFETY: a live EncCtx of ours.
        let c = unsafe { &*(c as *const EncCtx) };
        // SAFETY: `obj` is a keydata of our keymgmt (we offer no import_object).
        let k = unsafe { keydata(obj) }?;
        let m = k
            .material
            .as_ref()
            .ok_or_else(|| Fail::new(Reason::MissingKey, "no key to encode"))?;
        let private = || {
            m.sk.as_ref().ok_or_else(|| {
                Fail::new(Reason::MissingKey, "the key has no private half to encode")
            })
        };
        let refuse_cipher = || {
            if c.cipher {
                Err(Fail::new(
                    Reason::NotSupported,
                    "this provider writes PrivateKeyInfo unencrypted only; encrypt it with `openssl pkcs8 -topk8 -v2 aes-256-cbc` (OpenSSL's PBES2)",
                ))
            } else {
                Ok(())
            }
        };
        let bytes: Vec<u8> = match form::<F>() {
            Form::PrivDer => {
                refuse_cipher()?;
                private()?.to_pkcs8_der()?.to_vec()
            }
            Form::PrivPem => {
                refuse_cipher()?;
                private()?.to_pkcs8_pem()?.as_bytes().to_vec()
            }
            Form::PubDer => m.pk.to_spki_der()?,
            Form::PubPem => m.pk.to_spki_pem()?.into_bytes(),
            Form::Text => {
                let name = k.key_type().name_str();
                let mut t = String::new();
                match (&m.sk, selection & SELECT_PRIVATE_KEY != 0) {
                    (Some(sk), true) => {
                        let _ = writeln!(t, "{name} Private-Key:");
                        hex_block(&mut t, "priv", &sk.to_bytes());
                    }
                    _ => {
                        let _ = writeln!(t, "{name} Public-Key:");
                    }
                }
                hex_block(&mut t, "pub", &m.pk.to_bytes());
                t.into_bytes()
            }
        };
        let core = crate::core::get()
            .ok_or_else(|| Fail::new(Reason::Internal, "provider not initialised"))?;
        let ok = core.write_all(out, &bytes);
        // Wipe our copy of anything that held a private key.
        let mut bytes = bytes;
        zeroize::Zeroize::zeroize(&mut bytes);
        if ok {
            Ok(1)
        } else {
            Err(Fail::new(
                Reason::Internal,
                "writing the encoded key failed",
            ))
        }
    })
}

/// The dispatch table of encoder form `F` (index into [`Form::ALL`]).
pub fn dispatch<const F: u8>() -> Vec<Dispatch> {
    type New = extern "C" fn(*mut c_void) -> *mut c_void;
    type Free = extern "C" fn(*mut c_void);
    type SetParams = extern "C" fn(*mut c_void, *const Param) -> c_int;
    type Settable = extern "C" fn(*mut c_void) -> *const Param;
    type Does = extern "C" fn(*mut c_void, c_int) -> c_int;
    type Encode = extern "C" fn(
        *mut c_void,
        *mut c_void,
        *const c_void,
        *const Param,
        c_int,
        *const c_void,
        *mut c_void,
    ) -> c_int;
    vec![
        crate::dispatch!(CODER_NEWCTX, newctx, New),
        crate::dispatch!(CODER_FREECTX, freectx, Free),
        crate::dispatch!(CODER_SET_CTX_PARAMS, set_ctx_params, SetParams),
        crate::dispatch!(CODER_SETTABLE_CTX_PARAMS, settable_ctx_params, Settable),
        crate::dispatch!(CODER_DOES_SELECTION, does_selection::<F>, Does),
        crate::dispatch!(CODER_ENCODE_OR_DECODE, encode::<F>, Encode),
        DISPATCH_END,
    ]
}
