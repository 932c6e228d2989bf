/*
 * native_lse.h - AArch64's LSE atomics decoded by hand (native_lse.c), for
 * native.c where Capstone 4.0.2 does not know them.
 */
#ifndef EDAN_ISA_NATIVE_LSE_H
#define EDAN_ISA_NATIVE_LSE_H

#include <stdbool.h>
#include <stdint.h>

/* Registers by number: 0-30 the general registers, 31 the stack pointer (a base; the zero register is left out). */
typedef struct edan_a64_lse {
    uint8_t reads[6], n_reads;   /* registers read: the base, the operands */
    uint8_t writes[2], n_writes; /* and written: the old value's */
    uint8_t base;                /* the address's register */
    uint8_t size;                /* bytes read and written at it */
    char text[64];               /* its disassembly, "casa w0, w1, [x2]" */
} edan_a64_lse;

/* Whether the little-endian instruction word w is an LSE atomic (cas, casp, swp, ld<op>, st<op>); *out then. */
bool edan_a64_lse_decode(uint32_t w, edan_a64_lse *out);

#endif
