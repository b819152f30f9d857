#!/usr/bin/env bash
# `sphincs-gpg` and `sphincs-gpgv` on the command lines signing tools and
# release scripts run (docs/gpg.md), checked three ways:
#   - what they sign verifies with the SOP peers (go-crypto, rPGP,
#     Sequoia: tests/interop/openpgp/build-*.sh) and with sphincs-gpgv;
#   - their status lines and exit statuses against GnuPG's own gpg/gpgv
#     with an Ed25519 key in the same situation (good, bad, no key);
#   - hostile inputs end in gpgv's error status, in bounded time, with
#     nothing written where gpg writes nothing.
# The argument vectors, and where they come from:
#   release scripts      gpg --armor --detach-sign FILE        (-> FILE.asc)
#   rpm's macros.in      %__gpg_sign_cmd: gpg --no-verbose --no-armor
#                        --no-secmem-warning --digest-algo=sha256 -u NAME
#                        -sbo SIG -- FILE
#   maven-gpg-plugin     GpgSigner: --use-agent --batch --no-tty
#                        --pinentry-mode loopback --passphrase-fd 0
#                        --local-user NAME --homedir DIR --armor
#                        --detach-sign --output FILE.asc FILE
#   apt's ftparchive     gpg --clearsign -o InRelease Release; gpg -abs
#   docs (README)        -o Release.gpg Release
#   debsign, git         tests/interop/apt.sh, tests/interop/git-openpgp.sh
#
# Usage: tests/interop/gpg.sh [path/to/sphincs]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$repo_root"
SPHINCS=$sphincs
gpg_scratch
H=$W/home
G=$W/gnupg
mkdir -m 700 "$G"

fails=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
refused() { # NAME PATTERN COMMAND...
    local name=$1 pattern=$2
    shift 2
    if "$@" >"$W/out" 2>&1; then
        fail "$name: accepted"
    elif grep -q -- "$pattern" "$W/out"; then
        pass "$name: refused, naming $pattern"
    else
        fail "$name: refused without naming $pattern"
        sed 's/^/     | /' "$W/out"
    fi
}
check() { # NAME COMMAND...: the command must succeed
    local name=$1
    shift
    if "$@" >"$W/out" 2>&1; then pass "$name"; else fail "$name"; sed 's/^/     | /' "$W/out"; fi
}

# The SOP peers (built and cached by the OpenPGP suite's scripts).
declare -A peer
peer[go]=$(bash tests/interop/openpgp/build-go-peer.sh)
rust_peers=$(bash tests/interop/openpgp/build-rust-peers.sh)
peer[rpgp]=$(sed -n 's/^rpgp-peer=//p' <<<"$rust_peers")
peer[sequoia]=$(sed -n 's/^sequoia-peer=//p' <<<"$rust_peers")

# Keys: an unprotected one and a passphrase-protected one (maven's case).
(umask 077 && printf 'correct horse\n' >"$W/pass")
(umask 077 && "$SPHINCS" keygen -a SLH-DSA-SHAKE-128f --openpgp 'Rel <rel@example.org>' -o "$W/rel.key" --pub "$W/rel.asc" >/dev/null)
(umask 077 && "$SPHINCS" --passphrase-file "$W/pass" keygen -a SLH-DSA-SHAKE-128s --openpgp 'Mvn <mvn@example.org>' \
    --encrypt -o "$W/mvn.key" --pub "$W/mvn.asc" >/dev/null)
sphincs-gpg --homedir "$H" --import "$W/rel.key" "$W/mvn.key" 2>/dev/null
head -c 1048576 /dev/urandom >"$W/app.tar.gz"
printf 'Origin: test\nSuite: stable\n- a line with a dash\n' >"$W/Release"

