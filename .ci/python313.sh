#!/usr/bin/env bash
# Fetch Python 3.13 from Debian 13 "trixie" into a private directory, for
# clients that need a newer Python than Debian 12's 3.11 (pkcs11-check needs
# >= 3.12: crates/pkcs11/tests/pkcs11_check.sh).
#
# Usage: .ci/python313.sh            # installs into the CI cache (.ci/cache.sh)
#        .ci/python313.sh --print    # the same, then prints the python's path
#        .ci/python313.sh --venv DIR # the same, then makes a virtualenv in DIR
#                                    # (with pip) unless DIR/bin/pip works
#        PYTHON313_DIR=/some/dir .ci/python313.sh
#
# Afterwards "$PYTHON313_DIR/root/usr/bin/python3.13" is trixie's
# interpreter, runnable like any host program (it finds its standard library
# from its own place: call it by that path, not through a symlink). Its
# `-m venv` alone would bootstrap pip from the host's /usr/share/python-wheels
# (Debian 12's pip 23, which fails on 3.13): --venv makes the virtualenv
# without pip, then installs trixie's pip wheel into it.
#
# How it works (the private APT configuration is .ci/trixie-debs.sh's,
# shared with .ci/openssl35.sh):
#   * `apt-get download` from the trixie suites only (no system config,
#     sources, state or cache read or written) of python3.13-minimal, its
#     standard library, trixie's pip wheel (python3-pip-whl), the trixie runtime
#     libraries they load (libc6 included) and patchelf;
#   * `dpkg-deb -x` into $PYTHON313_DIR/root;
#   * patchelf (trixie's, run through trixie's loader) sets the interpreter's
#     PT_INTERP to trixie's dynamic loader and its DT_RPATH to the unpacked
#     library directories (with --page-size 65536: patchelf 0.18's default
#     layout for both changes at once gave a binary that segfaults at start,
#     either change alone did not). DT_RPATH (not RUNPATH) of the executable also
#     serves the libraries its extension modules load, so `python3.13` runs
#     directly, and so do the copies of itself that a virtualenv links to or
#     that a program starts as sys.executable, without LD_LIBRARY_PATH (which
#     would leak into the host programs it starts).
# It is idempotent: when the interpreter already works, nothing is downloaded.
# Set PYTHON313_FORCE=1 to redo everything.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo_root/.ci/cache.sh"
source "$repo_root/.ci/trixie-debs.sh"
print=0
venv=""
if [[ "${1:-}" == --print ]]; then
    print=1
    # Everything else this script says goes to stderr: stdout is the path.
    exec 3>&1 1>&2
elif [[ "${1:-}" == --venv ]]; then
    venv="${2:?--venv needs a directory}"
fi
dir="${PYTHON313_DIR:-$(ci_cache_entry python313 "$repo_root/.ci/python313.sh" "$repo_root/.ci/trixie-debs.sh")}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
python="$dir/root/usr/bin/python3.13"
pip_wheel() { compgen -G "$dir/root/usr/share/python-wheels/pip-*.whl" | head -n 1; }
# What follows a working install: print the path, or make the virtualenv.
done_ok() {
    if [[ $print == 1 ]]; then
        echo "$python" >&3
    elif [[ -n "$venv" ]] && ! "$venv/bin/pip" --version >/dev/null 2>&1; then
        local wheel
        wheel="$(pip_wheel)"
        rm -rf "$venv"
        "$python" -m venv --without-pip "$venv"
        "$venv/bin/python" "$wheel/pip" install -q --no-index --disable-pip-version-check "$wheel"
        "$venv/bin/pip" --version
    fi
}
log() { echo "python313: $*" >&2; }

# The interpreter, its standard library, the pip wheel, and the trixie
# libraries that it and its extension modules (ssl, ctypes, sqlite3, lzma,
# bz2, decimal, readline, curses, dbm, uuid) link to; patchelf to set it up.
packages=(python3.13-minimal libpython3.13-minimal libpython3.13-stdlib
    python3-pip-whl media-types tzdata
    libc6 libexpat1 zlib1g libssl3t64 libffi8 libbz2-1.0 liblzma5 libzstd1
    libsqlite3-0 libmpdec4 libncursesw6 libtinfo6 libreadline8t64 libuuid1
    libcrypt1 libdb5.3t64 libnsl2 libtirpc3t64 libgssapi-krb5-2 libkrb5-3
    libk5crypto3 libkrb5support0 libcom-err2 libkeyutils1
    patchelf libstdc++6 libgcc-s1)

python_ok() {
    [[ -x "$python" && -n "$(pip_wheel)" ]] || return 1
    # ssl, ctypes, sqlite3, venv: what pip and the clients need.
    "$python" -c 'import sys, ssl, ctypes, sqlite3, lzma, bz2, decimal, venv
assert sys.version_info[:2] == (3, 13), sys.version' >/dev/null 2>&1
}

if [[ "${PYTHON313_FORCE:-0}" != 1 ]] && python_ok; then
    "$python" --version
    done_ok
    exit 0
fi

mirror="${PYTHON313_MIRROR:-$(system_uri '^[a-z]+$' | head -n 1)}"
security_mirror="${PYTHON313_SECURITY_MIRROR:-$(system_uri '^[a-z]+-security$' | head -n 1)}"
if [[ -z "$mirror" || -z "$security_mirror" ]]; then
    log "no Debian mirror found in this machine's apt sources; set PYTHON313_MIRROR and PYTHON313_SECURITY_MIRROR"
    exit 2
fi

trixie_unpack "$dir" "$mirror" "$security_mirror" "${packages[@]}"

libdirs=()
for l in "$root/usr/lib/x86_64-linux-gnu" "$root/lib/x86_64-linux-gnu"; do
    [[ -d "$l" && ! -L "$l" ]] && libdirs+=("$l")
done
loader=""
for l in "$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" "$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" "$root/lib64/ld-linux-x86-64.so.2"; do
    if [[ -e "$l" ]]; then loader="$(realpath "$l")"; break; fi
done
[[ -n "$loader" && ${#libdirs[@]} -gt 0 ]] || { log "trixie dynamic loader not found in $root"; exit 2; }
libpath="$(IFS=:; echo "${libdirs[*]}")"

# The interpreter's own file, patched (its package's copy stays as unpacked
# under root/usr/bin, which is where Python finds its standard library from).
bin="$root/usr/bin/python3.13"
[[ -x "$bin" ]] || { log "no python3.13 in $root/usr/bin"; exit 2; }
"$loader" --library-path "$libpath" "$root/usr/bin/patchelf" \
    --page-size 65536 --set-interpreter "$loader" --force-rpath --set-rpath "$libpath" "$bin"

end=$(date +%s)
log "setup took $((end - start)) s; packages:"
sed 's/^/  /' "$dir/versions.txt" >&2
if ! python_ok; then
    log "python3.13 does not work:"
    "$python" -c 'import ssl, ctypes, sqlite3, lzma, bz2, decimal, venv' || true
    exit 2
fi
"$python" --version
done_ok
