#!/usr/bin/env bash
# A second, independent PKCS#11 token with SLH-DSA: kryoptic 1.5.4 (OpenSSL
# 3.5 inside), built by tests/interop/kryoptic/build.sh.
#   1. crates/pkcs11/tests/kryoptic.rs: kryoptic and our module side by side
#      through cryptoki (the same keys in both: deterministic signatures
#      identical to the core's; each token verifies the other's signatures
#      and keys generated in the other);
#   2. `sphincs` with keys in kryoptic: `pkcs11 keygen`, `pkcs11 import`,
#      `pkcs11 list`, `sign -k pkcs11:…` (pure and pre-hashed, deterministic
#      signatures identical to the key file's), what kryoptic lacks (SHAKE
#      pre-hash) and a wrong PIN refused with no signature file left;
#   3. OpenPGP with a key in kryoptic: `pkcs11 openpgp` certifies it and
#      keeps the certificate on kryoptic (a CKO_DATA object), `sop sign`
#      with the URI signs, `sop verify` accepts it with that certificate.
# kryoptic links Debian 13's OpenSSL 3.5 and C library, unpacked beside
# this host's (.ci/openssl35.sh): every process that loads it is started
# through their dynamic loader (`run`). Usage: kryoptic.sh [SPHINCS-BINARY]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$repo_root"

eval "$(bash tests/interop/kryoptic/build.sh)"
[[ -f "$module" && -x "$run" ]] || { echo "kryoptic.sh: build.sh gave no module" >&2; exit 2; }

echo "== kryoptic and our module through cryptoki (crates/pkcs11/tests/kryoptic.rs)"
# The same cargo invocation as scripts/test-all's (--workspace, the same
# environment): its test binary is reused, not rebuilt.
SPHINCS_KRYOPTIC_MODULE="$module" CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$run" \
    PYO3_BUILD_EXTENSION_MODULE=1 \
    cargo test --release --workspace --test kryoptic -- --ignored --nocapture 2>&1 |
    grep -v '^ *Compiling '

echo "== sphincs with keys in kryoptic"
W=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$W"' EXIT
cd "$W"
printf '[[slots]]\nslot = 1\ndbtype = "sqlite"\ndbargs = "%s/token.sql"\n' "$W" >kryoptic.conf
export KRYOPTIC_CONF=$W/kryoptic.conf
fail() { echo "kryoptic.sh: $*" >&2; exit 1; }
command -v pkcs11-tool >/dev/null || fail "pkcs11-tool missing (crates/pkcs11/tests/pkcs11-tool.sh installs opensc)"
"$run" pkcs11-tool --module "$module" --init-token --label release --so-pin 87654321 >/dev/null 2>&1 ||
    fail "kryoptic C_InitToken"
"$run" pkcs11-tool --module "$module" --login --login-type so --so-pin 87654321 --init-pin --pin 246810 \
    >/dev/null 2>&1 || fail "kryoptic C_InitPIN"
(umask 077; echo 246810 >pin; echo 000000 >wrong-pin)
uri() { echo "pkcs11:token=release;object=$1${2:+;id=$2}?module-path=$module&pin-source=$W/${3:-pin}"; }
k() { "$run" "$sphincs" "$@"; }
head -c 100000 /dev/urandom >release.tar

# A key made in kryoptic: its signature verifies with the public key alone.
k pkcs11 keygen -q -a SLH-DSA-SHAKE-128f "$(uri made %01)" --pub made.pub
k sign -q -k "$(uri made)" release.tar
"$sphincs" verify -q -p made.pub release.tar || fail "kryoptic's signature does not verify"
echo "keygen in kryoptic, sign through it, verify here: ok"

# A key file imported into kryoptic: deterministic signatures through the
# token are the key file's, byte for byte, pure and pre-hashed.
"$sphincs" keygen -q -a SLH-DSA-SHA2-128s -o file.key --pub file.pub
"$sphincs" keygen -q -a SLH-DSA-SHA2-128s --prehash SHA2-256 -o hashed.key --pub hashed.pub
k pkcs11 import -q -k file.key "$(uri imported %02)"
k pkcs11 import -q -k hashed.key "$(uri hashed %03)"
for case in "imported file --context release-v1" "hashed hashed --prehash SHA2-256 --context release-v1"; do
    read -r object key opts <<<"$case"
    # shellcheck disable=SC2086
    k sign -q --deterministic $opts -k "$(uri "$object")" -o token.sig release.tar
    # shellcheck disable=SC2086
    "$sphincs" sign -q --deterministic $opts -k "$key.key" -o file.sig release.tar
    cmp -s token.sig file.sig || fail "$opts: kryoptic's signature is not the key file's"
    # shellcheck disable=SC2086
    "$sphincs" verify -q $opts -p "$key.pub" -s token.sig release.tar || fail "$opts: does not verify"
    rm -f token.sig file.sig
    echo "sign $opts through kryoptic = with the key file: ok"
done

list=$(k pkcs11 list "pkcs11:token=release?module-path=$module&pin-source=$W/pin")
grep -q $'^made\tid=01\tSLH-DSA-SHAKE-128f' <<<"$list" || fail "list: $list"
grep -q $'^imported\tid=02\tSLH-DSA-SHA2-128s' <<<"$list" || fail "list: $list"
[[ $(wc -l <<<"$list") == 3 ]] || fail "list: not three keys: $list"
echo "list: ok"

# What kryoptic cannot do is an error that names it, and leaves no file.
if out=$(k sign --prehash SHAKE-128 -k "$(uri imported)" -o shake.sig release.tar 2>&1); then
    fail "kryoptic signed with CKM_HASH_SLH_DSA_SHAKE128: $out"
fi
grep -q "no CKM_HASH_SLH_DSA_SHAKE128" <<<"$out" || fail "SHAKE pre-hash refused without naming the mechanism: $out"
[[ ! -e shake.sig ]] || fail "a refused signature left shake.sig"
if out=$(k sign -k "$(uri imported "" wrong-pin)" -o wrong.sig release.tar 2>&1); then
    fail "a wrong PIN signed: $out"
fi
grep -q "C_Login: the token answered PinIncorrect" <<<"$out" || fail "wrong PIN: $out"
[[ ! -e wrong.sig ]] || fail "a wrong PIN left wrong.sig"
echo "SHAKE pre-hash (not in kryoptic) and a wrong PIN refused, no file left: ok"

k pkcs11 openpgp -q "$(uri made)" --userid 'Release <release@example.org>' -o made.cert
k sop sign "$(uri made)" <release.tar >release.asc
"$sphincs" sop verify release.asc made.cert <release.tar >/dev/null ||
    fail "an OpenPGP signature made through kryoptic does not verify"
if "$sphincs" sop verify release.asc made.cert </dev/null >/dev/null 2>&1; then
    fail "sop verify accepted a signature over other data"
fi
echo "OpenPGP: certificate kept on kryoptic, sop sign through it, sop verify: ok"
echo "== kryoptic: all passed"
