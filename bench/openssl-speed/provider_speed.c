/*
 * `openssl speed`'s signature loops for OpenSSL 3.0–3.4, whose `speed` has
 * no SLH-DSA (nor any provider signature algorithm): through EVP, with the
 * sphincs and default providers loaded, for each set named on the command
 * line, SECONDS each of
 *   keygen  EVP_PKEY_keygen, then EVP_PKEY_free
 *   sign    EVP_PKEY_sign of 32 zero bytes (hedged, the default)
 *   verify  EVP_PKEY_verify of that signature
 * as OpenSSL 3.5's apps/speed.c does (SIG_keygen_loop, SIG_sign_loop,
 * SIG_verify_loop). Like `speed`, operations per second divide the count by
 * the process's user CPU time; the wall-clock rate is printed too.
 *
 * Build: gcc -Wall -Wextra -Werror -O2 provider_speed.c -o provider_speed -lcrypto
 * Run:   provider_speed PROVIDER_DIR SECONDS [PROPQUERY] SET...
 *        (PROPQUERY, if it begins with '?' or contains '=': default ?provider=sphincs)
 * Output, one line per set:
 *   SET keygen/s sign/s verify/s (user CPU) | keygen/s sign/s verify/s (wall) | provider
 */
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double user_cpu(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec / 1e6;
}

enum op { KEYGEN, SIGN, VERIFY };

struct rate {
    double cpu, wall;
};

/* Runs `op` for `seconds` of wall-clock time (at least once); -1 on error. */
static struct rate loop(enum op op, double seconds, EVP_PKEY_CTX *gen, EVP_PKEY_CTX *ctx, unsigned char *sig,
                        size_t *siglen, size_t maxlen)
{
    static const unsigned char md[32] = {0};
    struct rate r = {-1, -1};
    long count = 0;
    double w0 = now(), c0 = user_cpu(), w, c;
    do {
        int ok;
        if (op == KEYGEN) {
            EVP_PKEY *k = NULL;
            ok = EVP_PKEY_keygen(gen, &k) == 1;
            EVP_PKEY_free(k);
        } else if (op == SIGN) {
            *siglen = maxlen;
            ok = EVP_PKEY_sign(ctx, sig, siglen, md, sizeof(md)) == 1;
        } else {
            ok = EVP_PKEY_verify(ctx, sig, *siglen, md, sizeof(md)) == 1;
        }
        if (!ok)
            return r;
        count++;
    } while (now() - w0 < seconds);
    w = now() - w0;
    c = user_cpu() - c0;
    r.cpu = c > 0 ? (double)count / c : 0;
    r.wall = (double)count / w;
    return r;
}

int main(int argc, char **argv)
{
    const char *propq = "?provider=sphincs";
    double seconds;
    int first = 3;

    if (argc < 4) {
        fprintf(stderr, "usage: %s PROVIDER_DIR SECONDS [PROPQUERY] SET...\n", argv[0]);
        return 2;
    }
    seconds = atof(argv[2]);
    if (argv[3][0] == '?' || strchr(argv[3], '=') != NULL)
        propq = argv[first++];
    if (OSSL_PROVIDER_set_default_search_path(NULL, argv[1]) != 1 || OSSL_PROVIDER_load(NULL, "sphincs") == NULL
        || OSSL_PROVIDER_load(NULL, "default") == NULL) {
        ERR_print_errors_fp(stderr);
        return 2;
    }
    printf("# %s, propquery %s, %g s per operation\n", OpenSSL_version(OPENSSL_VERSION), propq, seconds);
    for (int i = first; i < argc; i++) {
        EVP_PKEY_CTX *gen = EVP_PKEY_CTX_new_from_name(NULL, argv[i], propq), *sctx = NULL, *vctx = NULL;
        EVP_PKEY *key = NULL;
        unsigned char *sig = NULL;
        size_t maxlen = 0, siglen = 0;
        struct rate kg, sg, vf;
        static const unsigned char md[32] = {0};

        if (gen == NULL || EVP_PKEY_keygen_init(gen) != 1 || EVP_PKEY_keygen(gen, &key) != 1
            || (sctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq)) == NULL || EVP_PKEY_sign_init(sctx) != 1
            || EVP_PKEY_sign(sctx, NULL, &maxlen, md, sizeof(md)) != 1 || (sig = malloc(maxlen)) == NULL
            || (vctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, propq)) == NULL || EVP_PKEY_verify_init(vctx) != 1) {
            fprintf(stderr, "%s: set-up failed\n", argv[i]);
            ERR_print_errors_fp(stderr);
            return 1;
        }
        kg = loop(KEYGEN, seconds, gen, NULL, NULL, NULL, 0);
        sg = loop(SIGN, seconds, NULL, sctx, sig, &siglen, maxlen);
        vf = loop(VERIFY, seconds, NULL, vctx, sig, &siglen, maxlen);
        if (kg.cpu < 0 || sg.cpu < 0 || vf.cpu < 0) {
            fprintf(stderr, "%s: an operation failed\n", argv[i]);
            ERR_print_errors_fp(stderr);
            return 1;
        }
        printf("%s %.1f %.2f %.1f | %.1f %.2f %.1f | %s\n", argv[i], kg.cpu, sg.cpu, vf.cpu, kg.wall, sg.wall, vf.wall,
               OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(key)));
        fflush(stdout);
        free(sig);
        EVP_PKEY_free(key);
        EVP_PKEY_CTX_free(gen);
        EVP_PKEY_CTX_free(sctx);
        EVP_PKEY_CTX_free(vctx);
    }
    return 0;
}
