"""Type stubs of the sphincs package (SLH-DSA, FIPS 205, SPHINCS+ round 3.1 and SPHINCS-256)."""

import enum
import os
from collections.abc import Iterable, Sequence
from typing import BinaryIO, ClassVar

from typing_extensions import Buffer as Buffer
from typing_extensions import TypeAlias

from sphincs._formats import BestAvailableEncryption as BestAvailableEncryption
from sphincs._formats import Encoding as Encoding
from sphincs._formats import NoEncryption as NoEncryption
from sphincs._formats import PrivateFormat as PrivateFormat
from sphincs._formats import PublicFormat as PublicFormat

# Every bytes argument takes any object with the buffer protocol (bytes,
# bytearray, memoryview, mmap, array.array, a numpy array...): PEP 688's
# Buffer, which is collections.abc.Buffer from Python 3.12 and
# typing_extensions.Buffer for the older versions the package supports.
#: A path (str, bytes or os.PathLike) or a binary file object with read().
FileArg: TypeAlias = str | bytes | os.PathLike[str] | os.PathLike[bytes] | BinaryIO

__version__: str
PREHASHES: tuple[str, ...]

class InvalidSignature(Exception):
    """The signature does not verify (including a signature of the wrong length).

    With pyca/cryptography installed it is also a cryptography.exceptions.InvalidSignature."""

