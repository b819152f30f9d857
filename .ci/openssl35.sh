#!/usr/bin/env bash
# Fetch OpenSSL 3.5 (with SLH-DSA) from Debian 13 "trixie" into a private
# directory and create a wrapper script that runs it on this (Debian 12) host.
#
# Usage: .ci/openssl35.sh            # installs into the CI cache (.ci/cache.sh)
#        .ci/openssl35.sh --print    # the same, then prints the wrapper's path
#        OPENSSL35_DIR=/some/dir .ci/openssl35.sh
#
# Afterwards "$OPENSSL35_DIR/openssl" behaves like the trixie `openssl` binary,
# "$OPENSSL35_DIR/run PROGRAM ARGS..." runs a host program on trixie's C library
# and OpenSSL 3.5 (how a module linked against 3.5, kryoptic, is loaded here),
# and "$OPENSSL35_DIR/root" holds 3.5's headers and pkg-config files
# (libssl-dev) for building such a module (.ci/kryoptic.sh).
# The default directory is outside the clone, in the cache of .ci/cache.sh,
# named by a hash of this script: later runs on the same machine reuse it.
#
# How it works:
#   * a private APT configuration (no system config, sources, state or cache is
#     read or written) with only the trixie suites, signed by the trixie keys from
#     Debian 12's debian-archive-keyring package;
#   * `apt-get download` of openssl, libssl3t64, libssl-dev and the trixie
#     runtime libraries they need (libc6, libzstd1, zlib1g);
#   * `dpkg-deb -x` into $OPENSSL35_DIR/root;
#   * a wrapper that execs trixie's dynamic loader with --library-path pointing at
#     the unpacked libraries, and OPENSSL_CONF / OPENSSL_MODULES pointing at the
#     unpacked tree.
# It is idempotent: when the wrapper already works, nothing is downloaded.
# Set OPENSSL35_FORCE=1 to redo everything.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo_root/.ci/cache.sh"
print=0
if [[ "${1:-}" == --print ]]; then
    print=1
    # Everything else this script says goes to stderr: stdout is the path.
    exec 3>&1 1>&2
fi
dir="${OPENSSL35_DIR:-$(ci_cache_entry openssl35 "$repo_root/.ci/openssl35.sh")}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
wrapper="$dir/openssl"
printed() { [[ $print == 1 ]] && echo "$wrapper" >&3; return 0; }

# The Debian mirrors this machine's own apt configuration uses (deb822 .sources
# or one-line sources.list), reused for the trixie suites: the main archive is
# the URI serving a plain suite name ("bookworm"), the security archive the one
# serving "<suite>-security".
system_uri() { # $1: awk regex a suite name must match
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -r "$f" ]] || continue
        awk -v want="$1" 'tolower($1) == "uris:" { u = $2 }
            tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i ~ want) { print u; exit } }
            /^[[:space:]]*$/ { u = "" }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -r "$f" ]] || continue
        awk -v want="$1" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
            if ($(i + 1) ~ want) print $i }' "$f"
    done
}
mirror="${OPENSSL35_MIRROR:-$(system_uri '^[a-z]+$' | head -n 1)}"
security_mirror="${OPENSSL35_SECURITY_MIRROR:-$(system_uri '^[a-z]+-security$' | head -n 1)}"
if [[ -z "$mirror" || -z "$security_mirror" ]]; then
    log() { echo "openssl35: $*" >&2; }
    log "no Debian mirror found in this machine's apt sources; set OPENSSL35_MIRROR and OPENSSL35_SECURITY_MIRROR"
    exit 2
fi
packages=(openssl libssl3t64 libssl-dev libc6 libzstd1 zlib1g)

log() { echo "openssl35: $*" >&2; }

