/*
 * footprint_view.c - what the footprint tool reports (footprint_tool.c
 * collects it): the rows of the whole run, per function, per thread, per
 * innermost loop and per loop nest, each the union of the (line,
 * instruction) pairs of its instructions, as text, JSON and CSV tables.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/table.h"
#include "tool/base/base.h"
#include "tool/memory/footprint_tool.h"
#include "tool/memory/loop_table.h"
#include "util/symbols/symbols.h"

#define TEXT_ROWS 16
#define TEXT_LOOPS 10

/* ===================================================================== */
/* Views                                                                  */
/* ===================================================================== */

typedef struct fp_row {
    uint32_t key; /* function index (UNKNOWN), loop id, or vCPU */
    fp_total v;
    double growth;            /* lines / accesses */
    const char *label, *name; /* a function's: text's label and its name (the whole run's: "all", "(all)") */
} fp_row;

static int by_bytes(const void *a, const void *b)
{
    const fp_row *x = a, *y = b;
    if (x->v.bytes != y->v.bytes)
        return x->v.bytes < y->v.bytes ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int by_lines(const void *a, const void *b)
{
    const fp_row *x = a, *y = b;
    if (x->v.lines != y->v.lines)
        return x->v.lines < y->v.lines ? 1 : -1;
    if (x->v.accesses != y->v.accesses)
        return x->v.accesses < y->v.accesses ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int by_key(const void *a, const void *b)
{
    const fp_row *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

enum { BY_RUN, BY_FUNCTION, BY_THREAD, BY_LOOP, BY_NEST };

/* The distinct vCPUs of the instructions, ascending, into vc[0 .. 65536); their count. */
static size_t vcpus_of(const footprint_tool *t, uint32_t *vc)
{
    uint64_t seen[(UINT16_MAX + 1) / 64] = {0};
    for (size_t i = 0; i < t->n_insns; i++)
        seen[t->insns[i].vcpu / 64] |= 1ull << (t->insns[i].vcpu % 64);
    size_t n = 0;
    for (uint32_t v = 0; v <= UINT16_MAX; v++)
        if (seen[v / 64] >> (v % 64) & 1)
            vc[n++] = v;
    return n;
}

/* The index of vCPU v among the n ascending vc (it is there). */
static uint32_t vcpu_row(const uint32_t *vc, size_t n, uint32_t v)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        const size_t mid = (lo + hi) / 2;
        if (vc[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

/*
 * What the rows of one breakdown need of an instruction (edan_insn_rows_make):
 * n rows (functions: the last one is UNKNOWN's; threads: by the vCPUs
 * vc[0 .. n), ascending; innermost loops and loop nests: by loop id).
 */
typedef struct fp_by {
    const footprint_tool *t;
    int by;
    size_t n;
    const uint32_t *vc;
} fp_by;

static uint64_t insn_pc(const void *ctx, size_t i)
{
    return ((const fp_by *)ctx)->t->insns[i].pc;
}

/* Instruction i's row of the whole run, of its function or of its thread. */
static int64_t insn_row(const void *ctx, size_t i)
{
    const fp_by *b = ctx;
    const fp_insn *in = &b->t->insns[i];
    if (b->by == BY_THREAD)
        return vcpu_row(b->vc, b->n, in->vcpu);
    return b->by == BY_RUN ? 0 : in->fn == UNKNOWN ? (int64_t)b->n - 1 : (int64_t)in->fn;
}

/* Pair (line, instruction index) with the bytes mask into its groups' entries of fold; false when out of memory. */
static bool fold_pair(edan_keymap *fold, const edan_insn_rows *g, uint64_t line, uint32_t index, uint64_t mask)
{
    for (uint32_t k = g->at[index]; k < g->at[index + 1]; k++) {
        uint64_t *m = edan_keymap_get(fold, line, g->group[k], NULL);
        if (!m)
            return false;
        *m |= mask;
    }
    return true;
}

/*
 * Rows of the instructions' groups (the whole run, functions, threads, innermost loops or loop nests): the union of
 * their instructions' lines, folded into (line, group) entries of a second table; only the groups with
 * accesses, sorted. NULL when out of memory.
 */
static fp_row *group_rows(const footprint_tool *t, int by, size_t *n_rows)
{
    *n_rows = 0;
    const bool loops = by == BY_LOOP || by == BY_NEST;
    uint32_t *vc = by == BY_THREAD ? malloc((t->n_insns + 1) * sizeof *vc) : NULL;
    const size_t n = loops             ? edan_loops_count(t->loops)
                     : by == BY_RUN    ? 1
                     : by == BY_THREAD ? (vc ? vcpus_of(t, vc) : 0)
                                       : (t->have_elf ? t->elf.n_funcs : 0) + 1;
    fp_row *r = calloc(n + 1, sizeof *r);
    edan_insn_rows g = {NULL, NULL};
    edan_keymap fold;
    const fp_by ctx = {t, by, n, vc};
    const edan_rows_kind kind = by == BY_NEST ? EDAN_ROWS_NEST : by == BY_LOOP ? EDAN_ROWS_LOOP : EDAN_ROWS_ONE;
    if (!r || (by == BY_THREAD && !vc) ||
        !edan_insn_rows_make(&g, t->loops, kind, t->n_insns, insn_pc, insn_row, &ctx) ||
        edan_keymap_init(&fold, sizeof(uint64_t))) {
        free(r);
        free(vc);
        edan_insn_rows_free(&g);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        r[i].key = by == BY_RUN ? ALL : by == BY_THREAD ? vc[i] : loops || i + 1 < n ? (uint32_t)i : UNKNOWN;
    free(vc);
    bool ok = true;
    for (size_t i = 0; i < t->n_insns; i++)
        for (uint32_t k = g.at[i]; k < g.at[i + 1]; k++)
            r[g.group[k]].v.accesses += t->insns[i].accesses;
    /*
     * The (line, instruction) pairs. A line that only its first instruction
     * touched is in no other pair: it counts in that instruction's row at
     * once. The pairs of the other lines, the first instruction's and the
     * map's, are folded into (line, row) entries first.
     */
    for (size_t l = 0; ok && l < edan_blocktab_leaves(&t->lines); l++) {
        uint64_t first;
        const fp_line *leaf = edan_blocktab_leaf(&t->lines, l, &first);
        for (size_t k = 0; ok && k < (1u << LINE_LEAF_BITS); k++) {
            const fp_line *e = &leaf[k];
            if (e->shared) {
                ok = fold_pair(&fold, &g, first + k, e->insn1 - 1, e->mask);
            } else if (e->insn1) {
                for (uint32_t j = g.at[e->insn1 - 1]; j < g.at[e->insn1]; j++) {
                    r[g.group[j]].v.bytes += (uint64_t)__builtin_popcountll(e->mask);
                    r[g.group[j]].v.lines++;
                }
            }
        }
    }
    for (size_t i = 0; ok && i < edan_keymap_capacity(&t->map); i++) {
        uint64_t line;
        uint32_t index;
        const uint64_t *mask = edan_keymap_at(&t->map, i, &line, &index);
        if (mask)
            ok = fold_pair(&fold, &g, line, index, *mask);
    }
    edan_insn_rows_free(&g);
    for (size_t i = 0; ok && i < edan_keymap_capacity(&fold); i++) {
        uint32_t g;
        const uint64_t *mask = edan_keymap_at(&fold, i, NULL, &g);
        if (mask) {
            r[g].v.bytes += (uint64_t)__builtin_popcountll(*mask);
            r[g].v.lines++;
        }
    }
    edan_keymap_free(&fold);
    if (!ok) {
        free(r);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (r[i].v.accesses) {
            r[i].growth = (double)r[i].v.lines / (double)r[i].v.accesses;
            r[i].label = r[i].name = by != BY_FUNCTION     ? NULL
                                     : r[i].key == UNKNOWN ? EDAN_NO_FUNCTION
                                                           : t->elf.funcs[r[i].key].name;
            r[(*n_rows)++] = r[i];
        }
    qsort(r, *n_rows, sizeof *r, loops ? by_lines : by == BY_THREAD ? by_key : by_bytes);
    return r;
}

/* ===================================================================== */
/* Tables                                                                 */
/* ===================================================================== */

/* The values of every row: bytes, lines, accesses and growth (a row's last four columns). */
#define FP_VALUES(text)                                                                                                \
    EDAN_COL_FIELD(fp_row, v.bytes, "bytes", "bytes", "distinct bytes loaded or stored", 0, NULL, 14, 0),              \
        EDAN_COL_FIELD(fp_row, v.lines, "lines", "lines", "distinct 64-byte lines loaded or stored", 0, NULL, 12, 0),  \
        EDAN_COL_FIELD(fp_row, v.accesses, "accesses", "accesses",                                                     \
                       "the accesses that touched them (one per instruction executed)", text, NULL, 12, 0),            \
        EDAN_COL_FIELD(fp_row, growth, "growth", "lines per access", "the footprint's growth lines / accesses", text,  \
                       "dF (F/A)", 10, 4)

static const edan_column total_cols[] = {
    {"line_bytes", EDAN_T_U64, "bytes", "the line size", 0, NULL, 0, 0, NULL, EDAN_CELL},
    FP_VALUES(0),
};
static const edan_column function_cols[] = {
    EDAN_COL_FIELD(fp_row, label, "label", "", "the row's name in text", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_NAME, "",
                   32, 0),
    EDAN_COL_FIELD_AS(fp_row, name, "name", "", "the function (the whole run's row: (all), CSV only)", EDAN_NO_TEXT,
                      NULL, 0, 0, .csv_key = "function"),
    FP_VALUES(EDAN_NO_TEXT),
};
static const edan_column thread_cols[] = {
    {"label", EDAN_T_STR, "", "the row's name in text", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_NAME, "thread (vCPU)", 32,
     0, NULL, EDAN_CELL},
    EDAN_COL_FIELD(fp_row, key, "vcpu", "", "the vCPU (thread) whose accesses these are", EDAN_NO_TEXT, NULL, 0, 0),
    FP_VALUES(0),
};
#define FP_LABEL(title)                                                                                                \
    {                                                                                                                  \
        "label", EDAN_T_STR, "", "the row's name in text", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_NAME, title, 40, 0,   \
            NULL, EDAN_CELL                                                                                            \
    }
static const edan_column loop_cols[] = {FP_LABEL(EDAN_LOOP_TITLE), EDAN_LOOP_COLUMNS, FP_VALUES(0)};
static const edan_column nest_cols[] = {FP_LABEL(EDAN_NEST_TITLE), EDAN_NEST_COLUMNS, FP_VALUES(0)};

const edan_table_decl edan_footprint_tables[] = {
    EDAN_TABLE_DECL("footprint", NULL, true, "the whole run", total_cols),
    EDAN_TABLE_DECL("footprint.functions", "footprint-functions", false,
                    "per function, by the function whose code made the access, most bytes first", function_cols),
    EDAN_TABLE_DECL("footprint.threads", "footprint-threads", false, "per thread (vCPU) with accesses, by vCPU",
                    thread_cols),
    EDAN_TABLE_DECL("footprint.loops", "footprint-loops", false, "per innermost loop with accesses, most lines first",
                    loop_cols),
    EDAN_TABLE_DECL("footprint.loop_nests", "footprint-nests", false, "per loop nest with accesses, most lines first",
                    nest_cols),
    {NULL, NULL, false, NULL, NULL, 0, false},
};
enum { T_TOTAL, T_FUNCTIONS, T_THREADS, T_LOOPS, T_NESTS, N_TABLES };

/* How text shows each table. */
static const edan_text_view views[N_TABLES] = {
    {.title = "\nfootprint (distinct bytes and {line_bytes}-byte lines loaded or stored)"},
    {.max_rows = TEXT_ROWS + 1, .more = " functions; --json lists all"},
    {.min_rows = 2},
    {.max_rows = TEXT_LOOPS, .more = " loops; --json lists all"},
    {.max_rows = TEXT_LOOPS, .more = " loop nests; --json lists all"},
};

typedef struct fp_tables {
    edan_table t[N_TABLES];
    edan_result r[N_TABLES];     /* how the report shows them */
    fp_row all, *rows[N_TABLES]; /* the rows the tables show: the whole run's, and each table's */
} fp_tables;

/* Every table of the report (text, JSON and CSV show different rows of them: the rows' flags). */
static void make_tables(const footprint_tool *t, const edan_session *s, fp_tables *x)
{
    static const int by[N_TABLES] = {BY_RUN, BY_FUNCTION, BY_THREAD, BY_LOOP, BY_NEST};
    size_t n[N_TABLES] = {0};
    for (int k = 0; k < N_TABLES; k++) {
        edan_table_init(&x->t[k], &edan_footprint_tables[k]);
        x->r[k] = (edan_result){.t = &x->t[k], .view = views[k]};
        x->rows[k] = k != T_FUNCTIONS || t->have_elf ? group_rows(t, by[k], &n[k]) : NULL;
    }
    x->r[T_FUNCTIONS].absent = !t->have_elf;
    x->all = n[T_TOTAL] ? x->rows[T_TOTAL][0] : (fp_row){0}; /* zeros when out of memory */
    x->all.label = "all";
    x->all.name = "(all)";
    edan_value *r = edan_table_row_of(&x->t[T_TOTAL], 0, &x->all, NULL);
    if (r)
        r[0].u = LINE;
    /* the whole run's row first: "all" in text, "(all)" in CSV, not in JSON (the totals are) */
    edan_table_row_of(&x->t[T_FUNCTIONS], EDAN_NO_JSON, &x->all, NULL);
    edan_table_rows_of(&x->t[T_FUNCTIONS], x->rows[T_FUNCTIONS], n[T_FUNCTIONS], sizeof(fp_row));
    for (size_t i = 0; i < n[T_THREADS] && (r = edan_table_row_of(&x->t[T_THREADS], 0, &x->rows[T_THREADS][i], NULL));
         i++) {
        char name[32];
        snprintf(name, sizeof name, "vcpu %" PRIu32, x->rows[T_THREADS][i].key);
        r[0].s = edan_table_str(&x->t[T_THREADS], name);
    }
    edan_srcmap *src = t->have_elf ? edan_session_srcmap(s) : NULL;
    for (int k = T_LOOPS; k <= T_NESTS; k++) /* nests: text leaves out those without loops inside */
        for (size_t i = 0; i < n[k]; i++) {
            const uint32_t id = x->rows[k][i].key;
            const edan_loop_place p = edan_loops_place(t->loops, id, t->elf_open ? &t->elf : NULL, src);
            const int64_t inside = k == T_NESTS ? (int64_t)edan_loops_inside(t->loops, id) : -1;
            if (!edan_loop_row(&x->t[k], edan_loops_get(t->loops, id), &p, inside, &x->rows[k][i], NULL))
                break;
        }
    edan_srcmap_close(src);
}

static void free_tables(fp_tables *x)
{
    for (int k = 0; k < N_TABLES; k++) {
        edan_table_free(&x->t[k]);
        free(x->rows[k]);
    }
}

/* Each instruction's function, the shared objects' included (known once the stream is over), once. */
static void name_functions(footprint_tool *t, const edan_session *s)
{
    if (!t->have_elf || t->named)
        return;
    edan_session_name_objects(s, &t->elf, &t->named);
    for (size_t i = 0; i < t->n_insns; i++) {
        const edan_elf_func *f = edan_elf_func_at(&t->elf, t->insns[i].pc);
        t->insns[i].fn = f ? (uint32_t)(f - t->elf.funcs) : UNKNOWN;
    }
}

int edan_footprint_results(void *tool, const edan_session *s, edan_tool_results *x)
{
    fp_tables *t = malloc(sizeof *t);
    if (!t)
        return -1;
    name_functions(tool, s);
    make_tables(tool, s, t);
    *x = (edan_tool_results){t->r, N_TABLES, t};
    return 0;
}

void edan_footprint_free_results(void *own)
{
    free_tables(own);
    free(own);
}
