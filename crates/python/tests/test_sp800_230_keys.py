"""Draft SP 800-230 keys in everyday use: Ctrl-C stops the minute-long tree
build of a key generation (the core checks a stop flag between rounds of
tree nodes), and a pickled key carries its tree cache, so unpickling it
does not build the tree again."""

from __future__ import annotations

import _thread
import copy
import pickle
import threading
import time

import pytest
import sphincs

ALG = sphincs.Algorithm.SHA2_128_24


def _interrupted_after(seconds: float, call) -> float:
    """Runs `call` while a timer thread simulates Ctrl-C after `seconds`;
    returns how long KeyboardInterrupt took to arrive after that."""
    timer = threading.Timer(seconds, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
        timer.join()
    return time.monotonic() - start - seconds


@pytest.mark.parametrize(
    "call",
    [
        lambda: sphincs.SLHDSAPrivateKey.generate(ALG),
        lambda: sphincs.SLHDSAPrivateKey.from_seeds(ALG, b"\1" * 16, b"\2" * 16, b"\3" * 16, threads=2),
        lambda: sphincs.SLHDSAPrivateKey.from_private_bytes(ALG, bytes(64), threads=2),
    ],
    ids=["generate", "from_seeds-2-threads", "from_private_bytes"],
)
def test_ctrl_c_stops_the_tree_build(call):
    # The build takes a minute or more; without a stop flag the interrupt
    # would only be seen once it had finished.
    late = _interrupted_after(1.0, call)
    assert late < 3.0, f"KeyboardInterrupt came {late:.1f} s after Ctrl-C"
    # Nothing was left running: the next key is made as usual.
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    key.public_key().verify(key.sign(b"after"), b"after")


def test_pickled_key_keeps_its_tree_cache(sha2_128_24_key):
    entry, key = sha2_128_24_key
    cache = key.tree_cache()
    assert cache is not None
    blob = pickle.dumps(key)
    assert cache in blob
    start = time.monotonic()
    back = pickle.loads(blob)
    took = time.monotonic() - start
    # Rebuilding the tree takes a minute or more; checking a cache, milliseconds.
    assert took < 5.0, f"unpickling took {took:.1f} s"
    assert back.tree_cache() == cache
    assert back.private_bytes_raw() == key.private_bytes_raw()
    assert back.mode == key.mode
    msg, ctx = bytes.fromhex(entry["message"]), bytes.fromhex(entry["context"])
    sig = back.sign(msg, ctx, threads=0)
    key.public_key().verify(sig, msg, ctx)
    with pytest.raises(sphincs.InvalidSignature):
        key.public_key().verify(sig, msg + b"!", ctx)
    start = time.monotonic()
    assert copy.deepcopy(key).tree_cache() == cache
    assert time.monotonic() - start < 5.0
    # A damaged cache in a pickle is refused, not silently rebuilt.
    at = blob.index(cache) + len(cache) // 2
    damaged = blob[:at] + bytes([blob[at] ^ 1]) + blob[at + 1 :]
    with pytest.raises(ValueError, match="tree cache"):
        pickle.loads(damaged)
