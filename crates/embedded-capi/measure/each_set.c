/* One verification of each set built into libsphincs_embedded.a, for the
 * Cortex-M4 cycle model (scripts/m4-cycle-model --split measure_next, run
 * by .ci/embedded.sh on a qemu trace of this image): before each set it
 * prints "measure NAME" and calls measure_next(), so the trace splits into
 * one segment per set, in the order of the lines printed.
 *
 * The key, signature and 32-byte image are all zero bytes. The verifier
 * does the same work for them as for a valid signature of the set: it
 * computes the whole root (every WOTS+ chain to its end, every FORS and
 * Merkle path) before it compares, and the chain lengths come from the
 * message digest, which for zeros is as uneven as any other. So a segment
 * is one verification's, and each result must be SPHINCS_EMB_INVALID (a
 * set not built in is skipped): exit status 0 then, 1 otherwise. No libc;
 * reset handler and exit through semihosting as in ../example/bootloader.c. */
#include <stddef.h>
#include <stdint.h>

#include "sphincs_embedded.h"

extern uint32_t _sdata, _edata, _sidata, _sbss, _ebss;

struct set {
    uint32_t alg;
    const char *name;
    uint32_t pk_len, sig_len;
};

static const struct set sets[] = {
    {SPHINCS_EMB_SLH_DSA_SHA2_128S, "SLH-DSA-SHA2-128s", 32, 7856},
    {SPHINCS_EMB_SLH_DSA_SHA2_128F, "SLH-DSA-SHA2-128f", 32, 17088},
    {SPHINCS_EMB_SLH_DSA_SHA2_192S, "SLH-DSA-SHA2-192s", 48, 16224},
    {SPHINCS_EMB_SLH_DSA_SHA2_192F, "SLH-DSA-SHA2-192f", 48, 35664},
    {SPHINCS_EMB_SLH_DSA_SHA2_256S, "SLH-DSA-SHA2-256s", 64, 29792},
    {SPHINCS_EMB_SLH_DSA_SHA2_256F, "SLH-DSA-SHA2-256f", 64, 49856},
    {SPHINCS_EMB_SLH_DSA_SHAKE_128S, "SLH-DSA-SHAKE-128s", 32, 7856},
    {SPHINCS_EMB_SLH_DSA_SHAKE_128F, "SLH-DSA-SHAKE-128f", 32, 17088},
    {SPHINCS_EMB_SLH_DSA_SHAKE_192S, "SLH-DSA-SHAKE-192s", 48, 16224},
    {SPHINCS_EMB_SLH_DSA_SHAKE_192F, "SLH-DSA-SHAKE-192f", 48, 35664},
    {SPHINCS_EMB_SLH_DSA_SHAKE_256S, "SLH-DSA-SHAKE-256s", 64, 29792},
    {SPHINCS_EMB_SLH_DSA_SHAKE_256F, "SLH-DSA-SHAKE-256f", 64, 49856},
    {SPHINCS_EMB_SLH_DSA_SHA2_128_24, "SLH-DSA-SHA2-128-24", 32, 3856},
    {SPHINCS_EMB_SLH_DSA_SHA2_192_24, "SLH-DSA-SHA2-192-24", 48, 7752},
    {SPHINCS_EMB_SLH_DSA_SHA2_256_24, "SLH-DSA-SHA2-256-24", 64, 14944},
    {SPHINCS_EMB_SLH_DSA_SHAKE_128_24, "SLH-DSA-SHAKE-128-24", 32, 3856},
    {SPHINCS_EMB_SLH_DSA_SHAKE_192_24, "SLH-DSA-SHAKE-192-24", 48, 7752},
    {SPHINCS_EMB_SLH_DSA_SHAKE_256_24, "SLH-DSA-SHAKE-256-24", 64, 14944},
};

static uint8_t pk[64], sig[49856];

static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt #0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static void say(const char *s) { semihost(0x04, s); } /* SYS_WRITE0 */

static __attribute__((noreturn)) void exit_with(uint32_t code)
{
    uint32_t block[2] = {0x20026, code}; /* ADP_Stopped_ApplicationExit */
    semihost(0x20, block);                /* SYS_EXIT_EXTENDED */
    for (;;) {
    }
}

static int32_t read_zeros(void *ctx, uint32_t offset, uint8_t *buf, uint32_t len)
{
    (void)ctx;
    (void)offset;
    for (uint32_t i = 0; i < len; i++) {
        buf[i] = 0;
    }
    return 0;
}

/* The model starts a segment at each call. Not static: its symbol must
 * stay in the image under this name. */
__attribute__((noinline)) void measure_next(void) { __asm__ volatile("" ::: "memory"); }

static uint32_t run(void)
{
    uint32_t failed = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        const struct set *s = &sets[i];
        /* A key of length 0: refused at once, as a set not built in is. */
        int32_t r = sphincs_verify_embedded(s->alg, pk, 0, sig, s->sig_len, read_zeros, NULL, 32);
        if (r == SPHINCS_EMB_ERR_ALG) {
            continue;
        }
        say("measure ");
        say(s->name);
        say("\n");
        measure_next();
        r = sphincs_verify_embedded(s->alg, pk, s->pk_len, sig, s->sig_len, read_zeros, NULL, 32);
        if (r != SPHINCS_EMB_INVALID) {
            say("measure: unexpected result\n");
            failed = 1;
        }
    }
    measure_next();
    return failed;
}

static void fault(void) { exit_with(102); }

void reset(void);
__attribute__((section(".vector_table.reset"), used)) static void (*const reset_vector)(void) = reset;
__attribute__((section(".vector_table.exceptions"), used)) static void (*const exceptions[14])(void) = {
    fault, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault, fault};

void reset(void)
{
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20; /* CPACR: the FPU on */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    for (uint32_t *d = &_sdata, *s = &_sidata; d < &_edata;) {
        *d++ = *s++;
    }
    for (uint32_t *d = &_sbss; d < &_ebss;) {
        *d++ = 0;
    }
    exit_with(run());
}
