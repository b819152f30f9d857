"""Cross-checks with independent implementations from PyPI, on random inputs:
pqcrypto (PQClean's SLH-DSA, all twelve sets), slh-dsa (pure Python) and
PySPX (the SPHINCS+ round-3.1 reference code, robust sets)."""

from __future__ import annotations

import importlib
import os

import pytest
import sphincs

pqcrypto = pytest.importorskip("pqcrypto")

# Our pre-hash names -> pqcrypto.HashAlgorithm members.
PQ_HASH = {
    "SHA2-224": "Sha224", "SHA2-256": "Sha256", "SHA2-384": "Sha384", "SHA2-512": "Sha512",
    "SHA2-512/224": "Sha512_224", "SHA2-512/256": "Sha512_256", "SHA3-224": "Sha3_224",
    "SHA3-256": "Sha3_256", "SHA3-384": "Sha3_384", "SHA3-512": "Sha3_512",
    "SHAKE-128": "Shake128", "SHAKE-256": "Shake256",
}


def _pq_module(alg):
    return importlib.import_module("pqcrypto.sign.slh_dsa_" + alg.value[len("SLH-DSA-"):].lower().replace("-", "_"))


# The twelve FIPS 205 sets (pqcrypto has no draft SP 800-230 set).
FIPS205 = [a for a in sphincs.Algorithm if not a.is_limited]


@pytest.mark.parametrize("alg", FIPS205, ids=lambda a: a.value)
def test_pqcrypto(alg):
    pq = _pq_module(alg)
    # Rotate through the pre-hash functions so all twelve are covered.
    prehash = sphincs.PREHASHES[FIPS205.index(alg)]
    pq_hash = getattr(pqcrypto.HashAlgorithm, PQ_HASH[prehash])
    ctx = os.urandom(1 + os.urandom(1)[0] % 255)
    msg = os.urandom(100)

    # Their key loads (its PK.root is checked) and has their public key.
    pk, sk = pq.keygen()
    ours = sphincs.SLHDSAPrivateKey.from_private_bytes(alg, sk)
    assert ours.public_key().public_bytes_raw() == pk
    pub = sphincs.SLHDSAPublicKey.from_public_bytes(alg, pk)

    # Their signatures verify with us: pure with a context, and pre-hashed.
    pub.verify(pq.sign(sk, msg, context=ctx), msg, ctx)
    pub.verify(pq.sign(sk, msg, context=ctx, hash_algorithm=pq_hash), msg, ctx, prehash=prehash)

    # Ours verify with them; a changed message does not.
    mine = ours.sign(msg, ctx)
    pq.verify(pk, msg, mine, context=ctx)
    pq.verify(pk, msg, ours.sign(msg, ctx, prehash=prehash), context=ctx, hash_algorithm=pq_hash)
    with pytest.raises(pqcrypto.InvalidSignatureError):
        pq.verify(pk, msg + b"!", mine, context=ctx)

    # Our fresh key works on their side.
    k2 = sphincs.SLHDSAPrivateKey.generate(alg)
    pq.verify(k2.public_key().public_bytes_raw(), msg, k2.sign(msg), context=None)


slhdsa = pytest.importorskip("slhdsa")


# The pure-Python implementation takes seconds per 's' signature: two 'f' sets.
@pytest.mark.parametrize("name", ["SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-128f"])
def test_slh_dsa_pure_python(name):
    alg = sphincs.Algorithm(name)
    par = getattr(slhdsa, alg.value[len("SLH-DSA-"):].lower().replace("-", "_"))
    key = sphincs.SLHDSAPrivateKey.generate(alg)
    theirs = slhdsa.SecretKey.from_digest(key.private_bytes_raw(), par)
    ctx, msg = os.urandom(17), os.urandom(64)
    # Deterministic signatures equal byte for byte, pure and pre-hashed
    # (slh-dsa's default pre-hash for these sets).
    prehash = "SHAKE-128" if alg.value.startswith("SLH-DSA-SHAKE") else "SHA2-256"
    assert theirs.sign_pure(msg, False, ctx) == key.sign(msg, ctx, deterministic=True)
    assert theirs.sign_hash(msg, False, ctx) == key.sign(msg, ctx, prehash=prehash, deterministic=True)
    # Hedged signatures of each side verify on the other.
    pub = key.public_key()
    pub.verify(theirs.sign_pure(msg, True, ctx), msg, ctx)
    assert theirs.pubkey.verify_pure(msg, key.sign(msg, ctx), ctx)
    assert not theirs.pubkey.verify_pure(msg, key.sign(msg, ctx), ctx + b"!")


pyspx = pytest.importorskip("pyspx")

ROBUST_F = [a for a in sphincs.SpxAlgorithm if a.is_robust and a.value.split("-")[2].endswith("f")]


def _pyspx_module(alg):
    _, family, size, _ = alg.value.split("-")
    return importlib.import_module(f"pyspx.{family}_{size}")


# PySPX (the round-3.1 reference code) builds the robust variants. Its 's'
# sets take seconds per signature: the nine 'f' sets, plus keys of one 's' set.
@pytest.mark.parametrize("alg", ROBUST_F + [sphincs.SpxAlgorithm.SHAKE_128S_ROBUST], ids=lambda a: a.value)
def test_pyspx(alg):
    mod = _pyspx_module(alg)
    seed = os.urandom(alg.n * 3)
    pk, sk = mod.generate_keypair(seed)
    ours = sphincs.SpxPrivateKey.from_seed(alg, seed)
    assert ours.private_bytes_raw() == sk
    assert ours.public_key().public_bytes_raw() == pk
    msg = os.urandom(50)
    mine = ours.sign(msg)
    assert mod.verify(msg, mine, pk)
    assert not mod.verify(msg + b"!", mine, pk)
    if alg.value.split("-")[2].endswith("f"):
        ours.public_key().verify(mod.sign(msg, sk), msg)
