#!/usr/bin/env bash
# The provider's speed table (BENCHMARKS.md, "OpenSSL provider"): a
# benchmark, never a test. Set by set, back to back:
#   builtin35   openssl speed (3.5) with its built-in SLH-DSA
#   provider35  openssl speed (3.5) with -propquery '?provider=sphincs'
#   provider30  provider_speed.c on the system libcrypto (3.0: its `openssl
#               speed` has no SLH-DSA; the same EVP loops as 3.5's speed)
#   bench       target/release/sphincs bench --threads 1 (our own timing)
# with the load average before each set. Raw lines go to standard output
# (or RAW=FILE); bench/openssl-speed/table.py turns them into the table.
#
# Usage: bench/openssl-speed/run.sh [SECONDS]      (default 2)
# Environment: OPENSSL35 (default: .ci/openssl35.sh --print), SETS (default:
# the twelve), SPHINCS_BIN (default target/release/sphincs).
# Needs: cargo build --release -p sphincs-openssl-provider -p sphincs-cli; gcc.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-2}"
O35="${OPENSSL35:-$(bash "$repo/.ci/openssl35.sh" --print 2>/dev/null)}"
sphincs="${SPHINCS_BIN:-$repo/target/release/sphincs}"
sets="${SETS:-SLH-DSA-SHA2-128s SLH-DSA-SHA2-128f SLH-DSA-SHA2-192s SLH-DSA-SHA2-192f SLH-DSA-SHA2-256s SLH-DSA-SHA2-256f
SLH-DSA-SHAKE-128s SLH-DSA-SHAKE-128f SLH-DSA-SHAKE-192s SLH-DSA-SHAKE-192f SLH-DSA-SHAKE-256s SLH-DSA-SHAKE-256f}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
NO_BUILD=1 "$repo/scripts/install-provider" "$scratch/prefix" >/dev/null
pdir="$scratch/prefix/lib/ossl-modules"
gcc -Wall -Wextra -Werror -O2 "$repo/bench/openssl-speed/provider_speed.c" -o "$scratch/provider_speed" -lcrypto

echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD -- crates || echo '+dirty')"
echo "cpu $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores"
echo "openssl35 $("$O35" version)"
echo "openssl30 $(/usr/bin/openssl version)"
echo "seconds $seconds"
speed_line() { # OPENSSL SET ARGS...: "keygen/s sign/s verify/s" of the table line
    local o="$1" set="$2"; shift 2
    "$o" speed "$@" -seconds "$seconds" "$set" 2>/dev/null |
        awk -v s="$set" '$1 == s && NF == 7 { print $5, $6, $7 }'
}
for set in $sets; do
    echo "load $set $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "builtin35 $set $(speed_line "$O35" "$set")"
    echo "provider35 $set $(speed_line "$O35" "$set" -provider-path "$pdir" -provider sphincs -provider default \
        -propquery '?provider=sphincs')"
    echo "provider30 $("$scratch/provider_speed" "$pdir" "$seconds" "$set" | grep -v '^#')"
    "$sphincs" bench -a "$set" --threads 1 --json |
        python3 -c 'import json,sys
for l in sys.stdin:
    j = json.loads(l); print("bench", j["algorithm"], j["op"], j["ops_per_s"], j["median_ns"], j["min_ns"], j["runs"])'
done
echo "load end $(cut -d' ' -f1-3 /proc/loadavg)"
