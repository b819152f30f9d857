"""Everyday use: keys pickle, any buffer is bytes-like, OSError carries errno
and filename, fingerprints match the CLI's, round-3.1 names in the wrong
class say which class takes them, and `dir(sphincs)` shows no stray names."""

import array
import copy
import errno
import hashlib
import mmap
import os
import pathlib
import pickle

import numpy
import pytest
import sphincs


def _keys():
    slh = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    hashed = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f", prehash="SHA2-256")
    pure = sphincs.load_pem_private_key(slh.private_bytes_pem())
    spx = sphincs.SpxPrivateKey.generate("sphincs-shake-128f-simple")
    s256 = sphincs.Sphincs256PrivateKey.from_private_bytes(bytes(range(256)) * 4 + bytes(64))
    return [slh, hashed, pure, spx, s256]


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_keys_pickle(protocol):
    for key in _keys():
        back = pickle.loads(pickle.dumps(key, protocol=protocol))
        assert type(back) is type(key)
        assert back.private_bytes_raw() == key.private_bytes_raw()
        assert getattr(back, "mode", None) == getattr(key, "mode", None)
        pub = key.public_key()
        pub_back = pickle.loads(pickle.dumps(pub, protocol=protocol))
        assert pub_back == pub
        assert getattr(pub_back, "mode", None) == getattr(pub, "mode", None)
        # The copy signs, and its signature verifies under the original.
        pub.verify(back.sign(b"shipped"), b"shipped")
        assert copy.deepcopy(key).private_bytes_raw() == key.private_bytes_raw()


def test_any_buffer_is_bytes_like(tmp_path):
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    pub = key.public_key()
    data = b"0123456789abcdef" * 4
    sig = key.sign(array.array("B", data), deterministic=True)
    assert sig == key.sign(data, deterministic=True)
    wide = array.array("H", range(32))
    pub.verify(key.sign(wide), wide.tobytes())
    pub.verify(array.array("B", sig), memoryview(data))
    assert key.sign(numpy.frombuffer(data, dtype=numpy.uint8), deterministic=True) == sig
    path = tmp_path / "m"
    path.write_bytes(data)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        pub.verify(sig, m)
    with pytest.raises(TypeError, match="buffer protocol"):
        key.sign("text")
    with pytest.raises(TypeError, match="buffer protocol"):
        key.sign([1, 2, 3])


def test_oserror_has_errno_and_filename(tmp_path):
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    missing = tmp_path / "nope.txt"
    with pytest.raises(FileNotFoundError) as e:
        key.sign_file(missing)
    assert e.value.errno == errno.ENOENT
    assert e.value.filename == missing  # the object given, as open() keeps it
    assert e.value.strerror == "No such file or directory"
    with pytest.raises(FileNotFoundError) as e:
        key.public_key().verify_file(b"x", str(missing))
    assert e.value.filename == str(missing)
    # A directory opens on Linux and fails at the first read: that error
    # names the path too, for signing and verifying alike.
    with pytest.raises(IsADirectoryError) as e:
        key.sign_file(tmp_path)
    assert e.value.errno == errno.EISDIR
    assert e.value.filename == tmp_path
    sig = key.sign(b"")
    with pytest.raises(IsADirectoryError) as e:
        key.public_key().verify_file(sig, str(tmp_path))
    assert e.value.filename == str(tmp_path)
    with pytest.raises(IsADirectoryError) as e:
        sphincs.SpxPrivateKey.generate("sphincs-shake-128f-simple").sign_file(os.fsencode(tmp_path))
    assert e.value.filename == os.fsencode(tmp_path)
    # A bytes path is a path, as open() takes it.
    data = tmp_path / "m"
    data.write_bytes(b"named by bytes")
    want = key.sign(b"named by bytes", deterministic=True)
    assert key.sign_file(os.fsencode(data), deterministic=True) == want


@pytest.mark.skipif(not pathlib.Path("/proc/self/io").exists(), reason="needs Linux's /proc/self/io")
def test_a_file_that_changes_while_signed_is_named(tmp_path):
    # /proc/self/io counts the bytes this process has read, so the second
    # of signing's two reads of it differs from the first: the core's
    # "message changed" OSError, which must name the file as any other.
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    proc = pathlib.Path("/proc/self/io")
    with pytest.raises(OSError, match="message changed while it was being signed") as e:
        key.sign_file(proc)
    assert e.value.filename == proc
    assert "/proc/self/io" in str(e.value)


def test_fingerprints():
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    pub = key.public_key()
    want = "SHA256:" + hashlib.sha256(pub.public_bytes_der()).hexdigest()
    assert pub.fingerprint() == want
    assert sphincs.load_pem_public_key(pub.public_bytes_pem()).fingerprint() == want
    spx = sphincs.SpxPrivateKey.generate("sphincs-haraka-128f-robust").public_key()
    assert spx.fingerprint() == "SHA256:" + hashlib.sha256(spx.public_bytes_raw()).hexdigest()
    s256 = sphincs.Sphincs256PrivateKey.generate().public_key()
    assert s256.fingerprint() == "SHA256:" + hashlib.sha256(s256.public_bytes_raw()).hexdigest()


def test_round_three_names_say_which_class():
    with pytest.raises(ValueError) as e:
        sphincs.SLHDSAPrivateKey.generate("sphincs-shake-128f-simple")
    text = str(e.value)
    assert "is a SPHINCS+ round-3.1 set, but this call takes FIPS 205" in text
    assert "sphincs.SpxPrivateKey" in text
    assert "unknown algorithm" not in text
    with pytest.raises(ValueError, match="Sphincs256PrivateKey"):
        sphincs.SLHDSAPublicKey.from_public_bytes("sphincs-256", bytes(32))
    with pytest.raises(ValueError, match="sphincs.SLHDSAPrivateKey"):
        sphincs.SpxPrivateKey.generate("SLH-DSA-SHAKE-128f")


def test_no_stray_names():
    assert "annotations" not in dir(sphincs)
    public = [n for n in dir(sphincs) if not n.startswith("_")]
    assert set(public) <= set(sphincs.__all__) | {"PREHASHES"}, set(public) - set(sphincs.__all__)


def test_messages_name_no_rust_items():
    # The core's texts reach Python as they are: they must not name Rust
    # paths or types (sphincsplus::SpxSigningKey, KeyMode::hash_slh_dsa).
    pure = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f").with_mode("pure")
    hashed = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-128f", prehash="SHA2-256")
    calls = (
        lambda: sphincs.SLHDSAPrivateKey.generate("sphincs-shake-128f-simple"),
        lambda: sphincs.SLHDSAPublicKey.from_public_bytes("sphincs-256", bytes(32)),
        lambda: sphincs.SpxPrivateKey.generate("SLH-DSA-SHAKE-128f"),
        lambda: pure.sign(b"m", prehash="SHA2-256"),
        lambda: hashed.sign(b"m", prehash="SHA2-512"),
    )
    for call in calls:
        with pytest.raises(ValueError) as e:
            call()
        text = str(e.value)
        assert "::" not in text and "KeyMode" not in text and "SigningKey" not in text, text
