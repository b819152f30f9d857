//! Many threads signing and verifying in their own sessions, then
//! C_Finalize while threads are in the middle of operations: every call
//! returns (CKR_OK or an error), nothing crashes, and the module can be
//! initialised again.

#[macro_use]
mod common;

use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cryptoki::mechanism::dsa::{HedgeType, SignAdditionalContext};
use cryptoki::mechanism::Mechanism;
use cryptoki::object::{Attribute, ParameterSetType, SlhDsaParameterSetType};
use cryptoki_sys::*;

#[test]
fn threads_sign_and_verify_then_finalize_mid_operation() {
    let p = common::load();
    common::init_token(&p);
    let anchor = common::user_session(&p);
    let public = [
        Attribute::Token(false),
        Attribute::ParameterSet(ParameterSetType::from(SlhDsaParameterSetType::SHAKE_128F)),
    ];
    let (hp, hs) = anchor
        .generate_key_pair(
            &Mechanism::SlhDsaKeyPairGen,
            &public,
            &[Attribute::Token(false)],
        )
        .unwrap();

    // Phase 1: eight threads, each its own session, sign and verify.
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for t in 0..8u8 {
            let (p, done) = (&p, &done);
            scope.spawn(move || {
                let s = common::user_session(p);
                for i in 0..4u8 {
                    let msg = [t, i, 1, 2, 3];
                    let ctx = [t; 3];
                    let m = Mechanism::SlhDsa(SignAdditionalContext::new(
                        HedgeType::Required,
                        Some(&ctx),
                    ));
                    let sig = s.sign(&m, hs, &msg).expect("sign");
                    s.verify(&m, hp, &msg, &sig).expect("verify");
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    assert_eq!(done.load(Ordering::Relaxed), 32);

    // Phase 2: threads loop on the raw list until the module goes away;
    // the main thread finalises under them.
    let stop = AtomicBool::new(false);
    let calls = AtomicUsize::new(0);
    let errors = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for t in 0..6u8 {
            let (stop, calls, errors) = (&stop, &calls, &errors);
            let p = &p;
            scope.spawn(move || {
                let s = common::user_session(p);
                let m = Mechanism::SlhDsa(SignAdditionalContext::new(HedgeType::Preferred, None));
                while !stop.load(Ordering::Relaxed) {
                    calls.fetch_add(1, Ordering::Relaxed);
                    let msg = [t; 9];
                    match s.sign(&m, hs, &msg) {
                        Ok(sig) => {
                            let _ = s.verify(&m, hp, &msg, &sig);
                        }
                        Err(_) => {
                            errors.fetch_add(1, Ordering::Relaxed);
                            break;
                        }
                    }
                }
            });
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert_eq!(call!(C_Finalize(null_mut())), CKR_OK);
        std::thread::sleep(std::time::Duration::from_millis(300));
        stop.store(true, Ordering::Relaxed);
    });
    assert!(calls.load(Ordering::Relaxed) >= 6);
    assert!(
        errors.load(Ordering::Relaxed) >= 1,
        "someone saw the module go"
    );
    // Everything ended: calls say so, and the module comes back.
    assert_eq!(call!(C_CloseAllSessions(1)), CKR_CRYPTOKI_NOT_INITIALIZED);
    assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
    let mut info = CK_INFO::default();
    assert_eq!(call!(C_GetInfo(&mut info)), CKR_OK);
    drop(anchor);
    drop(p);
}
