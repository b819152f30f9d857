//! CMS SignedData parsing and verification (`sphincs::pki::cms`) on
//! arbitrary bytes: never a panic, whether the content is embedded, given
//! separately, or missing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sphincs::pki::cms::{parse_signed_data, verify};

fuzz_target!(|data: &[u8]| {
    if let Ok(sd) = parse_signed_data(data) {
        let _ = verify(&sd, None, None);
        let _ = verify(&sd, None, Some(&mut &b"detached content"[..]));
        // The embedded certificate given explicitly, when there is one.
        if let Some(set) = &sd.certificates {
            for choice in set.0.iter() {
                if let sphincs::pki::cms_types::CertificateChoices::Certificate(c) = choice {
                    let _ = verify(&sd, Some(c), None);
                }
            }
        }
    }
});
