/*
 * The OpenSSL 3.4+ message-signing API through the sphincs provider:
 * EVP_PKEY_sign_message_init/update/final in three pieces, with a context
 * string and deterministic signing, must give the signature one-shot
 * EVP_DigestSign gives; EVP_PKEY_verify_message_* must accept it and reject
 * a tampered copy; a key of another set must be refused by the fetched
 * algorithm. The 3.4 functions are looked up at run time, so the same
 * binary (built against the system's 3.0 headers) runs on 3.0, where it
 * reports "message API: absent" and exits 0.
 *
 * Build: gcc -Wall -Wextra -Werror -O2 provider_message.c -o provider_message -lcrypto -ldl
 * Run:   provider_message PROVIDER_DIR
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

typedef struct evp_signature_st EVP_SIGNATURE;
typedef EVP_SIGNATURE *(*fetch_fn)(OSSL_LIB_CTX *, const char *, const char *);
typedef void (*free_fn)(EVP_SIGNATURE *);
typedef int (*init_fn)(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
typedef int (*update_fn)(EVP_PKEY_CTX *, const unsigned char *, size_t);
typedef int (*sign_final_fn)(EVP_PKEY_CTX *, unsigned char *, size_t *);
typedef int (*verify_final_fn)(EVP_PKEY_CTX *);
typedef int (*set_sig_fn)(EVP_PKEY_CTX *, const unsigned char *, size_t);

static const char *propq = "provider=sphincs";
static const char *alg = "SLH-DSA-SHAKE-128f";

static EVP_PKEY *generate(const char *name)
{
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *gen = EVP_PKEY_CTX_new_from_name(NULL, name, propq);
    if (gen == NULL || EVP_PKEY_keygen_init(gen) != 1 || EVP_PKEY_generate(gen, &key) != 1)
        key = NULL;
    EVP_PKEY_CTX_free(gen);
    return key;
}

int main(int argc, char **argv)
{
    unsigned char msg[3000], ref[20000], sig[20000];
    size_t reflen = sizeof(ref), siglen = sizeof(sig);
    char ctxstr[] = "message API";
    int det = 1, failures = 0;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string("context-string", ctxstr, sizeof(ctxstr) - 1),
        OSSL_PARAM_construct_int("deterministic", &det),
        OSSL_PARAM_construct_end(),
    };
    fetch_fn fetch = (fetch_fn)dlsym(RTLD_DEFAULT, "EVP_SIGNATURE_fetch");
    free_fn sig_free = (free_fn)dlsym(RTLD_DEFAULT, "EVP_SIGNATURE_free");
    init_fn sign_init = (init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_init");
    update_fn sign_update = (update_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_update");
    sign_final_fn sign_final = (sign_final_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_sign_message_final");
    init_fn verify_init = (init_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_init");
    update_fn verify_update = (update_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_update");
    verify_final_fn verify_final = (verify_final_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_verify_message_final");
    set_sig_fn set_sig = (set_sig_fn)dlsym(RTLD_DEFAULT, "EVP_PKEY_CTX_set_signature");
    EVP_PKEY *key, *other;
    EVP_SIGNATURE *algo;
    EVP_MD_CTX *md;
    EVP_PKEY_CTX *ctx;

    if (argc < 2) {
        fprintf(stderr, "usage: %s PROVIDER_DIR\n", argv[0]);
        return 2;
    }
    if (OSSL_PROVIDER_set_default_search_path(NULL, argv[1]) != 1
        || OSSL_PROVIDER_load(NULL, "sphincs") == NULL || OSSL_PROVIDER_load(NULL, "default") == NULL) {
        ERR_print_errors_fp(stderr);
        return 2;
    }
    if (fetch == NULL || sign_init == NULL || sign_update == NULL || sign_final == NULL
        || verify_init == NULL || verify_update == NULL || verify_final == NULL || set_sig == NULL) {
        printf("message API: absent (%s)\n", OpenSSL_version(OPENSSL_VERSION));
        return 0;
    }
    for (size_t i = 0; i < sizeof(msg); i++)
        msg[i] = (unsigned char)(i * 7);
    key = generate(alg);
    other = generate("SLH-DSA-SHA2-128f");
    algo = fetch(NULL, alg, propq);
    md = EVP_MD_CTX_new();
    if (key == NULL || other == NULL || algo == NULL || md == NULL) {
        ERR_print_errors_fp(stderr);
        return 2;
    }
    /* One-shot reference. */
    if (EVP_DigestSignInit_ex(md, NULL, NULL, NULL, propq, key, params) != 1
        || EVP_DigestSign(md, ref, &reflen, msg, sizeof(msg)) != 1) {
        ERR_print_errors_fp(stderr);
        return 2;
    }
    /* Streamed, three pieces. */
    ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
    if (ctx == NULL || sign_init(ctx, algo, params) != 1 || sign_update(ctx, msg, 1000) != 1
        || sign_update(ctx, msg + 1000, 1) != 1 || sign_update(ctx, msg + 1001, sizeof(msg) - 1001) != 1
        || sign_final(ctx, sig, &siglen) != 1) {
        ERR_print_errors_fp(stderr);
        printf("FAIL: streamed message signing\n");
        failures++;
    } else if (siglen != reflen || memcmp(sig, ref, siglen) != 0) {
        printf("FAIL: streamed signature differs from the one-shot one\n");
        failures++;
    } else {
        printf("ok: streamed deterministic signature == one-shot\n");
    }
    EVP_PKEY_CTX_free(ctx);
    for (int tamper = 0; tamper < 2; tamper++) {
        int r;
        if (tamper)
            ref[reflen / 3] ^= 0x10;
        ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq);
        r = ctx != NULL && verify_init(ctx, algo, params) == 1 && set_sig(ctx, ref, reflen) == 1
            && verify_update(ctx, msg, 2000) == 1 && verify_update(ctx, msg + 2000, sizeof(msg) - 2000) == 1
            && verify_final(ctx) == 1;
        if (r != !tamper) {
            printf("FAIL: streamed verification of a %s signature gave %d\n", tamper ? "tampered" : "good", r);
            failures++;
        } else {
            printf("ok: streamed verification of a %s signature\n", tamper ? "tampered" : "good");
        }
        EVP_PKEY_CTX_free(ctx);
        ERR_clear_error();
    }
    /* The algorithm fetched as SHAKE-128f refuses a SHA2-128f key. */
    ctx = EVP_PKEY_CTX_new_from_pkey(NULL, other, propq);
    if (ctx == NULL || sign_init(ctx, algo, NULL) == 1) {
        printf("FAIL: a key of another set was accepted\n");
        failures++;
    } else {
        printf("ok: a key of another set refused\n");
    }
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    sig_free(algo);
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(key);
    EVP_PKEY_free(other);
    printf("message API: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
