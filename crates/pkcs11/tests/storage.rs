//! The token kept in `SPHINCS_PKCS11_DIR`: token objects, PIN verifiers and
//! retry counters survive C_Finalize / C_Initialize (read back from the
//! directory); private keys are stored encrypted under the user PIN (the
//! raw key is in no file) and re-encrypted by C_SetPIN; writes leave no
//! temporary files; C_InitToken empties the directory. The directory may
//! come from SPHINCS_PKCS11_CONF's file instead.

#[macro_use]
mod common;

use std::ptr::null_mut;

use common::raw::{
    b, create_object, find, generate_pair, init_token_raw, login, open, sign_deterministic,
    token_flags, ul, Tmpl, SLOT,
};
use cryptoki_sys::*;

fn create(h: CK_SESSION_HANDLE, t: &Tmpl) -> CK_OBJECT_HANDLE {
    let (rv, o) = create_object(h, t);
    assert_eq!(rv, CKR_OK);
    o
}

fn value(h: CK_SESSION_HANDLE, o: CK_OBJECT_HANDLE) -> Vec<u8> {
    let mut v = vec![0u8; 200];
    let mut a = CK_ATTRIBUTE {
        type_: CKA_VALUE,
        pValue: v.as_mut_ptr() as *mut _,
        ulValueLen: 200,
    };
    assert_eq!(call!(C_GetAttributeValue(h, o, &mut a, 1)), CKR_OK);
    v.truncate(a.ulValueLen as usize);
    v
}

/// A deterministic CKM_SLH_DSA signature.
fn sign(h: CK_SESSION_HANDLE, key: CK_OBJECT_HANDLE) -> Result<Vec<u8>, CK_RV> {
    sign_deterministic(h, key, b"kept on disk")
}

fn restart() {
    assert_eq!(call!(C_Finalize(null_mut())), CKR_OK);
    assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
}

