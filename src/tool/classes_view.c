/*
 * classes_view.c - what the load-classes tool reports (classes_tool.c
 * collects it): the classes in all, per function, per innermost loop, per
 * loop nest and per static load, and the footprint by class over windows
 * (of the whole run, each function and each nest), as text, JSON and CSV.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"
#include "report/json.h"
#include "report/names.h"
#include "report/plot.h"
#include "tool/classes_tool.h"
#include "tool/session.h"
#include "util/srcmap.h"

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
} lc_row;

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
    for (size_t i = 0; i < n; i++)
        if (rows[i].z.load_accesses || rows[i].z.accesses[C_STORE])
            rows[(*n_rows)++] = rows[i];
    qsort(rows, *n_rows, sizeof *rows, by_load_blocks);
    return rows;
}

/* The whole run's totals (zeros when out of memory). */
static lc_totals totals(const classes_tool *t)
{
    size_t n;
    lc_row *r = group_rows(t, BY_RUN, &n);
    lc_totals z;
    memset(&z, 0, sizeof z);
    if (r && n)
        z = r[0].z;
    free(r);
    return z;
}

static const char *fn_name(const classes_tool *t, uint32_t fn)
{
    return fn == LC_UNKNOWN_FN || fn == LC_ALL ? "(outside known functions)" : t->elf.funcs[fn].name;
}

static edan_srcmap *open_src(const classes_tool *t, const edan_session *s)
{
    edan_error ignored = {0};
    return t->have_elf ? edan_srcmap_open(edan_session_source(s)->binary, &ignored) : NULL;
}

