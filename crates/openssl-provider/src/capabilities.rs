//! Provider capabilities: none yet (TLS-SIGALG comes with the TLS tier).

use std::ffi::{c_char, c_int, c_void};

use crate::abi::Callback;

pub extern "C" fn get(_provctx: *mut c_void, _name: *const c_char, _cb: Option<Callback>, _arg: *mut c_void) -> c_int {
    0
}