wrapper_ok() {
    [[ -x "$wrapper" && -x "$dir/run" && -f "$dir/root/usr/include/openssl/opensslv.h" ]] || return 1
    local v
    v="$("$wrapper" version 2>/dev/null)" || return 1
    [[ "$v" == "OpenSSL 3."[5-9]* || "$v" == "OpenSSL "[4-9]* ]] || return 1
    # Whole output first: grep -q would stop early and, under pipefail, the
    # writer's SIGPIPE would fail the check at random.
    grep -qi 'SLH-DSA-SHA2-128f' <<<"$("$wrapper" list -signature-algorithms 2>/dev/null)"
}

if [[ "${OPENSSL35_FORCE:-0}" != 1 ]] && wrapper_ok; then
    "$wrapper" version -a | head -n 2
    printed
    exit 0
fi

command -v apt-get >/dev/null || { log "apt-get not found (Debian host required)"; exit 2; }
command -v dpkg-deb >/dev/null || { log "dpkg-deb not found"; exit 2; }

# Keyrings with the Debian 13 archive keys (Debian 12's debian-archive-keyring
# >= 2023.3+deb12u1 ships them, both merged and as separate files).
keyring=""
for k in /usr/share/keyrings/debian-archive-keyring.gpg \
         /usr/share/keyrings/debian-archive-trixie-automatic.gpg \
         /usr/share/keyrings/debian-archive-trixie-security-automatic.gpg \
         /usr/share/keyrings/debian-archive-trixie-stable.gpg; do
    [[ -r "$k" ]] && keyring="${keyring:+$keyring,}$k"
done
if [[ -z "$keyring" ]]; then
    log "no Debian archive keyring found (apt-get install debian-archive-keyring)"
    exit 2
fi

apt_dir="$dir/apt"
rm -rf "$apt_dir"
mkdir -p "$apt_dir"/{etc/apt.conf.d,etc/preferences.d,etc/sources.list.d,etc/trusted.gpg.d,state/lists/partial,cache/archives/partial}
: >"$apt_dir/state/status"

cat >"$apt_dir/etc/sources.list.d/trixie.sources" <<EOF
Types: deb
URIs: $mirror
Suites: trixie trixie-updates
Components: main
Architectures: amd64
Signed-By: $keyring

Types: deb
URIs: $security_mirror
Suites: trixie-security
Components: main
Architectures: amd64
Signed-By: $keyring
EOF

# APT_CONFIG is read before the configuration parts directory, so pointing
# Dir::Etc::parts / Dir::Etc::main elsewhere keeps the system's apt.conf.d
# (and its hooks, e.g. docker-clean's Post-Invoke) out of the picture.
cat >"$apt_dir/apt.conf" <<EOF
Dir "/";
Dir::Etc "$apt_dir/etc/";
Dir::Etc::main "/dev/null";
Dir::Etc::parts "$apt_dir/etc/apt.conf.d/";
Dir::Etc::sourcelist "/dev/null";
Dir::Etc::sourceparts "$apt_dir/etc/sources.list.d/";
Dir::Etc::preferences "/dev/null";
Dir::Etc::preferencesparts "$apt_dir/etc/preferences.d/";
Dir::Etc::trusted "/dev/null";
Dir::Etc::trustedparts "$apt_dir/etc/trusted.gpg.d/";
Dir::State "$apt_dir/state/";
Dir::State::lists "$apt_dir/state/lists/";
Dir::State::status "$apt_dir/state/status";
Dir::State::extended_states "$apt_dir/state/extended_states";
Dir::Cache "$apt_dir/cache/";
Dir::Cache::archives "$apt_dir/cache/archives/";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Dir::Log "$apt_dir/log/";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
APT::Sandbox::User "root";
APT::Get::List-Cleanup "false";
Acquire::Languages "none";
Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled "false";
Acquire::Retries "3";
Binary::apt::APT::Keep-Downloaded-Packages "true";
EOF

export APT_CONFIG="$apt_dir/apt.conf"
start=$(date +%s)
log "updating private trixie package lists"
if ! apt-get -q update >"$apt_dir/update.log" 2>&1 || grep -q '^[WE]:' "$apt_dir/update.log"; then
    cat "$apt_dir/update.log" >&2
    log "apt-get update failed (NO_PUBKEY: debian-archive-keyring lacks the Debian 13 keys; upgrade it)"
    exit 2
