#!/usr/bin/env python3
"""Builds BENCHMARKS.md's results table from `sphincs bench` JSON lines.

Usage (one backend per set of files; the floors come from the kernel costs
`--calls` measured at run time, which its rows carry):

  sphincs bench --threads 1 --json -a SETS > t1.jsonl
  sphincs bench --calls --json -a SETS > calls.jsonl
  cargo run --release --manifest-path bench/peers/Cargo.toml -- --json --vs pqclean-spx SETS > peers.jsonl
  scripts/benchmarks-table.py --ours t1.jsonl --calls calls.jsonl [--peers peers.jsonl] [--two t2.jsonl] [--before t1-old.jsonl]

Columns: our median (one thread), the floor (the operation's hash calls at
the measured per-call costs of the bare kernels), ours over the floor; with
--peers, the peer's median and ours over the peer's, both from the peers
run (its own round-robin timing of sphincs, so the ratio is side by side);
Each option takes one file or several (runs of the same commands in one
session): per row the fastest median counts, and the lowest floor (the
kernels' calibration least disturbed by other work on the host); the
peers' ratio is then the ratio of the two fastest medians.
With --batch, a second table: batch verification per signature against
the single verification. With --two, the two-thread median and its ratio to one thread; with
--before, an older build's one-thread median (run in the same session) and
ours over it.
"""
import argparse
import json


def load(paths):
    rows = []
    for path in paths or []:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.startswith("{")]
    return rows


def fastest(rows, field="median_ns"):
    """Per (algorithm, op): the row with the smallest `field`."""
    best = {}
    for r in rows:
        key = (r["algorithm"], r["op"])
        if key not in best or r[field] < best[key][field]:
            best[key] = r
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", required=True, nargs="+", help="sphincs bench --threads 1 --json")
    ap.add_argument("--calls", required=True, nargs="+", help="sphincs bench --calls --json")
    ap.add_argument("--peers", nargs="+", help="bench/peers --json (one or more peers)")
    ap.add_argument("--two", nargs="+", help="sphincs bench --threads 2 --json")
    ap.add_argument("--before", nargs="+", help="an older build's sphincs bench --threads 1 --json")
    ap.add_argument("--batch", nargs="+", help="sphincs bench --batch 64 --op verify --json")
    a = ap.parse_args()
    one = fastest(load(a.ours))
    two = fastest(load(a.two))
    before = fastest(load(a.before))
    peers = {}
    for r in load(a.peers):
        if "impl" in r:
            row = peers.setdefault((r["algorithm"], r["op"]), {})
            row[r["impl"]] = min(row.get(r["impl"], r["median_ns"]), r["median_ns"])
    peer_names = sorted({p for row in peers.values() for p in row if p != "sphincs"})
    head = ["set", "op"]
    if before:
        head += ["before ms", "after ÷ before"]
    head += ["ours ms", "floor ms", "× floor"]
    for p in peer_names:
        head += [f"{p} ms", f"ours ÷ {p}"]
    if two:
        head += ["2 threads ms", "2T ÷ 1T"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    kernels = set()
    for c in fastest(load(a.calls), "floor_ns").values():
        key = (c["algorithm"], c["op"])
        if key not in one:
            continue
        kernels.add((c["kernels"], json.dumps({k: round(v, 1) for k, v in c["cost_ns"].items() if isinstance(v, float)}, sort_keys=True)))
        ms = one[key]["median_ns"] / 1e6
        floor = c["floor_ns"] / 1e6
        cells = [c["algorithm"].replace("SLH-DSA-", ""), c["op"]]
        if before:
            b = before.get(key)
            cells += [f"{b['median_ns'] / 1e6:.3f}", f"{one[key]['median_ns'] / b['median_ns']:.2f}"] if b else ["", ""]
        cells += [f"{ms:.3f}", f"{floor:.3f}", f"{ms / floor:.2f}"]
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
    batch = {}
    for r in load(a.batch):
        key = (r["algorithm"], "verify")
        per_sig = r["median_ns"] / r["batch"]
        batch[key] = min(batch.get(key, per_sig), per_sig)
    if batch:
        print("\n| set | batch verify, per signature ms | single ms | batch ÷ single |")
        print("|---|---|---|---|")
        for key, per_sig in sorted(batch.items()):
            if key in one:
                single = one[key]["median_ns"]
                name = key[0].replace("SLH-DSA-", "")
                print(f"| {name} | {per_sig / 1e6:.4f} | {single / 1e6:.4f} | {per_sig / single:.2f} |")
    for names, cost in sorted(kernels):
        print(f"\nFloor kernels: {names}; measured cost_ns {cost}")


if __name__ == "__main__":
    main()
