"""OpenPGP (RFC 9580 v6, RFC 9980 SLH-DSA) from Python: keys, detached and
cleartext signatures, RFC 9980's own samples, and both directions against
the `sphincs sop` command line."""

import subprocess

import pytest
import sphincs
from conftest import REPO

SAMPLES = REPO / "crates" / "sphincs" / "tests" / "data" / "openpgp-rfc9980"
PROFILES = ["slh-dsa-shake-128f", "slh-dsa-shake-128s", "slh-dsa-shake-256s"]


@pytest.fixture(scope="module")
def key128f():
    return sphincs.openpgp_generate_key("slh-dsa-shake-128f", ["Alice <alice@example.org>"])


@pytest.mark.parametrize("profile", PROFILES)
def test_every_profile_signs_and_verifies(profile):
    key = sphincs.openpgp_generate_key(profile, ["Alice <alice@example.org>"])
    assert key.startswith("-----BEGIN PGP PRIVATE KEY BLOCK-----")
    cert = sphincs.openpgp_extract_cert(key)
    assert cert.startswith("-----BEGIN PGP PUBLIC KEY BLOCK-----")
    sig = sphincs.openpgp_sign(key, b"release.tar.gz")
    v = sphincs.openpgp_verify(cert, sig, b"release.tar.gz")
    assert v["mode"] == "binary" and v["user_id"] == "Alice <alice@example.org>"
    assert len(v["fingerprint"]) == 64 and v["fingerprint"] == v["primary_fingerprint"]
    with pytest.raises(sphincs.InvalidSignature):
        sphincs.openpgp_verify(cert, sig, b"release.tar.gz!")


def test_text_signatures_ignore_line_endings(key128f):
    cert = sphincs.openpgp_extract_cert(key128f)
    sig = sphincs.openpgp_sign(key128f, b"a\nb\n", text=True)
    assert sphincs.openpgp_verify(cert, sig, b"a\r\nb\r\n")["mode"] == "text"
    binary = sphincs.openpgp_sign(key128f, b"a\nb\n")
    with pytest.raises(sphincs.InvalidSignature):
        sphincs.openpgp_verify(cert, binary, b"a\r\nb\r\n")


def test_cleartext_round_trip_and_tampering(key128f):
    cert = sphincs.openpgp_extract_cert(key128f)
    signed = sphincs.openpgp_clearsign(key128f, b"Origin: Debian\n- dash\n")
    assert signed.startswith(b"-----BEGIN PGP SIGNED MESSAGE-----\n")
    text, v = sphincs.openpgp_verify_cleartext(cert, signed)
    assert text == b"Origin: Debian\n- dash\n" and v["mode"] == "text"
    with pytest.raises(sphincs.InvalidSignature):
        sphincs.openpgp_verify_cleartext(cert, signed.replace(b"Debian", b"Debiam"))
    with pytest.raises(ValueError):
        sphincs.openpgp_clearsign(key128f, b"\xff\xfe")


def test_passphrase_protected_keys():
    key = sphincs.openpgp_generate_key("slh-dsa-shake-128f", ["Bob"], passphrase=b"pw")
    with pytest.raises(ValueError, match="protected"):
        sphincs.openpgp_sign(key, b"x")
    with pytest.raises(ValueError, match="passphrase"):
        sphincs.openpgp_sign(key, b"x", passphrase=b"wrong")
    sig = sphincs.openpgp_sign(key, b"x", passphrase=b"pw")
    sphincs.openpgp_verify(sphincs.openpgp_extract_cert(key), sig, b"x")


@pytest.mark.parametrize("size", ["128s", "128f", "256s"])
def test_rfc9980_samples_verify(size):
    cert = (SAMPLES / f"v6-slhdsa-{size}-sample-pk.asc").read_bytes()
    sig = (SAMPLES / f"v6-slhdsa-{size}-sample-signature.asc").read_bytes()
    v = sphincs.openpgp_verify(cert, sig, b"Testing\n")
    assert v["mode"] == "text"
    with pytest.raises(sphincs.InvalidSignature):
        sphincs.openpgp_verify(cert, sig, b"Testing")


def test_bad_input_raises_value_error():
    for bad in [
        b"",
        b"not pgp",
        b"\xc2\xff\xff\xff\xff\xff",
        "-----BEGIN PGP SIGNATURE-----\n\nAA!\n",
    ]:
        with pytest.raises((ValueError, TypeError)):
            sphincs.openpgp_verify(bad, bad, b"x")
    with pytest.raises(ValueError, match="profile"):
        sphincs.openpgp_generate_key("rsa4096")


def test_both_directions_with_the_cli(tmp_path, cli, key128f):
    cert = sphincs.openpgp_extract_cert(key128f)
    (tmp_path / "k").write_text(key128f)
    (tmp_path / "c").write_text(cert)
    # Python signs, the CLI verifies.
    (tmp_path / "sig").write_text(sphincs.openpgp_sign(key128f, b"data"))
    subprocess.run(
        [cli, "sop", "verify", tmp_path / "sig", tmp_path / "c"],
        input=b"data",
        check=True,
        capture_output=True,
    )
    # The CLI signs, Python verifies.
    sig = subprocess.run(
        [cli, "sop", "sign", tmp_path / "k"], input=b"data", check=True, capture_output=True
    ).stdout
    assert sphincs.openpgp_verify(cert, sig, b"data")["fingerprint"]
    signed = subprocess.run(
        [cli, "sop", "inline-sign", "--as=clearsigned", tmp_path / "k"],
        input=b"hi\n",
        check=True,
        capture_output=True,
    ).stdout
    assert sphincs.openpgp_verify_cleartext(cert, signed)[0] == b"hi\n"
