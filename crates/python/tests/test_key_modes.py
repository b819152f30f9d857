"""Key modes (RFC 9909): a HashSLH-DSA key made by the CLI (`keygen
--prehash`) loads with its mode, signs and verifies in it, refuses the other
mode with the core's message, and writes the same PEM/DER (its OID) back;
Python's own HashSLH-DSA keys go to the CLI; verify_many honours each key's
mode."""

from __future__ import annotations

import pytest
import sphincs
from conftest import key_loaders

# (set, the pre-hash RFC 9909 binds to it, its HashSLH-DSA OID's last arc)
SETS = [("SLH-DSA-SHA2-128f", "SHA2-256", 36), ("SLH-DSA-SHAKE-128f", "SHAKE-128", 42)]
ARC = "2.16.840.1.101.3.4.3."


def der_oid(arc: int) -> bytes:
    """The DER OBJECT IDENTIFIER 2.16.840.1.101.3.4.3.<arc>."""
    return bytes.fromhex("06096086480165030403") + bytes([arc])


@pytest.mark.parametrize("der", [False, True], ids=["pem", "der"])
@pytest.mark.parametrize("alg,ph,arc", SETS)
def test_cli_hash_key_in_python(run_cli, tmp_path, alg, ph, arc, der):
    key, pub, msg, sig = (tmp_path / n for n in ("k", "p", "msg", "sig"))
    run_cli("keygen", "-a", alg, "--prehash", ph, "-o", key, "--pub", pub, *(["--der"] if der else []))
    load_sk, load_pk = key_loaders(der)
    sk, pk = load_sk(key.read_bytes()), load_pk(pub.read_bytes())
    assert sk.mode == pk.mode == sk.public_key().mode == ph
    assert sk.oid == pk.oid == f"{ARC}{arc}" != sphincs.Algorithm(alg).oid
    # Written back byte for byte as the CLI wrote it: the HashSLH-DSA OID kept.
    if der:
        assert sk.private_bytes_der() == key.read_bytes()
        assert pk.public_bytes_der() == pub.read_bytes()
        assert der_oid(arc) in pk.public_bytes_der()
    else:
        assert sk.private_bytes_pem() == key.read_bytes()
        assert pk.public_bytes_pem() == pub.read_bytes()
    assert sphincs.load_der_private_key(sk.private_bytes_der()).mode == ph
    assert sphincs.load_pem_public_key(pk.public_bytes_pem()).oid == f"{ARC}{arc}"

    msg.write_bytes(b"pre-hashed by its key's mode")
    data = msg.read_bytes()
    # The CLI signs in the key's mode; Python verifies in it (prehash=None or named).
    run_cli("sign", "-k", key, "--context", "v1", "-o", sig, msg)
    pk.verify(sig.read_bytes(), data, b"v1")
    pk.verify(sig.read_bytes(), data, b"v1", prehash=ph)
    pk.verify_file(sig.read_bytes(), msg, b"v1")
    # It is a HashSLH-DSA signature: a raw key verifies it with the pre-hash, not pure.
    raw = pk.with_mode("unrestricted")
    assert raw.mode == "unrestricted" and raw == pk
    raw.verify(sig.read_bytes(), data, b"v1", prehash=ph)
    with pytest.raises(sphincs.InvalidSignature):
        raw.verify(sig.read_bytes(), data, b"v1")
    # Python signs with prehash=None (the key's mode); the CLI verifies.
    ours = sk.sign(data, b"v1")
    raw.verify(ours, data, b"v1", prehash=ph)
    sig.write_bytes(ours)
    run_cli("verify", "-p", pub, "-s", sig, "--context", "v1", msg)
    assert sk.sign(data, deterministic=True) == sk.sign(data, prehash=ph, deterministic=True)
    # The wrong mode: ValueError with the core's message, on every path.
    other = "SHA3-512"
    for call in (
        lambda: sk.sign(data, prehash=other),
        lambda: sk.sign_file(msg, prehash=other),
        lambda: sk.sign_many([data], prehash=other),
        lambda: pk.verify(ours, data, b"v1", prehash=other),
        lambda: pk.verify_file(ours, msg, b"v1", prehash=other),
    ):
        with pytest.raises(ValueError, match=f"bound to HashSLH-DSA with {ph} by its OID {ARC}{arc}"):
            call()
    # The same key bytes bound to pure SLH-DSA: a pure verifier, no pre-hash.
    pure = pk.with_mode("pure")
    assert pure.mode == "pure" and pure.oid == sphincs.Algorithm(alg).oid
    with pytest.raises(sphincs.InvalidSignature):
        pure.verify(ours, data, b"v1")
    with pytest.raises(ValueError, match=f"bound to pure SLH-DSA by its OID .* cannot be used for HashSLH-DSA with {ph}"):
        pure.verify(ours, data, b"v1", prehash=ph)


