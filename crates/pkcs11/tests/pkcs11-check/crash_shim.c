/* A PKCS#11 module for checking that pkcs11_check.sh notices a crash: it
 * loads the module named by CRASH_SHIM_MODULE and hands out a copy of its
 * 2.40 function list whose C_GenerateRandom raises SIGSEGV. It exports only
 * C_GetFunctionList, so clients see a 2.40 module. */
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long CK_RV;
/* CK_FUNCTION_LIST (2.40): the version, then 68 function pointers. */
typedef struct {
    unsigned char major, minor;
    void *functions[68];
} function_list;
enum { GENERATE_RANDOM = 64 }; /* C_GenerateRandom's place in the list */

static function_list copy;

static CK_RV crash(void) {
    raise(SIGSEGV);
    return 5; /* CKR_GENERAL_ERROR, if the signal were ignored */
}

CK_RV C_GetFunctionList(function_list **out) {
    void *module = dlopen(getenv("CRASH_SHIM_MODULE"), RTLD_NOW);
    if (!module) return 6; /* CKR_FUNCTION_FAILED */
    CK_RV (*real)(function_list **) = (CK_RV (*)(function_list **))dlsym(module, "C_GetFunctionList");
    function_list *list;
    CK_RV rv = real ? real(&list) : 6;
    if (rv) return rv;
    memcpy(&copy, list, sizeof copy);
    copy.functions[GENERATE_RANDOM] = (void *)crash;
    *out = &copy;
    return 0;
}
