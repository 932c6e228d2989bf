/*
 * projection_tool.h - the projection tool's state, shared by its files:
 * projection_tool.c (options, the stream, the tool), projection_rows.c
 * (rows per function and loop after the stream), projection_view.c (the
 * text, JSON and table reports), projection_sweep.c (the sweep's CSV and
 * plots), projection_whatif.c (--what-if) and projection_registers.c (its
 * register model). Private to the tool; docs/projection.md says what it computes.
 */
#ifndef EDAN_TOOL_GRAPH_PROJECTION_TOOL_H
#define EDAN_TOOL_GRAPH_PROJECTION_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/cache/cache.h"
#include "analysis/locality/locality.h"
#include "analysis/loops/loops.h"
#include "analysis/machine/machine.h"
#include "analysis/projection/projection.h"
#include "analysis/timing/timing.h"
#include "analysis/whatif/whatif.h"
#include "config/options.h"
#include "tool/base/base.h"
#include "tool/graph/projection_tables.h"
#include "util/symbols/symbols.h"

#define PROJ_SWEEP_DIMS 7      /* cache, bandwidth, peak, cores, div, sqrt, transcendental weights */
#define PROJ_SWEEP_VALUES 4096 /* values in one dimension of the sweep */
#define PROJ_SWEEP_MAX 1000000 /* configurations in one sweep */

/* What each static instruction id has done (per id, grown as ids appear). */
typedef struct proj_id {
    const edan_insn *insn; /* the instruction (it lives as long as the session) */
    uint64_t executions;   /* outside libm calls */
    uint64_t accesses;     /* of those, the ones that performed their access */
    uint32_t mem;          /* its memory statistics in the region it touched last: index + 1 into the pool (0: none) */
    uint32_t region;       /* the region of its last access outside the stack, */
    uint64_t region_lo, region_hi; /* and the addresses known to be in it */
    uint32_t call;                 /* as a call site of libm: index + 1 into the call sites (0: none) */
    uint32_t incall; /* its executions inside libm calls from the site it was last called from: index + 1 */
    uint8_t seen;
    uint8_t libm;      /* the entry of a libm function: EDAN_LIBM_TRANSCENDENTAL or EDAN_LIBM_SQRT (opmix.h) */
    uint8_t libm_call; /* a direct call (jal) of such a function: its kind */
    uint8_t fp_kind;   /* opmix.h */
    uint8_t stack;     /* sp-relative */
} proj_id;

/*
 * The memory traffic charged to one static instruction in one memory region:
 * its own accesses, or a call site's callee's. An access belongs to the
 * region of its address, each block it touches to the region of the block's
 * first byte it touches; the pool's index is the owner of a dirty line.
 */
typedef struct proj_mem {
    uint32_t id, region;
    uint64_t loads, stores, load_bytes, store_bytes; /* accesses (an atomic is both) */
    edan_lru_traffic lru;
} proj_mem;

/* A map of pairs of 32-bit keys to nonzero 32-bit values, open addressing. */
typedef struct proj_map_entry {
    uint32_t a, b, v; /* v = 0: empty */
} proj_map_entry;
typedef struct proj_map {
    proj_map_entry *e;
    size_t n, cap;
} proj_map;

/* A static instruction executed inside libm calls made from one call site: how often. */
typedef struct proj_incall {
    uint32_t id, site;
    uint64_t executions;
} proj_incall;

/* A call site of libm functions: what the calls were and what they executed. */
typedef struct proj_call {
    uint64_t transcendentals, sqrt_calls, in_calls, in_calls_flops;
} proj_call;

/* A range of bytes a cache model holds dirty at the end, charged to the stores that made them dirty. */
typedef struct proj_flush {
    uint64_t lo, hi;  /* [lo, hi) */
    uint64_t charged; /* bytes charged so far */
    uint32_t owner;   /* a memory pool entry that stored into it, + 1 (0: none found yet) */
} proj_flush;

/* The values of one sweep dimension. */
typedef struct proj_dim {
    int n;
    double v[PROJ_SWEEP_VALUES];
} proj_dim;

typedef struct proj_tool {
    /* the machine */
    edan_machine machine;
    char machine_path[512];
    unsigned line_shift; /* log2 of the block: the machine's line */
    unsigned machine_k;  /* its last data cache level holds 2^k blocks */
    /* the stream */
    edan_reuse *tracker;
    edan_loops *loops;
    proj_id *ids;
    size_t ids_cap;
    proj_mem *mem; /* per (static id, region) */
    size_t n_mem, mem_cap;
    proj_map pairs;      /* (id, region) -> index + 1 into mem */
    proj_incall *incall; /* executions inside libm calls, per (id, call site) */
    size_t n_incall, incall_cap;
    proj_map incalls;          /* (id, call site) -> index + 1 into incall */
    const edan_timing *timing; /* the timing model's, when it runs (--mem-latency): the rows' predictions */
    uint64_t *model_bytes;     /* per memory pool entry: n_models reads, n_models writes, n_models of those flushed */
    proj_call *calls;
    size_t n_calls, calls_cap;
    bool inside;         /* executing inside a recognised libm call */
    uint32_t call_site;  /* its call site's id */
    uint64_t call_depth; /* calls made inside it, not yet returned */
    uint32_t prev_id;    /* the previous record's id */
    bool have_prev;
    uint8_t prev_call; /* the previous record was a direct libm call (outside one): its kind */
    /* --cache: the cache model of each configuration, the traffic of the projection when given */
    int n_models;
    edan_cache model[PROJ_MAX_MODELS];
    bool model_has_cache[PROJ_MAX_MODELS];
    char model_label[PROJ_MAX_MODELS][160];
    proj_flush *flush[PROJ_MAX_MODELS]; /* after the stream: the bytes each holds dirty */
    size_t n_flush[PROJ_MAX_MODELS];
    /* the program */
    edan_elf elf;
    bool have_elf;
    bool objects_named; /* the shared objects' functions joined elf's after the stream */
    edan_elf_data data; /* its objects and segments, when the program is known */
    bool have_data;
    edan_proj_regions regions;
    edan_srcmap *src;
    /* after the stream */
    bool rows_made;
    proj_row total, outside;
    proj_row *funcs, *loop_rows, *region_rows;
    size_t n_funcs, n_loops, n_region_rows;
    char regions_csv[512];
    /* the sweep */
    proj_dim dim[PROJ_SWEEP_DIMS];
    char csv_path[512];
    struct proj_whatif *whatif; /* --what-if (projection_whatif.c); NULL without */
    edan_error err;
} proj_tool;

