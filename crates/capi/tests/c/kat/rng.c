/* The AES-256 CTR-DRBG of NIST SP 800-90A without derivation function or
 * reseeding, as NIST's rng.c for the PQC submissions runs it: the source of
 * the seeds, messages and all key and signing randomness of the KAT files.
 * AES-256 comes from the system's libcrypto. A translation unit of its own,
 * as in PQCgenKAT_sign: the library must find this randombytes from another
 * file through the drop-in header's weak reference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "rng.h"

static unsigned char drbg_key[32], drbg_v[16];

static void aes256_block(const unsigned char key[32], const unsigned char in[16], unsigned char out[16])
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0;
    if (!ctx || EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), NULL, key, NULL) != 1 ||
        EVP_CIPHER_CTX_set_padding(ctx, 0) != 1 || EVP_EncryptUpdate(ctx, out, &len, in, 16) != 1 ||
        len != 16) {
        fprintf(stderr, "libcrypto AES-256 failed\n");
        exit(2);
    }
    EVP_CIPHER_CTX_free(ctx);
}

/* V = V + 1 as a 128-bit big-endian counter. */
static void increment_v(void)
{
    for (int i = 15; i >= 0; i--) {
        if (++drbg_v[i] != 0)
            break;
    }
}

/* CTR_DRBG_Update (SP 800-90A §10.2.1.2) with 48 bytes of provided data or none. */
static void drbg_update(const unsigned char *provided)
{
    unsigned char temp[48];
    for (int i = 0; i < 3; i++) {
        increment_v();
        aes256_block(drbg_key, drbg_v, temp + 16 * i);
    }
    if (provided) {
        for (int i = 0; i < 48; i++)
            temp[i] ^= provided[i];
    }
    memcpy(drbg_key, temp, 32);
    memcpy(drbg_v, temp + 32, 16);
}

void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string,
                      int security_strength)
{
    unsigned char seed[48];
    (void)security_strength;
    memcpy(seed, entropy_input, 48);
    if (personalization_string) {
        for (int i = 0; i < 48; i++)
            seed[i] ^= personalization_string[i];
    }
    memset(drbg_key, 0, sizeof drbg_key);
    memset(drbg_v, 0, sizeof drbg_v);
    drbg_update(seed);
}

int randombytes(unsigned char *x, unsigned long long xlen)
{
    unsigned char block[16];
    while (xlen > 0) {
        size_t n = xlen < 16 ? (size_t)xlen : 16;
        increment_v();
        aes256_block(drbg_key, drbg_v, block);
        memcpy(x, block, n);
        x += n;
        xlen -= n;
    }
    drbg_update(NULL);
    return RNG_SUCCESS;
}
