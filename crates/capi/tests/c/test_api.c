/* The native API of libsphincs, from C: every parameter set of every scheme,
 * contexts and pre-hash, streaming against one-shot, keys made by the CLI,
 * bad input, batches, concurrent use, and streams in bounded memory.
 *
 * usage: test_api CLI_KEY.pem CLI_PUB.pem MESSAGE CLI_SIG OUT_SIG
 *   (the CLI's key pair, a message and its CLI signature, all SLH-DSA-SHAKE-128f;
 *   OUT_SIG receives this library's signature for the CLI to verify) */
#include <pthread.h>
#include <sys/resource.h>
#include <stdint.h>
#include <string.h>

#include <sphincs.h>

#include "check.h"

static const sphincs_alg *alg_named(const char *name)
{
    const sphincs_alg *alg = NULL;
    sphincs_status st = sphincs_alg_by_name(name, &alg);
    if (st != SPHINCS_OK) {
        printf("FAIL: no algorithm %s: %s\n", name, sphincs_strerror(st));
        exit(2);
    }
    return alg;
}

static sphincs_secret_key *seeded_key(const sphincs_alg *alg, uint8_t fill)
{
    uint8_t seed[96];
    sphincs_secret_key *sk = NULL;
    memset(seed, fill, sizeof seed);
    CHECK_ST(sphincs_keygen_from_seed(alg, seed, sphincs_alg_seed_bytes(alg), 0, &sk), SPHINCS_OK);
    return sk;
}

static void fill_message(uint8_t *m, size_t len)
{
    for (size_t i = 0; i < len; i++)
        m[i] = (uint8_t)(i * 131 + (i >> 9));
}

/* keygen, sign, verify, tamper and raw round trips for the 49 sets of FIPS 205,
 * round 3.1 and SPHINCS-256. The six draft SP 800-230 sets after them (a
 * minute or more per key generation) are test_sp800_230.c's. */
static void every_set(void)
{
    static const uint8_t msg[] = "libsphincs: every parameter set";
    size_t count = sphincs_alg_count();
    CHECK(count == 55, "%zu sets", count);
    for (size_t i = 0; i < 49; i++) {
        const sphincs_alg *alg = sphincs_alg_at(i), *again = NULL;
        const char *name = sphincs_alg_name(alg);
        size_t siglen = sphincs_alg_signature_bytes(alg), got = 0, len = 0;
        size_t pklen = sphincs_alg_public_key_bytes(alg), sklen = sphincs_alg_secret_key_bytes(alg);
        sphincs_secret_key *sk = NULL, *sk2 = NULL;
        sphincs_public_key *pk = NULL, *pk2 = NULL;
        static uint8_t raw[2048], raw2[2048];
        uint8_t *sig = xmalloc(siglen);
        int scheme = i < 12 ? SPHINCS_SCHEME_SLH_DSA : i < 48 ? SPHINCS_SCHEME_SPHINCSPLUS_R31 : SPHINCS_SCHEME_SPHINCS256;
        sphincs_sign_options opts;

        /* SPHINCS-256's secret key is SK1 || Q || SK2, not twice the public key. */
        CHECK(name != NULL && siglen > 0 && pklen > 0 &&
                  (scheme == SPHINCS_SCHEME_SPHINCS256 ? sklen == 1088 && pklen == 1056 : sklen == 2 * pklen),
              "set %zu", i);
        CHECK_ST(sphincs_alg_by_name(name, &again), SPHINCS_OK);
        CHECK(again == alg, "%s looks up to itself", name);
        CHECK(sphincs_alg_scheme(alg) == scheme, "%s", name);
        CHECK_ST(sphincs_keygen(alg, 0, &sk), SPHINCS_OK);
        CHECK(sphincs_secret_key_alg(sk) == alg, "%s", name);
        CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
        CHECK_ST(sphincs_sign_options_init(&opts), SPHINCS_OK);
        opts.threads = 0;
        CHECK_ST(sphincs_sign(sk, msg, sizeof msg, &opts, sig, siglen, &got), SPHINCS_OK);
        CHECK(got == siglen, "%s: %zu-byte signature", name, got);
        CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);
        CHECK_ST(sphincs_verify(pk, msg, sizeof msg - 1, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_ERR_INVALID_SIGNATURE);
        sig[siglen / 2] ^= 1;
        CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_ERR_INVALID_SIGNATURE);

        /* Raw export and import. */
        CHECK_ST(sphincs_secret_key_export(sk, raw, sizeof raw, &len), SPHINCS_OK);
        CHECK(len == sklen, "%s: secret key %zu bytes", name, len);
        CHECK_ST(sphincs_secret_key_import(alg, raw, len, &sk2), SPHINCS_OK);
        CHECK_ST(sphincs_public_key_export(pk, raw, sizeof raw, &len), SPHINCS_OK);
        CHECK(len == pklen, "%s: public key %zu bytes", name, len);
        CHECK_ST(sphincs_public_key_import(alg, raw, len, &pk2), SPHINCS_OK);
        sphincs_public_key_free(pk2);
        pk2 = NULL;
        CHECK_ST(sphincs_secret_key_public(sk2, &pk2), SPHINCS_OK);
        CHECK_ST(sphincs_public_key_export(pk2, raw2, sizeof raw2, &len), SPHINCS_OK);
        CHECK(len == pklen && memcmp(raw, raw2, pklen) == 0, "%s: imported key has the same public half", name);

        sphincs_secret_key_free(sk);
        sphincs_secret_key_free(sk2);
        sphincs_public_key_free(pk);
        sphincs_public_key_free(pk2);
        free(sig);
    }
}

