/*
 * timing.h - the timing model: the eDAG scheduled on a described machine
 * (machine.h) in one streaming pass, for any number of memory latencies at
 * once. docs/model.md states the model and each simplification.
 *
 * Per vertex v, in trace order, and for each memory latency (a lane):
 *  - fetch: in order, fetch_width a cycle, a cycle ending at its
 *    fetch_taken_limit-th taken branch; the first instruction of another
 *    fetch_block_bytes block waits the L1i's hit latency after the last
 *    fetch (fetch reads the block when it gets there); a fetch that leaves
 *    the current L1i line looks it up in the L1i (a miss goes to L2 and on
 *    to memory and stalls fetch); a conditional branch that the predictor (predictor.h) got
 *    wrong redirects fetch to F(branch) + mispredict_penalty. Fetch runs at
 *    most frontend_cycles ahead of dispatch.
 *  - dispatch(v) >= fetch(v) + frontend_cycles, dispatch_width a cycle, in
 *    order, when the reorder buffer has room (the vertex rob_entries back has
 *    committed), a load when the load queue has room, a store when the store
 *    queue has (the store sq_entries back has written its data).
 *  - start S(v) = max(dispatch(v), ready(v)), ready(v) the latest finish of
 *    its true predecessors: the eDAG's edges, from the one dependency
 *    tracker (deps.h); on an in-order core (machine.h's core_model) also
 *    S(v) >= S(v-1), issue_width a cycle (timing_inorder.h).
 *    F(v) = S(v) + its class's latency; a load's latency is
 *    the hierarchy's: the level's hit latencies down to where the line is,
 *    a miss holding an MSHR of each level it misses (it waits for one), the
 *    memory latency plus the line's transfer, with memory transfers queued
 *    at the memory bandwidth. A load of a line still in flight waits for it,
 *    one more target of its MSHR; the access that fills an L1d MSHR's last
 *    target blocks the L1d until that fill (memtime.h).
 *  - commit(v) = max(F(v), commit(v-1)), commit_width a cycle. A store
 *    writes after it commits, in order, through the same hierarchy, and
 *    frees its store queue entry when written.
 * An x86 instruction the decoder split (edan_insn.uops: a load, an operation,
 * a store) is one vertex whose micro-operations each take a dispatch slot,
 * a reorder-buffer entry, an issue-queue entry and a commit slot, the load a
 * load-queue entry, the store a store-queue entry (timing_uops.h).
 * An instruction without an address (the text trace format has none) is
 * not fetched and its branch not predicted.
 * The cache contents follow trace order (one simulation shared by every
 * lane); only times differ between lanes. The predicted time of the region
 * is the last commit.
 *
 * A predecessor more than rob_entries back has committed before v
 * dispatches, so it cannot delay v: the model keeps finish times for the
 * last rob_entries vertices only, and the tracker's own schedule is unused.
 */
#ifndef EDAN_ANALYSIS_TIMING_H
#define EDAN_ANALYSIS_TIMING_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/dram/dram.h"
#include "analysis/machine/machine.h"
#include "analysis/pagemap/pagemap.h"
#include "analysis/prefetch/prefetch.h"
#include "analysis/timing/memtime.h"
#include "trace/exec.h"
#include "util/error.h"

/* Memory latencies evaluated in one pass. */
#define EDAN_TIMING_MAX_LATENCIES 32

typedef struct edan_timing edan_timing;

/* The prediction at one memory latency. */
typedef struct edan_timing_lane {
    double mem_latency_ns;
    double cycles;           /* the region's predicted run time, in core cycles */
    double seconds;          /* cycles / clock */
    double mem_stall_cycles; /* cycles commit waited on memory: data, code lines, a full store queue (docs/model.md) */
    /* prefetches (every level's) an access waited for, the line on its way; and those dropped, their queue full */
    uint64_t prefetch_late, prefetch_dropped;
    /*
     * With [dram]: what the lane's DRAM did (all 0 without). Sampled, the
     * reads of the scheduled instructions alone (warm-up and measured).
     */
    edan_dram_counts dram;
} edan_timing_lane;

