//! Faults (issue 52): a token directory on a full disk, or written by a
//! process killed mid-write, keeps a complete state.
//!
//! The first two tests run the module in a child process (this test
//! binary again, `--exact <test>`, the role in `SPHINCS_FAULT_CHILD`) over
//! a token the parent set up, and check the directory afterwards, in the
//! parent, through the C ABI.
//!
//! - `full_disk`: the child lowers `RLIMIT_FSIZE` (SIGXFSZ ignored, so a
//!   write fails with EFBIG): first to the size of the public key's file
//!   (the token file and a key pair's public file fit, its private file
//!   does not), then to 16 bytes (nothing fits). C_GenerateKeyPair,
//!   C_CreateObject, C_SetPIN (user and SO), C_InitPIN and C_Login each
//!   return CKR_DEVICE_ERROR and change nothing, in memory or on disk;
//!   C_DestroyObject, which only unlinks, succeeds. The parent then finds
//!   the directory byte for byte as before (less the destroyed file), no
//!   temporary file, the old PIN logging in and the old key signing as
//!   before.
//! - `killed_mid_write`: a child loops on token writes (a 1 MiB
//!   certificate created and destroyed; every fourth time C_SetPIN between
//!   two PINs) and is killed with SIGKILL after a random delay, 20 rounds
//!   (the seed is printed; `SPHINCS_FAULT_SEED` repeats it). After each the
//!   token loads, one of the two PINs logs in, every object file is an
//!   object, the key pair signs and verifies as before, a certificate left
//!   is whole, and the temporary and staged files the kill left are passed
//!   over (never read as objects). Where a kill lands is chance: a run
//!   sees some of the windows, not all.
//! - `set_pin_cut_short`: the two states a C_SetPIN cut short can leave
//!   (before and after its `token.bin` write), made from the files of one
//!   that finished; the PIN `token.bin` holds reaches the key in both.

#[macro_use]
mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::ptr::null_mut;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::raw::{
    b, create_object, find, generate_pair, init_pin, init_token_raw, login, mech, open,
    sign_deterministic, ul, Tmpl,
};
use cryptoki_sys::*;

/// The role of a child process (unset in the parent).
const CHILD: &str = "SPHINCS_FAULT_CHILD";
/// The file size limits of the `full_disk` child: "<L> <small>".
const LIMITS: &str = "SPHINCS_FAULT_LIMITS";

const PIN_A: &str = "user-pin-aaaa";
const PIN_B: &str = "user-pin-bbbb";
const MESSAGE: &[u8] = b"kept through faults";
/// The writer child's line once it is in its loop (libtest may have
/// printed `test killed_mid_write ... ` before it on the same line).
const READY: &str = "SPHINCS-FAULT-WRITER-READY";

/// One module per process: the two tests take turns in the parent.
static MODULE: Mutex<()> = Mutex::new(());

fn rv_name(rv: CK_RV) -> String {
    match rv {
        CKR_OK => "CKR_OK".into(),
        CKR_DEVICE_ERROR => "CKR_DEVICE_ERROR".into(),
        CKR_DEVICE_MEMORY => "CKR_DEVICE_MEMORY".into(),
        CKR_GENERAL_ERROR => "CKR_GENERAL_ERROR".into(),
        CKR_FUNCTION_FAILED => "CKR_FUNCTION_FAILED".into(),
        CKR_KEY_HANDLE_INVALID => "CKR_KEY_HANDLE_INVALID".into(),
        other => format!("{other:#x}"),
    }
}

/// Asserts `rv` and prints it (the report of what the module returned).
fn expect(what: &str, rv: CK_RV, want: CK_RV) {
    println!("{what}: {}", rv_name(rv));
    assert_eq!(rv, want, "{what}: {} (want {})", rv_name(rv), rv_name(want));
}

fn initialize(dir: &Path) {
    // SAFETY (edition 2021: safe): MODULE is held (or this is a child,
    // one test); the module reads it at C_Initialize.
    std::env::set_var("SPHINCS_PKCS11_DIR", dir);
    assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
}

/// MODULE, and the module finalised (a test that failed may have left it
/// initialised).
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    let guard = MODULE.lock().unwrap_or_else(|e| e.into_inner());
    let _ = call!(C_Finalize(null_mut()));
    guard
}