/* A loop's place: its head's function, file and line. */
static edan_loop_place loop_place(const classes_tool *t, uint32_t id, edan_srcmap *src)
{
    return edan_loops_place(t->loops, id, t->elf_open ? &t->elf : NULL, src);
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* The loads' footprint over windows: W, and per window F (all loads), F_const, F_str, F_irr; n levels. */
typedef struct lc_windows {
    size_t n;
    double w[64], f[N_CLASSES][64]; /* f[C_STORE] holds all loads' */
} lc_windows;

/* Row `row`'s windows (0: the whole run's; LC_NO_ROW: none, n = 0). */
static void windows_of(const classes_tool *t, uint32_t row, lc_windows *x)
{
    x->n = 0;
    if (row == LC_NO_ROW)
        return;
    const edan_split_row *r = &t->win.rows[row];
    x->n = edan_split_row_mean(r, &r->all, x->w, x->f[C_STORE], 64);
    for (int c = 0; c < C_STORE; c++)
        edan_split_row_mean(r, &r->set[c], x->w, x->f[c], 64);
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

static void windows_text(const classes_tool *t, FILE *f)
{
    lc_windows x;
    windows_of(t, 0, &x);
    if (!x.n)
        return;
    fprintf(f, "  footprint over windows of W load accesses to blocks (mean distinct blocks per window, by class, and "
               "growth F/W)\n");
    fprintf(f, "  %14s %12s %12s %12s %12s %9s %9s %9s %9s\n", "W", "F", "F_const", "F_str", "F_irr", "dF", "dF_const",
            "dF_str", "dF_irr");
    for (size_t i = 0; i < x.n; i++) {
        fprintf(f, "  %14.0f %12.4g %12.4g %12.4g %12.4g", x.w[i], x.f[C_STORE][i], x.f[C_CONST][i], x.f[C_STRIDED][i],
                x.f[C_IRREG][i]);
        fprintf(f, " %9.4f %9.4f %9.4f %9.4f\n", x.f[C_STORE][i] / x.w[i], x.f[C_CONST][i] / x.w[i],
                x.f[C_STRIDED][i] / x.w[i], x.f[C_IRREG][i] / x.w[i]);
    }
}

/* The innermost loops' rows, or (nests) the rows of the nests with loops inside them. */
static void loops_text(const classes_tool *t, edan_srcmap *src, bool nests, bool wide, FILE *f)
{
    size_t n;
    lc_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    size_t shown = 0, more = 0;
    for (size_t i = 0; rows && i < n; i++) {
        if (nests && edan_loops_inside(t->loops, rows[i].key) < 2)
            continue;
        if (shown == TEXT_ROWS) {
            more++;
            continue;
        }
        if (!shown++)
            fprintf(f, "  %-40s %12s %8s %8s %8s %10s %10s %10s %9s\n",
                    nests ? "loop nest (head's line, function, loops)" : "loop (head's line, function, depth)", "loads",
                    "A_const%", "A_str%", "A_irr%", "F", "F_str", "F_irr", "dF");
        const lc_totals *y = &rows[i].z;
        const edan_loop_place p = loop_place(t, rows[i].key, src);
        const char *base = p.file ? strrchr(p.file, '/') : NULL;
        char name[1100];
        snprintf(name, sizeof name, "%s:%u %s (%u)",
                 base     ? base + 1
                 : p.file ? p.file
                          : "?",
                 p.line, p.function ? p.function : "?",
                 nests ? edan_loops_inside(t->loops, rows[i].key) : edan_loops_get(t->loops, rows[i].key)->depth);
        fputs("  ", f);
        edan_name_field(f, name, 40, wide);
        fprintf(f, " %12" PRIu64 " %7.1f%% %7.1f%% %7.1f%% %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %9.4f\n",
                y->load_accesses, 100.0 * ratio(y->accesses[C_CONST], y->load_accesses),
                100.0 * ratio(y->accesses[C_STRIDED], y->load_accesses),
                100.0 * ratio(y->accesses[C_IRREG], y->load_accesses), y->load_blocks, y->blocks[C_STRIDED],
                y->blocks[C_IRREG], ratio(y->load_blocks, y->load_accesses));
    }
    if (more)
        fprintf(f, "  (%zu more %s; --json lists all)\n", more, nests ? "loop nests" : "loops");
    free(rows);
}

static int by_accesses(const void *a, const void *b)
{
    const lc_insn *x = *(const lc_insn *const *)a, *y = *(const lc_insn *const *)b;
    const uint64_t ax = insn_accesses(x), ay = insn_accesses(y);
    if (ax != ay)
        return ax < ay ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The static loads (not stores), most accesses first. */
static const lc_insn **load_rows(const classes_tool *t, size_t *n)
{
    const lc_insn **rows = malloc((t->n_insns + 1) * sizeof *rows);
    *n = 0;
    for (size_t i = 0; rows && i < t->n_insns; i++)
        if (!t->insns[i].store)
            rows[(*n)++] = &t->insns[i];
    if (rows)
        qsort(rows, *n, sizeof *rows, by_accesses);
    return rows;
}

static void report_text(const classes_tool *t, const edan_session *s, FILE *f)
{
    const lc_totals z = totals(t);
    fprintf(f, "\nload classes (%s; 64-byte blocks)\n",
            t->given ? "each static load's from --load-classes, the others' from their address sequence"
                     : "each access from the eDAG and its load's address sequence");
    fprintf(f, "  %-10s %12s %14s %7s %12s %12s %8s\n", "class", "static", "accesses", "%", "footprint", "dF (F/A)",
            "dF %");
    uint64_t fsum = z.blocks[C_CONST] + z.blocks[C_STRIDED] + z.blocks[C_IRREG];
    for (int c = 0; c < N_CLASSES; c++) {
        const uint64_t base = c == C_STORE ? z.accesses[C_STORE] : z.load_accesses;
        fprintf(f, "  %-10s %12" PRIu64 " %14" PRIu64 " %6.1f%% %12" PRIu64 " %12.4f %7.1f%%\n", class_name[c],
                z.statics[c], z.accesses[c], c == C_STORE ? 0.0 : 100.0 * ratio(z.accesses[c], base), z.blocks[c],
                ratio(z.blocks[c], base), c == C_STORE ? 0.0 : 100.0 * ratio(z.blocks[c], fsum));
    }
    fprintf(f, "  %-10s %12" PRIu64 " %14" PRIu64 " %7s %12" PRIu64 " %12.4f\n", "all loads",
            z.statics[C_CONST] + z.statics[C_STRIDED] + z.statics[C_IRREG], z.load_accesses, "", z.load_blocks,
            ratio(z.load_blocks, z.load_accesses));
    size_t n;
    lc_row *rows = group_rows(t, BY_FUNCTION, &n);
    if (rows && n) {
        fprintf(f, "  %-32s %12s %8s %10s %10s %10s %9s %9s\n", "function", "loads", "A_const%", "F", "F_str", "F_irr",
                "dF_str", "dF_irr");
        for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
            const lc_totals *y = &rows[i].z;
            fputs("  ", f);
            edan_name_field(f, fn_name(t, rows[i].key), 32, edan_session_options(s)->wide);
            fprintf(f, " %12" PRIu64 " %7.1f%% %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %9.4f %9.4f\n",
                    y->load_accesses, 100.0 * ratio(y->accesses[C_CONST], y->load_accesses), y->load_blocks,
                    y->blocks[C_STRIDED], y->blocks[C_IRREG], ratio(y->blocks[C_STRIDED], y->load_accesses),
                    ratio(y->blocks[C_IRREG], y->load_accesses));
        }
        if (n > TEXT_ROWS)
            fprintf(f, "  (%zu more functions; --json lists all)\n", n - TEXT_ROWS);
    }
    free(rows);
    edan_srcmap *src = open_src(t, s);
    const lc_insn **loads = load_rows(t, &n);
    if (loads && n) {
        fprintf(f, "  %-44s %-9s %7s %12s %7s %7s %7s\n", "load (pc, function, line)", "class", "stride", "accesses",
                "const%", "str%", "irr%");
        for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
            const lc_insn *l = loads[i];
            edan_srcloc loc = {NULL, NULL, 0};
            if (src)
                edan_srcmap_lookup(src, l->pc, &loc);
            const char *base = loc.file ? strrchr(loc.file, '/') : NULL;
            char name[1100];
            snprintf(name, sizeof name, "%" PRIx64 " %s %s:%u", l->pc, t->have_elf ? fn_name(t, l->fn) : "?",
                     base       ? base + 1
                     : loc.file ? loc.file
                                : "?",
                     loc.line);
            const uint64_t a = insn_accesses(l);
            fputs("  ", f);
            edan_name_field(f, name, 44, edan_session_options(s)->wide);
            fprintf(f, " %-9s %7" PRId64 " %12" PRIu64 " %6.1f%% %6.1f%% %6.1f%%\n", class_name[insn_class(l)],
                    insn_class(l) == C_STRIDED ? l->stride : 0, a, 100.0 * ratio(l->n[C_CONST], a),
                    100.0 * ratio(l->n[C_STRIDED], a), 100.0 * ratio(l->n[C_IRREG], a));
        }
        if (n > TEXT_ROWS)
            fprintf(f, "  (%zu more loads; --json lists the top %d)\n", n - TEXT_ROWS, JSON_ROWS);
    }
    loops_text(t, src, false, edan_session_options(s)->wide, f);
    loops_text(t, src, true, edan_session_options(s)->wide, f);
    windows_text(t, f);
    edan_srcmap_close(src);
    free(loads);
}

static void json_totals(FILE *f, const lc_totals *z)
{
    fputs("{", f);
    for (int c = 0; c < N_CLASSES; c++)
        fprintf(f, "%s\"%s\":{\"static\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"blocks\":%" PRIu64 "}", c ? "," : "",
                class_name[c], z->statics[c], z->accesses[c], z->blocks[c]);
    fprintf(f, ",\"load_accesses\":%" PRIu64 ",\"load_blocks\":%" PRIu64 "}", z->load_accesses, z->load_blocks);
}

/* Row `row`'s windows as a JSON object (null without a row). */
static void json_windows(const classes_tool *t, uint32_t row, FILE *f)
{
    lc_windows x;
    windows_of(t, row, &x);
    if (row == LC_NO_ROW) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"accesses\":%" PRIu64 ",\"window\":", t->win.rows[row].accesses);
    edan_json_num_array(f, x.w, x.n);
    fputs(",\"blocks\":", f);
    edan_json_num_array(f, x.f[C_STORE], x.n);
    for (int c = 0; c < C_STORE; c++) {
        fprintf(f, ",\"%s\":", class_name[c]);
        edan_json_num_array(f, x.f[c], x.n);
    }
    fputc('}', f);
}

