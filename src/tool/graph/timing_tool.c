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
#include "report/plot.h"
#include "tool/base/base.h"
#include "tool/graph/edag_tool.h"
#include "tool/graph/timing_tool.h"
#include "util/parse.h"
#include "util/symbols/symbols.h"

#define MAXK EDAN_TIMING_MAX_LATENCIES

typedef edan_timing_attr attr_row;

typedef struct timing_tool {
    edan_timing *model;
    char path[512];
    bool attributed;          /* the rows below were made (after the stream) */
    edan_elf elf;             /* the ELF's functions when src could not be opened (own_elf) */
    const edan_elf *funcs_of; /* src's functions, or &elf: the file is read once */
    bool own_elf, have_elf;
    edan_srcmap *src;
    edan_srcmap_ahead *src_ahead; /* src being opened while the stream runs (NULL: opened by attribute()) */
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

/*
 * "U,W,P[,R[,S]]" -> the sampling's unit, warm-up, period, periods per regime
 * and the draws' seed (timing.h); 0 or -1 with err set.
 */
static int parse_sampling(const char *value, edan_timing_sampling *out, edan_error *err)
{
    uint64_t v[5] = {EDAN_TIMING_SAMPLE_UNIT, EDAN_TIMING_SAMPLE_WARMUP, EDAN_TIMING_SAMPLE_PERIOD,
                     EDAN_TIMING_SAMPLE_REGIME, 0};
    char buf[256];
    int n = 0;
    bool ok = value && *value && strlen(value) < sizeof buf;
    if (ok) {
        strcpy(buf, value);
        char *save = NULL;
        for (char *tok = strtok_r(buf, ",", &save); ok && tok; tok = strtok_r(NULL, ",", &save))
            ok = n < 5 && !edan_parse_u64(tok, &v[n++]);
    }
    *out = (edan_timing_sampling){v[0], v[1], v[2], v[3], v[4]};
    edan_error why = {0};
    if (!ok || n < 3 || edan_timing_sampling_check(out, &why)) {
        edan_error_set(err,
                       "--sample-timing: '%s' is not UNIT,WARMUP,PERIOD[,REGIME[,SEED]] (like 2000,1000,64000)%s%s",
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

/* "[START,]N" -> the schedule dump's window (vertices of the region); 0 or -1 with err set. */
static int parse_window(const char *value, uint64_t *start, uint64_t *n, edan_error *err)
{
    const char *comma = value ? strchr(value, ',') : NULL;
    char a[32] = "0", b[32];
    bool ok = value && *value;
    if (ok && comma)
        ok = (size_t)(comma - value) < sizeof a && strlen(comma + 1) < sizeof b &&
             snprintf(a, sizeof a, "%.*s", (int)(comma - value), value) > 0 &&
             snprintf(b, sizeof b, "%s", comma + 1) > 0;
    else if (ok)
        ok = strlen(value) < sizeof b && snprintf(b, sizeof b, "%s", value) > 0;
    ok =
        ok && !edan_parse_u64(a, start) && !edan_parse_u64(b, n) && *n >= 1 && *n <= 10000000 && *start <= (1ull << 62);
    if (!ok) {
        edan_error_set(err, "--schedule-window: '%s' is not [START,]N: N from 1 to 10^7 instructions from START",
                       value ? value : "");
        return -1;
    }
    return 0;
}

static int check_window(const char *value, edan_error *err)
{
    uint64_t a, b;
    return parse_window(value, &a, &b, err);
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
    if (t->own_elf)
        edan_elf_close(&t->elf);
    edan_srcmap_ahead_end(t->src_ahead);
    edan_srcmap_close(t->src);
    free(t->funcs);
    free(t->lines);
    free(t);
}

/*
 * A machine that places pages at first touch loads the program's image
 * before it runs (timing.h, edan_timing_load_image()): the PT_LOAD segments
 * of the program the source names, at their link-time addresses. A
 * position-independent program's load address is not in the trace: its
 * image is placed at first touch, as the rest.
 */
static int load_image(edan_timing *model, const edan_session *s, const edan_machine *m, edan_error *err)
{
    const char *binary = edan_session_source(s)->binary;
    if (m->pages != EDAN_PAGES_FIRST_TOUCH || !binary || !*binary)
        return 0;
    edan_elf_data d;
    edan_error why = {0};
    if (edan_elf_segments_open(binary, &d, &why)) {
        edan_error_set(err, "%s (the machine's pages = first-touch places the program's image first)", why.msg);
        return -1;
    }
    edan_pagemap_range r[EDAN_ELF_MAX_SEGMENTS];
    size_t n = 0;
    for (size_t i = 0; i < d.n_segments && !d.is_pie; i++)
        r[n++] = (edan_pagemap_range){d.segments[i].start, d.segments[i].end};
    edan_elf_data_close(&d);
    return edan_timing_load_image(model, r, n, err);
}

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    const char *path = edan_options_last(o, "machine");
    const char *lats = edan_options_last(o, "mem-latency");
    edan_machine m;
    if (!path || edan_machine_load(path, &m, err))
        return NULL;
    if (!edan_report_whole_stream(o, edan_session_source(s)))
        m.page_zeroing = EDAN_ZEROING_NONE; /* which pages the program wrote before the region is not known */
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
    const char *dump = edan_options_last(o, "schedule-dump");
    const bool sampled = edan_options_each(o, "exact", NULL, NULL) == 0 && !dump;
    /*
     * The dump is of one thread's full schedule (timing.h): it implies --exact. Sampled, the lanes stay in one
     * model: each group of lanes repeats functional warming, the most of a sampled run's work, and the lanes' own
     * schedule runs on a few units only (LULESH's trace at 8 latencies: one model 0.82 s of CPU, two groups 1.17 s).
     */
    if (!(t->model = edan_timing_new_threaded(&m, lat, n, dump || sampled ? 1 : o->threads, err)) ||
        load_image(t->model, s, &m, err)) {
        destroy(t);
        return NULL;
    }
    /* sampled by default (SMARTS, docs/model.md); --exact schedules every instruction */
    const char *spec = edan_options_last(o, "sample-timing");
    if (sampled) {
        edan_timing_sampling smp = {EDAN_TIMING_SAMPLE_UNIT, EDAN_TIMING_SAMPLE_WARMUP, EDAN_TIMING_SAMPLE_PERIOD,
                                    EDAN_TIMING_SAMPLE_REGIME, 0};
        if ((spec && parse_sampling(spec, &smp, err)) || edan_timing_set_sampling(t->model, &smp, err)) {
            destroy(t);
            return NULL;
        }
    }
    if (dump) {
        const char *win = edan_options_last(o, "schedule-window");
        uint64_t start = 0, count = 10000;
        if ((win && parse_window(win, &start, &count, err)) || edan_timing_set_dump(t->model, start, count, 0, err)) {
            destroy(t);
            return NULL;
        }
    }
    /*
     * the report's source map, read while a trace is analysed (--threads=1: everything on the calling thread). Not
     * online, where this process is QEMU's and the guest's run dominates: there the thread, begun as the guest
     * starts, made the tracer miss a shared library's code (tests/library_views_test.py; the tracer finds objects
     * by this process's mappings, util/symbols/objects.h), for a reason not found.
     */
    const char *kind = edan_session_source(s)->kind;
    if (o->threads != 1 && kind && !strcmp(kind, "trace"))
        t->src_ahead = edan_srcmap_ahead_begin(edan_session_source(s)->binary);
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
    r->lanes = (size_t)edan_timing_lanes(m);
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
    if (!binary || !*binary)
        return;
    /* the source map reads the ELF's functions too: a program without DWARF has them read here */
    t->src = t->src_ahead ? edan_srcmap_ahead_take(t->src_ahead, &ignored) : edan_srcmap_open(binary, &ignored);
    /* a dynamically linked program's libraries by name too (their code keeps its run-time addresses) */
    const edan_objmap *objects = edan_session_source(s)->objects;
    if (t->src) {
        edan_srcmap_add_objects(t->src, objects, &ignored);
        t->funcs_of = edan_srcmap_elf(t->src);
    } else if (!edan_elf_open(binary, &t->elf, &ignored)) {
        edan_elf_add_objects(&t->elf, objects, &ignored);
        t->funcs_of = &t->elf;
        t->own_elf = true;
    }
    t->have_elf = t->funcs_of && edan_elf_linked_pcs(t->funcs_of);
    if (!t->have_elf)
        return;
    const edan_elf *elf = t->funcs_of;
    const uint32_t ids = edan_timing_ids(m);
    /*
     * functions: an accumulator per symbol that ran, plus one for code outside every symbol, made at its first
     * instruction (slot: the symbol's accumulator + 1, 0 none yet): a row is half a KiB and a program has
     * thousands of symbols, most of which never ran
     */
    uint32_t *slot = calloc(elf->n_funcs + 1, sizeof *slot);
    attr_row *acc = calloc(elf->n_funcs + 1, sizeof *acc);
    line_key *keys = calloc(ids ? ids : 1, sizeof *keys);
    if (!slot || !acc || !keys) {
        free(slot);
        free(acc);
        free(keys);
        return;
    }
    size_t n_keys = 0, n_acc = 0;
    for (uint32_t id = 0; id < ids; id++) {
        if (!edan_timing_id_count(m, id))
            continue;
        const uint64_t pc = edan_timing_id_pc(m, id);
        const edan_elf_func *f = edan_elf_func_at(elf, pc);
        const size_t fi = f ? (size_t)(f - elf->funcs) : elf->n_funcs;
        if (!slot[fi])
            slot[fi] = (uint32_t)++n_acc;
        attr_row *r = &acc[slot[fi] - 1];
        r->name = f ? f->name : NULL;
        row_add(r, m, id);
        edan_srcloc loc = {NULL, NULL, 0};
        if (t->src)
            edan_srcmap_lookup(t->src, pc, &loc);
        /* a line's function is the innermost one, inlined or not: the code the line belongs to */
        keys[n_keys++] = (line_key){loc.file, loc.function ? loc.function : f ? f->name : NULL, loc.line, id};
    }
    /* the rows in the symbols' order, as the sort by time below has always found them */
    t->funcs = calloc(n_acc ? n_acc : 1, sizeof *t->funcs);
    for (size_t i = 0; t->funcs && i <= elf->n_funcs; i++)
        if (slot[i] && acc[slot[i] - 1].instructions)
            t->funcs[t->n_funcs++] = acc[slot[i] - 1];
    free(slot);
    free(acc);
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
/* Report (timing_prediction.c)                                           */
/* ===================================================================== */

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    timing_tool *t = tool;
    attribute(t, s);
    /* the table form is the text's rows */
    edan_timing_report(f, t->model, t->path, t->have_elf ? t->funcs : NULL, t->n_funcs, t->lines, t->n_lines,
                       fmt == EDAN_FORMAT_JSON, edan_session_options(s)->wide);
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
    const char *dump = edan_options_last(o, "schedule-dump");
    if (dump) {
        FILE *f = fopen(dump, "w");
        if (!f) {
            edan_error_set(err, "--schedule-dump: cannot write %s", dump);
            return -1;
        }
        const int rc = edan_timing_dump_csv(t->model, f, err);
        if (fclose(f) && !rc) {
            edan_error_set(err, "--schedule-dump: cannot write %s", dump);
            return -1;
        }
        if (rc)
            return -1;
    }
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
     "  --sample-timing=U,W,P[,R[,S]]  the sampling's units of U instructions, W of warm-up\n"
     "                      before each, a period of up to P, doubling from U after every R\n"
     "                      periods [2000,1000,64000,200]; P = U schedules everything; S\n"
     "                      another draw of the units' places [0]\n",
     check_sampling},
    {"schedule-dump", EDAN_VALUE_OUTPUT,
     "  --schedule-dump=FILE  the full schedule (--exact) of the first latency's lane as CSV,\n"
     "                      one row per instruction of --schedule-window: its fetch, dispatch,\n"
     "                      issue, completion and commit cycles and what set each (docs/model.md)\n",
     NULL},
    {"schedule-window", true,
     "  --schedule-window=[START,]N  the instructions of the region the dump holds [0,10000]\n", check_window},
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
    .tables = edan_timing_tables,
    .outputs = outputs,
    .destroy = destroy,
    .max_per_insn = max_per_insn,
    .threaded = true,
    .reads_program = true,
};
