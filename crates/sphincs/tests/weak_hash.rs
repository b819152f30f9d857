//! Signatures over a digest too short for SLH-DSA (RFC 9980 §6.2.1: at
//! least 256 bits), as a hostile or careless signer could make them: an
//! `InRelease` signed with SHA2-224 (a real signature over that digest)
//! and one whose packet names SHA-1 (the SHA2-224 signature with its hash
//! ID changed: the verdict must come from the policy before any
//! arithmetic). They are fixtures of the apt test (tests/interop/apt.sh:
//! apt-get update must refuse both) and are checked here against the core.

use std::path::PathBuf;

use sphincs::openpgp::{
    self, armor, cleartext, Cert, HashAlgorithm, Keyring, Outcome, Signing, Window,
};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/interop/apt/weak-hash")
}

fn clearsigned(text: &str, hash_name: &str, sig: &openpgp::Signature) -> String {
    let mut out = format!("-----BEGIN PGP SIGNED MESSAGE-----\nHash: {hash_name}\n\n{text}");
    out += &armor::encode(
        armor::Kind::Signature,
        &openpgp::signatures_to_bytes(std::slice::from_ref(sig)),
    );
    out
}

#[test]
#[ignore = "remakes the apt test's weak-hash fixtures (a random key): run by hand"]
fn remake_weak_hash_fixtures() {
    let created = 1_790_000_000u32;
    let key = openpgp::generate(
        "SLH-DSA-SHAKE-128f".parse().unwrap(),
        &["Weak Hash <weak@example.org>".into()],
        created,
        None,
    )
    .unwrap();
    let unlocked = openpgp::unlock_signing_key(&key, &[], u64::from(created)).unwrap();
    let release = std::fs::read_to_string(dir().join("Release")).unwrap();
    let signed = release.trim_end_matches('\n').replace('\n', "\r\n");
    let mut s =
        Signing::start_with_hash(1, &unlocked.public, created, vec![], HashAlgorithm::Sha224)
            .unwrap();
    s.update(signed.as_bytes());
    let sig = s.finish(unlocked.key.as_ref(), 1).unwrap();
    std::fs::write(
        dir().join("InRelease-sha224"),
        clearsigned(&release, "SHA224", &sig),
    )
    .unwrap();
    let mut sha1 = sig.clone();
    sha1.hash_algo = 2;
    std::fs::write(
        dir().join("InRelease-sha1"),
        clearsigned(&release, "SHA1", &sha1),
    )
    .unwrap();
    let cert = armor::encode(armor::Kind::PublicKey, &key.to_bytes(false));
    std::fs::write(dir().join("cert.asc"), cert).unwrap();
}

#[test]
fn the_core_refuses_both_weak_hash_fixtures() {
    let certs = openpgp::read_certs(&std::fs::read(dir().join("cert.asc")).unwrap()).unwrap();
    let now = 1_800_000_000;
    let window = Window {
        not_before: None,
        not_after: None,
        now,
        keys_valid_now: true,
    };
    for name in ["InRelease-sha224", "InRelease-sha1"] {
        let bytes = std::fs::read(dir().join(name)).unwrap();
        let verdict = cleartext::parse(&bytes).map(|msg| {
            msg.verifier()
                .finish_each(&Keyring::new(&certs, now), &window)
                .into_iter()
                .map(|(_, o)| o)
                .collect::<Vec<_>>()
        });
        match verdict {
            // SHA2-224: parsed, then refused by the policy.
            Ok(outcomes) => {
                assert_eq!(outcomes.len(), 1, "{name}");
                assert!(
                    matches!(&outcomes[0], Outcome::Bad { reason, .. } if reason.contains("256 bits")),
                    "{name}: {:?}",
                    outcomes[0]
                );
            }
            // SHA-1: refused as soon as its Hash: header or packet is read.
            Err(e) => assert!(
                name.ends_with("sha1") && e.to_string().contains("SHA1"),
                "{name}: {e}"
            ),
        }
    }
    let _: &Cert = &certs[0];
}