/* The innermost loops' rows, or (nests) every loop nest's, with its windows. */
static void json_loops(const classes_tool *t, edan_srcmap *src, bool nests, FILE *f)
{
    size_t n;
    lc_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    fputs(nests ? ",\"loop_nests\":[" : ",\"loops\":[", f);
    for (size_t i = 0; rows && i < n; i++) {
        const edan_loop *l = edan_loops_get(t->loops, rows[i].key);
        const edan_loop_place p = loop_place(t, rows[i].key, src);
        fprintf(f, "%s{\"head\":%" PRIu64 ",\"end\":%" PRIu64 ",\"depth\":%u,\"iterations\":%" PRIu64 ",\"function\":",
                i ? "," : "", l->head, l->end, l->depth, l->back_edges);
        edan_json_str(f, p.function);
        fputs(",\"file\":", f);
        edan_json_str(f, p.file);
        fprintf(f, ",\"line\":%u,", p.line);
        if (nests)
            fprintf(f, "\"loops\":%u,", edan_loops_inside(t->loops, rows[i].key));
        fputs("\"classes\":", f);
        json_totals(f, &rows[i].z);
        if (nests) {
            fputs(",\"footprint_windows\":", f);
            json_windows(t, nest_row(t, rows[i].key), f);
        }
        fputc('}', f);
    }
    fputc(']', f);
    free(rows);
}

