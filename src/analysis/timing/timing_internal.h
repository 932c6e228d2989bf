/*
 * timing_internal.h - the timing model's state (timing.h), shared by its
 * set-up (timing.c), its step (timing_lanes.h, built by timing_step.c and
 * timing_step4.c) and its results (timing_results.c). Lanes are kept as
 * arrays of EDAN_TIMING_MAX_LATENCIES times (edan_lanes), one time per
 * lane, and tables as rows of Kp times: the K lanes padded to a multiple of
 * the lanes the step takes at once (its width, timing_vec.h). A padded lane
 * runs the step's vector code only: it holds no issue-queue entry (real),
 * it is never handed to the hierarchy or the store sets (their state holds
 * K lanes), and nothing reads its times.
 */
#ifndef EDAN_ANALYSIS_TIMING_INTERNAL_H
#define EDAN_ANALYSIS_TIMING_INTERNAL_H

#include "analysis/deps/deps.h"
#include "analysis/machine/machine.h"
#include "analysis/pagemap/pagemap.h"
#include "analysis/timing/memtime.h"
#include "analysis/timing/timing.h"
#include "analysis/zeroing/zeroing.h"
#include "trace/async.h"
#include "util/keymap.h"

#define TPC EDAN_TICKS_PER_CYCLE
#define MAXK EDAN_TIMING_MAX_LATENCIES
#define NLEV EDAN_MACHINE_MAX_DATA_LEVELS
/* Store sets: gem5's SSIT and LFST sizes, and its period of forgetting (store_set_clear_period). */
#define SS_ENTRIES 1024u
#define SS_CLEAR_PERIOD 250000u
#define SS_BLOCKS (1u << EDAN_MEMTIME_INFLIGHT_BITS)
/* timing_fdesc.ss_ops: a load's check (micro-op or access), a store's */
#define SS_OP_LOAD 1u
#define SS_OP_STORE 2u
/* timing_ss_block.store for a store functional warming saw (a skip's: no vertex, no time) */
#define SS_WARMED UINT64_MAX

typedef edan_tick tick;
typedef edan_lanes lanes;
_Static_assert(MAXK <= EDAN_MEMTIME_LANES, "the hierarchy's times hold every lane");

/*
 * A block's last store (store sets, store_sets()), direct mapped by
 * edan_memtime_slot(block): the block + 1 (0: none), the store's vertex
 * (SS_WARMED: a skip's), its record (t->n.instructions when it ran) and
 * its pc. One 32-byte entry, so that a check reads one host line (the
 * four as arrays of their own cost a load, or a skip's store, four misses
 * of the 128 KB table).
 */
typedef struct timing_ss_block {
    uint64_t block, store, at, pc;
} timing_ss_block;

/*
 * A (load, store) pair of SSIT entries found in one set in every lane of
 * its ss_pairs entry (ss_join_known() then changes nothing): its key
 * ((at << 16 | sat) + 1) and the tables' generation (ss_gen) it was found at.
 */
typedef struct timing_ss_known {
    uint32_t key, gen;
} timing_ss_known;

static inline tick max_t(tick a, tick b)
{
    return a > b ? a : b;
}

/* Lanes the step takes at once in its widest build (timing_vec.h); the lanes are padded to a multiple of it. */
#define TIMING_LV 4
_Static_assert(MAXK % TIMING_LV == 0, "the lane arrays hold whole vectors");

/* Lane groups at most (timing_groups.c): one per vector of lanes. */
#define TIMING_MAX_GROUPS (MAXK / TIMING_LV)

/* Row i of a table of rows of Kp lane times (edan_timing's F, C, lq, sq, st_write, div_units, id_time, id_stall). */
#define ROW(table, i) ((table) + (size_t)(i) * (size_t)Kp)

/* An in-order stage that handles `width` instructions a cycle: the cycle it is at and how many it took there. */
typedef struct slots {
    lanes at;
    lanes taken;
} slots;

/*
 * What every record of one static instruction tells the state all lanes
 * share (timing_shared.h): derived from its edan_insn once, the first time
 * its id is seen, so that functional warming, which runs on almost every
 * record of a sampled stream, reads one small row and tests little. The
 * row names the instruction it was made from (insn) and is made again for
 * a record of the id with another one (a producer that numbers its
 * instructions otherwise, as the tests' hand-made records).
 */
/* What fetch knows of the previous record, scheduled or not (record_end(), from its timing_fdesc row). */
typedef struct timing_prev {
    uint64_t fallthrough; /* when it was a conditional branch: its fall-through pc, else 0 */
    uint64_t pc;
    uint64_t next; /* the pc after it (0: none) */
} timing_prev;

