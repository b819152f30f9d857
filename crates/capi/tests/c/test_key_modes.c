/* Key modes (RFC 9909): a HashSLH-DSA key made by the CLI (`sphincs keygen
 * --prehash`) loads with its mode, signs and verifies with
 * SPHINCS_PREHASH_NONE in that mode, refuses the other modes with
 * SPHINCS_ERR_WRONG_KEY_MODE, and exports the same PEM; raw keys bound with
 * sphincs_*_with_mode behave the same; a pure key refuses a pre-hash.
 *
 * usage: test_key_modes HASH_KEY.pem HASH_PUB.pem MESSAGE HASH_SIG PURE_KEY.pem PURE_PUB.pem OUT_SIG
 *   HASH_*: SLH-DSA-SHA2-128f bound to HashSLH-DSA with SHA2-256; HASH_SIG the
 *   CLI's signature of MESSAGE with it; PURE_*: a pure key of the CLI;
 *   OUT_SIG receives this library's signature of MESSAGE for the CLI to verify. */
#include <stdint.h>
#include <string.h>

#include <sphincs.h>

#include "check.h"

/* Streams `msg` through a signing stream, then a verification stream. */
static sphincs_status stream_sign(const sphincs_secret_key *sk, const sphincs_sign_options *opts,
                                  const uint8_t *msg, size_t len, uint8_t *sig, size_t cap)
{
    sphincs_sign_stream *s = NULL;
    size_t got = 0, half = len / 2;
    sphincs_status st = sphincs_sign_init(sk, opts, &s);
    if (st == SPHINCS_OK)
        st = sphincs_sign_update(s, msg, half);
    if (st == SPHINCS_OK)
        st = sphincs_sign_update(s, msg + half, len - half);
    if (st == SPHINCS_OK)
        st = sphincs_sign_final(s, sig, cap, &got);
    sphincs_sign_stream_free(s);
    return st;
}

static sphincs_status stream_verify(const sphincs_public_key *pk, const uint8_t *msg, size_t len,
                                    const uint8_t *sig, size_t siglen, sphincs_prehash ph)
{
    sphincs_verify_stream *v = NULL;
    sphincs_status st = sphincs_verify_init(pk, sig, siglen, NULL, 0, ph, &v);
    if (st == SPHINCS_OK)
        st = sphincs_verify_update(v, msg, len);
    if (st == SPHINCS_OK)
        st = sphincs_verify_final(v);
    sphincs_verify_stream_free(v);
    return st;
}

