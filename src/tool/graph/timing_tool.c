/*
 * timing_tool.c - the prediction tool (--machine=FILE, --mem-latency=LIST):
 * the run time of the traced region on a described machine at each memory
 * latency, from the timing model (analysis/timing/timing.h), with the slope of run
 * time against memory latency and the relative slowdown.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "config/machine_file.h"
#include "isa/native.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/names.h"
#include "report/plot.h"
#include "tool/base/base.h"
#include "tool/graph/edag_tool.h"
#include "tool/graph/timing_tool.h"
#include "util/elf_symbols.h"
#include "util/parse.h"
#include "util/srcmap.h"

#define MAXK EDAN_TIMING_MAX_LATENCIES
#define TEXT_ROWS 10
#define JSON_LINES 20

/* The time of a function, or of a source line, at each latency. */
typedef struct attr_row {
    const char *name;     /* the function, or a line's file (NULL: unknown) */
    unsigned line;        /* 0 for a function */
    const char *function; /* a line's function */
    uint64_t instructions;
    double cycles[MAXK], stall[MAXK];
    double slope;
} attr_row;

typedef struct timing_tool {
    edan_timing *model;
    char path[512];
    bool attributed; /* the rows below were made (after the stream) */
    edan_elf elf;
    bool have_elf;
    edan_srcmap *src;
    attr_row *funcs, *lines;
    size_t n_funcs, n_lines;
    uint64_t max_ticks; /* the most ticks one instruction adds to a schedule (max_per_insn) */
} timing_tool;

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

/* "50,100,300" -> ns values; 0 or -1 with err set. */
static int parse_latencies(const char *value, double *out, int *n, edan_error *err)
{
    if (!value || !*value) {
        edan_error_set(err, "--mem-latency: a list of latencies in ns, like 50,100,300");
        return -1;
    }
    *n = 0;
    const char *p = value, *tok;
    size_t len;
    int rc;
    while ((rc = edan_list_next(&p, ",", &tok, &len)) > 0) {
        double d;
        if (*n == EDAN_TIMING_MAX_LATENCIES || edan_parse_double_n(tok, len, &d) || !(d >= 0) || d > 1e6) {
            edan_error_set(err, "--mem-latency: '%s' is not a list of 1 to %d latencies in ns from 0 to 10^6", value,
                           EDAN_TIMING_MAX_LATENCIES);
            return -1;
        }
        out[(*n)++] = d;
    }
    if (rc < 0) {
        edan_error_set(err, "--mem-latency: an empty element in '%s' (latencies are separated by one ',')", value);
        return -1;
    }
    return 0;
}

static int check_latencies(const char *value, edan_error *err)
{
    double l[EDAN_TIMING_MAX_LATENCIES];
    int n;
    return parse_latencies(value, l, &n, err);
}

/* "U,W,P[,R]" -> the sampling's unit, warm-up, period and periods per regime (timing.h); 0 or -1 with err set. */
static int parse_sampling(const char *value, edan_timing_sampling *out, edan_error *err)
{
    uint64_t v[4] = {EDAN_TIMING_SAMPLE_UNIT, EDAN_TIMING_SAMPLE_WARMUP, EDAN_TIMING_SAMPLE_PERIOD,
                     EDAN_TIMING_SAMPLE_REGIME};
    char buf[256];
    int n = 0;
    bool ok = value && *value && strlen(value) < sizeof buf;
    if (ok) {
        strcpy(buf, value);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); ok && tok; tok = strtok_r(NULL, ",", &save))
            ok = n < 4 && !edan_parse_u64(tok, &v[n++]);
    }
    *out = (edan_timing_sampling){v[0], v[1], v[2], v[3]};
    edan_error why = {0};
    if (!ok || n < 3 || edan_timing_sampling_check(out, &why)) {
        edan_error_set(
            err, "--sample-timing: '%s' is not UNIT,WARMUP,PERIOD[,REGIME] in instructions (like 1000,2000,64000)%s%s",
            value ? value : "", why.set ? ": " : "", why.set ? why.msg : "");
        return -1;
    }
    return 0;
}

static int check_sampling(const char *value, edan_error *err)
{
    edan_timing_sampling s;
    return parse_sampling(value, &s, err);
}

