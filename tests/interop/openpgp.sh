#!/usr/bin/env bash
# OpenPGP with SLH-DSA (RFC 9580 v6, RFC 9980), cross-checked both ways with
# independent implementations, each driven through its own program speaking
# the same subset of SOP (the Stateless OpenPGP CLI):
#   ours     `sphincs sop`
#   go       go-peer over ProtonMail's go-crypto v1.5.2 (GopenPGP's core)
#   rpgp     rpgp-peer over rPGP (crate pgp 0.21, feature pqc)
#   sequoia  sequoia-peer over sequoia-openpgp 2.4 (crypto-rust)
# The peers are built outside the clone and cached (build-go-peer.sh,
# build-rust-peers.sh); a peer that cannot be built is a failure, not a skip.
#
# For each set (slh-dsa-shake-128s, -128f, -256s) every implementation makes
# a key and extracts its certificate; each signs a binary file (detached,
# --as=binary), a text file (detached --as=text; inline --as=clearsigned)
# and makes an inline binary message; then every implementation verifies
# every other's artifacts with the signer's certificate (so certificates are
# accepted both ways), and a tampered copy of each must fail. Every
# implementation also verifies RFC 9980's three sample signatures, and
# judges six cases of a key's life (expiry, subkeys, revocations, a revoked
# User ID) as their names say.
# Ends with a matrix of pass counts (signer -> verifier, per set and kind)
# and "N passed, M failed".
#
# Usage: tests/interop/openpgp.sh [SPHINCS_BIN]
# Environment: IMPLS (default "ours go rpgp sequoia"), SETS (default all
# three), KEEP=1 keeps the scratch directory.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

impls=(${IMPLS:-ours go rpgp sequoia})
sets=(${SETS:-slh-dsa-shake-128s slh-dsa-shake-128f slh-dsa-shake-256s})
declare -A bin
bin[ours]="$sphincs sop"
for i in "${impls[@]}"; do
    case $i in
    ours) ;;
    go) bin[go]="$(bash "$repo_root/tests/interop/openpgp/build-go-peer.sh")" || { echo "go-peer build failed" >&2; exit 2; } ;;
    rpgp | sequoia)
        if [[ -z "${rust_peers:-}" ]]; then
            rust_peers="$(bash "$repo_root/tests/interop/openpgp/build-rust-peers.sh")" || { echo "Rust peers build failed" >&2; exit 2; }
        fi
        bin[$i]="$(sed -n "s/^$i-peer=//p" <<<"$rust_peers")"
        [[ -x "${bin[$i]}" ]] || { echo "no $i-peer binary" >&2; exit 2; }
        ;;
    *) echo "unknown implementation $i" >&2; exit 2 ;;
    esac
done

