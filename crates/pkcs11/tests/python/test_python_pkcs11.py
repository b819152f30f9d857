"""libsphincs_pkcs11.so through python-pkcs11, a PKCS#11 client the
project did not write, with every signature checked by the SLH-DSA package
from PyPI (an independent FIPS 205 implementation), not by the module or
the project's own binding.

python-pkcs11 0.10.1 has no C_InitToken and no SLH-DSA names: the token is
initialised through the module's function list with ctypes, and the
SLH-DSA mechanism and key type numbers are wrapped as members of its enums
(it refuses plain integers).
"""

import ctypes
import hashlib
import os

import pkcs11
import pytest
import slhdsa
from pkcs11 import Attribute, KeyType, Mechanism, MechanismFlag, ObjectClass

MODULE = os.environ["SPHINCS_PKCS11_MODULE"]
SO_PIN = "so-pin-1234"
USER_PIN = "user-pin-5678"
LABEL = "python-pkcs11 test"

# PKCS#11 3.2 numbers python-pkcs11 0.10.1 does not name.
CKM_SLH_DSA_KEY_PAIR_GEN = 0x2D
CKM_SLH_DSA = 0x2E
CKM_HASH_SLH_DSA_SHA256 = 0x37
CKK_SLH_DSA = 0x4B
CKP_SLH_DSA_SHA2_128F = 0x03
CKP_SLH_DSA_SHAKE_128F = 0x04


def member(enum, value, name):
    """A member of `enum` for a value it lacks (python-pkcs11 checks
    isinstance and converts what it reads back with `enum(value)`)."""
    m = int.__new__(enum, value)
    m._name_ = name
    m._value_ = value
    # So that `enum(value)`, as python-pkcs11 reads CKA_KEY_TYPE, finds it.
    enum._value2member_map_[value] = m
    return m


SLH_DSA_KEY_PAIR_GEN = member(
    Mechanism, CKM_SLH_DSA_KEY_PAIR_GEN, "SLH_DSA_KEY_PAIR_GEN"
)
SLH_DSA = member(Mechanism, CKM_SLH_DSA, "SLH_DSA")
HASH_SLH_DSA_SHA256 = member(Mechanism, CKM_HASH_SLH_DSA_SHA256, "HASH_SLH_DSA_SHA256")
SLH_DSA_KEY = member(KeyType, CKK_SLH_DSA, "SLH_DSA")


def init_token(path, token_dir):
    """C_Initialize, C_InitToken(slot 1, SO PIN, label), C_Finalize through
    the 2.40 function list (C_InitToken is its tenth function)."""
    lib = ctypes.CDLL(path)
    ulong = ctypes.c_ulong

    class FunctionList(ctypes.Structure):
        _fields_ = [("version", ctypes.c_ubyte * 2)] + [
            (f"f{i}", ctypes.c_void_p) for i in range(10)
        ]

    fl = ctypes.POINTER(FunctionList)()
    assert lib.C_GetFunctionList(ctypes.byref(fl)) == 0
    c_initialize = ctypes.CFUNCTYPE(ulong, ctypes.c_void_p)(fl.contents.f0)
    c_finalize = ctypes.CFUNCTYPE(ulong, ctypes.c_void_p)(fl.contents.f1)
    c_init_token = ctypes.CFUNCTYPE(
        ulong, ulong, ctypes.c_char_p, ulong, ctypes.c_char_p
    )(fl.contents.f9)
    os.environ["SPHINCS_PKCS11_DIR"] = str(token_dir)
    assert c_initialize(None) == 0
    pin = SO_PIN.encode()
    label = LABEL.encode().ljust(32, b" ")
    rv = c_init_token(1, pin, len(pin), label)
    assert c_finalize(None) == 0
    assert rv == 0, hex(rv)


@pytest.fixture(scope="module")
def token(tmp_path_factory):
    token_dir = tmp_path_factory.mktemp("token")
    init_token(MODULE, token_dir)
    lib = pkcs11.lib(MODULE)
    tok = lib.get_token(token_label=LABEL)
    with tok.open(rw=True, so_pin=SO_PIN) as so:
        so.init_pin(USER_PIN)
    yield tok
    lib.reinitialize()


def test_wrong_pin(token):
    """Before any session logs in (the login is the application's, shared
    by its sessions): a wrong user PIN is CKR_PIN_INCORRECT."""
    with pytest.raises(pkcs11.exceptions.PinIncorrect):
        token.open(user_pin="not the pin")
    # The right PIN still works (one wrong try, not locked).
    with token.open(user_pin=USER_PIN):
        pass


@pytest.fixture(scope="module")
def session(token):
    with token.open(rw=True, user_pin=USER_PIN) as s:
        yield s