# --- the tools' command lines, and the peers on what they make ------------------
peers_verify() { # NAME SIG CERT DATA
    local i
    for i in go rpgp sequoia; do
        if "${peer[$i]}" verify "$2" "$3" <"$4" >/dev/null 2>"$W/peer.err"; then
            pass "$1: $i verifies it"
        else
            fail "$1: $i refuses it"
            sed 's/^/     | /' "$W/peer.err"
        fi
    done
    check "$1: sphincs-gpgv verifies it" sphincs-gpgv --keyring "$3" "$2" "$4"
}
(cd "$W" && GNUPGHOME=$H sphincs-gpg --armor --detach-sign -u rel@example.org app.tar.gz)
[[ -f $W/app.tar.gz.asc ]] && pass "release script: gpg --armor --detach-sign FILE wrote FILE.asc" || fail "no FILE.asc"
peers_verify "release script" "$W/app.tar.gz.asc" "$W/rel.asc" "$W/app.tar.gz"

GNUPGHOME=$H sphincs-gpg --no-verbose --no-armor --no-secmem-warning --digest-algo=sha256 \
    -u 'Rel <rel@example.org>' -sbo "$W/rpm.sig" -- "$W/app.tar.gz"
peers_verify "rpm's %__gpg_sign_cmd" "$W/rpm.sig" "$W/rel.asc" "$W/app.tar.gz"

sphincs-gpg --use-agent --batch --no-tty --pinentry-mode loopback --passphrase-fd 0 \
    --local-user mvn@example.org --homedir "$H" --armor --detach-sign --output "$W/mvn.asc.sig" "$W/app.tar.gz" <"$W/pass"
peers_verify "maven-gpg-plugin (protected key, --passphrase-fd 0)" "$W/mvn.asc.sig" "$W/mvn.asc" "$W/app.tar.gz"

# The agent unlocks the protected key once, as for git: then --batch
# signing with no passphrase source signs (setsid: no terminal to ask on).
export SPHINCS_AGENT_SOCK="$W/agent/socket"
mkdir -m 700 "$W/agent"
"$SPHINCS" agent start >/dev/null
"$SPHINCS" --passphrase-file "$W/pass" agent add "$W/mvn.key" >/dev/null
for i in 1 2; do
    check "agent: --batch signing with the protected key, no passphrase ($i)" \
        setsid -w sphincs-gpg --homedir "$H" --batch --yes -u mvn@example.org -abs -o "$W/agent-$i.asc" "$W/app.tar.gz"
done
"$SPHINCS" agent stop >/dev/null
refused "--batch without the agent or a passphrase" "passphrase" \
    setsid -w sphincs-gpg --homedir "$H" --batch --yes -u mvn@example.org -abs -o "$W/agent-3.asc" "$W/app.tar.gz"
unset SPHINCS_AGENT_SOCK

sphincs-gpg --homedir "$H" -u rel@example.org --clearsign -o "$W/InRelease" "$W/Release"
# The signed text of a cleartext message ends before its last line break.
printf '%s' "$(cat "$W/Release")" >"$W/Release.text"
for i in go rpgp sequoia; do
    if "${peer[$i]}" inline-verify "$W/rel.asc" <"$W/InRelease" >"$W/text" 2>"$W/peer.err" && cmp -s "$W/text" "$W/Release.text"; then
        pass "--clearsign: $i inline-verify gives back the text"
    else
        fail "--clearsign: $i"
        sed 's/^/     | /' "$W/peer.err"
    fi
done
check "--clearsign: sphincs-gpg --verify" sphincs-gpg --homedir "$H" --verify "$W/InRelease"
sphincs-gpg --homedir "$H" -u rel@example.org --sign -o "$W/msg.gpg" "$W/Release"
if "${peer[go]}" inline-verify "$W/rel.asc" <"$W/msg.gpg" >"$W/text" 2>/dev/null && cmp -s "$W/text" "$W/Release"; then
    pass "--sign: go inline-verify gives back the data"
else
    fail "--sign: go inline-verify"
fi

