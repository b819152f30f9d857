/*
 * Through the C API, with the default and sphincs providers loaded as an
 * application would (`-provider sphincs -provider default -propquery
 * '?provider=sphincs'`):
 *
 *  served     for every set, the fetched EVP_SIGNATURE and EVP_KEYMGMT, a
 *             generated key and the EVP_PKEY_CTX of a DigestSign/Verify
 *             init all belong to the provider named "sphincs", also for a
 *             key of the default provider (3.5's built-in); where the
 *             built-in exists, a fetch at provider=default names "default",
 *             so these checks fail if the built-in answered.
 *  bad input  wrong-length keys and signatures, a context of 256 bytes,
 *             wrong-typed parameters, an output buffer too small and NULL
 *             where OpenSSL passes it: each refused with an error on the
 *             queue naming the reason (or, for NULL, accepted as OpenSSL
 *             allows), the process alive. Unknown parameters are ignored,
 *             as OpenSSL's own providers do (the openssl command refuses
 *             them before they reach a provider: provider.sh checks that).
 *
 * Build: gcc -Wall -Wextra -Werror -O2 provider_checks.c -o provider_checks -lcrypto
 * Run:   provider_checks PROVIDER_DIR
 * Prints "ok: ..." or "FAIL: ..." per check, then "checks: ok" (exit 0) or
 * "checks: FAILED" (exit 1); 2 on set-up errors.
 */
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *propq = "?provider=sphincs";

#include "provider_common.h"

static const char *sets[] = {
    "SLH-DSA-SHA2-128s", "SLH-DSA-SHA2-128f", "SLH-DSA-SHA2-192s", "SLH-DSA-SHA2-192f",
    "SLH-DSA-SHA2-256s", "SLH-DSA-SHA2-256f", "SLH-DSA-SHAKE-128s", "SLH-DSA-SHAKE-128f",
    "SLH-DSA-SHAKE-192s", "SLH-DSA-SHAKE-192f", "SLH-DSA-SHAKE-256s", "SLH-DSA-SHAKE-256f",
    "HASH-SLH-DSA-SHA2-128f-WITH-SHA256",
};

static int is_ours(const OSSL_PROVIDER *p)
{
    return p != NULL && strcmp(OSSL_PROVIDER_get0_name(p), "sphincs") == 0;
}

static const char *name_of(const OSSL_PROVIDER *p)
{
    return p == NULL ? "(none)" : OSSL_PROVIDER_get0_name(p);
}

