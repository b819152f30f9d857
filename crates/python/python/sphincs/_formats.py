"""The arguments of ``private_bytes`` and ``public_bytes``, in pyca/cryptography's
shape. Plain Python, typed here: the package's stub re-exports them rather
than describing them a second time."""

import enum


class Encoding(str, enum.Enum):
    """How ``private_bytes`` writes a key (as pyca/cryptography's ``Encoding``)."""

    PEM = "PEM"
    DER = "DER"
    Raw = "Raw"


class PrivateFormat(str, enum.Enum):
    """What ``private_bytes`` writes: PKCS#8 (RFC 9909) or the raw key."""

    PKCS8 = "PKCS8"
    Raw = "Raw"


class PublicFormat(str, enum.Enum):
    """What ``public_bytes`` writes: SubjectPublicKeyInfo (RFC 9909) or the raw key."""

    SubjectPublicKeyInfo = "SubjectPublicKeyInfo"
    Raw = "Raw"


class NoEncryption:
    """``private_bytes(..., NoEncryption())``: the key in clear."""


class BestAvailableEncryption:
    """``private_bytes(..., BestAvailableEncryption(password))``: PKCS#8
    ``EncryptedPrivateKeyInfo`` under ``password`` (PBES2: scrypt N=2^14,
    r=8, p=1 and AES-256-CBC, as ``openssl pkcs8 -topk8 -scrypt``)."""

    def __init__(self, password: bytes) -> None:
        if not isinstance(password, bytes) or not password:
            raise ValueError("password must be 1 or more bytes")
        self.password: bytes = password
