# Sourced by .ci/openssl35.sh and .ci/python313.sh: Debian 13 ("trixie")
# packages fetched and unpacked into a private directory on this Debian 12
# host, nothing installed.
#   system_uri REGEX     the mirror this machine's apt sources give for a
#                        suite matching REGEX
#   trixie_unpack DIR MIRROR SECURITY_MIRROR PACKAGE...
#                        a private APT configuration under DIR/apt (no
#                        system config, sources, state or cache is read or
#                        written) with only the trixie suites, signed by the
#                        trixie keys from Debian 12's debian-archive-keyring;
#                        `apt-get download` of the packages into DIR/debs,
#                        `dpkg-deb -x` of each into DIR/root, their names and
#                        versions in DIR/versions.txt. Sets `start` (when it
#                        began, for the caller's timing). Needs `log`.

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

trixie_unpack() {
    local dir=$1 mirror=$2 security_mirror=$3
    shift 3
    local packages=("$@")
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
}
