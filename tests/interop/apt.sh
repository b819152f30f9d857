#!/usr/bin/env bash
# apt, dpkg-source and debsign with `sphincs-gpgv` and `sphincs-gpg`
# (docs/gpg.md), each program Debian's own, driven through its own
# interface; nothing of the machine's apt state is touched: every
# `apt-get update` runs in a temporary root (APT_CONFIG, Dir …).
#
#   apt-get update of a local repository (file:) whose InRelease and
#   Release.gpg are signed with each RFC 9980 set, Signed-By a v6
#   certificate (armored and binary), APT::Key::GPGVCommand sphincs-gpgv:
#   accepted; a changed InRelease, a signature by a key not in Signed-By,
#   an expired key, a revoked key, a SHA2-224 and a SHA-1 signature:
#   refused with apt's
#   own error; a repository signed by GnuPG (Ed25519, made here) through
#   sphincs-gpgv: accepted, changed: refused; a dual-signed repository
#   (GnuPG's signature, then `sphincs cosign`): accepted by Debian's gpgv
#   through the classic key and by sphincs-gpgv through either key.
#   debsign (devscripts) with sphincs-gpg signs a .dsc; dpkg-source -x
#   --require-valid-signature accepts it with `gpgv` being sphincs-gpgv,
#   refuses a changed copy; so do dscverify's `gpg --verify` runs.
#
# Usage: tests/interop/apt.sh [path/to/sphincs]   (run as root to let it
# install apt's, dpkg-dev's, devscripts', gnupg's and faketime's packages
# when they are missing; .ci/run installs them with the others)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$repo_root"
SPHINCS=$sphincs
FIXTURES=$PWD/tests/interop/apt

