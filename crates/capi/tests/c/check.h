/* A minimal test harness: every CHECK is one test; the program's last line
 * is "RESULT passed=N failed=M", which tests/run.sh adds up. */
#ifndef SPHINCS_TEST_CHECK_H
#define SPHINCS_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

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

#endif
