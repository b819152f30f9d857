"""SPHINCS-256 (the 2015 scheme) through Python: the SUPERCOP reference's
known answers byte for byte (crates/sphincs/tests/data/sphincs256, as the
Rust test sphincs256.rs reads them), the reference's verdict on each
mutation, bad input as exceptions, and keys and signatures shared with the
`sphincs` CLI both ways."""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import subprocess

import pytest
import sphincs
from conftest import VECTORS

SK, PK = sphincs.Sphincs256PrivateKey, sphincs.Sphincs256PublicKey


def _kat() -> dict:
    with gzip.open(VECTORS / "sphincs256" / "sphincs256_kat.json.gz", "rt") as f:
        doc = json.load(f)
    assert doc["sizes"] == {"pk": 1056, "sk": 1088, "sig": 41000}
    assert len(doc["cases"]) == 11 and len(doc["verify_mutations"]) >= 9
    return doc


KAT = _kat()
CASES = KAT["cases"]


def test_sizes_from_the_core():
    for cls in (SK, PK):
        assert (cls.public_key_size, cls.private_key_size, cls.signature_size) == (1056, 1088, 41000)
        assert cls.algorithm == "sphincs-256"


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"case{c['id']}")
def test_known_answers(case):
    msg = bytes.fromhex(case["msg"])
    sk = SK.from_private_bytes(bytes.fromhex(case["sk"]))
    assert sk.private_bytes_raw() == bytes.fromhex(case["sk"])
    assert sk.public_key().public_bytes_raw() == bytes.fromhex(case["pk"])
    threads = 1 + case["id"] % 3
    sig = sk.sign(msg, threads=threads)
    assert len(sig) == 41000
    assert hashlib.sha256(sig).hexdigest() == case["sig_sha256"]
    if "sig" in case:
        assert sig == bytes.fromhex(case["sig"])
    assert int.from_bytes(sig[32:40], "little") == case["leafidx"]
    pk = PK.from_public_bytes(bytes.fromhex(case["pk"]))
    assert pk == sk.public_key() and hash(pk) == hash(sk.public_key())
    assert pk.verify(sig, msg) is None
    sm = sk.sign_attached(memoryview(msg))
    assert sm == sig + msg
    assert pk.open(bytearray(sm)) == msg


def _mutate(text: str, sig: bytearray, msg: bytearray, pk: bytearray) -> None:
    """A mutation as the vector file words it ("sig[33] ^= 0x01 (...)")."""
    text = text.split(" (")[0].strip()
    if text == "msg = msg || 0x00":
        msg.append(0)
        return
    target, rest = text.split("[", 1)
    index, mask = rest.split("] ^= 0x")
    {"sig": sig, "pk": pk}[target][int(index)] ^= int(mask, 16)


@pytest.mark.parametrize("m", KAT["verify_mutations"], ids=lambda m: m["mutation"].split(" (")[0])
def test_mutations_as_the_reference(m):
    case = CASES[m["case"]]
    sig, msg, pk = (bytearray.fromhex(case[k]) for k in ("sig", "msg", "pk"))
    PK.from_public_bytes(pk).verify(sig, msg)  # unmutated: valid
    _mutate(m["mutation"], sig, msg, pk)
    key = PK.from_public_bytes(pk)
    if m["expected"] == "accept":  # bits 60..63 of the index field take no part
        assert key.verify(sig, msg) is None
    else:
        assert m["expected"] == "reject"
        with pytest.raises(sphincs.InvalidSignature):
            key.verify(sig, msg)
        with pytest.raises(sphincs.InvalidSignature):
            key.open(bytes(sig) + bytes(msg))


