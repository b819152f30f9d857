/* sphincs_last_error_message(): the details behind a status code. A failing
 * call's message names its cause (the unknown name, the wrong length, the
 * signature length found by a stream's worker thread); a success empties
 * it; calls that return no status leave it alone; and each thread has its
 * own: a failure on one thread is never seen on another. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <sphincs.h>

#include "check.h"

/* The current message, copied (the library's string lasts only until the
 * thread's next status-returning call). */
static void last_message(char *buf, size_t cap)
{
    const char *m = sphincs_last_error_message();
    snprintf(buf, cap, "%s", m ? m : "(NULL)");
}

static const sphincs_alg *shake128f(void)
{
    const sphincs_alg *alg = NULL;
    CHECK_ST(sphincs_alg_by_name("SLH-DSA-SHAKE-128f", &alg), SPHINCS_OK);
    if (!alg)
        exit(2);
    return alg;
}

static void names_the_cause(void)
{
    char msg[512], want[64];
    const sphincs_alg *alg = NULL;
    sphincs_secret_key *sk = NULL;
    uint8_t ten[10] = {0};

    CHECK(strcmp(sphincs_last_error_message(), "") == 0, "before any call: \"%s\"",
          sphincs_last_error_message());

    /* An unknown name: the message quotes it, which the status's generic line cannot. */
    CHECK_ST(sphincs_alg_by_name("SLH-DSA-NO-SUCH-SET", &alg), SPHINCS_ERR_UNKNOWN_ALGORITHM);
    last_message(msg, sizeof msg);
    CHECK(strstr(msg, "\"SLH-DSA-NO-SUCH-SET\"") != NULL, "message: %s", msg);
    CHECK(strcmp(msg, sphincs_strerror(SPHINCS_ERR_UNKNOWN_ALGORITHM)) != 0, "only the generic line: %s", msg);

    /* Calls that return no status keep it: strerror, accessors, free. */
    alg = shake128f(); /* a success: the message is emptied */
    CHECK(strcmp(sphincs_last_error_message(), "") == 0, "after a success: \"%s\"",
          sphincs_last_error_message());
    CHECK_ST(sphincs_secret_key_import(alg, ten, sizeof ten, &sk), SPHINCS_ERR_INVALID_LENGTH);
    CHECK(sk == NULL, "a failed import made a key");
    (void)sphincs_strerror(SPHINCS_ERR_INVALID_LENGTH);
    (void)sphincs_alg_signature_bytes(alg);
    sphincs_secret_key_free(NULL);
    (void)sphincs_version();
    /* The wrong length and the one needed, both named. */
    last_message(msg, sizeof msg);
    CHECK(strstr(msg, "10 bytes") != NULL, "message: %s", msg);
    snprintf(want, sizeof want, "needs %zu", sphincs_alg_secret_key_bytes(alg));
    CHECK(strstr(msg, want) != NULL, "message lacks \"%s\": %s", want, msg);
    CHECK(strstr(msg, "SLH-DSA-SHAKE-128f") != NULL, "message: %s", msg);

    /* A failure the library finds itself (a NULL pointer) has its status's line. */
    CHECK_ST(sphincs_secret_key_import(alg, NULL, 0, &sk), SPHINCS_ERR_NULL_POINTER);
    CHECK(strcmp(sphincs_last_error_message(), sphincs_strerror(SPHINCS_ERR_NULL_POINTER)) == 0,
          "message: %s", sphincs_last_error_message());

    /* Garbage PEM: the core's reason, not the generic line. */
    static const char garbage[] = "-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----\n";
    sphincs_public_key *pk = NULL;
    CHECK_ST(sphincs_public_key_from_spki((const uint8_t *)garbage, strlen(garbage), &pk), SPHINCS_ERR_ENCODING);
    last_message(msg, sizeof msg);
    CHECK(strlen(msg) > 0 && strcmp(msg, sphincs_strerror(SPHINCS_ERR_ENCODING)) != 0, "message: %s", msg);
}

/* A stream's core runs on a worker thread; its error still reaches the caller's message. */
static void stream_worker_errors(void)
{
    const sphincs_alg *alg = shake128f();
    sphincs_secret_key *sk = NULL;
    sphincs_public_key *pk = NULL;
    sphincs_verify_stream *vs = NULL;
    uint8_t seed[48], sig[5] = {0};
    static const uint8_t msg[] = "streamed";
    char text[512];
    sphincs_status st;

    memset(seed, 7, sizeof seed);
    CHECK_ST(sphincs_keygen_from_seed(alg, seed, sphincs_alg_seed_bytes(alg), 1, &sk), SPHINCS_OK);
    CHECK_ST(sphincs_secret_key_public(sk, &pk), SPHINCS_OK);
    st = sphincs_verify_init(pk, sig, sizeof sig, NULL, 0, SPHINCS_PREHASH_NONE, &vs);
    if (st == SPHINCS_OK) {
        st = sphincs_verify_update(vs, msg, sizeof msg);
        if (st == SPHINCS_OK)
            st = sphincs_verify_final(vs);
    }
    CHECK_ST(st, SPHINCS_ERR_INVALID_SIGNATURE);
    last_message(text, sizeof text);
    CHECK(strstr(text, "5 bytes") != NULL, "a 5-byte signature, message: %s", text);
    sphincs_verify_stream_free(vs);
    last_message(text, sizeof text);
    CHECK(strstr(text, "5 bytes") != NULL, "after the free, message: %s", text);
    sphincs_public_key_free(pk);
    sphincs_secret_key_free(sk);
}

struct other {
    char before[512], after[512];
};

static void *other_thread(void *arg)
{
    struct other *o = arg;
    const sphincs_alg *alg = NULL;
    last_message(o->before, sizeof o->before);
    (void)sphincs_alg_by_name("OTHER-THREAD-NAME", &alg);
    last_message(o->after, sizeof o->after);
    return NULL;
}

static void per_thread(void)
{
    const sphincs_alg *alg = NULL;
    struct other o;
    pthread_t t;
    char msg[512];

    CHECK_ST(sphincs_alg_by_name("MAIN-THREAD-NAME", &alg), SPHINCS_ERR_UNKNOWN_ALGORITHM);
    const char *mine = sphincs_last_error_message();
    CHECK(pthread_create(&t, NULL, other_thread, &o) == 0, "pthread_create");
    pthread_join(t, NULL);
    /* The other thread saw none of this thread's failure, and its own did not touch ours. */
    CHECK(strcmp(o.before, "") == 0, "a new thread's message: %s", o.before);
    CHECK(strstr(o.after, "OTHER-THREAD-NAME") != NULL, "other thread's message: %s", o.after);
    CHECK(strstr(o.after, "MAIN-THREAD-NAME") == NULL, "other thread's message: %s", o.after);
    CHECK(sphincs_last_error_message() == mine, "this thread's string moved");
    last_message(msg, sizeof msg);
    CHECK(strstr(msg, "MAIN-THREAD-NAME") != NULL && strstr(msg, "OTHER") == NULL, "this thread's message: %s", msg);
}

int main(void)
{
    names_the_cause();
    stream_worker_errors();
    per_thread();
    return check_report();
}
