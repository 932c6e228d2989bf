/*
 * footprint_view.c - what the footprint tool reports (footprint_tool.c
 * collects it): the rows of the whole run, per function, per thread, per
 * innermost loop and per loop nest, each the union of the (line,
 * instruction) pairs of its instructions, as text, JSON and CSV tables.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"
#include "report/json.h"
#include "report/names.h"
#include "tool/footprint_tool.h"
#include "tool/session.h"
#include "util/srcmap.h"

#define TEXT_ROWS 16
#define TEXT_LOOPS 10

/* ===================================================================== */
/* Views                                                                  */
/* ===================================================================== */

typedef struct fp_row {
    uint32_t key; /* function index (UNKNOWN), loop id, or vCPU */
    fp_total v;
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
        if (r[i].v.accesses)
            r[(*n_rows)++] = r[i];
    qsort(r, *n_rows, sizeof *r, loops ? by_lines : by == BY_THREAD ? by_key : by_bytes);
    return r;
}

/* The whole run's totals (zeros when out of memory). */
static fp_total totals(const footprint_tool *t)
{
    size_t n;
    fp_row *r = group_rows(t, BY_RUN, &n);
    const fp_total all = r && n ? r[0].v : (fp_total){0, 0, 0};
    free(r);
    return all;
}

static const char *fn_name(const footprint_tool *t, uint32_t fn)
{
    return fn == UNKNOWN ? "(outside known functions)" : t->elf.funcs[fn].name;
}

static double growth(const fp_total *v)
{
    return v->accesses ? (double)v->lines / (double)v->accesses : 0.0;
}

/* The end of a CSV row: bytes, lines, accesses and growth. */
static void csv_values(edan_csv *c, const fp_total *v)
{
    edan_csv_u64(c, v->bytes);
    edan_csv_u64(c, v->lines);
    edan_csv_u64(c, v->accesses);
    edan_csv_num(c, growth(v));
    edan_csv_end_row(c);
}

/* A loop row's place: where its head is (function, file and line; NULL and 0 when unknown). */
typedef struct fp_place {
    const edan_loop *loop;
    edan_loop_place at;
} fp_place;

static fp_place place_of(const footprint_tool *t, uint32_t id, edan_srcmap *src)
{
    return (fp_place){edan_loops_get(t->loops, id), edan_loops_place(t->loops, id, t->elf_open ? &t->elf : NULL, src)};
}

static edan_srcmap *open_src(const footprint_tool *t, const edan_session *s)
{
    edan_error ignored = {0};
    return t->have_elf ? edan_srcmap_open(edan_session_source(s)->binary, &ignored) : NULL;
}

/* The innermost loops' rows, or (nests) those of the loop nests with loops inside them. */
static void loops_text(const footprint_tool *t, const edan_session *s, bool nests, FILE *f)
{
    size_t n;
    fp_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    edan_srcmap *src = rows && n ? open_src(t, s) : NULL;
    size_t shown = 0, more = 0;
    for (size_t i = 0; rows && i < n; i++) {
        const uint32_t inside = edan_loops_inside(t->loops, rows[i].key);
        if (nests && inside < 2)
            continue;
        if (shown == TEXT_LOOPS) {
            more++;
            continue;
        }
        if (!shown++)
            fprintf(f, "  %-40s %14s %12s %12s %10s\n",
                    nests ? "loop nest (head's line, function, loops)" : "loop (head's line, function, depth)", "bytes",
                    "lines", "accesses", "dF (F/A)");
        const fp_place p = place_of(t, rows[i].key, src);
        const char *base = p.at.file ? strrchr(p.at.file, '/') : NULL;
        char name[1100];
        snprintf(name, sizeof name, "%s:%u %s (%u)",
                 base        ? base + 1
                 : p.at.file ? p.at.file
                             : "?",
                 p.at.line, p.at.function ? p.at.function : "?", nests ? inside : p.loop->depth);
        fputs("  ", f);
        edan_name_field(f, name, 40, edan_session_options(s)->wide);
        fprintf(f, " %14" PRIu64 " %12" PRIu64 " %12" PRIu64 " %10.4f\n", rows[i].v.bytes, rows[i].v.lines,
                rows[i].v.accesses, growth(&rows[i].v));
    }
    if (more)
        fprintf(f, "  (%zu more %s; --json lists all)\n", more, nests ? "loop nests" : "loops");
    edan_srcmap_close(src);
    free(rows);
}