int main(int argc, char **argv)
{
    struct blob key, pub, msg, cli_sig, pure_key, pure_pub;
    sphincs_secret_key *sk = NULL, *raw_sk = NULL, *bound = NULL, *again = NULL, *pure = NULL, *spx = NULL;
    sphincs_public_key *pk = NULL, *raw_pk = NULL, *bound_pk = NULL, *pure_pk = NULL, *again_pk = NULL;
    const sphincs_alg *alg, *spx_alg = NULL;
    sphincs_sign_options opts;
    sphincs_key_mode mode = -1;
    uint8_t buf[8192], raw[128], seed[48] = {3}, *sig, *sig2;
    size_t siglen, len = 0, got = 0;
    FILE *f;

    struct blob *files[] = {&key, &pub, &msg, &cli_sig, &pure_key, &pure_pub};
    load_args(argc, argv, 8, "HASH_KEY HASH_PUB MESSAGE HASH_SIG PURE_KEY PURE_PUB OUT_SIG", files, 6);

    /* The CLI's HashSLH-DSA key loads with its mode. */
    CHECK_ST(sphincs_secret_key_from_pkcs8(key.data, key.len, &sk), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_from_spki(pub.data, pub.len, &pk), SPHINCS_OK);
    if (!sk || !pk)
        return check_report();
    alg = sphincs_secret_key_alg(sk);
    CHECK(strcmp(sphincs_alg_name(alg), "SLH-DSA-SHA2-128f") == 0, "set %s", sphincs_alg_name(alg));
    siglen = sphincs_alg_signature_bytes(alg);
    sig = xmalloc(siglen);
    sig2 = xmalloc(siglen);
    expect_mode(sk, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHA2_256, "CLI key");
    expect_mode(pk, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHA2_256, "CLI key");
    CHECK_ST(sphincs_secret_key_mode(sk, &mode, NULL), SPHINCS_OK); /* the pre-hash out-argument is optional */
    CHECK_ST(sphincs_secret_key_mode(sk, NULL, NULL), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_public_key_mode(NULL, &mode, NULL), SPHINCS_ERR_NULL_POINTER);

    /* Export gives back the CLI's files byte for byte (the HashSLH-DSA OID). */
    CHECK_ST(sphincs_secret_key_to_pkcs8(sk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len == key.len && memcmp(buf, key.data, len) == 0, "private key PEM = the CLI's");
    CHECK_ST(sphincs_public_key_to_spki(pk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len == pub.len && memcmp(buf, pub.data, len) == 0, "public key PEM = the CLI's");
    /* DER keeps the mode too. */
    CHECK_ST(sphincs_secret_key_to_pkcs8(sk, SPHINCS_FORMAT_DER, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_from_pkcs8(buf, len, &again), SPHINCS_OK);
    expect_mode(again, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHA2_256, "DER round trip");
    CHECK_ST(sphincs_public_key_to_spki(pk, SPHINCS_FORMAT_DER, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_from_spki(buf, len, &again_pk), SPHINCS_OK);
    expect_mode(again_pk, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHA2_256, "SPKI DER round trip");

    /* SPHINCS_PREHASH_NONE uses the key's mode: the CLI's signature verifies,
     * and ours is a HashSLH-DSA signature (an unrestricted copy of the public
     * key verifies it with SHA2-256, not as pure). */
    CHECK_ST(sphincs_verify(pk, msg.data, msg.len, cli_sig.data, cli_sig.len, NULL, 0, SPHINCS_PREHASH_NONE),
             SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, msg.data, msg.len, cli_sig.data, cli_sig.len, NULL, 0, SPHINCS_PREHASH_SHA2_256),
             SPHINCS_OK);
    CHECK_ST(sphincs_sign(sk, msg.data, msg.len, NULL, sig, siglen, &got), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, msg.data, msg.len, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_export(pk, raw, sizeof raw, &len), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_import(alg, raw, len, &raw_pk), SPHINCS_OK);
    expect_mode(raw_pk, SPHINCS_KEY_MODE_UNRESTRICTED, SPHINCS_PREHASH_NONE, "raw public key");
    CHECK_ST(sphincs_verify(raw_pk, msg.data, msg.len, sig, siglen, NULL, 0, SPHINCS_PREHASH_SHA2_256), SPHINCS_OK);
    CHECK_ST(sphincs_verify(raw_pk, msg.data, msg.len, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_INVALID_SIGNATURE);
    f = fopen(argv[7], "wb");
    CHECK(f && fwrite(sig, 1, got, f) == got && fclose(f) == 0, "wrote %s", argv[7]);

    /* The wrong mode is its own status, for signing and verifying. */
    sphincs_sign_options_init(&opts);
    opts.prehash = SPHINCS_PREHASH_SHA2_512;
    CHECK_ST(sphincs_sign(sk, msg.data, msg.len, &opts, sig2, siglen, &got), SPHINCS_ERR_WRONG_KEY_MODE);
    CHECK_ST(sphincs_verify(pk, msg.data, msg.len, sig, siglen, NULL, 0, SPHINCS_PREHASH_SHA2_512),
             SPHINCS_ERR_WRONG_KEY_MODE);
    CHECK_ST(stream_verify(pk, msg.data, msg.len, sig, siglen, SPHINCS_PREHASH_SHA3_256), SPHINCS_ERR_WRONG_KEY_MODE);
    CHECK_ST(stream_sign(sk, &opts, msg.data, msg.len, sig2, siglen), SPHINCS_ERR_WRONG_KEY_MODE);
    opts.prehash = SPHINCS_PREHASH_SHA2_256; /* its own pre-hash, named: fine */
    CHECK_ST(sphincs_sign(sk, msg.data, msg.len, &opts, sig2, siglen, &got), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, msg.data, msg.len, sig2, siglen, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);

    /* Streams in the key's mode equal one-shot (deterministic signing). */
    sphincs_sign_options_init(&opts);
    opts.randomness = SPHINCS_RANDOMNESS_DETERMINISTIC;
    CHECK_ST(sphincs_sign(sk, msg.data, msg.len, &opts, sig, siglen, &got), SPHINCS_OK);
    CHECK_ST(stream_sign(sk, &opts, msg.data, msg.len, sig2, siglen), SPHINCS_OK);
    CHECK(memcmp(sig, sig2, siglen) == 0, "HashSLH-DSA key: stream = one-shot");
    CHECK_ST(stream_verify(pk, msg.data, msg.len, sig, siglen, SPHINCS_PREHASH_NONE), SPHINCS_OK);
    CHECK_ST(sphincs_verify(raw_pk, msg.data, msg.len, sig, siglen, NULL, 0, SPHINCS_PREHASH_SHA2_256), SPHINCS_OK);

    /* Batches honour each item's key mode. */
    {
        sphincs_verify_item items[3] = {
            {pk, msg.data, msg.len, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE},
            {pk, msg.data, msg.len, sig, siglen, NULL, 0, SPHINCS_PREHASH_SHA2_512},
            {raw_pk, msg.data, msg.len, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE},
        };
        sphincs_status results[3];
        CHECK_ST(sphincs_verify_batch(items, 3, 2, results), SPHINCS_ERR_INVALID_SIGNATURE);
        CHECK(results[0] == SPHINCS_OK && results[1] == SPHINCS_ERR_WRONG_KEY_MODE &&
                  results[2] == SPHINCS_ERR_INVALID_SIGNATURE,
              "batch results %d %d %d", results[0], results[1], results[2]);
    }

    /* A raw key bound with sphincs_secret_key_with_mode is the CLI's key. */
    CHECK_ST(sphincs_secret_key_export(sk, raw, sizeof raw, &len), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_import(alg, raw, len, &raw_sk), SPHINCS_OK);
    expect_mode(raw_sk, SPHINCS_KEY_MODE_UNRESTRICTED, SPHINCS_PREHASH_NONE, "raw secret key");
    CHECK_ST(sphincs_secret_key_with_mode(raw_sk, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_NONE, &bound),
             SPHINCS_OK);
    expect_mode(bound, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHA2_256, "bound key");
    expect_mode(raw_sk, SPHINCS_KEY_MODE_UNRESTRICTED, SPHINCS_PREHASH_NONE, "the original stays raw");
    CHECK_ST(sphincs_secret_key_to_pkcs8(bound, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len == key.len && memcmp(buf, key.data, len) == 0, "bound key's PEM = the CLI's");
    CHECK_ST(sphincs_public_key_with_mode(raw_pk, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHA2_256, &bound_pk),
             SPHINCS_OK);
    CHECK_ST(sphincs_public_key_to_spki(bound_pk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len == pub.len && memcmp(buf, pub.data, len) == 0, "bound public key's PEM = the CLI's");
    /* The raw key's PEM is under the pure OID: another file. */
    CHECK_ST(sphincs_secret_key_to_pkcs8(raw_sk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len != key.len || memcmp(buf, key.data, len) != 0, "raw key's PEM is not the HashSLH-DSA one");
    sphincs_secret_key_free(again);
    again = NULL;
    CHECK_ST(sphincs_secret_key_from_pkcs8(buf, len, &again), SPHINCS_OK);
    expect_mode(again, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE, "raw key through PEM");

    /* Pairings RFC 9909 has no OID for, and bad arguments. */
    sphincs_secret_key_free(bound);
    bound = NULL;
    CHECK_ST(sphincs_secret_key_with_mode(raw_sk, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHA2_512, &bound),
             SPHINCS_ERR_PREHASH_NOT_BOUND);
    CHECK_ST(sphincs_public_key_with_mode(raw_pk, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_SHAKE_128, &again_pk),
             SPHINCS_ERR_PREHASH_NOT_BOUND);
    CHECK_ST(sphincs_secret_key_with_mode(raw_sk, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_SHA2_256, &bound),
             SPHINCS_ERR_INVALID_ARGUMENT);
    CHECK_ST(sphincs_secret_key_with_mode(raw_sk, 3, SPHINCS_PREHASH_NONE, &bound), SPHINCS_ERR_INVALID_ARGUMENT);
    CHECK_ST(sphincs_secret_key_with_mode(raw_sk, SPHINCS_KEY_MODE_HASH_SLH_DSA, 13, &bound),
             SPHINCS_ERR_UNKNOWN_PREHASH);
    CHECK_ST(sphincs_secret_key_with_mode(raw_sk, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE, NULL),
             SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_secret_key_with_mode(NULL, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE, &bound),
             SPHINCS_ERR_NULL_POINTER);
    CHECK(bound == NULL, "no key written on failure");

    /* A pure key (the CLI's default) refuses a pre-hash. */
    CHECK_ST(sphincs_secret_key_from_pkcs8(pure_key.data, pure_key.len, &pure), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_from_spki(pure_pub.data, pure_pub.len, &pure_pk), SPHINCS_OK);
    expect_mode(pure, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE, "pure key");
    expect_mode(pure_pk, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE, "pure key");
    {
        size_t plen = sphincs_alg_signature_bytes(sphincs_secret_key_alg(pure));
        uint8_t *psig = xmalloc(plen);
        sphincs_sign_options_init(&opts);
        opts.prehash = SPHINCS_PREHASH_SHAKE_128;
        CHECK_ST(sphincs_sign(pure, msg.data, msg.len, &opts, psig, plen, &got), SPHINCS_ERR_WRONG_KEY_MODE);
        CHECK_ST(sphincs_sign(pure, msg.data, msg.len, NULL, psig, plen, &got), SPHINCS_OK);
        CHECK_ST(sphincs_verify(pure_pk, msg.data, msg.len, psig, plen, NULL, 0, SPHINCS_PREHASH_SHAKE_128),
                 SPHINCS_ERR_WRONG_KEY_MODE);
        CHECK_ST(sphincs_verify(pure_pk, msg.data, msg.len, psig, plen, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);
        free(psig);
    }

    /* Round-3.1 keys have no modes. */
    CHECK_ST(sphincs_alg_by_name("sphincs-shake-128f-simple", &spx_alg), SPHINCS_OK);
    CHECK_ST(sphincs_keygen_from_seed(spx_alg, seed, sizeof seed, 1, &spx), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_mode(spx, &mode, NULL), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_secret_key_with_mode(spx, SPHINCS_KEY_MODE_HASH_SLH_DSA, SPHINCS_PREHASH_NONE, &bound),
             SPHINCS_ERR_UNSUPPORTED);

    sphincs_secret_key_free(sk);
    sphincs_secret_key_free(raw_sk);
    sphincs_secret_key_free(bound);
    sphincs_secret_key_free(again);
    sphincs_secret_key_free(pure);
    sphincs_secret_key_free(spx);
    sphincs_public_key_free(pk);
    sphincs_public_key_free(raw_pk);
    sphincs_public_key_free(bound_pk);
    sphincs_public_key_free(pure_pk);
    sphincs_public_key_free(again_pk);
    free(key.data);
    free(pub.data);
    free(msg.data);
    free(cli_sig.data);
    free(pure_key.data);
    free(pure_pub.data);
    free(sig);
    free(sig2);
    return check_report();
}