class Algorithm(str, enum.Enum):
    """The SLH-DSA parameter sets: the twelve of FIPS 205, then the six
    limited-signature sets of draft SP 800-230 (ipd); the value is the name."""

    SHA2_128S = "SLH-DSA-SHA2-128s"
    SHA2_128F = "SLH-DSA-SHA2-128f"
    SHA2_192S = "SLH-DSA-SHA2-192s"
    SHA2_192F = "SLH-DSA-SHA2-192f"
    SHA2_256S = "SLH-DSA-SHA2-256s"
    SHA2_256F = "SLH-DSA-SHA2-256f"
    SHAKE_128S = "SLH-DSA-SHAKE-128s"
    SHAKE_128F = "SLH-DSA-SHAKE-128f"
    SHAKE_192S = "SLH-DSA-SHAKE-192s"
    SHAKE_192F = "SLH-DSA-SHAKE-192f"
    SHAKE_256S = "SLH-DSA-SHAKE-256s"
    SHAKE_256F = "SLH-DSA-SHAKE-256f"
    SHA2_128_24 = "SLH-DSA-SHA2-128-24"
    SHA2_192_24 = "SLH-DSA-SHA2-192-24"
    SHA2_256_24 = "SLH-DSA-SHA2-256-24"
    SHAKE_128_24 = "SLH-DSA-SHAKE-128-24"
    SHAKE_192_24 = "SLH-DSA-SHAKE-192-24"
    SHAKE_256_24 = "SLH-DSA-SHAKE-256-24"

    @property
    def max_signatures(self) -> int | None:
        """2**24 for the draft SP 800-230 sets, None for the others."""
    @property
    def is_limited(self) -> bool:
        """A draft SP 800-230 (ipd) set: one 2^21-2^22-leaf tree, at most 2^24 signatures per key."""
    @property
    def public_key_size(self) -> int: ...
    @property
    def private_key_size(self) -> int: ...
    @property
    def signature_size(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def security_category(self) -> int: ...
    @property
    def oid(self) -> str | None:
        """The RFC 9909 OID, dotted; None for the draft SP 800-230 sets (none is assigned)."""

class SpxAlgorithm(str, enum.Enum):
    """The 36 SPHINCS+ round-3.1 sets; the value is the reference code's name."""

    HARAKA_128F_ROBUST = "sphincs-haraka-128f-robust"
    HARAKA_128F_SIMPLE = "sphincs-haraka-128f-simple"
    HARAKA_128S_ROBUST = "sphincs-haraka-128s-robust"
    HARAKA_128S_SIMPLE = "sphincs-haraka-128s-simple"
    HARAKA_192F_ROBUST = "sphincs-haraka-192f-robust"
    HARAKA_192F_SIMPLE = "sphincs-haraka-192f-simple"
    HARAKA_192S_ROBUST = "sphincs-haraka-192s-robust"
    HARAKA_192S_SIMPLE = "sphincs-haraka-192s-simple"
    HARAKA_256F_ROBUST = "sphincs-haraka-256f-robust"
    HARAKA_256F_SIMPLE = "sphincs-haraka-256f-simple"
    HARAKA_256S_ROBUST = "sphincs-haraka-256s-robust"
    HARAKA_256S_SIMPLE = "sphincs-haraka-256s-simple"
    SHA2_128F_ROBUST = "sphincs-sha2-128f-robust"
    SHA2_128F_SIMPLE = "sphincs-sha2-128f-simple"
    SHA2_128S_ROBUST = "sphincs-sha2-128s-robust"
    SHA2_128S_SIMPLE = "sphincs-sha2-128s-simple"
    SHA2_192F_ROBUST = "sphincs-sha2-192f-robust"
    SHA2_192F_SIMPLE = "sphincs-sha2-192f-simple"
    SHA2_192S_ROBUST = "sphincs-sha2-192s-robust"
    SHA2_192S_SIMPLE = "sphincs-sha2-192s-simple"
    SHA2_256F_ROBUST = "sphincs-sha2-256f-robust"
    SHA2_256F_SIMPLE = "sphincs-sha2-256f-simple"
    SHA2_256S_ROBUST = "sphincs-sha2-256s-robust"
    SHA2_256S_SIMPLE = "sphincs-sha2-256s-simple"
    SHAKE_128F_ROBUST = "sphincs-shake-128f-robust"
    SHAKE_128F_SIMPLE = "sphincs-shake-128f-simple"
    SHAKE_128S_ROBUST = "sphincs-shake-128s-robust"
    SHAKE_128S_SIMPLE = "sphincs-shake-128s-simple"
    SHAKE_192F_ROBUST = "sphincs-shake-192f-robust"
    SHAKE_192F_SIMPLE = "sphincs-shake-192f-simple"
    SHAKE_192S_ROBUST = "sphincs-shake-192s-robust"
    SHAKE_192S_SIMPLE = "sphincs-shake-192s-simple"
    SHAKE_256F_ROBUST = "sphincs-shake-256f-robust"
    SHAKE_256F_SIMPLE = "sphincs-shake-256f-simple"
    SHAKE_256S_ROBUST = "sphincs-shake-256s-robust"
    SHAKE_256S_SIMPLE = "sphincs-shake-256s-simple"

    @property
    def public_key_size(self) -> int: ...
    @property
    def private_key_size(self) -> int: ...
    @property
    def signature_size(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def security_category(self) -> int: ...
    @property
    def is_robust(self) -> bool: ...

AlgorithmArg: TypeAlias = Algorithm | str
SpxAlgorithmArg: TypeAlias = SpxAlgorithm | str

class SLHDSAPrivateKey:
    """An SLH-DSA private key. Signing releases the GIL."""

    @staticmethod
    def generate(
        algorithm: AlgorithmArg, *, prehash: str | None = None, threads: int | None = None
    ) -> SLHDSAPrivateKey:
        """A fresh key from the OS's randomness (FIPS 205 Algorithm 21): raw
        (mode "unrestricted"), or with `prehash` a HashSLH-DSA key bound to it
        (only the pre-hash RFC 9909 pairs with the set)."""
    @staticmethod
    def from_private_bytes(
        algorithm: AlgorithmArg, data: Buffer, *, tree_cache: Buffer | None = None, threads: int | None = None
    ) -> SLHDSAPrivateKey:
        """Loads a raw 4n-byte key; ValueError if its PK.root does not match its seeds.
        A draft SP 800-230 key given its saved ``tree_cache()`` loads without rebuilding its tree."""
    def tree_cache(self) -> bytes | None:
        """A draft SP 800-230 key's tree cache (public, under 1 MiB); None for other sets."""
    @staticmethod
    def from_seeds(
        algorithm: AlgorithmArg, sk_seed: Buffer, sk_prf: Buffer, pk_seed: Buffer, *, threads: int | None = None
    ) -> SLHDSAPrivateKey:
        """slh_keygen_internal (FIPS 205 Algorithm 18) from three n-byte seeds."""
    @property
    def algorithm(self) -> Algorithm: ...
    @property
    def mode(self) -> str:
        """"unrestricted" (raw key: pure or any pre-hash), "pure", or the
        pre-hash name of a HashSLH-DSA key (RFC 9909 OIDs .35-.46)."""
    @property
    def oid(self) -> str:
        """The RFC 9909 OID the key is written under (its mode's), dotted."""
    def with_mode(self, mode: str) -> SLHDSAPrivateKey:
        """This key in another mode: "unrestricted", "pure" or the set's RFC 9909 pre-hash."""
    def sign(
        self,
        data: Buffer,
        context: Buffer | None = None,
        *,
        prehash: str | None = None,
        deterministic: bool = False,
        threads: int | None = None,
        randomness: Buffer | None = None,
        fault_hardened: bool = False,
    ) -> bytes:
        """Signs data (FIPS 205 Algorithm 22, or 23 with a prehash name);
        prehash=None signs in the key's mode; ValueError against the mode."""
    def sign_file(
        self,
        file: FileArg,
        context: Buffer | None = None,
        *,
        prehash: str | None = None,
        deterministic: bool = False,
        threads: int | None = None,
        randomness: Buffer | None = None,
        fault_hardened: bool = False,
    ) -> bytes:
        """Signs a file or binary stream in bounded memory."""
    def sign_many(
        self,
        messages: Iterable[Buffer],
        context: Buffer | None = None,
        *,
        prehash: str | None = None,
        deterministic: bool = False,
        threads: int | None = None,
        fault_hardened: bool = False,
    ) -> list[bytes]:
        """Signs every message in one call on `threads` threads (default: every core)."""
    def sign_internal(self, message: Buffer, randomness: Buffer | None = None) -> bytes:
        """slh_sign_internal (FIPS 205 Algorithm 19), for test vectors."""
    def public_key(self) -> SLHDSAPublicKey: ...
    def private_bytes_raw(self) -> bytes: ...
    def private_bytes_der(self) -> bytes: ...
    def private_bytes_pem(self) -> bytes: ...
    def private_bytes(
        self,
        encoding: Encoding | str,
        format: PrivateFormat | str,
        encryption_algorithm: NoEncryption | BestAvailableEncryption,
    ) -> bytes:
        """PEM/DER PKCS#8, encrypted or not, or Raw/Raw/NoEncryption (pyca's shape)."""

class SLHDSAPublicKey:
    """An SLH-DSA public key. Verification releases the GIL."""

    @staticmethod
    def from_public_bytes(algorithm: AlgorithmArg, data: Buffer) -> SLHDSAPublicKey: ...
    @property
    def algorithm(self) -> Algorithm: ...
    @property
    def mode(self) -> str:
        """As SLHDSAPrivateKey.mode."""
    @property
    def oid(self) -> str: ...
    def with_mode(self, mode: str) -> SLHDSAPublicKey: ...
    def verify(
        self, signature: Buffer, data: Buffer, context: Buffer | None = None, *, prehash: str | None = None
    ) -> None:
        """Returns None if valid; raises InvalidSignature if not. prehash=None
        verifies in the key's mode; ValueError against the mode."""
    def verify_file(
        self, signature: Buffer, file: FileArg, context: Buffer | None = None, *, prehash: str | None = None
    ) -> None: ...
    def verify_internal(self, message: Buffer, signature: Buffer) -> bool:
        """slh_verify_internal (FIPS 205 Algorithm 20), for test vectors."""
    def public_bytes_raw(self) -> bytes: ...
    def public_bytes_der(self) -> bytes: ...
    def public_bytes_pem(self) -> bytes: ...
    def public_bytes(self, encoding: Encoding | str, format: PublicFormat | str) -> bytes:
        """PEM/DER SubjectPublicKeyInfo, or Raw/Raw (pyca's shape; pyca's own
        serialization enums are taken too)."""
    def fingerprint(self) -> str:
        """'SHA256:' and 64 hex digits: SHA-256 of the SubjectPublicKeyInfo DER
        (a draft SP 800-230 key: of its set's name, a zero byte and the raw
        key), as `sphincs fingerprint` prints it."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class SpxPrivateKey:
    """A SPHINCS+ round-3.1 private key (raw bytes; no context, no pre-hash)."""

    @staticmethod
    def generate(algorithm: SpxAlgorithmArg, *, threads: int | None = None) -> SpxPrivateKey: ...
    @staticmethod
    def from_private_bytes(algorithm: SpxAlgorithmArg, data: Buffer) -> SpxPrivateKey: ...
    @staticmethod
    def from_seed(algorithm: SpxAlgorithmArg, seed: Buffer, *, threads: int | None = None) -> SpxPrivateKey:
        """crypto_sign_seed_keypair on the 3n bytes SK.seed || SK.prf || PK.seed."""
    @property
    def algorithm(self) -> SpxAlgorithm: ...
    def sign(
        self,
        data: Buffer,
        *,
        deterministic: bool = False,
        threads: int | None = None,
        randomness: Buffer | None = None,
        fault_hardened: bool = False,
    ) -> bytes: ...
    def sign_file(
        self,
        file: FileArg,
        *,
        deterministic: bool = False,
        threads: int | None = None,
        randomness: Buffer | None = None,
        fault_hardened: bool = False,
    ) -> bytes: ...
    def sign_many(
        self,
        messages: Iterable[Buffer],
        *,
        deterministic: bool = False,
        threads: int | None = None,
        fault_hardened: bool = False,
    ) -> list[bytes]: ...
    def public_key(self) -> SpxPublicKey: ...
    def private_bytes_raw(self) -> bytes: ...

class SpxPublicKey:
    """A SPHINCS+ round-3.1 public key."""

    @staticmethod
    def from_public_bytes(algorithm: SpxAlgorithmArg, data: Buffer) -> SpxPublicKey: ...
    @property
    def algorithm(self) -> SpxAlgorithm: ...
    def verify(self, signature: Buffer, data: Buffer) -> None: ...
    def verify_file(self, signature: Buffer, file: FileArg) -> None: ...
    def public_bytes_raw(self) -> bytes: ...
    def fingerprint(self) -> str:
        """'SHA256:' and 64 hex digits: SHA-256 of the raw public key."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Sphincs256PrivateKey:
    """A SPHINCS-256 (2015) private key: the SUPERCOP reference's 1088 bytes
    SK1 || Q || SK2. Deterministic signing; releases the GIL."""

    algorithm: ClassVar[str]
    public_key_size: ClassVar[int]
    private_key_size: ClassVar[int]
    signature_size: ClassVar[int]
    @staticmethod
    def generate() -> Sphincs256PrivateKey: ...
    @staticmethod
    def from_private_bytes(data: Buffer) -> Sphincs256PrivateKey:
        """Any 1088 bytes are a key; ValueError for another length."""
    def sign(self, data: Buffer, *, threads: int | None = None) -> bytes:
        """The 41000-byte detached signature (the same for any thread count)."""
    def sign_attached(self, data: Buffer, *, threads: int | None = None) -> bytes:
        """SUPERCOP crypto_sign: signature || data."""
    def sign_many(self, messages: Iterable[Buffer], *, threads: int | None = None) -> list[bytes]:
        """Signs every message in one call on `threads` threads (default: every core)."""
    def public_key(self) -> Sphincs256PublicKey: ...
    def private_bytes_raw(self) -> bytes: ...

class Sphincs256PublicKey:
    """A SPHINCS-256 public key: Q || root, 1056 bytes. Verification releases the GIL."""

    algorithm: ClassVar[str]
    public_key_size: ClassVar[int]
    private_key_size: ClassVar[int]
    signature_size: ClassVar[int]
    @staticmethod
    def from_public_bytes(data: Buffer) -> Sphincs256PublicKey: ...
    def verify(self, signature: Buffer, data: Buffer) -> None:
        """Returns None if valid; raises InvalidSignature if not (wrong length included)."""
    def open(self, signed: Buffer) -> bytes:
        """SUPERCOP crypto_sign_open: the message of signature || message, or InvalidSignature."""
    def public_bytes_raw(self) -> bytes: ...
    def fingerprint(self) -> str:
        """'SHA256:' and 64 hex digits: SHA-256 of the raw public key."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

AnyPublicKey: TypeAlias = SLHDSAPublicKey | SpxPublicKey | Sphincs256PublicKey
VerifyItem: TypeAlias = tuple[AnyPublicKey, Buffer, Buffer] | tuple[AnyPublicKey, Buffer, Buffer, Buffer | None] | tuple[AnyPublicKey, Buffer, Buffer, Buffer | None, str | None]

def verify_many(items: Iterable[VerifyItem], *, threads: int | None = None) -> list[bool]:
    """(public_key, signature, data, context[, prehash]) tuples of any family -> True/False each.
    A context or pre-hash on a key whose family lacks it raises ValueError."""

# The loaders keep the mode of the key's OID (pure or HashSLH-DSA).
# An encrypted key (ENCRYPTED PRIVATE KEY) needs password=; TypeError without
# one (or with one for a plain key), ValueError for a wrong one.
# backend and unsafe_skip_rsa_key_validation: pyca/cryptography's parameters, accepted and not used.
def load_pem_private_key(
    data: Buffer, password: Buffer | None = None, backend: object = None, *, unsafe_skip_rsa_key_validation: bool = False
) -> SLHDSAPrivateKey: ...
def load_der_private_key(
    data: Buffer, password: Buffer | None = None, backend: object = None, *, unsafe_skip_rsa_key_validation: bool = False
) -> SLHDSAPrivateKey: ...
def load_pem_public_key(data: Buffer, backend: object = None) -> SLHDSAPublicKey: ...
def load_der_public_key(data: Buffer, backend: object = None) -> SLHDSAPublicKey: ...

# Certificates (RFC 9909) and CMS SignedData (RFC 9814); bytes in, bytes out.
def self_signed_certificate(
    key: SLHDSAPrivateKey,
    subject: str,
    days: int = 365,
    *,
    ca: bool = False,
    pem: bool = True,
    san: Sequence[str] | None = None,
    eku: Sequence[str] | None = None,
    key_usage: Sequence[str] | None = None,
    serial: str | None = None,
    not_before: str | None = None,
    not_after: str | None = None,
    path_len: int | None = None,
) -> bytes:
    """A self-signed certificate, valid from now (or not_before) for `days` days (PEM, or DER with pem=False).

    san: "dns:NAME" / "email:ADDR" / "uri:URI"; eku: codeSigning, emailProtection, serverAuth,
    clientAuth, timeStamping; key_usage: digitalSignature, nonRepudiation, keyCertSign, cRLSign;
    serial: hex; not_before / not_after: RFC 3339. ValueError for bad values."""
def certificate_signing_request(
    key: SLHDSAPrivateKey,
    subject: str,
    *,
    ca: bool = False,
    pem: bool = True,
    san: Sequence[str] | None = None,
    eku: Sequence[str] | None = None,
    key_usage: Sequence[str] | None = None,
) -> bytes:
    """A PKCS#10 request for `key` (signed by it), asking for the extensions given (PEM, or DER with pem=False)."""
def issue_certificate(
    ca_key: SLHDSAPrivateKey,
    ca_cert: Buffer,
    csr: Buffer,
    days: int = 365,
    *,
    ca: bool = False,
    pem: bool = True,
    san: Sequence[str] | None = None,
    eku: Sequence[str] | None = None,
    key_usage: Sequence[str] | None = None,
    serial: str | None = None,
    not_before: str | None = None,
    not_after: str | None = None,
    path_len: int | None = None,
    copy_extensions: bool = False,
) -> bytes:
    """A certificate for the request's key and subject, issued by the CA (`ca_key`, `ca_cert`).

    The request's signature is checked (InvalidSignature if it fails); the CA key must be the
    certificate's. Extensions are those given; copy_extensions=True adds those the request asks
    for (a CA request needs ca=True). Options as self_signed_certificate. ValueError for bad values."""
def verify_certificate(certificate: Buffer, issuer: Buffer | None = None) -> str:
    """Checks the certificate now (against `issuer`, or itself); returns its subject."""
def load_certificate_public_key(data: Buffer) -> SLHDSAPublicKey:
    """The subject public key of a certificate (PEM or DER), in the mode its OID names.

    As pyca's x509.load_pem_x509_certificate(data).public_key(); the certificate is not checked
    (see verify_certificate). ValueError for input that is not a certificate with an SLH-DSA key."""
def cms_sign(
    key: SLHDSAPrivateKey,
    certificate: Buffer,
    data: Buffer,
    *,
    detached: bool = True,
    digest: str | None = None,
    pem: bool = False,
) -> bytes:
    """A CMS SignedData of `data`, detached by default (DER, or PEM with pem=True)."""
def openpgp_generate_key(
    profile: str = "slh-dsa-shake-128s",
    user_ids: list[str] = ...,
    *,
    passphrase: Buffer | None = None,
) -> str:
    """A new OpenPGP v6 secret key, armored: an SLH-DSA primary key (RFC 9980; profile
    slh-dsa-shake-128s, -128f or -256s) that certifies and signs, with the User IDs given;
    protected with Argon2id and AES-256-OCB when a passphrase is given."""
def openpgp_extract_cert(key: Buffer | str) -> str:
    """The certificate (public key) of an OpenPGP key, armored."""
def openpgp_sign(
    key: Buffer | str,
    data: Buffer,
    *,
    passphrase: Buffer | None = None,
    text: bool = False,
    threads: int | None = None,
) -> str:
    """A detached OpenPGP signature of data (binary, or canonical text with text=True), armored."""
def openpgp_verify(certs: Buffer | str, signature: Buffer | str, data: Buffer) -> dict[str, object]:
    """Checks a detached OpenPGP signature with one or more certificates; the good signature's
    fingerprint, primary_fingerprint, created, mode and user_id, or InvalidSignature."""
def openpgp_clearsign(
    key: Buffer | str, text: Buffer, *, passphrase: Buffer | None = None, threads: int | None = None
) -> bytes:
    """A cleartext-signed message (RFC 9580 section 7) of UTF-8 text."""
def openpgp_verify_cleartext(certs: Buffer | str, signed: Buffer | str) -> tuple[bytes, dict[str, object]]:
    """Checks a cleartext-signed message: its text and the good signature, or InvalidSignature."""
def cms_verify(
    signed: Buffer,
    data: Buffer | None = None,
    *,
    certificate: Buffer | None = None,
    ca: Buffer | None = None,
    signature_only: bool = False,
) -> bytes:
    """Verifies every SignerInfo; returns the content. `data` for a detached SignedData.
    Trust is never implied: `ca` (anchors to chain to), `certificate` (the signer pinned)
    or `signature_only=True`; ValueError without one."""