/* The innermost loops' rows, or (nests) every loop nest's. */
static void json_loops(const footprint_tool *t, const edan_session *s, bool nests, FILE *f)
{
    size_t n;
    fp_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    edan_srcmap *src = open_src(t, s);
    fputc('[', f);
    for (size_t i = 0; rows && i < n; i++) {
        const fp_place p = place_of(t, rows[i].key, src);
        fprintf(f, "%s{\"head\":%" PRIu64 ",\"end\":%" PRIu64 ",\"depth\":%u,\"iterations\":%" PRIu64 ",\"function\":",
                i ? "," : "", p.loop->head, p.loop->end, p.loop->depth, p.loop->back_edges);
        edan_json_str(f, p.at.function);
        fputs(",\"file\":", f);
        edan_json_str(f, p.at.file);
        fprintf(f, ",\"line\":%u,", p.at.line);
        if (nests)
            fprintf(f, "\"loops\":%u,", edan_loops_inside(t->loops, rows[i].key));
        fprintf(f, "\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"growth\":", rows[i].v.bytes,
                rows[i].v.lines, rows[i].v.accesses);
        edan_json_num(f, growth(&rows[i].v));
        fputc('}', f);
    }
    fputc(']', f);
    edan_srcmap_close(src);
    free(rows);
}

/* The threads' rows (a row per vCPU with accesses, by vCPU), in a table when more than one thread made accesses. */
static void threads_text(const footprint_tool *t, FILE *f)
{
    size_t n;
    fp_row *rows = group_rows(t, BY_THREAD, &n);
    for (size_t i = 0; rows && n > 1 && i < n; i++) {
        if (!i)
            fprintf(f, "  %-32s %14s %12s %12s %10s\n", "thread (vCPU)", "bytes", "lines", "accesses", "dF (F/A)");
        char name[32];
        snprintf(name, sizeof name, "vcpu %" PRIu32, rows[i].key);
        fprintf(f, "  %-32s %14" PRIu64 " %12" PRIu64 " %12" PRIu64 " %10.4f\n", name, rows[i].v.bytes, rows[i].v.lines,
                rows[i].v.accesses, growth(&rows[i].v));
    }
    free(rows);
}

/* The threads' rows: a row per vCPU with accesses, by vCPU (an empty array when out of memory). */
static void json_threads(const footprint_tool *t, FILE *f)
{
    size_t n;
    fp_row *rows = group_rows(t, BY_THREAD, &n);
    fputc('[', f);
    for (size_t i = 0; rows && i < n; i++) {
        fprintf(f,
                "%s{\"vcpu\":%" PRIu32 ",\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"accesses\":%" PRIu64
                ",\"growth\":",
                i ? "," : "", rows[i].key, rows[i].v.bytes, rows[i].v.lines, rows[i].v.accesses);
        edan_json_num(f, growth(&rows[i].v));
        fputc('}', f);
    }
    fputc(']', f);
    free(rows);
}

void edan_footprint_report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const footprint_tool *t = tool;
    if (fmt == EDAN_FORMAT_TABLE)
        return;
    size_t n = 0;
    fp_row *rows = t->have_elf ? group_rows(t, BY_FUNCTION, &n) : NULL;
    const fp_total all = totals(t);
    if (fmt == EDAN_FORMAT_TEXT) {
        fprintf(f, "\nfootprint (distinct bytes and %u-byte lines loaded or stored)\n", LINE);
        fprintf(f, "  %-32s %14s %12s\n", "", "bytes", "lines");
        fprintf(f, "  %-32s %14" PRIu64 " %12" PRIu64 "\n", "all", all.bytes, all.lines);
        for (size_t i = 0; rows && i < n && i < TEXT_ROWS; i++) {
            fputs("  ", f);
            edan_name_field(f, fn_name(t, rows[i].key), 32, edan_session_options(s)->wide);
            fprintf(f, " %14" PRIu64 " %12" PRIu64 "\n", rows[i].v.bytes, rows[i].v.lines);
        }
        if (rows && n > TEXT_ROWS)
            fprintf(f, "  (%zu more functions; --json lists all)\n", n - TEXT_ROWS);
        threads_text(t, f);
        loops_text(t, s, false, f);
        loops_text(t, s, true, f);
    } else {
        fprintf(f,
                ",\"footprint\":{\"line_bytes\":%u,\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"accesses\":%" PRIu64
                ",\"growth\":",
                LINE, all.bytes, all.lines, all.accesses);
        edan_json_num(f, growth(&all));
        fputs(",\"functions\":", f);
        if (!t->have_elf) {
            fputs("null", f);
        } else {
            fputc('[', f);
            for (size_t i = 0; rows && i < n; i++) {
                fprintf(f, "%s{\"name\":", i ? "," : "");
                edan_json_str(f, fn_name(t, rows[i].key));
                fprintf(f, ",\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"growth\":",
                        rows[i].v.bytes, rows[i].v.lines, rows[i].v.accesses);
                edan_json_num(f, growth(&rows[i].v));
                fputc('}', f);
            }
            fputc(']', f);
        }
        fputs(",\"threads\":", f);
        json_threads(t, f);
        fputs(",\"loops\":", f);
        json_loops(t, s, false, f);
        fputs(",\"loop_nests\":", f);
        json_loops(t, s, true, f);
        fputc('}', f);
    }
    free(rows);
}

