//! What the tests share: where the built module is, and a module loaded,
//! initialised, with its token initialised and the user PIN set.

#![allow(dead_code)]

#[macro_use]
pub mod raw;

pub mod matrix;

use std::path::PathBuf;

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::session::{Session, UserType};
use cryptoki::slot::Slot;
use cryptoki::types::AuthPin;

pub const SO_PIN: &str = "so-pin-1234";
pub const USER_PIN: &str = "user-pin-1234";

/// libsphincs_pkcs11.so of this build: cargo builds the cdylib with the
/// rlib the tests link, next to the test binary (`deps/`) and one up. (The
/// binary is argv[0] when a dynamic loader runs it, as for kryoptic.rs.)
pub fn library() -> PathBuf {
    let exes = [
        std::env::current_exe().expect("test binary path"),
        PathBuf::from(std::env::args_os().next().expect("argv[0]")),
    ];
    for exe in &exes {
        let deps = exe.parent().expect("deps directory");
        for dir in [deps.to_path_buf(), deps.join("..")] {
            let p = dir.join("libsphincs_pkcs11.so");
            if p.exists() {
                return p;
            }
        }
    }
    panic!(
        "libsphincs_pkcs11.so not found next to {}",
        exes[0].display()
    );
}

/// The module, initialised with OS locking, through C_GetInterface.
pub fn load() -> Pkcs11 {
    let p = Pkcs11::new(library()).expect("load the module");
    p.initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK))
        .expect("C_Initialize");
    p
}

/// The one slot.
pub fn slot(p: &Pkcs11) -> Slot {
    let slots = p.get_slots_with_token().expect("C_GetSlotList");
    assert_eq!(slots.len(), 1);
    slots[0]
}

pub fn pin(s: &str) -> AuthPin {
    AuthPin::from(s.to_string())
}

/// C_InitToken, then the SO sets the user PIN (C_InitPIN) and logs out.
pub fn init_token(p: &Pkcs11) {
    let slot = slot(p);
    p.init_token(slot, &pin(SO_PIN), "sphincs test")
        .expect("C_InitToken");
    let s = p.open_rw_session(slot).expect("C_OpenSession");
    s.login(UserType::So, Some(&pin(SO_PIN))).expect("SO login");
    s.init_pin(&pin(USER_PIN)).expect("C_InitPIN");
    s.logout().expect("C_Logout");
}

/// A read/write session with the user logged in (login is the token's,
/// shared by every session: an earlier login is fine).
pub fn user_session(p: &Pkcs11) -> Session {
    let s = p.open_rw_session(slot(p)).expect("C_OpenSession");
    match s.login(UserType::User, Some(&pin(USER_PIN))) {
        Ok(()) => {}
        Err(cryptoki::error::Error::Pkcs11(cryptoki::error::RvError::UserAlreadyLoggedIn, _)) => {}
        Err(e) => panic!("user login: {e}"),
    }
    s
}
