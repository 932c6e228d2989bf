#include "report/critpath_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/native.h"
#include "report/table.h"
#include "util/symbols/symbols.h"

typedef struct line_stat {
    uint64_t pc; /* the first pc seen for the line */
    const char *function, *file;
    unsigned line;
    uint64_t vertices, cycles, mems;
    edan_path_carrier via; /* what carries the links that leave the line's vertices */
} line_stat;

/* A line's row of the report (source 1 of its row; source 0 is its line_stat). */
typedef struct line_row {
    const char *path, *via_text, *where; /* where: a line without source, its function or that there is none */
    uint64_t rank, size;
    bool bytes;
    const char *regs[EDAN_NUM_REGS];
    size_t n_regs;
} line_row;

static int by_pc(const void *a, const void *b)
{
    const line_stat *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int str_cmp(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int by_place(const void *a, const void *b)
{
    const line_stat *x = a, *y = b;
    int c = str_cmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    c = str_cmp(x->function, y->function);
    if (c)
        return c;
    /* without source information every pc is its own line */
    return x->file ? 0 : by_pc(a, b);
}

static int by_cycles(const void *a, const void *b)
{
    const line_stat *x = a, *y = b;
    if (x->cycles != y->cycles)
        return x->cycles > y->cycles ? -1 : 1;
    return by_pc(a, b);
}

static int by_mems(const void *a, const void *b)
{
    const line_stat *x = a, *y = b;
    if (x->mems != y->mems)
        return x->mems > y->mems ? -1 : 1;
    return by_cycles(a, b);
}

static size_t pc_hash(uint64_t pc, size_t cap)
{
    return (size_t)((pc * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

/*
 * A path's static instructions summed per pc, in order of first appearance,
 * into *out (malloc'd); returns the number of distinct pcs, or SIZE_MAX when
 * out of memory. A hash table on pc: several static instructions (the same
 * code translated again) may share a pc.
 */
static size_t sum_by_pc(const edan_path_insn *p, size_t n, line_stat **out)
{
    size_t cap = 256, m = 0;
    line_stat *s = malloc(cap / 2 * sizeof *s); /* the table is at most half full: cap / 2 pcs */
    size_t *slot = calloc(cap, sizeof *slot);   /* index + 1 into s, 0 = empty */
    bool ok = s && slot;
    for (size_t i = 0; ok && i < n; i++) {
        const uint64_t pc = p[i].insn ? p[i].insn->pc : 0;
        size_t h = pc_hash(pc, cap);
        while (slot[h] && s[slot[h] - 1].pc != pc)
            h = (h + 1) & (cap - 1);
        size_t idx = slot[h] - 1;
        if (!slot[h]) {
            idx = m;
            s[m] = (line_stat){.pc = pc};
            slot[h] = ++m;
        }
        s[idx].vertices += p[i].vertices;
        s[idx].cycles += p[i].cycles;
        s[idx].mems += p[i].mems;
        edan_path_carrier_merge(&s[idx].via, &p[i].carrier);
        if (m == cap / 2) {
            line_stat *ns = realloc(s, cap * sizeof *s);
            free(slot);
            slot = NULL;
            ok = ns != NULL;
            s = ns ? ns : s;
            cap *= 2;
            if (ok)
                slot = calloc(cap, sizeof *slot);
            ok = slot != NULL;
            for (size_t j = 0; ok && j < m; j++) {
                size_t g = pc_hash(s[j].pc, cap);
                while (slot[g])
                    g = (g + 1) & (cap - 1);
                slot[g] = j + 1;
            }
        }
    }
    free(slot);
    if (!ok) {
        free(s);
        return SIZE_MAX;
    }
    *out = s;
    return m;
}

/* Group a path by source line; returns the number of lines (sorted for the report), 0 when out of memory. */
static size_t group(const edan_path_sum *p, edan_srcmap *map, bool for_chain, line_stat **out)
{
    line_stat *s;
    size_t m = sum_by_pc(p->insns, p->n_insns, &s);
    *out = NULL;
    if (m == SIZE_MAX)
        return 0;
    qsort(s, m, sizeof *s, by_pc);
    for (size_t i = 0; i < m; i++) {
        edan_srcloc loc = {0};
        if (map && edan_srcmap_lookup(map, s[i].pc, &loc)) {
            s[i].function = loc.function;
            s[i].file = loc.file;
            s[i].line = loc.line;
        }
    }
    qsort(s, m, sizeof *s, by_place);
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        if (k && s[k - 1].file && by_place(&s[k - 1], &s[i]) == 0) {
            s[k - 1].vertices += s[i].vertices;
            s[k - 1].cycles += s[i].cycles;
            s[k - 1].mems += s[i].mems;
            edan_path_carrier_merge(&s[k - 1].via, &s[i].via);
        } else {
            s[k++] = s[i];
        }
    }
    qsort(s, k, sizeof *s, for_chain ? by_mems : by_cycles);
    *out = s;
    return k;
}

/* ===================================================================== */
/* Tables                                                                 */
/* ===================================================================== */

#define TEXT (EDAN_NO_JSON | EDAN_NO_CSV)
#define LINE(m, key, unit, doc) EDAN_COL_FIELD(line_stat, m, key, unit, doc, 0, NULL, 0, 0)
static const edan_column line_cols[] = {
    EDAN_COL_OF(1, line_row, path, "path", "", "the path: critical_path, memory_chain, data_critical_path, ...",
                EDAN_NO_JSON, NULL, 0, 0),
    EDAN_COL_OF(1, line_row, rank, "rank", "", "the line's rank on its path, 1 first", EDAN_NO_JSON, NULL, 0, 0),
    EDAN_COL_FIELD(line_stat, pc, "pc", "", "the first pc of the line's instructions", EDAN_COL_HEX, NULL, 0, 0),
    LINE(function, "function", "", "the function (null: unknown)"),
    LINE(file, "file", "", "the source file (null: no source information; then a line per pc)"),
    LINE(line, "line", "", "the line in it"),
    LINE(vertices, "instructions", "instructions", "the line's vertices on the path"),
    LINE(cycles, "cycles", "cycles", "their costs, summed"),
    LINE(mems, "memory_accesses", "accesses", "how many of them are memory-access vertices"),
    EDAN_COL_OF(1, line_row, via_text, "via", "",
                "what carries the links to the path's next line: registers, then bytes (- for none)", EDAN_COL_LEFT,
                NULL, 0, 0),
    EDAN_COL_ARRAY_OF(1, line_row, regs, n_regs, "via_registers", "", "the registers that carry them", 0),
    LINE(via.reg_links, "register_links", "", "the links a register carries"),
    LINE(via.byte_links, "byte_links", "", "the links bytes carry"),
    LINE(via.other_links, "other_links", "", "the links neither names (false dependencies)"),
    EDAN_COL_GROUP_OF(1, line_row, bytes, "bytes", "the bytes the byte links span (null: none)", 0),
    EDAN_COL_FIELD(line_stat, via.lo, "bytes.address", "", "their lowest address", EDAN_NO_CSV, NULL, 0, 0),
    EDAN_COL_OF(1, line_row, size, "bytes.size", "bytes", "the bytes from it", EDAN_NO_CSV, NULL, 0, 0),
    {"bytes_address", EDAN_T_OPT_U64, "", "their lowest address (empty: none)", EDAN_NO_JSON, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"bytes_size", EDAN_T_OPT_U64, "bytes", "the bytes from it (empty: none)", EDAN_NO_JSON, NULL, 0, 0, NULL,
     EDAN_CELL},
    /* text */
    EDAN_COL_OF(1, line_row, where, "where", "", "text", TEXT, NULL, 0, 0),
};
enum { L_ADDRESS = 17, L_SIZE };

/* A path: its length (Tinf or D), instructions and memory accesses, and its lines. */
typedef struct path_view {
    uint64_t length, vertices, mems;
    const edan_table *lines;
    const char *what, *of; /* text: "data " or "", and what the length is */
} path_view;

#define PATH_COLS(length_key, length_unit, length_doc)                                                                 \
    EDAN_COL_FIELD(path_view, length, length_key, length_unit, length_doc, 0, NULL, 0, 0),                             \
        EDAN_COL_FIELD(path_view, vertices, "instructions", "instructions", "the vertices on the path", 0, NULL, 0,    \
                       0),                                                                                             \
        EDAN_COL_FIELD(path_view, mems, "memory_accesses", "accesses", "the memory-access vertices on it", 0, NULL, 0, \
                       0),                                                                                             \
        EDAN_COL_FIELD(path_view, lines, "lines", "", "its source lines, most cycles (accesses) first", 0, NULL, 0,    \
                       0),                                                                                             \
        EDAN_COL_FIELD(path_view, what, "what", "", "text", TEXT, NULL, 0, 0),                                         \
        EDAN_COL_FIELD(path_view, of, "of", "", "text", TEXT, NULL, 0, 0)
static const edan_column span_cols[] = {PATH_COLS("Tinf", "cycles", "the critical path's length: the span")};
static const edan_column chain_cols[] = {PATH_COLS("D", "accesses", "the memory chain's accesses: the memory depth")};

const edan_table_decl edan_critpath_tables[] = {
    EDAN_TABLE_DECL("critical_path", NULL, true, "one critical path of the first configuration", span_cols),
    EDAN_TABLE_DECL("critical_path.lines", NULL, false, "a source line of it", line_cols),
    EDAN_TABLE_DECL("memory_chain", NULL, true, "one longest chain of memory accesses", chain_cols),
    EDAN_TABLE_DECL("memory_chain.lines", NULL, false, "a source line of it", line_cols),
    EDAN_TABLE_DECL("data_critical_path", NULL, true, "with --critical-path=data: the data eDAG's critical path",
                    span_cols),
    EDAN_TABLE_DECL("data_critical_path.lines", NULL, false, "a source line of it", line_cols),
    EDAN_TABLE_DECL("data_memory_chain", NULL, true, "with --critical-path=data: the data eDAG's memory chain",
                    chain_cols),
    EDAN_TABLE_DECL("data_memory_chain.lines", NULL, false, "a source line of it", line_cols),
    EDAN_CSV_TABLE_DECL("critical_path.csv", "critical-path", "a line of a path, every line of every path", line_cols),
    {NULL}};

static const char span_form[] = "{what}critical path: {instructions} instructions, {Tinf} cycles ({of}), "
                                "{memory_accesses} memory accesses\n"
                                "        cycles    insns      mem  via                source line\n";
static const char chain_form[] = "{what}memory chain: {D} dependent memory accesses ({of}) through {instructions} "
                                 "instructions\n"
                                 "       mem    insns  via                source line\n";
static const char span_line_form[] = "  {cycles:12} {instructions:8} {memory_accesses:8}  {via:18} "
                                     "{?file}{file}:{line} ({function}){;}{!file}0x{pc} ({where})\n";
static const char chain_line_form[] = "  {memory_accesses:8} {instructions:8}  {via:18} "
                                      "{?file}{file}:{line} ({function}){;}{!file}0x{pc} ({where})\n";

/* ===================================================================== */
/* Text, JSON and CSV                                                     */
/* ===================================================================== */

/*
 * What carries a line's links, as text: all its registers, in the order of
 * their numbers ("a5", "rax,rbx"), then the bytes their union spans
 * ("0x7ffc1230..+8"), "-" for none (the path's last vertex, a false
 * dependency); the registers' names also apart.
 */
static void carrier(const line_stat *s, line_row *w, edan_table *t)
{
    const edan_path_carrier *c = &s->via;
    char buf[EDAN_NUM_REGS * 12 + 64];
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned r = 0; r < EDAN_NUM_REGS; r++)
        if (edan_path_carrier_has(c, r)) {
            w->regs[w->n_regs] = edan_native_reg_name(c->isa, (uint8_t)r);
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", at ? "," : "", w->regs[w->n_regs++]);
        }
    if (c->byte_links)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s0x%" PRIx64 "..+%" PRIu64, at ? " " : "", c->lo,
                               c->hi - c->lo);
    w->via_text = at ? edan_table_str(t, buf) : "-";
    w->bytes = c->byte_links != 0;
    w->size = c->hi - c->lo;
    w->where = s->function ? s->function : "no source information";
}

/* A path's lines (*keep) and the first top of them (0: all) as rows of t (*rows), named name; both malloc'd. */
static void path_rows(edan_table *t, const char *name, const edan_path_sum *p, bool chain, edan_srcmap *map, size_t top,
                      line_stat **keep, line_row **rows)
{
    size_t k = group(p, map, chain, keep);
    k = top && k > top ? top : k;
    *rows = calloc(k ? k : 1, sizeof **rows);
    for (size_t i = 0; *rows && i < k; i++) {
        line_row *w = &(*rows)[i];
        w->path = name;
        w->rank = i + 1;
        carrier(&(*keep)[i], w, t);
        edan_value *r = edan_table_row_of(t, 0, &(*keep)[i], w);
        if (r && w->bytes) {
            r[L_ADDRESS] = (edan_value){.opt = {(*keep)[i].via.lo, true}};
            r[L_SIZE] = (edan_value){.opt = {w->size, true}};
        }
    }
    if (!*rows)
        t->failed = true;
}

/* The (up to) four paths: the eDAG's, then with data the data eDAG's. */
typedef struct paths {
    edan_table scalars[4], lines[4];
    path_view view[4];
    line_stat *keep[4];
    line_row *rows[4];
    int n;
} paths;

static void paths_new(paths *ps, const edan_critpath *cp, const edan_critpath *data, edan_srcmap *map, int top,
                      edan_table *csv)
{
    memset(ps, 0, sizeof *ps);
    ps->n = data ? 4 : 2;
    for (int i = 0; i < ps->n; i++) {
        const bool chain = i % 2;
        const edan_critpath *c = i < 2 ? cp : data;
        const edan_path_sum *p = chain ? edan_critpath_chain(c) : edan_critpath_span(c);
        edan_table *lines = csv ? csv : &ps->lines[i];
        if (!csv)
            edan_table_init(lines, &edan_critpath_tables[2 * i + 1]);
        path_rows(lines, edan_critpath_tables[2 * i].path, p, chain, map, csv ? 0 : (size_t)top, &ps->keep[i],
                  &ps->rows[i]);
        ps->view[i] =
            (path_view){p->length,
                        p->vertices,
                        p->mems,
                        lines,
                        i < 2 ? "" : "data ",
                        i < 2 ? (chain ? "D" : "Tinf") : (chain ? "the data eDAG's D" : "the data eDAG's Tinf")};
        edan_table_of(&ps->scalars[i], &edan_critpath_tables[2 * i], &ps->view[i], 1, sizeof ps->view[i]);
    }
}

static void paths_free(paths *ps)
{
    for (int i = 0; i < ps->n; i++) {
        edan_table_free(&ps->scalars[i]);
        edan_table_free(&ps->lines[i]);
        free(ps->keep[i]);
        free(ps->rows[i]);
    }
}

void edan_report_critpath(FILE *f, const edan_critpath *cp, const edan_critpath *data, const char *binary,
                          const edan_objmap *objects, int top, bool json)
{
    edan_error err = {0};
    edan_srcmap *map = binary && *binary ? edan_srcmap_open(binary, &err) : NULL;
    if (map) /* a dynamically linked program's libraries by name and line too */
        edan_srcmap_add_objects(map, objects, &err);
    paths ps;
    paths_new(&ps, cp, data, map, top, NULL);
    if (json) {
        for (int i = 0; i < ps.n; i++)
            edan_table_json_object(f, &ps.scalars[i]);
    } else {
        fputc('\n', f);
        for (int i = 0; i < ps.n; i++) {
            if (i == 2)
                fputs("(the data eDAG: the links of address bookkeeping left out, docs/model.md)\n", f);
            edan_table_form(f, &ps.scalars[i], i % 2 ? chain_form : span_form);
            edan_table_form(f, &ps.lines[i], i % 2 ? chain_line_form : span_line_form);
            if (i == 0 && !map && binary && *binary)
                fprintf(f, "  (no source lines: %s)\n", err.msg);
        }
        fputs("  (via: the register or the bytes that carry each line's value to the next line of the path)\n", f);
    }
    paths_free(&ps);
    edan_srcmap_close(map);
}

int edan_report_critpath_csv(const edan_critpath *cp, const edan_critpath *data, const char *binary,
                             const edan_objmap *objects, const char *dir, const char *base, edan_error *err)
{
    edan_error map_err = {0};
    edan_srcmap *map = binary && *binary ? edan_srcmap_open(binary, &map_err) : NULL;
    if (map)
        edan_srcmap_add_objects(map, objects, &map_err);
    edan_table csv;
    edan_table_init(&csv, &edan_critpath_tables[8]);
    paths ps;
    paths_new(&ps, cp, data, map, 0, &csv);
    const int rc = edan_table_csv(&csv, dir, base, err);
    paths_free(&ps);
    edan_table_free(&csv);
    edan_srcmap_close(map);
    return rc;
}
