/*
 * riscv_parse_internal.h - the mnemonic table of the RV64GC text parser
 * (riscv_parse_table.c), shared with the parser (riscv_parse.c).
 */
#ifndef EDAN_ISA_RISCV_PARSE_INTERNAL_H
#define EDAN_ISA_RISCV_PARSE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "isa/riscv_ops.h"

enum {
    P_C = 1,      /* compressed mnemonic: size 2 */
    P_IMM = 2,    /* imm is fixed by the mnemonic */
    P_TIE = 4,    /* rs2 = rs1 (fmv/fneg/fabs) */
    P_LAXF = 8,   /* f operands may use x names (QEMU 7.2 prints "fabs.d a5,a5") */
    P_FENCE = 16, /* bare "fence" means iorw,iorw */
    P_TSO = 32,   /* fence.tso: rw,rw */
    P_PAUSE = 64, /* pause: fence w,0 */
};

typedef struct parse_entry {
    const char *mn;
    uint16_t op;
    uint8_t flags;
    int8_t rd, rs1, rs2;  /* fixed register numbers, -1 when taken from the text */
    int16_t imm;          /* fixed imm when P_IMM */
    uint16_t csr;         /* fixed CSR, 0 when none */
    const char *forms[6]; /* operand forms tried in order by operand count; NULL: the op's own form */
} parse_entry;

/* The entry of mnemonic mn[0..len), or NULL: a binary search of the sorted table. */
const parse_entry *edan_rv_parse_lookup(const char *mn, size_t len);

/* Exposed for the test program: the table's size, or 0 with *bad the first entry out of order. */
size_t edan_rv_parse_table_check(const char **bad);

#endif