static int check_machine(const char *value, edan_error *err)
{
    edan_machine m;
    return edan_machine_load(value, &m, err);
}

static bool wanted(const edan_options *o)
{
    /* with --projection the machine is the projection's; the timing model runs when --mem-latency asks for it */
    return edan_options_last(o, "machine") != NULL &&
           (edan_options_last(o, "mem-latency") != NULL || edan_options_each(o, "projection", NULL, NULL) == 0);
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static void destroy(void *tool)
{
    timing_tool *t = tool;
    if (!t)
        return;
    edan_timing_free(t->model);
    if (t->have_elf)
        edan_elf_close(&t->elf);
    edan_srcmap_close(t->src);
    free(t->funcs);
    free(t->lines);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    const char *path = edan_options_last(o, "machine");
    const char *lats = edan_options_last(o, "mem-latency");
    edan_machine m;
    if (!path || edan_machine_load(path, &m, err))
        return NULL;
    double lat[EDAN_TIMING_MAX_LATENCIES];
    int n = 1;
    lat[0] = m.mem_latency_ns;
    if (lats && parse_latencies(lats, lat, &n, err))
        return NULL;
    timing_tool *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    snprintf(t->path, sizeof t->path, "%s", path);
    /*
     * The most cycles one instruction can add to a schedule: every latency of
     * the machine in a row, and the memory's transfers of a fill and a
     * write-back at each level (the ranges of machine files keep it finite).
     */
    double most_lat = 0,
           cyc = (double)m.frontend_cycles + m.mispredict_penalty + m.serialize_cycles + m.l1i.hit_latency;
    for (int k = 0; k < n; k++)
        most_lat = lat[k] > most_lat ? lat[k] : most_lat;
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        cyc += m.latency[c];
    for (int l = 0; l < m.n_data_levels; l++)
        cyc += m.data[l].hit_latency +
               2.0 * (m.n_data_levels + 1) * (m.data[l].geo.line * m.clock_ghz / m.mem_bandwidth_gbs + 1);
    cyc += most_lat * m.clock_ghz + 1;
    if (m.dram.present) { /* a read behind a full read queue and a write drain, each access a row conflict */
        const edan_machine_dram *d = &m.dram;
        cyc += ((double)d->read_queue + 2) * (d->trp + d->tras + d->trcd + d->tcl + d->tburst + d->tccd_l + d->trtp) *
                   m.clock_ghz +
               ((double)d->write_queue + 2) * (d->tburst + d->trtw + d->twtr + d->tcl) * m.clock_ghz +
               (d->frontend_ns + d->backend_ns) * m.clock_ghz;
    }
    /* each prefetch an access sends (each level's degree, each cascading to the levels below) is a miss more */
    for (int l = 0; l < m.n_data_levels; l++)
        if (m.data[l].prefetch.kind != EDAN_PREFETCH_NONE)
            cyc *= 1.0 + m.data[l].prefetch.degree;
    const double ticks = cyc * EDAN_TICKS_PER_CYCLE;
    t->max_ticks = ticks < 0x1p62 ? (uint64_t)ticks + 1 : 1ull << 62;
    if (!(t->model = edan_timing_new_threaded(&m, lat, n, o->threads, err))) {
        destroy(t);
        return NULL;
    }
    /* sampled by default (SMARTS, docs/model.md); --exact schedules every instruction */
    const char *spec = edan_options_last(o, "sample-timing");
    if (edan_options_each(o, "exact", NULL, NULL) == 0) {
        edan_timing_sampling smp = {EDAN_TIMING_SAMPLE_UNIT, EDAN_TIMING_SAMPLE_WARMUP, EDAN_TIMING_SAMPLE_PERIOD,
                                    EDAN_TIMING_SAMPLE_REGIME};
        if ((spec && parse_sampling(spec, &smp, err)) || edan_timing_set_sampling(t->model, &smp, err)) {
            destroy(t);
            return NULL;
        }
    }
    return t;
}

static edan_consumer consumer(void *tool)
{
    return edan_timing_consumer(((timing_tool *)tool)->model);
}

const edan_timing *edan_timing_tool_model(const edan_session *s)
{
    const timing_tool *t = edan_session_instance(s, &edan_timing_tool);
    return t ? t->model : NULL;
}

static const edan_error *error(const void *tool)
{
    return edan_timing_error(((const timing_tool *)tool)->model);
}

static void max_per_insn(const void *tool, uint64_t *memory, uint64_t *other)
{
    *memory = *other = ((const timing_tool *)tool)->max_ticks;
}

/* ===================================================================== */
/* Attribution to functions and source lines                              */
/* ===================================================================== */

static void row_add(attr_row *r, const edan_timing *m, uint32_t id)
{
    r->instructions += edan_timing_id_count(m, id);
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        r->cycles[k] += edan_timing_id_cycles(m, id, k);
        r->stall[k] += edan_timing_id_stall(m, id, k);
    }
}

