#!/usr/bin/env bash
# Interoperability test between the `sphincs` CLI and OpenSSL >= 3.5 (SLH-DSA,
# FIPS 205; key formats of RFC 9909).
#
# Usage: tests/interop/openssl.sh [SPHINCS_BIN]
#   SPHINCS_BIN   default target/release/sphincs
# Environment:
#   OPENSSL       openssl >= 3.5 binary; default: the wrapper made by
#                 .ci/openssl35.sh --print ($OPENSSL35_DIR/openssl, default
#                 in the CI cache), which is set up when missing.
#   SETS          space-separated parameter sets to test (default: all 12)
#   FULL=1        run the randomized / no-context / DER-key signing checks on
#                 the slow "s" sets too (by default only on the "f" sets)
#   KEEP=1        keep the scratch directory
#
# For every set:
#   * OpenSSL key (PEM and DER): `sphincs pubkey` reproduces OpenSSL's -pubout
#     byte for byte; a deterministic signature with a context string made by
#     `sphincs sign` equals OpenSSL's (deterministic:1) byte for byte; each
#     side verifies the other's signature; tampered message / signature /
#     wrong or missing context are rejected by both.
#   * `sphincs keygen` key (PEM and DER): OpenSSL parses it, its pairwise check
#     passes (-check recomputes the root), re-encodings and -pubout equal ours
#     byte for byte.
#   * Encrypted keys (PKCS#8 PBES2): OpenSSL's `genpkey -aes-256-cbc`
#     (PBKDF2) and `pkcs8 -topk8 -v2 aes-256-cbc -scrypt` read by sphincs;
#     sphincs's `key encrypt` and `keygen --encrypt --der` (scrypt) read by
#     `openssl pkey -passin`; wrong passphrases refused by both.
#   * f sets (all sets with FULL=1): randomized signatures without context
#     with our keys, both directions, also with DER keys and stdin input.
# Ends with "N passed, M failed"; exits 1 on any failure, 2 on setup errors.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

use_openssl35
ossl() { "$OPENSSL" "$@"; }
# (Whole output first: grep -q stopping early would SIGPIPE the writer under pipefail.)
if ! grep -qi 'SLH-DSA-SHA2-128f' <<<"$(ossl list -signature-algorithms 2>/dev/null)"; then
    echo "$OPENSSL has no SLH-DSA (need OpenSSL >= 3.5)" >&2
    exit 2
fi

all_sets="SLH-DSA-SHA2-128s SLH-DSA-SHA2-128f SLH-DSA-SHA2-192s SLH-DSA-SHA2-192f
SLH-DSA-SHA2-256s SLH-DSA-SHA2-256f SLH-DSA-SHAKE-128s SLH-DSA-SHAKE-128f
SLH-DSA-SHAKE-192s SLH-DSA-SHAKE-192f SLH-DSA-SHAKE-256s SLH-DSA-SHAKE-256f"
sets="${SETS:-$all_sets}"

work="$(mktemp -d "${TMPDIR:-/tmp}/sphincs-openssl.XXXXXX")"
if [[ "${KEEP:-0}" == 1 ]]; then
    echo "scratch directory: $work"
else
    trap 'rm -rf "$work"' EXIT
fi

echo "sphincs: $sphincs"
echo "openssl: $(ossl version)"

passed=0
failed=0
failures=()
cur=""

# The checks below always return 0 (so `set -e` does not stop the run) and
# leave their outcome in $last; `need CHECK ...` returns it, for gating.
last=ok
ok() { passed=$((passed + 1)); last=ok; echo "  ok   $cur: $1"; }
fail() {
    failed=$((failed + 1))
    last=fail
    failures+=("$cur: $1")
    echo "  FAIL $cur: $1"
    if [[ -n "${2:-}" ]]; then
        printf '%s\n' "$2" | head -n 15 | sed 's/^/         | /'
    fi
    return 0
}
need() { "$@"; [[ $last == ok ]]; }

# run DESC CMD...: expects exit status 0.
run() {
    local desc="$1"; shift
    local out rc=0
    out="$("$@" 2>&1)" || rc=$?
    if [[ $rc -eq 0 ]]; then ok "$desc"; return 0; fi
    fail "$desc (exit $rc)" "\$ $(printf "%q " "$@")"$'\n'"$out"
    return 0
}