typedef struct timing_fdesc {
    /*
     * what the next record's fetch knows of this one: a conditional branch
     * with an address: pc + size, else 0 (fallthrough); pc; pc + size, 0
     * without an address (next). functional_run() reads it in place.
     */
    timing_prev at;
    const edan_insn *insn; /* the row's instruction; NULL before it is filled */
    uint64_t iline;        /* the L1i line it is in, + 1 (fetch's iline); UINT64_MAX without an address */
    uint64_t fblock;       /* its fetch block (fetch_block_bytes), + 1; 0 without an address or blocks */
    uint8_t jump;          /* a jump, call or return with an address: the predictor's global history takes it */
    uint8_t ctl;           /* jump, or a conditional branch: wrong-path fetch's table takes it (record_ctl()) */
    uint8_t serial;        /* serializing() (SERIAL_AFTER, SERIAL_NONSPEC) */
    uint8_t access;        /* it has a memory operand (mem != NONE, mem_size > 0) */
    uint8_t store;         /* access, and a store (mem == STORE) */
    uint8_t amo;           /* access, and an AMO (mem == AMO) */
    /*
     * what functional warming does besides fetching and counting it (0: nothing, most records): WARM_* bits
     * of its access (a load or store; an AMO), control flow (ctl) and serial
     */
    uint8_t any;
    /*
     * with store sets and a memory operand: the store_sets() calls its step
     * makes (one a load or store micro-op), SS_OP_LOAD and SS_OP_STORE
     */
    uint8_t ss_ops;
    /*
     * the region's records of this id that functional warming did (a skip's,
     * functional_run()): one add to the row the loop has in hand; id_count
     * holds the scheduled ones, edan_timing_id_count() the sum
     */
    uint64_t skipped;
} timing_fdesc;

/* timing_fdesc's any: an access that is a load or a store, an AMO's, a store, ctl, serial */
#define WARM_LOADSTORE 1u
#define WARM_AMO 2u
#define WARM_STORE 4u
#define WARM_CTL 8u
#define WARM_SERIAL 16u

/* records handed to the dependency tracker at a time (edan_deps_steps_preds()) */
#define PRED_BATCH 1024
/* entries of miss_ahead()'s table of a chunk's lines (a power of two, above PRED_BATCH) */
#define AH_SLOTS 2048u
/* entries of the table of control-flow instructions a wrong path looks at (wrong_path_fetch(); a power of two) */
#define WP_CTL 1024u
/* entries of the table of lines a mispredicted branch's wrong path requested (wrong_path_loads(); a power of two) */
#define WPL_SLOTS 64u
/* entries of the table of skipped byte ranges (edan_timing_skip(); a power of two) */
#define SKIP_SLOTS 256u
/* A time later than any (the model stops at 2^62 ticks): for the least of none. */
#define TICK_NONE (1ull << 62)

/* Sampled simulation (timing.h, timing_sample.c): the part of a period the stream is in. */
enum { SMP_MEASURE, SMP_SKIP, SMP_WARM };

