"""Signing and verifying release the GIL: another Python thread runs while
the native call computes. A functional check, with no timing threshold.

The switch interval is set so long that a thread holding the GIL is never
asked to give it up. A profile hook tells the main thread when the worker
enters the native call. If the call held the GIL, the main thread could not
run until the worker had stored the result and ended; since the call
releases it, the main thread runs at once and sees no result yet (it yields
with sleep(0), which lets the worker take the GIL back when done).
"""

from __future__ import annotations

import sys
import threading
import time

import sphincs


def _run_while_native_call(call, name):
    entered = threading.Event()
    result = []

    def profile(frame, event, arg):
        if event == "c_call" and getattr(arg, "__name__", None) == name:
            entered.set()

    def worker():
        sys.setprofile(profile)
        try:
            result.append(call())
        finally:
            sys.setprofile(None)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        t = threading.Thread(target=worker)
        t.start()
        assert entered.wait(600), "the profile hook never saw the native call"
        spins = 0  # times the main thread ran while the call had not returned
        while not result:
            spins += 1
            time.sleep(0)
        t.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(result) == 1 and result[0]
    return spins


def test_second_thread_runs_during_sign():
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHA2-192s")
    spins = _run_while_native_call(lambda: key.sign(b"long sign", threads=1), "sign")
    assert spins > 0


def test_second_thread_runs_during_sign_many_and_verify_many():
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128s")
    msgs = [b"a", b"b", b"c", b"d"]
    spins = _run_while_native_call(lambda: key.sign_many(msgs, threads=1), "sign_many")
    assert spins > 0
    sigs = key.sign_many(msgs)
    pub = key.public_key()
    items = [(pub, s, m) for s, m in zip(sigs, msgs)] * 50
    spins = _run_while_native_call(lambda: all(sphincs.verify_many(items, threads=1)), "verify_many")
    assert spins > 0


def test_second_thread_runs_during_sphincs256_sign():
    key = sphincs.Sphincs256PrivateKey.generate()
    data = bytes(4 << 20)  # hashed twice by BLAKE-512: a longer call
    spins = _run_while_native_call(lambda: key.sign(data), "sign")
    assert spins > 0


def test_two_threads_sign_at_once():
    # Both signatures come out right when two threads sign with one key at once.
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    out = {}

    def sign(i):
        out[i] = key.sign(b"m%d" % i, deterministic=True)

    threads = [threading.Thread(target=sign, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(4):
        assert out[i] == key.sign(b"m%d" % i, deterministic=True)


def test_the_check_sees_a_call_that_holds_the_gil():
    # Control: a builtin that keeps the GIL (sorting a large list of ints)
    # gives the main thread no chance to run while it works.
    data = list(range(2_000_000, 0, -1))
    assert _run_while_native_call(lambda: sorted(data), "sorted") == 0