/* Keys from seeds, deterministic and caller-given randomness. */
static void seeds_and_randomness(void)
{
    const char *names[] = {"SLH-DSA-SHA2-128f", "sphincs-haraka-128f-robust"};
    for (size_t s = 0; s < 2; s++) {
        const sphincs_alg *alg = alg_named(names[s]);
        size_t siglen = sphincs_alg_signature_bytes(alg), l1, l2;
        uint8_t *a = xmalloc(siglen), *b = xmalloc(siglen), rnd[16], raw1[64], raw2[64];
        sphincs_secret_key *k1 = seeded_key(alg, 5), *k2 = seeded_key(alg, 5), *k3 = seeded_key(alg, 6);
        sphincs_sign_options opts;

        CHECK_ST(sphincs_secret_key_export(k1, raw1, sizeof raw1, &l1), SPHINCS_OK);
        CHECK_ST(sphincs_secret_key_export(k2, raw2, sizeof raw2, &l2), SPHINCS_OK);
        CHECK(l1 == l2 && memcmp(raw1, raw2, l1) == 0, "%s: same seed, same key", names[s]);
        CHECK_ST(sphincs_secret_key_export(k3, raw2, sizeof raw2, &l2), SPHINCS_OK);
        CHECK(memcmp(raw1, raw2, l1) != 0, "%s: other seed, other key", names[s]);

        sphincs_sign_options_init(&opts);
        opts.randomness = SPHINCS_RANDOMNESS_DETERMINISTIC;
        CHECK_ST(sphincs_sign(k1, (const uint8_t *)"m", 1, &opts, a, siglen, &l1), SPHINCS_OK);
        opts.threads = 3;
        CHECK_ST(sphincs_sign(k2, (const uint8_t *)"m", 1, &opts, b, siglen, &l2), SPHINCS_OK);
        CHECK(memcmp(a, b, siglen) == 0, "%s: deterministic signatures equal for 1 and 3 threads", names[s]);
        opts.fault_hardened = 1;
        CHECK_ST(sphincs_sign(k2, (const uint8_t *)"m", 1, &opts, b, siglen, &l2), SPHINCS_OK);
        CHECK(memcmp(a, b, siglen) == 0, "%s: fault-hardened signature equal", names[s]);

        memset(rnd, 0x42, sizeof rnd);
        opts.randomness = SPHINCS_RANDOMNESS_GIVEN;
        opts.random = rnd;
        opts.random_len = 16;
        opts.fault_hardened = 0;
        CHECK_ST(sphincs_sign(k1, (const uint8_t *)"m", 1, &opts, a, siglen, &l1), SPHINCS_OK);
        CHECK_ST(sphincs_sign(k1, (const uint8_t *)"m", 1, &opts, b, siglen, &l2), SPHINCS_OK);
        CHECK(memcmp(a, b, siglen) == 0, "%s: same given randomness, same signature", names[s]);
        opts.random_len = 15;
        CHECK_ST(sphincs_sign(k1, (const uint8_t *)"m", 1, &opts, a, siglen, &l1), SPHINCS_ERR_INVALID_LENGTH);
        opts.randomness = SPHINCS_RANDOMNESS_HEDGED;
        CHECK_ST(sphincs_sign(k1, (const uint8_t *)"m", 1, &opts, a, siglen, &l1), SPHINCS_OK);
        CHECK_ST(sphincs_sign(k1, (const uint8_t *)"m", 1, &opts, b, siglen, &l2), SPHINCS_OK);
        CHECK(memcmp(a, b, siglen) != 0, "%s: hedged signatures differ", names[s]);

        sphincs_secret_key_free(k1);
        sphincs_secret_key_free(k2);
        sphincs_secret_key_free(k3);
        free(a);
        free(b);
    }
}

/* Context strings and all twelve pre-hash functions. */
static void contexts_and_prehash(void)
{
    const sphincs_alg *alg = alg_named("sha2-128f");
    size_t siglen = sphincs_alg_signature_bytes(alg), got;
    uint8_t *sig = xmalloc(siglen), ctx[256];
    static const uint8_t msg[] = "context and pre-hash";
    sphincs_secret_key *sk = seeded_key(alg, 1);
    sphincs_public_key *pk = NULL;
    sphincs_sign_options opts;
    sphincs_prehash ph = -1;

    memset(ctx, 'c', sizeof ctx);
    CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
    sphincs_sign_options_init(&opts);
    opts.context = ctx;
    opts.context_len = 255;
    CHECK_ST(sphincs_sign(sk, msg, sizeof msg, &opts, sig, siglen, &got), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, ctx, 255, SPHINCS_PREHASH_NONE), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, ctx, 254, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_INVALID_SIGNATURE);
    CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_INVALID_SIGNATURE);
    opts.context_len = 256;
    CHECK_ST(sphincs_sign(sk, msg, sizeof msg, &opts, sig, siglen, &got), SPHINCS_ERR_CONTEXT_TOO_LONG);
    CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, ctx, 256, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_CONTEXT_TOO_LONG);

    opts.context_len = 3;
    for (ph = SPHINCS_PREHASH_SHA2_224; ph <= SPHINCS_PREHASH_SHAKE_256; ph++) {
        opts.prehash = ph;
        CHECK_ST(sphincs_sign(sk, msg, sizeof msg, &opts, sig, siglen, &got), SPHINCS_OK);
        CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, ctx, 3, ph), SPHINCS_OK);
        CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, ctx, 3, ph == 1 ? 2 : 1),
                 SPHINCS_ERR_INVALID_SIGNATURE);
        CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, ctx, 3, SPHINCS_PREHASH_NONE),
                 SPHINCS_ERR_INVALID_SIGNATURE);
    }
    opts.prehash = 13;
    CHECK_ST(sphincs_sign(sk, msg, sizeof msg, &opts, sig, siglen, &got), SPHINCS_ERR_UNKNOWN_PREHASH);
    CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, NULL, 0, -1), SPHINCS_ERR_UNKNOWN_PREHASH);
    CHECK_ST(sphincs_prehash_by_name("sha256", &ph), SPHINCS_OK);
    CHECK(ph == SPHINCS_PREHASH_SHA2_256, "sha256 is %d", ph);
    CHECK_ST(sphincs_prehash_by_name("SHAKE-256", &ph), SPHINCS_OK);
    CHECK(ph == SPHINCS_PREHASH_SHAKE_256, "SHAKE-256 is %d", ph);
    CHECK_ST(sphincs_prehash_by_name("md5", &ph), SPHINCS_ERR_UNKNOWN_PREHASH);
    sphincs_secret_key_free(sk);
    sphincs_public_key_free(pk);

    /* Round 3.1 has no context or pre-hash: asking is an error, not ignored. */
    alg = alg_named("sphincs-shake-128f-simple");
    sk = seeded_key(alg, 2);
    CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
    sphincs_sign_options_init(&opts);
    opts.context = ctx;
    opts.context_len = 1;
    CHECK_ST(sphincs_sign(sk, msg, sizeof msg, &opts, sig, siglen, &got), SPHINCS_ERR_UNSUPPORTED);
    opts.context_len = 0;
    opts.prehash = SPHINCS_PREHASH_SHA2_256;
    CHECK_ST(sphincs_sign(sk, msg, sizeof msg, &opts, sig, siglen, &got), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_sign(sk, msg, sizeof msg, NULL, sig, siglen, &got), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, ctx, 1, SPHINCS_PREHASH_NONE), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, NULL, 0, SPHINCS_PREHASH_SHA2_256),
             SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_verify(pk, msg, sizeof msg, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);
    sphincs_secret_key_free(sk);
    sphincs_public_key_free(pk);
    free(sig);
}

