#!/usr/bin/env bash
# CMS interoperability between `sphincs cms` and Bouncy Castle 1.87 (the Java
# PKI library, which writes BER with indefinite lengths by default), both ways.
# The Bouncy Castle side is tests/interop/bc (a small Maven project; Maven
# fetches bcprov/bcpkix 1.87 from Maven Central into ~/.m2).
#
# Usage: tests/interop/bc.sh [SPHINCS_BIN]
#   SPHINCS_BIN   default target/release/sphincs (cargo build --release -p sphincs-cli)
# Environment:
#   SETS          parameter sets (default: SHA2-128f, SHAKE-128f, SHAKE-256f)
#   KEEP=1        keep the scratch directory
#
# For every set:
#   * BC → ours: BC's key pair and self-signed certificate (PEM) pass
#     `sphincs cert verify`; BC's SignedData, DER (CMSSignedDataGenerator) and
#     BER with indefinite lengths (CMSSignedDataStreamGenerator), attached and
#     detached, with signed attributes, pass `sphincs cms verify`; we sign
#     with BC's PEM key and certificate and BC verifies.
#   * ours → BC: `sphincs cms sign` output (DER attached, PEM detached) passes
#     BC's verification; BC signs with our PEM key and certificate and we verify.
#   * refusals on both sides: other content for a detached SignedData, and a
#     changed signed attribute (the signing time) in DER and BER SignedData.
# Ends with "N passed, M failed"; exits 1 on any failure, 2 on setup errors.
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Java 17 and Maven: installed from the distribution when missing (CI's fresh machine).
if ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
        echo "installing Java 17 and Maven (apt-get)" >&2
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            openjdk-17-jdk-headless maven; } >&2 || { echo "installing Java/Maven failed" >&2; exit 2; }
    else
        echo "need java (>= 17) and mvn on PATH" >&2
        exit 2
    fi
fi
peer_dir="$repo_root/tests/interop/bc"
if ! (cd "$peer_dir" && mvn -q -B package) >&2; then
    echo "building the Bouncy Castle peer failed (mvn package in $peer_dir)" >&2
    exit 2
fi
bc() { java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -cp "$peer_dir/target/classes:$peer_dir/target/lib/*" interop.BcPeer "$@"; }

sets="${SETS:-SLH-DSA-SHA2-128f SLH-DSA-SHAKE-128f SLH-DSA-SHAKE-256f}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sphincs-bc.XXXXXX")"
if [[ "${KEEP:-0}" == 1 ]]; then echo "scratch directory: $work"; else trap 'rm -rf "$work"' EXIT; fi
cd "$work" || exit 2

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
# expect CODE DESCRIPTION CMD...: the command exits with CODE.
expect() {
    local want="$1" what="$2"; shift 2
    "$@" >out.log 2>err.log
    local got=$?
    if [[ "$got" == "$want" ]]; then ok; else bad "$what (exit $got, want $want): $(head -c 400 err.log)"; fi
}

head -c 100000 /dev/urandom >"$work/content.bin"
printf 'other content\n' >"$work/other.txt"

# tamper IN OUT: change one digit of the signing time, a signed attribute, so
# the content digest still matches and only the signature can catch it.
tamper() {
    python3 - "$1" "$2" <<'EOF_PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
oid = bytes.fromhex("06092a864886f70d010905")  # id-signingTime
i = data.find(oid)
# SET { UTCTime (0x17, 13 bytes) or GeneralizedTime (0x18, 15 bytes) }
if i < 0 or data[i + 11] != 0x31 or data[i + 13] not in (0x17, 0x18):
    sys.exit("no signing time attribute in " + sys.argv[1])
last = i + 14 + data[i + 14] - 1        # the time's "Z"; the digit before is seconds
data[last - 1] = ord("1") if data[last - 1] == ord("0") else ord("0")
open(sys.argv[2], "wb").write(data)
EOF_PY
}

