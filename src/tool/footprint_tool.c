/*
 * footprint_tool.c - the footprint tool (--footprint): the distinct bytes
 * and 64-byte lines the traced region loaded or stored, in all, per
 * function (the function whose code made the access, from the program's
 * symbols) and per innermost loop (analysis/loops.h: the static instruction
 * that made the access is in the loop's range), with the accesses A that
 * touched them and the growth dF = lines / A. Accesses that performed none
 * (a failed sc) touch nothing.
 *
 * State: one hash table (util/keymap.h) of (line, static instruction) ->
 * mask of the line's bytes the instruction touched; distinct bytes are the
 * masks' population counts, distinct lines the entries. The whole run's,
 * a function's or a loop's lines are the union over its instructions,
 * folded at the report (loops are known only after the stream). Memory is
 * proportional to the distinct (line, instruction) pairs. Each instruction
 * gathers the bytes of its current line and stores them when it moves to
 * another line, so an access costs a lookup only then (a stride of 8 bytes:
 * one access in 8).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/loops.h"
#include "report/csv.h"
#include "report/json.h"
#include "tool/session.h"
#include "tool/tool.h"
#include "util/elf_symbols.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "util/srcmap.h"

#define LINE 64u
#define ALL UINT32_MAX      /* the whole run's row */
#define UNKNOWN 0xfffffffeu /* an access from code outside every known function */
#define NO_LINE UINT64_MAX
#define TEXT_ROWS 16
#define TEXT_LOOPS 10

typedef struct fp_total {
    uint64_t bytes, lines, accesses;
} fp_total;

/* One static memory instruction. */
typedef struct fp_insn {
    uint64_t pc, accesses;
    uint64_t line, mask; /* its current line (NO_LINE: none) and the bytes it touched there, not yet in the map */
    uint32_t fn;         /* function index, UNKNOWN without symbols or outside every function */
} fp_insn;

typedef struct footprint_tool {
    edan_keymap map;   /* (line, instruction index) -> mask of the line's bytes touched */
    uint32_t *id_insn; /* instruction index of static instruction id, +1 (0: not seen yet) */
    size_t id_cap;
    fp_insn *insns;
    size_t n_insns, insns_cap;
    edan_elf elf;
    bool elf_open; /* the program's symbols were read (for the loops' tail-call test, as the reuse tool) */
    bool have_elf; /* and they are at the addresses traced (not a PIE): functions and source lines */
    edan_loops *loops;
    edan_error err;
} footprint_tool;

/* Store instruction index's bytes of its current line in the map. */
static bool flush(footprint_tool *t, uint32_t index)
{
    fp_insn *in = &t->insns[index];
    if (in->line == NO_LINE)
        return true;
    uint64_t *m = edan_keymap_get(&t->map, in->line, index, NULL);
    if (!m)
        return false;
    *m |= in->mask;
    in->line = NO_LINE;
    return true;
}

/* Mark the bytes `mask` of line (address / LINE) touched by instruction index. */
static inline bool touch(footprint_tool *t, uint64_t line, uint32_t index, uint64_t mask)
{
    fp_insn *in = &t->insns[index];
    if (in->line == line) {
        in->mask |= mask;
        return true;
    }
    if (!flush(t, index))
        return false;
    in->line = line;
    in->mask = mask;
    return true;
}

