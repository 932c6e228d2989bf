/*
 * annotate_tool.c - the annotation tool (--annotate, and edan annotate):
 * source files with per-line columns in the margin, in the manner of
 * Valgrind's cg_annotate:
 *   Ir     instructions executed on the line;
 *   Mem    memory-access vertices (accesses that reach RAM under the first
 *          --cache configuration: the eDAG's W, per line);
 *   Span   cycles of the line's instructions on one critical path (they
 *          sum to T_inf), when the critical-path tool runs beside it;
 *   Chain  memory-access vertices of the line on the longest chain of
 *          them (they sum to D), likewise;
 *   Stall  cycles the timing model's commit waited on memory (data, code, a full store queue)
 *          at the line's instructions, at its highest latency, when the
 *          model runs beside it (--machine): a share of the predicted run
 *          time (timing.h's attribution), so they sum to the region's
 *          memory stall cycles.
 * Lines are found through DWARF (util/symbols/srcmap.h); instructions without
 * source information are summed per function under "(no source)".
 *
 * The stream part counts per static instruction and runs the first
 * configuration's cache model through edan_cache_classify(), the single
 * definition of a memory-access vertex.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/cache/cache.h"
#include "analysis/critpath/critpath.h"
#include "report/table.h"
#include "tool/base/base.h"
#include "tool/graph/critpath_tool.h"
#include "tool/graph/timing_tool.h"
#include "util/files.h"
#include "util/grow.h"
#include "util/symbols/symbols.h"

#define CONTEXT 3             /* lines of source shown around annotated ones in a long file */
#define WHOLE_FILE 400        /* a file this short is shown whole */
#define MAX_SOURCE (1u << 22) /* bytes of a source file read */
#define NO_SOURCE_ROWS 20     /* functions without source listed in the text */

typedef struct an_id {
    uint64_t pc, insns, mem;
} an_id;

typedef struct annotate_tool {
    edan_cache cache;
    bool has_cache;
    an_id *ids;
    size_t cap;
    edan_error err;
} annotate_tool;

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

static void warm(void *ctx, const edan_exec *recs, size_t n)
{
    annotate_tool *t = ctx;
    if (t->has_cache)
        edan_cache_warm(&t->cache, recs, n);
}

static void consume_measured(void *ctx, const edan_exec *recs, size_t n)
{
    annotate_tool *t = ctx;
    for (size_t i = 0; i < n && !t->err.set; i++) {
        const edan_exec *r = &recs[i];
        if (r->id >= t->cap) {
            const size_t cap = edan_grow_cap(t->cap, r->id);
            an_id *m = edan_grow_zeroed(t->ids, t->cap, cap, sizeof *m);
            if (!m) {
                edan_error_set(&t->err, "out of memory for the annotation");
                return;
            }
            t->ids = m;
            t->cap = cap;
        }
        an_id *a = &t->ids[r->id];
        const edan_insn *in = r->insn;
        a->pc = in->pc;
        a->insns++;
        if (in->mem == EDAN_MEM_NONE || (r->flags & EDAN_EXEC_NO_ACCESS) || !in->mem_size)
            continue;
        const bool rd = in->mem != EDAN_MEM_STORE, wr = in->mem != EDAN_MEM_LOAD;
        const edan_access_class c = edan_cache_classify(&t->cache, t->has_cache, r->addr, in->mem_size, rd, wr);
        a->mem += c.rd_ram || c.wr_ram;
    }
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_exec_split(recs, n, ctx, consume_measured, warm);
}

static int finish(void *ctx)
{
    return ((annotate_tool *)ctx)->err.set ? -1 : 0;
}

/* ===================================================================== */
/* Lines                                                                  */
/* ===================================================================== */

typedef struct an_line {
    const char *file, *function; /* file NULL: no source (then per function) */
    unsigned line;
    uint64_t insns, mem, span, chain;
    double stall;
} an_line;

