"""Shared paths and helpers of the Python test suite (run by tests/run.sh)."""

from __future__ import annotations

import gzip
import json
import os
import pathlib
import signal
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
VECTORS = REPO / "crates" / "sphincs" / "tests" / "data"
FORMAT = "slh-dsa-acvp-cases/1"


@pytest.fixture(autouse=True, scope="session")
def _sigint_raises_keyboard_interrupt():
    """The Ctrl-C tests send SIGINT and expect KeyboardInterrupt. A suite
    started with SIGINT ignored (a background job of a non-interactive
    shell, nohup) inherits that, and Python then installs no handler of its
    own, so the signal would be lost and the tests fail for no fault of the
    package: give SIGINT Python's usual handler for the session."""
    before = signal.getsignal(signal.SIGINT)
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


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


@pytest.fixture(scope="session")
def run_cli(cli):
    """A function that runs the CLI with its arguments (each made a string)
    and returns the finished process; unless given ok=False it asserts the
    run succeeded, showing the CLI's stderr when it did not."""

    def run(*args, ok=True):
        p = subprocess.run([str(cli), *map(str, args)], check=False, capture_output=True, text=True)
        if ok:
            assert p.returncode == 0, p.stderr
        return p

    return run


def key_loaders(der: bool):
    """The pair of private and public key loaders for DER (der) or PEM input."""
    import sphincs

    if der:
        return sphincs.load_der_private_key, sphincs.load_der_public_key
    return sphincs.load_pem_private_key, sphincs.load_pem_public_key


def sp800_230_kat() -> list[dict]:
    """The draft SP 800-230 known answers (fixed seeds, public key, a
    deterministic signature of each set), made by the core's tests."""
    with gzip.open(VECTORS / "sp800-230-kat.json.gz", "rt") as f:
        return json.load(f)


@pytest.fixture(scope="session")
def sha2_128_24_key():
    """The SLH-DSA-SHA2-128-24 known answer and the key its seeds give: the
    suite's one key generation of a draft SP 800-230 set (a tree of 2^22
    leaves, about a minute), shared by every test that needs such a key."""
    import sphincs

    entry = next(e for e in sp800_230_kat() if e["algorithm"] == "SLH-DSA-SHA2-128-24")
    seeds = (bytes.fromhex(entry[k]) for k in ("sk_seed", "sk_prf", "pk_seed"))
    key = sphincs.SLHDSAPrivateKey.from_seeds(sphincs.Algorithm.SHA2_128_24, *seeds, threads=0)
    return entry, key

