/*
 * projection_tables.h - the projection's rows and the structs its text, CSV
 * and JSON tables are bound to, declared in projection_tables.c
 * (report/table.h): the region, its functions, loops and the code outside
 * loops with their numbers; ExaSAT's Table 1 and the sweep's CSV (a row per
 * loop, the code outside loops and the total, per machine configuration);
 * the memory regions; the what-ifs' nests, pairs and plans.
 */
#ifndef EDAN_TOOL_GRAPH_PROJECTION_TABLES_H
#define EDAN_TOOL_GRAPH_PROJECTION_TABLES_H

#include "analysis/loops/loops.h"
#include "analysis/machine/machine.h"
#include "analysis/projection/projection.h"
#include "analysis/timing/timing.h"
#include "analysis/whatif/whatif.h"
#include "config/options.h"
#include "report/table.h"

#define PROJ_MAX_MODELS EDAN_MAX_CACHES /* --cache configurations whose traffic is counted */

/* A row of the report: the region, a function, a loop, or the code outside every loop. */
typedef struct proj_row {
    edan_opmix mix;
    edan_lru_traffic lru;
    uint64_t model_read[PROJ_MAX_MODELS], model_write[PROJ_MAX_MODELS];
    uint64_t model_flush[PROJ_MAX_MODELS];    /* of model_write: the final flush of the lines dirty at the end */
    uint64_t iterations;                      /* a loop's: executions of its head */
    int32_t loop;                             /* a loop's id, -1 otherwise */
    uint32_t region;                          /* a region's row: its index in the regions */
    double cycles[EDAN_TIMING_MAX_LATENCIES]; /* with the timing model: the cycles of its instructions per latency */
    const char *name;                         /* a function's name (NULL: outside every known function) */
} proj_row;

/*
 * A row of ExaSAT's Table 1 (--table) and of the sweep's CSV
 * (--projection-csv): edan_na() is an empty field (text: blanks).
 */
typedef struct proj_exasat_row {
    uint64_t config;               /* the sweep's configuration, from 1 */
    double machine[7];             /* its cache bytes, bandwidth, peak, cores, div, sqrt, transcendental weights */
    const char *procedure;         /* the loop's function ("?": unknown), "(outside loops)" or "Total/Max" */
    double line, loop, iterations; /* a loop's */
    double add, mul, div, exp;     /* a loop's per iteration, ExaSAT's: an FMA one add and one multiply */
    double ws_kb, traffic_gb, weighted_gflop, bytes_per_flop, time_compute_ms, time_memory_ms, time_ms;
    const char *bound;                             /* "memory" or "compute" */
    double level_gb[EDAN_MACHINE_MAX_DATA_LEVELS]; /* the traffic below each data level (NA: none) */
} proj_exasat_row;

/* A memory region's row (JSON "projection.regions", text, --projection-regions-csv). */
typedef struct proj_region_row {
    const char *name, *kind;
    uint64_t loads, stores, load_bytes, store_bytes, block_accesses;
    double read_write; /* bytes read / bytes written; NaN when nothing was written */
    uint64_t lines;    /* distinct lines: the first touches made through this region */
    double working_set, rd, wr, flushed, dram;
} proj_region_row;

/*
 * A what-if's row: a plan (scheme and tile) at a cache size (JSON
 * "projection.what_if.rows", text, --what-if-csv). Each number once, in its
 * JSON unit (bytes, seconds, flops): the table's columns show it in text's
 * and CSV's (projection_tables.c).
 */
typedef struct proj_wi_row {
    const char *scheme;
    uint64_t tile;           /* 0: none (fusion, the untransformed order) */
    double cache_bytes;      /* the cache size */
    const char *cache_model; /* the machine's hierarchy at that size (--what-if-cache=machine; NULL: LRU) */
    double as_run, measured; /* DRAM bytes of the code as run replayed, and as measured (NaN: no --cache matches) */
    bool legal, best;        /* best: the least projected time of the legal plans at the cache */
    const char *illegal;     /* text: "illegal", NULL for a legal plan */
    const char *best_text;   /* text: " best" or "" */
    const char *reason;      /* the dependence an illegal plan breaks (NULL: legal) */
    uint64_t halo;           /* the tile scheme's recomputed iterations */
    double halo_flops, halo_wflops;
    double halo_bytes; /* the halo's DRAM bytes (NaN: illegal) */
    double added;      /* instructions the plan adds */
    double overhead_s; /* their time */
    double weighted_flops;
    double exposed_s;                    /* the loads' exposed wait in time_s (NaN: illegal) */
    double dram, bytes_per_flop, time_s; /* NaN (bytes_per_flop NA): illegal */
    const char *bound;                   /* NULL: illegal */
    char why[640];
} proj_wi_row;

