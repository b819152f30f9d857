# Cargo's build directories, kept between CI runs in the cache outside the
# clone (.ci/cache.sh), so that a run compiles the dependencies (RustCrypto,
# der/x509/cms, clap, pyo3, the cross-check peers, the standard library of
# the wasm32 and thumbv7em builds) only when they change (sourced, not run).
#
# Only what cargo writes and checks itself is kept: a profile's directory,
# a lane's target directory, the chroot's CARGO_HOME. Cargo decides what is
# stale: registry crates by version, flags and toolchain; the workspace's
# own crates by their files' times, which a fresh clone makes newer than any
# kept build, so they are always compiled again. Nothing else under target/
# (the virtualenv, the C prefix, the npm package) is kept.
#
# ci_targets_restore moves the kept directories into the clone (a rename on
# the same file system); ci_targets_save, run when CI ends (pass or fail),
# moves them back, after dropping the units of the workspace's crates that
# this run rebuilt under another name (.ci/prune-targets.py: the fuzz and
# ct-check workspaces name them by the clone's path). A run that finds none
# builds from nothing, as on a fresh
# machine; two runs at once on one machine do not share them (the first
# takes them). The store is emptied when it outgrows
# SPHINCS_CI_TARGETS_MAX_GB (default 16) and is skipped with
# SPHINCS_CI_TARGETS=off.

ci_targets=(
    target/debug            # lint: clippy, doc
    target/release          # scripts/test-all: tests, libraries, programs
    target/js-wasm-a        # scripts/build-npm: wasm32 with build-std (two builds
    target/js-wasm-b        #   side by side, one target directory each)
    target/chroot           # .ci/aarch64.sh (in the sid chroot)
    target/chroot-embedded  # .ci/embedded.sh (in the sid chroot)
    target/chroot-cargo-home  # (not a target directory: never pruned)
    crates/ct-check/target  # .ci/ct-valgrind.sh
    fuzz/target             # .ci/fuzz-smoke.sh
)
ci_targets_store="$SPHINCS_CI_CACHE/cargo-targets"

ci_targets_key() { # a path in the clone -> its name in the store
    echo "${1//\//+}"
}

ci_targets_restore() {
    [[ ${SPHINCS_CI_TARGETS:-on} == off ]] && return 0
    ci_targets_since=$(date +%s)
    local d kept=() key
    for d in "${ci_targets[@]}"; do
        key="$ci_targets_store/$(ci_targets_key "$d")"
        if [[ -d $key && ! -e $d ]]; then
            mkdir -p "$(dirname "$d")"
            mv "$key" "$d" && kept+=("$d")
        fi
    done
    echo "cargo build directories kept from an earlier run: ${kept[*]:-none}"
}

ci_targets_save() {
    [[ ${SPHINCS_CI_TARGETS:-on} == off ]] && return 0
    local d key gb pruned=()
    mkdir -p "$ci_targets_store" || return 0
    for d in "${ci_targets[@]}"; do
        [[ -d $d && $d != *cargo-home ]] && pruned+=("$d")
    done
    if [[ ${#pruned[@]} -gt 0 ]]; then
        python3 .ci/prune-targets.py "${ci_targets_since:-0}" "${pruned[@]}" || true
    fi
    for d in "${ci_targets[@]}"; do
        [[ -d $d && ! -L $d ]] || continue
        key="$ci_targets_store/$(ci_targets_key "$d")"
        rm -rf "$key"
        mv "$d" "$key" || true
    done
    gb=$(du -s --block-size=1G "$ci_targets_store" 2>/dev/null | cut -f1)
    if [[ ${gb:-0} -gt ${SPHINCS_CI_TARGETS_MAX_GB:-16} ]]; then
        echo "cargo build directories: ${gb} GB kept, over ${SPHINCS_CI_TARGETS_MAX_GB:-16}: emptied"
        rm -rf "$ci_targets_store"
    fi
}
