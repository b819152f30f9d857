#!/usr/bin/env bash
# The JavaScript peers of the Node tests and the benchmark: @noble/post-quantum
# and @oqs/liboqs-js at fixed versions, from the npm registry, installed into
# the CI cache outside the clone (.ci/cache.sh), never into the checkout.
# Prints the node_modules directory that holds them; run again, it reuses the
# entry (named by this file's hash: a changed version list makes a new one).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source .ci/cache.sh
PEERS=("@noble/post-quantum@0.7.1" "@oqs/liboqs-js@0.15.1")
dir="$(ci_cache_entry js-peers tests/js/peers.sh)"
if [[ ! -f "$dir/done" ]]; then
    rm -rf "$SPHINCS_CI_CACHE"/js-peers-* 2>/dev/null || true
    mkdir -p "$dir"
    echo '{"private":true}' >"$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --silent --save-exact "${PEERS[@]}") >&2
    touch "$dir/done"
fi
echo "$dir/node_modules"
