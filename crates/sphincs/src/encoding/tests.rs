//! Tests of the RFC 9909 encodings: round trips, exact bytes, the RFC's own
//! examples, and the inputs that must be refused.

use super::*;

/// A recognisable, non-constant byte pattern of `len` bytes.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed))
        .collect()
}

fn encoding_error(r: Result<impl fmt::Debug, Error>) -> String {
    match r {
        Err(Error::Encoding(msg)) => msg,
        other => panic!("expected Error::Encoding, got {other:?}"),
    }
}

// The id-slh-dsa-sha2-128s example keys of RFC 9909's Examples appendix
// ("Example Public Key", "Example Private Key"; also in draft-ietf-lamps-x509-slhdsa).
const RFC_PUBLIC_PEM: &str = "-----BEGIN PUBLIC KEY-----
MDAwCwYJYIZIAWUDBAMUAyEAK4EJ7Hd8qk4fAkzPz5SX2ZGAUJKA9CVq8rB6+AKJ
tJQ=
-----END PUBLIC KEY-----
";
const RFC_PRIVATE_PEM: &str = "-----BEGIN PRIVATE KEY-----
MFICAQAwCwYJYIZIAWUDBAMUBECiJjvKRYYINlIxYASVI9YhZ3+tkNUetgZ6Mn4N
HmSlASuBCex3fKpOHwJMz8+Ul9mRgFCSgPQlavKwevgCibSU
-----END PRIVATE KEY-----
";
const RFC_PK_HEX: &str = "2b8109ec777caa4e1f024ccfcf9497d991805092\
                          80f4256af2b07af80289b494";
const RFC_SK_HEX: &str = "a2263bca45860836523160049523d621\
                          677fad90d51eb6067a327e0d1e64a501";

fn rfc_pk() -> Vec<u8> {
    hex::decode(RFC_PK_HEX).unwrap()
}

fn rfc_sk() -> Vec<u8> {
    let mut sk = hex::decode(RFC_SK_HEX).unwrap();
    sk.extend(rfc_pk());
    sk
}

#[test]
fn rfc9909_example_public_key() {
    let (alg, pk) = decode_public_key(RFC_PUBLIC_PEM.as_bytes()).unwrap();
    assert_eq!(alg, Algorithm::Sha2_128s);
    assert_eq!(pk, rfc_pk());
    assert_eq!(public_key_to_pem(alg, &pk).unwrap(), RFC_PUBLIC_PEM);
}

#[test]
fn rfc9909_example_private_key() {
    let key = decode_private_key(RFC_PRIVATE_PEM.as_bytes()).unwrap();
    assert_eq!(key.algorithm, Algorithm::Sha2_128s);
    assert_eq!(key.secret.as_slice(), rfc_sk().as_slice());
    assert_eq!(key.public, None);
    assert_eq!(
        private_key_to_pem(key.algorithm, &key.secret)
            .unwrap()
            .as_str(),
        RFC_PRIVATE_PEM
    );
}

#[test]
fn round_trip_all_sets() {
    for alg in Algorithm::ALL {
        let pk = pattern(alg.public_key_len(), 1);
        let sk = pattern(alg.secret_key_len(), 2);

        let der = public_key_to_der(alg, &pk).unwrap();
        assert_eq!(decode_public_key(&der).unwrap(), (alg, pk.clone()), "{alg}");
        let pem = public_key_to_pem(alg, &pk).unwrap();
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"), "{alg}");
        assert_eq!(
            decode_public_key(pem.as_bytes()).unwrap(),
            (alg, pk),
            "{alg}"
        );

        let der = private_key_to_der(alg, &sk).unwrap();
        let key = decode_private_key(&der).unwrap();
        assert_eq!(
            (key.algorithm, key.secret.as_slice(), key.public),
            (alg, sk.as_slice(), None)
        );
        let pem = private_key_to_pem(alg, &sk).unwrap();
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"), "{alg}");
        let key = decode_private_key(pem.as_bytes()).unwrap();
        assert_eq!((key.algorithm, key.secret.as_slice()), (alg, sk.as_slice()));
    }
}

