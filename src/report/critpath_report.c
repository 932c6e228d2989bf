#include "report/critpath_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/json.h"
#include "util/srcmap.h"

typedef struct line_stat {
    uint64_t pc; /* the first pc seen for the line */
    const char *function, *file;
    unsigned line;
    uint64_t vertices, cycles, mems;
} line_stat;

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
        } else {
            s[k++] = s[i];
        }
    }
    qsort(s, k, sizeof *s, for_chain ? by_mems : by_cycles);
    *out = s;
    return k;
}

static void place(FILE *f, const line_stat *s)
{
    if (s->file)
        fprintf(f, "%s:%u (%s)", s->file, s->line, s->function ? s->function : "?");
    else
        fprintf(f, "0x%" PRIx64 " (%s)", s->pc, s->function ? s->function : "no source information");
}

void edan_report_critpath_text(FILE *f, const edan_critpath *cp, const char *binary, int top)
{
    edan_error err = {0};
    edan_srcmap *map = binary && *binary ? edan_srcmap_open(binary, &err) : NULL;
    const edan_path_sum *p = edan_critpath_span(cp);
    line_stat *s;
    size_t k = group(p, map, false, &s);
    fprintf(f, "\ncritical path: %" PRIu64 " instructions, %" PRIu64 " cycles (Tinf), %" PRIu64 " memory accesses\n",
            p->vertices, p->length, p->mems);
    if (!map && binary && *binary)
        fprintf(f, "  (no source lines: %s)\n", err.msg);
    fprintf(f, "  %12s %8s %8s  %s\n", "cycles", "insns", "mem", "source line");
    for (size_t i = 0; i < k && (int)i < top; i++) {
        fprintf(f, "  %12" PRIu64 " %8" PRIu64 " %8" PRIu64 "  ", s[i].cycles, s[i].vertices, s[i].mems);
        place(f, &s[i]);
        fputc('\n', f);
    }
    free(s);
    p = edan_critpath_chain(cp);
    k = group(p, map, true, &s);
    fprintf(f, "memory chain: %" PRIu64 " dependent memory accesses (D) through %" PRIu64 " instructions\n", p->length,
            p->vertices);
    fprintf(f, "  %8s %8s  %s\n", "mem", "insns", "source line");
    for (size_t i = 0; i < k && (int)i < top; i++) {
        fprintf(f, "  %8" PRIu64 " %8" PRIu64 "  ", s[i].mems, s[i].vertices);
        place(f, &s[i]);
        fputc('\n', f);
    }
    free(s);
    edan_srcmap_close(map);
}

static void json_path(FILE *f, const char *key, const edan_path_sum *p, bool chain, edan_srcmap *map, int top)
{
    line_stat *s;
    size_t k = group(p, map, chain, &s);
    fprintf(f, "\"%s\":{\"%s\":%" PRIu64 ",\"instructions\":%" PRIu64 ",\"memory_accesses\":%" PRIu64 ",\"lines\":[",
            key, chain ? "D" : "Tinf", p->length, p->vertices, p->mems);
    for (size_t i = 0; i < k && (int)i < top; i++) {
        fprintf(f, "%s{\"pc\":%" PRIu64 ",\"function\":", i ? "," : "", s[i].pc);
        edan_json_str(f, s[i].function);
        fputs(",\"file\":", f);
        edan_json_str(f, s[i].file);
        fprintf(f, ",\"line\":%u,\"instructions\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"memory_accesses\":%" PRIu64 "}",
                s[i].line, s[i].vertices, s[i].cycles, s[i].mems);
    }
    fputs("]}", f);
    free(s);
}

void edan_report_critpath_json(FILE *f, const edan_critpath *cp, const char *binary, int top)
{
    edan_error err = {0};
    edan_srcmap *map = binary && *binary ? edan_srcmap_open(binary, &err) : NULL;
    json_path(f, "critical_path", edan_critpath_span(cp), false, map, top);
    fputc(',', f);
    json_path(f, "memory_chain", edan_critpath_chain(cp), true, map, top);
    edan_srcmap_close(map);
}
