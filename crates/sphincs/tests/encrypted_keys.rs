//! Passphrase-protected private keys (PKCS#8 EncryptedPrivateKeyInfo,
//! PBES2): round trips for pure and HashSLH-DSA keys, what we write, and
//! bad input — wrong passphrase, truncation, unknown parameters, hostile
//! KDF costs — refused quickly with a clear error.

use std::time::{Duration, Instant};

use der::asn1::OctetStringRef;
use der::{Decode, Encode};
use pkcs8::pkcs5::pbes2::{self, Kdf, Pbkdf2Params, Pbkdf2Prf};
use pkcs8::pkcs5::EncryptionScheme;
use pkcs8::{EncryptedPrivateKeyInfo, EncryptedPrivateKeyInfoRef};
use sphincs::encoding::encrypted::{
    decrypt_private_key, encrypt_private_key_der, is_encrypted_private_key, MAX_PBKDF2_ITERATIONS,
};
use sphincs::{Algorithm, DynSigningKey, Error, KeyMode};

const PASS: &[u8] = b"correct horse battery staple";

fn key(alg: Algorithm) -> DynSigningKey {
    let n = alg.params().n;
    DynSigningKey::from_seeds(alg, &vec![1; n], &vec![2; n], &vec![3; n]).unwrap()
}

fn message(e: Error) -> String {
    match e {
        Error::Encoding(m) | Error::KdfTooCostly(m) => m,
        Error::WrongPassphrase => e.to_string(),
        other => panic!("expected an encoding, KDF or passphrase error, got {other:?}"),
    }
}

/// An encrypted private key in DER whose PBES2 parameters name PBKDF2 with
/// `iterations` rounds; its ciphertext is zeros, never reached when the
/// parameters are refused.
fn pbkdf2_key_info(iterations: u32) -> Vec<u8> {
    let params = pbes2::Parameters {
        kdf: Kdf::Pbkdf2(Pbkdf2Params {
            salt: pbes2::Salt::new([1u8; 16]).unwrap(),
            iteration_count: iterations,
            key_length: None,
            prf: Pbkdf2Prf::HmacWithSha256,
        }),
        encryption: pbes2::EncryptionScheme::Aes256Cbc { iv: [0; 16] },
    };
    EncryptedPrivateKeyInfo {
        encryption_algorithm: EncryptionScheme::Pbes2(params),
        encrypted_data: OctetStringRef::new(&[0u8; 96]).unwrap(),
    }
    .to_der()
    .unwrap()
}

