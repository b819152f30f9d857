#!/usr/bin/env bash
# The Python suite, set up from the project's own files: a virtualenv under
# target/python-venv with the pinned packages of crates/python/requirements-test.txt,
# the `sphincs` CLI (for the key interop tests), the package built and installed
# exactly as the README says (`pip install ./crates/python`), then ruff
# (the package's lint settings are in crates/python/pyproject.toml) and pytest.
# With SPHINCS_PREBUILT=1 (scripts/test-all) the extension the workspace build
# made is installed instead, packed as a wheel by tests/pack_prebuilt.py:
# maturin builds this crate alone, with other features for the core's hash
# crates than the workspace's tests ask for, so `pip install` would compile
# the whole core a second time (about 3.5 minutes of CI).
# Extra arguments go to pytest (e.g. `-k acvp`, `-x`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
venv=$PWD/target/python-venv
python=${PYTHON:-python3}

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r crates/python/requirements-test.txt
# The CLI and the extension, unless scripts/test-all has built them already
# (SPHINCS_PREBUILT=1).
if [[ "${SPHINCS_PREBUILT:-0}" == 1 ]]; then
    wheel=$("$venv/bin/python" crates/python/tests/pack_prebuilt.py target/release/lib_native.so target/python-wheel)
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
else
    cargo build --release -p sphincs-cli
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps ./crates/python
fi
cd crates/python
"$venv/bin/ruff" check --no-cache .
"$venv/bin/python" -m pytest tests -q -p no:cacheprovider "$@"