/* A latency of the timing model's prediction: JSON's arrays "prediction.*" read each member, text a line each. */
typedef struct proj_prediction {
    double mem_latency_ns, seconds;
} proj_prediction;

/* The whole region's JSON members beside its numbers (in its proj_total_view). */
typedef struct proj_summary {
    edan_machine machine;
    const char *machine_file;
    const char *source, *cache; /* the traffic's: "lru" or "cache", and the cache */
    double cache_bytes;         /* the LRU cache's (NaN: a cache model) */
    uint64_t line_bytes;
    double time_sum_of_parts;                                       /* ExaSAT's sum over loops */
    const edan_table *lambda, *levels, *caches, *functions, *loops; /* functions NULL: without symbols */
    bool has_prediction;                                            /* the timing model ran */
    proj_prediction prediction[EDAN_TIMING_MAX_LATENCIES];          /* its latencies */
    size_t n_prediction;
    double curve[4][EDAN_LRU_SIZES]; /* the traffic curve: cache bytes, read, write, dirty at the end bytes */
    size_t n_curve;
    /* text */
    const char *cores_s;              /* "s" after "core", or "" */
    uint64_t libm_calls, stack_bytes; /* transcendental and sqrt calls; the stack's bytes loaded and stored */
} proj_summary;

/*
 * A row's numbers beside its operation mix (source 0 of a row of the region,
 * a function, a loop, the code outside loops; source 1 is its proj_row): its
 * bound and traffic, a loop's place, text's label; the region's other members.
 */
typedef struct proj_row_view {
    char label[1100];
    const char *name; /* a function's, the code outside loops' */
    edan_loop_place place;
    edan_loop loop;
    edan_proj p;
    double rd, wr, fl, working_set, peak, bandwidth;
    const char *bound;
    bool has_model; /* the timing model's cycles and seconds per latency */
    double cycles[EDAN_TIMING_MAX_LATENCIES], sec[EDAN_TIMING_MAX_LATENCIES], model_s;
    size_t n_model;
    bool has_lambda;  /* a function's: --per-function's row names it */
    double lambda[2]; /* its lambda exclusive and inclusive */
} proj_row_view;

/* The region's row: its numbers (at the same offsets as any row's), its other members. */
typedef struct proj_total_view {
    proj_row_view v;
    proj_summary sum;
} proj_total_view;

/* lambda of an eDAG configuration at the first m (JSON "projection.lambda"). */
typedef struct proj_lambda_row {
    char configuration[256];
    uint64_t m, W, D;
    double lambda;
} proj_lambda_row;

/* The traffic below a data level of the machine (JSON "projection.levels"). */
typedef struct proj_level_row {
    const char *name;
    uint64_t cache_bytes;
    double read_bytes, write_bytes, dirty_at_end_bytes;
} proj_level_row;

/* The region's bound at a --cache configuration (JSON "projection.caches"). */
typedef struct proj_cache_row {
    const char *cache;
    double dram_read_bytes, dram_write_bytes, dirty_at_end_bytes, dram_bytes, time_memory_s, time_s;
    const char *bound;
} proj_cache_row;

/*
 * ExaSAT's register model of a nest's body (projection_registers.c): the
 * state variables with their accesses per iteration, the most accessed ones
 * in the registers, the accesses of the others spilled to the cache.
 */
#define PROJ_REGS 8 /* register counts of the register model */
typedef struct proj_regs {
    int32_t loop;                 /* the body: the chain's innermost loop */
    uint64_t iterations;          /* executions of its head */
    unsigned used[2];             /* registers the body names: integer, FP */
    unsigned memory_state;        /* state variables in memory: addresses invariant in the body (not the stack) */
    double stack;                 /* sp-relative accesses per iteration: the compiled code's own spills */
    double spilled[2][PROJ_REGS]; /* per register count: accesses per iteration spilled, integer and FP */
} proj_regs;

