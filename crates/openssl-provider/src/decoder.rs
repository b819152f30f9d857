//! Decoders (`OSSL_OP_DECODER`): DER `PrivateKeyInfo` and
//! `SubjectPublicKeyInfo` into our keys, opened by the core's one routine
//! (`any::KeyOpener`). PEM
//! is unwrapped, and encrypted PKCS#8 decrypted, by OpenSSL's own decoders
//! before ours see the DER. Input is capped at [`INPUT_CAP`] bytes (the
//! largest SLH-DSA key encodes to under 200).

use std::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

use sphincs::any::{AnyVerifyingKey, KeyFileKind, KeyOpener, OpenError};

use crate::abi::*;
use crate::errors::{guard, origin_of, Fail, Origin, Owned, Reason};
use crate::keymgmt::{KeyData, Material};
use crate::names;

/// Largest input a decoder reads.
pub const INPUT_CAP: usize = 64 * 1024;

struct DecCtx {
    origin: Origin,
}

impl Owned for DecCtx {
    fn origin(&self) -> Origin {
        self.origin
    }
}

extern "C" fn newctx(provctx: *mut c_void) -> *mut c_void {
    guard(
        Origin::of(provctx),
        "decoder_newctx",
        std::ptr::null_mut(),
        || {
            Ok(Box::into_raw(Box::new(DecCtx {
                origin: Origin::of(provctx),
            })) as *mut c_void)
        },
    )
}

extern "C" fn freectx(c: *mut c_void) {
    // SAFETY: `c` is NULL or a live DecCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<DecCtx>(c) };
    guard(origin, "decoder_freectx", (), || {
        if !c.is_null() {
            // SAFETY: a DecCtx we boxed, freed once.
            drop(unsafe { Box::from_raw(c as *mut DecCtx) });
        }
        Ok(())
    })
}

extern "C" fn does_selection<const PRIV: bool>(_provctx: *mut c_void, selection: c_int) -> c_int {
    if selection == 0 {
        return 1;
    }
    let want = if PRIV {
        SELECT_PRIVATE_KEY
    } else {
        SELECT_PUBLIC_KEY
    };
    (selection & want != 0) as c_int
}

/// The AlgorithmIdentifier bytes (13: SEQUENCE { OID(9) }) where a
/// PrivateKeyInfo (after the version) or a SubjectPublicKeyInfo (first)
/// has it, if the outer SEQUENCE header is well formed.
fn algorithm_id_of<const PRIV: bool>(der: &[u8]) -> Option<&[u8]> {
    let rest = match der {
        [0x30, l, rest @ ..] if *l < 0x80 => rest,
        [0x30, 0x81, _, rest @ ..] => rest,
        [0x30, 0x82, _, _, rest @ ..] => rest,
        _ => return None,
    };
    let rest = if PRIV {
        match rest {
            [0x02, 0x01, 0x00 | 0x01, rest @ ..] => rest,
            _ => return None,
        }
    } else {
        rest
    };
    rest.get(..13)
}

/// The key of type `T` in `der`, `Ok(None)` when the input is not a key of
/// that type (another decoder may take it), `Err` when it names our type
/// but is malformed.
fn parse<const T: usize, const PRIV: bool>(
    origin: Origin,
    der: &[u8],
) -> Result<Option<KeyData>, Fail> {
    // Input that fails to parse is ours to report only when its
    // AlgorithmIdentifier is our type's, where this structure puts it;
    // anything else may be another decoder's.
    let names_us = algorithm_id_of::<PRIV>(der) == Some(&names::get(T).algorithm_id()[..]);
    let ours = |e: sphincs::Error| {
        if names_us {
            Err(Fail::core(e))
        } else {
            Ok(None)
        }
    };
    // The core's one routine opens the key. Loading trusts PK.root, as 3.5
    // does (`validate`, pkey -check, recomputes it), so that loading an "s"
    // key costs no key generation; a PKCS#8 v2 `publicKey` is still
    // compared with the key's public half.
    let mut opener = KeyOpener::new(None).trusting_root();
    let opened = if PRIV {
        opener.open_signing_key(der).map(|o| {
            let pk = o.key.verifying_key();
            (Some(o.key), pk)
        })
    } else if KeyFileKind::of(der) == KeyFileKind::Public {
        opener.open_verifying_key(der).map(|pk| (None, pk))
    } else {
        // No SubjectPublicKeyInfo: the SPKI reader says why.
        AnyVerifyingKey::from_spki(der)
            .map(|pk| (None, pk))
            .map_err(OpenError::from)
    };
    let (sk, pk) = match opened {
        Ok(keys) => keys,
        Err(e) => return ours(e.into()),
    };
    let (Some(alg), Some(mode)) = (pk.algorithm().slh_dsa(), pk.mode()) else {
        return Ok(None);
    };
    if names::index_of(alg, mode) != Some(T) {
        return Ok(None);
    }
    Ok(Some(KeyData {
        origin,
        ty: T,
        material: Some(Arc::new(Material { sk, pk })),
    }))
}

