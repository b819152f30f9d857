#!/usr/bin/env python3
"""The BENCHMARKS.md table from bench/openssl-speed/run.sh's raw lines.

Usage: bench/openssl-speed/table.py RAW

Per set and operation: operations per second of OpenSSL 3.5's built-in
(`openssl speed`), of the provider on 3.5 (`openssl speed -propquery
'?provider=sphincs'`) and on 3.0 (provider_speed.c), all by user CPU time as
`speed` counts; the provider's time over the built-in's against the issue's
targets (keygen and sign at most 0.3x, verify at most 0.5x); `sphincs bench
--threads 1` (wall clock: the fastest run, and the median) and the
provider's time (3.5 and 3.0, by CPU time) over the fastest bench run. On a
loaded machine a wall-clock rate over seconds counts the time the process
waits for a core, which CPU time and the fastest of many runs both leave
out; so these two are compared, not the wall-clock rates.
"""
import sys

OPS = ("keygen", "sign", "verify")
TARGET = {"keygen": 0.3, "sign": 0.3, "verify": 0.5}


def fmt(x):
    if x >= 100:
        return f"{x:,.0f}".replace(",", " ")
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def main():
    meta, load, builtin, prov35, prov30, prov30w, bench = {}, {}, {}, {}, {}, {}, {}
    order = []
    for line in open(sys.argv[1]):
        f = line.split()
        if not f:
            continue
        tag = f[0]
        if tag in ("date", "commit", "cpu", "openssl35", "openssl30", "seconds"):
            meta[tag] = line[len(tag) + 1:].strip()
        elif tag == "load":
            if f[1] == "end":
                meta["load end"] = " ".join(f[2:5])
            else:
                load[f[1]] = " ".join(f[2:5])
                order.append(f[1])
        elif tag in ("builtin35", "provider35") and len(f) == 5:
            (builtin if tag == "builtin35" else prov35)[f[1]] = dict(zip(OPS, map(float, f[2:5])))
        elif tag == "provider30" and len(f) >= 10:
            prov30[f[1]] = dict(zip(OPS, map(float, f[2:5])))
            prov30w[f[1]] = dict(zip(OPS, map(float, f[6:9])))
        elif tag == "bench":
            bench.setdefault(f[1], {})[f[2]] = (float(f[3]), float(f[4]), float(f[5]))
    for k, v in meta.items():
        print(f"<!-- {k}: {v} -->")
    print("| set | op | built-in 3.5 /s | provider 3.5 /s | time ÷ built-in (target) "
          "| provider 3.0 /s | `sphincs bench` /s: fastest (median) | time ÷ bench: 3.5, 3.0 | load (1, 5, 15 min) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    worst = {}
    for s in order:
        for i, op in enumerate(OPS):
            b = builtin.get(s, {}).get(op)
            p = prov35.get(s, {}).get(op)
            p30 = prov30.get(s, {}).get(op)
            p30w = prov30w.get(s, {}).get(op)
            be = bench.get(s, {}).get(op)
            cells = [s if i == 0 else "", op]
            cells.append(fmt(b) if b else "—")
            cells.append(fmt(p) if p else "—")
            if b and p:
                r = b / p
                ok = "✓" if r <= TARGET[op] else "✗"
                cells.append(f"{r:.2f}× (≤ {TARGET[op]}) {ok}")
                worst.setdefault(("builtin", op), []).append(r)
            else:
                cells.append("—")
            cells.append(fmt(p30) if p30 else "—")
            if be:
                fastest = 1e9 / be[2]
                cells.append(f"{fmt(fastest)} ({fmt(be[0])})")
                parts = []
                if p:
                    r1 = fastest / p
                    parts.append(f"{r1:.2f}×")
                    worst.setdefault(("bench-3.5", op), []).append(r1)
                else:
                    parts.append("—")
                if p30:
                    r2 = fastest / p30
                    parts.append(f"{r2:.2f}×")
                    worst.setdefault(("bench-3.0", op), []).append(r2)
                else:
                    parts.append("—")
                cells.append(", ".join(parts))
            else:
                cells += ["—", "—"]
            cells.append(load.get(s, "") if i == 0 else "")
            print("| " + " | ".join(cells) + " |")
    print()
    for (kind, op), v in sorted(worst.items()):
        print(f"<!-- {kind} {op}: min {min(v):.2f} max {max(v):.2f} -->")


if __name__ == "__main__":
    main()
