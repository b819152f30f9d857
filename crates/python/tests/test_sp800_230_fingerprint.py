"""The fingerprint of draft SP 800-230 public keys comes from the core: SHA-256
over the set's name, a zero byte and the raw public key (docs/sp800-230.md),
computed here with hashlib; the same bytes under the SHAKE twin differ."""

import hashlib

import sphincs


def test_fingerprint_is_over_the_set_name_and_raw_key():
    pk = bytes(range(32))
    key = sphincs.SLHDSAPublicKey.from_public_bytes(sphincs.Algorithm.SHA2_128_24, pk)
    want = "SHA256:" + hashlib.sha256(b"SLH-DSA-SHA2-128-24\0" + pk).hexdigest()
    assert key.fingerprint() == want
    twin = sphincs.SLHDSAPublicKey.from_public_bytes(sphincs.Algorithm.SHAKE_128_24, pk)
    assert twin.fingerprint() != want
