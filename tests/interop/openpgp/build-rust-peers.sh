#!/usr/bin/env bash
# Builds the two Rust OpenPGP interop peers (rpgp-peer over rPGP, sequoia-peer
# over Sequoia) into the CI cache, outside the clone, and prints where they are:
#   rpgp-peer=/abs/path
#   sequoia-peer=/abs/path
# on standard output; everything cargo says goes to standard error.
#
# Each peer has one cache entry (.ci/cache.sh), named by a hash of its
# Cargo.toml, Cargo.lock, src/*.rs and this script: an entry that already holds
# the binary is reused, a missing one is built (`cargo build --release
# --locked`, crates from crates.io) and older entries of that peer are removed.
# Both peers share one cargo target directory in the cache so that the crates
# they have in common compile once; they are built one after the other.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
script="$here/$(basename "${BASH_SOURCE[0]}")"
# shellcheck source=../../../.ci/cache.sh
source "$root/.ci/cache.sh"

command -v cargo >/dev/null || PATH="$HOME/.cargo/bin:$PATH"
target="$SPHINCS_CI_CACHE/openpgp-peers-target"
mkdir -p "$SPHINCS_CI_CACHE"

# build_peer NAME: prints NAME=/abs/path of the cached binary, building it first
# if its cache entry is missing.
build_peer() {
    local peer=$1 dir="$here/$1" entry tmp stale
    entry="$(ci_cache_entry "openpgp-$peer" \
        "$dir/Cargo.toml" "$dir/Cargo.lock" "$dir"/src/*.rs "$here"/peer-common/*.rs "$script")"
    if [[ ! -x "$entry/bin/$peer" ]]; then
        echo "build-rust-peers: building $peer into $entry" >&2
        CARGO_TARGET_DIR="$target" nice -n 10 cargo build --release --locked \
            -j "${CARGO_BUILD_JOBS:-2}" --manifest-path "$dir/Cargo.toml" >&2
        tmp="$(mktemp -d "$SPHINCS_CI_CACHE/.openpgp-$peer.XXXXXX")"
        chmod 755 "$tmp"
        mkdir "$tmp/bin"
        cp "$target/release/$peer" "$tmp/bin/$peer"
        # A concurrent run may have made the entry first: keep theirs.
        mv -T "$tmp" "$entry" 2>/dev/null || rm -rf "$tmp"
    fi
    for stale in "$SPHINCS_CI_CACHE/openpgp-$peer"-????????????????; do
        if [[ -e "$stale" && "$stale" != "$entry" ]]; then
            rm -rf "$stale"
        fi
    done
    echo "$peer=$entry/bin/$peer"
}

build_peer rpgp-peer
build_peer sequoia-peer
