//! CMS SignedData parsing and verification (`sphincs::pki::cms`) on
//! arbitrary bytes: never a panic, whether the content is embedded, given
//! separately, or missing. What parses is DER or BER, but every certificate
//! in it is strict DER: it re-encodes to bytes found in the input as given.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sphincs::pki::cert::encode_certificate;
use sphincs::pki::cms::{parse_signed_data, verify};

fuzz_target!(|data: &[u8]| {
    if let Ok(sd) = parse_signed_data(data) {
        let _ = verify(&sd, None, None);
        let _ = verify(&sd, None, Some(&mut &b"detached content"[..]));
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