typedef struct timing_sampler {
    bool on, closed, covered;
    edan_timing_sampling cfg;
    uint64_t period;    /* the current period (instructions) */
    uint64_t in_regime; /* periods measured at it */
    uint32_t regime;    /* how many times it doubled: the stratum of a unit */
    /* a memory phase (timing_sample.c, dense_next()): the periods are shorter there, their units a stratum of
     * their own; the instructions and memory lines at the last decision */
    bool dense;
    uint64_t dec_ins, dec_lines;
    int phase;
    uint64_t left;      /* records until the phase ends */
    uint64_t warm_next; /* after a skip: the warm-up's records */
    uint64_t unit_start;
    uint64_t period_start, last_period_start; /* the current period's start; the last unit's period's */
    /* the units' offsets in their periods (splitmix64, timing_sample.c's next_random()): the draws taken by the
     * doubling periods and by the dense ones, the first full period's start and the draws before it, the last
     * full period's draw */
    uint64_t draws, dense_draws, full_at, full_draw, last_full_draw;
    lanes snap; /* last_commit at the unit's start */
    /* the measured units: instructions measured and stood for (its period), stratum, cycles (ticks) y[i * Kp + k] */
    size_t n, cap;
    uint64_t *stands, *meas;
    uint32_t *stratum;
    tick *y;
    /*
     * the regression estimator's counts (timing_sample.c, aux_now()), per
     * unit [i * EDAN_TIMING_AUX + j]: in it, in what it stands for, and at its
     * period's start; at the current unit's and the current period's start.
     * A period's end falls in the skip after its unit: the phase there is
     * cut at mark (0: none) and goes on for after_mark more records.
     */
    uint64_t *aux_unit, *aux_stands, *aux_start;
    uint64_t aux_snap[EDAN_TIMING_AUX], aux_period[EDAN_TIMING_AUX];
    uint64_t mark, after_mark;
    /*
     * Attribution (timing_sample.c, fold_unit()): each unit's id_time and
     * id_stall weighted as the estimator weights its cycles (what it stands
     * for over what it measured), folded in when the next unit starts or at
     * the end: [id * Kp + k]. The ids the current unit scheduled: touched
     * (n_touched of them; id_gen[id] == gen marks one), the units folded.
     */
    double *id_est, *id_stall_est;
    double stall_est[MAXK];
    uint32_t *id_gen, *touched, gen;
    size_t n_touched, folded;
    /*
     * The estimator's counts per id [id * EDAN_TIMING_AUX + j]: in the whole
     * region (id_aux; the instruction whose step counted it, aux_count() in
     * timing_shared.h), in the current unit (id_aux_unit) and the units'
     * weighted as id_est (id_aux_est). A row's share of the misses the units
     * missed is b times id_aux less id_aux_est: the rows sum to the lane.
     */
    uint64_t *id_aux, *id_aux_unit;
    double *id_aux_est;
    /*
     * The id's executions measured: in the current unit (id_n_unit) and
     * weighted as id_est (id_n_est). A row is estimated per id as a ratio
     * (ratio_rows(), timing_sample.c): its weighted cycles times its
     * executions in the region over id_n_est, so that code a unit measured
     * whole is its measured cycles, not the unit's weight times.
     */
    uint64_t *id_n_unit;
    double *id_n_est;
    double est[MAXK], half[MAXK]; /* the lanes' cycles (ticks) and confidence half-widths */
    uint64_t measured, detailed;
} timing_sampler;

/* A lane's request of a line on a wrong path: the line + 1 (0: none), its chunk (chunk_no), the last record of
 * the chunk (part_j) whose miss may find it and when it was sent. */
typedef struct timing_wpl_req {
    uint64_t line, chunk;
    tick at;
    uint32_t until;
} timing_wpl_req;

/*
 * What the bytes [from, to) hold (edan_timing_skip()), made from the
 * decoded instructions there, one after another: how many (count) and the
 * registers they write (regs, bit r % 64 of regs[r / 64]); ok false: some
 * of them not decoded (made again once more are: code_n, the table's size then), or rob_entries of
 * them or more. Made again after another instruction came at a pc (changed).
 */
typedef struct timing_skip {
    uint64_t from, to, code_n, changed;
    uint64_t regs[4];
    uint32_t count;
    bool ok;
} timing_skip;

/*
 * Functional warming's in-flight rule (warm_cell(), below): per line the L1d
 * received, direct mapped by edan_memtime_slot() (line + 1, 0: none), the
 * instruction of the request that brought it, the request's kind (a
 * TIMING_WARM_* below, the demand miss's relative to the pc that hits) and
 * the demand miss's pc.
 */
typedef struct timing_wline {
    uint64_t line, ins, pc;
    uint8_t prefetch; /* brought by a prefetch (else a demand miss) */
    uint8_t src;      /* where the request found the line: 1 the L2, ..., the hierarchy's levels (<= 3): memory */
    uint16_t u;       /* a prefetched line's draw in [0, 1), times 2^16 (warm_in_flight()) */
} timing_wline;

/*
 * Per cell (a pc's slot, the kind of request that brought the line, where it
 * found the line, the distance in instructions from it): of the L1d hits the
 * schedule did on a line of the table, how many (seen) and how many found it on its way
 * (on_way), both halved at TIMING_WARM_DECAY; credit: the skips' training
 * counter (warm_in_flight(), below).
 */
typedef struct timing_wcell {
    uint16_t seen, on_way, credit;
} timing_wcell;