static void report_json(const classes_tool *t, const edan_session *s, FILE *f)
{
    const lc_totals z = totals(t);
    fprintf(f, ",\"load_classes\":{\"block_bytes\":%u,\"all\":", 1u << LC_BLOCK_SHIFT);
    json_totals(f, &z);
    fputs(",\"functions\":", f);
    size_t n;
    lc_row *rows = group_rows(t, BY_FUNCTION, &n);
    if (!t->have_elf) {
        fputs("null", f);
    } else {
        fputc('[', f);
        for (size_t i = 0; rows && i < n; i++) {
            fputs(i ? ",{\"name\":" : "{\"name\":", f);
            edan_json_str(f, fn_name(t, rows[i].key));
            fputs(",\"classes\":", f);
            json_totals(f, &rows[i].z);
            fputs(",\"footprint_windows\":", f);
            json_windows(t, fn_row(t, rows[i].key), f);
            fputc('}', f);
        }
        fputc(']', f);
    }
    free(rows);
    edan_srcmap *src = open_src(t, s);
    json_loops(t, src, false, f);
    json_loops(t, src, true, f);
    const lc_insn **loads = load_rows(t, &n);
    fputs(",\"loads\":[", f);
    for (size_t i = 0; loads && i < n && i < JSON_ROWS; i++) {
        const lc_insn *l = loads[i];
        edan_srcloc loc = {NULL, NULL, 0};
        if (src)
            edan_srcmap_lookup(src, l->pc, &loc);
        fprintf(f, "%s{\"pc\":%" PRIu64 ",\"function\":", i ? "," : "", l->pc);
        edan_json_str(f, t->have_elf ? fn_name(t, l->fn) : NULL);
        fputs(",\"file\":", f);
        edan_json_str(f, loc.file);
        fprintf(f,
                ",\"line\":%u,\"class\":\"%s\",\"stride\":%" PRId64 ",\"accesses\":%" PRIu64 ",\"constant\":%" PRIu64
                ",\"strided\":%" PRIu64 ",\"irregular\":%" PRIu64 ",\"dependent\":%" PRIu64 "}",
                loc.line, class_name[insn_class(l)], l->stride, insn_accesses(l), l->n[C_CONST], l->n[C_STRIDED],
                l->n[C_IRREG], l->dependent);
    }
    fputc(']', f);
    fputs(",\"footprint_windows\":", f);
    json_windows(t, 0, f);
    fputc('}', f);
    edan_srcmap_close(src);
    free(loads);
}

