#!/usr/bin/env bash
# The npm package as bundlers and other runtimes take it: esbuild, vite,
# webpack and rollup (exact versions from tests/js/bundlers/package.json,
# installed once into the CI cache outside the clone, as peers.sh does) build
# the apps of tests/js/bundlers for the browser (run in headless chromium) and
# for Node (run with node); Node, Deno and Bun run the apps unbundled, and
# Node require()s the package. One line per case, `ok - <bundler>/<target>/<app>`
# or `not ok - ... : <first error line>`; exit 1 if any failed.
#   tests/js/bundlers.sh [TGZ]   (default: the checkout's target/npm/slh-dsa-wasm-*.tgz)
#   BUNDLERS_ONLY=REGEX, BUNDLERS_VERBOSE=1: see tests/js/bundlers/run.mjs
set -euo pipefail
if [[ $# -gt 0 ]]; then
    tgz=$(realpath "$1")
fi
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if [[ -z "${tgz:-}" ]]; then
    tgz=$(ls target/npm/slh-dsa-wasm-*.tgz)
fi
[[ -f "$tgz" ]] || { echo "bundlers.sh: no package tarball $tgz" >&2; exit 1; }
source .ci/cache.sh

tools="$(ci_cache_entry js-bundlers tests/js/bundlers.sh tests/js/bundlers/package.json)"
if [[ ! -f "$tools/done" ]]; then
    rm -rf "$SPHINCS_CI_CACHE"/js-bundlers-* 2>/dev/null || true
    mkdir -p "$tools"
    cp tests/js/bundlers/package.json "$tools/"
    (cd "$tools" && npm install --no-audit --no-fund --silent) >&2
    touch "$tools/done"
fi
if ! command -v "${CHROMIUM:-chromium}" >/dev/null; then
    echo "bundlers.sh: no chromium (scripts/js-toolchain --browser installs Debian's)" >&2
    exit 1
fi

scratch=target/js-bundlers
rm -rf "$scratch" && mkdir -p "$scratch/node_modules/slh-dsa-wasm"
tar -xzf "$tgz" -C "$scratch/node_modules/slh-dsa-wasm" --strip-components=1
for p in "$tools"/node_modules/* "$tools"/node_modules/.bin; do
    ln -s "$p" "$scratch/node_modules/$(basename "$p")"
done
echo "# bundlers: $tgz"
node tests/js/bundlers/run.mjs "$scratch"
