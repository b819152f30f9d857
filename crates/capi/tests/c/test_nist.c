/* A NIST-API drop-in header (<sphincs/nist/NAME.h>, chosen with
 * -DNIST_HEADER=...) used as the reference code's api.h is used.
 * Built twice: with -DOWN_RANDOMBYTES this file defines randombytes (a
 * counter pattern) and checks that the functions draw from it; without,
 * no randombytes exists and the library must use the operating system's. */
#include <stdint.h>
#include <string.h>

#include NIST_HEADER

#include "check.h"

#ifdef OWN_RANDOMBYTES
static unsigned char next_byte;
static unsigned long long drawn;

/* NIST's rng.h declares randombytes returning int. */
int randombytes(unsigned char *x, unsigned long long xlen)
{
    for (unsigned long long i = 0; i < xlen; i++)
        x[i] = next_byte++;
    drawn += xlen;
    return 0;
}

static void pattern(unsigned char *x, size_t len, unsigned char start)
{
    for (size_t i = 0; i < len; i++)
        x[i] = (unsigned char)(start + i);
}
#endif

int main(void)
{
    static unsigned char pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
    static unsigned char pk2[CRYPTO_PUBLICKEYBYTES], sk2[CRYPTO_SECRETKEYBYTES];
    static const unsigned char msg[] = "the NIST API, dropped in";
    size_t mlen = sizeof msg, siglen = 0;
    unsigned long long smlen = 0, mlen2 = 0;
    unsigned char *sig = xmalloc(CRYPTO_BYTES), *sm = xmalloc(CRYPTO_BYTES + sizeof msg);
    unsigned char *m2 = xmalloc(CRYPTO_BYTES + sizeof msg), seed[CRYPTO_SEEDBYTES];
    const sphincs_alg *alg = NULL;
    sphincs_public_key *native_pk = NULL;

    printf("%s (%s)\n", SPHINCS_NIST_SET, CRYPTO_ALGNAME);
    CHECK_ST(sphincs_alg_by_name(SPHINCS_NIST_SET, &alg), SPHINCS_OK);
    CHECK(sphincs_alg_public_key_bytes(alg) == CRYPTO_PUBLICKEYBYTES &&
              sphincs_alg_secret_key_bytes(alg) == CRYPTO_SECRETKEYBYTES &&
              sphincs_alg_signature_bytes(alg) == CRYPTO_BYTES &&
              sphincs_alg_seed_bytes(alg) == CRYPTO_SEEDBYTES,
          "sizes of %s", SPHINCS_NIST_SET);
    CHECK(crypto_sign_bytes() == CRYPTO_BYTES && crypto_sign_seedbytes() == CRYPTO_SEEDBYTES &&
              crypto_sign_publickeybytes() == CRYPTO_PUBLICKEYBYTES &&
              crypto_sign_secretkeybytes() == CRYPTO_SECRETKEYBYTES,
          "size functions");
    CHECK(strcmp(CRYPTO_ALGNAME, sphincs_alg_scheme(alg) == SPHINCS_SCHEME_SLH_DSA      ? sphincs_alg_name(alg)
                                 : sphincs_alg_scheme(alg) == SPHINCS_SCHEME_SPHINCS256 ? "SPHINCS-256"
                                                                                        : "SPHINCS+") == 0,
          "CRYPTO_ALGNAME %s", CRYPTO_ALGNAME);
#ifdef CRYPTO_DETERMINISTIC
    CHECK(sphincs_alg_scheme(alg) == SPHINCS_SCHEME_SPHINCS256, "only SPHINCS-256 is deterministic");
#endif

    CHECK(crypto_sign_keypair(pk, sk) == 0, "keypair");
#ifdef OWN_RANDOMBYTES
    /* The key pair is the seed keypair of the first CRYPTO_SEEDBYTES drawn. */
    CHECK(drawn == CRYPTO_SEEDBYTES, "keypair drew %llu bytes", drawn);
    pattern(seed, sizeof seed, 0);
    CHECK(crypto_sign_seed_keypair(pk2, sk2, seed) == 0, "seed keypair");
    CHECK(memcmp(pk, pk2, sizeof pk) == 0 && memcmp(sk, sk2, sizeof sk) == 0, "keypair used randombytes");
#else
    CHECK(crypto_sign_keypair(pk2, sk2) == 0, "second keypair");
    CHECK(memcmp(sk, sk2, sizeof sk) != 0, "two keypairs from the OS differ");
    memset(seed, 7, sizeof seed);
    CHECK(crypto_sign_seed_keypair(pk2, sk2, seed) == 0, "seed keypair");
#endif
    /* The seed keypair is the library's key from the same seed. */
    {
        sphincs_secret_key *k = NULL;
        unsigned char raw[CRYPTO_SECRETKEYBYTES];
        size_t len = 0;
        CHECK_ST(sphincs_keygen_from_seed(alg, seed, sizeof seed, 1, &k), SPHINCS_OK);
        CHECK_ST(sphincs_secret_key_export(k, raw, sizeof raw, &len), SPHINCS_OK);
        CHECK(len == sizeof raw && memcmp(raw, sk2, len) == 0, "seed keypair = sphincs_keygen_from_seed");
        sphincs_secret_key_free(k);
    }

    CHECK(crypto_sign_signature(sig, &siglen, msg, mlen, sk) == 0, "signature");
    CHECK(siglen == CRYPTO_BYTES, "siglen %zu", siglen);
    CHECK(crypto_sign_verify(sig, siglen, msg, mlen, pk) == 0, "verify");
    CHECK(crypto_sign_verify(sig, siglen - 1, msg, mlen, pk) == -1, "short signature");
    CHECK(crypto_sign_verify(sig, siglen, msg, mlen - 1, pk) == -1, "other message");
    CHECK_ST(sphincs_public_key_import(alg, pk, sizeof pk, &native_pk), SPHINCS_OK);
    CHECK_ST(sphincs_verify(native_pk, msg, mlen, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);
#ifdef CRYPTO_DETERMINISTIC
    /* Deterministic (SPHINCS-256): nothing is drawn, and the signature is the
     * native API's for the same key and message. */
    {
        sphincs_secret_key *k = NULL;
        unsigned char *want = xmalloc(CRYPTO_BYTES), *again = xmalloc(CRYPTO_BYTES);
        size_t len = 0;
#ifdef OWN_RANDOMBYTES
        unsigned long long before = drawn;
#endif
        CHECK(crypto_sign_signature(again, &siglen, msg, mlen, sk) == 0, "signature");
        CHECK(memcmp(again, sig, CRYPTO_BYTES) == 0, "the same signature twice");
#ifdef OWN_RANDOMBYTES
        CHECK(drawn == before, "signing drew %llu bytes", drawn - before);
#endif
        CHECK_ST(sphincs_secret_key_import(alg, sk, sizeof sk, &k), SPHINCS_OK);
        CHECK_ST(sphincs_sign(k, msg, mlen, NULL, want, CRYPTO_BYTES, &len), SPHINCS_OK);
        CHECK(len == CRYPTO_BYTES && memcmp(want, sig, CRYPTO_BYTES) == 0, "crypto_sign_signature = sphincs_sign");
        sphincs_secret_key_free(k);
        free(want);
        free(again);
    }
#elif defined(OWN_RANDOMBYTES)
    /* The signing randomness is the next n bytes randombytes gives. */
    {
        sphincs_secret_key *k = NULL;
        sphincs_sign_options opts;
        unsigned char *want = xmalloc(CRYPTO_BYTES), rnd[32];
        size_t n = CRYPTO_PUBLICKEYBYTES / 2, len = 0;
        unsigned long long before = drawn;
        pattern(rnd, n, (unsigned char)drawn);
        CHECK(crypto_sign_signature(sig, &siglen, msg, mlen, sk) == 0, "signature");
        CHECK(drawn == before + n, "signing drew %llu bytes", drawn - before);
        CHECK_ST(sphincs_secret_key_import(alg, sk, sizeof sk, &k), SPHINCS_OK);
        sphincs_sign_options_init(&opts);
        opts.randomness = SPHINCS_RANDOMNESS_GIVEN;
        opts.random = rnd;
        opts.random_len = n;
        CHECK_ST(sphincs_sign(k, msg, mlen, &opts, want, CRYPTO_BYTES, &len), SPHINCS_OK);
        CHECK(memcmp(want, sig, CRYPTO_BYTES) == 0, "signature used randombytes");
        sphincs_secret_key_free(k);
        free(want);
    }
#endif

    /* crypto_sign / crypto_sign_open, separate buffers and in place. */
    CHECK(crypto_sign(sm, &smlen, msg, mlen, sk) == 0, "crypto_sign");
    CHECK(smlen == CRYPTO_BYTES + mlen, "smlen %llu", smlen);
    CHECK(crypto_sign_verify(sm, CRYPTO_BYTES, msg, mlen, pk) == 0, "sm starts with the signature");
    CHECK(crypto_sign_open(m2, &mlen2, sm, smlen, pk) == 0, "open");
    CHECK(mlen2 == mlen && memcmp(m2, msg, mlen) == 0, "opened message");
    memcpy(sm + CRYPTO_BYTES, msg, mlen);
    CHECK(crypto_sign(sm, &smlen, sm + CRYPTO_BYTES, mlen, sk) == 0, "crypto_sign in place");
    CHECK(crypto_sign_open(sm, &mlen2, sm, smlen, pk) == 0, "open in place");
    CHECK(mlen2 == mlen && memcmp(sm, msg, mlen) == 0, "message opened in place");

    CHECK(crypto_sign(sm, &smlen, msg, mlen, sk) == 0, "crypto_sign");
    sm[smlen - 1] ^= 1;
    memset(m2, 0xaa, CRYPTO_BYTES + mlen);
    mlen2 = 99;
    CHECK(crypto_sign_open(m2, &mlen2, sm, smlen, pk) == -1, "tampered sm");
    CHECK(mlen2 == 0 && m2[0] == 0 && m2[smlen - 1] == 0, "a failed open leaves no message");
    CHECK(crypto_sign_open(m2, &mlen2, sm, CRYPTO_BYTES - 1, pk) == -1, "sm shorter than a signature");

    /* NULL pointers are failures, not crashes. */
    CHECK(crypto_sign_keypair(NULL, sk2) == -1, "NULL pk");
    CHECK(crypto_sign_seed_keypair(pk2, sk2, NULL) == -1, "NULL seed");
    CHECK(crypto_sign_signature(sig, NULL, msg, mlen, sk) == -1, "NULL siglen");
    CHECK(crypto_sign_verify(NULL, siglen, msg, mlen, pk) == -1, "NULL sig");
    CHECK(crypto_sign(sm, &smlen, NULL, 5, sk) == -1, "NULL message");
    CHECK(crypto_sign_open(m2, &mlen2, sm, smlen, NULL) == -1, "NULL pk");

    sphincs_public_key_free(native_pk);
    free(sig);
    free(sm);
    free(m2);
    return check_report();
}