void edan_lc_report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const classes_tool *t = tool;
    if (fmt == EDAN_FORMAT_JSON)
        report_json(t, s, f);
    else if (fmt == EDAN_FORMAT_TEXT)
        report_text(t, s, f);
}

/* A row's counts, the columns loads .. store_blocks of the classes-loops and classes-functions tables, and its end. */
static void csv_totals(edan_csv *c, const lc_totals *z)
{
    edan_csv_u64(c, z->load_accesses);
    for (int k = 0; k < C_STORE; k++)
        edan_csv_u64(c, z->accesses[k]);
    edan_csv_u64(c, z->load_blocks);
    for (int k = 0; k < C_STORE; k++)
        edan_csv_u64(c, z->blocks[k]);
    edan_csv_u64(c, z->accesses[C_STORE]);
    edan_csv_u64(c, z->blocks[C_STORE]);
    edan_csv_end_row(c);
}

#define WINDOW_COLUMNS                                                                                                 \
    "window,blocks,constant_blocks,strided_blocks,irregular_blocks,growth,constant_growth,strided_growth,"             \
    "irregular_growth"

/* Level i of windows x: the columns window .. irregular_growth, and the row's end. */
static void csv_window(edan_csv *c, const lc_windows *x, size_t i)
{
    edan_csv_num(c, x->w[i]);
    edan_csv_num(c, x->f[C_STORE][i]);
    for (int k = 0; k < C_STORE; k++)
        edan_csv_num(c, x->f[k][i]);
    edan_csv_num(c, x->f[C_STORE][i] / x->w[i]);
    for (int k = 0; k < C_STORE; k++)
        edan_csv_num(c, x->f[k][i] / x->w[i]);
    edan_csv_end_row(c);
}

/* A loop's columns head .. line. */
static void csv_loop(edan_csv *c, const classes_tool *t, uint32_t id, edan_srcmap *src)
{
    const edan_loop *l = edan_loops_get(t->loops, id);
    const edan_loop_place p = loop_place(t, id, src);
    edan_csv_u64(c, l->head);
    edan_csv_u64(c, l->end);
    edan_csv_u64(c, l->depth);
    edan_csv_u64(c, l->back_edges);
    edan_csv_str(c, p.function);
    edan_csv_str(c, p.file);
    edan_csv_u64(c, p.line);
}

/*
 * classes-loops: a row per innermost loop; classes-nests: a row per loop
 * nest, and classes-nest-windows its windows, a row per nest and window size.
 */