# --export, --list-keys --with-colons, --import of a certificate.
sphincs-gpg --homedir "$H" --export --armor rel@example.org >"$W/exported.asc"
peers_verify "--export --armor as the certificate" "$W/app.tar.gz.asc" "$W/exported.asc" "$W/app.tar.gz"
fpr=$(sphincs-gpg --homedir "$H" --list-keys --with-colons rel@example.org | awk -F: '$1 == "fpr" { print $10; exit }')
want=$("$SPHINCS" fingerprint "$W/rel.asc" | awk '{ print $1 }')
[[ "openpgp4fpr:$fpr" == "$want" ]] && pass "--list-keys --with-colons: fpr field" || fail "--with-colons fpr $fpr, want $want"

# Refusals that name the option.
refused "--digest-algo SHA1" "SHA1" sphincs-gpg --homedir "$H" -u rel@example.org --digest-algo SHA1 -abs -o "$W/x.sig" "$W/Release"
refused "--digest-algo SHA224" "SHA224" sphincs-gpg --homedir "$H" -u rel@example.org --digest-algo SHA224 -abs -o "$W/x.sig" "$W/Release"
refused "--encrypt" "--encrypt" sphincs-gpg --homedir "$H" --encrypt -r rel@example.org "$W/Release"
refused "--passphrase on the command line" "--passphrase-file" sphincs-gpg --homedir "$H" --passphrase x -abs "$W/Release"
refused "an existing output without --yes" "--yes" sphincs-gpg --homedir "$H" -u rel@example.org -abs -o "$W/rpm.sig" "$W/Release"
[[ ! -e $W/x.sig ]] && pass "nothing written by a refused signing" || fail "x.sig was written"

# --- status lines against GnuPG's ------------------------------------------------------
gpg --homedir "$G" --batch -q --passphrase '' --quick-gen-key 'Classic <classic@example.org>' ed25519 sign never 2>/dev/null
gpg --homedir "$G" --batch -q --export >"$W/classic.gpg"
gpg --homedir "$G" --batch -q --export-secret-keys >/dev/null
"$SPHINCS" key show "$W/rel.asc" >/dev/null
sphincs-gpg --dearmor -o "$W/rel.gpg" "$W/rel.asc"
words() { # the status words that callers parse, in order
    grep -o '^\[GNUPG:\] [A-Z_]*' | awk '{ print $2 }' |
        grep -E '^(BEGIN_SIGNING|SIG_CREATED|NEWSIG|GOODSIG|BADSIG|ERRSIG|NO_PUBKEY|VALIDSIG|EXPKEYSIG|REVKEYSIG)$' | tr '\n' ' '
}
gnupg_sign=$(gpg --homedir "$G" --batch --yes --status-fd 1 -abs -o "$W/c.asc" "$W/Release" 2>/dev/null | words)
ours_sign=$(sphincs-gpg --homedir "$H" -u rel@example.org --batch --yes --status-fd 1 -abs -o "$W/o.asc" "$W/Release" 2>/dev/null | words)
[[ $gnupg_sign == "$ours_sign" ]] && pass "signing status words as GnuPG's: $ours_sign" || fail "signing: GnuPG '$gnupg_sign', ours '$ours_sign'"
sc_gnupg=$(gpg --homedir "$G" --batch --yes --status-fd 1 -abs -o "$W/c.asc" "$W/Release" 2>/dev/null | awk '$2 == "SIG_CREATED" { print $3, NF }')
sc_ours=$(sphincs-gpg --homedir "$H" -u rel@example.org --batch --yes --status-fd 1 -abs -o "$W/o.asc" "$W/Release" 2>/dev/null | awk '$2 == "SIG_CREATED" { print $3, NF }')
[[ $sc_gnupg == "$sc_ours" ]] && pass "SIG_CREATED fields as GnuPG's ($sc_ours)" || fail "SIG_CREATED: GnuPG '$sc_gnupg', ours '$sc_ours'"
cp "$W/Release" "$W/Release.changed"
echo 'Codename: changed' >>"$W/Release.changed"
compare() { # NAME GNUPG_KEYRING OUR_KEYRING DATA
    local rc_g=0 rc_o=0 w_g w_o
    w_g=$(gpgv --keyring "$2" --status-fd 1 "$W/c.asc" "$4" 2>/dev/null | words) || rc_g=$?
    w_o=$(sphincs-gpgv --keyring "$3" --status-fd 1 "$W/o.asc" "$4" 2>/dev/null | words) || rc_o=$?
    if [[ $w_g == "$w_o" && $rc_g -eq $rc_o ]]; then
        pass "$1: as GnuPG's gpgv: '$w_o', exit $rc_o"
    else
        fail "$1: GnuPG '$w_g' exit $rc_g, ours '$w_o' exit $rc_o"
    fi
}
compare "good signature" "$W/classic.gpg" "$W/rel.gpg" "$W/Release"
compare "bad signature" "$W/classic.gpg" "$W/rel.gpg" "$W/Release.changed"
compare "no public key" /dev/null /dev/null "$W/Release"
# sphincs-gpg --verify of GnuPG's own signature, in GnuPG's home: handed
# to the system gpg, its verdict (good, then bad) unchanged.
check "--verify of an Ed25519 signature: the system gpg's good verdict" \
    sphincs-gpg --homedir "$G" --verify "$W/c.asc" "$W/Release"
