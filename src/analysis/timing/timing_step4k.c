/*
 * timing_step4k.c - the timing model's step (timing_lanes.h) four lanes at a
 * time in AVX2 registers, as timing_step4.c, for a model of exactly one
 * vector (four latencies or fewer, t->Kp == 4): the lanes a constant
 * (STEP_KP()), the same computation with its loops over the lanes gone.
 */
#define TIMING_LW 4
#define TIMING_KP 4
#if defined(__x86_64__)
#define TIMING_TARGET __attribute__((target("avx2")))
#else
#define TIMING_TARGET /* never chosen: edan_timing_width() is 1 here */
#endif
#include "analysis/timing/timing_lanes.h"

TIMING_TARGET void edan_timing_consume_4k(edan_timing *t, const edan_exec *recs, size_t n)
{
    consume_body(t, recs, n);
}
