//! `sphincs.so`: an OpenSSL 3 provider for SLH-DSA (FIPS 205) and
//! HashSLH-DSA (RFC 9909 key types) over the `sphincs` core. One binary
//! serves OpenSSL 3.0 through 3.5+: at load it reads the running version
//! (the core's `openssl-version` parameter) and offers what that version
//! can use — OID registration below 3.5 (3.5 knows the OIDs), the message
//! signing API from 3.4, the TLS-SIGALG capability from 3.5.
//!
//! Files mirror the host's operations: `keymgmt`, `signature`, `encoder`,
//! `decoder`, `capabilities`; `abi` is the hand-written C ABI, `params`
//! the OSSL_PARAM accessors, `core` the upcalls, `errors` the error queue
//! and the panic guard every entry point runs in. No scheme logic lives
//! here: keys, signatures and encodings are the core's.
#![deny(clippy::undocumented_unsafe_blocks)]
#![allow(clippy::missing_safety_doc)]

pub mod abi;
mod capabilities;
mod core;
mod decoder;
mod encoder;
mod errors;
mod keymgmt;
mod names;
mod params;
mod signature;

/// Entry points for the cargo-fuzz target (fuzz/fuzz_targets/provider_decoder.rs).
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::decoder::fuzz_decoders;
}

use std::ffi::{c_int, c_void, CStr};
use std::sync::OnceLock;

use abi::*;
use errors::{guard, Origin};

/// What `query_operation` answers, built once at the first load.
struct Tables {
    keymgmt: Vec<Algorithm>,
    signature: Vec<Algorithm>,
    encoder: Vec<Algorithm>,
    decoder: Vec<Algorithm>,
    provider: Vec<Dispatch>,
}

static TABLES: OnceLock<Shared<Tables>> = OnceLock::new();

macro_rules! per_type {
    ($($f:ident)::+ $(, $arg:expr)*) => {
        vec![
            $($f)::+::<0>($($arg),*), $($f)::+::<1>($($arg),*), $($f)::+::<2>($($arg),*), $($f)::+::<3>($($arg),*),
            $($f)::+::<4>($($arg),*), $($f)::+::<5>($($arg),*), $($f)::+::<6>($($arg),*), $($f)::+::<7>($($arg),*),
            $($f)::+::<8>($($arg),*), $($f)::+::<9>($($arg),*), $($f)::+::<10>($($arg),*), $($f)::+::<11>($($arg),*),
            $($f)::+::<12>($($arg),*), $($f)::+::<13>($($arg),*), $($f)::+::<14>($($arg),*), $($f)::+::<15>($($arg),*),
            $($f)::+::<16>($($arg),*), $($f)::+::<17>($($arg),*), $($f)::+::<18>($($arg),*), $($f)::+::<19>($($arg),*),
            $($f)::+::<20>($($arg),*), $($f)::+::<21>($($arg),*), $($f)::+::<22>($($arg),*), $($f)::+::<23>($($arg),*),
        ]
    };
}

fn dec_priv<const T: usize>() -> Vec<Dispatch> {
    decoder::dispatch::<T, true>()
}

fn dec_pub<const T: usize>() -> Vec<Dispatch> {
    decoder::dispatch::<T, false>()
}

/// A dispatch table that lives as long as the process.
fn leak(v: Vec<Dispatch>) -> *const Dispatch {
    Box::leak(v.into_boxed_slice()).as_ptr()
}

fn entry(names: &CStr, props: &'static CStr, dispatch: *const Dispatch) -> Algorithm {
    Algorithm {
        names: names::leak(names).as_ptr(),
        props: props.as_ptr(),
        dispatch,
        description: std::ptr::null(),
    }
}

const END_ALGORITHM: Algorithm = Algorithm {
    names: std::ptr::null(),
    props: std::ptr::null(),
    dispatch: std::ptr::null(),
    description: std::ptr::null(),
};

