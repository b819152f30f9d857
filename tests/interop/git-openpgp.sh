#!/usr/bin/env bash
# `sphincs` as git's OpenPGP signing program (gpg.format=openpgp, git's
# default), driven by the real git in a throw-away HOME, with SLH-DSA
# OpenPGP keys made by `sphincs sop generate-key`; one commit's signature is
# also checked by an independent implementation (go-crypto's go-peer) over
# the payload git signed.
#
# Usage: tests/interop/git-openpgp.sh [SPHINCS_BIN]
# Environment: PROFILE (default slh-dsa-shake-128f), KEEP=1.
#
# What is checked:
#   * `sphincs git setup --openpgp --key KEY --trust CERT` writes gpg.format,
#     gpg.openpgp.program, user.signingkey and sphincs.openpgp*; re-running
#     it with another --trust adds, keeping the first;
#   * commit -S, tag -s, verify-commit, verify-tag, %G? %GF %GP %GK %GS %GT
#     and log --show-signature (user ID and fingerprint) for: the own key
#     (G, TRUST_ULTIMATE), a trusted certificate (G, TRUST_FULLY), a known
#     but untrusted one (U), an unknown signer (E, ERRSIG), a commit
#     rewritten under its old signature (B, BADSIG);
#   * merge --verify-signatures and gpg.minTrustLevel;
#   * a protected key unlocked once into `sphincs agent`, three commits;
#   * a protected key with SPHINCS_PASSPHRASE_FILE; a wrong or missing
#     passphrase fails the commit and HEAD does not move;
#   * rotation: `git setup --openpgp --key NEW` keeps the previous key
#     trusted (its commits stay G, TRUST_FULLY) and says so; `git trust
#     list|add|remove` without --openpgp; a key that has expired since it
#     signed shows Y (EXPKEYSIG), as gpg judges at this machine's clock;
#   * a SHA-256 repository; push --signed to a bare repository (the hook
#     sees GIT_PUSH_CERT_STATUS=G); a verify-only clone (setup --openpgp
#     --trust, no key);
#   * go-peer verifies the signature of a commit over its payload.
# Ends with "N passed, M failed".
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v git >/dev/null || { echo "git not found" >&2; exit 2; }
profile="${PROFILE:-slh-dsa-shake-128f}"
gopeer="$(bash "$repo_root/tests/interop/openpgp/build-go-peer.sh")" || { echo "go-peer build failed" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/sphincs-git-openpgp.XXXXXX")"
if [[ "${KEEP:-0}" == 1 ]]; then echo "scratch directory: $work"; else trap 'rm -rf "$work"' EXIT; fi
cd "$work" || exit 2
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" GIT_CONFIG_NOSYSTEM=1
unset GIT_DIR GIT_WORK_TREE GIT_CONFIG_GLOBAL GIT_CONFIG_PARAMETERS SPHINCS_PASSPHRASE_FILE SPHINCS_AGENT
# The suite's own agent socket: a user's running agent is never reached.
export SPHINCS_AGENT_SOCK="$work/agent/socket"
export GIT_AUTHOR_NAME="Alice" GIT_AUTHOR_EMAIL="alice@example.org"
export GIT_COMMITTER_NAME="Alice" GIT_COMMITTER_EMAIL="alice@example.org"
mkdir -p "$HOME"
git config --global init.defaultBranch main
git config --global user.name Alice
git config --global user.email alice@example.org

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
check() { local what="$1"; shift; if "$@" >"$work/out.log" 2>"$work/err.log"; then ok; else bad "$what (exit $?): $(head -c 600 "$work/err.log")"; fi; }
refuse() { local what="$1"; shift; if "$@" >"$work/out.log" 2>"$work/err.log"; then bad "$what (accepted)"; else ok; fi; }
same() { if [[ "$2" == "$3" ]]; then ok; else bad "$1: got \"$2\", want \"$3\""; fi; }
has() { if grep -Eq -- "$3" <<<"$2"; then ok; else bad "$1: no line matching /$3/ in: $(head -c 600 <<<"$2")"; fi; }
raw() { git "$@" --raw 2>&1 | grep '^\[GNUPG:\]' || true; }
sig_of() { git log -1 --format='%G?' "$1"; }

SOP() { "$sphincs" sop "$@"; }
keys() {
    for who in alice bob mallory eve carol frank; do
        SOP generate-key --profile="$profile" "${who^} <$who@example.org>" >"$who.key" &&
            SOP extract-cert <"$who.key" >"$who.cert" || return 1
    done
    printf 'correct horse\n' >pass.txt && printf 'wrong horse\n' >wrong.txt &&
        SOP generate-key --profile="$profile" --with-key-password=pass.txt "Dave <dave@example.org>" >dave.key &&
        SOP extract-cert <dave.key >dave.cert
}
keys >keys.log 2>&1 || { echo "key setup failed: $(cat keys.log)" >&2; exit 2; }
case $profile in
*128s) pk=32 hash=8 ;; *128f) pk=33 hash=8 ;; *256s) pk=34 hash=10 ;;
esac