want=(apt gpgv gnupg dpkg-dev devscripts faketime)
missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [[ ${#missing[@]} -ne 0 ]]; then
    [[ $(id -u) -eq 0 ]] || { echo "apt.sh: needs ${missing[*]} (run as root to install them)" >&2; exit 2; }
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

gpg_scratch
H=$W/sphincs-home          # sphincs-gpg's --homedir
G=$W/gnupg-home            # GnuPG's, for the classic key
mkdir -m 700 "$G"

fails=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# --- keys ----------------------------------------------------------------------
# One key per RFC 9980 set, its certificate armored (.asc) and binary (.gpg).
for set in 128s 128f 256s; do
    (umask 077 && "$SPHINCS" keygen -a "SLH-DSA-SHAKE-$set" --openpgp "Repo $set <repo-$set@example.org>" \
        -o "$W/$set.key" --pub "$W/$set.asc" >/dev/null)
    sphincs-gpg --dearmor -o "$W/$set.gpg" "$W/$set.asc"
    sphincs-gpg --homedir "$H" --batch --import "$W/$set.key" 2>/dev/null
done
# A key that expired: made and used 60 days ago with a 30-day life.
(umask 077 && faketime -f "-60d" "$SPHINCS" keygen -a SLH-DSA-SHAKE-128f --openpgp 'Old <old@example.org>' \
    --expires 30d -o "$W/old.key" --pub "$W/old.asc" >/dev/null)
# Debian's gpg: an Ed25519 key, as Debian's archive keys are.
gpg --homedir "$G" --batch -q --passphrase '' --quick-gen-key 'Classic <classic@example.org>' ed25519 sign never 2>/dev/null
gpg --homedir "$G" --batch -q --export >"$W/classic.gpg"
# Both kinds in one keyring file (a Signed-By that names both keys).
cat "$W/classic.gpg" "$W/128f.gpg" >"$W/both.gpg"

# --- repositories ------------------------------------------------------------------
# make_repo DIR: dists/stable with one Packages file and its Release.
make_repo() {
    local d=$1/dists/stable
    mkdir -p "$d/main/binary-amd64"
    printf 'Package: hello-slhdsa\nVersion: 1.0\nArchitecture: all\nMaintainer: Repo <repo@example.org>\nFilename: pool/hello-slhdsa_1.0_all.deb\nSize: 1\nSHA256: %064d\nDescription: a test package\n\n' 0 \
        >"$d/main/binary-amd64/Packages"
    local f=main/binary-amd64/Packages
    {
        echo "Origin: sphincs-test"
        echo "Label: sphincs-test"
        echo "Suite: stable"
        echo "Codename: stable"
        echo "Date: $(date -Ru)"
        echo "Architectures: amd64"
        echo "Components: main"
        echo "SHA256:"
        echo " $(sha256sum "$d/$f" | cut -d' ' -f1) $(stat -c %s "$d/$f") $f"
    } >"$d/Release"
}
# sign_ours DIR USER: InRelease and Release.gpg by sphincs-gpg, as a
# repository script runs gpg (gpg --clearsign / gpg -abs).
sign_ours() {
    local d=$1/dists/stable
    sphincs-gpg --homedir "$H" --batch --yes -u "$2" --clearsign -o "$d/InRelease" "$d/Release"
    sphincs-gpg --homedir "$H" --batch --yes -u "$2" -abs -o "$d/Release.gpg" "$d/Release"
}
sign_classic() {
    local d=$1/dists/stable
    gpg --homedir "$G" --batch --yes -q --clearsign -o "$d/InRelease" "$d/Release"
    gpg --homedir "$G" --batch --yes -q -abs -o "$d/Release.gpg" "$d/Release"
}

# apt_update NAME REPO SIGNED_BY GPGV [only-release-gpg]: apt-get update
# in a root of its own; GPGV empty: apt's default (Debian's gpgv). Sets
# $out and returns apt-get's status (0 only when it also fetched the
# Packages list).
apt_update() {
    local name=$1 repo=$2 signed_by=$3 gpgv=$4 R=$W/root-$1
    mkdir -p "$R/etc/apt/apt.conf.d" "$R/etc/apt/sources.list.d" "$R/etc/apt/preferences.d" \
        "$R/etc/apt/trusted.gpg.d" "$R/var/lib/apt/lists/partial" "$R/var/cache/apt/archives/partial" \
        "$R/var/lib/dpkg" "$R/var/log/apt"
    touch "$R/var/lib/dpkg/status"
    {
        echo "Dir \"$R/\";"
        echo "Dir::State::status \"$R/var/lib/dpkg/status\";"
        echo "Dir::Bin::Methods \"/usr/lib/apt/methods\";"
        echo "Dir::Log \"$R/var/log/apt\";"
        echo 'APT::Sandbox::User "root";'
        echo 'APT::Architecture "amd64";'
        echo 'APT::Architectures { "amd64"; };'
        echo 'Acquire::Languages "none";'
        echo 'Debug::NoLocking "true";'
        [[ -n $gpgv ]] && echo "APT::Key::GPGVCommand \"$gpgv\";"
    } >"$R/apt.conf"
    if [[ $signed_by == inline:* ]]; then
        # deb822, the certificate inside Signed-By (apt writes it to a
        # temporary .asc for the verifier).
        {
            printf 'Types: deb\nURIs: file:%s\nSuites: stable\nComponents: main\nSigned-By:\n' "$repo"
            sed 's/^$/./; s/^/ /' "${signed_by#inline:}"
        } >"$R/etc/apt/sources.list.d/test.sources"
        : >"$R/etc/apt/sources.list"
    else
        echo "deb [signed-by=$signed_by] file:$repo stable main" >"$R/etc/apt/sources.list"
    fi
    local rc=0
    out=$(APT_CONFIG=$R/apt.conf apt-get update 2>&1) || rc=$?
    if [[ $rc -eq 0 ]] && ! compgen -G "$R/var/lib/apt/lists/*Packages" >/dev/null; then
        out+=$'\n(no Packages list was fetched)'
        rc=1
    fi
    if [[ $rc -eq 0 ]] && grep -q '^W: ' <<<"$out"; then
        out+=$'\n(apt warned)'
        rc=1
    fi
    return $rc
}
expect_ok() { # NAME ARGS...: apt_update must succeed
    if apt_update "$@"; then pass "$1"; else fail "$1"; echo "$out" | sed 's/^/     | /'; fi
}
expect_refused() { # NAME PATTERN ARGS...: must fail, apt's error matching PATTERN
    local name=$1 pattern=$2
    shift 2
    if apt_update "$name" "$@"; then
        fail "$name: accepted"
    elif grep -Eq "$pattern" <<<"$out"; then
        [[ -n ${VERBOSE:-} ]] && echo "$out" | sed 's/^/     | /'
        pass "$name: refused ($(grep -Eo "$pattern" <<<"$out" | head -1))"
    else
        fail "$name: refused, but without /$pattern/"
        echo "$out" | sed 's/^/     | /'
    fi
}

GPGV=$BIN/sphincs-gpgv

# Each set: InRelease with the armored certificate; Release.gpg alone
# (no InRelease in the repository) with the binary one.
for set in 128s 128f 256s; do
    make_repo "$W/repo-$set"
    sign_ours "$W/repo-$set" "repo-$set@example.org"
    expect_ok "SLH-DSA-SHAKE-$set InRelease, Signed-By .asc" "$W/repo-$set" "$W/$set.asc" "$GPGV"
    cp -r "$W/repo-$set" "$W/repo-$set-detached"
    rm "$W/repo-$set-detached/dists/stable/InRelease"
    expect_ok "SLH-DSA-SHAKE-$set Release.gpg, Signed-By .gpg" "$W/repo-$set-detached" "$W/$set.gpg" "$GPGV"
done

# deb822 with the certificate inline in Signed-By.
expect_ok "SLH-DSA-SHAKE-128f InRelease, Signed-By inline (deb822)" "$W/repo-128f" "inline:$W/128f.asc" "$GPGV"

# A changed InRelease.
cp -r "$W/repo-128f" "$W/repo-changed"
sed -i 's/^Suite: stable$/Suite: stab1e/' "$W/repo-changed/dists/stable/InRelease"
expect_refused "changed InRelease" 'BADSIG [0-9A-F]+' "$W/repo-changed" "$W/128f.asc" "$GPGV"
# Signed by 128s, Signed-By names only 128f's certificate.
make_repo "$W/repo-other"
sign_ours "$W/repo-other" repo-128s@example.org
expect_refused "signature by a key not in Signed-By" 'NO_PUBKEY [0-9A-F]+' "$W/repo-other" "$W/128f.asc" "$GPGV"
# An expired key: it signed while it was valid (60 days ago).
make_repo "$W/repo-expired"
faketime -f "-59d" sphincs-gpg --homedir "$H" --batch --yes -u "$W/old.key" --clearsign \
    -o "$W/repo-expired/dists/stable/InRelease" "$W/repo-expired/dists/stable/Release"
expect_refused "expired key" 'EXPKEYSIG [0-9A-F]+' "$W/repo-expired" "$W/old.asc" "$GPGV"
# A revoked key (compromised: a hard revocation), the revoked certificate
# in Signed-By.
make_repo "$W/repo-revoked"
sign_ours "$W/repo-revoked" repo-256s@example.org
"$SPHINCS" key revoke --reason compromised -o "$W/256s-revoked.asc" "$W/256s.key" >/dev/null
expect_refused "revoked key" 'REVKEYSIG [0-9A-F]+' "$W/repo-revoked" "$W/256s-revoked.asc" "$GPGV"
# SHA2-224 and SHA-1 (fixtures: tests/interop/apt/weak-hash, made by
# crates/sphincs/tests/weak_hash.rs).
for hash in sha224 sha1; do
    r=$W/repo-$hash
    mkdir -p "$r/dists/stable/main/binary-amd64"
    cp "$FIXTURES/weak-hash/Packages" "$r/dists/stable/main/binary-amd64/Packages"
    cp "$FIXTURES/weak-hash/InRelease-$hash" "$r/dists/stable/InRelease"
    expect_refused "$hash signature" 'BADSIG [0-9A-F]+' "$r" "$FIXTURES/weak-hash/cert.asc" "$GPGV"
done

# GnuPG's Ed25519 repository, through sphincs-gpgv (handed to Debian's gpgv).
make_repo "$W/repo-classic"
sign_classic "$W/repo-classic"
expect_ok "Ed25519 (GnuPG) InRelease through sphincs-gpgv" "$W/repo-classic" "$W/classic.gpg" "$GPGV"
cp -r "$W/repo-classic" "$W/repo-classic-changed"
sed -i 's/^Suite: stable$/Suite: stab1e/' "$W/repo-classic-changed/dists/stable/InRelease"
expect_refused "changed Ed25519 InRelease through sphincs-gpgv" 'BADSIG [0-9A-F]+' \
    "$W/repo-classic-changed" "$W/classic.gpg" "$GPGV"

# Dual: GnuPG signs, then `sphincs cosign` adds SLH-DSA-SHAKE-128f.
make_repo "$W/repo-dual"
sign_classic "$W/repo-dual"
d=$W/repo-dual/dists/stable
"$SPHINCS" -q cosign -k "$W/128f.key" "$d/InRelease"
"$SPHINCS" -q cosign -k "$W/128f.key" -s "$d/Release.gpg" "$d/Release"
expect_ok "dual InRelease, Debian's gpgv, Signed-By Ed25519" "$W/repo-dual" "$W/classic.gpg" ""
expect_ok "dual InRelease, sphincs-gpgv, Signed-By SLH-DSA" "$W/repo-dual" "$W/128f.asc" "$GPGV"
expect_ok "dual InRelease, sphincs-gpgv, Signed-By Ed25519" "$W/repo-dual" "$W/classic.gpg" "$GPGV"
expect_ok "dual InRelease, sphincs-gpgv, Signed-By both" "$W/repo-dual" "$W/both.gpg" "$GPGV"
cp -r "$W/repo-dual" "$W/repo-dual-detached"
rm "$W/repo-dual-detached/dists/stable/InRelease"
expect_ok "dual Release.gpg, Debian's gpgv, Signed-By Ed25519" "$W/repo-dual-detached" "$W/classic.gpg" ""
expect_ok "dual Release.gpg, sphincs-gpgv, Signed-By SLH-DSA" "$W/repo-dual-detached" "$W/128f.gpg" "$GPGV"
# Every signature is reported: both GOODSIGs with the keyring of both.
n=$(sphincs-gpgv --keyring "$W/both.gpg" --status-fd 1 "$d/InRelease" 2>/dev/null | grep -c '^\[GNUPG:\] GOODSIG' || true)
if [[ $n -eq 2 ]]; then pass "dual InRelease: two GOODSIG lines"; else fail "dual InRelease: $n GOODSIG lines"; fi

# --- debsign and dpkg-source ------------------------------------------------------------
# A native source package, signed by debsign with sphincs-gpg as its
# signing program (-p), then unpacked by dpkg-source with
# --require-valid-signature, whose Dpkg::OpenPGP runs the first `gpgv` on
# PATH with ~/.gnupg/trustedkeys.gpg: here a link to sphincs.
src=$W/src
mkdir -p "$src/hello-slhdsa-1.0/debian/source"
(
    cd "$src/hello-slhdsa-1.0"
    echo '3.0 (native)' >debian/source/format
    printf 'Source: hello-slhdsa\nMaintainer: Repo 128f <repo-128f@example.org>\nSection: misc\nPriority: optional\nStandards-Version: 4.6.2\n\nPackage: hello-slhdsa\nArchitecture: all\nDescription: test\n test\n' >debian/control
    printf 'hello-slhdsa (1.0) unstable; urgency=low\n\n  * Test.\n\n -- Repo 128f <repo-128f@example.org>  %s\n' "$(date -R)" >debian/changelog
    echo hello >README
)
(cd "$src" && dpkg-source -b hello-slhdsa-1.0 >/dev/null 2>&1)
dsc=$src/hello-slhdsa_1.0.dsc
if GNUPGHOME=$H debsign --no-conf -p sphincs-gpg -k repo-128f@example.org "$dsc" >"$W/debsign.log" 2>&1 &&
    head -1 "$dsc" | grep -q 'BEGIN PGP SIGNED MESSAGE'; then
    pass "debsign -p sphincs-gpg signed the .dsc"
else
    fail "debsign -p sphincs-gpg"
    sed 's/^/     | /' "$W/debsign.log"
fi
home=$W/home
mkdir -p "$home/.gnupg" "$W/shim"
cp "$W/128f.gpg" "$home/.gnupg/trustedkeys.gpg"
ln -s "$SPHINCS" "$W/shim/gpgv"
ln -s "$SPHINCS" "$W/shim/gpg"
unpack() { # DSC DIR
    (cd "$src" && HOME=$home PATH="$W/shim:$PATH" dpkg-source -x --require-valid-signature "$1" "$2") >"$W/dpkg.log" 2>&1
}
if unpack "$dsc" "$W/out-good" && [[ -f $W/out-good/README ]]; then
    pass "dpkg-source -x --require-valid-signature (gpgv: sphincs)"
else
    fail "dpkg-source -x --require-valid-signature"
    sed 's/^/     | /' "$W/dpkg.log"
fi
sed 's/^Maintainer: Repo 128f/Maintainer: Mallory/' "$dsc" >"$src/changed.dsc"
if unpack "$src/changed.dsc" "$W/out-bad"; then
    fail "dpkg-source accepted a changed .dsc"
elif grep -q 'cannot verify inline signature\|signature' "$W/dpkg.log"; then
    pass "dpkg-source refused a changed .dsc ($(grep -o 'cannot verify inline signature[^:]*' "$W/dpkg.log" | head -1))"
else
    fail "dpkg-source refused a changed .dsc, but not for its signature"
    sed 's/^/     | /' "$W/dpkg.log"
fi

# dscverify (devscripts) runs `gpg --status-fd N --batch --no-options
# --no-default-keyring --always-trust --keyring K --verify --output -`
# with the .dsc on standard input, and wants VALIDSIG.
dscverify_ok() {
    (cd "$src" && PATH="$W/shim:$PATH" dscverify --no-conf --no-default-keyrings --keyring "$W/128f.gpg" \
        hello-slhdsa_1.0.dsc) >"$W/dscverify.log" 2>&1
}
if dscverify_ok; then
    pass "dscverify (gpg: sphincs) accepts the .dsc"
else
    fail "dscverify"
    sed 's/^/     | /' "$W/dscverify.log"
fi
cp "$src/changed.dsc" "$src/hello-slhdsa_1.0.dsc"
if dscverify_ok; then fail "dscverify accepted a changed .dsc"; else pass "dscverify refuses a changed .dsc"; fi

if [[ $fails -ne 0 ]]; then
    echo "apt.sh: $fails failed"
    exit 1
fi
echo "apt.sh: all passed"
