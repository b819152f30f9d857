#!/usr/bin/env bash
# Builds kryoptic's PKCS#11 module (crates.io, 1.5.4 with `pqc`: SLH-DSA over
# OpenSSL 3.5) into the CI cache, outside the clone, and prints
#   module=/abs/path/libkryoptic_pkcs11.so
#   run=/abs/path/run
# on standard output (everything else goes to standard error). `run PROGRAM
# ARGS…` runs a host program on Debian 13's C library and OpenSSL 3.5 (from
# .ci/openssl35.sh), which the module needs: a process that loads it must be
# started that way.
#
# What the build needs and where it comes from:
#   * OpenSSL 3.5's headers, libraries and pkg-config files: .ci/openssl35.sh
#     (Debian 13's libssl-dev unpacked into the cache, found through
#     PKG_CONFIG_PATH/PKG_CONFIG_SYSROOT_DIR);
#   * libclang for kryoptic's bindgen: Debian's libclang1-14 and
#     libclang-common-14-dev, installed with apt-get when missing;
#   * the crates: Cargo.lock here, from crates.io (`--locked`).
# The cache entry is named by a hash of Cargo.toml, Cargo.lock and this
# script; a present entry is reused, older ones removed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# shellcheck source=../../../.ci/cache.sh
source "$root/.ci/cache.sh"
command -v cargo >/dev/null || PATH="$HOME/.cargo/bin:$PATH"

ossl="$(dirname "$(bash "$root/.ci/openssl35.sh" --print)")"
entry="$(ci_cache_entry kryoptic "$here/Cargo.toml" "$here/Cargo.lock" "$here/build.sh")"
if [[ ! -f "$entry/libkryoptic_pkcs11.so" ]]; then
    libclang=/usr/lib/llvm-14/lib
    if [[ ! -e "$libclang/libclang.so.1" || ! -d "$libclang/clang" ]]; then
        echo "kryoptic: installing libclang (bindgen) with apt-get" >&2
        sudo=""
        [[ $(id -u) == 0 ]] || sudo=sudo
        $sudo apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            libclang1-14 libclang-common-14-dev >&2
    fi
    echo "kryoptic: building into $entry" >&2
    target="$SPHINCS_CI_CACHE/kryoptic-target"
    sysroot="$ossl/root"
    PKG_CONFIG_PATH="$sysroot/usr/lib/x86_64-linux-gnu/pkgconfig" \
        PKG_CONFIG_SYSROOT_DIR="$sysroot" \
        OSSL_BINDGEN_CLANG_ARGS="-I$sysroot/usr/include/x86_64-linux-gnu" \
        LIBCLANG_PATH="$libclang" \
        CARGO_TARGET_DIR="$target" \
        nice -n 10 cargo build --release --locked -j "${CARGO_BUILD_JOBS:-2}" \
        --manifest-path "$here/Cargo.toml" >&2
    # A dependency's cdylib keeps cargo's hashed name in deps/: the newest.
    so="$(ls -t "$target"/release/deps/libkryoptic_pkcs11-*.so | head -n 1)"
    tmp="$(mktemp -d "$SPHINCS_CI_CACHE/.kryoptic.XXXXXX")"
    chmod 755 "$tmp"
    cp "$so" "$tmp/libkryoptic_pkcs11.so"
    mv -T "$tmp" "$entry" 2>/dev/null || rm -rf "$tmp"
    rm -rf "$target"
fi
for stale in "$SPHINCS_CI_CACHE/kryoptic"-????????????????; do
    if [[ -e "$stale" && "$stale" != "$entry" ]]; then rm -rf "$stale"; fi
done
echo "module=$entry/libkryoptic_pkcs11.so"
echo "run=$ossl/run"