/* Streams `msg` into a signing stream in uneven pieces. */
static sphincs_status stream_sign(const sphincs_secret_key *sk, const sphincs_sign_options *opts,
                                  const uint8_t *msg, size_t len, uint8_t *sig, size_t cap)
{
    static const size_t pieces[] = {1, 7, 65536 + 3, 100000, 13};
    sphincs_sign_stream *s = NULL;
    sphincs_status st = sphincs_sign_init(sk, opts, &s);
    size_t pos = 0, i = 0, got = 0;
    if (st != SPHINCS_OK)
        return st;
    while (pos < len) {
        size_t n = pieces[i++ % 5];
        if (n > len - pos)
            n = len - pos;
        st = sphincs_sign_update(s, msg + pos, n);
        if (st != SPHINCS_OK)
            break;
        pos += n;
    }
    if (st == SPHINCS_OK)
        st = sphincs_sign_final(s, sig, cap, &got);
    sphincs_sign_stream_free(s);
    return st;
}

static sphincs_status stream_verify(const sphincs_public_key *pk, const uint8_t *msg, size_t len,
                                    const uint8_t *sig, size_t siglen, const uint8_t *ctx,
                                    size_t ctxlen, sphincs_prehash ph)
{
    sphincs_verify_stream *v = NULL;
    sphincs_status st = sphincs_verify_init(pk, sig, siglen, ctx, ctxlen, ph, &v);
    size_t pos = 0;
    if (st != SPHINCS_OK)
        return st;
    while (pos < len && st == SPHINCS_OK) {
        size_t n = len - pos < 5000 ? len - pos : 5000;
        st = sphincs_verify_update(v, msg + pos, n);
        pos += n;
    }
    if (st == SPHINCS_OK)
        st = sphincs_verify_final(v);
    sphincs_verify_stream_free(v);
    return st;
}

/* Streaming (init/update/final and the reader callbacks) equals one-shot. */
static void streaming(void)
{
    const char *names[] = {"SLH-DSA-SHAKE-128f", "sphincs-sha2-128f-simple"};
    size_t len = 300000;
    uint8_t *msg = xmalloc(len);
    fill_message(msg, len);
    for (size_t s = 0; s < 2; s++) {
        const sphincs_alg *alg = alg_named(names[s]);
        int fips = sphincs_alg_scheme(alg) == SPHINCS_SCHEME_SLH_DSA;
        size_t siglen = sphincs_alg_signature_bytes(alg), got;
        uint8_t *one = xmalloc(siglen), *streamed = xmalloc(siglen);
        sphincs_secret_key *sk = seeded_key(alg, 3);
        sphincs_public_key *pk = NULL;
        sphincs_sign_options opts;
        struct mem_reader r = {msg, len, 0, 0, 0, 1000};
        const uint8_t *ctx = fips ? (const uint8_t *)"ctx" : NULL;
        size_t ctxlen = fips ? 3 : 0;

        CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
        sphincs_sign_options_init(&opts);
        opts.randomness = SPHINCS_RANDOMNESS_DETERMINISTIC;
        opts.context = ctx;
        opts.context_len = ctxlen;
        for (int mode = 0; mode < (fips ? 2 : 1); mode++) {
            opts.prehash = mode ? SPHINCS_PREHASH_SHA2_512 : SPHINCS_PREHASH_NONE;
            CHECK_ST(sphincs_sign(sk, msg, len, &opts, one, siglen, &got), SPHINCS_OK);
            CHECK_ST(stream_sign(sk, &opts, msg, len, streamed, siglen), SPHINCS_OK);
            CHECK(memcmp(one, streamed, siglen) == 0, "%s prehash %d: streamed = one-shot", names[s], opts.prehash);
            CHECK_ST(stream_verify(pk, msg, len, one, siglen, ctx, ctxlen, opts.prehash), SPHINCS_OK);
            CHECK_ST(stream_verify(pk, msg, len - 1, one, siglen, ctx, ctxlen, opts.prehash),
                     SPHINCS_ERR_INVALID_SIGNATURE);
            /* Empty message. */
            CHECK_ST(sphincs_sign(sk, NULL, 0, &opts, one, siglen, &got), SPHINCS_OK);
            CHECK_ST(stream_sign(sk, &opts, NULL, 0, streamed, siglen), SPHINCS_OK);
            CHECK(memcmp(one, streamed, siglen) == 0, "%s: empty message streamed = one-shot", names[s]);
            CHECK_ST(stream_verify(pk, NULL, 0, one, siglen, ctx, ctxlen, opts.prehash), SPHINCS_OK);

            /* Reader callbacks: two passes for pure signing, one with a pre-hash. */
            CHECK_ST(sphincs_sign(sk, msg, len, &opts, one, siglen, &got), SPHINCS_OK);
            r.rewinds = 0;
            CHECK_ST(sphincs_sign_reader(sk, mem_read, mem_rewind, &r, &opts, streamed, siglen, &got), SPHINCS_OK);
            CHECK(memcmp(one, streamed, siglen) == 0, "%s: reader = one-shot", names[s]);
            CHECK(r.rewinds == (opts.prehash ? 1 : 2), "%d passes", r.rewinds);
            CHECK_ST(sphincs_verify_reader(pk, mem_read, mem_rewind, &r, one, siglen, ctx, ctxlen, opts.prehash),
                     SPHINCS_OK);
        }
        /* Pure signing without rewind cannot make its second pass. */
        opts.prehash = SPHINCS_PREHASH_NONE;
        r.pos = 0;
        CHECK_ST(sphincs_sign_reader(sk, mem_read, NULL, &r, &opts, streamed, siglen, &got),
                 SPHINCS_ERR_NULL_POINTER);
        CHECK(r.pos == 0, "nothing read before refusing a NULL rewind (%zu)", r.pos);
        r.fail_read = 1;
        CHECK_ST(sphincs_sign_reader(sk, mem_read, mem_rewind, &r, &opts, streamed, siglen, &got), SPHINCS_ERR_IO);
        CHECK_ST(sphincs_verify_reader(pk, mem_read, mem_rewind, &r, one, siglen, NULL, 0, 0), SPHINCS_ERR_IO);
        CHECK_ST(sphincs_sign_reader(sk, NULL, mem_rewind, &r, &opts, streamed, siglen, &got),
                 SPHINCS_ERR_NULL_POINTER);

        /* Stream states. */
        {
            sphincs_sign_stream *st = NULL;
            sphincs_verify_stream *vs = NULL;
            size_t need = 0;
            CHECK_ST(sphincs_sign_init(sk, &opts, &st), SPHINCS_OK);
            CHECK_ST(sphincs_sign_update(st, msg, 10), SPHINCS_OK);
            CHECK_ST(sphincs_sign_final(st, streamed, siglen - 1, &need), SPHINCS_ERR_BUFFER_TOO_SMALL);
            CHECK(need == siglen, "final asks for %zu bytes", need);
            CHECK_ST(sphincs_sign_final(st, streamed, siglen, &got), SPHINCS_OK);
            CHECK_ST(sphincs_sign_update(st, msg, 10), SPHINCS_ERR_BAD_STATE);
            CHECK_ST(sphincs_sign_final(st, streamed, siglen, &got), SPHINCS_ERR_BAD_STATE);
            sphincs_sign_stream_free(st);

            /* A stream abandoned half-way is freed cleanly. */
            if (fips) {
                opts.prehash = SPHINCS_PREHASH_SHAKE_128;
                st = NULL;
                CHECK_ST(sphincs_sign_init(sk, &opts, &st), SPHINCS_OK);
                CHECK_ST(sphincs_sign_update(st, msg, len), SPHINCS_OK);
                sphincs_sign_stream_free(st);
                /* An oversize context fails in the worker and is reported. */
                opts.context_len = 300;
                opts.context = msg;
                CHECK_ST(stream_sign(sk, &opts, msg, len, streamed, siglen), SPHINCS_ERR_CONTEXT_TOO_LONG);
            }
            /* A wrong-length signature is found by update or final: invalid,
               as the CLI (exit 1) and Python (InvalidSignature) say. */
            CHECK_ST(stream_verify(pk, msg, len, one, siglen - 1, NULL, 0, 0), SPHINCS_ERR_INVALID_SIGNATURE);
            CHECK_ST(sphincs_verify_init(pk, one, siglen, NULL, 0, 0, &vs), SPHINCS_OK);
            CHECK_ST(sphincs_verify_update(vs, msg, 100), SPHINCS_OK);
            sphincs_verify_stream_free(vs);
            sphincs_verify_stream_free(NULL);
            sphincs_sign_stream_free(NULL);
            CHECK_ST(sphincs_sign_update(NULL, msg, 1), SPHINCS_ERR_NULL_POINTER);
            CHECK_ST(sphincs_verify_final(NULL), SPHINCS_ERR_NULL_POINTER);
        }
        sphincs_secret_key_free(sk);
        sphincs_public_key_free(pk);
        free(one);
        free(streamed);
    }
    free(msg);
}

