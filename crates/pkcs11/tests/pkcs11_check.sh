#!/usr/bin/env bash
# The module through pkcs11-check (PyPI, pinned in
# pkcs11-check/requirements.txt), an independent PKCS#11 conformance client:
# its SLH-DSA tests (key generation, CKM_SLH_DSA and the HashSLH-DSA
# mechanisms, and NIST ACVP keyGen/sigGen/sigVer through the token, from the
# project's own ACVP vectors laid out as ACVP-Server's tree by
# pkcs11-check/acvp_tree.py) and its session, login, PIN, object, search and
# return-value (CKR) tests, in a fresh token directory (SO PIN, user PIN,
# label set by pkcs11-tool), --destructive (the token is ours to spoil).
#
# pkcs11-check needs Python >= 3.12; Debian 12 has 3.11, so the virtualenv
# (target/pkcs11-check-venv) is made with Debian 13's Python 3.13
# (.ci/python313.sh, cached outside the clone). Each test file runs in its own
# process (the tool's file isolation), so a crash of the module is counted,
# not fatal to the run; pkcs11-check/check.py then fails this script on any
# crash, timeout or error, and on any outcome that differs from
# pkcs11-check/expected.txt (per-file counts, each failed or xfailed test,
# the SLH-DSA tests that must pass). docs/pkcs11.md explains each recorded
# difference.
#
# The argument names the module (default target/release/libsphincs_pkcs11.so,
# from `cargo build -p sphincs-pkcs11 --release`). With PKCS11_CHECK_REPORT=DIR
# the tool's report (report.jsonl, results.json) and log are kept in DIR;
# `python check.py DIR expected.txt --suggest` then prints the lines that
# describe that run, to review against expected.txt by hand.
set -euo pipefail
root=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../../..")
cd "$root"
module=$(realpath "${1:-target/release/libsphincs_pkcs11.so}")
if [ ! -f "$module" ]; then
    echo "pkcs11_check.sh: no module at $module (cargo build -p sphincs-pkcs11 --release)" >&2
    exit 1
fi
here=crates/pkcs11/tests/pkcs11-check
start=$(date +%s)

# Python 3.13 and the virtualenv (kept under target/ between local runs; a
# CI clone makes it anew: Debian's pip wheel keeps no HTTP cache, so a
# PIP_CACHE_DIR stayed empty when tried).
venv=$root/target/pkcs11-check-venv
bash .ci/python313.sh --venv "$venv" >/dev/null
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" --version
"$venv/bin/pkcs11-check" version 2>/dev/null | head -n 1 || true

# OpenSC's pkcs11-tool sets up the token (as tests/pkcs11-tool.sh installs it).
if ! command -v pkcs11-tool >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends opensc
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SPHINCS_PKCS11_DIR=$work/token
so_pin=87654321
pin=123456
pkcs11-tool --module "$module" --init-token --so-pin "$so_pin" --label "pkcs11-check" >/dev/null
pkcs11-tool --module "$module" --login --login-type so --so-pin "$so_pin" --init-pin --pin "$pin" >/dev/null

# The ACVP vectors where the tool looks for ACVP-Server's files.
export PKCS11_CHECK_DATA_DIR=$work/data
"$venv/bin/python" "$here/acvp_tree.py" crates/sphincs/tests/data "$PKCS11_CHECK_DATA_DIR"