/* Most time at the highest latency first (the last lane is not always the highest: compare all lanes' sum). */
static int by_time(const void *a, const void *b)
{
    const attr_row *x = a, *y = b;
    double sx = 0, sy = 0;
    for (int k = 0; k < MAXK; k++) {
        sx += x->cycles[k];
        sy += y->cycles[k];
    }
    return sx < sy ? 1 : sx > sy ? -1 : 0;
}

static int by_slope(const void *a, const void *b)
{
    const attr_row *x = a, *y = b;
    return x->slope < y->slope ? 1 : x->slope > y->slope ? -1 : by_time(a, b);
}

typedef struct line_key {
    const char *file, *function;
    unsigned line;
    uint32_t id;
} line_key;

static int line_cmp(const void *a, const void *b)
{
    const line_key *x = a, *y = b;
    int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    if (!c && !x->file && !y->file) /* no line information: a row per function, never one merged row */
        c = strcmp(x->function ? x->function : "", y->function ? y->function : "");
    return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

/* Group the model's per-instruction times by function (ELF symbols) and by source line (DWARF), once. */
static void attribute(timing_tool *t, const edan_session *s)
{
    if (t->attributed)
        return;
    t->attributed = true;
    const edan_timing *m = t->model;
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    if (!binary || !*binary || edan_elf_open(binary, &t->elf, &ignored))
        return;
    t->have_elf = edan_elf_linked_pcs(&t->elf);
    if (!t->have_elf)
        return;
    const uint32_t ids = edan_timing_ids(m);
    /* functions: one accumulator per symbol, plus one for code outside every symbol */
    attr_row *acc = calloc(t->elf.n_funcs + 1, sizeof *acc);
    line_key *keys = calloc(ids ? ids : 1, sizeof *keys);
    t->src = edan_srcmap_open(binary, &ignored);
    if (!acc || !keys) {
        free(acc);
        free(keys);
        return;
    }
    size_t n_keys = 0;
    for (uint32_t id = 0; id < ids; id++) {
        if (!edan_timing_id_count(m, id))
            continue;
        const uint64_t pc = edan_timing_id_pc(m, id);
        const edan_elf_func *f = edan_elf_func_at(&t->elf, pc);
        attr_row *r = &acc[f ? (size_t)(f - t->elf.funcs) : t->elf.n_funcs];
        r->name = f ? f->name : NULL;
        row_add(r, m, id);
        edan_srcloc loc = {NULL, NULL, 0};
        if (t->src)
            edan_srcmap_lookup(t->src, pc, &loc);
        /* a line's function is the innermost one, inlined or not: the code the line belongs to */
        keys[n_keys++] = (line_key){loc.file, loc.function ? loc.function : f ? f->name : NULL, loc.line, id};
    }
    for (size_t i = 0; i <= t->elf.n_funcs; i++)
        if (acc[i].instructions)
            acc[t->n_funcs++] = acc[i];
    t->funcs = acc;
    qsort(keys, n_keys, sizeof *keys, line_cmp);
    t->lines = calloc(n_keys ? n_keys : 1, sizeof *t->lines);
    for (size_t i = 0; t->lines && i < n_keys; i++) {
        if (!i || line_cmp(&keys[i], &keys[i - 1])) {
            attr_row *r = &t->lines[t->n_lines++];
            r->name = keys[i].file;
            r->line = keys[i].line;
            r->function = keys[i].function;
        }
        row_add(&t->lines[t->n_lines - 1], m, keys[i].id);
    }
    free(keys);
    for (size_t i = 0; i < t->n_funcs; i++)
        t->funcs[i].slope = edan_timing_slope_of(m, t->funcs[i].cycles);
    for (size_t i = 0; i < t->n_lines; i++)
        t->lines[i].slope = edan_timing_slope_of(m, t->lines[i].cycles);
    qsort(t->funcs, t->n_funcs, sizeof *t->funcs, by_time);
    /* one latency has no slope: the lines by time, as the functions */
    qsort(t->lines, t->n_lines, sizeof *t->lines, edan_timing_lanes(m) > 1 ? by_slope : by_time);
}

/* ===================================================================== */
/* Report                                                                 */
/* ===================================================================== */

/* The lanes of the lowest and the highest latency. */
static void lane_range(const edan_timing *m, int *lo, int *hi)
{
    *lo = *hi = 0;
    for (int k = 1; k < edan_timing_lanes(m); k++) {
        if (edan_timing_lane_get(m, k).mem_latency_ns < edan_timing_lane_get(m, *lo).mem_latency_ns)
            *lo = k;
        if (edan_timing_lane_get(m, k).mem_latency_ns > edan_timing_lane_get(m, *hi).mem_latency_ns)
            *hi = k;
    }
}

static void rows_text(const timing_tool *t, FILE *f, const attr_row *rows, size_t n, bool lines, bool wide)
{
    const edan_timing *m = t->model;
    int lo, hi;
    lane_range(m, &lo, &hi);
    const double total = edan_timing_lane_get(m, hi).cycles;
    char at_lo[32], at_hi[32];
    snprintf(at_lo, sizeof at_lo, "cycles@%gns", edan_timing_lane_get(m, lo).mem_latency_ns);
    snprintf(at_hi, sizeof at_hi, "cycles@%gns", edan_timing_lane_get(m, hi).mem_latency_ns);
    /* one latency: one cycles column and no slope (there is nothing to compare it with) */
    const bool one = edan_timing_lanes(m) == 1;
    if (one)
        fprintf(f, "  %-40s %12s %14s %7s\n", lines ? "source line (by time)" : "function (by time)", "instructions",
                at_hi, "share");
    else
        fprintf(f, "  %-40s %12s %14s %14s %10s %7s\n", lines ? "source line (by slope)" : "function (by time)",
                "instructions", at_lo, at_hi, "slope", "share");
    for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
        const attr_row *r = &rows[i];
        char name[1100];
        if (lines && !r->name) /* code without line information: its function's own row */
            snprintf(name, sizeof name, "?? (%s)", r->function ? r->function : "no symbol");
        else if (lines) {
            const char *base = strrchr(r->name, '/');
            snprintf(name, sizeof name, "%s:%u (%s)", base ? base + 1 : r->name, r->line,
                     r->function ? r->function : "?");
        } else
            snprintf(name, sizeof name, "%s", r->name ? r->name : "(no symbol)");
        const double share = total > 0 ? 100.0 * r->cycles[hi] / total : 0.0;
        fputs("  ", f);
        edan_name_field(f, name, 40, wide);
        if (one)
            fprintf(f, " %12" PRIu64 " %14.0f %6.1f%%\n", r->instructions, r->cycles[hi], share);
        else
            fprintf(f, " %12" PRIu64 " %14.0f %14.0f %10.4g %6.1f%%\n", r->instructions, r->cycles[lo], r->cycles[hi],
                    r->slope, share);
    }
    if (n > TEXT_ROWS)
        fprintf(f, "  (%zu more; --json lists %s)\n", n - TEXT_ROWS, lines ? "the top 20" : "all");
}

