/* OpenPGP (RFC 9580 v6, RFC 9980 SLH-DSA) through the C API: keys made here
 * and by the CLI (`sphincs sop`), detached and cleartext signatures both
 * ways, RFC 9980's sample signature, a protected key, and the refusals
 * (wrong passphrase, tampered data, malformed input, short buffers, NULL),
 * each its own status, never a crash (run.sh also runs it under ASan/UBSan).
 *
 * usage: test_openpgp CLI_KEY.asc CLI_CERT.asc CLI_SIG.asc MESSAGE
 *                     RFC_CERT.asc RFC_SIG.asc OUT_SIG.asc
 *   (a key the CLI made, its certificate, its signature over MESSAGE;
 *   RFC 9980's SLH-DSA-SHAKE-128f sample certificate and signature over
 *   "Testing\n"; OUT_SIG.asc receives this library's signature over MESSAGE
 *   made with the CLI's key, for the CLI to verify) */
#include <string.h>

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

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: test_openpgp KEY CERT SIG MESSAGE RFC_CERT RFC_SIG OUT_SIG\n");
        return 2;
    }
    size_t key_len, cert_len, sig_len, msg_len, rfc_cert_len, rfc_sig_len;
    uint8_t *cli_key = slurp(argv[1], &key_len), *cli_cert = slurp(argv[2], &cert_len);
    uint8_t *cli_sig = slurp(argv[3], &sig_len), *msg = slurp(argv[4], &msg_len);
    uint8_t *rfc_cert = slurp(argv[5], &rfc_cert_len), *rfc_sig = slurp(argv[6], &rfc_sig_len);
    char fpr[65];
    size_t n = 0, need = 0;

    /* The CLI's signature verifies here; changed data does not. */
    CHECK_ST(sphincs_openpgp_verify(cli_cert, cert_len, cli_sig, sig_len, msg, msg_len, fpr), SPHINCS_OK);
    CHECK(strlen(fpr) == 64, "fingerprint %s", fpr);
    msg[0] ^= 1;
    CHECK_ST(sphincs_openpgp_verify(cli_cert, cert_len, cli_sig, sig_len, msg, msg_len, NULL),
             SPHINCS_ERR_INVALID_SIGNATURE);
    msg[0] ^= 1;

    /* RFC 9980's sample. */
    CHECK_ST(sphincs_openpgp_verify(rfc_cert, rfc_cert_len, rfc_sig, rfc_sig_len, (const uint8_t *)"Testing\n", 8, fpr),
             SPHINCS_OK);
    CHECK(strcmp(fpr, "D54E0307021169F7B88BEB2B76E3AAD0E114BE1A8F982D74DBA9CA51D03537F4") == 0, "sample %s", fpr);
    CHECK_ST(sphincs_openpgp_verify(rfc_cert, rfc_cert_len, rfc_sig, rfc_sig_len, (const uint8_t *)"Testing", 7, NULL),
             SPHINCS_ERR_INVALID_SIGNATURE);

    /* This library signs with the CLI's key (a size query first). */
    CHECK_ST(sphincs_openpgp_sign(cli_key, key_len, NULL, 0, msg, msg_len, SPHINCS_OPENPGP_BINARY, 1, NULL, 0, &need),
             SPHINCS_ERR_BUFFER_TOO_SMALL);
    CHECK(need > 17088, "signature size %zu", need);
    uint8_t *sig = xmalloc(need);
    CHECK_ST(sphincs_openpgp_sign(cli_key, key_len, NULL, 0, msg, msg_len, SPHINCS_OPENPGP_BINARY, 1, sig, need, &n),
             SPHINCS_OK);
    CHECK_ST(sphincs_openpgp_verify(cli_cert, cert_len, sig, n, msg, msg_len, NULL), SPHINCS_OK);
    FILE *f = fopen(argv[7], "wb");
    CHECK(f && fwrite(sig, 1, n, f) == n && fclose(f) == 0, "writing %s", argv[7]);
    free(sig);

    /* A new protected key: generate, extract, sign text and cleartext. */
    uint8_t *key = xmalloc(1 << 17), *cert = xmalloc(1 << 16), *out = xmalloc(1 << 16);
    size_t klen = 0, clen = 0, olen = 0;
    const uint8_t pw[] = "pw";
    CHECK_ST(sphincs_openpgp_generate_key("slh-dsa-shake-128f", "C <c@example.org>", pw, 2, key, 1 << 17, &klen),
             SPHINCS_OK);
    CHECK(klen > 0 && memcmp(key, "-----BEGIN PGP PRIVATE KEY BLOCK-----", 37) == 0, "armored key");
    CHECK_ST(sphincs_openpgp_extract_cert(key, klen, cert, 1 << 16, &clen), SPHINCS_OK);
    CHECK_ST(sphincs_openpgp_sign(key, klen, NULL, 0, msg, msg_len, SPHINCS_OPENPGP_TEXT, 0, out, 1 << 16, &olen),
             SPHINCS_ERR_WRONG_PASSPHRASE);
    CHECK_ST(sphincs_openpgp_sign(key, klen, (const uint8_t *)"no", 2, msg, msg_len, SPHINCS_OPENPGP_TEXT, 0, out,
                                  1 << 16, &olen),
             SPHINCS_ERR_WRONG_PASSPHRASE);
    static const uint8_t text[] = "Origin: Debian\n- dash line\n";
    CHECK_ST(sphincs_openpgp_sign(key, klen, pw, 2, text, sizeof text - 1, SPHINCS_OPENPGP_TEXT, 0, out, 1 << 16,
                                  &olen),
             SPHINCS_OK);
    CHECK_ST(sphincs_openpgp_verify(cert, clen, out, olen, text, sizeof text - 1, NULL), SPHINCS_OK);
    CHECK_ST(sphincs_openpgp_sign(key, klen, pw, 2, text, sizeof text - 1, SPHINCS_OPENPGP_CLEARTEXT, 0, out,
                                  1 << 16, &olen),
             SPHINCS_OK);
    uint8_t back[128];
    size_t blen = 0;
    CHECK_ST(sphincs_openpgp_verify_cleartext(cert, clen, out, olen, back, sizeof back, &blen, fpr), SPHINCS_OK);
    CHECK(blen == sizeof text - 1 && memcmp(back, text, blen) == 0, "cleartext round trip");
    out[olen / 4] ^= 1; /* inside the text or the armor: either way refused */
    int st = sphincs_openpgp_verify_cleartext(cert, clen, out, olen, back, sizeof back, &blen, NULL);
    CHECK(st != SPHINCS_OK, "tampered cleartext accepted");

    /* Refusals. */
    CHECK_ST(sphincs_openpgp_generate_key("rsa4096", NULL, NULL, 0, key, 1 << 17, &klen), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_openpgp_verify((const uint8_t *)"junk", 4, cli_sig, sig_len, msg, msg_len, NULL),
             SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_openpgp_verify(NULL, 0, cli_sig, sig_len, msg, msg_len, NULL), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_openpgp_sign(cli_key, key_len, NULL, 0, msg, msg_len, 7, 1, out, 1 << 16, &olen),
             SPHINCS_ERR_INVALID_ARGUMENT);
    CHECK_ST(sphincs_openpgp_sign(cli_cert, cert_len, NULL, 0, msg, msg_len, 0, 1, out, 1 << 16, &olen),
             SPHINCS_ERR_UNSUPPORTED);
    CHECK(strlen(sphincs_last_error_message()) > 0, "the last error names the cause");

    free(key), free(cert), free(out);
    free(cli_key), free(cli_cert), free(cli_sig), free(msg), free(rfc_cert), free(rfc_sig);
    return check_report();
}