if sphincs-gpg --homedir "$G" --verify "$W/c.asc" "$W/Release.changed" >"$W/out" 2>&1; then
    fail "--verify of a changed file with an Ed25519 signature: accepted"
else
    pass "--verify of a changed file with an Ed25519 signature: refused"
fi
# --keyid (apt 3 passes Signed-By fingerprints so): only that key counts.
rel_fpr=$("$SPHINCS" fingerprint "$W/rel.asc" | awk '{ print $1 }' | sed 's/^openpgp4fpr://')
check "--keyid the signer's fingerprint" sphincs-gpgv --keyring "$W/rel.gpg" --keyid "$rel_fpr" "$W/o.asc" "$W/Release"
rc=0
sphincs-gpgv --keyring "$W/rel.gpg" --keyid 0123456789ABCDEF --status-fd 1 "$W/o.asc" "$W/Release" >"$W/out" 2>&1 || rc=$?
[[ $rc -eq 2 ]] && grep -q NO_PUBKEY "$W/out" && pass "--keyid another key: NO_PUBKEY, exit 2" || fail "--keyid another key: exit $rc"
# --assert-pubkey-algo (apt 3): ASSERT_PUBKEY_ALGO, and a key outside the list refused.
apt3='>=rsa2048,ed25519,ed448,nistp256,nistp384,nistp512'
rc=0
sphincs-gpgv --keyring "$W/rel.gpg" --assert-pubkey-algo "$apt3" --status-fd 1 "$W/o.asc" "$W/Release" >"$W/out" 2>&1 || rc=$?
[[ $rc -eq 1 ]] && grep -q "ASSERT_PUBKEY_ALGO $rel_fpr 0 slhdsa128f" "$W/out" &&
    pass "--assert-pubkey-algo without slhdsa: ASSERT_PUBKEY_ALGO … 0, exit 1" || { fail "--assert-pubkey-algo without slhdsa: exit $rc"; sed 's/^/     | /' "$W/out"; }
rc=0
sphincs-gpgv --keyring "$W/rel.gpg" --assert-pubkey-algo "$apt3,slhdsa" --status-fd 1 "$W/o.asc" "$W/Release" >"$W/out" 2>&1 || rc=$?
[[ $rc -eq 0 ]] && grep -q "ASSERT_PUBKEY_ALGO $rel_fpr 1 slhdsa128f" "$W/out" &&
    pass "--assert-pubkey-algo with slhdsa: ASSERT_PUBKEY_ALGO … 1, exit 0" || { fail "--assert-pubkey-algo with slhdsa: exit $rc"; sed 's/^/     | /' "$W/out"; }
# gpg --fingerprint alone lists the keys, as gpg's does.
sphincs-gpg --homedir "$H" --fingerprint rel@example.org | grep -q "$rel_fpr" &&
    pass "--fingerprint lists the key" || fail "--fingerprint"