fn files(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn the_token_survives_finalize_in_its_directory() {
    let dir = std::env::temp_dir().join(format!("sphincs-pkcs11-storage-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // SAFETY (edition 2021: safe): the one test of this binary, set before
    // the module is loaded or any thread starts.
    std::env::set_var("SPHINCS_PKCS11_DIR", &dir);
    assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
    assert!(dir.is_dir(), "created at C_Initialize");

    let so = common::SO_PIN;
    let mut label = [b' '; 32];
    let user = common::USER_PIN;
    let h = init_token_raw(user);

    // A token key pair (readable, to compare after the restart), a token
    // certificate, a token data object and a session object.
    let public = Tmpl(vec![
        (CKA_TOKEN, b(true)),
        (CKA_PARAMETER_SET, ul(CKP_SLH_DSA_SHA2_128F)),
        (CKA_LABEL, b"kept".to_vec()),
    ]);
    let private = Tmpl(vec![
        (CKA_TOKEN, b(true)),
        (CKA_SENSITIVE, b(false)),
        (CKA_EXTRACTABLE, b(true)),
        (CKA_LABEL, b"kept".to_vec()),
    ]);
    let (rv, hp, hs) = generate_pair(h, &public, &private);
    assert_eq!(rv, CKR_OK);
    let cert = create(
        h,
        &Tmpl(vec![
            (CKA_CLASS, ul(CKO_CERTIFICATE)),
            (CKA_CERTIFICATE_TYPE, ul(CKC_X_509)),
            (CKA_TOKEN, b(true)),
            (CKA_SUBJECT, b"s".to_vec()),
            (CKA_VALUE, b"certificate DER".to_vec()),
        ]),
    );
    create(
        h,
        &Tmpl(vec![
            (CKA_CLASS, ul(CKO_DATA)),
            (CKA_TOKEN, b(true)),
            (CKA_LABEL, b"kept".to_vec()),
            (CKA_APPLICATION, b"OpenPGP certificate".to_vec()),
            (CKA_VALUE, b"certificate packets".to_vec()),
        ]),
    );
    let pk = value(h, hp);
    create(
        h,
        &Tmpl(vec![
            (CKA_CLASS, ul(CKO_PUBLIC_KEY)),
            (CKA_KEY_TYPE, ul(CKK_SLH_DSA)),
            (CKA_PARAMETER_SET, ul(CKP_SLH_DSA_SHA2_128F)),
            (CKA_VALUE, pk.clone()),
        ]),
    );
    let sk = value(h, hs);
    let sig = sign(h, hs).unwrap();

    // On disk: token.bin and four object files; the secret key in none.
    let on_disk = files(&dir);
    let names: Vec<_> = on_disk.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.contains(&"token.bin"));
    assert!(names.iter().all(|n| !n.ends_with(".tmp")));
    for (n, bytes) in &on_disk {
        assert!(!bytes.windows(16).any(|w| w == &sk[..16]), "SK.seed in {n}");
        assert!(
            !bytes.windows(user.len()).any(|w| w == user.as_bytes()),
            "user PIN in {n}"
        );
    }
    // One wrong PIN, counted on disk.
    assert_eq!(call!(C_Logout(h)), CKR_OK);
    assert_eq!(login(h, CKU_USER, "wrong-pin"), CKR_PIN_INCORRECT);

    restart();
    assert_ne!(
        token_flags() & CKF_USER_PIN_COUNT_LOW,
        0,
        "the retry counter was kept"
    );
    assert_ne!(token_flags() & CKF_TOKEN_INITIALIZED, 0);
    let h = open(true);
    // Before login only the public token objects are there.
    assert_eq!(find(h, &Tmpl(vec![])).len(), 3);
    assert_eq!(login(h, CKU_USER, user), CKR_OK);
    assert_eq!(token_flags() & CKF_USER_PIN_COUNT_LOW, 0);
    let all = find(h, &Tmpl(vec![]));
    assert_eq!(
        all.len(),
        4,
        "the session object is gone, the token objects are back"
    );
    let hs = find(
        h,
        &Tmpl(vec![
            (CKA_CLASS, ul(CKO_PRIVATE_KEY)),
            (CKA_LABEL, b"kept".to_vec()),
        ]),
    )[0];
    let hp = find(h, &Tmpl(vec![(CKA_CLASS, ul(CKO_PUBLIC_KEY))]))[0];
    assert_eq!(value(h, hs), sk);
    assert_eq!(value(h, hp), pk);
    assert_eq!(sign(h, hs).unwrap(), sig, "the same key signs the same");

    // C_SetPIN re-encrypts the stored key under the new PIN.
    let new = "a-new-user-pin";
    assert_eq!(
        call!(C_SetPIN(
            h,
            user.as_ptr() as *mut _,
            user.len() as CK_ULONG,
            new.as_ptr() as *mut _,
            new.len() as CK_ULONG
        )),
        CKR_OK
    );
    let cert_h = find(h, &Tmpl(vec![(CKA_CLASS, ul(CKO_CERTIFICATE))]))[0];
    assert_eq!(value(h, cert_h), b"certificate DER".to_vec());
    let data = find(
        h,
        &Tmpl(vec![
            (CKA_CLASS, ul(CKO_DATA)),
            (CKA_APPLICATION, b"OpenPGP certificate".to_vec()),
        ]),
    );
    assert_eq!(data.len(), 1);
    assert_eq!(value(h, data[0]), b"certificate packets".to_vec());
    assert_eq!(call!(C_DestroyObject(h, cert_h)), CKR_OK);
    restart();
    let h = open(true);
    assert_eq!(login(h, CKU_USER, user), CKR_PIN_INCORRECT);
    assert_eq!(login(h, CKU_USER, new), CKR_OK);
    let hs = find(h, &Tmpl(vec![(CKA_CLASS, ul(CKO_PRIVATE_KEY))]))[0];
    assert_eq!(sign(h, hs).unwrap(), sig);
    assert!(
        find(h, &Tmpl(vec![(CKA_CLASS, ul(CKO_CERTIFICATE))])).is_empty(),
        "destroyed on disk too"
    );
    assert_eq!(files(&dir).len(), 4);

    // C_InitToken empties the directory but token.bin.
    assert_eq!(call!(C_CloseAllSessions(SLOT)), CKR_OK);
    assert_eq!(
        call!(C_InitToken(
            SLOT,
            so.as_ptr() as *mut _,
            so.len() as CK_ULONG,
            label.as_mut_ptr()
        )),
        CKR_OK
    );
    let names: Vec<_> = files(&dir).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, vec!["token.bin".to_string()]);
    restart();
    assert_eq!(token_flags() & CKF_USER_PIN_INITIALIZED, 0);
    let _ = cert;
    assert_eq!(call!(C_Finalize(null_mut())), CKR_OK);
    std::fs::remove_dir_all(&dir).unwrap();

    // The directory from SPHINCS_PKCS11_CONF's `directory = ` line.
    let conf_dir = dir.with_extension("conf-dir");
    let conf = dir.with_extension("conf");
    std::fs::write(
        &conf,
        format!("# token\ndirectory = {}\n", conf_dir.display()),
    )
    .unwrap();
    std::env::remove_var("SPHINCS_PKCS11_DIR");
    std::env::set_var("SPHINCS_PKCS11_CONF", &conf);
    assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
    assert_eq!(
        call!(C_InitToken(
            SLOT,
            so.as_ptr() as *mut _,
            so.len() as CK_ULONG,
            label.as_mut_ptr()
        )),
        CKR_OK
    );
    assert!(conf_dir.join("token.bin").is_file());
    assert_eq!(call!(C_Finalize(null_mut())), CKR_OK);
    // A line it does not know: C_Initialize fails, nothing is half set up.
    std::fs::write(&conf, "dir = /nowhere\n").unwrap();
    assert_eq!(call!(C_Initialize(null_mut())), CKR_DEVICE_ERROR);
    assert_eq!(call!(C_Finalize(null_mut())), CKR_CRYPTOKI_NOT_INITIALIZED);
    std::fs::remove_dir_all(&conf_dir).unwrap();
    std::fs::remove_file(&conf).unwrap();
}
