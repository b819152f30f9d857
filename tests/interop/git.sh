#!/usr/bin/env bash
# `sphincs` as git's X.509 signing program (gpg.x509.program), driven by the
# real git in a throw-away HOME (GIT_CONFIG_NOSYSTEM=1), and the signatures
# it writes checked independently by OpenSSL >= 3.5's `cms -verify`.
#
# Usage: tests/interop/git.sh [SPHINCS_BIN]
#   SPHINCS_BIN   default target/release/sphincs
# Environment:
#   OPENSSL       openssl >= 3.5 (default: the wrapper .ci/openssl35.sh
#                 makes, set up when missing; exit 2 when it cannot be)
#   SET           parameter set (default SLH-DSA-SHA2-128f)
#   KEEP=1        keep the scratch directory
#
# What is checked:
#   * `sphincs git setup` adds to the trusted certificates (a second CA
#     keeps the first's commits G); `git trust list/add/remove`; a
#     verify-only clone (`git setup --trust CA` alone);
#   * `sphincs git setup` writes gpg.format, gpg.x509.program, user.signingkey
#     and the sphincs.* pairing;
#   * commit -S, tag -s, verify-commit, verify-tag, log --show-signature and
#     %G?/%GS/%GF/%GK/%GT for a signer whose certificate chains to a trusted
#     CA (G, TRUST_FULLY), an untrusted self-signed signer (U,
#     TRUST_UNDEFINED), a commit rewritten with the old signature (B, BADSIG),
#     a certificate expired when it signed (Y, EXPKEYSIG), an unreadable
#     signature (E, ERRSIG);
#   * signatures git's program would not write, made with `sphincs cms sign
#     --signing-time`: a certificate valid only from 2030 with a signing
#     time stated in 2030, and an expired one with a back-dated time (both
#     Y, and merge --verify-signatures refuses); signers whose keyUsage
#     (keyCertSign,cRLSign) or extendedKeyUsage (serverAuth) does not allow
#     signing (U, TRUST_NEVER); sphincs.requireEku by name and by OID;
#   * user.signingkey as fingerprint, key path, e-mail, and unset (git passes
#     the committer's "Name <email>");
#   * merge --verify-signatures accepts the trusted branch, refuses the
#     untrusted one;
#   * a SHA-256 repository (git init --object-format=sha256);
#   * `sphincs agent`: rebase -S over three commits with the key unlocked
#     once; lock, stop, and a key handed to the agent by a commit that asked;
#   * an encrypted key with SPHINCS_PASSPHRASE_FILE; without it, with a wrong
#     passphrase, with a missing key and with a key that is not the
#     certificate's, `git commit -S` fails and HEAD does not move;
#   * gpg's argument forms given to the program directly, and its refusals;
#   * `openssl cms -verify` accepts the signature taken out of a commit over
#     the payload git signed (with -CAfile, and -noverify), and refuses it
#     over another payload.
# Ends with "N passed, M failed"; exits 1 on any failure, 2 on setup errors.
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v git >/dev/null || { echo "git not found" >&2; exit 2; }
use_openssl35
set_="${SET:-SLH-DSA-SHA2-128f}"

work="$(mktemp -d "${TMPDIR:-/tmp}/sphincs-git.XXXXXX")"
if [[ "${KEEP:-0}" == 1 ]]; then echo "scratch directory: $work"; else trap 'rm -rf "$work"' EXIT; fi
cd "$work" || exit 2

# A throw-away user: no system or user configuration leaks in.
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
# check DESCRIPTION CMD...: the command succeeds.
check() {
    local what="$1"; shift
    if "$@" >"$work/out.log" 2>"$work/err.log"; then ok; else bad "$what (exit $?): $(head -c 600 "$work/err.log")"; fi
}
# refuse DESCRIPTION CMD...: the command fails.
refuse() {
    local what="$1"; shift
    if "$@" >"$work/out.log" 2>"$work/err.log"; then bad "$what (accepted)"; else ok; fi
}
# same DESCRIPTION GOT WANT
same() {
    if [[ "$2" == "$3" ]]; then ok; else bad "$1: got \"$2\", want \"$3\""; fi
}
# has DESCRIPTION TEXT PATTERN (extended regex, one line of TEXT)
has() {
    if grep -Eq -- "$3" <<<"$2"; then ok; else bad "$1: no line matching /$3/ in: $(head -c 600 <<<"$2")"; fi
}
hasnt() {
    if grep -Eq -- "$3" <<<"$2"; then bad "$1: a line matches /$3/ in: $(head -c 600 <<<"$2")"; else ok; fi
}
# The status lines git's verify-commit/verify-tag --raw shows (stderr).
raw() { git "$@" --raw 2>&1 | grep '^\[GNUPG:\]' || true; }
sig_of() { git log -1 --format='%G?' "$1"; }