struct edan_timing {
    edan_machine m;
    int K, Kp; /* lanes, and lanes padded to a multiple of the step's width */
    int width; /* lanes the step takes at once: 1, or TIMING_LV (AVX2) */
    double lat_ns[MAXK];
    tick cyc, frontend, penalty, serialize, lat[EDAN_CLASS_COUNT], l1i_hit;
    /* a divider's time per operation of div, fdiv, fsqrt (edan_machine_issue_interval()); 0 for the others */
    tick busy[EDAN_CLASS_COUNT];
    int nlev;
    edan_deps *deps;
    /* a batch's true predecessors from the tracker: those of its record i are preds[off[i] .. off[i + 1]) */
    uint64_t preds[PRED_BATCH * 4];
    uint32_t off[PRED_BATCH + 1];
    /*
     * records held until PRED_BATCH of them have come (timing.c, consume()): the model takes the
     * stream in the same chunks whatever the producer's batches, so that its parts, and what
     * miss_ahead() sees of the records after a load, are the same
     */
    edan_exec hold[PRED_BATCH];
    size_t held;
    /*
     * the machine's page placement (edan_machine pages): with first touch, run() hands the model
     * each chunk in hold (copied there when it came whole in a batch), its accesses' addresses made
     * physical in place (analysis/pagemap/pagemap.h), so the caches, the prefetchers and the wrong
     * path see the addresses the machine's caches would
     */
    bool paged;
    edan_pagemap pages;
    /*
     * the kernel's zeroing of a page at the first store to it ([machine] page_zeroing = first-store):
     * run() hands the model the page's lines as the kernel's writes (zero_recs, EDAN_EXEC_KERNEL) just
     * before the store, splitting the chunk there (analysis/zeroing/zeroing.h)
     */
    bool zeroing;
    edan_zeroing zero;
    edan_exec zero_recs[(1u << EDAN_ZEROING_SHIFT) / EDAN_KERNEL_LINE];
    /*
     * each zeroing's fault ([machine] page_fault_ns > 0): its time in cycles, added to every lane's
     * run time and, per static instruction, to the store that faulted (id_side[id].faults) when the
     * results are read; the fault drains the pipeline, so its time overlaps
     * nothing and is the same at every latency
     */
    double fault_cycles;
    /*
     * per static instruction (below id_side_cap): its faults, and its rep string elements folded
     * (run(): the elements after the first in a line, which the model does not schedule)
     */
    struct timing_id_side {
        uint64_t faults, folded;
    } * id_side;
    size_t id_side_cap;
    /*
     * rep strings (EDAN_NATIVE_REP): a string instruction's elements in one line after its first are
     * folded into it, as fast-string microcode moves a line at a time; the instructions (two for
     * movs and cmps) of the last element kept and their lines, fold_prev the last chunk's last
     * record's instruction (a run of one rep instruction's records is folded, nothing across another);
     * folded the region's counts of them, added to the counts when the stream ends (measured and
     * detailed to the sampler's, edan_timing_sample_info_get())
     */
    const edan_insn *fold_insn[2], *fold_prev;
    uint64_t fold_line[2];
    struct {
        uint64_t instructions, loads, stores;
        uint64_t measured, detailed; /* of them, sampled: in a measured unit; in one or its warm-up */
    } folded;
    /* the chunk being scheduled (consume_body()): its records, how many, the current one's index (miss_ahead()) */
    const edan_exec *part;
    size_t part_n, part_j;
    /* per register (edan_reg), the vertex + 1 of its last scheduled writer (step_end()): miss_ahead()'s */
    uint64_t lastw[256];
    /*
     * miss_ahead()'s view of the chunk (ahead_fill()), made as far as a miss needs it (ah_done records)
     * for chunk number ah_chunk (chunk_no counts consume_body()'s chunks): per record, the next record
     * that accesses its line (part_n: none) and 1 + the last record up to it that ends a look (outside
     * the region, serializing; 0: none); a table of lines, its entries valid in generation ah_gen
     */
    uint16_t ah_next[PRED_BATCH], ah_brk[PRED_BATCH];
    uint64_t ah_line[AH_SLOTS];
    uint32_t ah_line_gen[AH_SLOTS], ah_gen;
    uint16_t ah_line_at[AH_SLOTS], ah_last_brk;
    size_t ah_done;
    uint64_t chunk_no, ah_chunk;
    /*
     * miss_ahead()'s record whose request came first in the prefetchers' lane (memtime.h's pf.lane), part_n:
     * none; and per record, chunk_no + 1 when a load before it trained the prefetchers with its access
     * (the younger load of a line that reaches the L1d first is the one gem5's prefetcher hears of)
     */
    size_t ah_first;
    uint64_t pf_ahead[PRED_BATCH];
    edan_cache dc, ic;     /* data hierarchy; the L1i (its misses go to dc's level 1) */
    edan_cache tlb;        /* [dtlb]'s two levels, pages as lines (has_tlb) */
    bool has_tlb, tlb_ok;  /* a [dtlb]; tlb initialised */
    tick tlb_l2, tlb_walk; /* a first-level miss's time, a walk's */
    bool dc_ok, ic_ok;
    uint32_t line_shift;
    uint64_t iline; /* the line fetch is in, + 1; 0 before the first */
    /* the block (fetch_block_bytes) fetch read last, + 1 */
    uint64_t fblock;
    lanes ftaken_at, ftaken_n; /* the fetch cycle whose taken branches ftaken_n counts */
    edan_predictor bp;
    timing_prev prev; /* what fetch knows of the previous record (timing_shared.h, record_end()) */
    /*
     * wrong-path fetch (timing_shared.h, wrong_path_fetch()): the bytes of the predicted path fetch reads
     * before a mispredicted branch resolves; the last line it read into the L1i + 1 (0: none on its way)
     * and when that line is there in each lane; the control-flow instructions seen, direct mapped by pc:
     * pc * 2 + 1 for a conditional branch, pc * 2 for a jump, call or return (where a wrong path may leave);
     * wp_ram: that line came from memory (the right path's wait for it is memory stall)
     */
    uint64_t wp_bytes, wp_line;
    bool wp_ram;
    lanes wp_fill;
    uint64_t wp_ctl[WP_CTL];
    /*
     * wrong-path loads (timing_ahead.h, wrong_path_loads()): the lines the wrong path of the last
     * mispredicted branches requested, by slot and lane (wpl_req[slot * Kp + k], each lane's its own:
     * which lines a lane's wrong path requested depends on its times); the wrong path's records' finish
     * times (wpl_done[d * Kp + k], d below rob_entries) and, per register, the wrong-path record that
     * wrote it last (wpl_reg + 1, WPL_OTHER: a record only the right path runs, WPL_BEFORE: the value
     * before the branch; valid where wpl_reg_gen is wpl_gen) and its value's offset from the right
     * path's at the same record (wpl_off, valid with wpl_reg)
     */
    timing_wpl_req *wpl_req;
    tick *wpl_done;
    int64_t wpl_off[256];
    uint16_t wpl_reg[256];
    uint32_t wpl_reg_gen[256], wpl_gen;
    bool wpl_any; /* some slot holds a line */
    /*
     * the RISC-V instructions decoded (timing.c): code by pc (tag 0) to the edan_insn, made at the
     * first; code_changed counts those that replaced another of other registers or size; the skipped byte
     * ranges the wrong path took (SKIP_SLOTS, direct mapped)
     */
    edan_keymap code;
    uint64_t code_changed;
    timing_skip *skips;
    /*
     * the last R >= rob_entries + 1 vertices' finish times (F, by vertex v)
     * and micro-operations' commit times (C, by micro-operation u: the
     * reorder buffer holds micro-operations, one per vertex but for those the
     * decoder split, edan_insn.uops). These and lq, sq, st_write are rows of
     * Kp times, [i * Kp + k] (ROW()): packed, so that with few lanes the
     * window takes few cache lines.
     */
    uint32_t rmask;
    tick *F, *C;
    /*
     * an in-order core's (INORDER(), else NULL): each vertex's commit (its last
     * micro-operation's), by v, as F; its memory accesses wait for their register
     * predecessors' (inorder_access(), timing_inorder.h)
     */
    tick *Cx;
    const edan_insn **win_insn; /* per window entry (by v): its instruction (what a split one's predecessor wrote) */
    tick *lq, *sq; /* the commit of each load in the load queue, the write of each store in the store queue */
    /*
     * each store queue entry's store writes a line that came from memory (the
     * same in every lane): a store held at dispatch by a full queue whose
     * oldest entry is one waits on memory (its commit's wait is stall)
     */
    uint8_t *sq_ram;
    _Alignas(32) tick sq_held[MAXK]; /* the step's store held by such a queue: all ones in its lanes (sq_held()) */
    uint32_t lq_at, sq_at;
    uint64_t v, u, n_loads, n_stores; /* vertices, micro-operations, loads and stores scheduled */
    slots fetch, disp, commit;
    slots issue; /* an in-order core's starts, in program order (timing_inorder.h); unused out of order */
    lanes last_commit, drain, stall;
    lanes refetch; /* a memory-order violation squashed the window: fetch starts again no earlier */
    /* a load that violated in the prefetchers' lane (memtime.h's pf.lane): its squashed start + 1, 0 none */
    tick ss_early;
    /* after a serializing vertex (timing_lanes.h, serializing()): the next dispatches no earlier */
    lanes serial_at;
    bool serial_next;
    /*
     * The issue queue (docs/model.md): an instruction dispatched at d that
     * leaves it at out holds an entry until cycle c = ceil(out / cycle)
     * when out > d and c > the cycle of d. A dispatch at d in cycle m finds
     * the entries with c > m taken; with iq_entries taken it waits until
     * the cycle the first of them frees. Kept per vector of lanes (from lane
     * j on, j a multiple of the width) as a list of the vertices that hold
     * an entry in one of its lanes: rows of the width's c (0 where a lane
     * holds none), iq_list[j * iq_cap + i * width + lane], iq_n[j] of them.
     * A row goes when every lane's entry is free (its c at most the lane's
     * cycle); the list is counted only when iq_held, a bound on what a lane
     * holds, reaches the size. A count also finds the first cycle an entry
     * it counted frees in (iq_first).
     */
    tick *iq_list;
    uint64_t iq_cap, iq_span;
    uint32_t iq_n[MAXK];
    lanes iq_held, iq_first;
    lanes real; /* all ones in the K real lanes, 0 in the padded ones */
    /* per window entry, for a store: its size (0: not a store), address and when it goes to the L1d */
    uint8_t *stores;
    uint64_t *st_addr;
    tick *st_write;
    tick *div_units[2]; /* rows [u * Kp + k]: when each integer (0) or FP (1) divider u is free */
    edan_memtime mem;   /* the hierarchy's times */
    bool mem_ok;
    edan_prefetcher pf; /* the data caches' prefetchers, on dc (pf.any false: none) */
    bool pf_ok;
    /*
     * Functional warming's in-flight rule (warm_cell(), below), with sampling on a
     * machine with a prefetcher (else both NULL): the lines the L1d received,
     * [edan_memtime_slot(line)], and what the schedule learned, per cell.
     */
    timing_wline *wline;
    timing_wcell *wcell;
    uint16_t wdraw; /* the last prefetched line's draw (timing_wline's u): a golden-ratio sequence */
    /*
     * memory-dependence prediction (store sets, as gem5's): per block (direct
     * mapped, timing_ss_block) its last store; per pc the set + 1 (SSIT); per
     * set the vertex + 1 of its last store (LFST); SSIT and LFST per lane:
     * [entry * K + k]
     */
    timing_ss_block *ss_blocks;
    uint32_t *ssit;
    uint32_t *ssit_lanes; /* per SSIT entry, bit k: the entry's set in lane k is not 0 */
    /* per (load, store) pair of SSIT entries (ss_pair()), bit k: it violated in lane k's schedule; never forgotten */
    uint32_t *ss_pairs;
    /*
     * per ss_pairs entry, the pair ss_join_known() last left in one set in its lanes, and the generation then;
     * ss_gen grows at each change of ssit (ss_join(), store_sets_clear()); 0 is none
     */
    timing_ss_known *ss_known;
    uint32_t ss_gen;
    uint64_t *lfst;
    uint32_t ss_shift;
    uint64_t ss_mem_ops;
    uint64_t ss_clear_at; /* the next multiple of SS_CLEAR_PERIOD above ss_mem_ops: the next clearing */
    uint64_t epoch_at;    /* the record (t->n.instructions) + 1 of the current epoch's first line (ram_epochs) */
    uint32_t epoch_lines; /* the lines from memory in it */
    /*
     * attribution per static instruction id: id_time / id_stall [id * Kp + k]; id_n is one more than the highest id
     * whose row was filled (fdesc_fill()), so every id at or above it has no count: the ends' loops go to id_n, not
     * over the capacity's pages never touched (util/zgrow.h)
     */
    size_t id_cap, id_n;
    tick *id_time, *id_stall;
    uint64_t *id_count, *id_pc;
    timing_fdesc *fdesc; /* by id: what the step reads of each static instruction (timing_shared.h, fdesc_of()) */
    edan_timing_counts n;
    edan_error err;
    /* attribution goes to id_time and stall only while measuring (always, unsampled); else to junk */
    bool measuring;
    /* sampled: the id whose step counts a memory line or epoch (aux_count()); aux_off: outside the region */
    uint32_t aux_id;
    bool aux_off;
    lanes junk, junk_stall;
    timing_sampler smp;
    /*
     * the schedule dump (timing_dump.h): NULL, off; the dump build of the
     * step runs while the vertices are before dump_end, its window's end (0
     * without a dump)
     */
    struct timing_dump *dump;
    uint64_t dump_end;
    /*
     * Lane groups on threads (timing_groups.c). n_groups 0: this is a model
     * and runs the step. Else it runs nothing itself: group g, a model of its
     * own, holds lanes [group_base[g], group_base[g + 1]), whole vectors of
     * TIMING_LV lanes; group 0 runs on the consumer's thread, every other on
     * the thread of its feed, each batch lent to it (trace/async.h).
     */
    int n_groups;
    struct edan_timing *group[TIMING_MAX_GROUPS];
    edan_async *feed[TIMING_MAX_GROUPS];
    int group_base[TIMING_MAX_GROUPS + 1];
};