fn build(core: &core::Core) -> Tables {
    let types = names::all();
    let message_api = core.at_least(3, 4);
    let openssl_35 = core.at_least(3, 5);
    let km: Vec<_> = per_type!(keymgmt::dispatch).into_iter().map(leak).collect();
    let sig: Vec<_> = per_type!(signature::dispatch, message_api)
        .into_iter()
        .map(leak)
        .collect();
    let dpriv: Vec<_> = per_type!(dec_priv).into_iter().map(leak).collect();
    let dpub: Vec<_> = per_type!(dec_pub).into_iter().map(leak).collect();
    let enc: Vec<_> = vec![
        encoder::dispatch::<0>(),
        encoder::dispatch::<1>(),
        encoder::dispatch::<2>(),
        encoder::dispatch::<3>(),
        encoder::dispatch::<4>(),
    ]
    .into_iter()
    .map(leak)
    .collect();
    // The pure sets outrank the HashSLH-DSA types (listed after them, and
    // with a property the pure ones lack) when a name could match both.
    let props = |hash: bool| -> &'static CStr {
        if hash {
            c"provider=sphincs,sphincs.hash=yes"
        } else {
            c"provider=sphincs"
        }
    };
    let mut t = Tables {
        keymgmt: Vec::new(),
        signature: Vec::new(),
        encoder: Vec::new(),
        decoder: Vec::new(),
        provider: Vec::new(),
    };
    for (i, ty) in types.iter().enumerate() {
        // One name list for all four operations: OpenSSL maps a name to one
        // algorithm number, and ties an operation to its keymgmt by it.
        let names = ty.names_for(openssl_35);
        t.keymgmt.push(entry(names, props(ty.hash), km[i]));
        t.signature.push(entry(names, props(ty.hash), sig[i]));
        for (f, form) in encoder::Form::ALL.iter().enumerate() {
            t.encoder.push(entry(names, form.properties(), enc[f]));
        }
        t.decoder.push(entry(
            names,
            c"provider=sphincs,input=der,structure=PrivateKeyInfo",
            dpriv[i],
        ));
        t.decoder.push(entry(
            names,
            c"provider=sphincs,input=der,structure=SubjectPublicKeyInfo",
            dpub[i],
        ));
    }
    for v in [
        &mut t.keymgmt,
        &mut t.signature,
        &mut t.encoder,
        &mut t.decoder,
    ] {
        v.push(END_ALGORITHM);
    }
    type Teardown = extern "C" fn(*mut c_void);
    type Gettable = extern "C" fn(*mut c_void) -> *const Param;
    type GetParams = extern "C" fn(*mut c_void, *mut Param) -> c_int;
    type Query = extern "C" fn(*mut c_void, c_int, *mut c_int) -> *const Algorithm;
    type Reasons = extern "C" fn(*mut c_void) -> *const Item;
    type Caps =
        extern "C" fn(*mut c_void, *const std::ffi::c_char, Option<Callback>, *mut c_void) -> c_int;
    t.provider = vec![
        dispatch!(PROVIDER_TEARDOWN, teardown, Teardown),
        dispatch!(PROVIDER_GETTABLE_PARAMS, gettable_params, Gettable),
        dispatch!(PROVIDER_GET_PARAMS, get_params, GetParams),
        dispatch!(PROVIDER_QUERY_OPERATION, query_operation, Query),
        dispatch!(PROVIDER_GET_REASON_STRINGS, reason_strings, Reasons),
        dispatch!(PROVIDER_GET_CAPABILITIES, capabilities::get, Caps),
        DISPATCH_END,
    ];
    t
}

/// Below 3.5 OpenSSL does not know the SLH-DSA OIDs: register them, and
/// each as a signature algorithm of its own key type with no digest, so
/// that X.509 finds our keys by OID. 3.5 knows all 24 OIDs already (the
/// HashSLH-DSA ones under its own object names, which our types carry as
/// aliases there: see `names::KeyType::names_for`), and creating them again
/// would only queue errors; but it has signature-algorithm entries
/// (`OBJ_find_sigid_algs`) for the pure ones only. Without one, X.509
/// cannot tell which key type signed a certificate, so a self-signed
/// HashSLH-DSA certificate is not seen as self-signed, nor an issuer as
/// its issuer: on 3.5 register the twelve HashSLH-DSA OIDs as signature
/// algorithms of their own key type (by OID; the core refuses nothing
/// that exists already).
fn register_oids(core: &core::Core) {
    let openssl_35 = core.at_least(3, 5);
    for ty in names::all() {
        if openssl_35 {
            if ty.hash {
                core.obj_add_sigid(&ty.oid, c"", &ty.oid);
            }
        } else if core.obj_create(&ty.oid, &ty.sn, &ty.name) {
            core.obj_add_sigid(&ty.name, c"", &ty.name);
        }
    }
}