#[test]
fn round_trip_pure_and_hash_keys() {
    for (alg, hashed) in [
        (Algorithm::Sha2_128f, false),
        (Algorithm::Shake256f, false),
        (Algorithm::Shake128f, true),
        (Algorithm::Sha2_192f, true),
    ] {
        let mut k = key(alg);
        if hashed {
            k = k.with_mode(KeyMode::hash_slh_dsa(alg)).unwrap();
        }
        let pem = k.to_encrypted_pkcs8_pem(PASS).unwrap();
        assert!(pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"));
        assert!(is_encrypted_private_key(pem.as_bytes()));
        let der = k.to_encrypted_pkcs8_der(PASS).unwrap();
        assert!(is_encrypted_private_key(&der));
        assert!(!is_encrypted_private_key(&k.to_pkcs8_der().unwrap()));
        for input in [pem.as_bytes(), &der[..]] {
            let back = DynSigningKey::from_pkcs8_with_passphrase(input, PASS).unwrap();
            assert_eq!(back.to_bytes().as_slice(), k.to_bytes().as_slice());
            let want = if hashed { k.mode() } else { KeyMode::Pure };
            assert_eq!(back.mode(), want, "{alg}");
        }
        // A plain key reads through the same call, whatever the passphrase.
        let plain = k.to_pkcs8_der().unwrap();
        DynSigningKey::from_pkcs8_with_passphrase(&plain, b"").unwrap();
    }
}

#[test]
fn writes_scrypt_and_aes_256_cbc_with_fresh_salt() {
    let k = key(Algorithm::Sha2_128f);
    let a = k.to_encrypted_pkcs8_der(PASS).unwrap();
    let b = k.to_encrypted_pkcs8_der(PASS).unwrap();
    assert_ne!(a, b, "salt and IV are random");
    let info = EncryptedPrivateKeyInfoRef::from_der(&a).unwrap();
    let EncryptionScheme::Pbes2(p) = info.encryption_algorithm else {
        panic!("not PBES2")
    };
    let Kdf::Scrypt(s) = p.kdf else {
        panic!("not scrypt")
    };
    assert_eq!(
        (s.cost_parameter, s.block_size, s.parallelization),
        (1 << 14, 8, 1)
    );
    assert_eq!(s.salt.as_bytes().len(), 16);
    assert!(matches!(
        p.encryption,
        pbes2::EncryptionScheme::Aes256Cbc { .. }
    ));
    assert!(encrypt_private_key_der(&k.to_pkcs8_der().unwrap(), b"").is_err());
}

#[test]
fn reads_pbkdf2_hmac_sha256() {
    let k = key(Algorithm::Shake128f);
    let plain = k.to_pkcs8_der().unwrap();
    let params =
        pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(2048, &[7u8; 16], [9u8; 16]).unwrap();
    let enc = pkcs8::PrivateKeyInfoRef::from_der(&plain)
        .unwrap()
        .encrypt_with_params(params, PASS)
        .unwrap();
    let back = DynSigningKey::from_pkcs8_with_passphrase(enc.as_bytes(), PASS).unwrap();
    assert_eq!(back.to_bytes().as_slice(), k.to_bytes().as_slice());
}

/// Our PBES2 (the derived key in a wiped buffer, `encoding::pbes2`) against
/// RustCrypto's own `pkcs5` encrypt/decrypt, for every cipher and KDF we read:
/// what `pkcs5` writes (AES-128/192/256-CBC, AES-128/256-GCM; PBKDF2 and
/// scrypt) we read, and a wrong passphrase is a wrong passphrase under each;
/// what we write `pkcs5` reads.
#[test]
fn every_pbes2_cipher_agrees_with_pkcs5() {
    let k = key(Algorithm::Sha2_128f);
    let plain = k.to_pkcs8_der().unwrap();
    let salt = [7u8; 16];
    let kdfs = [
        pbes2::Parameters::generate_pbkdf2_sha256_aes128cbc(1000, &salt, [1; 16]).unwrap(),
        pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(1000, &salt, [1; 16]).unwrap(),
        pbes2::Parameters::generate_scrypt_aes128cbc(
            pkcs8::pkcs5::scrypt::Params::new(10, 8, 1).unwrap(),
            &salt,
            [2; 16],
        )
        .unwrap(),
        pbes2::Parameters::generate_scrypt_aes256cbc(
            pkcs8::pkcs5::scrypt::Params::new(10, 8, 1).unwrap(),
            &salt,
            [2; 16],
        )
        .unwrap(),
    ];
    let mut all: Vec<pbes2::Parameters> = kdfs.to_vec();
    for (i, scheme) in [
        pbes2::EncryptionScheme::Aes192Cbc { iv: [3; 16] },
        pbes2::EncryptionScheme::Aes128Gcm { nonce: [4; 12] },
        pbes2::EncryptionScheme::Aes256Gcm { nonce: [5; 12] },
    ]
    .into_iter()
    .enumerate()
    {
        let mut p = kdfs[i % 2].clone();
        p.encryption = scheme;
        all.push(p);
    }
    for (i, params) in all.into_iter().enumerate() {
        // pkcs5 writes, we read.
        let theirs = params.encrypt(PASS, &plain).unwrap();
        let info = EncryptedPrivateKeyInfo {
            encryption_algorithm: EncryptionScheme::Pbes2(params.clone()),
            encrypted_data: OctetStringRef::new(&theirs).unwrap(),
        }
        .to_der()
        .unwrap();
        let back = decrypt_private_key(&info, PASS).unwrap_or_else(|e| panic!("{i}: {e}"));
        assert_eq!(back.as_slice(), plain.as_slice(), "{i}");
        let e = decrypt_private_key(&info, b"not it").unwrap_err();
        assert!(matches!(e, Error::WrongPassphrase), "{i}: {e:?}");
    }
    // What we write (scrypt, AES-256-CBC), pkcs5 reads.
    let ours = k.to_encrypted_pkcs8_der(PASS).unwrap();
    let info = EncryptedPrivateKeyInfoRef::from_der(&ours).unwrap();
    let EncryptionScheme::Pbes2(params) = info.encryption_algorithm else {
        panic!("not PBES2")
    };
    let back = params
        .decrypt(PASS, info.encrypted_data.as_bytes())
        .unwrap();
    assert_eq!(back.as_slice(), plain.as_slice());
}

#[test]
fn wrong_passphrase_and_truncation_are_clear_errors() {
    let k = key(Algorithm::Sha2_128f);
    let der = k.to_encrypted_pkcs8_der(PASS).unwrap();
    let e = decrypt_private_key(&der, b"wrong").unwrap_err();
    assert!(matches!(e, Error::WrongPassphrase), "{e:?}");
    let m = message(e);
    assert!(m.contains("wrong passphrase"), "{m}");
    for len in (0..der.len()).step_by(3) {
        // A truncated key is malformed, not a wrong passphrase.
        let e = decrypt_private_key(&der[..len], PASS).unwrap_err();
        assert!(matches!(e, Error::Encoding(_)), "{len}: {e:?}");
    }
    // The ciphertext altered: padding or key check fails.
    let mut bad = der.clone();
    let last = bad.len() - 20;
    bad[last] ^= 1;
    assert!(decrypt_private_key(&bad, PASS).is_err());
}

/// Offsets of the scrypt parameters in our DER (see `openssl asn1parse`):
/// N as `02 02 40 00`, then r `02 01 08`, p `02 01 01`.
fn scrypt_at(der: &[u8]) -> usize {
    der.windows(10)
        .position(|w| w == [0x02, 0x02, 0x40, 0x00, 0x02, 0x01, 0x08, 0x02, 0x01, 0x01])
        .expect("scrypt parameters")
}

#[test]
fn hostile_kdf_costs_are_refused_quickly() {
    let k = key(Algorithm::Sha2_128f);
    let der = k.to_encrypted_pkcs8_der(PASS).unwrap();
    let at = scrypt_at(&der);
    // r = 127: 254 MiB of memory — over the memory cap.
    let mut big_r = der.clone();
    big_r[at + 6] = 0x7f;
    // p = 127: 127 times the work — over the work cap.
    let mut big_p = der.clone();
    big_p[at + 9] = 0x7f;
    // N not a power of two.
    let mut odd_n = der.clone();
    odd_n[at + 3] = 0x01;
    // r = 32: the N-block table alone is 64 MiB, the limit; scrypt's whole
    // working memory, 128·r·(N + p), is over it.
    let mut table_at_cap = der.clone();
    table_at_cap[at + 6] = 0x20;
    for (what, input, costly) in [
        ("r", big_r, true),
        ("p", big_p, true),
        ("N", odd_n, false),
        ("r = 32", table_at_cap, true),
    ] {
        let t = Instant::now();
        let e = decrypt_private_key(&input, PASS).unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(1), "{what}");
        assert_eq!(matches!(e, Error::KdfTooCostly(_)), costly, "{what}: {e:?}");
        let m = message(e);
        assert!(m.contains("scrypt"), "{what}: {m}");
    }
    // PBKDF2 with more iterations than accepted: refused before any work.
    let hostile = pbkdf2_key_info(90_000_000);
    let t = Instant::now();
    let e = decrypt_private_key(&hostile, PASS).unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(1));
    assert!(matches!(e, Error::KdfTooCostly(_)), "{e:?}");
    // PBKDF2 with 0 iterations is malformed, not a wrong passphrase.
    let zero = pbkdf2_key_info(0);
    let zero_e = decrypt_private_key(&zero, PASS).unwrap_err();
    assert!(
        matches!(&zero_e, Error::Encoding(m) if m.contains("0 iterations")),
        "{zero_e:?}"
    );
    let m = message(e);
    assert!(
        m.contains(&format!("at most {MAX_PBKDF2_ITERATIONS}")),
        "{m}"
    );
}

#[test]
fn unknown_pbes2_parameters_are_refused() {
    let k = key(Algorithm::Sha2_128f);
    let der = k.to_encrypted_pkcs8_der(PASS).unwrap();
    // aes256-CBC is 2.16.840.1.101.3.4.1.42; .43 is no cipher pkcs5 knows.
    let aes = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a];
    let at = der.windows(9).position(|w| w == aes).unwrap();
    let mut bad = der.clone();
    bad[at + 8] = 0x2b;
    assert!(decrypt_private_key(&bad, PASS).is_err());
    // scrypt's OID (1.3.6.1.4.1.11591.4.11) changed to an unknown KDF.
    let scrypt = [0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x04, 0x0b];
    let at = der.windows(9).position(|w| w == scrypt).unwrap();
    let mut bad = der;
    bad[at + 8] = 0x0c;
    let m = message(decrypt_private_key(&bad, PASS).unwrap_err());
    assert!(m.contains("encrypted PKCS#8"), "{m}");
}
