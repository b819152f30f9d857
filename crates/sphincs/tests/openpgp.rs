//! OpenPGP with SLH-DSA (RFC 9580 v6, RFC 9980): RFC 9980's own samples
//! (fingerprints, the three detached signatures over "Testing\n", tampered
//! copies), keys we make in every form, the policy's refusals, and bad input
//! that must fail cleanly.

use sphincs::openpgp::{
    self, armor, cleartext, Cert, DetachedSigner, DetachedVerifier, ErrorKind, Keyring, Mode,
    Signature, Window,
};

const SETS: [(&str, &str, u8); 3] = [
    (
        "128s",
        "eed4d13fc36c78e48276a93233339c4dd230fd5f6f5c5b82c63d5c0b5e361d92",
        32,
    ),
    (
        "128f",
        "d54e0307021169f7b88beb2b76e3aad0e114be1a8f982d74dba9ca51d03537f4",
        33,
    ),
    (
        "256s",
        "72fff84863aeba67f0d1d7691173247dd427533b9d7ee76011c6f77f2ce9fa7a",
        34,
    ),
];
const SUBKEYS: [&str; 3] = [
    "3e8745a4bb488779e0f32480fa23f8d0bfd8c2f49d7f74e957e1c2ffc2ef4bfc",
    "d8875664256c382dd7f3a5ce05021088922811f5d0b1a1f8c7769944a51b7002",
    "570a5bbab93169876a8240da35a1ada7ba8a640aabe3ab467c797214844df15f",
];
const NOW: u64 = 1_800_000_000;

fn sample(set: &str, what: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/data/openpgp-rfc9980/v6-slhdsa-{set}-sample-{what}.asc",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(path).unwrap()
}

fn window() -> Window {
    Window {
        not_before: None,
        not_after: None,
        now: NOW,
        keys_valid_now: false,
    }
}

fn verify(certs: &[Cert], sigs: Vec<Signature>, data: &[u8]) -> (usize, Vec<String>) {
    let mut v = DetachedVerifier::new(sigs);
    v.update(data);
    let (good, bad) = v.finish(&Keyring::new(certs, NOW), &window());
    (good.len(), bad)
}

#[test]
fn rfc9980_sample_fingerprints_and_subkeys() {
    for (i, (set, fpr, alg)) in SETS.iter().enumerate() {
        for what in ["pk", "sk"] {
            let certs = openpgp::read_certs(&sample(set, what)).unwrap();
            assert_eq!(certs.len(), 1);
            let c = &certs[0];
            assert_eq!(
                c.fingerprint().to_hex().to_lowercase(),
                *fpr,
                "{set} {what}"
            );
            assert_eq!(c.primary.public.algorithm, *alg);
            assert_eq!(c.subkeys.len(), 1, "the ML-KEM subkey is read and kept");
            assert_eq!(
                c.subkeys[0]
                    .key
                    .public
                    .fingerprint()
                    .to_hex()
                    .to_lowercase(),
                SUBKEYS[i]
            );
            assert_eq!(c.is_secret(), what == "sk");
            // The self-signatures check out; the ML-KEM subkey is not a signer.
            let keys = c.signing_keys(NOW).unwrap();
            assert_eq!(keys.len(), 1);
            assert!(keys[0].can_sign && !keys[0].revoked);
            assert!(!c.valid_user_ids(NOW).is_empty());
        }
    }
}

#[test]
fn rfc9980_secret_key_without_secrets_is_the_certificate() {
    for (set, _, _) in SETS {
        let tsk = &openpgp::read_certs(&sample(set, "sk")).unwrap()[0];
        let cert = armor::decode(&sample(set, "pk")).unwrap().1;
        assert_eq!(
            *tsk.to_bytes(false),
            cert,
            "{set}: extract-cert of the sample key is the sample certificate"
        );
        let sk = armor::decode(&sample(set, "sk")).unwrap().1;
        assert_eq!(
            *tsk.to_bytes(true),
            sk,
            "{set}: the secret key writes back unchanged"
        );
    }
}