# --- the signer's repository ---
git init -q repo && cd repo || exit 2
check "git setup --openpgp" "$sphincs" git setup --openpgp --key ../alice.key --trust ../bob.cert
same "gpg.format" "$(git config gpg.format)" openpgp
has "gpg.openpgp.program" "$(git config gpg.openpgp.program)" "sphincs$"
alice_fpr="$(git config user.signingkey)"
same "user.signingkey is a v6 fingerprint" "${#alice_fpr}" 64
echo one >f && git add f
check "commit -S" git commit -q -S -m one
same "%G? own key" "$(sig_of HEAD)" G
same "%GF" "$(git log -1 --format=%GF)" "$alice_fpr"
same "%GP" "$(git log -1 --format=%GP)" "$alice_fpr"
same "%GK" "$(git log -1 --format=%GK)" "$alice_fpr"
same "%GS" "$(git log -1 --format=%GS)" "Alice <alice@example.org>"
same "%GT" "$(git log -1 --format=%GT)" ultimate
check "verify-commit" git verify-commit HEAD
st="$(raw verify-commit HEAD)"
has "GOODSIG" "$st" "^\[GNUPG:\] GOODSIG $alice_fpr Alice <alice@example.org>$"
has "VALIDSIG" "$st" "^\[GNUPG:\] VALIDSIG $alice_fpr [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]+ 0 6 0 $pk $hash 00 $alice_fpr$"
c1="$(git rev-parse HEAD)"
has "TRUST_ULTIMATE" "$st" "TRUST_ULTIMATE"
shown="$(git log -1 --show-signature 2>&1)"
has "show-signature: user ID" "$shown" 'Good signature from "Alice <alice@example.org>"'
has "show-signature: fingerprint" "$shown" "$alice_fpr"
check "tag -s" git tag -s -m v1 v1
check "verify-tag" git verify-tag v1
has "tag GOODSIG" "$(raw verify-tag v1)" "GOODSIG $alice_fpr"

# An independent implementation checks the commit's signature over git's payload.
git cat-file commit HEAD | awk '/^gpgsig /{s=1; sub(/^gpgsig /,""); print > "../sig.asc"; next} s && /^ /{sub(/^ /,""); print > "../sig.asc"; next} {s=0; print}' >../payload
check "go-peer verifies the commit's signature" "$gopeer" verify ../sig.asc ../alice.cert <../payload
printf 'x' >>../payload
refuse "go-peer refuses it over another payload" "$gopeer" verify ../sig.asc ../alice.cert <../payload

# A commit rewritten under its old signature: B.
obj="$(git cat-file commit HEAD | sed 's/^one$/ONE/' | git hash-object -t commit -w --stdin)"
same "%G? tampered" "$(sig_of "$obj")" B
refuse "verify-commit tampered" git verify-commit "$obj"
has "BADSIG" "$(raw verify-commit "$obj")" "BADSIG"

