/*
 * widths_tool.c - the access-widths tool (--access-widths): the data
 * accesses by their width (1, 2, 4 or 8 bytes), loads, stores and atomics
 * apart, with the bytes they moved and how many were misaligned (an address
 * that is not a multiple of the width: what a realistic machine splits or
 * traps on).
 *
 * (RISC-V's widths are 1, 2, 4 and 8; the table has a row for any width
 * up to 16 with accesses, so a record of another width is never dropped.)
 *
 * The example of docs/architecture.md ("Adding an analysis"): its kernel
 * (consume), its declaration (the table) and its test (tests/widths_test.c),
 * no rendering code of its own: report/table.h writes its text, JSON and CSV.
 */
#include <stdlib.h>

#include "report/table.h"
#include "tool/base/base.h"

#define WIDTHS 16 /* widths 1 .. 16 bytes, at index width - 1 */

/* A width's row of the table. */
typedef struct width_row {
    uint64_t width, loads, stores, atomics, bytes, misaligned;
    double misaligned_percent;
} width_row;

typedef struct widths_tool {
    uint64_t loads[WIDTHS], stores[WIDTHS], atomics[WIDTHS], misaligned[WIDTHS]; /* the kernel's: by width - 1 */
    width_row rows[WIDTHS];                                                      /* the table's, made by row_make() */
    edan_error err;
} widths_tool;

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    widths_tool *t = ctx;
    for (size_t i = 0; i < n; i++) {
        const edan_insn *in = recs[i].insn;
        const unsigned size = in->mem_size;
        /* only accesses that happened (mem_size is at most 8: riscv.h) */
        if (in->mem == EDAN_MEM_NONE || (recs[i].flags & EDAN_EXEC_NO_ACCESS) || !size || size > WIDTHS)
            continue;
        const unsigned w = size - 1;
        uint64_t *count = in->mem == EDAN_MEM_LOAD ? t->loads : in->mem == EDAN_MEM_STORE ? t->stores : t->atomics;
        count[w]++;
        t->misaligned[w] += recs[i].addr % size != 0;
    }
}

static int finish(void *ctx)
{
    (void)ctx;
    return 0;
}

/* ===================================================================== */
/* Its results                                                            */
/* ===================================================================== */

#define W_COL(m, unit, doc, flags, title, width, precision)                                                            \
    EDAN_COL_FIELD(width_row, m, #m, unit, doc, flags, title, width, precision)
static const edan_column cols[] = {
    W_COL(width, "bytes", "the bytes one access reads or writes", 0, NULL, 7, 0),
    W_COL(loads, "accesses", "loads of that width (lr included)", 0, NULL, 14, 0),
    W_COL(stores, "accesses", "stores of that width (sc included when it stored)", 0, NULL, 14, 0),
    W_COL(atomics, "accesses", "atomic read-modify-writes (amo*) of that width", 0, NULL, 12, 0),
    W_COL(bytes, "bytes", "the bytes they accessed (an atomic's once)", 0, NULL, 14, 0),
    W_COL(misaligned, "accesses", "those whose address is not a multiple of the width", 0, NULL, 12, 0),
    W_COL(misaligned_percent, "%", "misaligned per 100 accesses of that width", EDAN_COL_PERCENT, "misal. %", 11, 2),
};

static const edan_table_decl tables[] = {
    EDAN_TABLE_DECL("access_widths", "access-widths", false, "per access width with accesses, narrowest first", cols),
    {NULL, NULL, false, NULL, NULL, 0, false},
};

/* Each width's row: its counts, the bytes they accessed and the misaligned share; its accesses. */
static uint64_t row_make(widths_tool *t, int w)
{
    const uint64_t all = t->loads[w] + t->stores[w] + t->atomics[w];
    t->rows[w] = (width_row){(uint64_t)w + 1,
                             t->loads[w],
                             t->stores[w],
                             t->atomics[w],
                             all * ((uint64_t)w + 1),
                             t->misaligned[w],
                             all ? 100.0 * (double)t->misaligned[w] / (double)all : 0};
    return all;
}

/* Its table: a row per width with accesses. */
static void results(widths_tool *t, edan_table *tab, edan_result *r)
{
    edan_table_init(tab, &tables[0]);
    for (int w = 0; w < WIDTHS; w++)
        if (row_make(t, w))
            edan_table_row_of(tab, 0, &t->rows[w], NULL);
    *r = (edan_result){
        .t = tab,
        .view = {
            .title =
                "\naccess widths (data accesses by bytes accessed; misaligned: the address is no multiple of it)"}};
}

/* What the session renders: the table and its result, in memory of their own. */
typedef struct widths_results {
    edan_table tab;
    edan_result r;
} widths_results;

static int session_results(void *tool, const edan_session *s, edan_tool_results *x)
{
    (void)s;
    widths_results *w = malloc(sizeof *w);
    if (!w)
        return -1;
    results(tool, &w->tab, &w->r);
    *x = (edan_tool_results){&w->r, 1, w};
    return 0;
}

static void free_results(void *own)
{
    edan_table_free(&((widths_results *)own)->tab);
    free(own);
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "access-widths", NULL, NULL) > 0;
}

static void *create(edan_session *s, edan_error *err)
{
    (void)s;
    widths_tool *t = calloc(1, sizeof *t);
    if (!t)
        edan_error_set(err, "out of memory");
    return t;
}

static edan_consumer consumer(void *tool)
{
    return (edan_consumer){tool, consume, finish, NULL, false}; /* counts the region alone: nothing to warm */
}

static const edan_error *error(const void *tool)
{
    return &((const widths_tool *)tool)->err;
}

static const edan_tool_option options[] = {
    {"access-widths", false,
     "  --access-widths     data accesses by width (1, 2, 4, 8 bytes): loads, stores, atomics,\n"
     "                      bytes and misaligned ones\n",
     NULL},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_widths_tool = {
    .name = "access-widths",
    .summary = "data accesses by width, and the misaligned ones",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .results = session_results,
    .free_results = free_results,
    .tables = tables,
    .destroy = free,
};
