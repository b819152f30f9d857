"""The Python API: keys, signing options, PEM/DER, files, batches, SPHINCS+
round 3.1, and clear errors for bad input."""

from __future__ import annotations

import io
import os

import pytest
import sphincs

ALG = "SLH-DSA-SHAKE-128f"
SEEDS = (bytes(range(16)), bytes(range(16, 32)), bytes(range(32, 48)))


@pytest.fixture(scope="module")
def key():
    return sphincs.SLHDSAPrivateKey.from_seeds(ALG, *SEEDS)


def test_algorithm_enum_matches_core():
    assert len(sphincs.Algorithm) == 18
    assert [a for a in sphincs.Algorithm if a.is_limited] == list(sphincs.Algorithm)[12:]
    assert sphincs.Algorithm.SHA2_128_24.max_signatures == 2**24
    assert sphincs.Algorithm("sha2-128-24") is sphincs.Algorithm.SHA2_128_24
    assert sphincs.Algorithm.SHA2_128_24.oid is None
    assert sphincs.Algorithm.SHAKE_128F.max_signatures is None
    assert len(sphincs.SpxAlgorithm) == 36
    a = sphincs.Algorithm.SHAKE_128F
    assert a == "SLH-DSA-SHAKE-128f" and str(a) == "SLH-DSA-SHAKE-128f"
    assert (a.public_key_size, a.private_key_size, a.signature_size) == (32, 64, 17088)
    assert a.oid == "2.16.840.1.101.3.4.3.27"
    assert sphincs.Algorithm.SHA2_256S.signature_size == 29792
    assert sphincs.Algorithm("shake-128f") is a
    assert sphincs.Algorithm("slh-dsa-shake-128F") is a
    assert sphincs.SpxAlgorithm("SPHINCS-HARAKA-128F-ROBUST").is_robust
    with pytest.raises(ValueError):
        sphincs.Algorithm("shake-129f")
    assert "SHA2-512/256" in sphincs.PREHASHES


# The draft SP 800-230 sets build a 2^21-2^22-leaf tree per key (a minute or
# more): test_sp800_230_crosscheck.py covers them.
@pytest.mark.parametrize("alg", [a for a in sphincs.Algorithm if not a.is_limited])
def test_round_trip_every_set(alg):
    sk = sphincs.SLHDSAPrivateKey.generate(alg)
    assert sk.algorithm is alg
    assert len(sk.private_bytes_raw()) == alg.private_key_size
    pub = sk.public_key()
    assert len(pub.public_bytes_raw()) == alg.public_key_size
    sig = sk.sign(b"msg", b"ctx", threads=2)
    assert len(sig) == alg.signature_size
    pub.verify(sig, b"msg", b"ctx")
    with pytest.raises(sphincs.InvalidSignature):
        pub.verify(sig, b"msg", b"other ctx")


def test_names_and_enum_accepted(key):
    for name in ("SLH-DSA-SHAKE-128f", "shake-128f", "SHAKE-128F", sphincs.Algorithm.SHAKE_128F):
        k = sphincs.SLHDSAPrivateKey.from_seeds(name, *SEEDS)
        assert k.private_bytes_raw() == key.private_bytes_raw()


def test_deterministic_and_hedged(key):
    pub = key.public_key()
    a = key.sign(b"m", deterministic=True)
    assert a == key.sign(b"m", deterministic=True)
    assert a == key.sign(b"m", deterministic=True, threads=3)
    assert a == key.sign(b"m", deterministic=True, fault_hardened=True)
    h1, h2 = key.sign(b"m"), key.sign(b"m")
    assert h1 != h2 and h1 != a
    for s in (a, h1, h2):
        pub.verify(s, b"m")
    # Given randomness: equal to the core's own Given path, and not deterministic.
    r = bytes(16)
    assert key.sign(b"m", randomness=r) == key.sign(b"m", randomness=r) != a


def test_bytes_like_inputs(key):
    pub = key.public_key()
    sig = key.sign(bytearray(b"data"), memoryview(b"ctx"), deterministic=True)
    assert sig == key.sign(b"data", b"ctx", deterministic=True)
    pub.verify(bytearray(sig), memoryview(b"data"), bytearray(b"ctx"))


