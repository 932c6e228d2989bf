/*
 * classes_view.c - what the load-classes tool reports (classes_tool.c
 * collects it): the classes in all, per function, per innermost loop, per
 * loop nest and per static load, and the footprint by class over windows
 * (of the whole run, each function and each nest), as text, JSON and CSV.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "report/table.h"
#include "tool/base/base.h"
#include "tool/memory/classes_tool.h"
#include "tool/memory/loop_table.h"
#include "util/symbols/symbols.h"

#define TEXT_ROWS 10
#define JSON_ROWS 100

#define class_name edan_lc_class_name

/* A static load's class: the class of most of its accesses (ties: the less regular). */
static int insn_class(const lc_insn *s)
{
    if (s->store)
        return C_STORE;
    int best = C_IRREG;
    for (int c = C_STRIDED; c >= C_CONST; c--)
        if (s->n[c] > s->n[best])
            best = c;
    return best;
}

static uint64_t insn_accesses(const lc_insn *s)
{
    uint64_t a = 0;
    for (int c = 0; c < N_CLASSES; c++)
        a += s->n[c];
    return a;
}

/* A row of a group of static instructions: a function (index, or LC_UNKNOWN_FN), an innermost loop or a loop nest
 * (id). */
typedef struct lc_row {
    uint32_t key;
    lc_totals z;
    const char *name; /* a function's */
    double share[C_STORE], growth,
        growth_of[C_STORE]; /* each class's percent of the loads' accesses; blocks per load access */
} lc_row;

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

static const char *fn_name(const classes_tool *t, uint32_t fn)
{
    return fn == LC_UNKNOWN_FN || fn == LC_ALL ? EDAN_NO_FUNCTION : t->elf.funcs[fn].name;
}

