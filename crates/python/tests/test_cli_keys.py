"""Keys made by the `sphincs` CLI load in Python, keys written by Python load
in the CLI, and signatures made on either side verify on the other."""

from __future__ import annotations

import pytest
import sphincs
from conftest import key_loaders

ALGS = ["SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-192f"]


@pytest.mark.parametrize("der", [False, True], ids=["pem", "der"])
@pytest.mark.parametrize("alg", ALGS)
def test_cli_keys_in_python(run_cli, tmp_path, alg, der):
    key, pub = tmp_path / "k", tmp_path / "p"
    run_cli("keygen", "-a", alg, "-o", key, "--pub", pub, *(["--der"] if der else []))
    load_sk, load_pk = key_loaders(der)
    sk = load_sk(key.read_bytes())
    pk = load_pk(pub.read_bytes())
    assert sk.algorithm == alg and sk.public_key() == pk
    msg = tmp_path / "msg"
    msg.write_bytes(b"signed by the CLI")
    sig = tmp_path / "sig"
    # A key from `keygen` without --prehash carries the pure OID: pure only
    # (HashSLH-DSA keys: test_key_modes.py).
    assert sk.mode == pk.mode == "pure"
    run_cli("sign", "-k", key, "--context", "release", "-o", sig, msg)
    pk.verify(sig.read_bytes(), msg.read_bytes(), b"release")
    pk.verify_file(sig.read_bytes(), msg, b"release")
    with pytest.raises(ValueError, match="cannot be used for HashSLH-DSA with SHA2-384"):
        pk.verify(sig.read_bytes(), msg.read_bytes(), b"release", prehash="SHA2-384")
    # And the CLI verifies what Python signs with this key.
    sig.write_bytes(sk.sign(msg.read_bytes(), b"release"))
    run_cli("verify", "-p", pub, "-s", sig, "--context", "release", msg)


@pytest.mark.parametrize("alg", ALGS)
def test_python_keys_in_cli(run_cli, tmp_path, alg):
    sk = sphincs.SLHDSAPrivateKey.generate(alg)
    key, pub, der = tmp_path / "k.pem", tmp_path / "p.pem", tmp_path / "p.der"
    key.write_bytes(sk.private_bytes_pem())
    pub.write_bytes(sk.public_key().public_bytes_pem())
    der.write_bytes(sk.public_key().public_bytes_der())
    # The CLI derives the same public key from our private key.
    run_cli("pubkey", key, "-o", tmp_path / "derived.pem")
    assert (tmp_path / "derived.pem").read_bytes() == pub.read_bytes()
    msg = tmp_path / "msg"
    msg.write_bytes(b"signed in Python")
    sig = tmp_path / "sig"
    sig.write_bytes(sk.sign_file(msg, bytes.fromhex("00ff")))
    for p in (pub, der, key):
        run_cli("verify", "-p", p, "-s", sig, "--context-hex", "00ff", msg)
    # A tampered message is rejected by the CLI with exit status 1.
    msg.write_bytes(b"signed in Python!")
    assert run_cli("verify", "-p", pub, "-s", sig, "--context-hex", "00ff", msg, ok=False).returncode == 1
    # The CLI signs with our key; Python verifies.
    run_cli("sign", "-k", key, "-o", tmp_path / "sig2", "--force", msg)
    sk.public_key().verify((tmp_path / "sig2").read_bytes(), msg.read_bytes())
