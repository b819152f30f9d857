/* SLH-DSA (FIPS 205) signature verification for bootloaders: a static
 * library (libsphincs_embedded.a, crates/embedded-capi) for Cortex-M
 * (thumbv7em-none-eabihf; thumbv7em-none-eabi with cargo's --target).
 * No heap, no globals, no libc; about 2.4 KB of stack for the 128-bit
 * sets, at most 3.5 KB for any (docs/embedded.md has the table per set). Pure SLH-DSA with an empty
 * context (FIPS 205 Algorithm 24). */
#ifndef SPHINCS_EMBEDDED_H
#define SPHINCS_EMBEDDED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parameter sets (alg). A set works only if the library was built with its
 * cargo feature (sha2-128s by default; "all" for every one). */
#define SPHINCS_EMB_SLH_DSA_SHA2_128S    1
#define SPHINCS_EMB_SLH_DSA_SHA2_128F    2
#define SPHINCS_EMB_SLH_DSA_SHA2_192S    3
#define SPHINCS_EMB_SLH_DSA_SHA2_192F    4
#define SPHINCS_EMB_SLH_DSA_SHA2_256S    5
#define SPHINCS_EMB_SLH_DSA_SHA2_256F    6
#define SPHINCS_EMB_SLH_DSA_SHAKE_128S   7
#define SPHINCS_EMB_SLH_DSA_SHAKE_128F   8
#define SPHINCS_EMB_SLH_DSA_SHAKE_192S   9
#define SPHINCS_EMB_SLH_DSA_SHAKE_192F  10
#define SPHINCS_EMB_SLH_DSA_SHAKE_256S  11
#define SPHINCS_EMB_SLH_DSA_SHAKE_256F  12
/* Draft SP 800-230 (one-tree, 2^24 signatures). */
#define SPHINCS_EMB_SLH_DSA_SHA2_128_24  13
#define SPHINCS_EMB_SLH_DSA_SHA2_192_24  14
#define SPHINCS_EMB_SLH_DSA_SHA2_256_24  15
#define SPHINCS_EMB_SLH_DSA_SHAKE_128_24 16
#define SPHINCS_EMB_SLH_DSA_SHAKE_192_24 17
#define SPHINCS_EMB_SLH_DSA_SHAKE_256_24 18

/* Results. */
#define SPHINCS_EMB_OK            0  /* the signature verifies: boot */
#define SPHINCS_EMB_INVALID       1  /* it does not: refuse the image */
#define SPHINCS_EMB_ERR_ALG      -1  /* unknown set, or not built in */
#define SPHINCS_EMB_ERR_PK_LEN   -2  /* pk_len is not the set's */
#define SPHINCS_EMB_ERR_SIG_LEN  -3  /* sig_len is not the set's */
#define SPHINCS_EMB_ERR_READ     -4  /* read returned non-zero */
#define SPHINCS_EMB_ERR_NULL     -5  /* pk, sig or read is NULL */

/* Writes the image's bytes [offset, offset + len) to buf (len <= 64);
 * returns 0, or non-zero to abort (SPHINCS_EMB_ERR_READ). */
typedef int32_t (*sphincs_emb_read_fn)(void *ctx, uint32_t offset,
                                       uint8_t *buf, uint32_t len);

/* Verifies sig (sig_len bytes) over the image_len-byte image that read
 * returns, under the public key pk (pk_len bytes) of set alg. The image is
 * read once, front to back, 64 bytes at a time into a buffer on the stack;
 * pk and sig are read in place (flash is fine). Anything but
 * SPHINCS_EMB_OK means: do not boot. */
int32_t sphincs_verify_embedded(uint32_t alg, const uint8_t *pk, size_t pk_len,
                                const uint8_t *sig, size_t sig_len,
                                sphincs_emb_read_fn read, void *ctx,
                                uint32_t image_len);

/* A static English text for a result code. */
const char *sphincs_embedded_strerror(int32_t code);

#ifdef __cplusplus
}
#endif

#endif /* SPHINCS_EMBEDDED_H */