/*
 * The lanes the step takes at once for K lanes on this CPU: TIMING_LV (the
 * AVX2 build, timing_step4.c; timing_step4k.c and timing_step8k.c when the lanes are one or two vectors)
 * for more than one lane where the CPU has AVX2 and EDAN_NO_AVX2 is not set
 * (the tests run both), else 1 (timing_step.c).
 */
int edan_timing_width(int K);
/* The stream's records recs[0..n) through the model, one lane or TIMING_LV at a time (err set on failure). */
void edan_timing_consume_1(edan_timing *t, const edan_exec *recs, size_t n);
void edan_timing_consume_4(edan_timing *t, const edan_exec *recs, size_t n);
void edan_timing_consume_4k(edan_timing *t, const edan_exec *recs, size_t n);
void edan_timing_consume_8k(edan_timing *t, const edan_exec *recs, size_t n);
/* The build of the step with the schedule dump's hooks (timing_step_dump.c), and the dump's end (timing_dump.c). */
void edan_timing_consume_dump(edan_timing *t, const edan_exec *recs, size_t n);
void edan_timing_dump_free(edan_timing *t);
/* A model's state zeroed but its machine, lanes and latencies; NULL with err set for a machine or a
 * count of latencies the model cannot take (timing.c). */
edan_timing *edan_timing_alloc(const edan_machine *m, const double *lat_ns, int n, edan_error *err);
/* A parent of lane groups (timing_groups.c): its consumer, finish and free. */
void edan_timing_consume_groups(edan_timing *t, const edan_exec *recs, size_t n);
int edan_timing_finish_groups(edan_timing *t);
void edan_timing_free_groups(edan_timing *t);
/* Instruction in decoded at its pc (timing.c): 0, or -1 (err set) out of memory. */
int edan_timing_code_add(edan_timing *t, const edan_insn *in);
/* What the bytes [from, to) hold (timing_skip): NULL when not known (or out of memory: err set). */
const timing_skip *edan_timing_skip(edan_timing *t, uint64_t from, uint64_t to);
void edan_timing_code_free(edan_timing *t);
/* The sampler's next phase, when the current one has no records left (timing_sample.c). */
void edan_timing_sample_next(edan_timing *t);
/* After the stream: the last unit, the estimates. */
/* edan_timing_estimate(), and the coefficients b[EDAN_TIMING_AUX] it priced the missed counts with (0: not fitted) */
double edan_timing_estimate_b(size_t n, const uint64_t *measured, const uint64_t *stands, const uint32_t *stratum,
                              const uint64_t *aux_unit, const uint64_t *aux_stands, const double *y, size_t stride,
                              double *half, double *b);