/// Header bytes worked out by hand from the ASN.1:
/// SEQUENCE { SEQUENCE { OID }, BIT STRING { 0 unused bits, pk } } and
/// SEQUENCE { INTEGER 0, SEQUENCE { OID }, OCTET STRING { sk } }.
#[test]
fn exact_der_headers() {
    let oid_128s = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x14,
    ];
    let oid_256f = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x1f,
    ];

    // SHA2-128s: pk 32 bytes, BIT STRING 03 21 00; SEQUENCE body 13 + 35 = 48.
    let pk = pattern(32, 3);
    let der = public_key_to_der(Algorithm::Sha2_128s, &pk).unwrap();
    let mut want = vec![0x30, 0x30, 0x30, 0x0b];
    want.extend(oid_128s);
    want.extend([0x03, 0x21, 0x00]);
    assert_eq!(der[..18], want[..]);
    assert_eq!(der[18..], pk[..]);

    // SHA2-128s: sk 64 bytes, OCTET STRING 04 40; body 3 + 13 + 66 = 82 = 0x52.
    let sk = pattern(64, 4);
    let der = private_key_to_der(Algorithm::Sha2_128s, &sk).unwrap();
    let mut want = vec![0x30, 0x52, 0x02, 0x01, 0x00, 0x30, 0x0b];
    want.extend(oid_128s);
    want.extend([0x04, 0x40]);
    assert_eq!(der[..20], want[..]);
    assert_eq!(der[20..], sk[..]);

    // SHAKE-256f: pk 64 bytes, BIT STRING 03 41 00; body 13 + 67 = 80 = 0x50.
    let pk = pattern(64, 5);
    let der = public_key_to_der(Algorithm::Shake256f, &pk).unwrap();
    let mut want = vec![0x30, 0x50, 0x30, 0x0b];
    want.extend(oid_256f);
    want.extend([0x03, 0x41, 0x00]);
    assert_eq!(der[..18], want[..]);
    assert_eq!(der.len(), 82);

    // SHAKE-256f: sk 128 bytes, OCTET STRING 04 81 80; body 3 + 13 + 131 = 147 = 0x93.
    let sk = pattern(128, 6);
    let der = private_key_to_der(Algorithm::Shake256f, &sk).unwrap();
    let mut want = vec![0x30, 0x81, 0x93, 0x02, 0x01, 0x00, 0x30, 0x0b];
    want.extend(oid_256f);
    want.extend([0x04, 0x81, 0x80]);
    assert_eq!(der[..22], want[..]);
    assert_eq!(der.len(), 150);
}

#[test]
fn encoders_check_lengths() {
    let alg = Algorithm::Sha2_192f;
    assert!(matches!(
        public_key_to_der(alg, &[0; 32]),
        Err(Error::InvalidKeyLength {
            what: "public key",
            expected: 48,
            got: 32,
            ..
        })
    ));
    assert!(matches!(
        private_key_to_pem(alg, &[0; 95]),
        Err(Error::InvalidKeyLength {
            what: "secret key",
            expected: 96,
            got: 95,
            ..
        })
    ));
}

/// A PKCS#8 body for SHA2-128s built by hand, with `version` and an optional
/// `[1]` public key appended after the private key.
fn pkcs8_der(version: u8, sk: &[u8], public: Option<&[u8]>) -> Vec<u8> {
    let mut body = vec![0x02, 0x01, version, 0x30, 0x0b];
    body.extend([0x06, 0x09]);
    body.extend(Algorithm::Sha2_128s.oid_der().unwrap());
    body.extend([0x04, sk.len() as u8]);
    body.extend(sk);
    if let Some(pk) = public {
        body.extend([0x81, pk.len() as u8 + 1, 0x00]);
        body.extend(pk);
    }
    let mut der = vec![0x30, body.len() as u8];
    der.extend(body);
    der
}

