/* SPHINCS-256 through the native API: the SUPERCOP reference's known answers
 * (public keys byte for byte, signatures by SHA-256 and, where the vector
 * file has them, byte for byte), verification and tampering, the options it
 * refuses, bad lengths and NULLs, streams, readers and batches.
 *
 * usage: test_sphincs256 KAT_FILE
 *   KAT_FILE: one case a line, made by tests/run.sh from
 *   crates/sphincs/tests/data/sphincs256/sphincs256_kat.json.gz:
 *   "ID SK_HEX PK_HEX MSG_HEX|- SIG_SHA256_HEX SIG_HEX|-" */
#include <stdint.h>
#include <string.h>

#include <openssl/sha.h>
#include <sphincs.h>

#include "check.h"

#define SK_BYTES 1088
#define PK_BYTES 1056
#define SIG_BYTES 41000

struct kat_case {
    int id;
    uint8_t sk[SK_BYTES], pk[PK_BYTES], sha[32];
    uint8_t *msg, *sig; /* sig: NULL when the file has only its SHA-256 */
    size_t msg_len;
};

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Decodes a hex string (or "-" = empty) into a new buffer; exits on garbage. */
static uint8_t *unhex(const char *hex, size_t *len)
{
    size_t n = strcmp(hex, "-") == 0 ? 0 : strlen(hex);
    uint8_t *out = xmalloc(n / 2);
    if (n % 2) {
        printf("FAIL: odd hex length %zu\n", n);
        exit(2);
    }
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            printf("FAIL: bad hex\n");
            exit(2);
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *len = n / 2;
    return out;
}

static void unhex_exact(const char *hex, uint8_t *out, size_t want)
{
    size_t len;
    uint8_t *b = unhex(hex, &len);
    if (len != want) {
        printf("FAIL: field of %zu bytes, want %zu\n", len, want);
        exit(2);
    }
    memcpy(out, b, len);
    free(b);
}

/* Reads up to `max` cases; each line's fields are separated by spaces. */
static size_t read_cases(const char *path, struct kat_case *cases, size_t max)
{
    FILE *f = fopen(path, "r");
    static char line[200000];
    size_t count = 0;
    if (!f) {
        printf("FAIL: cannot open %s\n", path);
        exit(2);
    }
    while (count < max && fgets(line, sizeof line, f)) {
        struct kat_case *c = &cases[count];
        char *id = strtok(line, " \n"), *sk = strtok(NULL, " \n"), *pk = strtok(NULL, " \n");
        char *msg = strtok(NULL, " \n"), *sha = strtok(NULL, " \n"), *sig = strtok(NULL, " \n");
        size_t sig_len = 0;
        if (!id || !sk || !pk || !msg || !sha || !sig) {
            printf("FAIL: malformed line %zu of %s\n", count + 1, path);
            exit(2);
        }
        c->id = atoi(id);
        unhex_exact(sk, c->sk, SK_BYTES);
        unhex_exact(pk, c->pk, PK_BYTES);
        unhex_exact(sha, c->sha, 32);
        c->msg = unhex(msg, &c->msg_len);
        c->sig = unhex(sig, &sig_len);
        if (sig_len == 0) {
            free(c->sig);
            c->sig = NULL;
        } else if (sig_len != SIG_BYTES) {
            printf("FAIL: case %d: signature of %zu bytes\n", c->id, sig_len);
            exit(2);
        }
        count++;
    }
    fclose(f);
    return count;
}