static void served(void)
{
    char what[200];
    EVP_SIGNATURE *builtin = EVP_SIGNATURE_fetch(NULL, "SLH-DSA-SHA2-128f", "provider=default");
    ERR_clear_error();
    printf("built-in SLH-DSA: %s\n", builtin ? "present (provider default)" : "absent");
    for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        const char *alg = sets[i];
        EVP_SIGNATURE *sig = EVP_SIGNATURE_fetch(NULL, alg, propq);
        EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(NULL, alg, propq);
        EVP_PKEY *key = generate(alg, propq);
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pctx = NULL;
        const OSSL_PROVIDER *sp = NULL, *vp = NULL;
        if (md != NULL && key != NULL && EVP_DigestSignInit_ex(md, &pctx, NULL, NULL, propq, key, NULL) == 1)
            sp = EVP_PKEY_CTX_get0_provider(pctx);
        EVP_MD_CTX_free(md);
        md = EVP_MD_CTX_new();
        pctx = NULL;
        if (md != NULL && key != NULL && EVP_DigestVerifyInit_ex(md, &pctx, NULL, NULL, propq, key, NULL) == 1)
            vp = EVP_PKEY_CTX_get0_provider(pctx);
        snprintf(what, sizeof(what), "%s: signature, keymgmt, key, sign and verify contexts @ sphincs", alg);
        if (is_ours(sig ? EVP_SIGNATURE_get0_provider(sig) : NULL) && is_ours(km ? EVP_KEYMGMT_get0_provider(km) : NULL)
            && is_ours(key ? EVP_PKEY_get0_provider(key) : NULL) && is_ours(sp) && is_ours(vp)) {
            check(1, what, NULL);
        } else {
            char d[200];
            snprintf(d, sizeof(d), "signature %s, keymgmt %s, key %s, sign %s, verify %s",
                     name_of(sig ? EVP_SIGNATURE_get0_provider(sig) : NULL),
                     name_of(km ? EVP_KEYMGMT_get0_provider(km) : NULL), name_of(key ? EVP_PKEY_get0_provider(key) : NULL),
                     name_of(sp), name_of(vp));
            check(0, what, d);
            ERR_print_errors_fp(stdout);
        }
        ERR_clear_error();
        EVP_MD_CTX_free(md);
        EVP_PKEY_free(key);
        EVP_KEYMGMT_free(km);
        EVP_SIGNATURE_free(sig);
    }
    if (builtin != NULL) {
        /* The control: the built-in is there, and is told apart by name. */
        check(!is_ours(EVP_SIGNATURE_get0_provider(builtin)), "control: a fetch at provider=default is not ours",
              name_of(EVP_SIGNATURE_get0_provider(builtin)));
        /* A key of the built-in, signed with the property query: ours signs. */
        EVP_PKEY *bkey = generate("SLH-DSA-SHA2-128f", "provider=default");
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pctx = NULL;
        const OSSL_PROVIDER *p = NULL;
        if (bkey != NULL && md != NULL && EVP_DigestSignInit_ex(md, &pctx, NULL, NULL, propq, bkey, NULL) == 1)
            p = EVP_PKEY_CTX_get0_provider(pctx);
        check(bkey != NULL && !is_ours(EVP_PKEY_get0_provider(bkey)) && is_ours(p),
              "a built-in key signed with ?provider=sphincs: ours signs", name_of(p));
        ERR_clear_error();
        EVP_MD_CTX_free(md);
        EVP_PKEY_free(bkey);
        EVP_SIGNATURE_free(builtin);
    }
}

static int fromdata(const char *name, size_t len, EVP_PKEY **out)
{
    unsigned char buf[128] = {0};
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(name, buf, len), OSSL_PARAM_construct_end()};
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "SLH-DSA-SHA2-128f", propq);
    int sel = strcmp(name, "priv") == 0 ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
    int r = ctx != NULL && EVP_PKEY_fromdata_init(ctx) == 1 && EVP_PKEY_fromdata(ctx, out, sel, p) == 1;
    EVP_PKEY_CTX_free(ctx);
    return r;
}

/* set_params on a fresh sign context of `key`. */
static int sign_params(EVP_PKEY *key, const OSSL_PARAM *params)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
    int r = ctx != NULL && EVP_PKEY_sign_init(ctx) == 1 && EVP_PKEY_CTX_set_params(ctx, params) == 1;
    EVP_PKEY_CTX_free(ctx);
    return r;
}

/* One-shot DigestSign with parameters; the signature and its length in *sig, *len. */
static int digest_sign(EVP_PKEY *key, const OSSL_PARAM *params, unsigned char *sig, size_t *len)
{
    static const unsigned char msg[] = "provider_checks message";
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int r = md != NULL && EVP_DigestSignInit_ex(md, NULL, NULL, NULL, propq, key, params) == 1
            && EVP_DigestSign(md, sig, len, msg, sizeof(msg)) == 1;
    EVP_MD_CTX_free(md);
    return r;
}

static int digest_verify(EVP_PKEY *key, const unsigned char *sig, size_t len)
{
    static const unsigned char msg[] = "provider_checks message";
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int r = md != NULL && EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, propq, key, NULL) == 1
            ? EVP_DigestVerify(md, sig, len, msg, sizeof(msg))
            : -1;
    EVP_MD_CTX_free(md);
    return r;
}