# Signers from elsewhere: Bob (trusted by --trust), Mallory (known, not
# trusted), Eve (unknown).
cd .. && for who in bob mallory eve; do
    git init -q "r-$who" && (
        cd "r-$who" && git config user.name "${who^}" && git config user.email "$who@example.org" &&
            git config gpg.format openpgp && git config gpg.openpgp.program "$sphincs" &&
            git config sphincs.openpgpKey "$work/$who.key" && git config user.signingkey "$who@example.org" &&
            echo "$who" >"$who.txt" && git add "$who.txt" && GIT_COMMITTER_NAME=${who^} GIT_COMMITTER_EMAIL=$who@example.org git commit -q -S -m "$who"
    ) >/dev/null 2>&1 || bad "commit as $who"
done
cd repo
git config sphincs.openpgpCerts "$work/mallory.cert"
for who in bob mallory eve; do git fetch -q "../r-$who" "main:$who" 2>/dev/null || bad "fetch $who"; done
same "%G? trusted Bob" "$(sig_of bob)" G
same "%GT trusted Bob" "$(git log -1 --format=%GT bob)" fully
same "%G? untrusted Mallory" "$(sig_of mallory)" U
same "%G? unknown Eve" "$(sig_of eve)" E
# (GnuPG 2.2 ends ERRSIG with the issuer's fingerprint, then writes NO_PUBKEY.)
has "ERRSIG for Eve" "$(raw verify-commit eve)" "ERRSIG .* 9 [0-9A-F]{64}$"
has "NO_PUBKEY for Eve" "$(raw verify-commit eve)" "NO_PUBKEY [0-9A-F]{64}$"
check "merge --verify-signatures (trusted)" git merge -q --no-edit --allow-unrelated-histories --verify-signatures bob
refuse "merge --verify-signatures (untrusted)" git merge -q --no-edit --allow-unrelated-histories --verify-signatures mallory
git config gpg.minTrustLevel ultimate
refuse "minTrustLevel=ultimate: verify-commit Bob" git verify-commit bob
check "minTrustLevel=ultimate: own commit" git verify-commit "$c1"
git config gpg.minTrustLevel fully
check "minTrustLevel=fully: Bob" git verify-commit bob
git config --unset gpg.minTrustLevel

# Re-running setup with another --trust adds to the trusted, not replaces.
check "setup again" "$sphincs" git setup --openpgp --key ../alice.key --trust ../mallory.cert
same "%G? Bob still trusted" "$(sig_of bob)" G
same "%G? Mallory now trusted" "$(sig_of mallory)" G
same "two trusted files" "$(git config --get-all sphincs.openpgpTrust | wc -l)" 2

# A protected key.
git config sphincs.openpgpKey "$work/dave.key"
git config user.signingkey "dave@example.org"
head="$(git rev-parse HEAD)"
echo two >f && git add f
refuse "commit with a protected key, no passphrase" git commit -q -S -m two </dev/null
refuse "commit with a wrong passphrase" env SPHINCS_PASSPHRASE_FILE=../wrong.txt git commit -q -S -m two
same "HEAD did not move" "$(git rev-parse HEAD)" "$head"
check "commit with SPHINCS_PASSPHRASE_FILE" env SPHINCS_PASSPHRASE_FILE=../pass.txt git commit -q -S -m two
same "%G? Dave (own key)" "$(sig_of HEAD)" G
# The protected key unlocked once into the agent: three commits, no passphrase.
mkdir -m 700 "$work/agent"
check "agent start" "$sphincs" agent start
check "agent add (OpenPGP secret key)" "$sphincs" --passphrase-file ../pass.txt agent add ../dave.key
base="$(git rev-parse HEAD)"
for i in 1 2 3; do
    echo "a$i" >>f && git add f
    check "commit $i from the agent, no passphrase" setsid -w git commit -q -S -m "agent $i"
done
same "%G? of the agent's commits" "$(git log --format=%G? "$base..HEAD" | tr -d '\n')" GGG
check "agent stop" "$sphincs" agent stop