static void rows_json(const timing_tool *t, FILE *f, const char *key, const attr_row *rows, size_t n, bool lines)
{
    const edan_timing *m = t->model;
    fprintf(f, ",\"%s\":", key);
    if (!t->have_elf) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (size_t i = 0; i < n && (!lines || i < JSON_LINES); i++) {
        const attr_row *r = &rows[i];
        fputs(i ? ",{" : "{", f);
        if (lines) {
            fputs("\"file\":", f);
            edan_json_str(f, r->name);
            fprintf(f, ",\"line\":%u,\"function\":", r->line);
            edan_json_str(f, r->function);
        } else {
            fputs("\"name\":", f);
            edan_json_str(f, r->name);
        }
        fprintf(f, ",\"instructions\":%" PRIu64 ",\"cycles\":", r->instructions);
        edan_json_num_array(f, r->cycles, (size_t)edan_timing_lanes(m));
        fputs(",\"mem_stall_cycles\":", f);
        edan_json_num_array(f, r->stall, (size_t)edan_timing_lanes(m));
        fputs(",\"slope_ns_per_ns\":", f);
        edan_json_num(f, r->slope);
        fputc('}', f);
    }
    fputc(']', f);
}

/* --sampled: how much was scheduled, and each estimate's 95 % confidence interval. */
static void sampling_text(const edan_timing *m, FILE *f)
{
    edan_timing_sample_info si;
    edan_timing_sample_info_get(m, &si);
    if (!si.sampled)
        return;
    const uint64_t n = edan_timing_counts_get(m)->instructions;
    fprintf(f,
            "  sampled                   unit %" PRIu64 ", warm-up %" PRIu64 ", period up to %" PRIu64 " (from %" PRIu64
            " measured)\n",
            si.cfg.unit, si.cfg.warmup, si.cfg.period, si.cfg.regime ? si.cfg.unit : si.cfg.period);
    fprintf(f, "                            %" PRIu64 " units, %.1f%% of instructions measured, %.1f%% scheduled%s\n",
            si.units, n ? 100.0 * (double)si.measured / (double)n : 0.0,
            n ? 100.0 * (double)si.detailed / (double)n : 0.0, si.covered ? ": every instruction, exact" : "");
    if (!si.covered)
        fputs("                            cycles, slope and the tables below are estimates; +-: 95% confidence\n", f);
}