def test_wrong_lengths_noise_and_types():
    case = CASES[0]
    sk = SK.from_private_bytes(bytes.fromhex(case["sk"]))
    pk = sk.public_key()
    sig = bytes.fromhex(case["sig"])
    for n in (0, 1, 1055, 1057, 1087, 1089, 4096):
        if n != 1056:
            with pytest.raises(ValueError, match=f"public key is {n} bytes; sphincs-256 needs 1056"):
                PK.from_public_bytes(bytes(n))
        if n != 1088:
            with pytest.raises(ValueError, match=f"secret key is {n} bytes; sphincs-256 needs 1088"):
                SK.from_private_bytes(bytes(n))
    for n in (0, 40, 40999, 41001, 82000):
        with pytest.raises(sphincs.InvalidSignature, match=f"signature is {n} bytes; sphincs-256 needs 41000"):
            pk.verify((sig * 2)[:n], b"")
    with pytest.raises(sphincs.InvalidSignature, match="signed message"):
        pk.open(sig[:100])
    rng = random.Random(256)
    for _ in range(8):
        with pytest.raises(sphincs.InvalidSignature):
            pk.verify(rng.randbytes(41000), b"")
        with pytest.raises(sphincs.InvalidSignature):
            PK.from_public_bytes(rng.randbytes(1056)).verify(sig, b"")
    for fill in (b"\x00", b"\xff"):
        with pytest.raises(sphincs.InvalidSignature):
            pk.verify(fill * 41000, b"")
    # Any 1088 bytes are a key (the reference's keygen draws them), noise too.
    noisy = SK.from_private_bytes(rng.randbytes(1088))
    noisy.public_key().verify(noisy.sign(b"x"), b"x")
    with pytest.raises(TypeError, match="bytes-like"):
        SK.from_private_bytes("00" * 1088)
    with pytest.raises(TypeError):
        pk.verify(sig, "text")
    with pytest.raises(ValueError, match="threads must be 0 .every core. or more"):
        sk.sign(b"m", threads=-1)
    assert sk.sign(b"m", threads=0) == sk.sign(b"m", threads=1)
    assert pk.verify(sig, b"") is None


def test_generate_and_compare():
    a, b = SK.generate(), SK.generate()
    assert a.private_bytes_raw() != b.private_bytes_raw()
    again = SK.from_private_bytes(a.private_bytes_raw())
    assert again.public_key() == a.public_key() != b.public_key()
    assert a.public_key() != object() and len({a.public_key(), again.public_key()}) == 1
    sig = a.sign(b"hello")
    assert sig == a.sign(b"hello", threads=2)  # deterministic, any thread count
    a.public_key().verify(sig, b"hello")
    with pytest.raises(sphincs.InvalidSignature):
        b.public_key().verify(sig, b"hello")
    with pytest.raises(sphincs.InvalidSignature):
        a.public_key().verify(sig, b"hellO")


def run(cli, *args, ok=True):
    p = subprocess.run([str(cli), *map(str, args)], check=False, capture_output=True)
    if ok:
        assert p.returncode == 0, p.stderr
    return p


def test_cli_keys_and_signatures_both_ways(cli, tmp_path):
    key, pub, msg = tmp_path / "k", tmp_path / "p", tmp_path / "msg"
    run(cli, "keygen", "-a", "sphincs-256", "-o", key, "--pub", pub)
    sk = SK.from_private_bytes(key.read_bytes())
    pk = PK.from_public_bytes(pub.read_bytes())
    assert sk.public_key() == pk
    msg.write_bytes(b"signed on both sides")
    # The CLI signs; Python verifies and, deterministic, makes the same bytes.
    run(cli, "sign", "-a", "sphincs-256", "-k", key, "-o", tmp_path / "cli.sig", msg)
    cli_sig = (tmp_path / "cli.sig").read_bytes()
    pk.verify(cli_sig, msg.read_bytes())
    assert sk.sign(msg.read_bytes(), threads=2) == cli_sig
    # Python's key and signature in the CLI.
    ours = SK.generate()
    (tmp_path / "ours.key").write_bytes(ours.private_bytes_raw())
    (tmp_path / "ours.pub").write_bytes(ours.public_key().public_bytes_raw())
    (tmp_path / "ours.sig").write_bytes(ours.sign(msg.read_bytes()))
    run(cli, "pubkey", "-a", "sphincs-256", tmp_path / "ours.key", "-o", tmp_path / "derived.pub")
    assert (tmp_path / "derived.pub").read_bytes() == (tmp_path / "ours.pub").read_bytes()
    for p in ("ours.pub", "ours.key"):
        run(cli, "verify", "-a", "sphincs-256", "-p", tmp_path / p, "-s", tmp_path / "ours.sig", msg)
    # Each side rejects the other's signature under the wrong key.
    assert run(cli, "verify", "-a", "sphincs-256", "-p", pub, "-s", tmp_path / "ours.sig", msg, ok=False).returncode == 1
    with pytest.raises(sphincs.InvalidSignature):
        ours.public_key().verify(cli_sig, msg.read_bytes())
