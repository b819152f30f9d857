#!/usr/bin/env bash
# AArch64 under emulation: build the core for aarch64-unknown-linux-gnu in a
# Debian sid chroot and run its tests under qemu-aarch64 on two CPU models,
# `-cpu max` (every extension: the SHA-3/SHA-512/SHA-2/AES kernels run) and
# `-cpu cortex-a72` (no SHA-3/SHA-512: the plain-NEON fallbacks run).
#
# Usage: .ci/aarch64.sh            # set up the chroot if needed, lint, test
#        .ci/aarch64.sh setup      # only build the chroot
#        .ci/aarch64.sh shell      # an interactive shell in the chroot
#        AARCH64_FULL=1 .ci/aarch64.sh   # the ACVP and KAT suites in full
#
# Why a chroot: the host (Debian 12) has neither an aarch64 Rust standard
# library nor a recent enough qemu; sid has both as packages (rustc and cargo
# from Debian, libstd-rust-dev:arm64, the aarch64 cross gcc as linker,
# qemu-user). The chroot lives in target/sid-chroot and is reused while its
# package list is unchanged (a stamp file records it); AARCH64_REBUILD=1
# redoes it. The mirror is the one this machine's apt sources name (as
# .ci/openssl35.sh finds it). Needs root (mmdebstrap, chroot, mount).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$repo_root/target/sid-chroot"
jobs="${AARCH64_JOBS:-2}"
log() { echo "aarch64: $*" >&2; }
start=$SECONDS
stamp() { echo "== [aarch64 $((SECONDS - start))s] $*"; }

packages=(rustc cargo rust-clippy libstd-rust-dev:arm64 gcc-aarch64-linux-gnu
    libc6-dev-arm64-cross qemu-user ca-certificates)
wanted="$(printf '%s\n' "${packages[@]}")"

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
        if [[ "$(cat "$root/.sphincs-packages")" == "$wanted" ]]; then
            log "chroot $root is up to date"
        else
            # A package list grown since the chroot was made: add to it.
            log "installing into the chroot: ${packages[*]}"
            enter
            chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -q update >/dev/null
            chroot "$root" env DEBIAN_FRONTEND=noninteractive \
                apt-get -q install -y "${packages[@]}" >/dev/null
            echo "$wanted" >"$root/.sphincs-packages"
        fi
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
    rm -rf "$root"
    mkdir -p "$(dirname "$root")"
    local t0=$SECONDS
    log "building $root from $mirror (sid)"
    local include
    include="$(IFS=,; echo "${packages[*]}")"
    mmdebstrap --quiet --aptopt='Acquire::Check-Valid-Until "false"' --variant=apt \
        --architectures=amd64,arm64 --include="$include" \
        sid "$root" "deb $mirror sid main"
    echo "$wanted" >"$root/.sphincs-packages"
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
    mountpoint -q "$root/src" && return
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

main() {
    stamp "chroot"
    setup
    [[ "${1:-}" == setup ]] && return
    enter
    if [[ "${1:-}" == shell ]]; then
        in_chroot max bash -i
        return
    fi
    local target=(--target aarch64-unknown-linux-gnu)
    in_chroot max rustc --version
    stamp "clippy for aarch64 (-D warnings)"
    in_chroot max nice -n 10 cargo clippy "${target[@]}" -p sphincs --all-targets -- -D warnings

    stamp "build the tests for aarch64"
    local tests=(--lib --test acvp --test sphincsplus_kat)
    in_chroot max nice -n 10 cargo test --release "${target[@]}" -p sphincs "${tests[@]}" --no-run

    # Per CPU model: the unit tests (every kernel the model has against the
    # portable code, through the lane drivers too), the ACVP vectors on the
    # SIMD backend the model selects (the scalar code ran natively; sigGen
    # under -cpu max only, and there the f sets' cases only), and the count-0
    # entry of all 36 round-3.1 KAT files on the default kernels (Haraka
    # among them). AARCH64_FULL=1 runs every backend and all of ACVP on both
    # (s sets' sigGen too), and the f sets' full KAT files.
    local cpu backend
    for cpu in max cortex-a72; do
        backend=sha3
        [[ "$cpu" == max ]] || backend=neon
        [[ "${AARCH64_FULL:-0}" == 1 ]] && backend=scalar,neon,sha3
        local t0=$SECONDS
        stamp "unit tests under qemu-aarch64 -cpu $cpu"
        in_chroot "$cpu" cargo test --release "${target[@]}" -p sphincs --lib
        # sigGen (the slow part) on -cpu max only: cortex-a72's kernels meet
        # the keyGen and sigVer vectors, the KAT entries and the unit tests.
        local acvp=()
        [[ "$cpu" == max || "${AARCH64_FULL:-0}" == 1 ]] || acvp=(acvp_keygen acvp_sigver)
        stamp "ACVP under -cpu $cpu, backends $backend ${acvp[*]:-all three tests}"
        local f_only=1
        [[ "${AARCH64_FULL:-0}" == 1 ]] && f_only=0
        in_chroot "$cpu" env SPHINCS_TEST_BACKENDS="$backend" SPHINCS_ACVP_SIGGEN_F_ONLY="$f_only" \
            cargo test --release "${target[@]}" -p sphincs --test acvp -- "${acvp[@]}"
        stamp "round-3.1 KAT (count 0, all sets) under -cpu $cpu"
        local kat=(first_entry_of_every_set)
        [[ "${AARCH64_FULL:-0}" == 1 ]] && kat=(first_entry_of_every_set full_rsp_files_f_sets)
        in_chroot "$cpu" cargo test --release "${target[@]}" -p sphincs --test sphincsplus_kat \
            -- "${kat[@]}"
        stamp "-cpu $cpu took $((SECONDS - t0)) s"
    done
    stamp "aarch64 done"
}

main "$@"; exit  # one line: edits to this file while it runs do not reach bash