/*
 * A nest of the what-ifs (JSON "projection.what_if.nests"; source 1 its
 * edan_affine_nest): its place, whether it is replayed, its register model,
 * its levels' bounds and its instructions (tables of their own).
 */
typedef struct proj_bound_row {
    int64_t base;                        /* a bounded level's trip count at outer counters 0 */
    int64_t strides[EDAN_AFFINE_LEVELS]; /* per iteration of each outer level */
    unsigned n;
} proj_bound_row;
typedef struct proj_nest_row {
    edan_loop_place place;
    bool replayed;
    const char *reason; /* why not (NULL: replayed) */
    proj_regs regs;
    uint64_t reg_counts[PROJ_REGS]; /* --what-if-registers */
    int n_regs;
    const edan_table *bounds, *insns;
    uint64_t loops[EDAN_AFFINE_LEVELS];
    unsigned levels;
    proj_bound_row bound_rows[EDAN_AFFINE_LEVELS];
    /* text: the nest's sentence and its registers' line (projection_whatif_view.c's nest_form) */
    int32_t loop;                     /* the outermost loop */
    const char *levels_s, *entries_s; /* "s" or "", "y" or "ies" */
    uint64_t all_accesses;            /* its own and its calls' */
    const char *kind;                 /* a replayed nest's: "affine" or "affine, non-rectangular" */
    double reason_pct;                /* not replayed: the share of pct_of's accesses that made it so */
    const char *pct_of;
    char trips[512];  /* " 100 x i1+1 (at most 99)": each level's trip count */
    char spills[400]; /* " 8: 0 int, 1.5 FP; 16: ...": per register count */
} proj_nest_row;

/* A pair of consecutive nests the fusion what-if looks at (JSON "projection.what_if.pairs"). */
typedef struct proj_pair_row {
    int32_t first, second;
    bool fused;
    const char *reason;  /* why not (NULL: fused) */
    char positions[256]; /* text: " (positions 8 x 8 against 64)" when their spaces differ ("": none) */
} proj_pair_row;

/* The what-if's own members (JSON "projection.what_if"): its kind, cache, nests, pairs and rows. */
/* The nests as they ran at a cache size, a candidate beside the plans (JSON's what_if.unblocked). */
typedef struct proj_wi_unblocked {
    double cache_bytes, dram_bytes, exposed_s, time_s;
    bool best; /* at least as fast as every legal plan at the cache */
} proj_wi_unblocked;

typedef struct proj_wi_summary {
    const char *kind, *cache_model;
    const char *time; /* what the rows' time_s is: "bound" (LRU caches) or "bound+exposed" (the cache model) */
    const edan_table *nests, *pairs, *rows, *unblocked;
    bool complete;                       /* every nest replayed */
    uint64_t levels[EDAN_AFFINE_LEVELS]; /* the levels blocked, from 1 */
    size_t n_levels;
    const char *what, *prefetch; /* text: the transformation, and the cache model's prefetchers */
} proj_wi_summary;

/* The cells of an instruction's row (its edan_affine_insn the row's second struct; its edan_insn's numbers here). */
enum { IN_PC, IN_STORE, IN_SIZE };

/* The regions' columns set cell by cell: an object's addresses (null for the other kinds). */
enum { RG_START = 2, RG_END = 3 };

/* The numbers of every row of the region, a function, a loop, the code outside loops (projection_view.c fills them). */
#define PJ_N_ROW 51

/* The whole region's columns: the machine's and the traffic's, its numbers, the other members. */
enum { TOT_N = 13 + PJ_N_ROW + 16 };

/* Its tables, ending with a {NULL} entry: the JSON report's, then ExaSAT's Table 1 and the sweep (text and CSV). */
enum {
    T_TOTAL,
    T_FUNCTIONS,
    T_LOOPS,
    T_OUTSIDE,
    N_T,
    T_LAMBDA = N_T,
    T_LEVELS,
    T_CACHES,
    T_REGIONS,
    T_WHATIF_SUMMARY,
    T_NESTS,
    T_BOUNDS,
    T_INSNS,
    T_PAIRS,
    T_WHATIF,
    T_EXASAT,
    T_UNBLOCKED,
    T_PREDICTION
};
extern const edan_table_decl edan_projection_tables[];

#endif