static void report_text(const timing_tool *t, bool wide, FILE *f)
{
    const edan_timing *m = t->model;
    const edan_machine *mc = edan_timing_machine(m);
    const edan_timing_counts *c = edan_timing_counts_get(m);
    edan_timing_sample_info si;
    edan_timing_sample_info_get(m, &si);
    const bool ci = si.sampled && !si.covered; /* the estimates' 95 % confidence half-widths beside them */
    fprintf(f, "\nprediction on machine %s (%s)\n", mc->name, t->path);
    edan_timing_dram_text(m, ci, f);
    fprintf(f, "  %14s %16s %16s %12s%s\n", "mem latency ns", "cycles", "seconds", "mem stall",
            ci ? "       +- 95%" : "");
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        edan_timing_lane l = edan_timing_lane_get(m, k);
        fprintf(f, "  %14g %16.0f %16.6g %11.1f%%", l.mem_latency_ns, l.cycles, l.seconds,
                l.cycles > 0 ? 100.0 * l.mem_stall_cycles / l.cycles : 0.0);
        if (ci && isfinite(si.cycles_half[k]))
            fprintf(f, " %12.0f (%.2f%%)", si.cycles_half[k],
                    l.cycles > 0 ? 100.0 * si.cycles_half[k] / l.cycles : 0.0);
        else if (ci)
            fputs("   (too few units)", f);
        fputc('\n', f);
    }
    if (edan_timing_lanes(m) > 1) {
        if (ci && isfinite(si.slope_half))
            fprintf(f, "  slope                     %.4g +- %.2g ns of run time per ns of memory latency\n",
                    edan_timing_slope(m), si.slope_half);
        else
            fprintf(f, "  slope                     %.4g ns of run time per ns of memory latency\n",
                    edan_timing_slope(m));
        fprintf(f, "  slowdown                  %.4gx (highest latency against lowest)\n", edan_timing_slowdown(m));
    }
    sampling_text(m, f);
    fprintf(f, "  instructions              %" PRIu64 " (%" PRIu64 " loads, %" PRIu64 " stores)\n", c->instructions,
            c->loads, c->stores);
    fprintf(f, "  L1i misses                %" PRIu64 "\n", c->l1i_misses);
    for (int l = 0; l < mc->n_data_levels; l++)
        fprintf(f, "  %-4s hits / misses        %" PRIu64 " / %" PRIu64 "\n", edan_timing_level_label(l),
                c->level_hits[l], c->level_misses[l]);
    fprintf(f, "  memory lines read         %" PRIu64 " (%" PRIu64 " bytes moved)\n", c->ram_lines, c->ram_bytes);
    edan_timing_prefetch_text(m, f);
    fprintf(f, "  branches / mispredicted   %" PRIu64 " / %" PRIu64 "\n", c->branches, c->mispredicts);
    if (c->serializing)
        fprintf(f,
                "  serializing instructions  %" PRIu64
                " (CSR accesses such as frflags, ecall, sc: each drains the window)\n",
                c->serializing);
    if (t->have_elf) {
        rows_text(t, f, t->funcs, t->n_funcs, false, wide);
        rows_text(t, f, t->lines, t->n_lines, true, wide);
    }
    if (c->unaddressed)
        fprintf(f,
                "  note: %" PRIu64 " instructions have no address (a text trace): instruction fetch and branch\n"
                "        prediction are not modelled for them\n",
                c->unaddressed);
}