/* The instruction index of r's static instruction (ALL when out of memory). */
static uint32_t insn_of(footprint_tool *t, const edan_exec *r)
{
    if (r->id >= t->id_cap) {
        const size_t cap = edan_grow_cap(t->id_cap, r->id);
        uint32_t *m = edan_grow_zeroed(t->id_insn, t->id_cap, cap, sizeof *m);
        if (!m)
            return ALL;
        t->id_insn = m;
        t->id_cap = cap;
    }
    if (!t->id_insn[r->id]) {
        if (t->n_insns == t->insns_cap) {
            const size_t cap = t->insns_cap ? 2 * t->insns_cap : 256;
            fp_insn *m = cap < UNKNOWN ? realloc(t->insns, cap * sizeof *m) : NULL;
            if (!m)
                return ALL;
            t->insns = m;
            t->insns_cap = cap;
        }
        fp_insn *in = &t->insns[t->n_insns];
        in->pc = r->insn->pc;
        in->accesses = 0;
        in->line = NO_LINE;
        in->mask = 0;
        in->fn = UNKNOWN;
        if (t->have_elf) {
            const edan_elf_func *f = edan_elf_func_at(&t->elf, in->pc);
            in->fn = f ? (uint32_t)(f - t->elf.funcs) : UNKNOWN;
        }
        t->id_insn[r->id] = (uint32_t)++t->n_insns;
    }
    return t->id_insn[r->id] - 1;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    footprint_tool *t = ctx;
    if (t->err.set)
        return;
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        if (i + 8 < n) { /* a hint: the entry access i + 8 will store when its instruction moves on */
            const edan_exec *q = &recs[i + 8];
            if (q->insn->mem != EDAN_MEM_NONE && q->id < t->id_cap && t->id_insn[q->id])
                edan_keymap_prefetch(&t->map, q->addr / LINE, t->id_insn[q->id] - 1);
        }
        if (r->insn->mem == EDAN_MEM_NONE || (r->flags & EDAN_EXEC_NO_ACCESS) || !r->insn->mem_size)
            continue;
        const uint32_t index = insn_of(t, r);
        bool ok = index != ALL;
        if (ok)
            t->insns[index].accesses++;
        /* the access's bytes [addr, addr + size), line by line */
        uint64_t a = r->addr, left = r->insn->mem_size;
        while (ok && left) {
            const uint64_t off = a % LINE, k = left < LINE - off ? left : LINE - off;
            const uint64_t mask = (k == 64 ? ~0ull : ((1ull << k) - 1)) << off;
            ok = touch(t, a / LINE, index, mask);
            a += k;
            left -= k;
        }
        if (!ok) {
            edan_error_set(&t->err, "out of memory for the footprint's lines");
            return;
        }
    }
    if (edan_loops_observe(t->loops, recs, n))
        edan_error_set(&t->err, "out of memory for the loops");
}

static int finish(void *ctx)
{
    footprint_tool *t = ctx;
    for (size_t i = 0; i < t->n_insns && !t->err.set; i++)
        if (!flush(t, (uint32_t)i))
            edan_error_set(&t->err, "out of memory for the footprint's lines");
    if (!t->err.set && edan_loops_index(t->loops))
        edan_error_set(&t->err, "out of memory for the loops");
    return t->err.set ? -1 : 0;
}

/* ===================================================================== */
/* Tool                                                                   */
/* ===================================================================== */

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "footprint", NULL, NULL) > 0;
}

