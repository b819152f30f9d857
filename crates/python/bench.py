"""Benchmark of the sphincs Python package against the other SLH-DSA and
SPHINCS+ packages on PyPI, all in one run so the ratios hold on a loaded
machine; prints Markdown tables (see BENCHMARKS.md).

    target/python-venv/bin/python crates/python/bench.py [--runs N] [--cli PATH]

Measured:
- per call, ours against the Rust library's own time for the same operation
  (`sphincs bench --json`, deterministic signing on one thread);
- ours against pqcrypto (12 FIPS 205 sets), slh-dsa (pure Python) and PySPX
  (round-3.1 robust sets); rounds alternate between the packages;
- sign_many / verify_many throughput on 1 thread and on every core;
- two Python threads signing at once against the same work done serially.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pathlib
import statistics
import subprocess
import threading
import time

import sphincs

REPO = pathlib.Path(__file__).resolve().parents[2]
MSG = b"benchmark message, 64 bytes long ................................"


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def compare(runs: int, **fns) -> dict[str, float]:
    """Median seconds of each function, rounds interleaved (one warm-up each)."""
    for f in fns.values():
        f()
    samples: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(runs):
        for k, f in fns.items():
            samples[k].append(timed(f))
    return {k: statistics.median(v) for k, v in samples.items()}


def ms(s: float) -> str:
    return f"{s * 1e3:.2f}"


def rust_times(cli: pathlib.Path, alg: str, op: str, runs: int) -> tuple[float, float]:
    """(median, min) seconds of `sphincs bench` for one set and operation."""
    out = subprocess.run(
        [str(cli), "bench", "-a", alg, "--op", op, "--threads", "1", "--runs", str(runs), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    row = next(json.loads(line) for line in out.splitlines() if line.startswith("{"))
    return row["median_ns"] / 1e9, row["min_ns"] / 1e9


def vs_rust(cli: pathlib.Path, runs: int) -> None:
    print("\n### Python call against the Rust library (one thread, deterministic signing)\n")
    print("Rounds alternate: 3 Python calls, then `sphincs bench --runs 3` (3 calls in one process).\n")
    print("| set | op | Python median ms | Rust median ms | ratio | Python min ms | Rust min ms | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for alg in ("SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-128f"):
        key = sphincs.SLHDSAPrivateKey.generate(alg)
        pub = key.public_key()
        sig = key.sign(MSG)
        ops = {
            "sign": lambda: key.sign(MSG, deterministic=True),
            "verify": lambda: pub.verify(sig, MSG),
        }
        for op, fn in ops.items():
            fn()
            py: list[float] = []
            rust_med: list[float] = []
            rust_min: list[float] = []
            for _ in range(runs):
                py += [timed(fn) for _ in range(3)]
                med, low = rust_times(cli, alg, op, 3)
                rust_med.append(med)
                rust_min.append(low)
            pm, rm = statistics.median(py), statistics.median(rust_med)
            pl, rl = min(py), min(rust_min)
            print(f"| {alg} | {op} | {ms(pm)} | {ms(rm)} | {pm / rm:.3f} | {ms(pl)} | {ms(rl)} | {pl / rl:.3f} |")
    # What the binding itself adds to a call: argument conversion, releasing
    # and re-taking the GIL, the result. verify_internal of an empty signature
    # returns at once in the core.
    pub = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f").public_key()
    n = 200_000
    per_call = min(timed(lambda: [pub.verify_internal(MSG, b"") for _ in range(n)]) for _ in range(3)) / n
    print(f"\nBinding cost per call (a call the core answers at once, best of 3 x {n}): {per_call * 1e6:.2f} µs.")


def vs_pqcrypto(runs: int) -> None:
    print("\n### Ours against pqcrypto 1.0.0 (hedged signing, one thread each)\n")
    print("| set | op | sphincs ms | pqcrypto ms | pqcrypto / sphincs |")
    print("|---|---|---|---|---|")
    for alg in sphincs.Algorithm:
        if alg.is_limited:  # pqcrypto has no draft SP 800-230 sets
            continue
        pq = importlib.import_module("pqcrypto.sign.slh_dsa_" + alg.value[8:].lower().replace("-", "_"))
        pk, sk = pq.keygen()
        key = sphincs.SLHDSAPrivateKey.from_private_bytes(alg, sk)
        pub = key.public_key()
        sig = key.sign(MSG)
        r = runs if alg.value.endswith("f") else max(runs // 3, 2)
        t = compare(r, ours=lambda: key.sign(MSG), theirs=lambda: pq.sign(sk, MSG))
        print(f"| {alg.value} | sign | {ms(t['ours'])} | {ms(t['theirs'])} | {t['theirs'] / t['ours']:.1f} |")
        t = compare(r, ours=lambda: pub.verify(sig, MSG), theirs=lambda: pq.verify(pk, MSG, sig))
        print(f"| {alg.value} | verify | {ms(t['ours'])} | {ms(t['theirs'])} | {t['theirs'] / t['ours']:.1f} |")


def vs_slh_dsa(runs: int) -> None:
    import slhdsa

    print("\n### Ours against slh-dsa 0.2.5 (pure Python; deterministic signing)\n")
    print("| set | op | sphincs ms | slh-dsa ms | slh-dsa / sphincs |")
    print("|---|---|---|---|---|")
    alg = sphincs.Algorithm.SHAKE_128F
    key = sphincs.SLHDSAPrivateKey.generate(alg)
    theirs = slhdsa.SecretKey.from_digest(key.private_bytes_raw(), slhdsa.shake_128f)
    sig = key.sign(MSG, deterministic=True)
    r = max(runs // 3, 2)
    t = compare(r, ours=lambda: key.sign(MSG, deterministic=True), theirs=lambda: theirs.sign_pure(MSG, False))
    print(f"| {alg.value} | sign | {ms(t['ours'])} | {ms(t['theirs'])} | {t['theirs'] / t['ours']:.0f} |")
    t = compare(r, ours=lambda: key.public_key().verify(sig, MSG), theirs=lambda: theirs.pubkey.verify_pure(MSG, sig))
    print(f"| {alg.value} | verify | {ms(t['ours'])} | {ms(t['theirs'])} | {t['theirs'] / t['ours']:.0f} |")


def vs_pyspx(runs: int) -> None:
    print("\n### Ours against PySPX 0.5.0 (round-3.1 robust sets, reference C code; hedged signing)\n")
    print("| set | op | sphincs ms | PySPX ms | PySPX / sphincs |")
    print("|---|---|---|---|---|")
    for family in ("shake", "sha2", "haraka"):
        alg = sphincs.SpxAlgorithm(f"sphincs-{family}-128f-robust")
        mod = importlib.import_module(f"pyspx.{family}_128f")
        seed = os.urandom(alg.n * 3)
        pk, sk = mod.generate_keypair(seed)
        key = sphincs.SpxPrivateKey.from_seed(alg, seed)
        sig = key.sign(MSG)
        r = max(runs // 2, 3)
        t = compare(r, ours=lambda: key.sign(MSG), theirs=lambda: mod.sign(MSG, sk))
        print(f"| {alg.value} | sign | {ms(t['ours'])} | {ms(t['theirs'])} | {t['theirs'] / t['ours']:.1f} |")
        t = compare(r, ours=lambda: key.public_key().verify(sig, MSG), theirs=lambda: mod.verify(MSG, sig, pk))
        print(f"| {alg.value} | verify | {ms(t['ours'])} | {ms(t['theirs'])} | {t['theirs'] / t['ours']:.1f} |")


def batches(runs: int) -> None:
    cores = os.cpu_count() or 1
    print(f"\n### sign_many / verify_many throughput (SLH-DSA-SHAKE-128f, 32 messages; all cores = {cores})\n")
    print("| call | threads | ms per batch | per second | speed-up |")
    print("|---|---|---|---|---|")
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")
    pub = key.public_key()
    msgs = [MSG + bytes([i]) for i in range(32)]
    sigs = key.sign_many(msgs)
    items = [(pub, s, m) for s, m in zip(sigs, msgs)] * 8
    r = max(runs // 3, 3)
    t = compare(r, one=lambda: key.sign_many(msgs, threads=1), all=lambda: key.sign_many(msgs, threads=cores))
    for k, n in (("one", 1), ("all", cores)):
        print(f"| sign_many | {n} | {ms(t[k])} | {len(msgs) / t[k]:.0f} signatures | {t['one'] / t[k]:.2f} |")
    t = compare(r, one=lambda: sphincs.verify_many(items, threads=1), all=lambda: sphincs.verify_many(items, threads=cores))
    for k, n in (("one", 1), ("all", cores)):
        print(f"| verify_many | {n} | {ms(t[k])} | {len(items) / t[k]:.0f} verifications | {t['one'] / t[k]:.2f} |")


def two_threads(runs: int) -> None:
    print("\n### Two Python threads signing at once (SLH-DSA-SHAKE-128f, 8 signatures each, threads=1 per call)\n")
    key = sphincs.SLHDSAPrivateKey.generate("SLH-DSA-SHAKE-128f")

    def work():
        for i in range(8):
            key.sign(MSG + bytes([i]))

    def serial():
        work()
        work()

    def parallel():
        ts = [threading.Thread(target=work) for _ in range(2)]
        for th in ts:
            th.start()
        for th in ts:
            th.join()

    t = compare(max(runs // 3, 3), serial=serial, parallel=parallel)
    print("| serial ms | two threads ms | two threads / serial |")
    print("|---|---|---|")
    print(f"| {ms(t['serial'])} | {ms(t['parallel'])} | {t['parallel'] / t['serial']:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description="Benchmark the sphincs Python package")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--cli", type=pathlib.Path, default=REPO / "target" / "release" / "sphincs")
    ap.add_argument("--skip", nargs="*", default=[], choices=["rust", "pqcrypto", "slh-dsa", "pyspx", "batch", "threads"])
    args = ap.parse_args()
    print(f"sphincs {sphincs.__version__}, {os.cpu_count()} cores, runs={args.runs}; medians")
    steps = {
        "rust": lambda: vs_rust(args.cli, args.runs),
        "pqcrypto": lambda: vs_pqcrypto(args.runs),
        "slh-dsa": lambda: vs_slh_dsa(args.runs),
        "pyspx": lambda: vs_pyspx(args.runs),
        "batch": lambda: batches(args.runs),
        "threads": lambda: two_threads(args.runs),
    }
    for name, step in steps.items():
        if name not in args.skip:
            step()


if __name__ == "__main__":
    main()