fi

debs="$dir/debs"
rm -rf "$debs"
mkdir -p "$debs"
log "downloading: ${packages[*]}"
(cd "$debs" && apt-get -qq download "${packages[@]}") || exit 2
unset APT_CONFIG
# The package lists (~80 MB unpacked) are not needed any more.
rm -rf "$apt_dir/state/lists"

root="$dir/root"
rm -rf "$root"
mkdir -p "$root"
for d in "$debs"/*.deb; do
    dpkg-deb -x "$d" "$root"
done
# Record what we got.
for d in "$debs"/*.deb; do
    dpkg-deb --show --showformat='${Package} ${Version}\n' "$d"
done >"$dir/versions.txt"

libdir="$root/usr/lib/x86_64-linux-gnu"
loader=""
for l in "$libdir/ld-linux-x86-64.so.2" "$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" "$root/lib64/ld-linux-x86-64.so.2"; do
    if [[ -e "$l" ]]; then loader="$l"; break; fi
done
[[ -n "$loader" ]] || { log "trixie dynamic loader not found in $root"; exit 2; }
libpath="$libdir"
[[ -d "$root/lib/x86_64-linux-gnu" ]] && libpath="$libpath:$root/lib/x86_64-linux-gnu"
# libcrypto's built-in MODULESDIR is /usr/lib/x86_64-linux-gnu/ossl-modules,
# which on the host holds OpenSSL 3.0's providers: always point elsewhere.
modules="$libdir/ossl-modules"
mkdir -p "$modules"
# usr/lib/ssl/openssl.cnf is an absolute symlink to the host's /etc/ssl.
conf=""
for c in "$root/etc/ssl/openssl.cnf" "$root/usr/lib/ssl/openssl.cnf"; do
    if [[ -f "$c" && ! -L "$c" ]]; then conf="$c"; break; fi
done

{
    echo '#!/bin/sh'
    echo '# Generated by .ci/openssl35.sh: runs Debian 13 (trixie) OpenSSL through its own loader.'
    echo "OPENSSL_MODULES='$modules'; export OPENSSL_MODULES"
    # A caller's own OPENSSL_CONF is kept, as the real openssl keeps it (the
    # provider suite routes SLH-DSA to ours through an openssl.cnf); else
    # trixie's own configuration, never the host's 3.0 one.
    if [[ -n "$conf" ]]; then
        echo ": \"\${OPENSSL_CONF:=$conf}\"; export OPENSSL_CONF"
    else
        echo ": \"\${OPENSSL_CONF:=/dev/null}\"; export OPENSSL_CONF"
    fi
    echo "exec '$loader' --library-path '$libpath' '$root/usr/bin/openssl' \"\$@\""
} >"$wrapper.tmp"
chmod +x "$wrapper.tmp"
mv "$wrapper.tmp" "$wrapper"
{
    echo '#!/bin/sh'
    echo '# Generated by .ci/openssl35.sh: runs a host program on Debian 13 (trixie) libc and OpenSSL 3.5.'
    echo "OPENSSL_MODULES='$modules'; export OPENSSL_MODULES"
    echo ": \"\${OPENSSL_CONF:=${conf:-/dev/null}}\"; export OPENSSL_CONF"
    echo 'prog="$1"; shift'
    echo 'case "$prog" in */*) ;; *) prog="$(command -v "$prog")" || exit 127 ;; esac'
    echo "exec '$loader' --library-path '$libpath' \"\$prog\" \"\$@\""
} >"$dir/run.tmp"
chmod +x "$dir/run.tmp"
mv "$dir/run.tmp" "$dir/run"

end=$(date +%s)
log "setup took $((end - start)) s; packages:"
sed 's/^/  /' "$dir/versions.txt" >&2
if ! wrapper_ok; then
    log "wrapper does not work:"
    "$wrapper" version || true
    exit 2
fi
"$wrapper" version -a | head -n 2
printed
