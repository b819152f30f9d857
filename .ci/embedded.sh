#!/usr/bin/env bash
# The embedded verifier on an emulated Cortex-M4F, built for
# thumbv7em-none-eabihf with core from rust-src (-Zbuild-std=core,
# RUSTC_BOOTSTRAP=1 on Debian's stable rustc) in the Debian sid chroot that
# .ci/aarch64.sh also uses (.ci/sid-chroot.sh), run under
# qemu-system-arm -M mps2-an386 with semihosting. Two builds (issue 53):
# "small" (opt-level s, the sha2 crate's compact SHA-256 rounds) and "fast"
# (the feature fast: the core's fast-sha256, at opt-level 2). For each, one
# cargo build makes both images' Rust parts (one workspace; clippy checks
# both crates in the small build):
#   1. crates/embedded-verify, the all-sets test image, run with
#      -icount shift=0: it verifies the fixed signatures, rejects tampered
#      copies, and prints for every set a line `stack SLH-DSA-… N bytes`
#      (held to 2.5 KiB for the 128-bit FIPS 205 sets, 4 KiB for the rest)
#      and a line `instructions SLH-DSA-… N` (SysTick under -icount);
#      its exit status (semihosting SYS_EXIT_EXTENDED) is the step's. Its
#      lines come out prefixed with the build's name.
#   2. the minimal one-set image: the C bootloader of
#      crates/embedded-capi/example linked with libsphincs_embedded.a
#      (SLH-DSA-SHA2-128s only): its sizes as arm-none-eabi-size -A prints
#      them, .text held to 10 KiB (small) and 16 KiB (fast); then run: the
#      signed image is accepted, a tampered one and bad arguments refused.
# The Keccak-f[1600] and SHA-256 rounds of ARMv7-M cores are generated
# assembly (crates/sphincs/src/hash/backend/keccak32_armv7m.s and
# sha256_armv7m.s): they are checked to be what scripts/gen-keccak-armv7m
# and scripts/gen-sha256-armv7m write.
# Then the cycle model: for each build and for SLH-DSA-SHA2-128s and
# SLH-DSA-SHAKE-128s, crates/embedded-capi/measure/one_verification.c on
# that one-set library, run under qemu with its trace
# (-d in_asm,exec,nochain, through a FIFO) read by scripts/m4-cycle-model:
# a line `BUILD cycles-model SET N`, held to the limits below.
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
# What each build leaves for the later steps.
keep=target/chroot-embedded/builds
# The minimal image's .text limits: issue 42 (small), issue 53 (fast).
declare -A text_limit=([small]=10240 [fast]=16384)
# The builds: cargo's arguments and environment.
declare -A build_features=([small]="" [fast]="--features sphincs-embedded-verify/fast,sphincs-embedded-capi/fast")
declare -A build_env=([small]="" [fast]="CARGO_PROFILE_RELEASE_OPT_LEVEL=2")
# Cycle-model limits (cycles of one verification; pqm4's published
# figures for comparison: SHA2-128s 7 471 794, SHAKE-128s 24 4xx xxx).
# fast SHA2-128s is issue 53's 1.0x of pqm4 (its 0.7x target is not reached);
# the others hold today's figures plus about 2 % against regressions (the
# issue's targets are 1.0x for small SHA-2 and both SHAKE builds).
declare -A cycles_limit=(
    [small SLH-DSA-SHA2-128s]=15070000 [fast SLH-DSA-SHA2-128s]=7471794
    [small SLH-DSA-SHAKE-128s]=47240000 [fast SLH-DSA-SHAKE-128s]=47240000
)
# The measured sets: feature, the header's code, key and signature bytes.
declare -A measure_set=(
    [SLH-DSA-SHA2-128s]="sha2-128s SPHINCS_EMB_SLH_DSA_SHA2_128S 32 7856"
    [SLH-DSA-SHAKE-128s]="shake-128s SPHINCS_EMB_SLH_DSA_SHAKE_128S 32 7856"
)

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
link_c() { # $1: the ELF to write, $2: the library, then the C sources and flags
    local ex=../embedded-capi/example elf=$1 lib=$2
    shift 2
    in_crate arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 \
        -Os -ffreestanding -nostdlib -ffunction-sections -fdata-sections \
        -Wall -Wextra -Werror -isystem "$ex/freestanding" -I ../embedded-capi/include \
        -Wa,-I,vectors -T link.x -Wl,--gc-sections -Wl,-z,noexecstack \
        -o "/src/$elf" "$@" "/src/$lib"
}

# Builds the workspace in a build, keeping its test image and library
# under $keep/BUILD-… (the next build overwrites cargo's).
build() { # $1: small or fast
    in_crate env ${build_env[$1]} nice -n 10 cargo build --release --workspace ${build_features[$1]}
    cp "$repo_root/$elf" "$repo_root/$keep/$1-test.elf"
    cp "$repo_root/$out/libsphincs_embedded.a" "$repo_root/$keep/$1-sha2-128s.a"
}

