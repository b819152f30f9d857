//! Key management (`OSSL_OP_KEYMGMT`): generation (random, or from a known
//! 3n-byte seed as OpenSSL 3.5's `-pkeyopt hexseed:` gives), import and
//! export in OpenSSL 3.5's layout (`pub`: 2n bytes; `priv`: 4n, or 2n with
//! `pub`), has/match/validate and the size parameters. Keys live in the
//! core's types, which wipe their secret halves when dropped: OpenSSL's
//! `free` drops them.

use std::ffi::{c_int, c_void};
use std::sync::Arc;

use sphincs::any::{AnySigningKey, AnyVerifyingKey, KeyOpener};
use zeroize::Zeroizing;

use crate::abi::*;
use crate::errors::{guard, origin_of, Fail, Origin, Owned, Reason};
use crate::names::{self, KeyType};
use crate::params::{describe, each, get_octets, key_of, locate, set_int, set_octets, set_utf8};

/// Key material; shared (read-only) with every signature context using it.
pub struct Material {
    pub sk: Option<AnySigningKey>,
    pub pk: AnyVerifyingKey,
}

/// The object OpenSSL holds as `keydata`.
pub struct KeyData {
    pub origin: Origin,
    pub ty: usize,
    pub material: Option<Arc<Material>>,
}

impl Owned for KeyData {
    fn origin(&self) -> Origin {
        self.origin
    }
}

impl KeyData {
    pub fn key_type(&self) -> &'static KeyType {
        names::get(self.ty)
    }
}

/// Borrows the keydata behind a host pointer.
///
/// # Safety
/// `p` is NULL or a pointer this module handed out and the host has not freed.
pub unsafe fn keydata<'a>(p: *const c_void) -> Result<&'a KeyData, Fail> {
    if p.is_null() {
        return Err(Fail::new(Reason::MissingKey, "no key"));
    }
    // SAFETY: the caller's promise: one of our live KeyData.
    Ok(unsafe { &*(p as *const KeyData) })
}

/// Builds key material of type `ty` from raw parts, checking lengths as
/// OpenSSL 3.5 does: `priv` 4n (SK.seed‖SK.prf‖PK.seed‖PK.root) or 2n
/// followed by `pub` 2n; `pub` alone 2n.
pub fn material_from_raw(
    ty: &KeyType,
    sk: Option<&[u8]>,
    pk: Option<&[u8]>,
) -> Result<Material, Fail> {
    let n = ty.n();
    let name = ty.name_str();
    if let Some(pk) = pk {
        if pk.len() != 2 * n {
            return Err(Fail::new(
                Reason::InvalidKey,
                format!(
                    "{name} public key is {} bytes; expected {}",
                    pk.len(),
                    2 * n
                ),
            ));
        }
    }
    match sk {
        Some(sk) => {
            let full: Zeroizing<Vec<u8>> = match (sk.len(), pk) {
                (l, _) if l == 4 * n => Zeroizing::new(sk.to_vec()),
                (l, Some(pk)) if l == 2 * n => {
                    let mut v = Zeroizing::new(Vec::with_capacity(4 * n));
                    v.extend_from_slice(sk);
                    v.extend_from_slice(pk);
                    v
                }
                (l, _) => {
                    return Err(Fail::new(
                        Reason::InvalidKey,
                        format!(
                            "{name} private key is {l} bytes; expected {} (or {} with a {}-byte public key)",
                            4 * n,
                            2 * n,
                            2 * n
                        ),
                    ))
                }
            };
            if let Some(pk) = pk {
                if full[2 * n..] != *pk {
                    return Err(Fail::new(
                        Reason::InvalidKey,
                        format!("{name}: the public key given does not match the private key's"),
                    ));
                }
            }
            // The root is checked by `validate` (pkey -check), as 3.5 does;
            // loading trusts it, so loading an "s" key costs no key generation.
            let sk = KeyOpener::new(Some(ty.any()))
                .trusting_root()
                .open_raw_signing_key(&full)
                .map_err(sphincs::Error::from)?
                .key
                .with_mode(ty.mode())?;
            let pk = sk.verifying_key();
            Ok(Material { sk: Some(sk), pk })
        }
        None => {
            let pk = pk.ok_or_else(|| {
                Fail::new(Reason::MissingKey, format!("{name}: no key material given"))
            })?;
            let pk = AnyVerifyingKey::from_bytes(ty.any(), pk)?.with_mode(ty.mode())?;
            Ok(Material { sk: None, pk })
        }
    }
}

