#!/usr/bin/env python3
"""Builds BENCHMARKS.md's results table from `sphincs bench` JSON lines.

Usage (one backend per set of files; the floors come from the kernel costs
`--calls` measured at run time, which its rows carry):

  sphincs bench --threads 1 --json -a SETS > t1.jsonl
  sphincs bench --calls --json -a SETS > calls.jsonl
  cargo run --release --manifest-path bench/peers/Cargo.toml -- --json --vs pqclean-spx SETS > peers.jsonl
  scripts/benchmarks-table.py --ours t1.jsonl --calls calls.jsonl [--peers peers.jsonl] [--two t2.jsonl]

Columns: our median (one thread), the floor (the operation's hash calls at
the measured per-call costs of the bare kernels), ours over the floor; with
--peers, the peer's median and ours over the peer's, both from the peers
run (its own round-robin timing of sphincs, so the ratio is side by side);
with --two, the two-thread median and its ratio to one thread.
"""
import argparse
import json


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", required=True, help="sphincs bench --threads 1 --json")
    ap.add_argument("--calls", required=True, help="sphincs bench --calls --json")
    ap.add_argument("--peers", help="bench/peers --json (one or more peers)")
    ap.add_argument("--two", help="sphincs bench --threads 2 --json")
    a = ap.parse_args()
    one = {(r["algorithm"], r["op"]): r for r in load(a.ours)}
    two = {(r["algorithm"], r["op"]): r for r in load(a.two)} if a.two else {}
    peers = {}
    for r in load(a.peers) if a.peers else []:
        if "impl" in r:
            peers.setdefault((r["algorithm"], r["op"]), {})[r["impl"]] = r["median_ns"]
    peer_names = sorted({p for row in peers.values() for p in row if p != "sphincs"})
    head = ["set", "op", "ours ms", "floor ms", "× floor"]
    for p in peer_names:
        head += [f"{p} ms", f"ours ÷ {p}"]
    if two:
        head += ["2 threads ms", "2T ÷ 1T"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    kernels = set()
    for c in load(a.calls):
        key = (c["algorithm"], c["op"])
        if key not in one:
            continue
        kernels.add((c["kernels"], json.dumps(c["cost_ns"], sort_keys=True)))
        ms = one[key]["median_ns"] / 1e6
        floor = c["floor_ns"] / 1e6
        cells = [c["algorithm"].replace("SLH-DSA-", ""), c["op"], f"{ms:.3f}", f"{floor:.3f}", f"{ms / floor:.2f}"]
        row = peers.get(key, {})
        for p in peer_names:
            if p in row and "sphincs" in row:
                cells += [f"{row[p] / 1e6:.3f}", f"{row['sphincs'] / row[p]:.2f}"]
            else:
                cells += ["", ""]
        if two:
            t = two.get(key)
            cells += [f"{t['median_ns'] / 1e6:.3f}", f"{t['median_ns'] / one[key]['median_ns']:.2f}"] if t else ["", ""]
        print("| " + " | ".join(cells) + " |")
    for names, cost in sorted(kernels):
        print(f"\nFloor kernels: {names}; measured cost_ns {cost}")


if __name__ == "__main__":
    main()