#[test]
fn rfc9980_sample_signatures_verify_and_tampering_fails() {
    for (set, fpr, _) in SETS {
        let certs = openpgp::read_certs(&sample(set, "pk")).unwrap();
        let sigs = openpgp::read_signatures(&sample(set, "signature")).unwrap();
        let (good, bad) = verify(&certs, sigs.clone(), b"Testing\n");
        assert_eq!((good, bad.len()), (1, 0), "{set}: {bad:?}");
        let mut v = DetachedVerifier::new(sigs.clone());
        v.update(b"Testing\n");
        let (g, _) = v.finish(&Keyring::new(&certs, NOW), &window());
        assert_eq!(g[0].primary.to_hex().to_lowercase(), fpr);
        assert_eq!(
            verify(&certs, sigs.clone(), b"Testing!").0,
            0,
            "{set}: changed data"
        );
        assert_eq!(verify(&certs, sigs.clone(), b"Testing\n\n").0, 0);
        let mut t = sigs.clone();
        t[0].material[100] ^= 1;
        assert_eq!(
            verify(&certs, t, b"Testing\n").0,
            0,
            "{set}: changed signature"
        );
        let mut t = sigs.clone();
        t[0].salt[0] ^= 1;
        assert_eq!(verify(&certs, t, b"Testing\n").0, 0, "{set}: changed salt");
        // Another set's certificate does not verify it.
        let other = openpgp::read_certs(&sample(if set == "128s" { "128f" } else { "128s" }, "pk"))
            .unwrap();
        assert_eq!(verify(&other, sigs, b"Testing\n").0, 0);
    }
}

#[test]
fn rfc9980_sample_keys_sign_and_each_set_round_trips_every_form() {
    for (set, _, _) in SETS {
        let tsk = &openpgp::read_certs(&sample(set, "sk")).unwrap()[0];
        let certs = openpgp::read_certs(&sample(set, "pk")).unwrap();
        for mode in [Mode::Binary, Mode::Text] {
            let key = openpgp::unlock_signing_key(tsk, &[], NOW).unwrap();
            let mut s = DetachedSigner::new(vec![key], mode, NOW as u32).unwrap();
            s.update(b"line one\nline two\n");
            let sigs = s.finish(1).unwrap();
            let expected_hash = if set == "256s" { 10 } else { 8 };
            assert_eq!(sigs[0].hash_algo, expected_hash);
            assert_eq!(verify(&certs, sigs.clone(), b"line one\nline two\n").0, 1);
            // A text signature ignores the line-ending convention; binary does not.
            let crlf = verify(&certs, sigs, b"line one\r\nline two\r\n").0;
            assert_eq!(crlf, usize::from(mode == Mode::Text), "{set} {mode:?}");
        }
        // Cleartext.
        let key = openpgp::unlock_signing_key(tsk, &[], NOW).unwrap();
        let signed = cleartext::sign(
            vec![key],
            b"Origin: Debian\n- dash\n  trailing \t\n",
            NOW as u32,
            1,
        )
        .unwrap();
        let text = String::from_utf8(signed.clone()).unwrap();
        assert!(text.contains("\n- - dash\n"), "dash-escaped: {text}");
        let cs = cleartext::parse(&signed).unwrap();
        assert_eq!(cs.text, b"Origin: Debian\n- dash\n  trailing\n");
        let mut v = cs.verifier();
        v.update(&[]);
        assert_eq!(v.finish(&Keyring::new(&certs, NOW), &window()).0.len(), 1);
        let tampered = text.replace("Debian", "Debiam");
        let cs = cleartext::parse(tampered.as_bytes()).unwrap();
        assert_eq!(
            cs.verifier()
                .finish(&Keyring::new(&certs, NOW), &window())
                .0
                .len(),
            0
        );
        // Inline (one-pass signed).
        let key = openpgp::unlock_signing_key(tsk, &[], NOW).unwrap();
        let msg = openpgp::inline_sign(vec![key], b"payload", Mode::Binary, NOW as u32, 1).unwrap();
        let m = openpgp::parse_inline(&msg).unwrap();
        assert_eq!(m.data, b"payload");
        assert_eq!(verify(&certs, m.signatures, &m.data).0, 1);
    }
}

