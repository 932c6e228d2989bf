/*
 * random_trace.h - random instructions, lanes and traces for the property
 * tests: random registers from a small pool (so dependencies are frequent),
 * loads, stores and atomics of 1 to 8 bytes, random caches and costs
 * (zero costs included). Deterministic for a given seed.
 */
#ifndef EDAN_TESTS_RANDOM_TRACE_H
#define EDAN_TESTS_RANDOM_TRACE_H

#include <stdint.h>

#include "analysis/edag.h"

void rt_seed(uint64_t seed);
uint64_t rt_below(uint64_t n);
void rt_random_insn(edan_insn *in);
void rt_random_lane(edan_lane_config *l);

#endif
