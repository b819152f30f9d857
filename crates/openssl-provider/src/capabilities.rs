//! Provider capabilities: `TLS-SIGALG` (OpenSSL 3.5+), so that libssl can
//! negotiate SLH-DSA in TLS 1.3 with a certificate of ours. Code points
//! 0x0911–0x091C as draft-reddy-tls-slhdsa-01 lists them and oqs-provider
//! uses them: the twelve pure sets in OID order (SHA2-128s = 0x0911 …
//! SHAKE-256f = 0x091C). TLS 1.3 only (no TLS 1.2, no DTLS).

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::sync::OnceLock;

use crate::abi::*;
use crate::errors::{guard, Origin};
use crate::names;

const TLS1_3_VERSION: c_int = 0x0304;

struct SigAlg {
    iana: CString,
    code_point: c_uint,
    sec_bits: c_uint,
    ty: usize,
}

fn sigalgs() -> &'static [SigAlg] {
    static T: OnceLock<Vec<SigAlg>> = OnceLock::new();
    T.get_or_init(|| {
        names::all()
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let cp = t.tls?;
                // slhdsa_sha2_128s, slhdsa_shake_256f, …
                let iana = t.name_str()["SLH-DSA-".len()..]
                    .to_ascii_lowercase()
                    .replace('-', "_");
                Some(SigAlg {
                    iana: CString::new(format!("slhdsa_{iana}")).expect("no NUL"),
                    code_point: c_uint::from(cp),
                    sec_bits: (8 * t.n()) as c_uint,
                    ty: i,
                })
            })
            .collect()
    })
}

fn utf8(key: &'static CStr, s: &CStr) -> Param {
    build(
        key,
        PARAM_UTF8_STRING,
        s.as_ptr() as *mut c_void,
        s.to_bytes().len(),
    )
}

/// `get_capabilities`: "TLS-SIGALG" on 3.5+; nothing else.
/// (ret 1 on success, as for every other capability query.)
pub extern "C" fn get(
    provctx: *mut c_void,
    name: *const c_char,
    cb: Option<Callback>,
    arg: *mut c_void,
) -> c_int {
    guard(Origin::of(provctx), "provider_get_capabilities", 0, || {
        let (Some(cb), false) = (cb, name.is_null()) else {
            return Ok(0);
        };
        // SAFETY: a NUL-terminated capability name from the host.
        let name = unsafe { CStr::from_ptr(name) };
        let new_enough = crate::core::get().is_some_and(|c| c.at_least(3, 5));
        // A capability we have nothing to report for (TLS-GROUP, or
        // TLS-SIGALG before 3.5) is success with no callbacks: libssl fails
        // SSL_CTX_new if a provider answers 0 here.
        if name != c"TLS-SIGALG" || !new_enough {
            return Ok(1);
        }
        for s in sigalgs() {
            let ty = names::get(s.ty);
            let mut cp = s.code_point;
            let mut bits = s.sec_bits;
            let (mut min_tls, mut max_tls, mut min_dtls, mut max_dtls) =
                (TLS1_3_VERSION, 0 as c_int, -1 as c_int, -1 as c_int);
            let int = |k: &'static CStr, v: &mut c_int| {
                build(k, PARAM_INTEGER, v as *mut c_int as *mut c_void, 4)
            };
            let params = [
                utf8(c"tls-sigalg-iana-name", &s.iana),
                build(
                    c"tls-sigalg-code-point",
                    PARAM_UNSIGNED_INTEGER,
                    &mut cp as *mut c_uint as *mut c_void,
                    4,
                ),
                utf8(c"tls-sigalg-name", &ty.name),
                utf8(c"tls-sigalg-oid", &ty.oid),
                utf8(c"tls-sigalg-keytype", &ty.name),
                utf8(c"tls-sigalg-keytype-oid", &ty.oid),
                build(
                    c"tls-sigalg-sec-bits",
                    PARAM_UNSIGNED_INTEGER,
                    &mut bits as *mut c_uint as *mut c_void,
                    4,
                ),
                int(c"tls-min-tls", &mut min_tls),
                int(c"tls-max-tls", &mut max_tls),
                int(c"tls-min-dtls", &mut min_dtls),
                int(c"tls-max-dtls", &mut max_dtls),
                END,
            ];
            // SAFETY: `params` and everything it points at live across the call.
            if unsafe { cb(params.as_ptr(), arg) } == 0 {
                return Ok(0);
            }
        }
        Ok(1)
    })
}