#[test]
fn generated_keys_verify_protect_and_refuse_wrong_passphrases() {
    for alg in [
        "SLH-DSA-SHAKE-128f",
        "SLH-DSA-SHAKE-128s",
        "SLH-DSA-SHAKE-256s",
    ] {
        let uids = [
            "Alice <alice@example.org>".to_string(),
            "Alice Second".to_string(),
        ];
        let tsk =
            openpgp::generate(alg.parse().unwrap(), &uids, NOW as u32 - 10, Some(b"pw")).unwrap();
        let bytes = tsk.to_bytes(true);
        let tsk = &Cert::parse_all(&bytes).unwrap()[0];
        assert!(tsk.primary.secret.as_ref().unwrap().is_protected());
        let cert = Cert::parse_all(&tsk.to_bytes(false)).unwrap();
        assert_eq!(cert[0].valid_user_ids(NOW), uids.to_vec());
        let e = openpgp::unlock_signing_key(tsk, &[], NOW).unwrap_err();
        assert_eq!(e.kind, ErrorKind::KeyIsProtected);
        let e = openpgp::unlock_signing_key(tsk, &[b"nope"], NOW).unwrap_err();
        assert_eq!(e.kind, ErrorKind::WrongPassphrase);
        let key = openpgp::unlock_signing_key(tsk, &[b"nope", b"pw"], NOW).unwrap();
        let mut s = DetachedSigner::new(vec![key], Mode::Binary, NOW as u32).unwrap();
        s.update(b"x");
        let sigs = s.finish(2).unwrap();
        assert_eq!(verify(&cert, sigs.clone(), b"x").0, 1, "{alg}");
        // Before the key existed, or outside the window: refused.
        let w = Window {
            not_before: Some(NOW + 1),
            not_after: None,
            now: NOW,
            keys_valid_now: false,
        };
        let mut v = DetachedVerifier::new(sigs);
        v.update(b"x");
        assert_eq!(v.finish(&Keyring::new(&cert, NOW), &w).0.len(), 0);
    }
}

#[test]
fn a_key_held_elsewhere_certifies_itself_and_signs_as_its_certificate_says() {
    use sphincs::any::AnySigningKey;
    let alg = "SLH-DSA-SHAKE-128f".parse().unwrap();
    // The key stands for one in a token: the core sees only `AnySigner`.
    let held = AnySigningKey::generate(alg, 1).unwrap();
    let uids = ["Release <release@example.org>".to_string()];
    let created = NOW as u32 - 100;
    let cert = openpgp::certify(&held, &uids, created, Some(NOW + 50)).unwrap();
    assert!(
        !cert.is_secret(),
        "a certificate only: the secret is elsewhere"
    );
    let cert = Cert::parse_all(&cert.to_bytes(false)).unwrap();
    assert_eq!(cert[0].valid_user_ids(NOW), uids.to_vec());
    let public = cert[0].signing_public(&held.verifying_key(), NOW).unwrap();
    assert_eq!(public, cert[0].primary.public);
    let key = openpgp::UnlockedKey {
        public,
        key: Box::new(held.clone()),
    };
    let mut s = DetachedSigner::new(vec![key], Mode::Binary, NOW as u32).unwrap();
    s.update(b"release");
    assert_eq!(verify(&cert, s.finish(1).unwrap(), b"release").0, 1);
    // Another key is none of the certificate's; after the expiry none signs.
    let other = AnySigningKey::generate(alg, 1).unwrap().verifying_key();
    let e = cert[0].signing_public(&other, NOW).unwrap_err();
    assert_eq!(e.kind, ErrorKind::KeyCannotSign);
    assert!(e.message.contains("none of the keys"), "{}", e.message);
    let e = cert[0]
        .signing_public(&held.verifying_key(), NOW + 51)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::KeyCannotSign);
    // A set OpenPGP has no code point for is refused before any signature.
    let sha2 = AnySigningKey::generate("SLH-DSA-SHA2-128f".parse().unwrap(), 1).unwrap();
    let e = openpgp::certify(&sha2, &uids, created, None).unwrap_err();
    assert!(e.message.contains("no OpenPGP code point"), "{}", e.message);
}

#[test]
fn a_damaged_secret_key_releases_no_signature() {
    let tsk =
        openpgp::generate("SLH-DSA-SHAKE-128f".parse().unwrap(), &[], NOW as u32, None).unwrap();
    let mut damaged = tsk.clone();
    let secret = damaged.primary.secret.as_mut().unwrap();
    if let openpgp::SecretMaterial::Plain(s) = &mut secret.secret {
        s[3] ^= 1; // SK.seed: the public half still matches the key packet
    }
    let key = openpgp::unlock_signing_key(&damaged, &[], NOW).unwrap();
    let mut s = DetachedSigner::new(vec![key], Mode::Binary, NOW as u32).unwrap();
    s.update(b"x");
    let e = s.finish(1).unwrap_err();
    assert!(e.message.contains("nothing was released"), "{e}");
    // A secret key whose public half is another key's is refused on unlocking.
    let other =
        openpgp::generate("SLH-DSA-SHAKE-128f".parse().unwrap(), &[], NOW as u32, None).unwrap();
    let mut mixed = tsk.clone();
    mixed.primary.secret.as_mut().unwrap().public = other.primary.public.clone();
    assert_eq!(
        openpgp::unlock_signing_key(&mixed, &[], NOW)
            .unwrap_err()
            .kind,
        ErrorKind::Malformed
    );
}

