"""Lays out the project's NIST ACVP SLH-DSA vectors (crates/sphincs/tests/data,
format slh-dsa-acvp-cases/1: ACVP-Server's prompt.json and
expectedResults.json joined per case, see its README.md) the way
pkcs11-check's acvp/test_acvp_slhdsa.py reads ACVP-Server's own tree:
<out>/acvp/gen-val/json-files/SLH-DSA-{keyGen,sigGen,sigVer}-FIPS205/ with
prompt.json and expectedResults.json (test groups and tests in the same
order, as the tool pairs them by position) and, for sigGen,
internalProjection.json with each case's public key (the second half of
the FIPS 205 private key, SK.seed || SK.prf || PK.seed || PK.root). The
tool does not fetch ACVP-Server here (no network): PKCS11_CHECK_DATA_DIR
points at <out>. Prints the number of cases per operation.

Usage: python acvp_tree.py DATA_DIR OUT_DIR
"""

import gzip
import json
import sys
from pathlib import Path

# Case keys that are group properties in ACVP's layout, by our name -> ACVP's.
GROUP_KEYS = {
    "parameterSet": "parameterSet",
    "interface": "signatureInterface",
    "preHash": "preHash",
    "deterministic": "deterministic",
}
MODES = {"keygen": "keyGen", "siggen": "sigGen", "sigver": "sigVer"}
# Per mode: which of a case's own keys go to the prompt; the rest (but the
# group's) go to expectedResults.
PROMPT_KEYS = {
    "keygen": {"skSeed", "skPrf", "pkSeed"},
    "siggen": {"sk", "message", "context", "additionalRandomness", "hashAlg"},
    "sigver": {"pk", "message", "context", "signature", "hashAlg"},
}


def layout(data_dir: Path, out: Path) -> dict[str, int]:
    counts = {}
    for op, mode in MODES.items():
        with gzip.open(data_dir / f"{op}.json.gz") as f:
            doc = json.loads(f.read())
        assert doc["format"] == "slh-dsa-acvp-cases/1", doc["format"]
        groups: dict[int, dict] = {}
        for case in doc["cases"]:
            g = groups.setdefault(
                case["tgId"],
                {"meta": {"tgId": case["tgId"], "testType": "AFT"}, "cases": []},
            )
            for ours, theirs in GROUP_KEYS.items():
                if case.get(ours) is not None:
                    g["meta"][theirs] = case[ours]
            g["cases"].append(case)
        prompt, expected, projection = [], [], []
        for tg_id in sorted(groups):
            g = groups[tg_id]
            p_tests, e_tests, i_tests = [], [], []
            for case in sorted(g["cases"], key=lambda c: c["tcId"]):
                own = {
                    k: v
                    for k, v in case.items()
                    if k not in GROUP_KEYS and k != "tgId" and v is not None
                }
                p_tests.append(
                    {"tcId": case["tcId"]}
                    | {k: v for k, v in own.items() if k in PROMPT_KEYS[op]}
                )
                e_tests.append(
                    {k: v for k, v in own.items() if k not in PROMPT_KEYS[op]}
                )
                if op == "siggen":
                    sk = case["sk"]
                    i_tests.append({"tcId": case["tcId"], "pk": sk[len(sk) // 2 :]})
            prompt.append(g["meta"] | {"tests": p_tests})
            expected.append({"tgId": tg_id, "tests": e_tests})
            projection.append(g["meta"] | {"tests": i_tests})
        top = {"vsId": 53, "algorithm": "SLH-DSA", "mode": mode, "revision": "FIPS205"}
        d = out / "acvp" / "gen-val" / "json-files" / f"SLH-DSA-{mode}-FIPS205"
        d.mkdir(parents=True, exist_ok=True)
        (d / "prompt.json").write_text(json.dumps(top | {"testGroups": prompt}))
        (d / "expectedResults.json").write_text(
            json.dumps(top | {"testGroups": expected})
        )
        if op == "siggen":
            (d / "internalProjection.json").write_text(
                json.dumps(top | {"testGroups": projection})
            )
        counts[mode] = len(doc["cases"])
        assert counts[mode] == doc["count"], (mode, counts[mode], doc["count"])
    return counts


if __name__ == "__main__":
    counts = layout(Path(sys.argv[1]), Path(sys.argv[2]))
    print(
        "ACVP SLH-DSA cases laid out:", ", ".join(f"{m} {n}" for m, n in counts.items())
    )
