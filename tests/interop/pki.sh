#!/usr/bin/env bash
# PKI interoperability between `sphincs cert` / `sphincs cms` and OpenSSL >= 3.5:
# X.509 certificates and PKCS#10 requests (RFC 9909) and CMS SignedData (RFC 9814).
#
# Usage: tests/interop/pki.sh [SPHINCS_BIN]
#   SPHINCS_BIN   default target/release/sphincs
# Environment:
#   OPENSSL       openssl >= 3.5 (default: the wrapper .ci/openssl35.sh makes,
#                 set up when missing)
#   SETS          parameter sets (default: the six "f" sets and SHA2-128s)
#   KEEP=1        keep the scratch directory
#
# For every set:
#   * ours → OpenSSL: a self-signed CA certificate passes `openssl verify`; a
#     request passes `openssl req -verify`; the certificate we issue from it
#     passes `openssl verify -CAfile`; OpenSSL issues from our request with our
#     CA key, and we verify that certificate.
#   * OpenSSL → ours: `openssl req -x509` and `openssl req -new` output passes
#     `sphincs cert verify`; we issue from OpenSSL's request.
#   * CMS: our SignedData (attached and detached; the RFC 9814 digest and
#     every other digest the set allows) passes `openssl cms -verify`;
#     `openssl cms -sign` output (each -md, attached, detached) passes
#     `sphincs cms verify` (OpenSSL 3.5 cannot sign SLH-DSA CMS with -noattr).
#   * refusals on both sides: a tampered certificate, content or signature.
#   * HashSLH-DSA keys (which OpenSSL 3.5 cannot load): OpenSSL's OID table
#     names the OIDs of our keys and certificates, and ours round-trip.
#   * certificate options (first set only): `openssl x509 -text` shows our
#     serial, notBefore, subjectAltName, extendedKeyUsage and keyUsage;
#     `openssl req -text -verify` reads our request's extensionRequest;
#     `openssl verify -purpose codesign|smimesign|sslserver` accepts a chain
#     we issued (CA → intermediate → leaf) for the EKU it has and refuses
#     another; `sphincs cms verify --ca` checks the chain of OpenSSL-made
#     certificates (root → intermediate in the SignedData → signer).
# Ends with "N passed, M failed"; exits 1 on any failure, 2 on setup errors.
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_openssl35
ossl() { "$OPENSSL" "$@"; }
# (Whole output first: grep -q stopping early would SIGPIPE the writer under pipefail.)
if ! grep -qi 'SLH-DSA-SHA2-128f' <<<"$(ossl list -signature-algorithms 2>/dev/null)"; then
    echo "$OPENSSL has no SLH-DSA (need OpenSSL >= 3.5)" >&2
    exit 2
fi

sets="${SETS:-SLH-DSA-SHA2-128f SLH-DSA-SHA2-192f SLH-DSA-SHA2-256f SLH-DSA-SHAKE-128f SLH-DSA-SHAKE-192f SLH-DSA-SHAKE-256f SLH-DSA-SHA2-128s}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sphincs-pki.XXXXXX")"
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
# expect_fail DESCRIPTION CMD...: any non-zero exit.
expect_fail() {
    local what="$1"; shift
    if "$@" >out.log 2>err.log; then bad "$what (accepted)"; else ok; fi
}

head -c 200000 /dev/urandom >"$work/content.bin"
printf 'short message\n' >"$work/short.txt"

# Digests a set allows in CMS (RFC 9814's pairing first): the same rule as sphincs::pki::cms.
digests_for() {
    case "$1" in
        *SHAKE-128*) echo "shake-128 sha2-256 sha3-256 sha2-512 sha3-512 shake-256" ;;
        *SHA2-128*) echo "sha2-256 sha3-256 shake-128 sha2-512 sha3-512 shake-256" ;;
        *SHAKE-*) echo "shake-256 sha2-512 sha3-512" ;;
        *) echo "sha2-512 sha3-512 shake-256" ;;
    esac
}
# OpenSSL's -md name for ours.
ossl_md() { case "$1" in sha2-*) echo "sha${1#sha2-}" ;; shake-*) echo "shake${1#shake-}" ;; *) echo "$1" ;; esac; }

