/* <stdint.h> for a cross compiler without a C library (Debian's
 * gcc-arm-none-eabi without newlib): the types the example and
 * sphincs_embedded.h use, from the compiler's own predefined macros. A
 * bootloader with its own libc or CMSIS headers does not need this file. */
#ifndef EXAMPLE_FREESTANDING_STDINT_H
#define EXAMPLE_FREESTANDING_STDINT_H
typedef __UINT8_TYPE__ uint8_t;
typedef __INT32_TYPE__ int32_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINTPTR_TYPE__ uintptr_t;
#endif
