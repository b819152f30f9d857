#!/usr/bin/env python3
"""Builds BENCHMARKS.md's results table from `sphincs bench` JSON lines.

Usage:
  sphincs bench --threads 1 --json > t1.jsonl
  sphincs bench --threads 2 --json > t2.jsonl
  sphincs bench --calls --json > calls.jsonl
  scripts/benchmarks-table.py t1.jsonl t2.jsonl calls.jsonl KECCAK_NS SHA256_NS SHA512_NS

KECCAK_NS etc. are the measured per-lane costs of the kernels in use (from the
kernels' timing tests); with them the hash-call counts of `--calls` give the
floor this machine's kernels allow, beside the issue's floor.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def main():
    t1, t2, calls = (load(p) for p in sys.argv[1:4])
    keccak, s256, s512 = (float(x) for x in sys.argv[4:7])
    one = {(r["algorithm"], r["op"]): r for r in t1}
    two = {(r["algorithm"], r["op"]): r for r in t2}
    print("| set | op | 1 thread ms | issue floor ms | × | kernel floor ms | × | 2 threads ms | 2T / 1T |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c in calls:
        key = (c["algorithm"], c["op"])
        if key not in one:
            continue
        ms1 = one[key]["median_ns"] / 1e6
        issue = c["floor_ns"] / 1e6
        kernel = (c["keccak_f1600"] * keccak + c["sha256_blocks"] * s256 + c["sha512_blocks"] * s512) / 1e6
        ms2 = two[key]["median_ns"] / 1e6 if key in two else float("nan")
        name = c["algorithm"].replace("SLH-DSA-", "")
        print(
            f"| {name} | {c['op']} | {ms1:.3f} | {issue:.3f} | {ms1 / issue:.2f} | "
            f"{kernel:.3f} | {ms1 / kernel:.2f} | {ms2:.3f} | {ms2 / ms1:.2f} |"
        )


if __name__ == "__main__":
    main()