for set in $sets; do
    d="$work/$set"; mkdir -p "$d"; cd "$d" || exit 2
    # --- ours → OpenSSL: certificates and requests ---
    expect 0 "$set: sphincs keygen (CA)" "$sphincs" keygen -a "$set" -o ca.key
    expect 0 "$set: sphincs cert self-signed --ca" "$sphincs" cert self-signed -k ca.key --subject "CN=Interop CA,O=sphincs" --ca --days 30 -o ca.pem
    expect 0 "$set: openssl verify our self-signed CA" ossl verify -CAfile ca.pem ca.pem
    expect 0 "$set: openssl x509 -text parses ours" ossl x509 -in ca.pem -noout -text
    expect 0 "$set: sphincs keygen (leaf)" "$sphincs" keygen -a "$set" -o leaf.key
    expect 0 "$set: sphincs cert request" "$sphincs" cert request -k leaf.key --subject "CN=Interop leaf" -o leaf.csr
    expect 0 "$set: openssl req -verify our CSR" ossl req -verify -in leaf.csr -noout
    expect 0 "$set: sphincs cert issue" "$sphincs" cert issue --ca-key ca.key --ca-cert ca.pem leaf.csr --der -o leaf.der
    expect 0 "$set: openssl verify our issued certificate" ossl verify -CAfile ca.pem leaf.der
    expect 0 "$set: sphincs cert verify --issuer" "$sphincs" cert verify leaf.der --issuer ca.pem
    expect 0 "$set: openssl x509 -req with our CA key and request" ossl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -days 5 -out leaf-ossl.pem
    expect 0 "$set: sphincs cert verify OpenSSL-issued certificate" "$sphincs" cert verify leaf-ossl.pem --issuer ca.pem

    # --- OpenSSL → ours ---
    expect 0 "$set: openssl genpkey" ossl genpkey -algorithm "$set" -out o.key
    expect 0 "$set: openssl req -x509" ossl req -x509 -key o.key -subj "/CN=OpenSSL CA" -days 5 -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,digitalSignature" -out o-ca.pem
    expect 0 "$set: sphincs cert verify OpenSSL self-signed" "$sphincs" cert verify o-ca.pem
    expect 0 "$set: openssl req -x509 with a critical extendedKeyUsage" ossl req -x509 -key o.key -subj "/CN=Critical" -days 5 -addext "extendedKeyUsage=critical,codeSigning" -out o-crit.pem
    expect 1 "$set: sphincs refuses an unprocessed critical extension" "$sphincs" cert verify o-crit.pem
    expect 0 "$set: openssl req -new" ossl req -new -key o.key -subj "/CN=OpenSSL leaf" -out o.csr
    expect 0 "$set: sphincs cert verify OpenSSL CSR" "$sphincs" cert verify o.csr
    expect 0 "$set: sphincs cert issue from OpenSSL CSR with OpenSSL CA key" "$sphincs" cert issue --ca-key o.key --ca-cert o-ca.pem o.csr -o o-leaf.pem
    expect 0 "$set: openssl verify what we issued for OpenSSL" ossl verify -CAfile o-ca.pem o-leaf.pem

    # --- refusals ---
    ossl x509 -in ca.pem -outform DER -out ca.der 2>/dev/null
    python3 - <<'EOF'
for name in ("ca", "leaf"):
    data = bytearray(open(name + ".der", "rb").read())
    data[-1] ^= 1                      # last byte of the signature
    open(name + "-badsig.der", "wb").write(data)
data = bytearray(open("ca.der", "rb").read())
i = data.find(b"Interop CA")           # the name, in issuer and subject
while i >= 0:
    data[i] ^= 0x20
    i = data.find(b"Interop CA", i + 1)
