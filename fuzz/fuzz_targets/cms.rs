//! CMS SignedData parsing and verification (`sphincs::pki::cms`) on
//! arbitrary bytes: never a panic, whether the content is embedded, given
//! separately, or missing. What parses is DER or BER, but every certificate
//! in it is strict DER: it re-encodes to bytes found in the input as given.
//! The trust policies run too: the signature alone, and with the embedded
//! certificates as trust anchors, which builds certification paths through
//! them (look-alike CA certificates in the seeds), so path building and the
//! signed-attribute rules (DER order, id-data without attributes) are fuzzed.
#![no_main]

use std::time::SystemTime;

use libfuzzer_sys::fuzz_target;
use sphincs::pki::cert::encode_certificate;
use sphincs::pki::cms::{parse_signed_data, verify, verify_trusted, CmsTrust};

fuzz_target!(|data: &[u8]| {
    if let Ok(sd) = parse_signed_data(data) {
        let _ = verify(&sd, None, None);
        let _ = verify(&sd, None, Some(&mut &b"detached content"[..]));
        let signature_only = CmsTrust {
            signature_only: true,
            ..Default::default()
        };
        let _ = verify_trusted(&sd, &signature_only, None, SystemTime::now());
        let embedded = sd.certificates();
        let anchors = CmsTrust {
            anchors: &embedded,
            ..Default::default()
        };
        let _ = verify_trusted(&sd, &anchors, None, SystemTime::now());
        let last = CmsTrust {
            anchors: embedded
                .last()
                .map(std::slice::from_ref)
                .unwrap_or_default(),
            ..Default::default()
        };
        let _ = verify_trusted(&sd, &last, None, SystemTime::now());
        // The embedded certificate given explicitly, when there is one; it
        // re-encodes to the bytes it was read from.
        if let Some(set) = &sd.certificates {
            for choice in set.0.iter() {
                if let sphincs::pki::cms_types::CertificateChoices::Certificate(c) = choice {
                    let der = encode_certificate(c, false).expect("re-encode certificate");
                    assert!(
                        data.first() != Some(&0x30)
                            || data.windows(der.len()).any(|w| w == der.as_slice()),
                        "an accepted certificate re-encodes to bytes not in the input"
                    );
                    let _ = verify(&sd, Some(c), None);
                }
            }
        }
    }
});