/* What the pass counted (the same for every lane). */
typedef struct edan_timing_counts {
    uint64_t instructions, loads, stores;
    uint64_t l1i_misses;
    uint64_t level_hits[EDAN_MACHINE_MAX_DATA_LEVELS], level_misses[EDAN_MACHINE_MAX_DATA_LEVELS];
    uint64_t ram_lines; /* lines read from memory (data and instructions) */
    /*
     * epochs of data lines from memory: a line starts one when it is more than rob_entries records after
     * the current epoch's first or that epoch holds the first level's mshrs lines already (misses that
     * cannot overlap the epoch's: about a memory latency exposed each)
     */
    uint64_t ram_epochs;
    uint64_t ram_bytes;   /* bytes moved to and from memory, write-backs included */
    uint64_t branches;    /* conditional branches */
    uint64_t mispredicts; /* of those */
    uint64_t serializing; /* serializing instructions: CSR accesses, ecall, ebreak, fence.i, sc */
    uint64_t unaddressed; /* instructions without an address (text traces): not fetched, branches not predicted */
    /* per data level, what its prefetcher did (prefetch.h; all 0 without one); late and dropped are per lane */
    edan_prefetch_counts prefetch[EDAN_MACHINE_MAX_DATA_LEVELS];
    /* pages the kernel zeroed through the caches at the region's first store to them ([machine] page_zeroing);
     * after the others, so that the digest of the counts before it (tests/timing_lanes_test.c) holds models
     * without */
    uint64_t pages_zeroed;
    /* the data TLB ([dtlb]; all 0 without one): translations (one per access, a load and store of one instruction
     * share theirs), first-level misses, and of those the walks (misses in the second level too) */
    uint64_t tlb_translations, tlb_misses, tlb_walks;
} edan_timing_counts;

/* m is copied; lat_ns: n (1 .. EDAN_TIMING_MAX_LATENCIES) memory latencies in ns. NULL with err set. */
edan_timing *edan_timing_new(const edan_machine *m, const double *lat_ns, int n, edan_error *err);
/*
 * The same on lane groups on threads: threads 0 is one per core the process
 * may use, 1 the calling thread alone (edan_timing_new()). The lanes split
 * into at most `threads` groups of whole vectors of four lanes, each a model
 * of its own fed the same records, in parallel; every result is the same as
 * edan_timing_new()'s (each lane's times depend on its latency alone). With
 * a prefetcher in m, one group: the highest latency's lane decides which
 * accesses train it (memtime.h), so a lane's times depend on its latency and
 * the highest.
 */
edan_timing *edan_timing_new_threaded(const edan_machine *m, const double *lat_ns, int n, int threads, edan_error *err);
void edan_timing_free(edan_timing *t);
/*
 * A machine whose pages are placed at first touch (machine.h's pages) loads
 * the program's image first: its PT_LOAD segments' pages take the first
 * frames (pagemap.h, edan_pagemap_load()), before any record. Nothing on a
 * machine of virtual pages. Before the first record; 0, or -1 with err.
 */
int edan_timing_load_image(edan_timing *t, const edan_pagemap_range *r, size_t n, edan_error *err);
edan_consumer edan_timing_consumer(edan_timing *t);
const edan_error *edan_timing_error(const edan_timing *t);

int edan_timing_lanes(const edan_timing *t);
/* The prediction at the i-th latency (after the stream). */
edan_timing_lane edan_timing_lane_get(const edan_timing *t, int i);
const edan_timing_counts *edan_timing_counts_get(const edan_timing *t);
const edan_machine *edan_timing_machine(const edan_timing *t);

/*
 * Attribution: the time from the commit of the vertex before to the commit
 * of v is v's (what the region waited for to retire it), summed per static
 * instruction (the stream's id). Over every id it sums to the lane's cycles.
 * ids: one past the largest id seen. An id never executed has count 0.
 */
uint32_t edan_timing_ids(const edan_timing *t);
uint64_t edan_timing_id_count(const edan_timing *t, uint32_t id);
uint64_t edan_timing_id_pc(const edan_timing *t, uint32_t id);
/* Cycles attributed to the id at lane k, and those of them that waited on memory (docs/model.md: memory stall). */
double edan_timing_id_cycles(const edan_timing *t, uint32_t id, int k);
double edan_timing_id_stall(const edan_timing *t, uint32_t id, int k);