open("ca-badname.der", "wb").write(data)
EOF
    expect 1 "$set: sphincs refuses a certificate with a bad signature" "$sphincs" cert verify ca-badsig.der
    expect 1 "$set: sphincs refuses an issued certificate with a bad signature" "$sphincs" cert verify leaf-badsig.der --issuer ca.pem
    expect_fail "$set: openssl refuses an issued certificate with a bad signature" ossl verify -CAfile ca.pem leaf-badsig.der
    expect 1 "$set: sphincs refuses a certificate with a changed name" "$sphincs" cert verify ca-badname.der

    # --- CMS: ours → OpenSSL ---
    for dg in $(digests_for "$set"); do
        expect 0 "$set: sphincs cms sign --digest $dg" "$sphincs" cms sign -k ca.key --cert ca.pem --digest "$dg" "$work/content.bin" -o "s-$dg.der"
        expect 0 "$set: openssl cms -verify our attached SignedData ($dg)" ossl cms -verify -binary -inform DER -in "s-$dg.der" -CAfile ca.pem -out "out-$dg.bin"
        if cmp -s "$work/content.bin" "out-$dg.bin"; then ok; else bad "$set: openssl extracted other content ($dg)"; fi
    done
    expect 0 "$set: sphincs cms sign --detached --pem" "$sphincs" cms sign -k ca.key --cert ca.pem --detached --pem "$work/content.bin" -o det.pem
    expect 0 "$set: openssl cms -verify our detached SignedData" ossl cms -verify -binary -inform PEM -in det.pem -content "$work/content.bin" -CAfile ca.pem -out /dev/null
    expect_fail "$set: openssl cms -verify refuses other content" ossl cms -verify -binary -inform PEM -in det.pem -content "$work/short.txt" -CAfile ca.pem -out /dev/null
    expect 1 "$set: sphincs cms verify refuses other content" "$sphincs" cms verify --signature-only --content "$work/short.txt" det.pem

    # --- CMS: OpenSSL → ours ---
    for dg in $(digests_for "$set"); do
        md="$(ossl_md "$dg")"
        expect 0 "$set: openssl cms -sign -md $md" ossl cms -sign -binary -md "$md" -nodetach -in "$work/content.bin" -signer ca.pem -inkey ca.key -outform DER -out "o-$dg.der"
        expect 0 "$set: sphincs cms verify OpenSSL SignedData ($md)" "$sphincs" cms verify --signature-only "o-$dg.der"
    done
    md="$(ossl_md "$(digests_for "$set" | cut -d' ' -f2)")"
    expect 0 "$set: openssl cms -sign detached" ossl cms -sign -binary -md "$md" -in "$work/content.bin" -signer o-ca.pem -inkey o.key -outform PEM -out o-det.pem
    expect 0 "$set: sphincs cms verify OpenSSL detached SignedData" "$sphincs" cms verify --signature-only --content "$work/content.bin" o-det.pem
    cd "$work" || exit 2
done

