/*
 * activity.h - is a function active? The one rule shared by the tracer's
 * --filter and the analyzer's inclusive per-function lanes.
 *
 * A function becomes active at its first instruction and stays active until
 * the call depth drops below the depth at which it was entered. Calls and
 * returns are the RISC-V return-address-stack hints (riscv.h: EDAN_FLOW_*),
 * so a tail call into the function is covered, and the return that leaves it
 * still counts as inside.
 */
#ifndef EDAN_TRACE_ACTIVITY_H
#define EDAN_TRACE_ACTIVITY_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/riscv.h"

typedef struct edan_activity {
    int64_t depth;  /* calls minus returns so far */
    int64_t marker; /* depth at entry */
    bool active;
} edan_activity;

/* One executed instruction: entry says it is the function's first instruction.
 * Returns whether it executes while the function is active. */
static inline bool edan_activity_step(edan_activity *a, bool entry, uint8_t flow)
{
    if (entry && !a->active) {
        a->active = true;
        a->marker = a->depth;
    }
    const bool inside = a->active;
    if (flow == EDAN_FLOW_CALL) {
        a->depth++;
    } else if (flow == EDAN_FLOW_RETURN) {
        a->depth--;
        if (a->active && a->depth < a->marker)
            a->active = false;
    }
    return inside;
}

#endif
