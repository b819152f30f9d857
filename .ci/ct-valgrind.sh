#!/usr/bin/env bash
# Constant-time check: runs crates/ct-check's `ct-valgrind` under valgrind
# memcheck with SK.seed, SK.prf and addrnd marked undefined, so that any branch
# or memory index depending on them is an error (docs/ct-and-fuzzing.md).
#
# By default: keygen, key loading, deterministic and hedged signing for the six
# f sets, four SPHINCS+ round-3.1 sets (SHA2/SHAKE/Haraka-128f robust,
# Haraka-128f simple) and SPHINCS-256; key generation only for the two 128-bit
# s sets. The 192- and 256-bit s sets' key generation runs the code of the f
# sets' of the same n (a taller top tree), and took 120 of the check's 480 s;
# signing with the s sets takes ~15 minutes more under valgrind.
# CT_VALGRIND_FULL=1 checks every set: keygen and signing.
# Installs valgrind with apt-get if it is missing (the client requests are
# issued by the program itself: no valgrind headers or bindings needed).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== constant-time check under valgrind memcheck"

if ! command -v valgrind >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends valgrind
fi
valgrind --version

manifest=crates/ct-check/Cargo.toml
cargo fmt --manifest-path "$manifest" --check
cargo build --release --manifest-path "$manifest" --features hooks --bin ct-valgrind

# Sets are chosen by substrings of their names: every 128-bit set, the
# 192/256-bit f sets, every round-3.1 set ct-valgrind knows and SPHINCS-256.
args=(--s-keygen-only 128 192f 256f sphincs-)
[ "${CT_VALGRIND_FULL:-0}" = 1 ] && args=()
# The negative control: without the library's declassification points the
# message digest and WOTS+ digits are secret, and memcheck must report errors
# (exit code 99 = valgrind found errors, not a crash or a missing binary).
# One control per declassification scheme: SLH-DSA's and SPHINCS-256's.
for control in SHA2-128f sphincs-256; do
    rc=0
    valgrind -q --error-exitcode=99 crates/ct-check/target/release/ct-valgrind \
        --no-declassify "$control" >/dev/null 2>&1 || rc=$?
    if [ "$rc" -ne 99 ]; then
        echo "ct-valgrind: the negative control (--no-declassify $control) exited $rc, not 99 (memcheck errors)" >&2
        exit 1
    fi
    echo "negative control ($control): memcheck reports the undeclassified run, as it must"
done
valgrind --error-exitcode=1 --track-origins=yes \
    crates/ct-check/target/release/ct-valgrind "${args[@]}"