# --- certificate options and chains (one set) ---
set="${sets%% *}"
d="$work/options"; mkdir -p "$d"; cd "$d" || exit 2
# has DESCRIPTION FILE PATTERN: the file has a line matching the pattern.
has() { if grep -Eq -- "$3" "$2"; then ok; else bad "$1: no /$3/ in $(head -c 600 "$2")"; fi; }
expect 0 "$set: keygen root" "$sphincs" keygen -a "$set" -o root.key
expect 0 "$set: keygen intermediate" "$sphincs" keygen -a "$set" -o int.key
expect 0 "$set: keygen leaf" "$sphincs" keygen -a "$set" -o leaf.key
expect 0 "$set: self-signed CA with --serial --not-before" "$sphincs" cert self-signed -k root.key --subject "CN=Options Root" --ca --serial 0a:1b:2c --not-before 2025-01-02T03:04:05Z --days 3650 -o root.pem
ossl x509 -in root.pem -noout -text >x.txt 2>&1
has "$set: openssl shows our serial" x.txt 'Serial Number: 662316 \(0xa1b2c\)'
has "$set: openssl shows our notBefore" x.txt 'Not Before: Jan  2 03:04:05 2025 GMT'
has "$set: openssl shows our CA key usage" x.txt 'Digital Signature, Certificate Sign, CRL Sign'
expect 0 "$set: request for an intermediate CA" "$sphincs" cert request -k int.key --subject "CN=Options Int" --ca -o int.csr
expect 0 "$set: issue the intermediate (--copy-extensions --ca --path-len 0)" "$sphincs" cert issue --ca-key root.key --ca-cert root.pem int.csr --copy-extensions --ca --path-len 0 -o int.pem
expect 0 "$set: request with SAN/EKU/key usage" "$sphincs" cert request -k leaf.key --subject "CN=Options Leaf" --san dns:leaf.example --san email:leaf@example.org --san uri:https://leaf.example/ --eku codeSigning,emailProtection --key-usage digitalSignature -o leaf.csr
ossl req -in leaf.csr -noout -text -verify >x.txt 2>&1
has "$set: openssl req -verify our request" x.txt 'verify OK'
has "$set: openssl sees the extensionRequest" x.txt 'Requested Extensions:'
has "$set: openssl sees the requested SAN" x.txt 'DNS:leaf.example, email:leaf@example.org, URI:https://leaf.example/'
has "$set: openssl sees the requested EKU" x.txt 'Code Signing, E-mail Protection'
expect 0 "$set: issue the leaf with --copy-extensions" "$sphincs" cert issue --ca-key int.key --ca-cert int.pem leaf.csr --copy-extensions -o leaf.pem
ossl x509 -in leaf.pem -noout -text >x.txt 2>&1
has "$set: openssl shows the copied SAN" x.txt 'DNS:leaf.example, email:leaf@example.org, URI:https://leaf.example/'
has "$set: openssl shows the copied EKU" x.txt 'Code Signing, E-mail Protection'
has "$set: openssl shows the copied key usage" x.txt '^ *Digital Signature$'
expect 0 "$set: openssl verify -purpose codesign (our chain)" ossl verify -CAfile root.pem -untrusted int.pem -purpose codesign leaf.pem
expect 0 "$set: openssl verify -purpose smimesign (our chain)" ossl verify -CAfile root.pem -untrusted int.pem -purpose smimesign leaf.pem
expect_fail "$set: openssl verify -purpose sslserver refuses a code-signing leaf" ossl verify -CAfile root.pem -untrusted int.pem -purpose sslserver leaf.pem
expect 0 "$set: TLS server certificate" "$sphincs" cert request -k leaf.key --subject "CN=tls.example" --san dns:tls.example -o tls.csr
expect 0 "$set: issue it with --eku serverAuth" "$sphincs" cert issue --ca-key int.key --ca-cert int.pem tls.csr --copy-extensions --eku serverAuth -o tls.pem
expect 0 "$set: openssl verify -purpose sslserver" ossl verify -CAfile root.pem -untrusted int.pem -purpose sslserver tls.pem
expect_fail "$set: openssl verify -purpose codesign refuses a TLS leaf" ossl verify -CAfile root.pem -untrusted int.pem -purpose codesign tls.pem
expect 0 "$set: keygen second intermediate" "$sphincs" keygen -a "$set" -o int2.key
expect 0 "$set: request a second intermediate" "$sphincs" cert request -k int2.key --subject "CN=Options Int2" --ca -o int2.csr
expect 0 "$set: issue it below the pathlen-0 intermediate" "$sphincs" cert issue --ca-key int.key --ca-cert int.pem int2.csr --copy-extensions --ca -o int2.pem
expect 0 "$set: issue a leaf below it" "$sphincs" cert issue --ca-key int2.key --ca-cert int2.pem leaf.csr -o deep.pem
expect_fail "$set: openssl refuses a path beyond pathlen 0" ossl verify -CAfile root.pem -untrusted int.pem -untrusted int2.pem deep.pem
# our CMS with our chain (without --chain only the signer certificate is embedded)
printf 'options\n' >msg.txt
expect 0 "$set: cms sign with the leaf" "$sphincs" cms sign -k leaf.key --cert leaf.pem msg.txt -o msg.p7s
expect 0 "$set: cms verify --ca (intermediate as anchor)" "$sphincs" cms verify --ca int.pem msg.p7s
has "$set: chain OK line" out.log '^  chain: OK to CN=Options Int$'
expect 2 "$set: cms verify --ca root without the intermediate: cannot check" "$sphincs" cms verify --ca root.pem msg.p7s
expect 0 "$set: openssl cms -verify our SignedData against our root" ossl cms -verify -binary -inform DER -in msg.p7s -CAfile root.pem -certfile int.pem -purpose codesign -out /dev/null
expect 0 "$set: cms sign --chain (intermediate embedded)" "$sphincs" cms sign -k leaf.key --cert leaf.pem --chain int.pem msg.txt -o chain.p7s
expect 0 "$set: cms verify --ca root through the embedded intermediate" "$sphincs" cms verify --ca root.pem chain.p7s
has "$set: chain OK to our root" out.log '^  chain: OK to CN=Options Root$'
expect 0 "$set: openssl cms -verify our SignedData with its embedded chain" ossl cms -verify -binary -inform DER -in chain.p7s -CAfile root.pem -purpose codesign -out /dev/null
expect_fail "$set: openssl cms -verify -purpose sslserver refuses it" ossl cms -verify -binary -inform DER -in chain.p7s -CAfile root.pem -purpose sslserver -out /dev/null
# OpenSSL-made chain root → intermediate → signer, the intermediate in the SignedData
md="$(ossl_md "$(digests_for "$set" | cut -d' ' -f1)")"
expect 0 "$set: openssl root" ossl req -x509 -newkey "$set" -nodes -keyout oroot.key -subj "/CN=OSSL Root" -days 30 -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out oroot.pem
printf 'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n' >ca.ext
printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=codeSigning\n' >leaf.ext
expect 0 "$set: openssl intermediate request" ossl req -new -newkey "$set" -nodes -keyout oint.key -subj "/CN=OSSL Int" -out oint.csr
expect 0 "$set: openssl intermediate" ossl x509 -req -in oint.csr -CA oroot.pem -CAkey oroot.key -days 30 -extfile ca.ext -out oint.pem
expect 0 "$set: openssl signer request" ossl req -new -newkey "$set" -nodes -keyout oleaf.key -subj "/CN=OSSL Signer" -out oleaf.csr
expect 0 "$set: openssl signer" ossl x509 -req -in oleaf.csr -CA oint.pem -CAkey oint.key -days 30 -extfile leaf.ext -out oleaf.pem
expect 0 "$set: openssl cms -sign -certfile intermediate" ossl cms -sign -binary -md "$md" -nodetach -in msg.txt -signer oleaf.pem -inkey oleaf.key -certfile oint.pem -outform DER -out o.p7s
expect 0 "$set: sphincs cms verify --ca OpenSSL root" "$sphincs" cms verify --ca oroot.pem o.p7s
has "$set: chain OK to OpenSSL's root" out.log '^  chain: OK to CN=OSSL Root$'
has "$set: the path goes through OpenSSL's intermediate" out.log '^    CN=OSSL Int$'
cat root.pem oroot.pem >bundle.pem
expect 0 "$set: sphincs cms verify --ca bundle" "$sphincs" cms verify --ca bundle.pem o.p7s
expect 2 "$set: sphincs cms verify --ca another root: cannot check" "$sphincs" cms verify --ca root.pem o.p7s
expect 0 "$set: openssl cms -sign without the intermediate" ossl cms -sign -binary -md "$md" -nodetach -in msg.txt -signer oleaf.pem -inkey oleaf.key -outform DER -out o-noint.p7s
expect 2 "$set: sphincs: no intermediate, no chain (cannot check)" "$sphincs" cms verify --ca oroot.pem o-noint.p7s
expect 0 "$set: sphincs cert verify OpenSSL signer against its intermediate" "$sphincs" cert verify oleaf.pem --issuer oint.pem
# OpenSSL's request extensions, copied by us
expect 0 "$set: openssl request with SAN/EKU" ossl req -new -key oleaf.key -subj "/CN=OSSL Req" -addext "subjectAltName=DNS:req.example,email:req@example.org" -addext "extendedKeyUsage=codeSigning" -out oreq.csr
expect 0 "$set: sphincs cert show OpenSSL request" "$sphincs" cert show oreq.csr
has "$set: we read OpenSSL's requested SAN" out.log 'Subject alternative names: dns:req.example, email:req@example.org'
expect 0 "$set: sphincs cert issue --copy-extensions from OpenSSL's request" "$sphincs" cert issue --ca-key int.key --ca-cert int.pem oreq.csr --copy-extensions -o oreq.pem
expect 0 "$set: openssl verify -purpose codesign on it" ossl verify -CAfile root.pem -untrusted int.pem -purpose codesign oreq.pem
expect 0 "$set: openssl request with an IP SAN" ossl req -new -key oleaf.key -subj "/CN=OSSL IP" -addext "subjectAltName=IP:192.0.2.1" -out oip.csr
expect 2 "$set: an IP SAN is not copied silently" "$sphincs" cert issue --ca-key int.key --ca-cert int.pem oip.csr --copy-extensions -o oip.pem
has "$set: the refusal names the iPAddress kind" err.log 'of a kind this tool does not copy \(iPAddress\)'
cd "$work" || exit 2

