/*
 * cost.h - instruction cost model: t(v) for every vertex.
 *
 * A vertex that reaches RAM (a memory-access vertex) costs alpha; a load or
 * store that stays in the cache costs `hit`; any other instruction costs its
 * class's entry. All defaults are 1 cycle except alpha = 200, as in the
 * paper's case studies.
 */
#ifndef EDAN_ANALYSIS_COST_H
#define EDAN_ANALYSIS_COST_H

#include <stdint.h>

#include "isa/riscv.h"
#include "util/error.h"

/*
 * The largest cost of one vertex, alpha included (2^40 cycles, 18 minutes
 * at 1 GHz): every option and file that sets a cost is checked against it,
 * so a sum of costs over 2^23 vertices on one path cannot overflow.
 */
#define EDAN_COST_MAX (1ull << 40)

typedef struct edan_cost_model {
    uint64_t cls[EDAN_CLASS_COUNT]; /* per edan_insn_class; LOAD/STORE/ATOMIC entries are the cache-hit cost */
    uint64_t alpha;                 /* cost of a memory-access vertex (RAM access latency) */
} edan_cost_model;

void edan_cost_default(edan_cost_model *c);

/*
 * Load a cost table from a text file: one "key value" (or key=value) per
 * line, '#' comments. Keys: int, mul, div, fadd, fmul, ffma, fdiv, fsqrt,
 * branch, hit (loads, stores and atomics that hit the cache), load, store,
 * atomic (individually), ram (= alpha). Values are non-negative integers.
 */
int edan_cost_load(edan_cost_model *c, const char *path, edan_error *err);
/* Set one key; returns 0 or -1 with a message. */
int edan_cost_set(edan_cost_model *c, const char *key, const char *value, edan_error *err);

/* Name of each class as used in cost files and reports. */
const char *edan_class_name(int cls);

#endif