@pytest.mark.parametrize("alg,ph,arc", SETS)
def test_python_hash_key_in_cli(run_cli, tmp_path, alg, ph, arc):
    sk = sphincs.SLHDSAPrivateKey.generate(alg, prehash=ph)
    assert sk.mode == ph and sk.oid == f"{ARC}{arc}"
    key, pub, msg, sig = (tmp_path / n for n in ("k.der", "p.pem", "msg", "sig"))
    key.write_bytes(sk.private_bytes_der())
    pub.write_bytes(sk.public_key().public_bytes_pem())
    assert der_oid(arc) in key.read_bytes()
    assert der_oid(arc - 15) not in key.read_bytes()  # not the pure OID
    # The CLI reads the mode from our OID: the same public key, and it refuses the other mode.
    run_cli("pubkey", key, "-o", tmp_path / "derived.pem")
    assert (tmp_path / "derived.pem").read_bytes() == pub.read_bytes()
    msg.write_bytes(b"made in Python")
    run_cli("sign", "-k", key, "-o", sig, msg)
    sk.public_key().verify(sig.read_bytes(), msg.read_bytes())
    sig.write_bytes(sk.sign_file(msg))
    run_cli("verify", "-p", pub, "-s", sig, msg)
    bad = run_cli("sign", "-k", key, "--prehash", "SHA3-256", "-o", tmp_path / "x", msg, ok=False)
    assert bad.returncode == 2 and "SHA3-256" in bad.stderr


def test_generate_and_with_mode():
    alg = "SLH-DSA-SHA2-192f"  # RFC 9909 binds SHA2-512
    raw = sphincs.SLHDSAPrivateKey.generate(alg)
    assert raw.mode == raw.public_key().mode == "unrestricted"
    assert raw.oid == sphincs.Algorithm(alg).oid  # a raw key is written under the pure OID
    with pytest.raises(ValueError, match="no OID pairs SLH-DSA-SHA2-192f with SHA2-256"):
        sphincs.SLHDSAPrivateKey.generate(alg, prehash="SHA2-256")
    with pytest.raises(ValueError, match="unknown pre-hash function"):
        sphincs.SLHDSAPrivateKey.generate(alg, prehash="MD5")
    bound = raw.with_mode("sha512")  # pre-hash names as prehash= takes them
    assert bound.mode == "SHA2-512" and bound.oid == "2.16.840.1.101.3.4.3.38"
    assert bound.private_bytes_raw() == raw.private_bytes_raw()
    assert raw.mode == "unrestricted"  # with_mode returns a new key
    assert bound.with_mode("PURE").mode == "pure"
    assert bound.with_mode("Unrestricted").mode == "unrestricted"
    with pytest.raises(ValueError, match="no OID pairs"):
        raw.with_mode("SHA2-256")
    with pytest.raises(ValueError, match='mode must be "unrestricted", "pure" or a HashSLH-DSA pre-hash name'):
        raw.public_key().with_mode("hashed")
    with pytest.raises(TypeError):
        raw.with_mode(None)
    assert "mode=SHA2-512" in repr(bound)
    # A raw key signs either way; the bound key only with its pre-hash.
    m = b"doc"
    sig = bound.sign(m, deterministic=True)
    assert sig == raw.sign(m, prehash="SHA2-512", deterministic=True)
    bound.public_key().verify(sig, m)
    with pytest.raises(ValueError, match="bound to HashSLH-DSA with SHA2-512"):
        bound.sign(m, prehash="SHA2-256")
    pure_sig = raw.sign(m, deterministic=True)
    with pytest.raises(sphincs.InvalidSignature):
        bound.public_key().verify(pure_sig, m)


def test_verify_many_honours_each_key_mode():
    raw = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    bound = raw.with_mode("SHAKE-128")
    pure = raw.with_mode("pure")
    m = b"batch"
    hashed_sig = bound.sign(m)
    pure_sig = pure.sign(m)
    items = [
        (bound.public_key(), hashed_sig, m),  # the key's mode: HashSLH-DSA with SHAKE-128
        (bound.public_key(), pure_sig, m),
        (pure.public_key(), pure_sig, m),
        (pure.public_key(), hashed_sig, m),
        (raw.public_key(), hashed_sig, m, None, "SHAKE-128"),
        (raw.public_key(), pure_sig, m, None, None),
        (bound.public_key(), hashed_sig, m, None, "SHAKE-128"),
    ]
    assert sphincs.verify_many(items, threads=2) == [True, False, True, False, True, True, True]
    with pytest.raises(ValueError, match=r"items\[1\]: .*bound to pure SLH-DSA"):
        sphincs.verify_many([items[0], (pure.public_key(), hashed_sig, m, None, "SHAKE-128")])
