/*
 * edag.h - the streaming eDAG analyzer: one pass over the instruction stream
 * computes every eDAG metric without building the graph.
 *
 * Semantics (the specification is sections 2-3 of the EDAN paper):
 *  - a vertex per executed instruction; edges are true (read-after-write)
 *    dependencies through x/f registers (x0 never) and through memory at byte
 *    granularity: a load depends on the last store to each byte it reads, an
 *    AMO reads and then writes its bytes. With false_deps, write-after-read
 *    and write-after-write edges are added too (for registers and memory).
 *    Control dependencies are ignored.
 *  - S(v) = max F(u) over predecessors (0 for inputs), F(v) = S(v) + t(v);
 *    T1 = sum t(v), Tinf = max F(v).
 *  - a memory-access vertex is a load or store that reaches RAM (cache.h says
 *    exactly when); md(v) = max md(u) over predecessors + [v is one]. A
 *    memory-access vertex v lies in layer md(v); D = max md, W = their count.
 *    This longest-path layering is the paper's recursive definition made
 *    unambiguous: every vertex in layer i+1 is reachable from layer i without
 *    passing through another memory-access vertex, and no two vertices of one
 *    layer are ordered, so each layer can be issued at once.
 *  - w(v), the bytes v moves between CPU and RAM: in the default "access"
 *    mode, the access size for each part of v that reaches RAM (a load that
 *    misses, a store written to RAM; an AMO can do both); 0 otherwise. In
 *    "line" mode, every byte moved between the last cache level and RAM
 *    because of v: line fills, write-backs of dirty victims, write-through
 *    stores. Without a cache both modes count the access size.
 *  - Trace order is a topological order, so one pass with per-register and
 *    per-byte "last writer" state gives exactly the metrics of the eDAG.
 *
 * Lanes: one pass evaluates several (cache, cost) configurations at once.
 * Each lane has its own cache, registers and shadow state; groups of lanes
 * can run on threads of their own (edan_edag_config.threads).
 */
#ifndef EDAN_ANALYSIS_EDAG_H
#define EDAN_ANALYSIS_EDAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/cache/cache.h"
#include "analysis/edag/cost.h"
#include "analysis/edag/edag_rule.h"
#include "analysis/edag/layers.h"
#include "trace/exec.h"
#include "util/error.h"

#define EDAN_MAX_LANES 32
#define EDAN_MAX_TAUS 8

typedef enum edan_bytes_mode { EDAN_BYTES_ACCESS = 0, EDAN_BYTES_LINE = 1 } edan_bytes_mode;

/*
 * Which vertices a lane counts. All by default. For a per-function breakdown
 * a lane can count only the vertices of one function: EXCLUSIVE, those whose
 * pc lies in one of its ranges; INCLUSIVE, those executed while it is active
 * (entered at a range's first address and not yet returned, callees
 * included). Dependencies and times stay those of the whole eDAG; W, D, the
 * layers, C, T1 and the bytes count members only, so D is the largest number
 * of the function's memory-access vertices on one path.
 */
enum { EDAN_SCOPE_ALL = 0, EDAN_SCOPE_EXCLUSIVE, EDAN_SCOPE_INCLUSIVE };
#define EDAN_MAX_SCOPE_RANGES 8

typedef struct edan_lane_config {
    edan_cache_config cache;
    edan_cost_model cost;
    int scope;
    int n_ranges;
    uint64_t range_lo[EDAN_MAX_SCOPE_RANGES], range_hi[EDAN_MAX_SCOPE_RANGES]; /* [lo, hi) */
} edan_lane_config;

/* The scoped lanes of cfg (the first n) an instruction at pc belongs to (EXCLUSIVE: in one of their ranges), and in
 * *entry those it enters (INCLUSIVE: at the first address of one of their ranges). */
static inline uint32_t edan_lane_members(const edan_lane_config *lane, int n, uint64_t pc, uint32_t *entry)
{
    uint32_t m = 0;
    *entry = 0;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < lane[k].n_ranges; j++) {
            if (lane[k].scope == EDAN_SCOPE_EXCLUSIVE && pc >= lane[k].range_lo[j] && pc < lane[k].range_hi[j])
                m |= 1u << k;
            if (lane[k].scope == EDAN_SCOPE_INCLUSIVE && pc == lane[k].range_lo[j])
                *entry |= 1u << k;
        }
    return m;
}

/* Add [lo, hi) to a scoped lane's ranges: 0, or -1 when it has EDAN_MAX_SCOPE_RANGES already. */
static inline int edan_lane_add_range(edan_lane_config *l, uint64_t lo, uint64_t hi)
{
    if (l->n_ranges >= EDAN_MAX_SCOPE_RANGES)
        return -1;
    l->range_lo[l->n_ranges] = lo;
    l->range_hi[l->n_ranges++] = hi;
    return 0;
}

