#!/usr/bin/env bash
# Fetches Debian's pkcs11-provider (OpenSSL's provider for keys in PKCS#11
# tokens; SLH-DSA since its 1.3.0, in Debian unstable) into the CI cache,
# and prints `provider_dir=…` (the directory holding pkcs11.so, for
# OpenSSL's -provider-path) and `provider_version=…` for `eval`.
#
# The package is found and checked as apt checks it, without apt: the
# suite's InRelease is verified with this host's Debian archive keyring
# (gpgv), the Packages index against InRelease's SHA-256, and the .deb
# against the index's. Nothing is installed; the .deb is unpacked into the
# cache entry. Usage: fetch.sh   (PKCS11_PROVIDER_SUITE, default sid)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
source "$repo_root/.ci/cache.sh"
suite="${PKCS11_PROVIDER_SUITE:-sid}"
log() { echo "pkcs11-provider fetch: $*" >&2; }
dir="$(ci_cache_entry "pkcs11-provider-$suite" "${BASH_SOURCE[0]}")"
mkdir -p "$dir"
so="$dir/root/usr/lib/x86_64-linux-gnu/ossl-modules/pkcs11.so"
said() { printf 'provider_dir=%q\nprovider_version=%q\n' "$(dirname "$so")" "$(cat "$dir/version.txt")"; }
if [[ -f "$so" && -f "$dir/version.txt" ]]; then
    said
    exit 0
fi

# The Debian mirror of this machine's apt sources (the one serving a plain
# suite name), as .ci/trixie-debs.sh finds it.
source "$repo_root/.ci/trixie-debs.sh"
mirror="$(system_uri '^[a-z]+$' | head -n 1)"
mirror="${PKCS11_PROVIDER_MIRROR:-${mirror:-http://deb.debian.org/debian}}"
mirror="${mirror%/}"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[[ -r "$keyring" ]] || { log "no $keyring (apt-get install debian-archive-keyring)"; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fetch() { curl -fsS --retry 3 -o "$2" "$mirror/$1" || { log "cannot fetch $mirror/$1"; exit 2; }; }

fetch "dists/$suite/InRelease" "$work/InRelease"
gpgv --keyring "$keyring" --output "$work/Release" "$work/InRelease" 2>"$work/gpgv.log" ||
    { cat "$work/gpgv.log" >&2; log "$suite's InRelease is not signed by a key of $keyring"; exit 2; }
index=main/binary-amd64/Packages.xz
want=$(awk -v f="$index" '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 } s && $3 == f { print $1 }' "$work/Release")
[[ -n "$want" ]] || { log "$suite's Release lists no $index"; exit 2; }
fetch "dists/$suite/$index" "$work/Packages.xz"
[[ $(sha256sum <"$work/Packages.xz" | cut -d' ' -f1) == "$want" ]] ||
    { log "$index does not match the signed Release"; exit 2; }
read -r file sum < <(xz -dc "$work/Packages.xz" | awk '
    /^Package: / { p = ($2 == "pkcs11-provider") }
    p && /^Filename: / { f = $2 }
    p && /^SHA256: / { s = $2 }
    /^$/ && p && f != "" { print f, s; exit }')
[[ -n "${file:-}" && -n "${sum:-}" ]] || { log "no pkcs11-provider in $suite"; exit 2; }
fetch "$file" "$work/p.deb"
[[ $(sha256sum <"$work/p.deb" | cut -d' ' -f1) == "$sum" ]] ||
    { log "$file does not match the signed index"; exit 2; }
rm -rf "$dir/root"
dpkg-deb -x "$work/p.deb" "$dir/root"
dpkg-deb --show --showformat='${Package} ${Version}\n' "$work/p.deb" >"$dir/version.txt"
log "$(cat "$dir/version.txt") from $suite"
[[ -f "$so" ]] || { log "the package has no pkcs11.so"; exit 2; }
said
