//! Encoders (`OSSL_OP_ENCODER`): PKCS#8 `PrivateKeyInfo` and
//! `SubjectPublicKeyInfo`, DER and PEM, written by the core's encoders (the
//! same bytes our CLI and OpenSSL 3.5 write), and `-text`. When the host
//! asks for a cipher (`genpkey -aes256`, `pkey -aes256`, `req -newkey`
//! without `-nodes`), the private key is written as an
//! `EncryptedPrivateKeyInfo` by the core (PBES2: scrypt and AES-256-CBC,
//! what `sphincs keygen --encrypt` writes and OpenSSL reads) under the
//! passphrase the host's callback gives. Whatever cipher is named (OpenSSL
//! 3.0's `req` names DES-EDE3-CBC by default) the key is encrypted with
//! AES-256-CBC: never weaker than asked, and what every OpenSSL 3 reads. A
//! private key is never written in the clear when a cipher was asked for.

use std::ffi::{c_int, c_void};
use std::fmt::Write as _;

use zeroize::Zeroizing;

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
    /// The cipher the host asked for (`cipher`), if any.
    cipher: Option<String>,
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
                cipher: None,
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
                let name = crate::params::get_utf8(p)?;
                c.cipher = (!name.is_empty()).then(|| name.to_string());
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
    cb: *const c_void,
    cbarg: *mut c_void,
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
        // The passphrase when a cipher was asked for (wiped on drop).
        let passphrase = || -> Result<Option<Zeroizing<Vec<u8>>>, Fail> {
            match &c.cipher {
                None => Ok(None),
                // Whatever cipher was named (OpenSSL 3.0's `req` asks for
                // DES-EDE3-CBC by default), the core writes AES-256-CBC.
                Some(_) => {
                    // SAFETY: the host's OSSL_PASSPHRASE_CALLBACK (or NULL) and its argument.
                    unsafe { ask_passphrase(cb, cbarg) }.map(Some)
                }
            }
        };
        let bytes: Vec<u8> = match form::<F>() {
            Form::PrivDer => match passphrase()? {
                Some(pass) => private()?.to_encrypted_pkcs8_der(&pass)?,
                None => private()?.to_pkcs8_der()?.to_vec(),
            },
            Form::PrivPem => match passphrase()? {
                Some(pass) => private()?.to_encrypted_pkcs8_pem(&pass)?.into_bytes(),
                None => private()?.to_pkcs8_pem()?.as_bytes().to_vec(),
            },
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

/// OpenSSL's passphrase callback (`OSSL_PASSPHRASE_CALLBACK`).
type PassphraseCb = unsafe extern "C" fn(
    *mut std::ffi::c_char,
    usize,
    *mut usize,
    *const Param,
    *mut c_void,
) -> c_int;

/// Most passphrase bytes taken from the host.
const MAX_PASSPHRASE: usize = 1024;

/// Asks the host's callback for the passphrase to encrypt under.
///
/// # Safety
/// `cb` is NULL or the host's `OSSL_PASSPHRASE_CALLBACK`, `cbarg` its argument.
unsafe fn ask_passphrase(
    cb: *const c_void,
    cbarg: *mut c_void,
) -> Result<Zeroizing<Vec<u8>>, Fail> {
    if cb.is_null() {
        return Err(Fail::new(
            Reason::BadParameter,
            "a cipher was asked for but the host gave no passphrase callback",
        ));
    }
    // SAFETY: a non-NULL OSSL_PASSPHRASE_CALLBACK, by the caller's promise.
    let cb: PassphraseCb = unsafe { std::mem::transmute::<*const c_void, PassphraseCb>(cb) };
    let mut buf = Zeroizing::new(vec![0u8; MAX_PASSPHRASE]);
    let mut len = 0usize;
    let params = [END];
    // SAFETY: a writable buffer of MAX_PASSPHRASE bytes, a length slot and
    // an empty parameter list, all live across the call.
    let ok = unsafe {
        cb(
            buf.as_mut_ptr() as *mut std::ffi::c_char,
            buf.len(),
            &mut len,
            params.as_ptr(),
            cbarg,
        )
    };
    if ok == 0 {
        return Err(Fail::new(Reason::BadParameter, "no passphrase was given"));
    }
    if len == 0 || len > buf.len() {
        return Err(Fail::new(
            Reason::BadParameter,
            format!("the passphrase must be 1 to {MAX_PASSPHRASE} bytes"),
        ));
    }
    buf.truncate(len);
    Ok(buf)
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