/* The last unit's attribution into the estimates (timing_sample.c): at the next unit's first record. */
void edan_timing_fold_unit(edan_timing *t);
void edan_timing_sample_close(edan_timing *t);
void edan_timing_sample_free(edan_timing *t);
/* After the stream: the records held for a whole chunk (timing.c, consume()), scheduled. */
void edan_timing_flush(edan_timing *t);
/* After the stream: the counts that are complete only then (the prefetches evicted unused). */
void edan_timing_close_counts(edan_timing *t);
/* The model holding lane *k (t itself, or a parent's group), *k set to the lane's index in it. */
const edan_timing *edan_timing_group_of(const edan_timing *t, int *k);

/*
 * Functional warming's in-flight rule: which L1d hits of a skip train the
 * prefetchers as hits on a line still on its way (prefetch.h, gem5's MSHR
 * hit). The schedule decides it with a time (memtime.h,
 * edan_memtime_pf_in_flight()); a skip has none, and training on none of
 * them (the rule before) changes whether a stream locks: a stride-8 stream
 * whose every other access finds its line on its way never locks in the
 * schedule and locks in warming (NPB MG's), a stride-64 stream whose hits on
 * lines another load just asked for keep it locked in the schedule unlocks
 * in warming (olden tsp's), and the skips' counts the estimator prices
 * (timing_sample.c) come from the other history: the stride machine's
 * sampled slopes were 4 and 25 % off --exact's on those two.
 *
 * So the skips take the decision the schedule made in the same place: per
 * line the L1d received, the instruction of its request, whether a demand
 * miss or a prefetch brought it, where the request found it and the demand
 * miss's pc (t->wline); the schedule's L1d hits on such a line count, per
 * cell (the hitting pc's slot, the request's kind: the pc's own demand miss,
 * another pc's, a prefetch; its source: the L2, an L3, memory; the
 * instructions since the request, log2 buckets), how many there were and
 * how many it found on their way (t->wcell, warm_learn()); a skip's L1d hit
 * on such a line trains as on its way at its cell's rate, and one whose
 * cell the schedule never filled does not (the rule before). At the rate:
 * on a line a demand miss brought, by the cell's deterministic credit
 * counter, hit by hit; on a prefetched line, by one draw for the line (a
 * golden-ratio sequence over the prefetched lines), on its way while the
 * draw lies below the rate of the hit's distance, so that its hits on their
 * way come first and in a run, as a late prefetch's do (warm_in_flight()).
 * The source keeps apart a line on its way for a dozen cycles (the L2's)
 * from one on its way for hundreds (memory's), which a stream hits at the
 * same distances (in one cell spills.2mm's stride-8 row walk unlocked in
 * the skips). The draw keeps a late prefetched line's run of hits on their
 * way whole, where a credit counter spreads it over the lines' hits. The
 * credit counter stays for the demand misses' lines: one draw per line
 * locked the stream of NPB MG's kind (timing_sample_prefetch.c) that the
 * schedule keeps unlocked. docs/model.md has the figures. The schedule's
 * stretches are the units, their warm-ups and the exact start. No time and
 * no constant per program: the distance in instructions tells a stream's
 * next access one iteration after its miss (on its way) from the one two
 * iterations after (there).
 */