fn boxed(kd: KeyData) -> *mut c_void {
    Box::into_raw(Box::new(kd)) as *mut c_void
}

extern "C" fn new<const T: usize>(provctx: *mut c_void) -> *mut c_void {
    guard(
        Origin::of(provctx),
        "keymgmt_new",
        std::ptr::null_mut(),
        || {
            Ok(boxed(KeyData {
                origin: Origin::of(provctx),
                ty: T,
                material: None,
            }))
        },
    )
}

extern "C" fn free(kd: *mut c_void) {
    // SAFETY: `kd` is NULL or a live KeyData of ours (the host's promise).
    let origin = unsafe { origin_of::<KeyData>(kd) };
    guard(origin, "keymgmt_free", (), || {
        if !kd.is_null() {
            // SAFETY: `kd` is a KeyData we boxed; the host frees it once. Dropping
            // it drops the core key, which wipes its secret half.
            drop(unsafe { Box::from_raw(kd as *mut KeyData) });
        }
        Ok(())
    })
}

extern "C" fn dup(kd: *const c_void, selection: c_int) -> *mut c_void {
    // SAFETY: `kd` is NULL or a live KeyData of ours (the host's promise).
    let origin = unsafe { origin_of::<KeyData>(kd) };
    guard(origin, "keymgmt_dup", std::ptr::null_mut(), || {
        // SAFETY: the host passes a live keydata of ours.
        let k = unsafe { keydata(kd) }?;
        let material = match &k.material {
            Some(m) if selection & SELECT_PRIVATE_KEY == 0 && m.sk.is_some() => {
                Some(Arc::new(Material {
                    sk: None,
                    pk: m.pk.clone(),
                }))
            }
            m => m.clone(),
        };
        Ok(boxed(KeyData {
            origin: k.origin,
            ty: k.ty,
            material,
        }))
    })
}

extern "C" fn has(kd: *const c_void, selection: c_int) -> c_int {
    // SAFETY: `kd` is NULL or a live KeyData of ours (the host's promise).
    let origin = unsafe { origin_of::<KeyData>(kd) };
    guard(origin, "keymgmt_has", 0, || {
        if kd.is_null() {
            return Ok(0);
        }
        // SAFETY: a live keydata of ours.
        let k = unsafe { keydata(kd) }?;
        let mut ok = true;
        if selection & SELECT_KEYPAIR != 0 {
            ok &= k.material.is_some();
        }
        if selection & SELECT_PRIVATE_KEY != 0 {
            ok &= k.material.as_ref().is_some_and(|m| m.sk.is_some());
        }
        Ok(ok as c_int)
    })
}

extern "C" fn matches(a: *const c_void, b: *const c_void, selection: c_int) -> c_int {
    // SAFETY: `a` is NULL or a live KeyData of ours (the host's promise).
    let origin = unsafe { origin_of::<KeyData>(a) };
    guard(origin, "keymgmt_match", 0, || {
        // SAFETY: two live keydata of ours.
        let (a, b) = unsafe { (keydata(a)?, keydata(b)?) };
        if a.ty != b.ty {
            return Ok(0);
        }
        let (Some(ma), Some(mb)) = (&a.material, &b.material) else {
            return Ok(0);
        };
        if selection & SELECT_KEYPAIR == 0 {
            return Ok(1);
        }
        // The public key (PK.seed‖PK.root) is part of the private key, so
        // equal public keys decide; with only the private key asked for,
        // compare the secret halves too.
        let mut same = ma.pk == mb.pk;
        if selection & SELECT_PUBLIC_KEY == 0 {
            same &= match (&ma.sk, &mb.sk) {
                (Some(x), Some(y)) => *x.to_bytes() == *y.to_bytes(),
                _ => false,
            };
        }
        Ok(same as c_int)
    })
}

