#!/usr/bin/env bash
# Tests of the OpenSSL provider (sphincs.so, crates/openssl-provider) against
# one openssl binary: run it once with /usr/bin/openssl (3.0) and once with
# OpenSSL 3.5 (the wrapper made by .ci/openssl35.sh).
#
# Usage: tests/interop/provider.sh [OPENSSL]
# Environment:
#   OPENSSL       the openssl to test (when no argument); default `openssl`
#   PROVIDER_DIR  a directory holding sphincs.so; default: scripts/install-provider
#                 NO_BUILD=1 of target/release into a scratch prefix
#   SPHINCS_BIN   our CLI; default target/release/sphincs
#   SETS          parameter sets (default: all 12)
#   KEEP=1        keep the scratch directory
#
# Checks, per set: genpkey through the provider; PEM/DER round trips with
# `openssl pkey` byte-identical to the CLI's encodings of the same key;
# pkeyutl sign/verify with and without a context string (both the one-shot
# digest-sign path, -rawin, and the plain sign path); a deterministic
# signature equal to the CLI's and, on 3.5, to the built-in SLH-DSA's; keys
# and signatures crossing between provider, CLI and built-in; tampered
# signatures and messages rejected. Then: proof that the provider (not 3.5's
# built-in) answered, by -propquery and by an openssl.cnf's
# default_properties, and bad input rejected with a reason on the error queue;
# HashSLH-DSA keys (PKCS#8 and SPKI, PEM and DER) and signatures with the CLI;
# through the C API (provider_checks.c, provider_threads.c,
# provider_message.c) the provider of every fetched algorithm, bad input,
# eight threads and the message API; X.509 (a two-level chain), CMS (3.5);
# on 3.5, TLS 1.3 handshakes for every set with a provider-made and a
# CLI-made certificate.
# Ends with "N passed, N failed"; exits 1 on any failure, 2 on setup errors.
# (No `set -e`: a step that cannot run because an earlier one failed is
# itself counted, and the summary line is always printed.)
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OPENSSL="${1:-${OPENSSL:-openssl}}"
command -v "$OPENSSL" >/dev/null || { echo "no openssl: $OPENSSL" >&2; exit 2; }
OPENSSL="$(command -v "$OPENSSL")"
sphincs="${SPHINCS_BIN:-$repo_root/target/release/sphincs}"
[[ -x "$sphincs" ]] || { echo "sphincs CLI not found: $sphincs (cargo build --release -p sphincs-cli)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/sphincs-provider.XXXXXX")"
# TLS servers started below (their `timeout` process ids): killed on exit,
# whatever ends the script.
servers=()
cleanup() {
    local s
    for s in ${servers[@]+"${servers[@]}"}; do kill "$s" 2>/dev/null || true; done
    if [[ "${KEEP:-0}" != 1 ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [[ "${KEEP:-0}" == 1 ]]; then echo "scratch directory: $work"; fi

hint=""
if [[ -z "${PROVIDER_DIR:-}" ]]; then
    hint="$(NO_BUILD=1 "$repo_root/scripts/install-provider" "$work/prefix")" ||
        { echo "install-provider failed (cargo build --release -p sphincs-openssl-provider first)" >&2; exit 2; }
    PROVIDER_DIR="$work/prefix/lib/ossl-modules"
fi

version="$("$OPENSSL" version)"
echo "openssl: $version"
echo "provider: $PROVIDER_DIR/sphincs.so"
builtin=0
if grep -q 'SLH-DSA-SHA2-128f' <<<"$("$OPENSSL" list -signature-algorithms 2>/dev/null)"; then builtin=1; fi
echo "built-in SLH-DSA: $builtin"

# Ours, with the default provider for PEM and the rest; on 3.5 SLH-DSA is
# routed to ours by the property query.
P=(-provider-path "$PROVIDER_DIR" -provider sphincs -provider default -propquery '?provider=sphincs')
# Ours only, plus base for the file loader and PEM/DER plumbing (base has no
# key types or signatures): only our provider can answer for SLH-DSA.
ONLY=(-provider-path "$PROVIDER_DIR" -provider sphincs -provider base)
# Every command runs under a time limit (a hang is a failure, not a stuck CI job).
ossl() { timeout 300 "$OPENSSL" "$@"; }
# The built-in (3.5): our provider not loaded.
builtin_ossl() { timeout 300 "$OPENSSL" "$@"; }
bounded() { if declare -F "$1" >/dev/null; then "$@"; else timeout 300 "$@"; fi; }

passed=0
failed=0
cur=""
last=ok
ok() { passed=$((passed + 1)); last=ok; echo "  ok   $cur: $1"; }
fail() {
    failed=$((failed + 1)); last=fail
    echo "  FAIL $cur: $1"
    [[ -z "${2:-}" ]] || printf '%s\n' "$2" | head -n 15 | sed 's/^/         | /'
    return 0
}
need() { "$@"; [[ $last == ok ]]; }
# run DESC CMD...: exit status 0 expected.
run() {
    local desc="$1"; shift
    local out rc=0
    out="$(bounded "$@" 2>&1)" || rc=$?
    if [[ $rc -eq 0 ]]; then ok "$desc"; else fail "$desc (exit $rc)" "\$ $*"$'\n'"$out"; fi
    return 0
}
# reject DESC PATTERN CMD...: non-zero exit (not a crash: status < 128)
# and, unless PATTERN is empty, output matching PATTERN (the reason).
reject() {
    local desc="$1" pat="$2"; shift 2
    local out rc=0
    out="$(bounded "$@" 2>&1)" || rc=$?
    if [[ $rc -eq 0 ]]; then fail "$desc (accepted)" "\$ $*"$'\n'"$out"; return 0; fi
    if [[ $rc -ge 124 ]]; then fail "$desc (crash or timeout: exit $rc)" "\$ $*"$'\n'"$out"; return 0; fi
    if [[ -n "$pat" ]] && ! grep -qiE -- "$pat" <<<"$out"; then
        fail "$desc (no reason matching /$pat/)" "\$ $*"$'\n'"$out"; return 0
    fi
    ok "$desc"
}
# same DESC A B: byte-identical files.
same() {
    if [[ -f "$2" && -f "$3" ]] && cmp -s "$2" "$3"; then ok "$1"; else
        fail "$1" "$(ls -l "$2" "$3" 2>&1; cmp "$2" "$3" 2>&1 || true)"; fi
}
# grepout DESC PATTERN CMD...: success and output matching PATTERN.
grepout() {
    local desc="$1" pat="$2"; shift 2
    local out rc=0
    out="$(bounded "$@" 2>&1)" || rc=$?
    if [[ $rc -eq 0 ]] && grep -qE -- "$pat" <<<"$out"; then ok "$desc"; else
        fail "$desc (exit $rc)" "\$ $*"$'\n'"$out"; fi
}
flip() { # flip IN OUT OFFSET: one bit changed
    cp "$1" "$2"
    local byte
    byte=$(od -An -tu1 -j "$3" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $(((byte ^ 1) & 255)))" | dd of="$2" bs=1 seek="$3" conv=notrunc status=none
}

msg="$work/msg.bin"
{ printf 'provider test message\n\0\1\2\377'; head -c 700 /dev/zero | tr '\0' 'y'; } >"$msg"
bad_msg="$work/msg.bad"
flip "$msg" "$bad_msg" 5
short="$work/short.bin"
printf '0123456789abcdef0123456789abcdef' >"$short"
bad_short="$work/short.bad"
flip "$short" "$bad_short" 3
ctx="provider context"

all_sets="SLH-DSA-SHA2-128s SLH-DSA-SHA2-128f SLH-DSA-SHA2-192s SLH-DSA-SHA2-192f
SLH-DSA-SHA2-256s SLH-DSA-SHA2-256f SLH-DSA-SHAKE-128s SLH-DSA-SHAKE-128f
SLH-DSA-SHAKE-192s SLH-DSA-SHAKE-192f SLH-DSA-SHAKE-256s SLH-DSA-SHAKE-256f"
sets="${SETS:-$all_sets}"
start=$(date +%s)

cur=load
grepout "provider listed and active" 'sphincs' ossl list -providers "${P[@]}"
# The line install-provider prints for a prefix install, run as printed
# (-provider-path before -provider), and the other order refused by openssl.
if [[ -n "$hint" ]]; then
    line="$(sed -n 's/^try: openssl //p' <<<"$hint")"
    read -r -a hinted <<<"$line"
    grepout "install-provider's hint runs as printed: ${line:0:40}…" 'status: active' ossl "${hinted[@]}"
    reject "openssl list -provider sphincs -provider-path DIR (path after the provider) is refused" "" \
        ossl list -providers -provider sphincs -provider-path "$PROVIDER_DIR"
fi
out="$(ossl list -signature-algorithms "${P[@]}" 2>&1 || true)"
n_ours=0
for alg in $all_sets; do grep -q "$alg } @ sphincs" <<<"$out" && n_ours=$((n_ours + 1)); done
if [[ $n_ours -eq 12 ]]; then ok "all 12 signature algorithms listed @ sphincs"; else fail "$n_ours of 12 listed @ sphincs" "$out"; fi

for alg in $sets; do
    cur="$alg"
    d="$work/$alg"
    mkdir -p "$d"
    echo "== $alg"
    if ! need run "genpkey (provider)" ossl genpkey "${P[@]}" -algorithm "$alg" -out "$d/key.pem"; then continue; fi
    run "pkey PEM -> DER" ossl pkey "${P[@]}" -in "$d/key.pem" -outform DER -out "$d/key.der"
    run "pkey DER -> PEM" ossl pkey "${P[@]}" -inform DER -in "$d/key.der" -out "$d/key2.pem"
    same "PEM -> DER -> PEM round trip" "$d/key.pem" "$d/key2.pem"
    run "pkey -pubout PEM" ossl pkey "${P[@]}" -in "$d/key.pem" -pubout -out "$d/pub.pem"
    run "pkey -pubout DER" ossl pkey "${P[@]}" -in "$d/key.pem" -pubout -outform DER -out "$d/pub.der"
    run "pkey -pubin DER -> PEM" ossl pkey "${P[@]}" -pubin -inform DER -in "$d/pub.der" -out "$d/pub2.pem"
    same "SPKI DER -> PEM round trip" "$d/pub.pem" "$d/pub2.pem"
    run "sphincs pubkey of the provider's key" "$sphincs" pubkey "$d/key.pem" -o "$d/cli_pub.pem"
    same "CLI public key == provider's -pubout" "$d/pub.pem" "$d/cli_pub.pem"
    run "pkey -check (root recomputed)" ossl pkey "${P[@]}" -in "$d/key.pem" -check -noout
    grepout "pkey -text" "$alg Private-Key" ossl pkey "${P[@]}" -in "$d/key.pem" -text -noout

    # Deterministic with a context: provider == CLI (== built-in on 3.5).
    if need run "pkeyutl -sign -rawin deterministic + context" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" \
        -in "$msg" -out "$d/det.sig" -pkeyopt deterministic:1 -pkeyopt "context-string:$ctx"; then
        run "sphincs sign --deterministic --context" "$sphincs" sign -k "$d/key.pem" --deterministic --context "$ctx" -o "$d/cli_det.sig" "$msg"
        same "deterministic signature == CLI's" "$d/cli_det.sig" "$d/det.sig"
        run "pkeyutl -verify (context)" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/pub.pem" -in "$msg" \
            -sigfile "$d/det.sig" -pkeyopt "context-string:$ctx"
        reject "wrong context rejected" "" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/pub.pem" -in "$msg" \
            -sigfile "$d/det.sig" -pkeyopt "context-string:${ctx}x"
        reject "missing context rejected" "" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/pub.pem" -in "$msg" -sigfile "$d/det.sig"
        run "sphincs verify of the provider's signature" "$sphincs" verify -p "$d/pub.pem" -s "$d/det.sig" --context "$ctx" "$msg"
        if [[ $builtin == 1 ]]; then
            run "built-in: sign deterministic + context, same key" builtin_ossl pkeyutl -sign -rawin -inkey "$d/key.pem" -in "$msg" \
                -out "$d/bi_det.sig" -pkeyopt deterministic:1 -pkeyopt "context-string:$ctx"
            same "deterministic signature == built-in's" "$d/bi_det.sig" "$d/det.sig"
            run "provider verifies the built-in's signature" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/pub.pem" -in "$msg" \
                -sigfile "$d/bi_det.sig" -pkeyopt "context-string:$ctx"
            run "built-in verifies the provider's signature" builtin_ossl pkeyutl -verify -rawin -pubin -inkey "$d/pub.pem" -in "$msg" \
                -sigfile "$d/det.sig" -pkeyopt "context-string:$ctx"
        fi
    fi
    # Hedged, no context, through the plain sign path (no -rawin; 3.0's
    # pkeyutl takes at most a digest's length there, so a 32-byte message).
    if need run "pkeyutl -sign (hedged, no context)" ossl pkeyutl -sign "${P[@]}" -inkey "$d/key.pem" -in "$short" -out "$d/h.sig"; then
        run "pkeyutl -verify" ossl pkeyutl -verify "${P[@]}" -pubin -inkey "$d/pub.pem" -in "$short" -sigfile "$d/h.sig"
        run "sphincs verify (no context)" "$sphincs" verify -p "$d/pub.pem" -s "$d/h.sig" "$short"
        flip "$d/h.sig" "$d/h.bad" 100
        reject "tampered signature rejected" "" ossl pkeyutl -verify "${P[@]}" -pubin -inkey "$d/pub.pem" -in "$short" -sigfile "$d/h.bad"
        reject "tampered message rejected" "" ossl pkeyutl -verify "${P[@]}" -pubin -inkey "$d/pub.pem" -in "$bad_short" -sigfile "$d/h.sig"
    fi
    # A CLI key and signature into the provider.
    if need run "sphincs keygen" "$sphincs" keygen -a "$alg" -o "$d/cli_key.pem" --pub "$d/cli_key_pub.pem"; then
        run "provider re-encodes the CLI key" ossl pkey "${P[@]}" -in "$d/cli_key.pem" -out "$d/cli_key_re.pem"
        same "re-encoded CLI key identical" "$d/cli_key.pem" "$d/cli_key_re.pem"
        run "sphincs sign (hedged)" "$sphincs" sign -k "$d/cli_key.pem" -o "$d/cli.sig" "$msg"
        run "provider verifies the CLI's signature" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/cli_key_pub.pem" -in "$msg" -sigfile "$d/cli.sig"
    fi
    # A built-in key into the provider, and back (3.5).
    if [[ $builtin == 1 ]]; then
        if need run "built-in genpkey" builtin_ossl genpkey -algorithm "$alg" -out "$d/bi_key.pem"; then
            run "provider re-encodes the built-in's key" ossl pkey "${P[@]}" -in "$d/bi_key.pem" -out "$d/bi_key_re.pem"
            same "re-encoded built-in key identical" "$d/bi_key.pem" "$d/bi_key_re.pem"
            builtin_ossl pkey -in "$d/bi_key.pem" -pubout -out "$d/bi_pub.pem" 2>/dev/null || true
            ossl pkey "${P[@]}" -in "$d/bi_key.pem" -text -noout >"$d/text_p.txt" 2>&1
            builtin_ossl pkey -in "$d/bi_key.pem" -text -noout >"$d/text_bi.txt" 2>&1
            same "pkey -text identical to the built-in's" "$d/text_bi.txt" "$d/text_p.txt"
            run "provider signs with the built-in's key" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/bi_key.pem" -in "$msg" -out "$d/p_bi.sig"
            run "built-in verifies it" builtin_ossl pkeyutl -verify -rawin -pubin -inkey "$d/bi_pub.pem" -in "$msg" -sigfile "$d/p_bi.sig"
        fi
    fi
done

cur=routing
alg=SLH-DSA-SHA2-128f
d="$work/routing"
mkdir -p "$d"
# With the default provider absent and provider=sphincs required, only ours
# can answer: these fail if the provider is not the one doing the work.
if need run "genpkey with only sphincs (+ base)" ossl genpkey "${ONLY[@]}" -algorithm "$alg" -out "$d/key.pem"; then
    run "sign with only sphincs" ossl pkeyutl -sign -rawin "${ONLY[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/s.sig"
    run "verify with only sphincs" ossl pkeyutl -verify -rawin "${ONLY[@]}" -inkey "$d/key.pem" -in "$msg" -sigfile "$d/s.sig"
fi
if [[ $builtin == 1 ]]; then
    grepout "3.5: -propquery ?provider=sphincs lists ours" "$alg } @ sphincs" ossl list -signature-algorithms "${P[@]}"
    # An openssl.cnf that loads ours beside the default provider and prefers
    # it (default_properties), as docs/openssl.md shows: no -provider flags.
    # Ours answered if a 256-byte context is refused with our reason (the
    # built-in says "too small buffer"), and the built-in's sign/verify of
    # the same key still pass through the rest of the default provider.
    cat >"$d/openssl.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[provider_sect]
default = default_sect
sphincs = sphincs_sect
[default_sect]
activate = 1
[sphincs_sect]
module = $PROVIDER_DIR/sphincs.so
activate = 1
[algorithm_sect]
default_properties = ?provider=sphincs
CNF
    cnf() { OPENSSL_CONF="$d/openssl.cnf" timeout 300 "$OPENSSL" "$@"; }
    if need run "openssl.cnf: genpkey with default_properties = ?provider=sphincs" cnf genpkey -algorithm "$alg" -out "$d/cnf.pem"; then
        run "openssl.cnf: sign" cnf pkeyutl -sign -rawin -inkey "$d/cnf.pem" -in "$msg" -out "$d/cnf.sig"
        run "openssl.cnf: the built-in verifies it" builtin_ossl pkeyutl -verify -rawin -inkey "$d/cnf.pem" -in "$msg" -sigfile "$d/cnf.sig"
        reject "openssl.cnf: ours answered (our reason for a 256-byte context)" "at most 255" \
            cnf pkeyutl -sign -rawin -inkey "$d/cnf.pem" -in "$msg" -out "$d/cnf256.sig" \
            -pkeyopt "context-string:$(head -c 256 /dev/zero | tr '\0' c)"
        grepout "openssl.cnf: the rest still comes from the default provider (SHA-256)" "SHA2-256|SHA256" \
            cnf dgst -sha256 "$msg"
    fi
fi

cur=bad-input
d="$work/bad"
mkdir -p "$d"
ossl genpkey "${P[@]}" -algorithm "$alg" -out "$d/key.pem" 2>/dev/null || true
ossl pkey "${P[@]}" -in "$d/key.pem" -pubout -out "$d/pub.pem" 2>/dev/null || true
head -c 255 /dev/zero | tr '\0' 'c' >"$d/ctx255"
head -c 256 /dev/zero | tr '\0' 'c' >"$d/ctx256"
run "context of 255 bytes accepted" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/c255.sig" \
    -pkeyopt "context-string:$(cat "$d/ctx255")"
reject "context of 256 bytes refused" "at most 255" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/c256.sig" \
    -pkeyopt "context-string:$(cat "$d/ctx256")"
ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/ok.sig" 2>/dev/null || true
head -c 100 "$d/ok.sig" >"$d/short.sig"
reject "short signature refused with a reason" "signature is 100 bytes" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/pub.pem" \
    -in "$msg" -sigfile "$d/short.sig"
{ cat "$d/ok.sig"; printf 'x'; } >"$d/long.sig"
reject "long signature refused with a reason" "expected 17088" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/pub.pem" \
    -in "$msg" -sigfile "$d/long.sig"
reject "unknown parameter refused" "Can't set parameter" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/x.sig" -pkeyopt no-such-param:1
reject "wrong-typed parameter refused" "Can't set parameter" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/x.sig" -pkeyopt deterministic:yes
reject "message-encoding 2 refused" "message-encoding must be 0" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/x.sig" -pkeyopt message-encoding:2
reject "seed of the wrong length refused" "seed is 3 bytes" ossl genpkey "${P[@]}" -algorithm "$alg" -pkeyopt hexseed:010203
head -c 300 /dev/urandom >"$d/garbage.der"
reject "garbage DER refused" "decoder|unsupported|could not" ossl pkey "${P[@]}" -inform DER -in "$d/garbage.der" -noout
# A PKCS#8 with our OID and a key 1 byte short: rebuilt by hand.
ossl pkey "${P[@]}" -in "$d/key.pem" -outform DER -out "$d/key.der" 2>/dev/null || true
python3 - "$d/key.der" "$d/short_key.der" <<'PY'
import sys
der = open(sys.argv[1], "rb").read()
# PrivateKeyInfo: 30 len 02 01 00 30 0b 06 09 <oid> 04 40 <64 bytes>: drop one key byte.
key = der[-64:][:-1]
body = bytes([0x02, 0x01, 0x00]) + der[5:5 + 13] + bytes([0x04, len(key)]) + key
open(sys.argv[2], "wb").write(bytes([0x30, len(body)]) + body)
PY
reject "PKCS#8 with a 63-byte key refused" "privateKey is 63 bytes|unsupported" ossl pkey "${P[@]}" -inform DER -in "$d/short_key.der" -noout
# SPKI with a public key one byte short.
ossl pkey "${P[@]}" -in "$d/key.pem" -pubout -outform DER -out "$d/pub.der" 2>/dev/null || true
python3 - "$d/pub.der" "$d/short_pub.der" <<'PY'
import sys
der = open(sys.argv[1], "rb").read()
# SubjectPublicKeyInfo: 30 len 30 0b 06 09 <oid> 03 21 00 <32 bytes>: drop one key byte.
key = der[-32:][:-1]
body = der[2:2 + 13] + bytes([0x03, len(key) + 1, 0x00]) + key
open(sys.argv[2], "wb").write(bytes([0x30, len(body)]) + body)
PY
reject "SPKI with a 31-byte key refused" "public key|unsupported|decoder" ossl pkey "${P[@]}" -pubin -inform DER -in "$d/short_pub.der" -noout
# Encrypted PKCS#8: written by our encoder when a cipher is asked for
# (genpkey -aes256, pkey -aes256, req -newkey without -nodes), read by the
# CLI and by the 3.5 built-in; and OpenSSL's own PBES2 over our
# PrivateKeyInfo (pkcs8 -topk8).
printf 'correct horse\n' >"$d/pass"
chmod 600 "$d/pass"
if need run "genpkey -aes256 -pass (the provider encrypts)" ossl genpkey "${P[@]}" -algorithm "$alg" \
    -aes256 -pass "file:$d/pass" -out "$d/enc_genpkey.pem"; then
    grepout "genpkey -aes256 wrote an ENCRYPTED PRIVATE KEY" '^-----BEGIN ENCRYPTED PRIVATE KEY-----$' head -n 1 "$d/enc_genpkey.pem"
    run "sphincs --passphrase-file reads genpkey -aes256's key" "$sphincs" --passphrase-file "$d/pass" pubkey "$d/enc_genpkey.pem" -o "$d/enc_genpkey_pub.pem"
    [[ $builtin == 1 ]] && run "3.5 built-in reads genpkey -aes256's key" builtin_ossl pkey -in "$d/enc_genpkey.pem" -passin "file:$d/pass" -noout
    reject "a wrong passphrase for genpkey -aes256's key refused" "" ossl pkey "${P[@]}" -in "$d/enc_genpkey.pem" -passin pass:wrong -noout
fi
if need run "pkey -aes256 -passout (the provider re-encrypts)" ossl pkey "${P[@]}" -in "$d/key.pem" -aes256 -passout "file:$d/pass" -out "$d/enc_pkey.pem"; then
    run "pkey -passin opens pkey -aes256's key" ossl pkey "${P[@]}" -in "$d/enc_pkey.pem" -passin "file:$d/pass" -out "$d/dec_pkey.pem"
    same "pkey -aes256 and back: the same key" "$d/key.pem" "$d/dec_pkey.pem"
fi
if need run "req -new -newkey -keyout -passout (no -nodes: the key encrypted)" ossl req "${P[@]}" -new -newkey "$alg" \
    -keyout "$d/req_key.pem" -passout "file:$d/pass" -subj /CN=req-encrypted -out "$d/req_enc.csr"; then
    grepout "req's key is an ENCRYPTED PRIVATE KEY" '^-----BEGIN ENCRYPTED PRIVATE KEY-----$' head -n 1 "$d/req_key.pem"
    run "sphincs --passphrase-file reads req's key" "$sphincs" --passphrase-file "$d/pass" pubkey "$d/req_key.pem" -o "$d/req_key_pub.pem"
fi
if need run "pkcs8 -topk8 -v2 aes-256-cbc (OpenSSL's PBES2)" ossl pkcs8 "${P[@]}" -topk8 -v2 aes-256-cbc -in "$d/key.pem" \
    -passout "file:$d/pass" -out "$d/enc.pem"; then
    run "pkey -passin decrypts it" ossl pkey "${P[@]}" -in "$d/enc.pem" -passin "file:$d/pass" -out "$d/dec.pem"
    same "decrypted key identical" "$d/key.pem" "$d/dec.pem"
    reject "wrong passphrase refused" "" ossl pkey "${P[@]}" -in "$d/enc.pem" -passin pass:wrong -noout
    run "sphincs reads the encrypted key" "$sphincs" pubkey --passphrase-file "$d/pass" "$d/enc.pem" -o "$d/enc_pub.pem"
fi
if [[ $builtin == 1 ]]; then
    # test-entropy (given opt_rand) and message-encoding 0 (FIPS 205's
    # internal interface): the provider's signatures equal the built-in's.
    ent=$(printf '%032d' 5)
    run "provider: test-entropy" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/ent.sig" \
        -pkeyopt "hextest-entropy:$ent" -pkeyopt "context-string:$ctx"
    run "built-in: test-entropy" builtin_ossl pkeyutl -sign -rawin -inkey "$d/key.pem" -in "$msg" -out "$d/ent_bi.sig" \
        -pkeyopt "hextest-entropy:$ent" -pkeyopt "context-string:$ctx"
    same "test-entropy signature == built-in's" "$d/ent_bi.sig" "$d/ent.sig"
    run "provider: message-encoding 0, deterministic" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" \
        -out "$d/raw.sig" -pkeyopt message-encoding:0 -pkeyopt deterministic:1
    run "built-in: message-encoding 0, deterministic" builtin_ossl pkeyutl -sign -rawin -inkey "$d/key.pem" -in "$msg" \
        -out "$d/raw_bi.sig" -pkeyopt message-encoding:0 -pkeyopt deterministic:1
    same "message-encoding 0 signature == built-in's" "$d/raw_bi.sig" "$d/raw.sig"
    run "built-in verifies it (message-encoding 0)" builtin_ossl pkeyutl -verify -rawin -inkey "$d/key.pem" -in "$msg" \
        -sigfile "$d/raw.sig" -pkeyopt message-encoding:0
fi
reject "test-entropy of the wrong length refused" "randomness|entropy|bytes" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" \
    -in "$msg" -out "$d/x.sig" -pkeyopt hextest-entropy:0102
# Deterministic seed: the same seed gives the same key (3.5's hexseed).
seed=$(printf '%096d' 7)
run "hexseed keygen" ossl genpkey "${P[@]}" -algorithm "$alg" -pkeyopt "hexseed:$seed" -out "$d/seed1.pem"
run "hexseed keygen again" ossl genpkey "${P[@]}" -algorithm "$alg" -pkeyopt "hexseed:$seed" -out "$d/seed2.pem"
same "same seed, same key" "$d/seed1.pem" "$d/seed2.pem"
if [[ $builtin == 1 ]]; then
    run "built-in hexseed keygen" builtin_ossl genpkey -algorithm "$alg" -pkeyopt "hexseed:$seed" -out "$d/seed_bi.pem"
    same "same seed, same key as the built-in" "$d/seed_bi.pem" "$d/seed1.pem"
fi

# RFC 9909 HashSLH-DSA key types (ours; OpenSSL has none), one SHA-2 and
# one SHAKE set (HSETS to change): PKCS#8 and SubjectPublicKeyInfo, PEM and
# DER, through `pkey -pubin` on every version (3.5 names the OIDs .35-.46
# `SLH-DSA-…-WITH-…`, which our types carry as an alias there), and
# signatures crossing both ways between the provider and the CLI, verified
# from the public-key file.
ca_ext=(-addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign")
hsets="${HSETS:-SHA2-128f:SHA256:SHA2-256:36 SHAKE-128f:SHAKE128:SHAKE-128:42}"
for hs in $hsets; do
    IFS=: read -r hset hph cli_ph hoid <<<"$hs"
    halg="HASH-SLH-DSA-$hset-WITH-$hph"
    cur="$halg"
    d="$work/hash-$hset"
    mkdir -p "$d"
    echo "== $halg"
    if need run "genpkey" ossl genpkey "${P[@]}" -algorithm "$halg" -out "$d/key.pem"; then
        grepout "PKCS#8 under OID .$hoid" "2\.16\.840\.1\.101\.3\.4\.3\.$hoid|SLH-DSA-$hset-WITH-$hph" ossl asn1parse -in "$d/key.pem"
        run "pkey -pubout PEM" ossl pkey "${P[@]}" -in "$d/key.pem" -pubout -out "$d/pub.pem"
        run "pkey -pubout DER" ossl pkey "${P[@]}" -in "$d/key.pem" -pubout -outform DER -out "$d/pub.der"
        run "sphincs pubkey of it" "$sphincs" pubkey "$d/key.pem" -o "$d/cli_pub.pem"
        same "CLI public key == provider's -pubout" "$d/cli_pub.pem" "$d/pub.pem"
        grepout "pkey -pubin PEM (SPKI under .$hoid)" "$halg Public-Key" ossl pkey "${P[@]}" -pubin -in "$d/pub.pem" -text -noout
        run "pkey -pubin PEM -> DER" ossl pkey "${P[@]}" -pubin -in "$d/pub.pem" -outform DER -out "$d/pub2.der"
        same "SPKI PEM -> DER round trip" "$d/pub.der" "$d/pub2.der"
        run "pkey -pubin DER -> PEM" ossl pkey "${P[@]}" -pubin -inform DER -in "$d/pub.der" -out "$d/pub2.pem"
        same "SPKI DER -> PEM round trip" "$d/pub.pem" "$d/pub2.pem"
        if need run "pkeyutl -sign (context)" ossl pkeyutl -sign -rawin "${P[@]}" -inkey "$d/key.pem" -in "$msg" -out "$d/p.sig" -pkeyopt "context-string:$ctx"; then
            run "pkeyutl -verify -pubin (PEM) of it" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/pub.pem" -in "$msg" \
                -sigfile "$d/p.sig" -pkeyopt "context-string:$ctx"
            run "sphincs verify: the provider's HashSLH-DSA signature" "$sphincs" verify -p "$d/pub.pem" -s "$d/p.sig" --context "$ctx" "$msg"
            reject "sphincs verify: wrong context" "" "$sphincs" verify -p "$d/pub.pem" -s "$d/p.sig" --context "${ctx}x" "$msg"
        fi
    fi
    # A key and signature of the CLI (`keygen --prehash`) into the provider,
    # verified from the public-key file alone.
    if need run "sphincs keygen --prehash $cli_ph" "$sphincs" keygen -a "SLH-DSA-$hset" --prehash "$cli_ph" -o "$d/cli_key.pem" \
        --pub "$d/cli_key_pub.pem" -q; then
        run "sphincs pubkey --der (DER SPKI)" "$sphincs" pubkey --der "$d/cli_key.pem" -o "$d/cli_key_pub.der"
        run "provider re-encodes the CLI's public key (PEM)" ossl pkey "${P[@]}" -pubin -in "$d/cli_key_pub.pem" -out "$d/cli_key_pub_re.pem"
        same "re-encoded CLI public key identical" "$d/cli_key_pub.pem" "$d/cli_key_pub_re.pem"
        if need run "sphincs sign (context)" "$sphincs" sign -k "$d/cli_key.pem" --context "$ctx" -o "$d/s.sig" "$msg" -q; then
            run "pkeyutl -verify -pubin (PEM): the CLI's signature" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/cli_key_pub.pem" \
                -in "$msg" -sigfile "$d/s.sig" -pkeyopt "context-string:$ctx"
            run "pkeyutl -verify -pubin (DER): the CLI's signature" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -keyform DER \
                -inkey "$d/cli_key_pub.der" -in "$msg" -sigfile "$d/s.sig" -pkeyopt "context-string:$ctx"
            flip "$d/s.sig" "$d/s.bad" 100
            reject "tampered CLI signature rejected (-pubin)" "" ossl pkeyutl -verify -rawin "${P[@]}" -pubin -inkey "$d/cli_key_pub.pem" \
                -in "$msg" -sigfile "$d/s.bad" -pkeyopt "context-string:$ctx"
            if [[ -f "$work/SLH-DSA-$hset/pub.pem" ]]; then
                reject "a pure key of the same set refuses it" "" ossl pkeyutl -verify -rawin "${P[@]}" -pubin \
                    -inkey "$work/SLH-DSA-$hset/pub.pem" -in "$msg" -sigfile "$d/s.sig" -pkeyopt "context-string:$ctx"
            fi
        fi
        # Certificates signed with HashSLH-DSA (RFC 9909: the key's OID as
        # the signature algorithm), both ways.
        if need run "sphincs cert self-signed --ca (HashSLH-DSA)" "$sphincs" cert self-signed -k "$d/cli_key.pem" \
            --subject "CN=hash-$hset" --ca --days 2 -o "$d/cli_cert.pem" -q; then
            grepout "openssl verify: the CLI's HashSLH-DSA certificate" "cli_cert.pem: OK" ossl verify "${P[@]}" \
                -CAfile "$d/cli_cert.pem" "$d/cli_cert.pem"
            ossl x509 "${P[@]}" -in "$d/cli_cert.pem" -outform DER -out "$d/cli_cert.der" 2>/dev/null || true
            flip "$d/cli_cert.der" "$d/cli_cert_bad.der" $(($(wc -c <"$d/cli_cert.der") - 40))
            reject "openssl verify: that certificate tampered" "" ossl verify "${P[@]}" -CAfile "$d/cli_cert.pem" "$d/cli_cert_bad.der"
        fi
    fi
    if [[ -f "$d/key.pem" ]] && need run "req -x509 with the provider's HashSLH-DSA key" ossl req "${P[@]}" -x509 -new \
        -key "$d/key.pem" -subj "/CN=hash-req-$hset" -days 2 "${ca_ext[@]}" -out "$d/req_cert.pem"; then
        run "sphincs cert verify: the provider's HashSLH-DSA certificate" "$sphincs" cert verify "$d/req_cert.pem"
        grepout "openssl verify: the provider's HashSLH-DSA certificate" "req_cert.pem: OK" ossl verify "${P[@]}" \
            -CAfile "$d/req_cert.pem" "$d/req_cert.pem"
    fi
done

cur=c-api
# Three C programs, compiled against the system's OpenSSL headers (3.0; the
# ABI is stable since) and run on the libcrypto of the OpenSSL under test
# (for .ci/openssl35.sh's wrapper: its loader and library path):
#   provider_checks   ours served, not the built-in (the provider of every
#                     fetched signature, keymgmt, key and sign/verify
#                     context; a fetch at provider=default as the control),
#                     and bad input through the API (wrong-length keys and
#                     signatures, a 256-byte context, wrong-typed
#                     parameters, a short output buffer, NULL)
#   provider_threads  eight threads signing and verifying through one
#                     EVP_PKEY agree with one thread
#   provider_message  the 3.4+ message API (EVP_PKEY_sign_message_*),
#                     streamed in pieces
#   provider_streams  state across calls: an error raised after another
#                     library context's instance was freed (under valgrind
#                     on the system's OpenSSL), a final retried after a
#                     buffer too small, and finals after an update refused
#                     at the streaming cap
# tally OUTPUT STATUS SUMMARY NAME: one result per "ok: ..."/"FAIL: ..." line
# of a C program's output (the queue text after a check's name dropped),
# and a failure for NAME unless it exited 0 and printed its SUMMARY line.
tally() {
    local out=$1 rc=$2 summary=$3 name=$4 line
    while IFS= read -r line; do
        case "$line" in
            ok:*)
                line="${line#ok: }"
                if [[ $line =~ ^(.*):\ [0-9A-F]{8,}:error: ]]; then line=${BASH_REMATCH[1]}; fi
                ok "$line" ;;
            FAIL:*) fail "${line#FAIL: }" ;;
        esac
    done <<<"$out"
    if [[ $rc -ne 0 ]] || ! grep -q "^$summary\$" <<<"$out"; then fail "$name (exit $rc)" "$(tail -n 5 <<<"$out")"; fi
}
runner=()
loader="$(sed -n "s/^exec '\([^']*\)' --library-path '\([^']*\)'.*/\1/p" "$OPENSSL" 2>/dev/null || true)"
libdir="$(sed -n "s/^exec '\([^']*\)' --library-path '\([^']*\)'.*/\2/p" "$OPENSSL" 2>/dev/null || true)"
[[ -n "$loader" ]] && runner=("$loader" --library-path "$libdir")
if command -v gcc >/dev/null && [[ -f /usr/include/openssl/provider.h ]]; then
    if need run "compile provider_checks.c (-Wall -Wextra -Werror)" gcc -Wall -Wextra -Werror -O2 \
        "$repo_root/tests/interop/provider_checks.c" -o "$work/provider_checks" -lcrypto; then
        out="$(timeout 300 ${runner[@]+"${runner[@]}"} "$work/provider_checks" "$PROVIDER_DIR" 2>&1)"
        tally "$out" $? "checks: ok" provider_checks
        # The program must have run on the libcrypto under test.
        if grep -q "^${version%% (*}" <<<"$out"; then ok "provider_checks ran on ${version%% (*}"; else
            fail "provider_checks ran on another libcrypto" "$(head -n 1 <<<"$out")"; fi
    fi
    if need run "compile provider_threads.c (-Wall -Wextra -Werror)" gcc -Wall -Wextra -Werror -O2 \
        "$repo_root/tests/interop/provider_threads.c" -o "$work/provider_threads" -lcrypto -lpthread; then
        grepout "8 threads agree with one thread" "threads: ok" ${runner[@]+"${runner[@]}"} "$work/provider_threads" \
            "$PROVIDER_DIR" SLH-DSA-SHAKE-128f
    fi
    if need run "compile provider_streams.c (-Wall -Wextra -Werror)" gcc -Wall -Wextra -Werror -O2 \
        "$repo_root/tests/interop/provider_streams.c" -o "$work/provider_streams" -lcrypto -ldl; then
        # The two-library-context case under valgrind where it can run the
        # program directly (the system's OpenSSL): a read of the freed first
        # instance is an error there even when the queue looks right.
        contexts=(${runner[@]+"${runner[@]}"})
        if [[ ${#runner[@]} -eq 0 ]] && command -v valgrind >/dev/null; then
            contexts=(valgrind -q --error-exitcode=99 --leak-check=no)
        fi
        for mode in contexts streams; do
            if [[ $mode == contexts ]]; then pre=(${contexts[@]+"${contexts[@]}"}); else pre=(${runner[@]+"${runner[@]}"}); fi
            out="$(timeout 600 ${pre[@]+"${pre[@]}"} "$work/provider_streams" "$PROVIDER_DIR" "$mode" 2>&1)"
            tally "$out" $? "streams: ok" "provider_streams $mode${pre[0]:+ under ${pre[0]##*/}}"
        done
    fi
    if need run "compile provider_message.c (-Wall -Wextra -Werror)" gcc -Wall -Wextra -Werror -O2 \
        "$repo_root/tests/interop/provider_message.c" -o "$work/provider_message" -lcrypto -ldl; then
        if [[ $builtin == 1 ]]; then
            grepout "sign/verify_message_* streamed == one-shot, tamper and wrong set refused" "message API: ok" \
                ${runner[@]+"${runner[@]}"} "$work/provider_message" "$PROVIDER_DIR"
        else
            grepout "message API absent before 3.4, and the test says so" "message API: absent" \
                ${runner[@]+"${runner[@]}"} "$work/provider_message" "$PROVIDER_DIR"
        fi
    fi
else
    fail "no gcc or OpenSSL headers for the C API tests"
fi

cur=x509
alg=SLH-DSA-SHA2-128f
d="$work/x509"
mkdir -p "$d"
printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n' >"$d/ca.ext"
printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$d/leaf.ext"
for who in root inter leaf; do ossl genpkey "${P[@]}" -algorithm "$alg" -out "$d/$who.key" 2>/dev/null || true; done
if need run "req -x509 (self-signed root)" ossl req "${P[@]}" -x509 -new -key "$d/root.key" -subj /CN=provider-root \
    -days 30 "${ca_ext[@]}" -out "$d/root.pem"; then
    run "req -new (intermediate CSR)" ossl req "${P[@]}" -new -key "$d/inter.key" -subj /CN=provider-inter -out "$d/inter.csr"
    run "req -verify (CSR signature)" ossl req "${P[@]}" -verify -in "$d/inter.csr" -noout
    run "x509 -req: root issues the intermediate" ossl x509 "${P[@]}" -req -in "$d/inter.csr" -CA "$d/root.pem" -CAkey "$d/root.key" \
        -CAcreateserial -days 30 -extfile "$d/ca.ext" -out "$d/inter.pem"
    run "req -new (leaf CSR)" ossl req "${P[@]}" -new -key "$d/leaf.key" -subj /CN=localhost -out "$d/leaf.csr"
    run "x509 -req: intermediate issues the leaf" ossl x509 "${P[@]}" -req -in "$d/leaf.csr" -CA "$d/inter.pem" -CAkey "$d/inter.key" \
        -CAcreateserial -days 30 -extfile "$d/leaf.ext" -out "$d/leaf.pem"
    grepout "openssl verify: two-level chain" "leaf.pem: OK" ossl verify "${P[@]}" -CAfile "$d/root.pem" -untrusted "$d/inter.pem" "$d/leaf.pem"
    ossl x509 -in "$d/leaf.pem" -outform DER -out "$d/leaf.der" 2>/dev/null || true
    sz=$(wc -c <"$d/leaf.der")
    flip "$d/leaf.der" "$d/leaf_bad.der" $((sz - 40))
    reject "openssl verify: tampered leaf signature" "" ossl verify "${P[@]}" -CAfile "$d/root.pem" -untrusted "$d/inter.pem" "$d/leaf_bad.der"
    run "sphincs cert verify: the provider's root" "$sphincs" cert verify "$d/root.pem"
    run "sphincs cert verify: the provider's intermediate" "$sphincs" cert verify --issuer "$d/root.pem" "$d/inter.pem"
    run "sphincs cert verify: the provider's leaf" "$sphincs" cert verify --issuer "$d/inter.pem" "$d/leaf.pem"
    if [[ $builtin == 1 ]]; then
        grepout "3.5 built-in verifies the provider's chain" "leaf.pem: OK" builtin_ossl verify -CAfile "$d/root.pem" -untrusted "$d/inter.pem" "$d/leaf.pem"
    fi
fi
if need run "sphincs keygen + cert self-signed --ca" sh -c '"$0" keygen -a "$1" -o "$2/cli.key" --pub "$2/cli.pub" -q &&
    "$0" cert self-signed -k "$2/cli.key" --subject "CN=cli-root" --ca -o "$2/cli_root.pem" -q' "$sphincs" "$alg" "$d"; then
    grepout "openssl (provider) verifies the CLI's certificate" "cli_root.pem: OK" ossl verify "${P[@]}" -CAfile "$d/cli_root.pem" "$d/cli_root.pem"
    run "provider signs a leaf under the CLI's CA" ossl x509 "${P[@]}" -req -in "$d/leaf.csr" -CA "$d/cli_root.pem" -CAkey "$d/cli.key" \
        -CAcreateserial -days 30 -extfile "$d/leaf.ext" -out "$d/leaf_cli.pem"
    run "sphincs cert verify: that leaf" "$sphincs" cert verify --issuer "$d/cli_root.pem" "$d/leaf_cli.pem"
fi

cur=cms
# CMS SignedData (RFC 9814). Verifying on every version: OpenSSL 3.0-3.4's
# CMS code names the SignerInfo's digest to the signature's verify init
# (the provider checks it against RFC 9814 and signs/verifies the signed
# attributes themselves). Signing through `openssl cms -sign` on 3.5 only:
# 3.0's CMS finds a SignerInfo's signature OID from (digest, key type)
# pairs, which a digest-free signature such as SLH-DSA cannot give it
# (docs/openssl.md). SignedData from our CLI and, where OpenSSL 3.5 is at
# hand, from its built-in SLH-DSA are verified by the provider here.
o35=""
if [[ $builtin == 1 ]]; then o35="$OPENSSL"; else o35="$(bash "$repo_root/.ci/openssl35.sh" --print 2>/dev/null || true)"; fi
if [[ -f "$d/leaf.pem" ]]; then
    if need run "sphincs cms sign" "$sphincs" cms sign -k "$d/leaf.key" --cert "$d/leaf.pem" --chain "$d/inter.pem" -o "$d/s.cms" "$msg"; then
        run "cms -verify (provider) of the CLI's CMS" ossl cms -verify "${P[@]}" -binary -inform DER -in "$d/s.cms" -CAfile "$d/root.pem" -purpose any -out "$d/s.out"
        same "cms content of the CLI's CMS intact" "$msg" "$d/s.out"
        flip "$d/s.cms" "$d/s_bad.cms" $(( $(wc -c <"$d/s.cms") - 100 ))
        reject "cms -verify (provider): the CLI's CMS with its signature changed" "" ossl cms -verify "${P[@]}" -binary -inform DER -in "$d/s_bad.cms" -CAfile "$d/root.pem" -purpose any -out /dev/null
    fi
    if [[ -n "$o35" && -x "$o35" ]] &&
        need run "cms -sign by OpenSSL 3.5's built-in (-md sha256)" timeout 300 "$o35" cms -sign -md sha256 -nodetach -binary -in "$msg" \
            -signer "$d/leaf.pem" -inkey "$d/leaf.key" -certfile "$d/inter.pem" -outform DER -out "$d/b.cms"; then
        run "cms -verify (provider) of 3.5's built-in CMS" ossl cms -verify "${P[@]}" -binary -inform DER -in "$d/b.cms" -CAfile "$d/root.pem" -purpose any -out /dev/null
    elif [[ -z "$o35" ]]; then
        fail "no OpenSSL 3.5 (.ci/openssl35.sh) to make a built-in SignedData"
    fi
fi
if [[ $builtin == 1 && -f "$d/leaf.pem" ]]; then
    if need run "cms -sign (provider, -md sha256)" ossl cms -sign "${P[@]}" -md sha256 -nodetach -binary -in "$msg" -signer "$d/leaf.pem" \
        -inkey "$d/leaf.key" -certfile "$d/inter.pem" -outform DER -out "$d/p.cms"; then
        run "cms -verify (provider)" ossl cms -verify "${P[@]}" -binary -inform DER -in "$d/p.cms" -CAfile "$d/root.pem" -purpose any -out "$d/p.out"
        same "cms content intact" "$msg" "$d/p.out"
        run "3.5 built-in verifies the provider's CMS" builtin_ossl cms -verify -binary -inform DER -in "$d/p.cms" -CAfile "$d/root.pem" -purpose any -out /dev/null
        run "sphincs cms verify: the provider's CMS" "$sphincs" cms verify --ca "$d/root.pem" "$d/p.cms"
        flip "$d/p.cms" "$d/p_bad.cms" $(( $(wc -c <"$d/p.cms") - 100 ))
        reject "tampered CMS signature rejected" "" ossl cms -verify "${P[@]}" -binary -inform DER -in "$d/p_bad.cms" -CAfile "$d/root.pem" -purpose any -out /dev/null
    fi
fi

cur=tls
# TLS 1.3 with SLH-DSA certificates (3.5: TLS-SIGALG capability), server
# and client both loading the provider. The server takes one connection on
# a port the kernel picks (-accept 127.0.0.1:0, read back from its ACCEPT
# line: no clashes between sets or with other jobs), every process runs
# under a time limit, and servers are killed when done or on exit.
# tls DESC SIGNAME CERT KEY CHAIN CAFILE LOG: handshake completes, TLSv1.3,
# chain verified, `Peer signature type` SIGNAME.
tls() {
    local desc="$1" signame="$2" cert="$3" key="$4" chain="$5" ca="$6" log="$7"
    local extra=() port="" out server
    [[ -z "$chain" ]] || extra=(-cert_chain "$chain")
    timeout 120 "$OPENSSL" s_server "${P[@]}" -accept 127.0.0.1:0 -cert "$cert" -key "$key" ${extra[@]+"${extra[@]}"} \
        -tls1_3 -naccept 1 -www </dev/null >"$log" 2>&1 &
    server=$!
    servers+=("$server")
    for _ in $(seq 300); do
        port="$(sed -n 's/^ACCEPT 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$log" 2>/dev/null)"
        [[ -n "$port" ]] && break
        kill -0 "$server" 2>/dev/null || break
        sleep 0.1
    done
    if [[ -z "$port" ]]; then
        kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
        fail "$desc: s_server did not start" "$(cat "$log")"; return 0
    fi
    out="$(timeout 60 "$OPENSSL" s_client "${P[@]}" -connect "127.0.0.1:$port" -servername localhost -tls1_3 \
        -CAfile "$ca" -verify_return_error -verify_hostname localhost </dev/null 2>&1)" || true
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    if grep -q "Peer signature type: $signame\$" <<<"$out" && grep -q "Verify return code: 0 (ok)" <<<"$out" &&
        grep -qE "Protocol( version)?: TLSv1.3|TLSv1.3, Cipher" <<<"$out"; then
        ok "$desc"
    else
        fail "$desc" "$(grep -E 'Peer signature|Verify return|TLSv|error|errno' <<<"$out")"$'\n'"$(tail -n 5 "$log")"
    fi
}
if [[ $builtin == 1 ]]; then
    tls_start=$(date +%s)
    # The three-level chain of the x509 checks (SHA2-128f), with -cert_chain.
    if [[ -f "$d/leaf.pem" ]]; then
        tls "handshake with the x509 checks' chain (root, intermediate, leaf): slhdsa_sha2_128f (0x0912)" slhdsa_sha2_128f \
            "$d/leaf.pem" "$d/leaf.key" "$d/inter.pem" "$d/root.pem" "$d/server.log"
    fi
    # Every set: a root and a leaf made through the provider (req -x509 -CA:
    # no CSR), and a root and a leaf made by our CLI.
    for alg in $sets; do
        cur="tls $alg"
        set_start=$(date +%s)
        signame="$(tr 'A-Z-' 'a-z_' <<<"${alg#SLH-DSA-}")"
        signame="slhdsa_$signame"
        d="$work/tls-$alg"
        mkdir -p "$d"
        if need run "provider: root key" ossl genpkey "${P[@]}" -algorithm "$alg" -out "$d/root.key" &&
            need run "provider: leaf key" ossl genpkey "${P[@]}" -algorithm "$alg" -out "$d/leaf.key" &&
            need run "provider: req -x509 root" ossl req "${P[@]}" -x509 -new -key "$d/root.key" -subj "/CN=tls-root-$alg" -days 2 \
                "${ca_ext[@]}" -out "$d/root.pem" &&
            need run "provider: req -x509 -CA leaf" ossl req "${P[@]}" -x509 -new -key "$d/leaf.key" -subj /CN=localhost -days 2 \
                -CA "$d/root.pem" -CAkey "$d/root.key" -addext "basicConstraints=critical,CA:FALSE" \
                -addext "keyUsage=critical,digitalSignature" -addext "subjectAltName=DNS:localhost" \
                -addext "extendedKeyUsage=serverAuth" -out "$d/leaf.pem"; then
            tls "TLS 1.3, provider's chain: $signame" "$signame" "$d/leaf.pem" "$d/leaf.key" "" "$d/root.pem" "$d/server_p.log"
        fi
        if need run "CLI: keys, root, leaf request, leaf" sh -c '
            "$0" keygen -a "$1" -o "$2/cli_root.key" -q && "$0" keygen -a "$1" -o "$2/cli_leaf.key" -q &&
            "$0" cert self-signed -k "$2/cli_root.key" --subject "CN=cli-tls-root" --ca --days 2 -o "$2/cli_root.pem" -q &&
            "$0" cert request -k "$2/cli_leaf.key" --subject CN=localhost --san dns:localhost --eku serverAuth -o "$2/cli_leaf.csr" -q &&
            "$0" cert issue --ca-key "$2/cli_root.key" --ca-cert "$2/cli_root.pem" --copy-extensions --days 2 "$2/cli_leaf.csr" \
                -o "$2/cli_leaf.pem" -q' "$sphincs" "$alg" "$d"; then
            tls "TLS 1.3, CLI's chain: $signame" "$signame" "$d/cli_leaf.pem" "$d/cli_leaf.key" "" "$d/cli_root.pem" "$d/server_c.log"
        fi
        echo "  (tls $alg: $(($(date +%s) - set_start)) s)"
    done
    echo "tls: $(($(date +%s) - tls_start)) s"
fi

echo "time: $(($(date +%s) - start)) s"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