/* The least-squares slope of cycles[k] (one value per lane, as ns of run time) against the lanes' latencies. */
double edan_timing_slope_of(const edan_timing *t, const double *cycles);

/*
 * Least-squares slope of seconds against latency over the lanes (ns of run
 * time per ns of memory latency; 0 with fewer than two distinct latencies),
 * and the relative slowdown: time at the highest latency / at the lowest.
 */
double edan_timing_slope(const edan_timing *t);
double edan_timing_slowdown(const edan_timing *t);

/* ===================================================================== */
/* Schedule dump                                                          */
/* ===================================================================== */

/*
 * Keep, for the vertices [start, start + n) of the full schedule (not
 * sampled, one thread), lane `lane`'s times of each stage (fetch, dispatch,
 * issue, complete, commit; a load's request and data back and the level that
 * served it; a store's write) and the rule that set each (a full reorder
 * buffer, a predecessor, the stage's width, ...). Before the stream; the rows
 * are allocated here (n at most 10^7). The model then runs a build of its step
 * with the dump's hooks until the window is past, and its ordinary builds
 * after (timing_dump.h): no cost without a dump. 0, or -1 with err set.
 */
int edan_timing_set_dump(edan_timing *t, uint64_t start, uint64_t n, int lane, edan_error *err);
/* The window's rows as CSV (docs/model.md, "Schedule dump"), after the stream; 0, or -1 with err set. */
int edan_timing_dump_csv(const edan_timing *t, FILE *f, edan_error *err);
/* How many rows the window holds (the vertices of it that were scheduled). */
uint64_t edan_timing_dump_rows(const edan_timing *t);

/* ===================================================================== */
/* Sampled simulation (SMARTS: Wunderlich et al., ISCA 2003)              */
/* ===================================================================== */

/*
 * With sampling, the caches, the L1i and the branch predictor see every
 * instruction (functional warming), and the schedule above runs only on
 * periodic samples: per period of `period` instructions, `unit` instructions
 * measured at a place drawn uniformly in it (a fixed place would see the
 * same phase of a loop in every period; the first unit is at the start),
 * preceded by `warmup` instructions scheduled but not measured (the window,
 * queues and MSHRs filled as they would be); the rest only warms the caches
 * and predictor. The draws are the same in every run. A period is sampled
 * only where skipping saves at least half of it (period >= 2 (unit +
 * warmup)); a shorter one is measured whole. The period starts at `unit` (everything measured) and
 * doubles after each `regime` periods until it reaches `period`: a region
 * shorter than regime * unit instructions is scheduled exactly, and longer
 * ones are sampled ever more sparsely. regime 0 starts at `period`.
 * At `period`, where the last period's stretch read lines from memory at
 * more than 8 times the region's rate so far (a memory phase), the
 * periods are 8 times shorter until a period's stretch is at twice that
 * rate or below (timing_sample.c).
 * A lane's cycles are estimated from its units (edan_timing_estimate()),
 * with a 95 % confidence interval; the counts (instructions, hits, misses,
 * branches, mispredictions) are exact, as the caches and predictor see the
 * whole stream. Per-instruction attribution is each measured unit's,
 * weighted as the estimate weights the unit, plus the instruction's own
 * share of the estimate's correction (b times its counts less its units'),
 * so that the rows sum to the lanes' estimates (docs/model.md). With
 * period == unit (no skipping) every result equals the unsampled model's.
 */
typedef struct edan_timing_sampling {
    uint64_t unit, warmup, period, regime;
    /*
     * the units' draws (their offsets in their periods): 0 the default's, the
     * same in every run; another value another draw of the same design
     */
    uint64_t seed;
} edan_timing_sampling;

/*
 * The defaults: 3000 instructions scheduled in each 64000 (4.7 %), 2000 of
 * them measured. A unit's slope is the few misses it holds, so what decides
 * the estimate's spread is the instructions measured (twice those of
 * 1000,2000: over 12 draws of the units on eight PolyBench kernels, the
 * slope more than 5 % off in 9 of 96 runs against 30); 1000 of warm-up,
 * 5 windows of 192 (500 left units up to 0.3 % off --exact's at the same
 * places, and their intervals, narrower, missed that more often).
 */