fn finalize() {
    assert_eq!(call!(C_Finalize(null_mut())), CKR_OK);
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sphincs-pkcs11-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// C_GenerateKeyPair of a SHA2-128f pair, both token objects.
fn generate(h: CK_SESSION_HANDLE) -> Result<(CK_OBJECT_HANDLE, CK_OBJECT_HANDLE), CK_RV> {
    let public = Tmpl(vec![
        (CKA_TOKEN, b(true)),
        (CKA_PARAMETER_SET, ul(CKP_SLH_DSA_SHA2_128F)),
        (CKA_LABEL, b"pair".to_vec()),
    ]);
    let private = Tmpl(vec![(CKA_TOKEN, b(true)), (CKA_LABEL, b"pair".to_vec())]);
    match generate_pair(h, &public, &private) {
        (CKR_OK, hp, hs) => Ok((hp, hs)),
        (rv, _, _) => Err(rv),
    }
}

/// C_CreateObject of a public token certificate holding `value`.
fn create_cert(h: CK_SESSION_HANDLE, value: &[u8]) -> Result<CK_OBJECT_HANDLE, CK_RV> {
    let t = Tmpl(vec![
        (CKA_CLASS, ul(CKO_CERTIFICATE)),
        (CKA_CERTIFICATE_TYPE, ul(CKC_X_509)),
        (CKA_TOKEN, b(true)),
        (CKA_PRIVATE, b(false)),
        (CKA_SUBJECT, b"s".to_vec()),
        (CKA_VALUE, value.to_vec()),
    ]);
    match create_object(h, &t) {
        (CKR_OK, o) => Ok(o),
        (rv, _) => Err(rv),
    }
}

fn set_pin(h: CK_SESSION_HANDLE, old: &str, new: &str) -> CK_RV {
    call!(C_SetPIN(
        h,
        old.as_ptr() as *mut _,
        old.len() as CK_ULONG,
        new.as_ptr() as *mut _,
        new.len() as CK_ULONG
    ))
}

fn value(h: CK_SESSION_HANDLE, o: CK_OBJECT_HANDLE) -> Vec<u8> {
    let mut a = CK_ATTRIBUTE {
        type_: CKA_VALUE,
        pValue: null_mut(),
        ulValueLen: 0,
    };
    assert_eq!(call!(C_GetAttributeValue(h, o, &mut a, 1)), CKR_OK);
    let mut v = vec![0u8; a.ulValueLen as usize];
    a.pValue = v.as_mut_ptr() as *mut _;
    assert_eq!(call!(C_GetAttributeValue(h, o, &mut a, 1)), CKR_OK);
    v.truncate(a.ulValueLen as usize);
    v
}

/// The writer's certificate value: large, so that a kill often lands
/// while its file is being written.
fn in_flight() -> Vec<u8> {
    (0..1u32 << 20).map(|i| (i % 251) as u8).collect()
}

/// A deterministic CKM_SLH_DSA signature of MESSAGE.
fn sign(h: CK_SESSION_HANDLE, key: CK_OBJECT_HANDLE) -> Result<Vec<u8>, CK_RV> {
    sign_deterministic(h, key, MESSAGE)
}

fn verify(h: CK_SESSION_HANDLE, key: CK_OBJECT_HANDLE, sig: &[u8]) -> CK_RV {
    let m = mech(CKM_SLH_DSA);
    let rv = call!(C_VerifyInit(h, &m as *const _ as *mut _, key));
    if rv != CKR_OK {
        return rv;
    }
    call!(C_Verify(
        h,
        MESSAGE.as_ptr() as *mut _,
        MESSAGE.len() as CK_ULONG,
        sig.as_ptr() as *mut _,
        sig.len() as CK_ULONG
    ))
}

fn of_class(h: CK_SESSION_HANDLE, class: CK_OBJECT_CLASS) -> Vec<CK_OBJECT_HANDLE> {
    find(h, &Tmpl(vec![(CKA_CLASS, ul(class))]))
}

/// Every file of `dir` and its bytes, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    v.sort();
    v
}

fn is_object_file(name: &str) -> bool {
    name.starts_with("obj-") && name.ends_with(".bin")
}

/// A private key re-encrypted by a C_SetPIN that was cut short (store.rs).
fn is_staged_file(name: &str) -> bool {
    name.starts_with("new-") && name.ends_with(".bin")
}