extern "C" fn validate(kd: *const c_void, selection: c_int, _checktype: c_int) -> c_int {
    // SAFETY: `kd` is NULL or a live KeyData of ours (the host's promise).
    let origin = unsafe { origin_of::<KeyData>(kd) };
    guard(origin, "keymgmt_validate", 0, || {
        // SAFETY: a live keydata of ours.
        let k = unsafe { keydata(kd) }?;
        let Some(m) = &k.material else {
            return Err(Fail::new(Reason::MissingKey, "no key material to validate"));
        };
        if selection & SELECT_PRIVATE_KEY != 0 {
            let Some(sk) = &m.sk else {
                return Err(Fail::new(Reason::MissingKey, "no private key to validate"));
            };
            // Recomputes PK.root from SK.seed and PK.seed: the pairwise check.
            KeyOpener::new(Some(sk.algorithm()))
                .open_raw_signing_key(&sk.to_bytes())
                .map_err(sphincs::Error::from)?;
        }
        Ok(1)
    })
}

/// `priv` / `pub` as the host's parameters carry them.
/// The optional `priv` and `pub` octet strings of a parameter array.
type RawParts<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);

fn raw_parts<'a>(params: *const Param) -> Result<RawParts<'a>, Fail> {
    let (mut sk, mut pk) = (None, None);
    // SAFETY: the host's parameter array, valid for this call (the slices
    // borrowed from it are used only within the call).
    for p in unsafe { each(params) } {
        match key_of(p) {
            "priv" => sk = Some(get_octets(p)?),
            "pub" => pk = Some(get_octets(p)?),
            _ => {}
        }
    }
    Ok((sk, pk))
}

extern "C" fn import(kd: *mut c_void, selection: c_int, params: *const Param) -> c_int {
    // SAFETY: `kd` is NULL or a live KeyData of ours (the host's promise).
    let origin = unsafe { origin_of::<KeyData>(kd) };
    guard(origin, "keymgmt_import", 0, || {
        if kd.is_null() {
            return Err(Fail::new(Reason::MissingKey, "no key object"));
        }
        // SAFETY: a live keydata of ours that the host lets us fill.
        let k = unsafe { &mut *(kd as *mut KeyData) };
        let (sk, pk) = raw_parts(params)?;
        let sk = if selection & SELECT_PRIVATE_KEY != 0 {
            sk
        } else {
            None
        };
        let pk = if selection & SELECT_KEYPAIR != 0 {
            pk
        } else {
            None
        };
        if sk.is_none() && pk.is_none() {
            return Err(Fail::new(
                Reason::MissingKey,
                format!("{}: import needs 'priv' or 'pub'", k.key_type().name_str()),
            ));
        }
        k.material = Some(Arc::new(material_from_raw(k.key_type(), sk, pk)?));
        Ok(1)
    })
}

static KEY_TYPES: Shared<[Param; 3]> = Shared([
    describe(c"priv", PARAM_OCTET_STRING),
    describe(c"pub", PARAM_OCTET_STRING),
    END,
]);

extern "C" fn import_types(_selection: c_int) -> *const Param {
    KEY_TYPES.0.as_ptr()
}