# The minimal one-set image of a build: sized, held to its limit, run.
bootloader() { # $1: small or fast
    local boot=$keep/$1-bootloader.elf sizes text
    stamp "$1: link the minimal one-set image (C bootloader + libsphincs_embedded.a)"
    link_c "$boot" "$keep/$1-sha2-128s.a" ../embedded-capi/example/bootloader.c ../embedded-capi/example/firmware.S
    stamp "$1: sizes of the minimal one-set image (bytes)"
    sizes="$(in_crate arm-none-eabi-size -A "/src/$boot")"
    awk '$1 ~ /^\.(vector_table|text|rodata|data|bss)$/' <<<"$sizes"
    text="$(awk '$1 == ".text" { print $2 }' <<<"$sizes")"
    if [[ -z "$text" || "$text" -gt "${text_limit[$1]}" ]]; then
        echo "embedded: FAIL: the $1 minimal image's .text is ${text:-missing} bytes (limit ${text_limit[$1]})"
        exit 1
    fi
    echo "$1 minimal image .text $text bytes (limit ${text_limit[$1]})"
    stamp "$1: run the C bootloader"
    run_qemu "$boot" 2>&1 | sed "s/^/$1 /"
}

# One verification of a set in a build under the cycle model: prints
# `BUILD cycles-model SET N` and fails above the limit.
cycles_model() { # $1: small or fast, $2: the set's name
    local feature code pk_len sig_len lib img fifo json cycles limit
    read -r feature code pk_len sig_len <<<"${measure_set[$2]}"
    lib=$keep/$1-$feature.a
    if [[ ! -f "$repo_root/$lib" ]]; then
        in_crate env ${build_env[$1]} nice -n 10 cargo build --release -p sphincs-embedded-capi \
            --no-default-features --features "$feature${build_features[$1]:+ fast}"
        cp "$repo_root/$out/libsphincs_embedded.a" "$repo_root/$lib"
    fi
    img=$keep/$1-measure-$feature.elf
    link_c "$img" "$lib" ../embedded-capi/measure/one_verification.c \
        "-DALG=$code" "-DPK_LEN=$pk_len" "-DSIG_LEN=$sig_len"
    fifo=$keep/trace.fifo
    json=$repo_root/$keep/$1-measure-$feature.json
    rm -f "$repo_root/$fifo"
    mkfifo "$repo_root/$fifo"
    python3 "$repo_root/scripts/m4-cycle-model" "$repo_root/$fifo" --from measured --json >"$json" &
    local model=$!
    in_crate timeout 600 qemu-system-arm -M mps2-an386 -nographic -monitor none \
        -semihosting-config enable=on,target=native -icount shift=0 \
        -d in_asm,exec,nochain -D "/src/$fifo" -kernel "/src/$img"
    wait "$model"
    rm -f "$repo_root/$fifo"
    read -r cycles insns < <(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(r["cycles"], r["instructions"])' "$json")
    limit=${cycles_limit[$1 $2]}
    echo "$1 cycles-model $2 $cycles (limit $limit; $insns instructions)"
    if [[ -z "$cycles" || "$cycles" -gt "$limit" ]]; then
        echo "embedded: FAIL: $1 $2: the cycle model says ${cycles:-nothing} (limit $limit)"
        exit 1
    fi
}

main() {
    stamp "chroot"
    setup
    [[ "${1:-}" == setup ]] && return
    enter
    in_crate rustc --version
    mkdir -p "$repo_root/$keep"
    rm -f "$repo_root/$keep"/*
    stamp "the ARMv7-M assembly is what scripts/gen-keccak-armv7m and gen-sha256-armv7m write"
    python3 "$repo_root/scripts/gen-keccak-armv7m" --check
    python3 "$repo_root/scripts/gen-sha256-armv7m" --check

    local b
    for b in small fast; do
        stamp "$b: build the all-sets test image and the C library (SLH-DSA-SHA2-128s)"
        build "$b"
        stamp "$b: clippy of both crates (thumbv7em-none-eabihf)"
        in_crate env ${build_env[$b]} nice -n 10 cargo clippy --release --workspace ${build_features[$b]} --quiet -- -D warnings
        stamp "$b: run the test image under qemu-system-arm -M mps2-an386 -icount shift=0"
        run_qemu "$keep/$b-test.elf" 2>&1 | sed "s/^/$b /"
        stamp "$b: sizes of the all-sets test image (bytes)"
        in_crate arm-none-eabi-size -A "/src/$keep/$b-test.elf" | awk '$1 ~ /^\.(vector_table|text|rodata|data|bss)$/'
        bootloader "$b"
    done
    local set
    for b in small fast; do
        for set in SLH-DSA-SHA2-128s SLH-DSA-SHAKE-128s; do
            stamp "$b: the cycle model of one $set verification"
            cycles_model "$b" "$set"
        done
    done
    stamp "embedded done"
}

main "$@"; exit  # one line: edits to this file while it runs do not reach bash
