/* A minimal C "bootloader" for the MPS2 AN386 board (Cortex-M4F) as
 * qemu-system-arm models it: reset handler, the signature check of a
 * firmware image through libsphincs_embedded.a, and an exit code through
 * semihosting. It checks that the signed image is accepted, that a copy
 * with one bit flipped (changed by the read callback) and bad arguments are
 * refused, prints the peak stack of the verification (the free RAM is
 * painted first) and exits 0 only if every check held. No libc.
 *
 * Built and run by .ci/embedded.sh; the image, its signature and the
 * public key come from firmware.S (SLH-DSA-SHA2-128s). */
#include <stdint.h>

#include "sphincs_embedded.h"

extern const uint8_t firmware[], firmware_end[], firmware_sig[],
    firmware_sig_end[], firmware_pk[], firmware_pk_end[];
extern uint32_t _sdata, _edata, _sidata, _sbss, _ebss;

/* ---------------------------------------------------------- semihosting */

static uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt #0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static void say(const char *s) { semihost(0x04, s); } /* SYS_WRITE0 */

static void say_u32(uint32_t v)
{
    char buf[11];
    int i = 10;
    buf[i] = 0;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    say(&buf[i]);
}

static __attribute__((noreturn)) void exit_with(uint32_t code)
{
    uint32_t block[2] = {0x20026, code}; /* ADP_Stopped_ApplicationExit */
    semihost(0x20, block);                /* SYS_EXIT_EXTENDED */
    for (;;) {
    }
}

/* ---------------------------------------------------------- the image */

struct image {
    const uint8_t *bytes;
    uint32_t flip_at; /* a byte whose lowest bit the read flips, or ~0 */
    int fail;         /* non-zero: the read reports an error */
};

static int32_t read_image(void *ctx, uint32_t offset, uint8_t *buf, uint32_t len)
{
    const struct image *img = ctx;
    if (img->fail) {
        return -1;
    }
    for (uint32_t i = 0; i < len; i++) {
        buf[i] = img->bytes[offset + i];
        if (offset + i == img->flip_at) {
            buf[i] ^= 1;
        }
    }
    return 0;
}

static int32_t check(struct image *img, uint32_t alg, size_t sig_len)
{
    return sphincs_verify_embedded(alg, firmware_pk,
                                   (size_t)(firmware_pk_end - firmware_pk),
                                   firmware_sig, sig_len, read_image, img,
                                   (uint32_t)(firmware_end - firmware));
}

/* ---------------------------------------------------------- stack paint */

#define PAINT 0x5AA5C33Cu

static uint32_t *stack_pointer(void)
{
    uint32_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

/* ---------------------------------------------------------- the checks */

static int expect(const char *what, int32_t got, int32_t want)
{
    say(what);
    say(": ");
    say(sphincs_embedded_strerror(got));
    if (got != want) {
        say(" -- FAIL, expected: ");
        say(sphincs_embedded_strerror(want));
        say("\n");
        return 0;
    }
    say("\n");
    return 1;
}

static __attribute__((noinline)) int run(void)
{
    const uint32_t alg = SPHINCS_EMB_SLH_DSA_SHA2_128S;
    const size_t sig_len = (size_t)(firmware_sig_end - firmware_sig);
    struct image img = {firmware, ~0u, 0};
    int ok = 1;

    /* The signed image, its stack measured: paint from the end of .bss to
     * just below this frame, verify, find the lowest word overwritten. */
    uint32_t *top = stack_pointer() - 16;
    for (uint32_t *p = &_ebss; p < top; p++) {
        *(volatile uint32_t *)p = PAINT;
    }
    int32_t r = check(&img, alg, sig_len);
    uint32_t *low = &_ebss;
    while (low < top && *(volatile uint32_t *)low == PAINT) {
        low++;
    }
    ok &= expect("boot: signed image", r, SPHINCS_EMB_OK);
    say("stack SLH-DSA-SHA2-128s (C bootloader) ");
    say_u32((uint32_t)((uintptr_t)top - (uintptr_t)low));
    say(" bytes\n");

    img.flip_at = (uint32_t)(firmware_end - firmware) / 2;
    ok &= expect("boot: image with one bit flipped", check(&img, alg, sig_len),
                 SPHINCS_EMB_INVALID);
    img.flip_at = ~0u;
    ok &= expect("boot: set not built in", check(&img, 99, sig_len),
                 SPHINCS_EMB_ERR_ALG);
    ok &= expect("boot: short signature", check(&img, alg, sig_len - 1),
                 SPHINCS_EMB_ERR_SIG_LEN);
    img.fail = 1;
    ok &= expect("boot: read error", check(&img, alg, sig_len),
                 SPHINCS_EMB_ERR_READ);
    say(ok ? "boot: ok\n" : "boot: FAIL\n");
    return ok;
}

/* ---------------------------------------------------------- startup */

void reset(void);
static void fault(void)
{
    say("boot: FAIL: CPU fault\n");
    exit_with(102);
}

__attribute__((section(".vector_table.reset"), used))
static void (*const reset_vector)(void) = reset;
__attribute__((section(".vector_table.exceptions"), used))
static void (*const exceptions[14])(void) = {
    fault, fault, fault, fault, fault, fault, fault,
    fault, fault, fault, fault, fault, fault, fault,
};

void reset(void)
{
    /* CPACR: CP10 and CP11 (the FPU) before the hard-float library runs. */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    for (uint32_t *d = &_sdata, *s = &_sidata; d < &_edata;) {
        *d++ = *s++;
    }
    for (uint32_t *d = &_sbss; d < &_ebss;) {
        *d++ = 0;
    }
    exit_with(run() ? 0 : 1);
}
