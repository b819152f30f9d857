#!/usr/bin/env bash
# AArch64 under emulation: build the core for aarch64-unknown-linux-gnu in a
# Debian sid chroot and run its tests under qemu-aarch64 on two CPU models,
# `-cpu max` (every extension: the SHA-3/SHA-512/SHA-2/AES kernels run) and
# `-cpu cortex-a72` (no SHA-3/SHA-512: the plain-NEON fallbacks run).
#
# Usage: .ci/aarch64.sh            # set up the chroot if needed, lint, test
#        .ci/aarch64.sh setup      # only build the chroot
#        .ci/aarch64.sh shell      # an interactive shell in the chroot
#        .ci/aarch64.sh where      # print the chroot's directory
#        AARCH64_FULL=1 .ci/aarch64.sh   # the ACVP and KAT suites in full
#
# Why a chroot: the host (Debian 12) has neither an aarch64 Rust standard
# library nor a recent enough qemu; sid has both as packages (rustc and cargo
# from Debian, libstd-rust-dev:arm64, the aarch64 cross gcc as linker,
# qemu-user). The chroot lives in the CI cache outside the clone
# (.ci/sid-chroot.sh says how it is named and reused); AARCH64_REBUILD=1
# redoes it. The mirror is the one this machine's apt sources name (as
# .ci/openssl35.sh finds it). Needs root (mmdebstrap, chroot, mount).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${AARCH64_JOBS:-2}"
log() { echo "aarch64: $*" >&2; }
start=$SECONDS
stamp() { echo "== [aarch64 $((SECONDS - start))s] $*"; }

source "$repo_root/.ci/sid-chroot.sh"

# One CPU model's runs: the unit tests (every kernel the model has against
# the portable code, through the lane drivers too), the ACVP vectors on the
# SIMD backend the model selects (the scalar code ran natively; sigGen under
# -cpu max only, and there the f sets' cases only), and the count-0 entry of
# the 18 f sets' round-3.1 KAT files on the default kernels (Haraka among
# them; the s sets run the same kernels at the same n, natively checked).
# AARCH64_FULL=1 runs every backend and all of ACVP on both (s sets' sigGen
# too), all 36 count-0 entries and the f sets' full KAT files.
per_cpu() { # $1: qemu CPU model
    local cpu=$1 target=(--target aarch64-unknown-linux-gnu) backend=sha3
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
    stamp "round-3.1 KAT (count 0, f sets: every kernel and n) under -cpu $cpu"
    local kat=(first_entry_of_every_set)
    [[ "${AARCH64_FULL:-0}" == 1 ]] && kat=(first_entry_of_every_set full_rsp_files_f_sets)
    in_chroot "$cpu" env SPHINCS_KAT_F_ONLY="$f_only" \
        cargo test --release "${target[@]}" -p sphincs --test sphincsplus_kat -- "${kat[@]}"
    stamp "-cpu $cpu took $((SECONDS - t0)) s"
}

main() {
    if [[ "${1:-}" == where ]]; then
        echo "$root"
        return
    fi
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

    # The two CPU models run side by side (each is one qemu process at a
    # time, and most of their tests run on one thread), each into its own
    # log, printed whole when both have ended.
    local logs cpu pids=() rc=0
    logs="$(mktemp -d)"
    for cpu in max cortex-a72; do
        per_cpu "$cpu" >"$logs/$cpu.log" 2>&1 &
        pids+=($!)
    done
    local i=0
    for cpu in max cortex-a72; do
        local r=0
        wait "${pids[i]}" || r=$?
        i=$((i + 1))
        echo "---- -cpu $cpu (exit $r)"
        cat "$logs/$cpu.log"
        [[ $r -eq 0 ]] || rc=$r
    done
    rm -rf "$logs"
    [[ $rc -eq 0 ]] || { log "a CPU model's tests failed"; return "$rc"; }
    stamp "aarch64 done"
}

main "$@"; exit  # one line: edits to this file while it runs do not reach bash
