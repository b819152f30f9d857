#!/usr/bin/env bash
# The Debian sid chroot that .ci/aarch64.sh and .ci/embedded.sh share: its
# package list, how it is built (mmdebstrap, once; a grown list is installed
# into it), and how the checkout is mounted into it and unmounted again.
# Sourced, not run. Expects repo_root and log() from the sourcing script.
#
# The chroot lives outside the clone, in the CI cache of .ci/cache.sh, named
# by a hash of its recipe (the package list and how it is built): later runs
# on the same machine reuse it, a changed recipe builds a new one (and removes
# the old), AARCH64_REBUILD=1 redoes it. It is built under a temporary name
# and renamed when complete, so an interrupted build is never taken for a
# chroot. The mirror is the one this machine's apt sources name (as
# .ci/openssl35.sh finds it). Needs root (mmdebstrap, chroot, mount).


# AArch64: rustc/cargo/clippy from Debian, the arm64 std, the cross gcc as
# linker, qemu-user. Cortex-M4 (.ci/embedded.sh): rust-src for -Zbuild-std,
# the arm-none-eabi binutils (linker, size), gcc-arm-none-eabi (the C
# bootloader example), qemu-system-arm.
packages=(rustc cargo rust-clippy libstd-rust-dev:arm64 gcc-aarch64-linux-gnu
    libc6-dev-arm64-cross qemu-user ca-certificates
    rust-src binutils-arm-none-eabi gcc-arm-none-eabi qemu-system-arm)
wanted="$(printf '%s\n' "${packages[@]}")"
# What makes the chroot: the package list and the mmdebstrap call in setup()
# (change this line with that call). The cache entry is named by their hash,
# so edits elsewhere in this file (mounting, comments) keep the chroot.
recipe="mmdebstrap --variant=apt --architectures=amd64,arm64 sid main"
source "$repo_root/.ci/cache.sh"
root="${SPHINCS_CHROOT:-$(ci_cache_entry sid-chroot <(printf '%s\n%s\n' "$wanted" "$recipe"))}"

system_mirror() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -r "$f" ]] || continue
        awk 'tolower($1) == "uris:" { u = $2 }
            tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+$/) { print u; exit } }
            /^[[:space:]]*$/ { u = "" }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -r "$f" ]] || continue
        awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
            if ($(i + 1) ~ /^[a-z]+$/) print $i }' "$f"
    done
}

setup() {
    if [[ "${AARCH64_REBUILD:-0}" != 1 && -f "$root/.sphincs-packages" ]]; then
        log "chroot $root is ready (cached)"
        return
    fi
    [[ $EUID -eq 0 ]] || { log "needs root (mmdebstrap, chroot, mount)"; exit 2; }
    if ! command -v mmdebstrap >/dev/null; then
        log "installing mmdebstrap"
        apt-get -q update >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get -q install -y mmdebstrap >/dev/null
    fi
    local mirror="${AARCH64_MIRROR:-$(system_mirror | head -n 1)}"
    [[ -n "$mirror" ]] || { log "no Debian mirror in apt sources; set AARCH64_MIRROR"; exit 2; }
    unmount_all
    # Entries of older recipes (not mounted: no run is using them) go.
    local old
    for old in "$(dirname "$root")"/sid-chroot-*; do
        [[ -d "$old" && "$old" != "$root" ]] || continue
        mountpoint -q "$old/src" 2>/dev/null || rm -rf "$old"
    done
    local partial="$root.partial.$$"
    rm -rf "$root" "$partial"
    mkdir -p "$(dirname "$root")"
    local t0=$SECONDS
    log "building $root from $mirror (sid)"
    local include
    include="$(IFS=,; echo "${packages[*]}")"
    mmdebstrap --quiet --aptopt='Acquire::Check-Valid-Until "false"' --variant=apt \
        --architectures=amd64,arm64 --include="$include" \
        sid "$partial" "deb $mirror sid main"
    echo "$wanted" >"$partial/.sphincs-packages"
    mv "$partial" "$root"
    log "chroot built in $((SECONDS - t0)) s"
}

mounts=()
unmount_all() {
    local m
    for m in "$root/src" "$root/proc" "$root/dev"; do
        if mountpoint -q "$m" 2>/dev/null; then umount -l "$m" || true; fi
    done
}

enter() {
    # Mounted by the script that runs this one beside another in the same
    # chroot (.ci/chroot-lane.sh: embedded and AArch64 at once): it mounts
    # once, and unmounts when both have ended.
    if [[ "${SPHINCS_CHROOT_MOUNTED:-}" == "$root" ]]; then
        return
    fi
    # Mounted already: by an earlier step of this run, or left by a run that
    # was killed, possibly of another clone. Mount this checkout afresh
    # either way.
    unmount_all
    mkdir -p "$root/src" "$root/proc" "$root/dev"
    # Unmount however the run ends; a signal also ends the script.
    trap unmount_all EXIT
    trap 'exit 130' INT TERM
    mount --bind "$repo_root" "$root/src"
    mount -t proc proc "$root/proc"
    mount --bind /dev "$root/dev"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    # The host's CA bundle: it may hold a proxy's CA that sid's does not.
    local ca="${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}"
    if [[ -r "$ca" ]]; then cp -L "$ca" "$root/etc/ssl/certs/host-ca.crt"; fi
}

# Runs a command in the chroot at /src with the cross toolchain configured.
# Cargo's own state (registry, build cache) lives in target/, apart from the
# host's: the toolchains differ.
in_chroot() { # $1: qemu CPU model; rest: command
    local cpu="$1"
    shift
    chroot "$root" /usr/bin/env -i \
        PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
        CARGO_HOME=/src/target/chroot-cargo-home \
        CARGO_TARGET_DIR=/src/target/chroot \
        CARGO_HTTP_CAINFO=/etc/ssl/certs/host-ca.crt SSL_CERT_FILE=/etc/ssl/certs/host-ca.crt \
        CARGO_BUILD_JOBS="$jobs" CARGO_TERM_COLOR=never \
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -cpu $cpu -L /usr/aarch64-linux-gnu" \
        SPHINCS_EMULATED_CPU="$cpu" \
        bash -c 'cd /src && exec "$@"' bash "$@"
}