static void destroy(void *tool)
{
    footprint_tool *t = tool;
    if (!t)
        return;
    if (t->elf_open)
        edan_elf_close(&t->elf);
    edan_loops_free(t->loops);
    edan_keymap_free(&t->map);
    free(t->id_insn);
    free(t->insns);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    footprint_tool *t = calloc(1, sizeof *t);
    if (!t || edan_keymap_init(&t->map, sizeof(uint64_t))) {
        free(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    /* per function when the program's symbols can be read; the totals and loops in any case */
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    t->elf_open = binary && *binary && !edan_elf_open(binary, &t->elf, &ignored);
    t->have_elf = t->elf_open && !t->elf.is_pie;
    if (!(t->loops = edan_loops_new(t->elf_open ? &t->elf : NULL))) {
        edan_error_set(err, "out of memory");
        destroy(t);
        return NULL;
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL};
}

static const edan_error *error(const void *t)
{
    return &((const footprint_tool *)t)->err;
}

/* ===================================================================== */
/* Views                                                                  */
/* ===================================================================== */

typedef struct fp_row {
    uint32_t key; /* function index (UNKNOWN), or loop id */
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

enum { BY_RUN, BY_FUNCTION, BY_LOOP };

/* The row of instruction index i among n_groups rows (functions: the last one is UNKNOWN's), or -1. */
static int64_t group_of(const footprint_tool *t, uint32_t i, int by, size_t n_groups)
{
    if (by == BY_LOOP)
        return edan_loops_innermost(t->loops, t->insns[i].pc);
    if (by == BY_RUN)
        return 0;
    return t->insns[i].fn == UNKNOWN ? (int64_t)n_groups - 1 : (int64_t)t->insns[i].fn;
}

/*
 * Rows of the instructions' groups (the whole run, functions, or innermost loops): the union of their
 * instructions' lines, folded into (line, group) entries of a second table; only the groups with
 * accesses, sorted. NULL when out of memory.
 */
static fp_row *group_rows(const footprint_tool *t, int by, size_t *n_rows)
{
    *n_rows = 0;
    const bool loops = by == BY_LOOP;
    const size_t n = loops ? edan_loops_count(t->loops) : by == BY_RUN ? 1 : (t->have_elf ? t->elf.n_funcs : 0) + 1;
    fp_row *r = calloc(n + 1, sizeof *r);
    edan_keymap fold;
    if (!r || edan_keymap_init(&fold, sizeof(uint64_t))) {
        free(r);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        r[i].key = by == BY_RUN ? ALL : loops || i + 1 < n ? (uint32_t)i : UNKNOWN;
    bool ok = true;
    for (size_t i = 0; i < t->n_insns; i++) {
        const int64_t g = group_of(t, (uint32_t)i, by, n);
        if (g >= 0)
            r[g].v.accesses += t->insns[i].accesses;
    }
    for (size_t i = 0; ok && i < edan_keymap_capacity(&t->map); i++) {
        uint64_t line;
        uint32_t index;
        const uint64_t *mask = edan_keymap_at(&t->map, i, &line, &index);
        if (!mask)
            continue;
        const int64_t g = group_of(t, index, by, n);
        uint64_t *m = g < 0 ? NULL : edan_keymap_get(&fold, line, (uint32_t)g, NULL);
        if (m)
            *m |= *mask;
        ok = g < 0 || m;
    }
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
    qsort(r, *n_rows, sizeof *r, loops ? by_lines : by_bytes);
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

static void loops_text(const footprint_tool *t, const edan_session *s, FILE *f)
{
    size_t n;
    fp_row *rows = group_rows(t, BY_LOOP, &n);
    if (!rows || !n) {
        free(rows);
        return;
    }
    edan_srcmap *src = open_src(t, s);
    fprintf(f, "  %-40s %14s %12s %12s %10s\n", "loop (head's line, function, depth)", "bytes", "lines", "accesses",
            "dF (F/A)");
    for (size_t i = 0; i < n && i < TEXT_LOOPS; i++) {
        const fp_place p = place_of(t, rows[i].key, src);
        const char *base = p.at.file ? strrchr(p.at.file, '/') : NULL;
        char name[160];
        snprintf(name, sizeof name, "%s:%u %s (%u)",
                 base        ? base + 1
                 : p.at.file ? p.at.file
                             : "?",
                 p.at.line, p.at.function ? p.at.function : "?", p.loop->depth);
        fprintf(f, "  %-40.40s %14" PRIu64 " %12" PRIu64 " %12" PRIu64 " %10.4f\n", name, rows[i].v.bytes,
                rows[i].v.lines, rows[i].v.accesses, growth(&rows[i].v));
    }
    if (n > TEXT_LOOPS)
        fprintf(f, "  (%zu more loops; --json lists all)\n", n - TEXT_LOOPS);
    edan_srcmap_close(src);
    free(rows);
}

static void json_loops(const footprint_tool *t, const edan_session *s, FILE *f)
{
    size_t n;
    fp_row *rows = group_rows(t, BY_LOOP, &n);
    edan_srcmap *src = open_src(t, s);
    fputc('[', f);
    for (size_t i = 0; rows && i < n; i++) {
        const fp_place p = place_of(t, rows[i].key, src);
        fprintf(f, "%s{\"head\":%" PRIu64 ",\"end\":%" PRIu64 ",\"depth\":%u,\"iterations\":%" PRIu64 ",\"function\":",
                i ? "," : "", p.loop->head, p.loop->end, p.loop->depth, p.loop->back_edges);
        edan_json_str(f, p.at.function);
        fputs(",\"file\":", f);
        edan_json_str(f, p.at.file);
        fprintf(f, ",\"line\":%u,\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"accesses\":%" PRIu64 ",\"growth\":",
                p.at.line, rows[i].v.bytes, rows[i].v.lines, rows[i].v.accesses);
        edan_json_num(f, growth(&rows[i].v));
        fputc('}', f);
    }
    fputc(']', f);
    edan_srcmap_close(src);
    free(rows);
}

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
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
        for (size_t i = 0; rows && i < n && i < TEXT_ROWS; i++)
            fprintf(f, "  %-32.32s %14" PRIu64 " %12" PRIu64 "\n", fn_name(t, rows[i].key), rows[i].v.bytes,
                    rows[i].v.lines);
        if (rows && n > TEXT_ROWS)
            fprintf(f, "  (%zu more functions; --json lists all)\n", n - TEXT_ROWS);
        loops_text(t, s, f);
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
        fputs(",\"loops\":", f);
        json_loops(t, s, f);
        fputc('}', f);
    }
    free(rows);
}

/* --csv-dir: footprint-functions (the whole run first, as "(all)") and footprint-loops. */
static int outputs(void *tool, const edan_session *s, edan_error *err)
{
    const footprint_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    if (!o->csv_dir[0])
        return 0;
    char name[1100];
    edan_session_source_name(s, true, name, sizeof name);
    edan_csv c;
    size_t n = 0;
    fp_row *rows = t->have_elf ? group_rows(t, BY_FUNCTION, &n) : NULL;
    const fp_total all = totals(t);
    int rc = edan_csv_open(&c, o->csv_dir, name, "footprint-functions", "function,bytes,lines,accesses,growth", err);
    for (size_t i = 0; !rc && i <= n; i++) {
        const fp_total *v = i ? &rows[i - 1].v : &all;
        edan_csv_str(&c, i ? fn_name(t, rows[i - 1].key) : "(all)");
        edan_csv_u64(&c, v->bytes);
        edan_csv_u64(&c, v->lines);
        edan_csv_u64(&c, v->accesses);
        edan_csv_num(&c, growth(v));
        edan_csv_end_row(&c);
    }
    if (!rc)
        rc = edan_csv_close(&c, err);
    free(rows);
    rows = rc ? NULL : group_rows(t, BY_LOOP, &n);
    edan_srcmap *src = rows ? open_src(t, s) : NULL;
    if (rows)
        rc = edan_csv_open(&c, o->csv_dir, name, "footprint-loops",
                           "head,end,depth,iterations,function,file,line,bytes,lines,accesses,growth", err);
    for (size_t i = 0; rows && !rc && i < n; i++) {
        const fp_place p = place_of(t, rows[i].key, src);
        edan_csv_u64(&c, p.loop->head);
        edan_csv_u64(&c, p.loop->end);
        edan_csv_u64(&c, p.loop->depth);
        edan_csv_u64(&c, p.loop->back_edges);
        edan_csv_str(&c, p.at.function);
        edan_csv_str(&c, p.at.file);
        edan_csv_u64(&c, p.at.line);
        edan_csv_u64(&c, rows[i].v.bytes);
        edan_csv_u64(&c, rows[i].v.lines);
        edan_csv_u64(&c, rows[i].v.accesses);
        edan_csv_num(&c, growth(&rows[i].v));
        edan_csv_end_row(&c);
    }
    if (rows && !rc)
        rc = edan_csv_close(&c, err);
    edan_srcmap_close(src);
    free(rows);
    return rc;
}

static const edan_tool_option options[] = {
    {"footprint", false,
     "  --footprint         distinct bytes and 64-byte lines loaded or stored, in all, per\n"
     "                      function (the function whose code accessed them) and per\n"
     "                      innermost loop, with the accesses A and the growth lines / A\n",
     NULL},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_footprint_tool = {
    .name = "footprint",
    .summary = "distinct bytes and lines touched, in all, per function and per loop",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .outputs = outputs,
    .destroy = destroy,
    .reads_program = true,
};
