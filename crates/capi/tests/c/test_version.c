/* The version: the header's SPHINCS_VERSION macros (compile time) and
 * sphincs_version() (the library at run time) agree, and the numbers are
 * usable in #if. */
#include <string.h>

#include <sphincs.h>

#include "check.h"

#if !defined(SPHINCS_VERSION_MAJOR) || !defined(SPHINCS_VERSION_MINOR) || !defined(SPHINCS_VERSION_PATCH) || \
    SPHINCS_VERSION_MAJOR < 0 || SPHINCS_VERSION_MINOR < 0 || SPHINCS_VERSION_PATCH < 0
#error "sphincs.h lacks numeric SPHINCS_VERSION_MAJOR/MINOR/PATCH"
#endif

int main(void)
{
    const char *lib = sphincs_version();
    char numbers[64];
    size_t n;

    CHECK(lib != NULL, "sphincs_version() is NULL");
    if (!lib)
        return check_report();
    CHECK(strcmp(lib, SPHINCS_VERSION) == 0, "library %s, header %s", lib, SPHINCS_VERSION);
    /* MAJOR.MINOR.PATCH is the string, or its start before a pre-release or build tag. */
    n = (size_t)snprintf(numbers, sizeof numbers, "%d.%d.%d", SPHINCS_VERSION_MAJOR, SPHINCS_VERSION_MINOR,
                         SPHINCS_VERSION_PATCH);
    CHECK(strncmp(SPHINCS_VERSION, numbers, n) == 0 &&
              (SPHINCS_VERSION[n] == '\0' || SPHINCS_VERSION[n] == '-' || SPHINCS_VERSION[n] == '+'),
          "SPHINCS_VERSION %s, numbers %s", SPHINCS_VERSION, numbers);
    printf("libsphincs %s\n", lib);
    return check_report();
}