static void bad_input(void)
{
    EVP_PKEY *key = generate("SLH-DSA-SHA2-128f", propq), *k = NULL;
    static unsigned char sig[17088 + 16], sig2[17088 + 16];
    unsigned char ctx256[256];
    size_t len = sizeof(sig), len2;
    int det = 1, r;
    char text[] = "yes";

    if (key == NULL) {
        check(0, "bad input: key generation", NULL);
        return;
    }
    memset(ctx256, 'c', sizeof(ctx256));
    r = fromdata("pub", 31, &k);
    refused(r, "fromdata: a 31-byte public key", "public key is 31 bytes");
    EVP_PKEY_free(k), k = NULL;
    r = fromdata("priv", 63, &k);
    refused(r, "fromdata: a 63-byte private key", "63");
    EVP_PKEY_free(k), k = NULL;

    {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string("context-string", ctx256, 256), OSSL_PARAM_construct_end()};
        refused(sign_params(key, p), "context-string of 256 bytes", "at most 255");
    }
    {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_string("deterministic", text, 0), OSSL_PARAM_construct_end()};
        refused(sign_params(key, p), "deterministic as a UTF-8 string", "invalid parameter");
    }
    {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_int("context-string", &det), OSSL_PARAM_construct_end()};
        refused(sign_params(key, p), "context-string as an integer", "invalid parameter");
    }
    {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string("message-encoding", text, 3), OSSL_PARAM_construct_end()};
        refused(sign_params(key, p), "message-encoding as an octet string", "invalid parameter");
    }
    {
        /* Unknown names are ignored (OpenSSL's convention); the signature is unchanged. */
        int v = 7;
        OSSL_PARAM p[] = {OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_construct_int("no-such-param", &v),
                          OSSL_PARAM_construct_end()};
        OSSL_PARAM q[] = {OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_construct_end()};
        len = len2 = sizeof(sig);
        r = digest_sign(key, p, sig, &len) && digest_sign(key, q, sig2, &len2);
        check(r && len == len2 && memcmp(sig, sig2, len) == 0, "unknown parameter ignored, signature unchanged", NULL);
        ERR_clear_error();
    }
    /* NULL where OpenSSL passes it. */
    {
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
        check(ctx != NULL && EVP_PKEY_sign_init(ctx) == 1 && EVP_PKEY_CTX_set_params(ctx, NULL) == 1,
              "set_params(NULL) accepted", NULL);
        EVP_PKEY_CTX_free(ctx);
        ERR_clear_error();
        check(EVP_PKEY_get_params(key, NULL) == 1, "EVP_PKEY_get_params(NULL) accepted", NULL);
        ERR_clear_error();
    }
    {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_int("deterministic", &det),
                          OSSL_PARAM_construct_octet_string("context-string", NULL, 0), OSSL_PARAM_construct_end()};
        OSSL_PARAM q[] = {OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_construct_end()};
        len = len2 = sizeof(sig);
        r = digest_sign(key, p, sig, &len) && digest_sign(key, q, sig2, &len2);
        check(r && len == len2 && memcmp(sig, sig2, len) == 0, "context-string (NULL, 0) == no context", NULL);
        ERR_clear_error();
    }
    {
        size_t need = 0;
        r = digest_sign(key, NULL, NULL, &need);
        check(r && need == 17088, "DigestSign(sig = NULL) gives the length", NULL);
        ERR_clear_error();
    }
    len = 100;
    refused(digest_sign(key, NULL, sig, &len), "DigestSign into 100 bytes", "17088");
    len = sizeof(sig);
    if (digest_sign(key, NULL, sig, &len) == 1) {
        refused(digest_verify(key, sig, 100), "a 100-byte signature", "signature is 100 bytes");
        refused(digest_verify(key, sig, len + 1), "a 17089-byte signature", "17088");
        refused(digest_verify(key, NULL, 0), "an empty (NULL) signature", "signature is 0 bytes");
        sig[50] ^= 1;
        r = digest_verify(key, sig, len);
        drain();
        check(r == 0, "a tampered signature: 0 (invalid)", NULL);
    } else {
        check(0, "DigestSign", drain());
    }
    EVP_PKEY_free(key);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PROVIDER_DIR\n", argv[0]);
        return 2;
    }
    if (OSSL_PROVIDER_set_default_search_path(NULL, argv[1]) != 1 || OSSL_PROVIDER_load(NULL, "sphincs") == NULL
        || OSSL_PROVIDER_load(NULL, "default") == NULL) {
        ERR_print_errors_fp(stderr);
        return 2;
    }
    printf("%s\n", OpenSSL_version(OPENSSL_VERSION));
    served();
    bad_input();
    printf("checks: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
