//! X.509 certificate and PKCS#10 request parsing and checking
//! (`sphincs::pki::cert`) on arbitrary bytes: never a panic; whatever parses
//! from DER re-encodes to exactly the bytes given (signatures are checked
//! over the bytes as received), can be described, and checks to a result.
//! A PEM bundle builds a certification path from its first certificate
//! through the others to its last (look-alike CA bundles in the seeds), in
//! bounded work.
#![no_main]

use std::time::SystemTime;

use libfuzzer_sys::fuzz_target;
use sphincs::pki::cert::{
    describe, encode_certificate, encode_request, parse_certificate, parse_request,
    verify_certificate, verify_request,
};
use sphincs::pki::chain::{parse_certificates, verify_chain};

fuzz_target!(|data: &[u8]| {
    if let Ok(cert) = parse_certificate(data) {
        let der = encode_certificate(&cert, false).expect("re-encode certificate");
        if data.first() == Some(&0x30) {
            assert_eq!(der, data, "accepted DER that re-encodes differently");
        }
        assert_eq!(parse_certificate(&der).expect("decode own DER"), cert);
        let pem = encode_certificate(&cert, true).expect("certificate PEM");
        assert_eq!(parse_certificate(&pem).expect("decode own PEM"), cert);
        let _ = describe(&cert);
        let _ = verify_certificate(&cert, None, SystemTime::now());
        let _ = verify_certificate(&cert, Some(&cert), SystemTime::UNIX_EPOCH);
    }
    if let Ok(bundle) = parse_certificates(data) {
        if let (Some(first), Some(last)) = (bundle.first(), bundle.last()) {
            let _ = verify_chain(
                first,
                &bundle,
                std::slice::from_ref(last),
                SystemTime::now(),
            );
            let _ = verify_chain(first, &bundle[1..], &bundle[1..], SystemTime::now());
        }
    }
    if let Ok(csr) = parse_request(data) {
        let der = encode_request(&csr, false).expect("re-encode request");
        if data.first() == Some(&0x30) {
            assert_eq!(der, data, "accepted DER that re-encodes differently");
        }
        assert_eq!(parse_request(&der).expect("decode own DER"), csr);
        let _ = verify_request(&csr);
    }
});
