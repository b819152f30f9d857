"""Robustness of the Python API: a message that changes between the two
passes of signing is refused, read() results other than bytes are named,
and Ctrl-C stops sign_many / verify_many promptly."""

from __future__ import annotations

import io
import os
import signal
import threading
import time

import pytest
import sphincs

ALG = "SLH-DSA-SHAKE-128f"
SPX = "sphincs-shake-128f-simple"
SEEDS = (bytes(range(16)), bytes(range(16, 32)), bytes(range(32, 48)))


@pytest.fixture(scope="module")
def key():
    return sphincs.SLHDSAPrivateKey.from_seeds(ALG, *SEEDS)


class _Seekable(io.RawIOBase):
    """A seekable stream over bytes held in memory, for the variations below."""

    def __init__(self, data: bytes):
        self._buf = io.BytesIO(data)

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self._buf.tell()

    def seek(self, pos, whence=0):
        return self._buf.seek(pos, whence)

    def read(self, n=-1):
        return self._buf.read(n)


class _Shifting(_Seekable):
    """A seekable stream whose bytes change after the first pass, as a file
    edited while it is signed."""

    def __init__(self, first: bytes, then: bytes):
        super().__init__(first)
        self._then = then

    def seek(self, pos, whence=0):
        self._buf = io.BytesIO(self._then)
        return super().seek(pos, whence)


@pytest.mark.parametrize("then", [b"B" * 100_000, b"A" * 100_001])
def test_a_message_changed_between_passes_is_refused(key, then):
    first = b"A" * 100_000
    with pytest.raises(OSError, match="message changed while it was being signed"):
        key.sign_file(_Shifting(first, then), deterministic=True)
    spx = sphincs.SpxPrivateKey.from_seed(SPX, bytes(range(48)))
    with pytest.raises(OSError, match="message changed"):
        spx.sign_file(_Shifting(first, then), deterministic=True)
    # Unchanged, the same stream class signs as sign() does.
    assert key.sign_file(_Shifting(first, first), deterministic=True) == key.sign(
        first, deterministic=True
    )


def test_a_file_rewritten_between_passes_is_refused(key, tmp_path):
    # A real file, changed from inside the first pass's read of a stream
    # wrapping it (the race a concurrent writer would win).
    path = tmp_path / "doc"
    path.write_bytes(b"x" * 200_000)

    class Racing(io.FileIO):
        changed = False

        def read(self, n=-1):
            data = super().read(n)
            if not Racing.changed and not data:
                Racing.changed = True
                path.write_bytes(b"y" * 200_000)
            return data

    with Racing(path, "rb") as f, pytest.raises(OSError, match="message changed"):
        key.sign_file(f, deterministic=True)


class _Returns(io.RawIOBase):
    def __init__(self, value):
        self._value = value

    def readable(self):
        return True

    def read(self, n=-1):
        return self._value


def test_read_results_are_named(key):
    with pytest.raises(TypeError, match="returned None"):
        key.sign_file(_Returns(None), prehash="SHA2-256")
    with pytest.raises(TypeError, match="returned int"):
        key.sign_file(_Returns(5), prehash="SHA2-256")
    with pytest.raises(TypeError, match="returned text"):
        key.sign_file(_Returns("text"), prehash="SHA2-256")

    class View(_Seekable):
        def read(self, n=-1):
            return memoryview(super().read(n))

    data = os.urandom(150_000)
    assert key.sign_file(View(data), deterministic=True) == key.sign(data, deterministic=True)


def _assert_ctrl_c_stops(call):
    """Sends SIGINT 0.3 s into `call()` and asserts KeyboardInterrupt came
    out of it within 1.3 s of its start."""
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        took = time.monotonic() - start
    finally:
        timer.cancel()
    assert took < 1.3, f"KeyboardInterrupt after {took:.2f} s"


def test_ctrl_c_stops_sign_many_within_a_second(key):
    # About 10 ms a signature per thread: thousands take far longer than the test.
    msgs = [b"m%d" % i for i in range(4000)]
    _assert_ctrl_c_stops(lambda: key.sign_many(msgs, threads=2))
    spx = sphincs.SpxPrivateKey.from_seed(SPX, bytes(range(48)))
    _assert_ctrl_c_stops(lambda: spx.sign_many(msgs, threads=2))
    # SPHINCS-256 batches go through the same front door and stop too.
    s256 = sphincs.Sphincs256PrivateKey.from_private_bytes(bytes(1088))
    _assert_ctrl_c_stops(lambda: s256.sign_many(msgs, threads=2))
    # Afterwards the key signs as before.
    assert key.sign_many([b"a"], deterministic=True) == [key.sign(b"a", deterministic=True)]


def test_ctrl_c_stops_verify_many_within_a_second(key):
    pub = key.public_key()
    sig = key.sign(b"m")
    items = [(pub, sig, b"m")] * 60_000
    _assert_ctrl_c_stops(lambda: sphincs.verify_many(items, threads=2))
    assert sphincs.verify_many(items[:3]) == [True] * 3
