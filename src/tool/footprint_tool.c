/*
 * footprint_tool.c - the footprint tool (--footprint): the distinct bytes
 * and 64-byte lines the traced region loaded or stored, in all and per
 * function (the function whose code made the access, from the program's
 * symbols). Accesses that performed none (a failed sc) touch nothing.
 *
 * State: one hash table (util/keymap.h) of (line, function) -> mask of the line's bytes
 * touched, with function -1 for the whole run; distinct bytes are the
 * masks' population counts, distinct lines the entries. Memory is
 * proportional to the lines touched. Per access: one lookup for the whole
 * run and one for its function, two of each when it crosses a line.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "tool/session.h"
#include "tool/tool.h"
#include "util/elf_symbols.h"
#include "util/grow.h"
#include "util/keymap.h"

#define LINE 64u
#define ALL UINT32_MAX      /* the whole run's entries */
#define UNKNOWN 0xfffffffeu /* an access from code outside every known function */
#define TEXT_ROWS 16

typedef struct fp_total {
    uint64_t bytes, lines;
} fp_total;

typedef struct footprint_tool {
    edan_keymap map; /* (line, function) -> mask of the line's bytes touched */
    uint32_t *id_fn; /* function index of static instruction id, +1 (0: not seen yet) */
    size_t id_cap;
    edan_elf elf;
    bool have_elf;
    edan_error err;
} footprint_tool;

/* Mark the bytes `mask` of line (address / LINE) touched by function fn. */
static bool touch(footprint_tool *t, uint64_t line, uint32_t fn, uint64_t mask)
{
    uint64_t *m = edan_keymap_get(&t->map, line, fn, NULL);
    if (!m)
        return false;
    *m |= mask;
    return true;
}

/* The function index of the instruction of r (UNKNOWN without symbols or outside every function). */
static uint32_t function_of(footprint_tool *t, const edan_exec *r)
{
    if (!t->have_elf)
        return UNKNOWN;
    if (r->id >= t->id_cap) {
        const size_t cap = edan_grow_cap(t->id_cap, r->id);
        uint32_t *m = edan_grow_zeroed(t->id_fn, t->id_cap, cap, sizeof *m);
        if (!m)
            return ALL; /* the caller reports out of memory */
        t->id_fn = m;
        t->id_cap = cap;
    }
    if (!t->id_fn[r->id]) {
        const edan_elf_func *f = edan_elf_func_at(&t->elf, r->insn->pc);
        t->id_fn[r->id] = (f ? (uint32_t)(f - t->elf.funcs) : UNKNOWN) + 1;
    }
    return t->id_fn[r->id] - 1;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    footprint_tool *t = ctx;
    if (t->err.set)
        return;
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        if (r->insn->mem == EDAN_MEM_NONE || (r->flags & EDAN_EXEC_NO_ACCESS) || !r->insn->mem_size)
            continue;
        const uint32_t fn = function_of(t, r);
        bool ok = fn != ALL;
        /* the access's bytes [addr, addr + size), line by line */
        uint64_t a = r->addr, left = r->insn->mem_size;
        while (ok && left) {
            const uint64_t off = a % LINE, k = left < LINE - off ? left : LINE - off;
            const uint64_t mask = (k == 64 ? ~0ull : ((1ull << k) - 1)) << off;
            ok = touch(t, a / LINE, ALL, mask) && touch(t, a / LINE, fn, mask);
            a += k;
            left -= k;
        }
        if (!ok) {
            edan_error_set(&t->err, "out of memory for the footprint's lines");
            return;
        }
    }
}

static int finish(void *ctx)
{
    return ((footprint_tool *)ctx)->err.set ? -1 : 0;
}

/* ===================================================================== */
/* Tool                                                                   */
/* ===================================================================== */

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "footprint", NULL, NULL) > 0;
}

