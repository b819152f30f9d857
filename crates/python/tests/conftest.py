"""Shared paths and helpers of the Python test suite (run by tests/run.sh)."""

from __future__ import annotations

import gzip
import json
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
VECTORS = REPO / "crates" / "sphincs" / "tests" / "data"
FORMAT = "slh-dsa-acvp-cases/1"


def load_vectors(name: str, operation: str) -> list[dict]:
    """The cases of a packed ACVP file (see crates/sphincs/tests/data/README.md)."""
    with gzip.open(VECTORS / name, "rt") as f:
        doc = json.load(f)
    assert doc["format"] == FORMAT
    assert doc["operation"] == operation
    assert doc["count"] == len(doc["cases"]) > 0
    return doc["cases"]


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    """The `sphincs` binary (run.sh builds it; SPHINCS_CLI overrides)."""
    path = pathlib.Path(os.environ.get("SPHINCS_CLI", REPO / "target" / "release" / "sphincs"))
    if not path.is_file():
        pytest.fail(f"{path} not found: build it with `cargo build --release -p sphincs-cli`")
    return path