fn first_signature() -> (Vec<Cert>, Signature) {
    let certs = openpgp::read_certs(&sample("128f", "pk")).unwrap();
    let sig = openpgp::read_signatures(&sample("128f", "signature"))
        .unwrap()
        .remove(0);
    (certs, sig)
}

#[test]
fn policy_refuses_short_digests_v4_signatures_and_unknown_critical_subpackets() {
    let (certs, sig) = first_signature();
    // SHA2-224: under 256 bits, refused whatever the signature.
    let mut s = sig.clone();
    s.hash_algo = 11;
    s.salt.truncate(16);
    let (good, bad) = verify(&certs, vec![s], b"Testing\n");
    assert_eq!(good, 0);
    assert!(bad[0].contains("256 bits"), "{bad:?}");
    // SHA-1.
    let mut s = sig.clone();
    s.hash_algo = 2;
    assert_eq!(verify(&certs, vec![s], b"Testing\n").0, 0);
    // A v4 signature packet with an SLH-DSA algorithm: a clear refusal.
    let mut body = sig.body();
    body[0] = 4;
    let e = Signature::parse(&body).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        e.message.contains("v4") && e.message.contains("SLH-DSA-SHAKE-128f"),
        "{e}"
    );
    // An unknown critical subpacket in the hashed area.
    let mut s = sig.clone();
    s.hashed.push(openpgp::Subpacket::critical(100, vec![1]));
    s.hashed_area = {
        let mut a = s.hashed_area.clone();
        a.extend_from_slice(&[2, 0x80 | 100, 1]);
        a
    };
    let (good, bad) = verify(&certs, vec![s], b"Testing\n");
    assert_eq!(good, 0);
    assert!(bad[0].contains("critical"), "{bad:?}");
}

#[test]
fn bad_input_fails_cleanly_and_mutations_never_panic() {
    assert!(openpgp::read_certs(b"").is_err());
    assert!(openpgp::read_certs(b"not pgp").is_err());
    assert!(openpgp::read_signatures(&[0xc2, 0xff, 0xff, 0xff, 0xff, 0xff]).is_err());
    let huge = format!(
        "-----BEGIN PGP SIGNATURE-----\n\n{}\n-----END PGP SIGNATURE-----\n",
        "A".repeat(1 << 20)
    );
    assert_eq!(
        openpgp::read_signatures(huge.as_bytes()).unwrap_err().kind,
        ErrorKind::Malformed
    );
    // Deeply nested compressed packets are refused without recursion.
    let mut nested = Vec::new();
    for _ in 0..10_000 {
        let mut outer = vec![0xc8, 0xff];
        outer.extend_from_slice(&(nested.len() as u32 + 1).to_be_bytes());
        outer.push(0);
        outer.extend_from_slice(&nested);
        nested = outer;
        if nested.len() > 100_000 {
            break;
        }
    }
    assert_eq!(
        openpgp::parse_inline(&nested).unwrap_err().kind,
        ErrorKind::Unsupported
    );
    // Mutations of a certificate and a signature: errors or results, no panic.
    let cert = armor::decode(&sample("128s", "pk")).unwrap().1;
    let sig = armor::decode(&sample("128s", "signature")).unwrap().1;
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for i in 0..3000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let src = if i % 2 == 0 { &cert } else { &sig };
        let mut m = src.clone();
        let at = (x as usize) % m.len();
        match i % 3 {
            0 => m[at] ^= 1 << ((x >> 32) % 8),
            1 => m.truncate(at),
            _ => m[at] = (x >> 40) as u8,
        }
        if let Ok(certs) = Cert::parse_all(&m) {
            for c in &certs {
                let _ = c.signing_keys(NOW);
            }
        }
        if let Ok(sigs) = openpgp::parse_signatures(&m) {
            let certs = Cert::parse_all(&cert).unwrap();
            let _ = verify(&certs, sigs, b"Testing\n");
        }
    }
}