/* A reader whose message changes after its first pass, as a file edited
 * while it is signed. */
struct changing_reader {
    struct mem_reader r; /* first: mem_read takes the same pointer */
    const uint8_t *second;
    size_t second_len;
};

static int changing_rewind(void *user)
{
    struct changing_reader *c = user;
    if (c->r.rewinds++ == 1) {
        c->r.data = c->second;
        c->r.len = c->second_len;
    }
    c->r.pos = 0;
    return 0;
}

/* After a failed update a stream is finished: later updates and the final
 * call are SPHINCS_ERR_BAD_STATE, never a signature or a verification of the
 * message without the failed piece. A reader message that changes between
 * the passes of signing is SPHINCS_ERR_MESSAGE_CHANGED. */
/* On the stream `s`: "first-" is taken, then a bad piece (NULL for `how` 0,
 * a length past the address space for 1) is refused, and after it the next
 * good piece is SPHINCS_ERR_BAD_STATE. A macro, as the signing and the
 * verification streams' `update` functions take different stream types. */
#define UPDATE_THEN_FAIL(update, s, how)                                                  \
    do {                                                                                  \
        CHECK_ST(update(s, first, 6), SPHINCS_OK);                                        \
        if ((how) == 0)                                                                   \
            CHECK_ST(update(s, NULL, 9), SPHINCS_ERR_NULL_POINTER);                       \
        else                                                                              \
            CHECK_ST(update(s, third, SIZE_MAX), SPHINCS_ERR_INVALID_ARGUMENT);           \
        CHECK_ST(update(s, third, 5), SPHINCS_ERR_BAD_STATE);                             \
    } while (0)