for set in $sets; do
    d="$work/$set"; mkdir -p "$d"; cd "$d" || exit 2

    # --- Bouncy Castle → ours ---
    expect 0 "$set: BC keygen and self-signed certificate" bc keygen "$set" bc.key bc.pem
    expect 0 "$set: sphincs cert verify BC's self-signed certificate" "$sphincs" cert verify bc.pem
    expect 0 "$set: sphincs reads BC's PEM private key" "$sphincs" pubkey bc.key -o bc.pub
    for enc in der ber; do
        expect 0 "$set: BC signs $enc attached" bc sign "$enc" attached bc.key bc.pem "$work/content.bin" "bc-$enc-att.p7"
        expect 0 "$set: BC signs $enc detached" bc sign "$enc" detached bc.key bc.pem "$work/content.bin" "bc-$enc-det.p7"
        expect 0 "$set: BC verifies its own $enc SignedData" bc verify "bc-$enc-att.p7" bc.pem
        expect 0 "$set: sphincs cms verify BC's $enc attached" "$sphincs" cms verify --cert bc.pem "bc-$enc-att.p7"
        expect 0 "$set: sphincs cms verify BC's $enc detached" "$sphincs" cms verify --signature-only --content "$work/content.bin" "bc-$enc-det.p7"
        expect 1 "$set: sphincs refuses other content for BC's $enc detached" "$sphincs" cms verify --signature-only --content "$work/other.txt" "bc-$enc-det.p7"
        expect 1 "$set: BC refuses other content for its $enc detached" bc verify "bc-$enc-det.p7" bc.pem "$work/other.txt"
        if tamper "bc-$enc-att.p7" "bc-$enc-att-bad.p7" 2>err.log; then ok; else bad "$set: tamper BC's $enc: $(cat err.log)"; fi
        expect 1 "$set: sphincs refuses BC's $enc SignedData with a changed signing time" "$sphincs" cms verify --signature-only "bc-$enc-att-bad.p7"
        expect 1 "$set: BC refuses its $enc SignedData with a changed signing time" bc verify "bc-$enc-att-bad.p7" bc.pem
    done
    if [[ "$(head -c 2 bc-ber-att.p7 | od -An -tx1 | tr -d ' ')" == 3080 ]]; then ok; else bad "$set: BC's stream output does not start with an indefinite length"; fi
    expect 0 "$set: sphincs cms sign with BC's key and certificate" "$sphincs" cms sign -k bc.key --cert bc.pem "$work/content.bin" -o ours-bckey.der
    expect 0 "$set: BC verifies what we signed with its key" bc verify ours-bckey.der bc.pem

    # --- ours → Bouncy Castle ---
    expect 0 "$set: sphincs keygen" "$sphincs" keygen -a "$set" -o our.key
    expect 0 "$set: sphincs cert self-signed" "$sphincs" cert self-signed -k our.key --subject "CN=sphincs $set" --ca --days 30 -o our.pem
    expect 0 "$set: sphincs cms sign attached (DER)" "$sphincs" cms sign -k our.key --cert our.pem "$work/content.bin" -o our-att.der
    expect 0 "$set: sphincs cms sign detached (PEM)" "$sphincs" cms sign -k our.key --cert our.pem --detached --pem "$work/content.bin" -o our-det.pem
    expect 0 "$set: BC verifies our attached SignedData" bc verify our-att.der our.pem
    expect 0 "$set: BC verifies our detached SignedData" bc verify our-det.pem our.pem "$work/content.bin"
    expect 1 "$set: BC refuses other content for our detached SignedData" bc verify our-det.pem our.pem "$work/other.txt"
    expect 1 "$set: sphincs refuses other content for our detached SignedData" "$sphincs" cms verify --signature-only --content "$work/other.txt" our-det.pem
    if tamper our-att.der our-att-bad.der 2>err.log; then ok; else bad "$set: tamper ours: $(cat err.log)"; fi
    expect 1 "$set: BC refuses our SignedData with a changed signing time" bc verify our-att-bad.der our.pem
    expect 1 "$set: sphincs refuses our SignedData with a changed signing time" "$sphincs" cms verify --signature-only our-att-bad.der
    expect 0 "$set: BC signs (BER) with our PEM key and certificate" bc sign ber attached our.key our.pem "$work/content.bin" bc-ourkey.p7
    expect 0 "$set: sphincs cms verify BC's SignedData made with our key" "$sphincs" cms verify --cert our.pem bc-ourkey.p7
    cd "$work" || exit 2
done

echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]] || exit 1
