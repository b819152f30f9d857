"""pyca/cryptography's own serialization objects, from the real package
(pinned in requirements-test.txt): from version 50 its Encoding,
PrivateFormat and PublicFormat members are implemented in Rust and have no
``value``; they are taken wherever docs/python.md says, as are its encryption
classes."""

import pytest
import sphincs
from cryptography.hazmat.primitives import serialization as pyca

PASSWORD = b"pyca interop passphrase"


@pytest.fixture(scope="module")
def key():
    return sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f")


def test_the_real_package_is_tested():
    # The point of this file: cryptography's members as they are today.
    assert int(__import__("cryptography").__version__.split(".")[0]) >= 50
    assert not hasattr(pyca.Encoding.PEM, "value")


def test_private_bytes_takes_pycas_enums_and_encryption(key):
    der = key.private_bytes(pyca.Encoding.DER, pyca.PrivateFormat.PKCS8, pyca.NoEncryption())
    assert der == key.private_bytes_der()
    pem = key.private_bytes(pyca.Encoding.PEM, pyca.PrivateFormat.PKCS8, pyca.NoEncryption())
    assert pem == key.private_bytes_pem()
    raw = key.private_bytes(pyca.Encoding.Raw, pyca.PrivateFormat.Raw, pyca.NoEncryption())
    assert raw == key.private_bytes_raw()
    locked = key.private_bytes(
        pyca.Encoding.PEM, pyca.PrivateFormat.PKCS8, pyca.BestAvailableEncryption(PASSWORD)
    )
    assert b"ENCRYPTED PRIVATE KEY" in locked
    assert sphincs.load_pem_private_key(locked, PASSWORD).private_bytes_raw() == raw


def test_public_bytes_takes_pycas_enums(key):
    pub = key.public_key()
    assert pub.public_bytes(pyca.Encoding.DER, pyca.PublicFormat.SubjectPublicKeyInfo) == pub.public_bytes_der()
    assert pub.public_bytes(pyca.Encoding.PEM, pyca.PublicFormat.SubjectPublicKeyInfo) == pub.public_bytes_pem()
    assert pub.public_bytes(pyca.Encoding.Raw, pyca.PublicFormat.Raw) == pub.public_bytes_raw()
    assert pub.public_bytes(sphincs.Encoding.PEM, sphincs.PublicFormat.SubjectPublicKeyInfo) == pub.public_bytes_pem()
    assert sphincs.load_pem_public_key(pub.public_bytes(pyca.Encoding.PEM, pyca.PublicFormat.SubjectPublicKeyInfo)) == pub


def test_what_pyca_has_and_we_do_not_write_is_refused(key):
    pub = key.public_key()
    with pytest.raises(ValueError, match="PublicFormat.SubjectPublicKeyInfo or Raw"):
        pub.public_bytes(pyca.Encoding.PEM, pyca.PublicFormat.OpenSSH)
    with pytest.raises(ValueError, match="Raw encoding goes with PublicFormat.Raw only"):
        pub.public_bytes(pyca.Encoding.Raw, pyca.PublicFormat.SubjectPublicKeyInfo)
    with pytest.raises(ValueError, match="PrivateFormat.PKCS8 or Raw"):
        key.private_bytes(pyca.Encoding.PEM, pyca.PrivateFormat.OpenSSH, pyca.NoEncryption())
    with pytest.raises(ValueError, match="use Encoding.PEM, DER or Raw"):
        pub.public_bytes(pyca.Encoding.X962, pyca.PublicFormat.SubjectPublicKeyInfo)
    # A member of another of pyca's enums in the wrong place: a TypeError.
    with pytest.raises(TypeError, match="PublicFormat"):
        pub.public_bytes(pyca.Encoding.PEM, pyca.Encoding.PEM)


def test_invalid_signature_is_pycas_too(key):
    from cryptography.exceptions import InvalidSignature as PycaInvalidSignature

    assert issubclass(sphincs.InvalidSignature, PycaInvalidSignature)
    sig = bytearray(key.sign(b"message"))
    sig[7] ^= 1
    # Code written for pyca's keys catches ours unchanged.
    with pytest.raises(PycaInvalidSignature):
        key.public_key().verify(bytes(sig), b"message")
    with pytest.raises(sphincs.InvalidSignature):
        key.public_key().verify(bytes(sig), b"message")
    # CMS and OpenPGP failures raise the same class.
    cert = sphincs.self_signed_certificate(key, "CN=pyca")
    signed = sphincs.cms_sign(key, cert, b"content")
    with pytest.raises(PycaInvalidSignature):
        sphincs.cms_verify(signed, b"other content", ca=cert)


def test_loaders_take_pycas_backend_argument(key):
    from cryptography.hazmat.backends import default_backend

    backend = default_backend()
    pem, der = key.private_bytes_pem(), key.private_bytes_der()
    raw = key.private_bytes_raw()
    assert sphincs.load_pem_private_key(pem, None, backend).private_bytes_raw() == raw
    assert sphincs.load_pem_private_key(pem, password=None, backend=None).private_bytes_raw() == raw
    assert sphincs.load_der_private_key(der, None, backend=backend).private_bytes_raw() == raw
    assert sphincs.load_pem_private_key(pem, None, unsafe_skip_rsa_key_validation=True).private_bytes_raw() == raw
    pub = key.public_key()
    assert sphincs.load_pem_public_key(pub.public_bytes_pem(), backend) == pub
    assert sphincs.load_der_public_key(pub.public_bytes_der(), backend=backend) == pub