static int loops_csv(const classes_tool *t, const char *dir, const char *name, edan_srcmap *src, bool nests,
                     edan_error *err)
{
    size_t n;
    lc_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    edan_csv c;
    int rc = edan_csv_open(&c, dir, name, nests ? "classes-nests" : "classes-loops",
                           nests ? "head,end,depth,iterations,function,file,line,loops,loads,constant_accesses,"
                                   "strided_accesses,irregular_accesses,blocks,constant_blocks,strided_blocks,"
                                   "irregular_blocks,stores,store_blocks"
                                 : "head,end,depth,iterations,function,file,line,loads,constant_accesses,"
                                   "strided_accesses,irregular_accesses,blocks,constant_blocks,strided_blocks,"
                                   "irregular_blocks,stores,store_blocks",
                           err);
    for (size_t i = 0; !rc && rows && i < n; i++) {
        csv_loop(&c, t, rows[i].key, src);
        if (nests)
            edan_csv_u64(&c, edan_loops_inside(t->loops, rows[i].key));
        csv_totals(&c, &rows[i].z);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    if (!rc && nests)
        rc = edan_csv_open(&c, dir, name, "classes-nest-windows",
                           "head,end,depth,iterations,function,file,line," WINDOW_COLUMNS, err);
    for (size_t i = 0; !rc && nests && rows && i < n; i++) {
        lc_windows x;
        windows_of(t, nest_row(t, rows[i].key), &x);
        for (size_t k = 0; k < x.n; k++) {
            csv_loop(&c, t, rows[i].key, src);
            csv_window(&c, &x, k);
        }
    }
    if (!rc && nests)
        rc = edan_csv_close(&c, err);
    free(rows);
    return rc;
}

/* classes-windows: a row per window size. */
static int windows_csv(const classes_tool *t, const char *dir, const char *name, edan_error *err)
{
    lc_windows x;
    windows_of(t, 0, &x);
    edan_csv c;
    if (edan_csv_open(&c, dir, name, "classes-windows", WINDOW_COLUMNS, err))
        return -1;
    for (size_t i = 0; i < x.n; i++)
        csv_window(&c, &x, i);
    return edan_csv_close(&c, err);
}

/* --csv-dir: a row per static load, per function, per loop, and per window size. */
static int csv_outputs(const classes_tool *t, const edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    char name[1100];
    edan_session_file_base(s, name, sizeof name);
    edan_csv c;
    size_t n;
    const lc_insn **loads = load_rows(t, &n);
    edan_srcmap *src = open_src(t, s);
    int rc = edan_csv_open(&c, o->csv_dir, name, "load-classes",
                           "pc,function,file,line,class,stride,accesses,constant,strided,irregular,dependent", err);
    for (size_t i = 0; !rc && loads && i < n; i++) {
        const lc_insn *l = loads[i];
        edan_srcloc loc = {NULL, NULL, 0};
        if (src)
            edan_srcmap_lookup(src, l->pc, &loc);
        edan_csv_u64(&c, l->pc);
        edan_csv_str(&c, t->have_elf ? fn_name(t, l->fn) : NULL);
        edan_csv_str(&c, loc.file);
        edan_csv_u64(&c, loc.line);
        edan_csv_str(&c, class_name[insn_class(l)]);
        edan_csv_num(&c, (double)l->stride);
        edan_csv_u64(&c, insn_accesses(l));
        for (int k = 0; k < C_STORE; k++)
            edan_csv_u64(&c, l->n[k]);
        edan_csv_u64(&c, l->dependent);
        edan_csv_end_row(&c);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    free(loads);
    lc_row *rows = rc ? NULL : group_rows(t, BY_FUNCTION, &n);
    if (!rc && rows) {
        rc = edan_csv_open(&c, o->csv_dir, name, "classes-functions",
                           "function,loads,constant_accesses,strided_accesses,irregular_accesses,blocks,"
                           "constant_blocks,strided_blocks,irregular_blocks,stores,store_blocks",
                           err);
        for (size_t i = 0; !rc && i < n; i++) {
            const lc_totals *z = &rows[i].z;
            edan_csv_str(&c, fn_name(t, rows[i].key));
            csv_totals(&c, z);
        }
        if (!rc)
            rc = edan_csv_close(&c, err);
        /* classes-function-windows: a row per function and window size */
        if (!rc)
            rc = edan_csv_open(&c, o->csv_dir, name, "classes-function-windows", "function," WINDOW_COLUMNS, err);
        for (size_t i = 0; !rc && i < n; i++) {
            lc_windows x;
            windows_of(t, fn_row(t, rows[i].key), &x);
            for (size_t k = 0; k < x.n; k++) {
                edan_csv_str(&c, fn_name(t, rows[i].key));
                csv_window(&c, &x, k);
            }
        }
        if (!rc)
            rc = edan_csv_close(&c, err);
    }
    free(rows);
    if (!rc)
        rc = loops_csv(t, o->csv_dir, name, src, false, err);
    if (!rc)
        rc = loops_csv(t, o->csv_dir, name, src, true, err);
    edan_srcmap_close(src);
    if (!rc)
        rc = windows_csv(t, o->csv_dir, name, err);
    return rc;
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

/* --csv-dir: the tables; --plot-dir: the windows. */
int edan_lc_outputs(void *tool, const edan_session *s, edan_error *err)
{
    const classes_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    if (o->csv_dir[0] && csv_outputs(t, s, err))
        return -1;
    return o->plot_dir[0] ? plot_outputs(t, s, err) : 0;
}
