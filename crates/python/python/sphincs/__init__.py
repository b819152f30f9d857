"""SLH-DSA (FIPS 205), SPHINCS+ round-3.1 and SPHINCS-256 signatures.

A thin binding of the Rust ``sphincs`` library, shaped like pyca/cryptography's
key classes::

    import sphincs

    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    sig = key.sign(b"release.tar.gz", b"my context")
    key.public_key().verify(sig, b"release.tar.gz", b"my context")

Every sign and verify call releases the GIL. Errors: ``ValueError`` or
``TypeError`` for bad arguments, :class:`InvalidSignature` for a signature
that does not verify.
"""

import copyreg as _copyreg
import enum as _enum

from . import _native

try:  # pyca/cryptography is optional; with it, its handlers catch ours too.
    from cryptography.exceptions import InvalidSignature as _PycaInvalidSignature
except ImportError:  # pragma: no cover - depends on the environment
    _PycaInvalidSignature = None

if _PycaInvalidSignature is None:

    class InvalidSignature(_native.InvalidSignature):
        """The signature does not verify (wrong key, message, context or
        pre-hash, or a corrupted or wrong-length signature)."""

else:

    class InvalidSignature(_native.InvalidSignature, _PycaInvalidSignature):
        """The signature does not verify (wrong key, message, context or
        pre-hash, or a corrupted or wrong-length signature). Also a
        ``cryptography.exceptions.InvalidSignature``, so code written for
        pyca/cryptography's keys catches it unchanged."""