#[test]
fn pkcs8_v2_returns_public_key() {
    let sk = rfc_sk();
    let pk = rfc_pk();
    let der = pkcs8_der(1, &sk, Some(&pk));
    let key = decode_private_key(&der).unwrap();
    assert_eq!(key.algorithm, Algorithm::Sha2_128s);
    assert_eq!(key.secret.as_slice(), sk.as_slice());
    assert_eq!(key.public, Some(pk.clone()));
    // Our hand-built v1 is what the encoder writes.
    assert_eq!(
        pkcs8_der(0, &sk, None),
        private_key_to_der(Algorithm::Sha2_128s, &sk)
            .unwrap()
            .as_slice()
    );
    // v2 without a public key, v1 with one, version 2, a short public key.
    let msg = encoding_error(decode_private_key(&pkcs8_der(1, &sk, None)));
    assert!(msg.contains("must carry a [1] publicKey"), "{msg}");
    let msg = encoding_error(decode_private_key(&pkcs8_der(0, &sk, Some(&pk))));
    assert!(msg.contains("must not carry a [1] publicKey"), "{msg}");
    let msg = encoding_error(decode_private_key(&pkcs8_der(2, &sk, None)));
    assert!(msg.contains("version 2 is not supported"), "{msg}");
    let msg = encoding_error(decode_private_key(&pkcs8_der(1, &sk, Some(&pk[..31]))));
    assert!(msg.contains("31 bytes; expected 32"), "{msg}");
}

#[test]
fn rejects_truncated_and_trailing() {
    let alg = Algorithm::Shake128f;
    let pub_der = public_key_to_der(alg, &pattern(32, 7)).unwrap();
    let priv_der = private_key_to_der(alg, &pattern(64, 8)).unwrap();
    for len in 0..pub_der.len() {
        encoding_error(decode_public_key(&pub_der[..len]));
    }
    for len in 0..priv_der.len() {
        encoding_error(decode_private_key(&priv_der[..len]));
    }
    let mut long = pub_der.clone();
    long.push(0);
    let msg = encoding_error(decode_public_key(&long));
    assert!(msg.contains("1 byte of trailing data"), "{msg}");
    let mut long = priv_der.to_vec();
    long.extend([0x05, 0x00]);
    let msg = encoding_error(decode_private_key(&long));
    assert!(msg.contains("trailing data"), "{msg}");
}

#[test]
fn rejects_wrong_oid() {
    // The last arc: 19 is ML-DSA-87, 32 is unassigned.
    for arc in [19u8, 32] {
        let mut der = public_key_to_der(Algorithm::Sha2_128s, &rfc_pk()).unwrap();
        der[14] = arc;
        let msg = encoding_error(decode_public_key(&der));
        assert!(
            msg.contains(&format!("2.16.840.1.101.3.4.3.{arc} is not SLH-DSA")),
            "{msg}"
        );
        let mut der = private_key_to_der(Algorithm::Sha2_128s, &rfc_sk()).unwrap();
        der[17] = arc;
        encoding_error(decode_private_key(&der));
    }
    // Ed25519 (1.3.101.112): SEQUENCE { SEQUENCE { OID }, BIT STRING (32 bytes) }.
    let mut ed = vec![
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ];
    ed.extend([0x11; 32]);
    let msg = encoding_error(decode_public_key(&ed));
    assert!(msg.contains("1.3.101.112"), "{msg}");
}

#[test]
fn rejects_parameters() {
    // Insert NULL parameters after the OID: AlgorithmIdentifier grows by 2.
    let der = public_key_to_der(Algorithm::Sha2_128s, &rfc_pk()).unwrap();
    let mut with_null = vec![0x30, 0x32, 0x30, 0x0d];
    with_null.extend(&der[4..15]);
    with_null.extend([0x05, 0x00]);
    with_null.extend(&der[15..]);
    let msg = encoding_error(decode_public_key(&with_null));
    assert!(msg.contains("parameters"), "{msg}");

    let der = private_key_to_der(Algorithm::Sha2_128s, &rfc_sk()).unwrap();
    let mut with_null = vec![0x30, 0x54, 0x02, 0x01, 0x00, 0x30, 0x0d];
    with_null.extend(&der[7..18]);
    with_null.extend([0x05, 0x00]);
    with_null.extend(&der[18..]);
    let msg = encoding_error(decode_private_key(&with_null));
    assert!(msg.contains("parameters"), "{msg}");
}

#[test]
fn rejects_nested_octet_string() {
    let sk = rfc_sk();
    let mut nested = vec![0x04, 0x40];
    nested.extend(&sk);
    let msg = encoding_error(decode_private_key(&pkcs8_der(0, &nested, None)));
    assert!(msg.contains("nested OCTET STRING"), "{msg}");
}