#define TIMING_WARM_PCS 1024   /* the cells' pc slots */
#define TIMING_WARM_KINDS 3    /* the request: the hitting pc's own demand miss, another pc's, a prefetch */
#define TIMING_WARM_BUCKETS 16 /* instructions since the request: 0-1, 2-3, 4-7, ..., 2^15 and more */
#define TIMING_WARM_SRCS EDAN_MACHINE_MAX_DATA_LEVELS /* where the request found the line: the L2, an L3, memory */
#define TIMING_WARM_GOLDEN 40503 /* 2^16 (sqrt(5) - 1) / 2: the prefetched lines' draws, a golden-ratio sequence */

#define TIMING_WARM_DECAY 1024 /* a cell's counts halve when seen reaches it: the recent ones count most */

/* The cell of an L1d hit by pc on line at the current instruction, NULL when the table holds no request of the line. */
static inline timing_wcell *warm_cell(edan_timing *t, uint64_t pc, uint64_t line, timing_wline **wp)
{
    timing_wline *w = &t->wline[edan_memtime_slot(line)];
    if (w->line != line + 1)
        return NULL;
    if (wp)
        *wp = w;
    const uint64_t d = t->n.instructions - w->ins;
    uint32_t b = d < 2 ? 0 : 63u - (uint32_t)__builtin_clzll(d);
    if (b >= TIMING_WARM_BUCKETS)
        b = TIMING_WARM_BUCKETS - 1;
    const uint32_t kind = w->prefetch ? 2 : w->pc != pc;
    const size_t slot = edan_memtime_slot(pc) & (TIMING_WARM_PCS - 1);
    return &t->wcell[((slot * TIMING_WARM_KINDS + kind) * TIMING_WARM_SRCS + (w->src - 1u)) * TIMING_WARM_BUCKETS + b];
}

