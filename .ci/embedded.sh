#!/usr/bin/env bash
# The embedded verifier (crates/embedded-verify) on an emulated Cortex-M4F:
# built for thumbv7em-none-eabihf with core from rust-src (-Zbuild-std=core,
# RUSTC_BOOTSTRAP=1 on Debian's stable rustc) in the Debian sid chroot that
# .ci/aarch64.sh also uses (.ci/sid-chroot.sh), and run under
# qemu-system-arm -M mps2-an386 with semihosting: it verifies the fixed
# signatures, rejects tampered copies and prints the peak stack per set; its
# exit status (semihosting SYS_EXIT_EXTENDED) is this step's. Then the
# one-set verifier (SLH-DSA-SHA2-128s only) is built, run, and its section
# sizes printed.
#
# Usage: .ci/embedded.sh           # set up the chroot if needed, build, run
#        .ci/embedded.sh setup     # only build the chroot
# Needs root (the chroot).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${EMBEDDED_JOBS:-2}"
log() { echo "embedded: $*" >&2; }
start=$SECONDS
stamp() { echo "== [embedded $((SECONDS - start))s] $*"; }

source "$repo_root/.ci/sid-chroot.sh"

crate=crates/embedded-verify
elf=target/chroot-embedded/thumbv7em-none-eabihf/release/sphincs-embedded-verify

# Runs a command in the chroot's crates/embedded-verify, with cargo's state
# in target/ (apart from the host's and the AArch64 builds').
in_crate() {
    chroot "$root" /usr/bin/env -i \
        PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
        CARGO_HOME=/src/target/chroot-cargo-home \
        CARGO_TARGET_DIR=/src/target/chroot-embedded \
        CARGO_HTTP_CAINFO=/etc/ssl/certs/host-ca.crt SSL_CERT_FILE=/etc/ssl/certs/host-ca.crt \
        CARGO_BUILD_JOBS="$jobs" CARGO_TERM_COLOR=never RUSTC_BOOTSTRAP=1 \
        bash -c "cd /src/$crate && exec \"\$@\"" bash "$@"
}

# Runs the verifier under qemu; a hang (a verifier that never exits) fails
# after five minutes.
run_qemu() {
    in_crate timeout 300 qemu-system-arm -M mps2-an386 -nographic -monitor none \
        -semihosting-config enable=on,target=native -kernel "/src/$elf"
}

main() {
    stamp "chroot"
    setup
    [[ "${1:-}" == setup ]] && return
    enter
    in_crate rustc --version

    stamp "build (every set's stack, both fixed vectors)"
    in_crate nice -n 10 cargo build --release
    stamp "run under qemu-system-arm -M mps2-an386"
    run_qemu

    stamp "build the one-set verifier (SLH-DSA-SHA2-128s)"
    in_crate nice -n 10 cargo build --release --no-default-features
    run_qemu
    stamp "sizes of the one-set verifier (bytes)"
    in_crate arm-none-eabi-size -A "/src/$elf" | awk '$1 ~ /^\.(vector_table|text|rodata|data|bss)$/'
    stamp "embedded done"
}

main "$@"; exit  # one line: edits to this file while it runs do not reach bash
