/*
 * Eight threads sign and verify through one EVP_PKEY held by the sphincs
 * provider; every deterministic signature must equal the one a single
 * thread made first, and every verification must succeed (a tampered copy
 * must fail).
 *
 * Build: gcc -Wall -Wextra -Werror -O2 provider_threads.c -o provider_threads -lcrypto -lpthread
 * Run:   provider_threads PROVIDER_DIR [ALGORITHM]
 * Prints "threads: ok" and exits 0, or says what differed and exits 1.
 */
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
#define MESSAGES 4
#define ROUNDS 2

static EVP_PKEY *key;
static unsigned char *expected[MESSAGES];
static size_t expected_len[MESSAGES];
static const char *propq = "provider=sphincs";

static void message(int i, unsigned char out[32])
{
    for (int j = 0; j < 32; j++)
        out[j] = (unsigned char)(i * 31 + j);
}

/* Deterministic signature of message i; NULL on failure. */
static unsigned char *sign(int i, size_t *len)
{
    unsigned char msg[32];
    int det = 1;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_int("deterministic", &det),
        OSSL_PARAM_construct_end(),
    };
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    unsigned char *sig = NULL;
    message(i, msg);
    if (md == NULL || EVP_DigestSignInit_ex(md, NULL, NULL, NULL, propq, key, params) != 1
        || EVP_DigestSign(md, NULL, len, msg, sizeof(msg)) != 1
        || (sig = malloc(*len)) == NULL
        || EVP_DigestSign(md, sig, len, msg, sizeof(msg)) != 1) {
        free(sig);
        sig = NULL;
    }
    EVP_MD_CTX_free(md);
    return sig;
}

/* 1 valid, 0 invalid, -1 error. */
static int verify(int i, const unsigned char *sig, size_t len)
{
    unsigned char msg[32];
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int r = -1;
    message(i, msg);
    if (md != NULL && EVP_DigestVerifyInit_ex(md, NULL, NULL, NULL, propq, key, NULL) == 1)
        r = EVP_DigestVerify(md, sig, len, msg, sizeof(msg));
    EVP_MD_CTX_free(md);
    return r;
}

static void *worker(void *arg)
{
    long bad = 0;
    long id = (long)(size_t)arg;
    for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < MESSAGES; k++) {
            int i = (int)((k + id) % MESSAGES);
            size_t len = 0;
            unsigned char *sig = sign(i, &len);
            if (sig == NULL || len != expected_len[i] || memcmp(sig, expected[i], len) != 0) {
                fprintf(stderr, "thread %ld: signature of message %d differs\n", id, i);
                bad++;
            } else if (verify(i, sig, len) != 1) {
                fprintf(stderr, "thread %ld: verification of message %d failed\n", id, i);
                bad++;
            } else {
                sig[len / 2] ^= 1;
                if (verify(i, sig, len) == 1) {
                    fprintf(stderr, "thread %ld: tampered signature accepted\n", id);
                    bad++;
                }
            }
            free(sig);
        }
    }
    ERR_clear_error();
    return (void *)(size_t)bad;
}

int main(int argc, char **argv)
{
    const char *alg = argc > 2 ? argv[2] : "SLH-DSA-SHA2-128f";
    pthread_t threads[THREADS];
    long bad = 0;
    EVP_PKEY_CTX *gen;

    if (argc < 2) {
        fprintf(stderr, "usage: %s PROVIDER_DIR [ALGORITHM]\n", argv[0]);
        return 2;
    }
    if (OSSL_PROVIDER_set_default_search_path(NULL, argv[1]) != 1
        || OSSL_PROVIDER_load(NULL, "sphincs") == NULL
        || OSSL_PROVIDER_load(NULL, "default") == NULL) {
        ERR_print_errors_fp(stderr);
        return 2;
    }
    gen = EVP_PKEY_CTX_new_from_name(NULL, alg, propq);
    if (gen == NULL || EVP_PKEY_keygen_init(gen) != 1 || EVP_PKEY_generate(gen, &key) != 1) {
        ERR_print_errors_fp(stderr);
        return 2;
    }
    EVP_PKEY_CTX_free(gen);
    for (int i = 0; i < MESSAGES; i++) {
        expected[i] = sign(i, &expected_len[i]);
        if (expected[i] == NULL) {
            ERR_print_errors_fp(stderr);
            return 2;
        }
    }
    for (long t = 0; t < THREADS; t++)
        if (pthread_create(&threads[t], NULL, worker, (void *)(size_t)t) != 0)
            return 2;
    for (int t = 0; t < THREADS; t++) {
        void *r;
        pthread_join(threads[t], &r);
        bad += (long)(size_t)r;
    }
    for (int i = 0; i < MESSAGES; i++)
        free(expected[i]);
    EVP_PKEY_free(key);
    if (bad != 0) {
        printf("threads: %ld mismatches\n", bad);
        return 1;
    }
    printf("threads: ok (%d threads x %d signatures agree with one thread)\n", THREADS, ROUNDS * MESSAGES);
    return 0;
}