typedef struct edan_edag_config {
    int n_lanes;
    edan_lane_config lane[EDAN_MAX_LANES];
    bool false_deps;
    edan_bytes_mode bytes_mode;
    int n_tau;
    uint64_t tau[EDAN_MAX_TAUS]; /* phase length in cycles; 0 = automatic */
    uint32_t max_phases;         /* a series never has more phases: tau doubles instead (0 = default) */
    /*
     * Threads that share the lanes: lanes are independent, so a sweep splits
     * them into groups (lanes with the same cache stay together, sharing its
     * simulation), each analysed by its own thread from a copy of the stream;
     * the caller's thread takes the first group. Results are the same for any
     * value. 0: one thread per core the process may run on; 1: no threads.
     */
    int threads;
    /*
     * Tests only: the sweep loop's portable build even where the AVX2 one
     * would run (both must give the same results).
     */
    bool portable;
    /*
     * Tests only: lookups after which a sparse shadow page is made full, and
     * of inline pages between two made sparse (0: shadow.h's
     * EDAN_SHADOW_SPARSE_HOT and EDAN_SHADOW_INLINE_HOT).
     */
    uint32_t shadow_sparse_hot;
    /* Tests only: bits of md an inline shadow page keeps, 1 to 21 (0: 21, shadow.h's EDAN_SHADOW_INLINE_MAX_MD). */
    uint32_t shadow_inline_md_bits;
} edan_edag_config;

void edan_edag_config_default(edan_edag_config *c);

/*
 * Data movement over time for one tau. The paper's U_i (Eq. 6-7) samples time
 * tau*i: U_i = sum of w(v) over vertices with S(v) <= tau*i <= F(v), for
 * i = 0 .. n-1, n = ceil(Tinf / tau). It is a sample, so a short vertex may
 * fall between two samples. `started` is the conserving companion: bytes of
 * the vertices whose start time lies in [tau*i, tau*(i+1)); it sums to the
 * total bytes moved.
 */
typedef struct edan_series {
    uint64_t requested_tau; /* 0 = automatic */
    uint64_t tau;           /* effective: a power-of-two multiple of the request when coarsened */
    size_t n;               /* phases */
    uint64_t *U;            /* n entries, after finish */
    uint64_t *started;      /* n entries */
    /* while streaming */
    size_t cap, max_phases;
    int64_t *u_diff;
    int tau_shift; /* log2(tau) when tau is a power of two, else -1: shifts instead of divisions */
} edan_series;

typedef struct edan_lane_stats {
    uint64_t vertices;              /* executed instructions analysed (members only for a scoped lane) */
    uint64_t T1, Tinf;              /* work and span in cycles */
    uint64_t W, D;                  /* memory work and memory depth */
    edan_layers layers;             /* W_i for i = 1..D: edan_layers_get(&st->layers, i) */
    uint64_t C;                     /* total cost of non-memory-access vertices */
    uint64_t bytes;                 /* sum of w(v) */
    uint64_t loads, stores, amos;   /* instructions that accessed memory, by kind */
    uint64_t ram_loads, ram_stores; /* memory-access vertices that read / wrote RAM */
    uint64_t class_count[EDAN_CLASS_COUNT];
    uint64_t cache_hits[EDAN_CACHE_MAX_LEVELS], cache_misses[EDAN_CACHE_MAX_LEVELS];
    uint64_t ram_read_bytes, ram_write_bytes; /* line-level traffic seen by the cache model */
    int n_series;
    edan_series series[EDAN_MAX_TAUS];
} edan_lane_stats;

typedef struct edan_edag edan_edag;

edan_edag *edan_edag_new(const edan_edag_config *cfg, edan_error *err);
void edan_edag_free(edan_edag *e);
/* edan_consumer-compatible. */
void edan_edag_consume(void *e, const edan_exec *recs, size_t n);
/* Materialises the series. Returns 0, or -1 (see edan_edag_error). */
int edan_edag_finish(void *e);
edan_consumer edan_edag_consumer(edan_edag *e);
/*
 * The stream will hold no warm record (trace/exec.h: a source without a filter, or --cold): each batch is
 * measured whole, without the pass over its records that splits it into warm and measured runs.
 */
void edan_edag_no_warm_records(edan_edag *e);
/*
 * Each batch of the stream is all warm records or none (report.h, edan_report_source.warm_on_demand: the kernel's
 * writes of an unfiltered run): its first record says which, with no pass over the others.
 */
void edan_edag_warm_batches(edan_edag *e);
const edan_error *edan_edag_error(const edan_edag *e);

int edan_edag_n_lanes(const edan_edag *e);
const edan_lane_stats *edan_edag_lane(const edan_edag *e, int k);
const edan_edag_config *edan_edag_get_config(const edan_edag *e);
/*
 * Between batches, add [lo, hi) to scoped lane k's ranges (a shared library's function, known once the library
 * is mapped): the static instructions first executed after it see it. 0, or -1 when the lane has
 * EDAN_MAX_SCOPE_RANGES already or the analyzer runs lanes in groups on threads (cfg.threads: give it one).
 */
int edan_edag_add_range(edan_edag *e, int k, uint64_t lo, uint64_t hi);
/* Static instruction ids are below edan_edag_static_ids(); executions of id so far, and *insn (NULL if never seen). */
size_t edan_edag_static_ids(const edan_edag *e);
uint64_t edan_edag_static_count(const edan_edag *e, size_t id, const edan_insn **insn);
/* Bytes of guest memory touched by loads and stores (4 KiB pages). */
uint64_t edan_edag_footprint(const edan_edag *e);
/* Tests only: the analyzer's shadow memory (shadow.h; a sweep's first group's), to see which layouts a trace went
 * through. */
const struct edan_shadow *edan_edag_shadow(const edan_edag *e);

#endif