from ._formats import (
    BestAvailableEncryption,
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from ._native import (
    SLHDSAPrivateKey,
    SLHDSAPublicKey,
    Sphincs256PrivateKey,
    Sphincs256PublicKey,
    SpxPrivateKey,
    SpxPublicKey,
    certificate_signing_request,
    cms_sign,
    cms_verify,
    issue_certificate,
    load_certificate_public_key,
    load_der_private_key,
    load_der_public_key,
    load_pem_private_key,
    load_pem_public_key,
    openpgp_clearsign,
    openpgp_extract_cert,
    openpgp_generate_key,
    openpgp_sign,
    openpgp_verify,
    openpgp_verify_cleartext,
    self_signed_certificate,
    verify_certificate,
    verify_many,
)

__all__ = [
    "PREHASHES",
    "Algorithm",
    "BestAvailableEncryption",
    "Encoding",
    "InvalidSignature",
    "NoEncryption",
    "PrivateFormat",
    "PublicFormat",
    "SLHDSAPrivateKey",
    "SLHDSAPublicKey",
    "Sphincs256PrivateKey",
    "Sphincs256PublicKey",
    "SpxAlgorithm",
    "SpxPrivateKey",
    "SpxPublicKey",
    "certificate_signing_request",
    "cms_sign",
    "cms_verify",
    "issue_certificate",
    "load_certificate_public_key",
    "load_der_private_key",
    "load_der_public_key",
    "load_pem_private_key",
    "load_pem_public_key",
    "openpgp_clearsign",
    "openpgp_extract_cert",
    "openpgp_generate_key",
    "openpgp_sign",
    "openpgp_verify",
    "openpgp_verify_cleartext",
    "self_signed_certificate",
    "verify_certificate",
    "verify_many",
]


class _Sizes(str, _enum.Enum):
    """A parameter set: a ``str`` (its name) with its sizes from the library."""

    @property
    def public_key_size(self) -> int:
        """Raw public key bytes (2n)."""
        return _INFO[self.value][0]

    @property
    def private_key_size(self) -> int:
        """Raw private key bytes (4n)."""
        return _INFO[self.value][1]

    @property
    def signature_size(self) -> int:
        """Signature bytes."""
        return _INFO[self.value][2]

    @property
    def n(self) -> int:
        """The security parameter n in bytes."""
        return _INFO[self.value][4]

    @property
    def security_category(self) -> int:
        """NIST security category (1, 3 or 5)."""
        return _INFO[self.value][5]

    @property
    def max_signatures(self) -> "int | None":  # a string: Python 3.9 has no `X | Y`
        """How many signatures one key may make: ``2**24`` for the draft SP
        800-230 (ipd) limited-signature sets, ``None`` (no practical limit)
        for every other set. The library does not count them."""
        return _INFO[self.value][6]

    @property
    def is_limited(self) -> bool:
        """Whether this is a draft SP 800-230 (ipd) limited-signature set: its
        key generation builds one tree of 2^21-2^22 leaves (a minute or more),
        and a key must never make more than ``max_signatures`` signatures."""
        return self.max_signatures is not None

    def __str__(self) -> str:
        return self.value

    @classmethod
    def _missing_(cls, value: object):  # any case, with or without the prefix
        if isinstance(value, str):
            want = value.strip().lower()
            for member in cls:
                if want in (member.value.lower(), member._short().lower()):
                    return member
        return None


_INFO = {
    name: (pk, sk, sig, oid, n, cat, limit)
    for (name, pk, sk, sig, oid, n, cat, limit) in _native.algorithms() + _native.spx_algorithms()
}


def _member_name(name: str) -> str:
    for prefix in ("SLH-DSA-", "sphincs-"):
        name = name.removeprefix(prefix)
    return name.upper().replace("-", "_")


class _SlhDsa(_Sizes):
    @property
    def oid(self) -> str:
        """The RFC 9909 OID, dotted."""
        return _INFO[self.value][3]

    def _short(self) -> str:
        return self.value[len("SLH-DSA-"):]


class _Spx(_Sizes):
    @property
    def is_robust(self) -> bool:
        """Whether this is a "robust" (bitmasked) set."""
        return self.value.endswith("-robust")

    def _short(self) -> str:
        return self.value[len("sphincs-"):]


#: The SLH-DSA parameter sets: the twelve of FIPS 205 (``Algorithm.SHAKE_128F``
#: is ``"SLH-DSA-SHAKE-128f"``), then the six limited-signature sets of draft
#: SP 800-230 (ipd), such as ``Algorithm.SHA2_128_24`` (``is_limited``: at most
#: 2^24 signatures per key). ``Algorithm("shake-128f")`` looks one up by name.
Algorithm = _SlhDsa(
    "Algorithm",
    [(_member_name(a[0]), a[0]) for a in _native.algorithms()],
    module=__name__,
)

#: The 36 SPHINCS+ round-3.1 sets: ``SpxAlgorithm.SHAKE_128F_SIMPLE`` is
#: ``"sphincs-shake-128f-simple"``.
SpxAlgorithm = _Spx(
    "SpxAlgorithm",
    [(_member_name(a[0]), a[0]) for a in _native.spx_algorithms()],
    module=__name__,
)

#: The HashSLH-DSA pre-hash names that ``prehash=`` takes (FIPS 205 §10.2.2).
PREHASHES: tuple = tuple(_native.prehashes())


# Pickling (Dask, multiprocessing, copy.deepcopy): a key pickles as its
# parameter set, raw bytes and mode, and is rebuilt through the public
# loaders (a private key's PK.root is checked again). A draft SP 800-230 key
# pickles its tree cache too (public nodes, under 1 MiB), so that unpickling
# checks it in milliseconds instead of rebuilding the tree for a minute. A
# pickled private key holds the secret key in clear: it is as sensitive as
# its PEM.
def _unpickle_key(kind: str, algorithm: str, raw: bytes, mode: str, tree_cache=None):
    if kind == "SLHDSAPrivateKey":
        key = SLHDSAPrivateKey.from_private_bytes(algorithm, raw, tree_cache=tree_cache)
        return key.with_mode(mode)
    if kind == "SLHDSAPublicKey":
        return SLHDSAPublicKey.from_public_bytes(algorithm, raw).with_mode(mode)
    if kind == "SpxPrivateKey":
        return SpxPrivateKey.from_private_bytes(algorithm, raw)
    if kind == "SpxPublicKey":
        return SpxPublicKey.from_public_bytes(algorithm, raw)
    if kind == "Sphincs256PrivateKey":
        return Sphincs256PrivateKey.from_private_bytes(raw)
    if kind == "Sphincs256PublicKey":
        return Sphincs256PublicKey.from_public_bytes(raw)
    raise ValueError(f"not a pickled sphincs key: {kind!r}")


def _reducer(kind: str, raw_of, mode_of):
    def reduce(key):
        args = (kind, str(key.algorithm), raw_of(key), mode_of(key))
        cache = key.tree_cache() if kind == "SLHDSAPrivateKey" else None
        # Only a key that has a cache adds it, so every other pickle stays
        # as it was (and loads in an older version of the package).
        return (_unpickle_key, args if cache is None else (*args, cache))

    return reduce


for _cls, _raw, _mode in (
    (SLHDSAPrivateKey, "private_bytes_raw", True),
    (SLHDSAPublicKey, "public_bytes_raw", True),
    (SpxPrivateKey, "private_bytes_raw", False),
    (SpxPublicKey, "public_bytes_raw", False),
    (Sphincs256PrivateKey, "private_bytes_raw", False),
    (Sphincs256PublicKey, "public_bytes_raw", False),
):
    _copyreg.pickle(
        _cls,
        _reducer(
            _cls.__name__,
            getattr(_cls, _raw),
            (lambda k: k.mode) if _mode else (lambda k: ""),
        ),
    )
del _cls, _raw, _mode

from importlib.metadata import PackageNotFoundError as _NotInstalled
from importlib.metadata import version as _version

try:
    __version__ = _version("sphincs")
except _NotInstalled:  # not installed as a distribution (e.g. a source checkout)
    __version__ = "unknown"