static int str_cmp(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int by_place(const void *a, const void *b)
{
    const an_line *x = a, *y = b;
    int c = str_cmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->file ? 0 : str_cmp(x->function, y->function);
}

typedef struct an_view {
    an_line *lines; /* one per (file, line), or per function without source; sorted by place */
    size_t n;
    uint64_t insns, mem, span, chain;
    bool have_path;
    bool have_stall;
    double stall, stall_ns; /* the total, and the latency it is at */
    edan_srcmap *src;
    const char *binary; /* the traced program, whose debug lines these are (NULL: unknown) */
} an_view;

/* The line of pc in the view's table being built (entries are kept in pc order of first use). */
static an_line *line_of(an_view *v, size_t *cap, edan_srcmap *src, uint64_t pc)
{
    edan_srcloc loc = {NULL, NULL, 0};
    if (src)
        edan_srcmap_lookup(src, pc, &loc);
    for (size_t i = v->n; i > 0; i--) { /* recent lines first: a path revisits few */
        an_line *l = &v->lines[i - 1];
        if (l->line == loc.line && !str_cmp(l->file, loc.file) && (loc.file || !str_cmp(l->function, loc.function)))
            return l;
    }
    if (v->n == *cap) {
        const size_t c = *cap ? 2 * *cap : 256;
        an_line *m = realloc(v->lines, c * sizeof *m);
        if (!m)
            return NULL;
        v->lines = m;
        *cap = c;
    }
    an_line *l = &v->lines[v->n++];
    memset(l, 0, sizeof *l);
    l->file = loc.file;
    l->line = loc.file ? loc.line : 0;
    l->function = loc.function;
    return l;
}

static void build_view(const annotate_tool *t, const edan_session *s, an_view *v)
{
    memset(v, 0, sizeof *v);
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    v->binary = binary && *binary ? binary : NULL;
    v->src = v->binary ? edan_srcmap_open(binary, &ignored) : NULL;
    if (v->src) /* a dynamically linked program's libraries by name too */
        edan_srcmap_add_objects(v->src, edan_session_source(s)->objects, &ignored);
    size_t cap = 0;
    for (size_t id = 0; id < t->cap; id++) {
        const an_id *a = &t->ids[id];
        if (!a->insns)
            continue;
        an_line *l = line_of(v, &cap, v->src, a->pc);
        if (!l)
            return;
        l->insns += a->insns;
        l->mem += a->mem;
        v->insns += a->insns;
        v->mem += a->mem;
    }
    const edan_critpath *cp = edan_critpath_tool_path(s);
    if (cp) {
        v->have_path = true;
        const edan_path_sum *p = edan_critpath_span(cp);
        for (size_t i = 0; i < p->n_insns; i++) {
            an_line *l = line_of(v, &cap, v->src, p->insns[i].insn ? p->insns[i].insn->pc : 0);
            if (l)
                l->span += p->insns[i].cycles;
        }
        v->span = p->length;
        p = edan_critpath_chain(cp);
        for (size_t i = 0; i < p->n_insns; i++) {
            an_line *l =
                p->insns[i].mems ? line_of(v, &cap, v->src, p->insns[i].insn ? p->insns[i].insn->pc : 0) : NULL;
            if (l)
                l->chain += p->insns[i].mems;
        }
        v->chain = p->length;
    }
    const edan_timing *m = edan_timing_tool_model(s);
    if (m && edan_timing_lanes(m) > 0) {
        int k = 0; /* the highest latency */
        for (int j = 1; j < edan_timing_lanes(m); j++)
            if (edan_timing_lane_get(m, j).mem_latency_ns > edan_timing_lane_get(m, k).mem_latency_ns)
                k = j;
        v->have_stall = true;
        v->stall_ns = edan_timing_lane_get(m, k).mem_latency_ns;
        for (uint32_t id = 0; id < edan_timing_ids(m); id++) {
            if (!edan_timing_id_count(m, id))
                continue;
            an_line *l = line_of(v, &cap, v->src, edan_timing_id_pc(m, id));
            if (!l)
                return;
            const double st = edan_timing_id_stall(m, id, k);
            l->stall += st;
            v->stall += st;
        }
    }
    if (v->n) /* an empty region has no table at all (qsort's array must not be NULL) */
        qsort(v->lines, v->n, sizeof *v->lines, by_place);
}

/* ===================================================================== */
/* Tables                                                                 */
/* ===================================================================== */

#define STALL(what) "cycles the timing model's commit waited on memory at " what " (only with --machine)"

static const edan_column line_cols[] = {
    EDAN_COL_FIELD(an_line, file, "file", "", "the source file (null: code without source, per function)", 0, NULL, 0,
                   0),
    EDAN_COL_FIELD(an_line, line, "line", "", "the line in it (0 without source)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(an_line, function, "function", "", "the function the line is in (null: unknown)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(an_line, insns, "instructions", "instructions", "instructions executed on the line", 0, NULL, 0, 0),
    EDAN_COL_FIELD(an_line, mem, "mem", "accesses", "its memory-access vertices (the eDAG's W, per line)", 0, NULL, 0,
                   0),
    EDAN_COL_FIELD(an_line, span, "span_cycles", "cycles", "its cycles on one critical path (0 without it)", 0, NULL, 0,
                   0),
    EDAN_COL_FIELD(an_line, chain, "chain_accesses", "accesses",
                   "its accesses on the longest memory chain (0 without the critical path)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(an_line, stall, "mem_stall_cycles", "cycles", STALL("its instructions"), EDAN_COL_OPTIONAL, NULL, 0,
                   0),
};

static const edan_column annotate_cols[] = {
    EDAN_COL_FIELD(an_view, have_path, "critical_path", "", "whether the critical-path tool ran beside it", 0, NULL, 0,
                   0),
    EDAN_COL_FIELD(an_view, insns, "totals.instructions", "instructions", "the instructions: the eDAG's vertices", 0,
                   NULL, 0, 0),
    EDAN_COL_FIELD(an_view, mem, "totals.mem", "accesses", "the memory-access vertices: W", 0, NULL, 0, 0),
    EDAN_COL_FIELD(an_view, span, "totals.span_cycles", "cycles", "the critical path's length: T_inf", 0, NULL, 0, 0),
    EDAN_COL_FIELD(an_view, chain, "totals.chain_accesses", "accesses", "the longest memory chain's accesses: D", 0,
                   NULL, 0, 0),
    EDAN_COL_FIELD(an_view, stall, "totals.mem_stall_cycles", "cycles", STALL("every instruction"), EDAN_COL_OPTIONAL,
                   NULL, 0, 0),
    EDAN_COL_FIELD(an_view, stall_ns, "stall_latency_ns", "ns",
                   "the memory latency of the stall cycles, the highest (only with --machine)",
                   EDAN_COL_OPTIONAL | EDAN_COL_G, NULL, 0, 6),
    {"lines", EDAN_T_ROWS, "", "per source line, by file and line; code without source per function first", 0, NULL, 0,
     0, NULL, EDAN_CELL},
    /* text */
    EDAN_COL_FIELD(an_view, have_stall, "have_stall", "", "text", EDAN_NO_JSON | EDAN_NO_CSV, NULL, 0, 0),
};

static const edan_table_decl tables[] = {
    EDAN_TABLE_DECL("annotate", NULL, true, "the annotated lines' totals", annotate_cols),
    EDAN_TABLE_DECL("annotate.lines", NULL, false, "a source line, or a function's code without source", line_cols),
    {NULL}};

/* ===================================================================== */
/* Text                                                                   */
/* ===================================================================== */

/* The margin: Ir, Mem, Span and Chain with the critical path, Stall with the timing model; a count of 0 as ".". */
static void margin(FILE *f, const an_view *v, const an_line *l)
{
    const an_line z = {0};
    l = l ? l : &z;
    const uint64_t c[5] = {l->insns, l->mem, l->span, l->chain, (uint64_t)(l->stall + 0.5)};
    for (int i = 0; i < 5; i++)
        if (i < 2 || (i < 4 ? v->have_path : v->have_stall))
            c[i] ? fprintf(f, " %12" PRIu64, c[i]) : fprintf(f, " %12s", ".");
    fputs("  ", f);
}

/* A source file that is also an output of the command: the command fails (outputs()) instead of replacing it. */
static edan_error source_is_output;

/* The source file's text, NULL when it cannot be read (or is too large). */
static char *read_source(const char *path, size_t *len)
{
    /* a FIFO or device named by the debug lines is not read (it would hang or never end); nor an output */
    edan_error why = {0};
    char *text = path ? edan_input_read_all(path, "a source file", MAX_SOURCE, len, &why) : NULL;
    if (!text && why.set && edan_output_is(path) && !source_is_output.set)
        source_is_output = why;
    return text;
}

/*
 * Text from a source file or its debug information, as it is but for its
 * control characters: a terminal escape in a source (or in a file name)
 * must not reach the terminal, so each becomes '?' (tabs stay, a CR that
 * ends a line goes).
 */
static void put_clean(FILE *f, const char *p, size_t n)
{
    if (n && p[n - 1] == '\r')
        n--;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)p[i];
        fputc((c < 0x20 && c != '\t') || c == 0x7f ? '?' : c, f);
    }
}

