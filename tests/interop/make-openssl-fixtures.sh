#!/usr/bin/env bash
# Regenerate the OpenSSL compatibility fixtures in
# crates/sphincs/tests/data/openssl/ (see the README.md there).
#
# Usage: tests/interop/make-openssl-fixtures.sh [OUTDIR]
#        tests/interop/make-openssl-fixtures.sh --check   # regenerate into a
#            scratch directory and compare with the committed files
# OPENSSL overrides the openssl (>= 3.5) binary; default: the wrapper made by
# .ci/openssl35.sh. Everything is deterministic (seeded key generation,
# deterministic signing), so a rerun reproduces the files byte for byte.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
committed="$repo_root/crates/sphincs/tests/data/openssl"
check=0
if [[ "${1:-}" == --check ]]; then
    check=1
    out="$(mktemp -d "${TMPDIR:-/tmp}/openssl-fixtures.XXXXXX")"
    trap 'rm -rf "$out"' EXIT
else
    out="${1:-$committed}"
fi

if [[ -z "${OPENSSL:-}" ]]; then
    OPENSSL="$("$repo_root/.ci/openssl35.sh" --print)"
fi
ossl() { "$OPENSSL" "$@"; }

sets="SLH-DSA-SHA2-128s SLH-DSA-SHA2-128f SLH-DSA-SHA2-192s SLH-DSA-SHA2-192f
SLH-DSA-SHA2-256s SLH-DSA-SHA2-256f SLH-DSA-SHAKE-128s SLH-DSA-SHAKE-128f
SLH-DSA-SHAKE-192s SLH-DSA-SHAKE-192f SLH-DSA-SHAKE-256s SLH-DSA-SHAKE-256f"

mkdir -p "$out"
printf 'SLH-DSA interoperability fixture: OpenSSL 3.5 -> sphincs\n' >"$out/message.txt"
printf 'sphincs-openssl-fixture' >"$out/context.txt"
ctx_hex="$(od -An -tx1 -v "$out/context.txt" | tr -d ' \n')"

for alg in $sets; do
    d="$out/$alg"
    mkdir -p "$d"
    case "$alg" in
        *-128?) n=16 ;;
        *-192?) n=24 ;;
        *-256?) n=32 ;;
    esac
    # Key-generation seed SK.seed || SK.prf || PK.seed (3n bytes):
    # SHAKE256("sphincs openssl fixture " || set name).
    seed="$(printf 'sphincs openssl fixture %s' "$alg" |
        ossl dgst -shake256 -xoflen $((3 * n)) -r | cut -d' ' -f1)"
    printf '%s\n' "$seed" >"$d/seed.hex"
    ossl genpkey -algorithm "$alg" -pkeyopt "hexseed:$seed" -out "$d/key.pem"
    ossl pkey -in "$d/key.pem" -pubout -out "$d/pub.pem"
    ossl pkey -in "$d/key.pem" -outform DER -out "$d/key.der"
    ossl pkey -in "$d/key.pem" -pubout -outform DER -out "$d/pub.der"
    ossl pkeyutl -sign -rawin -inkey "$d/key.pem" -in "$out/message.txt" \
        -pkeyopt deterministic:1 -out "$d/sig.bin"
    ossl pkeyutl -sign -rawin -inkey "$d/key.pem" -in "$out/message.txt" \
        -pkeyopt deterministic:1 -pkeyopt "hexcontext-string:$ctx_hex" -out "$d/sig-ctx.bin"
    # Sanity: the signatures verify (and the context matters).
    ossl pkeyutl -verify -rawin -pubin -inkey "$d/pub.pem" -in "$out/message.txt" \
        -sigfile "$d/sig.bin" >/dev/null
    ossl pkeyutl -verify -rawin -pubin -inkey "$d/pub.der" -keyform DER -in "$out/message.txt" \
        -sigfile "$d/sig-ctx.bin" -pkeyopt "context-string:$(cat "$out/context.txt")" >/dev/null
    if ossl pkeyutl -verify -rawin -pubin -inkey "$d/pub.pem" -in "$out/message.txt" \
        -sigfile "$d/sig-ctx.bin" >/dev/null 2>&1; then
        echo "$alg: context signature verified without context?!" >&2
        exit 1
    fi
    echo "$alg: $(wc -c <"$d/sig.bin") byte signatures" >&2
done
ossl version >"$out/openssl-version.txt"

if [[ $check == 1 ]]; then
    # README.md is hand-written; compare everything else.
    if diff -r -x README.md "$committed" "$out"; then
        echo "fixtures reproduced byte for byte" >&2
    else
        echo "fixtures differ from the committed ones" >&2
        exit 1
    fi
fi