@pytest.mark.parametrize("prehash", sphincs.PREHASHES)
def test_prehash(key, prehash):
    pub = key.public_key()
    sig = key.sign(b"big document", b"c", prehash=prehash)
    pub.verify(sig, b"big document", b"c", prehash=prehash)
    with pytest.raises(sphincs.InvalidSignature):
        pub.verify(sig, b"big document", b"c")  # pure != pre-hash
    other = "SHA2-256" if prehash != "SHA2-256" else "SHA2-512"
    with pytest.raises(sphincs.InvalidSignature):
        pub.verify(sig, b"big document", b"c", prehash=other)


def test_pem_der_round_trip(key):
    pub = key.public_key()
    pem = key.private_bytes_pem()
    assert pem.startswith(b"-----BEGIN PRIVATE KEY-----")
    der = key.private_bytes_der()
    assert der[0] == 0x30
    for loaded in (sphincs.load_pem_private_key(pem), sphincs.load_der_private_key(der)):
        assert loaded.private_bytes_raw() == key.private_bytes_raw()
    ppem, pder = pub.public_bytes_pem(), pub.public_bytes_der()
    assert ppem.startswith(b"-----BEGIN PUBLIC KEY-----")
    assert sphincs.load_pem_public_key(ppem) == pub
    assert sphincs.load_der_public_key(pder) == pub
    assert hash(sphincs.load_der_public_key(pder)) == hash(pub)
    # Keys compare by bytes, not mode: the raw key read back is "pure" (its OID).
    assert pub.mode == "unrestricted" and sphincs.load_der_public_key(pder).mode == "pure"


def test_loader_errors(key):
    pub = key.public_key()
    with pytest.raises(ValueError, match="for DER use load_der_private_key"):
        sphincs.load_pem_private_key(key.private_bytes_der())
    with pytest.raises(ValueError, match="for PEM use load_pem_public_key"):
        sphincs.load_der_public_key(pub.public_bytes_pem())
    with pytest.raises(ValueError, match="private key"):
        sphincs.load_pem_public_key(key.private_bytes_pem())
    with pytest.raises(ValueError, match="public key"):
        sphincs.load_pem_private_key(pub.public_bytes_pem())
    with pytest.raises(ValueError, match="PEM"):
        sphincs.load_pem_private_key(b"-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n")
    with pytest.raises(TypeError, match="bytes-like"):
        sphincs.load_pem_private_key(key.private_bytes_pem().decode())


def test_bad_inputs(key):
    pub = key.public_key()
    sig = key.sign(b"m")
    with pytest.raises(ValueError, match="unknown algorithm"):
        sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-129f")
    with pytest.raises(TypeError, match="algorithm must be a str"):
        sphincs.SLHDSAPrivateKey.generate(128)
    with pytest.raises(ValueError, match="secret key is 63 bytes; SLH-DSA-SHAKE-128f needs 64"):
        sphincs.SLHDSAPrivateKey.from_private_bytes(ALG, key.private_bytes_raw()[:-1])
    with pytest.raises(ValueError, match="public key is 33 bytes"):
        sphincs.SLHDSAPublicKey.from_public_bytes(ALG, pub.public_bytes_raw() + b"\0")
    with pytest.raises(ValueError, match="SK.seed"):
        sphincs.SLHDSAPrivateKey.from_seeds(ALG, b"short", SEEDS[1], SEEDS[2])
    bad = bytearray(key.private_bytes_raw())
    bad[-1] ^= 1  # PK.root no longer matches the seeds
    with pytest.raises(ValueError, match="key pair mismatch"):
        sphincs.SLHDSAPrivateKey.from_private_bytes(ALG, bytes(bad))
    with pytest.raises(ValueError, match="context string is 256 bytes; at most 255"):
        key.sign(b"m", b"x" * 256)
    with pytest.raises(ValueError, match="context string is 256 bytes"):
        pub.verify(sig, b"m", b"x" * 256)
    with pytest.raises(ValueError, match="unknown pre-hash function"):
        key.sign(b"m", prehash="MD5")
    with pytest.raises(ValueError, match="signing randomness is 15 bytes"):
        key.sign(b"m", randomness=bytes(15))
    with pytest.raises(ValueError, match="exclude each other"):
        key.sign(b"m", deterministic=True, randomness=bytes(16))
    with pytest.raises(ValueError, match="threads must be 0 .every core. or more"):
        key.sign(b"m", threads=-1)
    # threads=0 is every core, as --threads 0 and C's threads = 0.
    pub.verify(key.sign(b"m", threads=0), b"m")
    with pytest.raises(TypeError, match="data must be bytes-like"):
        key.sign("text")
    # A signature of the wrong length is invalid, not a crash.
    for s in (b"", sig[:-1], sig + b"\0"):
        with pytest.raises(sphincs.InvalidSignature, match="signature is"):
            pub.verify(s, b"m")
    assert issubclass(sphincs.InvalidSignature, Exception)