/* The source does not look like the one the program was built from: say so before its lines. */
static void source_warnings(FILE *f, const an_view *v, const char *path, unsigned n_lines, unsigned last)
{
    if (last > n_lines)
        fprintf(f,
                "-- warning: the file has %u lines, but the program's debug information has instructions at line %u: "
                "it is not the source the program was built from\n",
                n_lines, last);
    struct stat src, prog;
    if (v->binary && !stat(path, &src) && !stat(v->binary, &prog) &&
        (src.st_mtim.tv_sec > prog.st_mtim.tv_sec ||
         (src.st_mtim.tv_sec == prog.st_mtim.tv_sec && src.st_mtim.tv_nsec > prog.st_mtim.tv_nsec))) {
        fputs("-- warning: the file was modified after the program was built (", f);
        put_clean(f, v->binary, strlen(v->binary));
        fputs("): its lines may not be those the counts belong to\n", f);
    }
}

/* One source file: its lines a..b of the annotated lines v->lines[a..b). */
static void text_file(FILE *f, const an_view *v, size_t a, size_t b)
{
    const char *path = v->lines[a].file;
    fputs("\n-- file: ", f);
    put_clean(f, path, strlen(path));
    fputc('\n', f);
    size_t len = 0;
    char *text = read_source(path, &len);
    if (!text) {
        fputs("-- (source not readable: the annotated lines only)\n", f);
        for (size_t i = a; i < b; i++) {
            margin(f, v, &v->lines[i]);
            fprintf(f, "line %u\n", v->lines[i].line);
        }
        return;
    }
    unsigned n_lines = 0;
    for (size_t i = 0; i < len; i++)
        n_lines += text[i] == '\n';
    if (len && text[len - 1] != '\n')
        n_lines++;
    source_warnings(f, v, path, n_lines, v->lines[b - 1].line);
    const bool whole = n_lines <= WHOLE_FILE;
    size_t next = a; /* the next annotated line */
    unsigned shown_to = 0;
    char *p = text;
    for (unsigned ln = 1; ln <= n_lines && *p; ln++) {
        char *end = strchr(p, '\n');
        const size_t l = end ? (size_t)(end - p) : strlen(p);
        while (next < b && v->lines[next].line < ln)
            next++;
        const an_line *here = next < b && v->lines[next].line == ln ? &v->lines[next] : NULL;
        /* the whole file, or an annotated line here, soon after or shortly before */
        if (whole || (next < b && v->lines[next].line <= ln + CONTEXT) ||
            (next > a && v->lines[next - 1].line + CONTEXT >= ln)) {
            if (!whole && ln > shown_to + 1)
                fprintf(f,
                        "-- line %u "
                        "----------------------------------------\n",
                        ln);
            margin(f, v, here);
            put_clean(f, p, l);
            fputc('\n', f);
            shown_to = ln;
        }
        p = end ? end + 1 : p + l;
    }
    free(text);
}