extern "C" fn export(
    kd: *mut c_void,
    selection: c_int,
    cb: Option<Callback>,
    arg: *mut c_void,
) -> c_int {
    // SAFETY: `kd` is NULL or a live KeyData of ours (the host's promise).
    let origin = unsafe { origin_of::<KeyData>(kd) };
    guard(origin, "keymgmt_export", 0, || {
        // SAFETY: a live keydata of ours.
        let k = unsafe { keydata(kd) }?;
        let cb = cb.ok_or_else(|| Fail::new(Reason::BadParameter, "no export callback"))?;
        let m = k
            .material
            .as_ref()
            .ok_or_else(|| Fail::new(Reason::MissingKey, "no key to export"))?;
        let mut pk = m.pk.to_bytes();
        let mut sk = Zeroizing::new(Vec::new());
        let mut out = Vec::new();
        if selection & SELECT_PUBLIC_KEY != 0 || selection & SELECT_KEYPAIR != 0 {
            out.push(build(
                c"pub",
                PARAM_OCTET_STRING,
                pk.as_mut_ptr() as *mut c_void,
                pk.len(),
            ));
        }
        if selection & SELECT_PRIVATE_KEY != 0 {
            if let Some(s) = &m.sk {
                sk = s.to_bytes();
                out.push(build(
                    c"priv",
                    PARAM_OCTET_STRING,
                    sk.as_mut_ptr() as *mut c_void,
                    sk.len(),
                ));
            }
        }
        out.push(END);
        // SAFETY: `out` and the buffers it points at live across the call.
        let r = unsafe { cb(out.as_ptr(), arg) };
        drop(sk);
        Ok(r)
    })
}

static GETTABLE: Shared<[Param; 9]> = Shared([
    describe(c"bits", PARAM_INTEGER),
    describe(c"security-bits", PARAM_INTEGER),
    describe(c"security-category", PARAM_INTEGER),
    describe(c"max-size", PARAM_INTEGER),
    describe(c"mandatory-digest", PARAM_UTF8_STRING),
    describe(c"pub", PARAM_OCTET_STRING),
    describe(c"priv", PARAM_OCTET_STRING),
    describe(c"default-digest", PARAM_UTF8_STRING),
    END,
]);

extern "C" fn gettable_params(_provctx: *mut c_void) -> *const Param {
    // default-digest is listed so callers see it, but never set: there is none.
    GETTABLE.0.as_ptr()
}

extern "C" fn get_params(kd: *mut c_void, params: *mut Param) -> c_int {
    // SAFETY: `kd` is NULL or a live KeyData of ours (the host's promise).
    let origin = unsafe { origin_of::<KeyData>(kd) };
    guard(origin, "keymgmt_get_params", 0, || {
        // SAFETY: a live keydata of ours.
        let k = unsafe { keydata(kd) }?;
        let ty = k.key_type();
        let alg = ty.any();
        // SAFETY: every `locate` reads the host's writable parameter array for this call.
        unsafe {
            if let Some(p) = locate(params, "bits") {
                set_int(p, 8 * alg.public_key_len() as i64)?;
            }
            if let Some(p) = locate(params, "security-bits") {
                set_int(p, 8 * ty.n() as i64)?;
            }
            if let Some(p) = locate(params, "security-category") {
                set_int(p, i64::from(alg.security_category().unwrap_or(0)))?;
            }
            if let Some(p) = locate(params, "max-size") {
                set_int(p, alg.signature_len() as i64)?;
            }
            if let Some(p) = locate(params, "mandatory-digest") {
                set_utf8(p, c"")?;
            }
            if let Some(m) = &k.material {
                if let Some(p) = locate(params, "pub") {
                    set_octets(p, &m.pk.to_bytes())?;
                }
                if let (Some(p), Some(sk)) = (locate(params, "priv"), &m.sk) {
                    set_octets(p, &sk.to_bytes())?;
                }
            }
        }
        Ok(1)
    })
}

/// A generation in progress.
struct GenCtx {
    origin: Origin,
    ty: usize,
    seed: Option<Zeroizing<Vec<u8>>>,
}

fn gen_apply(g: &mut GenCtx, params: *const Param) -> Result<(), Fail> {
    // SAFETY: the host's parameter array, valid for this call.
    for p in unsafe { each(params) } {
        if key_of(p) == "seed" {
            let seed = get_octets(p)?;
            let ty = names::get(g.ty);
            if seed.len() != 3 * ty.n() {
                return Err(Fail::new(
                    Reason::BadParameter,
                    format!(
                        "{} seed is {} bytes; expected {} (SK.seed, SK.prf, PK.seed)",
                        ty.name_str(),
                        seed.len(),
                        3 * ty.n()
                    ),
                ));
            }
            g.seed = Some(Zeroizing::new(seed.to_vec()));
        }
    }
    Ok(())
}