def test_files_and_streams(key, tmp_path):
    pub = key.public_key()
    data = os.urandom(300_000)  # several read chunks
    path = tmp_path / "data.bin"
    path.write_bytes(data)
    want = key.sign(data, b"c", deterministic=True)
    assert key.sign_file(path, b"c", deterministic=True) == want
    assert key.sign_file(str(path), b"c", deterministic=True) == want
    with open(path, "rb") as f:
        assert key.sign_file(f, b"c", deterministic=True) == want
    # A stream positioned after a header: the message starts where it stands.
    stream = io.BytesIO(b"HEADER" + data)
    stream.seek(6)
    assert key.sign_file(stream, b"c", deterministic=True) == want
    pub.verify_file(want, path, b"c")
    pub.verify_file(want, io.BytesIO(data), b"c")
    with pytest.raises(sphincs.InvalidSignature):
        pub.verify_file(want, io.BytesIO(data + b"!"), b"c")
    ph = key.sign_file(path, prehash="SHA2-512")
    pub.verify(ph, data, prehash="SHA2-512")
    with pytest.raises(FileNotFoundError):
        key.sign_file(tmp_path / "missing")
    with open(path, encoding="latin-1") as text, pytest.raises(TypeError, match="binary mode"):
        key.sign_file(text)
    with pytest.raises(TypeError):
        key.sign_file(12.5)


class _Failing(io.RawIOBase):
    def readable(self):
        return True

    def read(self, n=-1):
        raise OSError("disk on fire")


def test_stream_error_is_raised(key):
    with pytest.raises(OSError, match="disk on fire"):
        key.sign_file(_Failing())


def test_sign_many_verify_many(key):
    pub = key.public_key()
    msgs = [b"m%d" % i for i in range(7)] + [b""]
    sigs = key.sign_many(msgs, b"ctx", deterministic=True)
    assert sigs == [key.sign(m, b"ctx", deterministic=True) for m in msgs]
    assert key.sign_many([], b"ctx") == []
    hedged = key.sign_many(msgs, threads=1)
    other = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f")
    osig = other.sign(b"x")
    items = [(pub, s, m, b"ctx") for s, m in zip(sigs, msgs)]
    items += [(pub, s, m, None) for s, m in zip(hedged, msgs)]
    items += [
        (pub, sigs[0], b"tampered", b"ctx"),
        (pub, sigs[0][:-1], msgs[0], b"ctx"),  # wrong length: False
        (other.public_key(), osig, b"x"),  # context left out
        (other.public_key(), osig, b"y", None),
    ]
    ph = key.sign(b"doc", b"ctx", prehash="SHA3-256")
    items += [(pub, ph, b"doc", b"ctx", "SHA3-256"), (pub, ph, b"doc", b"ctx", None)]
    want = [True] * 16 + [False, False, True, False, True, False]
    assert sphincs.verify_many(items) == want
    assert sphincs.verify_many(items, threads=1) == want
    assert sphincs.verify_many(iter(items)) == want
    with pytest.raises(ValueError, match=r"items\[0\].*context string is 300 bytes"):
        sphincs.verify_many([(pub, sigs[0], msgs[0], b"x" * 300)])
    with pytest.raises(ValueError, match="unknown pre-hash"):
        sphincs.verify_many([(pub, ph, b"doc", b"ctx", "MD5")])
    with pytest.raises(TypeError, match=r"items\[1\]"):
        sphincs.verify_many([items[0], (pub, sigs[0])])
    with pytest.raises(TypeError, match=r"items\[0\]\[0\]"):
        sphincs.verify_many([(b"not a key", sigs[0], msgs[0], None)])
    with pytest.raises(TypeError, match=r"messages\[1\]"):
        key.sign_many([b"ok", 5])