/// Sets RLIMIT_FSIZE's soft limit (the hard one stays, so it can rise again).
fn limit_file_size(bytes: libc::rlim_t) {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut r) }, 0);
    r.rlim_cur = bytes;
    // SAFETY: a valid rlimit.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_FSIZE, &r) }, 0);
}

/// This test binary again, running `test` alone in role `role`.
fn child(test: &str, role: &str) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, role);
    c
}

#[test]
fn full_disk() {
    if std::env::var(CHILD).as_deref() == Ok("full-disk") {
        return full_disk_child();
    }
    let _one = one_at_a_time();
    let dir = fresh_dir("full-disk");
    initialize(&dir);
    let h = init_token_raw(PIN_A);
    let (hp, hs) = generate(h).unwrap();
    let cert = create_cert(h, b"certificate DER").unwrap();
    let pk = value(h, hp);
    let sig = sign(h, hs).unwrap();
    finalize();

    let before = files(&dir);
    let names: Vec<_> = before.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(names.len(), 4, "token.bin and three objects: {names:?}");
    // The file that holds the certificate (destroyed by the child) and the
    // private key's (the largest: the encrypted PKCS#8).
    let cert_file = before
        .iter()
        .find(|(_, b)| b.windows(15).any(|w| w == b"certificate DER"))
        .map(|(n, _)| n.clone())
        .unwrap();
    let private_len = before.iter().map(|(_, b)| b.len()).max().unwrap();
    let fits = before
        .iter()
        .map(|(_, b)| b.len())
        .filter(|&n| n < private_len)
        .max()
        .unwrap();
    println!(
        "files: {:?}",
        before
            .iter()
            .map(|(n, b)| (n.as_str(), b.len()))
            .collect::<Vec<_>>()
    );
    let _ = cert;

    let t = Instant::now();
    let out = child("full_disk", "full-disk")
        .env(LIMITS, format!("{fits} 16"))
        .env("SPHINCS_PKCS11_DIR", &dir)
        .output()
        .unwrap();
    println!("{}", String::from_utf8_lossy(&out.stdout));
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "child: {}", out.status);
    println!("child: {:?}", t.elapsed());

    // The directory as it was, less the destroyed certificate's file: no
    // file changed, none added (no temporary file left).
    let after = files(&dir);
    let expected: Vec<_> = before
        .iter()
        .filter(|(n, _)| *n != cert_file)
        .cloned()
        .collect();
    let after_names: Vec<_> = after.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        after_names.iter().all(|n| !n.ends_with(".tmp")),
        "temporary files left: {after_names:?}"
    );
    assert!(after == expected, "the directory changed: {after_names:?}");

    // Loaded normally: the old PIN logs in (the one the child tried to
    // set does not), the old key signs as before, the public key verifies.
    initialize(&dir);
    let h = open(true);
    assert_eq!(login(h, CKU_USER, PIN_B), CKR_PIN_INCORRECT);
    assert_eq!(login(h, CKU_USER, PIN_A), CKR_OK);
    let (public, private) = (of_class(h, CKO_PUBLIC_KEY), of_class(h, CKO_PRIVATE_KEY));
    assert_eq!((public.len(), private.len()), (1, 1), "the one old pair");
    assert!(of_class(h, CKO_CERTIFICATE).is_empty(), "destroyed");
    assert_eq!(value(h, public[0]), pk);
    assert!(
        sign(h, private[0]).unwrap() == sig,
        "the old key signs as before"
    );
    assert_eq!(verify(h, public[0], &sig), CKR_OK);
    finalize();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The child of `full_disk`: every write fails (EFBIG), each call says so
