"""NIST ACVP vectors (keyGen, sigGen, sigVer) through the Python API, byte for byte.

The packed files hold every non-held-out case of the 'f' sets and a subset of
the 's' sets (see crates/sphincs/tests/data/README.md). Here: all keyGen and
sigVer cases, all sigGen cases of the 'f' sets, and for the 's' sets one test
group of each kind (external/internal x deterministic/randomized), rotating
over the six sets so that each set is covered.
"""

from __future__ import annotations

import hashlib

import pytest
import sphincs
from conftest import load_vectors

KEYGEN = load_vectors("keygen.json.gz", "keygen")
SIGGEN = load_vectors("siggen.json.gz", "siggen")
SIGVER = load_vectors("sigver.json.gz", "sigver")

S_SETS = [a.value for a in sphincs.Algorithm if a.value.endswith("s")]
KINDS = [("external", True), ("external", False), ("internal", True), ("internal", False)]


def _siggen_selection() -> list[dict]:
    chosen_groups = set()
    for i, name in enumerate(S_SETS):
        interface, det = KINDS[i % len(KINDS)]
        groups = sorted(
            c["tgId"]
            for c in SIGGEN
            if c["parameterSet"] == name
            and c["interface"] == interface
            and c["deterministic"] == det
        )
        assert groups, (name, interface, det)
        chosen_groups.add((name, groups[0]))
    picked = [
        c
        for c in SIGGEN
        if c["parameterSet"].endswith("f") or (c["parameterSet"], c["tgId"]) in chosen_groups
    ]
    # Every kind is covered among the 's' sets.
    kinds = {(c["interface"], c["deterministic"]) for c in picked if c["parameterSet"].endswith("s")}
    assert kinds == set(KINDS)
    return picked


SIGGEN_PICKED = _siggen_selection()


def _ids(cases):
    return [f"tc{c['tcId']}-{c['parameterSet']}" for c in cases]


def _b(hexstr):
    return bytes.fromhex(hexstr) if hexstr is not None else None


@pytest.mark.parametrize("case", KEYGEN, ids=_ids(KEYGEN))
def test_keygen(case):
    key = sphincs.SLHDSAPrivateKey.from_seeds(
        case["parameterSet"], _b(case["skSeed"]), _b(case["skPrf"]), _b(case["pkSeed"])
    )
    assert key.private_bytes_raw() == _b(case["sk"])
    assert key.public_key().public_bytes_raw() == _b(case["pk"])
    assert key.algorithm == sphincs.Algorithm(case["parameterSet"])


@pytest.mark.parametrize("case", SIGGEN_PICKED, ids=_ids(SIGGEN_PICKED))
def test_siggen(case):
    key = sphincs.SLHDSAPrivateKey.from_private_bytes(case["parameterSet"], _b(case["sk"]))
    msg = _b(case["message"])
    rnd = None if case["deterministic"] else _b(case["additionalRandomness"])
    if case["interface"] == "internal":
        sig = key.sign_internal(msg, rnd)
        assert key.public_key().verify_internal(msg, sig)
    else:
        prehash = None if case["preHash"] == "pure" else case["preHash"]
        sig = key.sign(
            msg,
            _b(case["context"]),
            prehash=prehash,
            deterministic=case["deterministic"],
            randomness=rnd,
        )
        key.public_key().verify(sig, msg, _b(case["context"]), prehash=prehash)
    assert len(sig) == sphincs.Algorithm(case["parameterSet"]).signature_size
    assert hashlib.sha256(sig).hexdigest().upper() == case["signatureSha256"]


@pytest.mark.parametrize("case", SIGVER, ids=_ids(SIGVER))
def test_sigver(case):
    pub = sphincs.SLHDSAPublicKey.from_public_bytes(case["parameterSet"], _b(case["pk"]))
    msg, sig = _b(case["message"]), _b(case["signature"])
    if case["interface"] == "internal":
        assert pub.verify_internal(msg, sig) is case["testPassed"]
        return
    prehash = None if case["preHash"] == "pure" else case["preHash"]
    if case["testPassed"]:
        pub.verify(sig, msg, _b(case["context"]), prehash=prehash)
    else:
        with pytest.raises(sphincs.InvalidSignature):
            pub.verify(sig, msg, _b(case["context"]), prehash=prehash)