# reject DESC WANT_RC CMD...: expects a non-zero exit status (exactly WANT_RC
# unless WANT_RC is "any").
reject() {
    local desc="$1" want="$2"; shift 2
    local out rc=0
    out="$("$@" 2>&1)" || rc=$?
    if [[ $rc -ne 0 && ( "$want" == any || $rc -eq $want ) ]]; then ok "$desc"; return 0; fi
    fail "$desc (exit $rc, expected ${want/any/non-zero})" "\$ $(printf "%q " "$@")"$'\n'"$out"
    return 0
}

# same DESC EXPECTED ACTUAL: byte-identical files.
same() {
    local desc="$1" a="$2" b="$3"
    if [[ ! -f "$a" || ! -f "$b" ]]; then
        fail "$desc (missing file: $( [[ -f "$a" ]] || echo "$a") $( [[ -f "$b" ]] || echo "$b"))"
        return 0
    fi
    if cmp -s "$a" "$b"; then ok "$desc"; return 0; fi
    local detail
    detail="$(basename "$a"): $(wc -c <"$a") bytes, $(basename "$b"): $(wc -c <"$b") bytes; $(cmp "$a" "$b" 2>&1 | sed -n '1s/.* differ: /first difference at /p' || true)"
    if [[ "$a" == *.pem && "$b" == *.pem ]]; then
        detail+=$'\n'"$(diff "$a" "$b" | head -n 12 || true)"
    else
        detail+=$'\n'"expected: $(head -c 48 "$a" | od -An -tx1 | tr -d ' \n')"
        detail+=$'\n'"actual:   $(head -c 48 "$b" | od -An -tx1 | tr -d ' \n')"
    fi
    fail "$desc" "$detail"
    return 0
}

# Tampered copy of a file (one bit flipped at the given offset).
flip() {
    local in="$1" out="$2" off="$3"
    cp "$in" "$out"
    local byte
    byte=$(od -An -tu1 -j "$off" -N1 "$in" | tr -d ' ')
    printf "$(printf '\\%03o' $(( (byte ^ 1) & 255 )))" |
        dd of="$out" bs=1 seek="$off" conv=notrunc status=none
}

tohex() { od -An -tx1 -v | tr -d ' \n'; }

# Message: binary, not a multiple of any block size.
msg="$work/msg.bin"
{ printf 'SLH-DSA interop test message\n\0\1\2\377'; head -c 1000 /dev/zero | tr '\0' 'x'; } >"$msg"
bad_msg="$work/msg.bad"
flip "$msg" "$bad_msg" 7
ctx_text='interop context: Grüße ✓'
ctx_hex="$(printf '%s' "$ctx_text" | tohex)"

