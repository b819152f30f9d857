//! DER and PEM key parsing (`sphincs::encoding`) on arbitrary bytes: it must
//! never panic, and whatever it accepts must re-encode to DER that decodes to
//! the same key and load into the key types.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sphincs::encoding::{
    decode_private_key, decode_public_key, pem_label, private_key_to_der, private_key_to_pem,
    public_key_to_der, public_key_to_pem,
};
use sphincs::{DynSigningKey, DynVerifyingKey};

fuzz_target!(|data: &[u8]| {
    let _ = pem_label(data);

    if let Ok((alg, pk)) = decode_public_key(data) {
        assert_eq!(pk.len(), alg.public_key_len());
        let der = public_key_to_der(alg, &pk).expect("re-encode public key");
        assert_eq!(
            decode_public_key(&der).expect("decode own DER"),
            (alg, pk.clone())
        );
        let pem = public_key_to_pem(alg, &pk).expect("public key PEM");
        assert_eq!(
            decode_public_key(pem.as_bytes()).expect("decode own PEM"),
            (alg, pk.clone())
        );
        let vk = DynVerifyingKey::from_bytes(alg, &pk).expect("load public key");
        assert_eq!(vk.to_bytes(), pk);
    }

    if let Ok(key) = decode_private_key(data) {
        let alg = key.algorithm;
        assert_eq!(key.secret.len(), alg.secret_key_len());
        if let Some(public) = &key.public {
            assert_eq!(public.len(), alg.public_key_len());
        }
        let der = private_key_to_der(alg, &key.secret).expect("re-encode private key");
        let again = decode_private_key(&der).expect("decode own DER");
        assert_eq!((again.algorithm, &again.secret), (alg, &key.secret));
        let pem = private_key_to_pem(alg, &key.secret).expect("private key PEM");
        let again = decode_private_key(pem.as_bytes()).expect("decode own PEM");
        assert_eq!((again.algorithm, &again.secret), (alg, &key.secret));
        // Without the PK.root check (that is a key generation: too slow to fuzz
        // for the s sets); with it only for the fast sets.
        let sk = DynSigningKey::from_bytes_unchecked(alg, &key.secret).expect("load secret key");
        assert_eq!(*sk.to_bytes(), *key.secret);
        if alg.name().ends_with('f') {
            let _ = DynSigningKey::from_bytes(alg, &key.secret);
        }
    }
});