#[test]
fn rejects_wrong_length_for_set() {
    // A 48-byte (192-bit) public key under the 128s OID.
    let mut der = public_key_to_der(Algorithm::Sha2_192s, &pattern(48, 9)).unwrap();
    der[14] = Algorithm::Sha2_128s.oid_arc().unwrap() as u8;
    let msg = encoding_error(decode_public_key(&der));
    assert!(
        msg.contains("SLH-DSA-SHA2-128s subjectPublicKey is 48 bytes; expected 32"),
        "{msg}"
    );

    let msg = encoding_error(decode_private_key(&pkcs8_der(0, &pattern(63, 1), None)));
    assert!(msg.contains("privateKey is 63 bytes; expected 64"), "{msg}");
}

#[test]
fn rejects_unused_bits() {
    let mut der = public_key_to_der(Algorithm::Sha2_128s, &rfc_pk()).unwrap();
    der[17] = 1;
    der[49] &= 0xfe;
    let msg = encoding_error(decode_public_key(&der));
    assert!(msg.contains("unused bits"), "{msg}");
}

#[test]
fn rejects_wrong_pem_label() {
    let msg = encoding_error(decode_public_key(RFC_PRIVATE_PEM.as_bytes()));
    assert!(msg.contains("this is a private key"), "{msg}");
    let msg = encoding_error(decode_private_key(RFC_PUBLIC_PEM.as_bytes()));
    assert!(msg.contains("this is a public key"), "{msg}");
    let cert = RFC_PUBLIC_PEM.replace("PUBLIC KEY", "CERTIFICATE");
    let msg = encoding_error(decode_public_key(cert.as_bytes()));
    assert!(
        msg.contains("PEM label is \"CERTIFICATE\"; expected \"PUBLIC KEY\""),
        "{msg}"
    );
    let enc = RFC_PRIVATE_PEM.replace("PRIVATE KEY", "ENCRYPTED PRIVATE KEY");
    let msg = encoding_error(decode_private_key(enc.as_bytes()));
    // Encrypted keys are read with a passphrase elsewhere; this decoder says so.
    assert!(msg.contains("this private key is encrypted"), "{msg}");
    assert!(msg.contains("passphrase"), "{msg}");
    assert_eq!(pem_label(RFC_PRIVATE_PEM.as_bytes()), Some("PRIVATE KEY"));
    assert_eq!(pem_label(b"\x30\x00"), None);
}

#[test]
fn pem_tolerance() {
    // Explanatory text before, blank lines after, CRLF line endings.
    let text = format!("SLH-DSA key\n{RFC_PUBLIC_PEM}\n\n");
    assert_eq!(decode_public_key(text.as_bytes()).unwrap().1, rfc_pk());
    let crlf = RFC_PUBLIC_PEM.replace('\n', "\r\n");
    assert_eq!(decode_public_key(crlf.as_bytes()).unwrap().1, rfc_pk());
}

#[test]
fn rejects_garbage() {
    for input in [
        &b""[..],
        b"hello world",
        b"\x00\x01\x02",
        b"-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n",
        b"-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n",
        b"-----BEGIN PUBLIC KEY-----\nMDAw\n-----END PRIVATE KEY-----\n",
        b"-----BEGIN PUBLIC KEY-----\nMDAw",
        b"\x30",
        b"\x30\x80\x00\x00",
        b"\x30\x84\xff\xff\xff\xff",
    ] {
        encoding_error(decode_public_key(input));
        encoding_error(decode_private_key(input));
    }
}

/// Every single-byte change and truncation of valid keys, DER and PEM, must
/// come back as a value, never a panic.
#[test]
fn no_panics_on_mutations() {
    let alg = Algorithm::Sha2_256s;
    let inputs = [
        public_key_to_der(alg, &pattern(64, 10)).unwrap(),
        private_key_to_der(alg, &pattern(128, 11)).unwrap().to_vec(),
        RFC_PUBLIC_PEM.as_bytes().to_vec(),
        RFC_PRIVATE_PEM.as_bytes().to_vec(),
    ];
    for input in &inputs {
        for i in 0..input.len() {
            for v in [0x00, 0x01, 0x30, 0x7f, 0x80, 0x81, 0xff, b'-', b'\n'] {
                let mut m = input.clone();
                m[i] = v;
                let _ = decode_public_key(&m);
                let _ = decode_private_key(&m);
            }
            let _ = decode_public_key(&input[i..]);
            let _ = decode_private_key(&input[i..]);
        }
    }
}