work="$(mktemp -d)"
[[ -n "${KEEP:-}" ]] && echo "scratch: $work" || trap 'rm -rf "$work"' EXIT
cd "$work"
passed=0
failed=0
declare -A cell
ok() { passed=$((passed + 1)); cell[$1]=$((${cell[$1]:-0} + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $2" >&2; }
run() { # IMPL ARGS...: the implementation's program with SOP arguments
    local impl=$1
    shift
    # shellcheck disable=SC2086
    SPHINCS_THREADS=1 ${bin[$impl]} "$@"
}

head -c 100000 /dev/urandom >data.bin
# No line ends in white space: rPGP 0.21 signs cleartext lines as given but
# strips trailing white space when verifying, so such a line fails there
# whoever signed (our own handling of it is tests/openpgp.rs's).
printf 'Release: 1.0\n- a line with a dash\n  indented line\nlast line\n' >data.txt
cp data.bin tampered.bin
printf 'x' | dd of=tampered.bin bs=1 seek=5000 conv=notrunc status=none
sed 's/1\.0/1.1/' data.txt >tampered.txt

# RFC 9980's samples: every implementation verifies the three signatures
# over "Testing\n" with the sample certificates, and refuses "Testing".
vec="$repo_root/crates/sphincs/tests/data/openpgp-rfc9980"
printf 'Testing\n' >testing
printf 'Testing' >testing2
for i in "${impls[@]}"; do
    for s in 128s 128f 256s; do
        if run "$i" verify --not-after=- "$vec/v6-slhdsa-$s-sample-signature.asc" "$vec/v6-slhdsa-$s-sample-pk.asc" <testing >/dev/null 2>err; then
            ok "rfc9980 $s $i"
        else
            bad x "$i does not verify RFC 9980's $s sample: $(head -c 300 err)"
        fi
        if run "$i" verify --not-after=- "$vec/v6-slhdsa-$s-sample-signature.asc" "$vec/v6-slhdsa-$s-sample-pk.asc" <testing2 >/dev/null 2>&1; then
            bad x "$i accepts RFC 9980's $s sample over changed data"
        else
            ok "rfc9980 $s $i"
        fi
    done
done

# A key's life (crates/sphincs/tests/data/openpgp-life, made by our core
# with past dates): every implementation's verdict on each case is its
# name's (good-/bad-): a signing subkey; a signature made after the primary
# expired; a subkey whose binding outlives its expired primary; a
# hard-revoked key and subkey; a revoked User ID (still good). go-crypto
# and Sequoia judge every case; rPGP the good ones (see below).
life="$repo_root/crates/sphincs/tests/data/openpgp-life"
printf 'life\n' >life
for i in "${impls[@]}"; do
    for c in "$life"/*.cert; do
        name="$(basename "$c" .cert)"
        # rPGP leaves a certificate's validity (expiry, revocation) to the
        # application, and rpgp-peer applies none: it has no opinion on the
        # bad cases, and must only accept the good ones (our subkey binding,
        # a certificate with a revoked User ID).
        [[ $i == rpgp && $name == bad-* ]] && continue
        if run "$i" verify "$life/$name.sig" "$c" <life >out 2>err; then verdict=good; else verdict=bad; fi
        if [[ $name == "$verdict"-* ]]; then
            ok "life $i"
        else
            bad x "$i says $verdict for the key-life case $name: $(head -c 300 err)"
        fi
        if [[ $i == ours && $name == good-revoked-user-id ]] && grep -q 'Old Name' out; then
            bad x "ours names the signer by a revoked User ID: $(head -c 300 out)"
        fi
    done
done

for set in "${sets[@]}"; do
    short=${set#slh-dsa-shake-}
    # Keys, certificates and artifacts of each implementation.
    for a in "${impls[@]}"; do
        d="$short-$a"
        mkdir -p "$d"
        if ! run "$a" generate-key --profile="$set" "Interop $a <$a@example.org>" >"$d/key" 2>"$d/err" ||
            ! run "$a" extract-cert <"$d/key" >"$d/cert" 2>>"$d/err"; then
            bad x "$a: generate-key/extract-cert $set: $(head -c 300 "$d/err")"
            continue
        fi
        run "$a" sign --as=binary "$d/key" <data.bin >"$d/binary.sig" 2>>"$d/err" || bad x "$a sign binary $set: $(tail -c 300 "$d/err")"
        run "$a" sign --as=text "$d/key" <data.txt >"$d/text.sig" 2>>"$d/err" || bad x "$a sign text $set: $(tail -c 300 "$d/err")"
        run "$a" inline-sign --as=clearsigned "$d/key" <data.txt >"$d/clear.asc" 2>>"$d/err" || bad x "$a inline-sign clearsigned $set: $(tail -c 300 "$d/err")"
        run "$a" inline-sign --as=binary "$d/key" <data.bin >"$d/inline.asc" 2>>"$d/err" || bad x "$a inline-sign binary $set: $(tail -c 300 "$d/err")"
        # Tampered copies: clearsigned text changed, inline message data changed.
        sed 's/1\.0/1.1/' "$d/clear.asc" >"$d/clear-tampered.asc"
    done
    for a in "${impls[@]}"; do
        d="$short-$a"
        [[ -s "$d/cert" ]] || continue
        for b in "${impls[@]}"; do
            key="$a>$b $short"
            # Detached binary.
            if [[ -s "$d/binary.sig" ]]; then
                if run "$b" verify "$d/binary.sig" "$d/cert" <data.bin >out 2>err; then ok "$key binary"; else bad x "$b does not verify $a's binary signature ($set): $(head -c 300 err)"; fi
                if run "$b" verify "$d/binary.sig" "$d/cert" <tampered.bin >/dev/null 2>&1; then bad x "$b accepts $a's binary signature over changed data ($set)"; else ok "$key binary"; fi
            fi
            # Detached text.
            if [[ -s "$d/text.sig" ]]; then
                if run "$b" verify "$d/text.sig" "$d/cert" <data.txt >out 2>err; then ok "$key text"; else bad x "$b does not verify $a's text signature ($set): $(head -c 300 err)"; fi
                if run "$b" verify "$d/text.sig" "$d/cert" <tampered.txt >/dev/null 2>&1; then bad x "$b accepts $a's text signature over changed text ($set)"; else ok "$key text"; fi
            fi
            # Cleartext.
            if [[ -s "$d/clear.asc" ]]; then
                if run "$b" inline-verify "$d/cert" <"$d/clear.asc" >out 2>err; then
                    if grep -q '^Release: 1.0' out && grep -q '^- a line with a dash' out; then ok "$key clearsigned"; else bad x "$b's text of $a's clearsigned message differs ($set): $(head -c 200 out)"; fi
                else
                    bad x "$b does not verify $a's clearsigned message ($set): $(head -c 300 err)"
                fi
                if run "$b" inline-verify "$d/cert" <"$d/clear-tampered.asc" >/dev/null 2>&1; then bad x "$b accepts $a's tampered clearsigned message ($set)"; else ok "$key clearsigned"; fi
            fi
            # Inline binary (one-pass signed).
            if [[ -s "$d/inline.asc" ]]; then
                if run "$b" inline-verify "$d/cert" <"$d/inline.asc" >out 2>err; then
                    if cmp -s out data.bin; then ok "$key inline"; else bad x "$b's data of $a's inline message differs ($set)"; fi
                else
                    bad x "$b does not verify $a's inline message ($set): $(head -c 300 err)"
                fi
            fi
        done
    done
done

echo "interop matrix (signer>verifier set kind: checks passed):"
for k in $(printf '%s\n' "${!cell[@]}" | tr ' ' '_' | sort); do
    echo "  ${k//_/ }: ${cell[${k//_/ }]}"
done
echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
