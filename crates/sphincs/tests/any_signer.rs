//! `any::AnySigner`: CMS and OpenPGP sign with a key held elsewhere (here a
//! wrapper that only forwards and counts, as the CLI's agent client does)
//! exactly as with the key itself: the signatures verify, each format asks
//! for one signature, and a signer whose public half is not the
//! certificate's is refused before anything is signed.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

use sphincs::any::{AnySigner, AnySigningKey, AnyVerifyingKey};
use sphincs::openpgp::{self, armor, DetachedSigner, Mode, UnlockedKey};
use sphincs::pki::cert::{parse_name, self_signed, CertOptions};
use sphincs::pki::cms::{self, CmsSignOptions, CmsTrust};
use sphincs::{Algorithm, DynSigningKey, Error, MessageSource, SignOptions};

/// A key "held elsewhere": every call forwarded, each signature counted.
struct Remote {
    key: AnySigningKey,
    signatures: Arc<AtomicUsize>,
}

impl AnySigner for Remote {
    fn verifying_key(&self) -> AnyVerifyingKey {
        self.key.verifying_key()
    }

    fn sign_stream(
        &self,
        msg: &mut dyn MessageSource,
        opts: &SignOptions<'_>,
    ) -> Result<Vec<u8>, Error> {
        self.signatures.fetch_add(1, Ordering::SeqCst);
        self.key.sign_stream(msg, opts)
    }
}

fn remote(key: DynSigningKey) -> Remote {
    Remote {
        key: key.into(),
        signatures: Arc::default(),
    }
}

#[test]
fn cms_signs_through_a_signer_held_elsewhere() {
    let alg = Algorithm::Sha2_128f;
    let n = alg.params().n;
    let key = DynSigningKey::from_seeds(alg, &vec![1; n], &vec![2; n], &vec![3; n]).unwrap();
    let cert = self_signed(
        &key,
        &parse_name("CN=Held").unwrap(),
        CertOptions::default(),
    )
    .unwrap();
    let held = remote(key.clone());
    let content = b"release 2.0";
    let parts = cms::sign(
        &held,
        &cert,
        &mut &content[..],
        CmsSignOptions::default(),
        SystemTime::now(),
    )
    .unwrap();
    assert_eq!(held.signatures.load(Ordering::SeqCst), 1);
    let sd = cms::parse_signed_data(&parts.assemble(content)).unwrap();
    let trust = CmsTrust {
        pinned: Some(&cert),
        ..Default::default()
    };
    cms::verify_trusted(&sd, &trust, None, SystemTime::now()).unwrap();

    // Another key behind the same certificate: refused, nothing signed.
    let other =
        remote(DynSigningKey::from_seeds(alg, &vec![9; n], &vec![2; n], &vec![3; n]).unwrap());
    match cms::sign(
        &other,
        &cert,
        &mut &content[..],
        CmsSignOptions::default(),
        SystemTime::now(),
    ) {
        Err(Error::Pki(m)) => assert!(m.contains("not the key of the certificate"), "{m}"),
        r => panic!("want a refusal, got {:?}", r.map(|_| ())),
    }
    assert_eq!(other.signatures.load(Ordering::SeqCst), 0);
}

#[test]
fn openpgp_signs_through_a_signer_held_elsewhere() {
    let now = 1_780_000_000u64;
    let armored = openpgp::one_shot::generate_key(
        "slh-dsa-shake-128f",
        &["Held <held@example.org>".to_string()],
        now as u32,
        None,
    )
    .unwrap();
    let cert = openpgp::read_certs(armored.as_bytes()).unwrap().remove(0);
    let local = openpgp::unlock_signing_key(&cert, &[], now).unwrap();
    let (secret, tag) = cert.signing_secret(now).unwrap();
    let signatures = Arc::new(AtomicUsize::new(0));
    let unlocked = UnlockedKey {
        public: local.public.clone(),
        key: Box::new(Remote {
            key: secret.signing_key(tag, &[]).unwrap(),
            signatures: signatures.clone(),
        }),
    };
    let data = b"firmware image";
    let mut signer = DetachedSigner::new(vec![unlocked], Mode::Binary, now as u32).unwrap();
    signer.update(data);
    let sigs = signer.finish(1).unwrap();
    assert_eq!(signatures.load(Ordering::SeqCst), 1);
    let text = armor::encode(armor::Kind::Signature, &openpgp::signatures_to_bytes(&sigs));
    let public = openpgp::one_shot::extract_cert(armored.as_bytes()).unwrap();
    openpgp::one_shot::verify_detached(public.as_bytes(), text.as_bytes(), data, now).unwrap();

    // Another key offered for this certificate's key: refused at once.
    let other =
        openpgp::one_shot::generate_key("slh-dsa-shake-128f", &[], now as u32, None).unwrap();
    let other = openpgp::read_certs(other.as_bytes()).unwrap().remove(0);
    let wrong = UnlockedKey {
        public: local.public.clone(),
        key: openpgp::unlock_signing_key(&other, &[], now).unwrap().key,
    };
    match DetachedSigner::new(vec![wrong], Mode::Binary, now as u32) {
        Err(e) => assert!(e.to_string().contains("is not that key"), "{e}"),
        Ok(_) => panic!("a key that is not the public key's was taken"),
    }
}
