#include "report/critpath_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/native.h"
#include "report/csv.h"
#include "report/json.h"
#include "util/srcmap.h"

typedef struct line_stat {
    uint64_t pc; /* the first pc seen for the line */
    const char *function, *file;
    unsigned line;
    uint64_t vertices, cycles, mems;
    edan_path_carrier via; /* what carries the links that leave the line's vertices */
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

/*
 * What carries a line's links, as text: all its registers, in the order of
 * their numbers ("a5", "rax,rbx"), then the bytes their union spans
 * ("0x7ffc1230..+8"), "-" for none (the path's last vertex, a false
 * dependency). buf holds VIA_CAP bytes: every register fits.
 */
#define VIA_CAP (EDAN_NUM_REGS * 12 + 64)
static const char *via_text(const edan_path_carrier *c, char *buf)
{
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned r = 0; r < EDAN_NUM_REGS; r++)
        if (edan_path_carrier_has(c, r))
            at += (size_t)snprintf(buf + at, VIA_CAP - at, "%s%s", at ? "," : "",
                                   edan_native_reg_name(c->isa, (uint8_t)r));
    if (c->byte_links)
        at +=
            (size_t)snprintf(buf + at, VIA_CAP - at, "%s0x%" PRIx64 "..+%" PRIu64, at ? " " : "", c->lo, c->hi - c->lo);
    if (!at)
        snprintf(buf, VIA_CAP, "-");
    return buf;
}

static void place(FILE *f, const line_stat *s)
{
    if (s->file)
        fprintf(f, "%s:%u (%s)", s->file, s->line, s->function ? s->function : "?");
    else
        fprintf(f, "0x%" PRIx64 " (%s)", s->pc, s->function ? s->function : "no source information");
}

/* One path's lines as text: the heading (its own words), then the top lines. */
static void text_path(FILE *f, const edan_path_sum *p, bool chain, bool data, edan_srcmap *map, int top)
{
    line_stat *s;
    const size_t k = group(p, map, chain, &s);
    const char *what = data ? "data " : "";
    if (!chain)
        fprintf(f, "%scritical path: %" PRIu64 " instructions, %" PRIu64 " cycles (%s), %" PRIu64 " memory accesses\n",
                what, p->vertices, p->length, data ? "the data eDAG's Tinf" : "Tinf", p->mems);
    else
        fprintf(f, "%smemory chain: %" PRIu64 " dependent memory accesses (%s) through %" PRIu64 " instructions\n",
                what, p->length, data ? "the data eDAG's D" : "D", p->vertices);
    if (chain)
        fprintf(f, "  %8s %8s  %-18s %s\n", "mem", "insns", "via", "source line");
    else
        fprintf(f, "  %12s %8s %8s  %-18s %s\n", "cycles", "insns", "mem", "via", "source line");
    char via[VIA_CAP];
    for (size_t i = 0; i < k && (int)i < top; i++) {
        if (chain)
            fprintf(f, "  %8" PRIu64 " %8" PRIu64 "  ", s[i].mems, s[i].vertices);
        else
            fprintf(f, "  %12" PRIu64 " %8" PRIu64 " %8" PRIu64 "  ", s[i].cycles, s[i].vertices, s[i].mems);
        fprintf(f, "%-18s ", via_text(&s[i].via, via));
        place(f, &s[i]);
        fputc('\n', f);
    }
    free(s);
}