# --- HashSLH-DSA keys: OpenSSL 3.5 cannot load them, but its OID table names them ---
cd "$work" || exit 2
for pair in "SLH-DSA-SHA2-128f SHA2-256 SHA256" "SLH-DSA-SHAKE-256f SHAKE-256 SHAKE256"; do
    set -- $pair
    expect 0 "$1: sphincs keygen --prehash $2" "$sphincs" keygen -a "$1" --prehash "$2" -o h.key --pub h.pub --force
    ossl asn1parse -in h.pub >asn.log 2>&1
    if grep -q "OBJECT *:$1-WITH-$3" asn.log; then ok; else bad "$1: openssl asn1parse does not name our HashSLH-DSA OID: $(cat asn.log)"; fi
    expect 0 "$1: sphincs cert self-signed with a HashSLH-DSA key" "$sphincs" cert self-signed -k h.key --subject "CN=Hash" -o h.pem --force
    ossl asn1parse -in h.pem >asn.log 2>&1
    if [[ "$(grep -c "OBJECT *:$1-WITH-$3" asn.log)" == 3 ]]; then ok; else bad "$1: HashSLH-DSA OID not in all three places: $(grep OBJECT asn.log)"; fi
    expect 0 "$1: sphincs cert verify HashSLH-DSA certificate" "$sphincs" cert verify h.pem
    expect 2 "$1: HashSLH-DSA key refused for CMS (RFC 9814: pure)" "$sphincs" cms sign -k h.key --cert h.pem "$work/content.bin" -o h.der
done

echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]] || exit 1
