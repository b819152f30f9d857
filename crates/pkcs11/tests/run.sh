#!/usr/bin/env bash
# The PKCS#11 module through independent clients (its Rust suite, through
# cryptoki and its function list, is part of `cargo test --workspace`):
# python-pkcs11 with signatures checked by an independent FIPS 205 package
# (tests/python/run.sh), and OpenSC's pkcs11-tool (tests/pkcs11-tool.sh).
# The argument names the module (default target/release/libsphincs_pkcs11.so,
# which scripts/test-all builds).
set -euo pipefail
root=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../../..")
module=$(realpath "${1:-$root/target/release/libsphincs_pkcs11.so}")
cd "$root/crates/pkcs11/tests"
status=0
echo "== python-pkcs11"
bash python/run.sh "$module" || status=1
echo "== OpenSC pkcs11-tool"
bash pkcs11-tool.sh "$module" || status=1
exit $status
