"""Certificates and CMS SignedData from Python (thin over the core's
sphincs::pki): a self-signed certificate made and checked, detached and
attached SignedData signed and verified, tampering refused, and the CLI
reading what Python wrote."""

from __future__ import annotations

import subprocess

import pytest
import sphincs
from conftest import REPO


@pytest.fixture(scope="module")
def key():
    return sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")


@pytest.fixture(scope="module")
def cert(key):
    return sphincs.self_signed_certificate(key, "CN=Release signing,O=Example", 30)


def test_self_signed_certificate(key, cert):
    assert cert.startswith(b"-----BEGIN CERTIFICATE-----")
    subject = sphincs.verify_certificate(cert)
    assert subject == "CN=Release signing,O=Example"
    der = sphincs.self_signed_certificate(key, "CN=DER", pem=False)
    assert der[0] == 0x30
    assert sphincs.verify_certificate(der) == "CN=DER"
    tampered = bytearray(der)
    tampered[-3] ^= 1  # in the signature
    with pytest.raises(sphincs.InvalidSignature):
        sphincs.verify_certificate(bytes(tampered))
    other = sphincs.self_signed_certificate(sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f"), "CN=Other")
    with pytest.raises(ValueError, match="issuer"):
        sphincs.verify_certificate(cert, issuer=other)
    with pytest.raises(ValueError):
        sphincs.verify_certificate(b"not a certificate")
    with pytest.raises(ValueError, match="name"):
        sphincs.self_signed_certificate(key, "no equals sign")


def test_certificate_public_key(key, cert):
    # pyca's x509.load_pem_x509_certificate(cert).public_key(), in one call.
    pk = sphincs.load_certificate_public_key(cert)
    assert pk == key.public_key()
    assert pk.mode == "pure"  # the OID of the certificate's key
    sig = key.sign(b"release.tar.gz")
    assert pk.verify(sig, b"release.tar.gz") is None
    with pytest.raises(sphincs.InvalidSignature):
        pk.verify(sig, b"release.tar.gz!")
    der = sphincs.self_signed_certificate(key, "CN=DER", pem=False)
    assert sphincs.load_certificate_public_key(bytearray(der)) == key.public_key()

    # A HashSLH-DSA key keeps its mode through the certificate.
    hashed = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f", prehash="SHA2-256")
    hpk = sphincs.load_certificate_public_key(sphincs.self_signed_certificate(hashed, "CN=Hashed"))
    assert hpk.mode == hashed.mode == "SHA2-256"
    assert hpk.public_bytes_raw() == hashed.public_key().public_bytes_raw()
    hpk.verify(hashed.sign(b"pre-hashed"), b"pre-hashed")

    # Damaged or not a certificate: ValueError saying what was expected.
    with pytest.raises(ValueError, match="X.509 certificate"):
        sphincs.load_certificate_public_key(der[:-10])
    with pytest.raises(ValueError, match="X.509 certificate"):
        sphincs.load_certificate_public_key(b"not a certificate")
    with pytest.raises(ValueError, match='"PUBLIC KEY".*"CERTIFICATE"'):
        sphincs.load_certificate_public_key(key.public_key().public_bytes_pem())
    # The public key loaders refuse a certificate, as pyca's do.
    with pytest.raises(ValueError):
        sphincs.load_pem_public_key(cert)


def test_cms_detached_and_attached(key, cert):
    data = b"release.tar.gz contents"
    sd = sphincs.cms_sign(key, cert, data)
    assert sd[0] == 0x30 and data not in sd
    assert sphincs.cms_verify(sd, data, signature_only=True) == data
    assert sphincs.cms_verify(sd, bytearray(data), certificate=cert) == data
    with pytest.raises(sphincs.InvalidSignature, match="message digest .* does not match the content"):
        sphincs.cms_verify(sd, data + b"!", certificate=cert)
    with pytest.raises(ValueError, match="detached"):
        sphincs.cms_verify(sd, certificate=cert)
    attached = sphincs.cms_sign(key, cert, data, detached=False, pem=True)
    assert attached.startswith(b"-----BEGIN CMS-----")
    assert sphincs.cms_verify(attached, certificate=cert) == data
    with pytest.raises(ValueError, match="carries its content"):
        sphincs.cms_verify(attached, data, certificate=cert)
    other = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    with pytest.raises(ValueError, match="not the key of the certificate"):
        sphincs.cms_sign(other, cert, data)
    other_cert = sphincs.self_signed_certificate(other, "CN=Other")
    with pytest.raises(ValueError, match="not the one any SignerInfo names"):
        sphincs.cms_verify(sd, data, certificate=other_cert)
    with pytest.raises(TypeError):
        sphincs.cms_sign(cert, cert, data)


def test_tampered_cms_is_an_invalid_signature(key, cert):
    """Whatever was changed, the content or the signature, detached or
    attached, cms_verify raises InvalidSignature (as `sphincs cms verify`
    exits 1), never a ValueError that reads as a usage mistake."""
    data = b"release notes, version 2"
    sd = sphincs.cms_sign(key, cert, data)
    attached = sphincs.cms_sign(key, cert, data, detached=False)
    # The signature is the SignerInfo's last field, at the end of the DER.
    sig_len = sphincs.Algorithm.SHAKE_128F.signature_size
    assert len(sd) > sig_len
    for signed in (sd, attached):
        at = len(signed) - sig_len // 2
        bad_sig = signed[:at] + bytes([signed[at] ^ 0x10]) + signed[at + 1 :]
        content = data if signed is sd else None
        for trust in ({"certificate": cert}, {"signature_only": True}, {"ca": cert}):
            with pytest.raises(sphincs.InvalidSignature):
                sphincs.cms_verify(bad_sig, content, **trust)
    # The content: a detached one given changed, an attached one changed inside.
    for trust in ({"certificate": cert}, {"signature_only": True}):
        with pytest.raises(sphincs.InvalidSignature, match="does not match the content"):
            sphincs.cms_verify(sd, b"release notes, version 3", **trust)
    at = attached.index(data) + len(data) - 1
    bad_content = attached[:at] + b"3" + attached[at + 1 :]
    with pytest.raises(sphincs.InvalidSignature, match="does not match the content"):
        sphincs.cms_verify(bad_content, certificate=cert)
    # Untouched, both still verify.
    assert sphincs.cms_verify(sd, data, certificate=cert) == data
    assert sphincs.cms_verify(attached, certificate=cert) == data


def test_cms_trust_is_never_implied(key, cert):
    """A self-signed signer verifies only with trust given: the signer's
    certificate pinned, an anchor it chains to, or the signature alone asked
    for by name."""
    data = b"who signed this?"
    sd = sphincs.cms_sign(key, cert, data)
    with pytest.raises(ValueError, match="no trust in the signer"):
        sphincs.cms_verify(sd, data)
    assert sphincs.cms_verify(sd, data, ca=cert) == data
    assert sphincs.cms_verify(sd, data, certificate=cert) == data
    assert sphincs.cms_verify(sd, data, signature_only=True) == data
    with pytest.raises(ValueError, match="excludes"):
        sphincs.cms_verify(sd, data, certificate=cert, signature_only=True)
    other = sphincs.self_signed_certificate(sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f"), "CN=Other", ca=True)
    with pytest.raises(ValueError, match="chain"):
        sphincs.cms_verify(sd, data, ca=other)


def test_cli_verifies_what_python_signed(key, cert, cli, tmp_path):
    data = b"shipped to the CLI"
    (tmp_path / "data").write_bytes(data)
    (tmp_path / "cert.pem").write_bytes(cert)
    (tmp_path / "data.p7s").write_bytes(sphincs.cms_sign(key, cert, data))
    ok = subprocess.run(
        [cli, "cms", "verify", "--cert", tmp_path / "cert.pem", "--content", tmp_path / "data", tmp_path / "data.p7s"],
        capture_output=True,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    run = subprocess.run([cli, "cert", "verify", tmp_path / "cert.pem"], capture_output=True, check=False)
    assert run.returncode == 0, run.stderr
    (tmp_path / "data").write_bytes(data + b"!")
    bad = subprocess.run(
        [cli, "cms", "verify", "--cert", tmp_path / "cert.pem", "--content", tmp_path / "data", tmp_path / "data.p7s"],
        capture_output=True,
        check=False,
    )
    assert bad.returncode == 1, bad.stderr


def test_self_signed_certificate_options(key, cli, tmp_path):
    cert = sphincs.self_signed_certificate(
        key,
        "CN=Code signing",
        10,
        san=["dns:example.org", "email:release@example.org"],
        eku=["codeSigning,emailProtection"],
        key_usage=["digitalSignature"],
        serial="0a0b0c",
        not_before="2025-06-01T00:00:00Z",
    )
    path = tmp_path / "c.pem"
    path.write_bytes(cert)
    shown = subprocess.run(
        [cli, "cert", "show", path], capture_output=True, text=True, check=True
    ).stdout
    assert "Serial:     0a0b0c" in shown
    assert "Not before: 2025-06-01T00:00:00Z" in shown
    assert "Not after:  2025-06-11T00:00:00Z" in shown
    assert "Subject alternative names: dns:example.org, email:release@example.org" in shown
    assert "Extended key usage: codeSigning, emailProtection" in shown
    assert "Key usage:  DigitalSignature (critical)" in shown
    ca = sphincs.self_signed_certificate(key, "CN=CA", ca=True, path_len=0, pem=False)
    assert sphincs.verify_certificate(ca) == "CN=CA"
    for kwargs, message in [
        ({"eku": ["codeSign"]}, "unknown extended key usage"),
        ({"san": ["example.org"]}, "subject alternative name"),
        ({"serial": "0"}, "positive"),
        ({"serial": "ff" * 20}, "at most 20"),
        ({"not_before": "2030-01-01", "not_after": "2029-01-01"}, "not before notAfter"),
        ({"not_before": "yesterday"}, "RFC 3339"),
        ({"key_usage": ["keyCertSign"]}, "CA certificates"),
        ({"path_len": 1}, "path length"),
    ]:
        with pytest.raises(ValueError, match=message):
            sphincs.self_signed_certificate(key, "CN=Bad", **kwargs)


def test_cms_signed_attribute_rules():
    """RFC 5652 §5.3/§5.4 as the core enforces them, through Python: a raw
    signature re-wrapped as a signed TSTInfo without signed attributes, and
    signed attributes out of DER order (both made by the CLI's tests, kept
    as fuzz seeds), are refused even when only the signature is checked."""
    corpus = REPO / "fuzz" / "corpus" / "cms"
    tst = (corpus / "seed-tstinfo-without-signed-attributes-der").read_bytes()
    with pytest.raises(sphincs.InvalidSignature, match="no signed attributes"):
        sphincs.cms_verify(tst, signature_only=True)
    unsorted = (corpus / "seed-signed-attributes-out-of-order-der").read_bytes()
    with pytest.raises(ValueError, match="canonical DER"):
        sphincs.cms_verify(unsorted, signature_only=True)


def test_a_ca_issues_a_leaf_from_a_request(tmp_path, cli):
    ca_key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f")
    ca_cert = sphincs.self_signed_certificate(ca_key, "CN=Python CA", ca=True)
    leaf_key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f")
    csr = sphincs.certificate_signing_request(leaf_key, "CN=Leaf,O=Example", san=["email:leaf@example.org"])
    assert csr.startswith(b"-----BEGIN CERTIFICATE REQUEST-----")
    assert sphincs.certificate_signing_request(leaf_key, "CN=DER", pem=False)[0] == 0x30
    leaf = sphincs.issue_certificate(ca_key, ca_cert, csr, 30, eku=["codeSigning"], copy_extensions=True)
    assert sphincs.verify_certificate(leaf, issuer=ca_cert) == "CN=Leaf,O=Example"
    assert sphincs.load_certificate_public_key(leaf) == leaf_key.public_key()
    # The leaf signs CMS that chains to the CA.
    signed = sphincs.cms_sign(leaf_key, leaf, b"release")
    assert sphincs.cms_verify(signed, b"release", ca=ca_cert) == b"release"
    # The CLI reads what Python wrote, and sees the extensions.
    (tmp_path / "leaf.pem").write_bytes(leaf)
    (tmp_path / "ca.pem").write_bytes(ca_cert)
    shown = subprocess.run([cli, "cert", "show", tmp_path / "leaf.pem"], capture_output=True, text=True, check=True)
    assert "leaf@example.org" in shown.stdout and "codeSigning" in shown.stdout, shown.stdout
    subprocess.run([cli, "cert", "verify", "--issuer", tmp_path / "ca.pem", tmp_path / "leaf.pem"], check=True)
    # Refusals: a CA key that is not the certificate's; a request asking for
    # a CA certificate without ca=True; a request whose signature is broken.
    with pytest.raises(ValueError, match="not the key of the CA certificate"):
        sphincs.issue_certificate(leaf_key, ca_cert, csr)
    ca_csr = sphincs.certificate_signing_request(leaf_key, "CN=Sub", ca=True)
    with pytest.raises(ValueError, match="CA"):
        sphincs.issue_certificate(ca_key, ca_cert, ca_csr, copy_extensions=True)
    der = bytearray(sphincs.certificate_signing_request(leaf_key, "CN=Broken", pem=False))
    der[-3] ^= 1
    with pytest.raises(sphincs.InvalidSignature):
        sphincs.issue_certificate(ca_key, ca_cert, bytes(der))
    with pytest.raises(ValueError):
        sphincs.issue_certificate(ca_key, ca_cert, b"not a request")
