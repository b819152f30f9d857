//! The upcalls OpenSSL's core hands the provider at load time, kept for the
//! life of the process, and what we ask of them: the running version, the
//! error queue, BIO reads and writes, and OID registration.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::OnceLock;

use crate::abi::*;

type GetParams = unsafe extern "C" fn(*const c_void, *mut Param) -> c_int;
type NewError = unsafe extern "C" fn(*const c_void);
type SetErrorDebug = unsafe extern "C" fn(*const c_void, *const c_char, c_int, *const c_char);
type VsetError = unsafe extern "C" fn(*const c_void, u32, *const c_char, *mut c_void);
type ObjCreate =
    unsafe extern "C" fn(*const c_void, *const c_char, *const c_char, *const c_char) -> c_int;
type ObjAddSigid =
    unsafe extern "C" fn(*const c_void, *const c_char, *const c_char, *const c_char) -> c_int;
type BioReadEx = unsafe extern "C" fn(*mut c_void, *mut c_void, usize, *mut usize) -> c_int;
type BioWriteEx = unsafe extern "C" fn(*mut c_void, *const c_void, usize, *mut usize) -> c_int;

/// The core handle of the provider instance that owns an object: the
/// `provctx` OpenSSL passes to every constructor (we hand the handle out as
/// our provider context), kept in every object made from it.
#[derive(Clone, Copy, Debug)]
pub struct Origin(pub *const c_void);

// SAFETY: an opaque token of the core's, valid from any thread.
unsafe impl Send for Origin {}
// SAFETY: as above; never dereferenced by us.
unsafe impl Sync for Origin {}

impl Origin {
    /// No instance known (a NULL object): errors are then not queued.
    pub const NONE: Origin = Origin(std::ptr::null());

    /// The instance whose provider context `provctx` is.
    pub fn of(provctx: *mut c_void) -> Origin {
        Origin(provctx as *const c_void)
    }
}

/// What the core gave us.
pub struct Core {
    pub handle: *const c_void,
    get_params: Option<GetParams>,
    new_error: Option<NewError>,
    set_error_debug: Option<SetErrorDebug>,
    vset_error: Option<VsetError>,
    obj_create: Option<ObjCreate>,
    obj_add_sigid: Option<ObjAddSigid>,
    bio_read_ex: Option<BioReadEx>,
    bio_write_ex: Option<BioWriteEx>,
    /// The running OpenSSL's (major, minor), from `openssl-version`.
    pub version: (u32, u32),
    pub version_text: String,
}

// SAFETY: the handle is an opaque token the core accepts from any thread;
// the function pointers are plain code addresses.
unsafe impl Sync for Core {}
// SAFETY: as above.
unsafe impl Send for Core {}

static CORE: OnceLock<Core> = OnceLock::new();

/// The upcalls of the first load (a second load, in another library
/// context, hands us the same libcrypto's functions). Its `handle` is used
/// only while that first load initialises; errors go through each
/// instance's own handle ([`Origin`]).
pub fn get() -> Option<&'static Core> {
    CORE.get()
}

/// Reads the upcalls out of the core's dispatch table `input`.
///
/// # Safety
/// `input` is the NULL-terminated table OpenSSL passes to `OSSL_provider_init`.
pub unsafe fn init(handle: *const c_void, input: *const Dispatch) -> &'static Core {
    let mut core = Core {
        handle,
        get_params: None,
        new_error: None,
        set_error_debug: None,
        vset_error: None,
        obj_create: None,
        obj_add_sigid: None,
        bio_read_ex: None,
        bio_write_ex: None,
        version: (3, 0),
        version_text: String::from("3.0"),
    };
    let mut d = input;
    while !d.is_null() {
        // SAFETY: `d` walks the core's table up to its 0 id (caller's promise).
        let entry = unsafe { *d };
        if entry.id == 0 {
            break;
        }
        if let Some(f) = entry.func {
            // SAFETY: each id implies the C prototype we transmute to (core_dispatch.h).
            unsafe {
                use std::mem::transmute as t;
                // Stores `f` in `field` as the prototype `ty` its id implies.
                macro_rules! take {
                    ($field:ident: $ty:ty) => {
                        core.$field = Some(t::<unsafe extern "C" fn(), $ty>(f))
                    };
                }
                match entry.id {
                    CORE_GET_PARAMS => take!(get_params: GetParams),
                    CORE_NEW_ERROR => take!(new_error: NewError),
                    CORE_SET_ERROR_DEBUG => take!(set_error_debug: SetErrorDebug),
                    CORE_VSET_ERROR => take!(vset_error: VsetError),
                    CORE_OBJ_CREATE => take!(obj_create: ObjCreate),
                    CORE_OBJ_ADD_SIGID => take!(obj_add_sigid: ObjAddSigid),
                    BIO_READ_EX => take!(bio_read_ex: BioReadEx),
                    BIO_WRITE_EX => take!(bio_write_ex: BioWriteEx),
                    _ => {}
                }
            }
        }
        // SAFETY: not yet at the terminator, so the next entry exists.
        d = unsafe { d.add(1) };
    }
    if let Some(text) = core.ask_version() {
        core.version = parse_version(&text);
        core.version_text = text;
    }
    CORE.get_or_init(|| core)
}

