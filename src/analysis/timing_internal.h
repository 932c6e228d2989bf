/*
 * timing_internal.h - the timing model's state (timing.h), shared by its
 * step (timing.c) and its results (timing_results.c). Lanes are kept as
 * arrays of EDAN_TIMING_MAX_LATENCIES times (edan_lanes), one time per lane:
 * the model's work for one instruction is a few loops over the lanes.
 */
#ifndef EDAN_ANALYSIS_TIMING_INTERNAL_H
#define EDAN_ANALYSIS_TIMING_INTERNAL_H

#include "analysis/deps.h"
#include "analysis/issueq.h"
#include "analysis/memtime.h"
#include "analysis/predictor.h"
#include "analysis/timing.h"

#define TPC EDAN_TICKS_PER_CYCLE
#define MAXK EDAN_TIMING_MAX_LATENCIES
#define NLEV EDAN_MACHINE_MAX_DATA_LEVELS
/* Store sets: gem5's SSIT and LFST sizes, and its period of forgetting (store_set_clear_period). */
#define SS_ENTRIES 1024u
#define SS_CLEAR_PERIOD 250000u
#define SS_BLOCKS (1u << EDAN_MEMTIME_INFLIGHT_BITS)

typedef edan_tick tick;
typedef edan_lanes lanes;
_Static_assert(MAXK <= EDAN_MEMTIME_LANES, "the hierarchy's times hold every lane");

static inline tick max_t(tick a, tick b)
{
    return a > b ? a : b;
}

/* An in-order stage that handles `width` instructions a cycle: the cycle it is at and how many it took there. */
/* Row i of a table of rows of K lane times (edan_timing's F, C, lq, sq, st_write). */
#define ROW(table, i) ((table) + (size_t)(i) * (size_t)K)

typedef struct slots {
    lanes at;
    uint32_t taken[MAXK];
} slots;

/* records handed to the dependency tracker at a time (edan_deps_steps_preds()) */
#define PRED_BATCH 1024

struct edan_timing {
    edan_machine m;
    int K;
    double lat_ns[MAXK];
    tick cyc, frontend, penalty, lat[EDAN_CLASS_COUNT], l1i_hit;
    int nlev;
    edan_deps *deps;
    /* a batch's true predecessors from the tracker: those of its record i are preds[off[i] .. off[i + 1]) */
    uint64_t preds[PRED_BATCH * 4];
    uint32_t off[PRED_BATCH + 1];
    edan_cache dc, ic; /* data hierarchy; the L1i (its misses go to dc's level 1) */
    bool dc_ok, ic_ok;
    uint32_t line_shift;
    uint64_t iline; /* the line fetch is in, + 1; 0 before the first */
    /* the block (fetch_block_bytes) fetch read last, + 1; the pc after the previous record's (0: none) */
    uint64_t fblock, prev_next;
    lanes ftaken_at; /* the fetch cycle whose taken branches ftaken_n counts */
    uint32_t ftaken_n[MAXK];
    edan_predictor bp;
    /* the previous record, when it was a conditional branch: its fall-through pc, else 0 */
    uint64_t prev_fallthrough, prev_pc;
    /*
     * the last R >= rob_entries + 1 vertices: finish and commit times. These
     * and lq, sq, st_write are rows of K times, [i * K + k] (ROW()): packed,
     * so that with few lanes the window takes few cache lines.
     */
    uint32_t rmask;
    tick *F, *C;
    tick *lq, *sq; /* the commit of each load in the load queue, the write of each store in the store queue */
    uint32_t lq_at, sq_at;
    uint64_t v, n_loads, n_stores;
    slots fetch, disp, commit;
    lanes last_commit, drain, stall;
    lanes refetch;  /* a memory-order violation squashed the window: fetch starts again no earlier */
    edan_issueq iq; /* the issue queue (issueq.h) */
    bool iq_ok;
    /* per window entry, for a store: its size (0: not a store), address and when it goes to the L1d */
    uint8_t *stores;
    uint64_t *st_addr;
    tick *st_write;
    tick *div_units[2]; /* lane-major [k * units + u]: when each integer (0) or FP (1) divider is free */
    edan_memtime mem;   /* the hierarchy's times */
    bool mem_ok;
    /*
     * memory-dependence prediction (store sets, as gem5's): per block (direct
     * mapped) the block + 1 and its last store's index and pc, to train; per
     * pc the set + 1 (SSIT); per set the index + 1 of its last store (LFST);
     * SSIT and LFST per lane: [entry * K + k]
     */
    uint64_t *ss_block, *ss_store, *ss_store_pc;
    uint32_t *ssit;
    uint64_t *lfst;
    uint32_t ss_shift;
    uint64_t ss_mem_ops;
    /* attribution per static instruction id: id_time / id_stall [id * K + k] */
    size_t id_cap;
    tick *id_time, *id_stall;
    uint64_t *id_count, *id_pc;
    edan_timing_counts n;
    edan_error err;
};

#endif
