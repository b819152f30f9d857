#!/usr/bin/env bash
# The C test suite of libsphincs (called by scripts/test-all). Installs the
# library into target/c-prefix with scripts/install-c and builds every test
# program with the system C compiler (-Wall -Wextra -Werror) against the
# INSTALLED header, found through pkg-config, four ways: shared and static
# library, each plain and under AddressSanitizer + UndefinedBehaviorSanitizer.
#   tests/c/test_api.c        the native API: every set, contexts, pre-hash,
#                             streaming = one-shot, CLI keys (PEM), bad input, threads
#   tests/c/test_nist.c       each NIST-API drop-in header, with and without a
#                             program-defined randombytes
#   tests/c/test_sphincs256.c SPHINCS-256: the SUPERCOP reference's known answers
#                             (three cases extracted below), refusals, bad input,
#                             streams and batches
#   tests/c/test_sp800_230.c  the draft SP 800-230 sets: handles, the 2^24 limit, our
#                             known answers, tree-cache import refusals
#   tests/c/test_key_modes.c  RFC 9909 key modes with the CLI's HashSLH-DSA and pure keys
#   tests/c/test_openpgp.c    OpenPGP (RFC 9980): the CLI's `sop` keys and signatures both
#                             ways, RFC 9980's sample, a protected key, refusals
#   tests/c/test_encrypted.c  encrypted PKCS#8 keys: the CLI's `keygen --encrypt`, round
#                             trips (the CLI reads ours), wrong passphrase, truncation, scrypt limits
#   tests/c/test_version.c    SPHINCS_VERSION* of the header = sphincs_version()
#   tests/c/test_last_error.c sphincs_last_error_message(): names the cause, per thread
#   tests/c/test_certificate.c sphincs_public_key_from_certificate with the CLI's
#                             certificates (PEM, DER, HashSLH-DSA) and damaged ones
#   tests/c/kat/              PQCgenKAT_sign over NIST's AES-256 CTR-DRBG (libcrypto):
#                             the round-3.1 KAT files' sha256 = the reference SHA256SUMS
#   README.md                 the C example, extracted and run
#   docs/c.md                 every ```c block, extracted, built and run (exit 0)
# Every check counts; the last line is "N passed, M failed".
# libcrypto (libssl-dev) is installed with apt-get if pkg-config cannot find it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
here=crates/capi/tests/c
out="$root/target/c-tests"
prefix="$root/target/c-prefix"
rm -rf "$out"
mkdir -p "$out"

# The library and the CLI as scripts/test-all built them (SPHINCS_PREBUILT=1),
# or built here.
if [[ "${SPHINCS_PREBUILT:-0}" == 1 ]]; then
    NO_BUILD=1 scripts/install-c "$prefix"
else
    scripts/install-c "$prefix"
    cargo build --release -p sphincs-cli
fi
cli="$root/target/release/sphincs"

if ! pkg-config --exists libcrypto; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libssl-dev pkg-config
fi

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
cc="${CC:-cc}"
read -r -a cflags <<<"-std=c11 -Wall -Wextra -Werror -O1 -g $(pkg-config --cflags sphincs)"
read -r -a crypto_cflags <<<"$(pkg-config --cflags libcrypto)"
read -r -a crypto_libs <<<"$(pkg-config --libs libcrypto)"
read -r -a shared_libs <<<"$(pkg-config --libs sphincs) -Wl,-rpath,$prefix/lib -lpthread"
# The static archive by name: -lsphincs would pick libsphincs.so beside it.
read -r -a static_libs <<<"$(pkg-config --static --libs sphincs | sed 's/-lsphincs /-l:libsphincs.a /')"
read -r -a sanitize <<<"-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

