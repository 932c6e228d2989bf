/*
 * random_loops.h - random structured programs with loops, executed into
 * records, for the tests of per-loop results (footprint and load classes per
 * innermost loop): straight runs of instructions, memory ones among them, and
 * do-while loops closed by a backward bne, nested up to four deep, with
 * random trip counts. Each memory instruction follows an address pattern of
 * its own (a constant address, a stride, or random addresses in a small
 * window), so classes, overlaps and line crossings all occur. Deterministic
 * for rt_seed()'s seed.
 */
#ifndef EDAN_TESTS_RANDOM_LOOPS_H
#define EDAN_TESTS_RANDOM_LOOPS_H

#include <stddef.h>

#include "trace/exec.h"

#define RL_MAX_CODE 400

typedef struct rl_program {
    edan_insn code[RL_MAX_CODE];
    int n;
} rl_program;

/* A new random program in p, executed into recs (at most cap records, pointing into p->code); returns the count. */
size_t rl_random_run(rl_program *p, edan_exec *recs, size_t cap);

#endif
