/*
 * timing_step8k.c - the timing model's step (timing_lanes.h) four lanes at a
 * time in AVX2 registers, as timing_step4k.c, for a model of exactly two
 * vectors (five to eight latencies, t->Kp == 8): the lanes a constant
 * (STEP_KP()), each loop over them two vectors long, unrolled.
 */
#define TIMING_LW 4
#define TIMING_KP 8
#if defined(__x86_64__)
#define TIMING_TARGET __attribute__((target("avx2")))
#else
#define TIMING_TARGET /* never chosen: edan_timing_width() is 1 here */
#endif
#include "analysis/timing/timing_lanes.h"

TIMING_TARGET void edan_timing_consume_8k(edan_timing *t, const edan_exec *recs, size_t n)
{
    consume_body(t, recs, n);
}