/* ---- projection_rows.c ---------------------------------------------------- */

/* Make the rows (once, after the stream); false when out of memory. */
bool proj_rows_make(proj_tool *t);
/* The machine's projection parameters (cores x one core's peak and bandwidth). */
edan_proj_machine proj_machine(const proj_tool *t);
/*
 * DRAM bytes of a row read and written (the final flush of dirty lines
 * included): the first --cache's model when given, else the LRU cache of
 * 2^k blocks; *flushed, when not NULL, the part of *write that is the flush.
 */
void proj_row_dram(const proj_tool *t, const proj_row *r, unsigned k, double *read, double *write, double *flushed);
/* A row's bound on the machine (k as above). */
edan_proj proj_row_bound(const proj_tool *t, const proj_row *r, unsigned k, const edan_proj_machine *m);
/* ExaSAT's time of the region: the loops' and the outside code's bounds, summed. */
double proj_sum_of_parts(const proj_tool *t, unsigned k, const edan_proj_machine *m);
/* Where a loop is. */
edan_loop_place proj_loop_place(proj_tool *t, int32_t loop);

/* ---- projection_whatif.c -------------------------------------------------- */

typedef struct proj_whatif proj_whatif;
/* The options' checks. */
int proj_whatif_check(const char *v, edan_error *err);
int proj_whatif_check_tiles(const char *v, edan_error *err);
int proj_whatif_check_regs(const char *v, edan_error *err);
int proj_whatif_check_cache(const char *v, edan_error *err);
/* t->whatif from --what-if (after t->loops is made; none without the option). 0, or -1 with err set. */
int proj_whatif_new(proj_tool *t, const edan_options *o, edan_error *err);
void proj_whatif_free(proj_whatif *w);
/* A batch, after t->loops has observed it. 0, or -1 when out of memory. */
int proj_whatif_observe(proj_whatif *w, const edan_exec *recs, size_t n);
/* The reports (nothing without --what-if): the text's section or (json) the JSON's ,"what_if":...; the CSV. */
void proj_whatif_write(proj_tool *t, FILE *f, bool json);
int proj_whatif_csv(proj_tool *t, edan_error *err);
/* With --what-if=block and --plot-dir: <name>-what-if-tiles, the projected time against the tile size per cache. */
int proj_whatif_plot(proj_tool *t, const char *dir, const char *name, const char *ident, edan_error *err);

/* ---- projection_registers.c --------------------------------------------- */

/* Nest n's body's register model at the register counts regs[0 .. n_regs) (n_regs at most PROJ_REGS). */
void proj_register_model(const proj_tool *t, const edan_affine *a, const unsigned *regs, int n_regs,
                         const edan_affine_nest *n, proj_regs *m);

/* A nest the what-ifs do not replay: why (NULL when they do). */
const char *proj_nest_why_not(const edan_affine_nest *n);
/*
 * Level k's trip count in the text, after buf's text (buf[0 .. cap) holds
 * one): a number, or a bounded nest's bound in its outer counters and its largest.
 */
void proj_nest_trip_text(const edan_affine_nest *n, unsigned k, char *buf, size_t cap);
/* Why a plan of that order is illegal: the dependence c it breaks and how, in buf. */
void proj_why_illegal(proj_tool *t, const edan_affine *a, const edan_whatif_conflict *c, edan_whatif_order order,
                      char *buf, size_t n);

/* ---- projection_view.c ---------------------------------------------------- */

void edan_projection_report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f);

/* ---- projection_regions.c ------------------------------------------------- */

/*
 * The regions' rows of the report: into f its text or (json) its JSON member
 * ,"regions":[...]; with f NULL the CSV (--projection-regions-csv). 0, or -1
 * with err (the CSV).
 */
int proj_regions_write(const proj_tool *t, FILE *f, bool json, edan_error *err);

/* ---- projection_sweep.c --------------------------------------------------- */

/* The sweep's dimensions, in order: their options. */
enum { DIM_CACHE, DIM_BANDWIDTH, DIM_PEAK, DIM_CORES, DIM_DIV, DIM_SQRT, DIM_TRANSCENDENTAL };
extern const char *const proj_dim_option[PROJ_SWEEP_DIMS];
/* Parse dimension d's list ("1,2,4", "4K..64M": doubling); 0, or -1 with err naming the option. */
int proj_dim_parse(int d, const char *v, proj_dim *out, edan_error *err);
/*
 * Row r's numbers in ExaSAT's table at bound p, ws its working set in bytes:
 * a loop's place and operations per iteration (none, NaN, for the code outside
 * loops and for r NULL, the total); the configuration and the levels' traffic
 * are the caller's (0 and NaN).
 */
proj_exasat_row proj_exasat(proj_tool *t, const proj_row *r, const edan_proj *p, double ws);
/* The sweep's CSV and the plots (--projection-csv, --plot-dir). */
int edan_projection_outputs(void *tool, const edan_session *s, edan_error *err);

#endif