SPX = "sphincs-shake-128f-simple"


def test_spx_round_trip_and_batches():
    seed = bytes(range(48))
    sk = sphincs.SpxPrivateKey.from_seed(SPX, seed)
    assert sk.algorithm is sphincs.SpxAlgorithm.SHAKE_128F_SIMPLE
    assert sphincs.SpxPrivateKey.from_private_bytes(SPX, sk.private_bytes_raw()).private_bytes_raw() == sk.private_bytes_raw()
    pub = sk.public_key()
    assert sphincs.SpxPublicKey.from_public_bytes(SPX, pub.public_bytes_raw()) == pub
    sig = sk.sign(b"legacy", deterministic=True)
    pub.verify(sig, b"legacy")
    with pytest.raises(sphincs.InvalidSignature):
        pub.verify(sig, b"legacy!")
    with pytest.raises(sphincs.InvalidSignature, match="signature is"):
        pub.verify(sig[:100], b"legacy")
    msgs = [b"a", b"b", b"c"]
    sigs = sk.sign_many(msgs, deterministic=True)
    assert sigs == [sk.sign(m, deterministic=True) for m in msgs]
    slh = sphincs.SLHDSAPrivateKey.from_seeds(ALG, *SEEDS)
    mixed = [(pub, s, m, None) for s, m in zip(sigs, msgs)]
    mixed.append((slh.public_key(), slh.sign(b"z"), b"z", None))
    mixed.append((pub, sigs[0], b"b", None))
    assert sphincs.verify_many(mixed) == [True, True, True, True, False]
    with pytest.raises(ValueError, match=r"items\[0\]: SPHINCS\+ round 3.1 does not support context"):
        sphincs.verify_many([(pub, sigs[0], b"a", b"ctx")])
    pub.verify_file(sigs[0], io.BytesIO(b"a"))
    assert sk.sign_file(io.BytesIO(b"a"), deterministic=True) == sigs[0]


def test_spx_bad_inputs():
    with pytest.raises(ValueError, match="is a FIPS 205 .* this call takes SPHINCS"):
        sphincs.SpxPrivateKey.generate("SLH-DSA-SHAKE-128f")  # an SLH-DSA name
    with pytest.raises(ValueError, match="is a SPHINCS.* round-3.1 set, but this call takes FIPS 205"):
        sphincs.SLHDSAPrivateKey.generate(sphincs.SpxAlgorithm.SHAKE_128F_SIMPLE)
    with pytest.raises(ValueError, match="unknown algorithm"):
        sphincs.SpxPrivateKey.generate("shake-129f")
    with pytest.raises(ValueError, match="seed is 47 bytes"):
        sphincs.SpxPrivateKey.from_seed(SPX, bytes(47))
    sk = sphincs.SpxPrivateKey.from_seed(SPX, bytes(48))
    bad = bytearray(sk.private_bytes_raw())
    bad[-1] ^= 1
    with pytest.raises(ValueError, match="key pair mismatch"):
        sphincs.SpxPrivateKey.from_private_bytes(SPX, bytes(bad))
    with pytest.raises(ValueError, match="public key is 31 bytes"):
        sphincs.SpxPublicKey.from_public_bytes(SPX, bytes(31))


class _Unseekable(io.RawIOBase):
    """A stream that can be read once, like a pipe."""

    def __init__(self, data):
        self._data = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, b):
        return self._data.readinto(b)


def test_unseekable_stream(key):
    pub = key.public_key()
    data = os.urandom(200_000)
    # One pass is enough for a pre-hash signature and for verifying.
    sig = key.sign_file(_Unseekable(data), prehash="SHAKE-256")
    pub.verify(sig, data, prehash="SHAKE-256")
    pub.verify_file(key.sign(data), _Unseekable(data))
    # Pure signing reads the message twice: a clear error, not a wrong signature.
    with pytest.raises(ValueError, match="cannot tell"):
        key.sign_file(_Unseekable(data))