static const sphincs_alg *the_alg(void)
{
    const sphincs_alg *alg = NULL, *again = NULL;
    CHECK_ST(sphincs_alg_by_name("sphincs-256", &alg), SPHINCS_OK);
    if (!alg)
        exit(2);
    CHECK_ST(sphincs_alg_by_name("SPHINCS-256", &again), SPHINCS_OK);
    CHECK(again == alg && sphincs_alg_at(48) == alg, "one handle for SPHINCS-256");
    CHECK(strcmp(sphincs_alg_name(alg), "sphincs-256") == 0, "name %s", sphincs_alg_name(alg));
    CHECK(sphincs_alg_scheme(alg) == SPHINCS_SCHEME_SPHINCS256, "scheme");
    CHECK(sphincs_alg_secret_key_bytes(alg) == SK_BYTES && sphincs_alg_public_key_bytes(alg) == PK_BYTES &&
              sphincs_alg_signature_bytes(alg) == SIG_BYTES && sphincs_alg_seed_bytes(alg) == SK_BYTES,
          "sizes");
    CHECK(sphincs_alg_security_category(alg) == 0, "no NIST category");
    return alg;
}

/* The reference's public keys and signatures, verification, tampering. */
static void known_answers(const sphincs_alg *alg, struct kat_case *cases, size_t count)
{
    uint8_t *sig = xmalloc(SIG_BYTES), *other = xmalloc(SIG_BYTES), pk[PK_BYTES], digest[32];
    for (size_t i = 0; i < count; i++) {
        struct kat_case *c = &cases[i];
        sphincs_secret_key *sk = NULL, *seeded = NULL;
        sphincs_public_key *pub = NULL, *imported = NULL;
        sphincs_sign_options opts;
        size_t len = 0;

        CHECK_ST(sphincs_secret_key_import(alg, c->sk, SK_BYTES, &sk), SPHINCS_OK);
        CHECK_ST(sphincs_keygen_from_seed(alg, c->sk, SK_BYTES, 1, &seeded), SPHINCS_OK);
        if (!sk || !seeded)
            exit(2);
        CHECK(sphincs_secret_key_alg(sk) == alg, "case %d: key's set", c->id);
        CHECK_ST(sphincs_secret_key_public(sk, &pub), SPHINCS_OK);
        CHECK_ST(sphincs_public_key_export(pub, pk, sizeof pk, &len), SPHINCS_OK);
        CHECK(len == PK_BYTES && memcmp(pk, c->pk, PK_BYTES) == 0, "case %d: public key = reference", c->id);
        CHECK_ST(sphincs_secret_key_export(seeded, other, SK_BYTES, &len), SPHINCS_OK);
        CHECK(len == SK_BYTES && memcmp(other, c->sk, SK_BYTES) == 0, "case %d: seed keypair = the secret key", c->id);

        CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, NULL, sig, SIG_BYTES, &len), SPHINCS_OK);
        CHECK(len == SIG_BYTES, "case %d: %zu-byte signature", c->id, len);
        SHA256(sig, SIG_BYTES, digest);
        CHECK(memcmp(digest, c->sha, 32) == 0, "case %d: signature SHA-256 = reference", c->id);
        if (c->sig)
            CHECK(memcmp(sig, c->sig, SIG_BYTES) == 0, "case %d: signature = reference, byte for byte", c->id);
        /* Deterministic, and the same for any thread count. */
        sphincs_sign_options_init(&opts);
        opts.randomness = SPHINCS_RANDOMNESS_DETERMINISTIC;
        opts.threads = 0;
        CHECK_ST(sphincs_sign(seeded, c->msg, c->msg_len, &opts, other, SIG_BYTES, &len), SPHINCS_OK);
        CHECK(memcmp(sig, other, SIG_BYTES) == 0, "case %d: every core, deterministic = default", c->id);

        CHECK_ST(sphincs_public_key_import(alg, c->pk, PK_BYTES, &imported), SPHINCS_OK);
        CHECK_ST(sphincs_verify(imported, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_OK);
        sig[0] ^= 1; /* R */
        CHECK_ST(sphincs_verify(imported, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_ERR_INVALID_SIGNATURE);
        sig[0] ^= 1;
        sig[SIG_BYTES - 1] ^= 0x80; /* the last authentication node */
        CHECK_ST(sphincs_verify(imported, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_ERR_INVALID_SIGNATURE);
        sig[SIG_BYTES - 1] ^= 0x80;
        /* As in the reference, bits 60..63 of the index field take no part. */
        sig[39] ^= 0x80;
        CHECK_ST(sphincs_verify(imported, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_OK);
        sig[39] ^= 0x80;
        /* Another message: one byte shorter, or one byte for the empty one. */
        CHECK_ST(sphincs_verify(imported, c->msg_len ? c->msg : (const uint8_t *)"x",
                                c->msg_len ? c->msg_len - 1 : 1, sig, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_ERR_INVALID_SIGNATURE);
        pk[100] ^= 4;
        sphincs_public_key_free(imported);
        imported = NULL;
        CHECK_ST(sphincs_public_key_import(alg, pk, PK_BYTES, &imported), SPHINCS_OK);
        CHECK_ST(sphincs_verify(imported, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE),
                 SPHINCS_ERR_INVALID_SIGNATURE);

        sphincs_secret_key_free(sk);
        sphincs_secret_key_free(seeded);
        sphincs_public_key_free(pub);
        sphincs_public_key_free(imported);
    }
    free(sig);
    free(other);
}

/* What SPHINCS-256 does not have, and bad input: status codes. */
static void refusals_and_bad_input(const sphincs_alg *alg, const struct kat_case *c)
{
    uint8_t *sig = xmalloc(SIG_BYTES), buf[4096] = {0}, rnd[32] = {0};
    sphincs_secret_key *sk = NULL, *other = NULL;
    sphincs_public_key *pk = NULL, *other_pk = NULL;
    sphincs_sign_options opts;
    sphincs_key_mode mode = -1;
    sphincs_sign_stream *stream = NULL;
    size_t len = 0;

    CHECK_ST(sphincs_secret_key_import(alg, c->sk, SK_BYTES, &sk), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
    CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, NULL, sig, SIG_BYTES, &len), SPHINCS_OK);

    sphincs_sign_options_init(&opts);
    opts.context = (const uint8_t *)"ctx";
    opts.context_len = 3;
    CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, &opts, sig, SIG_BYTES, &len), SPHINCS_ERR_UNSUPPORTED);
    sphincs_sign_options_init(&opts);
    opts.prehash = SPHINCS_PREHASH_SHA2_256;
    CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, &opts, sig, SIG_BYTES, &len), SPHINCS_ERR_UNSUPPORTED);
    sphincs_sign_options_init(&opts);
    opts.randomness = SPHINCS_RANDOMNESS_GIVEN;
    opts.random = rnd;
    opts.random_len = 32;
    CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, &opts, sig, SIG_BYTES, &len), SPHINCS_ERR_UNSUPPORTED);
    sphincs_sign_options_init(&opts);
    opts.fault_hardened = 1;
    CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, &opts, sig, SIG_BYTES, &len), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_sign_init(sk, &opts, &stream), SPHINCS_ERR_UNSUPPORTED);
    CHECK(stream == NULL, "no stream on failure");
    CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, NULL, sig, SIG_BYTES, &len), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, c->msg, c->msg_len, sig, SIG_BYTES, (const uint8_t *)"c", 1, SPHINCS_PREHASH_NONE),
             SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_verify(pk, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_SHA2_512),
             SPHINCS_ERR_UNSUPPORTED);
    /* No OID, no key modes. */
    CHECK_ST(sphincs_secret_key_to_pkcs8(sk, SPHINCS_FORMAT_PEM, buf, sizeof buf, &len), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_public_key_to_spki(pk, SPHINCS_FORMAT_DER, buf, sizeof buf, &len), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_secret_key_mode(sk, &mode, NULL), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_public_key_mode(pk, &mode, NULL), SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_secret_key_with_mode(sk, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE, &other),
             SPHINCS_ERR_UNSUPPORTED);
    CHECK_ST(sphincs_public_key_with_mode(pk, SPHINCS_KEY_MODE_PURE, SPHINCS_PREHASH_NONE, &other_pk),
             SPHINCS_ERR_UNSUPPORTED);

    /* Lengths. */
    CHECK_ST(sphincs_secret_key_import(alg, c->sk, SK_BYTES - 1, &other), SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_secret_key_import(alg, buf, SK_BYTES + 1, &other), SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_keygen_from_seed(alg, c->sk, SK_BYTES - 1, 1, &other), SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_keygen_from_seed(alg, c->sk, 96, 1, &other), SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_public_key_import(alg, c->pk, PK_BYTES - 1, &other_pk), SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_public_key_import(alg, c->pk, 0, &other_pk), SPHINCS_ERR_INVALID_LENGTH);
    CHECK_ST(sphincs_public_key_import(alg, NULL, PK_BYTES, &other_pk), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_verify(pk, c->msg, c->msg_len, sig, SIG_BYTES - 1, NULL, 0, 0), SPHINCS_ERR_INVALID_SIGNATURE);
    CHECK_ST(sphincs_verify(pk, c->msg, c->msg_len, sig, 0, NULL, 0, 0), SPHINCS_ERR_INVALID_SIGNATURE);
    CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, NULL, sig, SIG_BYTES - 1, &len), SPHINCS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == SIG_BYTES, "sign asks for %zu bytes", len);
    CHECK_ST(sphincs_secret_key_export(sk, buf, SK_BYTES - 1, &len), SPHINCS_ERR_BUFFER_TOO_SMALL);
    CHECK(len == SK_BYTES, "export asks for %zu bytes", len);
    /* NULLs. */
    CHECK_ST(sphincs_sign(sk, NULL, 5, NULL, sig, SIG_BYTES, &len), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_sign(sk, c->msg, c->msg_len, NULL, NULL, SIG_BYTES, &len), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_verify(pk, c->msg, c->msg_len, NULL, SIG_BYTES, NULL, 0, 0), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_verify(NULL, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, 0), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_keygen_from_seed(alg, NULL, SK_BYTES, 1, &other), SPHINCS_ERR_NULL_POINTER);
    CHECK_ST(sphincs_secret_key_import(alg, c->sk, SK_BYTES, NULL), SPHINCS_ERR_NULL_POINTER);
    CHECK(other == NULL && other_pk == NULL, "no key written on failure");

    /* A fresh key from the operating system. */
    CHECK_ST(sphincs_keygen(alg, 0, &other), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_public(other, &other_pk), SPHINCS_OK);
    CHECK_ST(sphincs_sign(other, c->msg, c->msg_len, NULL, sig, SIG_BYTES, &len), SPHINCS_OK);
    CHECK_ST(sphincs_verify(other_pk, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, 0), SPHINCS_OK);
    CHECK_ST(sphincs_verify(pk, c->msg, c->msg_len, sig, SIG_BYTES, NULL, 0, 0), SPHINCS_ERR_INVALID_SIGNATURE);

    sphincs_secret_key_free(sk);
    sphincs_secret_key_free(other);
    sphincs_public_key_free(pk);
    sphincs_public_key_free(other_pk);
    free(sig);
}

