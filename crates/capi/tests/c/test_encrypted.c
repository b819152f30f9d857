/* Passphrase-protected private keys (encrypted PKCS#8, PBES2) through the C
 * API: a key the CLI wrote with `keygen --encrypt --passphrase-file`, round
 * trips in PEM and DER, and the refusals: wrong passphrase, truncated input,
 * scrypt costs over the limit, bad arguments — each its own status, never a
 * crash (tests/run.sh also runs this under ASan and UBSan).
 *
 * usage: test_encrypted CLI_ENC_KEY.pem PASSPHRASE_FILE CLI_PUB.pem OUT_ENC.pem
 *   (the CLI's encrypted SLH-DSA-SHA2-128f key, its passphrase file (one
 *   line), its public key; OUT_ENC.pem receives the key re-encrypted by this
 *   library under the same passphrase, for the CLI to read back) */
#include <string.h>
#include <time.h>

#include <sphincs.h>

#include "check.h"

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    uint8_t *buf = xmalloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static void spit(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, len, f) == len && fclose(f) == 0, "writing %s", path);
}

/* The key's public half as SPKI PEM equals `pub` (the CLI's file). */
static int same_public(const sphincs_secret_key *sk, const uint8_t *pub, size_t publen)
{
    sphincs_public_key *pk = NULL;
    uint8_t buf[512];
    size_t len = 0;
    int same = sphincs_secret_key_public(sk, &pk) == SPHINCS_OK &&
               sphincs_public_key_to_spki(pk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len) == SPHINCS_OK &&
               len == publen && memcmp(buf, pub, len) == 0;
    sphincs_public_key_free(pk);
    return same;
}

/* Where our scrypt parameters sit in our DER: N = 2^14 as 02 02 40 00, then
 * r = 8 as 02 01 08, p = 1 as 02 01 01 (`openssl asn1parse`). */
