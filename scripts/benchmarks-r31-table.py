#!/usr/bin/env python3
"""BENCHMARKS.md's round-3.1 table from `sphincs bench -a all r31 --json` output.

Usage: scripts/benchmarks-r31-table.py bench.jsonl

One row per round-3.1 set: keygen, sign and verify medians (ms), signing in
time-stamp-counter cycles, the robust/simple signing ratio, and the FIPS 205
set with the same numbers and hash family (SHAKE and SHA-2 only) for scale.
"""
import json
import sys

rows = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    rows[(d["algorithm"], d["op"])] = d


def ms(name, op):
    d = rows.get((name, op))
    return d["median_ns"] / 1e6 if d else None


def fmt(x):
    return "—" if x is None else (f"{x:.3f}" if x < 10 else f"{x:.1f}")


print("| set | keygen ms | sign ms | verify ms | sign Mcycles | robust / simple (sign) | FIPS 205 twin, sign ms |")
print("|---|---|---|---|---|---|---|")
names = sorted({a for a, _ in rows if a.startswith("sphincs-")})
for name in names:
    _, hash_, size, thash = name.split("-")
    sign = rows.get((name, "sign"))
    cyc = f"{sign['median_cycles'] / 1e6:.1f}" if sign and sign.get("median_cycles") else "—"
    ratio = ""
    if thash == "robust":
        simple = ms(name.replace("robust", "simple"), "sign")
        if simple and sign:
            ratio = f"{sign['median_ns'] / 1e6 / simple:.2f}×"
    twin = "—"
    if hash_ != "haraka":
        t = ms(f"SLH-DSA-{hash_.upper()}-{size}", "sign")
        twin = fmt(t)
    print(
        f"| {name} | {fmt(ms(name, 'keygen'))} | {fmt(ms(name, 'sign'))} | "
        f"{fmt(ms(name, 'verify'))} | {cyc} | {ratio} | {twin} |"
    )