/* Streams, readers and batches give what one-shot calls give. */
static void streams_and_batches(const sphincs_alg *alg, const struct kat_case *a, const struct kat_case *b)
{
    size_t len = 100000, got = 0;
    uint8_t *msg = xmalloc(len), *one = xmalloc(SIG_BYTES), *streamed = xmalloc(SIG_BYTES);
    uint8_t *sig_a = xmalloc(SIG_BYTES), *sig_b = xmalloc(SIG_BYTES), *all = xmalloc(2 * SIG_BYTES);
    sphincs_secret_key *sk = NULL, *skb = NULL;
    sphincs_public_key *pk = NULL, *pkb = NULL;
    sphincs_sign_stream *ss = NULL;
    sphincs_verify_stream *vs = NULL;
    struct mem_reader r = {msg, len, 0, 0, 0, 777};
    sphincs_status results[6];

    for (size_t i = 0; i < len; i++)
        msg[i] = (uint8_t)(i * 7 + (i >> 8));
    CHECK_ST(sphincs_secret_key_import(alg, a->sk, SK_BYTES, &sk), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_import(alg, b->sk, SK_BYTES, &skb), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_public(skb, &pkb), SPHINCS_OK);
    CHECK_ST(sphincs_sign(sk, msg, len, NULL, one, SIG_BYTES, &got), SPHINCS_OK);

    /* init/update/final in uneven pieces. */
    CHECK_ST(sphincs_sign_init(sk, NULL, &ss), SPHINCS_OK);
    CHECK_ST(sphincs_sign_update(ss, msg, 1), SPHINCS_OK);
    CHECK_ST(sphincs_sign_update(ss, msg + 1, 70000), SPHINCS_OK);
    CHECK_ST(sphincs_sign_update(ss, msg + 70001, len - 70001), SPHINCS_OK);
    CHECK_ST(sphincs_sign_final(ss, streamed, SIG_BYTES, &got), SPHINCS_OK);
    CHECK(got == SIG_BYTES && memcmp(one, streamed, SIG_BYTES) == 0, "signing stream = one-shot");
    sphincs_sign_stream_free(ss);
    CHECK_ST(sphincs_verify_init(pk, one, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE, &vs), SPHINCS_OK);
    CHECK_ST(sphincs_verify_update(vs, msg, 65536 + 5), SPHINCS_OK);
    CHECK_ST(sphincs_verify_update(vs, msg + 65536 + 5, len - 65536 - 5), SPHINCS_OK);
    CHECK_ST(sphincs_verify_final(vs), SPHINCS_OK);
    sphincs_verify_stream_free(vs);
    vs = NULL;
    CHECK_ST(sphincs_verify_init(pk, one, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE, &vs), SPHINCS_OK);
    CHECK_ST(sphincs_verify_update(vs, msg, len - 1), SPHINCS_OK);
    CHECK_ST(sphincs_verify_final(vs), SPHINCS_ERR_INVALID_SIGNATURE);
    sphincs_verify_stream_free(vs);
    vs = NULL;
    CHECK_ST(sphincs_verify_init(pk, one, SIG_BYTES - 1, NULL, 0, SPHINCS_PREHASH_NONE, &vs), SPHINCS_OK);
    CHECK_ST(sphincs_verify_final(vs), SPHINCS_ERR_INVALID_SIGNATURE);
    sphincs_verify_stream_free(vs);

    /* Reader callbacks: one pass, no rewind needed. */
    CHECK_ST(sphincs_sign_reader(sk, mem_read, NULL, &r, NULL, streamed, SIG_BYTES, &got), SPHINCS_OK);
    CHECK(memcmp(one, streamed, SIG_BYTES) == 0, "reader = one-shot");
    CHECK_ST(sphincs_verify_reader(pk, mem_read, mem_rewind, &r, one, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE),
             SPHINCS_OK);
    CHECK(r.rewinds == 1, "%d rewinds", r.rewinds);

    /* Batches, mixed with a FIPS 205 item. */
    {
        const uint8_t *msgs[2] = {a->msg, b->msg};
        size_t lens[2] = {a->msg_len, b->msg_len};
        const sphincs_alg *fa = NULL;
        sphincs_secret_key *fsk = NULL;
        sphincs_public_key *fpk = NULL;
        uint8_t seed[48] = {1}, *fsig;
        size_t fl;
        CHECK_ST(sphincs_alg_by_name("SLH-DSA-SHAKE-128f", &fa), SPHINCS_OK);
        fl = sphincs_alg_signature_bytes(fa);
        fsig = xmalloc(fl);
        CHECK_ST(sphincs_keygen_from_seed(fa, seed, sizeof seed, 1, &fsk), SPHINCS_OK);
        CHECK_ST(sphincs_secret_key_public(fsk, &fpk), SPHINCS_OK);
        CHECK_ST(sphincs_sign(fsk, msg, 10, NULL, fsig, fl, &got), SPHINCS_OK);

        size_t need = 0;
        CHECK_ST(sphincs_sign_batch(sk, msgs, lens, 2, NULL, all, 2 * SIG_BYTES - 1, &need),
                 SPHINCS_ERR_BUFFER_TOO_SMALL);
        CHECK(need == 2 * SIG_BYTES, "batch needs %zu bytes", need);
        CHECK_ST(sphincs_sign_batch(sk, msgs, lens, 2, NULL, all, 2 * SIG_BYTES, &got), SPHINCS_OK);
        CHECK(got == 2 * SIG_BYTES, "batch wrote %zu bytes", got);
        CHECK_ST(sphincs_sign(sk, a->msg, a->msg_len, NULL, sig_a, SIG_BYTES, &got), SPHINCS_OK);
        CHECK_ST(sphincs_sign(sk, b->msg, b->msg_len, NULL, sig_b, SIG_BYTES, &got), SPHINCS_OK);
        CHECK(memcmp(all, sig_a, SIG_BYTES) == 0 && memcmp(all + SIG_BYTES, sig_b, SIG_BYTES) == 0,
              "batch signatures = one by one");
        CHECK(a->sig != NULL && memcmp(sig_a, a->sig, SIG_BYTES) == 0, "batch = reference");
        {
            sphincs_verify_item items[6] = {
                {pk, a->msg, a->msg_len, sig_a, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE},
                {pk, b->msg, b->msg_len, sig_b, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE},
                {fpk, msg, 10, fsig, fl, NULL, 0, SPHINCS_PREHASH_NONE},
                {pkb, a->msg, a->msg_len, sig_a, SIG_BYTES, NULL, 0, SPHINCS_PREHASH_NONE},
                {pk, a->msg, a->msg_len, sig_a, SIG_BYTES - 1, NULL, 0, SPHINCS_PREHASH_NONE},
                {pk, a->msg, a->msg_len, sig_a, SIG_BYTES, (const uint8_t *)"c", 1, SPHINCS_PREHASH_NONE},
            };
            static const sphincs_status want[6] = {
                SPHINCS_OK, SPHINCS_OK, SPHINCS_OK, SPHINCS_ERR_INVALID_SIGNATURE, SPHINCS_ERR_INVALID_SIGNATURE,
                SPHINCS_ERR_UNSUPPORTED,
            };
            CHECK_ST(sphincs_verify_batch(items, 6, 2, results), SPHINCS_ERR_INVALID_SIGNATURE);
            for (int i = 0; i < 6; i++)
                CHECK(results[i] == want[i], "item %d: %d (%s), want %d", i, results[i], sphincs_strerror(results[i]),
                      want[i]);
            CHECK_ST(sphincs_verify_batch(items, 3, 0, results), SPHINCS_OK);
        }
        sphincs_secret_key_free(fsk);
        sphincs_public_key_free(fpk);
        free(fsig);
    }
    sphincs_secret_key_free(sk);
    sphincs_secret_key_free(skb);
    sphincs_public_key_free(pk);
    sphincs_public_key_free(pkb);
    free(msg);
    free(one);
    free(streamed);
    free(sig_a);
    free(sig_b);
    free(all);
}

int main(int argc, char **argv)
{
    static struct kat_case cases[4];
    const sphincs_alg *alg;
    size_t count;
    if (argc != 2) {
        fprintf(stderr, "usage: %s KAT_FILE\n", argv[0]);
        return 2;
    }
    count = read_cases(argv[1], cases, 4);
    CHECK(count >= 2, "%zu known-answer cases", count);
    if (count < 2)
        return check_report();
    alg = the_alg();
    known_answers(alg, cases, count);
    refusals_and_bad_input(alg, &cases[1]);
    streams_and_batches(alg, &cases[0], &cases[1]);
    for (size_t i = 0; i < count; i++) {
        free(cases[i].msg);
        free(cases[i].sig);
    }
    return check_report();
}