static long scrypt_at(const uint8_t *der, size_t len)
{
    static const uint8_t pattern[] = {0x02, 0x02, 0x40, 0x00, 0x02, 0x01, 0x08, 0x02, 0x01, 0x01};
    for (size_t i = 0; i + sizeof pattern <= len; i++)
        if (memcmp(der + i, pattern, sizeof pattern) == 0)
            return (long)i;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s CLI_ENC_KEY.pem PASSPHRASE_FILE CLI_PUB.pem OUT_ENC.pem\n", argv[0]);
        return 2;
    }
    size_t enclen, passlen, publen, len = 0;
    uint8_t *enc = slurp(argv[1], &enclen);
    uint8_t *pass = slurp(argv[2], &passlen);
    uint8_t *pub = slurp(argv[3], &publen);
    while (passlen > 0 && (pass[passlen - 1] == '\n' || pass[passlen - 1] == '\r'))
        passlen--; /* the CLI reads the file's first line */
    CHECK(enclen > 0 && memcmp(enc, "-----BEGIN ENCRYPTED PRIVATE KEY-----", 37) == 0, "the CLI wrote an encrypted key");

    /* The CLI's encrypted key, with its passphrase. */
    sphincs_secret_key *sk = NULL, *back = NULL;
    CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(enc, enclen, pass, passlen, &sk), SPHINCS_OK);
    CHECK(sk && strcmp(sphincs_alg_name(sphincs_secret_key_alg(sk)), "SLH-DSA-SHA2-128f") == 0, "the CLI key's set");
    CHECK(sk && same_public(sk, pub, publen), "its public half is the CLI's public key");

    /* Refusals of the CLI's key: each its own status. */
    CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(enc, enclen, (const uint8_t *)"wrong", 5, &back),
             SPHINCS_ERR_WRONG_PASSPHRASE);
    CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(enc, enclen, NULL, 0, &back), SPHINCS_ERR_WRONG_PASSPHRASE);
    CHECK(back == NULL, "no key written on failure");
    CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(enc, enclen / 2, pass, passlen, &back), SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(enc, enclen, pass, passlen, NULL), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(NULL, enclen, pass, passlen, &back), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(enc, enclen, NULL, 3, &back), SPHINCS_ERR_NULL_POINTER);
    CHECK(strstr(sphincs_strerror(SPHINCS_ERR_WRONG_PASSPHRASE), "wrong passphrase") != NULL, "message of 20");
    CHECK(strstr(sphincs_strerror(SPHINCS_ERR_KDF_TOO_COSTLY), "scrypt") != NULL, "message of 21");

    /* Round trips, DER and PEM; the size query (NULL, 0) gives the length. */
    static const uint8_t pw[] = "correct horse battery staple";
    const int formats[2] = {SPHINCS_FORMAT_DER, SPHINCS_FORMAT_PEM};
    uint8_t *der = NULL;
    size_t derlen = 0;
    for (int i = 0; i < 2; i++) {
        size_t need = 0;
        CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(sk, formats[i], pw, sizeof pw - 1, NULL, 0, &need),
                 SPHINCS_ERR_BUFFER_TOO_SMALL);
        uint8_t *out = xmalloc(need);
        CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(sk, formats[i], pw, sizeof pw - 1, out, need, &len), SPHINCS_OK);
        CHECK(len == need, "format %d: %zu bytes, the query said %zu", formats[i], len, need);
        CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(out, len, pw, sizeof pw - 1, &back), SPHINCS_OK);
        CHECK(back && same_public(back, pub, publen), "format %d round trip", formats[i]);
        sphincs_secret_key_free(back);
        back = NULL;
        CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(out, len, pw, sizeof pw - 2, &back),
                 SPHINCS_ERR_WRONG_PASSPHRASE);
        /* Every truncation is malformed input: a status, never a crash. */
        int all = 1;
        for (size_t cut = 0; cut < len; cut += 7) {
            int st = sphincs_secret_key_from_encrypted_pkcs8(out, cut, pw, sizeof pw - 1, &back);
            if (st != SPHINCS_ERR_ENCODING && st != SPHINCS_ERR_NULL_POINTER) {
                all = 0;
                printf("format %d cut at %zu: %d (%s)\n", formats[i], cut, st, sphincs_strerror(st));
            }
        }
        CHECK(all && back == NULL, "format %d: every truncation is SPHINCS_ERR_ENCODING", formats[i]);
        if (formats[i] == SPHINCS_FORMAT_DER) {
            der = out;
            derlen = len;
        } else {
            CHECK(memcmp(out, "-----BEGIN ENCRYPTED PRIVATE KEY-----\n", 38) == 0, "PEM label");
            free(out);
        }
    }

    /* Under the CLI's passphrase, for the CLI to read (tests/run.sh). */
    uint8_t mine[2048];
    CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(sk, SPHINCS_FORMAT_PEM, pass, passlen, mine, sizeof mine, &len),
             SPHINCS_OK);
    spit(argv[4], mine, len);

    /* Two encryptions differ (fresh salt and IV). */
    uint8_t *again = xmalloc(derlen);
    CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(sk, SPHINCS_FORMAT_DER, pw, sizeof pw - 1, again, derlen, &len),
             SPHINCS_OK);
    CHECK(len == derlen && memcmp(again, der, len) != 0, "a fresh salt and IV each time");
    free(again);

    /* Hostile scrypt parameters are refused before any work. */
    long at = scrypt_at(der, derlen);
    CHECK(at >= 0, "scrypt parameters in our DER");
    if (at >= 0) {
        const size_t offsets[2] = {(size_t)at + 6, (size_t)at + 9}; /* r = 127: 254 MiB; p = 127 */
        for (int i = 0; i < 2; i++) {
            uint8_t *bad = xmalloc(derlen);
            memcpy(bad, der, derlen);
            bad[offsets[i]] = 0x7f;
            clock_t t = clock();
            CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(bad, derlen, pw, sizeof pw - 1, &back),
                     SPHINCS_ERR_KDF_TOO_COSTLY);
            CHECK((double)(clock() - t) / CLOCKS_PER_SEC < 1.0, "refused quickly");
            free(bad);
        }
    }
    free(der);

    /* A plain PKCS#8 key is read too; the passphrase is then not used. */
    uint8_t plain[512];
    CHECK_ST(sphincs_secret_key_to_pkcs8(sk, SPHINCS_FORMAT_PEM, plain, sizeof plain, &len), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_from_encrypted_pkcs8(plain, len, NULL, 0, &back), SPHINCS_OK);
    CHECK(back && same_public(back, pub, publen), "a plain key through the same call");
    sphincs_secret_key_free(back);

    /* Bad arguments when writing. */
    uint8_t out[2048];
    CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(sk, SPHINCS_FORMAT_DER, pw, 0, out, sizeof out, &len),
             SPHINCS_ERR_INVALID_ARGUMENT);
    CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(sk, SPHINCS_FORMAT_DER, NULL, 4, out, sizeof out, &len),
             SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(sk, 7, pw, sizeof pw - 1, out, sizeof out, &len),
             SPHINCS_ERR_INVALID_ARGUMENT);
    CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(NULL, SPHINCS_FORMAT_DER, pw, sizeof pw - 1, out, sizeof out, &len),
             SPHINCS_ERR_NULL_POINTER);
    const sphincs_alg *r31;
    sphincs_secret_key *old = NULL;
    uint8_t seed[48] = {0};
    CHECK_ST(sphincs_alg_by_name("sphincs-shake-128f-simple", &r31), SPHINCS_OK);
    CHECK_ST(sphincs_keygen_from_seed(r31, seed, sphincs_alg_seed_bytes(r31), 1, &old), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_to_encrypted_pkcs8(old, SPHINCS_FORMAT_PEM, pw, sizeof pw - 1, out, sizeof out, &len),
             SPHINCS_ERR_UNSUPPORTED);
    sphincs_secret_key_free(old);

    sphincs_secret_key_free(sk);
    free(enc);
    memset(pass, 0, passlen);
    free(pass);
    free(pub);
    return check_report();
}
