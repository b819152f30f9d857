/* NIST's AES-256 CTR-DRBG interface, as PQCgenKAT_sign uses it (rng.h of
 * the submission packages), implemented in rng.c over libcrypto's AES. */
#ifndef SPHINCS_TEST_RNG_H
#define SPHINCS_TEST_RNG_H

#define RNG_SUCCESS 0
#define RNG_BAD_MAXLEN -1
#define RNG_BAD_OUTBUF -2
#define RNG_BAD_REQ_LEN -3

void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string,
                      int security_strength);
int randombytes(unsigned char *x, unsigned long long xlen);

#endif