extern "C" fn gen_init<const T: usize>(
    provctx: *mut c_void,
    selection: c_int,
    params: *const Param,
) -> *mut c_void {
    guard(
        Origin::of(provctx),
        "keymgmt_gen_init",
        std::ptr::null_mut(),
        || {
            if selection & SELECT_KEYPAIR == 0 {
                return Err(Fail::new(
                    Reason::NotSupported,
                    "SLH-DSA has no domain parameters to generate",
                ));
            }
            let mut g = GenCtx {
                origin: Origin::of(provctx),
                ty: T,
                seed: None,
            };
            gen_apply(&mut g, params)?;
            Ok(Box::into_raw(Box::new(g)) as *mut c_void)
        },
    )
}

extern "C" fn gen_set_params(g: *mut c_void, params: *const Param) -> c_int {
    // SAFETY: `g` is NULL or a live GenCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<GenCtx>(g) };
    guard(origin, "keymgmt_gen_set_params", 0, || {
        if g.is_null() {
            return Err(Fail::new(Reason::BadParameter, "no generation context"));
        }
        // SAFETY: a live GenCtx of ours.
        gen_apply(unsafe { &mut *(g as *mut GenCtx) }, params)?;
        Ok(1)
    })
}

static GEN_SETTABLE: Shared<[Param; 3]> = Shared([
    describe(c"seed", PARAM_OCTET_STRING),
    describe(c"properties", PARAM_UTF8_STRING),
    END,
]);

extern "C" fn gen_settable_params(_g: *mut c_void, _provctx: *mut c_void) -> *const Param {
    GEN_SETTABLE.0.as_ptr()
}

extern "C" fn generate(g: *mut c_void, _cb: *const c_void, _arg: *mut c_void) -> *mut c_void {
    // SAFETY: `g` is NULL or a live GenCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<GenCtx>(g) };
    guard(origin, "keymgmt_gen", std::ptr::null_mut(), || {
        if g.is_null() {
            return Err(Fail::new(Reason::BadParameter, "no generation context"));
        }
        // SAFETY: a live GenCtx of ours.
        let g = unsafe { &*(g as *const GenCtx) };
        let ty = names::get(g.ty);
        let sk = match &g.seed {
            Some(seed) => AnySigningKey::from_seed(ty.any(), seed, 1)?,
            None => AnySigningKey::generate(ty.any(), 1)?,
        }
        .with_mode(ty.mode())?;
        let pk = sk.verifying_key();
        Ok(boxed(KeyData {
            origin: g.origin,
            ty: g.ty,
            material: Some(Arc::new(Material { sk: Some(sk), pk })),
        }))
    })
}

extern "C" fn gen_cleanup(g: *mut c_void) {
    // SAFETY: `g` is NULL or a live GenCtx of ours (the host's promise).
    let origin = unsafe { origin_of::<GenCtx>(g) };
    guard(origin, "keymgmt_gen_cleanup", (), || {
        if !g.is_null() {
            // SAFETY: a GenCtx we boxed; freed once. Its seed is wiped on drop.
            drop(unsafe { Box::from_raw(g as *mut GenCtx) });
        }
        Ok(())
    })
}

impl Owned for GenCtx {
    fn origin(&self) -> Origin {
        self.origin
    }
}

/// The origin of the key behind a `load` reference (see [`load`]).
///
/// # Safety
/// As for [`load`]: NULL, or the address of our decoder's `*mut KeyData` slot.
unsafe fn loaded_origin(reference: *const c_void, size: usize) -> Origin {
    if reference.is_null() || size != std::mem::size_of::<*mut KeyData>() {
        return Origin::NONE;
    }
    // SAFETY: the caller's promise: a readable slot holding NULL or a live KeyData.
    unsafe { origin_of::<KeyData>(*(reference as *const *const c_void)) }
}

