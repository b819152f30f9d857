#!/usr/bin/env bash
# The chroot lane of .ci/run: the sid chroot (built once, cached: see
# .ci/sid-chroot.sh), then the embedded Cortex-M4F step (.ci/embedded.sh)
# and the AArch64 step (.ci/aarch64.sh) side by side in it. Both are mostly
# one thread at a time (an LTO link, qemu); run one after the other they
# left a core idle for most of their half hour. The chroot is mounted once
# here and unmounted when both have ended; each step's output is printed
# whole, after both ended. Fails if either failed.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { echo "chroot-lane: $*" >&2; }
source "$repo_root/.ci/sid-chroot.sh"

setup
enter
export SPHINCS_CHROOT_MOUNTED="$root"

logs="$(mktemp -d)"
steps=(embedded aarch64)
pids=()
for s in "${steps[@]}"; do
    bash "$repo_root/.ci/$s.sh" >"$logs/$s.log" 2>&1 &
    pids+=($!)
done
rc=0
for i in "${!steps[@]}"; do
    r=0
    wait "${pids[i]}" || r=$?
    echo "==== .ci/${steps[i]}.sh (exit $r)"
    cat "$logs/${steps[i]}.log"
    [[ $r -eq 0 ]] || rc=$r
done
rm -rf "$logs"
exit "$rc"
