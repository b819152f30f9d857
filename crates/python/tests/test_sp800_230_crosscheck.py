"""Cross-check of the draft SP 800-230 (ipd) sets against the PyPI `slh-dsa`
package (pure Python, generic over lg_w through its Parameter classes): our
known-answer signatures (crates/sphincs/tests/data/sp800-230-kat.json.gz,
deterministic, fixed seeds) verify there, so its verifier's root is our
PK.root, and tampered copies are refused. Its keygen would build a 2^21- or
2^22-leaf tree in pure Python (hours), so only verification is compared."""

from __future__ import annotations

import gzip
import json
import pathlib

import pytest

slhdsa = pytest.importorskip("slhdsa")
from slhdsa.lowlevel import parameters as lp

KAT = pathlib.Path(__file__).resolve().parents[2] / "sphincs/tests/data/sp800-230-kat.json.gz"

# The draft's table: n, h, d, h', a, k, lg_w, m (oid_no 0: no OID exists).
SETS = {
    "128-24": (16, 22, 1, 22, 24, 6, 2, 21),
    "192-24": (24, 21, 1, 21, 25, 9, 3, 32),
    "256-24": (32, 21, 1, 21, 25, 12, 2, 41),
}


def _parameter(name: str):
    size = name.rsplit("-", 2)[-2] + "-24"
    numbers = SETS[size]
    if "SHAKE" in name:
        cls = lp.ShakeParameter
    elif size == "128-24":
        cls = lp.Sha2_1Parameter
    else:
        cls = lp.Sha2_35Parameter
    return cls(0, *numbers)


def _entries():
    with gzip.open(KAT, "rt") as f:
        return json.load(f)


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e["algorithm"])
def test_slh_dsa_verifies_our_signatures(entry):
    par = _parameter(entry["algorithm"])
    pk = bytes.fromhex(entry["pk"])
    n = par.n
    key = slhdsa.PublicKey((pk[:n], pk[n:]), par)
    msg = bytes.fromhex(entry["message"])
    ctx = bytes.fromhex(entry["context"])
    sig = bytes.fromhex(entry["sig"])
    assert key.verify_pure(msg, sig, ctx)
    for at in (0, n + 1, len(sig) // 2, len(sig) - 1):
        bad = bytearray(sig)
        bad[at] ^= 1
        assert not key.verify_pure(msg, bytes(bad), ctx), at
    assert not key.verify_pure(msg + b"!", sig, ctx)


# --- The same known answers through this package ---------------------------

import sphincs


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: e["algorithm"])
def test_our_package_verifies_the_known_answers(entry):
    alg = sphincs.Algorithm(entry["algorithm"])
    assert alg.is_limited and alg.max_signatures == 2**24 and alg.oid is None
    pub = sphincs.SLHDSAPublicKey.from_public_bytes(alg, bytes.fromhex(entry["pk"]))
    msg, ctx, sig = (bytes.fromhex(entry[k]) for k in ("message", "context", "sig"))
    assert len(sig) == alg.signature_size
    pub.verify(sig, msg, ctx)
    bad = bytearray(sig)
    bad[len(sig) // 3] ^= 4
    with pytest.raises(sphincs.InvalidSignature):
        pub.verify(bytes(bad), msg, ctx)
    with pytest.raises(sphincs.InvalidSignature):
        pub.verify(sig, msg, ctx + b"!")
    # No OID is assigned, so there is no SPKI/PKCS#8 form.
    with pytest.raises(ValueError):
        pub.public_bytes_der()


def _kat_secret(entry):
    return bytes.fromhex(entry["sk_seed"] + entry["sk_prf"] + entry["pk"])


def test_foreign_or_damaged_tree_cache_is_refused():
    entries = _entries()
    first, second = entries[0], entries[1]
    alg = sphincs.Algorithm(first["algorithm"])
    sk = _kat_secret(first)
    for cache in (b"", b"\0" * 1000, b"SLH-DSA-TREES" + b"\0" * 600_000):
        with pytest.raises(ValueError):
            sphincs.SLHDSAPrivateKey.from_private_bytes(alg, sk, tree_cache=cache)
    # A set without a tree keeps no cache.
    key = sphincs.SLHDSAPrivateKey.from_seeds("SLH-DSA-SHA2-128f", b"\1" * 16, b"\2" * 16, b"\3" * 16)
    assert key.tree_cache() is None
    with pytest.raises(ValueError):
        sphincs.SLHDSAPrivateKey.from_private_bytes(
            sphincs.Algorithm(second["algorithm"]), _kat_secret(second), tree_cache=b"x" * 64
        )


def test_kat_key_signs_the_known_answer_with_and_without_a_saved_cache(sha2_128_24_key):
    # SHA2-128-24: one full tree of 2^22 leaves (the quickest of the six here,
    # made once for the suite by the fixture), then a signature of 2^24-leaf
    # FORS trees.
    entry, key = sha2_128_24_key
    alg = sphincs.Algorithm.SHA2_128_24
    assert key.public_key().public_bytes_raw().hex() == entry["pk"]
    msg, ctx = bytes.fromhex(entry["message"]), bytes.fromhex(entry["context"])
    cache = key.tree_cache()
    assert cache is not None and len(cache) <= 1 << 20
    again = sphincs.SLHDSAPrivateKey.from_private_bytes(alg, key.private_bytes_raw(), tree_cache=cache)
    assert again.tree_cache() == cache
    assert again.sign(msg, ctx, deterministic=True, threads=0).hex() == entry["sig"]
    # The cache of this key does not fit another key of the same set.
    other = bytearray(key.private_bytes_raw())
    other[0] ^= 1
    other[-1] ^= 1
    with pytest.raises(ValueError):
        sphincs.SLHDSAPrivateKey.from_private_bytes(alg, bytes(other), tree_cache=cache)
