"""Passphrase-protected private keys in pyca/cryptography's shape:
`private_bytes(encoding, format, BestAvailableEncryption(pw))` and
`load_{pem,der}_private_key(data, password=...)`, over the core's PKCS#8
`EncryptedPrivateKeyInfo` (PBES2). Bad input is a Python exception, never a
panic."""

from __future__ import annotations

import pathlib

import pytest
import sphincs
from sphincs import BestAvailableEncryption, Encoding, NoEncryption, PrivateFormat

DATA = pathlib.Path(__file__).parent / "data"
PASSWORD = b"correct-horse"


@pytest.fixture(scope="module")
def key():
    return sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")


def test_round_trip_pem_and_der(key):
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, BestAvailableEncryption(PASSWORD))
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert key.private_bytes_raw() not in pem
    back = sphincs.load_pem_private_key(pem, password=PASSWORD)
    assert back.private_bytes_raw() == key.private_bytes_raw()
    der = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, BestAvailableEncryption(PASSWORD))
    assert sphincs.load_der_private_key(der, bytearray(PASSWORD)).private_bytes_raw() == key.private_bytes_raw()
    # Fresh salt and IV each time.
    assert der != key.private_bytes("DER", "PKCS8", BestAvailableEncryption(PASSWORD))


def test_plain_and_raw_through_private_bytes(key):
    assert key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()) == key.private_bytes_pem()
    assert key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption()) == key.private_bytes_der()
    assert key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()) == key.private_bytes_raw()
    assert sphincs.load_pem_private_key(key.private_bytes_pem()).private_bytes_raw() == key.private_bytes_raw()
    assert sphincs.load_pem_private_key(key.private_bytes_pem(), None).private_bytes_raw() == key.private_bytes_raw()
    with pytest.raises(ValueError, match="Raw encoding"):
        key.private_bytes(Encoding.Raw, PrivateFormat.Raw, BestAvailableEncryption(PASSWORD))
    with pytest.raises(ValueError, match="Raw encoding"):
        key.private_bytes(Encoding.PEM, PrivateFormat.Raw, NoEncryption())
    with pytest.raises(ValueError, match="format"):
        key.private_bytes(Encoding.PEM, "OpenSSH", NoEncryption())
    with pytest.raises(TypeError, match="encryption_algorithm"):
        key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, b"pw")
    with pytest.raises(ValueError, match="1 or more bytes"):
        BestAvailableEncryption(b"")


def test_wrong_missing_and_unwanted_passwords(key):
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, BestAvailableEncryption(PASSWORD))
    der = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, BestAvailableEncryption(PASSWORD))
    for load, data in ((sphincs.load_pem_private_key, pem), (sphincs.load_der_private_key, der)):
        with pytest.raises(ValueError, match="wrong passphrase"):
            load(data, password=b"battery-staple")
        with pytest.raises(TypeError, match="encrypted .*no password"):
            load(data)
    with pytest.raises(TypeError, match="not encrypted"):
        sphincs.load_pem_private_key(key.private_bytes_pem(), password=PASSWORD)
    with pytest.raises(TypeError, match="password must be bytes-like"):
        sphincs.load_pem_private_key(pem, password="correct-horse")


def test_truncated_and_damaged_encrypted_keys(key):
    der = key.private_bytes(Encoding.DER, PrivateFormat.PKCS8, BestAvailableEncryption(PASSWORD))
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, BestAvailableEncryption(PASSWORD))
    for cut in (1, 10, len(der) // 2, len(der) - 1):
        with pytest.raises(ValueError):
            sphincs.load_der_private_key(der[:cut], password=PASSWORD)
    lines = pem.splitlines()
    with pytest.raises(ValueError):
        sphincs.load_pem_private_key(b"\n".join(lines[:3] + lines[-1:]), password=PASSWORD)
    flipped = bytearray(der)
    flipped[-5] ^= 1  # the last ciphertext block: padding or key check fails
    with pytest.raises(ValueError):
        sphincs.load_der_private_key(bytes(flipped), password=PASSWORD)


def test_reads_a_key_encrypted_by_openssl_3_5():
    # Made once with OpenSSL 3.5.9 (PBES2: PBKDF2-HMAC-SHA-256, 2048
    # iterations, AES-256-CBC) and committed:
    #   openssl genpkey -algorithm SLH-DSA-SHA2-128f -aes-256-cbc \
    #       -pass pass:correct-horse -out openssl35_slh_dsa_sha2_128f_aes256cbc.pem
    #   openssl pkey -in openssl35_slh_dsa_sha2_128f_aes256cbc.pem \
    #       -passin pass:correct-horse -pubout -out openssl35_slh_dsa_sha2_128f.pub.pem
    pem = (DATA / "openssl35_slh_dsa_sha2_128f_aes256cbc.pem").read_bytes()
    pub = sphincs.load_pem_public_key((DATA / "openssl35_slh_dsa_sha2_128f.pub.pem").read_bytes())
    key = sphincs.load_pem_private_key(pem, password=PASSWORD)
    assert key.algorithm is sphincs.Algorithm.SHA2_128F
    assert key.public_key() == pub
    pub.verify(key.sign(b"interop"), b"interop")
    with pytest.raises(ValueError, match="wrong passphrase"):
        sphincs.load_pem_private_key(pem, password=b"nope")


def test_takes_objects_shaped_like_pyca_cryptography(key):
    # pyca/cryptography's serialization.Encoding / PrivateFormat are plain
    # enums with str values, and its encryption classes are matched by name
    # (NoEncryption) or by their `password` attribute; stand-ins of the
    # shape its versions up to 49 have (test_pyca_interop.py takes the real
    # package, whose members have no `value` from version 50 on).
    import enum

    class PycaEncoding(enum.Enum):
        PEM = "PEM"
        DER = "DER"

    class PycaPrivateFormat(enum.Enum):
        PKCS8 = "PKCS8"

    class NoEncryption:  # pyca's name
        pass

    class PycaBest:
        def __init__(self, password: bytes):
            self.password = password

    assert key.private_bytes(PycaEncoding.DER, PycaPrivateFormat.PKCS8, NoEncryption()) == key.private_bytes_der()
    pem = key.private_bytes(PycaEncoding.PEM, PycaPrivateFormat.PKCS8, PycaBest(PASSWORD))
    assert sphincs.load_pem_private_key(pem, PASSWORD).private_bytes_raw() == key.private_bytes_raw()
    with pytest.raises(TypeError, match="Encoding"):
        key.private_bytes(1, PycaPrivateFormat.PKCS8, NoEncryption())
