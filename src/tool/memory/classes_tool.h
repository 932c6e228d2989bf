/*
 * classes_tool.h - the load-classes tool's state, shared by its two files:
 * classes_tool.c (the stream, the tool) and classes_view.c (the rows and
 * tables it reports). Private to the tool.
 */
#ifndef EDAN_TOOL_MEMORY_CLASSES_TOOL_H
#define EDAN_TOOL_MEMORY_CLASSES_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/deps/deps.h"
#include "analysis/locality/locality.h"
#include "analysis/loops/loops.h"
#include "memgaze/mg_classes.h"
#include "tool/base/base.h"
#include "util/keymap.h"
#include "util/symbols/symbols.h"

#define LC_BLOCK_SHIFT 6
#define LC_ALL UINT32_MAX /* the whole run's row */
#define LC_NO_BLOCK UINT64_MAX
#define LC_UNKNOWN_FN 0xfffffffeu /* code outside every known function */

enum { C_CONST, C_STRIDED, C_IRREG, C_STORE, N_CLASSES };
extern const char *const edan_lc_class_name[];

/* One static memory instruction. */
typedef struct lc_insn {
    uint64_t pc;
    uint64_t last; /* index + 1 of its latest access (0: none yet) */
    uint64_t last_addr;
    int64_t last_step; /* 0 with fewer than two accesses */
    int64_t stride;    /* the latest repeated step */
    uint64_t n[N_CLASSES];
    uint64_t dependent;        /* accesses whose address depended on a recent load */
    uint64_t pend_lo, pend_hi; /* the first access's blocks, until its class is known */
    uint64_t block;            /* its current block (LC_NO_BLOCK: none) and the classes that touched it, */
    uint32_t block_mask;       /* not yet in the block map */
    uint32_t ticket;           /* the first access's first ticket in the windows (one per block and row) */
    uint32_t tickets;          /* its tickets */
    uint32_t fn;               /* function index (LC_UNKNOWN_FN without symbols or outside every function): the
                                  program's during the stream, with the shared objects' once it is over */
    uint32_t fn_row;           /* the windows' row of its function (LC_NO_ROW without symbols) */
    uint32_t nest_at, nest_n;  /* the rows of the loops known to hold it: t->nest[nest_at .. nest_at + nest_n) */
    uint32_t changes_seen;     /* the changes of t->change applied to them */
    int8_t fixed;              /* its class from --load-classes (MemGaze's file), -1: edan's own rules */
    bool pending, store, frame, addr_const, windows_pending;
} lc_insn;

#define LC_NO_ROW UINT32_MAX

/* Loop ranges that grew: the pcs lo..hi are in loop `loop` now (a new loop, or an end that moved up). */
typedef struct lc_change {
    uint64_t lo, hi;
    uint32_t loop;
} lc_change;

typedef struct lc_totals {
    uint64_t accesses[N_CLASSES], blocks[N_CLASSES], statics[N_CLASSES];
    uint64_t load_accesses, load_blocks;
} lc_totals;

typedef struct classes_tool {
    edan_mg_classes *given; /* --load-classes: MemGaze's class of each static load it lists (NULL: none) */
    bool by_sample;         /* a sampled trace's samples apart (not --across-samples): windows within a sample */
    edan_deps *deps;
    uint64_t v;        /* records so far */
    uint32_t *id_insn; /* insn index + 1 by static id */
    size_t id_cap;
    lc_insn *insns;
    size_t n_insns, insns_cap;
    /* (block, instruction index) -> mask of the classes that touched it (bit per class) */
    edan_keymap map;
    /*
     * The loads' footprint over windows, by class (analysis/locality/windows.h): row 0
     * the whole run's, then a row per function and per loop nest, made at
     * their first load. A loop nest's row counts the accesses of the
     * instructions in the loop's range as the loops are known when each
     * access is made (the finder is told every record before its access).
     */
    edan_split_windows win;
    uint32_t *fn_row; /* the row of function index f (the last one: outside every function), LC_NO_ROW: none yet;
                         once named, LC_NO_ROW for a function whose row holds other functions' loads too */
    /* The shared objects' functions as the stream names them before their code runs (objects_ahead; else NULL):
     * a library function's loads get a row of its own, as a program function's (its value there). */
    edan_libfuncs *libs;
    uint32_t *loop_row; /* the row of loop id l, LC_NO_ROW: none yet */
    uint32_t n_loop_row;
    lc_change *change; /* every growth of a loop's range, in order */
    uint32_t n_change, change_cap;
    uint64_t loops_version; /* edan_loops_version() when change[] was brought up to date */
    uint64_t *known_end;    /* per loop id, its end as of then */
    uint32_t n_known;
    uint32_t *nest; /* the instructions' lists of loop rows (lc_insn's nest_at, nest_n) */
    uint32_t n_nest, nest_cap;
    edan_elf elf;
    bool elf_open; /* the symbols were read (the loops' tail-call test, as the reuse tool's) */
    bool have_elf; /* and they are at the traced addresses (not a PIE): functions and lines */
    bool named;    /* the stream is over: elf names the shared objects' code too, fn and fn_row are by its functions
                      (classes_view.c) */
    edan_loops *loops;
    edan_error err;
} classes_tool;

/* The results the session renders, freeing them, and the plots (classes_view.c). */
int edan_lc_results(void *tool, const edan_session *s, edan_tool_results *x);
void edan_lc_free_results(void *own);
int edan_lc_outputs(void *tool, const edan_session *s, edan_error *err);
/* Its tables (classes_view.c), ending with a {NULL} entry. */
extern const edan_table_decl edan_lc_tables[];

#endif
