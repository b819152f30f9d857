/*
 * The provider's state across calls, through the C API:
 *
 *  contexts   the provider loaded into two library contexts, A then B; A
 *             freed; an error raised in B must reach B's queue with our
 *             reason (provider.sh runs this mode under valgrind, which
 *             fails on any read of A's freed provider object).
 *  streams    a streamed sign whose final is first given a buffer too
 *             small (and a NULL size query) must, on the retry, sign the
 *             message streamed -- or fail -- never the empty message;
 *             through EVP_DigestSignFinal with EVP_MD_CTX_FLAG_FINALISE
 *             (3.0+) and EVP_PKEY_sign_message_final (3.4+). An update
 *             refused at the streaming cap must make every later final on
 *             that context fail, for signing and for verifying (DigestVerify
 *             and, on 3.4+, verify_message before the signature is set),
 *             although the signature given is valid for the prefix that
 *             was accepted. On 3.4+, verify_message with the signature set
 *             first has no cap: 80 MiB streamed in 1 MiB pieces verifies
 *             without the provider holding it (peak RSS), and is invalid
 *             with a byte changed past 64 MiB, with the prefix's signature,
 *             or one byte short. DigestVerify with FINALISE and the
 *             signature set first: a final given another signature is
 *             refused and so is every final after it (by the provider on
 *             3.0, by OpenSSL itself on 3.5, which ends a FINALISE
 *             context at its first final).
 *
 * Build: gcc -Wall -Wextra -Werror -O2 provider_streams.c -o provider_streams -lcrypto -ldl
 * Run:   provider_streams PROVIDER_DIR contexts|streams
 * Prints "ok: ..." or "FAIL: ..." per check, then "streams: ok" (exit 0)
 * or "streams: FAILED" (exit 1); 2 on set-up errors.
 */
#include <dlfcn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "provider_common.h"

static const char *propq = "provider=sphincs";
static const char *alg = "SLH-DSA-SHA2-128f";
#define SIG_LEN 17088
/* The provider's streaming cap (crates/openssl-provider/src/signature.rs). */
#define CAP ((size_t)64 << 20)
/* A message past the cap, and the pieces it is streamed in. */
#define BIG (CAP + ((size_t)16 << 20))
#define PIECE ((size_t)1 << 20)

/* The 3.4+ message API, looked up at run time (absent on 3.0). */
typedef struct evp_signature_st EVP_SIGNATURE;
typedef int (*init_fn)(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
typedef int (*update_fn)(EVP_PKEY_CTX *, const unsigned char *, size_t);
typedef int (*sign_final_fn)(EVP_PKEY_CTX *, unsigned char *, size_t *);
typedef int (*verify_final_fn)(EVP_PKEY_CTX *);
typedef int (*set_sig_fn)(EVP_PKEY_CTX *, const unsigned char *, size_t);
static init_fn sign_msg_init, verify_msg_init;
static update_fn sign_msg_update, verify_msg_update;
static sign_final_fn sign_msg_final;
static verify_final_fn verify_msg_final;
static set_sig_fn set_signature;

static int det = 1;

static void contexts(const char *dir)
{
    OSSL_LIB_CTX *a = OSSL_LIB_CTX_new(), *b = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *pa, *pb;
    unsigned char pub[31] = {0};
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string("pub", pub, sizeof(pub)), OSSL_PARAM_construct_end()};
    EVP_PKEY *k = NULL;
    EVP_PKEY_CTX *ctx;
    int r;

    if (a == NULL || b == NULL || OSSL_PROVIDER_set_default_search_path(a, dir) != 1
        || OSSL_PROVIDER_set_default_search_path(b, dir) != 1 || (pa = OSSL_PROVIDER_load(a, "sphincs")) == NULL
        || (pb = OSSL_PROVIDER_load(b, "sphincs")) == NULL) {
        check(0, "contexts: load the provider into two library contexts", drain());
        return;
    }
    /* Errors in A while both live, then A freed. */
    EVP_PKEY_free(generate_in(a, alg, propq));
    OSSL_PROVIDER_unload(pa);
    OSSL_LIB_CTX_free(a);
    ERR_clear_error();
    ctx = EVP_PKEY_CTX_new_from_name(b, alg, propq);
    r = ctx != NULL && EVP_PKEY_fromdata_init(ctx) == 1 && EVP_PKEY_fromdata(ctx, &k, EVP_PKEY_PUBLIC_KEY, p) == 1;
    refused(r, "contexts: an error in B after A was freed names our reason (invalid SLH-DSA key)",
            "invalid SLH-DSA key:");
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(k);
    {
        EVP_PKEY *key = generate_in(b, alg, propq);
        check(key != NULL, "contexts: B still generates keys", NULL);
        EVP_PKEY_free(key);
    }
    OSSL_PROVIDER_unload(pb);
    OSSL_LIB_CTX_free(b);
}

