"""Compares a pkcs11-check run (its report.jsonl and results.json) with the
recorded expectation (expected.txt beside this file) and fails on any
difference: a crash, timeout or error anywhere; a test file whose counts of
passed, failed, xfailed, xpassed and skipped tests differ from the record; a
failed or xfailed test that is not recorded, or a recorded one that now has
another outcome; a test of the must-pass list that did not pass.

expected.txt, one item a line ('#' starts a comment):
    counts FILE passed=N failed=N xfailed=N xpassed=N skipped=N
    failed|xfailed NODEID
    pass NODEID-PATTERN MIN      (fnmatch pattern; at least MIN tests match
                                  and every one of them passed)
FILE and NODEID are relative to pkcs11_check/testcases/.

Usage: python check.py REPORT_DIR EXPECTED [--suggest]
(--suggest prints the lines that would describe this run, to review by hand.)
Prints a table of the counts per file; exits 1 on a difference.
"""

import fnmatch
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

OUTCOMES = ("passed", "failed", "xfailed", "xpassed", "skipped", "error")
MARK = "pkcs11_check/testcases/"


def short(nodeid: str) -> str:
    return nodeid.split(MARK, 1)[1] if MARK in nodeid else nodeid


def outcomes(report: Path) -> dict[str, str]:
    """Each test's outcome from pytest-reportlog's TestReport records."""
    phases: dict[str, dict[str, dict]] = defaultdict(dict)
    for line in report.read_text().splitlines():
        rec = json.loads(line)
        if rec.get("$report_type") == "TestReport":
            phases[short(rec["nodeid"])][rec["when"]] = rec
    result = {}
    for nodeid, ph in phases.items():
        call = ph.get("call")
        if any(p["outcome"] == "failed" for w, p in ph.items() if w != "call"):
            result[nodeid] = "error"
        elif call is None:
            result[nodeid] = (
                "skipped"
                if ph.get("setup", {}).get("outcome") == "skipped"
                else "error"
            )
        elif "wasxfail" in call:
            result[nodeid] = "xfailed" if call["outcome"] == "skipped" else "xpassed"
        else:
            result[nodeid] = call["outcome"]
    return result


def parse_expected(path: Path):
    counts, listed, musts = {}, {}, []
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        kind = line[0]
        if kind == "counts":
            counts[line[1]] = {k: int(v) for k, v in (f.split("=") for f in line[2:])}
        elif kind in ("failed", "xfailed", "xpassed", "error"):
            listed[line[1]] = kind
        elif kind == "pass":
            musts.append((line[1], int(line[2])))
        else:
            sys.exit(f"{path}:{n}: unknown line {raw!r}")
    return counts, listed, musts


def main() -> int:
    report_dir, expected_path = Path(sys.argv[1]), Path(sys.argv[2])
    suggest = "--suggest" in sys.argv[3:]
    results = json.loads((report_dir / "results.json").read_text())
    got = outcomes(report_dir / "report.jsonl")
    problems = []

    summary = results["summary"]
    for key in (
        "crashed",
        "timeout",
        "error",
        "child_crash",
        "child_timeout",
        "crash_limited",
    ):
        if summary.get(key):
            problems.append(f"summary: {key} = {summary[key]}")
    if summary.get("incomplete"):
        problems.append("summary: run incomplete")
    for unit in results["units"]:
        for ex in unit.get("executions", []):
            term = ex.get("termination", {})
            if term.get("kind") != "exit":
                problems.append(f"{short(unit['target'])}: process ended by {term}")
        if unit.get("status") in ("crashed", "timeout", "error"):
            problems.append(f"{short(unit['target'])}: unit {unit['status']}")
    # The tool's own totals against ours: a record we did not read is a problem.
    mine = Counter(got.values())
    for key in ("passed", "failed", "xfailed", "xpassed", "skipped"):
        if mine[key] != summary.get(key, 0):
            problems.append(
                f"summary {key} = {summary.get(key)}, report.jsonl has {mine[key]}"
            )

    per_file: dict[str, Counter] = defaultdict(Counter)
    for nodeid, outcome in got.items():
        per_file[nodeid.split("::", 1)[0]][outcome] += 1
    # Files that ran no test at all (a module-level skip reports no TestReport).
    for unit in results["units"]:
        per_file.setdefault(short(unit["target"]), Counter())

    counts, listed, musts = parse_expected(expected_path)
    print(
        f"{'file':50s} {'pass':>5s} {'fail':>5s} {'xfail':>5s} {'xpass':>5s} {'skip':>5s} {'error':>5s}"
    )
    for f in sorted(per_file):
        c = per_file[f]
        print(f"{f:50s} " + " ".join(f"{c[o]:5d}" for o in OUTCOMES))
    total = Counter()
    for c in per_file.values():
        total.update(c)
    print(f"{'total':50s} " + " ".join(f"{total[o]:5d}" for o in OUTCOMES))

    for f in sorted(set(per_file) | set(counts)):
        want = counts.get(f)
        have = {o: per_file[f][o] for o in OUTCOMES if o != "error"}
        if want is None:
            problems.append(f"{f}: ran, but expected.txt has no counts line")
        elif f not in per_file:
            problems.append(f"{f}: in expected.txt, but did not run")
        elif {o: want.get(o, 0) for o in have} != have:
            diff = ", ".join(
                f"{o} {want.get(o, 0)} -> {have[o]}"
                for o in have
                if want.get(o, 0) != have[o]
            )
            problems.append(f"{f}: counts differ ({diff})")
    for nodeid, outcome in sorted(got.items()):
        if (
            outcome in ("failed", "xfailed", "xpassed", "error")
            and listed.get(nodeid) != outcome
        ):
            problems.append(f"new {outcome}: {nodeid}")
    for nodeid, outcome in sorted(listed.items()):
        if got.get(nodeid) != outcome:
            problems.append(
                f"recorded {outcome}, now {got.get(nodeid, 'not run')}: {nodeid}"
            )
    for pattern, least in musts:
        matched = {n: o for n, o in got.items() if fnmatch.fnmatchcase(n, pattern)}
        bad = sorted(n for n, o in matched.items() if o != "passed")
        if len(matched) < least:
            problems.append(
                f"must pass: {pattern}: {len(matched)} tests, at least {least} wanted"
            )
        for n in bad:
            problems.append(f"must pass: {n}: {matched[n]}")

    if suggest:
        print("\n# suggested expected.txt lines")
        for f in sorted(per_file):
            c = per_file[f]
            print(
                f"counts {f} "
                + " ".join(f"{o}={c[o]}" for o in OUTCOMES if o != "error")
            )
        for nodeid, outcome in sorted(got.items()):
            if outcome in ("failed", "xfailed", "xpassed", "error"):
                print(f"{outcome} {nodeid}")
    if problems:
        print(
            f"\npkcs11-check: {len(problems)} difference(s) from {expected_path.name}:"
        )
        for p in problems:
            print(f"  {p}")
        return 1
    print(
        f"\npkcs11-check: as recorded in {expected_path.name}; no crash, timeout or error"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
