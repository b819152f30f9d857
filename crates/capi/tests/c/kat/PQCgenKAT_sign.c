/* A PQCgenKAT_sign-style known-answer generator written against the NIST
 * API only: NIST's procedure (AES-256 CTR-DRBG seeded with 0x00..0x2F; per
 * entry a 48-byte seed and a message of 33*(i+1) bytes; the DRBG reseeded
 * with the entry's seed before crypto_sign_keypair and crypto_sign; every sm
 * checked with crypto_sign_open), writing the PQCsignKAT_<sk bytes>.rsp
 * format. The set is chosen at compile time with -DNIST_HEADER=<...>, as
 * the reference's api.h would be; tests/run.sh compares the sha256 of the
 * output with the reference repository's SHA256SUMS.
 *
 * usage: PQCgenKAT_sign OUT.rsp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include NIST_HEADER

#define ENTRIES 100
#define MAX_MLEN (33 * ENTRIES)

static void print_hex(FILE *f, const char *label, const unsigned char *x, unsigned long long len)
{
    fputs(label, f);
    if (len == 0)
        fputs("00", f);
    for (unsigned long long i = 0; i < len; i++)
        fprintf(f, "%02X", x[i]);
    fputc('\n', f);
}

int main(int argc, char **argv)
{
    static unsigned char seeds[ENTRIES][48], msgs[ENTRIES][MAX_MLEN];
    static unsigned char pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
    unsigned char entropy[48], *sm = malloc(CRYPTO_BYTES + MAX_MLEN), *m1 = malloc(CRYPTO_BYTES + MAX_MLEN);
    unsigned long long smlen, mlen1;
    FILE *f;

    if (argc != 2 || !sm || !m1) {
        fprintf(stderr, "usage: %s OUT.rsp\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < 48; i++)
        entropy[i] = (unsigned char)i;
    randombytes_init(entropy, NULL, 256);
    /* The .req part: all seeds and messages come first from the outer DRBG. */
    for (int i = 0; i < ENTRIES; i++) {
        randombytes(seeds[i], 48);
        randombytes(msgs[i], 33 * (unsigned long long)(i + 1));
    }
    f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fprintf(f, "# %s\n\n", CRYPTO_ALGNAME);
    for (int i = 0; i < ENTRIES; i++) {
        unsigned long long mlen = 33 * (unsigned long long)(i + 1);
        fprintf(f, "count = %d\n", i);
        print_hex(f, "seed = ", seeds[i], 48);
        fprintf(f, "mlen = %llu\n", mlen);
        print_hex(f, "msg = ", msgs[i], mlen);
        randombytes_init(seeds[i], NULL, 256);
        if (crypto_sign_keypair(pk, sk) != 0) {
            fprintf(stderr, "crypto_sign_keypair failed\n");
            return 1;
        }
        print_hex(f, "pk = ", pk, CRYPTO_PUBLICKEYBYTES);
        print_hex(f, "sk = ", sk, CRYPTO_SECRETKEYBYTES);
        if (crypto_sign(sm, &smlen, msgs[i], mlen, sk) != 0) {
            fprintf(stderr, "crypto_sign failed\n");
            return 1;
        }
        fprintf(f, "smlen = %llu\n", smlen);
        print_hex(f, "sm = ", sm, smlen);
        fputc('\n', f);
        if (crypto_sign_open(m1, &mlen1, sm, smlen, pk) != 0 || mlen1 != mlen || memcmp(m1, msgs[i], mlen) != 0) {
            fprintf(stderr, "crypto_sign_open failed on entry %d\n", i);
            return 1;
        }
    }
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 2;
    }
    free(sm);
    free(m1);
    return 0;
}
