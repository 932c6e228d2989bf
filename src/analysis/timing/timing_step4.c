/*
 * timing_step4.c - the timing model's step (timing_lanes.h) four lanes at a
 * time, in AVX2 registers: the build for more than one lane on an x86-64
 * CPU that has AVX2 (edan_timing_width()).
 */
#define TIMING_LW 4
#if defined(__x86_64__)
#define TIMING_TARGET __attribute__((target("avx2")))
#else
#define TIMING_TARGET /* never chosen: edan_timing_width() is 1 here */
#endif
#include "analysis/timing/timing_lanes.h"

TIMING_TARGET void edan_timing_consume_4(edan_timing *t, const edan_exec *recs, size_t n)
{
    consume_body(t, recs, n);
}