def key_pair(session, parameter_set, label):
    return session.generate_keypair(
        SLH_DSA_KEY,
        mechanism=SLH_DSA_KEY_PAIR_GEN,
        label=label,
        store=True,
        capabilities=MechanismFlag.SIGN | MechanismFlag.VERIFY,
        public_template={Attribute.PARAMETER_SET: parameter_set},
    )


def independent_key(public, par):
    """The public key as the SLH-DSA package loads it, from CKA_VALUE."""
    raw = public[Attribute.VALUE]
    assert len(raw) == 2 * par.n
    return slhdsa.PublicKey.from_digest(raw, par)


MESSAGE = bytes((i * 7 + 3) % 256 for i in range(3000))


def pieces(data, size):
    return (data[i : i + size] for i in range(0, len(data), size))


@pytest.mark.parametrize(
    ("parameter_set", "par"),
    [
        (CKP_SLH_DSA_SHA2_128F, slhdsa.sha2_128f),
        (CKP_SLH_DSA_SHAKE_128F, slhdsa.shake_128f),
    ],
    ids=["SHA2-128f", "SHAKE-128f"],
)
def test_generate_sign_and_verify_independently(session, parameter_set, par):
    public, private = key_pair(session, parameter_set, f"key {parameter_set}")
    assert public[Attribute.KEY_TYPE] == CKK_SLH_DSA
    assert public[Attribute.PARAMETER_SET] == parameter_set
    assert private[Attribute.PARAMETER_SET] == parameter_set
    assert private[Attribute.SENSITIVE]
    pk = independent_key(public, par)

    # Pure SLH-DSA (no parameter: hedged, empty context), one part and
    # several (C_SignUpdate / C_SignFinal).
    for sig in [
        private.sign(MESSAGE, mechanism=SLH_DSA),
        private.sign(pieces(MESSAGE, 1000), mechanism=SLH_DSA),
    ]:
        assert len(sig) == 17088  # SLH-DSA-*-128f
        assert pk.verify_pure(MESSAGE, sig)
        assert not pk.verify_pure(MESSAGE + b"!", sig)
        assert not pk.verify_hash(MESSAGE, sig)
        assert public.verify(MESSAGE, sig, mechanism=SLH_DSA)
        assert not public.verify(MESSAGE[1:], sig, mechanism=SLH_DSA)

    # HashSLH-DSA with SHA-256 hashed on the token, one part and several,
    # checked with the pre-hash given explicitly (the package's default
    # for SHAKE-128f is SHAKE128).
    for sig in [
        private.sign(MESSAGE, mechanism=HASH_SLH_DSA_SHA256),
        private.sign(pieces(MESSAGE, 700), mechanism=HASH_SLH_DSA_SHA256),
    ]:
        assert pk.verify_hash(MESSAGE, sig, prehash=sha256_with_oid)
        assert not pk.verify_pure(MESSAGE, sig)
        assert not pk.verify_hash(MESSAGE + b"!", sig, prehash=sha256_with_oid)
        assert public.verify(MESSAGE, sig, mechanism=HASH_SLH_DSA_SHA256)
        assert public.verify(pieces(MESSAGE, 333), sig, mechanism=HASH_SLH_DSA_SHA256)
        assert not public.verify(
            pieces(MESSAGE[:-1], 333), sig, mechanism=HASH_SLH_DSA_SHA256
        )


def sha256_with_oid(data):
    """PH(M) for HashSLH-DSA with SHA-256: the DER of its OID
    2.16.840.1.101.3.4.2.1, then the digest (FIPS 205 §10.2.2)."""
    return bytes.fromhex("0609608648016503040201") + hashlib.sha256(data).digest()


def test_objects_are_found(session):
    key_pair(session, CKP_SLH_DSA_SHA2_128F, "found")
    keys = list(session.get_objects({Attribute.LABEL: "found"}))
    classes = sorted(k[Attribute.CLASS] for k in keys)
    assert classes == [ObjectClass.PUBLIC_KEY, ObjectClass.PRIVATE_KEY]


def test_pure_verification_in_parts_is_refused(session):
    """C_VerifyUpdate with CKM_SLH_DSA: the spec has pure SLH-DSA verify in
    one part (or through C_VerifySignature*, which python-pkcs11 lacks); the
    module ends the operation with CKR_OPERATION_NOT_INITIALIZED."""
    public, private = key_pair(session, CKP_SLH_DSA_SHA2_128F, "parts")
    sig = private.sign(MESSAGE, mechanism=SLH_DSA)
    with pytest.raises(pkcs11.exceptions.OperationNotInitialized):
        public.verify(pieces(MESSAGE, 1000), sig, mechanism=SLH_DSA)
