# Sourced by the interop scripts: the repository root, the `sphincs` binary
# under test (the script's first argument, else target/release/sphincs) as
# an absolute path, and `use_openssl35`, which sets OPENSSL to OpenSSL 3.5
# (set up by .ci/openssl35.sh) unless the caller chose one; `gpg_scratch`
# for the gpg and gpgv suites.
# Exits 2 (a set-up error) when something is missing.
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sphincs="${1:-$repo_root/target/release/sphincs}"
if [[ ! -x "$sphincs" ]]; then
    echo "sphincs binary not found: $sphincs (cargo build --release -p sphincs-cli)" >&2
    exit 2
fi
sphincs="$(cd "$(dirname "$sphincs")" && pwd)/$(basename "$sphincs")"

use_openssl35() {
    if [[ -z "${OPENSSL:-}" ]]; then
        OPENSSL="$("$repo_root/.ci/openssl35.sh" --print)" || { echo "OpenSSL 3.5 setup failed" >&2; exit 2; }
    fi
    [[ -x "$OPENSSL" ]] || { echo "openssl not found: $OPENSSL" >&2; exit 2; }
}

# gpg_scratch: W, a scratch directory removed at exit (kept with KEEP=1),
# and BIN in it, first on PATH, with `sphincs-gpgv` and `sphincs-gpg`
# linked to the binary under test (docs/gpg.md: the mode comes from the
# name).
gpg_scratch() {
    W=$(mktemp -d)
    trap '[[ -n ${KEEP:-} ]] || rm -rf "$W"' EXIT
    BIN=$W/bin
    mkdir -p "$BIN"
    ln -s "$sphincs" "$BIN/sphincs-gpgv"
    ln -s "$sphincs" "$BIN/sphincs-gpg"
    export PATH="$BIN:$PATH"
}
