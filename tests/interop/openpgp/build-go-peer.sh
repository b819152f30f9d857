#!/usr/bin/env bash
# Builds go-peer (tests/interop/openpgp/go-peer: a SOP-subset OpenPGP peer over
# ProtonMail's go-crypto v1.5.2) into the CI cache, outside the clone, and
# prints the binary's absolute path on stdout; everything else goes to stderr.
# The cache entry is named by a hash of go-peer's sources, go.mod, go.sum and
# this script, so an unchanged peer is built once per machine. Needs Go
# (on PATH or in /usr/local/go/bin) and the Go module proxy for a first build.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
# shellcheck source=../../../.ci/cache.sh
source .ci/cache.sh

src=tests/interop/openpgp/go-peer
entry="$(ci_cache_entry go-peer "$src/go.mod" "$src/go.sum" "$src"/*.go tests/interop/openpgp/build-go-peer.sh)"

if [[ -x "$entry/go-peer" ]]; then
    echo "$entry/go-peer"
    exit 0
fi

go=go
if ! command -v go >/dev/null 2>&1; then
    go=/usr/local/go/bin/go
fi
[[ -x "$(command -v "$go")" ]] || { echo "build-go-peer.sh: no Go toolchain found" >&2; exit 1; }

mkdir -p "$SPHINCS_CI_CACHE"
tmp="$(mktemp -d "$SPHINCS_CI_CACHE/.go-peer-build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

echo "build-go-peer.sh: building $entry/go-peer with $("$go" version)" >&2
(
    cd "$src"
    # go.sum is the lock: -mod=readonly refuses to change it; GOTOOLCHAIN=local
    # never fetches another toolchain.
    GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false" \
        nice -n 10 "$go" build -trimpath -o "$tmp/go-peer" .
) >&2

# Publish the entry whole (a rename), never half-built; a concurrent build
# that got there first wins.
rm -rf "$entry"
if ! mv -T "$tmp" "$entry" 2>/dev/null && [[ ! -x "$entry/go-peer" ]]; then
    echo "build-go-peer.sh: cannot move the build into $entry" >&2
    exit 1
fi

# Older go-peer entries are stale.
for old in "$SPHINCS_CI_CACHE"/go-peer-*; do
    if [[ "$old" != "$entry" && -d "$old" ]]; then
        rm -rf "$old"
    fi
done

echo "$entry/go-peer"