# The subset: files with SLH-DSA tests, and the general session, login,
# object and return-value files that a signature-only token can pass
# (files whose every test needs AES, RSA, EC or digests are left out: they
# only skip, or fail on C_GenerateKey; see docs/pkcs11.md).
tests=$("$venv/bin/python" -c 'import pathlib, pkcs11_check.testcases as t; print(pathlib.Path(t.__file__).parent)')
files=(
    test_pqc_sign.py test_hash_slh_dsa.py acvp/test_acvp_slhdsa.py
    test_mech_keygen.py test_mech_sign.py test_mech_multipart.py test_mech_flags.py
    test_mech_state.py test_mech_coverage.py
    test_data_objects.py test_search.py test_object_visibility.py
    test_attribute_defaults.py test_duplicate_labels.py
    test_session_state_machine.py test_session_edge_cases.py test_pin.py test_so_pin.py
    test_init.py test_interface.py test_interface_negotiation.py test_token_flags.py
    test_rng.py
    ckr/test_ckr_session.py ckr/test_ckr_slot_token.py ckr/test_ckr_general.py
    ckr/test_ckr_state.py ckr/test_ckr_object.py ckr/test_ckr_null_params.py
    ckr/test_ckr_random.py ckr/test_ckr_raw_state.py ckr/test_ckr_raw_attrs.py
    ckr/test_ckr_raw_buffer.py ckr/test_ckr_raw_args_bad.py ckr/test_ckr_v32_raw.py
    ckr/test_ckr_universal.py
    security/test_api_boundary.py security/test_ffi_null_pointer.py
)
targets=()
for f in "${files[@]}"; do
    targets+=("$tests/$f")
done
mkdir -p "$work/report"
echo "== pkcs11-check: ${#files[@]} test files"
rc=0
(cd "$work" && XDG_CACHE_HOME=$work/cache P11TEST_PIN=$pin P11TEST_SO_PIN=$so_pin \
    "$venv/bin/pkcs11-check" test --module "$module" --slot 0 --destructive \
    --isolation file --state-file "$work/state.json" --policy-file "$work/policy.json" \
    --output json --output-file "$work/report/results.json" "${targets[@]}" \
    >"$work/run.log" 2>&1) || rc=$?
# 1: some test failed (check.py judges which); anything else: the run itself failed.
if [ "$rc" -gt 1 ] || [ ! -f "$work/report/results.json" ]; then
    cat "$work/run.log" >&2
    echo "pkcs11_check.sh: pkcs11-check exited $rc without a report" >&2
    exit 1
fi
if [ -n "${PKCS11_CHECK_REPORT:-}" ]; then
    mkdir -p "$PKCS11_CHECK_REPORT"
    cp "$work/report/report.jsonl" "$work/report/results.json" "$work/run.log" "$PKCS11_CHECK_REPORT/"
fi
status=0
"$venv/bin/python" "$here/check.py" "$work/report" "$here/expected.txt" || status=1

# That a crash fails this script: the module behind crash_shim.c, whose
# C_GenerateRandom raises SIGSEGV, through test_rng.py; check.py must see the
# signal and the tool's crash count, and fail.
echo "== pkcs11-check: a module that crashes is caught"
cc -Wall -Wextra -Werror -shared -fPIC -o "$work/crash_shim.so" "$here/crash_shim.c" -ldl
mkdir -p "$work/crash"
(cd "$work" && CRASH_SHIM_MODULE=$module XDG_CACHE_HOME=$work/cache P11TEST_PIN=$pin \
    "$venv/bin/pkcs11-check" test --module "$work/crash_shim.so" --slot 0 \
    --isolation file --state-file "$work/crash-state.json" --policy-file "$work/crash-policy.json" \
    --output json --output-file "$work/crash/results.json" "$tests/test_rng.py" \
    >"$work/crash.log" 2>&1) || true
crash_rc=0
"$venv/bin/python" "$here/check.py" "$work/crash" "$here/expected.txt" >"$work/crash-check.log" || crash_rc=$?
if [ "$crash_rc" -ne 1 ] || ! grep -q "test_rng.py: process ended by .*SIGSEGV" "$work/crash-check.log" ||
    ! grep -q "summary: crashed = 1" "$work/crash-check.log"; then
    cat "$work/crash.log" "$work/crash-check.log" >&2
    echo "pkcs11_check.sh: a crashing module was not reported as a crash" >&2
    status=1
else
    grep -E "SIGSEGV|crashed = " "$work/crash-check.log"
fi
echo "pkcs11-check: $(($(date +%s) - start)) s (set-up included)"
exit $status