/// `"3.5.1"` → (3, 5); anything unreadable counts as 3.0 (offer the least).
pub fn parse_version(text: &str) -> (u32, u32) {
    let mut it = text.split(|c: char| !c.is_ascii_digit());
    let major = it.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let minor = it.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    (major, minor)
}

impl Core {
    /// The `openssl-version` core parameter.
    fn ask_version(&self) -> Option<String> {
        let get = self.get_params?;
        let mut ptr: *const c_char = std::ptr::null();
        let mut params = [
            build(
                c"openssl-version",
                PARAM_UTF8_PTR,
                &mut ptr as *mut *const c_char as *mut c_void,
                std::mem::size_of::<*const c_char>(),
            ),
            END,
        ];
        // SAFETY: a valid two-element array; the core writes a pointer to its
        // static version string into `ptr`.
        let ok = unsafe { get(self.handle, params.as_mut_ptr()) };
        if ok == 0 || ptr.is_null() {
            return None;
        }
        // SAFETY: the core's version string is NUL-terminated and static.
        Some(
            unsafe { CStr::from_ptr(ptr) }
                .to_string_lossy()
                .into_owned(),
        )
    }

    /// Whether the running OpenSSL is at least `major.minor`.
    pub fn at_least(&self, major: u32, minor: u32) -> bool {
        self.version >= (major, minor)
    }

    /// Registers an OID with its short and long name (`obj_create`).
    pub fn obj_create(&self, oid: &CStr, sn: &CStr, ln: &CStr) -> bool {
        match self.obj_create {
            // SAFETY: three NUL-terminated strings, valid for the call.
            Some(f) => unsafe { f(self.handle, oid.as_ptr(), sn.as_ptr(), ln.as_ptr()) != 0 },
            None => false,
        }
    }

    /// Registers a signature OID as "this key type, no digest" (`obj_add_sigid`).
    pub fn obj_add_sigid(&self, sig: &CStr, digest: &CStr, pkey: &CStr) -> bool {
        match self.obj_add_sigid {
            // SAFETY: three NUL-terminated strings, valid for the call.
            Some(f) => unsafe { f(self.handle, sig.as_ptr(), digest.as_ptr(), pkey.as_ptr()) != 0 },
            None => false,
        }
    }

    /// Reads the whole of `bio`, refusing more than `cap` bytes.
    pub fn read_all(&self, bio: *mut c_void, cap: usize) -> Result<Vec<u8>, String> {
        let read = self.bio_read_ex.ok_or("the core offers no BIO reads")?;
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let mut got = 0usize;
            // SAFETY: `buf` is a writable 4096-byte buffer; `bio` is the core
            // BIO the host passed to this decode call.
            let ok = unsafe { read(bio, buf.as_mut_ptr() as *mut c_void, buf.len(), &mut got) };
            if ok == 0 || got == 0 {
                break;
            }
            out.extend_from_slice(&buf[..got.min(buf.len())]);
            if out.len() > cap {
                return Err(format!("input longer than {cap} bytes"));
            }
        }
        Ok(out)
    }

    /// Writes all of `data` to `bio`.
    pub fn write_all(&self, bio: *mut c_void, data: &[u8]) -> bool {
        let Some(write) = self.bio_write_ex else {
            return false;
        };
        let mut rest = data;
        while !rest.is_empty() {
            let mut put = 0usize;
            // SAFETY: `rest` is readable for its length; `bio` is the core BIO
            // the host passed to this encode call.
            let ok = unsafe { write(bio, rest.as_ptr() as *const c_void, rest.len(), &mut put) };
            if ok == 0 || put == 0 || put > rest.len() {
                return false;
            }
            rest = &rest[put..];
        }
        true
    }
}

/// Queues an error through the handle of the instance `origin`: reason code
/// (one of ours), the function it came from, and the detail text. With no
/// origin (a NULL object) nothing is queued: the first load's handle may
/// belong to a library context freed since.
pub fn raise(origin: Origin, reason: c_int, func: &str, detail: &str) {
    let Some(core) = get() else {
        return;
    };
    let handle = origin.0;
    if handle.is_null() {
        return;
    }
    let (Some(new_error), Some(vset_error)) = (core.new_error, core.vset_error) else {
        return;
    };
    let func = CString::new(func).unwrap_or_default();
    let text = format_literal(detail);
    // A va_list the formatter never reads: `text` has no conversions left
    // (every `%` doubled). Zeroed storage the size of any ABI's va_list.
    let mut unused_args = [0u64; 4];
    // SAFETY: `handle` is the live instance's own core handle; the strings are NUL-terminated and
    // live across the calls; the formatter reads no variadic argument because
    // the format string has no conversion specification.
    unsafe {
        new_error(handle);
        if let Some(debug) = core.set_error_debug {
            debug(handle, c"sphincs-provider".as_ptr(), 0, func.as_ptr());
        }
        vset_error(
            handle,
            reason as u32,
            text.as_ptr(),
            unused_args.as_mut_ptr() as *mut c_void,
        );
    }
}

/// A C string of `s` with `%` doubled, so the host's printf-style
/// formatter prints it verbatim and reads no arguments.
pub fn format_literal(s: &str) -> CString {
    let cleaned: String = s.replace('\0', " ").replace('%', "%%");
    CString::new(cleaned).unwrap_or_default()
}
