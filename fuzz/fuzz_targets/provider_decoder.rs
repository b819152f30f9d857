//! The OpenSSL provider's decoders (crates/openssl-provider, DER
//! PrivateKeyInfo and SubjectPublicKeyInfo for all 24 key types) on
//! arbitrary bytes: they must never panic, at most one decoder may accept an
//! input, and an accepted key must be of the decoder's type and re-encode to
//! the same key.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = sphincs_provider::fuzzing::fuzz_decoders(data);
});
