#!/usr/bin/env python3
"""Builds BENCHMARKS.md's batch table from `sphincs bench --batch` JSON lines.

Usage:
  sphincs bench --threads 1 --op verify --json > v1.jsonl
  sphincs bench --batch 32 --threads 2 --op verify --json > bv.jsonl
  sphincs bench --batch 16 --threads 2 --op sign --json --runs 3 > bs.jsonl
  sphincs bench --calls --json > calls.jsonl
  scripts/benchmarks-batch-table.py v1.jsonl bv.jsonl bs.jsonl calls.jsonl KECCAK_NS SHA256_NS SHA512_NS

Per signature: one-by-one verification, batch verification on one and two
threads against the verification floor of this machine's kernels (the
hash calls of `--calls` at the given per-lane costs), and batch signing on
one and two threads.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def main():
    single, bv, bs, calls = (load(p) for p in sys.argv[1:5])
    keccak, s256, s512 = (float(x) for x in sys.argv[5:8])
    one = {r["algorithm"]: r for r in single if r["op"] == "verify"}
    bver = {(r["algorithm"], r["threads"]): r for r in bv}
    bsig = {(r["algorithm"], r["threads"]): r for r in bs}
    print(
        "| set | verify µs | batch verify 1T µs/sig | × kernel floor | batch / single "
        "| 2T µs/sig | 2T / 1T | batch sign 1T ms/sig | 2T ms/sig | 2T / 1T |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for c in calls:
        alg = c["algorithm"]
        if c["op"] != "verify" or alg not in one or (alg, 1) not in bver:
            continue
        floor = c["keccak_f1600"] * keccak + c["sha256_blocks"] * s256 + c["sha512_blocks"] * s512
        v = one[alg]["median_ns"]
        b1, b2 = bver[(alg, 1)]["per_sig_ns"], bver[(alg, 2)]["per_sig_ns"]
        s1, s2 = bsig[(alg, 1)]["per_sig_ns"], bsig[(alg, 2)]["per_sig_ns"]
        print(
            f"| {alg.replace('SLH-DSA-', '')} | {v / 1e3:.1f} | {b1 / 1e3:.1f} | {b1 / floor:.2f} | "
            f"{b1 / v:.2f} | {b2 / 1e3:.1f} | {b2 / b1:.2f} | {s1 / 1e6:.3f} | {s2 / 1e6:.3f} | {s2 / s1:.2f} |"
        )


if __name__ == "__main__":
    main()