void edan_report_critpath_text(FILE *f, const edan_critpath *cp, const edan_critpath *data, const char *binary, int top)
{
    edan_error err = {0};
    edan_srcmap *map = binary && *binary ? edan_srcmap_open(binary, &err) : NULL;
    fputc('\n', f);
    text_path(f, edan_critpath_span(cp), false, false, map, top);
    if (!map && binary && *binary)
        fprintf(f, "  (no source lines: %s)\n", err.msg);
    text_path(f, edan_critpath_chain(cp), true, false, map, top);
    if (data) {
        fputs("(the data eDAG: the links of address bookkeeping left out, docs/model.md)\n", f);
        text_path(f, edan_critpath_span(data), false, true, map, top);
        text_path(f, edan_critpath_chain(data), true, true, map, top);
    }
    fputs("  (via: the register or the bytes that carry each line's value to the next line of the path)\n", f);
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
        fprintf(f, ",\"line\":%u,\"instructions\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"memory_accesses\":%" PRIu64,
                s[i].line, s[i].vertices, s[i].cycles, s[i].mems);
        const edan_path_carrier *c = &s[i].via;
        char via[VIA_CAP];
        fputs(",\"via\":", f);
        edan_json_str(f, via_text(c, via));
        fputs(",\"via_registers\":[", f);
        for (unsigned r = 0, n = 0; r < EDAN_NUM_REGS; r++)
            if (edan_path_carrier_has(c, r)) {
                fputs(n++ ? "," : "", f);
                edan_json_str(f, edan_native_reg_name(c->isa, (uint8_t)r));
            }
        fprintf(f, "],\"register_links\":%" PRIu64 ",\"byte_links\":%" PRIu64 ",\"other_links\":%" PRIu64, c->reg_links,
                c->byte_links, c->other_links);
        if (c->byte_links)
            fprintf(f, ",\"bytes\":{\"address\":%" PRIu64 ",\"size\":%" PRIu64 "}}", c->lo, c->hi - c->lo);
        else
            fputs(",\"bytes\":null}", f);
    }
    fputs("]}", f);
    free(s);
}

void edan_report_critpath_json(FILE *f, const edan_critpath *cp, const edan_critpath *data, const char *binary, int top)
{
    edan_error err = {0};
    edan_srcmap *map = binary && *binary ? edan_srcmap_open(binary, &err) : NULL;
    json_path(f, "critical_path", edan_critpath_span(cp), false, map, top);
    fputc(',', f);
    json_path(f, "memory_chain", edan_critpath_chain(cp), true, map, top);
    if (data) {
        fputc(',', f);
        json_path(f, "data_critical_path", edan_critpath_span(data), false, map, top);
        fputc(',', f);
        json_path(f, "data_memory_chain", edan_critpath_chain(data), true, map, top);
    }
    edan_srcmap_close(map);
}

/* One path's lines as rows of the CSV table, all of them, by rank. */
static void csv_path(edan_csv *c, const char *name, const edan_path_sum *p, bool chain, edan_srcmap *map)
{
    line_stat *s;
    const size_t k = group(p, map, chain, &s);
    char via[VIA_CAP];
    for (size_t i = 0; i < k; i++) {
        const edan_path_carrier *v = &s[i].via;
        edan_csv_str(c, name);
        edan_csv_u64(c, i + 1);
        edan_csv_u64(c, s[i].pc);
        edan_csv_str(c, s[i].function);
        edan_csv_str(c, s[i].file);
        edan_csv_u64(c, s[i].line);
        edan_csv_u64(c, s[i].vertices);
        edan_csv_u64(c, s[i].cycles);
        edan_csv_u64(c, s[i].mems);
        edan_csv_str(c, via_text(v, via));
        edan_csv_u64(c, v->reg_links);
        edan_csv_u64(c, v->byte_links);
        edan_csv_u64(c, v->other_links);
        if (v->byte_links) {
            edan_csv_u64(c, v->lo);
            edan_csv_u64(c, v->hi - v->lo);
        } else {
            edan_csv_str(c, NULL);
            edan_csv_str(c, NULL);
        }
        edan_csv_end_row(c);
    }
    free(s);
}

int edan_report_critpath_csv(const edan_critpath *cp, const edan_critpath *data, const char *binary, const char *dir,
                             const char *base, edan_error *err)
{
    edan_csv c;
    if (edan_csv_open(&c, dir, base, "critical-path",
                      "path,rank,pc,function,file,line,instructions,cycles,memory_accesses,via,register_links,"
                      "byte_links,other_links,bytes_address,bytes_size",
                      err))
        return -1;
    edan_error map_err = {0};
    edan_srcmap *map = binary && *binary ? edan_srcmap_open(binary, &map_err) : NULL;
    csv_path(&c, "critical_path", edan_critpath_span(cp), false, map);
    csv_path(&c, "memory_chain", edan_critpath_chain(cp), true, map);
    if (data) {
        csv_path(&c, "data_critical_path", edan_critpath_span(data), false, map);
        csv_path(&c, "data_memory_chain", edan_critpath_chain(data), true, map);
    }
    edan_srcmap_close(map);
    return edan_csv_close(&c, err);
}