/// and leaves the token as it was.
fn full_disk_child() {
    let limits: Vec<libc::rlim_t> = std::env::var(LIMITS)
        .unwrap()
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    let (fits, small) = (limits[0], limits[1]);
    // SAFETY: ignoring a signal; a write past the limit then fails with EFBIG.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
    let h = open(true);
    assert_eq!(login(h, CKU_USER, PIN_A), CKR_OK);
    let visible = find(h, &Tmpl(vec![])).len();
    assert_eq!(visible, 3);
    let private = of_class(h, CKO_PRIVATE_KEY)[0];
    let sig = sign(h, private).unwrap();

    // The token file and a public key's file fit; a private key's does not.
    limit_file_size(fits);
    println!("RLIMIT_FSIZE {fits}:");
    expect(
        "  C_GenerateKeyPair",
        generate(h).err().unwrap_or(CKR_OK),
        CKR_DEVICE_ERROR,
    );
    assert_eq!(find(h, &Tmpl(vec![])).len(), visible, "no half pair");
    let big = vec![7u8; 2 * fits as usize];
    expect(
        "  C_CreateObject",
        create_cert(h, &big).err().unwrap_or(CKR_OK),
        CKR_DEVICE_ERROR,
    );
    expect(
        "  C_SetPIN (user)",
        set_pin(h, PIN_A, PIN_B),
        CKR_DEVICE_ERROR,
    );

    // Nothing fits.
    limit_file_size(small);
    println!("RLIMIT_FSIZE {small}:");
    expect(
        "  C_GenerateKeyPair",
        generate(h).err().unwrap_or(CKR_OK),
        CKR_DEVICE_ERROR,
    );
    expect(
        "  C_CreateObject",
        create_cert(h, b"x").err().unwrap_or(CKR_OK),
        CKR_DEVICE_ERROR,
    );
    expect(
        "  C_SetPIN (user)",
        set_pin(h, PIN_A, PIN_B),
        CKR_DEVICE_ERROR,
    );
    assert_eq!(find(h, &Tmpl(vec![])).len(), visible);
    assert!(
        sign(h, private).unwrap() == sig,
        "the key in memory is whole"
    );
    assert_eq!(call!(C_Logout(h)), CKR_OK);
    // A login writes the retry counter: with no room it is refused.
    expect(
        "  C_Login (user)",
        login(h, CKU_USER, PIN_A),
        CKR_DEVICE_ERROR,
    );

    // The SO logs in with room, then tries to write without.
    limit_file_size(libc::RLIM_INFINITY);
    assert_eq!(login(h, CKU_SO, common::SO_PIN), CKR_OK);
    limit_file_size(small);
    expect("  C_InitPIN", init_pin(h, PIN_B), CKR_DEVICE_ERROR);
    expect(
        "  C_SetPIN (SO)",
        set_pin(h, common::SO_PIN, "so-pin-other"),
        CKR_DEVICE_ERROR,
    );
    assert_eq!(call!(C_Logout(h)), CKR_OK);

    // Removing a file needs no room.
    let cert = of_class(h, CKO_CERTIFICATE)[0];
    expect("  C_DestroyObject", call!(C_DestroyObject(h, cert)), CKR_OK);
    // A wrong PIN cannot be counted on disk either: refused.
    expect(
        "  C_Login (user, wrong PIN)",
        login(h, CKU_USER, PIN_B),
        CKR_DEVICE_ERROR,
    );
    assert_eq!(call!(C_Finalize(null_mut())), CKR_OK);
}

const ROUNDS: u32 = 20;