# run NAME PROGRAM ARGS...: runs a test program, adding up its RESULT line;
# a crash or a missing RESULT line is one more failure.
run() {
    local name=$1 log="$out/$1.log" rc=0 line
    shift
    "$@" >"$log" 2>&1 || rc=$?
    grep '^FAIL' "$log" || true
    line=$(grep '^RESULT ' "$log" | tail -n1 || true)
    if [ -n "$line" ]; then
        set -- $line
        passed=$((passed + ${2#passed=}))
        failed=$((failed + ${3#failed=}))
    fi
    if [ $rc -ne 0 ] && { [ -z "$line" ] || [ "${3#failed=}" = 0 ]; }; then
        bad "$name exited with status $rc (see $log)"
        tail -n 20 "$log"
    fi
}

# build NAME LINK SAN SOURCES... [-- EXTRA FLAGS]: compiles a test program; a
# compiler error is a failure.
build() {
    local name=$1 link=$2 san=$3 libs flags=("${cflags[@]}")
    shift 3
    if [ "$link" = shared ]; then libs=("${shared_libs[@]}"); else libs=("${static_libs[@]}"); fi
    [ "$san" = plain ] || flags+=("${sanitize[@]}")
    if "$cc" "${flags[@]}" "$@" "${libs[@]}" "${crypto_libs[@]}" -o "$out/$name" 2>"$out/$name.build.log"; then
        ok
    else
        bad "compiling $name"
        cat "$out/$name.build.log"
        return 1
    fi
}

# The CLI's key pair and signature, for test_api to load and check.
"$cli" -q keygen -a SLH-DSA-SHAKE-128f -o "$out/cli.key" --pub "$out/cli.pub"
cli_fingerprint="$("$cli" fingerprint "$out/cli.pub" | cut -d' ' -f1)"
head -c 200000 /dev/urandom >"$out/message"
"$cli" sign -k "$out/cli.key" -o "$out/message.sig" "$out/message"
# A HashSLH-DSA key of the CLI and its signature, for test_key_modes.
"$cli" keygen -a SLH-DSA-SHA2-128f --prehash SHA2-256 -o "$out/hash.key" --pub "$out/hash.pub"
"$cli" sign -k "$out/hash.key" -o "$out/message.hsig" "$out/message"
# An encrypted key of the CLI, for test_encrypted.
printf 'C test passphrase\n' >"$out/pass.txt"
"$cli" -q --passphrase-file "$out/pass.txt" keygen --encrypt -a SLH-DSA-SHA2-128f -o "$out/enc.key" --pub "$out/enc.pub"
# The CLI's certificates of those two keys, for test_certificate.
"$cli" -q cert self-signed -k "$out/cli.key" --subject "CN=C test" -o "$out/cli.crt"
"$cli" -q cert self-signed -k "$out/cli.key" --subject "CN=C test" --der -o "$out/cli.der.crt"
"$cli" -q cert self-signed -k "$out/hash.key" --subject "CN=C hash test" -o "$out/hash.crt"

# Three SPHINCS-256 known answers (cases 0 and 10 with the whole signature,
# case 2 with its SHA-256) as text lines test_sphincs256 reads:
# "ID SK PK MSG|- SIG_SHA256 SIG|-", hex.
# An OpenPGP key, certificate and signature of the CLI, for test_openpgp.
"$cli" sop generate-key --profile=slh-dsa-shake-128f "CLI <cli@example.org>" >"$out/pgp.key"
"$cli" sop extract-cert <"$out/pgp.key" >"$out/pgp.cert"
"$cli" sop sign "$out/pgp.key" <"$out/message" >"$out/pgp.sig"
rfc9980=crates/sphincs/tests/data/openpgp-rfc9980

python3 - crates/sphincs/tests/data/sphincs256/sphincs256_kat.json.gz "$out/sphincs256.kat" <<'PY'
import gzip, json, sys
kat = json.load(gzip.open(sys.argv[1], "rt"))
with open(sys.argv[2], "w") as f:
    for i in (0, 2, 10):
        c = kat["cases"][i]
        fields = [str(c["id"]), c["sk"], c["pk"], c["msg"] or "-", c["sig_sha256"], c.get("sig") or "-"]
        f.write(" ".join(fields) + "\n")
PY

# The draft SP 800-230 known answers as text lines test_sp800_230 reads:
# "NAME PK MSG CTX SIG SK_SEED SK_PRF", hex.
python3 - crates/sphincs/tests/data/sp800-230-kat.json.gz "$out/sp800_230.kat" <<'PY'
import gzip, json, sys
with open(sys.argv[2], "w") as f:
    for e in json.load(gzip.open(sys.argv[1], "rt")):
        keys = ("algorithm", "pk", "message", "context", "sig", "sk_seed", "sk_prf")
        f.write(" ".join(e[k] for k in keys) + "\n")
PY

# Every drop-in header compiles as the reference api.h would be used.
for header in crates/capi/include/sphincs/nist/*.h; do
    set_name=$(basename "$header" .h)
    if "$cc" "${cflags[@]}" -DNIST_HEADER="<sphincs/nist/$set_name.h>" -c "$here/test_nist.c" \
        -o "$out/nist-$set_name.o" 2>"$out/nist-$set_name.build.log"; then
        ok
    else
        bad "compiling test_nist.c with <sphincs/nist/$set_name.h>"
        cat "$out/nist-$set_name.build.log"
    fi
done

# Two different set headers in one translation unit fail to compile, naming the rule.
printf '#include <sphincs/nist/slh-dsa-shake-128f.h>\n#include <sphincs/nist/sphincs-sha2-128f-simple.h>\nint main(void) { return 0; }\n' >"$out/two_sets.c"
if "$cc" "${cflags[@]}" -c "$out/two_sets.c" -o "$out/two_sets.o" 2>"$out/two_sets.log"; then
    bad "two NIST set headers in one translation unit compiled"
elif grep -q "one NIST drop-in header per translation unit" "$out/two_sets.log"; then
    ok
else
    bad "two NIST set headers: the compiler's error does not name the rule"
    cat "$out/two_sets.log"
fi
# The shared implementation header alone is refused.
printf '#include <sphincs/nist_impl.h>\nint main(void) { return 0; }\n' >"$out/impl_alone.c"
if "$cc" "${cflags[@]}" -c "$out/impl_alone.c" -o "$out/impl_alone.o" 2>"$out/impl_alone.log"; then
    bad "<sphincs/nist_impl.h> alone compiled"
else
    ok
fi

# The README's C example.
awk '/^## C library/ { in_section = 1 } in_section && /^```c$/ { grab = 1; next }
     grab && /^```$/ { exit } grab { print }' README.md >"$out/readme_example.c"
if [ ! -s "$out/readme_example.c" ]; then
    bad "no C example found in README.md's C library section"
fi

# Every C example of docs/c.md, one file per ```c block.
awk -v stem="$out/docs_c_example_" '/^```c$/ { n++; file = stem n ".c"; grab = 1; next }
     grab && /^```$/ { grab = 0; close(file); next } grab { print > file }' docs/c.md
docs_examples=$(find "$out" -maxdepth 1 -name 'docs_c_example_*.c' | sort)
if [ -z "$docs_examples" ]; then
    bad "no \`\`\`c block found in docs/c.md"
fi

kat_expect() { awk -v n="$1" '$2 == n { print $1 }' crates/sphincs/tests/data/sphincsplus-r31/SHA256SUMS; }

# variant LINK SAN NIST_SETS KAT_SETS
variant() {
    local link=$1 san=$2 nist_sets=$3 kat_sets=$4 tag="$1-$2" s
    echo "== C tests: $link library, $san"
    if build "test_api-$tag" "$link" "$san" "$here/test_api.c"; then
        run "test_api-$tag" "$out/test_api-$tag" "$out/cli.key" "$out/cli.pub" "$out/message" \
            "$out/message.sig" "$out/c-$tag.sig" "$cli_fingerprint"
        if "$cli" verify -p "$out/cli.pub" -s "$out/c-$tag.sig" "$out/message" >/dev/null 2>&1; then
            ok
        else
            bad "the CLI does not verify the C library's signature ($tag)"
        fi
    fi
    if build "test_version-$tag" "$link" "$san" "$here/test_version.c"; then
        run "test_version-$tag" "$out/test_version-$tag"
    fi
    if build "test_last_error-$tag" "$link" "$san" "$here/test_last_error.c"; then
        run "test_last_error-$tag" "$out/test_last_error-$tag"
    fi
    if build "test_certificate-$tag" "$link" "$san" "$here/test_certificate.c"; then
        run "test_certificate-$tag" "$out/test_certificate-$tag" "$out/cli.crt" "$out/cli.der.crt" "$out/cli.pub" \
            "$out/message" "$out/message.sig" "$out/hash.crt" "$out/message.hsig"
    fi
    if build "test_sphincs256-$tag" "$link" "$san" "${crypto_cflags[@]}" "$here/test_sphincs256.c"; then
        run "test_sphincs256-$tag" "$out/test_sphincs256-$tag" "$out/sphincs256.kat"
    fi
    if build "test_sp800_230-$tag" "$link" "$san" "$here/test_sp800_230.c"; then
        run "test_sp800_230-$tag" "$out/test_sp800_230-$tag" "$out/sp800_230.kat"
    fi
    if build "test_key_modes-$tag" "$link" "$san" "$here/test_key_modes.c"; then
        run "test_key_modes-$tag" "$out/test_key_modes-$tag" "$out/hash.key" "$out/hash.pub" "$out/message" \
            "$out/message.hsig" "$out/cli.key" "$out/cli.pub" "$out/c-hash-$tag.sig"
        if "$cli" verify -p "$out/hash.pub" -s "$out/c-hash-$tag.sig" "$out/message" >/dev/null 2>&1; then
            ok
        else
            bad "the CLI does not verify the C library's HashSLH-DSA signature ($tag)"
        fi
    fi
    if build "test_openpgp-$tag" "$link" "$san" "$here/test_openpgp.c"; then
        run "test_openpgp-$tag" "$out/test_openpgp-$tag" "$out/pgp.key" "$out/pgp.cert" "$out/pgp.sig" \
            "$out/message" "$rfc9980/v6-slhdsa-128f-sample-pk.asc" "$rfc9980/v6-slhdsa-128f-sample-signature.asc" \
            "$out/c-pgp-$tag.sig"
        if "$cli" sop verify "$out/c-pgp-$tag.sig" "$out/pgp.cert" <"$out/message" >/dev/null 2>&1; then
            ok
        else
            bad "the CLI does not verify the C library's OpenPGP signature ($tag)"
        fi
    fi
    if build "test_encrypted-$tag" "$link" "$san" "$here/test_encrypted.c"; then
        run "test_encrypted-$tag" "$out/test_encrypted-$tag" "$out/enc.key" "$out/pass.txt" "$out/enc.pub" \
            "$out/c-enc-$tag.key"
        if "$cli" --passphrase-file "$out/pass.txt" pubkey "$out/c-enc-$tag.key" 2>/dev/null | cmp -s - "$out/enc.pub"; then
            ok
        else
            bad "the CLI does not read the C library's encrypted key ($tag)"
        fi
    fi
    for s in $nist_sets; do
        for own in os own; do
            local def=()
            [ $own = os ] || def=(-DOWN_RANDOMBYTES)
            build "nist-$s-$own-$tag" "$link" "$san" "${def[@]}" -DNIST_HEADER="<sphincs/nist/$s.h>" \
                "$here/test_nist.c" && run "nist-$s-$own-$tag" "$out/nist-$s-$own-$tag"
        done
    done
    for s in $kat_sets; do
        if build "kat-$s-$tag" "$link" "$san" "${crypto_cflags[@]}" -DNIST_HEADER="<sphincs/nist/$s.h>" \
            "$here/kat/PQCgenKAT_sign.c" "$here/kat/rng.c"; then
            if "$out/kat-$s-$tag" "$out/kat-$s-$tag.rsp" 2>"$out/kat-$s-$tag.log" &&
                [ "$(sha256sum <"$out/kat-$s-$tag.rsp" | cut -d' ' -f1)" = "$(kat_expect "$s")" ]; then
                ok
                rm -f "$out/kat-$s-$tag.rsp" # a few MB each; kept only when it differs
            else
                bad "$s: PQCgenKAT_sign output differs from the reference KAT ($tag)"
                cat "$out/kat-$s-$tag.log"
            fi
        fi
    done
    for example in $docs_examples; do
        local name
        name="$(basename "$example" .c)-$tag"
        if build "$name" "$link" "$san" "$example"; then
            if "$out/$name" >"$out/$name.log" 2>&1; then ok; else
                bad "docs/c.md's example $(basename "$example" .c) failed ($tag)"
                cat "$out/$name.log"
            fi
        fi
    done
    if [ -s "$out/readme_example.c" ] && build "readme-$tag" "$link" "$san" "$out/readme_example.c"; then
        if "$out/readme-$tag" >"$out/readme-$tag.log" 2>&1; then ok; else
            bad "the README example failed ($tag)"
            cat "$out/readme-$tag.log"
        fi
    fi
}

f_sets=$(cd crates/capi/include/sphincs/nist && ls -- *f*.h | sed 's/\.h$//' | tr '\n' ' ')
kat_simple="sphincs-shake-128f-simple sphincs-sha2-128f-simple sphincs-haraka-128f-simple"
variant shared plain "$f_sets sphincs-256" "$kat_simple sphincs-shake-128f-robust sphincs-sha2-128f-robust sphincs-haraka-128f-robust"
variant static plain "slh-dsa-shake-128f sphincs-sha2-128f-simple sphincs-256" "$kat_simple"
variant shared sanitized "slh-dsa-sha2-128f sphincs-haraka-128f-simple sphincs-256" "$kat_simple"
variant static sanitized "slh-dsa-shake-128f sphincs-shake-128f-robust sphincs-256" "$kat_simple"

# (Tool output goes to a file before grep -q reads it: grep -q stops at the
# first match, and under pipefail the writer's SIGPIPE would fail the check
# at random, as it once did for ldd.)
# The installed library as a user meets it, with pkg-config's flags alone:
# the shared build runs from the prefix without LD_LIBRARY_PATH (the rpath
# in Libs), and `cc -static` with --static --libs links a fully static
# program (no -lgcc_s in Libs.private).
if [ -s "$out/readme_example.c" ]; then
    read -r -a plain_libs <<<"$(pkg-config --cflags --libs sphincs)"
    if "$cc" -std=c11 -Wall -Wextra -Werror "$out/readme_example.c" -o "$out/as-installed" "${plain_libs[@]}" &&
        [ "$(env -u LD_LIBRARY_PATH "$out/as-installed")" = success ] &&
        ldd "$out/as-installed" >"$out/as-installed.ldd" &&
        grep -q "libsphincs.so.0 => $prefix/lib/" "$out/as-installed.ldd"; then ok; else
        bad "a program built with pkg-config --libs sphincs does not run from $prefix without LD_LIBRARY_PATH"
    fi
    read -r -a static_all <<<"$(pkg-config --cflags --static --libs sphincs)"
    if "$cc" -static -std=c11 -Wall -Wextra -Werror "$out/readme_example.c" -o "$out/as-installed-static" \
        "${static_all[@]}" 2>"$out/as-installed-static.log" &&
        readelf -d "$out/as-installed-static" >"$out/as-installed-static.dyn" &&
        ! grep -q NEEDED "$out/as-installed-static.dyn" &&
        [ "$(env -u LD_LIBRARY_PATH "$out/as-installed-static")" = success ]; then ok; else
        bad "cc -static with pkg-config --static --libs sphincs does not link and run a static program"
        cat "$out/as-installed-static.log"
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
