#!/usr/bin/env python3
"""Pack the FIPS 205 ACVP test vectors into crates/sphincs/tests/data/.

Reads keygen.json, siggen.json and sigver.json (format "slh-dsa-acvp-cases/1",
see ../shared/vectors/fips205/README.md) and writes gzip files that the
integration tests read:

- keygen.json.gz: the cases unchanged.
- siggen.json.gz: each case's `signature` is replaced by `signatureSha256`,
  the hex SHA-256 of the signature bytes; all other fields are kept.
- sigver.json.gz: the cases unchanged (the signatures are inputs).

Output is deterministic (sorted cases as in the input, one case per line,
gzip with mtime 0), so running the script again gives the same bytes with
the same zlib.

Usage: python3 scripts/pack-vectors.py [SOURCE_DIR [OUT_DIR]]
Defaults: SOURCE_DIR = ../shared/vectors/fips205 (relative to the repository
root), OUT_DIR = crates/sphincs/tests/data.
"""

import gzip
import hashlib
import json
import os
import sys

FORMAT = "slh-dsa-acvp-cases/1"
HEADER_KEYS = ("format", "operation", "source", "selection", "count")


def load(path, operation):
    with open(path, "rb") as f:
        doc = json.load(f)
    if doc.get("format") != FORMAT:
        sys.exit(f"{path}: unexpected format {doc.get('format')!r}")
    if doc.get("operation") != operation:
        sys.exit(f"{path}: unexpected operation {doc.get('operation')!r}")
    if doc["count"] != len(doc["cases"]) or not doc["cases"]:
        sys.exit(f"{path}: count {doc['count']} != {len(doc['cases'])} cases")
    return doc


def dump(doc, cases, packing, out_path):
    # Same layout as the source files: header fields, then one case per line.
    header = {k: doc[k] for k in HEADER_KEYS}
    header["count"] = len(cases)
    header["packing"] = packing
    head = json.dumps(header)[:-1]  # drop the closing brace
    lines = [json.dumps(c, separators=(",", ":")) for c in cases]
    text = head + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n"
    data = gzip.compress(text.encode("ascii"), compresslevel=9, mtime=0)
    with open(out_path, "wb") as f:
        f.write(data)
    return len(text), len(data)


def pack_siggen(cases):
    out = []
    for c in cases:
        c = dict(c)
        sig = bytes.fromhex(c.pop("signature"))
        c["signatureSha256"] = hashlib.sha256(sig).hexdigest().upper()
        out.append(c)
    return out


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "vectors", "fips205")
    dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "crates", "sphincs", "tests", "data")
    os.makedirs(dst, exist_ok=True)

    jobs = [
        ("keygen", lambda cs: cs, "unchanged"),
        (
            "siggen",
            pack_siggen,
            "signature replaced by signatureSha256 (upper-case hex SHA-256 of the signature bytes)",
        ),
        ("sigver", lambda cs: cs, "unchanged"),
    ]
    for name, transform, packing in jobs:
        in_path = os.path.join(src, name + ".json")
        with open(in_path, "rb") as f:
            in_sha = hashlib.sha256(f.read()).hexdigest()
        doc = load(in_path, name)
        cases = transform(doc["cases"])
        out_path = os.path.join(dst, name + ".json.gz")
        raw, packed = dump(doc, cases, packing, out_path)
        print(
            f"{name}: {len(cases)} cases, input {os.path.getsize(in_path)} B "
            f"(sha256 {in_sha}), json {raw} B, {os.path.basename(out_path)} {packed} B"
        )


if __name__ == "__main__":
    main()
