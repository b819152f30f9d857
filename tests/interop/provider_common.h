/*
 * What the provider's C test programs share: "ok: ..."/"FAIL: ..." lines
 * with a failure count, the error queue as text, refusals that must name
 * a reason, and key generation through a property query.
 */
#ifndef PROVIDER_COMMON_H
#define PROVIDER_COMMON_H

#include <openssl/err.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(int good, const char *what, const char *detail)
{
    printf("%s: %s%s%s\n", good ? "ok" : "FAIL", what, detail ? ": " : "", detail ? detail : "");
    if (!good)
        failures++;
}

/* The error queue as text (emptied), for the reason checks. */
static char errors[8192];

static int collect(const char *str, size_t len, void *u)
{
    size_t have = strlen(errors);
    (void)u;
    if (have + len + 1 < sizeof(errors)) {
        memcpy(errors + have, str, len);
        errors[have + len] = '\0';
    }
    return 1;
}

static const char *drain(void)
{
    errors[0] = '\0';
    ERR_print_errors_cb(collect, NULL);
    return errors;
}

/* A refusal: the call failed (r != 1) and the queue names `reason`. */
static void refused(int r, const char *what, const char *reason)
{
    const char *q = drain();
    char detail[300];
    const char *last = q;
    for (const char *s = q; *s; s++)
        if (*s == '\n' && s[1] != '\0')
            last = s + 1;
    snprintf(detail, sizeof(detail), "%.*s", (int)strcspn(last, "\n"), last);
    if (r == 1)
        check(0, what, "accepted");
    else if (strstr(q, reason) == NULL)
        check(0, what, q[0] ? detail : "no error on the queue");
    else
        check(1, what, detail);
}

/* A fresh key of `alg` in `libctx` (NULL: the default). */
static EVP_PKEY *generate_in(OSSL_LIB_CTX *libctx, const char *alg, const char *pq)
{
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, alg, pq);
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) != 1 || EVP_PKEY_generate(ctx, &key) != 1)
        key = NULL;
    EVP_PKEY_CTX_free(ctx);
    return key;
}

static EVP_PKEY *generate(const char *alg, const char *pq)
{
    return generate_in(NULL, alg, pq);
}

#endif
