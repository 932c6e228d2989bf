/*
 * timing_step.c - the timing model's step (timing_lanes.h) one lane at a
 * time, in plain C for any CPU; and the choice of the width.
 */
#define TIMING_LW 1
#define TIMING_TARGET
#include "analysis/timing/timing_lanes.h"

void edan_timing_consume_1(edan_timing *t, const edan_exec *recs, size_t n)
{
    consume_body(t, recs, n);
}

int edan_timing_width(int K)
{
#if defined(__x86_64__)
    if (K > 1 && __builtin_cpu_supports("avx2") && !getenv("EDAN_NO_AVX2"))
        return TIMING_LV;
#else
    (void)K;
#endif
    return 1;
}
