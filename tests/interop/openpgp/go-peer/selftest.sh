#!/usr/bin/env bash
# go-peer's self-test: go-peer against RFC 9980's SLH-DSA sample data and
# against its own keys, signatures and messages, checking SOP exit codes.
#   selftest.sh [GO-PEER-BINARY] [RFC9980-VECTOR-DIR]
# Defaults: the binary build-go-peer.sh makes, and shared/vectors/openpgp-rfc9980
# beside the clone. Prints one line per failure and "N passed, N failed".
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gp="${1:-$(bash "$here/../build-go-peer.sh")}" || exit 1
vec="${2:-$here/../../../../../shared/vectors/openpgp-rfc9980}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

pass=0 failed=0
# expect WANT-RC DESCRIPTION: the exit code of the last command must be WANT-RC.
expect() {
    local rc=$? want=$1
    shift
    if [[ $rc == "$want" ]]; then
        pass=$((pass + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $* (exit $rc, want $want)"
    fi
}

printf 'Testing\n' >msg
printf 'Testing!\n' >tampered
printf 'Hello, world!\n- a dashed line\nlast line without newline' >text

# RFC 9980 samples: verify, reject tampering, fingerprints, sign with their secret keys.
declare -A fpr=(
    [128s]=EED4D13FC36C78E48276A93233339C4DD230FD5F6F5C5B82C63D5C0B5E361D92
    [128f]=D54E0307021169F7B88BEB2B76E3AAD0E114BE1A8F982D74DBA9CA51D03537F4
    [256s]=72FFF84863AEBA67F0D1D7691173247DD427533B9D7EE76011C6F77F2CE9FA7A
)
for s in 128s 128f 256s; do
    sk="$vec/v6-slhdsa-$s-sample-sk.asc" pk="$vec/v6-slhdsa-$s-sample-pk.asc"
    "$gp" verify "$vec/v6-slhdsa-$s-sample-signature.asc" "$pk" <msg >out
    expect 0 "RFC $s: verify the sample signature"
    read -r _ signer primary _ <out
    [[ $signer == "${fpr[$s]}" && $primary == "${fpr[$s]}" ]]
    expect 0 "RFC $s: fingerprint $signer, want ${fpr[$s]}"
    "$gp" verify "$vec/v6-slhdsa-$s-sample-signature.asc" "$pk" <tampered >/dev/null 2>&1
    expect 3 "RFC $s: a tampered message"
    for as in binary text; do
        "$gp" sign --as=$as "$sk" <msg >sig
        expect 0 "RFC $s: sign --as=$as with the sample secret key"
        "$gp" verify sig "$pk" <msg >/dev/null
        expect 0 "RFC $s: verify go-peer's --as=$as signature"
    done
done

# Its own keys, one per profile: every signing mode, verified by itself.
for p in slh-dsa-shake-128s slh-dsa-shake-128f slh-dsa-shake-256s; do
    "$gp" generate-key --profile=$p "Alice <alice@example.org>" >key
    expect 0 "$p: generate-key"
    "$gp" extract-cert <key >cert
    expect 0 "$p: extract-cert"
    for as in binary text; do
        "$gp" sign --as=$as key <text >sig
        expect 0 "$p: sign --as=$as"
        "$gp" verify sig cert <text | grep -q " mode:$as "
        expect 0 "$p: verify --as=$as"
        "$gp" verify sig cert <tampered >/dev/null 2>&1
        expect 3 "$p: verify --as=$as, tampered"
    done
    for as in clearsigned binary text; do
        "$gp" inline-sign --as=$as key <text >signed
        expect 0 "$p: inline-sign --as=$as"
        "$gp" inline-verify --verifications-out=vo cert <signed >out
        expect 0 "$p: inline-verify --as=$as"
        # Text modes give the data back with CRLF (text literal data) or
        # without trailing whitespace (cleartext): compare it as text.
        diff -q <(tr -d '\r' <out) <(tr -d '\r' <text) >/dev/null
        expect 0 "$p: inline-verify --as=$as gives the data back"
    done
    sed 's/Hello/Jello/' <(
        "$gp" inline-sign --as=clearsigned key <text
    ) | "$gp" inline-verify cert >/dev/null 2>&1
    expect 3 "$p: inline-verify a tampered cleartext message"
done

# SOP exit codes for bad use.
"$gp" frobnicate 2>/dev/null
expect 69 "an unknown subcommand"
"$gp" sign --frob key <msg >/dev/null 2>&1
expect 37 "an unknown option"
"$gp" sign <msg >/dev/null 2>&1
expect 19 "sign without KEYFILE"
"$gp" verify msg cert <msg >/dev/null 2>&1
expect 41 "verify with a SIGFILE that is not OpenPGP"
"$gp" generate-key --profile=rsa4096 >/dev/null 2>&1
expect 89 "generate-key with an unknown profile"

echo "go-peer selftest: $pass passed, $failed failed"
[[ $failed == 0 ]]
