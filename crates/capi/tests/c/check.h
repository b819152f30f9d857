/* A minimal test harness: every CHECK is one test; the program's last line
 * is "RESULT passed=N failed=M", which tests/run.sh adds up. */
#ifndef SPHINCS_TEST_CHECK_H
#define SPHINCS_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks_passed, checks_failed;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            checks_passed++;                                               \
        } else {                                                           \
            checks_failed++;                                               \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);         \
            printf(__VA_ARGS__);                                           \
            printf("\n");                                                  \
        }                                                                  \
    } while (0)

/* `expr` must return the status `want`. */
#define CHECK_ST(expr, want)                                                          \
    do {                                                                              \
        int got_ = (int)(expr);                                                       \
        CHECK(got_ == (int)(want), "got %d (%s), want %d (%s)", got_,                 \
              sphincs_strerror(got_), (int)(want), sphincs_strerror((int)(want)));    \
    } while (0)

static int check_report(void)
{
    printf("RESULT passed=%d failed=%d\n", checks_passed, checks_failed);
    return checks_failed ? 1 : 0;
}

/* The mode and pre-hash that a secret or public key reports (through
 * sphincs_secret_key_mode or sphincs_public_key_mode, by the key's type) are
 * `want` and `want_ph`: two checks. */
#define expect_mode(key, want, want_ph, what)                                                   \
    do {                                                                                        \
        sphincs_key_mode mode_ = -1;                                                            \
        sphincs_prehash ph_ = -1;                                                               \
        CHECK_ST(_Generic((key), sphincs_secret_key *: sphincs_secret_key_mode,                 \
                          default: sphincs_public_key_mode)((key), &mode_, &ph_),               \
                 SPHINCS_OK);                                                                   \
        CHECK(mode_ == (want) && ph_ == (want_ph), "%s: mode %d/%d, want %d/%d", (what), mode_, \
              ph_, (want), (want_ph));                                                          \
    } while (0)

/* malloc that never returns NULL (a test cannot go on without memory); inline,
 * so a test that needs none compiles without an unused-function warning. */
static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* The whole of the file at `path` (its length in *len); the test stops with
 * exit status 2 if it cannot be read, as its input is missing. */
static inline uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f) {
        printf("FAIL: cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = xmalloc((size_t)n);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        printf("FAIL: cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* A file's bytes and length, for the tests given files by tests/run.sh. */
struct blob {
    uint8_t *data;
    size_t len;
};

static inline struct blob load(const char *path)
{
    struct blob b;
    b.data = read_file(path, &b.len);
    return b;
}

/* Loads the files named by argv[1], argv[2], ... into *files[0], *files[1],
 * ... (`count` of them; a NULL entry skips its argument, such as an output
 * path); with another number of arguments than `want_args`, prints the
 * usage line and exits with status 2. */
static inline void load_args(int argc, char **argv, int want_args, const char *usage, struct blob **files,
                             int count)
{
    if (argc != want_args) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        exit(2);
    }
    for (int i = 0; i < count; i++)
        if (files[i])
            *files[i] = load(argv[i + 1]);
}

/* A message in memory behind the read/rewind callbacks, handed out in reads
 * of at most `piece` bytes (short reads, as from a pipe); every read fails
 * while `fail_read` is set. */
struct mem_reader {
    const uint8_t *data;
    size_t len, pos;
    int rewinds, fail_read;
    size_t piece;
};

static inline int mem_read(void *user, uint8_t *buf, size_t cap, size_t *got)
{
    struct mem_reader *r = user;
    size_t n = r->len - r->pos;
    if (r->fail_read)
        return -1;
    if (n > cap)
        n = cap;
    if (n > r->piece)
        n = r->piece;
    memcpy(buf, r->data + r->pos, n);
    r->pos += n;
    *got = n;
    return 0;
}

static inline int mem_rewind(void *user)
{
    struct mem_reader *r = user;
    r->pos = 0;
    r->rewinds++;
    return 0;
}

#endif
