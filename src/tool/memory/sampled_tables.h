/*
 * sampled_tables.h - the sampled tool's state, shared by its files
 * (sampled_tool.c: the options and the stream; sampled_view.c: the
 * estimates and the report), its result tables (sampled_tables.c) and the
 * indices of their columns. Private to the tool.
 */
#ifndef EDAN_TOOL_MEMORY_SAMPLED_TABLES_H
#define EDAN_TOOL_MEMORY_SAMPLED_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/table.h"
#include "tool/base/base.h"
#include "util/error.h"
#include "util/keymap.h"
#include "util/symbols/symbols.h"

#define BLOCK_SHIFT 6
#define ALL_FN UINT32_MAX
#define UNKNOWN_FN 0xfffffffeu
#define TEXT_ROWS 10

/* The state of a block for one row (the whole run or a function). */
typedef struct sm_seen {
    uint64_t last_win; /* window index + 1 of its latest load */
    uint32_t sampled;  /* 1 once a sample loaded from it */
} sm_seen;

/* What the table keeps per block (tag ALL_FN) and per (block, function) for a function other than its first. */
typedef struct sm_block {
    sm_seen seen;  /* the whole run's (ALL_FN), or the function's */
    sm_seen first; /* ALL_FN: the first function's, fn1 - 1 */
    uint32_t fn1;  /* ALL_FN: 1 + the first function that loaded from the block; 0 none yet */
} sm_block;

/* Counts of one function (or of the whole run). */
typedef struct sm_counts {
    uint64_t A, A_s;       /* loads; sampled loads */
    uint64_t F, F_s;       /* distinct blocks; distinct blocks in samples */
    uint64_t wins, wins_s; /* windows (all; sampled) in which it loaded */
    uint64_t last_w;       /* window index + 1 of its latest load: the window cur_* count */
    uint64_t cur_A, cur_F; /* its loads and distinct blocks in window last_w */
    bool cur_s;            /* window last_w is sampled */
    /* over its windows before last_w, all and sampled: sum of A_w F_w; over the sampled ones the sums of
     * A_w^2, A_w^2 F_w and A_w^2 F_w^2 (the standard error). Doubles: both streams add the same terms in the
     * same order, so --sample-only's estimates stay equal to the bit. */
    double AF, AF_s, A2_s, A2F_s, A2F2_s;
} sm_counts;

typedef struct sampled_tool {
    uint64_t period, window;
    uint64_t loads;     /* loads so far: load i is in window i / W, sampled when i % P < W */
    bool presampled;    /* --sample-only: the stream is the samples alone */
    uint64_t *fn_exact; /* with it, each function's loads, counted by the plugin (NULL: unknown) */
    uint64_t received;  /* loads received with --sample-only (window received / W) */
    edan_keymap map;    /* (block, function) -> sm_block */
    sm_counts all;
    sm_counts *fns; /* per function, [n_funcs] for code outside every function (the plugin's count alone), then a
                       row per shared library's function when the stream names the objects ahead of their code, else
                       per static load outside the program's functions (their functions are known once the stream
                       is over), pseudo_pc[k] the (first) load of row n_funcs + 1 + k */
    uint64_t *pseudo_pc;
    uint32_t n_pseudo, pseudo_cap;
    edan_libfuncs *libs; /* the objects' functions as the stream names them (objects_ahead), or NULL: each's row */
    uint32_t *id_fn;     /* function index + 1 by static id */
    size_t id_cap;
    edan_elf elf;
    bool have_elf;
    edan_error err;
} sampled_tool;

/* Window last_w is over: its loads and blocks into the sums. */
static inline void sm_close_window(sm_counts *c)
{
    if (!c->cur_A)
        return;
    const double a = (double)c->cur_A, f = (double)c->cur_F;
    c->AF += a * f;
    if (c->cur_s) {
        c->AF_s += a * f;
        c->A2_s += a * a;
        c->A2F_s += a * a * f;
        c->A2F2_s += a * a * f * f;
    }
    c->cur_A = c->cur_F = 0;
}

/* The report (sampled_view.c): the tool's results, and their release. */
int edan_sampled_session_results(void *tool, const edan_session *s, edan_tool_results *x);
void edan_sampled_free_results(void *own);

enum {
    C_LOADS,
    C_LOADS_ERR_TEXT,
    C_SAMPLED_LOADS,
    C_LOADS_EST_CSV,
    C_BLOCKS,
    C_SAMPLED_BLOCKS,
    C_LOADS_EST,
    C_BLOCKS_EST,
    C_BLOCKS_ERR_TEXT,
    C_GROWTH_EST,
    C_GROWTH,
    C_WIN,
    C_WIN_EST,
    C_WIN_SE,
    C_WIN_CI,
    C_WINDOWS,
    C_SAMPLED_WINDOWS,
    C_WIN_ERR_TEXT,
    C_LOADS_ERR,
    C_BLOCKS_ERR,
    C_WIN_ERR,
    C_N
};

enum { F_LABEL, F_NAME, F_COUNTS };

enum { S_SAMPLE_ONLY, S_BLOCK_BYTES, S_WINDOW, S_PERIOD, S_SAMPLES, S_RHO, S_ALL, S_FUNCTIONS = S_ALL + C_N, S_NOTE };

/* Its tables, ending with a {NULL} entry. */
extern const edan_table_decl edan_sampled_tables[];

#endif
