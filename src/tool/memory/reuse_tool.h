/*
 * reuse_tool.h - the reuse tool's state, shared by its two files:
 * reuse_tool.c (options, the stream, the tool) and reuse_view.c (the
 * histograms, curve, windows and rows it reports). Private to the tool.
 */
#ifndef EDAN_TOOL_MEMORY_REUSE_TOOL_H
#define EDAN_TOOL_MEMORY_REUSE_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/locality/locality.h"
#include "analysis/loops/loops.h"
#include "report/table.h"
#include "tool/base/base.h"

#define BINS 40 /* distance and reuse-time bins: 0, then [2^(k-1), 2^k) for k >= 1; the last open-ended */
#define SIZES 4 /* --reuse-sizes at most */
#define TEXT_ROWS 10
#define JSON_ROWS 100

enum { STREAM_DATA, STREAM_LOADS, STREAM_ALL };
extern const char *const edan_reuse_stream_name[];

/* What one static instruction (or a function, summed; or a thread) did. */
typedef struct reuse_row {
    uint64_t accesses, cold;
    uint64_t hist[BINS]; /* stack distances */
} reuse_row;

/* A row of a table per function, thread, loop, loop nest or static access (reuse_view.c makes them). */
typedef struct view_row {
    const char *name; /* function, or an access's function */
    const char *file; /* an access's source file (NULL: unknown) */
    unsigned line;
    uint64_t pc; /* an access's instruction, a loop's head (0 for a function) */
    reuse_row v;
    uint64_t key;               /* misses at the first size: the order */
    uint32_t depth;             /* a loop's nesting depth (1: outermost) */
    uint32_t inside;            /* a loop nest's loops, itself included */
    uint32_t vcpu;              /* a thread's vCPU */
    const edan_loop *loop;      /* a loop's or nest's */
    uint64_t misses[SIZES];     /* at each size (made with its table) */
    double miss_percent[SIZES]; /* misses per 100 accesses */
    int n_sizes;
    size_t n_bins; /* the histogram's: BINS */
} view_row;

typedef struct reuse_tool {
    edan_reuse *tracker;
    int stream;
    unsigned block_shift;
    uint64_t sizes[SIZES]; /* cache sizes in bytes for the per-row miss counts */
    int n_sizes;
    /* the whole run */
    uint64_t accesses, cold, fetches;
    uint64_t *dist; /* dist[d]: accesses at stack distance d, d < dist_cap */
    size_t dist_cap;
    uint64_t rtime[BINS]; /* reuse times (bin 0 unused: a reuse time is >= 1) */
    edan_windows win;     /* the footprint over windows of 2^k accesses (analysis/locality/windows.h) */
    /*
     * A sampled trace's samples (trace/exec.h), each on its own unless --across-samples: a reuse of a block
     * whose previous access is in an earlier sample is cold, and windows start at each sample's first access
     */
    bool by_sample;
    uint64_t sample_start, s_sample_start; /* the current sample's first access, of the tracker and of SHARDS */
    edan_window_cuts cuts;
    /* per static memory instruction: row index + 1 by id (0: none yet) */
    uint32_t *id_row;
    size_t id_cap;
    reuse_row *rows;
    uint64_t *row_pc;
    size_t n_rows, rows_cap;
    /*
     * per thread: threads[v] is what vCPU v's accesses did (their distances on the one shared stream),
     * for v < threads_cap, grown to the highest vCPU seen when a new one appears
     */
    reuse_row *threads;
    size_t threads_cap;
    /* --reuse-sample: SHARDS beside the exact tracker */
    edan_reuse *sampled;
    double s_rate;        /* the sampling rate R, as the hash threshold realises it */
    uint64_t s_threshold; /* R * 2^24 */
    uint64_t s_accesses, s_cold;
    uint64_t *s_dist; /* s_dist[d]: sampled accesses at sampled distance d */
    size_t s_dist_cap;
    /* loops, for rows per innermost loop (analysis/loops/loops.h) */
    edan_elf elf;
    bool have_elf;
    edan_loops *loops;
    edan_error err;
} reuse_tool;

static inline unsigned reuse_bin_of(uint64_t v)
{
    if (v == 0)
        return 0;
    const unsigned b = 64u - (unsigned)__builtin_clzll(v);
    return b < BINS ? b : BINS - 1;
}

/* Lower bound of bin k. */
static inline uint64_t reuse_bin_lo(unsigned k)
{
    return k == 0 ? 0 : 1ull << (k - 1);
}

/* The results the session renders, freeing them, and the plots (reuse_view.c). */
int edan_reuse_results(void *tool, const edan_session *s, edan_tool_results *x);
void edan_reuse_free_results(void *own);
int edan_reuse_outputs(void *tool, const edan_session *s, edan_error *err);
/* Its tables (reuse_tables.c), ending with a {NULL} entry. */
extern const edan_table_decl edan_reuse_tables[];
/* The row tables' kinds: their index in edan_reuse_tables (reuse_tables.c), the scalars' after them. */
enum { ROW_FUNCTION, ROW_THREAD, ROW_LOOP, ROW_NEST, ROW_ACCESS, N_KINDS };
/* The scalars and histograms around the row tables (JSON); reuse_view.c fills the cells at these indices. */
enum {
    S_BLOCK_BYTES,
    S_STREAM,
    S_BLOCKS = 4,
    S_SAMPLES = 6,
    S_BIN_LO,
    S_DIST,
    S_RTIME,
    S_MRC_BYTES,
    S_MRC_RATIO,
    S_SHARDS,
    S_SHARDS_BLOCKS = 15,
    S_SHARDS_RATIO,
    S_SHARDS_MAE,
    S_SHARDS_MAX,
    S_WINDOW,
    S_WINDOW_BLOCKS,
    S_SIZES,
    S_STREAM_TEXT, /* text's */
    S_FETCH_NOTE,
    S_BLOCKS_BYTES,
    S_CUT_SAMPLES
};
/* The tables of the CSV files and text alone, after the scalars. */
enum { T_HISTOGRAM = N_KINDS + 1, T_MRC, T_WINDOWS, N_TABLES };

/* A bin of the histograms (the cold accesses' row after the last), a size of the curve, a window length. */
typedef struct reuse_bin {
    char range[48];
    uint64_t lo, dist, rtime;
    double dist_cum, rtime_cum; /* percent of every access */
} reuse_bin;
typedef struct reuse_point {
    char label[32]; /* 64, 1K, 2M */
    double bytes, ratio, shards;
} reuse_point;
typedef struct reuse_window {
    double window, blocks, growth;
} reuse_window;

/* The histograms, the curve and the windows: the rows of their tables and the scalars' arrays. */
typedef struct ru_series {
    reuse_bin bins[BINS + 1]; /* the cold accesses' row last */
    unsigned top;             /* the last bin with reuses */
    reuse_point mrc[64];
    reuse_window win[64];
    size_t n_mrc, n_win, n_bins; /* n_bins: BINS, dist's and lo's */
    uint64_t dist[BINS], lo[BINS];
    double bytes[64], ratio[64], shards[64], w[64], f[64], mae, max_err;
} ru_series;

#endif
