/*
 * timing_dump.h - the schedule dump (timing.h, edan_timing_set_dump()): what
 * the timing model decided for each vertex of a window, in one lane, and
 * which rule set each time. Internal to the timing model: the step's dump
 * build (timing_step_dump.c, TIMING_DUMP defined) calls these hooks from
 * timing_lanes.h, where in every other build they are compiled out, so the
 * dump costs the ordinary schedule nothing. The dump build runs only while
 * the window is still ahead or in progress (timing.c's consumer); its rows
 * are kept in memory (allocated before the stream) and written after it.
 */
#ifndef EDAN_ANALYSIS_TIMING_DUMP_H
#define EDAN_ANALYSIS_TIMING_DUMP_H

#include <stdint.h>

#include "analysis/timing/timing_internal.h"

/* The stages whose time a rule sets. */
enum { DUMP_FETCH, DUMP_DISPATCH, DUMP_ISSUE, DUMP_STAGES };

/* What set a time: the rule whose bound is the time (the first of equal ones), or the stage's own width. */
typedef enum timing_dump_why {
    WHY_NONE = 0,
    WHY_START,      /* nothing before it: the model's first cycle */
    WHY_ORDER,      /* the stage's previous instruction (in order) */
    WHY_WIDTH,      /* the stage took its width in that cycle */
    WHY_TAKEN,      /* fetch: the cycle's taken-branch limit */
    WHY_BLOCK,      /* fetch: a new fetch block read from the L1i */
    WHY_MISPREDICT, /* fetch: redirected after a mispredicted branch */
    WHY_REFETCH,    /* fetch: a memory-order violation squashed the window */
    WHY_BACKPRESS,  /* fetch: frontend_cycles ahead of dispatch */
    WHY_L1I,        /* fetch: an L1i miss */
    WHY_FRONTEND,   /* dispatch: fetch + frontend_cycles */
    WHY_ROB,        /* dispatch: the reorder buffer full */
    WHY_LQ,         /* dispatch: the load queue full */
    WHY_SQ,         /* dispatch: the store queue full */
    WHY_SERIAL,     /* dispatch or issue: a serializing instruction */
    WHY_IQ,         /* dispatch: the issue queue full */
    WHY_DISPATCH,   /* issue: ready when dispatched */
    WHY_DEP,        /* issue: a true predecessor (dep names it) */
    WHY_STORESET,   /* issue: a store set's store, or a violation's refetch */
    WHY_INORDER,    /* issue: an in-order core's previous start */
    WHY_DIVIDER,    /* issue: every divider busy */
    WHY_COMPLETE,   /* commit: its own completion */
    WHY_COUNT
} timing_dump_why;

/* One vertex of the window, lane dump->lane's times in ticks. */
typedef struct timing_dump_row {
    const edan_insn *insn;
    uint64_t addr;
    uint64_t dep; /* the predecessor (vertex) that set issue, UINT64_MAX: none */
    tick fetch, dispatch, issue, complete, commit;
    tick mem_req, mem_done; /* a load's request and data back; a store's write sent and done */
    int8_t level;           /* where the access found its line (0 L1d .. nlev memory); -1 no access */
    uint8_t forwarded;      /* a load served from the store queue */
    uint8_t why[DUMP_STAGES], commit_why;
} timing_dump_row;

typedef struct timing_dump {
    uint64_t start, n; /* the window: vertices [start, start + n) */
    int lane;
    timing_dump_row *rows;
    /* the current vertex's candidates per stage: the largest bound and its rule */
    tick best[DUMP_STAGES];
    uint8_t best_why[DUMP_STAGES];
    uint64_t best_dep;
    bool dispatched; /* its first micro-operation's dispatch is recorded */
    tick prev_commit;
} timing_dump;

/* The vertex t->v is in the window and j is the dumped lane (the dump build's lanes are one at a time). */
static inline bool dump_on(const edan_timing *t, int j)
{
    const timing_dump *d = t->dump;
    return d && j == d->lane && t->v - d->start < d->n && t->v >= d->start;
}

/* A bound on stage s's time (its rule why; dep the predecessor for WHY_DEP): the largest is kept, the first of equals.
 */
static inline void dump_bound(edan_timing *t, int s, int why, tick at, uint64_t dep)
{
    timing_dump *d = t->dump;
    if (d->best_why[s] == WHY_NONE || at > d->best[s]) {
        d->best[s] = at;
        d->best_why[s] = (uint8_t)why;
        if (s == DUMP_ISSUE)
            d->best_dep = dep;
    }
}

/* Stage s's time: the bound that set it, or the stage's width when later than every bound. */
void edan_timing_dump_stage(edan_timing *t, int s, tick at);
/* A load's or a store write's access: requested at req, done at done, its line at level. */
void edan_timing_dump_mem(edan_timing *t, int level, tick req, tick done, bool forwarded);
/* The issue bound of the vertex's true predecessors (those in the window), for the dumped lane. */
void edan_timing_dump_preds(edan_timing *t, const uint64_t *preds, size_t n_preds);
/* The end of a vertex's step (every vertex the dump build schedules): its row, when in the window. */
void edan_timing_dump_end(edan_timing *t, const edan_exec *rec);

#ifdef TIMING_DUMP
#define DUMP_IF(t, j, stmt)                                                                                            \
    do {                                                                                                               \
        if (dump_on((t), (j))) {                                                                                       \
            stmt;                                                                                                      \
        }                                                                                                              \
    } while (0)
#else
#define DUMP_IF(t, j, stmt) ((void)0)
#endif

#endif
