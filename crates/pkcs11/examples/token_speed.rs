//! C_Sign per set, one thread: this module against the core's own signing
//! (what `sphincs sign` runs) and, given its path, against kryoptic's
//! module, in one interleaved run (a round signs once with each, so drift
//! in the machine's speed falls on all alike). Prints the median time per
//! set and the median of the rounds' ratios. The f sets run ten times the
//! rounds of the s sets.
//!
//! ```text
//! cargo build --release -p sphincs-pkcs11 --examples
//! target/release/examples/token_speed [--rounds N] [--kryoptic libkryoptic_pkcs11.so]
//! ```
//! kryoptic needs OpenSSL 3.5: run it through the loader of
//! tests/interop/kryoptic/build.sh (`run`), as BENCHMARKS.md shows.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::mechanism::dsa::{HedgeType, SignAdditionalContext};
use cryptoki::mechanism::Mechanism;
use cryptoki::object::{Attribute, KeyType, ObjectClass, ObjectHandle, ParameterSetType};
use cryptoki::session::{Session, UserType};
use cryptoki::types::AuthPin;
use sphincs::any::{AnyAlgorithm, AnySigningKey};
use sphincs::{Algorithm, SignOptions};

const PIN: &str = "speed-pin-1234";

/// A module loaded, its token initialised (kryoptic: in a fresh store in a
/// temporary directory) and a user session open.
fn open(path: &PathBuf, name: &str) -> (Pkcs11, Session) {
    if name == "kryoptic" {
        let dir = std::env::temp_dir().join(format!("token-speed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let conf = dir.join("kryoptic.conf");
        let db = dir.join("token.sql");
        let text = format!(
            "[[slots]]\nslot = 1\ndbtype = \"sqlite\"\ndbargs = \"{}\"\n",
            db.display()
        );
        std::fs::write(&conf, text).expect("kryoptic.conf");
        std::env::set_var("KRYOPTIC_CONF", &conf);
    }
    let p = Pkcs11::new(path).unwrap_or_else(|e| panic!("loading {}: {e}", path.display()));
    p.initialize(CInitializeArgs::new(CInitializeFlags::OS_LOCKING_OK))
        .expect("C_Initialize");
    let slot = p.get_slots_with_token().expect("C_GetSlotList")[0];
    let pin = AuthPin::from(PIN.to_string());
    p.init_token(slot, &pin, name).expect("C_InitToken");
    let s = p.open_rw_session(slot).expect("C_OpenSession");
    s.login(UserType::So, Some(&pin)).expect("SO login");
    s.init_pin(&pin).expect("C_InitPIN");
    s.logout().expect("C_Logout");
    s.login(UserType::User, Some(&pin)).expect("user login");
    (p, s)
}

/// The key's private half as a session object.
fn import(s: &Session, set: u64, sk: &[u8]) -> ObjectHandle {
    s.create_object(&[
        Attribute::Class(ObjectClass::PRIVATE_KEY),
        Attribute::KeyType(KeyType::SLH_DSA),
        Attribute::ParameterSet(
            ParameterSetType::try_from(cryptoki::types::Ulong::from(set)).expect("a parameter set"),
        ),
        Attribute::Token(false),
        Attribute::Private(true),
        Attribute::Sensitive(true),
        Attribute::Sign(true),
        Attribute::Value(sk.to_vec()),
    ])
    .expect("C_CreateObject")
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn median_f(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut rounds = 5usize;
    let mut kryoptic: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--rounds N")
            }
            "--kryoptic" => kryoptic = args.next().map(PathBuf::from),
            other => panic!("unknown argument {other:?} (--rounds N, --kryoptic PATH)"),
        }
    }
    // This build's module: beside the examples directory, as cargo leaves it.
    let exe = PathBuf::from(std::env::args_os().next().expect("argv[0]"));
    let ours_path = exe
        .parent()
        .and_then(|d| d.parent())
        .map(|d| d.join("libsphincs_pkcs11.so"))
        .filter(|p| p.exists())
        .expect("libsphincs_pkcs11.so beside target/release/examples");
    let ours = open(&ours_path, "sphincs");
    let kry = kryoptic.as_ref().map(|p| open(p, "kryoptic"));
    let msg = vec![0x5au8; 1024];
    let mech = Mechanism::SlhDsa(SignAdditionalContext::new(HedgeType::Required, None));
    println!(
        "C_Sign, 1 KiB message, hedged, one thread; medians of {rounds} rounds (s sets), {} (f sets); times in ms, ratios the median of the rounds'",
        10 * rounds
    );
    println!(
        "{:<22} {:>9} {:>9} {:>9} {:>10} {:>12}",
        "set", "core", "module", "kryoptic", "module/core", "kryoptic/module"
    );
    for (i, alg) in Algorithm::ALL.into_iter().enumerate() {
        let any = AnyAlgorithm::SlhDsa(alg);
        let seed: Vec<u8> = (0..3 * alg.params().n).map(|b| b as u8 ^ i as u8).collect();
        let sk = AnySigningKey::from_seed(any, &seed, 1).expect("key");
        let set = sphincs_pkcs11::names::parameter_set(alg).expect("a FIPS 205 set");
        let ours_key = import(&ours.1, set, &sk.to_bytes());
        let kry_key = kry.as_ref().map(|(_, s)| import(s, set, &sk.to_bytes()));
        let (mut core, mut module, mut other) = (Vec::new(), Vec::new(), Vec::new());
        let (mut overhead, mut speedup) = (Vec::new(), Vec::new());
        let small = alg.name().ends_with('s');
        for _ in 0..if small { rounds } else { 10 * rounds } {
            let t = Instant::now();
            sk.sign(&msg, &SignOptions::default()).expect("core sign");
            core.push(t.elapsed());
            let t = Instant::now();
            ours.1.sign(&mech, ours_key, &msg).expect("our C_Sign");
            module.push(t.elapsed());
            overhead
                .push(module[module.len() - 1].as_secs_f64() / core[core.len() - 1].as_secs_f64());
            if let (Some((_, s)), Some(k)) = (&kry, kry_key) {
                let t = Instant::now();
                s.sign(&mech, k, &msg).expect("kryoptic's C_Sign");
                other.push(t.elapsed());
                speedup.push(
                    other[other.len() - 1].as_secs_f64() / module[module.len() - 1].as_secs_f64(),
                );
            }
        }
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let (c, m) = (ms(median(&mut core)), ms(median(&mut module)));
        let (k, ratio) = if other.is_empty() {
            ("-".to_string(), "-".to_string())
        } else {
            let k = ms(median(&mut other));
            (format!("{k:.1}"), format!("{:.2}×", median_f(&mut speedup)))
        };
        println!(
            "{:<22} {c:>9.1} {m:>9.1} {k:>9} {:>+9.1}% {ratio:>12}",
            alg.name(),
            (median_f(&mut overhead) - 1.0) * 100.0
        );
    }
}