/* A scheduled access (r) of pc: an L1d hit counts into its cell, with the schedule's decision in_flight. */
static inline void warm_learn(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r, bool in_flight)
{
    timing_wcell *c = r->level == 0 ? warm_cell(t, pc, addr >> t->line_shift, NULL) : NULL;
    if (!c)
        return;
    if (c->seen >= TIMING_WARM_DECAY) {
        c->seen /= 2;
        c->on_way /= 2;
        c->credit /= 2;
    }
    c->seen++;
    c->on_way += in_flight;
}

/* A skipped access (r) of pc: whether it trains as an L1d hit on its line on its way (at its cell's rate). */
static inline bool warm_in_flight(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r)
{
    timing_wline *w;
    timing_wcell *c = r->level == 0 ? warm_cell(t, pc, addr >> t->line_shift, &w) : NULL;
    if (!c || !c->seen)
        return false;
    if (w->prefetch) /* one draw for the line: its hits on their way come first, in a run */
        return (uint32_t)w->u * c->seen < (uint32_t)c->on_way << 16;
    c->credit += c->on_way; /* < 2 * TIMING_WARM_DECAY */
    if (c->credit < c->seen)
        return false;
    c->credit -= c->seen;
    return true;
}

/* After an access (r) of pc and its n prefetches (t->pf.issue): the lines they bring to the L1d, requested now. */
static inline void warm_note(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r, uint32_t n)
{
    if (r->level > 0) {
        const uint64_t line = addr >> t->line_shift;
        t->wline[edan_memtime_slot(line)] = (timing_wline){line + 1, t->n.instructions, pc, 0, (uint8_t)r->level, 0};
    }
    for (uint32_t i = 0; i < n; i++) {
        const edan_prefetch_issue *pi = &t->pf.issue[i];
        if (pi->level == 0)
            t->wline[edan_memtime_slot(pi->line)] =
                (timing_wline){pi->line + 1, t->n.instructions, pc, 1, pi->src, t->wdraw += TIMING_WARM_GOLDEN};
    }
}

#endif
