#!/usr/bin/env bash
# The embedded verifier on an emulated Cortex-M4F, built for
# thumbv7em-none-eabihf with core from rust-src (-Zbuild-std=core,
# RUSTC_BOOTSTRAP=1 on Debian's stable rustc) in the Debian sid chroot that
# .ci/aarch64.sh also uses (.ci/sid-chroot.sh), run under
# qemu-system-arm -M mps2-an386 with semihosting. One cargo build makes both
# images' Rust parts (one workspace; clippy checks both crates):
#   1. crates/embedded-verify, the all-sets test image, run with
#      -icount shift=0: it verifies the fixed signatures, rejects tampered
#      copies, and prints for every set a line `stack SLH-DSA-… N bytes`
#      (held to 2.5 KiB for the 128-bit FIPS 205 sets, 4 KiB for the rest)
#      and a line `instructions SLH-DSA-… N` (SysTick under -icount);
#      its exit status (semihosting SYS_EXIT_EXTENDED) is the step's.
#   2. the minimal one-set image: the C bootloader of
#      crates/embedded-capi/example linked with libsphincs_embedded.a
#      (SLH-DSA-SHA2-128s only): its sizes as arm-none-eabi-size -A prints
#      them, .text held to 10 KiB; then run: the signed image is accepted,
#      a tampered one and bad arguments refused.
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
out=target/chroot-embedded/thumbv7em-none-eabihf/release
elf=$out/sphincs-embedded-verify
boot=target/chroot-embedded/bootloader.elf
# The minimal image's .text limit (issue 42).
text_limit=10240

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

# Runs an image under qemu; a hang (an image that never exits) fails after
# five minutes. -icount shift=0: one virtual nanosecond per instruction,
# which the test image's SysTick counts.
run_qemu() { # $1: the ELF, from the checkout's root
    in_crate timeout 300 qemu-system-arm -M mps2-an386 -nographic -monitor none \
        -semihosting-config enable=on,target=native -icount shift=0 -kernel "/src/$1"
}

# The C bootloader: the example, its firmware (the SHA2-128s vector) and
# the library, on the test image's linker script. No C library: the
# example's freestanding/stdint.h stands in for the toolchain's.
link_bootloader() {
    local ex=../embedded-capi/example
    in_crate arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 \
        -Os -ffreestanding -nostdlib -ffunction-sections -fdata-sections \
        -Wall -Wextra -Werror -isystem "$ex/freestanding" -I ../embedded-capi/include \
        -Wa,-I,vectors -T link.x -Wl,--gc-sections -Wl,-z,noexecstack \
        -o "/src/$boot" "$ex/bootloader.c" "$ex/firmware.S" "/src/$out/libsphincs_embedded.a"
}

main() {
    stamp "chroot"
    setup
    [[ "${1:-}" == setup ]] && return
    enter
    in_crate rustc --version

    stamp "build the all-sets test image and the C library (SLH-DSA-SHA2-128s)"
    in_crate nice -n 10 cargo build --release --workspace
    stamp "clippy of both crates (thumbv7em-none-eabihf)"
    in_crate nice -n 10 cargo clippy --release --workspace --quiet -- -D warnings
    stamp "run the test image under qemu-system-arm -M mps2-an386 -icount shift=0"
    run_qemu "$elf"
    stamp "sizes of the all-sets test image (bytes)"
    in_crate arm-none-eabi-size -A "/src/$elf" | awk '$1 ~ /^\.(vector_table|text|rodata|data|bss)$/'

    stamp "link the minimal one-set image (C bootloader + libsphincs_embedded.a)"
    link_bootloader
    stamp "sizes of the minimal one-set image (bytes)"
    local sizes text
    sizes="$(in_crate arm-none-eabi-size -A "/src/$boot")"
    awk '$1 ~ /^\.(vector_table|text|rodata|data|bss)$/' <<<"$sizes"
    text="$(awk '$1 == ".text" { print $2 }' <<<"$sizes")"
    if [[ -z "$text" || "$text" -gt "$text_limit" ]]; then
        echo "embedded: FAIL: the minimal image's .text is ${text:-missing} bytes (limit $text_limit)"
        exit 1
    fi
    echo "minimal image .text $text bytes (limit $text_limit)"
    stamp "run the C bootloader"
    run_qemu "$boot"
    stamp "embedded done"
}

main "$@"; exit  # one line: edits to this file while it runs do not reach bash