extern "C" fn decode<const T: usize, const PRIV: bool>(
    c: *mut c_void,
    cin: *mut c_void,
    selection: c_int,
    data_cb: Option<Callback>,
    data_cbarg: *mut c_void,
    _pw_cb: *const c_void,
    _pw_cbarg: *mut c_void,
) -> c_int {
    // SAFETY: `c` is NULL or a live DecCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<DecCtx>(c) };
    guard(origin, "decoder_decode", 0, || {
        if selection != 0 && does_selection::<PRIV>(std::ptr::null_mut(), selection) == 0 {
            return Ok(1);
        }
        let core = crate::core::get()
            .ok_or_else(|| Fail::new(Reason::Internal, "provider not initialised"))?;
        let der = zeroize::Zeroizing::new(
            core.read_all(cin, INPUT_CAP)
                .map_err(|e| Fail::new(Reason::BadEncoding, e))?,
        );
        // A key of another type, or not a key at all: empty-handed success,
        // so that the host tries its other decoders.
        let Some(kd) = parse::<T, PRIV>(origin, &der)? else {
            return Ok(1);
        };
        let Some(cb) = data_cb else {
            return Err(Fail::new(Reason::BadParameter, "no data callback"));
        };
        let mut slot: *mut KeyData = Box::into_raw(Box::new(kd));
        let mut object_type: c_int = OBJECT_PKEY;
        let name = names::get(T).name.as_ptr() as *mut c_char;
        let structure: &'static std::ffi::CStr = if PRIV {
            c"PrivateKeyInfo"
        } else {
            c"SubjectPublicKeyInfo"
        };
        let out = [
            build(
                c"type",
                PARAM_INTEGER,
                &mut object_type as *mut c_int as *mut c_void,
                std::mem::size_of::<c_int>(),
            ),
            build(
                c"data-type",
                PARAM_UTF8_STRING,
                name as *mut c_void,
                names::get(T).name.as_bytes().len(),
            ),
            build(
                c"data-structure",
                PARAM_UTF8_STRING,
                structure.as_ptr() as *mut c_void,
                structure.to_bytes().len(),
            ),
            build(
                c"reference",
                PARAM_OCTET_STRING,
                &mut slot as *mut *mut KeyData as *mut c_void,
                std::mem::size_of::<*mut KeyData>(),
            ),
            END,
        ];
        // SAFETY: `out` and everything it points at live across the call; the
        // host's keymgmt `load` may take the key out of `slot`.
        let r = unsafe { cb(out.as_ptr(), data_cbarg) };
        if !slot.is_null() {
            // SAFETY: not taken by `load`: still ours to free (wipes it).
            drop(unsafe { Box::from_raw(slot) });
        }
        Ok(r)
    })
}