/// Takes over a key our decoder made: the reference is the address of a
/// `*mut KeyData`, which we set to NULL so the decoder does not free it.
extern "C" fn load(reference: *const c_void, size: usize) -> *mut c_void {
    // SAFETY: `reference` is what our decoder passed (see `load`).
    let origin = unsafe { loaded_origin(reference, size) };
    guard(origin, "keymgmt_load", std::ptr::null_mut(), || {
        if reference.is_null() || size != std::mem::size_of::<*mut KeyData>() {
            return Err(Fail::new(
                Reason::BadParameter,
                "not a key reference of this provider",
            ));
        }
        let slot = reference as *mut *mut KeyData;
        // SAFETY: our decoder passed the address of its `*mut KeyData` slot,
        // which stays valid during the callback that leads here.
        let kd = unsafe { std::ptr::replace(slot, std::ptr::null_mut()) };
        Ok(kd as *mut c_void)
    })
}

/// The dispatch table of key type `T`.
pub fn dispatch<const T: usize>() -> Vec<Dispatch> {
    type New = extern "C" fn(*mut c_void) -> *mut c_void;
    type Free = extern "C" fn(*mut c_void);
    type Dup = extern "C" fn(*const c_void, c_int) -> *mut c_void;
    type Has = extern "C" fn(*const c_void, c_int) -> c_int;
    type Match = extern "C" fn(*const c_void, *const c_void, c_int) -> c_int;
    type Validate = extern "C" fn(*const c_void, c_int, c_int) -> c_int;
    type Import = extern "C" fn(*mut c_void, c_int, *const Param) -> c_int;
    type Types = extern "C" fn(c_int) -> *const Param;
    type Export = extern "C" fn(*mut c_void, c_int, Option<Callback>, *mut c_void) -> c_int;
    type Gettable = extern "C" fn(*mut c_void) -> *const Param;
    type GetParams = extern "C" fn(*mut c_void, *mut Param) -> c_int;
    type GenInit = extern "C" fn(*mut c_void, c_int, *const Param) -> *mut c_void;
    type GenSet = extern "C" fn(*mut c_void, *const Param) -> c_int;
    type GenSettable = extern "C" fn(*mut c_void, *mut c_void) -> *const Param;
    type Gen = extern "C" fn(*mut c_void, *const c_void, *mut c_void) -> *mut c_void;
    type Load = extern "C" fn(*const c_void, usize) -> *mut c_void;
    vec![
        crate::dispatch!(KEYMGMT_NEW, new::<T>, New),
        crate::dispatch!(KEYMGMT_FREE, free, Free),
        crate::dispatch!(KEYMGMT_DUP, dup, Dup),
        crate::dispatch!(KEYMGMT_HAS, has, Has),
        crate::dispatch!(KEYMGMT_MATCH, matches, Match),
        crate::dispatch!(KEYMGMT_VALIDATE, validate, Validate),
        crate::dispatch!(KEYMGMT_IMPORT, import, Import),
        crate::dispatch!(KEYMGMT_IMPORT_TYPES, import_types, Types),
        crate::dispatch!(KEYMGMT_EXPORT, export, Export),
        crate::dispatch!(KEYMGMT_EXPORT_TYPES, import_types, Types),
        crate::dispatch!(KEYMGMT_GET_PARAMS, get_params, GetParams),
        crate::dispatch!(KEYMGMT_GETTABLE_PARAMS, gettable_params, Gettable),
        crate::dispatch!(KEYMGMT_GEN_INIT, gen_init::<T>, GenInit),
        crate::dispatch!(KEYMGMT_GEN_SET_PARAMS, gen_set_params, GenSet),
        crate::dispatch!(
            KEYMGMT_GEN_SETTABLE_PARAMS,
            gen_settable_params,
            GenSettable
        ),
        crate::dispatch!(KEYMGMT_GEN, generate, Gen),
        crate::dispatch!(KEYMGMT_GEN_CLEANUP, gen_cleanup, Free),
        crate::dispatch!(KEYMGMT_LOAD, load, Load),
        DISPATCH_END,
    ]
}