/* The deterministic one-shot signature of msg. */
static int one_shot(EVP_PKEY *key, const unsigned char *msg, size_t len, unsigned char *sig)
{
    OSSL_PARAM params[] = {OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_construct_end()};
    size_t siglen = SIG_LEN;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int r = md != NULL && EVP_DigestSignInit_ex(md, NULL, NULL, NULL, propq, key, params) == 1
            && EVP_DigestSign(md, sig, &siglen, msg, len) == 1 && siglen == SIG_LEN;
    EVP_MD_CTX_free(md);
    return r;
}

/* A retry after a refusal: failing is fine; succeeding must give `want`. */
static void retry_signs(int r, const unsigned char *got, size_t len, const unsigned char *want, const char *what)
{
    char d[100];
    if (r != 1) {
        snprintf(d, sizeof(d), "the retry failed (allowed): %.60s", drain());
        check(1, what, d);
    } else {
        int same = len == SIG_LEN && memcmp(got, want, SIG_LEN) == 0;
        check(same, what, same ? NULL : len == SIG_LEN ? "signed another message" : "wrong length");
    }
    ERR_clear_error();
}

static void short_buffer(EVP_PKEY *key)
{
    static const unsigned char msg[] = "streamed in two pieces";
    static unsigned char ref[SIG_LEN], sig[SIG_LEN];
    OSSL_PARAM params[] = {OSSL_PARAM_construct_int("deterministic", &det), OSSL_PARAM_construct_end()};
    size_t len, half = 10;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int r;

    if (!one_shot(key, msg, sizeof(msg), ref)) {
        check(0, "streams: one-shot reference signature", drain());
        EVP_MD_CTX_free(md);
        return;
    }
    EVP_MD_CTX_set_flags(md, EVP_MD_CTX_FLAG_FINALISE);
    r = EVP_DigestSignInit_ex(md, NULL, NULL, NULL, propq, key, params) == 1
        && EVP_DigestSignUpdate(md, msg, half) == 1 && EVP_DigestSignUpdate(md, msg + half, sizeof(msg) - half) == 1;
    check(r, "streams: DigestSign init and two updates", r ? NULL : drain());
    len = 0;
    r = EVP_DigestSignFinal(md, NULL, &len);
    check(r == 1 && len == SIG_LEN, "streams: DigestSignFinal(NULL) gives the length", NULL);
    len = 100;
    refused(EVP_DigestSignFinal(md, sig, &len), "streams: DigestSignFinal into 100 bytes", "17088");
    len = sizeof(sig);
    r = EVP_DigestSignFinal(md, sig, &len);
    retry_signs(r, sig, len, ref, "streams: DigestSignFinal retried: the streamed message, not an empty one");
    EVP_MD_CTX_free(md);

    if (sign_msg_init != NULL) {
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
        r = ctx != NULL && sign_msg_init(ctx, NULL, params) == 1 && sign_msg_update(ctx, msg, half) == 1
            && sign_msg_update(ctx, msg + half, sizeof(msg) - half) == 1;
        check(r, "streams: sign_message init and two updates", r ? NULL : drain());
        len = 100;
        refused(sign_msg_final(ctx, sig, &len), "streams: sign_message_final into 100 bytes", "17088");
        len = sizeof(sig);
        r = sign_msg_final(ctx, sig, &len);
        retry_signs(r, sig, len, ref, "streams: sign_message_final retried: the streamed message");
        EVP_PKEY_CTX_free(ctx);
    }
}

/* Peak resident memory of this process, in KiB. */
static long max_rss_kib(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_maxrss : -1;
}

/* A verify_message stream, the signature set before the message: `len`
 * bytes of `msg` fed in 1 MiB pieces; the final's result (1, 0, or -1 for
 * a failed call before it). */
static int stream_verified(EVP_PKEY *key, const unsigned char *sig, const unsigned char *msg, size_t len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
    int r = ctx != NULL && verify_msg_init(ctx, NULL, NULL) == 1 && set_signature(ctx, sig, SIG_LEN) == 1;
    for (size_t at = 0; r && at < len; at += PIECE)
        r = verify_msg_update(ctx, msg + at, len - at < PIECE ? len - at : PIECE) == 1;
    r = r ? verify_msg_final(ctx) : -1;
    EVP_PKEY_CTX_free(ctx);
    return r;
}