#define EDAN_TIMING_SAMPLE_UNIT 2000
#define EDAN_TIMING_SAMPLE_WARMUP 1000
/*
 * On a machine with a prefetcher the warm-up is this many times the one
 * given (edan_timing_set_sampling(); the sampling's cfg reports it as run,
 * and a period shorter than 2 (unit + warm-up) is measured whole).
 * Functional warming has no time, so it keeps none of the prefetchers'
 * lines on their way: the prefetches queued for MSHRs behind a stream, and
 * the training on the accesses that find their line still in flight, which
 * the schedule does (prefetch.h) and warming cannot. The schedule builds
 * that state again in the warm-up; without a prefetcher there is none to
 * build and the warm-up is the one given. docs/model.md states the rule,
 * docs/changelog.md the measurements.
 */
#define EDAN_TIMING_SAMPLE_PF_WARMUP 4
#define EDAN_TIMING_SAMPLE_PERIOD 64000
#define EDAN_TIMING_SAMPLE_REGIME 200

/* 0 for parameters the model takes; else -1 with err set (a unit of at least 1, unit <= period <= 2^40, ...). */
int edan_timing_sampling_check(const edan_timing_sampling *s, edan_error *err);
/* Sample the model's schedule as s says (before the stream); -1 with err set for parameters it cannot take. */
int edan_timing_set_sampling(edan_timing *t, const edan_timing_sampling *s, edan_error *err);

/* What the sampled simulation did and how sure its estimates are (after the stream). */
typedef struct edan_timing_sample_info {
    bool sampled;             /* the model was sampled (edan_timing_set_sampling()) */
    bool covered;             /* every instruction was measured: the results are the unsampled model's */
    edan_timing_sampling cfg; /* its parameters */
    uint64_t units;           /* measured units */
    uint64_t measured;        /* instructions in them */
    uint64_t detailed;        /* instructions scheduled (measured and warm-up) */
    double cycles_half[EDAN_TIMING_MAX_LATENCIES]; /* 95 % confidence half-width of each lane's cycles */
    double slope_half;                             /* and of the slope (ns per ns) */
} edan_timing_sample_info;

void edan_timing_sample_info_get(const edan_timing *t, edan_timing_sample_info *out);

/*
 * The estimate of a stream's total of a quantity (cycles) from n measured
 * units in stream order: unit i measured measured[i] instructions (> 0),
 * gave y[i * stride] and stands for stands[i] >= measured[i] instructions
 * (its period). Without auxiliary counts (aux_unit NULL) the estimate is
 * the sum of each unit's rate times the instructions it stands for:
 * exactly the sum of the y when every unit stands for itself.
 * With them (the regression estimator): aux_unit[i * EDAN_TIMING_AUX + j]
 * is count j within unit i and aux_stands[i * EDAN_TIMING_AUX + j] within
 * the instructions it stands for, both known exactly (functional warming
 * counts every instruction). The units' rates are fitted as a stratum's
 * own intercept plus common coefficients b times their counts' rates
 * (weighted least squares over the sampled strata; a count the units do
 * not vary in is left out), and each stratum adds its units' weighted
 * rates plus b times what its counts missed, sum aux_stands - sum
 * (stands / measured) aux_unit: exact when the rates are linear in the
 * counts, and the same as without them when no unit varies.
 * *half: the 95 % confidence half-width, from the units' spread within each
 * stratum (units with the same stratum[i], consecutive; a stratum of one
 * unit is joined to the one before) around the fit, with the
 * finite-population correction (a stratum measured whole adds nothing),
 * and Student's t for the strata's degrees of freedom less the
 * coefficients fitted; plus, as for a regression's prediction of new
 * observations, b's own error (the fit's HC0 sandwich covariance times
 * the counts the units missed) and the missed memory lines' spread (the
 * fitted units' squared residual cycles per line read, times the lines
 * missed): where no unit holds a miss, the fit's price of the misses is
 * not exact and the interval says so.
 */
#define EDAN_TIMING_AUX 2
double edan_timing_estimate(size_t n, const uint64_t *measured, const uint64_t *stands, const uint32_t *stratum,
                            const uint64_t *aux_unit, const uint64_t *aux_stands, const double *y, size_t stride,
                            double *half);

#endif
