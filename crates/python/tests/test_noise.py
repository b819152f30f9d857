"""Random noise, and valid encodings with random damage, fed to every loader
and to verify: each answers with ValueError, TypeError or InvalidSignature
(or, rarely, a valid key), never another exception or a crash."""

from __future__ import annotations

import random

import pytest
import sphincs

ROUNDS = 150
EXPECTED = (ValueError, TypeError, sphincs.InvalidSignature)


def _mutations(rng, valid: bytes):
    """Noise of assorted lengths, and damaged copies of a valid input."""
    yield b""
    for _ in range(ROUNDS):
        kind = rng.randrange(4)
        if kind == 0:
            yield rng.randbytes(rng.randrange(0, 200))
        elif kind == 1:
            b = bytearray(valid)
            for _ in range(rng.randrange(1, 4)):
                b[rng.randrange(len(b))] ^= rng.randrange(1, 256)
            yield bytes(b)
        elif kind == 2:
            yield valid[: rng.randrange(len(valid))]
        else:
            yield valid + rng.randbytes(rng.randrange(1, 10))


def _expect_clean(fn, data):
    try:
        fn(data)
    except EXPECTED:
        pass


@pytest.fixture(scope="module")
def key():
    return sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f")


def test_loaders(key):
    rng = random.Random(205)
    pub = key.public_key()
    s256 = sphincs.Sphincs256PrivateKey.generate()
    cases = [
        (sphincs.Sphincs256PrivateKey.from_private_bytes, s256.private_bytes_raw()),
        (sphincs.Sphincs256PublicKey.from_public_bytes, s256.public_key().public_bytes_raw()),
        (sphincs.load_pem_private_key, key.private_bytes_pem()),
        (sphincs.load_der_private_key, key.private_bytes_der()),
        (sphincs.load_pem_public_key, pub.public_bytes_pem()),
        (sphincs.load_der_public_key, pub.public_bytes_der()),
        (lambda d: sphincs.SLHDSAPrivateKey.from_private_bytes("SLH-DSA-SHA2-128f", d), key.private_bytes_raw()),
        (lambda d: sphincs.SLHDSAPublicKey.from_public_bytes("SLH-DSA-SHA2-128f", d), pub.public_bytes_raw()),
        (lambda d: sphincs.SpxPrivateKey.from_private_bytes("sphincs-sha2-128f-simple", d), key.private_bytes_raw()),
        (lambda d: sphincs.SpxPublicKey.from_public_bytes("sphincs-sha2-128f-simple", d), pub.public_bytes_raw()),
    ]
    for load, valid in cases:
        load(valid)  # the undamaged input loads
        for data in _mutations(rng, valid):
            _expect_clean(load, data)
    # Noise as algorithm and pre-hash names.
    for _ in range(ROUNDS):
        name = rng.randbytes(rng.randrange(0, 30)).decode("latin-1")
        _expect_clean(sphincs.SLHDSAPrivateKey.generate, name)
        _expect_clean(lambda n: key.sign(b"", prehash=n), name)
        _expect_clean(key.with_mode, name)


def test_verify(key):
    rng = random.Random(9909)
    pub = key.public_key()
    sig = key.sign(b"message", b"ctx")
    rejected = 0
    for data in _mutations(rng, sig):
        try:
            pub.verify(data, b"message", b"ctx")
        except sphincs.InvalidSignature:
            rejected += 1
    # A damaged or noise signature never verifies (every mutation changes it).
    assert rejected == ROUNDS + 1
    spx = sphincs.SpxPrivateKey.generate("sphincs-sha2-128f-simple")
    spx_sig = spx.sign(b"m")
    for data in _mutations(rng, spx_sig):
        with pytest.raises(sphincs.InvalidSignature):
            spx.public_key().verify(data, b"m")
    s256 = sphincs.Sphincs256PrivateKey.generate()
    s256_sig = s256.sign(b"m")
    for data in _mutations(rng, s256_sig):
        with pytest.raises(sphincs.InvalidSignature):
            s256.public_key().verify(data, b"m")
        with pytest.raises(sphincs.InvalidSignature):
            s256.public_key().open(data + b"m")
    results = sphincs.verify_many([(pub, d, b"message", b"ctx") for d in _mutations(rng, sig)])
    assert not any(results)