static int by_insns(const void *a, const void *b)
{
    const an_line *x = a, *y = b;
    if (x->insns != y->insns)
        return x->insns < y->insns ? 1 : -1;
    return str_cmp(x->function, y->function);
}

static const char head_form[] =
    "\nannotated source (per line: Ir instructions, Mem memory-access vertices{?critical_path}, Span cycles on one "
    "critical path, Chain accesses on the longest memory chain{;}{?have_stall}, Stall cycles the timing model waited "
    "on memory at {stall_latency_ns} ns{;})\n"
    "  totals: Ir {totals.instructions}, Mem {totals.mem}{?critical_path} (= W), Span {totals.span_cycles} (= T_inf), "
    "Chain {totals.chain_accesses} (= D){;}{?have_stall}, Stall {totals.mem_stall_cycles}{;}\n"
    "           Ir          Mem{?critical_path}         Span        Chain{;}{?have_stall}        Stall{;}\n";

static void report_text(const an_view *v, FILE *f)
{
    edan_table tab;
    edan_table_of(&tab, &tables[0], v, 1, sizeof *v);
    edan_table_form(f, &tab, head_form);
    edan_table_free(&tab);
    size_t a = 0;
    while (a < v->n && !v->lines[a].file)
        a++;
    if (a) { /* code without source: per function, most instructions first */
        an_line *rows = malloc(a * sizeof *rows);
        if (rows) {
            memcpy(rows, v->lines, a * sizeof *rows);
            qsort(rows, a, sizeof *rows, by_insns);
            fputs("\n-- without source information, per function, most instructions first\n", f);
            for (size_t i = 0; i < a && i < NO_SOURCE_ROWS; i++) {
                margin(f, v, &rows[i]);
                const char *fn = rows[i].function ? rows[i].function : EDAN_NO_FUNCTION;
                put_clean(f, fn, strlen(fn));
                fputc('\n', f);
            }
            if (a > NO_SOURCE_ROWS)
                fprintf(f, "-- (%zu more functions without source; --json lists all)\n", a - NO_SOURCE_ROWS);
            free(rows);
        }
    }
    while (a < v->n) {
        size_t b = a;
        while (b < v->n && !str_cmp(v->lines[b].file, v->lines[a].file))
            b++;
        text_file(f, v, a, b);
        a = b;
    }
}

