//! `AnyVerifyingKey::from_certificate`: the subject public key of an X.509
//! certificate, PEM or DER, in the mode its OID names; damaged certificates
//! are errors.

mod common;

use sphincs::any::AnyVerifyingKey;
use sphincs::pki::cert::CertOptions;
use sphincs::pki::cert::{encode_certificate, encode_request, parse_name, request, self_signed};
use sphincs::{Algorithm, DynSigningKey, Error, KeyMode, SignOptions};

use common::keys::{find_all, seeded_key as key};

/// A self-signed certificate for `k`, PEM or DER.
fn certificate(k: &DynSigningKey, pem: bool) -> Vec<u8> {
    let name = parse_name("CN=Release signing,O=Example").unwrap();
    encode_certificate(&self_signed(k, &name, CertOptions::default()).unwrap(), pem).unwrap()
}

#[test]
fn the_key_is_the_one_that_made_the_certificate() {
    for (alg, hashed) in [(Algorithm::Sha2_128f, false), (Algorithm::Shake128f, true)] {
        let k = key(alg, 3, hashed);
        let sig = k.sign(b"release.tar", &SignOptions::default()).unwrap();
        for pem in [false, true] {
            let bytes = certificate(&k, pem);
            let pk = AnyVerifyingKey::from_certificate(&bytes).unwrap();
            assert_eq!(
                pk.to_bytes(),
                k.verifying_key().to_bytes(),
                "{alg} pem={pem}"
            );
            // The OID names the mode: a key not bound to one is certified as pure.
            let mode = if hashed {
                KeyMode::hash_slh_dsa(alg)
            } else {
                KeyMode::Pure
            };
            assert_eq!(pk.mode(), Some(mode), "{alg} pem={pem}");
            assert_eq!(
                pk.to_spki_der().unwrap(),
                k.verifying_key().to_spki_der().unwrap()
            );
            pk.verify(b"release.tar", &sig, b"", None).unwrap();
            assert_eq!(
                pk.verify(b"release.tar!", &sig, b"", None),
                Err(Error::InvalidSignature)
            );
        }
    }
}

#[test]
fn a_damaged_certificate_is_an_error() {
    let k = key(Algorithm::Sha2_128f, 7, false);
    let der = certificate(&k, false);
    for len in (0..der.len()).step_by(7) {
        let r = AnyVerifyingKey::from_certificate(&der[..len]);
        assert!(matches!(r, Err(Error::Pki(_))), "cut at {len}: {r:?}");
    }
    let mut long = der.clone();
    long.push(0);
    assert!(matches!(
        AnyVerifyingKey::from_certificate(&long),
        Err(Error::Pki(_))
    ));
    let e = AnyVerifyingKey::from_certificate(b"").unwrap_err();
    assert!(e.to_string().contains("X.509 certificate"), "{e}");

    // A public key or a request in PEM is not a certificate: the error names
    // the label found and the one expected.
    let spki = k.verifying_key().to_spki_pem().unwrap();
    let e = AnyVerifyingKey::from_certificate(spki.as_bytes()).unwrap_err();
    assert!(matches!(e, Error::Pki(_)), "{e:?}");
    assert!(e.to_string().contains("\"PUBLIC KEY\""), "{e}");
    assert!(e.to_string().contains("\"CERTIFICATE\""), "{e}");
    let csr = encode_request(&request(&k, &parse_name("CN=x").unwrap()).unwrap(), true).unwrap();
    let e = AnyVerifyingKey::from_certificate(&csr).unwrap_err();
    assert!(e.to_string().contains("CERTIFICATE REQUEST"), "{e}");

    // A certificate whose subject key is of another algorithm (its OID's last
    // arc changed; the DER stays canonical): the error names the key.
    // The OID 2.16.840.1.101.3.4.3.21 (SHA2-128f) is in the TBS signature algorithm, the
    // subject public key info and the outer signature algorithm, in that order.
    let oid = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x15,
    ];
    let at = find_all(&der, &oid);
    assert_eq!(at.len(), 3);
    let mut other = der.clone();
    other[at[1] + oid.len() - 1] = 0x7f;
    let e = AnyVerifyingKey::from_certificate(&other).unwrap_err();
    assert!(matches!(e, Error::Encoding(_)), "{e:?}");
    assert!(e.to_string().contains("subject public key"), "{e}");
    assert!(e.to_string().contains("is not SLH-DSA"), "{e}");

    // Any one byte changed: a key or an error, never a panic; a change
    // inside the key's bytes gives another key.
    let pk = k.verifying_key().to_bytes();
    let key_at = find_all(&der, &pk);
    assert_eq!(key_at.len(), 1);
    for i in (0..der.len()).step_by(3) {
        let mut d = der.clone();
        d[i] ^= 0x01;
        if let Ok(got) = AnyVerifyingKey::from_certificate(&d) {
            let inside = (key_at[0]..key_at[0] + pk.len()).contains(&i);
            assert_eq!(got.to_bytes() == pk, !inside, "byte {i}");
        }
    }
}