static void over_cap(EVP_PKEY *key)
{
    static unsigned char sig[SIG_LEN], big_sig[SIG_LEN];
    unsigned char *big = malloc(BIG);
    size_t len;
    long rss;
    EVP_MD_CTX *md;
    int r;

    if (big == NULL) {
        check(0, "streams: 80 MiB buffer", NULL);
        return;
    }
    for (size_t i = 0; i < BIG; i++)
        big[i] = (unsigned char)(i * 131 + (i >> 13));
    /* Valid signatures over the 64 MiB prefix and over all 80 MiB. */
    if (!one_shot(key, big, CAP, sig) || !one_shot(key, big, BIG, big_sig)) {
        check(0, "streams: one-shot signatures over 64 and 80 MiB", drain());
        free(big);
        return;
    }
    if (verify_msg_init != NULL) {
        /* The signature first: no cap, constant memory. 80 MiB (past the
         * cap) streamed in 1 MiB pieces verifies, without the provider
         * holding the message (peak RSS grows by far less than 80 MiB;
         * the whole message is already resident here). */
        rss = max_rss_kib();
        r = stream_verified(key, big_sig, big, BIG);
        check(r == 1, "streams: verify_message, signature first, 80 MiB in 1 MiB pieces: valid", r == 1 ? NULL : drain());
        {
            char d[80];
            long grew = max_rss_kib() - rss;
            snprintf(d, sizeof(d), "peak RSS grew by %ld KiB", grew);
            check(rss > 0 && grew < 8192, "streams: ... and the provider did not hold the message", d);
        }
        /* Invalid: a byte changed past the cap, the 64 MiB prefix's
         * signature over prefix + tail, a message one byte short. */
        big[CAP + 5] ^= 1;
        r = stream_verified(key, big_sig, big, BIG);
        check(r == 0, "streams: ... a byte changed past 64 MiB: invalid (0)", r == 0 ? NULL : drain());
        big[CAP + 5] ^= 1;
        r = stream_verified(key, sig, big, BIG);
        check(r == 0, "streams: ... the 64 MiB prefix's signature over 80 MiB: invalid (0)", r == 0 ? NULL : drain());
        r = stream_verified(key, big_sig, big, BIG - 1);
        check(r == 0, "streams: ... one byte short: invalid (0)", r == 0 ? NULL : drain());
    }
    /* DigestVerify gets the signature only at its final: the message is
     * held until then, up to the cap. */
    md = EVP_MD_CTX_new();
    r = EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, propq, key, NULL) == 1 && EVP_DigestVerifyUpdate(md, big, CAP) == 1;
    check(r, "streams: DigestVerifyUpdate of 64 MiB accepted", r ? NULL : drain());
    refused(EVP_DigestVerifyUpdate(md, (const unsigned char *)"tail", 4), "streams: an update past the cap refused",
            "over 67108864 bytes with no signature yet");
    refused(EVP_DigestVerifyFinal(md, sig, SIG_LEN),
            "streams: DigestVerifyFinal after the refused update fails (prefix signature + unsigned tail)",
            "was refused");
    EVP_MD_CTX_free(md);

    md = EVP_MD_CTX_new();
    EVP_MD_CTX_set_flags(md, EVP_MD_CTX_FLAG_FINALISE);
    r = EVP_DigestSignInit_ex(md, NULL, NULL, NULL, propq, key, NULL) == 1 && EVP_DigestSignUpdate(md, big, CAP) == 1;
    check(r, "streams: DigestSignUpdate of 64 MiB accepted", r ? NULL : drain());
    refused(EVP_DigestSignUpdate(md, (const unsigned char *)"tail", 4), "streams: a sign update past the cap refused",
            "signing reads the message twice");
    len = sizeof(sig);
    refused(EVP_DigestSignFinal(md, sig, &len), "streams: DigestSignFinal after the refused update fails",
            "was refused");
    EVP_MD_CTX_free(md);

    if (verify_msg_init != NULL) {
        /* No signature before the message: held, up to the cap; a final
         * after the refusal fails even once the signature is set. */
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
        r = ctx != NULL && verify_msg_init(ctx, NULL, NULL) == 1 && verify_msg_update(ctx, big, CAP) == 1;
        check(r, "streams: verify_message init, 64 MiB update, no signature yet", r ? NULL : drain());
        refused(verify_msg_update(ctx, (const unsigned char *)"tail", 4),
                "streams: a verify_message update past the cap with no signature yet refused",
                "set the signature before the first update");
        r = set_signature(ctx, sig, SIG_LEN);
        refused(r == 1 ? verify_msg_final(ctx) : 0, "streams: verify_message_final after the refused update fails",
                "was refused");
        EVP_PKEY_CTX_free(ctx);

        /* A parameter that the message hash starts from cannot change
         * once the message has begun. */
        ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
        r = ctx != NULL && verify_msg_init(ctx, NULL, NULL) == 1 && set_signature(ctx, big_sig, SIG_LEN) == 1
            && verify_msg_update(ctx, big, 100) == 1;
        check(r, "streams: verify_message, signature first, 100 bytes", r ? NULL : drain());
        refused(set_signature(ctx, sig, SIG_LEN), "streams: ... a new signature after the message began refused",
                "cannot change once the message has begun");
        EVP_PKEY_CTX_free(ctx);
    }
    free(big);
}