# --- keys and certificates ---
S() { "$sphincs" -q "$@"; }
keys() {
    S keygen -a "$set_" -o ca.key &&
    S cert self-signed -k ca.key --subject "CN=Git test CA,O=sphincs" --ca -o ca.pem &&
    S keygen -a "$set_" -o alice.key &&
    S cert request -k alice.key --subject "CN=Alice,O=sphincs" -o alice.csr &&
    S cert issue --ca-key ca.key --ca-cert ca.pem alice.csr --san email:alice@example.org --eku emailProtection,codeSigning -o alice.pem &&
    S keygen -a "$set_" -o bob.key &&
    S cert self-signed -k bob.key --subject "CN=Bob,O=elsewhere" --san email:bob@example.org -o bob.pem &&
    S keygen -a "$set_" -o carol.key &&
    S cert request -k carol.key --subject "CN=Carol" -o carol.csr &&
    S cert issue --ca-key ca.key --ca-cert ca.pem carol.csr --san email:carol@example.org --not-before 2020-01-01 --not-after 2020-12-31 -o carol.pem &&
    printf 'correct horse\n' >pass.txt && printf 'wrong horse\n' >wrong.txt &&
    S --passphrase-file pass.txt keygen -a "$set_" -o dave.key --encrypt &&
    S --passphrase-file pass.txt cert self-signed -k dave.key --subject "CN=Dave" --san email:dave@example.org -o dave.pem
}
keys >keys.log 2>&1 || { echo "key setup failed: $(cat keys.log)" >&2; exit 2; }
fpr() { "$OPENSSL" x509 -in "$1" -noout -fingerprint -sha256 2>/dev/null | sed 's/.*=//; s/://g'; }
alice_fpr="$(fpr alice.pem)"
[[ ${#alice_fpr} == 64 ]] || alice_fpr="(openssl could not read alice.pem)"

# --- set-up ---
git init -q repo && cd repo || exit 2
check "git setup" "$sphincs" git setup --key ../alice.key --cert ../alice.pem --trust ../ca.pem
same "gpg.format" "$(git config gpg.format)" x509
same "gpg.x509.program" "$(git config gpg.x509.program)" "$sphincs"
same "user.signingkey is the certificate's SHA-256 fingerprint" "$(git config user.signingkey)" "$alice_fpr"
same "sphincs.key" "$(git config sphincs.key)" "$work/alice.key"
same "sphincs.trust" "$(git config --get-all sphincs.trust)" "$work/ca.pem"
refuse "git setup refuses a key that is not the certificate's" "$sphincs" git setup --key ../bob.key --cert ../alice.pem
same "a refused set-up leaves the pairing" "$(git config sphincs.key)" "$work/alice.key"

# --- trusted signer: commit, log, tag ---
echo one >f && git add f
check "commit -S" git commit -q -S -m "first"
has "the commit carries a SIGNED MESSAGE" "$(git cat-file commit HEAD)" '^gpgsig -----BEGIN SIGNED MESSAGE-----$'
check "verify-commit (trusted)" git verify-commit HEAD
st="$(raw verify-commit HEAD)"
same "verify-commit status: NEWSIG first" "$(head -n 1 <<<"$st")" "[GNUPG:] NEWSIG"
has "verify-commit status: GOODSIG" "$st" "^\[GNUPG:\] GOODSIG $alice_fpr CN=Alice,O=sphincs$"
has "verify-commit status: VALIDSIG with the fingerprint" "$st" "^\[GNUPG:\] VALIDSIG $alice_fpr "
has "verify-commit status: TRUST_FULLY" "$st" '^\[GNUPG:\] TRUST_FULLY'
same "%G? trusted" "$(sig_of HEAD)" G
same "%GS" "$(git log -1 --format=%GS)" "CN=Alice,O=sphincs"
same "%GF" "$(git log -1 --format=%GF)" "$alice_fpr"
same "%GK" "$(git log -1 --format=%GK)" "$alice_fpr"
same "%GT" "$(git log -1 --format=%GT)" "fully"
has "log --show-signature" "$(git log -1 --show-signature 2>&1)" 'Good signature from "CN=Alice,O=sphincs"'
check "tag -s" git tag -s -m "release 1" v1
has "the tag carries a SIGNED MESSAGE" "$(git cat-file tag v1)" '^-----BEGIN SIGNED MESSAGE-----$'
check "verify-tag" git verify-tag v1
has "verify-tag status: TRUST_FULLY" "$(raw verify-tag v1)" '^\[GNUPG:\] TRUST_FULLY'
same "git tag -v" "$(git tag -v v1 >/dev/null 2>&1; echo $?)" 0

# user.signingkey forms: key path, e-mail, unset (git passes "Name <email>").
for form in "$work/alice.key" alice@example.org ALICE@EXAMPLE.ORG ""; do
    echo "$form" >>f && git add f
    if [[ -n "$form" ]]; then
        check "commit -S with user.signingkey=$form" git -c user.signingkey="$form" commit -q -S -m "key $form"
    else
        git config --unset user.signingkey
        check "commit -S with user.signingkey unset" git commit -q -S -m "no signingkey"
        git config user.signingkey "$alice_fpr"
    fi
    same "%G? after user.signingkey=$form" "$(sig_of HEAD)" G
done
echo x >>f && git add f
refuse "commit -S with an e-mail the certificate does not name" git -c user.signingkey=mallory@example.org commit -q -S -m "mallory"

# --- untrusted signer, merge --verify-signatures ---
main_head="$(git rev-parse HEAD)"
git checkout -q -b trusted && echo t >t && git add t
check "commit -S on the trusted branch" git commit -q -S -m "trusted change"
git checkout -q main && git checkout -q -b untrusted && echo u >u && git add u
check "commit -S by an untrusted signer" git -c sphincs.key="$work/bob.key" -c sphincs.cert="$work/bob.pem" -c user.signingkey=bob@example.org commit -q -S -m "untrusted change"
same "%G? untrusted" "$(sig_of HEAD)" U
check "verify-commit exits 0 for a good untrusted signature (git's default gpg.minTrustLevel)" git verify-commit HEAD
refuse "verify-commit with gpg.minTrustLevel=fully refuses it" git -c gpg.minTrustLevel=fully verify-commit HEAD
same "%GS untrusted" "$(git log -1 --format=%GS)" "CN=Bob,O=elsewhere"
same "%GF untrusted" "$(git log -1 --format=%GF)" "$(fpr "$work/bob.pem")"
st="$(raw verify-commit HEAD)"
has "untrusted status: GOODSIG" "$st" '^\[GNUPG:\] GOODSIG [0-9A-F]{64} CN=Bob,O=elsewhere$'
has "untrusted status: TRUST_UNDEFINED" "$st" '^\[GNUPG:\] TRUST_UNDEFINED'
hasnt "untrusted status: no TRUST_FULLY" "$st" 'TRUST_FULLY'
git checkout -q main
refuse "merge --verify-signatures refuses the untrusted branch" git merge -q --no-edit --verify-signatures untrusted
same "HEAD after the refused merge" "$(git rev-parse HEAD)" "$main_head"
check "merge --verify-signatures accepts the trusted branch" git merge -q --ff-only --verify-signatures trusted

# --- tampered: the commit rewritten, the old signature kept ---
tampered="$(git cat-file commit HEAD | sed 's/^trusted change$/evil change/' | git hash-object -w -t commit --stdin)"
same "%G? tampered" "$(sig_of "$tampered")" B
refuse "verify-commit refuses the tampered commit" git verify-commit "$tampered"
has "tampered status: BADSIG" "$(raw verify-commit "$tampered")" '^\[GNUPG:\] BADSIG [0-9A-F]{64} CN=Alice,O=sphincs$'
hasnt "tampered status: no GOODSIG" "$(raw verify-commit "$tampered")" 'GOODSIG'

# --- unreadable signature ---
broken="$(git cat-file commit HEAD | awk '/^gpgsig /{print "gpgsig -----BEGIN SIGNED MESSAGE-----"; print " bm90IGEgc2lnbmF0dXJl"; print " -----END SIGNED MESSAGE-----"; skip=1; next} skip && /^ /{next} {skip=0; print}' | git hash-object -w -t commit --stdin)"
same "%G? unreadable" "$(sig_of "$broken")" E
has "unreadable status: ERRSIG code 4" "$(raw verify-commit "$broken")" '^\[GNUPG:\] ERRSIG 0{16} 0 0 00 0 4$'

# --- expired certificate (valid in 2020 only) ---
echo e >>f && git add f
check "commit -S with an expired certificate" git -c sphincs.cert="$work/carol.pem" -c sphincs.key="$work/carol.key" -c user.signingkey=carol@example.org commit -q -S -m "expired"
same "%G? expired" "$(sig_of HEAD)" Y
has "expired status: EXPKEYSIG" "$(raw verify-commit HEAD)" '^\[GNUPG:\] EXPKEYSIG [0-9A-F]{64} CN=Carol$'
refuse "verify-commit refuses the expired signer" git verify-commit HEAD

# --- what the signer's certificate must say: time and purpose ---
# A commit object like HEAD's, signed by KEY/CERT through `sphincs cms sign`
# with the signing time the signer chooses to state (an attacker's own
# signer can state any), so that git meets signatures our git program
# would not write. forged NAME KEY CERT TIME|now: prints the new commit's id.
forged() {
    local name=$1 key=$2 cert=$3 time=$4 obj="$work/forged-$1"
    [[ $time == now ]] && time="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    git cat-file commit HEAD | awk '/^gpgsig /{skip=1; next} skip && /^ /{next} {skip=0; print}' |
        sed "s/^expired\$/forged: $name/" >"$obj.payload"
    S cms sign --detached --pem -k "$key" --cert "$cert" --signing-time "$time" -o "$obj.pem" "$obj.payload" || return 1
    awk -v sigfile="$obj.pem" '
        !done && /^committer /{print; first=1
            while ((getline l < sigfile) > 0) { sub(/CMS-----$/, "SIGNED MESSAGE-----", l); print (first ? "gpgsig " : " ") l; first=0 }
            done=1; next}
        {print}' "$obj.payload" | git hash-object -w -t commit --stdin
}
# A long-lived trusted CA (2019 to 2036), so that only the signer's own
# validity is at stake: Frank's certificate is valid in 2030 only, Gina's
# in 2020 only.
S cert self-signed -k "$work/ca.key" --subject "CN=Long-lived CA,O=sphincs" --ca --not-before 2019-01-01 --not-after 2036-01-01 -o "$work/ca-long.pem" ||
    bad "a CA valid from 2019 to 2036"
git config --add sphincs.trust "$work/ca-long.pem"
for who in frank:2030 gina:2020; do
    S keygen -a "$set_" -o "$work/${who%%:*}.key" &&
        S cert request -k "$work/${who%%:*}.key" --subject "CN=${who%%:*}" -o "$work/${who%%:*}.csr" &&
        S cert issue --ca-key "$work/ca.key" --ca-cert "$work/ca-long.pem" "$work/${who%%:*}.csr" \
            --not-before "${who#*:}-01-01" --not-after "${who#*:}-12-31" -o "$work/${who%%:*}.pem" ||
        bad "issue a certificate valid in ${who#*:} only"
done
future="$(forged future "$work/frank.key" "$work/frank.pem" 2030-06-01T00:00:00Z)"
same "%G? certificate valid from 2030, signing time stated in 2030" "$(sig_of "$future")" Y
has "future signing time: EXPKEYSIG" "$(raw verify-commit "$future")" '^\[GNUPG:\] EXPKEYSIG [0-9A-F]{64} CN=frank$'
hasnt "future signing time: no TRUST_FULLY" "$(raw verify-commit "$future")" 'TRUST_FULLY'
git branch -q -f future "$future"
git checkout -q -b future-base "$future~1" 2>/dev/null || git checkout -q -b future-base HEAD~1
refuse "merge --verify-signatures refuses the commit from 2030" git merge -q --no-edit --verify-signatures future
git checkout -q main && git branch -q -D future-base
backdated="$(forged backdated "$work/gina.key" "$work/gina.pem" 2020-06-01T00:00:00Z)"
same "%G? expired certificate, signing time back-dated into its validity" "$(sig_of "$backdated")" Y
has "back-dated: EXPKEYSIG" "$(raw verify-commit "$backdated")" '^\[GNUPG:\] EXPKEYSIG [0-9A-F]{64} CN=gina$'
fresh="$(forged fresh "$work/alice.key" "$work/alice.pem" now)"
same "%G? the same forging route at the present time (control)" "$(sig_of "$fresh")" G
# Key usage: a CA-only certificate and a TLS server's sign commits.
S keygen -a "$set_" -o "$work/subca.key" && S cert request -k "$work/subca.key" --subject "CN=Sub CA" -o "$work/subca.csr" &&
    S cert issue --ca-key "$work/ca.key" --ca-cert "$work/ca.pem" "$work/subca.csr" --ca --key-usage keyCertSign,cRLSign -o "$work/subca.pem" ||
    bad "issue a CA-only certificate"
S keygen -a "$set_" -o "$work/server.key" && S cert request -k "$work/server.key" --subject "CN=www.example.org" -o "$work/server.csr" &&
    S cert issue --ca-key "$work/ca.key" --ca-cert "$work/ca.pem" "$work/server.csr" --eku serverAuth --san dns:www.example.org -o "$work/server.pem" ||
    bad "issue a TLS server certificate"
subca="$(forged subca "$work/subca.key" "$work/subca.pem" now)"
st="$(raw verify-commit "$subca")"
same "%G? signer keyUsage keyCertSign,cRLSign only" "$(sig_of "$subca")" U
has "keyCertSign-only signer: TRUST_NEVER" "$st" '^\[GNUPG:\] TRUST_NEVER'
server="$(forged server "$work/server.key" "$work/server.pem" now)"
same "%G? signer extendedKeyUsage serverAuth only" "$(sig_of "$server")" U
refuse "verify-commit with gpg.minTrustLevel=marginal refuses the TLS server's commit" git -c gpg.minTrustLevel=marginal verify-commit "$server"
# sphincs.requireEku: Alice's certificate names codeSigning, Carol's... none;
# Bob-like certificates without extendedKeyUsage are refused once it is set.
same "%G? sphincs.requireEku=codeSigning, signer names it" "$(git -c sphincs.requireEku=codeSigning log -1 --format=%G? "$fresh")" G
S keygen -a "$set_" -o "$work/erin.key" && S cert request -k "$work/erin.key" --subject "CN=Erin" -o "$work/erin.csr" &&
    S cert issue --ca-key "$work/ca.key" --ca-cert "$work/ca.pem" "$work/erin.csr" --eku emailProtection -o "$work/erin.pem" ||
    bad "issue an S/MIME certificate"
erin="$(forged erin "$work/erin.key" "$work/erin.pem" now)"
same "%G? S/MIME (emailProtection) signer, default policy" "$(sig_of "$erin")" G
same "%G? S/MIME signer with sphincs.requireEku=codeSigning" "$(git -c sphincs.requireEku=codeSigning log -1 --format=%G? "$erin")" U
same "%G? S/MIME signer with sphincs.requireEku=1.3.6.1.5.5.7.3.4 (emailProtection's OID)" \
    "$(git -c sphincs.requireEku=1.3.6.1.5.5.7.3.4 log -1 --format=%G? "$erin")" G

# --- trust is managed, not overwritten; a clone that only verifies ---
S keygen -a "$set_" -o "$work/ca3.key" && S cert self-signed -k "$work/ca3.key" --subject "CN=Second CA" --ca -o "$work/ca3.pem" ||
    bad "a second CA"
check "git setup again, trusting a second CA" "$sphincs" git setup --key ../alice.key --cert ../alice.pem --trust "$work/ca3.pem"
same "%G? of a commit under the first CA after set-up with a second" "$(sig_of trusted)" G
listed="$("$sphincs" git trust list)"
has "git trust list: the first CA" "$listed" 'CN=Git test CA,O=sphincs'
has "git trust list: the second CA, with its fingerprint" "$listed" "CN=Second CA\" $(fpr "$work/ca3.pem")"
check "git trust remove (by SHA-256 fingerprint)" "$sphincs" git trust remove "$(fpr "$work/ca3.pem")"
hasnt "git trust list after the removal" "$("$sphincs" git trust list)" 'Second CA'
check "git trust add" "$sphincs" git trust add "$work/ca3.pem"
check "git trust add of the same file again" "$sphincs" git trust add "$work/ca3.pem"
same "no file is trusted twice" "$(git config --get-all sphincs.trust | grep -c ca3.pem)" 1
check "git trust remove (by path)" "$sphincs" git trust remove "$work/ca3.pem"
refuse "git trust remove of a certificate not trusted" "$sphincs" git trust remove "$(fpr "$work/bob.pem")"
refuse "git trust add of a file that is no certificate" "$sphincs" git trust add "$work/pass.txt"
same "%G? of the first CA's commit at the end" "$(sig_of trusted)" G
git clone -q "$work/repo" "$work/verifier" && cd "$work/verifier" || exit 2
check "git setup --trust alone (a clone that only verifies)" "$sphincs" git setup --trust "$work/ca.pem"
same "verify-only: gpg.format" "$(git config gpg.format)" x509
same "verify-only: no signing key" "$(git config sphincs.key || echo none)" none
same "%G? in the verify-only clone" "$(sig_of origin/trusted)" G
check "merge --verify-signatures in the verify-only clone" git merge -q --ff-only --verify-signatures origin/trusted
refuse "commit -S in the verify-only clone" git commit -q --allow-empty -S -m "no key here"
cd "$work/repo" || exit 2

# --- signing that cannot happen: HEAD stays ---
head_before="$(git rev-parse HEAD)"
echo n >>f && git add f
refuse "commit -S with a missing key" git -c sphincs.key="$work/nonexistent.key" commit -q -S -m "no key"
same "HEAD after a missing key" "$(git rev-parse HEAD)" "$head_before"
refuse "commit -S with a key that is not the certificate's" git -c sphincs.key="$work/bob.key" commit -q -S -m "mismatch"
same "HEAD after a mismatched key" "$(git rev-parse HEAD)" "$head_before"
refuse "commit -S with no certificate configured" git -c sphincs.cert= commit -q -S -m "no cert"
same "HEAD after no certificate" "$(git rev-parse HEAD)" "$head_before"

# --- encrypted key ---
git init -q "$work/enc" && cd "$work/enc" || exit 2
check "git setup with an encrypted key" "$sphincs" git setup --key ../dave.key --cert ../dave.pem --trust ../dave.pem
echo d >d && git add d
check "commit -S with SPHINCS_PASSPHRASE_FILE" env SPHINCS_PASSPHRASE_FILE="$work/pass.txt" git commit -q -S -m "encrypted key"
same "%G? encrypted key (trusted as itself)" "$(sig_of HEAD)" G
head_before="$(git rev-parse HEAD)"
echo d2 >>d && git add d
refuse "commit -S with a wrong passphrase" env SPHINCS_PASSPHRASE_FILE="$work/wrong.txt" git commit -q -S -m "wrong"
same "HEAD after a wrong passphrase" "$(git rev-parse HEAD)" "$head_before"
# No terminal (setsid: no controlling terminal) and no passphrase file.
refuse "commit -S with neither a terminal nor SPHINCS_PASSPHRASE_FILE" setsid -w git commit -q -S -m "no passphrase"
same "HEAD without a passphrase" "$(git rev-parse HEAD)" "$head_before"
# git 2.39 swallows the program's standard error on failure ("gpg failed to
# sign the data"): the program's own message, run as git runs it.
printf 'payload\n' | setsid -w "$sphincs" --status-fd=2 -bsau "$(git config user.signingkey)" >"$work/nopass.sig" 2>"$work/nopass.err"
rc=$?
[[ $rc != 0 ]] && ok || bad "signing without a passphrase exits 0"
has "the error names SPHINCS_PASSPHRASE_FILE" "$(cat "$work/nopass.err")" 'SPHINCS_PASSPHRASE_FILE'
hasnt "no SIG_CREATED without a passphrase" "$(cat "$work/nopass.err")" 'SIG_CREATED'

# The passphrase typed on the terminal (/dev/tty; standard input is git's
# payload): `script` gives git a pseudo-terminal, the line is typed after the prompt.
if command -v script >/dev/null; then
    ( sleep 3; printf 'correct horse\n' ) | timeout 60 script -qec 'git commit -q -S -m "passphrase typed"' /dev/null >"$work/tty.log" 2>&1
    same "commit -S with the passphrase typed on /dev/tty" "$(git log -1 --format='%G? %s')" "G passphrase typed"
    has "the prompt went to the terminal" "$(cat "$work/tty.log")" 'Passphrase for .*dave.key'
else
    echo "note: no script(1): the /dev/tty passphrase check did not run" >&2
fi

# --- unlock once: the agent ---
# `git rebase -S` over three commits with neither a terminal nor a
# passphrase file: the key unlocked once into the agent signs them all.
mkdir -m 700 "$work/agent"
check "agent start" "$sphincs" agent start --ttl 5m
check "agent add (the passphrase read once)" "$sphincs" --passphrase-file "$work/pass.txt" agent add ../dave.key
base="$(git rev-parse HEAD)"
for i in 1 2 3; do echo "r$i" >>d && git add d && git commit -q --no-gpg-sign -m "to sign $i"; done
check "rebase -S over three commits, no terminal, no passphrase file" setsid -w git rebase -q -f -S "$base"
same "%G? of the three rebased commits" "$(git log --format=%G? "$base..HEAD" | tr -d '\n')" GGG
check "verify-commit of a rebased commit" git verify-commit HEAD~1
check "agent lock" "$sphincs" agent lock
echo r4 >>d && git add d
refuse "commit -S after agent lock, no passphrase" setsid -w git commit -q -S -m "after lock"
# A commit that asks for the passphrase hands the key to the agent: the next needs nothing.
check "commit -S with SPHINCS_PASSPHRASE_FILE, the agent running" env SPHINCS_PASSPHRASE_FILE="$work/pass.txt" git commit -q -S -m "unlocks"
echo r5 >>d && git add d
check "the next commit -S without a passphrase" setsid -w git commit -q -S -m "from the agent"
same "%G? of the agent's commit" "$(sig_of HEAD)" G
check "agent stop" "$sphincs" agent stop
echo r6 >>d && git add d
refuse "commit -S after agent stop, no passphrase" setsid -w git commit -q -S -m "after stop"

# --- SHA-256 repository ---
git init -q --object-format=sha256 "$work/sha256" && cd "$work/sha256" || exit 2
check "git setup (SHA-256 repository)" "$sphincs" git setup --key ../alice.key --cert ../alice.pem --trust ../ca.pem
echo s >s && git add s
check "commit -S (SHA-256 repository)" git commit -q -S -m "sha256"
same "object format" "$(git rev-parse --show-object-format)" sha256
same "%G? (SHA-256 repository)" "$(sig_of HEAD)" G
check "verify-commit (SHA-256 repository)" git verify-commit HEAD
check "tag -s (SHA-256 repository)" git tag -s -m "sha256 tag" s1
check "verify-tag (SHA-256 repository)" git verify-tag s1

# --- the user's configuration (--global) ---
cd "$work" || exit 2
check "git setup --global (outside a repository)" "$sphincs" git setup --global --key alice.key --cert alice.pem --trust ca.pem
same "global gpg.format" "$(git config --global gpg.format)" x509
same "global user.signingkey" "$(git config --global user.signingkey)" "$alice_fpr"
same "sphincs.key in XDG_CONFIG_HOME/sphincs/git.config" "$(git config --file "$XDG_CONFIG_HOME/sphincs/git.config" sphincs.key)" "$work/alice.key"
git init -q "$work/global" && cd "$work/global" || exit 2
echo g >g && git add g
check "commit -S with the user's configuration only" git commit -q -S -m "global"
same "%G? with the user's configuration only" "$(sig_of HEAD)" G
refuse "git setup without --global outside a repository" env GIT_CEILING_DIRECTORIES="$work" sh -c "cd '$work' && '$sphincs' git setup --key alice.key --cert alice.pem"

# --- the program driven directly with gpg's arguments ---
cd "$work/repo" || exit 2
printf 'payload\n' >"$work/payload"
for form in "--status-fd=2 -bsau $alice_fpr" "--status-fd 2 -b -s -a -u $alice_fpr" \
    "--keyid-format=long --status-fd=2 --detach-sign --armor --local-user=$alice_fpr" \
    "--status-fd=2 -bsau$alice_fpr"; do
    # shellcheck disable=SC2086
    "$sphincs" $form <"$work/payload" >"$work/direct.sig" 2>"$work/direct.status"
    rc=$?
    same "exit status of: sphincs $form" "$rc" 0
    has "BEGIN_SIGNING: $form" "$(cat "$work/direct.status")" '^\[GNUPG:\] BEGIN_SIGNING H8$'
    has "SIG_CREATED: $form" "$(cat "$work/direct.status")" "^\[GNUPG:\] SIG_CREATED D 0 8 00 [0-9]+ $alice_fpr$"
    same "PEM label: $form" "$(head -n 1 "$work/direct.sig")" "-----BEGIN SIGNED MESSAGE-----"
done
st="$("$sphincs" --status-fd=1 --verify "$work/direct.sig" - <"$work/payload" 2>/dev/null)"
has "direct --verify: GOODSIG" "$st" '^\[GNUPG:\] GOODSIG '
st="$("$sphincs" --status-fd=1 --verify "$work/direct.sig" "$work/payload" 2>/dev/null)"
has "direct --verify SIG DATAFILE: GOODSIG" "$st" '^\[GNUPG:\] GOODSIG '
printf 'payload!\n' >"$work/payload2"
st="$("$sphincs" --status-fd=1 --verify "$work/direct.sig" - <"$work/payload2" 2>/dev/null)"
has "direct --verify, other payload: BADSIG" "$st" '^\[GNUPG:\] BADSIG '
refuse "direct --verify, other payload: exit non-zero" "$sphincs" --status-fd=1 --verify "$work/direct.sig" - <"$work/payload2"
"$sphincs" --status-fd=2 -bsau nobody@example.org <"$work/payload" >"$work/none.sig" 2>"$work/none.status"
rc=$?
[[ $rc != 0 ]] && ok || bad "signing with an unknown key exits 0"
hasnt "no SIG_CREATED for an unknown key" "$(cat "$work/none.status")" 'SIG_CREATED'
same "no signature for an unknown key" "$(wc -c <"$work/none.sig")" 0
refuse "an unknown gpg option is refused" "$sphincs" --status-fd=2 -bsxu "$alice_fpr"
refuse "signing without -b is refused" "$sphincs" --status-fd=2 -su "$alice_fpr"
head -c $((64 * 1048576 + 1)) /dev/zero >"$work/huge"
refuse "a payload over 64 MiB is refused" "$sphincs" --status-fd=2 -bsau "$alice_fpr" <"$work/huge"
rm -f "$work/huge"
check "the normal grammar still works" "$sphincs" list

# --- OpenSSL checks the signature taken out of a commit ---
git cat-file commit trusted >"$work/commit.obj"
# git's payload: the object without the gpgsig header and its continuation lines.
awk 'hdr && /^gpgsig /{skip=1; next} skip && /^ /{next} {skip=0} /^$/{hdr=0} {print}' hdr=1 "$work/commit.obj" >"$work/commit.payload"
awk '/^gpgsig /{sub(/^gpgsig /, ""); print; on=1; next} on && /^ /{sub(/^ /, ""); print; next} {on=0}' "$work/commit.obj" |
    sed 's/SIGNED MESSAGE/CMS/' >"$work/commit.sig.pem"
if [[ -x "$OPENSSL" ]]; then
    check "openssl cms -verify -CAfile (signature from a commit)" "$OPENSSL" cms -verify -binary -inform PEM -in "$work/commit.sig.pem" -content "$work/commit.payload" -CAfile "$work/ca.pem" -purpose any -out /dev/null
    check "openssl cms -verify -noverify (signature from a commit)" "$OPENSSL" cms -verify -binary -noverify -inform PEM -in "$work/commit.sig.pem" -content "$work/commit.payload" -out /dev/null
    has "openssl cms -cmsout -print: signingTime attribute" "$("$OPENSSL" cms -cmsout -print -inform PEM -in "$work/commit.sig.pem" 2>&1)" 'signingTime'
    sed 's/^trusted change$/evil change/' "$work/commit.payload" >"$work/commit.payload.evil"
    refuse "openssl cms -verify refuses another payload" "$OPENSSL" cms -verify -binary -noverify -inform PEM -in "$work/commit.sig.pem" -content "$work/commit.payload.evil" -out /dev/null
    # OpenSSL's signatures read by the program as git runs it: with the
    # certificate inside (good, trusted), and without (-nocerts: ERRSIG 9).
    cd "$work/repo" || exit 2
    for variant in certs nocerts; do
        extra=(); [[ $variant == nocerts ]] && extra=(-nocerts)
        "$OPENSSL" cms -sign -binary -in "$work/commit.payload" -signer "$work/alice.pem" -inkey "$work/alice.key" \
            -md sha256 -outform PEM "${extra[@]}" -out "$work/ossl-$variant.pem" 2>"$work/err.log" ||
            bad "openssl cms -sign ($variant): $(head -c 300 "$work/err.log")"
        sed 's/-----\(BEGIN\|END\) CMS-----/-----\1 SIGNED MESSAGE-----/' "$work/ossl-$variant.pem" >"$work/ossl-$variant.sig"
    done
    st="$("$sphincs" --status-fd=1 --verify "$work/ossl-certs.sig" - <"$work/commit.payload" 2>/dev/null)"
    has "OpenSSL's signature: GOODSIG" "$st" "^\[GNUPG:\] GOODSIG $alice_fpr CN=Alice,O=sphincs$"
    has "OpenSSL's signature: TRUST_FULLY" "$st" '^\[GNUPG:\] TRUST_FULLY'
    st="$("$sphincs" --status-fd=1 --verify "$work/ossl-nocerts.sig" - <"$work/commit.payload" 2>/dev/null)"
    has "OpenSSL's signature without certificates: ERRSIG code 9" "$st" '^\[GNUPG:\] ERRSIG 0{16} 0 8 00 0 9$'
    # A chain that is broken: a trusted certificate with the CA's name and another key.
    S keygen -a "$set_" -o "$work/ca2.key" && S cert self-signed -k "$work/ca2.key" --subject "CN=Git test CA,O=sphincs" --ca -o "$work/ca2.pem"
    git config --replace-all sphincs.trust "$work/ca2.pem"
    st="$(raw verify-commit trusted)"
    has "impostor CA trusted: TRUST_NEVER" "$st" '^\[GNUPG:\] TRUST_NEVER'
    same "impostor CA trusted: %G?" "$(sig_of trusted)" U
    git config --replace-all sphincs.trust "$work/ca.pem"
    # A SHAKE set, with its RFC 9814 digest (SHAKE-128) and with sphincs.digest SHA2-512.
    git init -q "$work/shake" && cd "$work/shake" || exit 2
    S keygen -a SLH-DSA-SHAKE-128f -o "$work/shake.key" &&
        S cert self-signed -k "$work/shake.key" --subject "CN=Shake" --san email:alice@example.org -o "$work/shake.pem"
    check "git setup (SHAKE-128f)" "$sphincs" git setup --key ../shake.key --cert ../shake.pem --trust ../shake.pem
    for digest in default SHA2-512; do
        [[ $digest == default ]] || git config sphincs.digest "$digest"
        check "commit -S (SHAKE-128f, digest $digest)" git commit -q --allow-empty -S -m "shake $digest"
        same "%G? (SHAKE-128f, digest $digest)" "$(sig_of HEAD)" G
        git cat-file commit HEAD >"$work/shake.obj"
        awk 'hdr && /^gpgsig /{skip=1; next} skip && /^ /{next} {skip=0} /^$/{hdr=0} {print}' hdr=1 "$work/shake.obj" >"$work/shake.payload"
        awk '/^gpgsig /{sub(/^gpgsig /, ""); print; on=1; next} on && /^ /{sub(/^ /, ""); print; next} {on=0}' "$work/shake.obj" |
            sed 's/SIGNED MESSAGE/CMS/' >"$work/shake.sig.pem"
        check "openssl cms -verify (SHAKE-128f commit, digest $digest)" "$OPENSSL" cms -verify -binary -inform PEM -in "$work/shake.sig.pem" -content "$work/shake.payload" -CAfile "$work/shake.pem" -out /dev/null
    done
else
    bad "no OpenSSL 3.5 at $OPENSSL: the OpenSSL checks did not run"
fi

echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