static void *create(edan_session *s, edan_error *err)
{
    footprint_tool *t = calloc(1, sizeof *t);
    if (!t || edan_keymap_init(&t->map, sizeof(uint64_t))) {
        free(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    /* per function when the program's symbols can be read; the totals in any case */
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    t->have_elf = binary && *binary && !edan_elf_open(binary, &t->elf, &ignored) && !t->elf.is_pie;
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

typedef struct fp_row {
    uint32_t fn;
    fp_total v;
} fp_row;

static int by_bytes(const void *a, const void *b)
{
    const fp_row *x = a, *y = b;
    if (x->v.bytes != y->v.bytes)
        return x->v.bytes < y->v.bytes ? 1 : -1;
    return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* The whole run's totals, and a row per function sorted by bytes (*rows, *n_rows; NULL when out of memory). */
static fp_total totals(const footprint_tool *t, fp_row **rows, size_t *n_rows)
{
    fp_total all = {0, 0};
    const size_t n_fn = t->have_elf ? t->elf.n_funcs : 0;
    fp_row *r = calloc(n_fn + 1, sizeof *r);
    for (size_t i = 0; r && i <= n_fn; i++)
        r[i].fn = i < n_fn ? (uint32_t)i : UNKNOWN;
    for (size_t i = 0; i < edan_keymap_capacity(&t->map); i++) {
        uint32_t fn;
        const uint64_t *mask = edan_keymap_at(&t->map, i, NULL, &fn);
        if (!mask)
            continue;
        fp_total *v = fn == ALL ? &all : !r ? NULL : fn == UNKNOWN ? &r[n_fn].v : &r[fn].v;
        if (v) {
            v->bytes += (uint64_t)__builtin_popcountll(*mask);
            v->lines++;
        }
    }
    size_t n = 0;
    for (size_t i = 0; r && i <= n_fn; i++)
        if (r[i].v.lines)
            r[n++] = r[i];
    if (r)
        qsort(r, n, sizeof *r, by_bytes);
    *rows = r;
    *n_rows = n;
    return all;
}

static const char *fn_name(const footprint_tool *t, uint32_t fn)
{
    return fn == UNKNOWN ? "(outside known functions)" : t->elf.funcs[fn].name;
}

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    (void)s;
    const footprint_tool *t = tool;
    if (fmt == EDAN_FORMAT_TABLE)
        return;
    fp_row *rows;
    size_t n;
    const fp_total all = totals(t, &rows, &n);
    if (fmt == EDAN_FORMAT_TEXT) {
        fprintf(f, "\nfootprint (distinct bytes and %u-byte lines loaded or stored)\n", LINE);
        fprintf(f, "  %-32s %14s %12s\n", "", "bytes", "lines");
        fprintf(f, "  %-32s %14" PRIu64 " %12" PRIu64 "\n", "all", all.bytes, all.lines);
        for (size_t i = 0; t->have_elf && i < n && i < TEXT_ROWS; i++)
            fprintf(f, "  %-32.32s %14" PRIu64 " %12" PRIu64 "\n", fn_name(t, rows[i].fn), rows[i].v.bytes,
                    rows[i].v.lines);
        if (t->have_elf && n > TEXT_ROWS)
            fprintf(f, "  (%zu more functions; --json lists all)\n", n - TEXT_ROWS);
    } else {
        fprintf(f, ",\"footprint\":{\"line_bytes\":%u,\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 ",\"functions\":", LINE,
                all.bytes, all.lines);
        if (!t->have_elf) {
            fputs("null}", f);
        } else {
            fputc('[', f);
            for (size_t i = 0; i < n; i++) {
                fprintf(f, "%s{\"name\":", i ? "," : "");
                edan_json_str(f, fn_name(t, rows[i].fn));
                fprintf(f, ",\"bytes\":%" PRIu64 ",\"lines\":%" PRIu64 "}", rows[i].v.bytes, rows[i].v.lines);
            }
            fputs("]}", f);
        }
    }
    free(rows);
}

static void destroy(void *tool)
{
    footprint_tool *t = tool;
    if (!t)
        return;
    if (t->have_elf)
        edan_elf_close(&t->elf);
    edan_keymap_free(&t->map);
    free(t->id_fn);
    free(t);
}

static const edan_tool_option options[] = {
    {"footprint", false,
     "  --footprint         distinct bytes and 64-byte lines loaded or stored, in all and per\n"
     "                      function (the function whose code accessed them)\n",
     NULL},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_footprint_tool = {
    .name = "footprint",
    .summary = "distinct bytes and lines touched, in all and per function",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .destroy = destroy,
    .reads_program = true,
};