# Rotation: a new own key; the previous one (Dave's) stays trusted, so
# its commits stay good (now TRUST_FULLY), until it is removed by name.
dave_fpr="$(git log -1 --format=%GF HEAD)"
setup_out="$("$sphincs" git setup --openpgp --key ../carol.key 2>&1)"
has "setup with a new key says the old one stays trusted" "$setup_out" "previous key .* stays trusted"
same "%G? of the old key's commit after rotation" "$(sig_of HEAD)" G
same "%GT of the old key's commit after rotation" "$(git log -1 --format=%GT HEAD)" fully
echo c >>f && git add f && check "commit with the new key" git commit -q -S -m carol
same "%GT of the new key's commit" "$(git log -1 --format=%GT HEAD)" ultimate
# git trust in an OpenPGP repository, without --openpgp.
listed="$("$sphincs" git trust list)"
has "trust list shows the OpenPGP anchors" "$listed" "dave.key \(OpenPGP\)"
has "trust list names Dave" "$listed" "\"Dave <dave@example.org>\" $dave_fpr"
check "trust remove by openpgp4fpr:" "$sphincs" git trust remove "openpgp4fpr:$dave_fpr"
same "%G? of the old key's commit once untrusted" "$(sig_of HEAD~1)" E
# An expired key: good while it lived, Y (EXPKEYSIG) once it has expired,
# as gpg judges at this machine's clock; its certificate trusted by `git
# trust add` (told to be OpenPGP by its content).
exp=$(($(date +%s) + 15))
check "key expire in 15 seconds" "$sphincs" key expire ../frank.key "$(date -u -d "@$exp" +%Y-%m-%dT%H:%M:%SZ)"
SOP extract-cert <../frank.key >../frank.cert
check "git trust add (an OpenPGP certificate, no --openpgp)" "$sphincs" git trust add ../frank.cert
echo f >>f && git add f && check "commit with a key about to expire" git -c sphincs.openpgpKey="$work/frank.key" -c user.signingkey=frank@example.org commit -q -S -m frank
same "%G? while the key lives" "$(sig_of HEAD)" G
while (($(date +%s) <= exp)); do sleep 1; done
same "%G? once the key has expired" "$(sig_of HEAD)" Y
has "EXPKEYSIG once the key has expired" "$(raw verify-commit HEAD)" "EXPKEYSIG"
refuse "verify-commit of an expired key's commit" git verify-commit HEAD
# Back to Dave's key for the sections below.
git config sphincs.openpgpKey "$work/dave.key"
git config user.signingkey "dave@example.org"
git config --add sphincs.openpgpTrust "$work/dave.cert"

# A SHA-256 repository.
cd .. && git init -q --object-format=sha256 r256 && cd r256 || exit 2
check "setup in a SHA-256 repository" "$sphincs" git setup --openpgp --key ../alice.key
echo x >f && git add f && check "commit -S (SHA-256)" git commit -q -S -m x
same "%G? (SHA-256)" "$(sig_of HEAD)" G

# push --signed to a bare repository that checks push certificates.
cd .. && git init -q --bare bare.git && git -C bare.git config receive.certNonceSeed secret
git -C bare.git config gpg.openpgp.program "$sphincs"
git -C bare.git config sphincs.openpgpTrust "$work/dave.cert"
cat >bare.git/hooks/pre-receive <<HOOK
#!/bin/sh
echo "\$GIT_PUSH_CERT_STATUS \$GIT_PUSH_CERT_KEY" > "$work/push-cert"
HOOK
chmod +x bare.git/hooks/pre-receive
cd repo && check "push --signed" env SPHINCS_PASSPHRASE_FILE=../pass.txt git push -q --signed ../bare.git HEAD:refs/heads/main
has "push certificate verified" "$(cat "$work/push-cert" 2>/dev/null)" "^G "

# A verify-only clone: trust Alice, no key.
cd .. && export HOME="$work/home2" XDG_CONFIG_HOME="$work/home2/.config" && mkdir -p "$HOME"
git clone -q repo clone && cd clone || exit 2
check "setup --openpgp --trust (verify only)" "$sphincs" git setup --openpgp --trust ../alice.cert
same "no signing key in a verify-only clone" "$(git config user.signingkey || echo none)" none
same "%G? in the clone" "$(git log -1 --format=%G? "$c1")" G
same "%GT in the clone" "$(git log -1 --format=%GT "$c1")" fully
check "verify-tag in the clone" git verify-tag v1

echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