/* The lanes' values of one kind: 0 latency, 1 cycles, 2 seconds, 3 the share of time stalled on memory. */
static void json_lanes(FILE *f, const char *key, const edan_timing *m, int what)
{
    double v[EDAN_TIMING_MAX_LATENCIES];
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        edan_timing_lane l = edan_timing_lane_get(m, k);
        v[k] = what == 0   ? l.mem_latency_ns
               : what == 1 ? l.cycles
               : what == 2 ? l.seconds
                           : (l.cycles > 0 ? l.mem_stall_cycles / l.cycles : 0);
    }
    fprintf(f, ",\"%s\":", key);
    edan_json_num_array(f, v, (size_t)edan_timing_lanes(m));
}

/* "sampling": null unsampled; else its parameters, what it scheduled and the 95 % half-widths (null: unknown). */
static void sampling_json(const edan_timing *m, FILE *f)
{
    edan_timing_sample_info si;
    edan_timing_sample_info_get(m, &si);
    fputs(",\"sampling\":", f);
    if (!si.sampled) {
        fputs("null", f);
        return;
    }
    fprintf(f,
            "{\"unit\":%" PRIu64 ",\"warmup\":%" PRIu64 ",\"period\":%" PRIu64 ",\"regime\":%" PRIu64
            ",\"units\":%" PRIu64 ",\"measured\":%" PRIu64 ",\"scheduled\":%" PRIu64
            ",\"exact\":%s,\"confidence\":0.95",
            si.cfg.unit, si.cfg.warmup, si.cfg.period, si.cfg.regime, si.units, si.measured, si.detailed,
            si.covered ? "true" : "false");
    double lo[MAXK], hi[MAXK];
    bool finite = true;
    for (int k = 0; k < edan_timing_lanes(m); k++) {
        const double c = edan_timing_lane_get(m, k).cycles;
        finite = finite && isfinite(si.cycles_half[k]);
        lo[k] = c - si.cycles_half[k];
        hi[k] = c + si.cycles_half[k];
    }
    fputs(",\"cycles_low\":", f);
    if (finite)
        edan_json_num_array(f, lo, (size_t)edan_timing_lanes(m));
    else
        fputs("null", f);
    fputs(",\"cycles_high\":", f);
    if (finite)
        edan_json_num_array(f, hi, (size_t)edan_timing_lanes(m));
    else
        fputs("null", f);
    fputs(",\"slope_half_width\":", f);
    if (isfinite(si.slope_half))
        edan_json_num(f, si.slope_half);
    else
        fputs("null", f);
    fputc('}', f);
}

