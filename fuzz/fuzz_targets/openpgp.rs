//! OpenPGP parsing (`sphincs::openpgp`) on arbitrary bytes, armored or
//! binary: certificates and keys, signatures, cleartext-signed and
//! inline-signed messages, and the split of mixed inputs (`foreign`, as
//! `sphincs gpgv` splits signatures, keyrings and cleartext for the system
//! gpgv). Never a panic; what parses writes out to bytes
//! that parse to the same thing (a fixed point after one round); keys,
//! signatures and messages check to a result in bounded work.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sphincs::openpgp::{self, armor, cleartext, foreign, Cert, DetachedVerifier, Keyring, Window};

const NOW: u64 = 1_800_000_000;

fuzz_target!(|data: &[u8]| {
    let window = Window {
        not_before: None,
        not_after: None,
        now: NOW,
        keys_valid_now: true,
    };
    let mut certs = Vec::new();
    if let Ok(parsed) = openpgp::read_certs(data) {
        for c in &parsed {
            let bytes = c.to_bytes(true);
            let again = Cert::parse_all(&bytes).expect("own output parses");
            assert_eq!(
                *again[0].to_bytes(true),
                *bytes,
                "written certificate is not a fixed point"
            );
            let _ = c.signing_keys(NOW);
            let _ = c.valid_user_ids(NOW);
            let _ = c.primary_user_id(NOW);
            let _ = c.signing_secret(NOW);
        }
        certs = parsed;
    }
    let ring = Keyring::new(&certs, NOW);
    if let Ok(sigs) = openpgp::read_signatures(data) {
        for s in &sigs {
            let back = openpgp::Signature::parse(&s.body()).expect("own signature parses");
            assert_eq!(&back, s);
        }
        let mut v = DetachedVerifier::new(sigs);
        v.update(b"Testing\n");
        let _ = v.finish(&ring, &window);
    }
    if cleartext::is_clearsigned(data) {
        if let Ok(cs) = cleartext::parse(data) {
            let _ = cs.verifier().finish(&ring, &window);
        }
        if let Ok((cs, split)) = cleartext::parse_mixed(data) {
            let _ = cs.verifier().finish(&ring, &window);
            // What is handed on is whole packets: it splits the same again.
            let again = foreign::split_signatures(&split.others).expect("handed-on packets parse");
            assert_eq!(again.other_count, split.other_count);
            assert!(again.ours.is_empty() && again.unreadable.is_empty());
        }
    }
    if let Ok(bytes) = armor::dearmor(data) {
        if let Ok(split) = foreign::split_signatures(&bytes) {
            let again = foreign::split_signatures(&split.others).expect("handed-on packets parse");
            assert_eq!(again.other_count, split.other_count);
        }
        if let Ok(split) = foreign::split_keyring(&bytes) {
            let again = foreign::split_keyring(&split.others).expect("handed-on keyring parses");
            assert_eq!(again.other_count, split.other_count);
            assert!(again.ours.is_empty());
        }
        if let Ok(m) = openpgp::parse_inline(&bytes) {
            let mut v = DetachedVerifier::new(m.signatures);
            v.update(&m.data);
            let _ = v.finish(&ring, &window);
        }
    }
});
