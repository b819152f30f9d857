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
from slhdsa.lowlevel import parameters as lp  # noqa: E402

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