static void report_json(const timing_tool *t, FILE *f)
{
    const edan_timing *m = t->model;
    const edan_machine *mc = edan_timing_machine(m);
    const edan_timing_counts *c = edan_timing_counts_get(m);
    fputs(",\"prediction\":{\"machine\":{\"name\":", f);
    edan_json_str(f, mc->name);
    fputs(",\"file\":", f);
    edan_json_str(f, t->path);
    fputs(",\"clock_ghz\":", f);
    edan_json_num(f, mc->clock_ghz);
    if (mc->dram.present) /* the lanes' latency is a link's on top of the DRAM's (docs/machines.md) */
        fputs(",\"memory\":\"dram\"", f);
    fputc('}', f);
    json_lanes(f, "mem_latency_ns", m, 0);
    json_lanes(f, "cycles", m, 1);
    json_lanes(f, "seconds", m, 2);
    json_lanes(f, "mem_stall_share", m, 3);
    fputs(",\"slope_ns_per_ns\":", f);
    edan_json_num(f, edan_timing_slope(m));
    fputs(",\"slowdown\":", f);
    edan_json_num(f, edan_timing_slowdown(m));
    fprintf(f,
            ",\"counts\":{\"instructions\":%" PRIu64 ",\"loads\":%" PRIu64 ",\"stores\":%" PRIu64
            ",\"l1i_misses\":%" PRIu64 ",\"levels\":[",
            c->instructions, c->loads, c->stores, c->l1i_misses);
    for (int l = 0; l < mc->n_data_levels; l++)
        fprintf(f, "%s{\"hits\":%" PRIu64 ",\"misses\":%" PRIu64 "}", l ? "," : "", c->level_hits[l],
                c->level_misses[l]);
    fprintf(f,
            "],\"memory_lines\":%" PRIu64 ",\"memory_bytes\":%" PRIu64 ",\"branches\":%" PRIu64
            ",\"mispredicts\":%" PRIu64 ",\"serializing\":%" PRIu64 ",\"unaddressed\":%" PRIu64 "}",
            c->ram_lines, c->ram_bytes, c->branches, c->mispredicts, c->serializing, c->unaddressed);
    edan_timing_prefetch_json(m, f);
    edan_timing_dram_json(m, f);
    sampling_json(m, f);
    rows_json(t, f, "functions", t->funcs, t->n_funcs, false);
    rows_json(t, f, "lines", t->lines, t->n_lines, true);
    fputc('}', f);
}

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    timing_tool *t = tool;
    attribute(t, s);
    if (fmt == EDAN_FORMAT_JSON)
        report_json(t, f);
    else
        report_text(t, edan_session_options(s)->wide, f); /* the table form is the same rows */
}

/* --plot-dir: run time against memory latency, the eDAG's bound beside it; --csv-dir: the prediction's tables. */
static int outputs(void *tool, const edan_session *s, edan_error *err)
{
    const timing_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    char name[1100];
    edan_session_file_base(s, name, sizeof name);
    if (o->csv_dir[0] && edan_timing_prediction_csv(t->model, o->csv_dir, name, err))
        return -1;
    if (!o->plot_dir[0])
        return 0;
    char ident[1600];
    edan_session_plot_ident(s, ident, sizeof ident);
    return edan_plot_prediction(t->model, edan_edag_tool_analysis(s), o, o->plot_dir, name, ident, err);
}

static const edan_tool_option options[] = {
    {"machine", EDAN_VALUE_INPUT,
     "  --machine=NAME|FILE predict the region's run time on the machine FILE describes\n"
     "                      (docs/machines.md), or a shipped one by NAME (edan machines):\n"
     "                      an out-of-order core, its caches and memory, scheduled by the\n"
     "                      timing model (docs/model.md); the eDAG's caches become the\n"
     "                      machine's data caches unless --cache is given\n",
     check_machine},
    {"mem-latency", true,
     "  --mem-latency=LIST  memory latencies in ns to predict at, in one pass, with the\n"
     "                      slope and slowdown between them [the machine file's]\n",
     check_latencies},
    {"exact", false,
     "  --exact             schedule every instruction (the full timing model): exact cycles,\n"
     "                      slope and per-line times, at several times the sampled cost\n",
     NULL},
    {"sampled", false,
     "  --sampled           the default: the schedule sampled (SMARTS); caches and predictor\n"
     "                      see every instruction, the core is scheduled on periodic units;\n"
     "                      cycles and slope come with a 95% confidence interval (docs/model.md)\n",
     NULL},
    {"sample-timing", true,
     "  --sample-timing=U,W,P[,R]  the sampling's units of U instructions, W of warm-up before\n"
     "                      each, a period of up to P, doubling from U after every R periods\n"
     "                      [1000,2000,64000,200]; P = U schedules everything\n",
     check_sampling},
    {NULL, false, NULL, NULL},
};

/* its plots put the eDAG's bounds beside the prediction */
static const edan_tool_def *const uses[] = {&edan_edag_tool, NULL};

const edan_tool_def edan_timing_tool = {
    .name = "prediction",
    .summary = "run time on a described machine at each memory latency (timing model)",
    .uses = uses,
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .outputs = outputs,
    .destroy = destroy,
    .max_per_insn = max_per_insn,
    .threaded = true,
    .reads_program = true,
};
