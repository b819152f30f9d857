#!/usr/bin/env bash
# The JavaScript suite: builds the npm package once (scripts/build-npm), installs
# it from its tarball beside the peers (tests/js/peers.sh: noble and liboqs-js
# from npm, kept in the CI cache) under target/js-test, then runs the Node
# tests there (node --test: ACVP vectors, the peers, the API's edges) and the
# headless chromium page (browser.mjs), checks the sizes of the package's
# entries (tests/js/sizes.mjs) and builds and runs apps with each bundler and
# runtime (tests/js/bundlers.sh).
#   SPHINCS_JS_PREBUILT=1   use target/npm/*.tgz as it is
#   tests/js/run.sh [node|browser|bundlers]   one part only
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
what=${1:-all}
[[ "${SPHINCS_JS_PREBUILT:-0}" == 1 ]] || bash scripts/build-npm
tgz=$(ls target/npm/slh-dsa-wasm-*.tgz)
peers=$(bash tests/js/peers.sh)

dir=target/js-test
rm -rf "$dir" && mkdir -p "$dir/node_modules/slh-dsa-wasm"
tar -xzf "$tgz" -C "$dir/node_modules/slh-dsa-wasm" --strip-components=1
for p in "$peers"/*; do ln -s "$p" "$dir/node_modules/$(basename "$p")"; done
cp tests/js/*.test.mjs tests/js/inputs.mjs tests/js/noble-fixtures.json tests/js/browser.mjs tests/js/serve-and-run-chromium.mjs tests/js/browser-page.html tests/js/csp-page.html "$dir/"
export SPHINCS_VECTORS="$root/crates/sphincs/tests/data"

status=0
if [[ $what == all || $what == node ]]; then
    (cd "$dir" && node --test --test-reporter=spec ./*.test.mjs) || status=1
fi
if [[ $what == all || $what == node ]]; then
    node tests/js/sizes.mjs target/npm/package || status=1
fi
if [[ $what == all || $what == browser ]]; then
    bash scripts/js-toolchain --browser
    (cd "$dir" && node browser.mjs) || status=1
fi
if [[ $what == all || $what == bundlers ]]; then
    bash scripts/js-toolchain --browser
    bash tests/js/bundlers.sh "$tgz" || status=1
fi
exit $status