#[test]
fn killed_mid_write() {
    if std::env::var(CHILD).as_deref() == Ok("writer") {
        return writer_child();
    }
    let _one = one_at_a_time();
    let dir = fresh_dir("killed");
    initialize(&dir);
    let h = init_token_raw(PIN_A);
    let (hp, hs) = generate(h).unwrap();
    let pk = value(h, hp);
    let sig = sign(h, hs).unwrap();
    finalize();

    // Delays from a seed (printed; SPHINCS_FAULT_SEED repeats a run).
    let in_flight = in_flight();
    let mut seed: u64 = match std::env::var("SPHINCS_FAULT_SEED") {
        Ok(s) => s.parse().unwrap(),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    };
    println!("SPHINCS_FAULT_SEED={seed}");
    let (mut temporaries, mut staged_seen) = (0, 0);
    let mut pins = [0u32; 2];
    for round in 0..ROUNDS {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let delay = Duration::from_micros((seed >> 33) % 900_000);
        let mut c = child("killed_mid_write", "writer")
            .env("SPHINCS_PKCS11_DIR", &dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Once it is in its loop, a random moment later.
        let mut lines = BufReader::new(c.stdout.take().unwrap()).lines();
        loop {
            match lines.next() {
                Some(Ok(l)) if l.ends_with(READY) => break,
                Some(Ok(_)) => {}
                other => panic!("round {round}: the child ended before its loop: {other:?}"),
            }
        }
        std::thread::sleep(delay);
        c.kill().unwrap();
        let status = c.wait().unwrap();
        assert!(!status.success(), "round {round}: killed, not finished");

        // What the kill left: object files, and perhaps temporary files,
        // which loading passes over.
        let on_disk = files(&dir);
        let objects = on_disk.iter().filter(|(n, _)| is_object_file(n)).count();
        let names: Vec<_> = on_disk.iter().map(|(n, _)| n.as_str()).collect();
        let tmp: Vec<_> = names.iter().filter(|n| n.ends_with(".tmp")).collect();
        let staged: Vec<_> = names.iter().filter(|n| is_staged_file(n)).collect();
        temporaries += tmp.len();
        staged_seen += staged.len();
        assert!(
            names.iter().all(|n| *n == "token.bin"
                || is_object_file(n)
                || is_staged_file(n)
                || n.ends_with(".tmp")),
            "round {round}: {names:?}"
        );
        for s in &staged {
            let object = s.replacen("new-", "obj-", 1);
            assert!(names.contains(&object.as_str()), "round {round}: {s} alone");
        }

        initialize(&dir);
        let h = open(true);
        // Exactly one of the two PINs (a wrong try is counted, and reset
        // by the right one).
        let pin = match login(h, CKU_USER, PIN_A) {
            CKR_OK => 0,
            CKR_PIN_INCORRECT => {
                assert_eq!(login(h, CKU_USER, PIN_B), CKR_OK, "round {round}: PIN B");
                1
            }
            rv => panic!("round {round}: login {}", rv_name(rv)),
        };
        pins[pin] += 1;
        let all = find(h, &Tmpl(vec![]));
        assert_eq!(
            all.len(),
            objects,
            "round {round}: every object file is an object"
        );
        let (public, private) = (of_class(h, CKO_PUBLIC_KEY), of_class(h, CKO_PRIVATE_KEY));
        assert_eq!((public.len(), private.len()), (1, 1), "round {round}");
        assert_eq!(value(h, public[0]), pk, "round {round}");
        let signed = sign(h, private[0]);
        assert!(
            signed.as_ref() == Ok(&sig),
            "round {round}: the key signs as before under PIN {}: {}",
            ["A", "B"][pin],
            signed.err().map_or("another signature".into(), rv_name)
        );
        assert_eq!(verify(h, public[0], &sig), CKR_OK, "round {round}");
        let certs = of_class(h, CKO_CERTIFICATE);
        assert!(
            certs.len() <= 1,
            "round {round}: {} certificates",
            certs.len()
        );
        for c in certs {
            assert!(
                value(h, c) == in_flight,
                "round {round}: the certificate whole"
            );
        }
        println!(
            "round {round}: killed after {delay:?}, PIN {}, {objects} objects, \
             staged {staged:?}, temporary {tmp:?}",
            ["A", "B"][pin]
        );
        finalize();
    }
    println!(
        "{ROUNDS} rounds: PIN A {}, PIN B {}; seen: {staged_seen} staged files, \
         {temporaries} temporary files",
        pins[0], pins[1]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The child of `killed_mid_write`: token writes until it is killed.
fn writer_child() {
    assert_eq!(call!(C_Initialize(null_mut())), CKR_OK);
    let h = open(true);
    let (mut pin, mut other) = (PIN_A, PIN_B);
    if login(h, CKU_USER, pin) != CKR_OK {
        (pin, other) = (other, pin);
        assert_eq!(login(h, CKU_USER, pin), CKR_OK);
    }
    for c in of_class(h, CKO_CERTIFICATE) {
        assert_eq!(call!(C_DestroyObject(h, c)), CKR_OK);
    }
    let value = in_flight();
    println!("{READY}");
    for i in 0.. {
        let cert = create_cert(h, &value).unwrap();
        if i % 4 == 3 {
            assert_eq!(set_pin(h, pin, other), CKR_OK);
            (pin, other) = (other, pin);
        }
        assert_eq!(call!(C_DestroyObject(h, cert)), CKR_OK);
    }
}

/// The two states a C_SetPIN cut short can leave, made from the files of
/// one that finished (A to B): before `token.bin` (the old token and key
/// file, the key staged under B) and after it (the new token, the old key
/// file, the key staged under B). A is right in the first, B in the second,
/// and the key signs in both; in the second the staged file takes the key
/// file's place at its first use.
#[test]
fn set_pin_cut_short() {
    let _one = one_at_a_time();
    let dir = fresh_dir("set-pin");
    initialize(&dir);
    let h = init_token_raw(PIN_A);
    let (_, hs) = generate(h).unwrap();
    let sig = sign(h, hs).unwrap();
    let before = files(&dir);
    assert_eq!(set_pin(h, PIN_A, PIN_B), CKR_OK);
    finalize();
    let after = files(&dir);
    let names: Vec<_> = after.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        names
            .iter()
            .all(|n| !is_staged_file(n) && !n.ends_with(".tmp")),
        "a finished C_SetPIN leaves no staged file: {names:?}"
    );
    let old = |n: &str| before.iter().find(|(m, _)| m == n).unwrap().1.clone();
    let new = |n: &str| after.iter().find(|(m, _)| m == n).unwrap().1.clone();
    // The private key's file: the one C_SetPIN changed, but token.bin.
    let key_file = after
        .iter()
        .find(|(n, b)| is_object_file(n) && *b != old(n))
        .map(|(n, _)| n.clone())
        .unwrap();
    let staged_file = key_file.replacen("obj-", "new-", 1);

    for (committed, right, wrong) in [(false, PIN_A, PIN_B), (true, PIN_B, PIN_A)] {
        let token = if committed {
            new("token.bin")
        } else {
            old("token.bin")
        };
        std::fs::write(dir.join("token.bin"), token).unwrap();
        std::fs::write(dir.join(&key_file), old(&key_file)).unwrap();
        std::fs::write(dir.join(&staged_file), new(&key_file)).unwrap();
        initialize(&dir);
        let h = open(true);
        assert_eq!(login(h, CKU_USER, wrong), CKR_PIN_INCORRECT);
        assert_eq!(login(h, CKU_USER, right), CKR_OK);
        let private = of_class(h, CKO_PRIVATE_KEY);
        assert_eq!(private.len(), 1, "committed: {committed}");
        let signed = sign(h, private[0]);
        assert!(
            signed.as_ref() == Ok(&sig),
            "committed: {committed}: {}",
            signed.err().map_or("another signature".into(), rv_name)
        );
        finalize();
        if committed {
            assert!(!dir.join(&staged_file).exists(), "the staged file moved");
            assert_eq!(std::fs::read(dir.join(&key_file)).unwrap(), new(&key_file));
        } else {
            assert_eq!(std::fs::read(dir.join(&key_file)).unwrap(), old(&key_file));
        }
    }
    // From the second state C_SetPIN works again (B to A) and cleans up.
    initialize(&dir);
    let h = open(true);
    assert_eq!(login(h, CKU_USER, PIN_B), CKR_OK);
    assert_eq!(set_pin(h, PIN_B, PIN_A), CKR_OK);
    finalize();
    initialize(&dir);
    let h = open(true);
    assert_eq!(login(h, CKU_USER, PIN_A), CKR_OK);
    let private = of_class(h, CKO_PRIVATE_KEY);
    assert!(sign(h, private[0]).unwrap() == sig);
    finalize();
    let names: Vec<_> = files(&dir).into_iter().map(|(n, _)| n).collect();
    assert!(names.iter().all(|n| !is_staged_file(n)), "{names:?}");

    // Cut short before token.bin again (the key staged under PIN_B, a PIN
    // never set); the SO's C_InitPIN sets exactly PIN_B: the staged copy is
    // gone first, so the key stays locked, as after any SO reset.
    let now = files(&dir);
    let current = |n: &str| now.iter().find(|(m, _)| m == n).unwrap().1.clone();
    std::fs::write(dir.join(&staged_file), new(&key_file)).unwrap();
    initialize(&dir);
    let h = open(true);
    assert_eq!(login(h, CKU_SO, common::SO_PIN), CKR_OK);
    assert_eq!(init_pin(h, PIN_B), CKR_OK);
    assert!(
        !dir.join(&staged_file).exists(),
        "C_InitPIN removes staged files"
    );
    assert_eq!(call!(C_Logout(h)), CKR_OK);
    assert_eq!(login(h, CKU_USER, PIN_B), CKR_OK);
    let private = of_class(h, CKO_PRIVATE_KEY);
    assert_eq!(private.len(), 1);
    assert!(
        sign(h, private[0]).is_err(),
        "a staged key came back under the SO's PIN"
    );
    finalize();
    assert_eq!(
        std::fs::read(dir.join(&key_file)).unwrap(),
        current(&key_file)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
