/* The six draft SP 800-230 (ipd) limited-signature sets through the native C
 * API: handles, sizes and the 2^24 limit; our known-answer signatures verify
 * (and damaged ones, another message or another context do not); tree-cache
 * import refuses a cache that is not the key's and keys of other sets.
 * A full key generation of these sets builds a 2^21- or 2^22-leaf tree (a
 * minute or more), so the known answers stand in for it here; the Rust and
 * CLI tests make and use real tree caches.
 *
 * usage: test_sp800_230 KAT_LINES
 *   one line per set: "NAME PK MSG CTX SIG SK_SEED SK_PRF", hex, made by
 *   tests/run.sh from crates/sphincs/tests/data/sp800-230-kat.json.gz */
#include <stdint.h>
#include <string.h>

#include <sphincs.h>

#include "check.h"

static size_t unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = strlen(hex) / 2;
    if (n > cap)
        return (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return (size_t)-1;
        out[i] = (uint8_t)v;
    }
    return n;
}

static char line[80000], name[64], pk_hex[200], msg_hex[200], ctx_hex[200], sig_hex[40000], seed_hex[200],
    prf_hex[200];
static uint8_t pk_raw[64], msg[100], ctx[100], sig[20000], sk_raw[128], *junk;
static const size_t junk_len = 600000; /* larger than any tree cache */

static void one_set(void)
{
    const sphincs_alg *alg = NULL;
    sphincs_public_key *pk = NULL;
    sphincs_secret_key *sk = NULL;
    size_t pklen, msglen, ctxlen, siglen, n;

    CHECK_ST(sphincs_alg_by_name(name, &alg), SPHINCS_OK);
    if (alg == NULL)
        return;
    CHECK(sphincs_alg_scheme(alg) == SPHINCS_SCHEME_SLH_DSA, "%s is an SLH-DSA engine set", name);
    CHECK(sphincs_alg_max_signatures(alg) == (uint64_t)1 << 24, "%s: at most 2^24 signatures", name);
    pklen = unhex(pk_hex, pk_raw, sizeof pk_raw);
    msglen = unhex(msg_hex, msg, sizeof msg);
    ctxlen = unhex(ctx_hex, ctx, sizeof ctx);
    siglen = unhex(sig_hex, sig, sizeof sig);
    CHECK(pklen == sphincs_alg_public_key_bytes(alg) && siglen == sphincs_alg_signature_bytes(alg) &&
              sphincs_alg_secret_key_bytes(alg) == 2 * pklen && sphincs_alg_seed_bytes(alg) == 3 * pklen / 2,
          "%s: sizes (pk %zu, sig %zu)", name, pklen, siglen);

    /* The known answer verifies; damage anywhere is refused. */
    CHECK_ST(sphincs_public_key_import(alg, pk_raw, pklen, &pk), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, msg, msglen, sig, siglen, ctx, ctxlen, SPHINCS_PREHASH_NONE), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, msg, msglen - 1, sig, siglen, ctx, ctxlen, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_INVALID_SIGNATURE);
    CHECK_ST(sphincs_verify(pk, msg, msglen, sig, siglen, ctx, ctxlen - 1, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_INVALID_SIGNATURE);
    CHECK_ST(sphincs_verify(pk, msg, msglen, sig, siglen - 1, ctx, ctxlen, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_INVALID_SIGNATURE);
    for (size_t at = 0; at < siglen; at += siglen / 7) {
        sig[at] ^= 0x10;
        CHECK_ST(sphincs_verify(pk, msg, msglen, sig, siglen, ctx, ctxlen, SPHINCS_PREHASH_NONE),
                 SPHINCS_ERR_INVALID_SIGNATURE);
        sig[at] ^= 0x10;
    }

    /* The secret key SK.seed || SK.prf || PK.seed || PK.root, with caches that are not its own. */
    n = pklen / 2;
    CHECK(unhex(seed_hex, sk_raw, n) == n && unhex(prf_hex, sk_raw + n, n) == n, "%s: seeds", name);
    memcpy(sk_raw + 2 * n, pk_raw, pklen);
    memset(junk, 0x5a, junk_len);
    CHECK_ST(sphincs_secret_key_import_with_tree_cache(alg, sk_raw, 4 * n, junk, junk_len, &sk),
             SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_secret_key_import_with_tree_cache(alg, sk_raw, 4 * n, junk, 0, &sk), SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_secret_key_import_with_tree_cache(alg, sk_raw, 4 * n - 1, junk, 100, &sk),
             SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_secret_key_import_with_tree_cache(alg, sk_raw, 4 * n, NULL, 0, &sk), SPHINCS_ERR_NULL_POINTER);
    CHECK(sk == NULL, "%s: no key made from a foreign cache", name);
    sphincs_public_key_free(pk);
}

int main(int argc, char **argv)
{
    FILE *f;
    int sets = 0;
    const sphincs_alg *fips = NULL, *stray = NULL;
    sphincs_secret_key *sk = NULL;
    uint8_t seed[48] = {0}, out[16];
    size_t len = 0;

    if (argc != 2 || (f = fopen(argv[1], "r")) == NULL) {
        printf("usage: test_sp800_230 KAT_LINES\n");
        return 2;
    }
    junk = xmalloc(junk_len);
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%63s %199s %199s %199s %39999s %199s %199s", name, pk_hex, msg_hex, ctx_hex, sig_hex,
                   seed_hex, prf_hex) != 7)
            continue;
        sets++;
        one_set();
    }
    fclose(f);
    CHECK(sets == 6, "%d known answers (one per set)", sets);
    CHECK(sphincs_alg_count() == 55, "%zu sets in all", sphincs_alg_count());
    for (size_t i = 49; i < 55; i++)
        CHECK(sphincs_alg_max_signatures(sphincs_alg_at(i)) == (uint64_t)1 << 24, "set %zu is limited", i);

    /* Sets without a tree cache, and bad handles. */
    CHECK_ST(sphincs_alg_by_name("SLH-DSA-SHA2-128f", &fips), SPHINCS_OK);
    CHECK(sphincs_alg_max_signatures(fips) == 0 && sphincs_alg_max_signatures(NULL) == 0 &&
              sphincs_alg_max_signatures(stray) == 0,
          "no limit for FIPS 205 sets and invalid handles");
    CHECK_ST(sphincs_keygen_from_seed(fips, seed, sizeof seed, 1, &sk), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_tree_cache(sk, out, sizeof out, &len), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_secret_key_tree_cache(NULL, out, sizeof out, &len), SPHINCS_ERR_NULL_POINTER);
    sphincs_secret_key_free(sk);
    sk = NULL;
    CHECK_ST(sphincs_secret_key_import_with_tree_cache(fips, junk, 64, junk, 100, &sk), SPHINCS_ERR_UNSUPPORTED);
    CHECK(sk == NULL, "no key made for a set without a tree");
    free(junk);
    return check_report();
}
