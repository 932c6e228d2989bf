/*
 * timing_step_dump.c - the timing model's step (timing_lanes.h) one lane at
 * a time with the schedule dump's hooks (timing_dump.h) compiled in: the
 * build timing.c's consumer runs only while a dump's window is ahead or in
 * progress, so that every other build has no trace of it.
 */
#define TIMING_LW 1
#define TIMING_TARGET
#define TIMING_DUMP 1
#include "analysis/timing/timing_lanes.h"

void edan_timing_consume_dump(edan_timing *t, const edan_exec *recs, size_t n)
{
    consume_body(t, recs, n);
}
