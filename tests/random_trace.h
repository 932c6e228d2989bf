/*
 * random_trace.h - random instructions, lanes and traces for the property
 * tests: random registers from a small pool (so dependencies are frequent),
 * loads, stores and atomics of 1 to 8 bytes, random caches and costs
 * (zero costs included). Deterministic for a given seed.
 */
#ifndef EDAN_TESTS_RANDOM_TRACE_H
#define EDAN_TESTS_RANDOM_TRACE_H

#include <stdint.h>

#include "analysis/edag/edag.h"

void rt_seed(uint64_t seed);
uint64_t rt_below(uint64_t n);
void rt_random_insn(edan_insn *in);
void rt_random_lane(edan_lane_config *l);
/*
 * n records over table[0..23] (filled with rt_random_insn): addresses in a
 * 40-byte window at one of a few bases (page crossings and the top of the
 * address space included), so accesses overlap and partially overlap; now
 * and then a store that performed no access (a failed sc).
 */
void rt_random_records(edan_insn table[24], edan_exec *recs, size_t n);

#endif