/* ,"annotate":{...}: the totals and the lines, the stall cycles only with the timing model. */
static void report_json(const an_view *v, FILE *f)
{
    edan_table tab, lines;
    edan_table_init(&tab, &tables[0]);
    edan_table_of(&lines, &tables[1], v->lines, v->n, sizeof *v->lines);
    edan_value *r = edan_table_row_of(&tab, 0, v, NULL);
    if (r)
        r[7].rows = &lines;
    if (!v->have_stall) {
        edan_table_omit(&lines, "mem_stall_cycles");
        edan_table_omit(&tab, "totals.mem_stall_cycles");
        edan_table_omit(&tab, "stall_latency_ns");
    }
    edan_table_json_object(f, &tab);
    edan_table_free(&lines);
    edan_table_free(&tab);
}

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const annotate_tool *t = tool;
    if (fmt == EDAN_FORMAT_TABLE)
        return;
    an_view v;
    build_view(t, s, &v);
    if (fmt == EDAN_FORMAT_JSON)
        report_json(&v, f);
    else
        report_text(&v, f);
    free(v.lines);
    edan_srcmap_close(v.src);
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "annotate", NULL, NULL) > 0;
}

static void destroy(void *tool)
{
    annotate_tool *t = tool;
    if (!t)
        return;
    if (t->has_cache)
        edan_cache_free(&t->cache);
    free(t->ids);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    annotate_tool *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    edan_edag_config cfg;
    if (edan_options_edag_config(edan_session_options(s), &cfg, err)) {
        free(t);
        return NULL;
    }
    if (cfg.lane[0].cache.n_levels > 0) {
        if (edan_cache_init(&t->cache, &cfg.lane[0].cache, err)) {
            free(t);
            return NULL;
        }
        t->has_cache = true;
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL, ((annotate_tool *)t)->has_cache};
}

static const edan_error *error(const void *t)
{
    return &((const annotate_tool *)t)->err;
}

static const edan_tool_option options[] = {
    {"annotate", false,
     "  --annotate          source files with per-line counts in the margin: instructions,\n"
     "                      memory-access vertices (first --cache), and with --critical-path\n"
     "                      the cycles on the critical path and the accesses on the memory\n"
     "                      chain, with --machine the timing model's memory stall cycles\n"
     "                      (see also edan annotate)\n",
     NULL},
    {NULL, false, NULL, NULL},
};

static int outputs(void *tool, const edan_session *s, edan_error *err)
{
    (void)tool;
    (void)s;
    if (source_is_output.set)
        edan_error_set(err, "%s", source_is_output.msg);
    return source_is_output.set ? -1 : 0;
}

/* Span and Chain per line from the critical path, Stall from the timing model */
static const edan_tool_def *const uses[] = {&edan_critpath_tool, &edan_timing_tool, NULL};

const edan_tool_def edan_annotate_tool = {
    .name = "annotate",
    .summary = "source lines with counts in the margin (like cg_annotate)",
    .uses = uses,
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .tables = tables,
    .outputs = outputs,
    .destroy = destroy,
    .reads_program = true,
};
