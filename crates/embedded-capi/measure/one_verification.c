/* One verification through libsphincs_embedded.a, for the Cortex-M4 cycle
 * model (scripts/m4-cycle-model, run by .ci/embedded.sh on a qemu trace
 * from the function measured() on): the set is -DALG (an SPHINCS_EMB_
 * code), its key and signature lengths -DPK_LEN and -DSIG_LEN.
 *
 * The key, signature and 32-byte image are all zero bytes. The verifier
 * does the same work for them as for a valid signature of the set: it
 * computes the whole root (every WOTS+ chain to its end, every FORS and
 * Merkle path) before it compares, and the chain lengths come from the
 * message digest, which for zeros is as uneven as any other. So the count
 * is one verification's, and the result must be SPHINCS_EMB_INVALID: exit
 * status 0 then, 1 otherwise. No libc; reset handler and exit through
 * semihosting as in ../example/bootloader.c. */
#include <stddef.h>
#include <stdint.h>

#include "sphincs_embedded.h"

extern uint32_t _sdata, _edata, _sidata, _sbss, _ebss;

static uint8_t pk[PK_LEN], sig[SIG_LEN];

static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt #0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

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

/* The model counts from this function's first instruction to the exit. */
__attribute__((noinline)) static int32_t measured(void)
{
    return sphincs_verify_embedded(ALG, pk, sizeof pk, sig, sizeof sig, read_zeros, NULL, 32);
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
    exit_with(measured() == SPHINCS_EMB_INVALID ? 0 : 1);
}