static int by_load_blocks(const void *a, const void *b)
{
    const lc_row *x = a, *y = b;
    if (x->z.load_blocks != y->z.load_blocks)
        return x->z.load_blocks < y->z.load_blocks ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

enum { BY_RUN, BY_FUNCTION, BY_LOOP, BY_NEST };

/*
 * What the rows of one breakdown need of an instruction (edan_insn_rows_make):
 * n rows (functions: the last is LC_UNKNOWN_FN's; innermost loops and loop
 * nests: by loop id).
 */
typedef struct lc_by {
    const classes_tool *t;
    int by;
    size_t n;
} lc_by;

static uint64_t insn_pc(const void *ctx, size_t i)
{
    return ((const lc_by *)ctx)->t->insns[i].pc;
}

/* Instruction i's row of the whole run or of its function. */
static int64_t insn_row(const void *ctx, size_t i)
{
    const lc_by *b = ctx;
    const lc_insn *s = &b->t->insns[i];
    return b->by == BY_RUN ? 0 : s->fn == LC_UNKNOWN_FN ? (int64_t)b->n - 1 : (int64_t)s->fn;
}

/*
 * Rows of the whole run, per function (NULL without symbols), per innermost loop or per loop nest, the groups with
 * accesses, most load footprint first: counts summed over their instructions, blocks the union of
 * their instructions' (folded into (block, group) entries of a second table). NULL when out of memory.
 */
static lc_row *group_rows(const classes_tool *t, int by, size_t *n_rows)
{
    *n_rows = 0;
    if (by == BY_FUNCTION && !t->have_elf)
        return NULL;
    const bool loops = by == BY_LOOP || by == BY_NEST;
    const size_t n = loops ? edan_loops_count(t->loops) : by == BY_RUN ? 1 : t->elf.n_funcs + 1;
    lc_row *rows = calloc(n + 1, sizeof *rows);
    edan_insn_rows g = {NULL, NULL};
    edan_keymap fold;
    const lc_by ctx = {t, by, n};
    const edan_rows_kind kind = by == BY_NEST ? EDAN_ROWS_NEST : by == BY_LOOP ? EDAN_ROWS_LOOP : EDAN_ROWS_ONE;
    if (!rows || !edan_insn_rows_make(&g, t->loops, kind, t->n_insns, insn_pc, insn_row, &ctx) ||
        edan_keymap_init(&fold, sizeof(uint32_t))) {
        free(rows);
        edan_insn_rows_free(&g);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        rows[i].key = by == BY_RUN ? LC_ALL : loops || i + 1 < n ? (uint32_t)i : LC_UNKNOWN_FN;
    for (size_t i = 0; i < t->n_insns; i++) {
        const lc_insn *s = &t->insns[i];
        for (uint32_t k = g.at[i]; k < g.at[i + 1]; k++) {
            lc_totals *z = &rows[g.group[k]].z;
            z->statics[insn_class(s)]++;
            for (int c = 0; c < N_CLASSES; c++)
                z->accesses[c] += s->n[c];
            z->load_accesses += s->n[C_CONST] + s->n[C_STRIDED] + s->n[C_IRREG];
        }
    }
    bool ok = true;
    for (size_t i = 0; ok && i < edan_keymap_capacity(&t->map); i++) {
        uint64_t block;
        uint32_t index;
        const uint32_t *mask = edan_keymap_at(&t->map, i, &block, &index);
        for (uint32_t k = mask ? g.at[index] : 0; ok && mask && k < g.at[index + 1]; k++) {
            uint32_t *m = edan_keymap_get(&fold, block, g.group[k], NULL);
            if (m)
                *m |= *mask;
            ok = m != NULL;
        }
    }
    edan_insn_rows_free(&g);
    for (size_t i = 0; ok && i < edan_keymap_capacity(&fold); i++) {
        uint32_t grp;
        const uint32_t *mask = edan_keymap_at(&fold, i, NULL, &grp);
        if (!mask)
            continue;
        lc_totals *z = &rows[grp].z;
        for (int c = 0; c < N_CLASSES; c++)
            z->blocks[c] += (*mask >> c) & 1;
        z->load_blocks += (*mask & 7) != 0;
    }
    edan_keymap_free(&fold);
    if (!ok) {
        free(rows);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        lc_row *r = &rows[i];
        if (!r->z.load_accesses && !r->z.accesses[C_STORE])
            continue;
        r->name = by == BY_FUNCTION ? fn_name(t, r->key) : NULL;
        r->growth = ratio(r->z.load_blocks, r->z.load_accesses);
        for (int c = 0; c < C_STORE; c++) {
            r->share[c] = 100.0 * ratio(r->z.accesses[c], r->z.load_accesses);
            r->growth_of[c] = ratio(r->z.blocks[c], r->z.load_accesses);
        }
        rows[(*n_rows)++] = *r;
    }
    qsort(rows, *n_rows, sizeof *rows, by_load_blocks);
    return rows;
}

static edan_srcmap *open_src(const classes_tool *t, const edan_session *s)
{
    return t->have_elf ? edan_session_srcmap(s) : NULL;
}

/* A loop's place: its head's function, file and line. */
static edan_loop_place loop_place(const classes_tool *t, uint32_t id, edan_srcmap *src)
{
    return edan_loops_place(t->loops, id, t->elf_open ? &t->elf : NULL, src);
}

/* One window size W: F (all loads), F_const, F_str, F_irr, and each over W (the growth dF). */
typedef struct lc_window {
    double w, blocks, blocks_of[C_STORE], growth, growth_of[C_STORE];
} lc_window;

/* The loads' footprint over windows: W, and per window F (all loads), F_const, F_str, F_irr; n levels. */
typedef struct lc_windows {
    bool has; /* a row of the windows (else n = 0) */
    uint64_t accesses;
    size_t n;
    double w[64], f[N_CLASSES][64]; /* f[C_STORE] holds all loads' */
    lc_window at[64];               /* the same a window size a row */
} lc_windows;

/* Row `row`'s windows (0: the whole run's; LC_NO_ROW: none, n = 0). */
static void windows_of(const classes_tool *t, uint32_t row, lc_windows *x)
{
    x->n = 0;
    if (!(x->has = row != LC_NO_ROW))
        return;
    const edan_split_row *r = &t->win.rows[row];
    x->accesses = r->accesses;
    x->n = edan_split_row_mean(r, &r->all, x->w, x->f[C_STORE], 64);
    for (int c = 0; c < C_STORE; c++)
        edan_split_row_mean(r, &r->set[c], x->w, x->f[c], 64);
    for (size_t i = 0; i < x->n; i++) {
        x->at[i] = (lc_window){.w = x->w[i], .blocks = x->f[C_STORE][i], .growth = x->f[C_STORE][i] / x->w[i]};
        for (int c = 0; c < C_STORE; c++) {
            x->at[i].blocks_of[c] = x->f[c][i];
            x->at[i].growth_of[c] = x->f[c][i] / x->w[i];
        }
    }
}

/* The windows' row of function key (an index, or LC_UNKNOWN_FN), of loop nest id. */
static uint32_t fn_row(const classes_tool *t, uint32_t key)
{
    return t->fn_row ? t->fn_row[key == LC_UNKNOWN_FN ? t->elf.n_funcs : key] : LC_NO_ROW;
}

static uint32_t nest_row(const classes_tool *t, uint32_t id)
{
    return id < t->n_loop_row ? t->loop_row[id] : LC_NO_ROW;
}

static int by_accesses(const void *a, const void *b)
{
    const lc_insn *x = *(const lc_insn *const *)a, *y = *(const lc_insn *const *)b;
    const uint64_t ax = insn_accesses(x), ay = insn_accesses(y);
    if (ax != ay)
        return ax < ay ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* A static load's row: its instruction's counts, its class, accesses and shares, and its place. */
typedef struct lc_load {
    const lc_insn *insn;
    const char *class, *function;
    int64_t text_stride; /* a strided load's stride, else 0 */
    double stride;       /* CSV's */
    uint64_t accesses;
    double share[C_STORE];
    edan_srcloc loc;
} lc_load;

/* The static loads (not stores), most accesses first. */
static lc_load *load_rows(const classes_tool *t, edan_srcmap *src, size_t *n)
{
    const lc_insn **by = malloc((t->n_insns + 1) * sizeof *by);
    lc_load *rows = calloc(t->n_insns + 1, sizeof *rows);
    *n = 0;
    for (size_t i = 0; by && rows && i < t->n_insns; i++)
        if (!t->insns[i].store)
            by[(*n)++] = &t->insns[i];
    if (by && rows)
        qsort(by, *n, sizeof *by, by_accesses);
    for (size_t i = 0; by && rows && i < *n; i++) {
        const lc_insn *l = by[i];
        lc_load *r = &rows[i];
        *r = (lc_load){.insn = l,
                       .class = class_name[insn_class(l)],
                       .function = t->have_elf ? fn_name(t, l->fn) : NULL,
                       .text_stride = insn_class(l) == C_STRIDED ? l->stride : 0,
                       .stride = (double)l->stride,
                       .accesses = insn_accesses(l)};
        for (int c = 0; c < C_STORE; c++)
            r->share[c] = 100.0 * ratio(l->n[c], r->accesses);
        if (src)
            edan_srcmap_lookup(src, l->pc, &r->loc);
    }
    if (!by || !rows)
        *n = 0;
    free(by);
    return rows;
}

/* ===================================================================== */
/* Tables                                                                 */
/* ===================================================================== */

/* A row's column of lc_row's member m (JSON and CSV its key, text its title). */
#define LC_F(m, key, unit, doc, flags, title, width, precision)                                                        \
    EDAN_COL_FIELD(lc_row, m, key, unit, doc, flags, title, width, precision)
#define JSON_ONLY (EDAN_NO_TEXT | EDAN_NO_CSV)
#define TEXT_ONLY (EDAN_NO_JSON | EDAN_NO_CSV)
/* A class's counts in JSON: its static loads (or stores), accesses and blocks. */
#define LC_CLASS(p, c, i)                                                                                              \
    LC_F(z.statics[i], p c ".static", "", "static " c " instructions", JSON_ONLY, NULL, 0, 0),                         \
        LC_F(z.accesses[i], p c ".accesses", "accesses", "their accesses", JSON_ONLY, NULL, 0, 0),                     \
        LC_F(z.blocks[i], p c ".blocks", "blocks", "the distinct blocks they touched", JSON_ONLY, NULL, 0, 0)
/* A row's class totals in JSON (in the object p, "classes." or the row itself): per class, then the loads' accesses and
 * blocks. */
#define LC_TOTALS(p)                                                                                                   \
    LC_CLASS(p, "constant", C_CONST), LC_CLASS(p, "strided", C_STRIDED), LC_CLASS(p, "irregular", C_IRREG),            \
        LC_CLASS(p, "store", C_STORE),                                                                                 \
        LC_F(z.load_accesses, p "load_accesses", "accesses", "the loads' accesses", JSON_ONLY, NULL, 0, 0),            \
        LC_F(z.load_blocks, p "load_blocks", "blocks", "the distinct blocks loads touched", JSON_ONLY, NULL, 0, 0)
/* Text only (a percentage or growth), CSV only. */
#define LC_TEXT(S, m, title, w, p, flags)                                                                              \
    EDAN_COL_FIELD(S, m, title, "", title " (text)", EDAN_NO_JSON | EDAN_NO_CSV | flags, title, w, p)
#define LC_CSV(m, key, unit, doc) LC_F(m, key, unit, doc, EDAN_NO_JSON | EDAN_NO_TEXT, NULL, 0, 0)
#define LC_BOTH(m, key, title, unit, doc) LC_F(m, key, unit, doc, EDAN_NO_JSON, title, 10, 0)
/*
 * A row's counts in text and CSV. Text shows a function's constant share, F, F_str, F_irr, dF_str and
 * dF_irr, a loop's every share, F, F_str, F_irr and dF: loop_only and fn_only (EDAN_NO_TEXT or 0) leave
 * the others' out.
 */
#define LC_COUNTS(loop_only, fn_only)                                                                                  \
    LC_F(z.load_accesses, "loads", "accesses", "the loads' accesses", EDAN_NO_JSON, NULL, 12, 0),                      \
        LC_TEXT(lc_row, share[C_CONST], "A_const%", 8, 1, EDAN_COL_PERCENT),                                           \
        LC_TEXT(lc_row, share[C_STRIDED], "A_str%", 8, 1, EDAN_COL_PERCENT | loop_only),                               \
        LC_TEXT(lc_row, share[C_IRREG], "A_irr%", 8, 1, EDAN_COL_PERCENT | loop_only),                                 \
        LC_CSV(z.accesses[C_CONST], "constant_accesses", "accesses", "constant accesses"),                             \
        LC_CSV(z.accesses[C_STRIDED], "strided_accesses", "accesses", "strided accesses"),                             \
        LC_CSV(z.accesses[C_IRREG], "irregular_accesses", "accesses", "irregular accesses"),                           \
        LC_BOTH(z.load_blocks, "blocks", "F", "blocks", "the distinct blocks loads touched"),                          \
        LC_CSV(z.blocks[C_CONST], "constant_blocks", "blocks", "blocks constant loads touched"),                       \
        LC_BOTH(z.blocks[C_STRIDED], "strided_blocks", "F_str", "blocks", "blocks strided loads touched"),             \
        LC_BOTH(z.blocks[C_IRREG], "irregular_blocks", "F_irr", "blocks", "blocks irregular loads touched"),           \
        LC_TEXT(lc_row, growth, "dF", 9, 4, loop_only),                                                                \
        LC_TEXT(lc_row, growth_of[C_STRIDED], "dF_str", 9, 4, fn_only),                                                \
        LC_TEXT(lc_row, growth_of[C_IRREG], "dF_irr", 9, 4, fn_only),                                                  \
        LC_CSV(z.accesses[C_STORE], "stores", "accesses", "stores' accesses"),                                         \
        LC_CSV(z.blocks[C_STORE], "store_blocks", "blocks", "the distinct blocks stores touched")
/* A row's footprint over windows in JSON (its second struct's, lc_windows): null when it has none. */
#define LC_WINDOWS(what)                                                                                               \
    EDAN_COL_GROUP_OF(1, lc_windows, has, "footprint_windows",                                                         \
                      "the footprint over windows of " what "'s loads (null: none)", JSON_ONLY),                       \
        LC_WINDOW_ARRAYS("footprint_windows.")
#define LC_ARRAY(m, key, unit, doc, flags) EDAN_COL_ARRAY_OF(1, lc_windows, m, n, key, unit, doc, flags)
#define LC_WINDOW_ARRAYS(p)                                                                                            \
    EDAN_COL_OF(1, lc_windows, accesses, p "accesses", "accesses", "the loads' accesses to blocks", JSON_ONLY, NULL,   \
                0, 0),                                                                                                 \
        LC_ARRAY(w, p "window", "accesses", "window sizes W", 0),                                                      \
        LC_ARRAY(f[C_STORE], p "blocks", "blocks", "mean distinct blocks per window", 0),                              \
        LC_ARRAY(f[C_CONST], p "constant", "blocks", "the same, of constant loads", 0),                                \
        LC_ARRAY(f[C_STRIDED], p "strided", "blocks", "of strided loads", 0),                                          \
        LC_ARRAY(f[C_IRREG], p "irregular", "blocks", "of irregular loads", 0)
#define LC_LABEL(title, w)                                                                                             \
    {                                                                                                                  \
        "label", EDAN_T_STR, "", "the row's name in text", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_NAME, title, w, 0,    \
            NULL, EDAN_CELL                                                                                            \
    }
/* One window size of the footprint over windows (text and CSV; JSON has them as arrays). */
#define LC_W(m, key, doc, flags, width, precision)                                                                     \
    EDAN_COL_FIELD(lc_window, m, key, "blocks", doc, EDAN_NO_JSON | flags, doc, width, precision)
#define LC_WINDOW_ROW                                                                                                  \
    EDAN_COL_FIELD(lc_window, w, "window", "accesses", "W", EDAN_NO_JSON, "W", 14, 0),                                 \
        LC_W(blocks, "blocks", "F", EDAN_COL_G, 12, 4),                                                                \
        LC_W(blocks_of[C_CONST], "constant_blocks", "F_const", EDAN_COL_G, 12, 4),                                     \
        LC_W(blocks_of[C_STRIDED], "strided_blocks", "F_str", EDAN_COL_G, 12, 4),                                      \
        LC_W(blocks_of[C_IRREG], "irregular_blocks", "F_irr", EDAN_COL_G, 12, 4),                                      \
        EDAN_COL_FIELD(lc_window, growth, "growth", "", "dF", EDAN_NO_JSON, "dF", 9, 4),                               \
        EDAN_COL_FIELD(lc_window, growth_of[C_CONST], "constant_growth", "", "dF_const", EDAN_NO_JSON, "dF_const", 9,  \
                       4),                                                                                             \
        EDAN_COL_FIELD(lc_window, growth_of[C_STRIDED], "strided_growth", "", "dF_str", EDAN_NO_JSON, "dF_str", 9, 4), \
        EDAN_COL_FIELD(lc_window, growth_of[C_IRREG], "irregular_growth", "", "dF_irr", EDAN_NO_JSON, "dF_irr", 9, 4)

static const edan_column top_cols[] = {
    {"block_bytes", EDAN_T_U64, "bytes", "the block size", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"how", EDAN_T_STR, "", "text: where the classes come from", EDAN_NO_JSON | EDAN_NO_CSV, NULL, 0, 0, NULL,
     EDAN_CELL}};
/* Text's summary: a row per class, then (without a heading) the loads'. */
typedef struct lc_class_row {
    const char *name, *blank;
    uint64_t statics, accesses, blocks;
    double share, growth, block_share; /* percent of the loads' accesses, blocks / accesses, percent of the blocks */
} lc_class_row;
#define LC_SUM(m, key, doc, flags, title, width, precision)                                                            \
    EDAN_COL_FIELD(lc_class_row, m, key, "", "text: " doc, flags, title, width, precision)
#define LC_SUMMARY(last)                                                                                               \
    LC_SUM(name, "class", "the class", EDAN_COL_LEFT, NULL, 10, 0),                                                    \
        LC_SUM(statics, "static", "its static instructions", 0, NULL, 12, 0),                                          \
        LC_SUM(accesses, "accesses", "their accesses", 0, NULL, 14, 0), last,                                          \
        LC_SUM(blocks, "footprint", "the distinct blocks they touched", 0, NULL, 12, 0),                               \
        LC_SUM(growth, "growth", "footprint / accesses", 0, "dF (F/A)", 12, 4)
static const edan_column summary_cols[] = {
    LC_SUMMARY(LC_SUM(share, "share", "the share of the loads' accesses", EDAN_COL_PERCENT, "%", 7, 1)),
    LC_SUM(block_share, "block_share", "the share of the loads' footprint", EDAN_COL_PERCENT, "dF %", 8, 1)};
static const edan_column summary_all_cols[] = {LC_SUMMARY(LC_SUM(blank, "blank", "nothing", 0, NULL, 7, 0))};
static const edan_column all_cols[] = {LC_TOTALS("")};
static const edan_column function_cols[] = {
    LC_F(name, "label", "", "the row's name in text", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_NAME, "function", 32, 0),
    EDAN_COL_FIELD_AS(lc_row, name, "name", "", "the function", EDAN_NO_TEXT, NULL, 0, 0, .csv_key = "function"),
    LC_TOTALS("classes."),
    LC_COUNTS(EDAN_NO_TEXT, 0),
    LC_WINDOWS("the function"),
};
static const edan_column loop_cols[] = {
    LC_LABEL(EDAN_LOOP_TITLE, 40),
    EDAN_LOOP_COLUMNS,
    LC_TOTALS("classes."),
    LC_COUNTS(0, EDAN_NO_TEXT),
};
static const edan_column nest_cols[] = {
    LC_LABEL(EDAN_NEST_TITLE, 40), EDAN_NEST_COLUMNS,      LC_TOTALS("classes."),
    LC_COUNTS(0, EDAN_NO_TEXT),    LC_WINDOWS("the nest"),
};
/* A load's column of its instruction's member m (lc_insn), or of its row's (lc_load, the row's second struct). */
#define LC_I(m, key, unit, doc, flags) EDAN_COL_FIELD(lc_insn, m, key, unit, doc, flags, NULL, 0, 0)
#define LC_L(m, key, unit, doc, flags, width) EDAN_COL_OF(1, lc_load, m, key, unit, doc, flags, NULL, width, 0)
static const edan_column load_cols[] = {
    LC_LABEL("load (pc, function, line)", 44),
    {"pc", EDAN_T_U64, "address", "the load", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    {"function", EDAN_T_STR, "", "its function (null: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    {"file", EDAN_T_STR, "", "its source file (null: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    {"line", EDAN_T_U64, "", "its source line (0: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    LC_L(class, "class", "", "the class of most of its accesses", EDAN_COL_LEFT, 9),
    /* the stride three times: JSON's, text's (0 unless strided), CSV's (as a number, %.10g) */
    LC_I(stride, "stride", "bytes", "its latest repeated step", JSON_ONLY),
    LC_L(text_stride, "stride", "bytes", "a strided load's stride", EDAN_NO_JSON | EDAN_NO_CSV, 7),
    LC_L(stride, "stride", "bytes", "its latest repeated step", EDAN_NO_JSON | EDAN_NO_TEXT, 0),
    LC_L(accesses, "accesses", "accesses", "its accesses", 0, 12),
    EDAN_COL_OF(1, lc_load, share[C_CONST], "const%", "", "const% (text)", TEXT_ONLY | EDAN_COL_PERCENT, "const%", 7,
                1),
    EDAN_COL_OF(1, lc_load, share[C_STRIDED], "str%", "", "str% (text)", TEXT_ONLY | EDAN_COL_PERCENT, "str%", 7, 1),
    EDAN_COL_OF(1, lc_load, share[C_IRREG], "irr%", "", "irr% (text)", TEXT_ONLY | EDAN_COL_PERCENT, "irr%", 7, 1),
    LC_I(n[C_CONST], "constant", "accesses", "those classed constant", EDAN_NO_TEXT),
    LC_I(n[C_STRIDED], "strided", "accesses", "strided", EDAN_NO_TEXT),
    LC_I(n[C_IRREG], "irregular", "accesses", "irregular", EDAN_NO_TEXT),
    LC_I(dependent, "dependent", "accesses", "those whose address depended on a recent load", EDAN_NO_TEXT),
};
static const edan_column windows_cols[] = {LC_WINDOW_ARRAYS("")};
static const edan_column window_rows_cols[] = {LC_WINDOW_ROW};
static const edan_column function_window_cols[] = {
    EDAN_COL_OF(1, lc_row, name, "function", "", "the function", EDAN_NO_JSON | EDAN_NO_TEXT, NULL, 0, 0),
    LC_WINDOW_ROW};
static const edan_column nest_window_cols[] = {EDAN_LOOP_COLUMNS, LC_WINDOW_ROW};

enum {
    T_TOP,
    T_ALL,
    T_FUNCTIONS,
    T_LOOPS,
    T_NESTS,
    T_LOADS,
    T_WINDOWS,
    T_WINDOW_ROWS,
    T_FN_WINDOWS,
    T_NEST_WINDOWS,
    T_SUMMARY,
    T_SUMMARY_ALL,
    N_T
};
const edan_table_decl edan_lc_tables[] = {
    EDAN_TABLE_DECL("load_classes", NULL, true, "the whole run", top_cols),
    EDAN_TABLE_DECL("load_classes.all", NULL, true, "the whole run's classes", all_cols),
    EDAN_TABLE_DECL("load_classes.functions", "classes-functions", false, "per function, most load footprint first",
                    function_cols),
    EDAN_TABLE_DECL("load_classes.loops", "classes-loops", false, "per innermost loop, most load footprint first",
                    loop_cols),
    EDAN_TABLE_DECL("load_classes.loop_nests", "classes-nests", false, "per loop nest, most load footprint first",
                    nest_cols),
    EDAN_TABLE_DECL("load_classes.loads", "load-classes", false, "per static load, most accesses first", load_cols),
    EDAN_TABLE_DECL("load_classes.footprint_windows", NULL, true, "the loads' footprint over windows", windows_cols),
    EDAN_CSV_TABLE_DECL("load_classes.window_rows", "classes-windows", "a row per window size", window_rows_cols),
    EDAN_CSV_TABLE_DECL("load_classes.function_windows", "classes-function-windows",
                        "a row per function and window size", function_window_cols),
    EDAN_CSV_TABLE_DECL("load_classes.nest_windows", "classes-nest-windows", "a row per loop nest and window size",
                        nest_window_cols),
    EDAN_CSV_TABLE_DECL("load_classes.summary", NULL, "text: a class", summary_cols),
    EDAN_CSV_TABLE_DECL("load_classes.summary_all", NULL, "text: the loads", summary_all_cols),
    {NULL, NULL, false, NULL, NULL, 0, false},
};

/*
 * How the report shows its tables: text, JSON and CSV each in its own order
 * (the loads' three times, once in each).
 */
#define N_RESULTS 14
static const int layout_table[N_RESULTS] = {T_TOP,          T_ALL,        T_SUMMARY, T_SUMMARY_ALL, T_LOADS,
                                            T_FUNCTIONS,    T_FN_WINDOWS, T_LOADS,   T_LOOPS,       T_NESTS,
                                            T_NEST_WINDOWS, T_LOADS,      T_WINDOWS, T_WINDOW_ROWS};
static const edan_result layout[N_RESULTS] = {
    {.view = {.title = "\nload classes ({how}; {block_bytes}-byte blocks)"}},
    {.left = EDAN_NO_TEXT},
    {.view = {0}},
    {.view = {.no_heading = true}},
    {.left = EDAN_NO_TEXT | EDAN_NO_JSON},
    {.view = {.max_rows = TEXT_ROWS, .more = " functions; --json lists all"}},
    {.left = EDAN_NO_TEXT},
    {.view = {.max_rows = TEXT_ROWS, .more = " loads; --json lists the top 100"}, .left = EDAN_NO_JSON | EDAN_NO_CSV},
    {.view = {.max_rows = TEXT_ROWS, .more = " loops; --json lists all"}},
    {.view = {.max_rows = TEXT_ROWS, .more = " loop nests; --json lists all"}},
    {.left = EDAN_NO_TEXT},
    {.left = EDAN_NO_TEXT | EDAN_NO_CSV, .json_rows = JSON_ROWS},
    {.left = EDAN_NO_TEXT},
    {.view = {.caption = "  footprint over windows of W load accesses to blocks (mean distinct blocks per window, by "
                         "class, and growth F/W)"}},
};

typedef struct lc_tables {
    edan_table t[N_T];
    /* the rows the tables show: the whole run's, each function's, loop's and nest's, each load's */
    lc_row run, *rows[BY_NEST + 1];
    size_t n[BY_NEST + 1], n_loads;
    lc_load *loads;
    lc_windows *win; /* the windows the tables point at: the whole run's, each function's, each nest's */
    lc_class_row sum[N_CLASSES + 1];
    edan_result r[N_RESULTS];
} lc_tables;

/* Text's summary of the classes: a row per class, then the loads'. */
static void summary(const lc_totals *zp, lc_class_row *out)
{
    const lc_totals z = *zp;
    const uint64_t fsum = z.blocks[C_CONST] + z.blocks[C_STRIDED] + z.blocks[C_IRREG];
    for (int c = 0; c < N_CLASSES; c++) {
        const uint64_t base = c == C_STORE ? z.accesses[C_STORE] : z.load_accesses;
        out[c] = (lc_class_row){class_name[c],
                                "",
                                z.statics[c],
                                z.accesses[c],
                                z.blocks[c],
                                c == C_STORE ? 0.0 : 100.0 * ratio(z.accesses[c], base),
                                ratio(z.blocks[c], base),
                                c == C_STORE ? 0.0 : 100.0 * ratio(z.blocks[c], fsum)};
    }
    out[N_CLASSES] = (lc_class_row){"all loads",
                                    "",
                                    z.statics[C_CONST] + z.statics[C_STRIDED] + z.statics[C_IRREG],
                                    z.load_accesses,
                                    z.load_blocks,
                                    0,
                                    ratio(z.load_blocks, z.load_accesses),
                                    0};
}

/* The rows of the tables (they outlive them): the groups', their windows and the loads'. */
static void collect(const classes_tool *t, edan_srcmap *src, lc_tables *x)
{
    for (int by = BY_RUN; by <= BY_NEST; by++)
        x->rows[by] = group_rows(t, by, &x->n[by]);
    x->run = x->n[BY_RUN] ? x->rows[BY_RUN][0] : (lc_row){0}; /* zeros when out of memory */
    summary(&x->run.z, x->sum);
    x->loads = load_rows(t, src, &x->n_loads);
    const size_t n_fn = x->n[BY_FUNCTION];
    if (!(x->win = calloc(1 + n_fn + x->n[BY_NEST], sizeof *x->win)))
        return;
    windows_of(t, 0, x->win);
    for (size_t i = 0; i < n_fn; i++)
        windows_of(t, fn_row(t, x->rows[BY_FUNCTION][i].key), &x->win[1 + i]);
    for (size_t i = 0; i < x->n[BY_NEST]; i++)
        windows_of(t, nest_row(t, x->rows[BY_NEST][i].key), &x->win[1 + n_fn + i]);
}

/* A loop's or nest's rows, and (nests) their windows' rows. */
static void loop_tables(const classes_tool *t, edan_srcmap *src, int by, lc_tables *x, const lc_windows *w)
{
    edan_table *tab = &x->t[by == BY_NEST ? T_NESTS : T_LOOPS];
    for (size_t i = 0; i < x->n[by]; i++) {
        const lc_row *r = &x->rows[by][i];
        const lc_windows *nw = by == BY_NEST ? &w[i] : NULL;
        const edan_loop *l = edan_loops_get(t->loops, r->key);
        const edan_loop_place p = loop_place(t, r->key, src);
        const int64_t inside = nw ? (int64_t)edan_loops_inside(t->loops, r->key) : -1;
        edan_value *v = edan_loop_row(tab, l, &p, inside, r, nw);
        for (size_t k = 0; v && nw && k < nw->n; k++)
            if ((v = edan_table_row_of(&x->t[T_NEST_WINDOWS], 0, &nw->at[k], NULL)))
                edan_loop_cells(&x->t[T_NEST_WINDOWS], v, l, &p, -1);
        if (!v)
            break;
    }
}

static void make_tables(const classes_tool *t, const edan_session *s, lc_tables *x)
{
    for (int k = 0; k < N_T; k++)
        edan_table_init(&x->t[k], &edan_lc_tables[k]);
    for (int i = 0; i < N_RESULTS; i++) {
        x->r[i] = layout[i];
        x->r[i].t = &x->t[layout_table[i]];
        x->r[i].left |= !t->have_elf && (i == 5 || i == 6) ? EDAN_NO_CSV : 0;
    }
    x->r[5].absent = !t->have_elf;
    edan_srcmap *src = open_src(t, s);
    collect(t, src, x);
    edan_table_rows_of(&x->t[T_SUMMARY], x->sum, N_CLASSES, sizeof *x->sum);
    edan_table_rows_of(&x->t[T_SUMMARY_ALL], &x->sum[N_CLASSES], 1, sizeof *x->sum);
    edan_value *v = edan_table_row(&x->t[T_TOP], 0);
    if (v) {
        v[0].u = 1u << LC_BLOCK_SHIFT;
        v[1].s = t->given ? "each static load's from --load-classes, the others' from their address sequence"
                          : "each access from the eDAG and its load's address sequence";
    }
    edan_table_rows_of(&x->t[T_ALL], &x->run, 1, sizeof x->run);
    const lc_windows *w = x->win;
    if (w && edan_table_row_of(&x->t[T_WINDOWS], 0, NULL, w))
        edan_table_rows_of(&x->t[T_WINDOW_ROWS], w->at, w->n, sizeof *w->at);
    for (size_t i = 0; w && i < x->n[BY_FUNCTION]; i++) {
        const lc_row *r = &x->rows[BY_FUNCTION][i];
        edan_table_row_of(&x->t[T_FUNCTIONS], 0, r, &w[1 + i]);
        for (size_t k = 0; k < w[1 + i].n; k++)
            edan_table_row_of(&x->t[T_FN_WINDOWS], 0, &w[1 + i].at[k], r);
    }
    if (w) {
        loop_tables(t, src, BY_LOOP, x, w);
        loop_tables(t, src, BY_NEST, x, w + 1 + x->n[BY_FUNCTION]);
    }
    for (size_t i = 0;
         w && i < x->n_loads && (v = edan_table_row_of(&x->t[T_LOADS], 0, x->loads[i].insn, &x->loads[i])); i++)
        edan_insn_cells(&x->t[T_LOADS], v, x->loads[i].insn->pc, x->loads[i].function, x->loads[i].loc.file,
                        x->loads[i].loc.line);
    edan_srcmap_close(src);
}

static void free_tables(lc_tables *x)
{
    for (int k = 0; k < N_T; k++)
        edan_table_free(&x->t[k]);
    for (int by = BY_RUN; by <= BY_NEST; by++)
        free(x->rows[by]);
    free(x->loads);
    free(x->win);
}

/* ===================================================================== */
/* Report                                                                 */
/* ===================================================================== */

/*
 * Name the instructions' functions once the stream is over, the shared objects' included (edan_session_name_objects):
 * each fn anew, and fn_row by the new functions. A function's loads counted in the windows' row the stream gave
 * its instruction (its program function's, its library function's when the stream named the objects ahead of
 * their code, else the one row of code outside them); that row is the function's when no other function's loads
 * are in it, else the function has none.
 */
static void name_functions(classes_tool *t, const edan_session *s)
{
    if (!t->have_elf || t->named)
        return;
    edan_session_name_objects(s, &t->elf, &t->named);
    const uint32_t rows = t->win.n_rows, none = LC_NO_ROW, shared = LC_NO_ROW - 1;
    uint32_t *owner = malloc((rows + 1) * sizeof *owner), *by_fn = malloc((t->elf.n_funcs + 1) * sizeof *by_fn);
    for (size_t f = 0; by_fn && f <= t->elf.n_funcs; f++)
        by_fn[f] = LC_NO_ROW;
    for (uint32_t r = 0; owner && r < rows; r++)
        owner[r] = none;
    for (size_t i = 0; i < t->n_insns; i++) {
        lc_insn *in = &t->insns[i];
        const edan_elf_func *f = edan_elf_func_at(&t->elf, in->pc);
        in->fn = f ? (uint32_t)(f - t->elf.funcs) : LC_UNKNOWN_FN;
        const uint32_t key = in->fn == LC_UNKNOWN_FN ? (uint32_t)t->elf.n_funcs : in->fn;
        if (owner && in->fn_row < rows)
            owner[in->fn_row] = owner[in->fn_row] == none || owner[in->fn_row] == key ? key : shared;
    }
    for (size_t i = 0; owner && by_fn && i < t->n_insns; i++) {
        const lc_insn *in = &t->insns[i];
        const uint32_t key = in->fn == LC_UNKNOWN_FN ? (uint32_t)t->elf.n_funcs : in->fn;
        if (in->fn_row < rows && owner[in->fn_row] == key)
            by_fn[key] = in->fn_row;
    }
    free(owner);
    free(t->fn_row);
    t->fn_row = by_fn; /* NULL when out of memory: no function's windows */
}

int edan_lc_results(void *tool, const edan_session *s, edan_tool_results *x)
{
    lc_tables *t = malloc(sizeof *t);
    if (!t)
        return -1;
    name_functions(tool, s);
    make_tables(tool, s, t);
    *x = (edan_tool_results){t->r, N_RESULTS, t};
    return 0;
}

void edan_lc_free_results(void *own)
{
    free_tables(own);
    free(own);
}

/* --plot-dir: the loads' footprint over windows, of all loads and by class. */
static int plot_outputs(const classes_tool *t, const edan_session *s, edan_error *err)
{
    lc_windows x;
    windows_of(t, 0, &x);
    if (!x.n)
        return 0;
    char name[1100];
    edan_session_file_base(s, name, sizeof name);
    char ident[1600];
    edan_session_plot_ident(s, ident, sizeof ident);
    const edan_plot_xy_spec w = {"classes-windows",
                                 "Footprint over windows of W load accesses, by load class",
                                 "window W (load accesses)",
                                 "mean distinct blocks F(W)",
                                 true,
                                 true,
                                 4,
                                 {"all loads", "constant", "strided", "irregular"},
                                 x.n,
                                 x.w,
                                 {x.f[C_STORE], x.f[C_CONST], x.f[C_STRIDED], x.f[C_IRREG]},
                                 ident,
                                 EDAN_AXIS_COUNT,
                                 EDAN_AXIS_COUNT,
                                 false};
    return edan_plot_xy(edan_session_options(s)->plot_dir, name, &w, err);
}

/* --plot-dir: the windows (the session writes the tables' CSV files). */
int edan_lc_outputs(void *tool, const edan_session *s, edan_error *err)
{
    return edan_session_options(s)->plot_dir[0] ? plot_outputs(tool, s, err) : 0;
}
