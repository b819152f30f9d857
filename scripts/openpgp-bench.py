#!/usr/bin/env python3
"""OpenPGP signing and verification side by side (BENCHMARKS.md "OpenPGP"):
`sop sign` and `sop verify` of the same data on one thread, ours
(`sphincs sop`) against the SOP-speaking peers over go-crypto, rPGP and
Sequoia (tests/interop/openpgp/, built into the CI cache), plus our plain
`sphincs sign`/`verify` of the same set and data (the OpenPGP layer's
cost) and `sop sign` on every core. Runs alternate between
implementations within each round, so drift hits all alike; prints
medians (seconds) and ratios as a Markdown table.

usage: scripts/openpgp-bench.py [--size BYTES] [--runs N] [--sets 128s,128f,256s]
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def peers():
    go = subprocess.run(["bash", ROOT / "tests/interop/openpgp/build-go-peer.sh"], check=True, capture_output=True, text=True).stdout.strip()
    rust = subprocess.run(["bash", ROOT / "tests/interop/openpgp/build-rust-peers.sh"], check=True, capture_output=True, text=True).stdout
    found = {"go-crypto": [go]}
    for line in rust.splitlines():
        name, _, path = line.partition("=")
        found[{"rpgp-peer": "rPGP", "sequoia-peer": "Sequoia"}[name]] = [path]
    return found


def timed(cmd, stdin_path, env=None):
    with open(stdin_path, "rb") as f:
        t = time.perf_counter()
        subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True, env=env)
        return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=1 << 20)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sets", default="128s,128f,256s")
    a = ap.parse_args()
    sphincs = str(ROOT / "target/release/sphincs")
    impls = {"ours": [sphincs, "sop"], **peers()}
    one = dict(os.environ, SPHINCS_THREADS="1")
    every = dict(os.environ, SPHINCS_THREADS="0")
    work = Path(tempfile.mkdtemp())
    data = work / "data"
    data.write_bytes(os.urandom(a.size))
    rows = []
    for s in a.sets.split(","):
        profile = f"slh-dsa-shake-{s}"
        keys = {}
        for name, cmd in impls.items():
            key = work / f"{name}-{s}.key"
            cert = work / f"{name}-{s}.cert"
            key.write_bytes(subprocess.run(cmd + ["generate-key", f"--profile={profile}", "Bench <b@example.org>"], check=True, capture_output=True).stdout)
            cert.write_bytes(subprocess.run(cmd + ["extract-cert"], input=key.read_bytes(), check=True, capture_output=True).stdout)
            sig = work / f"{name}-{s}.sig"
            sig.write_bytes(subprocess.run(cmd + ["sign", str(key)], stdin=data.open("rb"), check=True, capture_output=True, env=one).stdout)
            keys[name] = (key, cert, sig)
        alg = f"SLH-DSA-SHAKE-{s}"
        plain_key, plain_pub, plain_sig = work / f"plain-{s}.key", work / f"plain-{s}.pub", work / f"plain-{s}.sig"
        subprocess.run([sphincs, "-q", "keygen", "-a", alg, "-o", plain_key, "--pub", plain_pub], check=True)
        subprocess.run([sphincs, "-q", "sign", "--threads", "1", "-k", plain_key, "-o", plain_sig, "--force", data], check=True)
        times = {}
        for _ in range(a.runs):
            for name, cmd in impls.items():
                key, cert, sig = keys[name]
                times.setdefault((name, "sign"), []).append(timed(cmd + ["sign", str(key)], data, one))
                times.setdefault((name, "verify"), []).append(timed(cmd + ["verify", str(sig), str(cert)], data, one))
            key = keys["ours"][0]
            times.setdefault(("ours, every core", "sign"), []).append(timed(impls["ours"] + ["sign", str(key)], data, every))
            times.setdefault(("plain sphincs", "sign"), []).append(
                timed([sphincs, "-q", "sign", "--threads", "1", "-k", str(plain_key), "-o", str(plain_sig), "--force", str(data)], data))
            times.setdefault(("plain sphincs", "verify"), []).append(
                timed([sphincs, "-q", "verify", "-p", str(plain_pub), "-s", str(plain_sig), str(data)], data))
        med = {k: statistics.median(v) for k, v in times.items()}
        for op in ("sign", "verify"):
            ours = med[("ours", op)]
            for name in list(impls) + ["ours, every core", "plain sphincs"]:
                if (name, op) in med:
                    rows.append((alg, op, name, med[(name, op)], med[(name, op)] / ours))
    print(f"| set | operation | implementation | median s ({a.runs} runs, {a.size} bytes) | ÷ ours |")
    print("|---|---|---|---:|---:|")
    for alg, op, name, t, r in rows:
        print(f"| {alg} | {op} | {name} | {t:.4f} | {r:.2f} |")


if __name__ == "__main__":
    main()
