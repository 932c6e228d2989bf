/*
 * riscv_test.h - what the decoder/disassembler/parser test's files share:
 * the harness and the semantic comparisons (riscv_test.c), the encoding
 * sweeps and the cross-check against GNU objdump (riscv_cross_test.c).
 */
#ifndef EDAN_TESTS_RISCV_TEST_H
#define EDAN_TESTS_RISCV_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "isa/riscv.h"

extern unsigned n_pass, n_fail;
void check(bool ok, const char *what);
/* How two instructions differ in what the eDAG sees (NULL: they do not); cmp_imm also compares immediates. */
const char *sem_diff(const edan_insn *a, const edan_insn *b, bool cmp_imm);
/* Disassemble d into text and parse it back: NULL, or what differs (err holds the parser's message). */
const char *round_trip(const edan_insn *d, char *text, size_t cap, char *err, size_t errcap);

void test_sweeps(void);
void test_cross(const char *gcc, const char *objdump);

#endif