/// The dispatch table of the decoder for key type `T`, private or public.
pub fn dispatch<const T: usize, const PRIV: bool>() -> Vec<Dispatch> {
    type New = extern "C" fn(*mut c_void) -> *mut c_void;
    type Free = extern "C" fn(*mut c_void);
    type Does = extern "C" fn(*mut c_void, c_int) -> c_int;
    type Decode = extern "C" fn(
        *mut c_void,
        *mut c_void,
        c_int,
        Option<Callback>,
        *mut c_void,
        *const c_void,
        *mut c_void,
    ) -> c_int;
    vec![
        crate::dispatch!(CODER_NEWCTX, newctx, New),
        crate::dispatch!(CODER_FREECTX, freectx, Free),
        crate::dispatch!(CODER_DOES_SELECTION, does_selection::<PRIV>, Does),
        crate::dispatch!(CODER_ENCODE_OR_DECODE, decode::<T, PRIV>, Decode),
        DISPATCH_END,
    ]
}

/// What the decoders make of arbitrary input, for the fuzz target and the
/// tests: every key type's PrivateKeyInfo and SubjectPublicKeyInfo decoder
/// runs on `der`. Returns how many accepted it; panics if an accepted key is
/// not of the decoder's type or does not re-encode to the same key, or if
/// more than one decoder accepts the same input.
pub fn fuzz_decoders(der: &[u8]) -> usize {
    fn run<const T: usize>(der: &[u8]) -> usize {
        let mut accepted = 0;
        for (private, got) in [
            (true, parse::<T, true>(Origin::NONE, der)),
            (false, parse::<T, false>(Origin::NONE, der)),
        ] {
            let Ok(Some(kd)) = got else { continue };
            accepted += 1;
            assert_eq!(kd.ty, T, "a decoder returned another type's key");
            let m = kd.material.as_ref().expect("decoded keys have material");
            assert_eq!(m.sk.is_some(), private);
            let again = if private {
                parse::<T, true>(
                    Origin::NONE,
                    &m.sk
                        .as_ref()
                        .expect("private")
                        .to_pkcs8_der()
                        .expect("re-encode"),
                )
            } else {
                parse::<T, false>(Origin::NONE, &m.pk.to_spki_der().expect("re-encode"))
            };
            let again = again
                .expect("own encoding decodes")
                .expect("own encoding is this type");
            let m2 = again.material.as_ref().expect("material");
            assert!(m2.pk == m.pk, "re-encoded key differs");
        }
        accepted
    }
    let counts = [
        run::<0>(der),
        run::<1>(der),
        run::<2>(der),
        run::<3>(der),
        run::<4>(der),
        run::<5>(der),
        run::<6>(der),
        run::<7>(der),
        run::<8>(der),
        run::<9>(der),
        run::<10>(der),
        run::<11>(der),
        run::<12>(der),
        run::<13>(der),
        run::<14>(der),
        run::<15>(der),
        run::<16>(der),
        run::<17>(der),
        run::<18>(der),
        run::<19>(der),
        run::<20>(der),
        run::<21>(der),
        run::<22>(der),
        run::<23>(der),
    ];
    let total: usize = counts.iter().sum();
    assert!(total <= 1, "{total} decoders accepted one input");
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use sphincs::any::AnySigningKey;

    /// A small deterministic mutation run over real encodings: truncations,
    /// bit flips and length-byte changes never panic, and whatever is
    /// accepted is well formed (cargo-fuzz explores further: fuzz/).
    #[test]
    fn mutated_encodings_never_panic() {
        let sk =
            AnySigningKey::from_seed("SLH-DSA-SHAKE-128f".parse().unwrap(), &[7u8; 48], 1).unwrap();
        let seeds = [
            sk.to_pkcs8_der().unwrap().to_vec(),
            sk.verifying_key().to_spki_der().unwrap(),
        ];
        for der in &seeds {
            assert_eq!(fuzz_decoders(der), 1);
            let mut x: u32 = 0x9e37_79b9;
            for i in 0..der.len() {
                assert_eq!(fuzz_decoders(&der[..i]), 0, "a truncation was accepted");
                for _ in 0..4 {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    let mut m = der.clone();
                    m[i] ^= 1 << (x % 8);
                    fuzz_decoders(&m);
                }
            }
        }
        assert_eq!(fuzz_decoders(&[]), 0);
        assert_eq!(fuzz_decoders(&[0x30, 0x82, 0xff, 0xff]), 0);
    }
}