extern "C" fn teardown(_provctx: *mut c_void) {}

static PROV_PARAMS: Shared<[Param; 5]> = Shared([
    params::describe(c"name", PARAM_UTF8_PTR),
    params::describe(c"version", PARAM_UTF8_PTR),
    params::describe(c"buildinfo", PARAM_UTF8_PTR),
    params::describe(c"status", PARAM_INTEGER),
    abi::END,
]);

extern "C" fn gettable_params(_provctx: *mut c_void) -> *const Param {
    PROV_PARAMS.0.as_ptr()
}

extern "C" fn get_params(provctx: *mut c_void, p: *mut Param) -> c_int {
    guard(Origin::of(provctx), "provider_get_params", 0, || {
        const VERSION: &CStr =
            match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
                Ok(s) => s,
                Err(_) => c"0",
            };
        // SAFETY: every `locate` reads the host's writable parameter array.
        unsafe {
            if let Some(x) = params::locate(p, "name") {
                params::set_utf8(x, c"sphincs: SLH-DSA (FIPS 205) provider")?;
            }
            if let Some(x) = params::locate(p, "version") {
                params::set_utf8(x, VERSION)?;
            }
            if let Some(x) = params::locate(p, "buildinfo") {
                params::set_utf8(x, c"sphincs-openssl-provider (Rust, over the sphincs core)")?;
            }
            if let Some(x) = params::locate(p, "status") {
                params::set_int(x, 1)?;
            }
        }
        Ok(1)
    })
}

extern "C" fn query_operation(
    provctx: *mut c_void,
    op: c_int,
    no_cache: *mut c_int,
) -> *const Algorithm {
    guard(
        Origin::of(provctx),
        "provider_query_operation",
        std::ptr::null(),
        || {
            if !no_cache.is_null() {
                // SAFETY: the host's int slot.
                unsafe { *no_cache = 0 };
            }
            let Some(t) = TABLES.get() else {
                return Ok(std::ptr::null());
            };
            let t = &t.0;
            Ok(match op {
                OP_KEYMGMT => t.keymgmt.as_ptr(),
                OP_SIGNATURE => t.signature.as_ptr(),
                OP_ENCODER => t.encoder.as_ptr(),
                OP_DECODER => t.decoder.as_ptr(),
                _ => std::ptr::null(),
            })
        },
    )
}

extern "C" fn reason_strings(provctx: *mut c_void) -> *const Item {
    guard(
        Origin::of(provctx),
        "provider_get_reason_strings",
        std::ptr::null(),
        || Ok(errors::reason_strings().as_ptr()),
    )
}

/// The provider's entry point, called by OpenSSL when it loads `sphincs.so`.
///
/// # Safety
/// Called by OpenSSL only, with its core handle, its dispatch table and two
/// out-pointers.
#[no_mangle]
pub unsafe extern "C" fn OSSL_provider_init(
    handle: *const c_void,
    input: *const Dispatch,
    out: *mut *const Dispatch,
    provctx: *mut *mut c_void,
) -> c_int {
    guard(Origin(handle), "OSSL_provider_init", 0, || {
        if out.is_null() || provctx.is_null() {
            return Ok(0);
        }
        // SAFETY: OpenSSL's dispatch table, NULL-terminated.
        let core = unsafe { core::init(handle, input) };
        let tables = TABLES.get_or_init(|| {
            register_oids(core);
            Shared(build(core))
        });
        // SAFETY: the host's two out-pointers, checked non-NULL above.
        unsafe {
            *out = tables.0.provider.as_ptr();
            *provctx = handle as *mut c_void;
        }
        Ok(1)
    })
}