/* DigestVerify with EVP_MD_CTX_FLAG_FINALISE and the signature set (as a
 * parameter) before the message: a final given another signature is
 * refused, and so is every final after it -- never a verification of the
 * empty message, although the signature given is the empty message's. */
static void signature_first_final(EVP_PKEY *key)
{
    static unsigned char msg_sig[SIG_LEN], empty_sig[SIG_LEN];
    static const unsigned char msg[] = "streamed with the signature first";
    EVP_PKEY_CTX *pctx = NULL;
    EVP_MD_CTX *md;
    OSSL_PARAM p[2];
    const char *later;
    int r, r2;

    if (!one_shot(key, msg, sizeof(msg) - 1, msg_sig) || !one_shot(key, (const unsigned char *)"", 0, empty_sig)) {
        check(0, "streams: one-shot signatures over the message and the empty message", drain());
        return;
    }
    md = EVP_MD_CTX_new();
    EVP_MD_CTX_set_flags(md, EVP_MD_CTX_FLAG_FINALISE);
    p[0] = OSSL_PARAM_construct_octet_string("signature", msg_sig, SIG_LEN);
    p[1] = OSSL_PARAM_construct_end();
    r = md != NULL && EVP_DigestVerifyInit_ex(md, &pctx, NULL, NULL, propq, key, NULL) == 1
        && EVP_PKEY_CTX_set_params(pctx, p) == 1 && EVP_DigestVerifyUpdate(md, msg, sizeof(msg) - 1) == 1;
    check(r, "streams: DigestVerify (FINALISE), signature set first, message streamed", r ? NULL : drain());
    refused(r ? EVP_DigestVerifyFinal(md, empty_sig, SIG_LEN) : 1,
            "streams: ... a final given another signature refused", "not the one set before the message");
    /* OpenSSL 3.5 itself refuses a final on a FINALISE context whose
     * final has run ("final error"); 3.0 asks the provider, which refuses. */
    later = OpenSSL_version_num() >= 0x30500000L ? "final error" : "was refused";
    r2 = r ? EVP_DigestVerifyFinal(md, empty_sig, SIG_LEN) : 1;
    refused(r2, "streams: ... a retried final refused too (not a verification of the empty message)", later);
    r2 = r ? EVP_DigestVerifyFinal(md, msg_sig, SIG_LEN) : 1;
    refused(r2, "streams: ... and with the right signature after that (the message is gone)", later);
    EVP_MD_CTX_free(md);
}

int main(int argc, char **argv)
{
    EVP_PKEY *key;
    if (argc < 3) {
        fprintf(stderr, "usage: %s PROVIDER_DIR contexts|streams\n", argv[0]);
        return 2;
    }
    printf("%s\n", OpenSSL_version(OPENSSL_VERSION));
    if (strcmp(argv[2], "contexts") == 0) {
        contexts(argv[1]);
    } else {
        if (OSSL_PROVIDER_set_default_search_path(NULL, argv[1]) != 1 || OSSL_PROVIDER_load(NULL, "sphincs") == NULL
            || OSSL_PROVIDER_load(NULL, "default") == NULL) {
            ERR_print_errors_fp(stderr);
            return 2;
        }
        sign_msg_init = (init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_init");
        sign_msg_update = (update_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_update");
        sign_msg_final = (sign_final_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_final");
        verify_msg_init = (init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_init");
        verify_msg_update = (update_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_update");
        verify_msg_final = (verify_final_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_final");
        set_signature = (set_sig_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_CTX_set_signature");
        if (!sign_msg_init || !sign_msg_update || !sign_msg_final || !verify_msg_init || !verify_msg_update
            || !verify_msg_final || !set_signature)
            sign_msg_init = NULL, verify_msg_init = NULL;
        printf("message API: %s\n", sign_msg_init ? "present" : "absent");
        key = generate(alg, propq);
        if (key == NULL) {
            check(0, "streams: key generation", drain());
        } else {
            short_buffer(key);
            signature_first_final(key);
            over_cap(key);
        }
        EVP_PKEY_free(key);
    }
    printf("streams: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