# VALIDSIG's fields: fingerprint, date, time, expiry, version, reserved,
# algorithm, hash, class, primary fingerprint (ten, as GnuPG's).
n=$(sphincs-gpgv --keyring "$W/rel.gpg" --status-fd 1 "$W/o.asc" "$W/Release" 2>/dev/null | awk '$2 == "VALIDSIG" { print NF - 2 }')
[[ $n == 10 ]] && pass "VALIDSIG has GnuPG's ten fields" || fail "VALIDSIG has $n fields"

# --- hostile input: gpgv's error status, bounded, nothing written ----------------------
hostile() { # NAME EXPECTED_RC SIGFILE [DATA]: sphincs-gpgv alone (no system gpgv)
    local name=$1 want=$2 rc=0
    shift 2
    rm -f "$W/hostile.out"
    SPHINCS_SYSTEM_GPGV='' timeout 20 sphincs-gpgv --keyring "$W/rel.gpg" --status-fd 1 \
        --output "$W/hostile.out" "$@" >"$W/out" 2>&1 || rc=$?
    if [[ $rc -eq $want && ! -e $W/hostile.out ]] && grep -q '^\[GNUPG:\] \(ERRSIG\|NODATA\|BADSIG\)' "$W/out"; then
        pass "hostile $name: exit $rc, $(grep -o '^\[GNUPG:\] [A-Z]*' "$W/out" | tail -1 | cut -d' ' -f2)"
    else
        fail "hostile $name: exit $rc (want $want), output written: $([[ -e $W/hostile.out ]] && echo yes || echo no)"
        sed 's/^/     | /' "$W/out" | head -5
    fi
}
head -c 4096 /dev/urandom >"$W/random.sig"
hostile "random signature" 2 "$W/random.sig" "$W/Release"
head -c 700 "$W/o.asc" >"$W/truncated.asc"
hostile "truncated armor" 2 "$W/truncated.asc" "$W/Release"
printf '\xc2\xff\xff\xff\xff\xf0\x06' >"$W/huge.sig"
hostile "a packet claiming 4 GiB" 2 "$W/huge.sig" "$W/Release"
sed 's/^Suite: stable$/Suite: stab1e/' "$W/InRelease" >"$W/InRelease.changed"
hostile "changed cleartext" 1 "$W/InRelease.changed"
awk '/BEGIN PGP SIGNATURE/ { print; print ""; print "!!!!"; exit } { print }' "$W/InRelease" >"$W/InRelease.broken"
hostile "broken signature block" 2 "$W/InRelease.broken"
head -c 200000 /dev/urandom >"$W/garbage.gpg"
rc=0
SPHINCS_SYSTEM_GPGV='' timeout 20 sphincs-gpgv --keyring "$W/garbage.gpg" --status-fd 1 "$W/o.asc" "$W/Release" >"$W/out" 2>&1 || rc=$?
[[ $rc -eq 2 ]] && grep -q 'NO_PUBKEY' "$W/out" && pass "hostile keyring: ignored, NO_PUBKEY, exit 2" ||
    { fail "hostile keyring: exit $rc"; sed 's/^/     | /' "$W/out" | head -5; }
# A 65 MiB "cleartext" file: refused by its size, not read whole.
head -c $((65 << 20)) /dev/zero | tr '\0' 'a' >"$W/big.asc"
hostile "65 MiB input" 2 "$W/big.asc"
# The fallback never loops: a `gpgv` that is this program is not a system gpgv.
ln -s "$SPHINCS" "$BIN/gpgv"
rc=0
SPHINCS_SYSTEM_GPGV="$BIN/gpgv" timeout 20 sphincs-gpgv --keyring "$W/classic.gpg" --status-fd 1 "$W/c.asc" "$W/Release" >"$W/out" 2>&1 || rc=$?
[[ $rc -ne 0 && $rc -ne 124 ]] && pass "a fallback that is this program: refused, exit $rc" ||
    { fail "fallback loop: exit $rc"; sed 's/^/     | /' "$W/out" | head -5; }
rm "$BIN/gpgv"

if [[ $fails -ne 0 ]]; then
    echo "gpg.sh: $fails failed"
    exit 1
fi
echo "gpg.sh: all passed"
