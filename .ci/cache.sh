# The cache for pure set-up (the Debian sid chroot, OpenSSL 3.5), outside the
# clone so that later runs on the same machine reuse it (sourced, not run).
# Each entry is named by a hash of the recipe that makes it: a changed recipe
# makes a new entry (and the old ones are removed) instead of reusing a stale
# one; an absent entry is simply built, so a fresh machine still passes.
#   SPHINCS_CI_CACHE   the directory (default /var/cache/sphincs-ci, or
#                      ~/.cache/sphincs-ci where /var/cache is not writable)
if [[ -z "${SPHINCS_CI_CACHE:-}" ]]; then
    if [[ -w /var/cache ]]; then
        SPHINCS_CI_CACHE=/var/cache/sphincs-ci
    else
        SPHINCS_CI_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/sphincs-ci"
    fi
fi
export SPHINCS_CI_CACHE

# ci_cache_entry NAME RECIPE-FILE...: prints $SPHINCS_CI_CACHE/NAME-<16 hex
# digits of the recipes' SHA-256>.
ci_cache_entry() {
    local name=$1 key
    shift
    key="$(cat "$@" | sha256sum | cut -c1-16)"
    echo "$SPHINCS_CI_CACHE/$name-$key"
}