static void failures_latch(void)
{
    const char *names[] = {"SLH-DSA-SHAKE-128f", "sphincs-shake-128f-simple"};
    static const uint8_t first[] = "first-", third[] = "third", whole[] = "first-third";
    static const uint8_t one[] = "the message as it was first read";
    static const uint8_t two[] = "the message as it was then read!";
    static const uint8_t longer[] = "the message as it was first read, and more";
    for (size_t a = 0; a < 2; a++) {
        const sphincs_alg *alg = alg_named(names[a]);
        int fips = sphincs_alg_scheme(alg) == SPHINCS_SCHEME_SLH_DSA;
        size_t siglen = sphincs_alg_signature_bytes(alg), got = 0;
        uint8_t *sig = xmalloc(siglen);
        sphincs_secret_key *sk = seeded_key(alg, 5);
        sphincs_public_key *pk = NULL;
        sphincs_sign_options opts;
        CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
        sphincs_sign_options_init(&opts);
        opts.randomness = SPHINCS_RANDOMNESS_DETERMINISTIC;
        for (int mode = 0; mode < (fips ? 2 : 1); mode++) {
            /* Pure signing buffers; pre-hash signing goes through the pump. */
            opts.prehash = mode ? SPHINCS_PREHASH_SHA2_256 : SPHINCS_PREHASH_NONE;
            for (int how = 0; how < 2; how++) {
                sphincs_sign_stream *st = NULL;
                CHECK_ST(sphincs_sign_init(sk, &opts, &st), SPHINCS_OK);
                UPDATE_THEN_FAIL(sphincs_sign_update, st, how);
                CHECK_ST(sphincs_sign_final(st, sig, siglen, &got), SPHINCS_ERR_BAD_STATE);
                sphincs_sign_stream_free(st);
            }
            /* The verification stream likewise, over a valid signature of
             * "first-third": dropping the bad piece must not make it pass. */
            CHECK_ST(sphincs_sign(sk, whole, 11, &opts, sig, siglen, &got), SPHINCS_OK);
            for (int how = 0; how < 2; how++) {
                sphincs_verify_stream *vs = NULL;
                CHECK_ST(sphincs_verify_init(pk, sig, siglen, NULL, 0, opts.prehash, &vs), SPHINCS_OK);
                UPDATE_THEN_FAIL(sphincs_verify_update, vs, how);
                CHECK_ST(sphincs_verify_final(vs), SPHINCS_ERR_BAD_STATE);
                sphincs_verify_stream_free(vs);
            }
        }
        /* Two-pass signing through callbacks: a changed message is refused,
         * whether its content or its length changed. */
        opts.prehash = SPHINCS_PREHASH_NONE;
        for (int how = 0; how < 2; how++) {
            struct changing_reader c = {{one, sizeof one - 1, 0, 0, 0, 1000}, how ? longer : two,
                                        how ? sizeof longer - 1 : sizeof two - 1};
            memset(sig, 0, siglen);
            CHECK_ST(sphincs_sign_reader(sk, mem_read, changing_rewind, &c, &opts, sig, siglen, &got),
                     SPHINCS_ERR_MESSAGE_CHANGED);
            CHECK(c.r.rewinds == 2, "%s: two passes (%d)", names[a], c.r.rewinds);
            CHECK(sig[0] == 0 && sig[siglen - 1] == 0, "%s: no signature written", names[a]);
        }
        /* The same reader with an unchanging message signs. */
        {
            struct changing_reader c = {{one, sizeof one - 1, 0, 0, 0, 1000}, one, sizeof one - 1};
            CHECK_ST(sphincs_sign_reader(sk, mem_read, changing_rewind, &c, &opts, sig, siglen, &got), SPHINCS_OK);
            CHECK_ST(sphincs_verify(pk, one, sizeof one - 1, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);
        }
        CHECK(strstr(sphincs_strerror(SPHINCS_ERR_MESSAGE_CHANGED), "changed") != NULL, "message of 19");
        sphincs_secret_key_free(sk);
        sphincs_public_key_free(pk);
        free(sig);
    }
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#endif

#ifndef UNDER_ASAN
/* A long message made on the fly: byte i is a function of i. */
struct gen_reader {
    unsigned long long pos, len;
    int passes;
};

static uint8_t gen_byte(unsigned long long i)
{
    return (uint8_t)(i * 131 + (i >> 11));
}

static int gen_read(void *user, uint8_t *buf, size_t cap, size_t *got)
{
    struct gen_reader *g = user;
    size_t n = 0;
    while (n < cap && g->pos < g->len)
        buf[n++] = gen_byte(g->pos++);
    *got = n;
    return 0;
}

static int gen_rewind(void *user)
{
    struct gen_reader *g = user;
    g->pos = 0;
    g->passes++;
    return 0;
}

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Streams in bounded memory: a 256 MiB message through sphincs_sign_reader
 * (pure: two passes), the pre-hash signing stream and the verification
 * stream, while the peak resident size grows by less than 32 MiB. Runs
 * first, while the peak is still low. Skipped under AddressSanitizer, whose
 * quarantine keeps freed memory resident on purpose. */
static void bounded_memory(void)
{
    const unsigned long long len = 256ull << 20;
    const sphincs_alg *alg = alg_named("SLH-DSA-SHAKE-128f");
    size_t siglen = sphincs_alg_signature_bytes(alg), got = 0, piece = 1 << 20;
    sphincs_secret_key *sk = seeded_key(alg, 12);
    sphincs_public_key *pk = NULL;
    uint8_t *pure = xmalloc(siglen), *hashed = xmalloc(siglen), *streamed = xmalloc(siglen);
    uint8_t *buf = xmalloc(piece);
    struct gen_reader g = {0, len, 0};
    sphincs_sign_options opts;
    sphincs_sign_stream *ss = NULL;
    sphincs_verify_stream *vs = NULL;
    long before = peak_rss_kib(), grew;

    CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
    sphincs_sign_options_init(&opts);
    opts.randomness = SPHINCS_RANDOMNESS_DETERMINISTIC;
    CHECK_ST(sphincs_sign_reader(sk, gen_read, gen_rewind, &g, &opts, pure, siglen, &got), SPHINCS_OK);
    CHECK(g.passes == 2, "pure signing read the message %d times", g.passes);
    opts.prehash = SPHINCS_PREHASH_SHA2_512;
    CHECK_ST(sphincs_sign_reader(sk, gen_read, gen_rewind, &g, &opts, hashed, siglen, &got), SPHINCS_OK);

    /* The same message pushed in 1 MiB pieces. */
    g.pos = 0;
    CHECK_ST(sphincs_sign_init(sk, &opts, &ss), SPHINCS_OK);
    CHECK_ST(sphincs_verify_init(pk, pure, siglen, NULL, 0, SPHINCS_PREHASH_NONE, &vs), SPHINCS_OK);
    while (g.pos < len) {
        size_t n = 0;
        gen_read(&g, buf, piece, &n);
        if (sphincs_sign_update(ss, buf, n) != SPHINCS_OK || sphincs_verify_update(vs, buf, n) != SPHINCS_OK)
            break;
    }
    CHECK(g.pos == len, "streamed %llu of %llu bytes", g.pos, len);
    CHECK_ST(sphincs_sign_final(ss, streamed, siglen, &got), SPHINCS_OK);
    CHECK(memcmp(streamed, hashed, siglen) == 0, "pre-hash stream = reader");
    CHECK_ST(sphincs_verify_final(vs), SPHINCS_OK);
    sphincs_sign_stream_free(ss);
    sphincs_verify_stream_free(vs);
    g.pos = 0;
    CHECK_ST(sphincs_verify_reader(pk, gen_read, gen_rewind, &g, hashed, siglen, NULL, 0, SPHINCS_PREHASH_SHA2_512),
             SPHINCS_OK);

    grew = peak_rss_kib() - before;
    CHECK(grew < 32 * 1024, "peak resident size grew by %ld KiB for a 256 MiB message", grew);
    printf("bounded_memory: peak resident size grew by %ld KiB (256 MiB message)\n", grew);
    sphincs_secret_key_free(sk);
    sphincs_public_key_free(pk);
    free(pure);
    free(hashed);
    free(streamed);
    free(buf);
}
#else
static void bounded_memory(void)
{
    printf("bounded_memory: skipped under AddressSanitizer\n");
}
#endif

/* Keys and a signature made by the `sphincs` CLI, and PEM/DER both ways. */
static void cli_pem(const char *key_path, const char *pub_path, const char *msg_path, const char *sig_path,
                    const char *out_sig, const char *cli_fingerprint)
{
    size_t keylen, publen, msglen, siglen, len, got;
    uint8_t *key = read_file(key_path, &keylen), *pub = read_file(pub_path, &publen);
    uint8_t *msg = read_file(msg_path, &msglen), *sig = read_file(sig_path, &siglen);
    uint8_t buf[4096], raw1[128], raw2[128], *mine;
    sphincs_secret_key *sk = NULL, *sk2 = NULL;
    sphincs_public_key *pk = NULL, *pk2 = NULL;
    FILE *f;

    CHECK_ST(sphincs_secret_key_from_pkcs8(key, keylen, &sk), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_from_spki(pub, publen, &pk), SPHINCS_OK);
    if (!sk || !pk)
        exit(2);
    CHECK(strcmp(sphincs_alg_name(sphincs_secret_key_alg(sk)), "SLH-DSA-SHAKE-128f") == 0, "CLI key's set");
    CHECK_ST(sphincs_verify(pk, msg, msglen, sig, siglen, NULL, 0, SPHINCS_PREHASH_NONE), SPHINCS_OK);

    /* Our PEM of the CLI's key is the CLI's file, byte for byte. */
    CHECK_ST(sphincs_secret_key_to_pkcs8(sk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len == keylen && memcmp(buf, key, len) == 0, "private key PEM equals the CLI's");
    CHECK_ST(sphincs_public_key_to_spki(pk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK(len == publen && memcmp(buf, pub, len) == 0, "public key PEM equals the CLI's");

    /* DER round trip. */
    CHECK_ST(sphincs_secret_key_to_pkcs8(sk, SPHINCS_FORMAT_DER, NULL, 0, &len), SPHINCS_ERR_BUFFER_TOO_SMALL);
    CHECK(len > 64 && len < sizeof buf, "DER private key of %zu bytes", len);
    CHECK_ST(sphincs_secret_key_to_pkcs8(sk, SPHINCS_FORMAT_DER, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_from_pkcs8(buf, len, &sk2), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_from_pkcs8(buf, len - 1, &sk2), SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_public_key_to_spki(pk, SPHINCS_FORMAT_DER, buf, sizeof buf, &len), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_from_spki(buf, len, &pk2), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_export(pk, raw1, sizeof raw1, &len), SPHINCS_OK);
    CHECK_ST(sphincs_public_key_export(pk2, raw2, sizeof raw2, &got), SPHINCS_OK);
    CHECK(len == got && memcmp(raw1, raw2, len) == 0, "SPKI DER round trip");

    /* The fingerprint is the CLI's (`sphincs fingerprint`), NUL-terminated. */
    {
        char fp[SPHINCS_FINGERPRINT_BYTES];
        CHECK_ST(sphincs_public_key_fingerprint(pk, NULL, 0, &len), SPHINCS_ERR_BUFFER_TOO_SMALL);
        CHECK(len == SPHINCS_FINGERPRINT_BYTES, "fingerprint needs %zu bytes", len);
        CHECK_ST(sphincs_public_key_fingerprint(pk, fp, sizeof fp, &len), SPHINCS_OK);
        CHECK(strcmp(fp, cli_fingerprint) == 0, "fingerprint %s, the CLI's %s", fp, cli_fingerprint);
        CHECK_ST(sphincs_public_key_fingerprint(NULL, fp, sizeof fp, &len), SPHINCS_ERR_NULL_POINTER);
    }

    /* Garbage and the wrong kind. */
    CHECK_ST(sphincs_secret_key_from_pkcs8((const uint8_t *)"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", 60, &sk2),
             SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_secret_key_from_pkcs8((const uint8_t *)"hello", 5, &sk2), SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_secret_key_from_pkcs8(pub, publen, &sk2), SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_public_key_from_spki(key, keylen, &pk2), SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_public_key_from_spki(buf, 0, &pk2), SPHINCS_ERR_ENCODING);
    CHECK_ST(sphincs_secret_key_to_pkcs8(sk, 7, buf, sizeof buf, &len), SPHINCS_ERR_INVALID_ARGUMENT);
    CHECK_ST(sphincs_secret_key_from_pkcs8(NULL, 10, &sk2), SPHINCS_ERR_NULL_POINTER);

    /* Sign for the CLI to verify (tests/run.sh runs `sphincs verify`). */
    mine = xmalloc(siglen);
    CHECK_ST(sphincs_sign(sk, msg, msglen, NULL, mine, siglen, &got), SPHINCS_OK);
    f = fopen(out_sig, "wb");
    CHECK(f && fwrite(mine, 1, got, f) == got && fclose(f) == 0, "wrote %s", out_sig);

    /* Round 3.1 keys have no OID. */
    {
        sphincs_secret_key *r = seeded_key(alg_named("sphincs-shake-128f-simple"), 9);
        sphincs_public_key *rp = NULL;
        CHECK_ST(sphincs_secret_key_to_pkcs8(r, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_ERR_UNSUPPORTED);
        CHECK_ST(sphincs_secret_key_public(r, &rp), SPHINCS_OK);
        CHECK_ST(sphincs_public_key_to_spki(rp, SPHINCS_FORMAT_DER, buf, sizeof buf, &len), SPHINCS_ERR_UNSUPPORTED);
        sphincs_secret_key_free(r);
        sphincs_public_key_free(rp);
    }
    sphincs_secret_key_free(sk);
    sphincs_secret_key_free(sk2);
    sphincs_public_key_free(pk);
    sphincs_public_key_free(pk2);
    free(key);
    free(pub);
    free(msg);
    free(sig);
    free(mine);
}

/* NULL pointers, short buffers, wrong lengths, stray handles: status codes. */
static void bad_input(void)
{
    const sphincs_alg *alg = alg_named("SLH-DSA-SHAKE-128f"), *out = NULL;
    size_t siglen = sphincs_alg_signature_bytes(alg), len = 0;
    uint8_t *sig = xmalloc(siglen), raw[64], junk[64] = {0};
    sphincs_secret_key *sk = seeded_key(alg, 4), *sk2 = NULL;
    sphincs_public_key *pk = NULL;
    sphincs_sign_options opts;
    const sphincs_alg *stray = (const sphincs_alg *)(const void *)junk;

    CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
    /* Names. */
    CHECK_ST(sphincs_alg_by_name(NULL, &out), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_alg_by_name("SLH-DSA-SHAKE-128f", NULL), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_alg_by_name("SLH-DSA-SHAKE-129f", &out), SPHINCS_ERR_UNKNOWN_ALGORITHM);
    CHECK_ST(sphincs_alg_by_name("", &out), SPHINCS_ERR_UNKNOWN_ALGORITHM);
    CHECK_ST(sphincs_alg_by_name("\xff\xfe", &out), SPHINCS_ERR_UNKNOWN_ALGORITHM);
    CHECK(sphincs_alg_at(55) == NULL && sphincs_alg_name(NULL) == NULL && sphincs_alg_signature_bytes(NULL) == 0,
          "invalid handles have no properties");
    CHECK(sphincs_alg_name(stray) == NULL && sphincs_alg_seed_bytes(stray) == 0, "a stray handle is refused");
    CHECK_ST(sphincs_keygen(stray, 1, &sk2), SPHINCS_ERR_INVALID_ARGUMENT);
    CHECK_ST(sphincs_keygen(NULL, 1, &sk2), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_keygen(alg, 1, NULL), SPHINCS_ERR_NULL_POINTER);
    CHECK(sk2 == NULL, "no key written on failure");

    /* Seeds and raw keys of the wrong length, a corrupted key. */
    CHECK_ST(sphincs_keygen_from_seed(alg, junk, 47, 1, &sk2), SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_keygen_from_seed(alg, NULL, 48, 1, &sk2), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_secret_key_export(sk, raw, sizeof raw, &len), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_import(alg, raw, len - 1, &sk2), SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_public_key_import(alg, raw, 31, (sphincs_public_key **)&out), SPHINCS_ERR_INVALID_LENGTH);
    raw[len - 1] ^= 1; /* PK.root */
    CHECK_ST(sphincs_secret_key_import(alg, raw, len, &sk2), SPHINCS_ERR_KEY_MISMATCH);
    CHECK_ST(sphincs_secret_key_export(sk, raw, 63, &len), SPHINCS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 64, "export reports the needed length, %zu", len);
    CHECK_ST(sphincs_secret_key_export(sk, raw, sizeof raw, NULL), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_secret_key_export(NULL, raw, sizeof raw, &len), SPHINCS_ERR_NULL_POINTER);

    /* Signing. */
    CHECK_ST(sphincs_sign(NULL, junk, 1, NULL, sig, siglen, &len), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_sign(sk, NULL, 5, NULL, sig, siglen, &len), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_sign(sk, junk, 1, NULL, sig, siglen - 1, &len), SPHINCS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == siglen, "sign reports the needed length");
    CHECK_ST(sphincs_sign(sk, junk, 1, NULL, NULL, 0, &len), SPHINCS_ERR_BUFFER_TOO_SMALL);
    CHECK_ST(sphincs_sign(sk, junk, 1, NULL, NULL, siglen, &len), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_sign(sk, junk, 1, NULL, sig, siglen, NULL), SPHINCS_ERR_NULL_POINTER);
    sphincs_sign_options_init(&opts);
    opts.randomness = 9;
    CHECK_ST(sphincs_sign(sk, junk, 1, &opts, sig, siglen, &len), SPHINCS_ERR_INVALID_ARGUMENT);
    opts.randomness = SPHINCS_RANDOMNESS_GIVEN;
    CHECK_ST(sphincs_sign(sk, junk, 1, &opts, sig, siglen, &len), SPHINCS_ERR_NULL_POINTER);
    sphincs_sign_options_init(&opts);
    opts.context_len = 4;
    CHECK_ST(sphincs_sign(sk, junk, 1, &opts, sig, siglen, &len), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_sign_options_init(NULL), SPHINCS_ERR_NULL_POINTER);

    /* Verification. */
    CHECK_ST(sphincs_sign(sk, junk, 1, NULL, sig, siglen, &len), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, junk, 1, sig, siglen, NULL, 0, 0), SPHINCS_OK);
    /* A signature of the wrong length is an invalid signature (CLI exit 1, Python InvalidSignature). */
    CHECK_ST(sphincs_verify(pk, junk, 1, sig, siglen - 1, NULL, 0, 0), SPHINCS_ERR_INVALID_SIGNATURE);
    CHECK_ST(sphincs_verify(pk, junk, 1, sig, siglen + 1, NULL, 0, 0), SPHINCS_ERR_INVALID_SIGNATURE);
    CHECK_ST(sphincs_verify(pk, junk, 1, sig, 0, NULL, 0, 0), SPHINCS_ERR_INVALID_SIGNATURE);
    CHECK_ST(sphincs_verify(pk, junk, 1, NULL, siglen, NULL, 0, 0), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_verify(NULL, junk, 1, sig, siglen, NULL, 0, 0), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_verify(pk, NULL, 1, sig, siglen, NULL, 0, 0), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_verify(pk, junk, 1, sig, siglen, NULL, 3, 0), SPHINCS_ERR_NULL_POINTER);

    /* Streams. */
    CHECK_ST(sphincs_sign_init(sk, NULL, NULL), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_sign_init(NULL, NULL, (sphincs_sign_stream **)&out), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_verify_init(pk, NULL, 5, NULL, 0, 0, (sphincs_verify_stream **)&out), SPHINCS_ERR_NULL_POINTER);

    /* Every status has a message; unknown ones too. */
    for (int s = 0; s <= 21; s++)
        CHECK(sphincs_strerror(s) != NULL && strlen(sphincs_strerror(s)) > 3, "message of %d", s);
    CHECK(strcmp(sphincs_strerror(99), "unknown status code") == 0, "unknown status");
    CHECK(strcmp(sphincs_strerror(22), "unknown status code") == 0, "22 is no status");
    CHECK(strncmp(sphincs_strerror(SPHINCS_ERR_WRONG_KEY_MODE), "wrong key mode", 14) == 0, "wrong key mode");
    CHECK(strstr(sphincs_strerror(SPHINCS_ERR_PREHASH_NOT_BOUND), "RFC 9909") != NULL, "pre-hash not bound");
    CHECK(strcmp(sphincs_strerror(SPHINCS_ERR_INVALID_SIGNATURE), "invalid signature") == 0, "invalid signature");

    sphincs_secret_key_free(NULL);
    sphincs_public_key_free(NULL);
    sphincs_secret_key_free(sk);
    sphincs_public_key_free(pk);
    free(sig);
}

/* Batch verification (mixed keys and schemes, per-item results) and batch signing. */
static void batch(void)
{
    const sphincs_alg *fa = alg_named("SLH-DSA-SHAKE-128f"), *ra = alg_named("sphincs-sha2-128f-simple");
    size_t fl = sphincs_alg_signature_bytes(fa), rl = sphincs_alg_signature_bytes(ra), got = 0;
    sphincs_secret_key *fsk = seeded_key(fa, 10), *rsk = seeded_key(ra, 11);
    sphincs_public_key *fpk = NULL, *rpk = NULL;
    uint8_t *s1 = xmalloc(fl), *s2 = xmalloc(fl), *s3 = xmalloc(rl), *s4 = xmalloc(fl), ctx[256];
    static const uint8_t m1[] = "one", m2[] = "two", m3[] = "three";
    sphincs_sign_options opts;
    sphincs_status results[8];

    memset(ctx, 'x', sizeof ctx);
    CHECK_ST(sphincs_secret_key_public(fsk, &fpk), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_public(rsk, &rpk), SPHINCS_OK);
    sphincs_sign_options_init(&opts);
    CHECK_ST(sphincs_sign(fsk, m1, sizeof m1, &opts, s1, fl, &got), SPHINCS_OK);
    opts.context = ctx;
    opts.context_len = 5;
    opts.prehash = SPHINCS_PREHASH_SHA3_256;
    CHECK_ST(sphincs_sign(fsk, m2, sizeof m2, &opts, s2, fl, &got), SPHINCS_OK);
    CHECK_ST(sphincs_sign(rsk, m3, sizeof m3, NULL, s3, rl, &got), SPHINCS_OK);
    memcpy(s4, s1, fl);
    s4[100] ^= 0x10;
    {
        sphincs_verify_item items[8] = {
            {fpk, m1, sizeof m1, s1, fl, NULL, 0, SPHINCS_PREHASH_NONE},
            {fpk, m2, sizeof m2, s2, fl, ctx, 5, SPHINCS_PREHASH_SHA3_256},
            {rpk, m3, sizeof m3, s3, rl, NULL, 0, SPHINCS_PREHASH_NONE},
            {fpk, m1, sizeof m1, s4, fl, NULL, 0, SPHINCS_PREHASH_NONE},
            {rpk, m3, sizeof m3, s3, rl - 1, NULL, 0, SPHINCS_PREHASH_NONE},
            {NULL, m1, sizeof m1, s1, fl, NULL, 0, SPHINCS_PREHASH_NONE},
            {fpk, m2, sizeof m2, s2, fl, ctx, 256, SPHINCS_PREHASH_SHA3_256},
            {rpk, m3, sizeof m3, s3, rl, ctx, 1, SPHINCS_PREHASH_NONE},
        };
        static const sphincs_status want[8] = {
            SPHINCS_OK, SPHINCS_OK, SPHINCS_OK, SPHINCS_ERR_INVALID_SIGNATURE, SPHINCS_ERR_INVALID_SIGNATURE,
            SPHINCS_ERR_NULL_POINTER, SPHINCS_ERR_CONTEXT_TOO_LONG, SPHINCS_ERR_UNSUPPORTED,
        };
        for (size_t threads = 0; threads <= 2; threads++) {
            memset(results, 0xff, sizeof results);
            CHECK_ST(sphincs_verify_batch(items, 8, threads, results), SPHINCS_ERR_INVALID_SIGNATURE);
            for (int i = 0; i < 8; i++)
                CHECK(results[i] == want[i], "threads %zu item %d: %d (%s), want %d", threads, i, results[i],
                      sphincs_strerror(results[i]), want[i]);
            /* Each item's result is what sphincs_verify says for it alone. */
            for (int i = 0; i < 8; i++)
                CHECK_ST(sphincs_verify(items[i].key, items[i].message, items[i].message_len, items[i].signature,
                                        items[i].signature_len, items[i].context, items[i].context_len,
                                        items[i].prehash),
                         want[i]);
        }
        CHECK_ST(sphincs_verify_batch(items, 3, 2, results), SPHINCS_OK);
        CHECK_ST(sphincs_verify_batch(items, 0, 2, NULL), SPHINCS_OK);
        CHECK_ST(sphincs_verify_batch(NULL, 3, 2, results), SPHINCS_ERR_NULL_POINTER);
        CHECK_ST(sphincs_verify_batch(items, 3, 2, NULL), SPHINCS_ERR_NULL_POINTER);
    }

    /* Batch signing equals signing one by one. */
    {
        const uint8_t *msgs[3] = {m1, m2, m3};
        size_t lens[3] = {sizeof m1, sizeof m2, sizeof m3}, need = 0;
        uint8_t *all = xmalloc(3 * rl), *one = xmalloc(rl);
        sphincs_sign_options_init(&opts);
        opts.randomness = SPHINCS_RANDOMNESS_DETERMINISTIC;
        opts.threads = 0;
        CHECK_ST(sphincs_sign_batch(rsk, msgs, lens, 3, &opts, all, 3 * rl - 1, &need), SPHINCS_ERR_BUFFER_TOO_SMALL);
        CHECK(need == 3 * rl, "batch needs %zu bytes", need);
        CHECK_ST(sphincs_sign_batch(rsk, msgs, lens, 3, &opts, all, 3 * rl, &got), SPHINCS_OK);
        CHECK(got == 3 * rl, "batch wrote %zu bytes", got);
        for (int i = 0; i < 3; i++) {
            CHECK_ST(sphincs_sign(rsk, msgs[i], lens[i], &opts, one, rl, &got), SPHINCS_OK);
            CHECK(memcmp(one, all + i * rl, rl) == 0, "batch signature %d = one by one", i);
        }
        opts.context = ctx;
        opts.context_len = 2;
        CHECK_ST(sphincs_sign_batch(fsk, msgs, lens, 2, &opts, all, 3 * rl, &got), SPHINCS_OK);
        CHECK_ST(sphincs_verify(fpk, m2, sizeof m2, all + fl, fl, ctx, 2, SPHINCS_PREHASH_NONE), SPHINCS_OK);
        CHECK_ST(sphincs_sign_batch(rsk, msgs, lens, 2, &opts, all, 3 * rl, &got), SPHINCS_ERR_UNSUPPORTED);
        CHECK_ST(sphincs_sign_batch(fsk, NULL, lens, 2, NULL, all, 3 * rl, &got), SPHINCS_ERR_NULL_POINTER);
        CHECK_ST(sphincs_sign_batch(fsk, msgs, lens, 0, NULL, NULL, 0, &got), SPHINCS_OK);
        CHECK(got == 0, "an empty batch");
        free(all);
        free(one);
    }
    sphincs_secret_key_free(fsk);
    sphincs_secret_key_free(rsk);
    sphincs_public_key_free(fpk);
    sphincs_public_key_free(rpk);
    free(s1);
    free(s2);
    free(s3);
    free(s4);
}

/* Several threads signing with one key at once get what one thread gets. */
struct job {
    const sphincs_secret_key *sk;
    uint8_t *sig;
    size_t siglen;
    sphincs_status st;
};

static void *sign_job(void *arg)
{
    struct job *j = arg;
    sphincs_sign_options opts;
    size_t got;
    sphincs_sign_options_init(&opts);
    opts.randomness = SPHINCS_RANDOMNESS_DETERMINISTIC;
    j->st = sphincs_sign(j->sk, (const uint8_t *)"shared", 6, &opts, j->sig, j->siglen, &got);
    return NULL;
}

static void concurrent(void)
{
    const sphincs_alg *alg = alg_named("SLH-DSA-SHA2-128f");
    size_t siglen = sphincs_alg_signature_bytes(alg);
    sphincs_secret_key *sk = seeded_key(alg, 8);
    pthread_t t[4];
    struct job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (struct job){sk, xmalloc(siglen), siglen, SPHINCS_ERR_INTERNAL};
        CHECK(pthread_create(&t[i], NULL, sign_job, &jobs[i]) == 0, "thread %d", i);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        CHECK_ST(jobs[i].st, SPHINCS_OK);
        CHECK(memcmp(jobs[i].sig, jobs[0].sig, siglen) == 0, "thread %d's signature", i);
    }
    for (int i = 0; i < 4; i++)
        free(jobs[i].sig);
    sphincs_secret_key_free(sk);
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s CLI_KEY.pem CLI_PUB.pem MESSAGE CLI_SIG OUT_SIG CLI_FINGERPRINT\n", argv[0]);
        return 2;
    }
    bounded_memory();
    every_set();
    seeds_and_randomness();
    contexts_and_prehash();
    streaming();
    failures_latch();
    cli_pem(argv[1], argv[2], argv[3], argv[4], argv[5], argv[6]);
    bad_input();
    batch();
    concurrent();
    return check_report();
}
