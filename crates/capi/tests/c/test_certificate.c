/* sphincs_public_key_from_certificate: the subject public key of a
 * certificate made by the CLI (`sphincs cert self-signed`), PEM and DER, is
 * the key that made it, in the mode of its OID, and verifies the CLI's
 * signatures; damaged input is SPHINCS_ERR_ENCODING with the reason in
 * sphincs_last_error_message() and no key.
 *
 * usage: test_certificate CERT.pem CERT.der PUB.pem MESSAGE SIG HASH_CERT.pem HASH_SIG
 *   CERT.*: a certificate of the pure SLH-DSA-SHAKE-128f key whose public key
 *   is PUB.pem and whose signature of MESSAGE is SIG; HASH_CERT: one of an
 *   SLH-DSA-SHA2-128f key bound to HashSLH-DSA with SHA2-256, whose signature
 *   of MESSAGE is HASH_SIG. */
#include <stdint.h>
#include <string.h>

#include <sphincs.h>

#include "check.h"

/* `input` must be refused with SPHINCS_ERR_ENCODING, no key, and a message
 * containing `says` (not only the status's generic line). */
static void refused(const uint8_t *input, size_t len, const char *says, const char *what)
{
    sphincs_public_key *pk = NULL;
    const char *msg;
    CHECK_ST(sphincs_public_key_from_certificate(input, len, &pk), SPHINCS_ERR_ENCODING);
    CHECK(pk == NULL, "%s: a key was made", what);
    msg = sphincs_last_error_message();
    CHECK(msg && strstr(msg, says) != NULL, "%s: message lacks \"%s\": %s", what, says, msg ? msg : "(NULL)");
    sphincs_public_key_free(pk);
}

int main(int argc, char **argv)
{
    struct blob pem, der, pub, msg, sig, hash_pem, hash_sig;
    sphincs_public_key *pk = NULL, *pk_der = NULL, *hpk = NULL;
    uint8_t buf[4096], *damaged;
    size_t len = 0, i, at = 0, hits = 0;
    /* The DER of OID 2.16.840.1.101.3.4.3.27 (id-slh-dsa-shake-128f). */
    static const uint8_t oid[] = {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x1b};

    struct blob *files[] = {&pem, &der, &pub, &msg, &sig, &hash_pem, &hash_sig};
    load_args(argc, argv, 8, "CERT.pem CERT.der PUB.pem MESSAGE SIG HASH_CERT.pem HASH_SIG", files, 7);

    /* PEM and DER give the key that made the certificate, as pure SLH-DSA. */
    CHECK_ST(sphincs_public_key_from_certificate(pem.data, pem.len, &pk), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_from_certificate(der.data, der.len, &pk_der), SPHINCS_OK);
    if (!pk || !pk_der)
        return check_report();
    CHECK(strcmp(sphincs_last_error_message(), "") == 0, "after a success: %s", sphincs_last_error_message());
    CHECK_ST(sphincs_public_key_to_spki(pk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len == pub.len && memcmp(buf, pub.data, len) == 0, "the certificate's key (PEM) = the CLI's public key");
    CHECK_ST(sphincs_public_key_to_spki(pk_der, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len == pub.len && memcmp(buf, pub.data, len) == 0, "the certificate's key (DER) = the CLI's public key");
    expect_mode(pk, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE, "pure certificate");

    /* It verifies the signature of the certificate's private key, and only over its message. */
    CHECK_ST(sphincs_verify(pk, msg.data, msg.len, sig.data, sig.len, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);
    msg.data[0] ^= 1;
    CHECK_ST(sphincs_verify(pk, msg.data, msg.len, sig.data, sig.len, NULL, 0, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_INVALID_SIGNATURE);
    msg.data[0] ^= 1;

    /* A HashSLH-DSA key keeps its mode through the certificate. */
    CHECK_ST(sphincs_public_key_from_certificate(hash_pem.data, hash_pem.len, &hpk), SPHINCS_OK);
    if (hpk) {
        expect_mode(hpk, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHA2_256, "HashSLH-DSA certificate");
        CHECK_ST(sphincs_verify(hpk, msg.data, msg.len, hash_sig.data, hash_sig.len, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_OK);
    }

    /* Damaged input: an error status, no key, and the reason. */
    refused(der.data, der.len - 10, "X.509 certificate", "truncated DER");
    refused(pem.data, 40, "X.509 certificate", "truncated PEM");
    refused(pub.data, pub.len, "\"CERTIFICATE\"", "a public key");
    refused((const uint8_t *)"hello", 5, "X.509 certificate", "text");
    refused(der.data, 0, "empty", "empty input");
    /* A subject key of another algorithm (the last arc of its OID changed;
     * the OID is in the TBS signature algorithm, the key and the outer
     * signature algorithm, in that order). */
    damaged = xmalloc(der.len);
    memcpy(damaged, der.data, der.len);
    for (i = 0; i + sizeof oid <= der.len; i++) {
        if (memcmp(der.data + i, oid, sizeof oid) == 0) {
            if (++hits == 2)
                at = i;
        }
    }
    CHECK(hits == 3, "the set's OID appears %zu times", hits);
    if (hits == 3) {
        damaged[at + sizeof oid - 1] = 0x7f;
        refused(damaged, der.len, "subject public key", "a key of another algorithm");
    }
    CHECK_ST(sphincs_public_key_from_certificate(NULL, 0, &pk), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_public_key_from_certificate(der.data, der.len, NULL), SPHINCS_ERR_NULL_POINTER);

    free(damaged);
    sphincs_public_key_free(pk);
    sphincs_public_key_free(pk_der);
    sphincs_public_key_free(hpk);
    free(pem.data);
    free(der.data);
    free(pub.data);
    free(msg.data);
    free(sig.data);
    free(hash_pem.data);
    free(hash_sig.data);
    return check_report();
}
