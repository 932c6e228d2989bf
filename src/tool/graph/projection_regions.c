/*
 * projection_regions.c - the projection's memory regions in the report:
 * for each region touched (each data object of the program, the rest of its
 * static data, the stack, the heap: analysis/projection/projection.h), its loads and
 * stores, bytes read and written, read/write ratio, distinct lines, working
 * set and DRAM traffic at the machine's cache, as text, as the JSON member
 * "regions" and as CSV (--projection-regions-csv).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/json.h"
#include "tool/graph/projection_tool.h"
#include "util/files.h"

#define TEXT_REGIONS 10

static const char *const kind_names[] = {"stack", "heap", "static", "object"};

/* What a region's row says, computed once for every form. */
typedef struct region_view {
    const edan_proj_region *def;
    const proj_row *row;
    double read_write;  /* bytes read / bytes written; NaN when nothing was written */
    double lines;       /* distinct lines: the first touches made through this region */
    double working_set; /* bytes */
    double rd, wr, flushed;
} region_view;

static region_view view_of(const proj_tool *t, const proj_row *r)
{
    region_view v;
    v.def = &t->regions.r[r->region];
    v.row = r;
    v.read_write = r->mix.store_bytes ? (double)r->mix.load_bytes / (double)r->mix.store_bytes : NAN;
    v.lines = (double)r->lru.cold;
    v.working_set = r->lru.accesses ? ldexp(1.0, (int)edan_lru_working_set(&r->lru)) * (1u << t->line_shift) : 0;
    proj_row_dram(t, r, t->machine_k, &v.rd, &v.wr, &v.flushed);
    return v;
}

void proj_regions_text(const proj_tool *t, FILE *f)
{
    fprintf(f, "  %-34s %10s %10s %12s %12s %7s %9s %11s %13s\n", "region (by DRAM bytes)", "loads", "stores",
            "bytes read", "written", "R/W", "lines", "WS bytes", "DRAM bytes");
    for (size_t i = 0; i < t->n_region_rows && i < TEXT_REGIONS; i++) {
        const region_view v = view_of(t, &t->region_rows[i]);
        const edan_opmix *x = &v.row->mix;
        fprintf(f, "  %-34.34s %10" PRIu64 " %10" PRIu64 " %12" PRIu64 " %12" PRIu64 " %7.3g %9.0f %11.0f %13.0f\n",
                v.def->name, x->loads, x->stores, x->load_bytes, x->store_bytes, v.read_write, v.lines, v.working_set,
                v.rd + v.wr);
    }
    if (t->n_region_rows > TEXT_REGIONS)
        fprintf(f, "  (%zu more regions; --json lists all)\n", t->n_region_rows - TEXT_REGIONS);
}

void proj_regions_json(const proj_tool *t, FILE *f)
{
    fputs(",\"regions\":[", f);
    for (size_t i = 0; i < t->n_region_rows; i++) {
        const region_view v = view_of(t, &t->region_rows[i]);
        const edan_opmix *x = &v.row->mix;
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        edan_json_str(f, v.def->name);
        fprintf(f, ",\"kind\":\"%s\"", kind_names[v.def->kind]);
        if (v.def->kind == EDAN_REGION_OBJECT)
            fprintf(f, ",\"start\":%" PRIu64 ",\"end\":%" PRIu64, v.def->start, v.def->end);
        else
            fputs(",\"start\":null,\"end\":null", f);
        fprintf(f,
                ",\"loads\":%" PRIu64 ",\"stores\":%" PRIu64 ",\"load_bytes\":%" PRIu64 ",\"store_bytes\":%" PRIu64
                ",\"read_write_ratio\":",
                x->loads, x->stores, x->load_bytes, x->store_bytes);
        edan_json_num(f, v.read_write);
        fprintf(f, ",\"lines\":%.0f,\"block_accesses\":%" PRIu64 ",\"working_set_bytes\":%.0f", v.lines,
                v.row->lru.accesses, v.working_set);
        fprintf(f,
                ",\"dram_read_bytes\":%.0f,\"dram_write_bytes\":%.0f,\"dirty_at_end_bytes\":%.0f,\"dram_bytes\":%.0f}",
                v.rd, v.wr, v.flushed, v.rd + v.wr);
    }
    fputc(']', f);
}

/* A CSV field: quoted, its quotes doubled, when it holds a comma, a quote or a line break (RFC 4180). */
static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int proj_regions_csv(const proj_tool *t, edan_error *err)
{
    edan_output out;
    FILE *f = edan_output_fopen(&out, t->regions_csv, "--projection-regions-csv", err);
    if (!f)
        return -1;
    fputs("region,kind,start,end,loads,stores,load_bytes,store_bytes,read_write_ratio,lines,block_accesses,"
          "working_set_bytes,dram_read_bytes,dram_write_bytes,dirty_at_end_bytes,dram_bytes\n",
          f);
    for (size_t i = 0; i < t->n_region_rows; i++) {
        const region_view v = view_of(t, &t->region_rows[i]);
        const edan_opmix *x = &v.row->mix;
        csv_str(f, v.def->name);
        fprintf(f, ",%s,", kind_names[v.def->kind]);
        if (v.def->kind == EDAN_REGION_OBJECT)
            fprintf(f, "%#" PRIx64 ",%#" PRIx64, v.def->start, v.def->end);
        else
            fputc(',', f);
        fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", x->loads, x->stores, x->load_bytes,
                x->store_bytes);
        if (!isnan(v.read_write))
            fprintf(f, "%.6g", v.read_write);
        fprintf(f, ",%.0f,%" PRIu64 ",%.0f,%.0f,%.0f,%.0f,%.0f\n", v.lines, v.row->lru.accesses, v.working_set, v.rd,
                v.wr, v.flushed, v.rd + v.wr);
    }
    return edan_output_commit(&out, err);
}
