"""Batches over the core's front door (`sphincs::any`): `verify_many` takes
keys of every family in one call, SPHINCS-256 included, and each family's
`sign_many` (SPHINCS-256's too) gives the signatures of signing one by one."""

from __future__ import annotations

import pytest
import sphincs


@pytest.fixture(scope="module")
def s256():
    return sphincs.Sphincs256PrivateKey.generate()


def _one_by_one(items) -> list[bool]:
    out = []
    for key, sig, data, *rest in items:
        try:
            key.verify(sig, data, *[r for r in rest if r is not None])
            out.append(True)
        except sphincs.InvalidSignature:
            out.append(False)
    return out


def test_sphincs256_sign_many_equals_one_by_one(s256):
    msgs = [b"a", b"", b"archive" * 100]
    sigs = s256.sign_many(msgs)
    assert sigs == [s256.sign(m) for m in msgs]
    assert s256.sign_many(msgs, threads=1) == sigs
    assert s256.sign_many(iter([bytearray(b"a")])) == sigs[:1]
    assert s256.sign_many([]) == []
    with pytest.raises(TypeError, match=r"messages\[1\]"):
        s256.sign_many([b"ok", 5])


def test_verify_many_takes_sphincs256_keys_mixed_with_the_other_families(s256):
    pub = s256.public_key()
    other = sphincs.Sphincs256PrivateKey.from_private_bytes(bytes(1088))
    msgs = [b"one", b"two"]
    sigs = s256.sign_many(msgs)
    fips = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    spx = sphincs.SpxPrivateKey.generate("sphincs-shake-128f-simple")
    osig = other.sign(b"x")
    items = [
        (pub, sigs[0], msgs[0]),
        (fips.public_key(), fips.sign(b"f", b"ctx"), b"f", b"ctx"),
        (pub, sigs[1], b"tampered"),  # False at its own index
        (spx.public_key(), spx.sign(b"s"), b"s", None),
        (pub, sigs[1], msgs[1], None, None),
        (pub, sigs[0][:-1], msgs[0]),  # wrong length: False
        (other.public_key(), osig, b"x"),
        (other.public_key(), osig, b"y"),
        (pub, osig, b"x"),  # another key's signature
    ]
    want = [True, True, False, True, True, False, True, False, False]
    assert _one_by_one(items) == want
    assert sphincs.verify_many(items) == want
    assert sphincs.verify_many(items, threads=1) == want
    assert sphincs.verify_many(reversed(items)) == want[::-1]


def test_verify_many_refuses_what_sphincs256_lacks(s256):
    pub = s256.public_key()
    sig = s256.sign(b"m")
    with pytest.raises(ValueError, match=r"items\[1\]: SPHINCS-256 does not support context"):
        sphincs.verify_many([(pub, sig, b"m"), (pub, sig, b"m", b"ctx")])
    with pytest.raises(ValueError, match=r"items\[0\]: SPHINCS-256 does not support pre-hash"):
        sphincs.verify_many([(pub, sig, b"m", None, "SHA2-256")])
    with pytest.raises(TypeError, match="Sphincs256PublicKey"):
        sphincs.verify_many([(s256, sig, b"m")])
