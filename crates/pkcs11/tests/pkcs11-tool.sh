#!/usr/bin/env bash
# The module through OpenSC's pkcs11-tool (Debian package opensc; 0.23.0
# names no SLH-DSA mechanism or key type, so it lists them by number and
# cannot generate SLH-DSA keys): slots, mechanisms, C_InitToken, C_InitPIN,
# a login with the right and a wrong PIN, and the objects after writing an
# X.509 certificate, in a temporary SPHINCS_PKCS11_DIR. The argument names
# the module (default target/release/libsphincs_pkcs11.so, from
# `cargo build -p sphincs-pkcs11 --release`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
module=$(realpath "${1:-target/release/libsphincs_pkcs11.so}")
if [ ! -f "$module" ]; then
    echo "pkcs11-tool.sh: no module at $module (cargo build -p sphincs-pkcs11 --release)" >&2
    exit 1
fi
# Debian's opensc, installed with apt-get if it is missing (as
# .ci/ct-valgrind.sh installs valgrind).
if ! command -v pkcs11-tool >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends opensc
fi
command -v pkcs11-tool >/dev/null || {
    echo "pkcs11-tool.sh: pkcs11-tool not found (apt-get install opensc)" >&2
    exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SPHINCS_PKCS11_DIR=$work/token
so_pin=87654321
pin=123456
label="pkcs11-tool test"
tool() { pkcs11-tool --module "$module" "$@" 2>&1; }
fail() {
    echo "pkcs11-tool.sh: $1" >&2
    printf '%s\n' "$2" >&2
    exit 1
}
# expect <output> <fixed string>...: each string appears in the output.
expect() {
    local out=$1
    shift
    for s in "$@"; do
        grep -qF -- "$s" <<<"$out" || fail "missing '$s'" "$out"
    done
}

out=$(tool --show-info)
expect "$out" "Cryptoki version 3.2" "Manufacturer     sphincs"

out=$(tool --list-slots)
expect "$out" "Slot 0 (0x1): sphincs software slot" "token state:   uninitialized"

# CKM_SLH_DSA_KEY_PAIR_GEN 0x2D, CKM_SLH_DSA 0x2E, CKM_HASH_SLH_DSA 0x34,
# CKM_HASH_SLH_DSA_SHA224 … _SHAKE256 0x36–0x3F.
out=$(tool --list-mechanisms)
expect "$out" "mechtype-0x2D, keySize={32,64}, generate_key_pair" \
    "mechtype-0x2E, keySize={32,64}, sign, verify" \
    "mechtype-0x34, keySize={32,64}, sign, verify"
for m in 36 37 38 39 3A 3B 3C 3D 3E 3F; do
    expect "$out" "mechtype-0x$m, keySize={32,64}, sign, verify"
done
[ "$(grep -c mechtype- <<<"$out")" = 13 ] || fail "not 13 mechanisms" "$out"

out=$(tool --init-token --label "$label" --so-pin "$so_pin")
expect "$out" "Token successfully initialized"
out=$(tool --login --login-type so --so-pin "$so_pin" --init-pin --pin "$pin")
expect "$out" "User PIN successfully initialized"

out=$(tool --list-token-slots)
expect "$out" "token label        : $label" "token initialized, PIN initialized"

out=$(tool --login --pin "$pin" --list-objects)
if grep -q "Object;" <<<"$out"; then fail "objects on a new token" "$out"; fi

if out=$(tool --login --pin 000000 --list-objects); then
    fail "a wrong PIN logged in" "$out"
fi
expect "$out" "CKR_PIN_INCORRECT"
out=$(tool --list-token-slots)
expect "$out" "user PIN count low"

# A token object: an X.509 certificate, kept as given.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$work/key.pem" -subj /CN=pkcs11-tool-test -days 1 \
    -outform DER -out "$work/cert.der" 2>/dev/null
out=$(tool --login --pin "$pin" --write-object "$work/cert.der" --type cert \
    --label tool-cert --id 01)
expect "$out" "label:      tool-cert"
out=$(tool --login --pin "$pin" --list-objects)
expect "$out" "Certificate Object; type = X.509 cert" "label:      tool-cert" \
    "subject:    DN: CN=pkcs11-tool-test" "ID:         01"
# The right PIN reset the count.
out=$(tool --list-token-slots)
if grep -q "count low" <<<"$out"; then fail "PIN count not reset" "$out"; fi

# Stored: a new process finds it (C_Initialize reads the directory).
out=$(tool --list-objects --type cert)
expect "$out" "label:      tool-cert"

# pkcs11-tool 0.23 cannot make SLH-DSA keys: -m 0x2D is not sent with an
# SLH-DSA template. Record what it does, so a newer opensc shows up here.
if out=$(tool --login --pin "$pin" --keypairgen -m 0x2D --label slh); then
    echo "pkcs11-tool.sh: note: --keypairgen -m 0x2D succeeded:" >&2
    printf '%s\n' "$out" >&2
fi
echo "pkcs11-tool.sh: ok ($(dpkg-query -W -f '${Version}' opensc 2>/dev/null || echo 'opensc version unknown'))"