start_all=$(date +%s)
for alg in $sets; do
    cur="$alg"
    d="$work/$alg"
    mkdir -p "$d"
    t0=$(date +%s)
    echo "== $alg"
    full=0
    [[ "$alg" == *f || "${FULL:-0}" == 1 ]] && full=1

    # --- OpenSSL-generated key --------------------------------------------
    if ! need run "openssl genpkey" ossl genpkey -algorithm "$alg" -out "$d/o_key.pem"; then
        continue
    fi
    ossl pkey -in "$d/o_key.pem" -pubout -out "$d/o_pub.pem"
    ossl pkey -in "$d/o_key.pem" -outform DER -out "$d/o_key.der"
    ossl pkey -in "$d/o_key.pem" -pubout -outform DER -out "$d/o_pub.der"

    need run "sphincs pubkey <openssl key.pem>" "$sphincs" pubkey "$d/o_key.pem" -o "$d/s_pub_of_o.pem" &&
        same "sphincs pubkey == openssl -pubout (PEM)" "$d/o_pub.pem" "$d/s_pub_of_o.pem"
    need run "sphincs pubkey --der <openssl key.der>" "$sphincs" pubkey "$d/o_key.der" --der -o "$d/s_pub_of_o.der" &&
        same "sphincs pubkey --der == openssl -pubout -outform DER" "$d/o_pub.der" "$d/s_pub_of_o.der"

    # --- Encrypted private keys (PKCS#8 PBES2), both ways ------------------
    printf 'interop passphrase \xc3\xa9\n' >"$d/pass"
    printf 'not the passphrase\n' >"$d/wrong"
    if need run "openssl genpkey -aes-256-cbc (PBKDF2-HMAC-SHA256)" \
        ossl genpkey -algorithm "$alg" -aes-256-cbc -pass "file:$d/pass" -out "$d/o_enc_pbkdf2.pem"; then
        ossl pkey -in "$d/o_enc_pbkdf2.pem" -passin "file:$d/pass" -pubout -out "$d/o_pub_enc1.pem"
        need run "sphincs reads it (pubkey --passphrase-file)" \
            "$sphincs" pubkey --passphrase-file "$d/pass" "$d/o_enc_pbkdf2.pem" -o "$d/s_pub_enc1.pem" &&
            same "its public key == openssl -pubout" "$d/o_pub_enc1.pem" "$d/s_pub_enc1.pem"
        reject "sphincs: wrong passphrase is exit 2" 2 \
            "$sphincs" pubkey --passphrase-file "$d/wrong" "$d/o_enc_pbkdf2.pem"
    fi
    if need run "openssl pkcs8 -topk8 -v2 aes-256-cbc -scrypt" \
        ossl pkcs8 -topk8 -v2 aes-256-cbc -scrypt -in "$d/o_key.pem" -passout "file:$d/pass" -out "$d/o_enc_scrypt.pem"; then
        need run "sphincs reads it (key decrypt)" \
            "$sphincs" key decrypt --passphrase-fd 3 "$d/o_enc_scrypt.pem" -o "$d/s_dec.pem" 3<"$d/pass" &&
            same "decrypted key == openssl's plain key" "$d/o_key.pem" "$d/s_dec.pem"
    fi
    if need run "sphincs key encrypt <openssl key>" \
        "$sphincs" key encrypt --passphrase-file "$d/pass" "$d/o_key.pem" -o "$d/s_enc.pem"; then
        need run "openssl pkey -passin reads sphincs's encrypted key" \
            ossl pkey -in "$d/s_enc.pem" -passin "file:$d/pass" -out "$d/o_dec.pem" &&
            same "openssl's decryption == the original key" "$d/o_key.pem" "$d/o_dec.pem"
        reject "openssl: wrong passphrase fails" any \
            ossl pkey -in "$d/s_enc.pem" -passin "file:$d/wrong" -noout
    fi
    if need run "sphincs keygen --encrypt --der" \
        "$sphincs" keygen -a "$alg" --encrypt --der --passphrase-file "$d/pass" -o "$d/s_enc_key.der" --pub "$d/s_enc_pub.der"; then
        need run "openssl pkey -inform DER -passin reads it" \
            ossl pkey -inform DER -in "$d/s_enc_key.der" -passin "file:$d/pass" -pubout -outform DER -out "$d/o_pub_of_enc.der" &&
            same "openssl's public key of it == sphincs's" "$d/s_enc_pub.der" "$d/o_pub_of_enc.der"
    fi

    # Deterministic, with context: one sign per side.
    if need run "sphincs sign --deterministic --context (openssl key)" \
        "$sphincs" sign -k "$d/o_key.pem" --deterministic --context "$ctx_text" -o "$d/s_det_ctx.sig" "$msg"; then
        run "openssl verifies sphincs signature (context-string)" \
            ossl pkeyutl -verify -rawin -pubin -inkey "$d/o_pub.pem" -in "$msg" -sigfile "$d/s_det_ctx.sig" \
            -pkeyopt "context-string:$ctx_text"
        reject "openssl rejects sphincs signature, tampered message" any \
            ossl pkeyutl -verify -rawin -pubin -inkey "$d/o_pub.pem" -in "$bad_msg" -sigfile "$d/s_det_ctx.sig" \
            -pkeyopt "context-string:$ctx_text"
        reject "openssl rejects sphincs signature, no context" any \
            ossl pkeyutl -verify -rawin -pubin -inkey "$d/o_pub.pem" -in "$msg" -sigfile "$d/s_det_ctx.sig"
        flip "$d/s_det_ctx.sig" "$d/s_det_ctx.sig.bad" 100
        reject "openssl rejects tampered sphincs signature" any \
            ossl pkeyutl -verify -rawin -pubin -inkey "$d/o_pub.pem" -in "$msg" -sigfile "$d/s_det_ctx.sig.bad" \
            -pkeyopt "context-string:$ctx_text"
    fi
    if need run "openssl sign deterministic:1 hexcontext-string" \
        ossl pkeyutl -sign -rawin -inkey "$d/o_key.pem" -in "$msg" -out "$d/o_det_ctx.sig" \
        -pkeyopt deterministic:1 -pkeyopt "hexcontext-string:$ctx_hex"; then
        same "deterministic signatures byte-identical (sphincs vs openssl, context)" \
            "$d/o_det_ctx.sig" "$d/s_det_ctx.sig"
        run "sphincs verifies openssl signature (--context-hex)" \
            "$sphincs" verify -p "$d/o_pub.pem" -s "$d/o_det_ctx.sig" --context-hex "$ctx_hex" "$msg"
        run "sphincs verifies openssl signature (--context, DER public key)" \
            "$sphincs" verify -p "$d/o_pub.der" -s "$d/o_det_ctx.sig" --context "$ctx_text" "$msg"
        reject "sphincs rejects openssl signature, tampered message" 1 \
            "$sphincs" verify -p "$d/o_pub.pem" -s "$d/o_det_ctx.sig" --context "$ctx_text" "$bad_msg"
        reject "sphincs rejects openssl signature, wrong context" 1 \
            "$sphincs" verify -p "$d/o_pub.pem" -s "$d/o_det_ctx.sig" --context "${ctx_text}x" "$msg"
        reject "sphincs rejects openssl signature, no context" 1 \
            "$sphincs" verify -p "$d/o_pub.pem" -s "$d/o_det_ctx.sig" "$msg"
        flip "$d/o_det_ctx.sig" "$d/o_det_ctx.sig.bad" 100
        reject "sphincs rejects tampered openssl signature" 1 \
            "$sphincs" verify -p "$d/o_pub.pem" -s "$d/o_det_ctx.sig.bad" --context "$ctx_text" "$msg"
    fi

    # --- sphincs-generated keys ------------------------------------------------
    if need run "sphincs keygen (PEM)" "$sphincs" keygen -a "$alg" -o "$d/s_key.pem" --pub "$d/s_pub.pem"; then
        out="$(ossl pkey -in "$d/s_key.pem" -text -noout 2>&1)" || true
        if [[ "$(printf '%s\n' "$out" | head -n 1)" == "$alg Private-Key:" ]]; then
            ok "openssl pkey -text reads sphincs private key"
        else
            fail "openssl pkey -text reads sphincs private key" "$out"
        fi
        run "openssl pkey -check (pairwise) on sphincs private key" ossl pkey -in "$d/s_key.pem" -check -noout
        out="$(ossl pkey -pubin -in "$d/s_pub.pem" -text -noout 2>&1)" || true
        if [[ "$(printf '%s\n' "$out" | head -n 1)" == "$alg Public-Key:" ]]; then
            ok "openssl pkey -pubin reads sphincs public key"
        else
            fail "openssl pkey -pubin reads sphincs public key" "$out"
        fi
        ossl pkey -in "$d/s_key.pem" -pubout -out "$d/o_pub_of_s.pem" 2>/dev/null || true
        same "openssl -pubout of sphincs key == sphincs pub.pem" "$d/s_pub.pem" "$d/o_pub_of_s.pem"
        ossl pkey -in "$d/s_key.pem" -out "$d/o_key_of_s.pem" 2>/dev/null || true
        same "openssl re-encoding of sphincs key.pem is identical" "$d/s_key.pem" "$d/o_key_of_s.pem"
        ossl pkey -pubin -in "$d/s_pub.pem" -out "$d/o_pub_re.pem" 2>/dev/null || true
        same "openssl re-encoding of sphincs pub.pem is identical" "$d/s_pub.pem" "$d/o_pub_re.pem"
    fi
    if need run "sphincs keygen --der" "$sphincs" keygen -a "$alg" --der -o "$d/s_key.der" --pub "$d/s_pub.der"; then
        run "openssl reads sphincs DER private key" ossl pkey -inform DER -in "$d/s_key.der" -check -noout
        run "openssl reads sphincs DER public key" ossl pkey -pubin -inform DER -in "$d/s_pub.der" -noout
        ossl pkey -inform DER -in "$d/s_key.der" -pubout -outform DER -out "$d/o_pub_of_s.der" 2>/dev/null || true
        same "openssl -pubout -outform DER of sphincs key == sphincs pub.der" "$d/s_pub.der" "$d/o_pub_of_s.der"
        ossl pkey -inform DER -in "$d/s_key.der" -outform DER -out "$d/o_key_of_s.der" 2>/dev/null || true
        same "openssl DER re-encoding of sphincs key.der is identical" "$d/s_key.der" "$d/o_key_of_s.der"
        run "sphincs pubkey of its DER key (PEM out) == openssl's" "$sphincs" pubkey "$d/s_key.der" -o "$d/s_pub_of_sder.pem"
        ossl pkey -inform DER -in "$d/s_key.der" -pubout -out "$d/o_pub_of_sder.pem" 2>/dev/null || true
        same "sphincs pubkey (DER key -> PEM) == openssl -pubout" "$d/o_pub_of_sder.pem" "$d/s_pub_of_sder.pem"
    fi

    # --- Randomized signatures without context, our keys (f sets / FULL=1) ---
    if [[ $full == 1 && -f "$d/s_key.pem" && -f "$d/s_key.der" ]]; then
        if need run "sphincs sign (randomized, no context, sphincs PEM key)" \
            "$sphincs" sign -k "$d/s_key.pem" -o "$d/s_rand.sig" "$msg"; then
            run "openssl verifies sphincs signature (no context)" \
                ossl pkeyutl -verify -rawin -pubin -inkey "$d/s_pub.pem" -in "$msg" -sigfile "$d/s_rand.sig"
            reject "openssl rejects sphincs signature, tampered message" any \
                ossl pkeyutl -verify -rawin -pubin -inkey "$d/s_pub.pem" -in "$bad_msg" -sigfile "$d/s_rand.sig"
        fi
        if need run "openssl sign (randomized, no context, sphincs PEM key)" \
            ossl pkeyutl -sign -rawin -inkey "$d/s_key.pem" -in "$msg" -out "$d/o_rand.sig"; then
            run "sphincs verifies openssl signature (no context)" \
                "$sphincs" verify -p "$d/s_pub.pem" -s "$d/o_rand.sig" "$msg"
            run "sphincs verifies openssl signature (message on stdin)" \
                sh -c '"$0" verify -p "$1" -s "$2" - <"$3"' "$sphincs" "$d/s_pub.pem" "$d/o_rand.sig" "$msg"
            reject "sphincs rejects openssl signature, tampered message" 1 \
                "$sphincs" verify -p "$d/s_pub.pem" -s "$d/o_rand.sig" "$bad_msg"
            reject "sphincs rejects openssl signature, other key" 1 \
                "$sphincs" verify -p "$d/o_pub.pem" -s "$d/o_rand.sig" "$msg"
        fi
        if need run "sphincs sign (DER key, message on stdin)" \
            sh -c '"$0" sign -k "$1" -o "$2" - <"$3"' "$sphincs" "$d/s_key.der" "$d/s_der.sig" "$msg"; then
            run "openssl verifies it with the DER public key" \
                ossl pkeyutl -verify -rawin -pubin -keyform DER -inkey "$d/s_pub.der" -in "$msg" -sigfile "$d/s_der.sig"
        fi
        if need run "openssl sign (DER key)" \
            ossl pkeyutl -sign -rawin -keyform DER -inkey "$d/s_key.der" -in "$msg" -out "$d/o_der.sig"; then
            run "sphincs verifies it with the DER public key" \
                "$sphincs" verify -p "$d/s_pub.der" -s "$d/o_der.sig" "$msg"
        fi
    fi
    echo "   ($(( $(date +%s) - t0 )) s)"
done

echo
echo "total time: $(( $(date +%s) - start_all )) s"
if [[ $failed -ne 0 ]]; then
    echo "failures:"
    printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
