#!/usr/bin/env bash
# The module through python-pkcs11, an independent PKCS#11 client, with its
# signatures checked by the SLH-DSA package (colinxu2020/slhdsa), an
# independent FIPS 205 implementation: a virtualenv under
# target/pkcs11-venv with the pinned packages of requirements.txt, then ruff
# and pytest. The argument names the module (default
# target/release/libsphincs_pkcs11.so, from
# `cargo build -p sphincs-pkcs11 --release`); extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.."
module=$(realpath "${1:-target/release/libsphincs_pkcs11.so}")
shift || true
if [ ! -f "$module" ]; then
    echo "run.sh: no module at $module (cargo build -p sphincs-pkcs11 --release)" >&2
    exit 1
fi
venv=$PWD/target/pkcs11-venv
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r crates/pkcs11/tests/python/requirements.txt
cd crates/pkcs11/tests/python
"$venv/bin/ruff" check --no-cache .
"$venv/bin/ruff" format --no-cache --check .
SPHINCS_PKCS11_MODULE=$module "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" test_python_pkcs11.py