/* footprint-loops: a row per innermost loop; footprint-nests: a row per loop nest. */
static int loops_csv(const footprint_tool *t, const edan_session *s, const char *dir, const char *name, bool nests,
                     edan_error *err)
{
    size_t n;
    fp_row *rows = group_rows(t, nests ? BY_NEST : BY_LOOP, &n);
    if (!rows)
        return 0;
    edan_srcmap *src = open_src(t, s);
    edan_csv c;
    int rc = edan_csv_open(&c, dir, name, nests ? "footprint-nests" : "footprint-loops",
                           nests ? "head,end,depth,iterations,function,file,line,loops,bytes,lines,accesses,growth"
                                 : "head,end,depth,iterations,function,file,line,bytes,lines,accesses,growth",
                           err);
    for (size_t i = 0; !rc && i < n; i++) {
        const fp_place p = place_of(t, rows[i].key, src);
        edan_csv_u64(&c, p.loop->head);
        edan_csv_u64(&c, p.loop->end);
        edan_csv_u64(&c, p.loop->depth);
        edan_csv_u64(&c, p.loop->back_edges);
        edan_csv_str(&c, p.at.function);
        edan_csv_str(&c, p.at.file);
        edan_csv_u64(&c, p.at.line);
        if (nests)
            edan_csv_u64(&c, edan_loops_inside(t->loops, rows[i].key));
        csv_values(&c, &rows[i].v);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    edan_srcmap_close(src);
    free(rows);
    return rc;
}

/* footprint-threads: a row per thread (vCPU) with accesses, by vCPU. */
static int threads_csv(const footprint_tool *t, const char *dir, const char *name, edan_error *err)
{
    size_t n;
    fp_row *rows = group_rows(t, BY_THREAD, &n);
    if (!rows)
        return 0;
    edan_csv c;
    int rc = edan_csv_open(&c, dir, name, "footprint-threads", "vcpu,bytes,lines,accesses,growth", err);
    for (size_t i = 0; !rc && i < n; i++) {
        edan_csv_u64(&c, rows[i].key);
        csv_values(&c, &rows[i].v);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    free(rows);
    return rc;
}

/*
 * --csv-dir: footprint-functions (the whole run first, as "(all)"), footprint-threads, footprint-loops and
 * footprint-nests.
 */
int edan_footprint_outputs(void *tool, const edan_session *s, edan_error *err)
{
    const footprint_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    if (!o->csv_dir[0])
        return 0;
    char name[1100];
    edan_session_file_base(s, name, sizeof name);
    edan_csv c;
    size_t n = 0;
    fp_row *rows = t->have_elf ? group_rows(t, BY_FUNCTION, &n) : NULL;
    const fp_total all = totals(t);
    int rc = edan_csv_open(&c, o->csv_dir, name, "footprint-functions", "function,bytes,lines,accesses,growth", err);
    for (size_t i = 0; !rc && i <= n; i++) {
        const fp_total *v = i ? &rows[i - 1].v : &all;
        edan_csv_str(&c, i ? fn_name(t, rows[i - 1].key) : "(all)");
        csv_values(&c, v);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    free(rows);
    if (!rc)
        rc = threads_csv(t, o->csv_dir, name, err);
    for (int nests = 0; !rc && nests < 2; nests++)
        rc = loops_csv(t, s, o->csv_dir, name, nests, err);
    return rc;
}
